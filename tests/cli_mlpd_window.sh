#!/usr/bin/env bash
# cli_mlpd_window.sh: `summary --from/--to` on Mono .mlpd files, read from
# the events straight into the summary. The figures in a window are
# checked against (1) mprof-report's heap-shot list (samples/mono/*.report:
# which shots start in the window, their sizes) and (2) the same figures
# added up with awk from `heapscope events` over the window: allocations,
# heap shots and the largest, collections per generation, the largest heap
# (of the resizes in the window and the size in force when it opens).
# Then the window's line and key, an empty window, and --between (a Mono
# file has no user markers) in summary and diff.
#
# Environment (set by meson test): HEAPSCOPE_BIN, HEAPSCOPE_SOURCE_DIR.
set -u

. "$(dirname "$0")/cli_common.sh"

MONO=$SAMPLES/mono

# figures_from_events FILE FROM_NS TO_NS: "key=value ..." in summary
# --json's key order, counted from the event lines (t = 0 is the first
# buffer, as mprof-report counts; a shot counts where its HEAP_START is, a
# collection where its start (GC_EVENT type 0) is).
figures_from_events() {
  "$BIN" events "$1" | awk -v from="$2" -v to="$3" '
    function val(k,   i) { for (i = 4; i <= NF; i++)
      if (index($i, k "=") == 1) return substr($i, length(k) + 2) + 0 }
    function shot() { if (open && counted && tot > live) live = tot
      open = 1; counted = inw; tot = 0; if (inw) shots++ }
    $3 == "BUFFER" && !have { t0 = $1; have = 1 }
    { r = $1 - t0; if (r < 0) r = 0; inw = r >= from && r <= to }
    $3 == "ALLOC" && inw { n++; bytes += val("size") }
    $3 == "HEAP_START" { shot() }
    $3 == "HEAP_OBJECT" && val("size") > 0 { if (!open) shot(); tot += val("size") }
    $3 == "HEAP_END" { if (open && counted && tot > live) live = tot; open = 0 }
    $3 == "GC_EVENT" && $4 == "type=0" && inw { coll[val("gen") ? 1 : 0]++ }
    $3 == "GC_RESIZE" && r < from { before = val("heap_size") }
    $3 == "GC_RESIZE" && inw && val("heap_size") > heap { heap = val("heap_size") }
    { last = r }
    END {
      if (last >= from && before > heap) heap = before
      if (n) printf "allocated_bytes=%d allocated_objects=%d ", bytes, n
      else printf "allocated_bytes=null allocated_objects=null "
      printf "max_heap_bytes=%d heap_shots=%d ", heap, shots
      printf "max_live_bytes=%s gen0=%d gen1=%d\n", shots ? live : "null", coll[0], coll[1]
    }'
}

# figures_from_summary JSON: the same keys from summary --json.
figures_from_summary() {
  printf '%s\n' "$1" | awk '{
    for (k = 1; k <= 5; k++) {
      split("allocated_bytes allocated_objects max_heap_bytes heap_shots max_live_bytes", K, " ")
      if (match($0, "\"" K[k] "\":[^,}]*")) printf "%s=%s ", K[k], substr($0, RSTART + length(K[k]) + 3, RLENGTH - length(K[k]) - 3)
    }
    g = $0; c = 0
    while (match(g, /"collections":[0-9]+/)) { printf "gen%d=%s%s", c, substr(g, RSTART + 14, RLENGTH - 14), c ? "\n" : " "; c++; g = substr(g, RSTART + RLENGTH) }
  }'
}

# window FILE FROM TO (seconds): summary in the window against the events
window() {
  local from_ns to_ns
  from_ns=$(awk -v s="$2" 'BEGIN { printf "%.0f", s * 1e9 }')
  to_ns=$(awk -v s="$3" 'BEGIN { printf "%.0f", s * 1e9 }')
  run summary --json --from "$2" --to "$3" "$1"
  expect_rc "summary --json --from $2 --to $3 $(basename "$1")" 0
  check "$(basename "$1") in [$2, $3] s: the events' figures ($(figures_from_events "$1" "$from_ns" "$to_ns") vs $(figures_from_summary "$out"))" \
    same "$(figures_from_summary "$out")" "$(figures_from_events "$1" "$from_ns" "$to_ns")"
  expect_out_grep "the JSON says its window" "\"window\":\\{\"from_ns\":$from_ns,"
}

