#!/usr/bin/env bash
# cli_census.sh: `heapscope info`, `hp`, `csv` and `folded` as a user runs
# them: outputs, stderr messages and exit codes on the samples, corpus logs
# and bad input, and no output file left behind when a command fails.
#
# Environment (set by meson test): HEAPSCOPE_BIN, HEAPSCOPE_SOURCE_DIR,
# HEAPSCOPE_SHARED_DIR.
set -u

. "$(dirname "$0")/cli_common.sh"

# ---- help and usage ----------------------------------------------------

for cmd in info hp csv folded; do
  run "$cmd" --help
  expect_rc "$cmd --help" 0
  expect_out_grep "$cmd --help" "^usage: heapscope $cmd "
  expect_err_empty "$cmd --help"
  run "$cmd"
  expect_rc "$cmd without FILE" 2
  expect_err_grep "$cmd without FILE" "^heapscope: $cmd: expected one FILE"
  run "$cmd" --bogus x
  expect_rc "$cmd --bogus" 2
  expect_err_grep "$cmd --bogus" "unknown option '--bogus'"
  run "$cmd" /nonexistent/log.eventlog
  expect_rc "$cmd on a missing file" 3
  expect_err_grep "$cmd on a missing file" "/nonexistent/log.eventlog: cannot open"
done

# ---- hand-made inputs ----------------------------------------------------

printf 'JOB "prog +RTS -hy"\nDATE "Sun Nov 22 00:21 2026"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\nBEGIN_SAMPLE 0.000000\nEND_SAMPLE 0.000000\nBEGIN_SAMPLE 0.500000\na,b\t10\nsay "hi"\t20\nEND_SAMPLE 0.500000\nMARK 0.700000\nBEGIN_SAMPLE 1.000000\nsay "hi"\t5\nEND_SAMPLE 1.000000\nBEGIN_SAMPLE 1.200000\nEND_SAMPLE 1.200000\n' >"$TMP/small.hp"

# .hp -> .hp is identical; options after the file; -o -
run hp "$TMP/small.hp" -o -
expect_rc "hp of a .hp" 0
expect_err_empty "hp of a .hp"
checks=$((checks + 1))
cmp -s "$TMP/out" "$TMP/small.hp" || fail "hp of a .hp is not the same file"

# through standard input, detected by content
"$BIN" hp - <"$TMP/small.hp" >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc "hp from stdin" 0
checks=$((checks + 1))
cmp -s "$TMP/out" "$TMP/small.hp" || fail "hp from stdin differs"

run info "$TMP/small.hp"
expect_rc "info of a .hp" 0
expect_out_line "info .hp format" "format: heap profile (.hp)"
expect_out_line "info .hp command" "command line: prog +RTS -hy"
expect_out_line "info .hp breakdown" "heap profile: -hy (type description)"
expect_out_line "info .hp samples" "heap samples: 2"
expect_out_line "info .hp markers" "markers: 1"
expect_out_line "info .hp complete" "complete: yes"

run csv --layout wide "$TMP/small.hp"
expect_rc "csv wide" 0
expect_out_line "csv wide header" 'time_s,"a,b","say ""hi"""'
expect_out_line "csv wide row 1" "0.500000,10,20"
expect_out_line "csv wide row 2" "1.000000,0,5"
run csv "$TMP/small.hp" --layout long
expect_out_line "csv long header" "time_s,band,bytes"
expect_out_line "csv long row" '1.000000,"say ""hi""",5'
# the formula guard (OWASP), its opt-out, and --bom
printf 'JOB "p +RTS -hT"\nBEGIN_SAMPLE 1\n=SUM(A1:A2)\t3\n-x\t4\nok\t5\nEND_SAMPLE 1\n' >"$TMP/formula.hp"
run csv "$TMP/formula.hp"
expect_rc "csv formula guard" 0
expect_out_line "csv formula guard =" "1.000000,\"'=SUM(A1:A2)\",3"
expect_out_line "csv formula guard -" "1.000000,\"'-x\",4"
expect_out_line "csv formula guard: others as they are" '1.000000,"ok",5'
run csv --no-formula-guard --layout wide "$TMP/formula.hp"
expect_out_line "csv --no-formula-guard" 'time_s,"=SUM(A1:A2)","-x","ok"'
run csv --bom "$TMP/formula.hp"
checks=$((checks + 1))
[ "$(head -c 3 "$TMP/out" | od -An -tx1 | tr -d ' ')" = "efbbbf" ] ||
  fail "csv --bom: no UTF-8 byte-order mark"
