#!/usr/bin/env bash
# cli_events.sh: `heapscope events` as a user runs it: stdout, stderr and
# exit codes on samples, corpus logs and bad input.
#
# Environment (set by meson test): HEAPSCOPE_BIN, HEAPSCOPE_SOURCE_DIR,
# HEAPSCOPE_SHARED_DIR.
set -u

. "$(dirname "$0")/cli_common.sh"

# ---------------------------------------------------------------- samples
S=$SAMPLES/leak-hc.eventlog
[ -r "$S" ] || { echo "FAIL: no sample $S" >&2; exit 1; }

run events "$S"
expect_rc "events sample" 0
expect_empty "events sample" "$TMP/err"
cp "$TMP/out" "$TMP/sample.events"
checks=$((checks + 1))
bad=$(grep -Evc '^[0-9]+ (-|[0-9]+) [A-Z_]+( .*)?$' "$TMP/sample.events")
[ "$bad" -eq 0 ] || fail "events sample: $bad lines not 'TIME CAP NAME fields'"
checks=$((checks + 1))
grep -Eq '^[0-9]+ - HEAP_PROF_BEGIN profile=0 period=[0-9]+ breakdown=1\(-hc\)$' "$TMP/sample.events" \
  || fail "events sample: no HEAP_PROF_BEGIN line for -hc"
checks=$((checks + 1))
grep -Eq '^[0-9]+ - HEAP_PROF_COST_CENTRE id=[0-9]+ label="[^"]*" module="Main" srcloc="leak.hs:[^"]*" flags=[01](\(CAF\))?$' "$TMP/sample.events" \
  || fail "events sample: no cost centre of module Main"
checks=$((checks + 1))
grep -Eq '^[0-9]+ - HEAP_PROF_SAMPLE_COST_CENTRE profile=0 bytes=[0-9]+ depth=[1-9][0-9]* stack=[0-9]+(,[0-9]+)*$' "$TMP/sample.events" \
  || fail "events sample: no cost-centre stack sample"
checks=$((checks + 1))
grep -Eq '^[0-9]+ 0 GC_STATS_GHC capset=0 gen=[01] copied=[0-9]+ .* par_balanced_copied=[0-9]+$' "$TMP/sample.events" \
  || fail "events sample: no GC_STATS_GHC line on cap 0"
checks=$((checks + 1))
grep -Eq '^[0-9]+ - PROGRAM_ARGS capset=0 args=\["\./leak",' "$TMP/sample.events" \
  || fail "events sample: no PROGRAM_ARGS line"

run events --count "$S"
expect_rc "events --count sample" 0
expect_empty "events --count sample" "$TMP/err"
cp "$TMP/out" "$TMP/sample.counts"
# The counts equal ghc-events' (samples/*.counts), which has no block
# markers (samples/README.md): compare every other tag.
checks=$((checks + 1))
awk '$1 != 18 { print $1, $3 }' "$TMP/sample.counts" >"$TMP/ours"
diff "$TMP/ours" "${S%.eventlog}.counts" >"$TMP/diff" \
  || fail "events --count sample differs from ghc-events: $(head -5 "$TMP/diff")"
checks=$((checks + 1))
awk 'NR > 1 && $1 + 0 <= prev { exit 1 } { prev = $1 + 0 }' "$TMP/sample.counts" \
  || fail "events --count: not sorted by tag"
checks=$((checks + 1))
grep -Eq '^18 BLOCK_MARKER [1-9][0-9]*$' "$TMP/sample.counts" \
  || fail "events --count: block markers not counted under 18"
checks=$((checks + 1))
grep -q '^65535 ' "$TMP/sample.counts" && fail "events --count: data-end marker counted"
# One line per event: the lines of `events` add up to the counts.
checks=$((checks + 1))
total=$(awk '{ s += $3 } END { print s }' "$TMP/sample.counts")
lines=$(wc -l <"$TMP/sample.events")
[ "$total" -eq "$lines" ] || fail "events prints $lines lines, --count says $total events"
checks=$((checks + 1))
got=$(awk '$3 ~ /^HEAP_PROF_SAMPLE_BEGIN$/' "$TMP/sample.events" | wc -l)
want=$(awk '$1 == 162 { print $3 }' "$TMP/sample.counts")
[ "$got" -eq "$want" ] || fail "events: $got SAMPLE_BEGIN lines, --count says $want"

