#!/usr/bin/env bash
# Command-line tests of 'heapscope report' as a unit: the set is written
# whole or not at all, a failed run leaves the previous set and no
# temporary files, the old set's leftovers go, the summary line's write is
# checked, and the page's starting-state options are validated.
source "$(dirname "$0")/cli_common.sh"

hc=$SAMPLES/leak-hc.eventlog
p=$SAMPLES/leak-p.eventlog

# ---- a set, then the same set again -------------------------------------
run report "$hc" -d "$TMP/a/b/c" --bands 5 --sort name --kind line -x GHC
expect_rc "report into a new nested directory" 0
for ext in svg pdf hp csv folded html; do
    check "report: leak-hc.$ext written" test -s "$TMP/a/b/c/leak-hc.$ext"
done
check "report: no temporary directory left" \
    test -z "$(find "$TMP/a" -name '.heapscope-*')"
check "report: page starts with the given state" \
    grep -q '"state":{"bands":5,"include":\[\],"exclude":\["GHC"\],"sort":"name","kind":"line"}' \
    "$TMP/a/b/c/leak-hc.html"

# ---- a -p log then a heap log under the same name: no leftovers ----------
mkdir -p "$TMP/in"
cp "$p" "$TMP/in/prog.eventlog"
run report "$TMP/in/prog.eventlog" -d "$TMP/swap"
expect_rc "report of a -p log" 0
check "report -p: time folded written" test -s "$TMP/swap/prog.time.folded"
check "report -p: page written" test -s "$TMP/swap/prog.html"
check "report -p: page has the time profile" grep -q '"tprof":{"tick_us"' "$TMP/swap/prog.html"
cp "$hc" "$TMP/in/prog.eventlog"
run report "$TMP/in/prog.eventlog" -d "$TMP/swap"
expect_rc "report of a heap log over it" 0
check "report: the previous run's .time.folded is gone" absent "$TMP/swap/prog.time.folded"
check "report: the new set is there" test -s "$TMP/swap/prog.hp"

# ---- a write that fails: the previous set stays whole ---------------------
before=$(cd "$TMP/swap" && md5sum prog.* | sort)
cp "$p" "$TMP/in/prog.eventlog"
# A file size limit makes writes fail with EFBIG as a full disk would
# (SIGXFSZ ignored so the write returns an error instead of a signal).
( trap '' XFSZ; ulimit -f 40; exec "$BIN" report "$TMP/in/prog.eventlog" -d "$TMP/swap" ) \
    >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc "report on a full disk" 3
expect_err_grep "report on a full disk: says what failed" "cannot write|File too large"
after=$(cd "$TMP/swap" && md5sum prog.* | sort)
check "report on a full disk: the previous set is untouched" same "$before" "$after"
check "report on a full disk: no temporary directory left" \
    test -z "$(find "$TMP/swap" -name '.heapscope-*')"
( trap '' XFSZ; ulimit -f 40; exec "$BIN" report "$hc" -d "$TMP/new/dir" ) \
    >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc "report into a new directory on a full disk" 3
check "report on a full disk: the directories it made are removed" absent "$TMP/new"

# ---- the summary line cannot be written -----------------------------------
"$BIN" report "$hc" -d "$TMP/full" >/dev/full 2>"$TMP/err"
rc=$?
expect_rc "report with stdout on /dev/full" 3
expect_err_grep "report with stdout on /dev/full: says so" "cannot write standard output"

# ---- bad starting state ------------------------------------------------------
run report "$hc" -d "$TMP/bad" --kind pie
expect_rc "report --kind pie" 2
expect_err_line "report --kind pie: message" \
    "heapscope: report: --kind must be area, normalized or line, not 'pie'"
run report "$hc" -d "$TMP/bad" --sort colour
expect_rc "report --sort colour" 2
check "report with bad options writes nothing" absent "$TMP/bad"

finish
