/*
 * The time profile over time (census_tprof_time.h): every kept sample
 * counted into its interval, per cost centre, self and inherited (a
 * merged record's ticks into the interval of its bucket's start).
 *
 * A plan is made once per stack, not per sample: the stack's column for
 * its self tick and the distinct columns it gives an inherited tick (a
 * cost centre recurring in a stack, or two left-out ones sharing
 * "other", count once), so each sample costs its stack's distinct
 * columns.
 */
#include "census/census_tprof_time.h"
#include "census/census_impl.h"

#include <stdlib.h>
#include <string.h>

typedef struct ccrank {
    uint64_t self, inh;
    uint32_t id;
    uint32_t dense;
} ccrank;

typedef struct plan {
    const hs_census *c;
    const hs_allocator *a;
    size_t nstacks, nids;
    hs_intern ids;       /* cost-centre id -> dense index */
    uint32_t *dense;     /* every stack's ids as dense indices, flat */
    size_t *doff;        /* [nstacks + 1] offsets into dense */
    ccrank *rank;        /* [nids] by dense index, then most self first */
    uint32_t *col_of;    /* [nids] each dense index's column */
    uint32_t *stamp;     /* [nids + 2] the last stack that counted it */
    uint32_t *scol;      /* per stack: its self column, then its distinct
                            inherited columns */
    size_t *soff;        /* [nstacks + 1] offsets into scol */
} plan;

static int plan_alloc(plan *p)
{
    size_t n = p->nstacks, flat = 0;
    for (size_t s = 0; s < n; s++)
        flat += p->c->tstacks[s].depth;
    p->dense = hs_malloc(p->a, (flat ? flat : 1) * sizeof *p->dense);
    p->doff = hs_malloc(p->a, (n + 1) * sizeof *p->doff);
    p->scol = hs_malloc(p->a, (flat + 2 * n + 1) * sizeof *p->scol);
    p->soff = hs_malloc(p->a, (n + 1) * sizeof *p->soff);
    return p->dense && p->doff && p->scol && p->soff ? HS_OK : HS_ERR_NOMEM;
}

/* Every stack's ids as dense indices, and each index's whole-run ticks. */
static int plan_ids(plan *p)
{
    size_t at = 0;
    for (size_t s = 0; s < p->nstacks; s++) {
        const struct tstack *t = &p->c->tstacks[s];
        p->doff[s] = at;
        for (uint32_t k = 0; k < t->depth; k++) {
            uint32_t d;
            bool added;
            if (!hs_intern_put(&p->ids, &t->ids[k], sizeof t->ids[k], &d,
                               &added))
                return HS_ERR_NOMEM;
            p->dense[at++] = d;
        }
    }
    p->doff[p->nstacks] = at;
    p->nids = p->ids.count;
    p->rank = hs_calloc(p->a, p->nids ? p->nids : 1, sizeof *p->rank);
    p->col_of = hs_malloc(p->a, (p->nids ? p->nids : 1) * sizeof *p->col_of);
    p->stamp = hs_calloc(p->a, p->nids + 2, sizeof *p->stamp);
    if (!p->rank || !p->col_of || !p->stamp)
        return HS_ERR_NOMEM;
    for (size_t d = 0; d < p->nids; d++) {
        memcpy(&p->rank[d].id, p->ids.keys[d].ptr, sizeof p->rank[d].id);
        p->rank[d].dense = (uint32_t)d;
    }
    for (size_t s = 0; s < p->nstacks; s++) {
        uint64_t ticks = p->c->tstacks[s].ticks;
        if (p->doff[s] < p->doff[s + 1])
            p->rank[p->dense[p->doff[s]]].self += ticks;
        for (size_t k = p->doff[s]; k < p->doff[s + 1]; k++) {
            uint32_t d = p->dense[k];
            if (p->stamp[d] != s + 1) {
                p->stamp[d] = (uint32_t)(s + 1);
                p->rank[d].inh += ticks;
            }
        }
    }
    return HS_OK;
}

static int by_rank(const void *x, const void *y)
{
    const ccrank *a = x, *b = y;
    if (a->self != b->self)
        return a->self > b->self ? -1 : 1;
    if (a->inh != b->inh)
        return a->inh > b->inh ? -1 : 1;
    return a->id < b->id ? -1 : a->id > b->id;
}

/* Each stack's self column and distinct inherited columns; a stack of
 * no cost centre has the root column (after the named ones) for both. */
static void plan_columns(plan *p, size_t ncc)
{
    memset(p->stamp, 0, (p->nids + 2) * sizeof *p->stamp);
    size_t at = 0;
    for (size_t s = 0; s < p->nstacks; s++) {
        p->soff[s] = at;
        size_t d0 = p->doff[s], d1 = p->doff[s + 1];
        p->scol[at++] = d0 < d1 ? p->col_of[p->dense[d0]] : (uint32_t)ncc;
        if (d0 == d1)
            p->scol[at++] = (uint32_t)ncc;
        for (size_t k = d0; k < d1; k++) {
            uint32_t col = p->col_of[p->dense[k]];
            if (p->stamp[col] != s + 1) {
                p->stamp[col] = (uint32_t)(s + 1);
                p->scol[at++] = col;
            }
        }
    }
    p->soff[p->nstacks] = at;
}

