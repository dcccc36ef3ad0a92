/*
 * The +RTS -s summary rebuilt from heap and GC events.
 *
 * How each figure is made (GHC 9.0 rts/Stats.c is the reference for what
 * the runtime prints; the events are posted from the same variables):
 *
 *   bytes allocated   sum over capabilities of the growth of HEAP_ALLOCATED
 *                     (the runtime posts every capability's counter at each
 *                     collection and once more at exit; the last values add
 *                     up to +RTS -s's figure)
 *   bytes copied      sum of GC_STATS_GHC.copied
 *   max residency     largest HEAP_LIVE (posted after major collections);
 *                     the sample count is the number of major collections
 *   max slop          largest GC_STATS_GHC.slop of a major collection (the
 *                     runtime's max_slop_bytes is only updated then)
 *   MiB in use        largest HEAP_SIZE (mblocks_allocated * MBLOCK_SIZE at
 *                     the end of a collection)
 *   fragmentation     not made: the runtime's figure is peak megablocks
 *                     minus the high-water mark of allocated blocks, which
 *                     is reached in the middle of a copying collection
 *                     (from- and to-space both held); HEAP_SIZE,
 *                     BLOCKS_SIZE and GC_STATS_GHC.frag are all posted at
 *                     the end, after from-space is freed. On the samples
 *                     the end-of-collection figures give 6 to 36 MB where
 *                     +RTS -s says 0.
 *   colls / par       GC_STATS_GHC per generation; par when its thread count
 *                     is above one (the runtime's n_gc_threads > 1)
 *   pauses            the leader's GC_START..GC_END (see summary.h)
 *   work balance      sum of par_balanced_copied / sum of copied, over the
 *                     parallel collections (the runtime's Note [Work
 *                     Balance]); logs older than 8.4 lack the balanced
 *                     field and get (total/max - 1) / (threads - 1)
 *   sparks            sum over capabilities of SPARK_COUNTERS' growth
 *
 * Nothing here depends on the interleaving of different capabilities'
 * events (summary.h explains why that matters): per-capability state is
 * fed in that capability's order, everything else is a sum, maximum or
 * count.
 */
#include "heapscope/summary.h"
#include "internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The slot of events outside any capability's block. */
#define GLOBAL_SLOT 65536u

enum { N_SPARK = 6 }; /* created dud overflowed converted gcd fizzled */

/* A monotonic counter's values at the window's edges. */
typedef struct edge {
    bool has_base, has_end;
    uint64_t base_t, end_t;
    uint64_t base[N_SPARK], end[N_SPARK];
} edge;

typedef struct capstate {
    uint32_t order;           /* index in s->order */
    bool in_gc;               /* between its GC_START and GC_END */
    uint64_t gc_start;
    bool led_pending;         /* GC_STATS_GHC seen inside this GC */
    uint16_t led_gen;
    bool led_in_window;
    bool last_closed;         /* last_start..last_end is a finished GC */
    uint64_t last_start, last_end;
    edge alloc, sparks;
    bool has_alloc;
    hs_summary_cap out;
} capstate;

typedef struct marker {
    char *name;
    size_t len;
    uint64_t *times;
    size_t ntimes, cap;
    uint64_t first;
} marker;

struct hs_summary {
    hs_error err;             /* the last error, for its message */
    int sticky;               /* an error that stops all work (no memory) */
    bool finished;
    int finish_status;        /* what hs_summary_finish() returned */
    uint64_t events;

    bool windowed;
    uint64_t from, to;
    char *from_marker, *to_marker;

    capstate **caps;          /* indexed by slot, allocated on first use */
    size_t ncaps_alloc;
    uint32_t *order;          /* slots in order of first appearance */
    size_t norder, order_cap;

    hs_summary_gen *gens;
    size_t ngens_alloc;
    uint32_t max_gen_seen;
    bool any_gen;
    uint16_t info_gens;       /* HEAP_INFO_GHC, 0 = not seen */

    bool any_gc_stats, any_live, any_heap_size, any_alloc, any_sparks;
    bool any_blocks_size, any_gc_start;
    uint64_t copied, max_live, max_heap_size;
    uint64_t par_copied, par_balanced, par_max, par_tot;
    uint32_t par_threads_max;
    bool par_any, par_all_balanced;
    uint64_t last_time;
    bool any_time;

    bool threaded, heap_profiled;
    char *rts_id;
    char *args;               /* PROGRAM_ARGS raw bytes, NUL-separated */
    size_t args_len;

    marker *markers;
    size_t nmarkers, markers_cap;
    size_t *mhash;            /* open addressing, index+1, 0 = empty */
    size_t mhash_cap;

    hs_summary_cap *caps_out;
    hs_summary_stats stats;
};

/* ---------------------------------------------------------------------- */

static void set_err(hs_summary *s, int code, const char *msg)
{
    memset(&s->err, 0, sizeof s->err);
    s->err.code = code;
    s->err.event_index = UINT64_MAX;
    snprintf(s->err.message, sizeof s->err.message, "%s", msg);
}

static int nomem(hs_summary *s)
{
    set_err(s, HS_ERR_NOMEM, "out of memory");
    s->sticky = HS_ERR_NOMEM;
    return HS_ERR_NOMEM;
}

static bool grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return true;
    size_t n = *cap ? *cap : 8;
    while (n < need) {
        if (n > SIZE_MAX / 2 / size)
            return false;
        n *= 2;
    }
    void *q = realloc(*p, n * size);
    if (!q)
        return false;
    *p = q;
    *cap = n;
    return true;
}

static char *dup_bytes(const char *p, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        if (n)
            memcpy(d, p, n);
        d[n] = 0;
    }
    return d;
}

hs_summary *hs_summary_new(void)
{
    hs_summary *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->to = UINT64_MAX;
    s->par_all_balanced = true;
    s->err.event_index = UINT64_MAX;
    return s;
}

