#!/usr/bin/env bash
# Command-line tests of 'heapscope chart' and 'heapscope report': every
# sample in every format (XML that parses, one PDF page, PNG of the asked
# size), formats from extensions, refused extensions and bad option values
# with no file written, logs without heap samples, and the report's files
# and summary line, with exit codes.
set -u

. "$(dirname "$0")/cli_common.sh"

# Whether the file is well-formed XML, by whichever parser is at hand.
xml_ok() { # FILE: well-formed XML, by xmllint; a SKIP where it is missing
    if ! command -v xmllint >/dev/null; then
        skip_part "XML check of $(basename "$1")" "no xmllint (libxml2-utils)"
        return 0
    fi
    xmllint --noout "$1" 2>/dev/null
}

# PNG width and height from the IHDR chunk.
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{print $1*16777216+$2*65536+$3*256+$4 "x" $5*16777216+$6*65536+$7*256+$8}'; }

lacks() { [[ "$1" != *"$2"* ]]; }

pdf_pages() {
    if command -v pdfinfo >/dev/null; then
        pdfinfo "$1" 2>/dev/null | awk '/^Pages:/ {print $2}'
    else
        grep -a -c '/Type /Page$' "$1"
    fi
}

# ---- every sample in every format ------------------------------------------
nsamples=0
for log in "$SAMPLES"/*-h?.eventlog "$SAMPLES"/*-h?.hp; do
    [[ -e $log ]] || continue
    nsamples=$((nsamples + 1))
    name=$(basename "$log")
    out_dir=$TMP/s
    mkdir -p "$out_dir"
    run chart "$log" -o "$out_dir/c.svg"
    check "$name: svg exit 0 ($err)" same "$rc" 0
    check "$name: svg parses" xml_ok "$out_dir/c.svg"
    n=$(grep -o 'class="hs-band"' "$out_dir/c.svg" | wc -l)
    check "$name: 1..16 band areas, got $n" test "$n" -ge 1 -a "$n" -le 16
    run chart "$log" -o "$out_dir/c.pdf"
    check "$name: pdf exit 0" same "$rc" 0
    check "$name: one pdf page" same "$(pdf_pages "$out_dir/c.pdf")" 1
    run chart "$log" -o "$out_dir/c.png" --width 500 --height 300
    check "$name: png exit 0" same "$rc" 0
    check "$name: png 500x300" same "$(png_size "$out_dir/c.png")" 500x300
    rm -rf "$out_dir"
done
if ((nsamples == 0)); then
    echo "note: no samples in $SAMPLES; per-sample checks skipped"
fi

# A small .hp of our own so the rest never depends on the samples.
hp=$TMP/small.hp
{
    printf 'JOB "small +RTS -hy"\nDATE "Sun Nov 22 00:00 2026"\n'
    printf 'SAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\nMARK 0.15\n'
    for i in 1 2 3 4 5; do
        printf 'BEGIN_SAMPLE 0.%d\nInt\t%d000\n[]\t%d00\nChar\t5\nEND_SAMPLE 0.%d\n' \
            "$i" "$i" "$i" "$i"
    done
} >"$hp"

# ---- formats, options, refusals -------------------------------------------
run chart "$hp" -o "$TMP/a.png" --dpi 192 -W 800 -H 600
check "dpi: exit 0" same "$rc" 0
check "dpi: png keeps the asked size" same "$(png_size "$TMP/a.png")" 800x600

run chart "$hp" -o "$TMP/forced.out" --format pdf
check "--format pdf: exit 0" same "$rc" 0
check "--format pdf: a PDF" has "$(head -c 5 "$TMP/forced.out")" "%PDF-"

run chart "$hp" --format svg -o - --kind line --sort name
check "line chart to stdout: exit 0" same "$rc" 0
check "line chart to stdout: svg" has "$out" "</svg>"
run chart "$hp" --format svg -o - --kind normalized --sort stddev --bands 2
check "svg to stdout: exit 0" same "$rc" 0
check "svg to stdout: svg" has "$out" "</svg>"
check "--bands 2: 3 areas incl. OTHER" \
    same "$(grep -o '<title>OTHER (1 band)' <<<"$out" | wc -l)" 1

mkdir -p "$TMP/refuse"
run chart "$hp" -o "$TMP/refuse/x.jpg"
check "jpg: exit 2" same "$rc" 2
check "jpg: says so" has "$err" "cannot tell the format"
check "jpg: no file" empty_dir "$TMP/refuse"
run chart "$hp" -o "$TMP/refuse/x.svg" --kind pie
check "--kind pie: exit 2" same "$rc" 2
run chart "$hp" -o "$TMP/refuse/x.svg" --sort colour
check "--sort colour: exit 2" same "$rc" 2
run chart "$hp" -o "$TMP/refuse/x.svg" --bands -1
check "--bands -1: exit 2" same "$rc" 2
run chart "$hp" -o "$TMP/refuse/x.png" --width 5
check "--width 5: exit 2" same "$rc" 2
run chart "$hp" -o "$TMP/refuse/x.png" --dpi 0
check "--dpi 0: exit 2" same "$rc" 2
run chart "$hp" -o "$TMP/refuse/x.svg" --include nothing-like-this
check "filter matching nothing: exit 4" same "$rc" 4
check "filter matching nothing: says so" has "$err" "no band matches"
# without -o, or with -o -, the chart goes to standard output: SVG unless
# --format says otherwise (issue 14.7: it used to exit 2)
run chart "$hp"
check "no -o: exit 0 ($err)" same "$rc" 0
check "no -o: svg on stdout" has "$out" "</svg>"
printf '%s' "$out" >"$TMP/stdout.svg"
check "no -o: the svg parses" xml_ok "$TMP/stdout.svg"
run chart "$hp" -o -
check "-o - without --format: exit 0" same "$rc" 0
check "-o - without --format: svg" has "$out" "</svg>"
run chart "$hp" --format png
check "no -o, --format png: exit 0" same "$rc" 0
check "no -o, --format png: a PNG" same "$(head -c 4 "$TMP/out" | od -An -c | tr -d ' ')" '211PNG'
run chart "$hp" --format pdf
check "no -o, --format pdf: one page" same "$(pdf_pages "$TMP/out")" 1

if [[ -w /dev/full ]]; then
    "$BIN" chart "$hp" >/dev/full 2>"$TMP/err"
    rc=$?
    check "stdout on a full disk: exit 3, got $rc" same "$rc" 3
    check "stdout on a full disk: says so" grep -q "cannot write standard output" "$TMP/err"
fi

# samples that hold no band: say so, and blame no filter that was not given
{
    printf 'JOB "x +RTS -hT"\n'
    printf 'BEGIN_SAMPLE 1.0\nEND_SAMPLE 1.0\nBEGIN_SAMPLE 2.0\nEND_SAMPLE 2.0\n'
} >"$TMP/empty-samples.hp"
run chart "$TMP/empty-samples.hp" -o "$TMP/refuse/e.svg"
check "samples without bands: exit 4" same "$rc" 4
check "samples without bands: says so" has "$err" "hold no bands"
check "samples without bands: blames no filter" lacks "$err" "--include"
run chart "$TMP/does-not-exist.hp" -o "$TMP/refuse/x.svg"
check "missing input: exit 3" same "$rc" 3
check "missing input: names the file" has "$err" "does-not-exist.hp"
printf 'JOB "x"\nBEGIN_SAMPLE zork\n' >"$TMP/bad.hp"
run chart "$TMP/bad.hp" -o "$TMP/refuse/x.svg"
check "malformed .hp: exit 1, got $rc" same "$rc" 1
check "malformed .hp: names a line" has "$err" "line"
check "refusals left no file" empty_dir "$TMP/refuse"
run chart "$hp" -o "$TMP/no-such-dir/x.svg"
check "unwritable output: exit 3" same "$rc" 3

run chart --help
check "--help: exit 0" same "$rc" 0
check "--help: documents --kind" has "$out" "--kind"

# ---- a log without heap samples -------------------------------------------
noheap=""
for f in "$SAMPLES/manycc-p.eventlog" "$SAMPLES/leak-p.eventlog" \
         "$CORPUS/time-prof.eventlog"; do
    [[ -e $f ]] && { noheap=$f; break; }
done
if [[ -n $noheap ]]; then
    run chart "$noheap" -o "$TMP/refuse/t.svg"
    check "no heap samples: exit 4" same "$rc" 4
    check "no heap samples: clear message" has "$err" "no heap samples"
    check "no heap samples: no file" empty_dir "$TMP/refuse"
else
    echo "note: no time-profile log found; no-heap check skipped"
fi

# A heap profile whose first census never came (the run was shorter than
# -i), a log cut before its first census, an .mlpd without heap shots:
# each says why, not how to record a heap profile.
"$GEN_LIVE" 0 10 100 >"$TMP/nocensus.eventlog"
run chart "$TMP/nocensus.eventlog" -o "$TMP/refuse/n.svg"
check "heap profile without census: exit 4" same "$rc" 4
expect_err_line "heap profile without census: says why" \
    "heapscope: $TMP/nocensus.eventlog: the heap profile (-hT, every 0.1 s) holds no census: the run ended before the first one (record with a smaller +RTS -i)"
head -c 3000 "$SAMPLES/leak-hc.eventlog" >"$TMP/cut.eventlog"
run chart "$TMP/cut.eventlog" -o "$TMP/refuse/c.svg"
check "cut before the first census: exit 4" same "$rc" 4
check "cut before the first census: says so, with the offset" has "$err" "nothing of what was asked comes before the cut at byte 3000"
run chart "$SAMPLES/mono/sites-alloc.mlpd" -o "$TMP/refuse/m.svg"
check ".mlpd without heap shots: exit 4" same "$rc" 4
check ".mlpd without heap shots: says what to do" has "$err" "no heap shots (run mono with --profile=log:heapshot; for allocations give --source alloc)"
check "no census: no file" empty_dir "$TMP/refuse"

# ---- report -----------------------------------------------------------------
run report "$hp" -d "$TMP/rep"
check "report: exit 0 ($err)" same "$rc" 0
for ext in svg pdf hp csv folded; do
    check "report: small.$ext written" test -s "$TMP/rep/small.$ext"
    check "report: lists small.$ext" has "$out" "wrote $TMP/rep/small.$ext"
done
check "report: svg parses" xml_ok "$TMP/rep/small.svg"
check "report: summary line" has "$out" "small: peak heap 5.38 KiB at 0.50 s; largest band Int"
# the HTML page: every band in the table, the chart inline, links, no
# template key left, markup in names escaped
html=$TMP/rep/small.html
check "report: small.html written" test -s "$html"
check "report: lists small.html" has "$out" "wrote $html"
page=$(cat "$html" 2>/dev/null)
for band in 'Int' '[]' 'Char'; do
    check "report page: band $band in the table" has "$page" "<td class=\"band\">$band</td>"
done
check "report page: chart inline" has "$page" "<svg xmlns="
check "report page: no XML declaration inside" test "$(grep -c '<?xml' "$html")" = 0
check "report page: links the csv" has "$page" '<a href="small.csv">'
check "report page: no template key left" test "$(grep -c '{{' "$html")" = 0
check "report page: title" has "$page" "<title>small +RTS -hy</title>"
if command -v python3 >/dev/null; then
    check "report page: tags balance" python3 - "$html" <<'PY'
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    void = {"meta", "br", "img", "input", "link", "hr"}
    def __init__(s):
        super().__init__(); s.stack = []; s.bad = False
    def handle_starttag(s, t, a):
        if t not in s.void: s.stack.append(t)
    def handle_startendtag(s, t, a): pass
    def handle_endtag(s, t):
        if t in s.void: return
        if not s.stack or s.stack.pop() != t: s.bad = True
p = P(); p.feed(open(sys.argv[1], encoding="utf-8").read())
sys.exit(1 if p.bad or p.stack else 0)
PY
fi
odd=$TMP/odd.hp
{
    printf 'JOB "odd"\nDATE "Sun Nov 22 00:00 2026"\n'
    printf 'SAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\n'
    printf 'BEGIN_SAMPLE 0.1\nMap <k> & "v"\t100\nEND_SAMPLE 0.1\n'
    printf 'BEGIN_SAMPLE 0.2\nMap <k> & "v"\t200\nEND_SAMPLE 0.2\n'
} >"$odd"
run report "$odd" -d "$TMP/rep3"
check "report odd names: exit 0 ($err)" same "$rc" 0
page=$(cat "$TMP/rep3/odd.html" 2>/dev/null)
check "report page: names escaped" has "$page" '<td class="band">Map &lt;k&gt; &amp; &quot;v&quot;</td>'
# beside its input: never overwrites it
cp "$hp" "$TMP/rep/small.hp"
before=$(cksum <"$TMP/rep/small.hp")
run report "$TMP/rep/small.hp" -d "$TMP/rep"
check "report beside input: exit 0" same "$rc" 0
check "report beside input: warns" has "$err" "not written: it is the input"
check "report beside input: input intact" same "$(cksum <"$TMP/rep/small.hp")" "$before"
if [[ -n $noheap ]]; then
    run report "$noheap" -d "$TMP/rep2"
    check "report of a time profile: exit 0" same "$rc" 0
    check "report of a time profile: time folded stacks" \
        test -s "$TMP/rep2/$(basename "${noheap%.eventlog}").time.folded"
    check "report of a time profile: no chart" \
        absent "$TMP/rep2/$(basename "${noheap%.eventlog}").svg"
fi
run report
check "report without input: exit 2" same "$rc" 2
finish
