#!/usr/bin/env bash
# heapscope's one entry point for people and CI on a fresh Debian machine.
#
#   scripts/dev.sh demo   install what is missing, build, and run the main
#                         job (heapscope report) on a bundled sample
#   scripts/dev.sh test   install what is missing, build, and run every test
#   scripts/dev.sh build  install what is missing and build
#   scripts/dev.sh install
#                         install what is missing, build, and install heapscope
#                         (program, library, headers, man pages, completion)
#                         under PREFIX (default /usr/local; DESTDIR honoured)
#   scripts/dev.sh deps [PACKAGE...]
#                         install what `test` needs and the Debian packages
#                         named, in one apt transaction (CI's first step)
#
# Installing needs root (apt-get); packages already present are not
# reinstalled. dpkg skips its fsync per file (--force-unsafe-io): a
# machine that loses power mid-install installs again. The build goes to
# build/ (override with BUILD_DIR).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
BUILD_DIR=${BUILD_DIR:-build}

# What the build needs, and what the tests use to check outputs: hp2ps
# (package ghc) reads our .hp files, xmllint parses our SVGs, pdfinfo
# counts PDF pages, rsvg-convert renders SVG, a CJK font shows Japanese
# labels in the charts; chromium, node and npm run the report page's
# browser tests (playwright-core, from npm into tests/browser/node_modules);
# promtool (package prometheus) checks /metrics; zsh and fish parse their
# completion files.
build_pkgs=(gcc pkg-config meson ninja-build libcairo2-dev libpango1.0-dev
            libcsv-dev libcunit1-dev libmicrohttpd-dev zlib1g-dev libisal-dev
            scdoc)
test_pkgs=(libxml2-utils poppler-utils librsvg2-bin fonts-noto-cjk
           fonts-dejavu-core ghc ghc-prof curl chromium prometheus zsh fish)
# node and npm by command, not by package: a machine may have Node.js from
# another packaging (nodesource's nodejs carries npm and conflicts with
# Debian's npm package), which serves as well.
node_pkgs() {
    command -v node >/dev/null || echo nodejs
    command -v npm >/dev/null || echo npm
}

install_missing() {
    local missing=()
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
            missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "dev.sh: installing ${missing[*]}" >&2
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    # Wait for another apt (unattended upgrades, a second shell) to finish
    # rather than fail on its lock.
    $sudo apt-get update -qq -o DPkg::Lock::Timeout=600
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
        -o DPkg::Lock::Timeout=600 -o DPkg::Options::=--force-unsafe-io \
        --no-install-recommends "${missing[@]}" >/dev/null
}

# The browser tests' npm packages (playwright-core; speedscope and ajv for
# the speedscope output), pinned in tests/browser/package.json and its lock
# file, into tests/browser/node_modules (gitignored); the tests skip without
# them. Installs when any package the file lists is missing or at another
# version, so a package added later reaches an existing checkout too.
browser_deps() {
    (cd tests/browser && node -e '
        const deps = require("./package.json").dependencies;
        for (const [name, want] of Object.entries(deps)) {
            let have;
            try {
                have = require("./node_modules/" + name + "/package.json").version;
            } catch (e) {}
            if (have !== want) process.exit(1);
        }') 2>/dev/null && return 0
    (cd tests/browser && npm install --no-audit --no-fund --silent) ||
        echo "dev.sh: npm install failed: the browser tests will be skipped" >&2
}

# What `test` needs, and the packages named.
install_test_deps() { # [PACKAGE...]
    # shellcheck disable=SC2046 # node_pkgs prints words
    install_missing "${build_pkgs[@]}" "${test_pkgs[@]}" $(node_pkgs) "$@"
}
build() { # [MESON OPTIONS...]
    if [ ! -d "$BUILD_DIR" ]; then
        meson setup "$BUILD_DIR" "$@" >/dev/null
    else
        meson setup --reconfigure "$BUILD_DIR" "$@" >/dev/null
    fi
    ninja -C "$BUILD_DIR"
}

# meson install into PREFIX (as root unless DESTDIR or PREFIX is writable),
# then refresh the dynamic linker's cache for the library.
install_build() {
    local prefix=${PREFIX:-/usr/local} sudo=""
    build -Dprefix="$prefix"
    if [ "$(id -u)" -ne 0 ] && [ -z "${DESTDIR:-}" ] && [ ! -w "$prefix" ]; then
        sudo=sudo
    fi
    $sudo env ${DESTDIR:+DESTDIR="$DESTDIR"} meson install -C "$BUILD_DIR" --no-rebuild
    if [ -z "${DESTDIR:-}" ] && command -v ldconfig >/dev/null; then
        $sudo ldconfig || true
    fi
    echo "dev.sh: installed under ${DESTDIR:-}$prefix: run 'heapscope --help', 'man heapscope'"
}

case "${1:-}" in
demo)
    install_missing "${build_pkgs[@]}"
    build
    out=${OUT_DIR:-report}
    "$BUILD_DIR/heapscope" report samples/leak-hc.eventlog -d "$out"
    ;;
test)
    install_test_deps
    browser_deps
    build
    meson test -C "$BUILD_DIR" --print-errorlogs
    ;;
build)
    install_missing "${build_pkgs[@]}"
    build
    ;;
deps)
    shift
    install_test_deps "$@"
    ;;
install)
    install_missing "${build_pkgs[@]}"
    install_build
    ;;
*)
    sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
