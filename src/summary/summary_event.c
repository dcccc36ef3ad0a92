/*
 * The summary's per-event path: every event hs_summary_add_event() and the
 * library's one pass (hs__summary_add_counted) hand over. The GC and heap
 * events, four in ten of a real log's events (6.4 M of 14.8 M in a -N2
 * -hT run), go to their capability's state: the dispatcher keeps no frame
 * and jumps to one small leaf function per tag, and the capability's state
 * is the last event's when the capability is the same (a log's
 * capabilities write their events a block at a time). summary.c holds the
 * events of the whole log (summary_on_global).
 */
#include "summary/summary_internal.h"
#include "summary/summary_bulk.h"

#include <stddef.h>
#include <string.h>

/* Generation g, which gens[] holds, seen collected. */
static hs_summary_gen *gen_of(hs_summary *s, uint16_t g)
{
    if (!s->any_gen || g > s->max_gen_seen)
        s->max_gen_seen = g;
    s->any_gen = true;
    return &s->gens[g];
}

/* Records a counter sample against the window's edges: the base is the
 * latest value before the window, the end the latest inside or before
 * it. Latest by time, so the feeding order does not matter. size is a
 * constant at each call (one value or six): the copies are moves. */
static inline void note_counter(const hs_summary *s, edge *e, uint64_t t,
                                const void *v, size_t size)
{
    if (t < s->from && (!e->has_base || t >= e->base_t)) {
        e->has_base = true;
        e->base_t = t;
        memcpy(e->base, v, size);
    }
    if (t <= s->to && (!e->has_end || t >= e->end_t)) {
        e->has_end = true;
        e->end_t = t;
        memcpy(e->end, v, size);
    }
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

static int on_new_gen(hs_summary *s, capstate *c, const hs_event *ev);

static HS_NOINLINE int on_gc_stats(hs_summary *s, capstate *c,
                                   const hs_event *ev)
{
    if (ev->u.gc_stats.gen >= s->ngens_alloc)
        return on_new_gen(s, c, ev); /* apart: no call on the way here */
    const bool in = summary_in_window(s, ev->time);
    s->any_gc_stats = true;

    hs_summary_gen *g = gen_of(s, ev->u.gc_stats.gen);
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

/* on_gc_stats() of a generation gens[] does not hold yet. */
static HS_NOINLINE int on_new_gen(hs_summary *s, capstate *c,
                                  const hs_event *ev)
{
    if (!hs_grow_zeroed(s->alloc, (void **)&s->gens, &s->ngens_alloc,
                        (size_t)ev->u.gc_stats.gen + 1, sizeof *s->gens))
        return summary_nomem(s);
    return on_gc_stats(s, c, ev);
}

static HS_NOINLINE int on_gc_end(hs_summary *s, capstate *c, uint64_t t)
{
    if (!c->in_gc)
        return HS_OK;
    c->in_gc = false;
    if (t < c->gc_start) {
        c->led_pending = false;
        return HS_OK; /* a clock that ran backwards: no interval */
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
    return HS_OK;
}

/* SPARK_COUNTERS' six counters, in the order of edge's arrays, are the
 * first six fields of its struct: copied from there as one array. */
_Static_assert(offsetof(hs_event, u.spark_counters.created) ==
                   offsetof(hs_event, u.spark_counters) &&
               offsetof(hs_event, u.spark_counters.fizzled) -
                   offsetof(hs_event, u.spark_counters.created) ==
                   (N_SPARK - 1) * sizeof(uint64_t),
               "SPARK_COUNTERS' counters are not one array");

/*
 * The events fed to one capability's state, in that capability's order:
 * one function each, called last (a jump), so that none pays for the
 * registers another needs.
 */
static HS_NOINLINE int on_gc_start(hs_summary *s, capstate *c,
                                   const hs_event *ev)
{
    s->any_gc_start = true;
    c->in_gc = true;
    c->gc_start = ev->time;
    c->led_pending = false;
    c->last_closed = false;
    return HS_OK;
}

static HS_NOINLINE int on_heap_size(hs_summary *s, const hs_event *ev)
{
    if (summary_in_window(s, ev->time)) {
        s->any_heap_size = true;
        if (ev->u.heap.bytes > s->max_heap_size)
            s->max_heap_size = ev->u.heap.bytes;
    }
    return HS_OK;
}

static HS_NOINLINE int on_heap_allocated(hs_summary *s, capstate *c,
                                         const hs_event *ev)
{
    s->any_alloc = true;
    c->has_alloc = true;
    note_counter(s, &c->alloc, ev->time, &ev->u.heap.bytes,
                 sizeof(uint64_t));
    return HS_OK;
}

static HS_NOINLINE int on_sparks(hs_summary *s, capstate *c,
                                 const hs_event *ev)
{
    s->any_sparks = true;
    note_counter(s, &c->sparks, ev->time, &ev->u.spark_counters,
                 N_SPARK * sizeof(uint64_t));
    return HS_OK;
}

static int on_cap(hs_summary *s, capstate *c, const hs_event *ev)
{
    switch (ev->tag) {
    case HS_EV_GC_START:
        return on_gc_start(s, c, ev);
    case HS_EV_GC_END:
        return on_gc_end(s, c, ev->time);
    case HS_EV_GC_STATS_GHC:
        return on_gc_stats(s, c, ev);
    case HS_EV_HEAP_SIZE:
        return on_heap_size(s, ev);
    case HS_EV_HEAP_ALLOCATED:
        return on_heap_allocated(s, c, ev);
    default: /* HS_EV_SPARK_COUNTERS */
        return on_sparks(s, c, ev);
    }
}

/* on_cap() of an event whose capability is not the last event's: its
 * state looked up, and remembered for the next. */
static HS_NOINLINE int on_other_cap(hs_summary *s, const hs_event *ev)
{
    capstate *c = summary_cap_of(s, ev->cap, ev->offset);
    s->last_cap = ev->cap;
    s->last_state = c;
    return c ? on_cap(s, c, ev) : summary_nomem(s);
}

/* Refuses an event when the summary is stuck or finished. */
static int summary_closed(hs_summary *s)
{
    if (s->sticky)
        return s->err.code;
    return summary_fail(s, HS_ERR_MISUSE, "event after hs_summary_finish()");
}

int hs_summary_add_event(hs_summary *s, const hs_event *ev)
{
    if (s->sticky || s->finished)
        return summary_closed(s);
    s->events++;
    if (ev->tag == HS_EV_BLOCK_MARKER)
        return HS_OK; /* framing; its time is the block's start */
    if (!s->any_time || ev->time > s->last_time)
        s->last_time = ev->time;
    s->any_time = true;
    return hs__summary_add_counted(s, ev);
}

int hs__summary_add_counted(hs_summary *s, const hs_event *ev)
{
    if (s->sticky || s->finished)
        return summary_closed(s);
    if (!ev->known)
        return HS_OK;
    if (!hs__summary_cap_tag(ev->tag))
        return summary_on_global(s, ev);
    /* a log's capabilities write a block at a time: mostly the last
     * event's capability */
    if (ev->cap != s->last_cap || !s->last_state)
        return on_other_cap(s, ev);
    return on_cap(s, s->last_state, ev);
}
