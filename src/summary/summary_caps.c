/*
 * The summary's per-capability and per-generation state: each
 * capability's GC intervals and counters, fed in that capability's own
 * order, and the per-generation sums, maxima and counts (summary.h says
 * why nothing here needs the capabilities' events merged by time).
 */
#include "summary/summary_internal.h"

capstate *summary_cap_new(hs_summary *s, int32_t cap)
{
    size_t slot = cap < 0 ? GLOBAL_SLOT : (size_t)cap;
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
        c->out.cap = cap < 0 ? UINT32_MAX : (uint32_t)cap;
        s->order[s->norder++] = (uint32_t)slot;
    }
    return c;
}

static hs_summary_gen *gen_of(hs_summary *s, uint16_t g)
{
    if (g >= s->ngens_alloc &&
        !hs_grow_zeroed(s->alloc, (void **)&s->gens, &s->ngens_alloc,
                        (size_t)g + 1, sizeof *s->gens))
        return NULL;
    if (!s->any_gen || g > s->max_gen_seen)
        s->max_gen_seen = g;
    s->any_gen = true;
    return &s->gens[g];
}

/* Records a counter sample against the window's edges: the base is the
 * latest value before the window, the end the latest inside or before
 * it. Latest by time, so the feeding order does not matter. */
void summary_note_counter(const hs_summary *s, edge *e, uint64_t t,
                          const uint64_t *v, int n)
{
    if (t < s->from && (!e->has_base || t >= e->base_t)) {
        e->has_base = true;
        e->base_t = t;
        for (int i = 0; i < n; i++) /* one or six: no call of memcpy */
            e->base[i] = v[i];
    }
    if (t <= s->to && (!e->has_end || t >= e->end_t)) {
        e->has_end = true;
        e->end_t = t;
        for (int i = 0; i < n; i++)
            e->end[i] = v[i];
    }
}

static uint64_t edge_growth(const edge *e, int i)
{
    if (!e->has_end)
        return 0;
    uint64_t b = e->has_base ? e->base[i] : 0;
    return e->end[i] > b ? e->end[i] - b : 0;
}

static void add_pause(hs_summary_gen *g, uint64_t d)
{
    g->timed++;
    g->elapsed_ns += d;
    if (d > g->max_pause_ns)
        g->max_pause_ns = d;
}

/* A collection inside the window: the generation's and the run's sums. */
static void count_collection(hs_summary *s, capstate *c, hs_summary_gen *g,
                             const hs_event *ev)
{
    const uint64_t copied = ev->u.gc_stats.copied;
    const uint32_t threads = ev->u.gc_stats.par_threads;
    g->collections++;
    g->copied_bytes += copied;
    if (ev->u.gc_stats.slop > g->max_slop_bytes)
        g->max_slop_bytes = ev->u.gc_stats.slop;
    s->copied += copied;
    c->out.led++;
    if (threads <= 1)
        return;
    g->par_collections++;
    s->par_any = true;
    s->par_copied += copied;
    s->par_max += ev->u.gc_stats.par_max_copied;
    s->par_tot += ev->u.gc_stats.par_tot_copied;
    if (threads > s->par_threads_max)
        s->par_threads_max = threads;
    if (ev->u.gc_stats.has_balanced)
        s->par_balanced += ev->u.gc_stats.par_balanced_copied;
    else
        s->par_all_balanced = false;
}

int summary_on_gc_stats(hs_summary *s, capstate *c, const hs_event *ev)
{
    const bool in = summary_in_window(s, ev->time);
    s->any_gc_stats = true;

    hs_summary_gen *g = gen_of(s, ev->u.gc_stats.gen);
    if (!g)
        return summary_nomem(s);
    if (in)
        count_collection(s, c, g, ev);
    if (c->in_gc) {
        /* GHC >= 8.4: stats come before the leader's GC_END. */
        c->led_pending = true;
        c->led_gen = ev->u.gc_stats.gen;
        c->led_in_window = in;
    } else if (c->last_closed && in) {
        /* Older layouts post the stats after GC_END. */
        add_pause(g, c->last_end - c->last_start);
        c->last_closed = false;
    }
    return HS_OK;
}

void summary_on_gc_end(hs_summary *s, capstate *c, uint64_t t)
{
    if (!c->in_gc)
        return;
    c->in_gc = false;
    if (t < c->gc_start) {
        c->led_pending = false;
        return; /* a clock that ran backwards: no interval */
    }
    uint64_t d = t - c->gc_start;
    if (summary_in_window(s, c->gc_start)) {
        c->out.gcs++;
        c->out.gc_elapsed_ns += d;
    }
    c->last_closed = !c->led_pending;
    c->last_start = c->gc_start;
    c->last_end = t;
    if (c->led_pending) {
        c->led_pending = false;
        if (c->led_in_window)
            add_pause(&s->gens[c->led_gen], d);
    }
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
