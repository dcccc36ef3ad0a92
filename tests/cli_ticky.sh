#!/usr/bin/env bash
# Command-line tests of 'heapscope ticky': the corpus's ticky logs as text,
# CSV and JSON with the same figures, a log without ticky events (exit 4,
# a named -o left as it was) and usage errors.
set -u

. "$(dirname "$0")/cli_common.sh"

# ---- a log without ticky events ---------------------------------------------
log=$SAMPLES/leak-hc.eventlog
run ticky "$log"
expect_rc "no ticky events" 4
expect_err_line "no ticky events" "heapscope: $log: no ticky-ticky counters in this log (build the program with -ticky and run it with +RTS -lT)"
expect_out_empty "no ticky events"
echo keep > "$TMP/kept.json"
run ticky --json -o "$TMP/kept.json" "$log"
expect_rc "no ticky events, -o" 4
check "no ticky events: -o left as it was" same "$(cat "$TMP/kept.json")" keep

run ticky --csv --json "$log"
expect_rc "--csv with --json" 2

run report "$log" -d "$TMP/hc"
expect_rc "report of a log without ticky events" 0
expect_no_file "report without ticky events: no .ticky.csv" "$TMP/hc/leak-hc.ticky.csv"
check "report without ticky events: the page has no ticky part" grep -q '"ticky":null' "$TMP/hc/leak-hc.html"

# ---- the corpus ------------------------------------------------------------
if [[ -d $CORPUS ]]; then
    for name in ticky-new ticky-ticky ticky-begin-sample ticky-json; do
        f=$CORPUS/$name.eventlog
        run ticky --json "$f"
        expect_rc "$name --json" 0
        json=$out
        # the JSON's shape and its sums against the CSV's
        sums=$(python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert list(d) == ["counters"], list(d)
keys = ["id", "name", "arity", "arg_kinds", "entries", "allocs", "allocd"]
for c in d["counters"]:
    assert all(k in c for k in keys), c
print(sum(c["entries"] for c in d["counters"]),
      sum(c["allocs"] for c in d["counters"]),
      sum(c["allocd"] for c in d["counters"]), len(d["counters"]))' "$json")
        check "$name: JSON parses with the members asked" test -n "$sums"
        run ticky --csv "$f"
        expect_rc "$name --csv" 0
        csvsums=$(python3 -c '
import csv, io, sys
rows = list(csv.DictReader(io.StringIO(sys.argv[1])))
print(sum(int(r["entries"]) for r in rows), sum(int(r["allocs"]) for r in rows),
      sum(int(r["allocd"]) for r in rows), len(rows))' "$out")
        check "$name: CSV and JSON agree ($csvsums, $sums)" same "$csvsums" "$sums"
        # ghc-events' dump: the sum of the entry counts of its samples
        want=$(grep -oE 'ticky counter sample [0-9]+: entry count: [0-9]+' "$f.reference" |
               awk '{ s += $NF } END { printf "%d\n", s }')
        check "$name: entries as ghc-events' dump sums them ($want)" same "${sums%% *}" "$want"
        run ticky "$f"
        expect_rc "$name text" 0
        expect_out_grep "$name text header" '^ +entries +allocs +allocd arity'
    done
    # report: NAME.ticky.csv as 'ticky --csv' writes it, and the page's part
    f=$CORPUS/ticky-new.eventlog
    run report "$f" -d "$TMP/rep"
    expect_rc "report of a ticky log" 0
    expect_out_grep "report names the CSV" 'wrote .*ticky-new\.ticky\.csv'
    run ticky --csv "$f"
    check "report's ticky-new.ticky.csv is 'ticky --csv'" same "$(cat "$TMP/rep/ticky-new.ticky.csv")" "$out"
    check "report's page has the ticky part" grep -q '"ticky":{"times_us":\[' "$TMP/rep/ticky-new.html"
else
    skip_corpus "the corpus's ticky logs"
fi

finish