# Options may stand after the file name; -c is --count.
run events "$S" --count
expect_rc "events FILE --count" 0
checks=$((checks + 1))
cmp -s "$TMP/out" "$TMP/sample.counts" || fail "events FILE --count differs from events --count FILE"
run events -c "$S"
checks=$((checks + 1))
cmp -s "$TMP/out" "$TMP/sample.counts" || fail "events -c FILE differs from events --count FILE"

# Standard input.
"$BIN" events --count - <"$S" >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc "events --count -" 0
checks=$((checks + 1))
cmp -s "$TMP/out" "$TMP/sample.counts" || fail "events --count - differs from the file"
cat "$S" | "$BIN" events - >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc "events - (pipe)" 0
checks=$((checks + 1))
cmp -s "$TMP/out" "$TMP/sample.events" || fail "events - from a pipe differs from the file"

# ------------------------------------------------- corpus: golden lines
if [ -d "$CORPUS" ]; then
  C92=$CORPUS/ghc-9.2-events.eventlog
  run events "$C92"
  expect_rc "events ghc-9.2" 0
  expect_empty "events ghc-9.2" "$TMP/err"
  expect_out_line "events ghc-9.2" '65158 - BLOCK_MARKER block_size=235 end_time=93773 block_cap=65535'
  expect_out_line "events ghc-9.2" '89791 - CAPSET_CREATE capset=1 type=3'
  expect_out_line "events ghc-9.2" '91309 - WALL_CLOCK_TIME capset=1 sec=1615466193 nsec=305659000'
  expect_out_line "events ghc-9.2" '92924 - RTS_IDENTIFIER capset=0 name="GHC-9.1.20210309 rts_l"'
  expect_out_line "events ghc-9.2" '93365 - PROGRAM_ARGS capset=0 args=["./Test","+RTS","-l-agu"]'
  expect_out_line "events ghc-9.2" '146361 - IPE address=0x409f78 table_name="sat_s154_info" closure_desc="21" type="Integer -> IO ()" label="main" module="Main" srcloc="Test.hs:5:1-30"'
  expect_out_line "events ghc-9.2" '3671888 0 GC_START'
  expect_out_line "events ghc-9.2" '3892276 0 GC_STATS_GHC capset=0 gen=0 copied=200992 slop=48800 frag=651264 par_threads=1 par_max_copied=0 par_tot_copied=200992 par_balanced_copied=0'
  checks=$((checks + 1))
  [ "$(wc -l <"$TMP/out")" -eq 791 ] || fail "events ghc-9.2: $(wc -l <"$TMP/out") lines, ghc-events has 791 events"

  # GHC 8.2: the 50-byte GC_STATS_GHC has no balanced-copied field.
  H82=$CORPUS/hello-ghc-8.2.2.eventlog
  run events "$H82"
  expect_rc "events hello-8.2.2" 0
  cp "$TMP/out" "$TMP/h82.events"
  expect_out_line "events hello-8.2.2" '2105400 0 GC_STATS_GHC capset=0 gen=1 copied=1784 slop=26744 frag=937984 par_threads=1 par_max_copied=0 par_tot_copied=1784'
  run events --count "$H82"
  expect_rc "events --count hello-8.2.2" 0
  checks=$((checks + 1))
  cat >"$TMP/want" <<'EOF'
