#!/usr/bin/env bash
# cli_watch.sh: `heapscope watch` following a stream that tests/live_feeder
# writes at a set pace into a FIFO, a growing file, a Unix socket and a
# TCP socket (as eventlog-socket serves it): status lines before the end,
# /metrics against the batch figures of the bytes sent so far, final
# outputs byte for byte equal to `heapscope report`'s, reconnection, cut
# and malformed streams, signals, standard output that cannot be written,
# a taken port, and a real profiled program writing into a FIFO (what -d
# leaves in DIR: cli_watch_dir.sh).
#
# Every wait is bounded (timeout, counted loops); all traffic stays on
# 127.0.0.1. Environment (set by meson test): HEAPSCOPE_BIN, LIVE_FEEDER,
# HEAPSCOPE_SOURCE_DIR, HEAPSCOPE_BUILD_DIR.
set -u

. "$(dirname "$0")/cli_common.sh"
. "$(dirname "$0")/watch_common.sh"

# The real program at the end (samples/leak.hs) compiles meanwhile, in the
# background, while the checks below wait on paced streams. Disowned, so
# that their bare `wait`s do not wait for it; $GHC_DONE says it is over.
BUILD=${HEAPSCOPE_BUILD_DIR:-}
GHC_DONE=
if command -v ghc >/dev/null && [ -n "$BUILD" ]; then
  GHC_DONE=$TMP/ghc.done
  mkdir -p "$BUILD/leak-prog"
  if [ ! -x "$BUILD/leak-prog/leak" ]; then
    (cp "$SAMPLES/leak.hs" "$BUILD/leak-prog/"
     cd "$BUILD/leak-prog" &&
       timeout 300 ghc -O0 -prof -fprof-auto -rtsopts -eventlog leak.hs \
         >/dev/null 2>&1
     touch "$GHC_DONE") &
    disown
  else
    touch "$GHC_DONE"
  fi
fi

# ---- usage ---------------------------------------------------------------

run watch --help
expect_rc "watch --help" 0
expect_out_grep "watch --help" "^usage: heapscope watch "
run watch
expect_rc "watch without a source" 2
run watch "$LOG" --interval x
expect_rc "watch --interval x" 2
run watch tcp:nohost
expect_rc "watch tcp: without a port" 2
run watch /nonexistent/prog.eventlog
expect_rc "watch on a missing file" 3
expect_err_grep "missing file" "/nonexistent/prog.eventlog: cannot open"

# Standard output that cannot be written: exit 3 and the reason, as every
# command; -d still gets its files (the watch ends as on SIGTERM).
"$BIN" watch "$LOG" -d "$TMP/full-out.d" >/dev/full 2>"$TMP/err"
rc=$?
expect_rc "watch > /dev/full" 3
expect_err_grep "watch > /dev/full" "^heapscope: watch: cannot write standard output: No space left on device$"
check "watch > /dev/full: -d is written" [ -s "$TMP/full-out.d/leak-hc.html" ]
"$BIN" watch "$LOG" --json-lines >/dev/full 2>"$TMP/err"
rc=$?
expect_rc "watch --json-lines > /dev/full" 3

# A reader that goes away (| head -1) ends a long watch: exit 3, no hang.
mkfifo "$TMP/gone.fifo"
"${GEN_LIVE:?}" 2000 10 >"$TMP/gone.eventlog"
"$FEEDER" fifo "$TMP/gone.fifo" "$TMP/gone.eventlog" --chunk 4096 \
  --delay-ms 100 >/dev/null 2>&1 &
fpid=$!
timeout 30 "$BIN" watch "$TMP/gone.fifo" --interval 0.1 2>"$TMP/err" |
  head -1 >/dev/null
rc=${PIPESTATUS[0]}
kill $fpid 2>/dev/null
wait
expect_rc "watch | head -1" 3
expect_err_grep "watch | head -1" "cannot write standard output: Broken pipe"

# ---- a time profile merged (--max-samples) -------------------------------

