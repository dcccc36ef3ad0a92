// Exceptions, locks, GC handles and finalizers: exceptions thrown and caught
// through catch, filter (`when`) and finally clauses; threads contending for
// one lock; normal, pinned and weak GC handles made and freed; objects with
// finalizers left for the finalizer thread.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Threading;

namespace HeapScope.Samples {
    class Failure : Exception { public int Code; public Failure (int c) : base ("failure " + c) { Code = c; } }
    class Finalized {
        public static int done;
        public byte[] Data = new byte[24];
        ~Finalized () { Interlocked.Increment (ref done); }
    }
    class Counter<T> { public T Last; public int N; }
    static class ExcMon {
        static readonly object gate = new object ();
        static readonly Counter<string> shared = new Counter<string> ();
        static int caught, filtered, finals;

        static void Thrower (int i)
        {
            try {
                if (i % 2 == 0) throw new Failure (i);
                throw new InvalidOperationException ("odd " + i);
            } finally {
                finals++;
            }
        }

        static void Exceptions (int n)
        {
            for (int i = 0; i < n; i++) {
                try {
                    Thrower (i);
                } catch (Failure f) when (f.Code % 4 == 0) {
                    filtered++;
                } catch (Exception) {
                    caught++;
                }
            }
        }

        static void Contend (object arg)
        {
            int id = (int) arg;
            for (int i = 0; i < 200; i++) {
                lock (gate) {
                    shared.Last = "t" + id;
                    shared.N++;
                    if (i % 20 == 0) Thread.Sleep (1);
                }
            }
        }

        static void Handles (int n)
        {
            var kept = new List<GCHandle> ();
            for (int i = 0; i < n; i++) {
                var o = new byte[16 + i % 32];
                kept.Add (GCHandle.Alloc (o, i % 3 == 0 ? GCHandleType.Pinned
                                         : i % 3 == 1 ? GCHandleType.Normal
                                         : GCHandleType.Weak));
            }
            for (int i = 0; i < kept.Count; i += 2)
                kept[i].Free ();
        }

        static void Finalizers (int n)
        {
            for (int i = 0; i < n; i++)
                new Finalized ();
            GC.Collect ();
            GC.WaitForPendingFinalizers ();
        }

        static void Main ()
        {
            Exceptions (60);
            var threads = new Thread[4];
            for (int t = 0; t < threads.Length; t++) {
                threads[t] = new Thread (Contend) { Name = "locker-" + t };
                threads[t].Start (t);
            }
            foreach (var t in threads) t.Join ();
            Handles (90);
            Finalizers (50);
            Console.WriteLine ("caught {0} filtered {1} finally {2} lock {3} finalized {4}",
                caught, filtered, finals, shared.N, Finalized.done);
        }
    }
}
