#!/usr/bin/env bash
# heapscope benchmark: decoding throughput and memory on synthetic GHC eventlogs.
#
#   bench/run.sh [SIZE]
#
# See bench/README.md.  Everything is configured by environment variables:
#
#   SIZE=1G              main log size (K/M/G = powers of 1024); also the 1st argument
#   SMALL_SIZE=100M      second log, to show that peak RSS does not grow with size
#                        (empty or equal to SIZE: skip)
#   GHC_EVENTS_SIZE=100M log size for the ghc-events comparison (it is ~30x slower)
#   CAPS=2 SEED=1        generator options (-c, --seed)
#   GEN_OPTS=            extra generator options, e.g. "-i 10" for 10x more heap samples
#   RUNS=3               runs per measurement; the median is reported
#   HEAPSCOPE=build/heapscope   binary to measure (relative to the repository root)
#   BENCH_CMDS="events --count;info" heapscope subcommands to time, separated
#                        by ';', e.g. "events --count;hp -o -".  Each runs as
#                        "$HEAPSCOPE <cmd> LOG > /dev/null".
#   WC=1                 also time `wc -l` on every log: the read limit that
#                        events --count is compared with (0: skip)
#   GHC_EVENTS=auto      auto: compare with ghc-events if ghc has the package; 0: skip
#   BENCH_TMP=           work directory (default: a new one under ${TMPDIR:-/tmp},
#                        removed at exit).  If set, it is kept, and logs already in
#                        it are reused (the generator is deterministic).
#   KEEP=0               1: keep the default work directory too
#   CC=cc                C compiler for the generator
#   REAL=auto            auto: also make a real GHC log now (bench/RealLog.hs, when
#                        ghc is there) and print issue 28's paired ratios on it
#                        (bench/ratios.sh: PAIRS, REAL_ROUNDS, HP_SAMPLES); 0: skip;
#                        1: fail without ghc
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)

SIZE=${1:-${SIZE:-1G}}
SMALL_SIZE=${SMALL_SIZE-100M}
GHC_EVENTS_SIZE=${GHC_EVENTS_SIZE:-100M}
CAPS=${CAPS:-2}
SEED=${SEED:-1}
GEN_OPTS=${GEN_OPTS:-}
RUNS=${RUNS:-3}
HEAPSCOPE=${HEAPSCOPE:-build/heapscope}
BENCH_CMDS=${BENCH_CMDS:-events --count;info}
WC=${WC:-1}
GHC_EVENTS=${GHC_EVENTS:-auto}
KEEP=${KEEP:-0}
CC=${CC:-cc}

die() { echo "bench: $*" >&2; exit 2; }
note() { echo "bench: $*" >&2; }

