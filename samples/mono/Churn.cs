// Churn: many short-lived objects and a small ring of survivors, for
// heap shots taken on a timer (heapshot=100ms) while the heap turns over.
using System;
using System.Collections.Generic;
using System.Text;

namespace HeapScope.Samples {
    class Node { public int Key; public Node Next; public string Label; }
    struct Pair { public int A, B; }
    static class Churn {
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
            int ms = args.Length > 0 ? int.Parse (args[0]) : 450;
            var start = DateTime.UtcNow;
            int round = 0;
            while ((DateTime.UtcNow - start).TotalMilliseconds < ms) {
                for (int i = 0; i < 2000; i++) {
                    sink = Chain (4);
                    sink = new Pair[i % 8 + 1];
                    sink = new StringBuilder ("r").Append (round).Append (i).ToString ();
                }
                ring[round % ring.Length] = new Node { Key = round, Label = "kept " + round };
                sink = new List<Pair> (round % 64);
                round++;
            }
            Console.WriteLine ("rounds {0}", round);
        }
    }
}
