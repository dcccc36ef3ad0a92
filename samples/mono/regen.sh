#!/bin/sh
# Rebuilds the Mono samples: compiles the C# programs with mcs, runs them
# under Mono's log profiler and writes mprof-report's outputs beside each
# .mlpd (the oracles tests/cli_mlpd.sh and tests/test_mlpd.c compare with).
# Needs mono-devel, libmono-profiler and mono-utils (Mono 6.8).
# Thread timing changes the files from run to run; the tests compare
# heapscope with the mprof-report outputs written here, so both always
# come from the same run.
#
#   ./regen.sh            every sample
#   ./regen.sh NAME...    only these (e.g. excmon churn-killed)
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for p in Leak Sites Threads Churn ExcMon Deep Workers Domains Cpu Tasks; do
    mcs -nowarn:649,414 -r:Mono.Profiler.Log.dll $p.cs -out:"$tmp/$p.exe"
done

wanted() { # NAME: asked for on the command line (or nothing asked)
    [ -z "$only" ] && return 0
    case " $only " in *" $1 "*) return 0 ;; esac
    return 1
}
only="$*"

reports() { # FILE BASE
    # mprof-report reads gzip files itself. --traces gives the backtraces
    # (all 32 frames) and the roots; stats are not in the default list.
    mprof-report --reports=heapshot,alloc --traces --maxframes=32 \
        --verbose "$1" >"$2.report"
    mprof-report --reports=stats "$1" >"$2.stats"
    mprof-report --reports=gc "$1" >"$2.gc"
    # The sampler's hits per method, every row (--verbose keeps those
    # under 0.1%): tests/cli_mlpd_sample.sh's oracle.
    case $1 in
    cpu-* | churn-100ms-sample*)
        mprof-report --reports=sample --verbose "$1" >"$2.sample" ;;
    esac
}

out_of() { # NAME PROFILER-OPTIONS: the file the profiler writes
    case $2 in *zip*) echo "$1.mlpd.gz" ;; *) echo "$1.mlpd" ;; esac
}

run() { # NAME PROGRAM PROFILER-OPTIONS [PROGRAM-ARGS]
    wanted "$1" || return 0
    name=$1 prog=$2 opts=$3
    shift 3
    rm -f "$name.mlpd" "$name.mlpd.gz"
    out=$(out_of "$name" "$opts")
    mono --profile="log:$opts,output=$out" "$tmp/$prog.exe" "$@" >/dev/null
    reports "$out" "$name"
}

# killed NAME PROGRAM OPTIONS SECONDS ARGS: SIGKILL after SECONDS. A plain
# file ends on a buffer boundary (each buffer is written whole), a zip
# file is a gzip stream without its end.
killed() {
    wanted "$1" || return 0
    name=$1 prog=$2 opts=$3 secs=$4
    shift 4
    rm -f "$name.mlpd" "$name.mlpd.gz"
    out=$(out_of "$name" "$opts")
    mono --profile="log:$opts,output=$out" "$tmp/$prog.exe" "$@" >/dev/null &
    pid=$!
    sleep "$secs"
    kill -KILL "$pid"
    { wait "$pid"; } 2>/dev/null || true
    reports "$out" "$name"
}

# cut NAME FROM NUM DEN: the first NUM/DEN of sample FROM's bytes (as a
# partial copy leaves it: cut inside a buffer).
cut_file() {
    wanted "${1%%.mlpd*}" || return 0
    size=$(stat -c %s "$2")
    head -c $((size * $3 / $4)) "$2" >"$1"
    reports "$1" "${1%%.mlpd*}"
}

run leak-ondemand Leak nodefaults,heapshot=ondemand
run leak-ondemand-zip Leak nodefaults,heapshot=ondemand,zip
run sites-alloc Sites nodefaults,alloc,maxframes=32
run sites-alloc-zip Sites nodefaults,alloc,maxframes=32,zip
run threads-alloc-heapshot Threads nodefaults,alloc,heapshot
# Legacy mode (no nodefaults): also exception, counter, root and move
# events, and JIT helper events with `jit`.
run sites-legacy Sites alloc,jit,maxframes=8
# Heap shots on a 100 ms timer while the heap turns over, with the
# statistical sampler (SAMPLE_HIT, SAMPLE_USYM).
run churn-100ms-sample Churn nodefaults,heapshot=100ms,sample 450
# CPU samples alone (log:sample; calls, alloc and heap shots off): the
# statistical sampler's hits with their managed backtraces and unmanaged
# symbols, at the default rate and at sample=1000, compressed.
run cpu-sample Cpu nodefaults,sample 1500
run cpu-sample1000-zip Cpu nodefaults,sample=1000,zip 1500
# Exceptions with catch, filter and finally clauses, lock contention, GC
# handles, finalizers and JIT helpers, and a heap shot at shutdown.
run excmon ExcMon nodefaults,exception,monitor,gchandle,finalization,jit,gc,heapshot-on-shutdown
# Enter/leave events: allocations carry no backtrace, the call chain is
# the thread's stack of entered methods.
run deep-calls-alloc Deep nodefaults,calls,alloc
# Backtraces cut to 8 frames, and none at all (gcalloc: allocations
# without GC events).
run deep-alloc-mf8 Deep nodefaults,alloc,maxframes=8
run deep-gcalloc-mf0 Deep nodefaults,gcalloc,maxframes=0
# Eight threads allocating classes only they create (late vtables), in
# legacy mode, compressed.
run workers-legacy-zip Workers alloc,heapshot,zip
# AppDomains unloaded in turn: vtable addresses reused by other classes.
run domains-gcalloc-zip Domains nodefaults,gcalloc,maxframes=0,zip
# GC events alone, of collections that worker threads start and another
# thread finishes (concurrent major collections).
run tasks-gc Tasks nodefaults,gc 20
# Killed runs and cut copies.
killed churn-killed Churn nodefaults,heapshot=100ms 0.8 5000
killed churn-killed-zip Churn nodefaults,heapshot=100ms,zip 1.5 5000
cut_file excmon-cut.mlpd excmon.mlpd 3 5
cut_file workers-legacy-cut.mlpd.gz workers-legacy-zip.mlpd.gz 2 3

# MANIFEST: the tools that wrote the samples, and per file its bytes and
# what mprof-report's stats counted (buffers, heap shots, allocations).
{
    echo "# generated by regen.sh; do not edit"
    echo "mono: $(mono --version | head -n 1)"
    echo "mprof-report: $(mprof-report --help 2>&1 | head -n 1)"
    echo "packages: $(dpkg-query -W -f '${Package} ${Version}, ' mono-runtime \
        libmono-profiler mono-utils mono-mcs 2>/dev/null | sed 's/, $//')"
    echo "# file bytes buffers heap_shots allocations (mprof-report --reports=stats)"
    for f in *.mlpd *.mlpd.gz; do
        s=${f%%.mlpd*}.stats
        printf '%s %s %s %s %s\n' "$f" "$(stat -c %s "$f")" \
            "$(awk '/Buffer count/ { print $3 }' "$s")" \
            "$(awk '/TYPE_HEAP_START/ { print $4 }' "$s" | grep . || echo 0)" \
            "$(awk '/TYPE_ALLOC_/ { n += $4 } END { print n + 0 }' "$s")"
    done
} >MANIFEST
ls -l ./*.mlpd ./*.mlpd.gz
