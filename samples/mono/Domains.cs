// AppDomains made and unloaded in turn: each allocates its own generic
// instances, and the runtime reuses the vtable (and class) addresses that
// an unloaded domain freed, so one pointer is described several times.
using System;
using System.Collections.Generic;

public class Holder<T> { public T V; public object Next; }

public class Worker : MarshalByRefObject {
    static readonly List<object> keep = new List<object> ();

    public int Run (int round)
    {
        for (int i = 0; i < 300; i++) {
            if (round % 3 == 0) keep.Add (new Holder<int> { V = i });
            else if (round % 3 == 1) keep.Add (new Holder<string> { V = "x" });
            else keep.Add (new Holder<double> { V = i });
        }
        GC.Collect ();
        return keep.Count;
    }
}

static class Domains {
    static void Main (string[] args)
    {
        int rounds = args.Length > 0 ? int.Parse (args[0]) : 3;
        for (int r = 0; r < rounds; r++) {
            var d = AppDomain.CreateDomain ("domain-" + r);
            var w = (Worker) d.CreateInstanceAndUnwrap (
                typeof (Worker).Assembly.FullName, "Worker");
            Console.WriteLine ("round {0}: {1}", r, w.Run (r));
            AppDomain.Unload (d);
            GC.Collect ();
        }
    }
}
