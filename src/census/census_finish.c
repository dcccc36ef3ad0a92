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
            !hs__census_sort_by_time(c->alloc, c->marks[k].v, c->marks[k].n,
                                 sizeof *c->marks[k].v))
            return hs__census_nomem(c);
    /* Merged records all lie before the horizon: samples that came late
     * from before it join them, and only the raw rest needs sorting. */
    if (c->ntmerged && hs__census_tprof_merge(c, c->tuntil_ns, SIZE_MAX))
        return c->error;
    if (c->tsamples_unsorted &&
        !hs__census_sort_by_time(c->alloc, c->tsamples + c->ntmerged,
                             c->ntsamples - c->ntmerged, sizeof *c->tsamples))
        return hs__census_nomem(c);
    for (int i = 0; i < HS_LINE_COUNT; i++)
        if (c->lines_unsorted[i] &&
            !hs__census_sort_by_time(c->alloc, c->lines[i], c->nlines[i],
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

