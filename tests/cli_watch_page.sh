#!/usr/bin/env bash
# cli_watch_page.sh: `heapscope watch --http`'s page in a real browser
# (headless Chromium) while a paced stream arrives: the page's script
# fetches the status and redraws the chart, and two visits some seconds
# apart see the chart grow. Skipped (77) without chromium.
#
# Environment (set by meson test): HEAPSCOPE_BIN, LIVE_FEEDER, GEN_LIVE.
set -u

. "$(dirname "$0")/cli_common.sh"

CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
  echo "SKIP: no chromium"
  exit 77
fi

# visit URL: the page's DOM after its script ran for two seconds.
visit() {
  timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
    --user-data-dir="$TMP/chromium" --virtual-time-budget=2000 \
    --dump-dom "$1" 2>/dev/null
}

# A run of 3000 censuses, about 1.5 MB, paced to last some 40 s (two
# browser starts take 15-20 s on a loaded machine).
"${GEN_LIVE:?}" 3000 10 >"$TMP/run.eventlog"
mkfifo "$TMP/fifo"
"${LIVE_FEEDER:?}" fifo "$TMP/fifo" "$TMP/run.eventlog" --chunk 4096 \
  --delay-ms 100 &
fpid=$!
timeout 120 "$BIN" watch "$TMP/fifo" --http 127.0.0.1:0 >/dev/null \
  2>"$TMP/err" &
wpid=$!
for i in $(seq 50); do grep -q serving "$TMP/err" && break; sleep 0.1; done
port=$(sed -n 's|.*serving http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$TMP/err")

sleep 1
curl -s --max-time 10 "http://127.0.0.1:$port/chart.svg" >"$TMP/chart.svg"
check "page: /chart.svg is an SVG" grep -q '<svg' "$TMP/chart.svg"
curl -s --max-time 10 "http://127.0.0.1:$port/data.json" >"$TMP/data.json"
visit "http://127.0.0.1:$port/" >"$TMP/dom1"
sleep 3
visit "http://127.0.0.1:$port/" >"$TMP/dom2"
# The page's Run panel says how many censuses the page holds.
n1=$(grep -o '<dt>samples</dt><dd>[0-9,]*' "$TMP/dom1" | head -1 |
  sed 's/.*<dd>//; s/,//g')
n2=$(grep -o '<dt>samples</dt><dd>[0-9,]*' "$TMP/dom2" | head -1 |
  sed 's/.*<dd>//; s/,//g')
check "page: the interactive page ran (censuses: '${n1:-none}')" [ -n "$n1" ]
check "page: the chart grew (${n1:-none} then ${n2:-none} censuses)" \
  [ -n "$n1" ] && [ -n "$n2" ] && [ "$n2" -gt "$n1" ]
check "page: it follows /data.json" \
  grep -q 'name="heapscope-live" content="/data.json"' "$TMP/dom2"
check "page: /data.json is the page's data document" \
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["samples"] > 0' "$TMP/data.json"

kill -TERM $wpid $fpid 2>/dev/null
wait
finish
