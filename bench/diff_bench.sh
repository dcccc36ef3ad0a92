#!/usr/bin/env bash
# `heapscope diff` speed and memory on two large censuses.
#
#   bench/diff_bench.sh [SAMPLES] [BANDS]
#
# Writes two runtime-style .hp files of SAMPLES samples (default 100000)
# over BANDS bands (default 1000), as bench/chart_bench.sh does: ten steady
# bands in every sample and ten more taken in turn from the rest. The
# "after" file has other sizes, a tenth of the bands renamed (new and gone
# bands) and closure-description-like names with other generated suffixes,
# so matching, normalising and sorting all have work. Then times, with peak
# RSS: loading one of them (`info`: a diff loads two), `diff` as
# text, `--json`, `--normalize`, `--by peak`, and the chart `-o x.svg`.
#
# Environment: HEAPSCOPE=build/heapscope (relative to the repository root),
# RUNS=3 (the median is reported), BENCH_TMP= (kept work directory).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
samples=${1:-100000}
bands=${2:-1000}
bin=${HEAPSCOPE:-build/heapscope}
[[ $bin = /* ]] || bin=$root/$bin
runs=${RUNS:-3}
if [[ -n ${BENCH_TMP:-} ]]; then
    tmp=$BENCH_TMP
    mkdir -p "$tmp"
else
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/diff_bench.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
fi
[[ -x $bin ]] || { echo "no heapscope at $bin (build it first)" >&2; exit 1; }

# gen OUT SEED SUFFIX RENAME: one .hp file; bands named <Main.fN_sSUFFIXN>,
# those with N % 10 == RENAME renamed so they exist in this file only.
gen() {
    [[ -s $1 ]] && return
    awk -v n="$samples" -v nb="$bands" -v seed="$2" -v suf="$3" -v ren="$4" '
    function name(b) {
        if (b % 10 == ren) return sprintf("<Only%s.f%d>", suf, b)
        return sprintf("<Main.f%d_s%s%d>", b, suf, b)
    }
    BEGIN {
        print "JOB \"diff-bench +RTS -hd\""
        print "DATE \"Sun Nov 22 00:00 2026\""
        print "SAMPLE_UNIT \"seconds\""
        print "VALUE_UNIT \"bytes\""
        srand(seed)
        for (i = 0; i < n; i++) {
            printf "BEGIN_SAMPLE %.6f\n", i * 0.001
            for (b = 0; b < 10 && b < nb; b++)
                printf "%s\t%d\n", name(b), 100000 * (b + seed) + \
                    int(50000 * sin(i / 500.0 + b)) + 60000
            for (k = 0; k < 10 && nb > 10; k++) {
                b = 10 + (i * 10 + k) % (nb - 10)
                printf "%s\t%d\n", name(b), 1000 + int(rand() * 20000)
            }
            printf "END_SAMPLE %.6f\n", i * 0.001
        }
    }' >"$1.tmp" && mv "$1.tmp" "$1"
}

a=$tmp/before-$samples-$bands.hp
b=$tmp/after-$samples-$bands.hp
gen "$a" 1 Ab 3
gen "$b" 2 Xy 7
echo "inputs: 2 x $samples samples x $bands bands ($(du -h "$a" | cut -f1) each)"

# measure NAME CMD...: median wall time and its peak RSS over $runs runs
measure() {
    local name=$1
    shift
    local i lines=()
    for ((i = 0; i < runs; i++)); do
        /usr/bin/time -o "$tmp/time" -f '%e %M' "$@" >/dev/null 2>&1
        lines+=("$(tail -n1 "$tmp/time")")
    done
    printf '%s\n' "${lines[@]}" | sort -n | awk -v n="$name" -v r="$runs" '
        NR == int((r + 1) / 2) { printf "%-28s %6.2f s  %7.1f MiB\n", n, $1, $2 / 1024 }'
}

measure "load one (info)" "$bin" info "$a"
measure "diff (text)" "$bin" diff "$a" "$b"
measure "diff --json" "$bin" diff --json "$a" "$b"
measure "diff --normalize" "$bin" diff --normalize "$a" "$b"
measure "diff --by peak" "$bin" diff --by peak "$a" "$b"
if "$bin" diff --help | grep -q -- '--time relative'; then
    measure "diff -o x.svg" "$bin" diff "$a" "$b" -o "$tmp/x.svg"
fi
