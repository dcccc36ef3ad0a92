#!/usr/bin/env bash
# The shell completion (completion/meson.build, written from the --help
# texts by scripts/gen_completion.py): the bash one driven as bash drives
# it (COMP_WORDS, COMP_CWORD, the function, COMPREPLY) for commands, a
# command's options, enumerated values and file names; every option each
# command's --help names is offered; every value completion/values lists is
# one the program takes. The zsh and fish files are parsed by their shells
# where installed.
. "$(dirname "$0")/cli_common.sh"
BUILD=${HEAPSCOPE_BUILD_DIR:?}
comp=$BUILD/completion/heapscope
[ -f "$comp" ] || { echo "FAIL: no $comp"; exit 1; }
# shellcheck disable=SC1090
. "$comp"

# complete WORDS...: COMPREPLY for the last word, sorted, one a line.
complete_words() {
  COMP_WORDS=("$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMP_LINE="$*" COMP_POINT=${#COMP_LINE}
  COMPREPLY=()
  _heapscope heapscope "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
  printf '%s\n' "${COMPREPLY[@]}" | sort
}
lines() { printf '%s\n' "$@" | sort; }

check "commands for 'heapscope re'" same "$(complete_words heapscope re)" report
check "every command for 'heapscope '" \
  same "$(complete_words heapscope '')" "$(help_commands | sort)"
check "options for 'heapscope chart --fo'" \
  same "$(complete_words heapscope chart --fo)" --format
check "top-level options" \
  same "$(complete_words heapscope --ver)" --version
check "--kind values" same "$(complete_words heapscope chart x.hp --kind '')" \
  "$(lines area line normalized)"
check "-k values" same "$(complete_words heapscope report -k n)" normalized
check "--kind=VALUE (bash splits at =)" \
  same "$(complete_words heapscope chart --kind = l)" line
check "folded --source values" \
  same "$(complete_words heapscope folded --source '')" "$(lines alloc heap time)"
check "--weight values differ by command" \
  same "$(complete_words heapscope diff --weight '')" "$(lines integral last peak)"
check "csv --layout values" same "$(complete_words heapscope csv --layout w)" wide
check "no file names for a number" \
  same "$(complete_words heapscope chart --bands '')" ""

mkdir -p "$TMP/files/sub.d"
: > "$TMP/files/prog.eventlog"
(
  cd "$TMP/files" || exit 1
  check "file names for FILE" \
    same "$(complete_words heapscope report pr)" prog.eventlog
  check "file names for -o" \
    same "$(complete_words heapscope hp -o p)" prog.eventlog
  check "directories only for --dir" \
    same "$(complete_words heapscope report --dir '')" sub.d
  finish >/dev/null
) || failures=$((failures + 1))

# Every option a command's --help names is offered after '--'.
for cmd in $(help_commands); do
  offered=$(complete_words heapscope "$cmd" --)
  for opt in $(help_options "$cmd"); do
    check "$cmd $opt offered" grep -qx -- "$opt" <<<"$offered"
  done
done
# ... which holds only while help_options finds options: a check that could
# not fail on an empty list would prove nothing.
check "help_options finds watch --http" grep -qx -- --http <<<"$(help_options watch)"

# The values of completion/values, taken by the program; one it refuses,
# to show that the check can fail. Only charts take them.
while [ "${HEAPSCOPE_HAVE_CHARTS:-1}" = 1 ] && read -r opt values; do
  case $opt in ''|'#'*) continue ;; esac
  dest=$TMP/chart.svg
  [ "$opt" != --format ] || dest=$TMP/chart.out
  for v in $values; do
    run chart "$SAMPLES/leak-hc.hp" "$opt" "$v" -o "$dest"
    expect_rc "chart $opt $v" 0
  done
  run chart "$SAMPLES/leak-hc.hp" "$opt" no-such-value -o "$dest"
  expect_rc "chart $opt no-such-value" 2
done < "$SRC/completion/values"

# zsh and fish read their files (a syntax check) where installed.
if command -v zsh >/dev/null; then
  check "zsh parses _heapscope" zsh -n "$BUILD/completion/_heapscope"
else
  skip_part "zsh parse of _heapscope" "zsh not installed"
fi
if command -v fish >/dev/null; then
  check "fish parses heapscope.fish" fish -n "$BUILD/completion/heapscope.fish"
else
  skip_part "fish parse of heapscope.fish" "fish not installed"
fi
finish
