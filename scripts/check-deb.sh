#!/usr/bin/env bash
# Builds the Debian packages (debian/) in a clean clone of the committed
# tree, as a packager would: dpkg-buildpackage -b in a temporary folder,
# lintian (no error allowed; warnings are printed), then installs them
# with apt-get and uses the installed program, library and files as a
# user would: /usr/bin/heapscope report on a sample, man pages, the bash
# completion, heapscope.pc and the library from a small program. Installs
# the packaging tools it needs (debhelper, dpkg-dev, lintian, scdoc),
# waiting for apt's lock. The packages are removed at the end unless
# KEEP_PACKAGES=1. Usage: scripts/check-deb.sh
# scripts/check-deb.sh --packages prints the tools' package names (.ci/run
# installs them with everything else, in one go).
set -euo pipefail
tools=(build-essential debhelper dpkg-dev lintian scdoc)
if [ "${1:-}" = --packages ]; then
    echo "${tools[@]}"
    exit 0
fi
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/heapscope-deb.XXXXXX")
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
pkgs=(heapscope libheapscope0 libheapscope-dev)
cleanup() {
    if [ "${KEEP_PACKAGES:-0}" != 1 ] && dpkg-query -W heapscope >/dev/null 2>&1; then
        DEBIAN_FRONTEND=noninteractive $sudo apt-get remove -y -qq \
            -o DPkg::Lock::Timeout=600 "${pkgs[@]}" >/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

apt_install() { # ARGS...: apt-get install, waiting for another apt
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
        -o DPkg::Lock::Timeout=600 --no-install-recommends "$@" >/dev/null
}
need=()
for p in "${tools[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
        need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
    echo "check-deb: installing ${need[*]}"
    $sudo apt-get update -qq -o DPkg::Lock::Timeout=600
    apt_install "${need[@]}"
fi

# The build: the tests ran in the tree already (nocheck: -Dtests=false),
# and no debug-symbol packages are needed here.
git clone -q "$src" "$work/heapscope"
echo "check-deb: dpkg-buildpackage -b in $work/heapscope"
if ! (cd "$work/heapscope" &&
      DEB_BUILD_OPTIONS="nocheck noautodbgsym parallel=${JOBS:-2}" DEB_BUILD_PROFILES=nocheck \
      dpkg-buildpackage -b -us -uc) >"$work/build.log" 2>&1; then
    tail -n 40 "$work/build.log"
    fail "dpkg-buildpackage failed"
fi
changes=$(ls "$work"/heapscope_*.changes)
echo "check-deb: lintian"
lint_rc=0
lint=$(lintian --fail-on error "$changes" 2>&1) || lint_rc=$?
printf '%s\n' "$lint" | grep -v 'running with root privileges' || true
[ "$lint_rc" -eq 0 ] || fail "lintian reports errors (exit $lint_rc)"

debs=()
for p in "${pkgs[@]}"; do debs+=("$(ls "$work/${p}"_*.deb)"); done
apt_install "${debs[@]}"

# The installed program, as a user runs it.
ver=$(/usr/bin/heapscope --version) || fail "/usr/bin/heapscope --version"
echo "check-deb: installed $ver"
out=$work/out
/usr/bin/heapscope report "$src/samples/leak-hc.eventlog" -d "$out" >"$work/report.txt" ||
    fail "/usr/bin/heapscope report exited $?"
for f in leak-hc.svg leak-hc.pdf leak-hc.hp leak-hc.csv leak-hc.folded leak-hc.html; do
    [ -s "$out/$f" ] || fail "report did not write $f"
done
grep -q '^leak-hc: peak heap ' "$work/report.txt" || fail "no summary line: $(cat "$work/report.txt")"
grep -q '^BEGIN_SAMPLE' "$out/leak-hc.hp" || fail "leak-hc.hp holds no sample"
grep -q '</html>' "$out/leak-hc.html" || fail "leak-hc.html is not whole"

# Man pages, completion, the library through heapscope.pc.
for page in heapscope heapscope-report heapscope-watch; do
    [ -f "/usr/share/man/man1/$page.1.gz" ] || fail "no man page $page(1)"
done
comp=/usr/share/bash-completion/completions/heapscope
[ -f "$comp" ] || fail "no bash completion"
got=$(bash -c '. "$1"; COMP_WORDS=(heapscope rep); COMP_CWORD=1; _heapscope
               echo "${COMPREPLY[*]}"' _ "$comp")
[ "$got" = report ] || fail "bash completion of 'heapscope rep' gave '$got'"
[ -f /usr/share/zsh/vendor-completions/_heapscope ] || fail "no zsh completion"
[ -f /usr/share/fish/vendor_completions.d/heapscope.fish ] || fail "no fish completion"
cc -std=c11 -Wall -Werror "$src/tests/install/consumer.c" \
    $(pkg-config --cflags --libs heapscope) -o "$work/consumer" ||
    fail "cannot build against the installed heapscope.pc"
"$work/consumer" "$src/samples/leak-hc.eventlog" | grep -q ' samples, ' ||
    fail "the consumer did not read the sample through libheapscope.so.0"
echo "check-deb: packages built, lintian clean of errors, installed and used: passed"
