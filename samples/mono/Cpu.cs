// Cpu: CPU-bound work in a few methods of different cost, on Main and on
// a worker thread, for the statistical sampler (log:sample): the
// per-method hit counts of the flame graph against mprof-report's.
using System;
using System.Threading;

namespace HeapScope.Samples {
    static class Cpu {
        static volatile int sink;

        static int Primes (int limit)
        {
            int n = 0;
            for (int i = 2; i < limit; i++) {
                bool p = true;
                for (int d = 2; d * d <= i; d++)
                    if (i % d == 0) { p = false; break; }
                if (p) n++;
            }
            return n;
        }

        static double Series (int terms)
        {
            double s = 0;
            for (int k = 1; k < terms; k++)
                s += Math.Sqrt (k) / (k + 1.0);
            return s;
        }

        static int Fib (int n) => n < 2 ? n : Fib (n - 1) + Fib (n - 2);

        static string Concat (int n)
        {
            var sb = new System.Text.StringBuilder ();
            for (int i = 0; i < n; i++)
                sb.Append (i % 10);
            return sb.ToString ();
        }

        static void Work (int ms)
        {
            var end = DateTime.UtcNow.AddMilliseconds (ms);
            while (DateTime.UtcNow < end) {
                sink += Primes (20000);
                sink += (int)Series (200000);
                sink += Fib (22);
                sink += Concat (2000).Length;
            }
        }

        static void Main (string[] args)
        {
            int ms = args.Length > 0 ? int.Parse (args[0]) : 600;
            var t = new Thread (() => Work (ms / 2)) { Name = "worker-0" };
            t.Start ();
            Work (ms);
            t.Join ();
            Console.WriteLine (sink);
        }
    }
}
