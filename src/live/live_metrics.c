/*
 * A followed stream's figures as text machines read: Prometheus' text
 * exposition format for /metrics, one JSON object per status line.
 */
#include "heapscope/live.h"
#include "common/internal.h"
#include "common/json.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define TRY(x) do { int rc_ = (x); if (rc_) return rc_; } while (0)

/* One metric with its HELP and TYPE; bytes and counts print as integers,
 * seconds with nanosecond digits. Left out when the log lacks it. */
static int metric(hs_sink *o, const char *name, const char *type,
                  const char *help, bool has, uint64_t n, double secs)
{
    if (!has)
        return HS_OK;
    TRY(hs_sink_printf(o, "# HELP %s %s\n# TYPE %s %s\n%s ", name, help,
                       name, type, name));
    if (secs >= 0)
        return hs_sink_printf(o, "%.9f\n", secs);
    return hs_sink_printf(o, "%" PRIu64 "\n", n);
}

#define GAUGE(o, name, help, has, n) \
    metric(o, name, "gauge", help, has, n, -1)
#define COUNTER(o, name, help, has, n) \
    metric(o, name, "counter", help, has, n, -1)
#define SECONDS(o, name, help, has, s) \
    metric(o, name, "gauge", help, has, 0, s)

static int per_gen(hs_sink *o, const hs_live_metrics *m)
{
    if (!m->n_gens)
        return HS_OK;
    TRY(hs_sink_printf(o, "# HELP heapscope_collections_total Garbage "
                       "collections per generation.\n"
                       "# TYPE heapscope_collections_total counter\n"));
    for (uint32_t g = 0; g < m->n_gens; g++)
        TRY(hs_sink_printf(o, "heapscope_collections_total{gen=\"%u\"} %u\n",
                           g, m->collections[g]));
    TRY(hs_sink_printf(o, "# HELP heapscope_pause_seconds_total Time the "
                       "program stood in collections, per generation.\n"
                       "# TYPE heapscope_pause_seconds_total counter\n"));
    for (uint32_t g = 0; g < m->n_gens; g++)
        TRY(hs_sink_printf(o, "heapscope_pause_seconds_total{gen=\"%u\"} "
                           "%.9f\n", g, m->pause_ns[g] / 1e9));
    return HS_OK;
}

/* The largest bands of the last complete census, largest first. */
static int bands(hs_live *l, hs_sink *o, const hs_live_metrics *m,
                 unsigned top)
{
    if (!m->samples || !top)
        return HS_OK;
    const hs_census *c = hs_live_census(l);
    const hs_census_entry *e;
    size_t n = hs_census_sample_entries(c, m->samples - 1, &e);
    TRY(hs_sink_printf(o, "# HELP heapscope_census_band_bytes Bytes of the "
                       "largest bands in the last heap census.\n"
                       "# TYPE heapscope_census_band_bytes gauge\n"));
    /* Selection by repeated scans: top is small (a few dozen). */
    uint64_t bound = UINT64_MAX;
    size_t bound_at = SIZE_MAX;
    for (unsigned k = 0; k < top && k < n; k++) {
        size_t best = SIZE_MAX;
        for (size_t i = 0; i < n; i++) {
            bool below = e[i].bytes < bound ||
                         (e[i].bytes == bound && i > bound_at);
            if (below && (best == SIZE_MAX || e[i].bytes > e[best].bytes))
                best = i;
        }
        if (best == SIZE_MAX)
            break;
        TRY(hs_sink_printf(o, "heapscope_census_band_bytes{band=\""));
        TRY(hs_prom_label_value(o, hs_census_band_name(c, e[best].band)));
        TRY(hs_sink_printf(o, "\"} %" PRIu64 "\n", e[best].bytes));
        bound = e[best].bytes;
        bound_at = best;
    }
    return HS_OK;
}

int hs_live_render_prometheus(hs_live *l, const hs_live_metrics *m,
                              hs_sink *o, unsigned top_bands)
{
    TRY(GAUGE(o, "heapscope_heap_size_bytes",
              "Heap size the runtime reserved (HEAP_SIZE).",
              m->has_heap_size, m->heap_size));
    TRY(GAUGE(o, "heapscope_live_bytes",
              "Live bytes after the last major collection (HEAP_LIVE).",
              m->has_live, m->live));
    TRY(GAUGE(o, "heapscope_blocks_bytes",
              "Bytes in allocated blocks (BLOCKS_SIZE).", m->has_blocks,
              m->blocks));
    TRY(COUNTER(o, "heapscope_allocated_bytes_total",
                "Bytes allocated, all capabilities.", m->has_allocated,
                m->allocated));
    TRY(per_gen(o, m));
    TRY(SECONDS(o, "heapscope_max_pause_seconds",
                "Longest collection pause so far.", m->n_gens > 0,
                m->max_pause_ns / 1e9));
    TRY(GAUGE(o, "heapscope_census_samples", "Heap censuses received.",
              true, m->samples));
    TRY(GAUGE(o, "heapscope_census_total_bytes",
              "Bytes in the last heap census.", m->samples > 0,
              m->census_total));
    TRY(bands(l, o, m, top_bands));
    TRY(SECONDS(o, "heapscope_merged_before_seconds",
                "Censuses before this time are merged into buckets of each "
                "band's maximum, time-profile ticks into buckets of their "
                "count (watch --max-samples).", m->compacted,
                m->compacted_until_ns / 1e9));
    uint64_t bucket = hs_census_tprof_bucket_ns(hs_live_census(l));
    TRY(SECONDS(o, "heapscope_tprof_bucket_seconds",
                "Width of the buckets merged time-profile ticks are counted "
                "in: time-profile windows before heapscope_merged_before_"
                "seconds are this precise.", bucket > 0, bucket / 1e9));
    TRY(GAUGE(o, "heapscope_markers", "User markers seen.", true,
              m->markers));
    TRY(COUNTER(o, "heapscope_events_total", "Events read.", true,
                m->events));
    TRY(COUNTER(o, "heapscope_stream_bytes_total",
                "Bytes of the eventlog read.", true, m->bytes));
    TRY(SECONDS(o, "heapscope_elapsed_seconds",
                "The program's clock at its latest event.", true,
                m->elapsed_ns / 1e9));
    return HS_OK;
}

