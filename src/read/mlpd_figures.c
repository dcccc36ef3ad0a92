/*
 * The GC figures of a Mono .mlpd and the vtable descriptions in force
 * (mlpd_figures.h), counted from its events in file order.
 */
#include "read/mlpd_figures.h"

#include <string.h>

bool hs__ptr_map_put(ptr_map *m, uint64_t key, uint32_t *index, bool *added)
{
    uint32_t i = hs__ptr_map_cached(m, key);
    if (i != UINT32_MAX) {
        *index = i;
        *added = false;
        return true;
    }
    size_t r = hs__ptr_map_slot(key);
    if (!hs_intern_put_words(&m->tab, key, NULL, 0, index, added))
        return false;
    m->recent[r].key = key;
    m->recent[r].index1 = *index + 1;
    return true;
}

void hs__ptr_map_clear(ptr_map *m, const hs_allocator *a)
{
    hs_intern_free(&m->tab);
    hs_intern_init(&m->tab, a);
    memset(m->recent, 0, sizeof m->recent);
}

uint32_t hs__ptr_map_find(const ptr_map *m, uint64_t key)
{
    return hs_intern_find(&m->tab, &key, sizeof key);
}

struct chain *hs__mlpd_chain_of(const hs_allocator *a, ptr_map *map,
                                struct chain **chains, size_t *cap,
                                uint64_t p)
{
    uint32_t i;
    bool added;
    if (!hs__ptr_map_put(map, p, &i, &added) ||
        (added && !hs_grow_zeroed(a, (void **)chains, cap, (size_t)i + 1,
                                  sizeof **chains)))
        return NULL;
    if (added)
        (*chains)[i] = (struct chain){UINT32_MAX, UINT32_MAX, 0};
    return &(*chains)[i];
}

void hs__mlpd_chain_push(struct chain *c, uint32_t *tail_next, uint32_t k)
{
    if (c->head == UINT32_MAX)
        c->head = k;
    else
        *tail_next = k;
    c->tail = k;
}

/* --- vtables ------------------------------------------------------------ */

/* A new, undescribed vtable entry at the end of pointer p's chain c. */
static int vt_append(hs__mlpd_figures *f, struct chain *c, uint64_t p,
                     uint32_t *vid)
{
    hs__mlpd_vtables *t = &f->vt;
    if (t->nvt >= UINT32_MAX - 1 ||
        !hs_grow(f->a, (void **)&t->vt, &t->cap_vt, t->nvt + 1, sizeof *t->vt))
        return HS_ERR_NOMEM;
    uint32_t v = (uint32_t)t->nvt++;
    t->vt[v] = (struct vtable_info){p, 0, 0, UINT32_MAX, false, false};
    hs__mlpd_chain_push(c, c->tail == UINT32_MAX ? NULL : &t->vt[c->tail].next,
                        v);
    *vid = v;
    return HS_OK;
}

/* The common case of use_vtable in one step, inline: chain c's last
 * description is its latest and was made before the use (a program that
 * makes and unloads AppDomains all its life would otherwise walk long
 * chains); vtable_quick, with the pointer in the map's cache. UINT32_MAX
 * when it is not that case. */
static HS_ALWAYS_INLINE uint32_t chain_quick(const hs__mlpd_vtables *t,
                                            const struct chain *c,
                                            uint64_t time)
{
    uint32_t best = c->tail;
    if (best != UINT32_MAX && t->vt[best].described &&
        t->vt[best].time == c->latest && c->latest <= time)
        return best;
    return UINT32_MAX;
}

static HS_ALWAYS_INLINE uint32_t vtable_quick(const hs__mlpd_vtables *t,
                                             uint64_t vtable, uint64_t time)
{
    uint32_t ci = hs__ptr_map_cached(&t->map, vtable);
    return ci == UINT32_MAX ? UINT32_MAX : chain_quick(t, &t->chain[ci], time);
}

/* A vtable met in an ALLOC or HEAP_OBJECT at `time`: the id of the
 * description in force then, or of the entry waiting for one (marked as
 * used before its description). */
