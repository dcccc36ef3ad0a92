/*
 * The diff as text (for a terminal) and as JSON (for scripts and CI).
 *
 * Text uses binary units with one decimal so columns stay narrow; JSON
 * gives exact bytes and seconds, which is what the tests check against
 * sums over the two runs' CSV.
 */
#include "heapscope/diff.h"
#include "common/internal.h"
#include "common/json.h"
#include "diff/diff_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* "20.6 MiB", "512 B" with a unit suffix ("*s" for byte-seconds); a
 * sign first when `sign` (change columns). */
static void human(char *buf, size_t n, double v, bool sign, const char *unit)
{
    char num[24];
    hs_format_bytes(num, sizeof num, fabs(v));
    snprintf(buf, n, "%s%s%s", sign ? (v > 0 ? "+" : v < 0 ? "-" : "") : "",
             num, unit);
}

static void seconds(char *buf, size_t n, uint64_t ns)
{
    snprintf(buf, n, "%.3f s", (double)ns / 1e9);
}

/* One row of the runs' table: label, before, after and the change. */
static int row(hs_sink *out, const char *label, double a, double b,
               const char *unit, bool bytes)
{
    char x[40], y[40], z[40], pct[32] = "";
    if (bytes) {
        human(x, sizeof x, a, false, unit);
        human(y, sizeof y, b, false, unit);
        human(z, sizeof z, b - a, true, unit);
    } else {
        snprintf(x, sizeof x, "%.3f%s", a, unit);
        snprintf(y, sizeof y, "%.3f%s", b, unit);
        snprintf(z, sizeof z, "%+.3f%s", b - a, unit);
    }
    if (a > 0)
        snprintf(pct, sizeof pct, " (%+.1f%%)", (b - a) / a * 100);
    return hs_sink_printf(out, "%-22s %16s %16s %16s%s\n", label, x, y, z,
                          pct);
}

static int count_row(hs_sink *out, const char *label, uint64_t a, uint64_t b)
{
    return hs_sink_printf(out, "%-22s %16" PRIu64 " %16" PRIu64
                          " %+16" PRId64 "\n", label, a, b,
                          (int64_t)b - (int64_t)a);
}

/* Allocation and GC figures, each only when both runs have it. */
static int gc_rows(hs_sink *out, const hs_diff_run *ra,
                   const hs_diff_run *rb)
{
    const hs_summary_stats *a = &ra->gc, *b = &rb->gc;
    if (a->has_allocated && b->has_allocated)
        TRY(row(out, "allocated", (double)a->allocated_bytes,
                (double)b->allocated_bytes, "", true));
    if (a->has_gc && b->has_gc) {
        TRY(row(out, "copied during GC", (double)a->copied_bytes,
                (double)b->copied_bytes, "", true));
        TRY(count_row(out, "collections", ra->collections,
                      rb->collections));
        TRY(count_row(out, "major collections", a->major_gcs, b->major_gcs));
    }
    if (a->has_live && b->has_live)
        TRY(row(out, "max live (major GC)", (double)a->max_live_bytes,
                (double)b->max_live_bytes, "", true));
    if (a->has_heap_size && b->has_heap_size)
        TRY(row(out, "total memory in use", (double)a->max_mem_in_use_bytes,
                (double)b->max_mem_in_use_bytes, "", true));
    if (a->has_pauses && b->has_pauses) {
        TRY(row(out, "GC elapsed", (double)a->gc_ns / 1e9,
                (double)b->gc_ns / 1e9, " s", false));
        TRY(row(out, "MUT elapsed", (double)a->mut_ns / 1e9,
                (double)b->mut_ns / 1e9, " s", false));
    }
    return HS_OK;
}

