#!/bin/sh
# heapscope against mprof-report on .mlpd files, paired in one run:
#
#   heapscope info            vs  mprof-report FILE            (whole census)
#   heapscope events --count  vs  mprof-report --reports=stats (decoding)
#   heapscope info FILE.gz    vs  mprof-report FILE.gz         (gzip)
#
# on two files: a real one, written at bench time by Mono's log profiler
# (bench/MlpdChurn.cs compiled with mcs, run under
# `mono --profile=log:alloc,heapshot=...`), and a synthetic one from
# bench/gen_mlpd.c. Each pair runs RUNS times, the two tools one after the
# other, so that the machine's load falls on both alike. Printed per
# command: the median CPU time (user + system: what load on a shared
# machine changes least), the largest peak RSS, and per pair the median of
# the runs' CPU ratios heapscope / mprof-report (the goals, issue 27:
# info <= 0.67, events --count <= 0.5, gzip info <= 0.67, RSS < 64 MiB).
#
#     bench/mlpd_bench.sh [BUILD_DIR]
#
# Settings (environment):
#   BENCH_STEPS  steps of MlpdChurn (default 1500000: a file of about
#                380 MB; 100000 steps make about 26 MB)
#   HEAPSHOT     the profiler's heapshot option (default 200ms)
#   SIZE         synthetic file size in MB (default 200; 0 skips it)
#   RUNS         runs per pair (default 3)
#   BENCH_TMP    work directory, kept; files already in it are reused
#
# Files go to a temporary directory (removed at the end unless BENCH_TMP is
# set); nothing goes into the repository. Needs mcs and mono (mono-devel,
# libmono-profiler), mprof-report (mono-utils) and GNU time.
set -eu
build=${1:-build}
steps=${BENCH_STEPS:-1500000}
heapshot=${HEAPSHOT:-200ms}
size=${SIZE:-200}
runs=${RUNS:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
hs=$here/$build/heapscope
[ -x "$hs" ] || { echo "no $hs: build it first (meson setup $build && ninja -C $build)" >&2; exit 2; }
for t in mcs mono mprof-report /usr/bin/time; do
    command -v "$t" >/dev/null || { echo "mlpd_bench: $t is missing" >&2; exit 2; }
done
if [ -n "${BENCH_TMP:-}" ]; then
    tmp=$BENCH_TMP
    mkdir -p "$tmp"
else
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
fi

real=$tmp/churn-$steps.mlpd
if [ ! -s "$real" ]; then
    mcs -nowarn:414 -out:"$tmp/churn.exe" "$here/bench/MlpdChurn.cs" >/dev/null
    echo "writing $real: MlpdChurn $steps steps under mono --profile=log:alloc,heapshot=$heapshot" >&2
    mono --profile="log:alloc,heapshot=$heapshot,output=$real.part" \
        "$tmp/churn.exe" "$steps" >/dev/null
    mv "$real.part" "$real"
fi
files=$real
if [ "$size" != 0 ]; then
    synth=$tmp/synthetic-$size.mlpd
    if [ ! -s "$synth" ]; then
        cc -O2 -o "$tmp/gen_mlpd" "$here/bench/gen_mlpd.c"
        "$tmp/gen_mlpd" "$size" >"$synth"
    fi
    files="$files $synth"
fi
for f in $files; do
    [ -s "$f.gz" ] || gzip -c "$f" >"$f.gz"
    cat "$f" "$f.gz" >/dev/null # into the page cache
done

one() { # OUT COMMAND...: appends "CPU-seconds peak-KiB" to OUT
    out=$1
    shift
    /usr/bin/time -f "%U %S %M" -o "$tmp/t" "$@" >/dev/null 2>"$tmp/err" || {
        echo "failed: $* ($(head -c 300 "$tmp/err"))" >&2
        exit 1
    }
    awk '{ printf "%.2f %d\n", $1 + $2, $3 }' "$tmp/t" >>"$out"
}

median() { # FILE COLUMN
    sort -g -k"$2,$2" "$1" | awk -v c="$2" '{ v[NR] = $c }
        END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

# pair NAME FILE HS-ARGS -- MPROF-ARGS: RUNS paired runs, one line.
pair() {
    name=$1 file=$2
    shift 2
    hsargs=
    while [ "$1" != -- ]; do hsargs="$hsargs $1"; shift; done
    shift
    : >"$tmp/a"; : >"$tmp/b"; : >"$tmp/r"
    i=0
    while [ $i -lt "$runs" ]; do
        # shellcheck disable=SC2086 # word splitting wanted
        one "$tmp/a" "$hs" $hsargs "$file"
        one "$tmp/b" mprof-report "$@" "$file"
        paste "$tmp/a" "$tmp/b" | tail -n 1 |
            awk '{ print ($3 > 0 ? $1 / $3 : 0) }' >>"$tmp/r"
        i=$((i + 1))
    done
    awk -v n="$name" -v a="$(median "$tmp/a" 1)" -v b="$(median "$tmp/b" 1)" \
        -v r="$(median "$tmp/r" 1)" \
        -v ka="$(sort -n -k2,2 "$tmp/a" | tail -n 1 | cut -d' ' -f2)" \
        -v kb="$(sort -n -k2,2 "$tmp/b" | tail -n 1 | cut -d' ' -f2)" \
        'BEGIN { printf "%-16s %8.2f s %7.1f MiB  %8.2f s %7.1f MiB  %6.2fx\n",
                        n, a, ka / 1024, b, kb / 1024, r }'
}

for f in $files; do
    echo
    echo "$(basename "$f"): $(stat -L -c %s "$f") bytes, gzip $(stat -L -c %s "$f.gz"); \
$("$hs" events --count "$f" | awk '{ n += $NF } END { print n }') events; $runs runs per pair"
    printf '%-16s %10s %11s  %10s %11s  %7s\n' "" "heapscope" "peak RSS" \
        "mprof-rep." "peak RSS" "ratio"
    pair "info" "$f" info -- 
    pair "events --count" "$f" events --count -- --reports=stats
    pair "info (gzip)" "$f.gz" info --
done
echo
echo "CPU: median of user + system seconds; ratio: median of the runs' heapscope / mprof-report CPU"
