#!/bin/sh
# Times `heapscope info` (the whole census: shots, allocation sites, GC
# figures) and `heapscope events --count` (bare decoding) on a synthetic
# .mlpd of SIZE MB (default 200), against mprof-report's default reports on
# the same file in the same run: wall time, CPU time (user + system, what
# load on a shared machine changes least), MB/s of CPU time and peak RSS.
#
#     bench/mlpd_bench.sh [SIZE] [BUILD_DIR]
#
# The file is written to /tmp and removed at the end; nothing goes into the
# repository. Needs mprof-report (mono-utils) and GNU time.
set -eu
size=${1:-200}
build=${2:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/gen_mlpd" "$here/bench/gen_mlpd.c"
"$tmp/gen_mlpd" "$size" >"$tmp/big.mlpd"
bytes=$(stat -c %s "$tmp/big.mlpd")
gzip -1 -c "$tmp/big.mlpd" >"$tmp/big.mlpd.gz"
echo "file: $bytes bytes ($(stat -c %s "$tmp/big.mlpd.gz") gzip -1)"
cat "$tmp/big.mlpd" "$tmp/big.mlpd.gz" >/dev/null # into the page cache

measure() { # NAME COMMAND...
    name=$1
    shift
    /usr/bin/time -f "%e %U %S %M" -o "$tmp/t" "$@" >/dev/null 2>"$tmp/err" ||
        { echo "$name failed: $(head -c 300 "$tmp/err")"; return; }
    read -r secs user sys kb <"$tmp/t"
    awk -v n="$name" -v s="$secs" -v u="$user" -v y="$sys" -v k="$kb" \
        -v b="$bytes" 'BEGIN { c = u + y
        printf "%-34s %6.2f s wall %6.2f s CPU %7.1f MB/s %7.1f MiB peak RSS\n",
               n, s, c, (c > 0 ? b / c / 1e6 : 0), k / 1024 }'
}

hs=$here/$build/heapscope
measure "heapscope events --count" "$hs" events --count "$tmp/big.mlpd"
measure "heapscope info" "$hs" info "$tmp/big.mlpd"
measure "heapscope info (gzip)" "$hs" info "$tmp/big.mlpd.gz"
measure "heapscope folded --source alloc" "$hs" folded --source alloc "$tmp/big.mlpd"
measure "mprof-report (default reports)" mprof-report "$tmp/big.mlpd"
measure "mprof-report --reports=stats" mprof-report --reports=stats "$tmp/big.mlpd"
measure "mprof-report (gzip)" mprof-report "$tmp/big.mlpd.gz"