static HS_NOINLINE int use_vtable_slow(hs__mlpd_figures *f, uint64_t vtable,
                                       uint64_t time, uint32_t *vid)
{
    hs__mlpd_vtables *t = &f->vt;
    uint32_t ci = hs__ptr_map_cached(&t->map, vtable);
    struct chain *c = ci != UINT32_MAX
                          ? &t->chain[ci]
                          : hs__mlpd_chain_of(f->a, &t->map, &t->chain,
                                              &t->cap_chain, vtable);
    if (!c)
        return HS_ERR_NOMEM;
    uint32_t best = chain_quick(t, c, time);
    if (best != UINT32_MAX) {
        *vid = best;
        return HS_OK;
    }
    for (uint32_t v = c->head; v != UINT32_MAX; v = t->vt[v].next)
        if (t->vt[v].described && t->vt[v].time <= time &&
            (best == UINT32_MAX || t->vt[v].time >= t->vt[best].time))
            best = v;
    if (best == UINT32_MAX && c->tail != UINT32_MAX &&
        !t->vt[c->tail].described)
        best = c->tail;
    if (best == UINT32_MAX) {
        int st = vt_append(f, c, vtable, &best);
        if (st)
            return st;
        t->vt[best].used_early = true;
    }
    *vid = best;
    return HS_OK;
}

static HS_ALWAYS_INLINE int use_vtable(hs__mlpd_figures *f, uint64_t vtable,
                                      uint64_t time, uint32_t *vid)
{
    uint32_t v = vtable_quick(&f->vt, vtable, time);
    if (v == UINT32_MAX)
        return use_vtable_slow(f, vtable, time, vid);
    *vid = v;
    return HS_OK;
}

/* A VTABLE load: fills the entry waiting at the chain's end, or adds one. */
static int describe_vtable(hs__mlpd_figures *f, const hs_mlpd_event *ev)
{
    hs__mlpd_vtables *t = &f->vt;
    struct chain *c = hs__mlpd_chain_of(f->a, &t->map, &t->chain,
                                        &t->cap_chain, ev->u.meta.pointer);
    if (!c)
        return HS_ERR_NOMEM;
    uint32_t v = c->tail;
    if (v == UINT32_MAX || t->vt[v].described) {
        int st = vt_append(f, c, ev->u.meta.pointer, &v);
        if (st)
            return st;
    }
    t->vt[v].klass = ev->u.meta.klass;
    t->vt[v].time = ev->time;
    t->vt[v].described = true;
    if (ev->time > c->latest)
        c->latest = ev->time;
    return HS_OK;
}

/* --- the figures -------------------------------------------------------- */

void hs__mlpd_figures_init(hs__mlpd_figures *f, const hs_allocator *a)
{
    memset(f, 0, sizeof *f);
    f->a = a;
    f->to = UINT64_MAX;
    hs_intern_init(&f->vt.map.tab, a);
    hs_arena_init(&f->arena, a);
}

void hs__mlpd_figures_free(hs__mlpd_figures *f)
{
    hs_intern_free(&f->vt.map.tab);
    hs_free(f->a, f->vt.chain);
    hs_free(f->a, f->vt.vt);
    hs_free(f->a, f->vid_count);
    hs_free(f->a, f->vid_bytes);
    hs_arena_free(&f->arena);
}

void hs__mlpd_figures_window(hs__mlpd_figures *f, uint64_t from, uint64_t to)
{
    f->from = from;
    f->to = to;
    f->windowed = true;
}

uint64_t hs__mlpd_figures_rel(const hs__mlpd_figures *f, uint64_t t)
{
    return t > f->t0 ? t - f->t0 : 0;
}

static bool inside(const hs__mlpd_figures *f, uint64_t t)
{
    uint64_t r = hs__mlpd_figures_rel(f, t);
    return r >= f->from && r <= f->to;
}

/* The collecting thread's slot, or NULL when there are too many. */
static struct stop *stop_of(hs__mlpd_figures *f, uint64_t thread)
{
    size_t i = 0;
    while (i < f->nstops && f->stops[i].thread != thread)
        i++;
    if (i == f->nstops) {
        if (f->nstops == sizeof f->stops / sizeof f->stops[0])
            return NULL;
        f->stops[f->nstops++] = (struct stop){thread, 0};
    }
    return &f->stops[i];
}

static void add_time(uint64_t *total, uint64_t *max, uint64_t d)
{
    *total = hs_add_sat(*total, d);
    if (d > *max)
        *max = d;
}

/*
 * Collections are timed from START to the next END of their generation,
 * whichever thread posts each: sgen runs one collection of a generation
 * at a time, and a concurrent major collection (Mono's default collector,
 * marksweep-conc) starts on the thread that triggered it and ends on the
 * one that finishes it, the world restarted in between; such a one is
 * counted as concurrent, its time the program's too. World stops are
 * timed from PRE_STOP to POST_START on the thread that stopped the world.
 */
