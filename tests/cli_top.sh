#!/usr/bin/env bash
# cli_top.sh: `heapscope top` and `folded --format speedscope` as a user
# runs them. On every real time-profile log (samples/*-p.eventlog and the
# corpus logs whose ghc-events dump shows time-profile samples) top's self
# and inherited ticks must agree with `folded --source time` (and with the
# dump itself, counted here from its text), its percentages with the
# runtime's own .prof where the samples have one, and its windows with the
# sample times `events` prints. Then the three formats, the options and
# the errors with their exit codes.
#
# Environment (set by meson test): HEAPSCOPE_BIN, HEAPSCOPE_SOURCE_DIR,
# HEAPSCOPE_SHARED_DIR.
set -u

. "$(dirname "$0")/cli_common.sh"

# "Module.label self inherited" lines from top --json, one per row, rows
# of the same name summed (the folded frames name cost centres so); JSON's
# \\ read back as one backslash.
top_table() { # LOG [OPTIONS...]
  "$BIN" top --json "$@" | sed -n 's/.*"name": "\(.*\)", "module": "\(.*\)", "srcloc": ".*", "self_ticks": \([0-9]*\), "inherited_ticks": \([0-9]*\)}.*/\2.\1 \3 \4/p' |
    sed 's/\\\\/\\/g' | awk '{ if ($1 == "MAIN.MAIN") $1 = "MAIN"; s[$1] += $2; i[$1] += $3 }
         END { for (k in s) print k, s[k], i[k] }' | LC_ALL=C sort
}

# The same from folded lines: self to the last frame, inherited once to
# every distinct frame of a line.
folded_table() { # FOLDED-FILE
  awk '{ w = $NF; sub(/ [0-9]+$/, ""); n = split($0, f, ";"); s[f[n]] += w
         delete seen; for (k = 1; k <= n; k++) if (!(f[k] in seen)) { seen[f[k]] = 1; i[f[k]] += w } }
       END { for (k in i) print k, s[k] + 0, i[k] }' "$1" | LC_ALL=C sort
}

# The same from a ghc-events dump: "cost centre ID LABEL in MODULE at ..."
# names ids, "cap no C, prof sample N, cost centre stack A, B" is a sample
# (innermost first; an empty stack is MAIN).
reference_table() { # REFERENCE
  awk '/: cost centre [0-9]+ .* in .* at / {
         sub(/^[0-9]+: cost centre /, ""); id = $1; name[id] = $4 "." $2; next }
       /: cap no [0-9]+, prof sample [0-9]+, cost centre stack/ {
         sub(/.*cost centre stack ?/, ""); n = split($0, st, /, */)
         if (n == 0 || st[1] == "") { s["MAIN"]++; i["MAIN"]++; next }
         s[name[st[1]]]++; delete seen
         for (k = 1; k <= n; k++) if (!(st[k] in seen)) { seen[st[k]] = 1; i[name[st[k]]]++ } }
       END { for (k in i) print k, s[k] + 0, i[k] }' "$1" | LC_ALL=C sort
}

# ---- agreement on the real logs --------------------------------------------

logs=()
for f in "$SAMPLES"/*-p.eventlog; do logs+=("$f"); done
if [ -d "$CORPUS" ]; then
  for r in "$CORPUS"/*.eventlog.reference; do
    grep -q ', prof sample [0-9]*, cost centre stack' "$r" && logs+=("${r%.reference}")
  done
else
  skip_corpus "agreement on the corpus's time profiles"
fi
check "there are time-profile logs to compare" test "${#logs[@]}" -ge 3
for log in "${logs[@]}"; do
  name=$(basename "$log")
  "$BIN" folded --source time "$log" >"$TMP/folded" 2>/dev/null
  top_table "$log" >"$TMP/top"
  folded_table "$TMP/folded" >"$TMP/ftable"
  check "$name: top's self and inherited ticks = folded's ($(diff "$TMP/top" "$TMP/ftable" | head -5))" cmp -s "$TMP/top" "$TMP/ftable"
  total=$("$BIN" top --json "$log" | sed -n 's/^{"total_ticks": \([0-9]*\),.*/\1/p')
  check "$name: total_ticks = the folded total" same "$total" "$(sum_last_field "$TMP/folded")"
  check "$name: self ticks add up to total_ticks" same "$total" "$(awk '{ s += $2 } END { print s + 0 }' "$TMP/top")"
  if [ -f "$log.reference" ]; then
    reference_table "$log.reference" >"$TMP/rtable"
    check "$name: top agrees with ghc-events' dump" cmp -s "$TMP/top" "$TMP/rtable"
    echo "$name: $total ticks, $(wc -l <"$TMP/top") cost centres, as folded and the dump"
  else
    echo "$name: $total ticks, $(wc -l <"$TMP/top") cost centres, as folded"
  fi
  # capability by capability, the tables add up to the whole
  for cap in $("$BIN" folded --source time --per-capability "$log" | sed 's/^cap \([0-9]*\);.*/\1/' | sort -un); do
    "$BIN" top --json --cap "$cap" "$log" | sed -n 's/^{"total_ticks": \([0-9]*\),.*/\1/p'
  done >"$TMP/caps"
  check "$name: the capabilities' totals add up" same "$total" "$(awk '{ s += $1 } END { print s + 0 }' "$TMP/caps")"
