// A multi-threaded allocator: worker threads allocate classes that only
// they create first, so their vtables are described in their own buffers,
// which may reach the file after another thread's allocations of them.
using System;
using System.Collections.Generic;
using System.Threading;

namespace HeapScope.Samples {
    class WorkItemA { public int N; public string Tag; }
    class WorkItemB { public long A, B; public WorkItemA Link; }
    static class Threads {
        static readonly List<object> kept = new List<object> ();

        static void Work (object arg)
        {
            int id = (int) arg;
            var mine = new List<object> ();
            for (int i = 0; i < 250; i++) {
                var a = new WorkItemA { N = i, Tag = "w" + id + ":" + i };
                if (i % 3 == 0) mine.Add (new WorkItemB { A = i, Link = a });
                if (i % 100 == 0) Thread.Sleep (2);
            }
            lock (kept) kept.AddRange (mine);
        }

        static void Main ()
        {
            var threads = new Thread[4];
            for (int t = 0; t < threads.Length; t++) {
                threads[t] = new Thread (Work) { Name = "worker-" + t };
                threads[t].Start (t);
            }
            for (int round = 0; round < 2; round++) {
                Thread.Sleep (5);
                GC.Collect ();
            }
            foreach (var t in threads) t.Join ();
            GC.Collect ();
            Console.WriteLine ("kept {0}", kept.Count);
        }
    }
}
