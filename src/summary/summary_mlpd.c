/*
 * The GC summary of a Mono .mlpd: the figures read/mlpd_figures.c counts,
 * fed straight from the reader's events (hs_mlpd_summary: read ->
 * summary, over the whole file or a window of it) or taken from a census
 * whose loader counted them (hs_census_mlpd_stats), in the line shapes of
 * +RTS -s where a figure has a GHC counterpart, and as JSON. They are not
 * events fed to hs_summary, whose every figure is defined by GHC's
 * events: Mono's differ (world stops, collections timed start to end,
 * heap shots), and faking GHC events would misname them.
 */
#include "heapscope/mlpd_census.h"
#include "heapscope/summary.h"
#include "summary/summary_internal.h"
#include "read/mlpd_figures.h"
#include "common/json.h"
#include "heapscope/version.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

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

/* The window's ends as printed: from, and from + the time in it. */
struct window { bool on; uint64_t from, to; };

static int put_text(const hs_mlpd_gc_stats *s, const struct window *w,
                    hs_sink *out)
{
    if (!s || !has_gc(s))
        return HS_ERR_NO_DATA;
    char a[40];
    int st = HS_OK;
#define P(...) do { if (!st) st = hs_sink_printf(out, __VA_ARGS__); } while (0)
    if (w->on)
        P("  Window: %.6fs to %.6fs\n", secs(w->from), secs(w->to));
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
    for (int g = 0; g < 2; g++)
        if (s->concurrent[g])
            P("  %" PRIu64 " of gen %d's collections ran concurrently (the "
              "world restarted\n  before they ended): their times include "
              "the program's, and the pauses\n  are the world stops\n",
              s->concurrent[g], g);
    P("\n  Total   time    %6.3fs elapsed (first buffer to last event)\n",
      secs(s->duration_ns));
#undef P
    return st;
}

static int put_json(const hs_mlpd_gc_stats *s, const struct window *w,
                    const char *program, const char *input, hs_sink *out)
{
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
        st = hs_json_cstring(out, program);
    if (w->on)
        P(",\"window\":{\"from_ns\":%" PRIu64 ",\"to_ns\":%" PRIu64 "}",
          w->from, w->to);
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
          ",\"max_pause_ns\":%" PRIu64 ",\"concurrent\":%" PRIu64 "}",
          g ? "," : "", g, s->collections[g], s->gc_total_ns[g],
          s->gc_max_ns[g], s->concurrent[g]);
    P("],\"world_stops\":{\"count\":%" PRIu64 ",\"total_ns\":%" PRIu64
      ",\"max_ns\":%" PRIu64 "},", s->pauses, s->pause_total_ns,
      s->pause_max_ns);
    P("\"late_vtables\":%" PRIu64 "}\n", s->late_vtables);
#undef P
    return st;
}

static const struct window no_window = {false, 0, 0};

int hs_mlpd_summary_text(const hs_census *c, hs_sink *out)
{
    return put_text(hs_census_mlpd_stats(c), &no_window, out);
}

int hs_mlpd_summary_json(const hs_census *c, const char *input, hs_sink *out)
{
    return put_json(hs_census_mlpd_stats(c), &no_window,
                    hs_census_get_info(c)->program, input, out);
}

/* --- read -> summary ----------------------------------------------------- */

struct hs_mlpd_summary {
    hs_allocator alloc_store;
    const hs_allocator *a;
    hs__mlpd_figures f;
    bool started, finished;
    hs_error err;            /* the file ended inside a heap shot */
    const char *warning;     /* about the input, or NULL */
};

hs_mlpd_summary *hs_mlpd_summary_new(void)
{
    return hs_mlpd_summary_new_with(NULL);
}

hs_mlpd_summary *hs_mlpd_summary_new_with(const hs_allocator *alloc)
{
    hs_mlpd_summary *s = hs_calloc(alloc, 1, sizeof *s);
    if (!s)
        return NULL;
    s->a = hs_alloc_copy(&s->alloc_store, alloc);
    hs__mlpd_figures_init(&s->f, s->a);
    return s;
}

void hs_mlpd_summary_free(hs_mlpd_summary *s)
{
    if (!s)
        return;
    hs__mlpd_figures_free(&s->f);
    hs_free(s->a, s);
}

int hs_mlpd_summary_set_window(hs_mlpd_summary *s, const hs_summary_window *w)
{
    if (s->started)
        return HS_ERR_MISUSE;
    if (w->from_marker || w->to_marker || w->from_ns > w->to_ns)
        return HS_ERR_INVALID;
    hs__mlpd_figures_window(&s->f, w->from_ns, w->to_ns);
    return HS_OK;
}

int hs_mlpd_summary_add(hs_mlpd_summary *s, const hs_mlpd_event *ev)
{
    if (s->finished)
        return HS_ERR_MISUSE;
    s->started = true;
    return hs__mlpd_figures_add(&s->f, ev);
}

/* The truncation record: the reader's (a cut inside a buffer), or a cut
 * between buffers inside a heap shot; with the shot left out named, as
 * the census names its cut sample. */
static void cut_record(hs_mlpd_summary *s, const hs_mlpd_reader *r, bool cut)
{
    const hs_error *re = hs_mlpd_reader_error(r);
    if (re->code == HS_TRUNCATED)
        s->err = *re;
    else if (cut)
        hs__mlpd_between_buffers(hs_mlpd_reader_offset(r), &s->err);
    if (!cut || s->err.code != HS_TRUNCATED)
        return;
    uint64_t tenth_ms = (s->f.shot_time + 50000) / 100000;
    size_t n = strlen(s->err.message);
    snprintf(s->err.message + n, sizeof s->err.message - n,
             "; the last heap shot, at %llu.%04llu s, was cut and is left "
             "out", (unsigned long long)(tenth_ms / 10000),
             (unsigned long long)(tenth_ms % 10000));
}

int hs_mlpd_summary_finish(hs_mlpd_summary *s, const hs_mlpd_reader *r)
{
    if (!s->finished) {
        bool cut = hs__mlpd_figures_finish(&s->f);
        if (r)
            cut_record(s, r, cut);
        if (r && !hs_mlpd_reader_error(r)->code && !hs_mlpd_reader_buffers(r))
            s->warning = hs__mlpd_no_buffer;
    }
    s->finished = true;
    if (!has_gc(&s->f.s))
        return HS_ERR_NO_DATA;
    return s->err.code == HS_TRUNCATED ? HS_TRUNCATED : HS_OK;
}

const char *hs_mlpd_summary_warning(const hs_mlpd_summary *s)
{
    return s->warning;
}

const hs_error *hs_mlpd_summary_error(const hs_mlpd_summary *s)
{
    return &s->err;
}

const hs_mlpd_gc_stats *hs_mlpd_summary_get_stats(const hs_mlpd_summary *s)
{
    return s->finished ? &s->f.s : NULL;
}

static struct window window_of(const hs_mlpd_summary *s)
{
    const hs__mlpd_figures *f = &s->f;
    return (struct window){f->windowed, f->from,
                           f->from + f->s.duration_ns};
}

int hs_mlpd_summary_write_text(const hs_mlpd_summary *s, hs_sink *out)
{
    struct window w = window_of(s);
    return put_text(hs_mlpd_summary_get_stats(s), &w, out);
}

int hs_mlpd_summary_write_json(const hs_mlpd_summary *s, const char *input,
                               hs_sink *out)
{
    struct window w = window_of(s);
    return put_json(hs_mlpd_summary_get_stats(s), &w, s->f.program, input,
                    out);
}
