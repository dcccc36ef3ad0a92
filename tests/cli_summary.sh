#!/usr/bin/env bash
# Command-line tests of 'heapscope summary': figures against the runtime's
# own +RTS -s text for every sample, windows by time and by marker, pipes,
# logs without GC events, bad input and usage errors, with exit codes.
set -u

. "$(dirname "$0")/cli_common.sh"

# A line of the .stat and of our output that should be equal.
line_of() { grep -m1 -e "$1" <<<"$2"; }

# ---- every sample against its +RTS -s text ---------------------------------
nstat=0
for stat in "$SAMPLES"/*.stat; do
    [[ -e $stat ]] || continue
    log=${stat%.stat}.eventlog
    [[ -e $log ]] || continue
    nstat=$((nstat + 1))
    name=$(basename "${stat%.stat}")
    expected=$(cat "$stat")
    HEAPSCOPE_THREADS=1 run summary "$log"
    one="$rc|$out|$err"
    # two CPUs: a threaded log's blocks read in two lanes, the same bytes
    HEAPSCOPE_THREADS=2 run summary "$log"
    check "$name: the same with HEAPSCOPE_THREADS=1 and 2" same "$one" "$rc|$out|$err"
    check "$name: exit 0" same "$rc" 0
    for pat in 'bytes allocated in the heap' 'bytes copied during GC' \
               'bytes maximum residency' 'bytes maximum slop' \
               'Parallel GC work balance' 'SPARKS:'; do
        e=$(line_of "$pat" "$expected")
        a=$(line_of "$pat" "$out")
        check "$name: '$pat': expected '$e', got '$a'" same "$e" "$a"
    done
    # MiB in use: the number; fragmentation is n/a by design.
    e=$(line_of 'MiB total memory in use' "$expected" | sed 's/ (.*//')
    a=$(line_of 'MiB total memory in use' "$out" | sed 's/ (.*//')
    check "$name: MiB in use: expected '$e', got '$a'" same "$e" "$a"
    # Generation table: everything but the CPU column, exactly.
    e=$(grep 'colls,' <<<"$expected" | sed -E 's/ par +[0-9.]+s / par X /')
    a=$(grep 'colls,' <<<"$out" | sed -E 's/ par +n\/a / par X /')
    check "$name: generation table:
$e
---
$a" same "$e" "$a"
    [[ -n $e ]] || bad "$name: no generation table in the .stat"
    # The nonmoving collector's syncs line, exactly (markers-nonmoving).
    e=$(grep ' syncs,' <<<"$expected")
    a=$(grep ' syncs,' <<<"$out")
    check "$name: nonmoving syncs line: expected '$e', got '$a'" same "$e" "$a"
    # The command line heads both.
    check "$name: command line" same "$(head -n1 "$stat")" "$(head -n1 <<<"$out")"
    # Total elapsed within 2 ms: the runtime reads its clock just after
    # the last event.
    e=$(line_of 'Total   time' "$expected" | sed -E 's/.*\( *([0-9.]+)s elapsed.*/\1/')
    a=$(line_of 'Total   time' "$out" | sed -E 's/.*\( *([0-9.]+)s elapsed.*/\1/')
    check "$name: total elapsed $a vs $e" \
        awk -v a="$a" -v e="$e" 'BEGIN { d = a - e; exit !(d < 0.0025 && d > -0.0025) }'
    # The sum of our GC line is the generation table's elapsed total.
    g=$(grep 'colls,' <<<"$out" | awk '{ s += $(NF-2) + 0 } END { printf "%.3f", s }')
    a=$(line_of 'GC      time' "$out" | sed -E 's/.*\( *([0-9.]+)s elapsed.*/\1/')
    check "$name: GC elapsed $a is the generations' $g" \
        awk -v a="$a" -v g="$g" 'BEGIN { d = a - g; exit !(d < 0.0025 && d > -0.0025) }'
done
check "samples with .stat found ($nstat)" test "$nstat" -ge 1

