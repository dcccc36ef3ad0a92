#!/bin/sh
# Rebuilds the Mono samples: compiles the C# programs with mcs, runs them
# under Mono's log profiler and writes mprof-report's outputs beside each
# .mlpd (the oracles tests/cli_mlpd.sh and tests/test_mlpd.c compare with).
# Needs mono-devel, libmono-profiler and mono-utils (Mono 6.8).
# Thread timing changes the files from run to run; the tests compare
# heapscope with the mprof-report outputs written here, so both always
# come from the same run.
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mcs -nowarn:649,414 -r:Mono.Profiler.Log.dll Leak.cs -out:"$tmp/Leak.exe"
mcs -nowarn:649,414 Sites.cs -out:"$tmp/Sites.exe"
mcs -nowarn:649,414 Threads.cs -out:"$tmp/Threads.exe"

run() { # NAME PROGRAM PROFILER-OPTIONS
    rm -f "$1.mlpd" "$1.mlpd.gz"
    out=$1.mlpd
    case $3 in *zip*) out=$1.mlpd.gz ;; esac
    mono --profile="log:$3,output=$out" "$tmp/$2.exe" >/dev/null
    # mprof-report reads gzip files itself. --traces gives the backtraces
    # (all 32 frames) and the roots; stats are not in the default list.
    mprof-report --reports=heapshot,alloc --traces --maxframes=32 \
        --verbose "$out" >"$1.report"
    mprof-report --reports=stats "$out" >"$1.stats"
    mprof-report --reports=gc "$out" >"$1.gc"
}

run leak-ondemand Leak nodefaults,heapshot=ondemand
run leak-ondemand-zip Leak nodefaults,heapshot=ondemand,zip
run sites-alloc Sites nodefaults,alloc,maxframes=32
run sites-alloc-zip Sites nodefaults,alloc,maxframes=32,zip
run threads-alloc-heapshot Threads nodefaults,alloc,heapshot
# Legacy mode (no nodefaults): also exception, counter, root and move
# events, and JIT helper events with `jit`.
run sites-legacy Sites alloc,jit,maxframes=8
ls -l ./*.mlpd ./*.mlpd.gz
