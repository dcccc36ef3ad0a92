#!/usr/bin/env bash
# Progress on long reads: on a terminal (a pseudo-terminal from python3's
# pty module) a read shows a line on stderr with the bytes read, the
# percent of a regular file and the rate; nothing with --quiet, and
# nothing when stderr is a file. HEAPSCOPE_PROGRESS_AFTER=0 shows it from
# the start (the default waits 2 s), a large generated .hp makes the read
# last, and a pipe that pauses makes it last without a known size.
set -u
. "$(dirname "$0")/cli_common.sh"

# A 6 MB .hp: 2000 samples of 100 bands.
python3 - "$TMP/big.hp" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write('JOB "big +RTS -hc"\nDATE "x"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\n')
    for i in range(2000):
        f.write("BEGIN_SAMPLE %d.0\n" % i)
        for b in range(100):
            f.write("(%d)Main.band_number_%d/main\t%d\n" % (b, b, 1000 + i * b))
        f.write("END_SAMPLE %d.0\n" % i)
PY

# on_tty ARGS...: runs the program with stderr (and stdin, stdout) on a
# pseudo-terminal, stdout to $TMP/out; leaves the terminal's bytes in
# $TMP/tty and the exit code in $rc.
on_tty() {
    python3 - "$TMP/tty" "$TMP/out" "$BIN" "$@" <<'PY'
import os, pty, sys
log, out, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
pid, fd = pty.fork()
if pid == 0:
    o = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(o, 1)
    os.execvp("bash", ["bash", "-c", 'exec "$0" "$@"'] + argv)
data = b""
while True:
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    data += chunk
_, status = os.waitpid(pid, 0)
open(log, "wb").write(data)
sys.exit(os.waitstatus_to_exitcode(status))
PY
    rc=$?
}

export HEAPSCOPE_PROGRESS_AFTER=0
on_tty csv "$TMP/big.hp"
expect_rc "progress: csv of a big .hp on a terminal" 0
check "progress: the line names the file, bytes of the size, percent and rate" \
    grep -aEq "heapscope: reading $TMP/big.hp: [0-9.]+ ([KM]i)?B of [0-9.]+ MiB \([0-9]+%\), [0-9.]+ ([KM]i)?B/s" "$TMP/tty"
check "progress: the line is cleared at the end" grep -aq $'\r\033\[K' "$TMP/tty"
check "progress: stdout unchanged" test "$(wc -l <"$TMP/out")" -eq 200001

on_tty csv --quiet "$TMP/big.hp"
expect_rc "progress: --quiet" 0
check "progress: --quiet shows nothing" test ! -s "$TMP/tty"
on_tty summary -q "$SAMPLES/leak-hc.eventlog"
check "progress: -q on summary shows nothing" bash -c "! grep -aq 'reading' '$TMP/tty'"

on_tty info -q "$TMP/big.hp"
expect_rc "progress: info -q" 0
check "progress: -q on info shows nothing" bash -c "! grep -aq 'reading' '$TMP/tty'"
on_tty info "$TMP/big.hp"
check "progress: info shows the line" grep -aq "heapscope: reading $TMP/big.hp" "$TMP/tty"
on_tty events --count "$SAMPLES/leak-hc.eventlog"
check "progress: events --count shows the line" grep -aq "heapscope: reading .*leak-hc.eventlog" "$TMP/tty"
on_tty events --count --quiet "$SAMPLES/leak-hc.eventlog"
expect_rc "progress: events --count --quiet" 0
check "progress: --quiet on events --count shows nothing" bash -c "! grep -aq 'reading' '$TMP/tty'"

# a pipe that pauses: no size known, bytes and rate only
on_tty info <(head -c 100000 "$TMP/big.hp"; sleep 1; tail -c +100001 "$TMP/big.hp")
expect_rc "progress: a pausing pipe" 0
check "progress: a pipe shows bytes and rate, no percent" \
    grep -aEq "heapscope: reading /dev/fd/[0-9]+: [0-9.]+ ([KM]i)?B, [0-9.]+ ([KM]i)?B/s" "$TMP/tty"

# stderr a file: nothing, even with the threshold at 0
run csv "$TMP/big.hp"
expect_rc "progress: stderr a file" 0
expect_err_empty "progress: nothing when stderr is not a terminal"

# the default threshold: a read under 2 s shows nothing
unset HEAPSCOPE_PROGRESS_AFTER
on_tty hp "$SAMPLES/leak-hc.eventlog"
check "progress: a short read shows nothing" bash -c "! grep -aq 'reading' '$TMP/tty'"
finish
