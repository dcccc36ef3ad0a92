#!/usr/bin/env bash
# Command-line tests of what every command shares: the version, the one
# place messages are printed (control bytes escaped), exit codes of cut
# logs, and outputs that are never replaced by a run that failed.
set -u

. "$(dirname "$0")/cli_common.sh"

S=$SAMPLES/leak-hc.eventlog

# ---- version: one source, meson's project version ----------------------------
want=$(sed -n "s/^ *version : '\([0-9.]*\)',\$/\1/p" "$SRC/meson.build" | head -n1)
run --version
expect_rc "--version" 0
expect_out_line "--version is meson's project version" "heapscope $want"
run summary --json "$S"
expect_out_line "summary --json: heapscope's version" "  \"heapscope_version\": \"$want\","
expect_out_line "summary --json: the input" "  \"input\": \"$S\","
expect_out_grep "summary --json: the program" '^  "program": "[^"]*leak[^"]*",$'

# ---- help and version that cannot be written: exit 3, said -------------------
if [[ -w /dev/full ]]; then
    cmds=$("$BIN" --help | sed -n 's/^  \([a-z]\+\) .*/\1/p')
    check "--help lists the commands ($(echo $cmds))" test "$(echo "$cmds" | wc -l)" -ge 8
    while read -r args; do
        "$BIN" $args >/dev/full 2>"$TMP/err"
        rc=$?
        expect_rc "$args > /dev/full" 3
        expect_err_line "$args > /dev/full" \
            "heapscope: cannot write standard output: No space left on device"
    done < <(printf '%s\n' --help -h help --version; for c in $cmds; do
                 echo "$c --help"; done)
    run --help
    expect_rc "--help into a pipe" 0
    expect_err_empty "--help into a pipe"
else
    skip_part "help-output checks" "no writable /dev/full"
fi

# ---- messages: control bytes from the input are escaped ----------------------
printf 'JOB "x"\n\033]0;pwned\a\033[31mRED\n' >"$TMP/ctl.hp"
run hp "$TMP/ctl.hp"
expect_rc "control bytes in a .hp: malformed" 1
check "control bytes: none reaches the terminal" \
    bash -c '! LC_ALL=C grep -q "[[:cntrl:]]" <(tr -d "\n" <"$1")' _ "$TMP/err"
expect_err_grep "control bytes: shown as \\xHH" 'not .\\x1b\]0;pwned\\x07\\x1b\[31mRED'
# a file name with a control byte and invalid UTF-8, from the command line
bad=$(printf '%s/na\033me\377.eventlog' "$TMP")
run info "$bad"
expect_rc "missing file with a control byte in its name" 3
expect_err_grep "the name is escaped" 'na\\x1bme\\xff\.eventlog: cannot open'
# UTF-8 passes through unchanged
run info "$TMP/späť.eventlog"
expect_err_grep "UTF-8 in a name is kept" 'späť\.eventlog: cannot open'

# ---- a log cut inside its header: truncated, nothing before the cut: 4 -------
head -c 100 "$S" >"$TMP/hdr.eventlog"
for cmd in hp csv info summary events; do
    run "$cmd" "$TMP/hdr.eventlog"
    expect_rc "$cmd of a log cut in its header" 4
    expect_err_line "$cmd of a log cut in its header" \
        "heapscope: $TMP/hdr.eventlog: byte 100: the input ends at byte 100 inside the eventlog header, before any event"
done
: >"$TMP/empty.eventlog"
run hp "$TMP/empty.eventlog"
expect_rc "an empty input is no log: malformed" 1

# ---- a log cut before what was asked: no advice to record it -----------------
head -c 2800 "$S" >"$TMP/early.eventlog"
run hp "$TMP/early.eventlog"
expect_rc "hp of a log cut before its heap profile" 4
expect_err_grep "hp of an early cut: the warning" '^heapscope: warning: .*early.eventlog: byte 2800 \(event 6\): the log is truncated'
expect_err_grep "hp of an early cut: says the log was cut" 'nothing of what was asked comes before the cut'
check "hp of an early cut: no advice to rerun" bash -c '! grep -q "RTS -h" "$1"' _ "$TMP/err"
run summary "$TMP/early.eventlog"
expect_rc "summary of a log cut before its GC events" 4
expect_err_grep "summary of an early cut: says so" 'no GC or heap events before the cut'
check "summary of an early cut: no advice on event classes" \
    bash -c '! grep -q "event class" "$1"' _ "$TMP/err"
