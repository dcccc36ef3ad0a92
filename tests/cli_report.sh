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
check "report -p: speedscope's format written" \
    grep -q '^{"\$schema": "https://www.speedscope.app/file-format-schema.json",$' "$TMP/swap/prog.speedscope.json"
check "report -p: speedscope's file as folded --format speedscope writes it" \
    cmp -s "$TMP/swap/prog.speedscope.json" <("$BIN" folded --source time --format speedscope "$TMP/in/prog.eventlog")
check "report -p: page written" test -s "$TMP/swap/prog.html"
check "report -p: page has the time profile" grep -q '"tprof":{"tick_us"' "$TMP/swap/prog.html"
cp "$hc" "$TMP/in/prog.eventlog"
run report "$TMP/in/prog.eventlog" -d "$TMP/swap"
expect_rc "report of a heap log over it" 0
check "report: the previous run's .time.folded is gone" absent "$TMP/swap/prog.time.folded"
check "report: the previous run's .speedscope.json is gone" absent "$TMP/swap/prog.speedscope.json"
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

# ---- one thread or two: the same set, messages and exit code ---------------
# With more than one CPU, report writes the files that draw no chart in a
# second thread while the charts are drawn (HEAPSCOPE_THREADS=1: all in
# one thread, as on one CPU). Outputs of every kind, a file of the second
# thread failing (the page, over the size limit), and one of the first
# (the SVG): the same bytes, lines and exit code either way, and a failure
# leaves the previous set whole.
same_set() { # DIR1 DIR2: the same file names and bytes (a PDF's date aside)
    [ -e "$1" ] || [ -e "$2" ] || return 0 # neither made: a failure
    [ "$(ls -A "$1")" = "$(ls -A "$2")" ] || return 1
    local f
    for f in "$1"/*; do
        same_bytes "$f" "$2/${f##*/}" || return 1
    done
}
# report_threads T LIMIT INPUT DIR: report with T threads under a file
# size limit (KiB); its lines and exit code in $TMP/said.T, the
# temporary directory's random name and DIR made the same (under
# LeakSanitizer, without its count of suppressed leaks, which differs).
report_threads() {
    ( export HEAPSCOPE_THREADS=$1; trap '' XFSZ; ulimit -f "$2"
      export LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}print_suppressions=0
      exec "$BIN" report "$3" -d "$4" ) >"$TMP/said.$1" 2>&1
    echo "exit $?" >>"$TMP/said.$1"
    sed -i -e "s|$4|DIR|g" -e 's|\.heapscope-[A-Za-z0-9]*|.heapscope-X|g' \
        "$TMP/said.$1"
}
# Logs of several chunks, for anything that reads them in two threads (a
# second reader of the load's chunks was tried, bench/README.md, issue
# 28): a log with GC figures cut in an event (the cut's warning; its page
# has the GC tab) and the same log with an undeclared tag past the first
# chunk (its byte, exit code).
head -c 150001 "$SAMPLES/markers-hT.eventlog" >"$TMP/cut.eventlog"
cp "$SAMPLES/markers-hT.eventlog" "$TMP/corrupt.eventlog"
printf '\377\376' | dd of="$TMP/corrupt.eventlog" bs=1 seek=149999 \
    conv=notrunc status=none
for in in "$hc" "$p" "$TMP/cut.eventlog" "$TMP/corrupt.eventlog" \
          "$SAMPLES/mono/threads-alloc-heapshot.mlpd"; do
    name=$(basename "$in")
    for t in 1 2; do report_threads $t unlimited "$in" "$TMP/threads$t"; done
    check "report $name: one thread or two, the same files" \
        same_set "$TMP/threads1" "$TMP/threads2"
    check "report $name: one thread or two, the same lines and exit code" \
        cmp -s "$TMP/said.1" "$TMP/said.2"
    [ "$name" != corrupt.eventlog ] ||
        check "report of a corrupt log in two threads: its byte and exit code" \
            grep -qzE "byte 149999 \(event 8192\): event type 65534 .*exit 1" \
            "$TMP/said.2"
    rm -rf "$TMP/threads1" "$TMP/threads2"
done
check "report: the second thread's files are in the set" \
    grep -q "^wrote DIR/threads-alloc-heapshot.alloc.folded " "$TMP/said.2"