# leak-p's 633 ticks pass 16 * 16 raw ones: the old ones are merged into
# buckets, the final line says how precise windows before it are, and
# the totals (folded --source time) equal the batch command's.
run watch --max-samples 16 -d "$TMP/tp.d" "$SAMPLES/leak-p.eventlog"
expect_rc "watch -p --max-samples 16" 0
expect_out_grep "watch -p --max-samples 16: the final line" \
  "\[done\] \(before [0-9.]+ s time-profile ticks counted in [0-9.e-]+ s buckets"
run folded --source time "$SAMPLES/leak-p.eventlog"
check "watch -p --max-samples 16: the time profile's totals exact" \
  cmp -s "$TMP/out" "$TMP/tp.d/leak-p.time.folded"
# the page says it too: its windows before the horizon at bucket precision
check "watch -p --max-samples 16: the page's data names the buckets" \
  grep -Eq '"bucket_us":[1-9][0-9]*,"merged_until_us":[1-9]' "$TMP/tp.d/leak-p.html"

# ---- a FIFO, paced: status lines before the end, outputs as report -------

mkfifo "$TMP/fifo"
"$FEEDER" fifo "$TMP/fifo" "$LOG" --chunk 4096 --delay-ms 40 &
timeout 60 "$BIN" watch "$TMP/fifo" --json-lines --interval 0.2 \
  -d "$TMP/fifo.d" >"$TMP/fifo.out" 2>"$TMP/fifo.err"
rc=$?
wait
expect_rc "watch FIFO" 0
# (LeakSanitizer's list of suppressions used may stand there in CI's
# sanitizer run: only heapscope's own messages count.)
check "watch FIFO: no message on stderr" \
  bash -c "! grep -q '^heapscope' '$TMP/fifo.err'"
lines=$(wc -l <"$TMP/fifo.out")
check "watch FIFO: several status lines ($lines)" [ "$lines" -ge 4 ]
first=$(json_field "$TMP/fifo.out" 0 stream_bytes)
check "watch FIFO: first line before the end ($first of $SIZE bytes)" \
  [ "$first" -lt "$SIZE" ]
check "watch FIFO: first line says running" \
  same "$(json_field "$TMP/fifo.out" 0 state)" running
check "watch FIFO: last line says done" \
  same "$(json_field "$TMP/fifo.out" $((lines - 1)) state)" done
# A FIFO's files take the program's name (the log's), not the FIFO's.
same_as_report "watch FIFO" "$TMP/fifo.d" leak "$LOG"

# The text status line, into a pipe: one line per interval.
"$FEEDER" fifo "$TMP/fifo" "$LOG" --chunk 8192 --delay-ms 40 &
timeout 60 "$BIN" watch "$TMP/fifo" --interval 0.2 >"$TMP/text.out" 2>&1
rc=$?
wait
expect_rc "watch FIFO text" 0
check "watch text: lines name heap, live, GCs and the census" \
  grep -Eq '^ +[0-9.]+s heap [0-9.]+ [KMG]?i?B live .* GCs [0-9]+\+[0-9]+ max pause .* census .*: ' "$TMP/text.out"
check "watch text: the final line says done" \
  grep -q '\[done\]$' "$TMP/text.out"

# GC events and no census for some seconds (the feeder holds the census back,
# as a GHC 9.0 program's unflushed eventlog does): a note says why, once, and
# the status lines say the census is not flushed yet; once the census came,
# nothing more. --json-lines gets no note (its lines stay JSON).
# unflushed OUT FIFO ARGS...: watch ARGS of FIFO, whose census comes 4.5 s
# late. The text and the --json-lines runs go side by side, each on a FIFO
# of its own, rather than one 4.5 s wait after the other.
unflushed() {
  local out=$1 fifo=$2
  shift 2
  "$FEEDER" fifo "$fifo" "$LOG" --chunk 8192 --delay-ms 10 \
    --pause-before-census --pause-ms 4500 >/dev/null &
  timeout 60 "$BIN" watch "$fifo" --interval 0.2 "$@" >"$out" 2>&1
  rc=$?
  wait
}
mkfifo "$TMP/fifo2"
unflushed "$TMP/hint.json" "$TMP/fifo2" --json-lines &
unflushed "$TMP/hint.out" "$TMP/fifo"
wait
expect_rc "watch, no census yet" 0
check "no census yet: one note says why, with 'flush'" \
  same "$(grep -c '^note: No heap census yet\..*flush.*eventlog-flush-interval=1' "$TMP/hint.out")" 1
