#!/usr/bin/env bash
# cli_mlpd.sh: Mono log-profiler files (.mlpd) through the commands, against
# mprof-report's outputs of the same files (samples/mono/*.report and
# *.stats, written by samples/mono/regen.sh from the same runs):
#   - each heap shot's time, total bytes and object count;
#   - bytes and objects per class in every shot, and allocated bytes and
#     objects per class and per backtrace, where mprof-report named the
#     class; what mprof-report files under "unresolved class (nil)" (it
#     binds a vtable at first use) must be exactly what heapscope names
#     from vtable descriptions that came later in the file;
#   - events per event type (--reports=stats);
# then truncation, gzip, usage errors and bad input.
#
# Environment (set by meson test): HEAPSCOPE_BIN, HEAPSCOPE_SOURCE_DIR.
set -u

. "$(dirname "$0")/cli_common.sh"

MONO=$SAMPLES/mono
UNRES="unresolved class (nil)"
# mprof-report's other unnamed rows: "unresolved class 0x55..." for a
# vtable described in the file whose class was not (a cut file)

# mprof-report's heap shots as "SHOT<TAB>CLASS<TAB>BYTES<TAB>COUNT" lines,
# and the shot lines themselves as "SHOT<TAB>=total<TAB>BYTES<TAB>COUNT<TAB>SECS".
mprof_shots() {
  awk -F'\t' '
    /^\tHeap shot [0-9]+ at / {
      n = split($2, w, /[ :,]+/)
      shot = w[3]; secs = w[5]
      for (i = 1; i <= n; i++) {
        if (w[i] == "size") size = w[i + 1]
        if (w[i] == "count" && w[i - 1] == "object") objs = w[i + 1]
      }
      printf "%s\t=total\t%s\t%s\t%s\n", shot, size, objs, secs
      inshot = 1; next
    }
    /^[A-Z]/ { inshot = 0 }
    inshot && /^\t +[0-9]+ +[0-9]+ +[0-9]+ / {
      line = $2; sub(/^ +/, "", line)
      split(line, f, / +/)
      name = line; sub(/^[0-9]+ +[0-9]+ +[0-9]+ /, "", name)
      sub(/ \(bytes: [-+0-9]+, count: [-+0-9]+\)$/, "", name)
      printf "%s\t%s\t%s\t%s\n", shot, name, f[1], f[2]
    }' "$1"
}

# heapscope's csv (time_s,band,bytes,count) in the same form; shots numbered
# in time order as mprof-report lists them.
hs_shots() {
  "$BIN" csv "$1" | awk -F, '
    NR == 1 { next }
    {
      if ($1 != last) { shot++; last = $1; secs[shot - 1] = $1 }
      name = $0; sub(/^[^,]*,"/, "", name); sub(/",[0-9]+,[0-9]+$/, "", name)
      gsub(/""/, "\"", name)
      printf "%d\t%s\t%s\t%s\n", shot - 1, name, $(NF - 1), $NF
      tb[shot - 1] += $(NF - 1); tc[shot - 1] += $NF
    }
    END { for (s = 0; s < shot; s++)
            printf "%d\t=total\t%d\t%d\t%s\n", s, tb[s], tc[s], secs[s] }'
}

# Lines "KEY<TAB>BYTES<TAB>COUNT": what mprof-report named stays; the rest
# of heapscope's lines (classes mprof-report did not name) are summed under
# the key with the class replaced by "unresolved class (nil)", keyed by the
# first field (a shot) or by nothing. Sorted; mprof's side is summed too,
# all its "unresolved class ..." rows as one.
fold_unresolved() { # FILE-MPROF FILE-HS -> two files .m and .h
  awk -F'\t' -v u="$UNRES" -v out_m="$1.m" -v out_h="$2.h" '
    FILENAME == ARGV[1] { if ($2 ~ /^unresolved class /) $2 = u
                m[$1 "\t" $2] += $3; mc[$1 "\t" $2] += $4; named[$1 "\t" $2] = ($2 != u); next }
    {
      k = $1 "\t" $2
      if (!(k in named) || !named[k]) k = $1 "\t" u
      h[k] += $3; hc[k] += $4
    }
    END {
      for (k in m) printf "%s\t%d\t%d\n", k, m[k], mc[k] | "sort > " out_m
      for (k in h) printf "%s\t%d\t%d\n", k, h[k], hc[k] | "sort > " out_h
    }' "$1" "$2"
}

