#!/usr/bin/env bash
# cli_watch_dir.sh: what `heapscope watch -d DIR` leaves in DIR: the set
# report writes for the same bytes also for a stream with GC events and no
# heap census (GHC 9.0 sends its censuses only at exit), DIR replaced as a
# whole while a reader reads it all along, a full disk, and directories
# that are not watch's to replace.
#
# Environment (set by meson test): HEAPSCOPE_BIN, LIVE_FEEDER, GEN_LIVE,
# HEAPSCOPE_SOURCE_DIR.
set -u

. "$(dirname "$0")/cli_common.sh"
. "$(dirname "$0")/watch_common.sh"

mkfifo "$TMP/fifo"

# ---- GC events without a census ----------------------------------------------

# GC events and no heap census yet (a plain +RTS -l run, or GHC 9.0, which
# sends its censuses only at exit): watch ends as report does for the same
# bytes: exit 0 and the page with the GC figures; nothing at all: exit 4
# and report's message.
"${GEN_LIVE:?}" 60 0 20 >"$TMP/gcsrc.eventlog"
rm -f "$TMP/gconly.eventlog"
"$FEEDER" file "$TMP/gconly.eventlog" "$TMP/gcsrc.eventlog" --chunk 2048 \
  --delay-ms 20 &
wait_for "$TMP/gconly.eventlog"
timeout 60 "$BIN" watch "$TMP/gconly.eventlog" -d "$TMP/gconly.d" --every 0.1 \
  >"$TMP/out" 2>"$TMP/err"
rc=$?
wait
expect_rc "watch, GC events without census" 0
"$BIN" report "$TMP/gconly.eventlog" -d "$TMP/gconly.batch" >/dev/null 2>&1
check "GC without census: the files report writes" \
  same "$(ls -A "$TMP/gconly.d")" "$(ls -A "$TMP/gconly.batch")"
check "GC without census: the page as report writes it" \
  cmp -s "$TMP/gconly.d/gconly.html" "$TMP/gconly.batch/gconly.html"

# The same, ended by SIGTERM mid-stream: the page of the bytes read.
rm -f "$TMP/gcterm.eventlog"
"$FEEDER" file "$TMP/gcterm.eventlog" "$TMP/gcsrc.eventlog" --chunk 512 \
  --delay-ms 100 &
fpid=$!
wait_for "$TMP/gcterm.eventlog"
term_watch 1 $fpid "$TMP/gcterm.out" "$TMP/gcterm.eventlog" -d "$TMP/gcterm.d" \
  --json-lines --interval 0.2
expect_rc "watch, GC events without census, SIGTERM" 0
truncate -s "$(grep -o '"stream_bytes":[0-9]*' "$TMP/gcterm.out" | tail -1 |
  cut -d: -f2)" "$TMP/gcterm.eventlog"
"$BIN" report "$TMP/gcterm.eventlog" -d "$TMP/gcterm.batch" >/dev/null 2>&1
check "GC without census, SIGTERM: the page of the bytes read, as report's" \
  cmp -s "$TMP/gcterm.d/gcterm.html" "$TMP/gcterm.batch/gcterm.html"

"${GEN_LIVE:?}" 0 0 >"$TMP/nothing.eventlog"
"$FEEDER" fifo "$TMP/fifo" "$TMP/nothing.eventlog" --delay-ms 0 &
timeout 60 "$BIN" watch "$TMP/fifo" -d "$TMP/nothing.d" >/dev/null 2>"$TMP/err"
rc=$?
wait
expect_rc "watch, neither census nor GC" 4
"$BIN" report "$TMP/nothing.eventlog" -d "$TMP/nothing.batch" >/dev/null \
  2>"$TMP/batch.err"
check "neither census nor GC: report's message" \
  same "$(cat "$TMP/err")" "$(sed "s|$TMP/nothing.eventlog|$TMP/fifo|" "$TMP/batch.err")"
check "neither census nor GC: no directory" absent "$TMP/nothing.d"

# ---- -d is replaced as a whole: readers only ever see a complete set --------

# A reader lists DIR and reads its .hp and .csv over and over while watch
# rewrites the set every 0.05 s: every listing is a whole set (what report
# writes: the heap files, or the page alone), the two files are of the
# same census, and no work directory is ever an entry of DIR. A reading
# during which DIR's link changed is read again (a reader who opens DIR
# holds one set; one who reads DIR/x then DIR/y across an update reads two).
"${GEN_LIVE:?}" 400 20 >"$TMP/sets.eventlog"
cat >"$TMP/reader.py" <<'EOF'
import os, sys
d, base, stop = sys.argv[1], sys.argv[2], sys.argv[3]
heap = {base + e for e in ('.svg', '.pdf', '.hp', '.csv', '.folded', '.html')}
seen, bad = 0, []
def link():
    try:
        return os.readlink(d)
    except OSError:
        return None