# ---- threaded -N2 sample: parallel collections and work balance ------------
mk=$(ls "$SAMPLES"/markers-*.eventlog 2>/dev/null | head -n1)
if [[ -n $mk ]]; then
    run summary "$mk"
    par=$(grep 'Gen  0' <<<"$out" | awk '{ print $5 }')
    check "markers: parallel collections ($par) > 0" test "${par:-0}" -gt 0
    check "markers: work balance line" grep -q 'Parallel GC work balance: [0-9.]*% (serial 0%, perfect 100%)' <<<"$out"
    check "markers: SPARKS line" grep -q '^  SPARKS: ' <<<"$out"
    whole_json=$("$BIN" summary --json "$mk")
    # cut inside a block, and with 64 bytes past the middle made an
    # undeclared tag: the lanes' messages, offsets and exit codes are one
    # pass's
    size=$(stat -c %s "$mk")
    head -c $((size * 2 / 3)) "$mk" >"$TMP/cut.eventlog"
    cp "$mk" "$TMP/bad.eventlog"
    head -c 64 /dev/zero | tr '\0' '\177' |
        dd of="$TMP/bad.eventlog" bs=1 seek=$((size * 3 / 5)) conv=notrunc \
            status=none
    for f in cut bad; do
        HEAPSCOPE_THREADS=1 run summary --json "$TMP/$f.eventlog"
        one="$rc|$out|$err"
        HEAPSCOPE_THREADS=2 run summary --json "$TMP/$f.eventlog"
        check "markers, $f: the same with HEAPSCOPE_THREADS=1 and 2" \
            same "$one" "$rc|$out|$err"
    done
    check "markers, bad: exit 1 at an undeclared tag ($rc: $err)" \
        has "$rc|$err" "1|heapscope: $TMP/bad.eventlog: byte "
    whole_alloc=$(grep -o '"allocated_bytes": [0-9]*' <<<"$whole_json" | head -n1 | awk '{print $2}')

    # by marker
    run summary --between 'phase 1 start' 'phase 2 start' "$mk"
    check "between: exit 0 ($err)" same "$rc" 0
    check "between: window line" grep -q 'Window: .* (user marker "phase 1 start" to "phase 2 start")' <<<"$out"
    run summary --json --between 'phase 1 start' 'phase 2 start' "$mk"
    bj=$out
    from_ns=$(grep -o '"from_ns": [0-9]*' <<<"$bj" | awk '{print $2}')
    to_ns=$(grep -o '"to_ns": [0-9]*' <<<"$bj" | awk '{print $2}')
    b_alloc=$(grep -o '"allocated_bytes": [0-9]*' <<<"$bj" | head -n1 | awk '{print $2}')
    check "between: window found ($from_ns..$to_ns)" test -n "$from_ns" -a -n "$to_ns"
    check "between: allocation $b_alloc below the run's $whole_alloc" \
        test "${b_alloc:-0}" -gt 0 -a "${b_alloc:-0}" -lt "${whole_alloc:-0}"
    # the same window by time gives the same figures
    f=$(awk -v n="$from_ns" 'BEGIN { printf "%.9f", n / 1e9 }')
    t=$(awk -v n="$to_ns" 'BEGIN { printf "%.9f", n / 1e9 }')
    run summary --json --from "$f" --to "$t" "$mk"
    strip() { grep -v '"window"' <<<"$1" | grep -v 'user marker'; }
    check "between and --from/--to agree" same "$(strip "$bj")" "$(strip "$out")"
    # a pipe spools and agrees
    out=$(cat "$mk" | "$BIN" summary --json --between 'phase 1 start' 'phase 2 start' -)
    noinput() { grep -v '"input"' <<<"$1"; }
    check "between on a pipe agrees" same "$(noinput "$bj")" "$(noinput "$out")"
    check "a pipe is named <stdin>" grep -q '"input": "<stdin>"' <<<"$out"
    # same name twice: to the next occurrence, or an error when none
    run summary --between 'end' 'end' "$mk"
    check "between end end: no second 'end' -> exit 4" same "$rc" 4
    check "between end end: says so" grep -q 'does not occur after' <<<"$err"
    # unknown marker: error listing the markers
    run summary --between 'no such marker' 'end' "$mk"
    check "unknown marker: exit 4" same "$rc" 4
    check "unknown marker: named" grep -q 'no user marker named "no such marker"' <<<"$err"
    check "unknown marker: lists the log's markers" grep -q '"phase 1 start" at ' <<<"$err"
    check "unknown marker: nothing on stdout" same "$out" ""

    # windows by time add up: [0,T] + [T,end] = whole run
    T=0.3
    a1=$("$BIN" summary --json --to $T "$mk")
    a2=$("$BIN" summary --json --from $T "$mk")
    num() { grep -o "\"$1\": [0-9]*" <<<"$2" | head -n1 | awk '{print $2}'; }
    s=$(( $(num allocated_bytes "$a1") + $(num allocated_bytes "$a2") ))
    check "allocation [0,T]+[T,end] ($s) = whole ($whole_alloc)" same "$s" "$whole_alloc"
    s=$(( $(num copied_bytes "$a1") + $(num copied_bytes "$a2") ))
    check "copied [0,T]+[T,end] = whole" same "$s" "$(num copied_bytes "$whole_json")"
    c1=$(grep -o '"collections": [0-9]*' <<<"$a1" | awk '{s+=$2} END {print s}')
    c2=$(grep -o '"collections": [0-9]*' <<<"$a2" | awk '{s+=$2} END {print s}')
    cw=$(grep -o '"collections": [0-9]*' <<<"$whole_json" | awk '{s+=$2} END {print s}')
    check "collections [0,T]+[T,end] = whole" same "$((c1 + c2))" "$cw"
    # an empty window: nothing collected, still figures not garbage
    run summary --from 100000 "$mk"
    check "window after the end: exit 0" same "$rc" 0
    check "window after the end: 0 collections" grep -q 'Gen  0         0 colls' <<<"$out"

    # JSON parses (python3 is always here: the build needs it)
    check "JSON parses" python3 -c 'import json,sys; json.load(sys.stdin)' <<<"$whole_json"
    check "window JSON parses" python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["window"]["from_marker"] == "phase 1 start"' <<<"$bj"

    # -o writes the same bytes atomically
    run summary -o "$TMP/s.txt" "$mk"
    check "-o: exit 0" same "$rc" 0
    check "-o: same as stdout" same "$(cat "$TMP/s.txt")" "$("$BIN" summary "$mk")"
    run summary -o "$TMP/nodir/s.txt" "$mk"
    check "-o into a missing directory: exit 3" same "$rc" 3

    # truncated log: summary of what is there, warning, exit 0
    head -c 150000 "$mk" >"$TMP/cut.eventlog"
    run summary "$TMP/cut.eventlog"
    check "truncated: exit 0" same "$rc" 0
    check "truncated: warning" grep -q 'warning' <<<"$err"
    check "truncated: figures" grep -q 'bytes allocated in the heap' <<<"$out"
