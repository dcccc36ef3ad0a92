# Sourced by every tests/cli_*.sh: where the program and its inputs are, a
# temporary directory removed on exit, running the program, and the checks.
# Two styles of check share one tally: check DESCRIPTION COMMAND... (a
# condition) and the expect_* helpers (stdout, stderr and the exit code of
# the last run). finish prints the tally and fails when a check failed.

BIN=${HEAPSCOPE_BIN:?HEAPSCOPE_BIN must name the heapscope binary}
SRC=${HEAPSCOPE_SOURCE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
SHARED=${HEAPSCOPE_SHARED_DIR:-}
CORPUS=${SHARED:-/nonexistent}/corpus/ghc-events
SAMPLES=$SRC/samples
TMP=$(mktemp -d "${TMPDIR:-/tmp}/$(basename "$0" .sh).XXXXXX")
trap 'rm -rf "$TMP"' EXIT

checks=0
failures=0

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# bad DESCRIPTION: a check that failed outright.
bad() {
  checks=$((checks + 1))
  fail "$@"
}

# check DESCRIPTION COMMAND...: the command must succeed.
check() {
  local d=$1
  shift
  checks=$((checks + 1))
  "$@" || fail "$d"
}

same() { [[ "$1" == "$2" ]]; }
has() { [[ "$1" == *"$2"* ]]; }
absent() { [[ ! -e "$1" ]]; }
# No file at all in the directory (not even a temporary one).
empty_dir() { [[ -z "$(ls -A "$1")" ]]; }
# same_bytes A B: equal bytes, a PDF's CreationDate (the clock) aside.
same_bytes() {
  if [[ "$1" == *.pdf ]]; then
    cmp -s <(grep -av CreationDate "$1") <(grep -av CreationDate "$2")
  else
    cmp -s "$1" "$2"
  fi
}

# run ARGS...: runs the program; sets $rc, $out and $err, and leaves both
# streams in $TMP/out and $TMP/err.
run() {
  "$BIN" "$@" >"$TMP/out" 2>"$TMP/err"
  rc=$?
  out=$(cat "$TMP/out")
  err=$(cat "$TMP/err")
}

# expect_rc WHAT CODE
expect_rc() {
  checks=$((checks + 1))
  [ "$rc" -eq "$2" ] || fail "$1: exit code $rc, expected $2 (stderr: $(head -c 300 "$TMP/err"))"
}

# expect_err_line WHAT TEXT: stderr is exactly one line, equal to TEXT.
expect_err_line() {
  checks=$((checks + 1))
  local got
  got=$(cat "$TMP/err")
  [ "$got" = "$2" ] || fail "$1: stderr is
  '$got'
expected
  '$2'"
}

# expect_err_grep WHAT ERE
expect_err_grep() {
  checks=$((checks + 1))
  grep -Eq -- "$2" "$TMP/err" || fail "$1: stderr does not match /$2/: $(head -c 300 "$TMP/err")"
}

expect_err_empty() { # WHAT
  checks=$((checks + 1))
  [ ! -s "$TMP/err" ] || fail "$1: stderr is not empty: $(head -c 300 "$TMP/err")"
}

# expect_out_grep WHAT FIXED-LINE: stdout has exactly this line.
expect_out_line() {
  checks=$((checks + 1))
  grep -Fxq -- "$2" "$TMP/out" || fail "$1: stdout has no line '$2'"
}

expect_out_grep() { # WHAT ERE
  checks=$((checks + 1))
  grep -Eq -- "$2" "$TMP/out" || fail "$1: stdout does not match /$2/"
}

expect_out_empty() { # WHAT
  checks=$((checks + 1))
  [ ! -s "$TMP/out" ] || fail "$1: stdout is not empty"
}

expect_empty() { # WHAT FILE
  checks=$((checks + 1))
  [ ! -s "$2" ] || fail "$1: $(basename "$2") not empty: $(head -c 300 "$2")"
}

# expect_no_file WHAT PATH: neither PATH nor a temporary beside it exists.
expect_no_file() {
  checks=$((checks + 1))
  local left
  left=$(ls -d "$2" "$2".tmp* 2>/dev/null)
  [ -z "$left" ] || fail "$1: left behind: $left"
}

# sum_last_field FILE: the sum of the last space-separated field.
sum_last_field() {
  awk '{ s += $NF } END { printf "%d\n", s }' "$1"
}

# skip_part WHAT WHY: WHAT cannot run here (WHY): finish then exits 77,
# which meson reports as SKIP, unless a check failed. CI installs every
# tool the checks use, so there none skips.
skipped=
skip_part() {
  echo "SKIP: $2; $1 skipped"
  skipped="$skipped${skipped:+, }$1"
}
# skip_corpus WHAT: WHAT needs ../shared/corpus, which is absent.
skip_corpus() { skip_part "$1" "no corpus at $CORPUS"; }

# help_commands: the commands 'heapscope --help' lists, one a line (the
# indented lines under 'commands:').
help_commands() {
  "$BIN" --help | awk '/^[^ ]/ { inside = tolower($0) ~ /^commands/; next }
    inside && /^ +[a-z][a-z0-9-]*  / { print $1 }'
}

# help_options COMMAND: every --option its --help names, one a line.
help_options() {
  "$BIN" "$1" --help | grep -oE -- '(^|[^A-Za-z0-9-])--[a-z][a-z0-9-]*' |
    grep -oE -- '--[a-z0-9-]+' | sort -u
}

# finish: the closing line, and the script's exit status.
finish() {
  echo "$(basename "$0" .sh): $((checks - failures)) passed, $failures failed"
  [ "$failures" -eq 0 ] || return 1
  if [ -n "$skipped" ]; then
    echo "skipped in part (exit 77): $skipped"
    exit 77
  fi
}