while not os.path.exists(stop) and len(bad) < 5:
    before = link()
    try:
        names = set(os.listdir(d))
        hp = open(os.path.join(d, base + '.hp')).read() if base + '.hp' in names else ''
        csv = open(os.path.join(d, base + '.csv')).read() if base + '.csv' in names else ''
    except FileNotFoundError:
        continue  # no DIR yet (or a file replaced between list and open)
    if link() != before:
        continue
    seen += 1
    work = sorted(n for n in names if n.startswith('.'))
    if work:
        bad.append('work entries in DIR: %s' % work)
    elif names != heap and names != {base + '.html'}:
        bad.append('not a whole set: %s' % sorted(names))
    elif hp:
        # the census times holding bands, in each file
        hp_times, t = set(), None
        for l in hp.splitlines():
            if l.startswith('BEGIN_SAMPLE'):
                t = float(l.split()[1])
            elif l.startswith('END_SAMPLE'):
                t = None
            elif t is not None:
                hp_times.add(t)
        csv_times = {float(l.split(',')[0]) for l in csv.splitlines()[1:]}
        if hp_times != csv_times:
            bad.append('.hp of %d censuses beside .csv of %d'
                       % (len(hp_times), len(csv_times)))
print('\n'.join(bad) if bad else 'ok %d readings' % seen)
EOF
"$FEEDER" fifo "$TMP/fifo" "$TMP/sets.eventlog" --chunk 2048 --delay-ms 5 &
python3 "$TMP/reader.py" "$TMP/sets.d" gen_live "$TMP/sets.stop" >"$TMP/reader.out" 2>&1 &
timeout 60 "$BIN" watch "$TMP/fifo" -d "$TMP/sets.d" --every 0.05 \
  --interval 10 >/dev/null 2>"$TMP/err"
rc=$?
touch "$TMP/sets.stop"
wait
expect_rc "watch -d, read all along" 0
check "readers of DIR see whole sets only: $(head -3 "$TMP/reader.out" | tr "\n" " ")" \
  grep -q '^ok [1-9][0-9]* readings' "$TMP/reader.out"
"$BIN" hp "$TMP/sets.eventlog" -o "$TMP/sets.hp" 2>/dev/null
check "DIR holds the final set" same_file "$TMP/sets.d/gen_live.hp" "$TMP/sets.hp"
check "DIR is a link to the set" [ -L "$TMP/sets.d" ]
check "beside DIR only its hidden store, holding one set" \
  same "$(cd "$TMP" && ls -d sets.d* .sets.d* .sets.d.heapscope/* | wc -l)" 3

# ---- -d that cannot be written: the previous complete files stay -----------

"$BIN" watch "$LOG" -d "$TMP/full.d" >/dev/null 2>&1
cp -rL "$TMP/full.d" "$TMP/full.before"
(
  trap '' XFSZ
  ulimit -f 8
  exec "$BIN" watch "$LOG" -d "$TMP/full.d" >"$TMP/out" 2>"$TMP/err"
)
rc=$?
expect_rc "watch -d on a full disk" 3
expect_err_grep "full disk" "cannot write"
check "full disk: the previous files stay" \
  diff -r "$TMP/full.before" "$TMP/full.d"
check "full disk: no unfinished set is left" \
  same "$(ls -A "$TMP/.full.d.heapscope" | wc -l)" 1

# A directory that holds other files is not watch's to replace as a whole:
# refused before the stream is read, nothing touched; an empty one is
# taken over; a second watch into the same DIR replaces the first's set.
mkdir -p "$TMP/mine.d"
echo keep >"$TMP/mine.d/notes.txt"
run watch "$LOG" -d "$TMP/mine.d"
expect_rc "watch -d into a directory with other files" 3
expect_err_grep "directory with other files" "watch: -d .*mine.d: a directory with other files; .*give a new name, an empty directory"
check "directory with other files: untouched" \
  same "$(ls -A "$TMP/mine.d")" notes.txt
run watch "$LOG" -d .
expect_rc "watch -d ." 2
mkdir -p "$TMP/empty.d"
run watch "$LOG" -d "$TMP/empty.d/"
expect_rc "watch -d into an empty directory" 0
check "empty directory: now a link to the set" [ -L "$TMP/empty.d" ]
expect_out_line "empty directory: the wrote lines name DIR" \
  "wrote $TMP/empty.d/leak-hc.hp (8.79 KiB)"
run watch "$SAMPLES/markers-hc.eventlog" -d "$TMP/empty.d"
expect_rc "watch -d again, another input" 0
check "again: both inputs' files, one set" \
  same "$(ls "$TMP/empty.d" | grep -c '\.hp$') $(ls -A "$TMP/.empty.d.heapscope" | wc -l)" "2 1"

finish
