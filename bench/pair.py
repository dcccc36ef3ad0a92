#!/usr/bin/env python3
"""pair.py: two commands timed in turn, N pairs, the median of the ratios.

    bench/pair.py N CMD_A... -- CMD_B...

Runs A then B, N times, each with its output thrown away, and prints the
medians of A's and B's CPU time (user + system, from the children's
rusage), the median of the pairs' CPU ratios B/A with their range, the
median wall ratio and the medians of the system time. Pairing is what
makes a figure on a shared machine: the load changes between rounds,
much less between the two runs of one round.
"""
import resource
import statistics
import subprocess
import sys
import time


def run(cmd):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=False)
    wall = time.monotonic() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    sys_s = r1.ru_stime - r0.ru_stime
    return (r1.ru_utime - r0.ru_utime) + sys_s, wall, sys_s


def main(argv):
    if len(argv) < 4 or "--" not in argv[2:]:
        sys.exit(__doc__.strip())
    n = int(argv[1])
    cut = argv.index("--", 2)
    a_cmd, b_cmd = argv[2:cut], argv[cut + 1:]
    a_runs, b_runs = [], []
    for _ in range(n):
        a_runs.append(run(a_cmd))
        b_runs.append(run(b_cmd))
    med = statistics.median
    cpu = [b[0] / max(a[0], 1e-6) for a, b in zip(a_runs, b_runs)]
    wall = [b[1] / max(a[1], 1e-6) for a, b in zip(a_runs, b_runs)]
    print(f"CPU A {med(r[0] for r in a_runs):.3f} s  B "
          f"{med(r[0] for r in b_runs):.3f} s  ratio {med(cpu):.3f} "
          f"({min(cpu):.3f}-{max(cpu):.3f})  wall ratio {med(wall):.3f}  "
          f"system A {med(r[2] for r in a_runs):.3f} s  "
          f"B {med(r[2] for r in b_runs):.3f} s")


if __name__ == "__main__":
    main(sys.argv)
