#!/usr/bin/env bash
# census_rss.sh: peak RSS and time of `heapscope info` (the census alone)
# on a -hc log with many heap samples: by default about 45,000 samples of
# about 100 bands each (a 405 MB log sampled every 1 ms of simulated time),
# the case of issue 12. The census memory is samples x bands x entry size.
#
#   bench/census_rss.sh [SIZE] [INTERVAL_MS]
#
# Needs build/heapscope (or $HEAPSCOPE) and GNU time; writes only into a
# temporary directory, deleted at exit.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
size=${1:-405M}
interval=${2:-1}
bin=${HEAPSCOPE:-$root/build/heapscope}
[ -x "$bin" ] || { echo "census_rss: build heapscope first (meson setup build && ninja -C build)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "census_rss: GNU time (/usr/bin/time) is needed" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/heapscope-census-rss.XXXXXX")
trap 'rm -rf "$work"' EXIT
inc=$(dirname "$bin")/include
"${CC:-cc}" -O2 -I"$inc" -o "$work/gen" "$here/gen_eventlog.c"
"$work/gen" -s "$size" -i "$interval" -o "$work/log.eventlog"
cat "$work/log.eventlog" >/dev/null
/usr/bin/time -f '%M %e' -o "$work/time" "$bin" info "$work/log.eventlog" >"$work/info"
read -r rss secs <"$work/time"
samples=$(awk -F': ' '$1 == "heap samples" { print $2 }' "$work/info")
bands=$(awk -F': ' '$1 == "bands" { print $2 }' "$work/info")
printf 'log %s, %s heap samples, %s bands in all: info peak RSS %s KiB, %s s\n' \
    "$size" "$samples" "$bands" "$rss" "$secs"
