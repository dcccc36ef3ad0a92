// Deep stacks and generics: allocations 40 frames below Main (deeper than
// the profiler's 32-frame backtraces), through generic methods and classes
// instantiated with value and reference types.
using System;
using System.Collections.Generic;

namespace HeapScope.Samples {
    class Leaf<T> { public T Value; public Leaf<T> Next; }
    struct Cell { public long A; public int B; }
    static class Deep {
        static readonly List<object> kept = new List<object> ();

        static void Make<T> (T v, int n)
        {
            for (int i = 0; i < n; i++) {
                var l = new Leaf<T> { Value = v };
                if (i % 10 == 0) kept.Add (l);
            }
        }

        static void Down (int depth)
        {
            if (depth > 0) { Down (depth - 1); return; }
            Make (1, 300);
            Make ("s", 200);
            Make (new Cell (), 100);
            kept.Add (new Dictionary<string, Cell> { { "a", new Cell () } });
        }

        static void Main ()
        {
            Down (40);
            Down (10);
            Make (2.5, 50);
            GC.Collect ();
            Console.WriteLine ("kept {0}", kept.Count);
        }
    }
}
