/*
 * The state of a followed stream: one reader, fed whatever bytes arrive,
 * hands every event to the census and the GC summary in stream order, the
 * same two consumers the batch commands use, so the final census and
 * summary of a stream equal the batch ones for the same bytes. As in the
 * batch loader's one pass, only the events of the tags either reads are
 * decoded and handed over; the others (most of a real log: scheduler and
 * GC phase events) are only counted by the read loop, and what they change
 * (the counts, the end of the run, the capabilities) is handed over at
 * the end of every chunk, before anyone can ask for a figure.
 *
 * The figures of a status line that neither keeps as a "latest value"
 * (heap size, live bytes, blocks) are noted here per event; everything
 * else is read from the census and a summary snapshot when asked.
 */
#include "heapscope/live.h"
#include "common/internal.h"
#include "census/census_build.h"
#include "census/census_compact.h"
#include "load/load_eventlog.h"
#include "read/read_eventlog.h"
#include "summary/summary_bulk.h"

#include <stdio.h>
#include <string.h>

/* The entry budget of compaction, per sample of max_samples: room for
 * that many bands in every sample before merging starts early. */
#define ENTRIES_PER_SAMPLE 64
/* The time profile's budget, per sample of max_samples: at most that
 * many merged records (24 bytes each) and as many raw samples (16). */
#define TPROF_RECORDS_PER_SAMPLE 16

/* What an event of a tag goes through besides the summary (the live
 * state's to[]): the census, and the live state's own notes. */
enum {
    TO_CENSUS = 1,
    TO_EDGE_BEFORE = 2,      /* a sample begins: compaction may run first */
    TO_EDGE_AFTER = 4,       /* a sample ends */
    TO_LINE = 8,             /* heap size, live bytes, blocks */
    TO_TPROF = 16,           /* a time-profile sample */
};

struct hs_live {
    hs_allocator alloc_store;
    const hs_allocator *alloc;
    hs_reader *reader;
    hs_census *census;
    hs_summary *summary;
    int status;              /* HS_OK, HS_DONE, or the sticky error */
    bool finished;
    bool warned;             /* the reader's warning is in the census */
    hs_error err;
    uint64_t bytes;
    uint64_t given;          /* events of this chunk given to the summary */
    uint8_t to[256];         /* TO_* by tag: what an event goes through */

    /* latest values of the heap lines (the census keeps every point, but
     * may merge old ones; the newest is what a status line shows) */
    bool has_heap_size, has_live, has_blocks;
    uint64_t heap_size, live, blocks;

    /* heap samples known complete: every sample before an open one */
    size_t complete_samples;

    size_t compact_max, compact_keep;
    hs_census_compaction compaction;

    /* two (time, allocated) bases of the allocation rate */
    bool rate_n;
    uint64_t rate_t[2], rate_a[2];
};

hs_live *hs_live_new(void) { return hs_live_new_with(NULL); }

hs_live *hs_live_new_with(const hs_allocator *alloc)
{
    hs_live *l = hs_calloc(alloc, 1, sizeof *l);
    if (!l)
        return NULL;
    l->alloc = hs_alloc_copy(&l->alloc_store, alloc);
    l->reader = hs_reader_new();
    l->census = hs_census_new_with(l->alloc);
    l->summary = hs_summary_new();
    if (!l->reader || !l->census || !l->summary) {
        hs_live_free(l);
        return NULL;
    }
    /* Events neither reads (scheduler, most GC events) cost no decoding:
     * both count them undecoded as they would decoded. */
    hs__load_decode_for(l->reader, true, true);
    uint16_t tags[256];
    size_t n = hs_census_event_tags(tags, 256);
    for (size_t i = 0; i < n && i < 256; i++)
        if (tags[i] < 256)
            l->to[tags[i]] = TO_CENSUS;
    l->to[HS_EV_HEAP_PROF_SAMPLE_BEGIN] |= TO_EDGE_BEFORE;
    l->to[HS_EV_HEAP_BIO_PROF_SAMPLE_BEGIN] |= TO_EDGE_BEFORE;
    l->to[HS_EV_HEAP_PROF_SAMPLE_END] |= TO_EDGE_AFTER;
    l->to[HS_EV_HEAP_SIZE] |= TO_LINE;
    l->to[HS_EV_HEAP_LIVE] |= TO_LINE;
    l->to[HS_EV_BLOCKS_SIZE] |= TO_LINE;
    l->to[HS_EV_PROF_SAMPLE_COST_CENTRE] |= TO_TPROF;
    return l;
}

