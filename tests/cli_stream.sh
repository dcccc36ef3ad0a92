#!/usr/bin/env bash
# cli_stream.sh: streams as real programs send them. GHC 9.0 with the
# eventlog-socket library sends every client but the first a 24-byte block
# marker (event type 18) ahead of the header (../shared/elsock/README.md):
# report, events, summary and watch (on a file and over TCP) read such a
# stream as the log alone, with one warning; other bytes before the header
# are still refused with the offset.
#
# Environment (set by meson test): HEAPSCOPE_BIN, LIVE_FEEDER,
# HEAPSCOPE_SOURCE_DIR.
set -u

. "$(dirname "$0")/cli_common.sh"

FEEDER=${LIVE_FEEDER:?LIVE_FEEDER must name tests/live_feeder}
LOG=$SAMPLES/phases-strict-hc.eventlog
WARN='warning: .*: bytes 0-23 are a block marker \(event type 18\) ahead of the header'

# marker: the marker GHC 9.0 leaves in its global buffer (tag 18, time,
# block size 0, end time 0, capability 0xffff), 24 bytes.
marker() {
  printf '\000\022\000\000\000\000\000\000\060\071'
  printf '\000\000\000\000\000\000\000\000\000\000\000\000\377\377'
}
mkdir "$TMP/log" "$TMP/marked"
cp "$LOG" "$TMP/log/prog.eventlog"
{ marker; cat "$LOG"; } >"$TMP/marked/prog.eventlog"
check "the marker is 24 bytes" \
  same "$(($(stat -c %s "$TMP/marked/prog.eventlog") - $(stat -c %s "$LOG")))" 24

# warned_once WHAT: stderr has the marker's warning exactly once.
warned_once() {
  checks=$((checks + 1))
  local n
  n=$(grep -Ec -- "$WARN" "$TMP/err")
  [ "$n" -eq 1 ] || fail "$1: the marker's warning $n times: $(head -c 400 "$TMP/err")"
}

# ---- batch commands --------------------------------------------------------

run events "$TMP/log/prog.eventlog"
cp "$TMP/out" "$TMP/events.alone"
run events "$TMP/marked/prog.eventlog"
expect_rc "events after a block marker" 0
warned_once "events after a block marker"
check "events after a block marker: the log's events" \
  cmp -s "$TMP/out" "$TMP/events.alone"

run summary --json "$TMP/log/prog.eventlog"
cp "$TMP/out" "$TMP/summary.alone"
run summary --json "$TMP/marked/prog.eventlog"
expect_rc "summary after a block marker" 0
warned_once "summary after a block marker"
check "summary after a block marker: the log's figures" \
  cmp -s <(grep -v '"input"' "$TMP/out") \
  <(grep -v '"input"' "$TMP/summary.alone")

run report "$TMP/log/prog.eventlog" -d "$TMP/report.alone"
run report "$TMP/marked/prog.eventlog" -d "$TMP/report.marked"
expect_rc "report after a block marker" 0
warned_once "report after a block marker"
for ext in hp csv folded; do
  check "report after a block marker: prog.$ext as the log's" \
    cmp -s "$TMP/report.marked/prog.$ext" "$TMP/report.alone/prog.$ext"
done

# From a pipe.
marker_and_log() { marker; cat "$LOG"; }
"$BIN" csv - < <(marker_and_log) >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc "csv - after a block marker" 0
warned_once "csv - after a block marker"
check "csv - after a block marker: the log's rows" \
  cmp -s "$TMP/out" <("$BIN" csv "$LOG" 2>/dev/null)

# ---- watch: a file, and a TCP stream as eventlog-socket sends it ------------

run watch "$TMP/marked/prog.eventlog" -d "$TMP/watch.file" --interval 5
expect_rc "watch FILE after a block marker" 0
warned_once "watch FILE after a block marker"
check "watch FILE after a block marker: prog.hp as report's" \
  cmp -s "$TMP/watch.file/prog.hp" "$TMP/report.alone/prog.hp"

"$FEEDER" tcp "$TMP/port" "$TMP/marked/prog.eventlog" --chunk 7 \
  --delay-ms 0 >/dev/null &
fpid=$!
for i in $(seq 100); do [ -s "$TMP/port" ] && break; sleep 0.1; done
timeout 60 "$BIN" watch "tcp:127.0.0.1:$(cat "$TMP/port")" \
  -d "$TMP/watch.tcp" --interval 5 >"$TMP/out" 2>"$TMP/err"
rc=$?
wait $fpid
expect_rc "watch tcp: after a block marker" 0
warned_once "watch tcp: after a block marker"
check "watch tcp: after a block marker: csv as report's" \
  cmp -s "$TMP/watch.tcp/phases.csv" "$TMP/report.alone/prog.csv"

# ---- only one marker, only at byte 0 ---------------------------------------

{ marker; marker; cat "$LOG"; } >"$TMP/two.eventlog"
run report "$TMP/two.eventlog" -d "$TMP/two.d"
expect_rc "two block markers" 1
expect_err_grep "two block markers" \
  "two.eventlog: byte 24: .*block marker at byte 0 is not followed by the header magic 'hdrb' \(found 0x00120000\)"
check "two block markers: no output" absent "$TMP/two.d"

{ printf '\000\023'; head -c 22 /dev/zero; cat "$LOG"; } >"$TMP/other.eventlog"
run events "$TMP/other.eventlog"
expect_rc "another event type before the header" 1
expect_err_grep "another event type before the header" \
  "other.eventlog: byte 0: .*does not start with the header magic 'hdrb' \(found 0x00130000\)"

marker >"$TMP/only.eventlog"
run summary "$TMP/only.eventlog"
expect_rc "a block marker alone" 4
expect_err_grep "a block marker alone" \
  "only.eventlog: byte 24: the input ends at byte 24 inside the eventlog header"

finish
