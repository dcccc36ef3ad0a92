#!/usr/bin/env bash
# regen.sh: rebuild every generated file in samples/ from the .hs sources.
#
# Needs: ghc with profiling libraries (Debian: ghc ghc-prof), the ghc-events
# library (Debian: libghc-ghc-events-dev) and hp2ps (comes with ghc).
#
# Usage: samples/regen.sh [OUTDIR]
#   OUTDIR defaults to the directory this script is in (samples/). All
#   compiling and running happens in a temporary directory; only the outputs
#   below are copied to OUTDIR, under fixed names:
#     PROG-MODE.eventlog PROG-MODE.hp PROG-MODE.stat PROG-MODE.counts
#     PROG-p.eventlog PROG-p.prof PROG-p.stat PROG-p.counts
#     MANIFEST   (tool versions, sample counts, sizes)
#   Outputs are staged and copied to OUTDIR only when every step succeeded.
# Exits non-zero on any failure (a compile error, a crashed run, a heap
# profile without samples, a .hp that hp2ps rejects, an eventlog that
# ghc-events cannot read).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${1:-$HERE}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

GHC=${GHC:-ghc}
HP2PS=${HP2PS:-hp2ps}
GHC_PKG=${GHC_PKG:-ghc-pkg}

die() { echo "regen.sh: $*" >&2; exit 1; }

command -v "$GHC" >/dev/null || die "ghc not found (apt-get install ghc ghc-prof)"
command -v "$HP2PS" >/dev/null || die "hp2ps not found (it comes with ghc)"
LIBDIR=$("$GHC" --print-libdir)
ls "$LIBDIR"/base-*/Prelude.p_hi >/dev/null 2>&1 \
  || die "no profiling base library under $LIBDIR (apt-get install ghc-prof)"
"$GHC_PKG" field ghc-events version >/dev/null 2>&1 \
  || die "ghc-events library not found (apt-get install libghc-ghc-events-dev)"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/heapscope-samples.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
STAGE="$WORK/out"   # outputs collect here and reach OUT only if every step worked
mkdir -p "$STAGE"

# ---------------------------------------------------------------- build ----
build() { # build PROG [extra ghc flags...]
  local prog=$1; shift
  mkdir -p "$WORK/build-$prog"
  cp "$HERE/$prog.hs" "$WORK/build-$prog/"
  (cd "$WORK/build-$prog" &&
    "$GHC" -O0 -prof -fprof-auto -rtsopts -eventlog "$@" "$prog.hs" -o "$prog" >build.log 2>&1) \
    || { cat "$WORK/build-$prog/build.log" >&2; die "compiling $prog.hs failed"; }
}

build leak
build markers -threaded
build manycc
build phases
# phases again with -O1, for `heapscope diff --normalize`: its -hd closure
# descriptions carry other generated suffixes (<Main.sat_s4hv> where the
# -O0 build has <Main.sat_s2JS>).
mkdir -p "$WORK/build-phases-O1"
cp "$HERE/phases.hs" "$WORK/build-phases-O1/"
(cd "$WORK/build-phases-O1" &&
  "$GHC" -O1 -prof -fprof-auto -rtsopts -eventlog phases.hs -o phases >build.log 2>&1) \
  || { cat "$WORK/build-phases-O1/build.log" >&2; die "compiling phases.hs -O1 failed"; }

# markers again without profiling, for the nonmoving collector, which a
# profiled GHC 9.0 program refuses ("doesn't support profiling").
mkdir -p "$WORK/build-markers-np"
cp "$HERE/markers.hs" "$WORK/build-markers-np/"
(cd "$WORK/build-markers-np" &&
  "$GHC" -O0 -rtsopts -eventlog -threaded markers.hs -o markers >build.log 2>&1) \
  || { cat "$WORK/build-markers-np/build.log" >&2; die "compiling markers.hs without profiling failed"; }

mkdir -p "$WORK/build-tools"
cp "$HERE/tools/EventCounts.hs" "$WORK/build-tools/"
(cd "$WORK/build-tools" &&
  "$GHC" -O -package ghc-events EventCounts.hs -o event-counts >build.log 2>&1) \
  || { cat "$WORK/build-tools/build.log" >&2; die "compiling tools/EventCounts.hs failed"; }
COUNTS="$WORK/build-tools/event-counts"

# ------------------------------------------------------------------ run ----
# counts_of FILE.eventlog OUT.counts: the ghc-events oracle.
counts_of() {
  "$COUNTS" "$1" >"$2.tmp" || die "ghc-events could not read $1"
  mv "$2.tmp" "$2"
}

# tag_count COUNTSFILE TAG: how many events of TAG (0 if none).
tag_count() { awk -v t="$2" '$1 == t { n = $2 } END { print n + 0 }' "$1"; }

