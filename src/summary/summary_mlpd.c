/*
 * The GC summary of a Mono .mlpd (mlpd.h): what the census loader counted
 * (hs_census_mlpd_stats) in the line shapes of +RTS -s where a figure has
 * a GHC counterpart, and as JSON. The figures come from the census rather
 * than from events fed to hs_summary, whose every figure is defined by
 * GHC's events: Mono's differ (world stops, collections timed start to
 * end, heap shots), and faking GHC events would misname them.
 */
#include "heapscope/mlpd_census.h"
#include "heapscope/summary.h"
#include "summary/summary_internal.h"
#include "common/json.h"
#include "heapscope/version.h"

#include <inttypes.h>
#include <stdio.h>

/* v with thousands separators, in buf. */
static const char *commas(char *buf, size_t n, uint64_t v)
{
    hs__summary_commas(v, buf, n);
    return buf;
}

static double secs(uint64_t ns) { return (double)ns / 1e9; }

/* Something to summarise: GC events, heap shots or allocations (`alloc`
 * or `gcalloc` without `gc` records allocations and no collection). */
static bool has_gc(const hs_mlpd_gc_stats *s)
{
    return s->collections[0] || s->collections[1] || s->pauses ||
           s->max_heap_bytes || s->heap_shots || s->alloc_count;
}

int hs_mlpd_summary_text(const hs_census *c, hs_sink *out)
{
    const hs_mlpd_gc_stats *s = hs_census_mlpd_stats(c);
    if (!s || !has_gc(s))
        return HS_ERR_NO_DATA;
    char a[40];
    int st = HS_OK;
#define P(...) do { if (!st) st = hs_sink_printf(out, __VA_ARGS__); } while (0)
    if (s->alloc_count)
        P("%16s bytes allocated in the heap (%s objects)\n",
          commas(a, sizeof a, s->alloc_bytes),
          commas((char[40]){0}, 40, s->alloc_count));
    else
        P("%16s bytes allocated in the heap (the profiler's alloc option "
          "was off)\n", "n/a");
    P("%16s bytes maximum heap size (%" PRIu64 " heap shots)\n",
      commas(a, sizeof a, s->max_heap_bytes), s->heap_shots);
    if (s->heap_shots)
        P("%16s bytes maximum residency (the largest heap shot)\n",
          commas(a, sizeof a, s->max_live_bytes));
    P("\n");
    P("                                     Tot time (elapsed)  Avg pause  "
      "Max pause\n");
    for (int g = 0; g < 2; g++) {
        uint64_t n = s->collections[g];
        P("  Gen  %d     %5" PRIu64 " colls                %6.3fs   "
          "%6.4fs    %6.4fs\n", g, n, secs(s->gc_total_ns[g]),
          n ? secs(s->gc_total_ns[g]) / (double)n : 0.0,
          secs(s->gc_max_ns[g]));
    }
    P("  World stopped %" PRIu64 " times, %.3fs in total, longest %.4fs\n",
      s->pauses, secs(s->pause_total_ns), secs(s->pause_max_ns));
    P("\n  Total   time    %6.3fs elapsed (first buffer to last event)\n",
      secs(s->duration_ns));
#undef P
    return st;
}

int hs_mlpd_summary_json(const hs_census *c, const char *input, hs_sink *out)
{
    const hs_mlpd_gc_stats *s = hs_census_mlpd_stats(c);
    if (!s || !has_gc(s))
        return HS_ERR_NO_DATA;
    int st = HS_OK;
#define P(...) do { if (!st) st = hs_sink_printf(out, __VA_ARGS__); } while (0)
    /* what it describes, as the eventlog summary's JSON says it */
    P("{\"heapscope_version\":");
    if (!st)
        st = hs_json_cstring(out, hs_version());
    P(",\"input\":");
    if (!st)
        st = hs_json_cstring(out, input);
    P(",\"program\":");
    if (!st)
        st = hs_json_cstring(out, hs_census_get_info(c)->program);
    P(",\"source\":\"mlpd\",\"elapsed_ns\":%" PRIu64 ",", s->duration_ns);
    if (s->alloc_count)
        P("\"allocated_bytes\":%" PRIu64 ",\"allocated_objects\":%" PRIu64
          ",", s->alloc_bytes, s->alloc_count);
    else
        P("\"allocated_bytes\":null,\"allocated_objects\":null,");
    P("\"max_heap_bytes\":%" PRIu64 ",\"heap_shots\":%" PRIu64 ",",
      s->max_heap_bytes, s->heap_shots);
    if (s->heap_shots)
        P("\"max_live_bytes\":%" PRIu64 ",", s->max_live_bytes);
    else
        P("\"max_live_bytes\":null,");
    P("\"generations\":[");
    for (int g = 0; g < 2; g++)
        P("%s{\"gen\":%d,\"collections\":%" PRIu64 ",\"elapsed_ns\":%" PRIu64
          ",\"max_pause_ns\":%" PRIu64 "}", g ? "," : "", g,
          s->collections[g], s->gc_total_ns[g], s->gc_max_ns[g]);
    P("],\"world_stops\":{\"count\":%" PRIu64 ",\"total_ns\":%" PRIu64
      ",\"max_ns\":%" PRIu64 "},", s->pauses, s->pause_total_ns,
      s->pause_max_ns);
    P("\"late_vtables\":%" PRIu64 "}\n", s->late_vtables);
#undef P
    return st;
}
