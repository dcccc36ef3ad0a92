/*
 * Ticky-ticky counters (heapscope/ticky.h): definitions and samples from
 * the log's events, summed per counter as they come; at the end the
 * counters are ordered, their points grouped and their closures named
 * through the IPE records.
 *
 * Samples: the runtime resets a counter after writing its sample
 * (rts/eventlog/EventLog.c, postTickyCounterSample), so every sample is a
 * change and the figures over the run are sums. BEGIN_SAMPLE opens each
 * sample; a log without it (older runtimes) writes each sample's
 * events together, a counter at most once, so a counter seen again opens
 * the next sample. Definitions are written at exit, after the samples.
 */
#include "heapscope/reader.h"
#include "census/census_impl.h"

#include <stdlib.h>
#include <string.h>

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a + b < a ? UINT64_MAX : a + b;
}

/* The counter with id, made (undefined, no figures) when new; NULL when
 * out of memory. */
static struct ticky_ctr *counter(hs_census *c, uint64_t id, uint32_t *idx)
{
    bool added;
    if (!hs_intern_put(&c->ticky_tab, &id, sizeof id, idx, &added))
        return NULL;
    if (added) {
        if (!hs_grow(c->alloc, (void **)&c->tickies, &c->cap_tickies,
                     (size_t)*idx + 1, sizeof *c->tickies))
            return NULL;
        struct ticky_ctr *t = &c->tickies[*idx];
        memset(t, 0, sizeof *t);
        t->pub.id = id;
        t->pub.name = t->pub.arg_kinds = t->pub.json = "";
        t->last_sample = SIZE_MAX;
    }
    return &c->tickies[*idx];
}

static int open_sample(hs_census *c, uint64_t time)
{
    if (!hs_grow(c->alloc, (void **)&c->ttimes, &c->cap_ttimes,
                 c->nttimes + 1, sizeof *c->ttimes))
        return hs__census_nomem(c);
    c->ttimes[c->nttimes++] = time;
    return HS_OK;
}

static int add_def(hs_census *c, const hs_event *ev)
{
    uint32_t idx;
    struct ticky_ctr *t = counter(c, ev->u.ticky_def.id, &idx);
    if (!t)
        return hs__census_nomem(c);
    if (t->pub.defined) /* the first definition stands */
        return HS_OK;
    const char *name = hs__census_dup(c, ev->u.ticky_def.name);
    const char *kinds = hs__census_dup(c, ev->u.ticky_def.kinds);
    const char *json = hs__census_dup(c, ev->u.ticky_def.json);
    if (!name || !kinds || !json)
        return hs__census_nomem(c);
    t->pub.defined = true;
    t->pub.name = name;
    t->pub.arg_kinds = kinds;
    t->pub.json = json;
    t->pub.arity = ev->u.ticky_def.arity;
    t->pub.has_info_table = ev->u.ticky_def.has_info_table;
    t->pub.info_table = ev->u.ticky_def.info_table;
    return HS_OK;
}

static int add_sample(hs_census *c, const hs_event *ev)
{
    uint32_t idx;
    struct ticky_ctr *t = counter(c, ev->u.ticky_sample.id, &idx);
    if (!t)
        return hs__census_nomem(c);
    size_t cur = c->nttimes ? c->nttimes - 1 : SIZE_MAX;
    bool repeat = cur != SIZE_MAX && t->last_sample == cur;
    if (cur == SIZE_MAX || (repeat && !c->ticky_begins)) {
        int st = open_sample(c, ev->time);
        if (st)
            return st;
        cur = c->nttimes - 1;
        repeat = false;
    }
    uint64_t e = ev->u.ticky_sample.entries, a = ev->u.ticky_sample.allocs,
             d = ev->u.ticky_sample.allocd;
    t->pub.entries = sat_add(t->pub.entries, e);
    t->pub.allocs = sat_add(t->pub.allocs, a);
    t->pub.allocd = sat_add(t->pub.allocd, d);
    if (repeat) { /* twice in one sample: one point */
        hs_ticky_point *p = &c->tpts[t->last_pt].pt;
        p->entries = sat_add(p->entries, e);
        p->allocs = sat_add(p->allocs, a);
        p->allocd = sat_add(p->allocd, d);
        return HS_OK;
    }
    if (!hs_grow(c->alloc, (void **)&c->tpts, &c->cap_tpts, c->ntpts + 1,
                 sizeof *c->tpts))
        return hs__census_nomem(c);
    c->tpts[c->ntpts] = (struct ticky_pt){idx, {cur, e, a, d}};
    t->last_sample = cur;
    t->last_pt = c->ntpts++;
    t->pub.samples++;
    return HS_OK;
}