check "no census yet: the status lines say it is not flushed" \
  grep -q 'census - (not flushed yet)$' "$TMP/hint.out"
check "no census yet: the last line has the census" \
  grep -q 'census .*: .*\[done\]$' "$TMP/hint.out"
check "no census yet, --json-lines: JSON lines only" \
  python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$TMP/hint.json"

# On a terminal the line is redrawn in place (script(1) gives a pty).
if command -v script >/dev/null; then
  "$FEEDER" fifo "$TMP/fifo" "$LOG" --chunk 8192 --delay-ms 40 &
  timeout 60 script -qec "'$BIN' watch '$TMP/fifo' --interval 0.2" /dev/null \
    >"$TMP/tty.out" 2>&1
  rc=$?
  wait
  expect_rc "watch on a terminal" 0
  check "terminal: the line is redrawn in place" \
    grep -q $'\r\e\[K' "$TMP/tty.out"
  check "terminal: one line in all, ending with the final one" \
    same "$(grep -c heap "$TMP/tty.out")" 1
  check "terminal: the final line says done" \
    grep -q '\[done\]' "$TMP/tty.out"
fi

# ---- a growing file: followed to its data-end marker ----------------------

rm -f "$TMP/grow.eventlog"
"$FEEDER" file "$TMP/grow.eventlog" "$LOG" --chunk 4096 --delay-ms 30 &
wait_for "$TMP/grow.eventlog"
timeout 60 "$BIN" watch "$TMP/grow.eventlog" --json-lines --interval 0.2 \
  -d "$TMP/grow.d" >"$TMP/grow.out" 2>"$TMP/grow.err"
rc=$?
wait
expect_rc "watch growing file" 0
first=$(json_field "$TMP/grow.out" 0 stream_bytes)
check "watch growing file: a line before the end ($first bytes)" \
  [ "$first" -lt "$SIZE" ]
same_as_report "watch growing file" "$TMP/grow.d" grow "$LOG"
# The page too, byte for byte, when report reads the same file by the
# same name (the page shows the input's name and links its siblings).
"$BIN" report "$TMP/grow.eventlog" -d "$TMP/grow.batch" >/dev/null 2>&1
check "watch growing file: the page as report writes it" \
  cmp -s "$TMP/grow.d/grow.html" "$TMP/grow.batch/grow.html"

# A status tick before the first GC event (eventlog-socket sends the
# header, the GC events come later): the GC figures are not lost to the
# early snapshot; the page and the final status equal report's.
rm -f "$TMP/tick.eventlog"
"$FEEDER" file "$TMP/tick.eventlog" "$LOG" --chunk 65536 --delay-ms 20 \
  --pause-before-gc --pause-ms 800 >/dev/null &
wait_for "$TMP/tick.eventlog"
timeout 60 "$BIN" watch "$TMP/tick.eventlog" --json-lines --interval 0.1 \
  --every 0.1 -d "$TMP/tick.d" >"$TMP/tick.out" 2>"$TMP/tick.err"
rc=$?
wait
expect_rc "watch, a tick before the first GC" 0
check "tick before the first GC: a status line without GCs" \
  grep -q '"collections":\[\]' "$TMP/tick.out"
"$BIN" report "$TMP/tick.eventlog" -d "$TMP/tick.batch" >/dev/null 2>&1
check "tick before the first GC: the page as report writes it (GC tab)" \
  same_file "$TMP/tick.d/tick.html" "$TMP/tick.batch/tick.html"
check "tick before the first GC: the page has the GC figures" \
  bash -c "! grep -q '\"gc\":null' '$TMP/tick.d/tick.html'"

# Cut short, with --pid: ends when the writer is gone, with the warning.
head -c $((SIZE - 3000)) "$LOG" >"$TMP/cut.eventlog"
rm -f "$TMP/cutgrow.eventlog"
"$FEEDER" file "$TMP/cutgrow.eventlog" "$TMP/cut.eventlog" --chunk 16384 \
  --delay-ms 30 &
fpid=$!
wait_for "$TMP/cutgrow.eventlog"
timeout 60 "$BIN" watch "$TMP/cutgrow.eventlog" --pid $fpid -d "$TMP/cut.d" \
  >"$TMP/out" 2>"$TMP/err"