done

# The runtime's .prof: %time of its top table is self over the ticks of
# every cost centre but the ones it ignores (GC, SYSTEM, IDLE, OVERHEAD_of,
# DONT_CARE), to 0.1.
for prof in "$SAMPLES"/*-p.prof; do
  log=${prof%.prof}.eventlog
  "$BIN" top --json "$log" |
    sed -n 's/.*"name": "\(.*\)", "module": "\(.*\)", "srcloc": ".*", "self_ticks": \([0-9]*\), .*/\1 \2 \3/p' |
    awk -v prof="$prof" '
    { self[$1 " " $2] = $3; if ($1 !~ /^(GC|SYSTEM|IDLE|OVERHEAD_of|DONT_CARE)$/) total += $3 }
    END {
      while ((getline line < prof) > 0) {
        if (line ~ /^COST CENTRE +MODULE +SRC +%time/) { on = 1; continue }
        if (on && line == "" && rows) break
        if (!on || line == "") continue
        n = split(line, f, / +/); rows++
        want = f[n - 1]; got = 100 * self[f[1] " " f[2]] / total
        if (got - want > 0.051 || want - got > 0.051) { print "row " f[1] ": " got " vs " want; bad++ }
      }
      if (rows < 5) { print "only " rows " rows read from " prof; bad++ }
      exit bad > 0 }' >"$TMP/prof" 2>&1
  pst=$?
  check "$(basename "$prof"): top's self percentages = the .prof's %time ($(cat "$TMP/prof"))" test "$pst" -eq 0
done

# A window: the samples `events` shows at times within it, edges included.
log=$SAMPLES/leak-p.eventlog
"$BIN" events "$log" | awk '/ PROF_SAMPLE_COST_CENTRE / { print $1 }' >"$TMP/times"
from=0.2; to=0.35
want=$(awk -v a=200000000 -v b=350000000 '$1 >= a && $1 <= b { n++ } END { print n + 0 }' "$TMP/times")
got=$("$BIN" top --json --from $from --to $to "$log" | sed -n 's/^{"total_ticks": \([0-9]*\),.*/\1/p')
check "a window has the samples within it ($want)" same "$got" "$want"
check "the window has samples" test "$want" -gt 0
got=$("$BIN" top --json --from $from "$log" | sed -n 's/^{"total_ticks": \([0-9]*\),.*/\1/p')
check "--from alone runs to the end" same "$got" "$(awk '$1 >= 200000000 { n++ } END { print n + 0 }' "$TMP/times")"

# ---- the formats ------------------------------------------------------------

run top "$log"
expect_rc "top" 0
expect_err_empty "top"
expect_out_grep "top: the title" "^633 ticks of 1 ms \(0\.633 s\), all capabilities$"
expect_out_grep "top: the header" "^COST CENTRE +MODULE +SRC +%self +self +%inherited +inherited$"
expect_out_grep "top: weight's row" "^weight +Main +leak\.hs:47:1-35 +16\.1 +102 +16\.1 +102$"
check "top: columns aligned" same "$(awk 'NR > 2 { print index($0, "leak.hs") ? index($0, "leak.hs") : index($0, "<") }' "$TMP/out" | sort -u | grep -vc '^0$')" 1
run top --csv "$log"
expect_rc "top --csv" 0
expect_out_line "top --csv: header" "name,module,srcloc,self_ticks,self_percent,inherited_ticks,inherited_percent"
expect_out_line "top --csv: a row" '"weight","Main","leak.hs:47:1-35",102,16.11,102,16.11'
run top --json "$log"
expect_rc "top --json" 0
expect_out_grep "top --json: keys" '^\{"total_ticks": 633, "tick_s": 0\.001000000, "cost_centres": \[$'
expect_out_line "top --json: a row" '  {"name": "weight", "module": "Main", "srcloc": "leak.hs:47:1-35", "self_ticks": 102, "inherited_ticks": 102},'
if command -v python3 >/dev/null; then
  check "top --json is JSON" python3 -m json.tool "$TMP/out" /dev/null
fi
run top --json -o "$TMP/top.json" "$log"
expect_rc "top -o" 0
check "top -o writes the file" cmp -s "$TMP/top.json" <("$BIN" top --json "$log")

