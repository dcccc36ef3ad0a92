#!/usr/bin/env bash
# cli_mlpd_sample.sh: the CPU samples of Mono .mlpd files (mono
# --profile=log:sample) as heapscope's time profile, against mprof-report:
#   - per method (and unmanaged symbol) the leaf hits of `folded --source
#     time` equal mprof-report --reports=sample's hits, its "Unresolved
#     hits" being the "(unresolved)" leaf; the goldens are
#     samples/mono/NAME.sample (written by samples/mono/regen.sh from the
#     same runs), and with mprof-report installed they are checked to be
#     what it prints today;
#   - `events` prints every SAMPLE_HIT (mprof-report's stats count them);
#   - `report -d` writes NAME.time.folded and a page with the time profile.
#
# Environment (set by meson test): HEAPSCOPE_BIN, HEAPSCOPE_SOURCE_DIR.
set -u

. "$(dirname "$0")/cli_common.sh"

MONO=$SAMPLES/mono
FILES="cpu-sample.mlpd cpu-sample1000-zip.mlpd.gz churn-100ms-sample.mlpd"

# mprof-report's sample report as sorted "NAME<TAB>HITS" lines, rows of one
# name summed; the unresolved hits as the row "(unresolved)". Names as
# folded writes frames (';' is its separator).
mprof_hits() {
  awk '
    /^\tUnresolved hits:/ { if ($3 > 0) hits["(unresolved)"] += $3 }
    /^\t +[0-9]+ +[0-9.]+ / {
      line = $0; sub(/^\t +/, "", line)
      n = line; sub(/ .*/, "", n)
      name = line; sub(/^[0-9]+ +[0-9.]+ /, "", name)
      gsub(/;/, ":", name)
      hits[name] += n
    }
    END { for (m in hits) printf "%s\t%d\n", m, hits[m] }' "$1" | sort
}

# The leaves of folded stacks (FILE) in the same form.
leaf_hits() {
  awk '{
      n = $NF; line = $0; sub(/ [0-9]+$/, "", line)
      k = split(line, f, ";"); hits[f[k]] += n
    }
    END { for (m in hits) printf "%s\t%d\n", m, hits[m] }' "$1" | sort
}

for f in $FILES; do
  name=${f%%.mlpd*}
  gold=$MONO/$name.sample
  run folded --source time "$MONO/$f"
  expect_rc "folded --source time $f" 0
  cp "$TMP/out" "$TMP/$name.folded"
  mprof_hits "$gold" >"$TMP/want"
  leaf_hits "$TMP/$name.folded" >"$TMP/got"
  check "$f: some hits" test -s "$TMP/want"
  check "$f: leaf hits per method equal mprof-report's ($(diff "$TMP/want" "$TMP/got" | head -5 | tr '\n' ' '))" \
    cmp -s "$TMP/want" "$TMP/got"
  # every hit is one tick: managed plus unmanaged hits
  total=$(awk '/^\t(Unmanaged|Managed) hits:/ { s += $3 } END { print s + 0 }' "$gold")
  check "$f: $total hits in all" same "$(sum_last_field "$TMP/$name.folded")" "$total"
  stacks=$(awk '/TYPE_SAMPLE_HIT/ { print $4 }' "$MONO/$name.stats")
  run events "$MONO/$f"
  check "$f: events prints the $stacks SAMPLE_HIT events" \
    same "$(grep -c ' SAMPLE_HIT thread=.* frames=\[' "$TMP/out")" "$stacks"
done

# The managed frames below a leaf: outermost first, Main under Work under
# the leaf, as the sampler walked them.
check "cpu-sample: Main -> Work -> Series" \
  grep -q 'HeapScope.Samples.Cpu:Main (string\[\]);HeapScope.Samples.Cpu:Work (int);HeapScope.Samples.Cpu:Series (int) [0-9]*$' \
  "$TMP/cpu-sample.folded"

if command -v mprof-report >/dev/null 2>&1; then
  for f in $FILES; do
    name=${f%%.mlpd*}
    mprof-report --reports=sample --verbose "$MONO/$f" >"$TMP/mprof.sample"
    check "$name.sample is what mprof-report prints" \
      cmp -s "$MONO/$name.sample" "$TMP/mprof.sample"
  done
else
  skip_part "the goldens against mprof-report" "mprof-report is not installed"
fi

run info "$MONO/cpu-sample.mlpd"
expect_out_grep "info counts the CPU samples" "^CPU samples: $(sum_last_field "$TMP/cpu-sample.folded") \(nominal period 0.010000 s\)"
run info "$MONO/cpu-sample1000-zip.mlpd.gz"
expect_out_grep "info: sample=1000 is a 1 ms period" "^CPU samples: [0-9]+ \(nominal period 0.001000 s\)"

run report -d "$TMP/rep" "$MONO/cpu-sample.mlpd"
expect_rc "report -d of a sample-mode file" 0
check "report: NAME.time.folded is folded --source time" \
  cmp -s "$TMP/rep/cpu-sample.time.folded" "$TMP/cpu-sample.folded"
check "report: the page has the time profile" \
  grep -q '"tprof":{"tick_us":10000,' "$TMP/rep/cpu-sample.html"
check "report: the page names a method frame alone" \
  grep -q '"HeapScope.Samples.Cpu:Series (int)"' "$TMP/rep/cpu-sample.html"

# A file without samples has no time profile.
run folded --source time "$MONO/sites-alloc.mlpd"
expect_rc "folded --source time without samples" 4

finish
