#!/usr/bin/env bash
# Installs a configured build into a temporary root and builds a program
# against it the way a user would: through heapscope.pc alone, with no
# other .pc file on the search path (so a cairo or pango requirement in
# heapscope.pc would fail here, as it did for users without their -dev
# packages). Checks that the library of a -Dcharts=disabled build needs
# neither cairo nor pango. Usage: scripts/check-install.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
root=$(mktemp -d "${TMPDIR:-/tmp}/heapscope-install.XXXXXX")
trap 'rm -rf "$root"' EXIT

DESTDIR=$root meson install -C "$build" --quiet >/dev/null
pc=$(find "$root" -name heapscope.pc | head -n1)
[[ -n $pc ]] || { echo "FAIL: no heapscope.pc installed"; exit 1; }
libdir=$(dirname "$(dirname "$pc")")

# Only heapscope's own .pc is visible; the sysroot maps its paths into
# the temporary root.
export PKG_CONFIG_LIBDIR=$(dirname "$pc") PKG_CONFIG_PATH=
export PKG_CONFIG_SYSROOT_DIR=$root
req=$(pkg-config --print-requires-private heapscope)
[[ -z $req ]] || { echo "FAIL: heapscope.pc requires: $req"; exit 1; }
flags=$(pkg-config --cflags --libs heapscope) ||
    { echo "FAIL: pkg-config cannot resolve heapscope.pc"; exit 1; }
cc -std=c11 -Wall -Werror "$src/tests/install/consumer.c" $flags \
    -o "$root/consumer"
out=$(LD_LIBRARY_PATH=$libdir "$root/consumer" "$src/samples/leak-hc.eventlog")
echo "consumer: $out"
[[ $out == *" samples, "* ]] || { echo "FAIL: consumer printed '$out'"; exit 1; }

charts=$(meson introspect "$build" --buildoptions |
    python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"] == "charts"][0])')
so=$(find "$libdir" -name 'libheapscope.so*' -type f | head -n1)
if [[ $charts == disabled ]]; then
    if readelf -d "$so" | grep -Eq 'NEEDED.*(cairo|pango)'; then
        echo "FAIL: a -Dcharts=disabled library links cairo or pango"
        exit 1
    fi
    [[ $out == *"charts no" ]] || { echo "FAIL: charts reported available"; exit 1; }
fi
echo "install check passed (charts: $charts)"