static void on_gc(hs__mlpd_figures *f, const hs_mlpd_event *ev)
{
    hs_mlpd_gc_stats *s = &f->s;
    unsigned gen = ev->u.gc.generation ? 1 : 0;
    bool in = inside(f, ev->time);
    struct stop *st;
    switch (ev->u.gc.type) {
    case HS_MLPD_GC_START:
        if (in)
            s->collections[gen]++;
        f->gc_start[gen] = in ? ev->time : 0;
        f->gc_restarts_at[gen] = f->restarts;
        break;
    case HS_MLPD_GC_END:
        if (f->gc_start[gen] && ev->time >= f->gc_start[gen]) {
            add_time(&s->gc_total_ns[gen], &s->gc_max_ns[gen],
                     ev->time - f->gc_start[gen]);
            if (f->restarts != f->gc_restarts_at[gen])
                s->concurrent[gen]++;
        }
        f->gc_start[gen] = 0;
        break;
    case HS_MLPD_GC_PRE_STOP_WORLD:
        if ((st = stop_of(f, ev->thread)))
            st->time = in ? ev->time : 0;
        break;
    case HS_MLPD_GC_POST_START_WORLD:
        f->restarts++;
        if ((st = stop_of(f, ev->thread)) && st->time) {
            s->pauses++;
            add_time(&s->pause_total_ns, &s->pause_max_ns,
                     ev->time - st->time);
            st->time = 0;
        }
        break;
    default:
        break;
    }
}

static void close_shot(hs__mlpd_figures *f)
{
    if (f->shot_open && f->shot_counted && f->shot_total > f->s.max_live_bytes)
        f->s.max_live_bytes = f->shot_total;
    f->shot_open = false;
}

static void open_shot(hs__mlpd_figures *f, uint64_t time)
{
    close_shot(f);
    f->shot_open = true;
    f->shot_time = hs__mlpd_figures_rel(f, time);
    f->shot_counted = inside(f, time);
    f->shot_total = 0;
    if (f->shot_counted)
        f->s.heap_shots++;
}

/* An allocation of size bytes with vtable pointer vt at time t: its
 * vtable id into *vid, counted when inside the window (always: every
 * time is, without one). */
static HS_ALWAYS_INLINE int alloc_of(hs__mlpd_figures *f, uint64_t vt,
                                     uint64_t t, uint64_t size, uint32_t *vid,
                                     bool always)
{
    if (use_vtable(f, vt, t, vid))
        return HS_ERR_NOMEM;
    if (!always && !inside(f, t))
        return HS_OK;
    f->s.alloc_bytes = hs_add_sat(f->s.alloc_bytes, size);
    f->s.alloc_count++;
    size_t n = (size_t)*vid + 1;
    if ((n > f->cap_vid_count || n > f->cap_vid_bytes) &&
        (!hs_grow_zeroed(f->a, (void **)&f->vid_count, &f->cap_vid_count, n,
                         sizeof *f->vid_count) ||
         !hs_grow_zeroed(f->a, (void **)&f->vid_bytes, &f->cap_vid_bytes, n,
                         sizeof *f->vid_bytes)))
        return HS_ERR_NOMEM;
    f->vid_count[*vid]++;
    f->vid_bytes[*vid] = hs_add_sat(f->vid_bytes[*vid], size);
    return HS_OK;
}

static HS_ALWAYS_INLINE int allocs_with(hs__mlpd_figures *f,
                                        hs__mlpd_allocs *run, bool always)
{
    for (size_t i = 0; i < run->n; i++) {
        const hs__mlpd_alloc *a = &run->a[i];
        if (a->time > f->last) /* as hs__mlpd_figures_add() */
            f->last = a->time;
        if (alloc_of(f, a->vtable, a->time, a->size, &run->vid[i], always))
            return HS_ERR_NOMEM;
    }
    if (run->n)
        f->vid = run->vid[run->n - 1];
    return HS_OK;
}

int hs__mlpd_figures_allocs(hs__mlpd_figures *f, hs__mlpd_allocs *run)
{
    /* without a window, the check of each time is left out */
    return f->windowed ? allocs_with(f, run, false) : allocs_with(f, run, true);
}

static int on_heap_object(hs__mlpd_figures *f, const hs_mlpd_event *ev)
{
    /* Records of size 0 continue the previous object's references. */
    if (ev->u.heap_object.size == 0)
        return HS_OK;
    /* An object outside HEAP_START/HEAP_END (its start lost) still counts,
     * in a shot of its own, as mprof-report does. */
    if (!f->shot_open)
        open_shot(f, ev->time);
    f->shot_total = hs_add_sat(f->shot_total, ev->u.heap_object.size);
    return use_vtable(f, ev->u.heap_object.vtable, ev->time, &f->vid);
}

