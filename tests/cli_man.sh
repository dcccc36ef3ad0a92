#!/usr/bin/env bash
# The man pages (docs/man/*.scd, built by scdoc): heapscope(1) names every
# command of 'heapscope --help' and its options; each command has its page
# heapscope-COMMAND(1), which names every option its --help names. Skipped
# (77) where scdoc is missing and meson built no page.
. "$(dirname "$0")/cli_common.sh"
MAN=${HEAPSCOPE_MAN_DIR:-}
if [ -z "$MAN" ]; then
  echo "SKIP: no man pages built (scdoc not found)"
  exit 77
fi

# text PAGE: the page's roff with font changes and escaped hyphens undone.
text() { sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' "$1"; }
# names TEXT WORD: WORD stands in TEXT as a word of its own.
names() { grep -qE -- "(^|[^A-Za-z0-9-])$2([^A-Za-z0-9-]|\$)" <<<"$1"; }

commands=$(help_commands)
check "'heapscope --help' lists commands" test -n "$commands"
top=$(text "$MAN/heapscope.1")
for opt in --help --version; do
  check "heapscope(1) names $opt" names "$top" "$opt"
done
for cmd in $commands; do
  check "heapscope(1) names $cmd" names "$top" "heapscope-$cmd"
  page=$MAN/heapscope-$cmd.1
  if [ ! -f "$page" ]; then
    bad "no man page heapscope-$cmd(1) (add docs/man/heapscope-$cmd.1.scd)"
    continue
  fi
  body=$(text "$page")
  check "heapscope-$cmd(1) has its NAME line" names "$body" "heapscope-$cmd"
  opts=$(help_options "$cmd")
  check "$cmd --help names options" test -n "$opts"
  for opt in $opts; do
    check "heapscope-$cmd(1) names $opt (from '$cmd --help')" names "$body" "$opt"
  done
done
finish
