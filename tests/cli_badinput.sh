#!/usr/bin/env bash
# cli_badinput.sh: every class of bad input in the README's table "Bad
# input", made here from the samples, and what heapscope answers: the exit
# code, the message (file, line or byte offset, what was wrong), that no
# output file is left behind on failure, and that large inputs stay within
# bounds of time (the test's timeout) and memory (ulimit -v).
#
# Environment (set by meson test): HEAPSCOPE_BIN, HEAPSCOPE_SOURCE_DIR.
set -u

. "$(dirname "$0")/cli_common.sh"

hp_head='JOB "x"\nDATE "d"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\n'

# hp_case NAME BODY: a .hp with the usual header and BODY (printf format).
hp_case() { printf "$hp_head$2" >"$TMP/$1"; }

# refused WHAT FILE CODE REGEX: `hp FILE -o OUT` exits CODE, says REGEX on
# stderr, and leaves no OUT.
refused() {
  run hp "$2" -o "$TMP/out.hp"
  expect_rc "$1" "$3"
  expect_err_grep "$1" "$4"
  check "$1: no output left behind" absent "$TMP/out.hp"
}

# read_with_warning WHAT FILE REGEX: exit 0, a warning matching REGEX.
read_with_warning() {
  rm -f "$TMP/out.hp"
  run hp "$2" -o "$TMP/out.hp"
  expect_rc "$1" 0
  expect_err_grep "$1" "$3"
  check "$1: output written" test -s "$TMP/out.hp"
}

# --- eventlogs -------------------------------------------------------------
: >"$TMP/empty"
refused "empty input" "$TMP/empty" 1 "empty: byte 0: the input is empty"

printf '\0\1\2\3hetb' >"$TMP/badmagic.bin"
refused "wrong magic (binary)" "$TMP/badmagic.bin" 1 "badmagic.bin: byte 0"
# Text that is not an eventlog's magic is read as a .hp, which names the
# line and what it expected there.
printf 'hdrX\0\0\0\0' >"$TMP/badmagic.txt"
refused "wrong magic (text)" "$TMP/badmagic.txt" 1 \
  "badmagic.txt: line 1: expected JOB"

head -c 4096 /dev/urandom >"$TMP/random"
run hp "$TMP/random" -o "$TMP/out.hp"
check "random bytes: refused with exit 1 ($rc)" same "$rc" 1
check "random bytes: the message names the file and where" \
  grep -Eq "random: (byte|line) [0-9]+" "$TMP/err"
check "random bytes: no control byte reaches the terminal" \
  bash -c "! LC_ALL=C grep -q \$'[\\x01-\\x08\\x0b-\\x1f\\x7f]' '$TMP/err'"

head -c 200 "$SAMPLES/leak-hc.eventlog" >"$TMP/cut-header.eventlog"
refused "cut inside the header" "$TMP/cut-header.eventlog" 4 \
  "cut-header.eventlog: byte 200: the input ends at byte 200 inside the eventlog header"
# A gzip .mlpd cut inside its gzip header has inflated nothing (offset 0),
# yet it is a cut file, not an empty one.
head -c 5 "$SAMPLES/mono/leak-ondemand-zip.mlpd.gz" >"$TMP/cut-gzip.mlpd.gz"
refused ".mlpd.gz cut inside the gzip header" "$TMP/cut-gzip.mlpd.gz" 4 \
  "cut-gzip.mlpd.gz: byte 0: the gzip stream ends after 5 compressed bytes, inside the file header"

# --- .hp files -----------------------------------------------------------------
hp_case garbage.hp 'BEGIN_SAMPLE 0.1\nfoo\t12x\nEND_SAMPLE 0.1\n'
refused ".hp: garbage value" "$TMP/garbage.hp" 1 \
  "garbage.hp: line 6: expected a byte count"
hp_case negative.hp 'BEGIN_SAMPLE 0.1\nfoo\t-5\nEND_SAMPLE 0.1\n'
refused ".hp: negative value" "$TMP/negative.hp" 1 \
  "negative.hp: line 6: expected a byte count"
hp_case huge.hp 'BEGIN_SAMPLE 0.1\nfoo\t99999999999999999999999\nEND_SAMPLE 0.1\n'
refused ".hp: value past 64 bits" "$TMP/huge.hp" 1 \
  "huge.hp: line 6: expected a byte count"
hp_case nan.hp 'BEGIN_SAMPLE nan\nfoo\t5\nEND_SAMPLE nan\n'
refused ".hp: NaN time" "$TMP/nan.hp" 1 "nan.hp: line 5: expected a time"
hp_case inf.hp 'BEGIN_SAMPLE 1e400\nfoo\t5\nEND_SAMPLE 1e400\n'
refused ".hp: time out of range" "$TMP/inf.hp" 1 "inf.hp: line 5"
hp_case backwards.hp \
  'BEGIN_SAMPLE 0.2\nfoo\t5\nEND_SAMPLE 0.2\nBEGIN_SAMPLE 0.1\nfoo\t6\nEND_SAMPLE 0.1\n'
read_with_warning ".hp: times going backwards" "$TMP/backwards.hp" \
  "backwards.hp: the sample at line 8 goes back in time"
hp_case noend.hp 'BEGIN_SAMPLE 0.1\nfoo\t5\n'
read_with_warning ".hp: missing END_SAMPLE" "$TMP/noend.hp" \
  "noend.hp: line 7: the file ends inside the sample"

# Large: a 10 MB line and 100,000 bands, in bounded memory (1 GiB of address
# space, which ASan builds cannot run under: there the bound is skipped).
python3 - "$TMP" <<'PY'
import sys
d = sys.argv[1]
h = 'JOB "x"\nDATE "d"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\nBEGIN_SAMPLE 0.1\n'
open(d + '/longline.hp', 'w').write(h + 'a' * 10_000_000 + '\t5\nEND_SAMPLE 0.1\n')
open(d + '/manybands.hp', 'w').write(
    h + ''.join('band%d\t%d\n' % (i, i + 1) for i in range(100000)) +
    'END_SAMPLE 0.1\n')
PY
limit=
# (clang links ASan into the program; its shadow memory needs terabytes of
# address space, so a sanitizer build is not bounded here.)
grep -aq AddressSanitizer "$BIN" || limit='ulimit -v 1048576;'
for f in longline manybands; do
  bash -c "$limit exec \"\$0\" hp \"\$1\" -o \"\$2\"" "$BIN" \
    "$TMP/$f.hp" "$TMP/$f.out.hp" 2>"$TMP/err"
  rc=$?
  expect_rc ".hp: $f, in bounded memory" 0
  "$BIN" hp "$TMP/$f.out.hp" -o "$TMP/$f.again.hp" 2>/dev/null
  check ".hp: $f: what hp writes, hp reads back unchanged" \
    cmp -s "$TMP/$f.out.hp" "$TMP/$f.again.hp"
done
bash -c "$limit exec \"\$0\" chart \"\$1\" -o \"\$2\"" "$BIN" \
  "$TMP/manybands.hp" "$TMP/manybands.svg" 2>"$TMP/err"
rc=$?
if [ "${HEAPSCOPE_HAVE_CHARTS:-1}" = 1 ]; then
  expect_rc "chart of 100,000 bands in bounded memory" 0
else
  # A build without cairo and pango says so, exits 5 and writes nothing.
  expect_rc "chart without cairo and pango" 5
  check "chart without cairo and pango: says why" \
    grep -q "built without cairo and pango" "$TMP/err"
  check "chart without cairo and pango: no file" test ! -e "$TMP/manybands.svg"
fi

finish
