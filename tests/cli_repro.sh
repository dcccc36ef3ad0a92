#!/usr/bin/env bash
# cli_repro.sh: every input of ../shared/repro (small .hp files that once
# went wrong, see its README) through the program, each with what must now
# hold. Exits 77 (meson: skipped) when ../shared is not there.
#
# Environment (set by meson test): HEAPSCOPE_BIN, HEAPSCOPE_SOURCE_DIR,
# HEAPSCOPE_SHARED_DIR.
set -u

. "$(dirname "$0")/cli_common.sh"

REPRO=${SHARED:-/nonexistent}/repro
if [ ! -d "$REPRO" ]; then
  echo "note: no $REPRO; skipped"
  exit 77
fi

# fixed_point WHAT FILE: hp of FILE, read back by hp, is the same text
# (whatever hp writes, hp reads back to the same samples).
fixed_point() {
  "$BIN" hp "$2" -o "$TMP/fp1.hp" 2>/dev/null
  local rc1=$?
  "$BIN" hp "$TMP/fp1.hp" -o "$TMP/fp2.hp" 2>"$TMP/fp.err"
  local rc2=$?
  checks=$((checks + 1))
  [ "$rc1" -eq 0 ] && [ "$rc2" -eq 0 ] && cmp -s "$TMP/fp1.hp" "$TMP/fp2.hp" ||
    fail "$1: hp of hp differs or fails ($rc1, $rc2): $(head -c 300 "$TMP/fp.err")"
}

# keys FILE: the band lines of a .hp, in order.
keys() { awk '/^(BEGIN|END)_SAMPLE |^(JOB|DATE|SAMPLE_UNIT|VALUE_UNIT|MARK) /{ next } { print }' "$1"; }

# ---- empty-samples.hp: samples without bands ---------------------------
f=$REPRO/empty-samples.hp
for cmd in hp csv folded info; do
  run "$cmd" "$f"
  expect_rc "empty-samples: $cmd" 0
done
run hp "$f"
checks=$((checks + 1))
[ "$(grep '^BEGIN_SAMPLE' "$TMP/out" | tr '\n' ' ')" = "BEGIN_SAMPLE 0.000000 BEGIN_SAMPLE 1.000000 BEGIN_SAMPLE 2.000000 BEGIN_SAMPLE 3.000000 " ] ||
  fail "empty-samples: hp does not keep the empty samples at 1, 2 and 3 s"
fixed_point "empty-samples" "$f"

# ---- hp-nul-names-merge.hp: NUL in names, three bands stay three -------
f=$REPRO/hp-nul-names-merge.hp
run hp "$f"
expect_rc "nul-names: hp" 0
expect_err_grep "nul-names: warned" "hp-nul-names-merge.hp: a band name holds a NUL byte; it is shown as 'A\\\\x00x'"
checks=$((checks + 1))
[ "$(keys "$TMP/out" | tr '\t' '|')" = 'A\x00x|1
A\x00y|2
A|4' ] || fail "nul-names: the three bands are not kept apart: $(keys "$TMP/out")"
run csv "$f"
expect_out_line "nul-names: csv keeps them apart" '1.000000,"A\x00y",2'
fixed_point "nul-names" "$f"

# ---- hp-nul-name-empty-key.hp: nothing empty is written ----------------
f=$REPRO/hp-nul-name-empty-key.hp
run hp "$f"
expect_rc "nul-empty-key: hp" 0
expect_out_line "nul-empty-key: the NUL shown" "$(printf '\\x00X\t24')"
fixed_point "nul-empty-key" "$f"

# ---- hp-trailing-tab-name-merges.hp: 'Buffer<TAB>' is not 'Buffer' -----
f=$REPRO/hp-trailing-tab-name-merges.hp
run hp "$f"
expect_rc "trailing-tab: hp" 0
checks=$((checks + 1))
[ "$(keys "$TMP/out")" = "$(keys "$f")" ] ||
  fail "trailing-tab: keys changed: $(keys "$TMP/out" | od -c | head -3)"
fixed_point "trailing-tab" "$f"

# ---- hp-tab-in-name-unstable.hp: TABs inside names survive -------------
f=$REPRO/hp-tab-in-name-unstable.hp
run hp "$f"
expect_rc "tab-in-name: hp" 0
checks=$((checks + 1))
[ "$(keys "$TMP/out")" = "$(keys "$f")" ] ||
  fail "tab-in-name: keys changed"
fixed_point "tab-in-name" "$f"

# ---- hp-error-echoes-control-bytes.hp: the message is escaped ----------
f=$REPRO/hp-error-echoes-control-bytes.hp
for cmd in hp csv info; do
  run "$cmd" "$f"
  expect_rc "control-bytes: $cmd" 1
  checks=$((checks + 1))
  LC_ALL=C grep -q "$(printf '[\001-\011\013-\037\177]')" "$TMP/err" &&
    fail "control-bytes: $cmd copies control bytes to stderr"
  expect_err_grep "control-bytes: $cmd names the line" \
    "hp-error-echoes-control-bytes.hp: line 2: expected JOB, .*, not '\\\\x1b\\]0;pwned\\\\x07\\\\x1b\\[31mRED'"
done

# ---- every repro file is covered above ----------------------------------
for f in "$REPRO"/*.hp; do
  checks=$((checks + 1))
  grep -q "$(basename "$f")" "$0" || fail "$(basename "$f") has no test here"
done
finish
