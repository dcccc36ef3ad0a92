#!/usr/bin/env bash
# Chart rendering speed and output size on a large census.
#
#   bench/chart_bench.sh [SAMPLES] [BANDS]
#
# Writes a runtime-style .hp file with SAMPLES samples (default 100000) over
# BANDS bands (default 1000): ten steady bands in every sample and ten more
# taken in turn from the rest, so every band appears and the census is
# SAMPLES x 20 entries. Then times `heapscope chart` to SVG, PDF and PNG
# with the default 15 bands and with every band (--bands 0), and reports
# the time to load the file alone (a chart whose filter matches nothing
# loads the census and stops), so the rendering's own share can be read off.
#
# Last, the cost of one huge band name (issue 14.8): a .hp whose largest band
# is named by LONG_NAME_MB megabytes (default 10), charted to SVG, PDF and
# PNG, with wall time and peak resident memory (GNU time's %M).
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
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/chart_bench.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
fi
[[ -x $bin ]] || { echo "no heapscope at $bin (build it first)" >&2; exit 1; }

hp=$tmp/big-$samples-$bands.hp
if [[ ! -s $hp ]]; then
    awk -v n="$samples" -v nb="$bands" 'BEGIN {
        print "JOB \"chart-bench +RTS -hy\""
        print "DATE \"Sun Nov 22 00:00 2026\""
        print "SAMPLE_UNIT \"seconds\""
        print "VALUE_UNIT \"bytes\""
        srand(1)
        for (i = 0; i < n; i++) {
            t = sprintf("%.6f", i * 0.001)
            print "BEGIN_SAMPLE " t
            for (b = 0; b < 10 && b < nb; b++)
                printf "band_%04d\t%d\n", b, 100000 * (b + 1) + \
                    int(50000 * sin(i / 500.0 + b)) + 60000
            for (k = 0; k < 10 && nb > 10; k++) {
                b = 10 + (i * 10 + k) % (nb - 10)
                printf "band_%04d\t%d\n", b, 1000 + int(rand() * 20000)
            }
            print "END_SAMPLE " t
        }
    }' > "$hp"
fi
printf 'census: %s samples, %s bands, .hp of %s bytes\n' "$samples" "$bands" \
    "$(stat -c %s "$hp")"

# Median wall time in seconds of a command, over $runs runs.
median() {
    local ts=() s e
    for ((r = 0; r < runs; r++)); do
        s=$(date +%s.%N)
        "$@" > /dev/null 2>&1 || true
        e=$(date +%s.%N)
        ts+=("$(echo "$e - $s" | bc)")
    done
    printf '%s\n' "${ts[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p"
}

load=$(median "$bin" chart "$hp" -o "$tmp/none.svg" --include 'no such band')
printf 'load only (no band matches): %.3f s\n' "$load"
printf '%-6s %-8s %10s %10s %12s\n' format bands total_s render_s bytes
for b in 15 0; do
    for f in svg pdf png; do
        out=$tmp/chart-$b.$f
        t=$(median "$bin" chart "$hp" -o "$out" --bands "$b")
        printf '%-6s %-8s %10.3f %10.3f %12s\n' "$f" "$b" "$t" \
            "$(echo "$t - $load" | bc)" "$(stat -c %s "$out")"
    done
done

# ---- one huge band name -----------------------------------------------------
mb=${LONG_NAME_MB:-10}
long=$tmp/long-name-$mb.hp
if [[ ! -s $long ]]; then
    awk -v mb="$mb" 'BEGIN {
        name = "L"
        while (length(name) < mb * 1048576) name = name name
        name = substr(name, 1, mb * 1048576)
        print "JOB \"long-name\""; print "DATE \"x\""
        print "SAMPLE_UNIT \"seconds\""; print "VALUE_UNIT \"bytes\""
        for (i = 1; i <= 3; i++)
            printf "BEGIN_SAMPLE %d\n%s\t%d\nInt\t100\nEND_SAMPLE %d\n", i, name, 1000 * i, i
    }' > "$long"
fi
if [[ -x /usr/bin/time ]]; then
    printf 'band name of %s MiB:\n%-6s %10s %12s\n' "$mb" format wall_s max_rss_kib
    for f in svg pdf png; do
        /usr/bin/time -f '%e %M' -o "$tmp/time" "$bin" chart "$long" \
            -o "$tmp/long.$f" > /dev/null 2>&1 || true
        read -r wall rss < "$tmp/time"
        printf '%-6s %10s %12s\n' "$f" "$wall" "$rss"
    done
else
    echo "no /usr/bin/time: huge-name figures skipped"
fi
