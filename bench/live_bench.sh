#!/usr/bin/env bash
# live_bench.sh: peak memory of `heapscope watch` on a long run streamed
# through a FIFO: SAMPLES heap censuses of BANDS bands each (default
# 1,000,000 x 200, about 6 GB of eventlog), from bench/gen_live.c.
#
#   bench/live_bench.sh [SAMPLES [BANDS [WATCH OPTIONS...]]]
#
# Prints the stream's size, the wall time, the peak RSS (GNU time's %M)
# and watch's final status line. The goal of issue 10: under 64 MiB for
# 1,000,000 x 200. Writes only into a temporary directory.
set -eu
cd "$(dirname "$0")/.."
SAMPLES=${1:-1000000}
BANDS=${2:-200}
shift $(( $# < 2 ? $# : 2 ))
HEAPSCOPE=${HEAPSCOPE:-build/heapscope}
[ -x "$HEAPSCOPE" ] || { echo "build heapscope first (meson setup build && ninja -C build)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs GNU time (Debian package time)" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/heapscope-live.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# tests/evwriter.c uses the library's event table.
cc -O2 -Iinclude -I"$(dirname "$HEAPSCOPE")/include" -o "$tmp/gen_live" bench/gen_live.c tests/evwriter.c \
  -L"$(dirname "$HEAPSCOPE")" -lheapscope -Wl,-rpath,"$(cd "$(dirname "$HEAPSCOPE")" && pwd)"
mkfifo "$tmp/fifo"
"$tmp/gen_live" "$SAMPLES" "$BANDS" 100 >"$tmp/fifo" &
/usr/bin/time -f '%M %e' -o "$tmp/time" \
  "$HEAPSCOPE" watch "$tmp/fifo" --interval 10 --json-lines "$@" >"$tmp/out"
wait
read -r rss secs <"$tmp/time"
bytes=$(tail -1 "$tmp/out" | sed 's/.*"stream_bytes":\([0-9]*\).*/\1/')
echo "stream: $SAMPLES samples x $BANDS bands, $((bytes / 1000000)) MB through a FIFO"
echo "wall: ${secs} s ($(awk -v b="$bytes" -v s="$secs" 'BEGIN { printf "%.0f", b / s / 1e6 }') MB/s)"
echo "peak RSS: $((rss / 1024)) MiB ($rss KiB)"
echo "final line: $(tail -1 "$tmp/out")"