case $HEAPSCOPE in /*) ;; *) HEAPSCOPE=$root/$HEAPSCOPE ;; esac
if [ ! -x "$HEAPSCOPE" ]; then
    die "heapscope binary not found at $HEAPSCOPE
  build it first:   cd $root && meson setup build && ninja -C build
  or point to one:  HEAPSCOPE=/path/to/heapscope $0"
fi
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive integer"

# bytes in a size such as 100M (K/M/G are powers of 1024, as for the generator)
to_bytes() {
    local s=$1 n mul=1
    [[ $s =~ ^([0-9]+)([kKmMgG]?)[bB]?$ ]] || die "bad size '$s'"
    n=${BASH_REMATCH[1]}
    case ${BASH_REMATCH[2]} in
        k|K) mul=1024 ;; m|M) mul=$((1024 * 1024)) ;; g|G) mul=$((1024 * 1024 * 1024)) ;;
    esac
    echo $((n * mul))
}

# GNU time for peak RSS
have_time=0
if [ -x /usr/bin/time ] && /usr/bin/time -f %M -o /dev/null true 2>/dev/null; then
    have_time=1
else
    note "GNU time (/usr/bin/time) is missing: peak RSS will not be measured."
    note "  install it with: apt-get install time"
fi

# work directory
if [ -n "${BENCH_TMP:-}" ]; then
    mkdir -p "$BENCH_TMP"
    work=$(cd "$BENCH_TMP" && pwd)
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/heapscope-bench.XXXXXX")
    if [ "$KEEP" != 1 ]; then
        trap 'rm -rf "$work"' EXIT
    fi
fi

# --- the generator -----------------------------------------------------------
gen=$work/gen_eventlog
# The event table's header includes heapscope/version.h, which meson
# generates into the build directory beside the binary.
"$CC" -O2 -Wall -Wextra -I"$(dirname "$HEAPSCOPE")/include" \
    -I"$root/build/include" -o "$gen" \
    "$here/gen_eventlog.c" ||
    die "could not compile $here/gen_eventlog.c with $CC"

sizes=("$SIZE")
if [ -n "$SMALL_SIZE" ] && [ "$(to_bytes "$SMALL_SIZE")" != "$(to_bytes "$SIZE")" ]; then
    sizes+=("$SMALL_SIZE")
fi
use_ghc_events=0
if [ "$GHC_EVENTS" != 0 ]; then
    if command -v ghc >/dev/null 2>&1 && ghc-pkg latest ghc-events >/dev/null 2>&1; then
        use_ghc_events=1
        ge_in_sizes=0
        for s in "${sizes[@]}"; do
            [ "$(to_bytes "$s")" = "$(to_bytes "$GHC_EVENTS_SIZE")" ] && ge_in_sizes=1
        done
        [ $ge_in_sizes = 1 ] || sizes+=("$GHC_EVENTS_SIZE")
    elif [ "$GHC_EVENTS" != auto ]; then
        die "GHC_EVENTS=$GHC_EVENTS but ghc with the ghc-events package is not available"
    else
        note "ghc with the ghc-events package not found: skipping the ghc-events comparison"
        note "  (Debian: apt-get install ghc libghc-ghc-events-dev)"
    fi
fi

# disk space for the logs
need=0
for s in "${sizes[@]}"; do
    f=$work/log-$s-c$CAPS-s$SEED${GEN_OPTS:+-$(echo "$GEN_OPTS" | tr -c 'A-Za-z0-9.\n' _)}.eventlog
    [ -f "$f" ] || need=$((need + $(to_bytes "$s")))
done
avail=$(( $(df -Pk "$work" | awk 'NR == 2 { print $4 }') * 1024 ))
if [ "$need" -gt "$avail" ]; then
    die "not enough space in $work for the logs: need $need bytes, $avail available (set BENCH_TMP)"
fi

declare -A log_of gen_events
for s in "${sizes[@]}"; do
    f=$work/log-$s-c$CAPS-s$SEED${GEN_OPTS:+-$(echo "$GEN_OPTS" | tr -c 'A-Za-z0-9.\n' _)}.eventlog
    bytes=$(to_bytes "$s")
    if [ -f "$f" ] && [ -f "$f.gen" ] && [ "$(stat -c %s "$f")" = "$bytes" ]; then
        note "reusing $f"
    else
        note "generating $s log ($CAPS caps, seed $SEED${GEN_OPTS:+, $GEN_OPTS}) in $work"
        t0=$(date +%s%N)
        # shellcheck disable=SC2086
        "$gen" -s "$s" -c "$CAPS" --seed "$SEED" $GEN_OPTS -v -o "$f" 2> "$f.gen"
        t1=$(date +%s%N)
        awk -v b="$bytes" -v ns=$((t1 - t0)) 'BEGIN {
            printf "bench:   %.0f MB/s (%.2f s, including the write to disk)\n",
                   b / 1e6 / (ns / 1e9), ns / 1e9 }' >&2
    fi
    log_of[$s]=$f
    gen_events[$s]=$(awk 'NR == 1 { for (i = 1; i < NF; i++) if ($(i + 1) ~ /^events,?$/) print $i }' "$f.gen")
done

# --- measuring ---------------------------------------------------------------
# run_timed OUTFILE CMD...: one run; sets wall_ns, rss_kib, cpu_ms, rc
run_timed() {
    local outf=$1; shift
    local t0 t1
    t0=$(date +%s%N)
    if [ $have_time = 1 ]; then
        /usr/bin/time -f '%M %U %S' -o "$work/rss" "$@" > "$outf" 2> "$work/stderr" && rc=0 || rc=$?
    else
        "$@" > "$outf" 2> "$work/stderr" && rc=0 || rc=$?
    fi
    t1=$(date +%s%N)
    wall_ns=$((t1 - t0))
    rss_kib=
    cpu_ms=
    if [ $have_time = 1 ]; then
        rss_kib=$(grep -E '^[0-9]+ ' "$work/rss" | tail -1 | awk '{ print $1 }' || true)
        cpu_ms=$(grep -E '^[0-9]+ ' "$work/rss" | tail -1 | awk '{ printf "%d", ($2 + $3) * 1000 }' || true)
    fi
}

median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
max() { printf '%s\n' "$@" | sort -n | tail -1; }

results=()     # lines: tool|command|size|bytes|events|wall_ns|rss|status|cpu_ms
failed=0

# measure TOOL LABEL SIZE EVENTS_FROM CMD...
#   EVENTS_FROM: "hs-count" (sum of the last column), "ge-count" (the "total N"
#   line) or a number
measure() {
    local tool=$1 label=$2 size=$3 evfrom=$4; shift 4
    local log=${log_of[$size]} bytes walls=() rsss=() cpus=() i out events=- status=ok
    bytes=$(stat -c %s "$log")
    cat "$log" > /dev/null          # warm the page cache
    for ((i = 1; i <= RUNS; i++)); do
        out=$work/out.$i
        run_timed "$out" "$@" "$log"
        if [ "$rc" != 0 ]; then
            status="FAILED (exit $rc)"
            note "$tool $label on $size: exit $rc"
            sed 's/^/bench:   | /' "$work/stderr" | head -5 >&2
            failed=1
            break
        fi
        walls+=("$wall_ns")
        [ -n "$rss_kib" ] && rsss+=("$rss_kib")
        [ -n "$cpu_ms" ] && cpus+=("$cpu_ms")
    done
    if [ "$status" = ok ]; then
        case $evfrom in
            hs-count) events=$(awk '{ s += $NF } END { print s + 0 }' "$work/out.1") ;;
            ge-count) events=$(awk '$1 == "total" { print $2 }' "$work/out.1") ;;
            *) events=$evfrom ;;
        esac
        results+=("$tool|$label|$size|$bytes|$events|$(median "${walls[@]}")|$( [ ${#rsss[@]} -gt 0 ] && max "${rsss[@]}" || echo -)|ok|$( [ ${#cpus[@]} -gt 0 ] && median "${cpus[@]}" || echo -)")
    else
        results+=("$tool|$label|$size|$bytes|-|-|-|$status|-")
    fi
}

IFS=';' read -r -a cmds <<< "$BENCH_CMDS"
for cmd in "${cmds[@]}"; do
    cmd=$(echo "$cmd" | sed -e 's/^ *//' -e 's/ *$//')
    [ -n "$cmd" ] || continue
    # heapscope writes a named output through a temporary file renamed over
    # it: "-o /dev/null" would replace the device node when run as root.
    # Standard output goes to /dev/null anyway, so write there.
    if [[ " $cmd " =~ \ (-o|--output)[\ =]/dev/null\  ]]; then
        note "'$cmd': using '-o -' instead of '-o /dev/null' (stdout is discarded)"
        cmd=$(echo " $cmd " | sed -E 's# (-o|--output)[ =]/dev/null # -o - #; s/^ //; s/ $//')
    fi
    read -r -a argv <<< "$cmd"
    for s in "${sizes[@]}"; do
        if [ "$s" = "$GHC_EVENTS_SIZE" ] && [ "$s" != "$SIZE" ] && [ "$s" != "$SMALL_SIZE" ]; then
            continue    # only there for ghc-events; measured below
        fi
        if [ "$cmd" = "events --count" ] || [ "$cmd" = "events -c" ]; then
            measure heapscope "$cmd" "$s" hs-count "$HEAPSCOPE" "${argv[@]}"
        else
            measure heapscope "$cmd" "$s" "${gen_events[$s]:--}" "$HEAPSCOPE" "${argv[@]}"
        fi
    done
