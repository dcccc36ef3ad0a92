// Collections started on one thread and finished on another: each round,
// four thread-pool tasks fill dictionaries and arrays of a struct, drop
// objects with finalizers and throw and catch an exception, while Main
// keeps a large array, a string and a 2,000-node generic chain, and
// collects every fifth round. Nursery collections on the worker threads
// start concurrent major collections (Mono's default collector) that
// another thread finishes.
using System;
using System.Collections.Generic;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace HeapScope.Samples {

struct Point { public double X, Y; public int Tag; }

class Node<T> { public T Value; public Node<T> Next; }

class Finalizable {
    public byte[] Payload = new byte[200];
    ~Finalizable() { Interlocked.Increment(ref TaskRounds.Finalized); }
}

class TaskRounds {
    public static int Finalized;
    static List<object> keep = new List<object>();

    static Node<string> Chain(int n) {
        Node<string> head = null;
        for (int i = 0; i < n; i++) head = new Node<string> { Value = "n" + i, Next = head };
        return head;
    }

    static void Work(int k) {
        var d = new Dictionary<string, int[]>();
        for (int i = 0; i < 3000; i++) d["k" + k + "_" + i] = new int[i % 40];
        var pts = new Point[5000];
        for (int i = 0; i < pts.Length; i++) pts[i] = new Point { X = i, Y = -i, Tag = k };
        lock (keep) { keep.Add(d); keep.Add(pts); }
        for (int i = 0; i < 200; i++) new Finalizable();
        try { throw new InvalidOperationException("w" + k); } catch (InvalidOperationException) { }
    }

    static void Main(string[] args) {
        int rounds = args.Length > 0 ? int.Parse(args[0]) : 20;
        for (int r = 0; r < rounds; r++) {
            var tasks = new Task[4];
            for (int t = 0; t < 4; t++) { int k = r * 4 + t; tasks[t] = Task.Run(() => Work(k)); }
            Task.WaitAll(tasks);
            keep.Add(new long[20000]); // large object space
            var sb = new StringBuilder();
            for (int i = 0; i < 2000; i++) sb.Append(i).Append(',');
            keep.Add(sb.ToString());
            keep.Add(Chain(2000));
            if (r % 5 == 4) { keep.RemoveRange(0, keep.Count / 2); GC.Collect(); }
            Thread.Sleep(10);
        }
        GC.Collect();
        GC.WaitForPendingFinalizers();
        Console.WriteLine("kept " + keep.Count + " finalized " + Finalized);
    }
}

}
