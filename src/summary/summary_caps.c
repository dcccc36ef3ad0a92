/*
 * The summary's per-capability and per-generation state: each
 * capability's GC intervals and counters, fed in that capability's own
 * order, and the per-generation sums, maxima and counts (summary.h says
 * why nothing here needs the capabilities' events merged by time).
 */
#include "summary/summary_internal.h"

capstate *summary_cap_new(hs_summary *s, int32_t cap, uint64_t off)
{
    size_t slot = summary_slot(cap);
    if (!hs_grow_zeroed(s->alloc, (void **)&s->caps, &s->ncaps_alloc,
                        slot + 1, sizeof *s->caps))
        return NULL;
    capstate *c = s->caps[slot];
    if (!c) {
        if (!hs_grow(s->alloc, (void **)&s->order, &s->order_cap,
                     s->norder + 1, sizeof *s->order))
            return NULL;
        c = hs_calloc(s->alloc, 1, sizeof *c);
        if (!c)
            return NULL;
        s->caps[slot] = c;
        c->order = (uint32_t)s->norder;
        c->first_off = off;
        c->out.cap = cap < 0 ? UINT32_MAX : (uint32_t)cap;
        s->order[s->norder++] = (uint32_t)slot;
    }
    return c;
}

static uint64_t edge_growth(const edge *e, int i)
{
    if (!e->has_end)
        return 0;
    uint64_t b = e->has_base ? e->base[i] : 0;
    return e->end[i] > b ? e->end[i] - b : 0;
}

/* Generations: HEAP_INFO_GHC is authoritative; otherwise the highest
 * generation collected is taken as the oldest. */
static int finish_gens(hs_summary *s, hs_summary_stats *st)
{
    uint32_t ngens = s->info_gens ? s->info_gens
                     : s->any_gen ? s->max_gen_seen + 1u : 0;
    if (!hs_grow_zeroed(s->alloc, (void **)&s->gens, &s->ngens_alloc, ngens,
                        sizeof *s->gens))
        return HS_ERR_NOMEM;
    if (s->any_gen && s->max_gen_seen + 1u > ngens)
        ngens = s->max_gen_seen + 1u;
    st->n_gens = ngens;
    st->gens = s->gens;
    if (ngens) {
        const hs_summary_gen *old = &s->gens[ngens - 1];
        st->major_gcs = old->collections;
        st->has_slop = old->collections > 0;
        st->max_slop_bytes = old->max_slop_bytes;
    }
    for (uint32_t g = 0; g < ngens; g++) {
        st->gc_ns += s->gens[g].elapsed_ns;
        if (s->gens[g].timed)
            st->has_pauses = true;
    }
    return HS_OK;
}

/* a + b, or false when the sum does not fit. */
static bool add_u64(uint64_t *a, uint64_t b)
{
    return !__builtin_add_overflow(*a, b, a);
}

int summary_finish_caps(hs_summary *s)
{
    hs_summary_stats *st = &s->stats;
    if (finish_gens(s, st) != HS_OK)
        return HS_ERR_NOMEM;
    hs_free(s->alloc, s->caps_out); /* an earlier snapshot's */
    s->caps_out = NULL;
    if (s->norder && !(s->caps_out = hs_calloc(s->alloc, s->norder,
                                               sizeof *s->caps_out)))
        return HS_ERR_NOMEM;
    st->has_allocated = s->any_alloc;
    st->has_sparks = s->any_sparks;
    bool alloc_fits = true;
    for (size_t i = 0; i < s->norder; i++) {
        const capstate *c = s->caps[s->order[i]];
        hs_summary_cap *o = &s->caps_out[i];
        *o = c->out;
        o->allocated_bytes = edge_growth(&c->alloc, 0);
        alloc_fits &= add_u64(&st->allocated_bytes, o->allocated_bytes);
        st->sparks_created += edge_growth(&c->sparks, 0);
        st->sparks_dud += edge_growth(&c->sparks, 1);
        st->sparks_overflowed += edge_growth(&c->sparks, 2);
        st->sparks_converted += edge_growth(&c->sparks, 3);
        st->sparks_gcd += edge_growth(&c->sparks, 4);
        st->sparks_fizzled += edge_growth(&c->sparks, 5);
    }
    if (!alloc_fits) {
        summary_warn(s, "bytes allocated cannot be right: the counters' "
                     "growth overflows 64 bits (a corrupted HEAP_ALLOCATED "
                     "counter?); it and the alloc rate are left out");
        st->has_allocated = false;
        st->allocated_bytes = 0;
    }
    st->n_caps = (uint32_t)s->norder;
    st->caps = s->caps_out;
    return HS_OK;
}