static int json_opt(hs_sink *o, const char *key, bool has, uint64_t v)
{
    if (!has)
        return hs_sink_printf(o, ",\"%s\":null", key);
    return hs_sink_printf(o, ",\"%s\":%" PRIu64, key, v);
}

int hs_live_render_status(const hs_live *l, const hs_live_metrics *m,
                          hs_sink *o, const char *state, const char *error)
{
    TRY(hs_sink_printf(o, "{\"state\":"));
    TRY(hs_json_cstring(o, state));
    TRY(hs_sink_printf(o, ",\"elapsed_s\":%.6f,\"stream_bytes\":%" PRIu64
                       ",\"events\":%" PRIu64, m->elapsed_ns / 1e9, m->bytes,
                       m->events));
    TRY(json_opt(o, "heap_size_bytes", m->has_heap_size, m->heap_size));
    TRY(json_opt(o, "live_bytes", m->has_live, m->live));
    TRY(json_opt(o, "blocks_bytes", m->has_blocks, m->blocks));
    TRY(json_opt(o, "allocated_bytes", m->has_allocated, m->allocated));
    TRY(hs_sink_printf(o, ",\"alloc_rate_bytes_per_s\":%.0f,\"collections\":[",
                       m->alloc_rate));
    for (uint32_t g = 0; g < m->n_gens; g++)
        TRY(hs_sink_printf(o, "%s%u", g ? "," : "", m->collections[g]));
    TRY(hs_sink_printf(o, "],\"max_pause_s\":%.6f,\"samples\":%zu",
                       m->max_pause_ns / 1e9, m->samples));
    if (m->samples) {
        TRY(hs_sink_printf(o, ",\"census\":{\"time_s\":%.6f,\"total_bytes\":%"
                           PRIu64 ",\"top\":[", m->census_time_ns / 1e9,
                           m->census_total));
        for (size_t k = 0; k < m->n_top; k++) {
            TRY(hs_sink_printf(o, "%s{\"band\":", k ? "," : ""));
            TRY(hs_json_cstring(o, hs_census_band_name(hs_live_census(l),
                                                   m->top_band[k])));
            TRY(hs_sink_printf(o, ",\"bytes\":%" PRIu64 "}", m->top_bytes[k]));
        }
        TRY(hs_sink_printf(o, "]}"));
    } else {
        TRY(hs_sink_printf(o, ",\"census\":null"));
    }
    TRY(hs_sink_printf(o, ",\"markers\":%zu", m->markers));
    uint64_t bucket = hs_census_tprof_bucket_ns(hs_live_census(l));
    if (m->compacted)
        TRY(hs_sink_printf(o, ",\"merged_before_s\":%.6f",
                           m->compacted_until_ns / 1e9));
    if (m->compacted && bucket) /* time-profile windows before it */
        TRY(hs_sink_printf(o, ",\"tprof_bucket_s\":%.6f", bucket / 1e9));
    if (error && *error) {
        TRY(hs_sink_printf(o, ",\"error\":"));
        TRY(hs_json_cstring(o, error));
    }
    return hs_sink_printf(o, "}\n");
}

int hs_live_render_json(const hs_live *l, const hs_live_metrics *m,
                        hs_sink *o, const char *state)
{
    return hs_live_render_status(l, m, o, state, NULL);
}

/* --- no census yet ------------------------------------------------------ */

#define HINT \
    "No heap census yet. Before GHC 9.2 the runtime flushes its eventlog " \
    "only at exit or when its 2 MiB buffer fills, so censuses come late; " \
    "on GHC 9.2 or later, run the program with +RTS " \
    "--eventlog-flush-interval=1 to flush every second (and a heap " \
    "profile, +RTS -h)."

const char *hs_live_census_hint(const hs_live_metrics *m,
                                hs_live_source_kind kind)
{
    if (m->samples || (!m->n_gens && !m->has_heap_size && !m->has_live))
        return NULL;
    if (kind == HS_LIVE_UNIX || kind == HS_LIVE_TCP)
        return HINT " With eventlog-socket, watch --census-every S asks "
                    "the program for a census every S seconds.";
    return HINT;
}
