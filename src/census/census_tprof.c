/*
 * The time profile: PROF_SAMPLE_COST_CENTRE stacks with tick counts, in
 * total and per capability, and every sample with its time (16 bytes
 * each: a tick is 1 ms or more per capability, so an hour of one
 * capability costs under 60 MB), for windows and time order. A live
 * census bounds that by merging old samples into weighted records
 * (census_tcompact.c).
 */
#include "census/census_impl.h"

#include <string.h>

/* Appends sample (time, stack si, cap) to the time-ordered list. */
static int add_tsample(hs_census *c, uint64_t time, uint32_t si, uint32_t cap)
{
    if (!hs_grow(c->alloc, (void **)&c->tsamples, &c->cap_tsamples,
                 c->ntsamples + 1, sizeof *c->tsamples))
        return hs__census_nomem(c);
    if (c->ntsamples && time < c->tsamples[c->ntsamples - 1].time)
        c->tsamples_unsorted = true;
    c->tsamples[c->ntsamples++] = (struct tsample){time, si, cap};
    return HS_OK;
}

int hs__census_add_prof_sample(hs_census *c, uint64_t time, const uint8_t *be,
                               uint32_t depth, uint32_t cap)
{
    uint32_t si;
    bool added;
    if (!hs_intern_put(&c->tstack_tab, be, (size_t)depth * 4, &si, &added))
        return hs__census_nomem(c);
    if (added) {
        if (!hs_grow(c->alloc, (void **)&c->tstacks, &c->cap_tstacks, (size_t)si + 1,
                     sizeof *c->tstacks))
            return hs__census_nomem(c);
        const uint32_t *ids = hs__census_stack_ids(c, be, depth);
        if (!ids)
            return hs__census_nomem(c);
        c->tstacks[si] = (struct tstack){ids, depth, 0};
    }
    int st = add_tsample(c, time, si, cap);
    if (st)
        return st;
    c->tstacks[si].ticks++;
    uint32_t key[2] = {si, cap};
    uint32_t ki;
    if (!hs_intern_put(&c->tcap_tab, key, sizeof key, &ki, &added))
        return hs__census_nomem(c);
    if (added) {
        if (!hs_grow(c->alloc, (void **)&c->tcap_ticks, &c->cap_tcap, (size_t)ki + 1,
                     sizeof *c->tcap_ticks))
            return hs__census_nomem(c);
        c->tcap_ticks[ki] = 0;
    }
    c->tcap_ticks[ki]++;
    c->info.time_samples++;
    /* A hostile capability number must not make "capabilities" absurd;
     * the per-capability table itself holds any value. */
    if (cap < 65536 && cap + 1 > c->info.capabilities)
        c->info.capabilities = cap + 1;
    return HS_OK;
}


size_t hs_census_tprof_count(const hs_census *c)
{
    return c->tstack_tab.count;
}

size_t hs_census_tprof_stack(const hs_census *c, size_t i, int cap,
                             const uint32_t **ids, uint64_t *ticks)
{
    if (i >= c->tstack_tab.count) {
        *ids = NULL;
        *ticks = 0;
        return 0;
    }
    const struct tstack *t = &c->tstacks[i];
    *ids = t->ids;
    if (cap < 0) {
        *ticks = t->ticks;
    } else {
        uint32_t key[2] = {(uint32_t)i, (uint32_t)cap};
        uint32_t k = hs_intern_find(&c->tcap_tab, key, sizeof key);
        *ticks = k == UINT32_MAX ? 0 : c->tcap_ticks[k];
    }
    return t->depth;
}

size_t hs_census_tprof_cap_count(const hs_census *c)
{
    return c->tcap_tab.count;
}

uint64_t hs_census_tprof_cap_at(const hs_census *c, size_t k, size_t *stack,
                                uint32_t *cap)
{
    if (k >= c->tcap_tab.count) {
        *stack = 0;
        *cap = 0;
        return 0;
    }
    uint32_t key[2];
    memcpy(key, c->tcap_tab.keys[k].ptr, sizeof key);
    *stack = key[0];
    *cap = key[1];
    return c->tcap_ticks[k];
}


size_t hs_census_tprof_sample_count(const hs_census *c)
{
    return c->ntsamples;
}

size_t hs_census_tprof_sample(const hs_census *c, size_t i, uint64_t *time_ns,
                              uint32_t *cap)
{
    if (i >= c->ntsamples) {
        *time_ns = 0;
        *cap = 0;
        return SIZE_MAX;
    }
    *time_ns = c->tsamples[i].time;
    *cap = c->tsamples[i].cap;
    return c->tsamples[i].stack;
}

uint64_t hs_census_tprof_sample_weight(const hs_census *c, size_t i)
{
    return i < c->ntsamples ? hs__tsample_weight(c, i) : 0;
}

uint64_t hs_census_tprof_bucket_ns(const hs_census *c)
{
    return c->ntmerged ? c->tbucket_ns : 0;
}

uint64_t hs_census_tprof_merged_until(const hs_census *c)
{
    return c->ntmerged ? c->tuntil_ns : 0;
}
