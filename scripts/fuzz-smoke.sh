#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) and runs each for a
# bounded time from its seeds: the samples, the corpus logs in ../shared
# when present, and the regression inputs. Any finding fails the run, and
# the input that found it is left in $FUZZ_OUT (default /tmp/heapscope-fuzz)
# to be minimised into tests/fuzz/regress/TARGET/.
#
#   scripts/fuzz-smoke.sh [SECONDS-PER-TARGET]   (default 60)
#
# FUZZ_JOBS=N runs N targets at once (default 1), each for the whole
# SECONDS: on a 2-core machine FUZZ_JOBS=2 halves the wall time and keeps
# every target's time.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
out=${FUZZ_OUT:-/tmp/heapscope-fuzz}
build=${FUZZ_BUILD:-build-fuzz}
jobs=${FUZZ_JOBS:-1}

if [ ! -d "$build" ]; then
    CC=clang meson setup "$build" -Dfuzz=true \
        -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
fi
# A target is a fuzz_*.c that defines the entry point (fuzz_common.c and
# fuzz_report.c hold what targets share).
targets=$(cd tests/fuzz &&
          grep -l -E '^int LLVMFuzzerTestOneInput\(.*\)$' fuzz_*.c |
          sed 's/^fuzz_//; s/\.c$//')
# Only the targets: the rest of an instrumented build is not used here.
ninja -C "$build" $(for t in $targets; do echo "tests/fuzz/fuzz_$t"; done) \
    >/dev/null
# Leaks inside fontconfig and cairo (the chart) are theirs, as in the tests.
export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp
run_target() { # T: fuzz one target; returns 1 on a finding
    local t=$1 exe seeds corpus prefixes dict status=0
    exe=$(cd "$build" && pwd)/tests/fuzz/fuzz_$t  # FUZZ_BUILD may be absolute
    [ -x "$exe" ] || return 0
    seeds=$out/$t/seeds corpus=$out/$t/corpus
    rm -rf "$seeds"
    mkdir -p "$seeds" "$corpus"
    cp tests/fuzz/regress/"$t"/* "$seeds"/ 2>/dev/null || true
    # Inputs of targets that read a mode byte first get one per way the
    # target should start from (the fuzzer seldom mutates that one byte of
    # a long input, so a way no seed takes stays almost untried):
    #  pipeline 005: a chart, no diff chart; 343: page and diff with
    #    their charts, other options;
    #  mlpd 065: decoded in random chunks and loaded by class; 265: by
    #    namespace (mode bit 7);
    #  live: four bytes of schedule too; 000 fed directly, 036 through a
    #    socket with compaction, page data and CSV.
    case $t in
    reader) prefixes='\005' ;;
    pipeline) prefixes='\005 \343' ;;
    mlpd) prefixes='\065 \265' ;;
    live) prefixes='\000\001\002\003\004 \036\001\002\003\004' ;;
    *) prefixes='' ;;
    esac
    add_seed() { # FILE: its first 60 kB as a seed, once per prefix
        local name i=0 p
        name=$(basename "$1")
        if [ -z "$prefixes" ]; then
            head -c 60000 "$1" >"$seeds/$name"
            return
        fi
        for p in $prefixes; do
            { printf "$p"; head -c 60000 "$1"; } >"$seeds/$i-$name"
            i=$((i + 1))
        done
    }
    case $t in
    hp) for f in samples/*.hp ../shared/repro/*.hp; do
            [ -f "$f" ] && add_seed "$f"; done ;;
    mlpd) for f in samples/mono/*.mlpd*; do
              [ -f "$f" ] && add_seed "$f"; done ;;
    http) ;; # requests: the regression inputs are its seeds
    *) for f in samples/*.eventlog samples/*.hp \
                ../shared/corpus/ghc-events/*.eventlog; do
           [ -f "$f" ] && add_seed "$f"; done ;;
    esac
    dict=tests/fuzz/$t.dict
    [ -f "$dict" ] || dict=tests/fuzz/reader.dict
    if ! (cd "$out/$t" && "$exe" -dict="$OLDPWD/$dict" \
            -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 \
            -max_len=70000 -print_final_stats=1 corpus seeds \
            >log 2>&1); then
        echo "fuzz_$t: FINDING, see $out/$t/log and $out/$t/crash-*" >&2
        tail -40 "$out/$t/log" >&2
        status=1
    fi
    grep -E '^stat::(number_of_executed_units|average_exec_per_sec)|cov:' \
        "$out/$t/log" | tail -3
    return $status
}

# Up to $jobs targets at once; each prints its lines when it is done, so
# that the lines of one target stay together.
status=0
pids=() names=()
wait_one() {
    local pid=${pids[0]} name=${names[0]}
    if ! wait "$pid"; then status=1; fi
    echo "== fuzz_$name for ${secs}s"
    cat "$out/$name.out"
    pids=("${pids[@]:1}") names=("${names[@]:1}")
}
for t in $targets; do
    mkdir -p "$out/$t"
    run_target "$t" >"$out/$t.out" 2>&1 &
    pids+=($!) names+=("$t")
    [ ${#pids[@]} -lt "$jobs" ] || wait_one
done
while [ ${#pids[@]} -gt 0 ]; do wait_one; done
exit $status