/* The interval: the log's time (to its last sample or event) in at most
 * max_k parts, each a whole number of ticks when the tick is known. */
static uint64_t interval_width(const hs_census *c, size_t max_k)
{
    uint64_t end = c->info.end_time_ns;
    for (size_t i = 0; i < c->ntsamples; i++)
        if (c->tsamples[i].time > end)
            end = c->tsamples[i].time;
    uint64_t span = end == UINT64_MAX ? end : end + 1;
    uint64_t w = span / max_k + (span % max_k != 0);
    uint64_t tick = c->info.tick_interval_ns;
    if (tick && w % tick && w / tick < UINT64_MAX / tick - 1)
        w = (w / tick + 1) * tick;
    return w ? w : 1;
}

static void plan_free(plan *p)
{
    hs_intern_free(&p->ids);
    hs_free(p->a, p->dense);
    hs_free(p->a, p->doff);
    hs_free(p->a, p->rank);
    hs_free(p->a, p->col_of);
    hs_free(p->a, p->stamp);
    hs_free(p->a, p->scol);
    hs_free(p->a, p->soff);
}

/* The named columns the cell limit allows, "root" when a stack is empty,
 * the rest in "other". */
static int choose_columns(plan *p, size_t max_cells, hs_tprof_series *s)
{
    size_t K = s->nintervals;
    for (size_t t = 0; t < p->nstacks; t++)
        s->root = s->root || (p->doff[t] == p->doff[t + 1] && p->c->tstacks[t].ticks);
    size_t fit = max_cells / K > 3 ? max_cells / K - 1 - s->root : 1;
    qsort(p->rank, p->nids, sizeof *p->rank, by_rank);
    s->ncc = p->nids < fit ? p->nids : fit;
    s->other = s->ncc < p->nids;
    size_t cols = s->ncc + s->root + s->other;
    s->cc = hs_malloc(p->a, (s->ncc ? s->ncc : 1) * sizeof *s->cc);
    s->self = hs_calloc(p->a, cols * K, sizeof *s->self);
    s->inherited = hs_calloc(p->a, cols * K, sizeof *s->inherited);
    if (!s->cc || !s->self || !s->inherited)
        return HS_ERR_NOMEM;
    for (size_t r = 0; r < p->nids; r++) {
        p->col_of[p->rank[r].dense] = (uint32_t)(r < s->ncc ? r : s->ncc + s->root);
        if (r < s->ncc)
            s->cc[r] = p->rank[r].id;
    }
    return HS_OK;
}

static void count_samples(const plan *p, hs_tprof_series *s)
{
    size_t K = s->nintervals;
    for (size_t i = 0; i < p->c->ntsamples; i++) {
        const struct tsample *t = &p->c->tsamples[i];
        uint64_t k = t->time / s->width_ns;
        if (k >= K)
            k = K - 1;
        const uint32_t *cols = p->scol + p->soff[t->stack];
        size_t n = p->soff[t->stack + 1] - p->soff[t->stack];
        uint64_t w = hs__tsample_weight(p->c, i);
        s->self[cols[0] * K + k] += w;
        for (size_t j = 1; j < n; j++)
            s->inherited[cols[j] * K + k] += w;
        s->samples += w;
    }
}

int hs__census_tprof_series(const hs_census *c, size_t max_intervals,
                            size_t max_cells, hs_tprof_series *s)
{
    memset(s, 0, sizeof *s);
    if (!c->ntsamples)
        return HS_OK;
    plan p = {.c = c, .a = c->alloc, .nstacks = c->tstack_tab.count};
    hs_intern_init(&p.ids, p.a);
    s->width_ns = interval_width(c, max_intervals ? max_intervals : 1);
    uint64_t k = 0;
    for (size_t i = 0; i < c->ntsamples; i++)
        if (c->tsamples[i].time / s->width_ns > k)
            k = c->tsamples[i].time / s->width_ns;
    uint64_t kend = c->info.end_time_ns / s->width_ns;
    s->nintervals = (size_t)(kend > k ? kend : k) + 1;
    int rc = plan_alloc(&p);
    if (rc == HS_OK)
        rc = plan_ids(&p);
    if (rc == HS_OK)
        rc = choose_columns(&p, max_cells, s);
    if (rc == HS_OK) {
        plan_columns(&p, s->ncc);
        count_samples(&p, s);
    }
    plan_free(&p);
    if (rc != HS_OK)
        hs__census_tprof_series_free(c, s);
    return rc;
}

void hs__census_tprof_series_free(const hs_census *c, hs_tprof_series *s)
{
    hs_free(c->alloc, s->cc);
    hs_free(c->alloc, s->self);
    hs_free(c->alloc, s->inherited);
    memset(s, 0, sizeof *s);
}
