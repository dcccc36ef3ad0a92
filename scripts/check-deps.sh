#!/usr/bin/env bash
# Checks the dependency rule between the parts of heapscope (see
# docs/ARCHITECTURE.md): it reads every #include of a project header under
# src/ and include/heapscope/ and fails on an edge the rule forbids.
#
#   common <- read <- census <- {summary, render}; census, summary <- load
#   {load, summary, render} <- {diff, live} <- cli
#
# A part may include its own headers and those of the parts it depends
# on. Renderers see census tables, never events: render may not include
# read. The census is the model only: loading an input into it (the
# formats told apart, each reader connected to its builder, Mono's
# included) is load's, and the census may not use load. The command line
# (src/cli) uses only the public headers.
#
# The same rule holds for calls: with --objects, it reads the symbols of
# the library's object files (nm) and fails where one part calls a
# function or uses data that a part it may not use defines, whatever the
# #include lines say (a header may bring in another part's declarations).
#
# Usage: scripts/check-deps.sh [ROOT]      check the tree at ROOT (default:
#                                          this script's repository)
#        scripts/check-deps.sh --objects DIR  check the objects in DIR, named
#                                          as meson names them (src_PART_FILE.c.o)
#        scripts/check-deps.sh --self-test  check that a forbidden edge and
#                                          an allowed one are told apart, by
#                                          #include and by symbol
set -uo pipefail

declare -A allow=(
    [common]="common"
    [read]="common read"
    [census]="common read census"
    [load]="common read census summary load"
    [summary]="common read census summary"
    [render]="common census render"
    [diff]="common read census load summary render diff"
    [live]="common read census load summary render live"
    [all]="common read census load summary render diff live"   # heapscope.h, for the CLI
)

# The part a public header belongs to.
public_part() {
    case $1 in
        common.h|version.h|sink.h) echo common ;;
        events.h|reader.h|mlpd.h|mlpd_events.h) echo read ;;
        census.h|mlpd_census.h|ticky.h) echo census ;;
        load.h) echo load ;;
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

# Parts whose files call each other in layers, never in a circle (the
# census: the model's files; load: the adapters), checked with --objects.
layered="census load"

# nm_lines D|U N: nm -A's lines "PATH.c.o:FIELDS" as "D|U PART SYMBOL
# FILE", the symbol the N-th field (lines of another field count skipped).
nm_lines() {
    awk -v k="$1" -v n="$2" '{
        i = index($0, ".c.o:")
        b = substr($0, 1, i + 3); sub(/.*\//, "", b)
        if (split(substr($0, i + 5), w, " ") != n) next
        p = b; sub(/^src_/, "", p); sub(/_.*/, "", p)
        print k, p, w[n], b
    }'
}

# check_objects DIR: prints each call from one part into a part the rule
# does not allow it, and each circle of calls between the files of a
# layered part; returns 1 when there is one.
check_objects() {
    local dir=$1 o b p rules k syms part loop bad=0
    local objs=("$dir"/src_*.c.o)
    [ -e "${objs[0]}" ] || { echo "no objects named src_PART_FILE.c.o in $dir"; return 1; }
    rules=$(for k in "${!allow[@]}"; do echo "$k:${allow[$k]}"; done)
    # "D|U PART SYMBOL FILE" lines: two nm runs over all the objects (-A
    # puts "PATH.c.o:" before each line), not two per object.
    syms=$({ nm -A -g --defined-only "${objs[@]}" | nm_lines D 3
             nm -A -u "${objs[@]}" | nm_lines U 2; })
    for part in $layered; do
        # tsort names the files of one circle when the calls make one
        loop=$(awk -v p="$part" '
            $2 != p { next }
            $1 == "D" { owner[$3] = $4; next }
            { uses[++nu] = $4 " " $3 }
            END {
                for (i = 1; i <= nu; i++) {
                    split(uses[i], u, " ")
                    t = owner[u[2]]
                    if (t != "" && t != u[1]) print u[1], t
                }
            }' <<<"$syms" | tsort 2>&1 >/dev/null |
            sed -n 's/^tsort: \(src_.*\)/\1/p' | tr '\n' ' ')
        if [[ -n $loop ]]; then
            echo "forbidden: the files of $part call each other in a circle: $loop"
            bad=1
        fi
    done
    awk -v rules="$rules" '
        BEGIN {
            n = split(rules, r, "\n")
            for (i = 1; i <= n; i++) {
                split(r[i], kv, ":")
                m = split(kv[2], ps, " ")
                for (j = 1; j <= m; j++) ok[kv[1] " " ps[j]] = 1
            }
        }
        $1 == "D" { owner[$3] = $2; next }
        { uses[++nu] = $0 }
        END {
            bad = 0
            for (i = 1; i <= nu; i++) {
                split(uses[i], u, " ")
                t = owner[u[3]]
                if (t == "" || ((u[2] " " t) in ok)) continue
                print "forbidden: " u[4] " (" u[2] ") uses " u[3] " (defined in " t "): " u[2] " may use only parts it may include"
                bad = 1
            }
            exit bad
        }' <<<"$syms" || bad=1
    return $bad
}

