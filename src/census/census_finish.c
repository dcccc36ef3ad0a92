/*
 * Finishing a census: ordering samples, markers and lines by time and
 * resolving names that depend on records seen late.
 */
#include "heapscope/reader.h"
#include "census/census_impl.h"
#include "census/census_compact.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_sample(const void *a, const void *b)
{
    const struct sample *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static inline uint64_t time_at(const unsigned char *a, size_t i, size_t size)
{
    uint64_t t;
    memcpy(&t, a + i * size, sizeof t);
    return t;
}

/* The natural merge sort behind stable_sort_by_time(): any input, in
 * O(n log n); tmp holds n elements. */
static void merge_runs(unsigned char *a, unsigned char *tmp, size_t n,
                       size_t size)
{
#define T(arr, i) time_at((arr), (i), size)
    for (;;) {
        size_t runs = 0, i = 0, out = 0;
        while (i < n) {
            /* run 1: [i, m), run 2: [m, e) */
            size_t m = i + 1;
            while (m < n && T(a, m - 1) <= T(a, m))
                m++;
            size_t e = m;
            if (m < n) {
                e = m + 1;
                while (e < n && T(a, e - 1) <= T(a, e))
                    e++;
            }
            size_t x = i, y = m;
            while (x < m || y < e) {
                size_t from = (y >= e || (x < m && T(a, x) <= T(a, y)))
                                  ? x++ : y++;
                memcpy(tmp + out * size, a + from * size, size);
                out++;
            }
            runs++;
            i = e;
        }
        memcpy(a, tmp, n * size);
        if (runs <= 1)
            break;
    }
#undef T
}

/* Sorted runs chained: a run joins the chain whose last time is the
 * latest not after the run's first, so each chain is in time order. */
#define MAX_CHAINS 8
typedef struct chains {
    size_t n;
    size_t head[MAX_CHAINS], tail[MAX_CHAINS]; /* run indexes */
    uint64_t last[MAX_CHAINS];
} chains;
typedef struct run {
    size_t start, end, next; /* next: the chain's next run, or SIZE_MAX */
} run;

/* The runs of a in runs[] (nruns of them), chained in *ch; false when
 * they need more than MAX_CHAINS chains. */
static bool chain_runs(const unsigned char *a, size_t n, size_t size,
                       run *runs, chains *ch)
{
    ch->n = 0;
    for (size_t i = 0, k = 0; i < n; k++) {
        size_t e = i + 1;
        while (e < n && time_at(a, e - 1, size) <= time_at(a, e, size))
            e++;
        uint64_t first = time_at(a, i, size);
        size_t best = SIZE_MAX;
        for (size_t c = 0; c < ch->n; c++)
            if (ch->last[c] <= first &&
                (best == SIZE_MAX || ch->last[c] > ch->last[best]))
                best = c;
        if (best == SIZE_MAX) {
            if (ch->n == MAX_CHAINS)
                return false;
            best = ch->n++;
            ch->head[best] = k;
        } else {
            runs[ch->tail[best]].next = k;
        }
        runs[k] = (run){i, e, SIZE_MAX};
        ch->tail[best] = k;
        ch->last[best] = time_at(a, e - 1, size);
        i = e;
    }
    return true;
}

/* The chain whose next element comes first by (time, position in a),
 * other than `skip`; SIZE_MAX when none has one left. */
static size_t first_chain(const unsigned char *a, size_t size,
                          const size_t *at, const size_t *cur, size_t nc,
                          size_t skip)
{
    size_t best = SIZE_MAX;
    uint64_t bt = 0;
    for (size_t c = 0; c < nc; c++) {
        if (c == skip || cur[c] == SIZE_MAX)
            continue;
        uint64_t t = time_at(a, at[c], size);
        if (best == SIZE_MAX || t < bt || (t == bt && at[c] < at[best])) {
            best = c;
            bt = t;
        }
    }
    return best;
}

/* Merges the chains into tmp by (time, position in a): the stable order.
 * What the first chain has before the next chain's element is copied at
 * once: a log's capabilities take turns a block at a time, so each turn
 * is one copy. */
static void merge_chains(const unsigned char *a, unsigned char *tmp,
                         size_t n, size_t size, const run *runs,
                         const chains *ch)
{
    size_t at[MAX_CHAINS], cur[MAX_CHAINS], nc = ch->n;
    for (size_t c = 0; c < nc; c++) {
        cur[c] = ch->head[c];
        at[c] = runs[cur[c]].start;
    }
    for (size_t out = 0; out < n;) {
        size_t best = first_chain(a, size, at, cur, nc, SIZE_MAX);
        size_t next = first_chain(a, size, at, cur, nc, best);
        size_t from = at[best], to = from + 1, end = runs[cur[best]].end;
        if (next == SIZE_MAX) {
            to = end;
        } else {
            uint64_t nt = time_at(a, at[next], size);
            while (to < end && (time_at(a, to, size) < nt ||
                                (time_at(a, to, size) == nt &&
                                 to < at[next])))
                to++;
        }
        memcpy(tmp + out * size, a + from * size, (to - from) * size);
        out += to - from;
        at[best] = to;
        if (to == end) {
            cur[best] = runs[cur[best]].next;
            if (cur[best] != SIZE_MAX)
                at[best] = runs[cur[best]].start;
        }
    }
}

/*
 * Stable sort by time of an array whose elements start with a u64 time
 * (markers, heap-line points, time-profile samples). Such arrays arrive
 * as thousands of short sorted runs, one per capability buffer, the
 * capabilities' runs interleaved block by block: the runs are chained per
 * capability (a run continues the chain that ends latest before it) and
 * the few chains merged at once, each element copied once. An order the
 * chains cannot follow (more than MAX_CHAINS of them) takes a natural
 * merge sort, O(n log n).
 */
static bool stable_sort_by_time(const hs_allocator *alloc, void *base,
                                size_t n, size_t size)
{
    if (n < 2)
        return true;
    unsigned char *a = base;
    size_t nruns = 1;
    for (size_t i = 1; i < n; i++)
        nruns += time_at(a, i - 1, size) > time_at(a, i, size);
    if (nruns == 1)
        return true;
    unsigned char *tmp = hs_calloc(alloc, n, size);
    run *runs = hs_calloc(alloc, nruns, sizeof *runs);
    if (!tmp || !runs) {
        hs_free(alloc, tmp);
        hs_free(alloc, runs);
        return false;
    }
    chains ch;
    if (chain_runs(a, n, size, runs, &ch)) {
        merge_chains(a, tmp, n, size, runs, &ch);
        memcpy(a, tmp, n * size);
    } else {
        merge_runs(a, tmp, n, size);
    }
    hs_free(alloc, runs);
    hs_free(alloc, tmp);
    return true;
}

/*
 * Whether the log's runtime ends every sample with SAMPLE_END: one was
 * seen, or a -hb sample (both came in GHC 8.10's development), or the RTS
 * identifier names GHC 8.9 or later. Known from the events alone, so that
 * hs_census_load_fd and hs_census_add_event decide alike, even for a log
 * cut inside its first sample.
 */
static bool closes_samples(const hs_census *c)
{
    /* an .mlpd's heap shots end with HEAP_END */
    if (c->seen_sample_end || c->seen_bio || c->info.source == HS_SOURCE_MLPD)
        return true;
    const char *id = c->info.rts_identifier;
    unsigned major, minor;
    if (!id || sscanf(id, "GHC-%u.%u", &major, &minor) != 2)
        return false;
    return major > 8 || (major == 8 && minor >= 9);
}

void hs__census_note_tag(hs_census *c, uint16_t tag)
{
    switch (tag) {
    case HS_EV_HEAP_PROF_SAMPLE_BEGIN:
    case HS_EV_HEAP_BIO_PROF_SAMPLE_BEGIN:
    case HS_EV_HEAP_PROF_SAMPLE_COST_CENTRE:
    case HS_EV_HEAP_PROF_SAMPLE_STRING:
        c->sample_tail = true;
        break;
    case HS_EV_BLOCK_MARKER:
        break;
    default:
        c->sample_tail = false;
    }
}

/*
 * A log that stops inside a heap sample: that sample holds a fraction of a
 * census, so it is left out whole, with the bands first seen in it, and a
 * warning says so. A log that closes its samples (SAMPLE_END) is inside one
 * when its last sample is open. GHC 8.2/8.4 logs have no SAMPLE_END: a
 * census's events are written together in the global buffer, so a cut log
 * whose last events (block markers aside) belong to its last sample may
 * have stopped inside it, and that sample is left out too; one followed by
 * any other event was whole. A complete log of that kind ends its last
 * sample at the end of data.
 */
static void drop_cut_sample(hs_census *c, bool complete)
{
    c->cut_warning = SIZE_MAX;
    if (!c->open || !c->nsamples)
        return;
    if (!closes_samples(c) && (complete || !c->sample_tail))
        return;
    const struct sample *s = &c->samples[c->nsamples - 1];
    c->cut = true;
    c->cut_time = s->time;
    c->nentries = s->first;
    c->nsamples--;
    c->nbands = c->open_nbands;
    /* seconds to four decimals, rounded, as the warning shows them */
    uint64_t tenth_ms = (s->time + 50000) / 100000;
    size_t before = c->nwarnings;
    hs__census_warnf(c, "the last heap %s, at %llu.%04llu s, was cut "
                     "and is left out",
                     c->info.source == HS_SOURCE_MLPD ? "shot" : "sample",
                     (unsigned long long)(tenth_ms / 10000),
                     (unsigned long long)(tenth_ms % 10000));
    if (c->nwarnings > before)
        c->cut_warning = before;
}

void hs__census_fold_cut(hs_census *c, hs_error *err)
{
    size_t w = c->cut_warning;
    if (w == SIZE_MAX || w >= c->nwarnings)
        return;
    size_t n = strlen(err->message);
    snprintf(err->message + n, sizeof err->message - n, "; %s",
             c->warnings[w]);
    memmove(c->warnings + w, c->warnings + w + 1,
            (c->nwarnings - w - 1) * sizeof *c->warnings);
    c->nwarnings--;
    c->cut_warning = SIZE_MAX;
}

int hs_census_finish(hs_census *c, bool complete)
{
    if (c->error)
        return c->error;
    if (c->finished)
        return HS_ERR_MISUSE;
    c->cur_offset = 0;
    c->cur_index = UINT64_MAX; /* errors from here on belong to no event */
    drop_cut_sample(c, complete);
    c->open = false;
    c->info.complete = complete;
    /* -hb censuses are all written at exit, one after another: a cut
     * among them may have lost later ones whole. */
    if (!complete && c->info.breakdown == HS_BREAKDOWN_BIOGRAPHY &&
        c->nsamples)
        hs__census_warnf(c, "the biographical (-hb) censuses are written "
                         "at exit and the log stops among them: censuses "
                         "after the cut may be missing");
    if (c->info.breakdown == UINT32_MAX)
        c->info.breakdown = 0;
    if (c->samples_unsorted)
        qsort(c->samples, c->nsamples, sizeof *c->samples, cmp_sample);
    for (int k = 0; k < 2; k++)
        if (c->marks[k].unsorted &&
            !stable_sort_by_time(c->alloc, c->marks[k].v, c->marks[k].n,
                                 sizeof *c->marks[k].v))
            return hs__census_nomem(c);
    /* Merged records all lie before the horizon: samples that came late
     * from before it join them, and only the raw rest needs sorting. */
    if (c->ntmerged && hs__census_tprof_merge(c, c->tuntil_ns, SIZE_MAX))
        return c->error;
    if (c->tsamples_unsorted &&
        !stable_sort_by_time(c->alloc, c->tsamples + c->ntmerged,
                             c->ntsamples - c->ntmerged, sizeof *c->tsamples))
        return hs__census_nomem(c);
    for (int i = 0; i < HS_LINE_COUNT; i++)
        if (c->lines_unsorted[i] &&
            !stable_sort_by_time(c->alloc, c->lines[i], c->nlines[i],
                                 sizeof(hs_census_point)))
            return hs__census_nomem(c);
    int st = hs__census_resolve_cost_centres(c);
    if (!st && c->info.breakdown == HS_BREAKDOWN_INFO_TABLE)
        st = hs__census_resolve_ipe(c);
    if (!st)
        st = hs__census_finish_ticky(c);
    if (st)
        return st;
    if (c->warnings_dropped) {
        uint64_t n = c->warnings_dropped;
        c->warnings_dropped = 0;
        c->nwarnings--; /* make room for the summary */
        hs__census_warnf(c, "%llu more warnings were left out",
              (unsigned long long)n + 1);
    }
    for (size_t i = 0; i < c->nsamples; i++)
        if (c->samples[i].time > c->info.end_time_ns)
            c->info.end_time_ns = c->samples[i].time;
    c->finished = true;
    return HS_OK;
}