# heap_run PROG MODE RTSFLAGS...: one heap-profiled run, outputs PROG-MODE.*
heap_run() {
  local prog=$1 mode=$2; shift 2
  local name="$prog-$mode" dir="$WORK/run-$prog-$mode"
  mkdir -p "$dir"
  echo "run: ./$prog +RTS -$mode $* -s$name.stat -RTS"
  cp "$WORK/build-$prog/$prog" "$dir/"   # so argv[0] is ./PROG in the outputs
  (cd "$dir" && "./$prog" +RTS "-$mode" "$@" "-s$name.stat" -RTS >stdout.txt 2>stderr.txt) \
    || { cat "$dir/stderr.txt" >&2; die "$name: the program failed"; }
  [[ -s "$dir/$prog.eventlog" ]] || die "$name: no $prog.eventlog written"
  [[ -s "$dir/$prog.hp" ]] || die "$name: no $prog.hp written"
  [[ -s "$dir/$name.stat" ]] || die "$name: no $name.stat written"
  local samples
  samples=$(grep -c '^BEGIN_SAMPLE' "$dir/$prog.hp" || true)
  # the runtime always writes an empty first and an empty last sample
  (( samples >= 5 )) || die "$name: only $samples samples in $prog.hp"
  # hp2ps must accept the .hp (output thrown away)
  mkdir -p "$dir/ps"
  cp "$dir/$prog.hp" "$dir/ps/$name.hp"
  (cd "$dir/ps" && "$HP2PS" -c "$name.hp" >/dev/null 2>&1) || die "$name: hp2ps -c rejected $prog.hp"
  counts_of "$dir/$prog.eventlog" "$dir/$name.counts"
  local begins
  begins=$(tag_count "$dir/$name.counts" 162)
  if [[ $mode == hb ]]; then begins=$(tag_count "$dir/$name.counts" 166); fi
  (( begins >= 3 )) || die "$name: only $begins heap samples in $prog.eventlog"
  cp "$dir/$prog.eventlog" "$STAGE/$name.eventlog"
  cp "$dir/$prog.hp" "$STAGE/$name.hp"
  cp "$dir/$name.stat" "$STAGE/$name.stat"
  cp "$dir/$name.counts" "$STAGE/$name.counts"
}

# time_run PROG: a time-profiled run (-p), outputs PROG-p.*
time_run() {
  local prog=$1 name="$1-p" dir="$WORK/run-$1-p"
  mkdir -p "$dir"
  echo "run: ./$prog +RTS -p -l -s$name.stat -RTS"
  cp "$WORK/build-$prog/$prog" "$dir/"
  (cd "$dir" && "./$prog" +RTS -p -l "-s$name.stat" -RTS >stdout.txt 2>stderr.txt) \
    || { cat "$dir/stderr.txt" >&2; die "$name: the program failed"; }
  [[ -s "$dir/$prog.eventlog" ]] || die "$name: no $prog.eventlog written"
  [[ -s "$dir/$prog.prof" ]] || die "$name: no $prog.prof written"
  [[ -s "$dir/$name.stat" ]] || die "$name: no $name.stat written"
  counts_of "$dir/$prog.eventlog" "$dir/$name.counts"
  (( $(tag_count "$dir/$name.counts" 167) >= 1 )) || die "$name: no PROF_SAMPLE_COST_CENTRE events"
  cp "$dir/$prog.eventlog" "$STAGE/$name.eventlog"
  cp "$dir/$prog.prof" "$STAGE/$name.prof"
  cp "$dir/$name.stat" "$STAGE/$name.stat"
  cp "$dir/$name.counts" "$STAGE/$name.counts"
}

# leak: every breakdown. -i is in mutator CPU seconds. -hb stays at -i0.02:
# GHC 9.0.2's biographical profiler segfaults (in heapCensus/freeHashTable)
# once a run needs more than about 32 censuses.
for mode in hc hd hy hm hr hT; do
  heap_run leak "$mode" -l -L200 -i0.01
done
heap_run leak hb -l -L200 -i0.02

# markers: threaded, two capabilities.
for mode in hc hT; do
  heap_run markers "$mode" -N2 -l -L200 -i0.01
done

# manycc: many cost centres.
for mode in hc hy; do
  heap_run manycc "$mode" -l -L200 -i0.01
done

time_run manycc
time_run leak

