#!/usr/bin/env bash
# Installs a configured build into a temporary root and builds a program
# against it the way a user would: through heapscope.pc alone, with no
# other .pc file on the search path (so a cairo or pango requirement in
# heapscope.pc would fail here, as it did for users without their -dev
# packages). Checks that the library of a -Dcharts=disabled build needs
# neither cairo nor pango. Checks that the program, the library, headers,
# heapscope.pc, the man pages (where scdoc built them) and the bash, zsh and
# fish completion land under the prefix's folders, and that the installed
# program runs. Usage: scripts/check-install.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
root=$(mktemp -d "${TMPDIR:-/tmp}/heapscope-install.XXXXXX")
trap 'rm -rf "$root"' EXIT

DESTDIR=$root meson install -C "$build" --quiet >/dev/null
# opt NAME: a directory option of the build (prefix, bindir, ...).
opt() {
    meson introspect "$build" --buildoptions | python3 -c '
import json, sys
print([o["value"] for o in json.load(sys.stdin) if o["name"] == sys.argv[1]][0])' "$1"
}
prefix=$(opt prefix)
at() { # DIR_OPTION: where that folder is in the temporary root
    local d
    d=$(opt "$1")
    [[ $d == /* ]] || d=$prefix/$d
    echo "$root$d"
}
datadir=$(at datadir)
want=("$(at bindir)/heapscope" "$(at libdir)/libheapscope.so.0"
      "$(at libdir)/libheapscope.so" "$(at libdir)/pkgconfig/heapscope.pc"
      "$(at includedir)/heapscope/heapscope.h"
      "$(at includedir)/heapscope/version.h"
      "$datadir/bash-completion/completions/heapscope"
      "$datadir/zsh/vendor-completions/_heapscope"
      "$datadir/fish/vendor_completions.d/heapscope.fish")
if compgen -G "$build/docs/man/*.1" >/dev/null; then
    for page in "$build"/docs/man/*.1; do
        want+=("$(at mandir)/man1/$(basename "$page")")
    done
    [[ -e $build/docs/man/heapscope-report.1 ]] ||
        { echo "FAIL: no heapscope-report.1 built"; exit 1; }
fi
for f in "${want[@]}"; do
    [[ -e $f ]] || { echo "FAIL: not installed: ${f#"$root"}"; exit 1; }
done
echo "installed under $prefix: ${#want[@]} files checked"
LD_LIBRARY_PATH=$(at libdir) "$(at bindir)/heapscope" --version >/dev/null ||
    { echo "FAIL: the installed heapscope does not run"; exit 1; }

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
