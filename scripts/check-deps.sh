#!/usr/bin/env bash
# Checks the dependency rule between the parts of heapscope (see
# docs/ARCHITECTURE.md): it reads every #include of a project header under
# src/ and include/heapscope/ and fails on an edge the rule forbids.
#
#   common <- read <- census <- {summary, render} <- {diff, live} <- cli
#
# A part may include its own headers and those of the parts it depends
# on. Renderers see census tables, never events: render may not include
# read. The command line (src/cli) uses only the public headers.
#
# Usage: scripts/check-deps.sh [ROOT]      check the tree at ROOT (default:
#                                          this script's repository)
#        scripts/check-deps.sh --self-test  check that a forbidden edge and
#                                          an allowed one are told apart
set -uo pipefail

declare -A allow=(
    [common]="common"
    [read]="common read"
    [census]="common read census"
    [summary]="common read census summary"
    [render]="common census render"
    [diff]="common read census summary render diff"
    [live]="common read census summary render live"
    [all]="common read census summary render diff live"   # heapscope.h, for the CLI
)

# The part a public header belongs to.
public_part() {
    case $1 in
        common.h|version.h|sink.h) echo common ;;
        events.h|reader.h|mlpd.h) echo read ;;
        census.h|mlpd_census.h) echo census ;;
        summary.h) echo summary ;;
        render.h|page.h) echo render ;;
        diff.h) echo diff ;;
        live.h) echo live ;;
        heapscope.h) echo all ;;
        *) echo unknown ;;
    esac
}

# check ROOT: prints each forbidden edge; returns 1 when there is one.
check() {
    local root=$1 bad=0 file part inc target line
    while IFS= read -r hit; do
        file=${hit%%:*}
        rest=${hit#*:}
        line=${rest%%:*}
        inc=$(sed -E 's/^[^"<]*["<]([^">]*)[">].*/\1/' <<<"${rest#*:}")
        rel=${file#"$root"/}
        if [[ $rel == include/heapscope/* ]]; then
            part=$(public_part "$(basename "$rel")")
        else
            part=$(cut -d/ -f2 <<<"$rel")
        fi
        # What the include names: a public header, a part's internal
        # header (part/name.h), or a header beside the file.
        case $inc in
            heapscope/*) target=$(public_part "${inc#heapscope/}") ;;
            */*) target=${inc%%/*} ;;
            *) if [[ $rel == include/heapscope/* ]]; then
                   target=$(public_part "$inc")
               else
                   target=$part
               fi ;;
        esac
        local why=""
        if [[ $target == unknown ]]; then
            why="an unknown public header"
        elif [[ $part == cli ]]; then
            [[ $inc == heapscope/* || $inc != */* ]] ||
                why="the command line uses only the public headers"
        elif [[ $target == all ]]; then
            why="only the command line includes heapscope.h"
        elif [[ -z ${allow[$part]+x} ]]; then
            why="'$part' is not a part the rule knows (add it to the rule)"
        elif [[ " ${allow[$part]} " != *" $target "* ]]; then
            why="$part may include only: ${allow[$part]}"
        fi
        if [[ -n $why ]]; then
            echo "forbidden: $rel:$line includes \"$inc\" ($target): $why"
            bad=1
        fi
    done < <(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*("|<heapscope/)' \
                 --include='*.c' --include='*.h' \
                 "$root/src" "$root/include/heapscope" 2>/dev/null)
    return $bad
}

self_test() {
    local t
    t=$(mktemp -d "${TMPDIR:-/tmp}/check-deps.XXXXXX")
    trap 'rm -rf "$t"' RETURN
    mkdir -p "$t/src/render" "$t/src/census" "$t/src/cli" "$t/include/heapscope"
    printf '#include "common/internal.h"\n#include "census/census_build.h"\n' \
        >"$t/src/render/ok.c"
    printf '#include "heapscope/reader.h"\n' >"$t/src/census/ok.c"
    printf '#include <heapscope/heapscope.h>\n#include "cli.h"\n' >"$t/src/cli/ok.c"
    printf '#include "common.h"\n' >"$t/include/heapscope/census.h"
    check "$t" >/dev/null || { echo "self-test: an allowed tree was refused"; return 1; }
    local edge
    for edge in 'src/render/bad.c:#include "read/eventlog_internal.h"' \
                'src/census/bad.c:#include "heapscope/render.h"' \
                'src/cli/bad.c:#include "census/census_impl.h"' \
                'include/heapscope/census.h:#include "summary.h"'; do
        printf '%s\n' "${edge#*:}" >>"$t/${edge%%:*}"
        if check "$t" >/dev/null; then
            echo "self-test: the forbidden edge ${edge} passed"
            return 1
        fi
        # restore: drop the line again
        sed -i '$d' "$t/${edge%%:*}"
    done
    echo "self-test passed: allowed edges pass, four forbidden ones fail"
}

if [[ ${1:-} == --self-test ]]; then
    self_test
    exit
fi
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
if check "$root"; then
    echo "check-deps: every #include under src/ and include/ follows the rule"
else
    echo "check-deps: the dependency rule is broken (docs/ARCHITECTURE.md)"
    exit 1
fi