done

# the read limit: wc -l reads every byte of the same logs
if [ "$WC" != 0 ]; then
    for s in "${sizes[@]}"; do
        measure wc "wc -l" "$s" - wc -l
    done
fi

if [ $use_ghc_events = 1 ]; then
    note "building the ghc-events counter (bench/GhcEventsCount.hs)"
    mkdir -p "$work/ghc-out"
    if ghc -O2 -package ghc-events -outputdir "$work/ghc-out" -o "$work/ghc-events-count" \
           "$here/GhcEventsCount.hs" > "$work/ghc.log" 2>&1; then
        # heapscope on the same log, for a like-for-like line (if not measured above)
        done_hs=0
        for r in "${results[@]}"; do
            IFS='|' read -r tool label size _ <<< "$r"
            [ "$tool" = heapscope ] && [ "$label" = "events --count" ] &&
                [ "$size" = "$GHC_EVENTS_SIZE" ] && done_hs=1
        done
        [ $done_hs = 1 ] || measure heapscope "events --count" "$GHC_EVENTS_SIZE" hs-count "$HEAPSCOPE" events --count
        measure ghc-events "count (readEventLog)" "$GHC_EVENTS_SIZE" ge-count "$work/ghc-events-count"
    else
        note "could not compile GhcEventsCount.hs:"
        sed 's/^/bench:   | /' "$work/ghc.log" | tail -10 >&2
        failed=1
    fi