run csv "$TMP/formula.hp"
checks=$((checks + 1))
[ "$(head -c 6 "$TMP/out")" = "time_s" ] || fail "csv without --bom starts with a BOM"
run csv --layout tall "$TMP/small.hp"
expect_rc "csv --layout tall" 2
expect_err_grep "csv --layout tall" "^heapscope: csv: --layout takes long or wide, not 'tall'"

run folded "$TMP/small.hp"
expect_rc "folded of a .hp" 0
expect_out_line "folded peak" "a,b 10"
expect_out_line "folded peak 2" 'say "hi" 20'
run folded --weight last "$TMP/small.hp"
expect_out_line "folded last" 'say "hi" 5'
run folded --weight most "$TMP/small.hp"
expect_rc "folded --weight most" 2
run folded --source time "$TMP/small.hp"
expect_rc "folded time of a .hp" 4
expect_err_grep "folded time of a .hp" "no time profile in this log"
run folded --per-capability "$TMP/small.hp"
expect_rc "folded --per-capability with heap" 2

# a malformed .hp: the line and what was expected; no output file
printf 'JOB "x"\nBEGIN_SAMPLE 1\nfoo\tmany\nEND_SAMPLE 1\n' >"$TMP/bad.hp"
for cmd in hp csv folded; do
  run "$cmd" "$TMP/bad.hp" -o "$TMP/bad-out"
  expect_rc "$cmd of a malformed .hp" 1
  expect_err_grep "$cmd of a malformed .hp" "bad.hp: line 3: expected a byte count after the band name, not 'many'"
  expect_no_file "$cmd of a malformed .hp" "$TMP/bad-out"
done
run info "$TMP/bad.hp"
expect_rc "info of a malformed .hp" 1
expect_out_empty "info of a malformed .hp"

# not a heap profile at all
printf '\001\002\003\004\005' >"$TMP/junk"
run hp "$TMP/junk" -o "$TMP/junk-out"
expect_rc "hp of junk" 1
expect_err_grep "hp of junk" "junk: byte 0"
expect_no_file "hp of junk" "$TMP/junk-out"

# an output that cannot be created
run hp "$TMP/small.hp" -o "$TMP/no/such/dir/out.hp"
expect_rc "hp into a missing directory" 3
expect_err_grep "hp into a missing directory" "cannot create a file beside"

# ---- samples ---------------------------------------------------------------

