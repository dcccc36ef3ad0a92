#!/usr/bin/env bash
# The report page on a large census, in headless chromium.
#
#   bench/page_bench.sh [SAMPLES] [BANDS] [PRESENT]
#
# Writes a runtime-style .hp file of SAMPLES samples (default 100000) over
# BANDS bands (default 1000), PRESENT of them (default 100) in every sample
# with values that change at every sample (a dense, hard case for the
# page's delta encoding), then `heapscope report` on it, and on the
# largest log of ../shared/corpus when it is there. For each page:
# its size, the report's wall time, and in chromium (bench/page_bench.js)
# the time from navigation to the first drawn chart, and the mean time of
# a hover update, of a zoom, of drawing the band table and of a scroll of
# it. Run `bench/page_bench.sh 500 10000 1000` for a 10,000-band table. Needs tests/browser/node_modules
# (scripts/dev.sh test installs it).
#
# Environment: HEAPSCOPE=build/heapscope, BENCH_TMP= (kept work directory).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
samples=${1:-100000}
bands=${2:-1000}
present=${3:-100}
bin=${HEAPSCOPE:-build/heapscope}
[[ $bin = /* ]] || bin=$root/$bin
if [[ -n ${BENCH_TMP:-} ]]; then
    tmp=$BENCH_TMP
    mkdir -p "$tmp"
else
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/page_bench.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
fi
[[ -x $bin ]] || { echo "no heapscope at $bin (build it first)" >&2; exit 1; }

hp=$tmp/page-$samples-$bands-$present.hp
if [[ ! -s $hp ]]; then
    # The bands fall into bands / present groups, each present in turn for
    # an equal share of the samples, so each sample holds `present` bands
    # and every band comes and goes; bytes follow a slow wave plus noise,
    # in words.
    awk -v n="$samples" -v nb="$bands" -v np="$present" 'BEGIN {
        print "JOB \"page-bench +RTS -hy\""
        print "DATE \"Mon Nov 23 00:00 2026\""
        print "SAMPLE_UNIT \"seconds\""
        print "VALUE_UNIT \"bytes\""
        srand(7)
        groups = int(nb / np); if (groups < 1) groups = 1
        for (i = 0; i < n; i++) {
            t = sprintf("%.6f", i * 0.001)
            print "BEGIN_SAMPLE " t
            g = int(i * groups / n) % groups
            for (b = g; b < nb; b += groups)
                printf "band_%04d\t%d\n", b, 8 * int(20000 + 15000 * sin(i / 300.0 + b) + rand() * 2000)
            print "END_SAMPLE " t
        }
    }' > "$hp"
fi
printf 'census: %s samples, %s bands, %s present per sample (.hp of %s bytes)\n' \
    "$samples" "$bands" "$present" "$(stat -c %s "$hp")"

pages=()
report() { # INPUT NAME
    local s e
    s=$(date +%s.%N)
    "$bin" report "$1" -d "$tmp/$2" > /dev/null
    e=$(date +%s.%N)
    local html
    html=$(ls "$tmp/$2"/*.html)
    printf '%s: report %.2f s, page %s bytes\n' "$2" "$(echo "$e - $s" | bc)" \
        "$(stat -c %s "$html")"
    pages+=("$html")
}
report "$hp" big
corpus=$root/../shared/corpus/ghc-events
if [[ -d $corpus ]]; then
    largest=$(ls -S "$corpus"/*.eventlog | head -1)
    report "$largest" largest
fi
NODE_PATH=$root/tests/browser/node_modules node "$here/page_bench.js" "${pages[@]}"