fi

# --- report ------------------------------------------------------------------
echo
echo "heapscope benchmark: $CAPS caps, seed $SEED${GEN_OPTS:+, generator options \"$GEN_OPTS\"}, median of $RUNS runs, page cache warm"
echo "  heapscope: $HEAPSCOPE"
echo "  logs:      $work"
echo
printf '%-10s %-22s %6s %9s %11s %8s %8s %8s %10s %10s\n' \
    tool command log MB events "wall s" "cpu s" "MB/s" "Mevents/s" "peak RSS"
for r in "${results[@]}"; do
    IFS='|' read -r tool label size bytes events wall rss status cpu <<< "$r"
    if [ "$status" != ok ]; then
        printf '%-10s %-22s %6s %9.1f %s\n' "$tool" "$label" "$size" \
            "$(awk -v b="$bytes" 'BEGIN { print b / 1e6 }')" "$status"
        continue
    fi
    awk -v tool="$tool" -v label="$label" -v size="$size" -v b="$bytes" -v ev="$events" \
        -v ns="$wall" -v rss="$rss" -v cpu="$cpu" 'BEGIN {
        s = ns / 1e9
        evs = (ev ~ /^[0-9]+$/) ? sprintf("%.1f", ev / s / 1e6) : "-"
        r = (rss ~ /^[0-9]+$/) ? sprintf("%.1f MiB", rss / 1024) : "-"
        c = (cpu ~ /^[0-9]+$/) ? sprintf("%.2f", cpu / 1000) : "-"
        printf "%-10s %-22s %6s %9.1f %11s %8.3f %8s %8.0f %10s %10s\n",
               tool, label, size, b / 1e6, ev, s, c, b / 1e6 / s, evs, r
    }'
done
echo
echo "MB = 10^6 bytes; MB/s from wall time; cpu s = user + system (GNU time, 10 ms steps);"
echo "events: heapscope counts block markers, ghc-events does not."

# against the read limit: events --count and wc -l on the same log
for r in "${results[@]}"; do
    IFS='|' read -r tool label size _ _ wall _ status cpu <<< "$r"
    [ "$tool" = heapscope ] && [ "$status" = ok ] || continue
    for r2 in "${results[@]}"; do
        IFS='|' read -r t2 _ s2 _ _ w2 _ st2 c2 <<< "$r2"
        [ "$t2" = wc ] && [ "$s2" = "$size" ] && [ "$st2" = ok ] || continue
        awk -v c="$label" -v s="$size" -v a="$wall" -v b="$w2" -v ca="$cpu" -v cb="$c2" 'BEGIN {
            cr = (ca ~ /^[0-9]+$/ && cb ~ /^[1-9][0-9]*$/) ? sprintf(", %.1fx its CPU time", ca / cb) : ""
            printf "heapscope %s takes %.1fx the wall time of wc -l on the %s log%s\n", c, a / b, s, cr }'
    done
