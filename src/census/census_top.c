/*
 * The cost-centre table (heapscope top): per cost centre its self and
 * inherited share of the time profile's ticks, or of a -hc heap profile's
 * bytes at the peak or byte-seconds, over a window and (ticks) one
 * capability.
 *
 * The samples are first summed per stack (time: the samples in the
 * window and capability; heap: each band's bytes at the window's peak
 * sample, or its byte-seconds by the census's one windowed rule), then
 * each stack's weight goes to its innermost cost centre (self) and once
 * to every distinct cost centre in it (inherited): a stamp per row says
 * which stack last counted it, so a recursive stack counts once.
 */
#include "census/census_impl.h"
#include "census/census_stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAIN_ID UINT32_MAX

struct hs_top {
    const hs_allocator *alloc;     /* the census's */
    hs_top_options opt;
    uint64_t tick_ns;
    uint64_t samples;
    double total;
    hs_intern ids;                 /* key: u32 id -> row index */
    hs_top_row *rows;
    size_t cap_rows;
    size_t *stamp;                 /* per row: last stack + 1 counting it */
    size_t cap_stamp;
    hs_arena names;                /* "<cc N>" labels */
};

void hs_top_options_init_size(hs_top_options *opt, size_t size)
{
    const hs_top_options def = {.size = sizeof def, .source = HS_TOP_TIME,
                                .cap = -1, .to_ns = UINT64_MAX};
    hs__options_fill(opt, size, &def, sizeof def);
}

/* The row of cost centre id (MAIN_ID: the empty stack), made on first
 * use; NULL when out of memory. */
static hs_top_row *row_of(hs_top *t, const hs_census *c, uint32_t id,
                          size_t *index)
{
    uint32_t ri;
    bool added;
    if (!hs_intern_put(&t->ids, &id, sizeof id, &ri, &added))
        return NULL;
    *index = ri;
    if (!added)
        return &t->rows[ri];
    if (!hs_grow(t->alloc, (void **)&t->rows, &t->cap_rows, (size_t)ri + 1,
                 sizeof *t->rows) ||
        !hs_grow_zeroed(t->alloc, (void **)&t->stamp, &t->cap_stamp,
                        (size_t)ri + 1, sizeof *t->stamp))
        return NULL;
    hs_top_row *r = &t->rows[ri];
    *r = (hs_top_row){id, "MAIN", "MAIN", "<built-in>", true, 0, 0};
    if (id == MAIN_ID)
        return r;
    const hs_cost_centre *cc = hs_census_cost_centre(c, id);
    if (cc) {
        r->label = cc->label ? cc->label : "";
        r->module = cc->module ? cc->module : "";
        r->srcloc = cc->srcloc ? cc->srcloc : "";
        return r;
    }
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, "<cc %u>", id);
    if (!(r->label = hs_arena_strndup(&t->names, tmp, (size_t)n)))
        return NULL;
    r->module = r->srcloc = "";
    r->defined = false;
    return r;
}

/* Stack number `no` (innermost first) weighing w: self to its innermost
 * cost centre, inherited once to each distinct one. */
static int add_stack(hs_top *t, const hs_census *c, size_t no,
                     const uint32_t *ids, size_t depth, double w)
{
    size_t ri;
    if (depth == 0) {
        hs_top_row *r = row_of(t, c, MAIN_ID, &ri);
        if (!r)
            return HS_ERR_NOMEM;
        r->self += w;
        r->inherited += w;
        t->total += w;
        return HS_OK;
    }
    for (size_t k = 0; k < depth; k++) {
        hs_top_row *r = row_of(t, c, ids[k], &ri);
        if (!r)
            return HS_ERR_NOMEM;
        if (k == 0)
            r->self += w;
        if (t->stamp[ri] != no + 1) {
            t->stamp[ri] = no + 1;
            r->inherited += w;
        }
    }
    t->total += w;
    return HS_OK;
}

/* Time: the ticks of each stack within the window and capability (a
 * merged record's ticks count at its bucket's start). */
static int time_weights(hs_top *t, const hs_census *c, double *w)
{
    for (size_t i = 0; i < c->ntsamples; i++) {
        const struct tsample *s = &c->tsamples[i];
        if (s->time < t->opt.from_ns || s->time > t->opt.to_ns ||
            (t->opt.cap >= 0 && s->cap != (uint32_t)t->opt.cap))
            continue;
        uint64_t ticks = hs__tsample_weight(c, i);
        w[s->stack] += (double)ticks;
        t->samples += ticks;
    }
    for (size_t i = 0; i < c->tstack_tab.count; i++) {
        const struct tstack *s = &c->tstacks[i];
        if (w[i] > 0) {
            int st = add_stack(t, c, i, s->ids, s->depth, w[i]);
            if (st)
                return st;
        }
    }
    return HS_OK;
}

