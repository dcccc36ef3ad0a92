/*
 * The summary of a pass in two lanes (load/load_lanes.c): a second
 * summary takes the capability events of the capabilities the second
 * lane reads (the six tags summary_event.c feeds to a capability's
 * state), and is merged into the calling thread's at the end. Both
 * summaries have the same window. A capability is in one lane only, so
 * its state moves over whole; every other field the capability events
 * set is a sum, a maximum or an OR (summary.h: nothing depends on the
 * capabilities' interleaving), and the capabilities' order is their
 * first events' by offset, which is the order of first appearance of
 * one pass.
 */
#include "summary/summary_internal.h"
#include "summary/summary_bulk.h"

bool hs__summary_fresh(const hs_summary *s)
{
    return !s->events && !s->any_time && !s->norder && !s->finished &&
           !s->sticky && s->err.code == HS_OK && !s->marker_names.count &&
           !s->rts_id && !s->args && !s->ngens_alloc;
}

int hs__summary_invalid(hs_summary *s, const char *msg)
{
    return summary_fail(s, HS_ERR_INVALID, "%s", msg);
}

const hs_allocator *hs__summary_alloc(const hs_summary *s)
{
    return s->alloc;
}

hs_summary *hs__summary_lane(const hs_summary *s)
{
    hs_summary *l = hs_summary_new_with(s->alloc);
    if (l) {
        l->windowed = s->windowed;
        l->from = s->from;
        l->to = s->to;
    }
    return l;
}

/* What a lane's summary was before one of its blocks: every field, the
 * generations, and the block's capability's state. */
struct hs__summary_snap {
    hs_summary whole;
    hs_summary_gen *gens;
    size_t gens_cap;
    int32_t cap;
    bool had_cap;
    capstate cap_state;
};

hs__summary_snap *hs__summary_snap_new(const hs_summary *l)
{
    return hs_calloc(l->alloc, 1, sizeof(hs__summary_snap));
}

void hs__summary_snap_free(const hs_summary *l, hs__summary_snap *snap)
{
    if (snap)
        hs_free(l->alloc, snap->gens);
    hs_free(l->alloc, snap);
}

int hs__summary_save(const hs_summary *l, int32_t cap, hs__summary_snap *snap)
{
    if (l->ngens_alloc &&
        !hs_grow(l->alloc, (void **)&snap->gens, &snap->gens_cap,
                 l->ngens_alloc, sizeof *snap->gens))
        return HS_ERR_NOMEM;
    if (l->ngens_alloc)
        memcpy(snap->gens, l->gens, l->ngens_alloc * sizeof *l->gens);
    snap->whole = *l;
    snap->cap = cap;
    const capstate *c = summary_cap_find(l, cap);
    snap->had_cap = c != NULL;
    if (c)
        snap->cap_state = *c;
    return HS_OK;
}

/* The state of snaps[i]'s capability as before snaps[i]'s block, when no
 * earlier one of snaps has given it back already; a state made since
 * is freed. */
static void restore_cap(hs_summary *l, hs__summary_snap *const *snaps,
                        size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (snaps[j]->cap == snaps[i]->cap)
            return; /* the earliest one is the state before them all */
    capstate *c = summary_cap_find(l, snaps[i]->cap);
    if (snaps[i]->had_cap) {
        *c = snaps[i]->cap_state;
    } else if (c) {
        hs_free(l->alloc, c);
        l->caps[summary_slot(snaps[i]->cap)] = NULL;
    }
}

