/*
 * The summary as one JSON object (summary.h lists the keys). A figure the
 * log cannot give is null, never 0, so a consumer cannot mistake a
 * missing figure for a measured one.
 */
#include "summary/summary_internal.h"
#include "common/json.h"

#include <inttypes.h>

static int json_u64(hs_sink *out, const char *key, bool has, uint64_t v)
{
    if (!has)
        return hs_sink_printf(out, ",\n  \"%s\": null", key);
    return hs_sink_printf(out, ",\n  \"%s\": %" PRIu64, key, v);
}

static int json_key_str(hs_sink *out, const char *key, const char *v)
{
    TRY(hs_sink_printf(out, ",\n  \"%s\": ", key));
    return hs_json_cstring(out, v);
}

/* What the object describes: heapscope's version, the input, the
 * program, the window and the runtime. */
static int put_about(const hs_summary *s, hs_sink *out)
{
    const hs_summary_stats *st = &s->stats;
    TRY(hs_sink_printf(out, "{\n  \"heapscope_version\": "));
    TRY(hs_json_cstring(out, hs_version()));
    TRY(json_key_str(out, "input", s->input));
    TRY(json_key_str(out, "program", summary_program(s)));
    TRY(hs_sink_printf(out, ",\n  \"window\": "));
    if (st->windowed) {
        TRY(hs_sink_printf(out, "{\"from_ns\": %" PRIu64 ", \"to_ns\": %"
                           PRIu64 ", \"from_marker\": ", st->from_ns,
                           st->to_ns));
        TRY(hs_json_cstring(out, s->from_marker));
        TRY(hs_sink_printf(out, ", \"to_marker\": "));
        TRY(hs_json_cstring(out, s->to_marker));
        TRY(hs_sink_printf(out, "}"));
    } else {
        TRY(hs_sink_printf(out, "null"));
    }
    TRY(json_key_str(out, "rts", s->rts_id));
    return hs_sink_printf(out, ",\n  \"threaded\": %s,\n  \"heap_profiled\": "
                          "%s", st->threaded ? "true" : "false",
                          st->heap_profiled ? "true" : "false");
}

static int put_generations(const hs_summary_stats *st, hs_sink *out)
{
    TRY(hs_sink_printf(out, ",\n  \"generations\": "));
    if (!st->has_gc)
        return hs_sink_printf(out, "null");
    TRY(hs_sink_printf(out, "["));
    for (uint32_t g = 0; g < st->n_gens; g++) {
        const hs_summary_gen *gs = &st->gens[g];
        TRY(hs_sink_printf(out, "%s\n    {\"gen\": %" PRIu32
                           ", \"collections\": %" PRIu32
                           ", \"par_collections\": %" PRIu32
                           ", \"timed\": %" PRIu32
                           ", \"copied_bytes\": %" PRIu64,
                           g ? "," : "", g, gs->collections,
                           gs->par_collections, gs->timed,
                           gs->copied_bytes));
        if (st->has_pauses)
            TRY(hs_sink_printf(out, ", \"elapsed_ns\": %" PRIu64
                               ", \"avg_pause_ns\": %" PRIu64
                               ", \"max_pause_ns\": %" PRIu64 "}",
                               gs->elapsed_ns, summary_avg_pause(gs),
                               gs->max_pause_ns));
        else
            TRY(hs_sink_printf(out, ", \"elapsed_ns\": null, "
                               "\"avg_pause_ns\": null, "
                               "\"max_pause_ns\": null}"));
    }
    return hs_sink_printf(out, "\n  ]");
}

static int put_balance_sparks(const hs_summary_stats *st, hs_sink *out)
{
    if (st->has_work_balance)
        TRY(hs_sink_printf(out, ",\n  \"work_balance_percent\": %.4f",
                           st->work_balance * 100));
    else
        TRY(hs_sink_printf(out, ",\n  \"work_balance_percent\": null"));
    if (!st->has_sparks)
        return hs_sink_printf(out, ",\n  \"sparks\": null");
    return hs_sink_printf(out, ",\n  \"sparks\": {\"count\": %" PRIu64
                          ", \"created\": %" PRIu64 ", \"converted\": %"
                          PRIu64 ", \"overflowed\": %" PRIu64 ", \"dud\": %"
                          PRIu64 ", \"gcd\": %" PRIu64 ", \"fizzled\": %"
                          PRIu64 "}",
                          st->sparks_created + st->sparks_dud +
                              st->sparks_overflowed,
                          st->sparks_created, st->sparks_converted,
                          st->sparks_overflowed, st->sparks_dud,
                          st->sparks_gcd, st->sparks_fizzled);
}