void hs_live_free(hs_live *l)
{
    if (!l)
        return;
    hs_reader_free(l->reader);
    hs_census_free(l->census);
    hs_summary_free(l->summary);
    hs_free(l->alloc, l);
}

void hs_live_set_name_limit(hs_live *l, unsigned limit)
{
    hs_census_set_name_limit(l->census, limit);
}

void hs_live_set_compaction(hs_live *l, size_t max_samples, size_t keep_recent)
{
    if (max_samples && keep_recent >= max_samples)
        keep_recent = max_samples / 2;
    l->compact_max = max_samples;
    l->compact_keep = keep_recent;
}

hs_census *hs_live_census(const hs_live *l) { return l->census; }
hs_summary *hs_live_summary(const hs_live *l) { return l->summary; }
const hs_error *hs_live_error(const hs_live *l) { return &l->err; }

static int fail(hs_live *l, const hs_error *e)
{
    l->err = *e;
    l->status = e->code < 0 ? e->code : HS_ERR_INVALID;
    return l->status;
}

/* A census is complete when the next one begins or its SAMPLE_END comes
 * (GHC 8.2/8.4 write no SAMPLE_END). Compaction runs only then, between
 * samples, never under an open one: at both edges, since a log without
 * SAMPLE_END has no other, and compacting only at SAMPLE_END let such a
 * census grow with the run whatever --max-samples said. A biographical
 * census (HEAP_BIO_PROF_SAMPLE_BEGIN) opens a sample as the other
 * BEGIN does; passing it over let a -hb stream without SAMPLE_END add
 * samples past the bound (found by fuzz_live). Called at those edges
 * only (TO_EDGE_BEFORE, TO_EDGE_AFTER): before the census takes a BEGIN,
 * after it took a SAMPLE_END. */
static int note_sample_edge(hs_live *l, const hs_event *ev, bool before)
{
    size_t n = hs_census_sample_count(l->census);
    l->complete_samples = n;
    if (before && !ev->known) /* the census will not open a sample */
        return HS_OK;
    /* Bands x samples is what grows: the entry budget bounds memory
     * whatever the number of bands (16 bytes an entry). */
    if (l->compact_max && (n >= l->compact_max ||
                           hs__census_entry_count(l->census) >=
                               l->compact_max * ENTRIES_PER_SAMPLE)) {
        size_t max = n < l->compact_max ? n : l->compact_max;
        size_t keep = l->compact_keep < max / 2 ? l->compact_keep : max / 2;
        int st = before ? hs__census_compact_at_begin(l->census,
                                                      &l->compaction, max,
                                                      keep)
                        : hs__census_compact(l->census, &l->compaction, max,
                                             keep);
        if (st < 0)
            return st;
        l->complete_samples = hs_census_sample_count(l->census);
        /* the time profile's samples merged to the same horizon */
        if (l->compaction.buckets &&
            (st = hs__census_tprof_merge(l->census, l->compaction.until_ns,
                                         l->compact_max *
                                             TPROF_RECORDS_PER_SAMPLE)) < 0)
            return st;
    }
    return HS_OK;
}

/* A time profile grows by a sample a tick per capability whether heap
 * censuses come or not (a -p run without -h, a long -i): past its budget
 * of raw samples all but the latest half are merged, the horizon then
 * the time of the first one kept. Called after each such sample
 * (TO_TPROF). */
static int bound_tprof(hs_live *l)
{
    size_t budget = l->compact_max * TPROF_RECORDS_PER_SAMPLE;
    if (!l->compact_max || hs__census_tprof_raw_count(l->census) < budget)
        return HS_OK;
    size_t n = hs_census_tprof_sample_count(l->census);
    uint64_t t;
    uint32_t cap;
    hs_census_tprof_sample(l->census, n - budget / 2, &t, &cap);
    return hs__census_tprof_merge(l->census, t, budget);
}