rc=$?
wait
expect_rc "watch --pid on a cut log" 0
expect_err_grep "watch --pid on a cut log" "warning: .*cutgrow.eventlog: byte [0-9]+"
"$BIN" report "$TMP/cut.eventlog" -d "$TMP/cut.batch" >/dev/null 2>&1
for ext in $REPORT_EXT; do
  check "cut log: $ext as report writes it" \
    same_file "$TMP/cut.d/cutgrow.$ext" "$TMP/cut.batch/cut.$ext"
done

# --idle: a file that stops growing without its end marker.
cp "$TMP/cut.eventlog" "$TMP/idle.eventlog"
timeout 30 "$BIN" watch "$TMP/idle.eventlog" --idle 0.5 >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc "watch --idle" 0
expect_err_grep "watch --idle" "warning: .*idle.eventlog: byte"

# ---- a Unix socket, with census requests ----------------------------------

sock=$TMP/prog.sock
"$FEEDER" unix "$sock" "$LOG" --chunk 4096 --delay-ms 20 --expect-census \
  --wait-census 3000 >"$TMP/feed.out" &
wait_sock "$sock"
timeout 60 "$BIN" watch "unix:$sock" --census-every 0.3 -d "$TMP/unix.d" \
  >"$TMP/out" 2>"$TMP/err"
rc=$?
wait
expect_rc "watch unix:" 0
check "unix: the program got requestHeapCensus" \
  grep -qx census-request "$TMP/feed.out"
check "unix: no malformed control message" \
  bash -c "! grep -q bad-control '$TMP/feed.out'"
same_as_report "watch unix:" "$TMP/unix.d" leak "$LOG"

# ---- TCP and HTTP: /metrics equals the batch figures of the bytes so far ---

rm -f "$TMP/port"
"$FEEDER" tcp "$TMP/port" "$LOG" --chunk 4096 --delay-ms 5 \
  --pause-after-samples 10 --pause-ms 4000 >"$TMP/feed.out" &
wait_for "$TMP/port"
timeout 60 "$BIN" watch "tcp:127.0.0.1:$(cat "$TMP/port")" --http 127.0.0.1:0 \
  --top 100 -d "$TMP/tcp.d" --json-lines --interval 0.5 >"$TMP/tcp.out" \
  2>"$TMP/tcp.err" &