void hs_summary_free(hs_summary *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->ncaps_alloc; i++)
        free(s->caps[i]);
    free(s->caps);
    free(s->order);
    free(s->gens);
    for (size_t i = 0; i < s->nmarkers; i++) {
        free(s->markers[i].name);
        free(s->markers[i].times);
    }
    free(s->markers);
    free(s->mhash);
    free(s->from_marker);
    free(s->to_marker);
    free(s->rts_id);
    free(s->args);
    free(s->caps_out);
    free(s);
}

int hs_summary_set_window(hs_summary *s, const hs_summary_window *w)
{
    if (s->events || s->finished) {
        set_err(s, HS_ERR_MISUSE, "the window must be set before the first "
                "event");
        return HS_ERR_MISUSE;
    }
    if (w->from_ns > w->to_ns) {
        set_err(s, HS_ERR_INVALID, "the window ends before it starts");
        return HS_ERR_INVALID;
    }
    free(s->from_marker);
    free(s->to_marker);
    s->from_marker = s->to_marker = NULL;
    if ((w->from_marker &&
         !(s->from_marker = dup_bytes(w->from_marker,
                                      strlen(w->from_marker)))) ||
        (w->to_marker &&
         !(s->to_marker = dup_bytes(w->to_marker, strlen(w->to_marker)))))
        return nomem(s);
    s->windowed = true;
    s->from = w->from_ns;
    s->to = w->to_ns;
    return HS_OK;
}

static bool in_window(const hs_summary *s, uint64_t t)
{
    return t >= s->from && t <= s->to;
}

static capstate *cap_of(hs_summary *s, int32_t cap)
{
    size_t slot = cap < 0 ? GLOBAL_SLOT : (size_t)cap;
    if (slot >= s->ncaps_alloc) {
        size_t n = s->ncaps_alloc;
        if (!grow((void **)&s->caps, &n, slot + 1, sizeof *s->caps))
            return NULL;
        memset(s->caps + s->ncaps_alloc, 0,
               (n - s->ncaps_alloc) * sizeof *s->caps);
        s->ncaps_alloc = n;
    }
    capstate *c = s->caps[slot];
    if (!c) {
        if (!grow((void **)&s->order, &s->order_cap, s->norder + 1,
                  sizeof *s->order))
            return NULL;
        c = calloc(1, sizeof *c);
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
    if (g >= s->ngens_alloc) {
        size_t n = s->ngens_alloc;
        if (!grow((void **)&s->gens, &n, (size_t)g + 1, sizeof *s->gens))
            return NULL;
        memset(s->gens + s->ngens_alloc, 0,
               (n - s->ngens_alloc) * sizeof *s->gens);
        s->ngens_alloc = n;
    }
    if (!s->any_gen || g > s->max_gen_seen)
        s->max_gen_seen = g;
    s->any_gen = true;
    return &s->gens[g];
}

/* Records a counter sample against the window's edges: the base is the
 * latest value before the window, the end the latest inside or before
 * it. Latest by time, so the feeding order does not matter. */
static void edge_note(const hs_summary *s, edge *e, uint64_t t,
                      const uint64_t *v, int n)
{
    if (t < s->from && (!e->has_base || t >= e->base_t)) {
        e->has_base = true;
        e->base_t = t;
        memcpy(e->base, v, (size_t)n * sizeof *v);
    }
    if (t <= s->to && (!e->has_end || t >= e->end_t)) {
        e->has_end = true;
        e->end_t = t;
        memcpy(e->end, v, (size_t)n * sizeof *v);
    }
}

static uint64_t edge_growth(const edge *e, int i)
{
    if (!e->has_end)
        return 0;
    uint64_t b = e->has_base ? e->base[i] : 0;
    return e->end[i] > b ? e->end[i] - b : 0;
}

/* --- markers ------------------------------------------------------------ */

static uint64_t hash_bytes(const char *p, size_t n)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)p[i];
        h *= 1099511628211ull;
    }
    return h;
}

static marker *marker_find(const hs_summary *s, const char *p, size_t n)
{
    if (!s->mhash_cap)
        return NULL;
    size_t i = (size_t)hash_bytes(p, n) & (s->mhash_cap - 1);
    while (s->mhash[i]) {
        marker *m = &s->markers[s->mhash[i] - 1];
        if (m->len == n && (n == 0 || memcmp(m->name, p, n) == 0))
            return m;
        i = (i + 1) & (s->mhash_cap - 1);
    }
    return NULL;
}

static bool marker_rehash(hs_summary *s, size_t cap)
{
    size_t *h = calloc(cap, sizeof *h);
    if (!h)
        return false;
    for (size_t k = 0; k < s->nmarkers; k++) {
        size_t i = (size_t)hash_bytes(s->markers[k].name, s->markers[k].len)
                   & (cap - 1);
        while (h[i])
            i = (i + 1) & (cap - 1);
        h[i] = k + 1;
    }
    free(s->mhash);
    s->mhash = h;
    s->mhash_cap = cap;
    return true;
}

static int marker_add(hs_summary *s, hs_str name, uint64_t t)
{
    marker *m = marker_find(s, name.ptr, name.len);
    if (!m) {
        if ((s->nmarkers + 1) * 2 > s->mhash_cap &&
            !marker_rehash(s, s->mhash_cap ? s->mhash_cap * 2 : 16))
            return nomem(s);
        if (!grow((void **)&s->markers, &s->markers_cap, s->nmarkers + 1,
                  sizeof *s->markers))
            return nomem(s);
        m = &s->markers[s->nmarkers];
        memset(m, 0, sizeof *m);
        if (!(m->name = dup_bytes(name.ptr, name.len)))
            return nomem(s);
        m->len = name.len;
        m->first = t;
        s->nmarkers++;
        if (!marker_rehash(s, s->mhash_cap))
            return nomem(s);
    }
    if (!grow((void **)&m->times, &m->cap, m->ntimes + 1, sizeof *m->times))
        return nomem(s);
    m->times[m->ntimes++] = t;
    if (t < m->first)
        m->first = t;
    return HS_OK;
}