static void note_lines(hs_live *l, const hs_event *ev)
{
    if (!ev->known)
        return;
    switch (ev->tag) {
    case HS_EV_HEAP_SIZE:
        l->has_heap_size = true;
        l->heap_size = ev->u.heap.bytes;
        break;
    case HS_EV_HEAP_LIVE:
        l->has_live = true;
        l->live = ev->u.heap.bytes;
        break;
    case HS_EV_BLOCKS_SIZE:
        l->has_blocks = true;
        l->blocks = ev->u.heap.bytes;
        break;
    default:
        break;
    }
}

/* An event of a tag the census or the summary reads (hs_event_fn): the
 * summary takes them all, the census and the notes those to[] says. */
static int take_event(void *user, const hs_event *ev)
{
    hs_live *l = user;
    uint8_t to = ev->tag < 256 ? l->to[ev->tag] : 0;
    int st = to & TO_EDGE_BEFORE ? note_sample_edge(l, ev, true) : HS_OK;
    if (!st && (to & TO_CENSUS))
        st = hs__census_add_wanted(l->census, ev);
    if (st) {
        hs_error e = *hs_census_error(l->census);
        e.code = st;
        return fail(l, &e);
    }
    l->given++;
    if ((st = hs_summary_add_event(l->summary, ev)) != HS_OK)
        return fail(l, hs_summary_error(l->summary));
    if (to & TO_LINE)
        note_lines(l, ev);
    if (to & TO_EDGE_AFTER)
        st = note_sample_edge(l, ev, false);
    if ((to & TO_TPROF) && st == HS_OK)
        st = bound_tprof(l);
    if (st != HS_OK) {
        hs_error e;
        hs__error_clear(&e);
        hs_error_at at = {ev->offset, ev->index, 0};
        hs__error_set(&e, st, &at, "out of memory while merging old samples");
        return fail(l, &e);
    }
    return HS_OK;
}

int hs_live_feed(hs_live *l, const void *data, size_t len)
{
    if (l->status)
        return l->status;
    if (l->finished)
        return HS_ERR_MISUSE;
    l->bytes += len;
    hs__tally t = {0, 0, 0, 0, HS_CAP_NONE, 0};
    int stop;
    l->given = 0;
    int st = hs__reader_feed_tally(l->reader, data, len, take_event, l, &t,
                                   &stop);
    hs__census_tally(l->census, &t);
    hs__summary_tally(l->summary, &t, l->given);
    if (stop)
        return l->status;
    if (!l->warned && hs_reader_warning(l->reader)) {
        l->warned = true;
        hs__census_build_warn(l->census, "%s", hs_reader_warning(l->reader));
    }
    if (st == HS_DONE)
        return l->status = HS_DONE;
    if (st < 0)
        return fail(l, hs_reader_error(l->reader));
    return HS_OK;
}

int hs_live_finish(hs_live *l)
{
    if (l->finished)
        return HS_ERR_MISUSE;
    l->finished = true;
    if (l->status < 0)
        return l->status;
    int st = hs_reader_finish(l->reader);
    if (st < 0)
        return fail(l, hs_reader_error(l->reader));
    if (st == HS_TRUNCATED)
        l->err = *hs_reader_error(l->reader);
    int cs = hs_census_finish(l->census, st == HS_DONE);
    if (cs < 0)
        return fail(l, hs_census_error(l->census));
    if (st == HS_TRUNCATED)
        hs__census_live_fold_cut(l->census, &l->err);
    /* A log without GC events still has its census: the summary's
     * HS_ERR_NO_DATA is for its own renderers to say. */
    int ss = hs_summary_finish(l->summary);
    if (ss < 0 && ss != HS_ERR_NO_DATA)
        return fail(l, hs_summary_error(l->summary));
    l->complete_samples = hs_census_sample_count(l->census);
    return l->status = st;
}