static int put_times(const hs_summary_stats *st, hs_sink *out)
{
    TRY(json_u64(out, "total_elapsed_ns", true, st->total_ns));
    TRY(json_u64(out, "gc_elapsed_ns", st->has_pauses, st->gc_ns));
    TRY(json_u64(out, "mut_elapsed_ns", st->has_pauses, st->mut_ns));
    if (st->has_pauses && st->total_ns)
        TRY(hs_sink_printf(out, ",\n  \"productivity_elapsed_percent\": %.4f",
                           (double)st->mut_ns * 100 / (double)st->total_ns));
    else
        TRY(hs_sink_printf(out, ",\n  \"productivity_elapsed_percent\": "
                           "null"));
    return json_u64(out, "alloc_rate_bytes_per_mut_second",
                    st->has_alloc_rate, st->alloc_rate);
}

static int put_caps(const hs_summary_stats *st, hs_sink *out)
{
    TRY(hs_sink_printf(out, ",\n  \"capabilities\": ["));
    for (uint32_t i = 0; i < st->n_caps; i++) {
        const hs_summary_cap *c = &st->caps[i];
        TRY(hs_sink_printf(out, "%s\n    {\"cap\": ", i ? "," : ""));
        if (c->cap == UINT32_MAX)
            TRY(hs_sink_printf(out, "null"));
        else
            TRY(hs_sink_printf(out, "%" PRIu32, c->cap));
        TRY(hs_sink_printf(out, ", \"gc_intervals\": %" PRIu32 ", \"led\": %"
                           PRIu32 ", \"gc_elapsed_ns\": %" PRIu64
                           ", \"allocated_bytes\": %" PRIu64 "}",
                           c->gcs, c->led, c->gc_elapsed_ns,
                           c->allocated_bytes));
    }
    return hs_sink_printf(out, "%s]", st->n_caps ? "\n  " : "");
}

/* ",\n  \"key\": [ strings ]" */
static int put_list(hs_sink *out, const char *key, const char *const *items,
                    size_t n)
{
    TRY(hs_sink_printf(out, ",\n  \"%s\": [", key));
    for (size_t i = 0; i < n; i++) {
        TRY(hs_sink_printf(out, "%s\n    ", i ? "," : ""));
        TRY(hs_json_cstring(out, items[i]));
    }
    return hs_sink_printf(out, "%s]", n ? "\n  " : "");
}

int hs_summary_render_json(const hs_summary *s, hs_sink *out)
{
    if (!s->has_stats)
        return HS_ERR_MISUSE;
    const hs_summary_stats *st = &s->stats;
    TRY(put_about(s, out));
    TRY(json_u64(out, "allocated_bytes", st->has_allocated,
                 st->allocated_bytes));
    TRY(json_u64(out, "copied_bytes", st->has_gc, st->copied_bytes));
    TRY(json_u64(out, "max_live_bytes", st->has_live, st->max_live_bytes));
    TRY(json_u64(out, "live_samples", st->has_gc, st->major_gcs));
    TRY(json_u64(out, "max_slop_bytes", st->has_slop, st->max_slop_bytes));
    TRY(json_u64(out, "max_mem_in_use_bytes", st->has_heap_size,
                 st->max_mem_in_use_bytes));
    TRY(json_u64(out, "mem_in_use_mib", st->has_heap_size,
                 st->max_mem_in_use_bytes / (1024 * 1024)));
    TRY(put_generations(st, out));
    TRY(json_u64(out, "nonmoving_syncs", st->has_nonmoving_syncs,
                 st->nonmoving_syncs));
    TRY(json_u64(out, "nonmoving_sync_elapsed_ns", st->has_nonmoving_syncs,
                 st->nonmoving_sync_ns));
    TRY(json_u64(out, "nonmoving_sync_max_ns", st->has_nonmoving_syncs,
                 st->nonmoving_sync_max_ns));
    TRY(put_balance_sparks(st, out));
    TRY(put_times(st, out));
    TRY(put_caps(st, out));

    textlist u = {0}, n = {0};
    summary_unavailable(s, &u);
    summary_notes(s, &n);
    const char *warnings[MAX_WARNINGS];
    for (size_t i = 0; i < s->nwarnings; i++)
        warnings[i] = s->warnings[i];
    TRY(put_list(out, "unavailable", u.items, (size_t)u.n));
    TRY(put_list(out, "notes", n.items, (size_t)n.n));
    TRY(put_list(out, "warnings", warnings, s->nwarnings));
    return hs_sink_printf(out, "\n}\n");
}