# gc_run NAME BUILDDIR PROG RTSFLAGS...: a run with GC events and no heap
# profile, outputs NAME.eventlog, NAME.stat and NAME.counts.
gc_run() {
  local name=$1 build=$2 prog=$3; shift 3
  local dir="$WORK/run-$name"
  mkdir -p "$dir"
  echo "run: ./$prog +RTS $* -s$name.stat -RTS ($build)"
  cp "$WORK/$build/$prog" "$dir/"
  (cd "$dir" && "./$prog" +RTS "$@" "-s$name.stat" -RTS >stdout.txt 2>stderr.txt) \
    || { cat "$dir/stderr.txt" >&2; die "$name: the program failed"; }
  [[ -s "$dir/$prog.eventlog" && -s "$dir/$name.stat" ]] || die "$name: no eventlog or .stat written"
  grep -q ' syncs, ' "$dir/$name.stat" || die "$name: no nonmoving syncs line in $name.stat"
  counts_of "$dir/$prog.eventlog" "$dir/$name.counts"
  cp "$dir/$prog.eventlog" "$STAGE/$name.eventlog"
  cp "$dir/$name.stat" "$STAGE/$name.stat"
  cp "$dir/$name.counts" "$STAGE/$name.counts"
}

# the nonmoving collector on two capabilities: its concurrent mark and
# sync events, and the "Gen 1 syncs" line of +RTS -s
gc_run markers-nonmoving build-markers-np markers -N2 --nonmoving-gc -l

# diff_run NAME BUILDDIR N MODE RTSFLAGS...: a run of phases with its input
# (N words, lazy or strict) for `heapscope diff`; outputs NAME.eventlog and
# NAME.hp, and NAME.counts (the ghc-events oracle every sample log has);
# no .stat: diff's tests check against heapscope's own CSV.
diff_run() {
  local name=$1 build=$2 n=$3 mode=$4; shift 4
  local dir="$WORK/run-$name"
  mkdir -p "$dir"
  echo "run: ./phases $n $mode +RTS $* -RTS ($build)"
  cp "$WORK/$build/phases" "$dir/"
  (cd "$dir" && ./phases "$n" "$mode" +RTS "$@" -RTS >stdout.txt 2>stderr.txt) \
    || { cat "$dir/stderr.txt" >&2; die "$name: the program failed"; }
  [[ -s "$dir/phases.eventlog" && -s "$dir/phases.hp" ]] || die "$name: no eventlog or .hp written"
  (( $(grep -c '^BEGIN_SAMPLE' "$dir/phases.hp") >= 5 )) || die "$name: too few samples"
  mkdir -p "$dir/ps"
  cp "$dir/phases.hp" "$dir/ps/$name.hp"
  (cd "$dir/ps" && "$HP2PS" -c "$name.hp" >/dev/null 2>&1) || die "$name: hp2ps -c rejected phases.hp"
  counts_of "$dir/phases.eventlog" "$dir/$name.counts"  # ghc-events must read it
  cp "$dir/phases.eventlog" "$STAGE/$name.eventlog"
  cp "$dir/phases.hp" "$STAGE/$name.hp"
  cp "$dir/$name.counts" "$STAGE/$name.counts"
}

# phases: the same program with two inputs (before: lazy, after: strict),
# and one input under two builds (-hd, -O0 and -O1).
diff_run phases-lazy-hc build-phases 30000 lazy -hc -l -L200 -i0.01
diff_run phases-strict-hc build-phases 30000 strict -hc -l -L200 -i0.01
diff_run phases-O0-hd build-phases 30000 lazy -hd -l -L200 -i0.01
diff_run phases-O1-hd build-phases-O1 30000 lazy -hd -l -L200 -i0.01

# ------------------------------------------------------------- manifest ----
{
  echo "# generated by regen.sh; do not edit"
  echo "ghc: $("$GHC" --version)"
  echo "ghc-events: $("$GHC_PKG" field ghc-events version 2>/dev/null | awk '{print $2}' | head -n1)"
  echo "# file bytes heap_samples(BEGIN_SAMPLE lines in the .hp)"
  for f in "$STAGE"/*.eventlog "$STAGE"/*.hp "$STAGE"/*.prof; do
    [[ -e $f ]] || continue
    b=$(basename "$f")
    if [[ $f == *.hp ]]; then
      echo "$b $(wc -c <"$f") $(grep -c '^BEGIN_SAMPLE' "$f")"
    else
      echo "$b $(wc -c <"$f") -"
    fi
  done
} >"$STAGE/MANIFEST"

cp "$STAGE"/* "$OUT"/

# nothing but outputs in OUT
for junk in "$OUT"/*.hi "$OUT"/*.o "$OUT"/*.dyn_hi "$OUT"/*.dyn_o "$OUT"/*.ps \
            "$OUT"/leak "$OUT"/markers "$OUT"/manycc "$OUT"/phases "$OUT"/tools/*.hi "$OUT"/tools/*.o; do
  [[ -e $junk ]] && die "build product left in $OUT: $junk"
done
echo "regen.sh: done, outputs in $OUT"
