#!/usr/bin/env bash
# cli_utf8.sh: a band name that is not UTF-8 in every text machines read.
# Band names come from the log as bytes; every JSON document (watch
# --json-lines, /status.json, /data.json, /summary.json, diff --json) must
# still parse as JSON of valid UTF-8 (each bad byte \ufffd), and /metrics
# must pass `promtool check metrics` (each bad byte U+FFFD in the label
# value). promtool is optional here (SKIP when absent; CI installs it).
#
# Environment (set by meson test): HEAPSCOPE_BIN, LIVE_FEEDER.
set -u

. "$(dirname "$0")/cli_common.sh"

FEEDER=${LIVE_FEEDER:?LIVE_FEEDER must name tests/live_feeder}

# leak-hT with one closure type renamed in place, byte for byte the same
# length: "GHC." becomes \xff \xfe (never in UTF-8), a quote and a
# backslash (escaped by every format).
python3 - "$SAMPLES/leak-hT.eventlog" "$TMP/bad.eventlog" <<'PY'
import sys
data = open(sys.argv[1], 'rb').read()
old = b'ghc-prim:GHC.Types.I#'
assert data.count(old) > 0, 'the sample no longer names ' + repr(old)
open(sys.argv[2], 'wb').write(
    data.replace(old, b'ghc-prim:\xff\xfe"\\Types.I#'))
PY
# What every JSON document must say the name is, and /metrics' label.
BAND='"ghc-prim:\ufffd\ufffd\"\\Types.I#"'  # as a JSON literal
LABEL='ghc-prim:\xef\xbf\xbd\xef\xbf\xbd\\"\\\\Types.I#'

# json_ok WHAT FILE LINES [PYTHON-CONDITION]: FILE is valid UTF-8 and JSON
# (each line one document when LINES is "lines"), and the condition on
# `docs` (the parsed documents) holds.
json_ok() {
  checks=$((checks + 1))
  python3 - "$2" "$3" "$BAND" "${4:-True}" <<'PY' >"$TMP/py.out" 2>&1 ||
import json, sys
raw = open(sys.argv[1], 'rb').read()
text = raw.decode('utf-8')  # strict: invalid UTF-8 fails here
parts = text.splitlines() if sys.argv[2] == 'lines' else [text]
assert parts, 'empty'
docs = [json.loads(p) for p in parts]
band = json.loads(sys.argv[3])
assert eval(sys.argv[4]), 'condition: ' + sys.argv[4]
PY
    fail "$1: $(tail -1 "$TMP/py.out")"
}

# ---- watch --json-lines on a file ------------------------------------------

timeout 60 "$BIN" watch "$TMP/bad.eventlog" --json-lines >"$TMP/lines" \
  2>"$TMP/err"
rc=$?
expect_rc "watch --json-lines" 0
json_ok "watch --json-lines: every line JSON, the name with U+FFFD" \
  "$TMP/lines" lines \
  "band in [t['band'] for t in docs[-1]['census']['top']]"

# ---- the HTTP server: JSON documents and /metrics ---------------------------

mkfifo "$TMP/fifo"
"$FEEDER" fifo "$TMP/fifo" "$TMP/bad.eventlog" --chunk 4096 --delay-ms 5 \
  --pause-after-samples 10 --pause-ms 3000 >"$TMP/feed.out" &
timeout 60 "$BIN" watch "$TMP/fifo" --http 127.0.0.1:0 --top 100 \
  --interval 0.2 >/dev/null 2>"$TMP/http.err" &
wpid=$!
for i in $(seq 100); do grep -q '^pause' "$TMP/feed.out" 2>/dev/null && break
  sleep 0.1; done
hport=$(sed -n 's|.*serving http://127.0.0.1:\([0-9]*\)/.*|\1|p' \
  "$TMP/http.err")
sleep 0.5 # two intervals: the pause's census is read
for doc in metrics status.json data.json summary.json; do
  curl -s --max-time 10 "http://127.0.0.1:$hport/$doc" >"$TMP/$doc"
done
wait $wpid
rc=$?
wait
expect_rc "watch --http" 0
json_ok "/status.json: JSON, the name with U+FFFD" "$TMP/status.json" whole \
  "band in [t['band'] for t in docs[0]['census']['top']]"
json_ok "/data.json: JSON, the name with U+FFFD" "$TMP/data.json" whole \
  "band in [b['n'] for b in docs[0]['bands']]"
json_ok "/summary.json: JSON" "$TMP/summary.json" whole
check "/metrics: the label value with U+FFFD, escaped" \
  grep -qF "heapscope_census_band_bytes{band=\"$(printf "$LABEL")\"} " \
  "$TMP/metrics"
check "/metrics: valid UTF-8" python3 -c \
  'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' \
  "$TMP/metrics"
if command -v promtool >/dev/null; then
  promtool check metrics <"$TMP/metrics" >"$TMP/promtool.out" 2>&1
  ok=$?
  check "/metrics: promtool check metrics accepts it: \
$(grep -v '^$' "$TMP/promtool.out" | head -1)" same "$ok" 0
else
  skip_part "promtool check of /metrics" "promtool not found (package prometheus)"
fi

# ---- batch JSON: the same rule -----------------------------------------------

"$BIN" diff "$SAMPLES/leak-hT.eventlog" "$TMP/bad.eventlog" --json \
  >"$TMP/diff.json" 2>"$TMP/err"
rc=$?
expect_rc "diff --json" 0
json_ok "diff --json: JSON, the name with U+FFFD" "$TMP/diff.json" whole \
  "band in [b['band'] for b in docs[0]['bands']]"

finish
