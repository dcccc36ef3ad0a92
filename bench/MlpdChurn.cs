// The program bench/mlpd_bench.sh runs under Mono's log profiler to get a
// real .mlpd: samples/mono/Churn.cs with a fixed number of steps instead of
// a time limit, so the file's size depends on STEPS (the first argument)
// and not on the machine's speed. Each step allocates a short chain, an
// array and a string; every 2000 steps a node joins a small ring of
// survivors and a list is made.
using System;
using System.Collections.Generic;
using System.Text;

namespace HeapScope.Bench {
    class Node { public int Key; public Node Next; public string Label; }
    struct Pair { public int A, B; }
    static class MlpdChurn {
        static readonly Node[] ring = new Node[512];
        static object sink;

        static Node Chain (int n)
        {
            Node head = null;
            for (int i = 0; i < n; i++)
                head = new Node { Key = i, Next = head };
            return head;
        }

        static void Main (string[] args)
        {
            long steps = args.Length > 0 ? long.Parse (args[0]) : 3000000;
            int round = 0;
            for (long s = 0; s < steps; s++) {
                int i = (int)(s % 2000);
                sink = Chain (4);
                sink = new Pair[i % 8 + 1];
                sink = new StringBuilder ("r").Append (round).Append (i).ToString ();
                if (i == 1999) {
                    ring[round % ring.Length] = new Node { Key = round, Label = "kept " + round };
                    sink = new List<Pair> (round % 64);
                    round++;
                }
            }
            Console.WriteLine ("rounds {0}", round);
        }
    }
}
