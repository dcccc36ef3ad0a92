#!/usr/bin/env bash
# Installs the Debian packages into a clean Debian 12 (debootstrap
# minbase, no build tools) and uses them as a new user would: the man
# page, tab completion in bash, a report of a bundled sample. Run by hand
# (root, network, a few minutes; not part of CI, whose machine already
# has the build's tools):
#
#   scripts/check-deb-chroot.sh DEBS_DIR [ROOT]
#
# DEBS_DIR holds heapscope_*.deb and libheapscope0_*.deb (dpkg-buildpackage
# -b -us -uc in a clone writes them beside the clone); ROOT (default
# /tmp/heapscope-deb12) is made with debootstrap when it does not exist.
set -euo pipefail
debs=$(cd "${1:?usage: $0 DEBS_DIR [ROOT]}" && pwd)
root=${2:-/tmp/heapscope-deb12}
src=$(cd "$(dirname "$0")/.." && pwd)
[ "$(id -u)" -eq 0 ] || { echo "check-deb-chroot: needs root (chroot)" >&2; exit 2; }
if [ ! -x "$root/bin/bash" ]; then
    command -v debootstrap >/dev/null ||
        apt-get install -y -qq -o DPkg::Lock::Timeout=600 debootstrap >/dev/null
    debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >/dev/null
fi
cp "$debs"/heapscope_*.deb "$debs"/libheapscope0_*.deb "$root/tmp/"
cp "$src/samples/leak-hc.eventlog" "$root/tmp/"
mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
trap 'umount "$root/proc" 2>/dev/null || true' EXIT
chroot "$root" /bin/bash -s <<'IN'
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
fail() { echo "FAIL: $*" >&2; exit 1; }
apt-get update -qq
apt-get install -y -qq man-db bash-completion /tmp/heapscope_*.deb \
    /tmp/libheapscope0_*.deb >/dev/null 2>&1
MANPAGER=cat man heapscope-report 2>/dev/null | grep -q "heapscope report" ||
    fail "man heapscope-report"
echo "ok: man heapscope-report"
set +eu  # bash-completion is written for interactive shells
source /usr/share/bash-completion/bash_completion
_completion_loader heapscope
set -e
fn=$(complete -p heapscope | sed -E 's/.*-F ([^ ]+).*/\1/')
COMP_WORDS=(heapscope rep); COMP_CWORD=1
"$fn" heapscope rep heapscope
[ "${COMPREPLY[*]}" = report ] || fail "heapscope rep<TAB> gave '${COMPREPLY[*]}'"
echo "ok: heapscope rep<TAB> -> report"
COMP_WORDS=(heapscope report --so); COMP_CWORD=2
"$fn" heapscope --so report
[[ " ${COMPREPLY[*]} " == *" --sort "* ]] || fail "report --so<TAB> gave '${COMPREPLY[*]}'"
echo "ok: heapscope report --so<TAB> -> ${COMPREPLY[*]}"
cd /tmp && rm -rf out && heapscope report -d out leak-hc.eventlog >/dev/null
[ -s out/leak-hc.html ] || fail "report wrote no page"
echo "ok: heapscope report -d out leak-hc.eventlog"
IN
echo "check-deb-chroot: the packages work on a clean Debian 12"