0 CREATE_THREAD 2
1 RUN_THREAD 4
2 STOP_THREAD 4
9 GC_START 1
10 GC_END 1
18 BLOCK_MARKER 2
20 GC_IDLE 3
21 GC_WORK 1
22 GC_DONE 3
25 CAPSET_CREATE 2
26 CAPSET_DELETE 2
27 CAPSET_ASSIGN_CAP 2
28 CAPSET_REMOVE_CAP 2
29 RTS_IDENTIFIER 1
30 PROGRAM_ARGS 1
31 PROGRAM_ENV 1
32 OSPROCESS_PID 1
43 WALL_CLOCK_TIME 1
45 CAP_CREATE 1
46 CAP_DELETE 1
49 HEAP_ALLOCATED 2
50 HEAP_SIZE 1
51 HEAP_LIVE 1
52 HEAP_INFO_GHC 1
53 GC_STATS_GHC 1
54 GC_GLOBAL_SYNC 1
55 TASK_CREATE 2
57 TASK_DELETE 2
EOF
  diff "$TMP/want" "$TMP/out" >"$TMP/diff" || fail "events --count hello-8.2.2: $(head -5 "$TMP/diff")"

  # An event GHC does not define (Eden's, in parallelTest) is UNKNOWN with
  # the description the log's header gives it, not a name of GHC's.
  run events "$CORPUS/parallelTest.eventlog"
  expect_rc "events of a log with Eden events" 0
  checks=$((checks + 1))
  grep -qx '1020647784 0 UNKNOWN tag=68 desc="Receiving message" size=23 payload=5500000000000000000001000000010000000000000013' "$TMP/out" ||
    fail "events: an Eden event is UNKNOWN with its declared description"

  # Any byte of a string is visible: UTF-8 as is.
  run events "$CORPUS/unicode.eventlog"
  expect_out_line "events unicode" '3851573 0 USER_MSG text="こんにちは"'

  # A log cut in the middle of event 36 (which starts at byte 2723):
  # the 36 events before it, a warning, exit 0.
  head -c 5000 "$H82" >"$TMP/cut.eventlog"
  run events "$TMP/cut.eventlog"
  expect_rc "events truncated" 0
  expect_err_line "events truncated" "heapscope: warning: $TMP/cut.eventlog: byte 5000 (event 36): the log is truncated: it stops at byte 5000 in the middle of event 36 (which starts at byte 2723); the 36 events before it were read"
  checks=$((checks + 1))
  head -36 "$TMP/h82.events" | cmp -s - "$TMP/out" || fail "events truncated: not the first 36 events of the full log"
  run events --count "$TMP/cut.eventlog"
  expect_rc "events --count truncated" 0
  expect_err_grep "events --count truncated" 'warning: .*cut\.eventlog: byte 5000 \(event 36\): the log is truncated'
else
  skip_corpus "golden corpus checks"
fi

# A log stopping at an event boundary without its data-end marker.
size=$(stat -c %s "$S")
head -c $((size - 2)) "$S" >"$TMP/noend.eventlog"
run events --count "$TMP/noend.eventlog"
expect_rc "events no data-end" 0
nev=$(awk '{ s += $3 } END { print s }' "$TMP/sample.counts")
expect_err_line "events no data-end" "heapscope: warning: $TMP/noend.eventlog: byte $((size - 2)) (event $nev): the log is truncated: it stops at byte $((size - 2)) without its data-end marker; the $nev events before it were read"
checks=$((checks + 1))
cmp -s "$TMP/out" "$TMP/sample.counts" || fail "events no data-end: counts differ from the full log"

# ---------------------------------------------------------- bad input
# Not an eventlog: the runtime's .hp file of the same run.
run events "$SAMPLES/leak-hc.hp"
expect_rc "events on a .hp" 1
expect_err_line "events on a .hp" "heapscope: $SAMPLES/leak-hc.hp: byte 0: not a GHC eventlog: it does not start with the header magic 'hdrb' (found 0x4a4f4220)"
expect_empty "events on a .hp" "$TMP/out"

