#!/usr/bin/env bash
# Checks libheapscope's ABI (docs/ARCHITECTURE.md, "The ABI"): the
# library exports exactly the functions its public headers declare HS_API,
# each in a version node of src/heapscope.map, and nothing else; and each
# such declaration has a comment right above it, or follows another
# declaration that one comment opens (the headers are the manual).
#
# Usage: scripts/check-abi.sh LIBRARY.so    (run by meson test 'check-abi')
set -euo pipefail
so=${1:?usage: $0 LIBRARY.so}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-abi.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# What the headers declare: the name before the first '(' after HS_API,
# over as many lines as the declaration takes.
awk '
    /^HS_API/ { decl = ""; on = 1 }
    on { decl = decl " " $0
         if (index(decl, "(")) {
             sub(/\(.*/, "", decl); n = split(decl, w, /[ *]+/)
             print w[n]; on = 0 } }
' "$src"/include/heapscope/*.h | sort -u >"$tmp/declared"

# What the library exports, with the version node of each.
objdump -T "$so" | awk '$2 == "g" && $4 != "*UND*" && $NF ~ /^hs_/ {print $NF, $(NF-1)}' |
    sort -u >"$tmp/exported-with-node"
cut -d' ' -f1 "$tmp/exported-with-node" | sort -u >"$tmp/exported"
# Anything the library exports that is not hs_* (a missing version script)
objdump -T "$so" | awk '$2 == "g" && $4 != "*UND*" && $NF !~ /^hs_/ && $NF !~ /^HEAPSCOPE_/ {print $NF}' >"$tmp/stray"

bad=0
undocumented=$(awk 'FNR == 1 {prev = ""}
    /^HS_API/ && prev !~ /\*\/[ \t]*$/ && prev !~ /;[ \t]*$/ {
        print "  " FILENAME ":" FNR ": " $0 }
    {prev = $0}' "$src"/include/heapscope/*.h)
if [ -n "$undocumented" ]; then
    echo "declared HS_API with no comment above it:"; echo "$undocumented"; bad=1
fi
if [ -s "$tmp/stray" ]; then
    echo "exported but not hs_*: $(tr '\n' ' ' <"$tmp/stray")"; bad=1
fi
unversioned=$(awk '$2 !~ /^HEAPSCOPE_/ {print $1}' "$tmp/exported-with-node")
if [ -n "$unversioned" ]; then
    echo "exported without a HEAPSCOPE_ version node: $unversioned"; bad=1
fi
extra=$(comm -13 "$tmp/declared" "$tmp/exported")
missing=$(comm -23 "$tmp/declared" "$tmp/exported")
if [ -n "$extra" ]; then
    echo "exported but declared HS_API in no public header:"; echo "$extra" | sed 's/^/  /'; bad=1
fi
if [ -n "$missing" ]; then
    echo "declared HS_API but not exported:"; echo "$missing" | sed 's/^/  /'; bad=1
fi
if [ "$bad" -ne 0 ]; then
    echo "check-abi: the exported symbols and the public headers disagree"
    exit 1
fi
echo "check-abi: $(wc -l <"$tmp/exported") functions exported, each declared HS_API and versioned"