wpid=$!
wait_for "$TMP/feed.out"
for i in $(seq 50); do grep -q serving "$TMP/tcp.err" && break; sleep 0.1; done
hport=$(sed -n 's|.*serving http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$TMP/tcp.err")
sleep 0.5
curl -s --max-time 10 "http://127.0.0.1:$hport/metrics" >"$TMP/metrics"
curl -s --max-time 10 "http://127.0.0.1:$hport/census.csv" >"$TMP/live.csv"
curl -s --max-time 10 "http://127.0.0.1:$hport/summary.json" >"$TMP/live.json"
curl -s --max-time 10 "http://127.0.0.1:$hport/" >"$TMP/page.html"
code=$(curl -s --max-time 10 -o /dev/null -w '%{http_code}' \
  "http://127.0.0.1:$hport/../etc/passwd")
wait $wpid
rc=$?
wait
expect_rc "watch tcp: --http" 0
check "http: unknown paths are 404, nothing from the file system ($code)" \
  same "$code" 404
check "http: / is the page" grep -q '<html' "$TMP/page.html"
off=$(sed -n 's/^pause //p' "$TMP/feed.out")
head -c "$off" "$LOG" >"$TMP/prefix.eventlog"
"$BIN" summary --json "$TMP/prefix.eventlog" >"$TMP/prefix.json" 2>/dev/null
"$BIN" csv "$TMP/prefix.eventlog" >"$TMP/prefix.csv" 2>/dev/null
check "http: /census.csv equals csv of the bytes sent so far" \
  cmp -s "$TMP/live.csv" "$TMP/prefix.csv"
python3 - "$TMP/metrics" "$TMP/prefix.json" "$TMP/prefix.csv" \
  "$TMP/live.json" <<'EOF' >"$TMP/prom.out" 2>&1
import csv, json, re, sys
text = open(sys.argv[1]).read()
batch = json.load(open(sys.argv[2]))
live_summary = json.load(open(sys.argv[4]))
# The text exposition format, strictly: HELP and TYPE before a family's
# samples, names, labels with escapes, numeric values, a final newline.
name = r'[a-zA-Z_:][a-zA-Z0-9_:]*'
label = r'[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*"'
sample = re.compile(r'^(%s)(\{%s(?:,%s)*\})? (-?[0-9.eE+]+|NaN|[+-]Inf)$'
                    % (name, label, label))
assert text.endswith('\n'), 'no final newline'
typed, values = {}, {}
for line in text.splitlines():
    if line.startswith('# HELP ') or line.startswith('# TYPE '):
        parts = line.split(' ', 3)
        assert re.fullmatch(name, parts[2]), line
        if parts[1] == 'TYPE':
            assert parts[3] in ('counter', 'gauge'), line
            typed[parts[2]] = parts[3]
        continue
    m = sample.match(line)
    assert m, 'not a sample line: %r' % line
    assert m.group(1) in typed, 'sample before its TYPE: %r' % line
    values[m.group(1) + (m.group(2) or '')] = float(m.group(3))
gens = batch['generations']
for g in gens:
    got = values['heapscope_collections_total{gen="%d"}' % g['gen']]
    assert got == g['collections'], ('gen', g, got)
    got = values['heapscope_pause_seconds_total{gen="%d"}' % g['gen']]
    assert abs(got - g['elapsed_ns'] / 1e9) < 1e-9, ('pause', g, got)
assert values['heapscope_allocated_bytes_total'] == batch['allocated_bytes']
assert live_summary['allocated_bytes'] == batch['allocated_bytes']
rows = list(csv.reader(open(sys.argv[3])))[1:]
times = sorted({float(r[0]) for r in rows})
assert values['heapscope_census_samples'] == len(times), (values, len(times))
last = [r for r in rows if float(r[0]) == times[-1]]
assert values['heapscope_census_total_bytes'] == sum(int(r[2]) for r in last)
for r in last:
    key = 'heapscope_census_band_bytes{band="%s"}' % r[1].replace(
        '\\', '\\\\').replace('"', '\\"').replace('\n', '\\n')
    assert values[key] == int(r[2]), (key, values.get(key), r)
print('ok', len(values), 'samples')
EOF
check "http: /metrics parses and equals the batch figures ($(tail -1 "$TMP/prom.out"))" \
  grep -q '^ok ' "$TMP/prom.out"
same_as_report "watch tcp:" "$TMP/tcp.d" leak "$LOG"
paused=$(grep -c "\"stream_bytes\":$off," "$TMP/tcp.out")
check "tcp: status lines go on while the writer pauses ($paused)" \
  [ "$paused" -ge 4 ]

# The program's socket closes mid-event: the warning, exit 0.
"$FEEDER" unix "$sock" "$TMP/cut.eventlog" --delay-ms 0 &
wait_sock "$sock"
run watch "unix:$sock"
wait
expect_rc "watch a socket closed mid-event" 0
expect_err_grep "socket closed mid-event" "warning: unix:.*prog.sock: byte [0-9]+ .*truncated"

# Slow and vanished clients hold neither the reader nor other clients:
# idle connections, a request whose answer is never read, a client gone.
"${GEN_LIVE:?}" 3000 50 >"$TMP/slow.eventlog"
"$FEEDER" fifo "$TMP/fifo" "$TMP/slow.eventlog" --chunk 65536 --delay-ms 50 &
timeout 60 "$BIN" watch "$TMP/fifo" --http 127.0.0.1:0 --json-lines \
  --interval 0.2 >"$TMP/slow.out" 2>"$TMP/slow.err" &
wpid=$!
for i in $(seq 50); do grep -q serving "$TMP/slow.err" && break; sleep 0.1; done
hport=$(sed -n 's|.*serving http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$TMP/slow.err")
cat >"$TMP/slow.py" <<'EOF'
import socket, sys, time
port = int(sys.argv[1])
idle = [socket.create_connection(('127.0.0.1', port)) for _ in range(4)]
slow = socket.create_connection(('127.0.0.1', port))
slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
slow.sendall(b'GET /census.csv HTTP/1.1\r\nHost: x\r\n\r\n')
gone = socket.create_connection(('127.0.0.1', port))
gone.sendall(b'GET /chart.svg HTTP/1.1\r\nHost: x\r\n\r\n')
gone.close()
time.sleep(4)
print('held')
EOF
python3 "$TMP/slow.py" "$hport" >"$TMP/slow.pyout" 2>&1 &
sleep 1
code=$(curl -s --max-time 10 -o "$TMP/slow.metrics" -w '%{http_code}' \
  "http://127.0.0.1:$hport/metrics")
wait $wpid
rc=$?
wait
expect_rc "watch with slow HTTP clients" 0
check "slow clients: /metrics still answers ($code)" same "$code" 200
check "slow clients: the stream is read to its end" \
  grep -q '"state":"done"' "$TMP/slow.out"
check "slow clients: status lines all along ($(wc -l <"$TMP/slow.out"))" \
  [ "$(wc -l <"$TMP/slow.out")" -ge 5 ]

# A port already taken: a clear error, exit 3.
rm -f "$TMP/port"
"$FEEDER" tcp "$TMP/port" "$LOG" --delay-ms 0 >/dev/null &
wait_for "$TMP/port"
run watch "$LOG" --http "127.0.0.1:$(cat "$TMP/port")"
expect_rc "watch --http on a taken port" 3
expect_err_grep "taken port" "cannot listen on 127.0.0.1:[0-9]+: Address already in use"
"$BIN" watch "tcp:127.0.0.1:$(cat "$TMP/port")" >/dev/null 2>&1
wait

# ---- --reconnect: a restarted program starts a new run ---------------------

"$FEEDER" unix "$sock" "$LOG" --chunk 16384 --delay-ms 5 --runs 2 &
fpid=$!
wait_sock "$sock"
timeout 60 "$BIN" watch "unix:$sock" --reconnect --json-lines --interval 10 \
  -d "$TMP/re.d" >"$TMP/re.out" 2>"$TMP/re.err" &
wpid=$!
wait $fpid
for i in $(seq 100); do
  [ "$(grep -c '"state":"done"' "$TMP/re.out")" -ge 2 ] && break
  sleep 0.1
done
kill -TERM $wpid
wait $wpid
rc=$?
expect_rc "watch --reconnect, then SIGTERM" 0
check "reconnect: two runs, each to its end" \
  same "$(grep -c '"state":"done"' "$TMP/re.out")" 2
same_as_report "reconnect run 1" "$TMP/re.d" leak "$LOG"
same_as_report "reconnect run 2" "$TMP/re.d" leak-run2 "$LOG"

# ---- cut and malformed streams -------------------------------------------

"$FEEDER" fifo "$TMP/fifo" "$TMP/cut.eventlog" --delay-ms 0 &
timeout 60 "$BIN" watch "$TMP/fifo" -d "$TMP/cutfifo.d" >"$TMP/out" 2>"$TMP/err"
rc=$?
wait
expect_rc "watch a FIFO cut mid-event" 0
"$BIN" hp "$TMP/cut.eventlog" -o /dev/null 2>"$TMP/batch.err"
check "cut FIFO: the batch commands' warning" \
  grep -qF "$(sed 's/cut.eventlog/fifo/' "$TMP/batch.err")" "$TMP/err"

# Zeros finish the event cut at byte 100000, then text stands where a tag
# should: an undeclared event type.
head -c 100000 "$LOG" >"$TMP/bad.eventlog"
head -c 13 /dev/zero >>"$TMP/bad.eventlog"
printf 'garbage, not an event%.0s' 1 2 3 >>"$TMP/bad.eventlog"
"$FEEDER" fifo "$TMP/fifo" "$TMP/bad.eventlog" --delay-ms 0 &
timeout 60 "$BIN" watch "$TMP/fifo" --json-lines >"$TMP/out" 2>"$TMP/err"
rc=$?
wait
expect_rc "watch a malformed stream" 1
"$BIN" hp "$TMP/bad.eventlog" -o /dev/null 2>"$TMP/batch.err"
check "malformed: the batch commands' error with its byte offset" \
  grep -qF "$(sed 's/bad.eventlog/fifo/' "$TMP/batch.err")" "$TMP/err"
check "malformed: the last status line says error" \
  grep -q '"state":"error"' "$TMP/out"

# Another format: a runtime .hp or a Mono .mlpd (plain or gzip), from a
# file or a pipe, is said to be one, not an eventlog's missing magic,
# and no report directory is made.
for f in "$SAMPLES/leak-hc.hp" "$SAMPLES/mono/tasks-gc.mlpd" \
         "$SAMPLES/mono/sites-alloc-zip.mlpd.gz"; do
  n=$(basename "$f")
  case $n in *.hp) what='a runtime \.hp file' ;; *.gz) what='a gzip-compressed Mono \.mlpd' ;;
              *) what='a Mono log-profiler file' ;; esac
  run watch "$f" -d "$TMP/other.d" --json-lines
  expect_rc "watch $n" 4
  expect_err_grep "watch $n names the format" \
    "^heapscope: .*$n: $what.*, not a GHC eventlog: .*'heapscope report .*$n' reads this input whole$"
  check "watch $n: the status line says error" grep -q '"state":"error"' "$TMP/out"
  check "watch $n: no report directory" absent "$TMP/other.d"
  "$BIN" watch - <"$f" >/dev/null 2>"$TMP/err"
  check "watch - <$n: exit 4" test $? -eq 4
  check "watch - <$n names standard input" grep -q "^heapscope: <stdin>: $what" "$TMP/err"
