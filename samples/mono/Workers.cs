// Many threads, each allocating classes that only it creates (a generic
// class over a per-thread type argument), while the main thread takes
// heap shots: vtables described in one thread's buffer are used in others.
using System;
using System.Collections.Generic;
using System.Threading;

namespace HeapScope.Samples {
    class Mine<T> { public T Tag; public int N; public Mine<T> Prev; }
    class W0 {} class W1 {} class W2 {} class W3 {}
    class W4 {} class W5 {} class W6 {} class W7 {}
    static class Workers {
        static readonly List<object> kept = new List<object> ();

        static void Run<T> (T tag) where T : class
        {
            Mine<T> last = null;
            for (int i = 0; i < 400; i++) {
                last = new Mine<T> { Tag = tag, N = i, Prev = i % 5 == 0 ? null : last };
                if (i % 50 == 0) { lock (kept) kept.Add (last); Thread.Sleep (1); }
            }
        }

        static void Main ()
        {
            var work = new ThreadStart[] {
                () => Run (new W0 ()), () => Run (new W1 ()), () => Run (new W2 ()),
                () => Run (new W3 ()), () => Run (new W4 ()), () => Run (new W5 ()),
                () => Run (new W6 ()), () => Run (new W7 ()) };
            var threads = new List<Thread> ();
            for (int i = 0; i < work.Length; i++) {
                var t = new Thread (work[i]) { Name = "owner-" + i };
                threads.Add (t);
                t.Start ();
            }
            for (int r = 0; r < 3; r++) { Thread.Sleep (4); GC.Collect (); }
            foreach (var t in threads) t.Join ();
            GC.Collect ();
            Console.WriteLine ("kept {0}", kept.Count);
        }
    }
}