void hs__summary_restore(hs_summary *l, hs__summary_snap *const *snaps,
                         size_t n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n; i++)
        restore_cap(l, snaps, i);
    const hs__summary_snap *x = snaps[0];
    hs_summary keep = *l;
    *l = x->whole; /* the fields; the arrays are the ones l has now */
    l->caps = keep.caps;
    l->ncaps_alloc = keep.ncaps_alloc;
    l->order = keep.order;
    l->order_cap = keep.order_cap;
    l->gens = keep.gens;
    l->ngens_alloc = keep.ngens_alloc;
    l->caps_out = keep.caps_out;
    l->last_state = NULL; /* maybe freed: looked up again */
    for (size_t g = 0; g < l->ngens_alloc; g++)
        l->gens[g] = g < x->whole.ngens_alloc ? x->gens[g]
                                              : (hs_summary_gen){0};
}

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* Generation figures: the counts and sums added, the maxima kept. */
static void merge_gen(hs_summary_gen *g, const hs_summary_gen *l)
{
    g->collections += l->collections;
    g->par_collections += l->par_collections;
    g->timed += l->timed;
    g->elapsed_ns += l->elapsed_ns;
    g->max_pause_ns = max64(g->max_pause_ns, l->max_pause_ns);
    g->copied_bytes += l->copied_bytes;
    g->max_slop_bytes = max64(g->max_slop_bytes, l->max_slop_bytes);
}

/* The whole-log figures the capability events set. */
static void merge_scalars(hs_summary *s, const hs_summary *l)
{
    if (l->any_gen && (!s->any_gen || l->max_gen_seen > s->max_gen_seen))
        s->max_gen_seen = l->max_gen_seen;
    s->any_gen |= l->any_gen;
    s->any_gc_stats |= l->any_gc_stats;
    s->any_gc_start |= l->any_gc_start;
    s->any_heap_size |= l->any_heap_size;
    s->any_alloc |= l->any_alloc;
    s->any_sparks |= l->any_sparks;
    s->copied += l->copied;
    s->max_heap_size = max64(s->max_heap_size, l->max_heap_size);
    s->par_copied += l->par_copied;
    s->par_balanced += l->par_balanced;
    s->par_max += l->par_max;
    s->par_tot += l->par_tot;
    if (l->par_threads_max > s->par_threads_max)
        s->par_threads_max = l->par_threads_max;
    s->par_any |= l->par_any;
    s->par_all_balanced &= l->par_all_balanced;
}

/* s's and l's capabilities in one order, by their first events' offsets
 * (each list is in that order already), into out. */
static void merge_order(const hs_summary *s, const hs_summary *l,
                        capstate *const *caps, uint32_t *out)
{
    size_t i = 0, j = 0, n = 0;
    while (i < s->norder || j < l->norder) {
        bool take_s = j == l->norder ||
                      (i < s->norder && caps[s->order[i]]->first_off <
                                            caps[l->order[j]]->first_off);
        out[n] = take_s ? s->order[i++] : l->order[j++];
        caps[out[n]]->order = (uint32_t)n;
        n++;
    }
}

int hs__summary_merge(hs_summary *s, hs_summary *l)
{
    if (s->sticky || l->sticky)
        return s->sticky ? s->err.code : summary_nomem(s);
    size_t need_caps = 0;
    for (size_t i = 0; i < l->norder; i++) {
        size_t slot = l->order[i];
        if (slot < s->ncaps_alloc && s->caps[slot]) /* never, by the plan */
            return summary_fail(s, HS_ERR_MISUSE, "capability %zu was read "
                                "in both lanes", slot);
        need_caps = slot + 1 > need_caps ? slot + 1 : need_caps;
    }
    uint32_t *order = NULL;
    size_t norder = s->norder + l->norder, order_cap = 0;
    if (!hs_grow_zeroed(s->alloc, (void **)&s->caps, &s->ncaps_alloc,
                        need_caps, sizeof *s->caps) ||
        !hs_grow_zeroed(s->alloc, (void **)&s->gens, &s->ngens_alloc,
                        l->ngens_alloc, sizeof *s->gens) ||
        (norder && !hs_grow(s->alloc, (void **)&order, &order_cap, norder,
                            sizeof *order)))
        return summary_nomem(s);
    for (size_t i = 0; i < l->norder; i++) {
        s->caps[l->order[i]] = l->caps[l->order[i]];
        l->caps[l->order[i]] = NULL; /* s's now */
    }
    merge_order(s, l, s->caps, order);
    hs_free(s->alloc, s->order);
    s->order = order;
    s->norder = norder;
    s->order_cap = order_cap;
    l->norder = 0;
    for (size_t g = 0; g < l->ngens_alloc; g++)
        merge_gen(&s->gens[g], &l->gens[g]);
    merge_scalars(s, l);
    return HS_OK;
}