: >"$TMP/empty.eventlog"
run events "$TMP/empty.eventlog"
expect_rc "events empty" 1
expect_err_line "events empty" "heapscope: $TMP/empty.eventlog: byte 0: the input is empty: not an eventlog"
"$BIN" events - </dev/null >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc "events empty stdin" 1
expect_err_line "events empty stdin" "heapscope: <stdin>: byte 0: the input is empty: not an eventlog"

head -c 100 "$S" >"$TMP/hdr.eventlog"
run events "$TMP/hdr.eventlog"
expect_rc "events cut in header (truncated, nothing before the cut)" 4
expect_err_line "events cut in header" "heapscope: $TMP/hdr.eventlog: byte 100: the input ends at byte 100 inside the eventlog header, before any event"

run events "$TMP/no-such.eventlog"
expect_rc "events missing file" 3
expect_err_line "events missing file" "heapscope: $TMP/no-such.eventlog: cannot open: No such file or directory"

run events "$TMP"
expect_rc "events on a directory" 3
expect_err_grep "events on a directory" "^heapscope: $TMP: .*Is a directory$"

# Corrupt data: the tag of event 1 (right after the first block marker,
# 24 bytes after 'datb') replaced by 300, which the header does not
# declare.
datb=$(grep -obUa datb "$S" | head -1 | cut -d: -f1)
ev1=$((datb + 4 + 24))
cp "$S" "$TMP/corrupt.eventlog"
printf '\001\054' | dd of="$TMP/corrupt.eventlog" bs=1 seek="$ev1" conv=notrunc status=none
run events "$TMP/corrupt.eventlog"
expect_rc "events corrupt" 1
expect_err_line "events corrupt" "heapscope: $TMP/corrupt.eventlog: byte $ev1 (event 1): event type 300 is not declared in the header (the data is corrupt or not an eventlog)"
checks=$((checks + 1))
[ "$(wc -l <"$TMP/out")" -eq 1 ] || fail "events corrupt: expected the one event before the error on stdout"

# A write error on standard output is reported, exit 3.
if [ -w /dev/full ]; then
  "$BIN" events "$S" >/dev/full 2>"$TMP/err"
  rc=$?
  expect_rc "events > /dev/full" 3
  expect_err_grep "events > /dev/full" "cannot write standard output"
fi

# ------------------------------------------------------------- usage
run events --help
expect_rc "events --help" 0
checks=$((checks + 1))
grep -q '^usage: heapscope events \[--count\] FILE$' "$TMP/out" || fail "events --help: no usage line"
grep -q -- '--count' "$TMP/out" || fail "events --help: --count not described"
run events "$S" --help
expect_rc "events FILE --help" 0
checks=$((checks + 1))
grep -q '^usage: heapscope events' "$TMP/out" || fail "events FILE --help: no usage"

run --help
expect_rc "--help" 0
checks=$((checks + 1))
grep -q '^exit codes:' "$TMP/out" && grep -q 'events' "$TMP/out" || fail "--help: no command list or exit codes"
run --version
expect_rc "--version" 0
checks=$((checks + 1))
grep -Eq '^heapscope [0-9]+\.[0-9]+\.[0-9]+$' "$TMP/out" || fail "--version: $(cat "$TMP/out")"

run events --bogus "$S"
expect_rc "events --bogus" 2
expect_err_line "events --bogus" "heapscope: events: unknown option '--bogus' (run 'heapscope events --help')"
expect_empty "events --bogus" "$TMP/out"
run events "$S" -x
expect_rc "events FILE -x" 2
expect_err_line "events FILE -x" "heapscope: events: unknown option '-x' (run 'heapscope events --help')"
run events --count=yes "$S"
expect_rc "events --count=yes" 2
expect_err_line "events --count=yes" "heapscope: events: option '--count' takes no value"
run events
expect_rc "events without FILE" 2
expect_err_line "events without FILE" "heapscope: events: expected one FILE (run 'heapscope events --help')"
run events "$S" "$S"
expect_rc "events with two files" 2
run eventz "$S"
expect_rc "unknown command" 2
expect_err_line "unknown command" "heapscope: unknown command 'eventz' (run 'heapscope --help')"
finish