int hs__census_add_ticky(hs_census *c, const hs_event *ev)
{
    c->ticky_seen = true;
    switch (ev->tag) {
    case HS_EV_TICKY_COUNTER_DEF:
        return add_def(c, ev);
    case HS_EV_TICKY_COUNTER_SAMPLE:
        return add_sample(c, ev);
    default: /* BEGIN_SAMPLE */
        c->ticky_begins = true;
        return open_sample(c, ev->time);
    }
}

/* --- finishing ------------------------------------------------------------ */

static int cmp_counter(const void *a, const void *b)
{
    const hs_ticky_counter *x = *(const hs_ticky_counter *const *)a,
                           *y = *(const hs_ticky_counter *const *)b;
    if (x->allocd != y->allocd)
        return x->allocd > y->allocd ? -1 : 1;
    if (x->entries != y->entries)
        return x->entries > y->entries ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* Points grouped by counter, each counter's in sample order (arrival
 * order is sample order): a counting sort. */
static int group_points(hs_census *c, size_t n)
{
    c->tpoints = hs_calloc(c->alloc, c->ntpts ? c->ntpts : 1,
                           sizeof *c->tpoints);
    if (!c->tpoints)
        return hs__census_nomem(c);
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        c->tickies[i].first = at;
        at += c->tickies[i].pub.samples;
    }
    size_t *fill = hs_calloc(c->alloc, n ? n : 1, sizeof *fill);
    if (!fill)
        return hs__census_nomem(c);
    for (size_t k = 0; k < c->ntpts; k++) {
        uint32_t i = c->tpts[k].ctr;
        c->tpoints[c->tickies[i].first + fill[i]++] = c->tpts[k].pt;
    }
    hs_free(c->alloc, fill);
    hs_free(c->alloc, c->tpts);
    c->tpts = NULL;
    c->ntpts = c->cap_tpts = 0;
    return HS_OK;
}

static void name_closure(hs_census *c, hs_ticky_counter *t)
{
    if (!t->has_info_table || !t->info_table)
        return;
    uint64_t addr = t->info_table;
    uint32_t k = hs_intern_find(&c->ipe_tab, &addr, sizeof addr);
    if (k == UINT32_MAX)
        return;
    const hs_census_ipe *r = &c->ipes[k];
    t->closure_desc = r->closure_desc;
    t->type_desc = r->type_desc;
    t->label = r->label;
    t->module = r->module;
    t->srcloc = r->srcloc;
}

int hs__census_finish_ticky(hs_census *c)
{
    size_t n = c->ticky_tab.count;
    if (!n)
        return HS_OK;
    const hs_ticky_counter **by = hs_calloc(c->alloc, n, sizeof *by);
    c->ticky_order = hs_calloc(c->alloc, n, sizeof *c->ticky_order);
    if (!by || !c->ticky_order) {
        hs_free(c->alloc, by);
        return hs__census_nomem(c);
    }
    for (size_t i = 0; i < n; i++) {
        name_closure(c, &c->tickies[i].pub);
        by[i] = &c->tickies[i].pub;
    }
    qsort(by, n, sizeof *by, cmp_counter);
    /* pub is a ticky_ctr's first member */
    for (size_t i = 0; i < n; i++)
        c->ticky_order[i] =
            (size_t)((const struct ticky_ctr *)(const void *)by[i] - c->tickies);
    hs_free(c->alloc, by);
    return group_points(c, n);
}

/* --- getters ---------------------------------------------------------------- */

bool hs_census_has_ticky(const hs_census *c) { return c->ticky_seen; }

size_t hs_census_ticky_count(const hs_census *c) { return c->ticky_tab.count; }

static size_t slot(const hs_census *c, size_t i)
{
    return c->ticky_order ? c->ticky_order[i] : i;
}

const hs_ticky_counter *hs_census_ticky_at(const hs_census *c, size_t i)
{
    return i < c->ticky_tab.count ? &c->tickies[slot(c, i)].pub : NULL;
}

size_t hs_census_ticky_sample_count(const hs_census *c) { return c->nttimes; }

uint64_t hs_census_ticky_sample_time(const hs_census *c, size_t s)
{
    return s < c->nttimes ? c->ttimes[s] : 0;
}

size_t hs_census_ticky_points(const hs_census *c, size_t i,
                              const hs_ticky_point **points)
{
    *points = NULL;
    if (i >= c->ticky_tab.count || !c->tpoints)
        return 0;
    const struct ticky_ctr *t = &c->tickies[slot(c, i)];
    if (!t->pub.samples)
        return 0;
    *points = c->tpoints + t->first;
    return t->pub.samples;
}
