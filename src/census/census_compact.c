/*
 * Compaction of a long-running census: old samples merged pairwise into
 * buckets keeping each band's maximum, so memory stays bounded while the
 * recent past keeps full resolution.
 *
 * Everything happens in place, without allocating: bucket j is written to
 * entries[w ..) while its two samples are read from positions >= w (each
 * entry written stands for a distinct entry already read), and the band's
 * slot in the bucket is remembered in last[] (its `sample` and `pos`),
 * which between samples holds nothing that is still needed and is reset
 * afterwards.
 */
#include "census/census_impl.h"
#include "census/census_compact.h"

#include <string.h>

size_t hs__census_entry_count(const hs_census *c) { return c->nentries; }

void hs__census_live_fold_cut(hs_census *c, hs_error *err)
{
    hs__census_fold_cut(c, err);
}

/*
 * Merges samples [a, b) in groups of g (the last group may be smaller)
 * into buckets written from index a on, then moves the samples after b
 * and their entries down behind them. The samples' entries are contiguous
 * and in the order the samples arrived (between samples, none open),
 * which is their time order unless the stream went back in time.
 */
static void merge_groups(hs_census *c, size_t a, size_t b, size_t g)
{
    for (size_t k = 0; k < c->nbands; k++)
        c->last[k].sample = SIZE_MAX; /* stale indexes of other numbering */
    size_t w = c->samples[a].first, out = a;
    for (size_t i = a; i < b; i += g, out++) {
        struct sample bucket = {.time = c->samples[i].time, .first = w,
                                .count = 0, .total = 0, .seq = out};
        size_t end = i + g < b ? i + g : b;
        for (size_t k = i; k < end; k++) {
            const struct sample *s = &c->samples[k];
            for (size_t e = s->first; e < s->first + s->count; e++) {
                hs_census_entry en = c->entries[e];
                struct band_last *bl = &c->last[en.band];
                if (bl->sample == out) {
                    if (en.bytes > c->entries[bl->pos].bytes)
                        c->entries[bl->pos].bytes = en.bytes;
                    continue;
                }
                c->entries[w] = en;
                bl->sample = out;
                bl->pos = w++;
                bucket.count++;
            }
        }
        for (size_t e = bucket.first; e < w; e++) {
            bucket.total = hs_add_sat(bucket.total, c->entries[e].bytes);
        }
        c->samples[out] = bucket;
    }
    size_t from = b < c->nsamples ? c->samples[b].first : c->nentries;
    memmove(c->entries + w, c->entries + from,
            (c->nentries - from) * sizeof *c->entries);
    for (size_t k = b; k < c->nsamples; k++, out++) {
        struct sample s = c->samples[k];
        s.first = s.first - from + w;
        s.seq = out;
        c->samples[out] = s;
    }
    c->nentries -= from - w;
    c->nsamples = out;
    for (size_t k = 0; k < c->nbands; k++)
        c->last[k].sample = SIZE_MAX;
}

/* Heap-line points before the first recent sample merged into one per
 * bucket (the largest, at the bucket's time), so the lines, which get a
 * point per collection, shrink with the samples. */
static void merge_line(hs_census *c, int line, size_t buckets)
{
    hs_census_point *p = c->lines[line];
    size_t n = c->nlines[line], i = 0, w = 0;
    /* bucket times out of order would leave the line out of order */
    if (c->lines_unsorted[line] || c->samples_unsorted || !buckets)
        return;
    uint64_t until = buckets < c->nsamples ? c->samples[buckets].time
                                           : UINT64_MAX;
    for (size_t k = 0; k < buckets && i < n && p[i].time_ns < until; k++) {
        uint64_t end = k + 1 < buckets ? c->samples[k + 1].time : until;
        if (p[i].time_ns >= end)
            continue;
        hs_census_point m = {k ? c->samples[k].time : p[i].time_ns, 0};
        for (; i < n && p[i].time_ns < end; i++)
            if (p[i].bytes > m.bytes)
                m.bytes = p[i].bytes;
        p[w++] = m;
    }
    if (i < n) /* p is NULL for a line with no points */
        memmove(p + w, p + i, (n - i) * sizeof *p);
    c->nlines[line] = w + (n - i);
}

int hs__census_compact(hs_census *c, hs_census_compaction *st,
                       size_t max_samples, size_t keep_recent)
{
    size_t n = c->nsamples;
    /* Samples out of time order (a corrupt stream) are merged in the
     * order they came, hs_census_finish() sorts the buckets: refusing
     * them let such a census grow without bound. */
    if (c->error || c->finished || c->open || !max_samples ||
        keep_recent >= max_samples || n <= keep_recent)
        return HS_OK;
    if (!st->width)
        st->width = 1;
    if (n < keep_recent + st->buckets)
        return HS_OK; /* a smaller window than last time: wait */
    /* Samples that leave the recent window join buckets of the current
     * width: first the last bucket, while it is short of one, then whole
     * buckets, and a remainder starts a short bucket at once. Left raw to
     * wait for a whole bucket, up to width - 1 samples would pile up, and
     * the width doubles as the run goes on: the census would grow with the
     * run however small max_samples. */
    size_t raw = n - keep_recent - st->buckets;
    if (st->partial && raw) {
        size_t take = st->width - st->partial < raw ? st->width - st->partial
                                                    : raw;
        merge_groups(c, st->buckets - 1, st->buckets + take, take + 1);
        st->partial = (st->partial + take) % st->width;
        raw -= take;
    }
    size_t full = raw / st->width * st->width;
    if (full && st->width > 1)
        merge_groups(c, st->buckets, st->buckets + full, st->width);
    st->buckets += full / st->width;
    if (raw > full) {
        merge_groups(c, st->buckets, st->buckets + (raw - full), raw - full);
        st->buckets++;
        st->partial = raw - full;
    }
    /* Too many buckets: twice as wide, half as many. A lone last bucket
     * keeps its samples, now short of the new width. */
    size_t limit = (max_samples - keep_recent) / 2;
    while (st->buckets > (limit ? limit : 1)) {
        size_t last = st->partial ? st->partial : st->width;
        if (st->buckets % 2 == 0)
            last += st->width;
        merge_groups(c, 0, st->buckets, 2);
        st->buckets = (st->buckets + 1) / 2;
        st->width *= 2;
        st->partial = last % st->width;
    }
    for (int line = 0; line < HS_LINE_COUNT; line++)
        merge_line(c, line, st->buckets);
    if (st->buckets)
        st->until_ns = st->buckets < c->nsamples
                           ? c->samples[st->buckets].time
                           : c->samples[c->nsamples - 1].time;
    return HS_OK;
}

int hs__census_compact_at_begin(hs_census *c, hs_census_compaction *st,
                                size_t max_samples, size_t keep_recent)
{
    bool open = c->open;
    c->open = false;
    int r = hs__census_compact(c, st, max_samples, keep_recent);
    /* open as it was, unless it is part of a bucket now */
    c->open = open && st->buckets < c->nsamples;
    return r;
}