self_test_objects() {
    local t=$1 cc=${CC:-cc}
    command -v "$cc" >/dev/null || { echo "self-test: no C compiler ($cc) for the symbol check"; return 1; }
    mkdir -p "$t/obj"
    printf 'int hs_read_thing(void) { return 1; }\n' >"$t/read.c"
    printf 'int hs_read_thing(void);\nint hs_census_thing(void) { return hs_read_thing(); }\n' >"$t/census.c"
    printf 'int hs_read_thing(void);\nint hs_render_thing(void) { return hs_read_thing(); }\n' >"$t/render.c"
    printf 'int hs_census_thing(void);\nint hs_load_thing(void) { return hs_census_thing(); }\n' >"$t/load.c"
    printf 'int hs_load_thing(void);\nint hs_census_other(void) { return hs_load_thing(); }\n' >"$t/census2.c"
    "$cc" -c -o "$t/obj/src_read_a.c.o" "$t/read.c" &&
    "$cc" -c -o "$t/obj/src_census_a.c.o" "$t/census.c" &&
    "$cc" -c -o "$t/obj/src_load_a.c.o" "$t/load.c" || return 1
    check_objects "$t/obj" >/dev/null ||
        { echo "self-test: allowed calls (census -> read, load -> census) were refused"; return 1; }
    "$cc" -c -o "$t/obj/src_census_b.c.o" "$t/census2.c" || return 1
    if check_objects "$t/obj" >/dev/null; then
        echo "self-test: a forbidden call (census -> load) passed"
        return 1
    fi
    rm -f "$t/obj/src_census_b.c.o"
    printf 'int hs_census_y(void);\nint hs_census_x(void) { return hs_census_y(); }\n' >"$t/cx.c"
    printf 'int hs_census_x(void);\nint hs_census_y(void) { return hs_census_x(); }\n' >"$t/cy.c"
    "$cc" -c -o "$t/obj/src_census_x.c.o" "$t/cx.c" &&
    "$cc" -c -o "$t/obj/src_census_y.c.o" "$t/cy.c" || return 1
    if check_objects "$t/obj" >/dev/null; then
        echo "self-test: two census files calling each other passed"
        return 1
    fi
    rm -f "$t/obj/src_census_x.c.o" "$t/obj/src_census_y.c.o"
    "$cc" -c -o "$t/obj/src_render_a.c.o" "$t/render.c" || return 1
    if check_objects "$t/obj" >/dev/null; then
        echo "self-test: a forbidden call (render -> read) passed"
        return 1
    fi
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
                'src/census/bad.c:#include "load/load_mlpd.h"' \
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
    self_test_objects "$t" || return 1
    echo "self-test passed: allowed edges pass, five forbidden includes, two forbidden calls and a circle of calls fail"
}

if [[ ${1:-} == --self-test ]]; then
    self_test
    exit
fi
if [[ ${1:-} == --objects ]]; then
    if check_objects "${2:?--objects needs a directory}"; then
        echo "check-deps: every call between the library's parts follows the rule"
        exit 0
    fi
    echo "check-deps: the dependency rule is broken by a call (docs/ARCHITECTURE.md)"
    exit 1
fi
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
if check "$root"; then
    echo "check-deps: every #include under src/ and include/ follows the rule"
else
    echo "check-deps: the dependency rule is broken (docs/ARCHITECTURE.md)"
    exit 1
fi