/* --- figures ------------------------------------------------------------ */

static void top_bands(const hs_live *l, hs_live_metrics *m)
{
    if (!l->complete_samples)
        return;
    size_t i = l->complete_samples - 1;
    const hs_census_entry *e;
    size_t n = hs_census_sample_entries(l->census, i, &e);
    m->census_time_ns = hs_census_sample_time(l->census, i);
    m->census_total = hs_census_sample_total(l->census, i);
    for (size_t k = 0; k < n; k++) {
        size_t at = m->n_top;
        while (at > 0 && m->top_bytes[at - 1] < e[k].bytes)
            at--;
        if (at >= HS_LIVE_TOP_BANDS)
            continue;
        size_t last = m->n_top < HS_LIVE_TOP_BANDS ? m->n_top
                                                   : HS_LIVE_TOP_BANDS - 1;
        for (size_t j = last; j > at; j--) {
            m->top_band[j] = m->top_band[j - 1];
            m->top_bytes[j] = m->top_bytes[j - 1];
        }
        m->top_band[at] = e[k].band;
        m->top_bytes[at] = e[k].bytes;
        if (m->n_top < HS_LIVE_TOP_BANDS)
            m->n_top++;
    }
}

static void gc_figures(hs_live *l, hs_live_metrics *m)
{
    const hs_summary_stats *s = hs_summary_get_stats(l->summary);
    m->has_allocated = s->has_allocated;
    m->allocated = s->allocated_bytes;
    m->n_gens = s->n_gens < HS_LIVE_MAX_GENS ? s->n_gens : HS_LIVE_MAX_GENS;
    for (uint32_t g = 0; g < s->n_gens; g++) {
        if (g < HS_LIVE_MAX_GENS) {
            m->collections[g] = s->gens[g].collections;
            m->pause_ns[g] = s->gens[g].elapsed_ns;
        }
        if (s->gens[g].max_pause_ns > m->max_pause_ns)
            m->max_pause_ns = s->gens[g].max_pause_ns;
    }
    /* The rate over the last one to two seconds of the program's clock,
     * whoever asks how often: two bases, the newer moved on each second. */
    uint64_t t = m->elapsed_ns;
    if (!l->rate_n || t >= l->rate_t[1] + 1000000000u) {
        l->rate_t[0] = l->rate_n ? l->rate_t[1] : t;
        l->rate_a[0] = l->rate_n ? l->rate_a[1] : m->allocated;
        l->rate_t[1] = t;
        l->rate_a[1] = m->allocated;
        l->rate_n = true;
    }
    if (l->finished) { /* the end: the average over the whole run */
        m->alloc_rate = t ? (double)m->allocated / ((double)t / 1e9) : 0;
        return;
    }
    if (t > l->rate_t[0] && m->allocated >= l->rate_a[0])
        m->alloc_rate = (double)(m->allocated - l->rate_a[0]) /
                        ((double)(t - l->rate_t[0]) / 1e9);
}

int hs_live_get_metrics(hs_live *l, hs_live_metrics *m)
{
    memset(m, 0, sizeof *m);
    if (!l->finished) {
        int st = hs_summary_snapshot(l->summary);
        if (st < 0)
            return st;
    }
    const hs_census_info *in = hs_census_get_info(l->census);
    m->bytes = l->bytes;
    m->events = in->events;
    m->elapsed_ns = in->end_time_ns;
    m->has_heap_size = l->has_heap_size;
    m->heap_size = l->heap_size;
    m->has_live = l->has_live;
    m->live = l->live;
    m->has_blocks = l->has_blocks;
    m->blocks = l->blocks;
    gc_figures(l, m);
    m->samples = l->complete_samples;
    top_bands(l, m);
    m->markers = hs_census_marker_count(l->census);
    uint64_t tuntil = hs_census_tprof_merged_until(l->census);
    m->compacted = l->compaction.buckets > 0 || tuntil;
    m->compacted_until_ns = l->compaction.until_ns > tuntil
                                ? l->compaction.until_ns
                                : tuntil;
    return HS_OK;
}