static int runs_text(const hs_diff *d, hs_sink *out)
{
    const hs_diff_run *a = hs_diff_get_run(d, HS_DIFF_BEFORE);
    const hs_diff_run *b = hs_diff_get_run(d, HS_DIFF_AFTER);
    uint32_t bd = hs_diff_breakdown(d);
    char lb[96];
    const char *label = bd ? NULL : hs__diff_label(d, lb, sizeof lb);
    if (bd)
        TRY(hs_sink_printf(out, "heapscope diff: -%s (%s)\n",
                           hs_breakdown_flag(bd), hs_breakdown_name(bd)));
    else if (label)
        TRY(hs_sink_printf(out, "heapscope diff: %s\n", label));
    else
        TRY(hs_sink_printf(out, "heapscope diff: heap profiles (breakdown "
                           "not recorded)\n"));
    TRY(hs_sink_printf(out, "before: "));
    TRY(hs_put_escaped(out, a->input, false));
    TRY(hs_sink_printf(out, "\nafter:  "));
    TRY(hs_put_escaped(out, b->input, false));
    TRY(hs_sink_write(out, "\n", 1));
    if (hs_diff_from_marker(d)) {
        TRY(hs_sink_printf(out, "window: from marker \""));
        TRY(hs_put_escaped(out, hs_diff_from_marker(d), true));
        TRY(hs_sink_printf(out, "\" to marker \""));
        const char *to = hs_diff_to_marker(d);
        TRY(hs_put_escaped(out, to ? to : "", true));
        TRY(hs_sink_printf(out, "\"\n"));
    }
    char t0[32], t1[32], t2[32], t3[32];
    seconds(t0, sizeof t0, a->from_ns);
    seconds(t1, sizeof t1, a->to_ns);
    seconds(t2, sizeof t2, b->from_ns);
    seconds(t3, sizeof t3, b->to_ns);
    TRY(hs_sink_printf(out, "%-22s %16s %16s\n", "window from", t0, t2));
    TRY(hs_sink_printf(out, "%-22s %16s %16s\n", "window to", t1, t3));
    TRY(hs_sink_printf(out, "\n%-22s %16s %16s %16s\n", "", "before",
                       "after", "change"));
    TRY(row(out, "peak heap", (double)a->peak_bytes, (double)b->peak_bytes,
            "", true));
    TRY(row(out, "time of peak", (double)a->peak_time_ns / 1e9,
            (double)b->peak_time_ns / 1e9, " s", false));
    TRY(row(out, "byte-seconds", a->byte_seconds, b->byte_seconds, "*s",
            true));
    TRY(row(out, "duration", (double)a->duration_ns / 1e9,
            (double)b->duration_ns / 1e9, " s", false));
    TRY(count_row(out, "heap samples", a->samples, b->samples));
    TRY(count_row(out, "bands", a->bands, b->bands));
    if (a->has_gc && b->has_gc)
        TRY(gc_rows(out, a, b));
    return HS_OK;
}

static int bands_text(const hs_diff *d, hs_sink *out)
{
    size_t n = hs_diff_band_count(d), both = 0, fresh = 0, gone = 0;
    for (size_t i = 0; i < n; i++) {
        hs_diff_status s = hs_diff_band_at(d, i)->status;
        both += s == HS_DIFF_BOTH;
        fresh += s == HS_DIFF_NEW;
        gone += s == HS_DIFF_GONE;
    }
    TRY(hs_sink_printf(out, "\nbands: %zu in both, %zu new, %zu gone", both,
                       fresh, gone));
    if (hs_diff_is_normalized(d))
        TRY(hs_sink_printf(out, "; %zu matched only after normalising",
                           hs_diff_normalized_matches(d)));
    return HS_OK;
}

static int band_rows(const hs_diff *d, hs_sink *out)
{
    bool by_peak = hs_diff_get_order(d) == HS_DIFF_BY_PEAK;
    const char *unit = by_peak ? "" : "*s";
    TRY(hs_sink_printf(out, "\n\nby change in %s:\n%14s %14s %15s %8s  %s\n",
                       by_peak ? "peak bytes" : "byte-seconds", "before",
                       "after", "change", "ratio", "band"));
    for (size_t i = 0; i < hs_diff_band_count(d); i++) {
        const hs_diff_band *b = hs_diff_band_at(d, i);
        double x = by_peak ? (double)b->peak_bytes[0] : b->byte_seconds[0];
        double y = by_peak ? (double)b->peak_bytes[1] : b->byte_seconds[1];
        char sx[40], sy[40], sz[40], r[16];
        human(sx, sizeof sx, x, false, unit);
        human(sy, sizeof sy, y, false, unit);
        human(sz, sizeof sz, y - x, true, unit);
        if (b->status == HS_DIFF_NEW)
            snprintf(r, sizeof r, "new");
        else if (b->status == HS_DIFF_GONE)
            snprintf(r, sizeof r, "gone");
        else if (x > 0)
            snprintf(r, sizeof r, "%.2fx", y / x);
        else
            snprintf(r, sizeof r, "-");
        TRY(hs_sink_printf(out, "%14s %14s %15s %8s  ", sx, sy, sz, r));
        TRY(hs_put_escaped(out, b->name, false));
        TRY(hs_sink_printf(out, "%s\n", b->normalized_only ? "  (normalised)"
                                                           : ""));
    }
    return HS_OK;
}

int hs_render_diff_text(const hs_diff *d, hs_sink *out)
{
    TRY(runs_text(d, out));
    TRY(bands_text(d, out));
    return band_rows(d, out);
}