# The commands that load a census alone read a threaded log in two lanes
# too: the same output, messages and exit code either way, whole, cut in
# an event and corrupt past the first chunk.
for in in "$SAMPLES/markers-hT.eventlog" "$SAMPLES/markers-hc.eventlog" \
          "$TMP/cut.eventlog" "$TMP/corrupt.eventlog"; do
    for cmd in info csv hp folded chart; do # the chart has the heap lines
        out=(-o -)
        [ "$cmd" != info ] || out=()
        for t in 1 2; do
            HEAPSCOPE_THREADS=$t LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}print_suppressions=0 \
                "$BIN" "$cmd" "$in" "${out[@]}" >"$TMP/alone.$t" 2>&1
            echo "exit $?" >>"$TMP/alone.$t"
        done
        check "$cmd $(basename "$in"): one thread or two, the same output and exit code" \
            cmp -s "$TMP/alone.1" "$TMP/alone.2"
    done
done
check "chart of a corrupt log in two threads: its byte and exit code" \
    grep -qzE "byte 149999 \(event 8192\): event type 65534 .*exit 1" \
    "$TMP/alone.2"
"$BIN" report "$p" -d "$TMP/old" >/dev/null 2>&1
before=$(cd "$TMP/old" && md5sum ./* | sort)
for t in 1 2; do # the page fails, in the second thread
    rm -rf "$TMP/old$t"
    cp -a "$TMP/old" "$TMP/old$t"
    report_threads $t 300 "$hc" "$TMP/old$t"
    check "report, the page over the size limit ($t threads): the previous set whole" \
        same "$before" "$(cd "$TMP/old$t" && md5sum ./* | sort)"
    check "report, the page over the size limit ($t threads): no temporary directory" \
        test -z "$(find "$TMP/old$t" -name '.heapscope-*')"
done
check "report, the page over the size limit: two threads say what one says" \
    cmp -s "$TMP/said.1" "$TMP/said.2"
check "report, the page over the size limit: its failure, exit 3" same \
    "$(cat "$TMP/said.2")" "heapscope: report: cannot write DIR/.heapscope-X/leak-hc.html: File too large
exit 3"
report_threads 2 100 "$hc" "$TMP/old1" # the SVG fails: no second thread
check "report, the SVG over the size limit: its failure alone, exit 3" same \
    "$(cat "$TMP/said.2")" "heapscope: report: cannot write DIR/.heapscope-X/leak-hc.svg: File too large
exit 3"
check "report, the SVG over the size limit: the previous set whole" \
    same "$before" "$(cd "$TMP/old1" && md5sum ./* | sort)"

# ---- the summary line cannot be written -----------------------------------
"$BIN" report "$hc" -d "$TMP/full" >/dev/full 2>"$TMP/err"
rc=$?
expect_rc "report with stdout on /dev/full" 3
expect_err_grep "report with stdout on /dev/full: says so" "cannot write standard output"

# ---- a Mono .mlpd: heap shots, allocations, or allocations alone ------------
mono=$SAMPLES/mono
run report "$mono/threads-alloc-heapshot.mlpd" -d "$TMP/mono"
expect_rc "report of an .mlpd with heap shots and allocations" 0
for ext in svg pdf hp csv folded alloc.folded html; do
    check "report .mlpd: threads-alloc-heapshot.$ext written" \
        test -s "$TMP/mono/threads-alloc-heapshot.$ext"
done
"$BIN" folded "$mono/threads-alloc-heapshot.mlpd" --source alloc --weight bytes \
    >"$TMP/alloc.folded" 2>/dev/null
check "report .mlpd: .alloc.folded is folded --source alloc" \
    cmp -s "$TMP/alloc.folded" "$TMP/mono/threads-alloc-heapshot.alloc.folded"
check "report .mlpd: the page names the profile" \
    grep -q '"profile":"Mono heap shots, by class"' "$TMP/mono/threads-alloc-heapshot.html"
check "report .mlpd: the page has the GC tab" \
    grep -q '"source":"mlpd"' "$TMP/mono/threads-alloc-heapshot.html"

run summary --json "$mono/threads-alloc-heapshot.mlpd"
check "summary --json of an .mlpd says what it describes" \
    has "$out" "{\"heapscope_version\":\"$("$BIN" --version | awk '{print $2}')\",\"input\":\"$mono/threads-alloc-heapshot.mlpd\",\"program\":\"Threads.exe\","

run report "$mono/sites-alloc.mlpd" -d "$TMP/mono"
expect_rc "report of an .mlpd with allocations only" 0
expect_err_grep "report of allocations only: says what it shows" \
    "^heapscope: note: .*sites-alloc.mlpd has no heap shots: the report shows bytes allocated over time \(--source alloc\)$"
for ext in svg pdf csv alloc.folded html; do
    check "report allocations only: sites-alloc.$ext written" \
        test -s "$TMP/mono/sites-alloc.$ext"
done
check "report allocations only: no .hp of allocation rates" absent "$TMP/mono/sites-alloc.hp"
check "report allocations only: no heap .folded" absent "$TMP/mono/sites-alloc.folded"
"$BIN" csv "$mono/sites-alloc.mlpd" --source alloc -o "$TMP/alloc.csv" 2>/dev/null
check "report allocations only: the CSV is csv --source alloc" \
    cmp -s "$TMP/alloc.csv" "$TMP/mono/sites-alloc.csv"
total=$("$BIN" info "$mono/sites-alloc.mlpd" | sed -n 's/^allocations: \([0-9]*\) objects.*/\1/p')
check "report allocations only: the summary line counts the info's $total objects" \
    grep -q "^sites-alloc: .* allocated in $total objects; most by " "$TMP/out"
check "report allocations only: the chart says what it shows" \
    grep -q "Mono bytes allocated per 10 ms, by class" "$TMP/mono/sites-alloc.svg"
run report "$mono/sites-alloc.mlpd" -d "$TMP/mono2" --source heap
expect_rc "report --source heap of allocations only" 0
check "report --source heap of allocations only: the page (GC tab) and the allocation stacks" \
    same "$(ls "$TMP/mono2" | tr '\n' ' ')" "sites-alloc.alloc.folded sites-alloc.html "
check "report --source heap of allocations only: the summary line" \
    grep -q "^sites-alloc: no heap shots; [0-9]* collections, largest heap .*; .* allocated in $total objects" "$TMP/out"

# ---- nothing to report ---------------------------------------------------------
printf 'JOB "x"\nDATE "y"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\n' >"$TMP/empty.hp"
run report "$TMP/empty.hp" -d "$TMP/none"
expect_rc "report of a .hp without samples" 4
expect_err_line "report of a .hp without samples: says why" \
    "heapscope: $TMP/empty.hp: no heap samples, time profile or GC events (run the program with +RTS -h -l or -p -l)"
check "report of a .hp without samples: writes nothing" absent "$TMP/none"

# ---- a log with GC events and no heap profile: the page with its GC tab -----
if [ -f "$CORPUS/hello-ghc-8.6.5.eventlog" ]; then
    run report "$CORPUS/hello-ghc-8.6.5.eventlog" -d "$TMP/gc"
    expect_rc "report of a log without heap profile" 0
    check "report without heap profile: only the page" \
        same "$(ls "$TMP/gc")" "hello-ghc-8.6.5.html"
    colls=$("$BIN" summary "$CORPUS/hello-ghc-8.6.5.eventlog" --json |
            python3 -c 'import json,sys; print(sum(g["collections"] for g in json.load(sys.stdin)["generations"]))')
    check "report without heap profile: the summary line counts $colls collections" \
        grep -q "^hello-ghc-8.6.5: no heap profile; $colls collection" "$TMP/out"
    check "report without heap profile: the page has the GC figures" \
        grep -q '"heapscope_version"' "$TMP/gc/hello-ghc-8.6.5.html"
else
    skip_corpus "report of a log without heap profile"
fi

# ---- one pass: a pipe's page has the GC figures a file's has -----------------
# The census and the summary come from the same walk over the events, so a
# log that can be read only once (a pipe) loses nothing.
mkdir -p "$TMP/pipe" "$TMP/file"
"$BIN" report -d "$TMP/pipe" - <"$hc" >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc "report of a pipe" 0
run report "$hc" -d "$TMP/file"
gc_of() { sed -n '/^"gc":{/,/^}/p' "$1"; }
check "report of a pipe: the page has the GC figures" \
    grep -q '"heapscope_version"' "$TMP/pipe/stdin.html"
check "report of a pipe: the same GC figures as the file's page" \
    same "$(gc_of "$TMP/pipe/stdin.html")" "$(gc_of "$TMP/file/leak-hc.html")"

# ---- bad starting state ------------------------------------------------------
run report "$hc" -d "$TMP/bad" --kind pie
expect_rc "report --kind pie" 2
expect_err_line "report --kind pie: message" \
    "heapscope: report: --kind takes area, normalized or line, not 'pie'"
run report "$hc" -d "$TMP/bad" --sort colour
expect_rc "report --sort colour" 2
check "report with bad options writes nothing" absent "$TMP/bad"

# ---- charts under a low address-space limit (ulimit -v) ---------------------
# cairo, pango, fontconfig and GLib abort, crash or wait forever when short
# of memory. Whatever happens inside them, report and chart end in time,
# with 0 or 5 (a message), and leave no work directory or temporary file.

# ---- SIGTERM while a set or an output is written: no temporary file or
# directory left, the previous files whole (a background job here ignores
# Ctrl-C's SIGINT, which takes the same way in the program). The signal is
# sent as soon as the temporary name appears, a few times over.
# term_while PATTERN WHAT ARGS...: $stopped, the runs the signal ended.
term_while() {
    local pattern=$1 what=$2 try pid trc
    shift 2
    stopped=0
    for try in $(seq 1 20); do
        "$BIN" "$@" >/dev/null 2>&1 &
        pid=$!
        while kill -0 "$pid" 2>/dev/null &&
              ! compgen -G "$pattern" >/dev/null; do :; done
        kill -TERM "$pid" 2>/dev/null
        wait "$pid"
        trc=$?
        [[ $trc == 143 ]] && stopped=$((stopped + 1))
        check "$what ended by SIGTERM (try $try, exit $trc): no temporary name left" \
            test -z "$(compgen -G "$pattern")"
        [[ $stopped -ge 3 ]] && break
    done
    check "$what ended by SIGTERM while writing: seen ($stopped times)" \
        test "$stopped" -ge 1
}
"$BIN" report "$hc" -d "$TMP/term" >/dev/null 2>&1
cp -r "$TMP/term" "$TMP/term.before"
term_while "$TMP/term/.heapscope-*" report report "$hc" -d "$TMP/term"
check "report ended by SIGTERM: the previous set whole" \
    same_set "$TMP/term.before" "$TMP/term"
# into directories it makes: those go too
for try in $(seq 1 20); do
    rm -rf "$TMP/termnew"
    "$BIN" report "$hc" -d "$TMP/termnew/a/b" >/dev/null 2>&1 &
    pid=$!
    while kill -0 "$pid" 2>/dev/null &&
          ! compgen -G "$TMP/termnew/a/b/.heapscope-*" >/dev/null; do :; done
    kill -TERM "$pid" 2>/dev/null
    wait "$pid" && continue # done before the signal: try again
    check "report ended by SIGTERM: the directories it made are removed" \
        absent "$TMP/termnew"
    break
done
if "$BIN" chart "$hc" -o "$TMP/term/c.svg" >/dev/null 2>&1; then
    cp "$TMP/term/c.svg" "$TMP/term.c.svg"
    term_while "$TMP/term/c.svg.tmp*" chart chart "$hc" -o "$TMP/term/c.svg"
    check "chart ended by SIGTERM: the previous chart whole" \
        cmp -s "$TMP/term.c.svg" "$TMP/term/c.svg"
fi

# Skipped where a limit cannot be set (sanitizer builds reserve terabytes).
if "$BIN" chart --help | grep -q -- '--format' &&
    bash -c 'ulimit -v 400000 && exec "$1" --version' _ "$BIN" >/dev/null 2>&1; then
    # limited CMD WHAT LEFTOVER ARGS...: CMD under the limit $v ends with 0
    # or 5 in time and leaves nothing matching LEFTOVER under $TMP/lim
    limited() {
        local what=$1 left=$2
        shift 2
        timeout 90 bash -c 'ulimit -v "$1"; shift; exec "$@"' _ "$v" "$BIN" "$@" \
            >/dev/null 2>"$TMP/err"
        rc=$?
        check "$what under ulimit -v $v: exit 0 or 5, in time (got $rc)" \
            bash -c '[[ $1 == 0 || $1 == 5 ]]' _ "$rc"
        check "$what under ulimit -v $v: nothing left behind" \
            test -z "$(find "$TMP/lim" -name "$left")"
    }
    for v in 60000 80000 100000 150000 200000; do
        rm -rf "$TMP/lim"
        mkdir -p "$TMP/lim"
        limited report '.heapscope-*' report "$hc" -d "$TMP/lim/set"
        limited chart 'c.svg.tmp*' chart "$hc" -o "$TMP/lim/c.svg"
    done
else
    skip_part "address-space checks" "no charts, or ulimit -v cannot be set (a sanitizer build)"
fi

finish