# one_size WHAT FILE: in lines "KEY<TAB>CLASS<TAB>BYTES<TAB>COUNT" of
# allocations, every class but arrays and strings has one instance size,
# so its bytes are a multiple of its count (objects of two classes under
# one name are not). Heap shots can differ: a live object of one vtable
# was seen at 72 and 80 bytes.
one_size() {
  local odd
  odd=$(awk -F'\t' '$2 !~ /\]$/ && $2 != "System.String" && $4 > 0 &&
                     $2 !~ /^(undescribed vtable|unnamed class) / &&
                     $3 % $4 != 0 { print $2 }' "$2" | sort -u | head -3)
  check "$1 every class has one instance size ($odd)" test -z "$odd"
}

# mprof-report's allocation backtraces as folded lines "f;f;Class<TAB>BYTES"
# (frames outermost first, as heapscope writes them).
mprof_traces() {
  awk '
    /^Allocation summary/ { inalloc = 1; next }
    /^[A-Z]/ { inalloc = 0 }
    !inalloc { next }
    /^ +[0-9]+ +[0-9]+ +[0-9]+ / {
      flush(); cls = $0; sub(/^ +[0-9]+ +[0-9]+ +[0-9]+ /, "", cls); next
    }
    /^\t[0-9]+ bytes from:$/ { flush(); bytes = $1 + 0; frames = ""; next }
    /^\t\t/ { fr = $0; sub(/^\t\t/, "", fr); gsub(/;/, ":", fr)
              frames = frames fr ";"; next }
    function flush() { if (cls ~ /^unresolved class /) cls = "unresolved class (nil)"
                       if (bytes) printf "%s%s\t%d\n", frames, cls, bytes; bytes = 0 }
    END { flush() }' "$1"
}

# ---- every file against mprof-report ---------------------------------------

# check_log LOG: every check of one .mlpd (plain or gzip) against the
# mprof-report outputs beside it (BASE.report, BASE.stats, BASE.gc).
check_log() {
  local log=$1 name base report stats
  name=$(basename "$log")
  base=${log%.gz}; base=${base%.mlpd}
  report=$base.report stats=$base.stats

  # A cut file: mprof-report drops the partial last buffer, heapscope reads
  # its events up to the cut. heapscope's figures are compared on the file
  # up to that buffer (hlog); the cut file's events must start with them.
  local hlog=$log cutat
  run info "$log"
  cutat=$(sed -n -e 's/.*inside the [0-9]*-byte buffer at offset \([0-9]*\).*/\1/p' \
                 -e 's/.*inside the buffer header at offset \([0-9]*\).*/\1/p' "$TMP/err")
  if [ -n "$cutat" ]; then
    expect_rc "$name: a cut file is read" 0
    if [[ $log == *.gz ]]; then
      gzip -dc <"$log" 2>/dev/null | head -c "$cutat" >"$TMP/whole.mlpd"
    else
      head -c "$cutat" "$log" >"$TMP/whole.mlpd"
    fi
    hlog=$TMP/whole.mlpd
    "$BIN" events "$hlog" >"$TMP/ew" 2>/dev/null
    "$BIN" events "$log" >"$TMP/ec" 2>/dev/null
    check "$name: the cut file's events start with those of its whole buffers" \
      cmp -s "$TMP/ew" <(head -n "$(wc -l <"$TMP/ew")" "$TMP/ec")
  fi

  # A vtable pointer described more than once (AppDomains unloaded, their
  # addresses reused): mprof-report files every use under the pointer's
  # first description, so its class split is wrong there. Then only totals
  # are compared, and heapscope's split is checked by its instance sizes.
  local reused
  reused=$("$BIN" events "$hlog" 2>/dev/null |
    grep -o 'kind=vtable ptr=0x[0-9a-f]*' | sort | uniq -d | wc -l)

  # events per type: mprof-report's TYPE names as event bytes
  "$BIN" events --count "$hlog" >"$TMP/count" 2>"$TMP/err"
  check "$name: events --count exits 0" same "$?" 0
  awk '
    BEGIN {
      b["TYPE_ALLOC_NO_BT"] = "00"; b["TYPE_ALLOC_BT"] = "10"
      b["TYPE_GC_EVENT"] = "11"; b["TYPE_GC_RESIZE"] = "21"; b["TYPE_GC_MOVE"] = "31"
      b["TYPE_GC_HANDLE_CREATED"] = "41"; b["TYPE_GC_HANDLE_CREATED_BT"] = "61"
      b["TYPE_GC_HANDLE_DESTROYED"] = "51"; b["TYPE_GC_HANDLE_DESTROYED_BT"] = "71"
      b["TYPE_GC_FINALIZE_START"] = "81"; b["TYPE_GC_FINALIZE_END"] = "91"
      b["TYPE_GC_FINALIZE_OBJECT_START"] = "a1"; b["TYPE_GC_FINALIZE_OBJECT_END"] = "b1"
      b["TYPE_END_LOAD"] = "22"; b["TYPE_END_UNLOAD"] = "42"
      b["TYPE_LEAVE"] = "13"; b["TYPE_ENTER"] = "23"; b["TYPE_EXC_LEAVE"] = "33"
      b["TYPE_JIT"] = "43"; b["TYPE_THROW_NO_BT"] = "04"; b["TYPE_THROW_BT"] = "84"
      b["TYPE_CLAUSE"] = "14"; b["TYPE_MONITOR_NO_BT"] = "05"; b["TYPE_MONITOR_BT"] = "85"
      b["TYPE_HEAP_START"] = "06"; b["TYPE_HEAP_END"] = "16"; b["TYPE_HEAP_OBJECT"] = "26"
      b["TYPE_HEAP_ROOT"] = "36"; b["TYPE_SAMPLE_HIT"] = "07"; b["TYPE_SAMPLE_USYM"] = "17"
      b["TYPE_SAMPLE_COUNTERS_DESC"] = "37"; b["TYPE_SAMPLE_COUNTERS"] = "47"
      b["TYPE_JITHELPER"] = "18"; b["TYPE_SYNC_POINT"] = "0a"; b["TYPE_AOT_ID"] = "1a"
    }
    /TYPE_.*count +[0-9]+/ {
      for (i = 1; i <= NF; i++) if ($i == "count") n = $(i + 1)
      t = $2
      print (t in b ? b[t] : "unmapped-" t), n
    }' "$stats" | sort >"$TMP/want-count"
  # mprof-report leaves out METADATA name events (02) and root
  # (un)registrations (46, 56) from its stats
  awk '$1 != "02" && $1 != "46" && $1 != "56" { print $1, $3 }' "$TMP/count" |
    sort >"$TMP/got-count"
  check "$name: event counts equal mprof-report's --reports=stats" \
    cmp -s "$TMP/want-count" "$TMP/got-count"

  # heap shots
  mprof_shots "$report" | sort >"$TMP/m-shots"
  if grep -q "=total" "$TMP/m-shots"; then
    hs_shots "$hlog" | sort >"$TMP/h-shots"
    grep "=total" "$TMP/m-shots" | cut -f1-4 >"$TMP/m-tot"
    grep "=total" "$TMP/h-shots" | cut -f1-4 >"$TMP/h-tot"
    check "$name: every shot's bytes and objects equal mprof-report's" \
      cmp -s "$TMP/m-tot" "$TMP/h-tot"
    paste <(grep "=total" "$TMP/m-shots" | cut -f5) \
          <(grep "=total" "$TMP/h-shots" | cut -f5) >"$TMP/secs"
    check "$name: shot times within 1 ms of mprof-report's" \
      awk '{ d = $1 - $2; if (d < -0.0011 || d > 0.0011) exit 1 }' "$TMP/secs"
    grep -v "=total" "$TMP/m-shots" >"$TMP/m-cls"
    grep -v "=total" "$TMP/h-shots" >"$TMP/h-cls"
    fold_unresolved "$TMP/m-cls" "$TMP/h-cls"
    [ "$reused" -eq 0 ] &&
      check "$name: bytes and objects per class in every shot equal mprof-report's (late vtables as its unresolved class)" \
        cmp -s "$TMP/m-cls.m" "$TMP/h-cls.h"
  else
    run csv "$hlog"
    expect_rc "$name: csv without heap shots" 4
    expect_err_grep "$name: csv says how Mono records heap shots" \
      "no heap shots [(]run mono with --profile=log:heapshot"
  fi

  # allocations per class and per backtrace
  if grep -q "^Allocation summary" "$report"; then
    "$BIN" folded --source alloc "$hlog" >"$TMP/fb"
    "$BIN" folded --source alloc --weight count "$hlog" >"$TMP/fc"
    # per class: "-<TAB>CLASS<TAB>BYTES<TAB>COUNT"
    paste -d' ' "$TMP/fb" <(awk '{print $NF}' "$TMP/fc") | awk '
      { c = $0; sub(/ [0-9]+ [0-9]+$/, "", c); n = split(c, f, ";")
        b[f[n]] += $(NF - 1); k[f[n]] += $NF }
      END { for (x in b) printf "-\t%s\t%d\t%d\n", x, b[x], k[x] }' >"$TMP/h-alloc"
    awk '/^Allocation summary/ { on = 1; next } /^[A-Z]/ { on = 0 }
         on && /^ +[0-9]+ +[0-9]+ +[0-9]+ / {
           n = $0; sub(/^ +[0-9]+ +[0-9]+ +[0-9]+ /, "", n)
           printf "-\t%s\t%d\t%d\n", n, $1, $2 }' "$report" >"$TMP/m-alloc"
    fold_unresolved "$TMP/m-alloc" "$TMP/h-alloc"
    one_size "$name: in the allocations" "$TMP/h-alloc"
    # allocations over time: the intervals' bytes and objects add up to
    # the sites' (the count column once was always 0)
    check "$name: csv --source alloc sums to folded's bytes and objects" \
      same "$("$BIN" csv --source alloc "$hlog" | awk -F, 'NR > 1 { b += $(NF - 1); c += $NF } END { print b, c }')" \
           "$(awk -F'\t' '{ b += $3; c += $4 } END { print b, c }' "$TMP/h-alloc")"
    if [ "$reused" -gt 0 ]; then
      check "$name: allocated bytes and objects equal mprof-report's ($reused vtable addresses reused)" \
        same "$(awk -F'\t' '{ b += $3; c += $4 } END { print b, c }' "$TMP/m-alloc")" \
             "$(awk -F'\t' '{ b += $3; c += $4 } END { print b, c }' "$TMP/h-alloc")"
    else
      check "$name: allocated bytes and objects per class equal mprof-report's" \
        cmp -s "$TMP/m-alloc.m" "$TMP/h-alloc.h"
    fi
    # per backtrace: heapscope's lines whose class mprof-report did not name
    # carry that name instead, then both sides are summed per line
    awk -F'\t' '{ print $2 }' "$TMP/m-alloc" | grep -v "^unresolved class " >"$TMP/named"
    mprof_traces "$report" |
      awk -F'\t' '{ s[$1] += $2 } END { for (k in s) print k "\t" s[k] }' |
      sort >"$TMP/m-bt"
    awk -v u="$UNRES" 'FILENAME == ARGV[1] { named[$0] = 1; next }
      { w = $NF; l = $0; sub(/ [0-9]+$/, "", l); n = split(l, f, ";")
        if (!(f[n] in named)) { sub(/[^;]*$/, "", l); l = l u }
        s[l] += w }
      END { for (k in s) print k "\t" s[k] }' "$TMP/named" "$TMP/fb" |
      sort >"$TMP/h-bt"
    # mprof-report lists the backtraces of allocations that had one
    grep -v "^[^;]*	" "$TMP/h-bt" >"$TMP/h-bt2"
    if [ "$reused" -gt 0 ]; then # the backtraces alone, classes left out
      for f in m-bt h-bt2; do
        awk -F'\t' '{ l = $1; sub(/[^;]*$/, "", l); s[l] += $2 }
          END { for (k in s) print k "\t" s[k] }' "$TMP/$f" | sort >"$TMP/$f.nc"
      done
      check "$name: allocated bytes per backtrace equal mprof-report's --traces" \
        cmp -s "$TMP/m-bt.nc" "$TMP/h-bt2.nc"
    else
      check "$name: allocated bytes per backtrace equal mprof-report's --traces" \
        cmp -s "$TMP/m-bt" "$TMP/h-bt2"
    fi
  fi

  # the GC summary against mprof-report's; a file without GC events and
  # allocations (calls, sample, exception only) has nothing to summarise
  run summary --json "$hlog"
  if ! grep -q "^Allocation summary" "$report" && ! grep -q "Gen[0-9] coll" "$base.gc" &&
     grep -q "Max heap size: 0$" "$base.gc"; then
    expect_rc "$name: summary --json without GC events or allocations" 4
    expect_err_grep "$name: summary says what is missing" "no GC events in this file"
  else
    expect_rc "$name: summary --json" 0
    # "Gen1 collections: 4, max time: 2501us, total time: 4099us": whole us
    want=$(awk '/Max heap size:/ { printf "heap %s\n", $4 }
                /Gen[0-9] collections:/ { g = substr($1, 4); gsub(/[^0-9]/, "", $3)
                  gsub(/[^0-9]/, "", $6); gsub(/[^0-9]/, "", $9)
                  printf "gen%s %s %s %s\n", g, $3, $6, $9 }' "$base.gc" | sort)
    got=$(tr '{' '\n' <"$TMP/out" | awk -F'[:,}]' '
            /"max_heap_bytes"/ { for (i = 1; i < NF; i++) if ($i == "\"max_heap_bytes\"") printf "heap %s\n", $(i + 1) }
            /^"gen"/ { if ($4 > 0) printf "gen%s %s %d %d\n", $2, $4, $8 / 1000, $6 / 1000 }' | sort)
    # mprof-report pairs a collection's end with the last start of its
    # generation on the same thread. A concurrent major collection (Mono's
    # default collector) starts on one thread and ends on another, where
    # mprof-report finds an older start or none (and prints a time since
    # boot). heapscope pairs them per generation, whichever thread posts
    # them: the oracle is then mprof-report's own event trace (--debug),
    # paired so; on a file without such pairs the two agree.
    mprof-report --debug --reports=gc "$log" 2>/dev/null |
      awk '/^gc event for gen[01]: (start|end) at / {
             g = substr($4, 4, 1); t = $7; th = $9
             if ($5 == "start") { n[g]++; s[g] = t; sth[g] = th; open[g] = 1 }
             else if (open[g]) { d = t - s[g]; tot[g] += d; if (d > mx[g]) mx[g] = d
                                 if (th != sth[g]) x++; open[g] = 0 } }
           END { for (g in n) printf "gen%s %d %d %d\n", g, n[g], int(mx[g] / 1000), int(tot[g] / 1000)
                 print "cross " x + 0 }' >"$TMP/trace"
    cross=$(awk '$1 == "cross" { print $2 }' "$TMP/trace")
    traced=$( (grep '^heap ' <<<"$want"; grep '^gen' "$TMP/trace") | sort)
    check "$name: collections, GC times and largest heap equal mprof-report's trace, paired per generation ($got)" \
      same "$got" "$traced"
    if [ "${cross:-0}" -eq 0 ]; then
      check "$name: collections, GC times and largest heap equal mprof-report's ($got)" \
        same "$got" "$want"
    fi
    if [[ $name == tasks-* ]]; then
      check "$name: has concurrent collections that end on another thread ($cross)" \
        test "${cross:-0}" -gt 0
      expect_out_grep "$name: the JSON counts them" '"gen":1,[^}]*"concurrent":[1-9]'
    fi
    run summary "$hlog"
    expect_out_grep "$name: summary text" "^ +[0-9,]+ bytes maximum heap size"
    if [[ $name == tasks-* ]]; then
      expect_out_grep "$name: the text says which ran concurrently" \
        "^  [1-9][0-9]* of gen 1's collections ran concurrently"
      # GC events alone: no heap shots, so no heap profile to name
      run info "$hlog"
      expect_out_grep "$name: info names no heap profile" "^heap profile: none$"
      expect_out_grep "$name: info counts the concurrent ones" \
        "^major collections: .* [(][1-9][0-9]* concurrent: the program ran meanwhile[)]$"
    fi
  fi

  # heapscope names every class the file describes, wherever the
  # description is; only a vtable or class described nowhere (in a cut or
  # killed run) stays unnamed
  "$BIN" folded --source alloc "$log" >"$TMP/f" 2>/dev/null
  "$BIN" csv "$log" >>"$TMP/f" 2>/dev/null
  "$BIN" events "$log" 2>/dev/null |
    grep -o -e 'kind=vtable ptr=0x[0-9a-f]*' -e 'kind=class ptr=0x[0-9a-f]* image=0x[0-9a-f]* name' |
    sed 's/ image=.*//' | sort -u >"$TMP/described"
  grep -o -e 'undescribed vtable 0x[0-9a-f]*' -e 'unnamed class 0x[0-9a-f]*' "$TMP/f" |
    sed -e 's/undescribed vtable /kind=vtable ptr=/' -e 's/unnamed class /kind=class ptr=/' |
    sort -u >"$TMP/unnamed"
  check "$name: every class described in the file is named ($(comm -12 "$TMP/described" "$TMP/unnamed" | head -3))" \
    test -z "$(comm -12 "$TMP/described" "$TMP/unnamed")"
  # a run that ended normally (its threads' unload events, 42, are there;
  # a killed run has none) describes every class it used
  [ -z "$cutat" ] && "$BIN" events --count "$log" 2>/dev/null | grep -q "^42 " &&
    check "$name: every class named" test ! -s "$TMP/unnamed"

  # every command reads it: exit 0, or 4 when the file lacks what was
  # asked (no heap shot, no allocation), never a crash or a sanitizer report
  local args c
  for args in "report -d $TMP/page" "chart -o $TMP/c.svg" "chart --source alloc -o $TMP/a.svg" \
              "hp -o $TMP/x.hp" "csv --by namespace" "csv --by assembly" \
              "csv --source alloc" "folded" "info" "events"; do
    rm -rf "$TMP/page"
    # shellcheck disable=SC2086
    run $args "$log"
    c=$rc
    [ "$c" -eq 4 ] && ! grep -q "no heap shot\|no allocation\|no ALLOC\|nothing" "$TMP/err" &&
      grep -q . "$TMP/err" && c="4 ($(head -c 200 "$TMP/err"))"
    if [ "${HEAPSCOPE_HAVE_CHARTS:-1}" = 0 ] && [ "${args%% *}" = chart ]; then
      # a build without cairo and pango says so and exits 5
      check "$name: $args without charts exits 5 ($c)" test "$rc" -eq 5
    else
      check "$name: $args exits 0 or 4 ($c)" test "$rc" -eq 0 -o "$rc" -eq 4
    fi
    check "$name: $args reports no crash" \
      bash -c "! grep -q -e 'runtime error' -e 'Sanitizer' -e 'internal' '$TMP/err'"
  done
  # events prints one line per event and per buffer
  check "$name: events prints one line per event" \
    same "$(grep -vc ' BUFFER ' "$TMP/out")" \
         "$("$BIN" events --count "$log" 2>/dev/null | awk '{ s += $3 } END { print s + 0 }')"
}

# HEAPSCOPE_MLPD_DIR: check the files of another directory (a sweep of
# new runs, written as samples/mono/regen.sh writes them) and stop.
if [ -n "${HEAPSCOPE_MLPD_DIR:-}" ]; then
  for log in "$HEAPSCOPE_MLPD_DIR"/*.mlpd "$HEAPSCOPE_MLPD_DIR"/*.mlpd.gz; do
    [ -e "$log" ] && check_log "$log"
  done
  finish
  exit
fi

for log in "$MONO"/*.mlpd "$MONO"/*.mlpd.gz; do
  check_log "$log"
done

# allocations without heap shots: info names no heap profile, and says
# where the allocations are drawn
run info "$MONO/deep-gcalloc-mf0.mlpd"
expect_out_grep "info of allocations alone: no heap profile, and where they are drawn" \
  "^heap profile: none [(]no heap shots; report draws the allocations over time, --source alloc[)]$"
run info "$MONO/leak-ondemand.mlpd"
expect_out_grep "info of heap shots names them" "^heap profile: Mono heap shots, by class$"

run summary --between a b "$MONO/leak-ondemand.mlpd"
expect_rc "summary --between on an .mlpd: no markers in a Mono file" 4
expect_err_grep "summary --between on an .mlpd says why" \
  "a Mono .mlpd has no user markers .*--from and --to"
run summary "$MONO/sites-alloc-zip.mlpd.gz"
from_file=$out
run summary - <"$MONO/sites-alloc-zip.mlpd.gz"
expect_rc "summary of a piped gzip .mlpd" 0
check "a piped .mlpd has the file's summary" same "$out" "$from_file"
expect_out_grep "the summary counts allocations" "^ +[0-9,]+ bytes allocated in the heap [(][0-9,]+ objects[)]$"

run info "$MONO/threads-alloc-heapshot.mlpd"
expect_rc "info of an .mlpd" 0
expect_out_grep "info names the format" "^format: Mono log profiler [(][.]mlpd[)]$"
expect_out_grep "info counts late vtables" "^late vtables: [1-9][0-9]* "
late=$(sed -n 's/^late vtables: [0-9]* (named after their first use; \([0-9]*\) allocations, \([0-9]*\) bytes)$/\2 \1/p' "$TMP/out")
want=$(awk '/^Allocation summary/ { on = 1 } on && /unresolved class \(nil\)$/ { print $1, $2; exit }' \
  "$MONO/threads-alloc-heapshot.report")
check "late allocations are mprof-report's unresolved ones ($late / $want)" \
  same "$late" "$want"
check "the threaded sample has late vtables at all" has "$want" " "

# ---- events ------------------------------------------------------------------

run events "$MONO/sites-legacy.mlpd"
expect_rc "events of an .mlpd" 0
for kind in BUFFER ALLOC GC_EVENT GC_RESIZE GC_MOVE METADATA METHOD_JIT \
            EXCEPTION_THROW EXCEPTION_CLAUSE HEAP_ROOT HEAP_ROOT_REGISTER \
            HEAP_ROOT_UNREGISTER SAMPLE_COUNTERS_DESC SAMPLE_COUNTERS \
            JITHELPER SYNC_POINT; do
  check "events prints $kind lines" grep -q "^[0-9]* 0x[0-9a-f]* $kind" "$TMP/out"
done
check "events prints class names" \
  grep -q 'METADATA action=load kind=class .* name="HeapScope.Samples.Point"' "$TMP/out"
check "events prints backtraces" grep -q '^[0-9]* 0x[0-9a-f]* ALLOC .* bt=\[0x' "$TMP/out"
n=$(grep -vc " BUFFER " "$TMP/out")
want=$("$BIN" events --count "$MONO/sites-legacy.mlpd" | awk '{ s += $3 } END { print s }')
check "one line per event ($n, $want)" same "$n" "$want"

# ---- gzip, pipes, truncation, bad input -------------------------------------

"$BIN" csv "$MONO/leak-ondemand.mlpd" >"$TMP/plain.csv"
gzip -c "$MONO/leak-ondemand.mlpd" >"$TMP/leak.mlpd.gz"
run csv - <"$TMP/leak.mlpd.gz"
expect_rc "csv of a gzip .mlpd on stdin" 0
check "gzip and plain give one census" cmp -s "$TMP/out" "$TMP/plain.csv"

size=$(stat -c %s "$MONO/leak-ondemand.mlpd")
head -c $((size * 2 / 3)) "$MONO/leak-ondemand.mlpd" >"$TMP/cut.mlpd"
run csv "$TMP/cut.mlpd"
expect_rc "csv of a cut .mlpd" 0
expect_err_grep "a cut .mlpd warns with the offset" "cut.mlpd.*cut at offset [0-9]*, inside the [0-9]*-byte buffer"
# the shots before the cut are whole and all there is: the shot the file
# ends inside is left out, and named
expect_err_grep "the cut shot is named" "cut.mlpd: .*; the last heap shot, at 0[.][0-9]{4} s, was cut and is left out"
check "a cut .mlpd gives the whole shots before the cut, nothing else" \
  bash -c "head -n \$(wc -l <'$TMP/out') '$TMP/plain.csv' | cmp -s - '$TMP/out'"
check "the cut .mlpd has whole shots at all" test "$(wc -l <"$TMP/out")" -gt 10
check "the cut shot is in no row" \
  test "$(tail -n +2 "$TMP/out" | cut -d, -f1 | sort -u | wc -l)" -eq 2

# One event of every event byte the format has (gen_mlpd --every-event):
# `events` walks the field descriptors of the one event table
# (heapscope/mlpd_events.h) and prints each as tests/mlpd_every_event.txt
# has it, the output of the hand-written printer the table replaced.
"$GEN_MLPD" --every-event >"$TMP/every.mlpd"
run events "$TMP/every.mlpd"
expect_rc "events of every event byte" 0
check "events prints every event byte as the table describes it" \
  cmp -s "$TMP/out" "$SRC/tests/mlpd_every_event.txt"
run events --count "$TMP/every.mlpd"
check "events --count counts the 38 event bytes" \
  test "$(wc -l <"$TMP/out")" -eq 38

# A synthetic file (bench/gen_mlpd.c: a heap shot every 64 buffers, each
# spanning three) cut at a buffer boundary inside its second shot: no
# buffer is cut, yet the shot is, and left out of every output.
"$GEN_MLPD" 8 >"$TMP/gen.mlpd"
run csv "$TMP/gen.mlpd"
expect_rc "csv of the synthetic file" 0
check "the synthetic file has two shots" \
  test "$(tail -n +2 "$TMP/out" | cut -d, -f1 | sort -u | wc -l)" -eq 2
first=$(sed -n 2p "$TMP/out" | cut -d, -f1)
grep -v "^$first," "$TMP/out" | tail -n +2 >"$TMP/second.csv"
at=$("$BIN" events "$TMP/gen.mlpd" | awk '/ HEAP_START/ { n++ } / BUFFER / { b++ } n == 2 && / BUFFER / && ++k == 2 { print b - 1; exit }')
off=38
for _ in 1 2 3; do off=$((off + 4 + $(od -An -tu4 -j$off -N4 "$TMP/gen.mlpd"))); done
for ((i = 0; i < at; i++)); do
  off=$((off + 48 + $(od -An -tu4 -j$((off + 4)) -N4 "$TMP/gen.mlpd")))
done
head -c "$off" "$TMP/gen.mlpd" >"$TMP/gencut.mlpd"
for args in "csv" "hp" "folded" "summary --json" "info"; do
  # shellcheck disable=SC2086
  run $args "$TMP/gencut.mlpd"
  expect_rc "$args of a file cut between the buffers of a shot" 0
  expect_err_grep "$args: the file cut between buffers says so" \
    "gencut.mlpd: byte $off: the file ends at offset $off, between two buffers inside a heap shot .*; the last heap shot, at [0-9.]* s, was cut and is left out"
  cp "$TMP/out" "$TMP/gencut.$args"
done
check "the cut shot is in no csv row" \
  bash -c "! grep -q '^$(cut -d, -f1 "$TMP/second.csv" | head -n 1),' '$TMP/gencut.csv'"
# (.hp: the runtime's empty sample at 0 and one at the end besides)
check "nor in the .hp" \
  bash -c "! grep -q '^BEGIN_SAMPLE $(cut -d, -f1 "$TMP/second.csv" | head -n 1)' '$TMP/gencut.hp'"
check "the .hp has the first shot" \
  grep -q "^BEGIN_SAMPLE $first\$" "$TMP/gencut.hp"
check "the summary counts the whole shot only" grep -q '"heap_shots": *1' "$TMP/gencut.summary --json"
check "info: one heap shot" grep -q "^heap shots: 1," "$TMP/gencut.info"
check "info: the file is not complete" grep -q "^complete: no" "$TMP/gencut.info"

head -c $((size * 2 / 3)) "$MONO/leak-ondemand.mlpd" | gzip -c | head -c 20000 >"$TMP/cut.mlpd.gz"
run info "$TMP/cut.mlpd.gz"
expect_rc "info of a cut gzip .mlpd" 0
expect_err_grep "a cut gzip stream warns" "cut.mlpd.gz.*cut at offset [0-9]*, inside"
expect_out_grep "a cut gzip file is not complete" "^complete: no"

# a file of its header alone: a run killed before the profiler's first
# write; a gzip stream cut before its first inflated byte
hdr=$(( $(od -An -tu4 -j38 -N4 "$MONO/leak-ondemand.mlpd") + 42 ))
hdr=$(( hdr + 4 + $(od -An -tu4 -j$hdr -N4 "$MONO/leak-ondemand.mlpd") ))
hdr=$(( hdr + 4 + $(od -An -tu4 -j$hdr -N4 "$MONO/leak-ondemand.mlpd") ))
head -c "$hdr" "$MONO/leak-ondemand.mlpd" >"$TMP/bare.mlpd"
run info "$TMP/bare.mlpd"
expect_rc "info of a file with no buffer" 0
expect_err_grep "a file with no buffer says so" "bare.mlpd: the file has its header and no buffer"
head -c 30 "$MONO/leak-ondemand-zip.mlpd.gz" >"$TMP/gzhead.mlpd.gz"
run info "$TMP/gzhead.mlpd.gz"
expect_err_grep "a gzip stream cut in the file header counts its compressed bytes" \
  "gzhead.mlpd.gz: .*the gzip stream ends after 30 compressed bytes, inside the file header"
# the same bytes give the same answer from a file, a redirect and a pipe:
# a cut header (nothing before the cut, exit 4), whether the gzip stream
# inflated nothing yet or part of the header; an empty input is no log (1)
gzip -c "$MONO/leak-ondemand.mlpd" | head -c 200 >"$TMP/gzhead2.mlpd.gz"
: >"$TMP/empty.mlpd"
for case in "gzhead.mlpd.gz 4 inside the file header" \
            "gzhead2.mlpd.gz 4 inside the file header" \
            "empty.mlpd 1 the input is empty"; do
  read -r f want kind <<<"$case"
  run csv "$TMP/$f"
  expect_rc "$f from a file" "$want"
  expect_err_grep "$f from a file: what was wrong" "$f: byte [0-9]+: .*$kind"
  run csv - <"$TMP/$f"
  expect_rc "$f from standard input" "$want"
  expect_err_grep "$f from standard input: what was wrong" "<stdin>: byte [0-9]+: .*$kind"
  cat "$TMP/$f" | "$BIN" csv - >/dev/null 2>"$TMP/err"
  rc=$?
  expect_rc "$f from a pipe" "$want"
done

# a file cut before any data (inside its first buffer): every command says
# it was cut, with the offset, and gives no advice on how to record;
# advice only for a whole file, Mono's (never GHC's) in diff too
head -c $((hdr + 80)) "$MONO/leak-ondemand.mlpd" >"$TMP/early.mlpd"
for cmd in csv hp "folded --source alloc" summary "report -d $TMP/early-page" \
           "diff $MONO/leak-ondemand.mlpd"; do
  # shellcheck disable=SC2086
  run $cmd "$TMP/early.mlpd"
  expect_rc "${cmd%% *} of an .mlpd cut before any data" 4
  expect_err_grep "${cmd%% *} of an .mlpd cut before any data: names the cut" \
    "early.mlpd: .*before the cut at byte $((hdr + 80))"
  check "${cmd%% *} of an .mlpd cut before any data: no advice to record" \
    bash -c '! grep -q -e "RTS" -e "run mono" "$1"' _ "$TMP/err"
done
run diff "$MONO/leak-ondemand.mlpd" "$MONO/sites-alloc.mlpd"
expect_rc "diff against a whole .mlpd without heap shots" 4
expect_err_grep "diff: Mono's advice for a Mono file" \
  "sites-alloc.mlpd: the after run has no heap profile [(]no heap shots: run mono with --profile=log:heapshot[)]"
check "diff: no GHC advice for a Mono file" bash -c '! grep -q "RTS" "$1"' _ "$TMP/err"

head -c 60 "$MONO/leak-ondemand.mlpd" >"$TMP/head.mlpd"
run info "$TMP/head.mlpd"
expect_rc "a file cut inside its header (nothing before the cut)" 4
expect_err_grep "a cut header is named" "head.mlpd.*ends inside its header"

# an unknown event byte in the first buffer: that buffer is cut short with a
# warning, the rest is read
cp "$MONO/sites-alloc.mlpd" "$TMP/bad.mlpd"
hdr=$(( $(od -An -tu4 -j38 -N4 "$TMP/bad.mlpd") ))
off=$((38 + 4 + hdr))
for i in 1 2; do off=$((off + 4 + $(od -An -tu4 -j$off -N4 "$TMP/bad.mlpd"))); done
printf '\x0f' | dd of="$TMP/bad.mlpd" bs=1 seek=$((off + 48)) conv=notrunc 2>/dev/null
run info "$TMP/bad.mlpd"
expect_rc "info of an .mlpd with a bad event byte" 0
expect_err_grep "a bad event byte is named" "1 buffers held an unexpected value.*an unknown event byte at offset $((off + 48))"

printf '\x01\x5a\x50\x4d\x09\x00\x11\x08' >"$TMP/v9.mlpd"
head -c 200 /dev/zero >>"$TMP/v9.mlpd"
run info "$TMP/v9.mlpd"
expect_rc "an unsupported version" 1
expect_err_grep "an unsupported version is named" "unsupported log-profiler version 9.0, data version 17"

run folded --source alloc "$MONO/leak-ondemand.mlpd"
expect_rc "folded --source alloc without allocations" 4
run folded --source alloc --weight peak "$MONO/sites-alloc.mlpd"
expect_rc "folded --source alloc --weight peak" 2
run csv --by module "$MONO/sites-alloc.mlpd"
expect_rc "csv --by module" 2
expect_err_grep "--by names its values" "--by takes class, namespace or assembly, not 'module'"

finish
