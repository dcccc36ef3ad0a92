/*
 * Merging a live census's old time-profile samples (census_compact.h):
 * the samples before a horizon become records (bucket start, stack, cap)
 * with their ticks as weight, sorted by that key, in front of the raw
 * samples that follow; the weights sit in their own array, so a census
 * never merged keeps 16 bytes a sample. Buckets are a whole number of
 * ticks from the run's start and double in width when the records
 * outnumber the bound, so neighbours always merge cleanly.
 *
 * Each call sorts only the samples it merges and joins them with the
 * records already there in one pass; only a doubling sorts them all.
 */
#include "census/census_impl.h"
#include "census/census_compact.h"

#include <stdlib.h>
#include <string.h>

/* A bucket's first width when the log names no tick (GHC's default). */
#define DEFAULT_BUCKET_NS 10000000u

struct wrec {
    uint64_t time;
    uint32_t stack, cap;
    uint64_t w;
};

size_t hs__census_tprof_raw_count(const hs_census *c)
{
    return c->ntsamples - c->ntmerged;
}

uint64_t hs__census_tprof_merged_until(const hs_census *c)
{
    return c->ntmerged ? c->tuntil_ns : 0;
}

static int cmp_wrec(const void *pa, const void *pb)
{
    const struct wrec *a = pa, *b = pb;
    if (a->time != b->time)
        return a->time < b->time ? -1 : 1;
    if (a->stack != b->stack)
        return a->stack < b->stack ? -1 : 1;
    return a->cap < b->cap ? -1 : a->cap > b->cap;
}

/* Appends r to out[0 .. *n), summed into the last record of its key. */
static void put(struct wrec *out, size_t *n, const struct wrec *r)
{
    struct wrec *last = *n ? &out[*n - 1] : NULL;
    if (last && last->time == r->time && last->stack == r->stack &&
        last->cap == r->cap)
        last->w = hs_add_sat(last->w, r->w);
    else
        out[(*n)++] = *r;
}

/* Each record's time to its bucket's start, sorted, equal keys summed;
 * returns how many are left. */
static size_t coalesce(struct wrec *v, size_t n, uint64_t width)
{
    for (size_t i = 0; i < n; i++)
        v[i].time -= v[i].time % width;
    qsort(v, n, sizeof *v, cmp_wrec);
    size_t out = 0;
    for (size_t i = 0; i < n; i++)
        put(v, &out, &v[i]);
    return out;
}

/* Sorted runs a and b joined into out, equal keys summed. */
static size_t join(const struct wrec *a, size_t na, const struct wrec *b,
                   size_t nb, struct wrec *out)
{
    size_t i = 0, j = 0, n = 0;
    while (i < na || j < nb) {
        bool from_a = j >= nb || (i < na && cmp_wrec(&a[i], &b[j]) <= 0);
        put(out, &n, from_a ? &a[i++] : &b[j++]);
    }
    return n;
}

/* The merged records and the raw samples before `until` into v (merged
 * first, then the fresh ones, one tick each); the raw samples from
 * `until` on moved to the array's end in their order. Returns those. */
static size_t split(hs_census *c, uint64_t until, struct wrec *v)
{
    size_t k = 0;
    for (; k < c->ntmerged; k++)
        v[k] = (struct wrec){c->tsamples[k].time, c->tsamples[k].stack,
                             c->tsamples[k].cap, c->tweights[k]};
    for (size_t i = c->ntmerged; i < c->ntsamples; i++)
        if (c->tsamples[i].time < until)
            v[k++] = (struct wrec){c->tsamples[i].time, c->tsamples[i].stack,
                                   c->tsamples[i].cap, 1};
    size_t w = c->ntsamples;
    for (size_t i = c->ntsamples; i-- > c->ntmerged;)
        if (c->tsamples[i].time >= until)
            c->tsamples[--w] = c->tsamples[i];
    return c->ntsamples - w;
}

/* out[0 .. m) as the merged records, the `kept` raw samples at the
 * array's end moved behind them. */
static void write_back(hs_census *c, const struct wrec *out, size_t m,
                       size_t kept)
{
    memmove(c->tsamples + m, c->tsamples + (c->ntsamples - kept),
            kept * sizeof *c->tsamples);
    for (size_t i = 0; i < m; i++) {
        c->tsamples[i] = (struct tsample){out[i].time, out[i].stack,
                                          out[i].cap};
        c->tweights[i] = out[i].w;
    }
    c->ntmerged = m;
    c->ntsamples = m + kept;
    c->tsamples_unsorted = false; /* merged ones all before `until` */
    for (size_t i = m + 1; i < c->ntsamples; i++)
        if (c->tsamples[i].time < c->tsamples[i - 1].time)
            c->tsamples_unsorted = true;
}

int hs__census_tprof_merge(hs_census *c, uint64_t until_ns,
                           size_t max_records)
{
    if (c->error || c->finished)
        return HS_OK;
    uint64_t until = until_ns > c->tuntil_ns ? until_ns : c->tuntil_ns;
    size_t fresh = 0;
    for (size_t i = c->ntmerged; i < c->ntsamples; i++)
        fresh += c->tsamples[i].time < until;
    if (!fresh) {
        if (c->ntmerged)
            c->tuntil_ns = until;
        return HS_OK;
    }
    if (!c->tbucket_ns)
        c->tbucket_ns = c->info.tick_interval_ns ? c->info.tick_interval_ns
                                                 : DEFAULT_BUCKET_NS;
    size_t total = c->ntmerged + fresh, old = c->ntmerged;
    struct wrec *v = hs_malloc(c->alloc, total * 2 * sizeof *v);
    if (!v || !hs_grow(c->alloc, (void **)&c->tweights, &c->cap_tweights,
                       total, sizeof *c->tweights)) {
        hs_free(c->alloc, v);
        return hs__census_nomem(c);
    }
    struct wrec *out = v + total;
    size_t kept = split(c, until, v);
    size_t nf = coalesce(v + old, fresh, c->tbucket_ns);
    size_t m = join(v, old, v + old, nf, out);
    /* Too many records: buckets twice as wide, while a bucket is still
     * narrower than the merged span. */
    while (m > max_records && c->tbucket_ns < until &&
           c->tbucket_ns <= UINT64_MAX / 2) {
        c->tbucket_ns *= 2;
        m = coalesce(out, m, c->tbucket_ns);
    }
    write_back(c, out, m, kept);
    c->tuntil_ns = until;
    hs_free(c->alloc, v);
    return HS_OK;
}
