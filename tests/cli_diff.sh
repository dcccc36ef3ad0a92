#!/usr/bin/env bash
# Command-line tests of 'heapscope diff': the JSON figures of the samples'
# two runs against sums computed here from the two runs' CSV (`heapscope
# csv`), a log against itself, a window by markers against the CSV cut to
# the same span, normalising two builds' -hd logs, the folded form against
# `folded` of each run, and refused pairs and options with their exit
# codes and no file left behind.
set -u

. "$(dirname "$0")/cli_common.sh"

LAZY=$SAMPLES/phases-lazy-hc.eventlog
STRICT=$SAMPLES/phases-strict-hc.eventlog

# check_json BEFORE AFTER JSON [FROM_MARKER TO_MARKER]: every figure of the
# JSON equals what the two runs' CSV give (trapezoid byte-seconds, peaks,
# statuses), within rounding of the printed decimals.
check_json() {
    local a=$1 b=$2 json=$3
    "$BIN" csv "$a" >"$TMP/a.csv" && "$BIN" csv "$b" >"$TMP/b.csv" || {
        bad "csv of $a or $b"
        return
    }
    local win=()
    if [[ $# -ge 5 ]]; then
        # the markers' times, from `events` (first A, then the next B)
        win=("$4" "$5")
    fi
    check "diff --json $(basename "$a") $(basename "$b") equals the CSV sums" \
        python3 - "$TMP/a.csv" "$TMP/b.csv" "$json" "$BIN" "$a" "$b" "${win[@]}" <<'PY'
import csv, json, subprocess, sys
from collections import defaultdict

def marker_times(binary, log, a, b):
    out = subprocess.run([binary, "events", log], capture_output=True,
                         text=True, check=True).stdout
    ms = []
    for line in out.splitlines():
        f = line.split(" ", 3)
        if len(f) == 4 and f[2] == "USER_MARKER":
            ms.append((int(f[0]), f[3][len('text="'):-1]))
    t0 = min(t for t, n in ms if n == a)
    t1 = min(t for t, n in ms if n == b and t > t0)
    return t0 / 1e9, t1 / 1e9

def figures(path, window):
    samples = defaultdict(dict)
    for row in csv.DictReader(open(path)):
        t = float(row["time_s"])
        samples[t][row["band"]] = samples[t].get(row["band"], 0) + int(row["bytes"])
    times = sorted(samples)
    if window:
        # the CSV has six decimals: widen by half a microsecond
        times = [t for t in times if window[0] - 5e-7 <= t <= window[1] + 5e-7]
    n = len(times)
    def weight(i):
        if n == 1:
            return 1.0
        lo = times[i - 1] if i > 0 else times[i]
        hi = times[i + 1] if i + 1 < n else times[i]
        return (hi - lo) / 2
    bands, peak, bs = {}, (0, 0.0), 0.0
    for i, t in enumerate(times):
        tot = sum(samples[t].values())
        if i == 0 or tot > peak[0]:
            peak = (tot, t)
        bs += tot * weight(i)
        for band, v in samples[t].items():
            p, s = bands.get(band, (None, 0.0))
            bands[band] = (v if p is None or v > p else p, s + v * weight(i))
    return bands, peak, bs

a_csv, b_csv, js, binary, a_log, b_log = sys.argv[1:7]
d = json.load(open(js))
wa = wb = None
if len(sys.argv) > 7:
    wa = marker_times(binary, a_log, sys.argv[7], sys.argv[8])
    wb = marker_times(binary, b_log, sys.argv[7], sys.argv[8])
A, B = figures(a_csv, wa), figures(b_csv, wb)
ok = True
def close(x, y, what, tol):
    global ok
    if abs(x - y) > tol * max(1.0, abs(y)):
        print(f"{what}: json {x}, csv {y}", file=sys.stderr)
        ok = False
for run, (bands, peak, bs) in (("before", A), ("after", B)):
    r = d[run]
    close(r["peak_bytes"], peak[0], run + " peak", 0)
    close(r["peak_time_s"], peak[1], run + " peak time", 1e-5)
    close(r["byte_seconds"], bs, run + " byte-seconds", 1e-4)
    if r["samples"] is None or r["bands"] != len(bands):
        print(f"{run}: {r['bands']} bands, csv {len(bands)}", file=sys.stderr)
        ok = False
names = set(A[0]) | set(B[0])
got = {x["band"]: x for x in d["bands"]}
if set(got) != names:
    print("band names differ:", set(got) ^ names, file=sys.stderr)
    ok = False
for name in names & set(got):
    x = got[name]
    for run, (bands, _, _) in (("before", A), ("after", B)):
        p, s = bands.get(name, (0, 0.0))
        close(x[run + "_peak_bytes"], p, name + " " + run + " peak", 0)
        close(x[run + "_byte_seconds"], s, name + " " + run + " bs", 1e-4)
    want = "both" if name in A[0] and name in B[0] else \
           "gone" if name in A[0] else "new"
    if x["status"] != want:
        print(f"{name}: status {x['status']}, want {want}", file=sys.stderr)
        ok = False
# ordered by absolute change of byte-seconds, largest first
ch = [abs(x["after_byte_seconds"] - x["before_byte_seconds"]) for x in d["bands"]]
if any(ch[i] < ch[i + 1] - 1e-6 for i in range(len(ch) - 1)):
    print("bands not ordered by change", file=sys.stderr)
    ok = False
sys.exit(0 if ok else 1)
PY
}

# --- the samples' two runs, against their CSV ---
run diff --json "$LAZY" "$STRICT"
expect_rc "diff --json lazy strict" 0
expect_err_empty "diff --json lazy strict"
cp "$TMP/out" "$TMP/d.json"
check_json "$LAZY" "$STRICT" "$TMP/d.json"
check "lazy -> strict: the lazy counting band is gone" \
    grep -q '"band": "bumpLazy/countLazy/summaryLazy.t/summaryLazy/main.r/main", "status": "gone"' "$TMP/d.json"
check "lazy -> strict: the strict counting band is new" \
    grep -q '"band": "bumpStrict/countStrict/summaryStrict.t/summaryStrict/main.r/main", "status": "new"' "$TMP/d.json"
check "both eventlogs: GC figures" grep -q '"gc": {"allocated_bytes": [0-9]' "$TMP/d.json"

# the same phase of both runs, by markers
run diff --json --between count report "$LAZY" "$STRICT"
expect_rc "diff --between count report" 0
cp "$TMP/out" "$TMP/w.json"
check_json "$LAZY" "$STRICT" "$TMP/w.json" count report
check "window in JSON" grep -q '"from_marker": "count", "to_marker": "report"' "$TMP/w.json"

# a window's end past 2^64 ns (the largest --window-to takes is 1e15 s)
# saturates: no window at all, the same JSON as without the option
run diff --json "$LAZY" "$STRICT"
cp "$TMP/out" "$TMP/whole.json"
run diff --json --window-from 0 --window-to 1e15 "$LAZY" "$STRICT"
expect_rc "--window-to 1e15" 0
check "--window-to 1e15 is the whole run" cmp -s "$TMP/out" "$TMP/whole.json"

# an eventlog against the runtime's .hp of the same run: all bands match,
# with a warning that the time bases differ
run diff --json "$LAZY" "$SAMPLES/phases-lazy-hc.hp"
expect_rc "eventlog against its .hp" 0
expect_err_grep "eventlog against .hp: time bases" 'warning: diff: one input is an eventlog, the other a .hp file'
check "eventlog against its .hp: every band in both" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["bands"] and all(b["status"] == "both" for b in d["bands"]), d["bands"]
assert d["before"]["peak_bytes"] == d["after"]["peak_bytes"]
' "$TMP/out"

# .hp against .hp (the runtime's own, with "(ccs id)" prefixes)
run diff --json "$SAMPLES/phases-lazy-hc.hp" "$SAMPLES/phases-strict-hc.hp"
expect_rc "diff of two .hp" 0
check "diff of two .hp: no (ccs id) prefix left" bash -c "! grep -q '\"band\": \"(' '$TMP/out'"
check "diff of two .hp: no GC figures" grep -q '"gc": null' "$TMP/out"

# Two Mono runs (heap shots, plain and gzip): the same figures from their
# CSV, and the text says what the samples are (no GHC breakdown)
MA=$SAMPLES/mono/leak-ondemand.mlpd
MB=$SAMPLES/mono/threads-alloc-heapshot.mlpd
run diff --json "$MA" "$MB"
expect_rc "diff of two .mlpd" 0
cp "$TMP/out" "$TMP/m.json"
check_json "$MA" "$MB" "$TMP/m.json"
check "diff of two .mlpd: no GHC breakdown in the JSON" grep -q '"breakdown": null' "$TMP/m.json"
run diff "$MA" "$SAMPLES/mono/leak-ondemand-zip.mlpd.gz"
expect_rc "diff of a plain and a gzip .mlpd" 0
expect_out_grep "diff of two .mlpd names the heap shots" "^heapscope diff: Mono heap shots, by class$"
run diff "$MA" "$SAMPLES/leak-hc.hp"
expect_rc "an .mlpd against a .hp: refused" 2
expect_err_grep "an .mlpd against a .hp: says why" "different profilers"

# --- a log against itself: zero change everywhere ---
for f in "$LAZY" "$SAMPLES/leak-hd.eventlog" "$SAMPLES/leak-hy.hp"; do
    run diff --json "$f" "$f"
    expect_rc "diff $(basename "$f") itself" 0
    check "$(basename "$f") against itself: zero change" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["before"]["peak_bytes"] == d["after"]["peak_bytes"]
assert d["before"]["byte_seconds"] == d["after"]["byte_seconds"]
assert d["bands"]
for b in d["bands"]:
    assert b["status"] == "both", b
    assert b["change_byte_seconds"] == 0 and b["change_peak_bytes"] == 0, b
    assert b["ratio"] in (None, 1.0), b
' "$TMP/out"
done

# --- text ---
run diff "$LAZY" "$STRICT"
expect_rc "diff text" 0
expect_out_grep "text: the runs' peaks" '^peak heap +2\.[0-9]+ MiB +[0-9.]+ KiB +-2\.[0-9]+ MiB \(-9[0-9]\.[0-9]%\)$'
expect_out_grep "text: counts" '^bands: [0-9]+ in both, [1-9][0-9]* new, [1-9][0-9]* gone$'
expect_out_grep "text: gone marked" ' gone  bumpLazy/countLazy/'
expect_out_grep "text: allocation" '^allocated +[0-9.]+ MiB'
run diff --by peak "$LAZY" "$STRICT"
expect_out_grep "text --by peak" '^by change in peak bytes:$'

# --- normalising two builds' -hd logs ---
O0=$SAMPLES/phases-O0-hd.eventlog
O1=$SAMPLES/phases-O1-hd.eventlog
run diff "$O0" "$O1"
expect_rc "diff -hd builds" 0
check "without --normalize: generated names unmatched" bash -c "grep -q ' new  <Main.sat_s' '$TMP/out' && grep -q ' gone  <Main.sat_s' '$TMP/out'"
run diff --normalize "$O0" "$O1"
expect_rc "diff --normalize" 0
expect_out_grep "--normalize counts the bands it matched" '; [1-9][0-9]* matched only after normalising$'
expect_out_grep "--normalize: <Main.sat> in both" '[0-9.]+x  <Main\.sat>  \(normalised\)$'
run diff --json --normalize "$O0" "$O1"
check "--normalize --json" grep -q '"band": "<Main.sat>", "status": "both", "normalized_only": true' "$TMP/out"

# --- folded: two columns, each summing to `folded` of its run ---
run diff --folded "$LAZY" "$STRICT"
expect_rc "diff --folded" 0
cp "$TMP/out" "$TMP/two.folded"
"$BIN" folded "$LAZY" >"$TMP/a.folded"
"$BIN" folded "$STRICT" >"$TMP/b.folded"
check "folded: before column sums to folded of before" same \
    "$(awk '{ s += $(NF-1) } END { print s }' "$TMP/two.folded")" "$(sum_last_field "$TMP/a.folded")"
check "folded: after column sums to folded of after" same \
    "$(awk '{ s += $NF } END { print s }' "$TMP/two.folded")" "$(sum_last_field "$TMP/b.folded")"
check "folded: every line is 'stack N N'" bash -c "! grep -Ev '^[^ ].* [0-9]+ [0-9]+$' '$TMP/two.folded'"
run diff --folded --weight integral "$LAZY" "$STRICT" -o "$TMP/int.folded"
expect_rc "diff --folded -o" 0
expect_out_empty "diff --folded -o"
check "folded -o written" test -s "$TMP/int.folded"

# an eventlog against its own runtime .hp: every stack in both columns
# (the .hp's -hc keys have no module names, so the frames of both runs
# come from the band names), for every breakdown in samples/
for log in "$SAMPLES"/*.eventlog; do
    hp=${log%.eventlog}.hp
    [[ -f $hp ]] || continue
    for w in peak last; do
        run diff --folded --weight "$w" "$log" "$hp"
        expect_rc "folded $(basename "$log") against its .hp ($w)" 0
        check "folded $(basename "$log") against its .hp ($w): no one-sided stack" \
            bash -c "test -s '$TMP/out' && ! awk '\$(NF-1) == 0 || \$NF == 0' '$TMP/out' | grep -q ."
    done
done

# --- refusals ---
run diff "$SAMPLES/leak-hc.eventlog" "$SAMPLES/leak-hy.eventlog" -o "$TMP/x.txt"
expect_rc "-hc against -hy" 2
expect_err_line "-hc against -hy" "heapscope: diff: the runs have different breakdowns: before is -hc (cost centre stack), after is -hy (type description); compare two runs profiled with the same -h option"
expect_no_file "-hc against -hy" "$TMP/x.txt"
run diff "$SAMPLES/leak-p.eventlog" "$LAZY"
expect_rc "a log without heap profile" 4
expect_err_grep "a log without heap profile" "leak-p.eventlog: the before run has no heap profile"
run diff "$LAZY" "$TMP/missing.eventlog"
expect_rc "a missing file" 3
run diff "$LAZY"
expect_rc "one file" 2
run diff - - <"$LAZY"
expect_rc "stdin twice" 2
run diff --between count nosuch "$LAZY" "$STRICT"
expect_rc "--between an unknown marker" 4
expect_err_grep "--between names the missing marker" 'no user marker named "nosuch" after "count"'
expect_err_grep "--between lists the markers" '^  "report" at '
run diff --folded --window-to 0.1 "$LAZY" "$STRICT"
expect_rc "--folded with a window" 2
run diff --between a b --window-from 1 "$LAZY" "$STRICT"
expect_rc "--between with --window-from" 2
run diff --by size "$LAZY" "$STRICT"
expect_rc "--by size" 2
run diff --window-from 2 --window-to 1 "$LAZY" "$STRICT"
expect_rc "window from after to" 2
run diff "$LAZY" "$STRICT" -o "$TMP/nodir/x.txt"
expect_rc "unwritable output" 3
expect_no_file "unwritable output" "$TMP/nodir/x.txt"
printf 'hdrb garbage' >"$TMP/bad.eventlog"
run diff "$LAZY" "$TMP/bad.eventlog"
expect_rc "a malformed input" 1
expect_err_grep "a malformed input names the file" 'bad.eventlog'

# --- the chart (in builds with charts) ---
if "$BIN" diff --help | grep -q -- '--time relative'; then
    run diff "$LAZY" "$STRICT" -o "$TMP/d.svg"
    if grep -q "without charts" "$TMP/err"; then
        expect_rc "chart in a build without charts" 2
    else
        expect_rc "diff -o d.svg" 0
        expect_out_empty "diff -o d.svg"
        check "chart: SVG parses" python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$TMP/d.svg"
        check "chart: both runs' captions" bash -c "grep -q 'before: .*phases-lazy-hc.eventlog' '$TMP/d.svg' && grep -q 'after: .*phases-strict-hc.eventlog' '$TMP/d.svg'"
        check "chart: the change panel" grep -q "change of each band" "$TMP/d.svg"
        check "chart: gone band marked" grep -q "(gone) bumpLazy" "$TMP/d.svg"
        run diff "$SAMPLES/phases-O0-hd.eventlog" "$SAMPLES/phases-O1-hd.eventlog" --normalize --time absolute --bands 5 -o "$TMP/d.png"
        expect_rc "diff -o d.png" 0
        check "chart: PNG of the default size" same \
            "$(od -An -tu1 -j16 -N8 "$TMP/d.png" | awk '{print $1*16777216+$2*65536+$3*256+$4 "x" $5*16777216+$6*65536+$7*256+$8}')" "1200x1100"
        run diff "$LAZY" "$STRICT" -o "$TMP/d.pdf"
        expect_rc "diff -o d.pdf" 0
        check "chart: a PDF" bash -c "head -c 5 '$TMP/d.pdf' | grep -q '%PDF-'"
        run diff "$LAZY" "$STRICT" --time sideways -o "$TMP/e.svg"
        expect_rc "--time sideways" 2
        expect_no_file "--time sideways" "$TMP/e.svg"
        run diff "$LAZY" "$STRICT" -o "$TMP/nodir/e.svg"
        expect_rc "chart into a missing directory" 3
        expect_no_file "chart into a missing directory" "$TMP/nodir/e.svg"
    fi
fi
# --- -d DIR: the page with the text, JSON and chart beside it ---
run diff "$LAZY" "$STRICT" -d "$TMP/set"
expect_rc "diff -d" 0
check "-d: the page" test -s "$TMP/set/diff.html"
check "-d: the text" grep -q '^bands: ' "$TMP/set/diff.txt"
check "-d: the JSON" python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["bands"]' "$TMP/set/diff.json"
check "-d: the page names both runs" bash -c "grep -q 'phases-lazy-hc.eventlog' '$TMP/set/diff.html' && grep -q 'phases-strict-hc.eventlog' '$TMP/set/diff.html'"
check "-d: the page links the text" grep -q 'diff.txt' "$TMP/set/diff.html"
check "-d: the page's subtitle names both runs" grep -q '<b>before:</b> phases-lazy-hc.eventlog .*<br><b>after:</b> phases-strict-hc.eventlog' "$TMP/set/diff.html"
check "-d: the page carries the comparison for its Change tab" python3 -c '
import json, re, sys
page = open(sys.argv[1]).read()
data = json.loads(re.search(r"<script type=\"application/json\" id=\"hs-data\">(.*?)</script>", page, re.S).group(1))
want = json.load(open(sys.argv[2]))
assert data["diff"] == want, "the page'"'"'s diff differs from diff.json"' "$TMP/set/diff.html" "$TMP/set/diff.json"
check "-d: no temporary file left" bash -c "! ls '$TMP/set' | grep -v -E '^diff\.(html|txt|json|svg)$'"
expect_out_grep "-d: says what it wrote" "^wrote $TMP/set/diff\.html \([0-9.]+ [KM]?i?B\)$"
# -o OUT.html: the page alone
run diff "$LAZY" "$STRICT" -o "$TMP/alone.html"
expect_rc "diff -o OUT.html" 0
check "-o OUT.html: the page with its comparison" grep -q '"diff":{' "$TMP/alone.html"
check "-o OUT.html: the page's script" grep -q 'id="hs-data"' "$TMP/alone.html"
# a failure midway (a file size limit makes writes fail as a full disk
# would, SIGXFSZ ignored) leaves the previous set whole: the text and
# JSON are small enough to be written, the chart or page is not
run diff "$LAZY" "$LAZY" -d "$TMP/set"
expect_rc "diff -d, a second run" 0
before=$(cd "$TMP/set" && md5sum diff.* | sort)
( trap '' XFSZ; ulimit -f 40; exec "$BIN" diff "$LAZY" "$STRICT" -d "$TMP/set" ) \
    >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc "diff -d on a full disk" 3
expect_err_grep "diff -d on a full disk: names the cause" 'File too large'
check "diff -d on a full disk: the previous set is whole" \
    same "$before" "$(cd "$TMP/set" && md5sum diff.* | sort)"
check "diff -d on a full disk: no work directory left" \
    test -z "$(find "$TMP/set" -name '.heapscope-*')"
( trap '' XFSZ; ulimit -f 40; exec "$BIN" diff "$LAZY" "$STRICT" -d "$TMP/new/dir" ) \
    >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc "diff -d into a new directory on a full disk" 3
check "diff -d on a full disk: the directories it made are removed" absent "$TMP/new"
run diff "$LAZY" "$STRICT" -d "$TMP/set2" --json
expect_rc "-d with --json" 2
expect_no_file "-d with --json" "$TMP/set2"
run diff "$LAZY" "$STRICT" -d "$TMP/nodir/deeper"
expect_rc "-d in a missing directory: made with its parents" 0
check "-d in a missing directory: the set" test -s "$TMP/nodir/deeper/diff.html"
printf 'x' >"$TMP/afile"
run diff "$LAZY" "$STRICT" -d "$TMP/afile/deeper"
expect_rc "-d under a file" 3

# -o with another extension: the text
run diff "$LAZY" "$STRICT" -o "$TMP/d.txt"
expect_rc "diff -o d.txt" 0
check "-o d.txt holds the text" grep -q '^bands: ' "$TMP/d.txt"

# --- third-party logs (../shared/corpus), when there ---
if [[ -d $CORPUS ]]; then
    run diff "$CORPUS/sleep.hd.eventlog" "$CORPUS/sleep.hy.eventlog"
    expect_rc "corpus: -hd against -hy" 2
    run diff "$CORPUS/testlog-part.eventlog" "$CORPUS/sleep.hd.eventlog"
    expect_rc "corpus: a truncated log without heap profile" 4
    expect_err_grep "corpus: the truncation is said" 'warning: .*testlog-part.eventlog: byte 10240'
    for f in sleep.hd biographical-samples stop.hT; do
        run diff --json "$CORPUS/$f.eventlog" "$CORPUS/$f.eventlog"
        expect_rc "corpus: $f against itself" 0
        check "corpus: $f against itself, no change" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["bands"] and all(b["status"] == "both" and b["change_byte_seconds"] == 0 for b in d["bands"])
' "$TMP/out"
    done
    # GHC 8.4 (no SAMPLE_END) against GHC 9.0 -hd: generated names of
    # base's closures match only after normalising
    run diff --normalize "$CORPUS/sleep.hd.eventlog" "$SAMPLES/leak-hd.eventlog"
    expect_rc "corpus: GHC 8.4 against 9.0 -hd, normalised" 0
    expect_out_grep "corpus: normalised matches across GHC versions" '; [1-9][0-9]* matched only after normalising$'
fi

# --- --fail-if: a memory regression gate, on a growing and a shrinking pair
# BASE is a runtime .hp; GROWN every value of it times 1.23 (peak and
# byte-seconds +23%); CACHED BASE with a band Main.cache of 1.5 MiB in every
# sample (absent from BASE).
BASE=$SAMPLES/phases-strict-hc.hp
python3 - "$BASE" "$TMP/grown.hp" "$TMP/cached.hp" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
with open(sys.argv[2], "w") as g, open(sys.argv[3], "w") as c:
    for l in lines:
        if "\t" in l:  # "NAME<TAB>BYTES" inside a sample
            name, v = l.rsplit("\t", 1)
            g.write("%s\t%d\n" % (name, int(v) * 123 // 100))
        else:
            g.write(l + "\n")
        c.write(l + "\n")
        if l.startswith("BEGIN_SAMPLE"):
            c.write("Main.cache\t%d\n" % (3 << 19))
PY
GROWN=$TMP/grown.hp CACHED=$TMP/cached.hp
run diff "$BASE" "$GROWN" --fail-if 'peak>+10%'
expect_rc "fail-if: growing pair over peak>+10%" 1
expect_err_grep "fail-if: the crossed threshold said" '^heapscope: fail-if peak>\+10%: peak grew 23\.0% \([0-9.]+ KiB -> [0-9.]+ KiB\)$'
expect_out_grep "fail-if: the diff is still written" '^bands: '
run diff "$BASE" "$GROWN" --fail-if 'peak>+25%' --fail-if 'byte-seconds>+30%' --fail-if 'peak>+20KiB'
expect_rc "fail-if: growing pair under every threshold" 0
expect_err_empty "fail-if: nothing said when nothing crossed"
run diff "$GROWN" "$BASE" --fail-if 'peak>+10%' --fail-if 'byte-seconds>+0%' --fail-if 'peak>-18%'
expect_rc "fail-if: shrinking pair" 0
expect_err_empty "fail-if: shrinking pair, nothing said"
run diff "$GROWN" "$BASE" --fail-if 'peak>-20%'
expect_rc "fail-if: shrinking pair, a saving of 20% asked" 1
expect_err_grep "fail-if: a saving missed" '^heapscope: fail-if peak>-20%: peak shrank 18\.[0-9]% '
run diff "$BASE" "$GROWN" --fail-if 'peak>+1KiB'
expect_rc "fail-if: peak>+1KiB" 1
expect_err_grep "fail-if: growth in bytes" '^heapscope: fail-if peak>\+1KiB: peak grew [0-9.]+ KiB \('
run diff "$BASE" "$GROWN" --fail-if 'byte-seconds>+10%'
expect_rc "fail-if: byte-seconds>+10%" 1
expect_err_grep "fail-if: byte-seconds said" '^heapscope: fail-if byte-seconds>\+10%: byte-seconds grew 23\.[0-9]% \([0-9.]+ KiB\*s -> [0-9.]+ KiB\*s\)$'
run diff "$BASE" "$CACHED" --fail-if 'peak>+5MiB'
expect_rc "fail-if: 1.5 MiB more under peak>+5MiB" 0
run diff "$BASE" "$CACHED" --fail-if 'peak>+1MiB'
expect_rc "fail-if: 1.5 MiB more over peak>+1MiB" 1
run diff "$BASE" "$CACHED" --fail-if 'band:Main.cache>+1MiB'
expect_rc "fail-if: a band new in AFTER counts from 0" 1
expect_err_line "fail-if: the band's growth said" 'heapscope: fail-if band:Main.cache>+1MiB: band Main.cache peak grew 1.50 MiB (0 B -> 1.50 MiB)'
run diff "$CACHED" "$BASE" --fail-if 'band:Main.cache>+0B'
expect_rc "fail-if: a band gone shrank" 0
run diff "$BASE" "$GROWN" --fail-if 'band:PINNED>+10%'
expect_rc "fail-if: band:PINNED>+10% on the growing pair" 1
run diff "$BASE" "$GROWN" --fail-if 'band:No.such>+0B'
expect_rc "fail-if: a band in neither run does not fail" 0
expect_err_line "fail-if: a band in neither run is warned of" 'heapscope: warning: fail-if band:No.such>+0B: no band No.such in either run'
# several: all checked, every crossed one said, in order
run diff "$BASE" "$CACHED" --json -o "$TMP/gate.json" --fail-if 'peak>+10%' \
    --fail-if 'byte-seconds>+100000%' --fail-if 'band:Main.cache>+1MiB'
expect_rc "fail-if: several, two crossed" 1
check "fail-if: several, the two crossed said" same "$(cut -d: -f2 "$TMP/err")" \
    " fail-if peak>+10%
 fail-if band"
check "fail-if: -o still written" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/gate.json"
# malformed: a usage error naming the expression, before anything is read
for bad_expr in 'peak>+10' 'heap>+10%' 'peak' 'band:>+1MiB' 'peak>+10parsecs' 'peak>+1MiB*s'; do
    run diff "$BASE" "$GROWN" --fail-if 'peak>+10%' --fail-if "$bad_expr"
    expect_rc "fail-if: malformed '$bad_expr'" 2
    expect_err_grep "fail-if: malformed '$bad_expr' named" "^heapscope: diff: --fail-if '$(sed 's/[][*+.]/\\&/g' <<<"$bad_expr")': "
    expect_out_empty "fail-if: malformed '$bad_expr', no output"
done
run diff "$BASE" "$GROWN" --fail-if 'peak>+10parsecs'
expect_err_line "fail-if: what is wrong" "heapscope: diff: --fail-if 'peak>+10parsecs': \"parsecs\" after the number is not % or a size (B, KiB, MiB, GiB, TiB, kB, MB, GB, TB)"

# standard input as one side
run diff - "$STRICT" --json <"$LAZY"
expect_rc "stdin as before" 0
check "stdin: named <stdin>" grep -q '"input": "<stdin>"' "$TMP/out"

finish