done

# memory vs size
if [ ${#sizes[@]} -gt 1 ] && [ -n "$SMALL_SIZE" ]; then
    for r in "${results[@]}"; do
        IFS='|' read -r tool label size bytes events wall rss status _ <<< "$r"
        if [ "$tool" != heapscope ] || [ "$status" != ok ] || [ "$size" != "$SIZE" ]; then
            continue
        fi
        for r2 in "${results[@]}"; do
            IFS='|' read -r t2 l2 s2 b2 _ _ rss2 st2 _ <<< "$r2"
            if [ "$t2" != heapscope ] || [ "$l2" != "$label" ] || [ "$s2" != "$SMALL_SIZE" ] ||
               [ "$st2" != ok ]; then
                continue
            fi
            [[ $rss =~ ^[0-9]+$ && $rss2 =~ ^[0-9]+$ ]] || continue
            awk -v c="$label" -v s1="$SMALL_SIZE" -v s2="$SIZE" -v r1="$rss2" -v r2="$rss" \
                -v b1="$b2" -v b2="$bytes" 'BEGIN {
                printf "peak RSS of \"%s\": %.1f MiB on %s, %.1f MiB on %s (x%.2f for x%.0f the data)\n",
                       c, r1 / 1024, s1, r2 / 1024, s2, r2 / r1, b2 / b1 }'
        done
    done
fi

# ghc-events, scaled to the main size
if [ $use_ghc_events = 1 ]; then
    for r in "${results[@]}"; do
        IFS='|' read -r tool label size bytes events wall rss status _ <<< "$r"
        if [ "$tool" != ghc-events ] || [ "$status" != ok ]; then
            continue
        fi
        if [ "$(to_bytes "$size")" != "$(to_bytes "$SIZE")" ]; then
            awk -v b="$bytes" -v ns="$wall" -v big="$(to_bytes "$SIZE")" -v s="$SIZE" -v gs="$size" 'BEGIN {
                rate = b / (ns / 1e9)
                printf "ghc-events at %.0f MB/s (measured on %s) would take about %.1f s for the %s log\n",
                       rate / 1e6, gs, big / rate, s }'
        fi
        for r2 in "${results[@]}"; do
            IFS='|' read -r t2 l2 s2 _ _ w2 _ st2 _ <<< "$r2"
            if [ "$t2" = heapscope ] && [ "$l2" = "events --count" ] && [ "$s2" = "$size" ] && [ "$st2" = ok ]; then
                awk -v a="$wall" -v b="$w2" -v s="$size" 'BEGIN {
                    printf "heapscope events --count is %.0fx faster than ghc-events on the %s log\n", a / b, s }'
            fi
        done
    done
fi

# cross-check: heapscope's event count against the generator's
for r in "${results[@]}"; do
    IFS='|' read -r tool label size bytes events wall rss status _ <<< "$r"
    if [ "$tool" = heapscope ] && [ "$label" = "events --count" ] && [ "$status" = ok ] &&
       [ -n "${gen_events[$size]:-}" ] && [ "$events" != "${gen_events[$size]}" ]; then
        echo "WARNING: heapscope counted $events events in the $size log, the generator wrote ${gen_events[$size]}"
        failed=1
    fi
done

# --- a real GHC log beside the synthetic one: issue 28's ratios ---------------
REAL=${REAL:-auto}
if [ "$REAL" != 0 ]; then
    if command -v "${GHC:-ghc}" >/dev/null 2>&1; then
        HEAPSCOPE=$HEAPSCOPE BENCH_TMP=$work "$here/ratios.sh" || failed=1
    elif [ "$REAL" != auto ]; then
        die "REAL=$REAL but ghc is not available to make the real log"
    else
        note "ghc not found: skipping the real log's ratios (bench/ratios.sh)"
    fi
fi

[ -n "${BENCH_TMP:-}" ] || [ "$KEEP" != 1 ] || echo "logs kept in $work"
exit $failed