# Hand-checked against mprof-report's heap-shot list (churn-100ms-sample
# .report: shots at 0.066, 0.180, 0.295, 0.401 and 1.521 s of 22,200,
# 26,904, 32,976, 37,928 and 67,360 bytes): [0.1, 0.45] holds shots 1 to 3,
# the largest 37,928 bytes.
run summary --from 0.1 --to 0.45 "$MONO/churn-100ms-sample.mlpd"
expect_rc "summary --from/--to of an .mlpd" 0
expect_out_grep "the window's line" "^  Window: 0.100000s to 0.450000s$"
expect_out_grep "three heap shots in the window" " bytes maximum heap size \(3 heap shots\)$"
expect_out_grep "the largest of them" "^ +37,928 bytes maximum residency"
# the heap was resized at 0.060 s (4,718,592 bytes), 0.088 s (4,734,976)
# and 1.523 s: in [0.1, 0.45] it kept the size set at 0.088 s
expect_out_grep "the heap's size in force in the window" "^ +4,734,976 bytes maximum heap size"
# threads-alloc-heapshot.report: shots at 0.059, 0.073, 0.105 (34,096,
# 38,360, 54,360 bytes) and 1.126 s.
run summary --json --from 0.05 --to 0.11 "$MONO/threads-alloc-heapshot.mlpd"
expect_out_grep "threads: 3 shots" '"heap_shots":3,"max_live_bytes":54360,'

window "$MONO/churn-100ms-sample.mlpd" 0.1 0.45
window "$MONO/churn-100ms-sample.mlpd" 0.5 2
window "$MONO/threads-alloc-heapshot.mlpd" 0.05 0.11
window "$MONO/threads-alloc-heapshot.mlpd" 0 0.08
window "$MONO/sites-alloc-zip.mlpd.gz" 0.02 0.3
window "$MONO/workers-legacy-zip.mlpd.gz" 0.1 0.9

# the whole file as a window is the whole file's figures
run summary --json "$MONO/churn-100ms-sample.mlpd"
whole=$(figures_from_summary "$out")
run summary --json --from 0 --to 1000 "$MONO/churn-100ms-sample.mlpd"
check "a window over the whole run has the run's figures" same "$(figures_from_summary "$out")" "$whole"

run summary --from 100 --to 200 "$MONO/churn-100ms-sample.mlpd"
expect_rc "a window after the run" 4
expect_err_grep "the empty window says so" "no GC event, heap shot or allocation in the window"

# a file with its header and no buffer (122 bytes of leak-ondemand): the
# summary says so as the census loader does
head -c 122 "$MONO/leak-ondemand.mlpd" >"$TMP/hdr.mlpd"
run summary "$TMP/hdr.mlpd"
expect_rc "summary of an .mlpd with no buffer" 4
expect_err_grep "it warns that no buffer came" "hdr.mlpd: the file has its header and no buffer"

# diff --window-from/--window-to on .mlpd files: the heap shots in each
# window (their count, the largest and its size) are mprof-report's shots
# starting in it (samples/mono/*.report: "Heap shot N at T secs: size: B")
diff_window() { # FILE FROM TO
  local want got
  want=$(awk -v from="$2" -v to="$3" '/Heap shot [0-9]+ at/ {
      t = $5 + 0; b = $8 + 0
      if (t >= from && t <= to) { n++; if (b > peak) peak = b } }
    END { printf "samples=%d peak=%d\n", n, peak }' "${1%.mlpd}.report")
  run diff --json --window-from "$2" --window-to "$3" "$1" "$1"
  got=$(printf '%s\n' "$out" | awk '/"before":/ && /peak_bytes/ {
      match($0, /"peak_bytes": [0-9]+/); p = substr($0, RSTART + 14, RLENGTH - 14)
      match($0, /"samples": [0-9]+/); n = substr($0, RSTART + 11, RLENGTH - 11)
      printf "samples=%d peak=%d\n", n, p }')
  check "diff window $2..$3 s of $(basename "$1"): $want (got $got, rc $rc)" \
    same "$got" "$want"
}
diff_window "$MONO/threads-alloc-heapshot.mlpd" 0 1
diff_window "$MONO/threads-alloc-heapshot.mlpd" 0.06 0.2
diff_window "$MONO/threads-alloc-heapshot.mlpd" 1 2
diff_window "$MONO/leak-ondemand.mlpd" 0.1 0.3

run summary --between a b "$MONO/churn-100ms-sample.mlpd"
expect_rc "summary --between on an .mlpd" 4
expect_err_grep "no markers in a Mono file" "a Mono .mlpd has no user markers"
run diff --between a b "$MONO/churn-100ms-sample.mlpd" "$MONO/churn-killed.mlpd"
expect_rc "diff --between on .mlpd files" 4
expect_err_grep "diff: no markers in a Mono file" "has no user markers \(the Mono log profiler writes none"

finish