else
    bad "no samples/markers-*.eventlog"
fi

# ---- a runtime .hp has no GC figures: exit 4, said so, -o left alone --------
hp=$SAMPLES/leak-hc.hp
echo "the previous summary" >"$TMP/keep.txt"
for how in file stdin json; do
    case $how in
    file) run summary -o "$TMP/keep.txt" "$hp" ;;
    stdin) run summary -o "$TMP/keep.txt" - <"$hp" ;;
    json) run summary --json -o "$TMP/keep.txt" "$hp" ;;
    esac
    expect_rc "summary of a .hp ($how)" 4
    [[ $how != stdin ]] ||
        expect_err_grep "summary of a .hp: names the input" '<stdin>: a \.hp file'
    expect_err_grep "summary of a .hp ($how): says why" \
        'a \.hp file has no GC figures; summary needs an eventlog'
    check "summary of a .hp ($how): -o left as it was" \
        same "$(cat "$TMP/keep.txt")" "the previous summary"
done
run summary "$hp"
expect_err_grep "summary of a .hp: names the file" 'leak-hc\.hp: a \.hp file'
# other text is still no eventlog
printf 'hello\n' >"$TMP/hello.txt"
run summary "$TMP/hello.txt"
expect_rc "summary of other text" 1
expect_err_grep "summary of other text: not an eventlog" 'not a GHC eventlog'

# ---- corpus logs decode to a summary without error -------------------------
if [[ -d $CORPUS ]]; then
    for f in parallelTest hello-ghc-8.2.2 hello-ghc-8.6.5; do
        [[ -e $CORPUS/$f.eventlog ]] || { echo "note: $f.eventlog not in corpus"; continue; }
        run summary "$CORPUS/$f.eventlog"
        check "corpus $f: exit 0 ($err)" same "$rc" 0
        check "corpus $f: generation table" grep -q 'Gen  0 ' <<<"$out"
        check "corpus $f: no error output" same "$err" ""
        run summary --json "$CORPUS/$f.eventlog"
        check "corpus $f --json: exit 0" same "$rc" 0
    done
    run summary "$CORPUS/parallelTest.eventlog"
    check "parallelTest: 25 collections" grep -q 'Gen  0        25 colls' <<<"$out"
    # a log without GC events: a statement, not zeros
    if [[ -e $CORPUS/trace-binary-event.eventlog ]]; then
        run summary "$CORPUS/trace-binary-event.eventlog"
        check "no GC events: exit 4" same "$rc" 4
        check "no GC events: statement" grep -q 'no GC statistics can be computed' <<<"$out"
        check "no GC events: lists bytes copied" grep -q 'bytes copied during GC (no GC_STATS_GHC events)' <<<"$out"
        check "no GC events: no zero figures" bash -c '! grep -qE "^ +0 bytes" <<<"$1"' _ "$out"
        check "no GC events: stderr says why" grep -q 'no GC or heap events' <<<"$err"
        run summary --json "$CORPUS/trace-binary-event.eventlog"
        check "no GC events JSON: nulls" grep -q '"copied_bytes": null' <<<"$out"
    fi
else
    skip_corpus "corpus checks"
fi

# ---- bad input and usage ---------------------------------------------------
printf 'this is not an eventlog at all' >"$TMP/junk"
run summary "$TMP/junk"
check "junk: exit 1" same "$rc" 1
check "junk: names file and byte" grep -q "junk: byte [0-9]" <<<"$err"
run summary "$TMP/missing.eventlog"
check "missing file: exit 3" same "$rc" 3
run summary
check "no FILE: exit 2" same "$rc" 2
run summary --between onlyone
check "--between one name: exit 2" same "$rc" 2
run summary --from abc "$TMP/junk"
check "--from abc: exit 2" same "$rc" 2
run summary --from 2 --to 1 "$TMP/junk"
check "--from after --to: exit 2" same "$rc" 2
run summary --between a b --from 1 "$TMP/junk"
check "--between with --from: exit 2" same "$rc" 2
run summary --bogus "$TMP/junk"
check "unknown option: exit 2" same "$rc" 2
run summary --help
check "--help: exit 0" same "$rc" 0
check "--help documents --between and JSON keys" grep -q 'work_balance_percent' <<<"$out"
finish
