#!/usr/bin/env bash
# The command line's option tables (src/cli, one per command) against the
# real program: every option of every table is in the command's --help and
# every option --help lists is in the table; every value a ranged or
# enumerated option must refuse exits 2 with a message naming the option,
# given by its long name or its letter; abbreviated long options are
# refused as unknown options by every command; options stand before or
# after FILE, also under POSIXLY_CORRECT.
. "$(dirname "$0")/cli_common.sh"

DUMP=${CLI_OPTDUMP:?CLI_OPTDUMP must name tests/cli_optdump}
"$DUMP" >"$TMP/table" || { echo "cli_optdump failed" >&2; exit 1; }
check "the tables list options" test "$(wc -l <"$TMP/table")" -ge 40

# Each command's --help, run once: $TMP/help.COMMAND.
help_text() { # COMMAND
  [ -e "$TMP/help.$1" ] || "$BIN" "$1" --help >"$TMP/help.$1"
  cat "$TMP/help.$1"
}

# The options --help lists: "  -x, --name ..." or "      --name ...".
help_options() { # COMMAND
  help_text "$1" | sed -n 's/^  \(-[A-Za-z], \|    \|\)--\([a-z][a-z-]*\).*/\2/p' | sort -u
}

while IFS=$'\t' read -r -u 3 cmd name short kind refused; do
  help=$(help_text "$cmd")
  if [ "$short" = - ]; then
    grep -Eq -- "^ +--$name( |\$)" <<<"$help" || bad "$cmd --help does not list --$name"
  else
    grep -Eq -- "^  -$short, --$name( |\$)" <<<"$help" || bad "$cmd --help does not list -$short, --$name"
  fi
  checks=$((checks + 1))
  [ -z "$refused" ] && continue
  IFS=$'\t' read -r -a values <<<"$refused"
  for v in "${values[@]}"; do
    [ "$v" = "<empty>" ] && v=
    for form in "--$name" "-$short"; do
      [ "$form" = "--" ] && continue
      run "$cmd" "$form" "$v"
      expect_rc "$cmd $form '$v'" 2
      expect_err_grep "$cmd $form '$v' names --$name" "^heapscope: $cmd: .*--$name"
    done
  done
done 3<"$TMP/table"

# Every option --help lists is one the table has (help "help" aside).
for cmd in $(cut -f1 "$TMP/table" | sort -u) info; do
  while read -r name; do
    [ "$name" = help ] && continue
    checks=$((checks + 1))
    awk -F'\t' -v c="$cmd" -v n="$name" '$1 == c && $2 == n { f = 1 } END { exit !f }' "$TMP/table" ||
      fail "$cmd --help lists --$name, which its table does not have"
  done < <(help_options "$cmd")
done

# Abbreviations: getopt_long would take a unique prefix; heapscope refuses
# every one, in every command, as an unknown option.
while IFS=$'\t' read -r -u 3 cmd name _; do
  [ "${#name}" -gt 2 ] || continue
  prefix=${name%?}
  cut -f1,2 "$TMP/table" | grep -qx "$cmd"$'\t'"$prefix" && continue
  run "$cmd" "--$prefix" 1
  expect_rc "$cmd --$prefix (an abbreviation)" 2
  expect_err_line "$cmd --$prefix" "heapscope: $cmd: unknown option '--$prefix' (run 'heapscope $cmd --help')"
done 3<"$TMP/table"
run events --hel
expect_rc "events --hel" 2
expect_err_line "events --hel" "heapscope: events: unknown option '--hel' (run 'heapscope events --help')"

# Options after FILE, also where POSIXLY_CORRECT would stop getopt at it;
# "-o -" is standard output.
hp=$SAMPLES/leak-hc.eventlog
run csv "$hp" --layout wide -o -
expect_rc "csv FILE --layout wide -o -" 0
check "csv FILE --layout wide: wide" has "$(head -1 "$TMP/out")" 'time_s,"'
POSIXLY_CORRECT=1 "$BIN" csv "$hp" --layout wide >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc "POSIXLY_CORRECT csv FILE --layout wide" 0
check "POSIXLY_CORRECT: still wide" has "$(head -1 "$TMP/out")" 'time_s,"'
run csv -- --layout
expect_rc "csv -- --layout (a file named --layout)" 3
expect_err_grep "csv -- --layout" "^heapscope: --layout: cannot open"

finish
