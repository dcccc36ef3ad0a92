// Many allocation sites with distinct call stacks: each site is reached
// through a different chain of methods, some recursive, so allocation
// backtraces differ by depth and by caller.
using System;
using System.Collections.Generic;
using System.Text;

namespace HeapScope.Samples {
    class Box<T> { public T Value; public Box (T v) { Value = v; } }
    class Point { public double X, Y; }
    static class Sites {
        static object sink;

        static void AllocPoint (int n) { for (int i = 0; i < n; i++) sink = new Point { X = i }; }
        static void AllocString (int n) { for (int i = 0; i < n; i++) sink = new StringBuilder ().Append ("s").Append (i).ToString (); }
        static void AllocArray (int n) { for (int i = 0; i < n; i++) sink = new long[i % 16 + 1]; }
        static void AllocBox (int n) { for (int i = 0; i < n; i++) sink = new Box<int> (i); }
        static void AllocList (int n) { var l = new List<Point> (); for (int i = 0; i < n; i++) l.Add (new Point ()); sink = l; }

        static void Recurse (int depth, int n)
        {
            if (depth == 0) { AllocPoint (n); return; }
            if (depth % 3 == 0) AllocArray (n / 4);
            Recurse (depth - 1, n);
        }
        static void ViaA (int n) { AllocString (n); AllocBox (n / 2); }
        static void ViaB (int n) { AllocBox (n); AllocArray (n); }
        static void ViaC (int n) { ViaA (n / 2); ViaB (n / 3); AllocList (n); }

        static void Main ()
        {
            ViaA (300);
            ViaB (200);
            ViaC (240);
            Recurse (5, 100);
            Recurse (12, 60);
            Action<int> lambda = k => { sink = new Point[k]; };
            for (int i = 0; i < 50; i++) lambda (i);
            Console.WriteLine ("done");
        }
    }
}