# every command names the cut with its offset, and gives no advice on how
# to record what the part cut off may have held
for cmd in hp csv folded summary "report -d $TMP/early-page" \
           "diff $TMP/early.eventlog $S"; do
    # shellcheck disable=SC2086
    case $cmd in diff*) run $cmd ;; *) run $cmd "$TMP/early.eventlog" ;; esac
    expect_rc "${cmd%% *} of an early cut" 4
    expect_err_grep "${cmd%% *} of an early cut: names the cut" \
        'early.eventlog: .*before the cut at byte 2800'
    check "${cmd%% *} of an early cut: no advice to record" \
        bash -c '! grep -q -e "RTS -h" -e "run the program" -e "event class" "$1"' _ "$TMP/err"
done

# ---- exit 4 leaves a named output as it was ----------------------------------
echo "the previous run's summary" >"$TMP/keep.txt"
run summary "$TMP/early.eventlog" -o "$TMP/keep.txt"
expect_rc "summary -o with nothing to summarise" 4
check "summary -o: the old file is left whole" \
    same "$(cat "$TMP/keep.txt")" "the previous run's summary"
expect_err_grep "summary -o: says the file was left" 'keep\.txt is left as it was'
expect_no_file "summary -o: no temporary file" "$TMP/keep.txt.tmpnothing"
check "summary -o: no temporary file beside it" \
    bash -c '! ls "$1".tmp* >/dev/null 2>&1' _ "$TMP/keep.txt"

# ---- output failures name the output, not the input --------------------------
if [[ -w /dev/full ]]; then
    for cmd in summary hp csv folded; do
        "$BIN" "$cmd" "$S" >/dev/full 2>"$TMP/err"
        rc=$?
        expect_rc "$cmd > /dev/full" 3
        expect_err_grep "$cmd > /dev/full: names standard output" 'standard output'
        check "$cmd > /dev/full: does not name <stdin>" \
            bash -c '! grep -q "<stdin>" "$1"' _ "$TMP/err"
    done
    "$BIN" summary - <"$S" >/dev/full 2>"$TMP/err"
    rc=$?
    expect_rc "summary of stdin > /dev/full" 3
    check "summary of stdin > /dev/full: names standard output, not <stdin>" \
        bash -c 'grep -q "standard output" "$1" && ! grep -q "<stdin>" "$1"' _ "$TMP/err"
    # a full device is named as such ("No space left on device"), not as
    # an input/output error, by every command, to stdout and with -o
    A=$SAMPLES/phases-lazy-hc.eventlog B=$SAMPLES/phases-strict-hc.eventlog
    full_cases=("summary $S" "hp $S" "csv $S" "folded $S"
        "diff $A $B" "diff --json $A $B" "diff --folded $A $B")
    # a build without charts refuses chart before writing (exit 5)
    [[ ${HEAPSCOPE_HAVE_CHARTS:-1} == 1 ]] && full_cases+=("chart --format svg $S")
    for c in "${full_cases[@]}" "events $S" \
        "events $SAMPLES/mono/deep-calls-alloc.mlpd"; do
        read -r -a argv <<<"$c"
        for how in stdout option; do
            if [[ $how == stdout ]]; then
                "$BIN" "${argv[@]}" >/dev/full 2>"$TMP/err"
            elif [[ ${argv[0]} == events ]]; then
                continue # events has no -o
            else
                "$BIN" "${argv[@]}" -o /dev/full >/dev/null 2>"$TMP/err"
            fi
            rc=$?
            expect_rc "$c > /dev/full ($how)" 3
            expect_err_grep "$c > /dev/full ($how): names the cause" \
                'No space left on device'
        done
    done
else
    skip_part "output-failure checks" "no writable /dev/full"
fi

finish