static int on_metadata(hs__mlpd_figures *f, const hs_mlpd_event *ev)
{
    const char *name = ev->u.meta.name;
    switch (ev->u.meta.kind) {
    case HS_MLPD_META_VTABLE:
        if (ev->u.meta.action == HS_MLPD_META_LOAD)
            return describe_vtable(f, ev);
        return HS_OK;
    case HS_MLPD_META_DOMAIN:
        /* The root domain's friendly name is the program's file name. */
        if (name && !f->program &&
            !(f->program = hs_arena_strndup(&f->arena, name, strlen(name))))
            return HS_ERR_NOMEM;
        return HS_OK;
    default:
        return HS_OK;
    }
}

/* The heap's largest size: of the resizes in the window, and of the size
 * in force when it opens (a window between two resizes still saw the heap
 * at the size the first one set). */
static void on_resize(hs__mlpd_figures *f, uint64_t time, uint64_t size)
{
    if (hs__mlpd_figures_rel(f, time) < f->from)
        f->size_before = size;
    else if (inside(f, time) && size > f->s.max_heap_bytes)
        f->s.max_heap_bytes = size;
}

int hs__mlpd_figures_add(hs__mlpd_figures *f, const hs_mlpd_event *ev)
{
    if (ev->kind == HS_MLPD_BUFFER) {
        if (!f->have_t0) {
            f->t0 = ev->time;
            f->have_t0 = true;
        }
        return HS_OK;
    }
    if (ev->time > f->last && ev->kind != HS_MLPD_METHOD_JIT)
        f->last = ev->time;
    switch (ev->kind) {
    case HS_MLPD_METADATA: return on_metadata(f, ev);
    case HS_MLPD_ALLOC:
        return alloc_of(f, ev->u.alloc.vtable, ev->time, ev->u.alloc.size,
                        &f->vid, false);
    case HS_MLPD_HEAP_START: open_shot(f, ev->time); return HS_OK;
    case HS_MLPD_HEAP_END: close_shot(f); return HS_OK;
    case HS_MLPD_HEAP_OBJECT: return on_heap_object(f, ev);
    case HS_MLPD_GC_EVENT: on_gc(f, ev); return HS_OK;
    case HS_MLPD_GC_RESIZE:
        on_resize(f, ev->time, ev->u.resize.heap_size);
        return HS_OK;
    default:
        return HS_OK;
    }
}

bool hs__mlpd_figures_finish(hs__mlpd_figures *f)
{
    bool cut = f->shot_open;
    if (cut && f->shot_counted)
        f->s.heap_shots--;
    f->shot_open = false;
    uint64_t end = hs__mlpd_figures_rel(f, f->last);
    if (end > f->to)
        end = f->to;
    f->s.duration_ns = end > f->from ? end - f->from : 0;
    /* the size in force at the window's start, when the run reached it */
    if (hs__mlpd_figures_rel(f, f->last) >= f->from &&
        f->size_before > f->s.max_heap_bytes)
        f->s.max_heap_bytes = f->size_before;
    /* Late vtables, and the allocations made with them (in the window: of
     * its allocations). */
    f->s.late_vtables = f->s.late_alloc_count = f->s.late_alloc_bytes = 0;
    for (size_t v = 0; v < f->vt.nvt; v++) {
        if (!f->vt.vt[v].used_early)
            continue;
        uint64_t n = v < f->cap_vid_count ? f->vid_count[v] : 0;
        if (!f->windowed || n)
            f->s.late_vtables++;
        f->s.late_alloc_count += n;
        if (n)
            f->s.late_alloc_bytes =
                hs_add_sat(f->s.late_alloc_bytes, f->vid_bytes[v]);
    }
    return cut;
}

const char hs__mlpd_no_buffer[] =
    "the file has its header and no buffer: the program wrote no event (it "
    "was killed before the profiler's first write?)";

int hs__mlpd_between_buffers(uint64_t off, hs_error *err)
{
    hs_error_at at = {off, HS_NO_EVENT, 0};
    return hs__error_set(err, HS_TRUNCATED, &at,
                         "the file ends at offset %llu, between two buffers "
                         "inside a heap shot (its HEAP_END never came: a "
                         "killed run or a cut copy)", (unsigned long long)off);
}