/* Heap: each band's bytes at the window's peak sample, or byte-seconds. */
static int heap_weights(hs_top *t, const hs_census *c, double *w)
{
    size_t nb = c->nbands, peak = SIZE_MAX;
    for (size_t i = 0; i < c->nsamples; i++) {
        const struct sample *s = &c->samples[i];
        if (s->time < t->opt.from_ns || s->time > t->opt.to_ns)
            continue;
        t->samples++;
        if (peak == SIZE_MAX || s->total > c->samples[peak].total)
            peak = i;
    }
    if (!t->samples)
        return HS_OK;
    if (t->opt.source == HS_TOP_HEAP_PEAK) {
        const struct sample *s = &c->samples[peak];
        for (size_t k = 0; k < s->count; k++)
            w[c->entries[s->first + k].band] +=
                (double)c->entries[s->first + k].bytes;
    } else {
        hs_band_stats *st = hs_calloc(t->alloc, nb ? nb : 1, sizeof *st);
        hs_window_stats ws = {.from_ns = t->opt.from_ns,
                              .to_ns = t->opt.to_ns, .out = st};
        if (!st || hs__census_window_stats(c, &ws) != HS_OK) {
            hs_free(t->alloc, st);
            return HS_ERR_NOMEM;
        }
        for (size_t b = 0; b < nb; b++)
            w[b] = st[b].byte_seconds;
        hs_free(t->alloc, st);
    }
    for (size_t b = 0; b < nb; b++) {
        const struct band *bd = &c->bands[b];
        if (w[b] > 0) {
            int st = add_stack(t, c, b, bd->stack, bd->depth, w[b]);
            if (st)
                return st;
        }
    }
    return HS_OK;
}

static int cmp_row(const void *pa, const void *pb)
{
    const hs_top_row *a = pa, *b = pb;
    if (a->self != b->self)
        return a->self > b->self ? -1 : 1;
    if (a->inherited != b->inherited)
        return a->inherited > b->inherited ? -1 : 1;
    return a->id < b->id ? -1 : a->id > b->id;
}

/* Whether census c holds what opt asks for: HS_OK, or an error code. */
static int check(const hs_census *c, const hs_top_options *opt)
{
    if (opt->from_ns > opt->to_ns || opt->cap < -1)
        return HS_ERR_INVALID;
    if (opt->source == HS_TOP_TIME)
        return c->ntsamples ? HS_OK : HS_ERR_NO_DATA;
    if (opt->source != HS_TOP_HEAP_PEAK &&
        opt->source != HS_TOP_HEAP_BYTE_SECONDS)
        return HS_ERR_INVALID;
    if (opt->cap != -1)
        return HS_ERR_INVALID;
    return c->info.breakdown == HS_BREAKDOWN_COST_CENTRE &&
                   c->info.source == HS_SOURCE_EVENTLOG && c->nsamples
               ? HS_OK
               : HS_ERR_NO_DATA;
}

int hs_top_new(const hs_census *c, const hs_top_options *opt, hs_top **out)
{
    *out = NULL;
    hs_top_options taken;
    hs_top_options_init(&taken);
    if (hs__options_take(&taken, sizeof taken, opt))
        return HS_ERR_INVALID;
    opt = &taken;
    int st = check(c, opt);
    if (st)
        return st;
    const hs_allocator *alloc = hs_census_allocator(c);
    hs_top *t = hs_calloc(alloc, 1, sizeof *t);
    if (!t)
        return HS_ERR_NOMEM;
    t->alloc = alloc;
    t->opt = *opt;
    t->tick_ns = opt->source == HS_TOP_TIME ? c->info.tick_interval_ns : 0;
    hs_intern_init(&t->ids, alloc);
    hs_arena_init(&t->names, alloc);
    size_t n = opt->source == HS_TOP_TIME ? c->tstack_tab.count : c->nbands;
    double *w = hs_calloc(alloc, n ? n : 1, sizeof *w);
    st = !w ? HS_ERR_NOMEM
         : opt->source == HS_TOP_TIME ? time_weights(t, c, w)
                                      : heap_weights(t, c, w);
    hs_free(alloc, w);
    if (st) {
        hs_top_free(t);
        return st;
    }
    if (t->ids.count)
        qsort(t->rows, t->ids.count, sizeof *t->rows, cmp_row);
    *out = t;
    return HS_OK;
}

void hs_top_free(hs_top *t)
{
    if (!t)
        return;
    hs_intern_free(&t->ids);
    hs_arena_free(&t->names);
    hs_free(t->alloc, t->rows);
    hs_free(t->alloc, t->stamp);
    hs_free(t->alloc, t);
}

const hs_top_options *hs_top_get_options(const hs_top *t)
{
    return &t->opt;
}

const hs_allocator *hs_top_allocator(const hs_top *t)
{
    return t->alloc;
}

double hs_top_total(const hs_top *t)
{
    return t->total;
}

uint64_t hs_top_samples(const hs_top *t)
{
    return t->samples;
}

uint64_t hs_top_tick_ns(const hs_top *t)
{
    return t->tick_ns;
}

size_t hs_top_count(const hs_top *t)
{
    return t->ids.count;
}

const hs_top_row *hs_top_row_at(const hs_top *t, size_t i)
{
    return i < t->ids.count ? &t->rows[i] : NULL;
}