static int marker_cmp(const void *a, const void *b)
{
    const marker *x = a, *y = b;
    return x->first < y->first ? -1 : x->first > y->first;
}

/* --- events ------------------------------------------------------------- */

static void on_gc_stats(hs_summary *s, capstate *c, const hs_event *ev)
{
    const bool in = in_window(s, ev->time);
    s->any_gc_stats = true;

    hs_summary_gen *g = gen_of(s, ev->u.gc_stats.gen);
    if (!g)
        return;
    if (in) {
        const uint64_t copied = ev->u.gc_stats.copied;
        const uint32_t threads = ev->u.gc_stats.par_threads;
        g->collections++;
        g->copied_bytes += copied;
        if (ev->u.gc_stats.slop > g->max_slop_bytes)
            g->max_slop_bytes = ev->u.gc_stats.slop;
        s->copied += copied;
        c->out.led++;
        if (threads > 1) {
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
    }
    if (c->in_gc) {
        /* GHC >= 8.4: stats come before the leader's GC_END. */
        c->led_pending = true;
        c->led_gen = ev->u.gc_stats.gen;
        c->led_in_window = in;
    } else if (c->last_closed && in) {
        /* Older layouts post the stats after GC_END. */
        uint64_t d = c->last_end - c->last_start;
        g->timed++;
        g->elapsed_ns += d;
        if (d > g->max_pause_ns)
            g->max_pause_ns = d;
        c->last_closed = false;
    }
}

static void on_gc_end(hs_summary *s, capstate *c, uint64_t t)
{
    if (!c->in_gc)
        return;
    c->in_gc = false;
    if (t < c->gc_start) {
        c->led_pending = false;
        return; /* a clock that ran backwards: no interval */
    }
    uint64_t d = t - c->gc_start;
    if (in_window(s, c->gc_start)) {
        c->out.gcs++;
        c->out.gc_elapsed_ns += d;
    }
    c->last_closed = !c->led_pending;
    c->last_start = c->gc_start;
    c->last_end = t;
    if (c->led_pending) {
        c->led_pending = false;
        if (c->led_in_window) {
            hs_summary_gen *g = &s->gens[c->led_gen];
            g->timed++;
            g->elapsed_ns += d;
            if (d > g->max_pause_ns)
                g->max_pause_ns = d;
        }
    }
}

static int on_args(hs_summary *s, const hs_event *ev)
{
    char *a = dup_bytes(ev->u.args.raw.ptr, ev->u.args.raw.len);
    if (!a)
        return nomem(s);
    free(s->args);
    s->args = a;
    s->args_len = ev->u.args.raw.len;
    return HS_OK;
}

int hs_summary_add(hs_summary *s, const hs_event *ev)
{
    if (s->sticky)
        return s->sticky;
    if (s->finished) {
        set_err(s, HS_ERR_MISUSE, "event after hs_summary_finish()");
        return HS_ERR_MISUSE;
    }
    s->events++;
    if (ev->tag == HS_EV_BLOCK_MARKER)
        return HS_OK; /* framing; its time is the block's start */
    if (!s->any_time || ev->time > s->last_time)
        s->last_time = ev->time;
    s->any_time = true;
    if (!ev->known)
        return HS_OK;

    capstate *c = NULL;
    switch (ev->tag) {
    case HS_EV_GC_START: case HS_EV_GC_END: case HS_EV_GC_STATS_GHC:
    case HS_EV_HEAP_SIZE: case HS_EV_HEAP_ALLOCATED:
    case HS_EV_SPARK_COUNTERS:
        if (!(c = cap_of(s, ev->cap)))
            return nomem(s);
        break;
    default:
        break;
    }

    switch (ev->tag) {
    case HS_EV_GC_START:
        s->any_gc_start = true;
        c->in_gc = true;
        c->gc_start = ev->time;
        c->led_pending = false;
        c->last_closed = false;
        break;
    case HS_EV_GC_END:
        on_gc_end(s, c, ev->time);
        break;
    case HS_EV_GC_STATS_GHC:
        on_gc_stats(s, c, ev);
        if (s->ngens_alloc <= ev->u.gc_stats.gen)
            return nomem(s);
        break;
    case HS_EV_HEAP_SIZE:
        if (in_window(s, ev->time)) {
            s->any_heap_size = true;
            if (ev->u.heap.bytes > s->max_heap_size)
                s->max_heap_size = ev->u.heap.bytes;
        }
        break;
    case HS_EV_BLOCKS_SIZE:
        s->any_blocks_size = true;
        break;
    case HS_EV_HEAP_LIVE:
        if (in_window(s, ev->time)) {
            s->any_live = true;
            if (ev->u.heap.bytes > s->max_live)
                s->max_live = ev->u.heap.bytes;
        }
        break;
    case HS_EV_HEAP_ALLOCATED: {
        uint64_t v = ev->u.heap.bytes;
        s->any_alloc = true;
        c->has_alloc = true;
        edge_note(s, &c->alloc, ev->time, &v, 1);
        break;
    }
    case HS_EV_SPARK_COUNTERS: {
        const uint64_t v[N_SPARK] = {
            ev->u.spark_counters.created, ev->u.spark_counters.dud,
            ev->u.spark_counters.overflowed, ev->u.spark_counters.converted,
            ev->u.spark_counters.gcd, ev->u.spark_counters.fizzled};
        s->any_sparks = true;
        edge_note(s, &c->sparks, ev->time, v, N_SPARK);
        break;
    }
    case HS_EV_HEAP_INFO_GHC:
        s->info_gens = ev->u.heap_info.gens;
        break;
    case HS_EV_RTS_IDENTIFIER: {
        char *id = dup_bytes(ev->u.rts_identifier.text.ptr,
                             ev->u.rts_identifier.text.len);
        if (!id)
            return nomem(s);
        free(s->rts_id);
        s->rts_id = id;
        /* GHC names its RTS flavours rts_thr, rts_thr_p, rts_thr_debug... */
        s->threaded = strstr(id, "_thr") != NULL;
        break;
    }
    case HS_EV_PROGRAM_ARGS:
        return on_args(s, ev);
    case HS_EV_HEAP_PROF_BEGIN:
        s->heap_profiled = true;
        break;
    case HS_EV_USER_MARKER:
        return marker_add(s, ev->u.msg.text, ev->time);
    default:
        break;
    }
    return HS_OK;
}

/* --- finish ------------------------------------------------------------- */

int hs_summary_finish(hs_summary *s)
{
    if (s->sticky)
        return s->sticky;
    if (s->finished)
        return s->finish_status;
    s->finished = true;
    hs_summary_stats *st = &s->stats;
    memset(st, 0, sizeof *st);

    /* A GC cut off by the end of a truncated log has no pause; drop it. */
    st->windowed = s->windowed;
    st->from_ns = s->windowed ? s->from : 0;
    uint64_t end = s->any_time ? s->last_time : 0;
    st->to_ns = s->to < end ? s->to : end;
    st->total_ns = st->to_ns > st->from_ns ? st->to_ns - st->from_ns : 0;

    /* Generations: HEAP_INFO_GHC is authoritative; otherwise the highest
     * generation collected is taken as the oldest. */
    uint32_t ngens = s->info_gens ? s->info_gens
                     : s->any_gen ? s->max_gen_seen + 1u : 0;
    if (ngens > s->ngens_alloc) {
        size_t n = s->ngens_alloc;
        if (!grow((void **)&s->gens, &n, ngens, sizeof *s->gens))
            return nomem(s);
        memset(s->gens + s->ngens_alloc, 0,
               (n - s->ngens_alloc) * sizeof *s->gens);
        s->ngens_alloc = n;
    }
    if (s->any_gen && s->max_gen_seen + 1u > ngens)
        ngens = s->max_gen_seen + 1u;
    st->n_gens = ngens;
    st->gens = s->gens;

    st->has_gc = s->any_gc_stats;
    st->copied_bytes = s->copied;
    if (ngens) {
        const hs_summary_gen *old = &s->gens[ngens - 1];
        st->major_gcs = old->collections;
        st->has_slop = old->collections > 0;
        st->max_slop_bytes = old->max_slop_bytes;
    }
    st->has_live = s->any_live;
    st->max_live_bytes = s->max_live;

    st->has_heap_size = s->any_heap_size;
    st->max_mem_in_use_bytes = s->max_heap_size;

    if (s->par_any && s->par_copied) {
        st->has_work_balance = true;
        if (s->par_all_balanced) {
            st->work_balance = (double)s->par_balanced / (double)s->par_copied;
        } else if (s->par_max && s->par_threads_max > 1) {
            st->work_balance_estimated = true;
            st->work_balance = ((double)s->par_tot / (double)s->par_max - 1) /
                               (double)(s->par_threads_max - 1);
        } else {
            st->has_work_balance = false;
        }
    }

    /* Per capability, then the totals over them. */
    if (s->norder && !(s->caps_out = calloc(s->norder,
                                            sizeof *s->caps_out)))
        return nomem(s);
    st->has_allocated = s->any_alloc;
    st->has_sparks = s->any_sparks;
    for (size_t i = 0; i < s->norder; i++) {
        const capstate *c = s->caps[s->order[i]];
        hs_summary_cap *o = &s->caps_out[i];
        *o = c->out;
        o->allocated_bytes = edge_growth(&c->alloc, 0);
        st->allocated_bytes += o->allocated_bytes;
        st->sparks_created += edge_growth(&c->sparks, 0);
        st->sparks_dud += edge_growth(&c->sparks, 1);
        st->sparks_overflowed += edge_growth(&c->sparks, 2);
        st->sparks_converted += edge_growth(&c->sparks, 3);
        st->sparks_gcd += edge_growth(&c->sparks, 4);
        st->sparks_fizzled += edge_growth(&c->sparks, 5);
    }
    st->n_caps = (uint32_t)s->norder;
    st->caps = s->caps_out;

    /* Markers in time order for listing; the hash holds indexes. */
    if (s->nmarkers > 1) {
        qsort(s->markers, s->nmarkers, sizeof *s->markers, marker_cmp);
        if (!marker_rehash(s, s->mhash_cap))
            return nomem(s);
    }

    for (uint32_t g = 0; g < ngens; g++) {
        st->gc_ns += s->gens[g].elapsed_ns;
        if (s->gens[g].timed)
            st->has_pauses = true;
    }
    st->mut_ns = st->total_ns > st->gc_ns ? st->total_ns - st->gc_ns : 0;

    st->threaded = s->threaded;
    st->heap_profiled = s->heap_profiled;
    st->rts_identifier = s->rts_id;
    st->events = s->events;

    if (!s->any_gc_stats && !s->any_gc_start && !s->any_alloc &&
        !s->any_heap_size && !s->any_live && !s->any_blocks_size) {
        set_err(s, HS_ERR_NO_DATA, "the log has no GC or heap events (it "
                "was recorded without the GC event class, e.g. +RTS -l "
                "with flags that leave out 'g')");
        s->finish_status = HS_ERR_NO_DATA;
    }
    return s->finish_status;
}

const hs_summary_stats *hs_summary_stats_get(const hs_summary *s)
{
    return &s->stats;
}

const hs_error *hs_summary_error(const hs_summary *s)
{
    return &s->err;
}

size_t hs_summary_marker_count(const hs_summary *s)
{
    return s->nmarkers;
}

hs_str hs_summary_marker(const hs_summary *s, size_t i, uint64_t *count,
                         uint64_t *first_ns)
{
    if (i >= s->nmarkers)
        return (hs_str){NULL, 0};
    const marker *m = &s->markers[i];
    if (count)
        *count = m->ntimes;
    if (first_ns)
        *first_ns = m->first;
    return (hs_str){m->name, m->len};
}

int hs_summary_marker_window(hs_summary *s, hs_str from, hs_str to,
                             uint64_t *from_ns, uint64_t *to_ns)
{
    const marker *a = marker_find(s, from.ptr, from.len);
    const marker *b = marker_find(s, to.ptr, to.len);
    if (!a || !b) {
        const hs_str miss = !a ? from : to;
        memset(&s->err, 0, sizeof s->err);
        s->err.code = HS_ERR_NO_DATA;
        s->err.event_index = UINT64_MAX;
        snprintf(s->err.message, sizeof s->err.message,
                 "the log has no user marker named \"%.*s\"",
                 miss.len > 200 ? 200 : (int)miss.len, miss.ptr);
        return HS_ERR_NO_DATA;
    }
    const uint64_t t0 = a->first;
    bool found = false;
    uint64_t t1 = 0;
    for (size_t i = 0; i < b->ntimes; i++)
        if (b->times[i] > t0 && (!found || b->times[i] < t1)) {
            t1 = b->times[i];
            found = true;
        }
    if (!found) {
        memset(&s->err, 0, sizeof s->err);
        s->err.code = HS_ERR_NO_DATA;
        s->err.event_index = UINT64_MAX;
        snprintf(s->err.message, sizeof s->err.message,
                 "user marker \"%.*s\" does not occur after \"%.*s\" "
                 "(first at %.6f s)",
                 to.len > 100 ? 100 : (int)to.len, to.ptr,
                 from.len > 100 ? 100 : (int)from.len, from.ptr,
                 (double)t0 / 1e9);
        return HS_ERR_NO_DATA;
    }
    *from_ns = t0;
    *to_ns = t1;
    return HS_OK;
}

/* --- rendering ---------------------------------------------------------- */

/* Writes the run's command line as the runtime heads its stats file: each
 * program argument in single quotes, then "+RTS " and each RTS argument
 * in single quotes, a quote inside written '\''. */
static int put_command_line(const hs_summary *s, hs_sink *out)
{
    if (!s->args || !s->args_len)
        return HS_OK;
    for (int pass = 0; pass < 2; pass++) {
        bool rts = false, stop = false;
        if (pass == 1) {
            int st = hs_sink_write(out, "+RTS ", 5);
            if (st)
                return st;
        }
        for (size_t i = 0; i < s->args_len;) {
            const char *a = s->args + i;
            size_t n = strnlen(a, s->args_len - i);
            i += n + 1;
            bool is_rts_word = false;
            if (!stop) {
                if (n == 4 && memcmp(a, "+RTS", 4) == 0) {
                    rts = true;
                    is_rts_word = true;
                } else if (n == 4 && memcmp(a, "-RTS", 4) == 0) {
                    rts = false;
                    is_rts_word = true;
                } else if (n == 5 && memcmp(a, "--RTS", 5) == 0) {
                    stop = true;
                    rts = false;
                    is_rts_word = true;
                }
            }
            if (is_rts_word || rts != (pass == 1))
                continue;
            int st = hs_sink_write(out, "'", 1);
            for (size_t k = 0; !st && k < n; k++)
                st = a[k] == '\'' ? hs_sink_write(out, "'\\''", 4)
                                  : hs_sink_write(out, a + k, 1);
            if (!st)
                st = hs_sink_write(out, "' ", 2);
            if (st)
                return st;
        }
    }
    return hs_sink_write(out, "\n", 1);
}

/* 1234567 -> "1,234,567", as the runtime's showStgWord64 with commas. */
static void commas(uint64_t v, char *buf, size_t size)
{
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%" PRIu64, v);
    size_t o = 0;
    for (int i = 0; i < n && o + 2 < size; i++) {
        if (i && (n - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = 0;
}

static double secs(uint64_t ns)
{
    return (double)ns / 1e9;
}

static uint64_t avg_pause(const hs_summary_gen *g)
{
    /* The runtime divides the elapsed total by all collections; when some
     * collection had no pause (a truncated log) divide by the timed ones. */
    uint32_t n = g->timed == g->collections ? g->collections : g->timed;
    return n ? g->elapsed_ns / n : 0;
}

typedef struct textlist {
    const char *items[24];
    int n;
} textlist;

static void add(textlist *l, const char *t)
{
    if (l->n < (int)(sizeof l->items / sizeof l->items[0]))
        l->items[l->n++] = t;
}

/* Figures of +RTS -s this log cannot give. */
static void unavailable(const hs_summary *s, textlist *l)
{
    const hs_summary_stats *st = &s->stats;
    if (!st->has_allocated)
        add(l, "bytes allocated in the heap (no HEAP_ALLOCATED events)");
    if (!st->has_gc) {
        add(l, "bytes copied during GC (no GC_STATS_GHC events)");
        add(l, "maximum slop (no GC_STATS_GHC events)");
        add(l, "collections per generation (no GC_STATS_GHC events)");
        add(l, "parallel GC work balance (no GC_STATS_GHC events)");
    } else if (!st->has_slop) {
        add(l, "maximum slop (no major collection)");
    }
    if (!st->has_live)
        add(l, "maximum residency (no HEAP_LIVE events: no major "
               "collection, or no GC events)");
    if (!st->has_heap_size)
        add(l, "MiB total memory in use (no HEAP_SIZE events)");
    add(l, "MB lost due to fragmentation: the runtime subtracts the "
           "high-water mark of allocated blocks, reached inside a "
           "collection, and the heap events are posted at its end");
    if (!st->has_pauses)
        add(l, "GC and MUT elapsed time, pauses, productivity and alloc "
               "rate (no GC_START/GC_END around GC_STATS_GHC)");
    add(l, "CPU (user) times: the eventlog holds elapsed time only");
    add(l, "INIT and EXIT times: no events mark them");
    if (s->heap_profiled)
        add(l, "PROF and RP times: no events mark the heap census");
    if (s->threaded)
        add(l, "TASKS: the task events do not give the runtime's counts");
}

/* How figures differ from +RTS -s by construction. */
static void notes(const hs_summary *s, textlist *l)
{
    const hs_summary_stats *st = &s->stats;
    if (st->has_pauses) {
        add(l, "Pauses run from GC_START to GC_END on the capability that "
               "led each collection, the times +RTS -s measures, so the "
               "generation table's elapsed columns equal the runtime's.");
        add(l, "MUT elapsed is the elapsed total minus the pauses, so it "
               "includes INIT and EXIT time.");
        add(l, "Alloc rate divides by MUT elapsed time; +RTS -s divides by "
               "MUT CPU time.");
    }
    if (s->heap_profiled && st->has_pauses)
        add(l, "The heap census runs inside collections and no event marks "
               "it: GC elapsed here includes the PROF (and with -hr RP) "
               "time that +RTS -s lists apart, so GC is larger and "
               "Productivity smaller than +RTS -s reports.");
    if (st->has_heap_size)
        add(l, "MiB in use is the largest HEAP_SIZE, posted at the end of "
               "each collection; +RTS -s uses the megablock peak, which a "
               "peak between collections could exceed.");
    if (st->work_balance_estimated)
        add(l, "Work balance is estimated as (total/max copied - 1) / "
               "(threads - 1): this log predates the balanced-copy field.");
    if (st->windowed)
        add(l, "In a window, a collection counts when its GC_STATS_GHC "
               "event falls inside it, and allocation and sparks are the "
               "growth of counters the runtime posts at collections, "
               "between the last values before each edge.");
}

/* Marker names may hold any byte: print printable ASCII and UTF-8 as is,
 * other bytes as \xHH. */
static int put_name(hs_sink *out, const char *p)
{
    int st = HS_OK;
    for (const unsigned char *q = (const unsigned char *)p; !st && *q; q++) {
        if (*q < 0x20 || *q == 0x7f || *q == '\\')
            st = hs_sink_printf(out, "\\x%02x", *q);
        else
            st = hs_sink_write(out, q, 1);
    }
    return st;
}

#define TRY(x) do { int st_ = (x); if (st_) return st_; } while (0)

/* Writes "    - " and the sentence wrapped at 78 columns, continuation
 * lines indented under its first word. */
static int put_item(hs_sink *out, const char *t)
{
    const size_t width = 78 - 6;
    TRY(hs_sink_write(out, "    - ", 6));
    size_t col = 0;
    while (*t) {
        size_t w = strcspn(t, " ");
        if (col && col + 1 + w > width) {
            TRY(hs_sink_write(out, "\n      ", 7));
            col = 0;
        } else if (col) {
            TRY(hs_sink_write(out, " ", 1));
            col++;
        }
        TRY(hs_sink_write(out, t, w));
        col += w;
        t += w;
        while (*t == ' ')
            t++;
    }
    return hs_sink_write(out, "\n", 1);
}

int hs_summary_render_text(const hs_summary *s, hs_sink *out)
{
    if (!s->finished) {
        return HS_ERR_MISUSE;
    }
    const hs_summary_stats *st = &s->stats;
    char num[40];

    TRY(put_command_line(s, out));
    if (st->windowed) {
        TRY(hs_sink_printf(out, "  Window: %.6fs to %.6fs", secs(st->from_ns),
                           secs(st->to_ns)));
        if (s->from_marker && s->to_marker) {
            TRY(hs_sink_printf(out, " (user marker \""));
            TRY(put_name(out, s->from_marker));
            TRY(hs_sink_printf(out, "\" to \""));
            TRY(put_name(out, s->to_marker));
            TRY(hs_sink_printf(out, "\")"));
        }
        TRY(hs_sink_printf(out, "\n"));
    }
    if (st->has_allocated) {
        commas(st->allocated_bytes, num, sizeof num);
        TRY(hs_sink_printf(out, "%16s bytes allocated in the heap\n", num));
    }
    if (st->has_gc) {
        commas(st->copied_bytes, num, sizeof num);
        TRY(hs_sink_printf(out, "%16s bytes copied during GC\n", num));
    }
    if (st->has_live && st->major_gcs > 0) {
        commas(st->max_live_bytes, num, sizeof num);
        TRY(hs_sink_printf(out, "%16s bytes maximum residency (%" PRIu32
                           " sample(s))\n", num, st->major_gcs));
    }
    if (st->has_slop) {
        commas(st->max_slop_bytes, num, sizeof num);
        TRY(hs_sink_printf(out, "%16s bytes maximum slop\n", num));
    }
    if (st->has_heap_size) {
        TRY(hs_sink_printf(out, "%16" PRIu64 " MiB total memory in use",
                           st->max_mem_in_use_bytes / (1024 * 1024)));
        TRY(hs_sink_printf(out, " (n/a MB lost due to fragmentation)\n"));
    }
    TRY(hs_sink_printf(out, "\n"));

    if (st->has_gc) {
        TRY(hs_sink_printf(out, "                                     Tot "
                           "time (elapsed)  Avg pause  Max pause\n"));
        for (uint32_t g = 0; g < st->n_gens; g++) {
            const hs_summary_gen *gs = &st->gens[g];
            TRY(hs_sink_printf(out, "  Gen %2" PRIu32 "     %5" PRIu32
                               " colls, %5" PRIu32 " par      n/a", g,
                               gs->collections, gs->par_collections));
            if (st->has_pauses)
                TRY(hs_sink_printf(out, "  %6.3fs     %3.4fs    %3.4fs\n",
                                   secs(gs->elapsed_ns),
                                   secs(avg_pause(gs)),
                                   secs(gs->max_pause_ns)));
            else
                TRY(hs_sink_printf(out, "      n/a        n/a        n/a\n"));
        }
        TRY(hs_sink_printf(out, "\n"));
    }
    if (st->has_work_balance && st->work_balance > 0)
        TRY(hs_sink_printf(out, "  Parallel GC work balance: %.2f%% "
                           "(serial 0%%, perfect 100%%)\n\n",
                           st->work_balance * 100));
    if (st->has_sparks)
        TRY(hs_sink_printf(out, "  SPARKS: %" PRIu64 " (%" PRIu64
                           " converted, %" PRIu64 " overflowed, %" PRIu64
                           " dud, %" PRIu64 " GC'd, %" PRIu64
                           " fizzled)\n\n",
                           st->sparks_created + st->sparks_dud +
                               st->sparks_overflowed,
                           st->sparks_converted, st->sparks_overflowed,
                           st->sparks_dud, st->sparks_gcd,
                           st->sparks_fizzled));
    if (st->has_pauses) {
        TRY(hs_sink_printf(out, "  MUT     time       n/a  (%7.3fs elapsed)\n",
                           secs(st->mut_ns)));
        TRY(hs_sink_printf(out, "  GC      time       n/a  (%7.3fs elapsed)\n",
                           secs(st->gc_ns)));
    }
    TRY(hs_sink_printf(out, "  Total   time       n/a  (%7.3fs elapsed)\n\n",
                       secs(st->total_ns)));
    if (st->has_pauses && st->has_allocated) {
        if (st->mut_ns) {
            commas((uint64_t)((double)st->allocated_bytes / secs(st->mut_ns)),
                   num, sizeof num);
            TRY(hs_sink_printf(out, "  Alloc rate    %s bytes per MUT second"
                               "\n\n", num));
        }
    }
    if (st->has_pauses && st->total_ns)
        TRY(hs_sink_printf(out, "  Productivity    n/a of total user, %.1f%% "
                           "of total elapsed\n\n",
                           (double)st->mut_ns * 100 / (double)st->total_ns));

    textlist u = {0}, n = {0};
    unavailable(s, &u);
    notes(s, &n);
    if (!st->has_gc && !st->has_allocated && !st->has_heap_size &&
        !st->has_live)
        TRY(hs_sink_printf(out, "  This log has no GC or heap events (it "
                           "was recorded without the GC event\n  class), so "
                           "no GC statistics can be computed.\n\n"));
    TRY(hs_sink_printf(out, "  Not computable from this log:\n"));
    for (int i = 0; i < u.n; i++)
        TRY(put_item(out, u.items[i]));
    if (n.n) {
        TRY(hs_sink_printf(out, "\n  Notes:\n"));
        for (int i = 0; i < n.n; i++)
            TRY(put_item(out, n.items[i]));
    }
    return HS_OK;
}

/* --- JSON --------------------------------------------------------------- */

/* Length of a valid UTF-8 sequence of two or more bytes at p, or 0. */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
    size_t len;
    uint32_t cp;
    if (p[0] >= 0xc2 && p[0] <= 0xdf) { len = 2; cp = p[0] & 0x1fu; }
    else if (p[0] >= 0xe0 && p[0] <= 0xef) { len = 3; cp = p[0] & 0x0fu; }
    else if (p[0] >= 0xf0 && p[0] <= 0xf4) { len = 4; cp = p[0] & 0x07u; }
    else return 0;
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3fu);
    }
    if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
        (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
        return 0;
    return len;
}

static int json_str(hs_sink *out, const char *p, size_t n)
{
    const unsigned char *u = (const unsigned char *)p;
    TRY(hs_sink_write(out, "\"", 1));
    for (size_t i = 0; i < n;) {
        unsigned char c = u[i];
        size_t k;
        if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            TRY(hs_sink_write(out, e, 2));
            i++;
        } else if (c < 0x20 || c == 0x7f) {
            TRY(hs_sink_printf(out, "\\u%04x", c));
            i++;
        } else if (c < 0x80) {
            TRY(hs_sink_write(out, &u[i], 1));
            i++;
        } else if ((k = utf8_seq(u + i, n - i))) {
            TRY(hs_sink_write(out, u + i, k));
            i += k;
        } else {
            TRY(hs_sink_write(out, "\\ufffd", 6));
            i++;
        }
    }
    return hs_sink_write(out, "\"", 1);
}

static int json_cstr_or_null(hs_sink *out, const char *p)
{
    return p ? json_str(out, p, strlen(p)) : hs_sink_write(out, "null", 4);
}

static int json_u64(hs_sink *out, const char *key, bool has, uint64_t v)
{
    if (!has)
        return hs_sink_printf(out, ",\n  \"%s\": null", key);
    return hs_sink_printf(out, ",\n  \"%s\": %" PRIu64, key, v);
}

int hs_summary_render_json(const hs_summary *s, hs_sink *out)
{
    if (!s->finished)
        return HS_ERR_MISUSE;
    const hs_summary_stats *st = &s->stats;
    TRY(hs_sink_printf(out, "{\n  \"window\": "));
    if (st->windowed) {
        TRY(hs_sink_printf(out, "{\"from_ns\": %" PRIu64 ", \"to_ns\": %"
                           PRIu64 ", \"from_marker\": ", st->from_ns,
                           st->to_ns));
        TRY(json_cstr_or_null(out, s->from_marker));
        TRY(hs_sink_printf(out, ", \"to_marker\": "));
        TRY(json_cstr_or_null(out, s->to_marker));
        TRY(hs_sink_printf(out, "}"));
    } else {
        TRY(hs_sink_printf(out, "null"));
    }
    TRY(hs_sink_printf(out, ",\n  \"rts\": "));
    TRY(json_cstr_or_null(out, s->rts_id));
    TRY(hs_sink_printf(out, ",\n  \"threaded\": %s,\n  \"heap_profiled\": %s",
                       st->threaded ? "true" : "false",
                       st->heap_profiled ? "true" : "false"));
    TRY(json_u64(out, "allocated_bytes", st->has_allocated,
                 st->allocated_bytes));
    TRY(json_u64(out, "copied_bytes", st->has_gc, st->copied_bytes));
    TRY(json_u64(out, "max_live_bytes", st->has_live, st->max_live_bytes));
    TRY(json_u64(out, "live_samples", st->has_gc, st->major_gcs));
    TRY(json_u64(out, "max_slop_bytes", st->has_slop, st->max_slop_bytes));
    TRY(json_u64(out, "max_mem_in_use_bytes", st->has_heap_size,
                 st->max_mem_in_use_bytes));
    TRY(json_u64(out, "mem_in_use_mib", st->has_heap_size,
                 st->max_mem_in_use_bytes / (1024 * 1024)));

    TRY(hs_sink_printf(out, ",\n  \"generations\": "));
    if (!st->has_gc) {
        TRY(hs_sink_printf(out, "null"));
    } else {
        TRY(hs_sink_printf(out, "["));
        for (uint32_t g = 0; g < st->n_gens; g++) {
            const hs_summary_gen *gs = &st->gens[g];
            TRY(hs_sink_printf(out, "%s\n    {\"gen\": %" PRIu32
                               ", \"collections\": %" PRIu32
                               ", \"par_collections\": %" PRIu32
                               ", \"timed\": %" PRIu32
                               ", \"copied_bytes\": %" PRIu64,
                               g ? "," : "", g, gs->collections,
                               gs->par_collections, gs->timed,
                               gs->copied_bytes));
            if (st->has_pauses)
                TRY(hs_sink_printf(out, ", \"elapsed_ns\": %" PRIu64
                                   ", \"avg_pause_ns\": %" PRIu64
                                   ", \"max_pause_ns\": %" PRIu64 "}",
                                   gs->elapsed_ns, avg_pause(gs),
                                   gs->max_pause_ns));
            else
                TRY(hs_sink_printf(out, ", \"elapsed_ns\": null, "
                                   "\"avg_pause_ns\": null, "
                                   "\"max_pause_ns\": null}"));
        }
        TRY(hs_sink_printf(out, "\n  ]"));
    }
    if (st->has_work_balance)
        TRY(hs_sink_printf(out, ",\n  \"work_balance_percent\": %.4f",
                           st->work_balance * 100));
    else
        TRY(hs_sink_printf(out, ",\n  \"work_balance_percent\": null"));
    if (st->has_sparks)
        TRY(hs_sink_printf(out, ",\n  \"sparks\": {\"count\": %" PRIu64
                           ", \"created\": %" PRIu64 ", \"converted\": %"
                           PRIu64 ", \"overflowed\": %" PRIu64 ", \"dud\": %"
                           PRIu64 ", \"gcd\": %" PRIu64 ", \"fizzled\": %"
                           PRIu64 "}",
                           st->sparks_created + st->sparks_dud +
                               st->sparks_overflowed,
                           st->sparks_created, st->sparks_converted,
                           st->sparks_overflowed, st->sparks_dud,
                           st->sparks_gcd, st->sparks_fizzled));
    else
        TRY(hs_sink_printf(out, ",\n  \"sparks\": null"));
    TRY(json_u64(out, "total_elapsed_ns", true, st->total_ns));
    TRY(json_u64(out, "gc_elapsed_ns", st->has_pauses, st->gc_ns));
    TRY(json_u64(out, "mut_elapsed_ns", st->has_pauses, st->mut_ns));
    if (st->has_pauses && st->total_ns)
        TRY(hs_sink_printf(out, ",\n  \"productivity_elapsed_percent\": %.4f",
                           (double)st->mut_ns * 100 / (double)st->total_ns));
    else
        TRY(hs_sink_printf(out, ",\n  \"productivity_elapsed_percent\": "
                           "null"));
    const bool rate = st->has_pauses && st->has_allocated && st->mut_ns;
    TRY(json_u64(out, "alloc_rate_bytes_per_mut_second", rate,
                 rate ? (uint64_t)((double)st->allocated_bytes /
                                   secs(st->mut_ns)) : 0));

    TRY(hs_sink_printf(out, ",\n  \"capabilities\": ["));
    for (uint32_t i = 0; i < st->n_caps; i++) {
        const hs_summary_cap *c = &st->caps[i];
        TRY(hs_sink_printf(out, "%s\n    {\"cap\": ", i ? "," : ""));
        if (c->cap == UINT32_MAX)
            TRY(hs_sink_printf(out, "null"));
        else
            TRY(hs_sink_printf(out, "%" PRIu32, c->cap));
        TRY(hs_sink_printf(out, ", \"gc_intervals\": %" PRIu32 ", \"led\": %"
                           PRIu32 ", \"gc_elapsed_ns\": %" PRIu64
                           ", \"allocated_bytes\": %" PRIu64 "}",
                           c->gcs, c->led, c->gc_elapsed_ns,
                           c->allocated_bytes));
    }
    TRY(hs_sink_printf(out, "%s],\n  \"unavailable\": [",
                       st->n_caps ? "\n  " : ""));
    textlist u = {0}, n = {0};
    unavailable(s, &u);
    notes(s, &n);
    for (int i = 0; i < u.n; i++) {
        TRY(hs_sink_printf(out, "%s\n    ", i ? "," : ""));
        TRY(json_str(out, u.items[i], strlen(u.items[i])));
    }
    TRY(hs_sink_printf(out, "\n  ],\n  \"notes\": ["));
    for (int i = 0; i < n.n; i++) {
        TRY(hs_sink_printf(out, "%s\n    ", i ? "," : ""));
        TRY(json_str(out, n.items[i], strlen(n.items[i])));
    }
    TRY(hs_sink_printf(out, "%s]\n}\n", n.n ? "\n  " : ""));
    return HS_OK;
}