done

# ---- SIGTERM mid-stream: final outputs, exit 0 ------------------------------

# A run with heap censuses from its start (the samples' GHC 9.0 runtime
# flushes its censuses only at exit).
GEN=${GEN_LIVE:?GEN_LIVE must name bench/gen_live}
"$GEN" 2000 10 >"$TMP/long.eventlog"
"$FEEDER" fifo "$TMP/fifo" "$TMP/long.eventlog" --chunk 4096 --delay-ms 100 &
fpid=$!
term_watch 2 $fpid "$TMP/term.json" "$TMP/fifo" -d "$TMP/term.d" --every 0.2 \
  --json-lines
expect_rc "watch, SIGTERM" 0
check "SIGTERM: the final line says stopped" \
  grep -q '"state":"stopped"' "$TMP/term.json"
check "SIGTERM: no temporary files left" \
  bash -c "! ls '$TMP/term.d' | grep -q tmp"
head -c "$(grep -o '"stream_bytes":[0-9]*' "$TMP/term.json" | tail -1 |
  cut -d: -f2)" "$TMP/long.eventlog" >"$TMP/term.eventlog"
same_as_report "SIGTERM: the files of the bytes read" "$TMP/term.d" gen_live \
  "$TMP/term.eventlog"

# ---- a real profiled program writing into a FIFO ------------------------------

