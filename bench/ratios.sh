#!/usr/bin/env bash
# ratios.sh: issue 28's figures, as paired ratios on one machine. Makes a
# real GHC eventlog now (bench/RealLog.hs, +RTS -N2 -l -hT: millions of
# small GC, capability, heap and thread events, about 20 bytes each) and a
# runtime .hp (HP_SAMPLES samples of 100 of 1,000 bands), then times, PAIRS
# times in turn, on the same warm files:
#   events --count, summary, report -d, wc -l      on the real log
#   info, chart (SVG)                              on the real log (a
#                                                  census alone; no goal)
#   info, wc -l                                    on the .hp
#   watch FILE, watch FIFO (fed by cat)            on the real log
#   cat into a FIFO that cat drains (the feeder alone)
# and prints the median of each pair's ratio with its range (how noisy
# the machine was), wall time and CPU time (user + system) apart, and the
# least wall ratio report -d's CPU time allows on this machine's cores
# (were every part of it run in parallel). watch's
# rates are given by wall time and by its own CPU time (the rate it keeps
# up with when it has a core: on a shared machine the wall time is mostly
# the other processes'); the FIFO's feeder is cat, whose rate alone is
# printed beside it, and whose CPU time is not counted in watch's.
#
#   bench/ratios.sh        (bench/run.sh runs it too, unless REAL=0)
#
# HEAPSCOPE=build/heapscope  PAIRS=5  REAL_ROUNDS=170 (about 300 MB)
# HP_SAMPLES=100000 (about 171 MB)  BENCH_TMP= (kept and reused when set)
# GHC=ghc
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
HEAPSCOPE=${HEAPSCOPE:-build/heapscope}
case $HEAPSCOPE in /*) ;; *) HEAPSCOPE=$root/$HEAPSCOPE ;; esac
PAIRS=${PAIRS:-5}
REAL_ROUNDS=${REAL_ROUNDS:-170}
HP_SAMPLES=${HP_SAMPLES:-100000}
GHC=${GHC:-ghc}
note() { echo "ratios: $*" >&2; }
[ -x "$HEAPSCOPE" ] || { note "no heapscope at $HEAPSCOPE"; exit 2; }
if [ -n "${BENCH_TMP:-}" ]; then
    mkdir -p "$BENCH_TMP"
    work=$(cd "$BENCH_TMP" && pwd)
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/heapscope-ratios.XXXXXX")
    trap 'rm -rf "$work"' EXIT
fi

# --- the real log: a real program, run now ---------------------------------
log=$work/real-$REAL_ROUNDS.eventlog
if [ ! -s "$log" ]; then
    command -v "$GHC" >/dev/null || { note "no $GHC: cannot make the real log"; exit 2; }
    mkdir -p "$work/ghc"
    cp "$here/RealLog.hs" "$work/ghc/"
    (cd "$work/ghc" && "$GHC" -O1 -threaded -rtsopts -eventlog RealLog.hs \
        -o reallog >build.log 2>&1) || { cat "$work/ghc/build.log" >&2; exit 2; }
    note "running RealLog $REAL_ROUNDS +RTS -N2 -l -hT (about $((REAL_ROUNDS * 17 / 10)) MB of log)"
    # -qg -A8k: a collection every 8 KiB of allocation, each a sync of both
    # capabilities, without parallel GC threads spinning on a shared machine
    (cd "$work/ghc" && ./reallog "$REAL_ROUNDS" +RTS -N2 -l -hT -i0.02 -qg -A8k \
        -RTS >/dev/null && mv reallog.eventlog "$log")
fi

# --- the .hp: HP_SAMPLES samples, 100 of 1,000 bands each ------------------
hp=$work/bands-$HP_SAMPLES.hp
if [ ! -s "$hp" ]; then
    awk -v n="$HP_SAMPLES" 'BEGIN {
        print "JOB \"bands +RTS -hT\""; print "DATE \"Thu Jan  1 00:00 2026\""
        print "SAMPLE_UNIT \"seconds\""; print "VALUE_UNIT \"bytes\""
        for (s = 1; s <= n; s++) {
            t = sprintf("%.3f", s / 100)
            print "BEGIN_SAMPLE " t
            for (b = 0; b < 100; b++)
                printf "band_%04d\t%d\n", (s * 7 + b * 10) % 1000, (s * 31 + b * 977) % 100000 + 8
            print "END_SAMPLE " t
        }
    }' >"$hp"
fi
cat "$log" "$hp" >/dev/null   # warm the page cache
mkfifo "$work/fifo" 2>/dev/null || true

# timed NAME CMD...: one run into $work/t.NAME as "wall_s cpu_s"
timed() {
    local name=$1; shift
    local t0 t1
    local TIMEFORMAT='%3U %3S' # bash's own: milliseconds, not GNU time's 10
    t0=$(date +%s%N)
    { time "$@" >/dev/null 2>"$work/err"; } 2>"$work/cpu" ||
        { note "$name failed:"; head -5 "$work/err" >&2; exit 1; }
    t1=$(date +%s%N)
    awk -v ns=$((t1 - t0)) '{ printf "%.4f %.3f\n", ns / 1e9, $1 + $2 }' \
        "$work/cpu" | tail -1 >>"$work/t.$name"
}
# timed_fifo NAME CMD...: as timed, CMD reading the FIFO while cat feeds
# it; cat's own "wall_s cpu_s" into $work/t.NAME.feeder
timed_fifo() {
    local name=$1; shift
    local t0 t1
    /usr/bin/time -f '%U %S' -o "$work/cpu.feeder" cat "$log" >"$work/fifo" &
    local feeder=$!
    t0=$(date +%s%N)
    /usr/bin/time -f '%U %S' -o "$work/cpu" "$@" >/dev/null 2>"$work/err" ||
        { note "$name failed:"; head -5 "$work/err" >&2; exit 1; }
    t1=$(date +%s%N)
    wait "$feeder"
    awk -v ns=$((t1 - t0)) '{ printf "%.4f %.2f\n", ns / 1e9, $1 + $2 }' \
        "$work/cpu" | tail -1 >>"$work/t.$name"
    awk -v ns=$((t1 - t0)) '{ printf "%.4f %.2f\n", ns / 1e9, $1 + $2 }' \
        "$work/cpu.feeder" | tail -1 >>"$work/t.$name.feeder"
}
rm -f "$work"/t.*
for ((i = 1; i <= PAIRS; i++)); do
    timed count "$HEAPSCOPE" events --count "$log"
    timed summary "$HEAPSCOPE" summary "$log"
    timed report "$HEAPSCOPE" report -d "$work/rep" "$log"
    timed loginfo "$HEAPSCOPE" info "$log"
    timed chart "$HEAPSCOPE" chart -o "$work/chart.svg" "$log"
    timed wc wc -l "$log"
    timed info "$HEAPSCOPE" info "$hp"
    timed wchp wc -l "$hp"
    timed watchfile "$HEAPSCOPE" watch "$log" --interval 100 --json-lines
    timed_fifo watchfifo "$HEAPSCOPE" watch "$work/fifo" --interval 100 \
        --json-lines
    timed_fifo feeder cat "$work/fifo"
done

# ratio A B COLUMN: median, min and max of A/B over the pairs
ratio() {
    paste "$work/t.$1" "$work/t.$2" | awk -v c="$3" '{
        a = (c == 1) ? $1 : $2; b = (c == 1) ? $3 : $4
        if (b > 0) r[n++] = a / b
    } END {
        if (!n) { print "-"; exit }
        for (i = 0; i < n; i++) for (j = i + 1; j < n; j++)
            if (r[j] < r[i]) { t = r[i]; r[i] = r[j]; r[j] = t }
        printf "%.2fx (%.2f-%.2f)", r[int((n - 1) / 2)], r[0], r[n - 1]
    }'
}
# floor A B CORES: the least wall ratio A/B that A's CPU time allows on
# CORES cores, every part of it in parallel (A's CPU / CORES / B's wall),
# median and range over the pairs
floor() {
    paste "$work/t.$1" "$work/t.$2" | awk -v k="$3" '{
        if ($3 > 0) r[n++] = $2 / k / $3
    } END {
        if (!n) { print "-"; exit }
        for (i = 0; i < n; i++) for (j = i + 1; j < n; j++)
            if (r[j] < r[i]) { t = r[i]; r[i] = r[j]; r[j] = t }
        printf "%.2fx (%.2f-%.2f)", r[int((n - 1) / 2)], r[0], r[n - 1]
    }'
}
# rate NAME FILE [COLUMN]: median MB/s of NAME on FILE by wall time (1,
# the default) or CPU time (2), with its range
rate() {
    awk -v b="$(stat -Lc %s "$2")" -v c="${3:-1}" '{
        s = (c == 1) ? $1 : $2; if (s > 0) r[n++] = b / 1e6 / s
    } END {
        if (!n) { print "-"; exit }
        for (i = 0; i < n; i++) for (j = i + 1; j < n; j++)
            if (r[j] < r[i]) { t = r[i]; r[i] = r[j]; r[j] = t }
        printf "%.0f MB/s (%.0f-%.0f)", r[int((n - 1) / 2)], r[0], r[n - 1]
    }' "$work/t.$1"
}
events=$("$HEAPSCOPE" events --count "$log" | awk '{ s += $NF } END { print s }')
echo
echo "real GHC log: $(stat -Lc %s "$log" | awk '{ printf "%.0f MB", $1 / 1e6 }'), $events events" \
     "($(awk -v b="$(stat -Lc %s "$log")" -v e="$events" 'BEGIN { printf "%.1f", b / e }') bytes each);" \
     ".hp: $(stat -Lc %s "$hp" | awk '{ printf "%.0f MB", $1 / 1e6 }'), $HP_SAMPLES samples"
echo "paired ratios over $PAIRS pairs: median (range)       wall              cpu     goal"
printf '  %-34s %-22s %-22s %s\n' \
    "report -d / events --count" "$(ratio report count 1)" "$(ratio report count 2)" "<= 1.5x" \
    "summary / events --count" "$(ratio summary count 1)" "$(ratio summary count 2)" "<= 1.8x" \
    "events --count / wc -l" "$(ratio count wc 1)" "$(ratio count wc 2)" "<= 2x" \
    "info .hp / wc -l .hp" "$(ratio info wchp 1)" "$(ratio info wchp 2)" "" \
    "info / events --count" "$(ratio loginfo count 1)" "$(ratio loginfo count 2)" "" \
    "chart / events --count" "$(ratio chart count 1)" "$(ratio chart count 2)" ""
cores=$(nproc 2>/dev/null || echo 1)
printf '  %-34s %-22s %-22s %s\n' \
    "report -d's floor on $cores cores" "$(floor report count "$cores")" "" \
    "(its CPU / $cores / the count's wall)"
echo "throughput (median and range)        by wall             by its CPU         goal"
printf '  %-34s %-19s %-18s %s\n' \
    "info of the .hp" "$(rate info "$hp")" "$(rate info "$hp" 2)" ">= 500 MB/s" \
    "watch FILE (real log)" "$(rate watchfile "$log")" \
    "$(rate watchfile "$log" 2)" ">= 500 MB/s" \
    "watch FIFO (cat of the real log)" "$(rate watchfifo "$log")" \
    "$(rate watchfifo "$log" 2)" ">= 500 MB/s" \
    "  its feeder, cat, meanwhile" "" "$(rate watchfifo.feeder "$log" 2)" "" \
    "cat into a FIFO cat drains" "$(rate feeder "$log")" \
    "$(rate feeder.feeder "$log" 2)" "(the feeder alone)"
echo "(cpu s from bash's time, 1 ms steps, a FIFO's from GNU time, 10 ms steps; the machine's load during the run: $(cut -d' ' -f1-3 /proc/loadavg))"
