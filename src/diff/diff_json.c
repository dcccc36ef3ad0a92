/*
 * The diff as one JSON object, for scripts and CI checks ("did the peak go
 * down?"). Figures are exact: bytes as integers, seconds and byte-seconds
 * with six decimals; a figure a run cannot give is null, never 0.
 */
#include "heapscope/diff.h"
#include "common/internal.h"
#include "common/json.h"
#include "diff/diff_internal.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

static int key_u64(hs_sink *out, const char *key, bool has, uint64_t v)
{
    if (!has)
        return hs_sink_printf(out, ", \"%s\": null", key);
    return hs_sink_printf(out, ", \"%s\": %" PRIu64, key, v);
}

static int gc_json(hs_sink *out, const hs_diff_run *r)
{
    if (!r->has_gc)
        return hs_sink_write(out, "null", 4);
    const hs_summary_stats *g = &r->gc;
    TRY(hs_sink_write(out, "{\"allocated_bytes\": ", 20));
    TRY(g->has_allocated ? hs_sink_printf(out, "%" PRIu64,
                                          g->allocated_bytes)
                         : hs_sink_write(out, "null", 4));
    TRY(key_u64(out, "copied_bytes", g->has_gc, g->copied_bytes));
    TRY(key_u64(out, "max_live_bytes", g->has_live, g->max_live_bytes));
    TRY(key_u64(out, "max_mem_in_use_bytes", g->has_heap_size,
                g->max_mem_in_use_bytes));
    TRY(key_u64(out, "collections", g->has_gc, r->collections));
    TRY(key_u64(out, "major_collections", g->has_gc, g->major_gcs));
    TRY(hs_sink_printf(out, ", \"gc_elapsed_s\": "));
    TRY(hs_json_number(out, g->has_pauses ? (double)g->gc_ns / 1e9 : NAN, 6));
    TRY(hs_sink_printf(out, ", \"mut_elapsed_s\": "));
    TRY(hs_json_number(out, g->has_pauses ? (double)g->mut_ns / 1e9 : NAN,
                       6));
    return hs_sink_write(out, "}", 1);
}

static int run_json(hs_sink *out, const char *key, const hs_diff_run *r)
{
    TRY(hs_sink_printf(out, "  \"%s\": {\"input\": ", key));
    TRY(hs_json_cstring(out, r->input));
    TRY(hs_sink_printf(out, ", \"peak_bytes\": %" PRIu64 ", \"peak_time_s\": ",
                       r->peak_bytes));
    TRY(hs_json_number(out, (double)r->peak_time_ns / 1e9, 6));
    TRY(hs_sink_printf(out, ", \"byte_seconds\": "));
    TRY(hs_json_number(out, r->byte_seconds, 6));
    TRY(hs_sink_printf(out, ", \"duration_s\": "));
    TRY(hs_json_number(out, (double)r->duration_ns / 1e9, 6));
    TRY(hs_sink_printf(out, ", \"samples\": %zu, \"bands\": %zu, \"gc\": ",
                       r->samples, r->bands));
    TRY(gc_json(out, r));
    return hs_sink_write(out, "},\n", 3);
}

static int window_json(const hs_diff *d, hs_sink *out)
{
    const hs_diff_run *a = hs_diff_get_run(d, HS_DIFF_BEFORE);
    const hs_diff_run *b = hs_diff_get_run(d, HS_DIFF_AFTER);
    TRY(hs_sink_printf(out, "  \"window\": {"));
    const hs_diff_run *r[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        TRY(hs_sink_printf(out, "%s\"%s\": {\"from_s\": ", k ? ", " : "",
                           k ? "after" : "before"));
        TRY(hs_json_number(out, (double)r[k]->from_ns / 1e9, 6));
        TRY(hs_sink_printf(out, ", \"to_s\": "));
        TRY(hs_json_number(out, (double)r[k]->to_ns / 1e9, 6));
        TRY(hs_sink_write(out, "}", 1));
    }
    TRY(hs_sink_printf(out, ", \"from_marker\": "));
    TRY(hs_json_cstring(out, hs_diff_from_marker(d)));
    TRY(hs_sink_printf(out, ", \"to_marker\": "));
    TRY(hs_json_cstring(out, hs_diff_to_marker(d)));
    return hs_sink_write(out, "},\n", 3);
}

static int band_json(hs_sink *out, const hs_diff_band *b, bool by_peak)
{
    static const char *const status[] = {"both", "new", "gone"};
    TRY(hs_sink_printf(out, "    {\"band\": "));
    TRY(hs_json_cstring(out, b->name));
    TRY(hs_sink_printf(out, ", \"status\": \"%s\", \"normalized_only\": %s, "
                       "\"before_peak_bytes\": %" PRIu64
                       ", \"after_peak_bytes\": %" PRIu64
                       ", \"change_peak_bytes\": %" PRId64
                       ", \"before_byte_seconds\": ",
                       status[b->status],
                       b->normalized_only ? "true" : "false",
                       b->peak_bytes[0], b->peak_bytes[1],
                       (int64_t)(b->peak_bytes[1] - b->peak_bytes[0])));
    TRY(hs_json_number(out, b->byte_seconds[0], 6));
    TRY(hs_sink_printf(out, ", \"after_byte_seconds\": "));
    TRY(hs_json_number(out, b->byte_seconds[1], 6));
    TRY(hs_sink_printf(out, ", \"change_byte_seconds\": "));
    TRY(hs_json_number(out, b->byte_seconds[1] - b->byte_seconds[0], 6));
    double x = by_peak ? (double)b->peak_bytes[0] : b->byte_seconds[0];
    double y = by_peak ? (double)b->peak_bytes[1] : b->byte_seconds[1];
    TRY(hs_sink_printf(out, ", \"ratio\": "));
    TRY(hs_json_number(out, x > 0 ? y / x : NAN, 6));
    return hs_sink_write(out, "}", 1);
}

int hs_render_diff_json(const hs_diff *d, hs_sink *out)
{
    uint32_t bd = hs_diff_breakdown(d);
    bool by_peak = hs_diff_get_order(d) == HS_DIFF_BY_PEAK;
    TRY(hs_sink_printf(out, "{\n  \"breakdown\": "));
    TRY(bd ? hs_sink_printf(out, "\"%s\"", hs_breakdown_flag(bd))
           : hs_sink_write(out, "null", 4));
    TRY(hs_sink_printf(out, ",\n  \"order\": \"%s\",\n  \"normalize\": %s,\n"
                       "  \"normalized_matches\": %zu,\n",
                       by_peak ? "peak" : "byte_seconds",
                       hs_diff_is_normalized(d) ? "true" : "false",
                       hs_diff_normalized_matches(d)));
    const hs_diff_run *a = hs_diff_get_run(d, HS_DIFF_BEFORE);
    const hs_diff_run *b = hs_diff_get_run(d, HS_DIFF_AFTER);
    if (!a->windowed && !b->windowed)
        TRY(hs_sink_printf(out, "  \"window\": null,\n"));
    else
        TRY(window_json(d, out));
    TRY(run_json(out, "before", a));
    TRY(run_json(out, "after", b));
    TRY(hs_sink_printf(out, "  \"bands\": ["));
    for (size_t i = 0; i < hs_diff_band_count(d); i++) {
        TRY(hs_sink_write(out, i ? ",\n" : "\n", i ? 2 : 1));
        TRY(band_json(out, hs_diff_band_at(d, i), by_peak));
    }
    return hs_sink_printf(out, "\n  ]\n}\n");
}