if [ -n "$GHC_DONE" ]; then
  # the compile started at the top: up to its own 300 s bound
  for i in $(seq 3000); do [ -e "$GHC_DONE" ] && break; sleep 0.1; done
  if [ -x "$BUILD/leak-prog/leak" ]; then
    mkfifo "$TMP/prog.fifo" "$TMP/copy.fifo"
    # tee keeps a copy of the very bytes watch reads, for the batch oracle.
    tee "$TMP/prog.eventlog" <"$TMP/prog.fifo" >"$TMP/copy.fifo" &
    (cd "$TMP" && timeout 120 "$BUILD/leak-prog/leak" \
      +RTS -hc -i0.05 -l -ol"$TMP/prog.fifo" -RTS >/dev/null) &
    timeout 120 "$BIN" watch "$TMP/copy.fifo" -d "$TMP/prog.d" --json-lines \
      --interval 0.1 >"$TMP/prog.out" 2>"$TMP/prog.err"
    rc=$?
    wait
    expect_rc "watch a real program" 0
    check "real program: the run ends with its data-end marker" \
      grep -q '"state":"done"' "$TMP/prog.out"
    same_as_report "real program" "$TMP/prog.d" leak "$TMP/prog.eventlog"
  else
    bad "ghc could not compile samples/leak.hs with -prof"
  fi
else
  echo "SKIP: no ghc: the real-program check did not run"
fi

finish