# a heap profile: -hc without a time profile is tabled by byte-seconds
run top "$SAMPLES/leak-hc.eventlog"
expect_rc "top of a -hc log" 0
expect_out_grep "top of a -hc log: byte-seconds" "^[0-9.]+ byte-seconds$"
run top --by peak --json "$SAMPLES/leak-hc.eventlog"
expect_rc "top --by peak" 0
expect_out_grep "top --by peak: bytes" '^\{"total_bytes": [0-9]+, "cost_centres"'
peak=$(sed -n 's/^{"total_bytes": \([0-9]*\),.*/\1/p' "$TMP/out")
"$BIN" csv "$SAMPLES/leak-hc.eventlog" | awk -F, 'NR > 1 { t[$1] += $NF } END { for (k in t) if (t[k] > m) m = t[k]; print m }' >"$TMP/peak"
check "top --by peak: the largest sample's total" same "$peak" "$(cat "$TMP/peak")"

# ---- errors -----------------------------------------------------------------

run top
expect_rc "top without FILE" 2
expect_err_grep "top without FILE" "^heapscope: top: expected one FILE"
run top --cap 0 --by peak "$SAMPLES/leak-hc.eventlog"
expect_rc "--cap with --by" 2
expect_err_grep "--cap with --by" "^heapscope: top: --cap is for a time profile"
run top --from 2 --to 1 "$log"
expect_rc "--from after --to" 2
expect_err_line "--from after --to" "heapscope: top: --from is after --to"
run top --between a b --from 1 "$log"
expect_rc "--between with --from" 2
run top --by bytes "$log"
expect_rc "--by bytes" 2
run top -o "$TMP/none.txt" "$SAMPLES/leak-hy.eventlog"
expect_rc "top of a heap-only log" 4
expect_err_line "top of a heap-only log" "heapscope: $SAMPLES/leak-hy.eventlog: no time profile in this log (run the program with +RTS -p -l)"
expect_no_file "top of a heap-only log" "$TMP/none.txt"
run top --by peak "$log"
expect_rc "--by on a log without -hc" 4
expect_err_grep "--by on a log without -hc" "no -hc heap profile in this log"
run top --from 100 "$log"
expect_rc "an empty window" 4
expect_err_line "an empty window" "heapscope: $log: no time-profile samples from 100.000000 s on"
run top --from 0.2 --to 0.25 --cap 0 "$log"
expect_rc "a window on a capability" 0
expect_out_grep "a window on a capability: the title" "^[0-9]+ ticks of 1 ms \([0-9.]+ s\), capability 0, from 0\.200 s to 0\.250 s$"
run top --cap 3 -o "$TMP/none.txt" "$log"
expect_rc "a capability without samples" 4
expect_err_line "a capability without samples" "heapscope: $log: no time-profile samples on capability 3"
expect_no_file "a capability without samples" "$TMP/none.txt"
run top --between start end "$log"
expect_rc "--between without markers" 4
expect_err_grep "--between without markers" "no user marker named \"start\""
expect_err_grep "--between without markers" "has no user markers"
run top "$SAMPLES/leak-hc.hp"
expect_rc "top of a .hp" 4
head -c 3000 "$log" >"$TMP/cut.eventlog"
run top "$TMP/cut.eventlog"
expect_rc "top of a log cut before its samples" 4
expect_err_grep "top of a log cut before its samples" "cut"
head -c 205000 "$log" >"$TMP/cut.eventlog"
run top --json "$TMP/cut.eventlog"
expect_rc "top of a log cut among its samples" 0
expect_err_grep "top of a log cut among its samples" "warning: .*truncated"
expect_out_grep "top of a log cut among its samples: the samples before the cut" '^\{"total_ticks": [1-9][0-9]*,'

# ---- speedscope's format ------------------------------------------------------

run folded --format speedscope "$log"
expect_rc "speedscope without --source time" 2
expect_err_grep "speedscope without --source time" "--format speedscope is for --source time"
run folded --source time --format speedscope -o "$TMP/s.json" "$SAMPLES/leak-hy.eventlog"
expect_rc "speedscope of a heap-only log" 4
expect_no_file "speedscope of a heap-only log" "$TMP/s.json"
run folded --source time --format speedscope -o "$TMP/s.json" "$log"
expect_rc "speedscope" 0
check "speedscope: its schema" grep -q '^{"\$schema": "https://www.speedscope.app/file-format-schema.json",$' "$TMP/s.json"
check "speedscope: named after the input" grep -q '^  "name": "leak-p.eventlog",$' "$TMP/s.json"
check "speedscope: frames with file and line" grep -q '{"name": "Main.weight", "file": "leak.hs", "line": 47, "col": 1}' "$TMP/s.json"
check "speedscope: all capabilities weigh the total" grep -q '"endValue": 633}' "$TMP/s.json"
if command -v python3 >/dev/null; then
  check "speedscope output is JSON" python3 -m json.tool "$TMP/s.json" /dev/null
fi

finish
