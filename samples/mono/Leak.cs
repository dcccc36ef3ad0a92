// A space leak: every round keeps a list of orders alive in a static cache
// and asks the log profiler for a heap shot (heapshot=ondemand), so the
// shots show the retained classes growing round by round.
using System;
using System.Collections.Generic;
using Mono.Profiler.Log;

namespace HeapScope.Samples {
    class Customer {
        public string Name;
        public Address Home;
        public class Address { public string Street; public int Number; }
    }
    class Order {
        public int Id;
        public Customer Buyer;
        public byte[] Payload;
    }
    static class Leak {
        static readonly List<Order> cache = new List<Order> ();
        static readonly Dictionary<int, string> labels = new Dictionary<int, string> ();

        static void Round (int round)
        {
            for (int i = 0; i < 150; i++) {
                var c = new Customer { Name = "customer " + i,
                    Home = new Customer.Address { Street = "street " + round, Number = i } };
                cache.Add (new Order { Id = round * 1000 + i, Buyer = c,
                    Payload = new byte[64 + (i % 8) * 16] });
                labels[round * 1000 + i] = "label " + i;
            }
            // Garbage that a shot must not count.
            for (int i = 0; i < 1000; i++) {
                var tmp = new int[8];
                tmp[0] = i;
            }
        }

        static void Main ()
        {
            for (int round = 0; round < 3; round++) {
                Round (round);
                GC.Collect ();
                LogProfiler.TriggerHeapshot ();
                GC.Collect ();
                System.Threading.Thread.Sleep (100); // spread the shots in time
            }
            Console.WriteLine ("cached {0} orders", cache.Count);
        }
    }
}