if [ -d "$SAMPLES" ] && [ -f "$SAMPLES/leak-hc.eventlog" ]; then
  for log in "$SAMPLES"/*-h?.eventlog; do
    base=$(basename "$log" .eventlog)
    mode=${base##*-}
    run info "$log"
    expect_rc "info $base" 0
    expect_err_empty "info $base"
    expect_out_grep "info $base breakdown" "^heap profile: -$mode \\("
    expect_out_line "info $base complete" "complete: yes"
    expect_out_grep "info $base rts" "^rts: GHC-9\\."
    n=$(grep -c '^BEGIN_SAMPLE' "$SAMPLES/$base.hp")
    expect_out_line "info $base samples" "heap samples: $((n - 2))"

    # hp to a file equals hp to stdout; the sample count matches the runtime's
    run hp "$log" -o "$TMP/$base.hp"
    expect_rc "hp $base" 0
    expect_out_empty "hp $base -o"
    run hp "$log"
    checks=$((checks + 1))
    cmp -s "$TMP/out" "$TMP/$base.hp" || fail "hp $base: -o and stdout differ"
    checks=$((checks + 1))
    [ "$(grep -c '^BEGIN_SAMPLE' "$TMP/$base.hp")" -eq "$n" ] ||
      fail "hp $base: sample count differs from the runtime's"
    # its .hp reads back to itself
    run hp "$TMP/$base.hp"
    checks=$((checks + 1))
    cmp -s "$TMP/out" "$TMP/$base.hp" || fail "hp $base: .hp round trip differs"

    # csv sums equal .hp sums
    run csv "$log"
    expect_rc "csv $base" 0
    csv_sum=$(awk -F, 'NR > 1 { s += $NF } END { printf "%d\n", s }' "$TMP/out")
    hp_sum=$(awk -F'\t' 'NF == 2 { s += $2 } END { printf "%d\n", s }' "$TMP/$base.hp")
    checks=$((checks + 1))
    [ "$csv_sum" = "$hp_sum" ] || fail "csv $base: sum $csv_sum, .hp sum $hp_sum"
    run csv --layout wide "$log"
    expect_rc "csv wide $base" 0

    # folded peak total equals the largest sample
    run folded "$log"
    expect_rc "folded $base" 0
    total=$(sum_last_field "$TMP/out")
    peak=$(awk -F'\t' '/^BEGIN_SAMPLE/ { s = 0 } NF == 2 { s += $2 } /^END_SAMPLE/ { if (s > m) m = s } END { printf "%d\n", m }' "$TMP/$base.hp")
    checks=$((checks + 1))
    [ "$total" = "$peak" ] || fail "folded $base: total $total, largest sample $peak"
    checks=$((checks + 1))
    awk '!/^.+ [0-9]+$/ { bad = 1 } END { exit bad }' "$TMP/out" ||
      fail "folded $base: a line does not read 'frames N'"
    run folded --weight integral "$log" -o "$TMP/int.folded"
    expect_rc "folded integral $base" 0
  done

  # -L cuts -hc names as the runtime's -L does
  run hp -L 10 "$SAMPLES/leak-hc.eventlog"
  expect_rc "hp -L 10" 0
  checks=$((checks + 1))
  awk -F'\t' 'NF == 2 && length($1) > 10 { bad = 1 } END { exit bad }' "$TMP/out" ||
    fail "hp -L 10: a key is longer than 10"
  run hp --name-limit x "$SAMPLES/leak-hc.eventlog"
  expect_rc "hp --name-limit x" 2

  # a time profile: no heap profile for hp, ticks for folded
  if [ -f "$SAMPLES/manycc-p.eventlog" ]; then
    run hp "$SAMPLES/manycc-p.eventlog" -o "$TMP/p.hp"
    expect_rc "hp of a -p log" 4
    expect_err_grep "hp of a -p log" "manycc-p.eventlog: no heap profile in this log"
    expect_no_file "hp of a -p log" "$TMP/p.hp"
    run csv "$SAMPLES/manycc-p.eventlog" -o "$TMP/p.csv"
    expect_rc "csv of a -p log" 4
    expect_no_file "csv of a -p log" "$TMP/p.csv"
    ticks=$("$BIN" events --count "$SAMPLES/manycc-p.eventlog" | awk '$1 == 167 { print $3 }')
    run folded --source time "$SAMPLES/manycc-p.eventlog"
    expect_rc "folded time" 0
    checks=$((checks + 1))
    [ "$(sum_last_field "$TMP/out")" = "$ticks" ] || fail "folded time: total is not $ticks"
    run folded --source time --per-capability "$SAMPLES/manycc-p.eventlog"
    checks=$((checks + 1))
    [ "$(sum_last_field "$TMP/out")" = "$ticks" ] || fail "folded per capability: total is not $ticks"
    expect_out_grep "folded per capability root" "^cap 0;"
    run info "$SAMPLES/manycc-p.eventlog"
    expect_out_line "info -p heap" "heap profile: none"
    expect_out_grep "info -p ticks" "^time-profile samples: $ticks \\(tick "
  fi

  # a truncated log: everything before the cut, a warning, exit 0
  head -c 150000 "$SAMPLES/leak-hc.eventlog" >"$TMP/cut.eventlog"
  run info "$TMP/cut.eventlog"
  expect_rc "info of a cut log" 0
  expect_err_grep "info of a cut log" "^heapscope: warning: .*cut.eventlog: byte [0-9]+ \\(event [0-9]+\\): "
  expect_out_line "info of a cut log" "complete: no (the log stops without its data-end marker)"
  run hp "$TMP/cut.eventlog" -o "$TMP/cut.hp"
  checks=$((checks + 1))
  if [ "$rc" -eq 0 ]; then
    [ -s "$TMP/cut.hp" ] || fail "hp of a cut log wrote nothing"
  else
    [ "$rc" -eq 4 ] || fail "hp of a cut log: exit $rc"
  fi

  # cut right after the header (a killed program whose buffers never
  # reached the file): no events at all, and the message says the log was
  # cut rather than how to record a heap profile
  hdr=$(grep -abo datb "$SAMPLES/leak-hc.eventlog" | head -n 1 | cut -d: -f1)
  head -c "$((hdr + 4))" "$SAMPLES/leak-hc.eventlog" >"$TMP/hdronly.eventlog"
  run hp "$TMP/hdronly.eventlog" -o "$TMP/hdronly.hp"
  expect_rc "hp of a log with a header only" 4
  expect_err_grep "hp of a log with a header only: the cut" "byte $((hdr + 4)) \\(event 0\\): the log is truncated"
  expect_err_grep "hp of a log with a header only: says it was cut" "nothing of what was asked comes before the cut"
  expect_no_file "hp of a log with a header only" "$TMP/hdronly.hp"
  run info "$TMP/hdronly.eventlog"
  expect_rc "info of a log with a header only" 0
  expect_out_line "info of a log with a header only" "format: eventlog"

  # cut anywhere: every sample hp writes is whole (the samples of the
  # full log, in order); a sample cut before its end is left out, and
  # the warning says so (issue 14)
  totals() { # .hp -> "time total" per sample, the closing one left out
    awk '/^BEGIN_SAMPLE/ { t = $2; s = 0; next }
         /^END_SAMPLE/ { print t, s; next } /\t/ { s += $NF }' "$1" | sed '$d'
  }
  "$BIN" hp "$SAMPLES/leak-hc.eventlog" -o "$TMP/full.hp"
  totals "$TMP/full.hp" >"$TMP/full.tot"
  size=$(wc -c <"$SAMPLES/leak-hc.eventlog")
  said=0
  # (the heap samples sit in the last fifth: the global buffer is written
  # late; the previous binary failed 11 of these 50 cuts)
  for i in $(seq 0 49); do
    cut=$((size * 4 / 5 + size * i / 250))
    head -c "$cut" "$SAMPLES/leak-hc.eventlog" >"$TMP/cut.eventlog"
    run hp "$TMP/cut.eventlog" -o "$TMP/cut.hp"
    [ "$rc" -eq 0 ] || continue
    grep -q "was cut and is left out" "$TMP/err" && said=$((said + 1))
    totals "$TMP/cut.hp" >"$TMP/cut.tot"
    checks=$((checks + 1))
    head -n "$(wc -l <"$TMP/cut.tot")" "$TMP/full.tot" | cmp -s - "$TMP/cut.tot" ||
      fail "hp of leak-hc cut at $cut: a sample is not whole"
  done
  checks=$((checks + 1))
  [ "$said" -gt 0 ] || fail "no cut of leak-hc said that its last sample was left out"

  # hp2ps takes the output
  if [ -x /usr/bin/hp2ps ]; then
    (cd "$TMP" && /usr/bin/hp2ps leak-hc.hp) >/dev/null 2>&1
    rc=$?
    expect_rc "hp2ps on our .hp" 0
  fi
else
  echo "note: no samples/; sample checks skipped"
fi

# ---- corpus ---------------------------------------------------------------

if [ -d "$CORPUS" ]; then
  for name in sleep.h sleep.hd sleep.hm sleep.hy stop.hT biographical-samples; do
    log=$CORPUS/$name.eventlog
    [ -f "$log" ] || continue
    run hp "$log"
    expect_rc "hp $name" 0
    begins=$("$BIN" events --count "$log" | awk '$1 == 162 || $1 == 166 { s += $3 } END { print s + 0 }')
    checks=$((checks + 1))
    [ "$(grep -c '^BEGIN_SAMPLE' "$TMP/out")" -eq $((begins + 2)) ] ||
      fail "hp $name: not one sample per sample begin"
  done
  log=$CORPUS/time-prof.eventlog
  if [ -f "$log" ]; then
    ticks=$("$BIN" events --count "$log" | awk '$1 == 167 { print $3 }')
    run folded --source time "$log"
    checks=$((checks + 1))
    [ "$(sum_last_field "$TMP/out")" = "$ticks" ] || fail "folded time-prof: total is not $ticks"
  fi
else
  skip_corpus "corpus checks"
fi
finish
