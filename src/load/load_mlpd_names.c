/*
 * Loading an .mlpd: naming. Pointers (vtables, classes, images,
 * assemblies, methods) and the descriptions the file gives them, kept so
 * that a use is named by the description in force at its time, whatever
 * the order they come in (load_mlpd.h). The event loop is load_mlpd.c.
 */
#include "load/load_mlpd.h"

#include <string.h>

bool hs__ptr_map_put(ptr_map *m, uint64_t key, uint32_t *index, bool *added)
{
    /* Pointers are 8-byte aligned: the bits above the third pick. */
    size_t r = (size_t)(key >> 3 ^ key >> 9) & (PTR_MAP_RECENT - 1);
    if (m->recent[r].index1 && m->recent[r].key == key) {
        *index = m->recent[r].index1 - 1;
        *added = false;
        return true;
    }
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

/* Index of pointer p in map m with its info array grown to match. */
int hs__mlpd_lookup(struct loader *l, ptr_map *m, uint64_t p, void **arr,
                    size_t *cap, size_t size, uint32_t *idx, bool *added)
{
    if (!hs__ptr_map_put(m, p, idx, added))
        return HS_ERR_NOMEM;
    if (*added && !hs_grow_zeroed(l->a, arr, cap, (size_t)*idx + 1, size))
        return HS_ERR_NOMEM;
    return HS_OK;
}

const char *hs__mlpd_keep(struct loader *l, const char *s)
{
    return s ? hs_arena_strndup(&l->m->arena, s, strlen(s)) : NULL;
}

/* The chain of descriptions of pointer p in map `map` (vtables or
 * classes), made empty when p is new. */
static struct chain *chain_of(struct loader *l, ptr_map *map,
                              struct chain **chains, size_t *cap, uint64_t p)
{
    uint32_t i;
    bool added;
    if (hs__mlpd_lookup(l, map, p, (void **)chains, cap, sizeof **chains, &i,
                        &added))
        return NULL;
    if (added)
        (*chains)[i] = (struct chain){UINT32_MAX, UINT32_MAX, 0};
    return &(*chains)[i];
}

/* Links entry k at the end of chain c; tail_next is the current tail's
 * `next` field (unused when c is empty). */
static void chain_push(struct chain *c, uint32_t *tail_next, uint32_t k)
{
    if (c->head == UINT32_MAX)
        c->head = k;
    else
        *tail_next = k;
    c->tail = k;
}

/* A new, undescribed vtable entry at the end of pointer p's chain c. */
static int vt_append(struct loader *l, struct chain *c, uint64_t p,
                     uint32_t *vid)
{
    struct hs_census_mlpd *m = l->m;
    if (m->nvt >= UINT32_MAX - 1 ||
        !hs_grow(l->a, (void **)&m->vt, &m->cap_vt, m->nvt + 1, sizeof *m->vt))
        return HS_ERR_NOMEM;
    uint32_t v = (uint32_t)m->nvt++;
    m->vt[v] = (struct vtable_info){p, 0, 0, UINT32_MAX, false, false};
    chain_push(c, c->tail == UINT32_MAX ? NULL : &m->vt[c->tail].next, v);
    *vid = v;
    return HS_OK;
}

/* A vtable met in an ALLOC or HEAP_OBJECT at `time`: the id of the
 * description in force then, or of the entry waiting for one (marked as
 * used before its description). */
int hs__mlpd_use_vtable(struct loader *l, uint64_t vtable, uint64_t time,
                          uint32_t *vid)
{
    struct hs_census_mlpd *m = l->m;
    struct chain *c = chain_of(l, &m->vtables, &m->vchain, &m->cap_vchain,
                               vtable);
    if (!c)
        return HS_ERR_NOMEM;
    /* The common case in one step: the chain's last description is its
     * latest and came before the use (a program that makes and unloads
     * AppDomains all its life would otherwise walk long chains). */
    uint32_t best = c->tail;
    if (best != UINT32_MAX && m->vt[best].described &&
        m->vt[best].time == c->latest && c->latest <= time) {
        *vid = best;
        return HS_OK;
    }
    best = UINT32_MAX;
    for (uint32_t v = c->head; v != UINT32_MAX; v = m->vt[v].next)
        if (m->vt[v].described && m->vt[v].time <= time &&
            (best == UINT32_MAX || m->vt[v].time >= m->vt[best].time))
            best = v;
    if (best == UINT32_MAX && c->tail != UINT32_MAX &&
        !m->vt[c->tail].described)
        best = c->tail;
    if (best == UINT32_MAX) {
        int st = vt_append(l, c, vtable, &best);
        if (st)
            return st;
        m->vt[best].used_early = true;
    }
    *vid = best;
    return HS_OK;
}

/* A VTABLE load: fills the entry waiting at the chain's end, or adds one. */
static int describe_vtable(struct loader *l, const hs_mlpd_event *ev)
{
    struct hs_census_mlpd *m = l->m;
    struct chain *c = chain_of(l, &m->vtables, &m->vchain, &m->cap_vchain,
                               ev->u.meta.pointer);
    if (!c)
        return HS_ERR_NOMEM;
    uint32_t v = c->tail;
    if (v == UINT32_MAX || m->vt[v].described) {
        int st = vt_append(l, c, ev->u.meta.pointer, &v);
        if (st)
            return st;
    }
    m->vt[v].klass = ev->u.meta.klass;
    m->vt[v].time = ev->time;
    m->vt[v].described = true;
    if (ev->time > c->latest)
        c->latest = ev->time;
    return HS_OK;
}

/* A CLASS load: a new description at the end of the pointer's chain. */
static int describe_class(struct loader *l, const hs_mlpd_event *ev)
{
    struct hs_census_mlpd *m = l->m;
    struct chain *c = chain_of(l, &m->classes, &m->cchain, &m->cap_cchain,
                               ev->u.meta.pointer);
    const char *name = hs__mlpd_keep(l, ev->u.meta.name);
    if (!c || !name || m->ncl >= UINT32_MAX - 1 ||
        !hs_grow(l->a, (void **)&m->cl, &m->cap_cl, m->ncl + 1, sizeof *m->cl))
        return HS_ERR_NOMEM;
    uint32_t k = (uint32_t)m->ncl++;
    m->cl[k] = (struct class_info){ev->u.meta.image, ev->time, name,
                                   UINT32_MAX};
    chain_push(c, c->tail == UINT32_MAX ? NULL : &m->cl[c->tail].next, k);
    return HS_OK;
}

int hs__mlpd_on_metadata(struct loader *l, const hs_mlpd_event *ev)
{
    struct hs_census_mlpd *m = l->m;
    uint32_t i;
    bool added;
    int st = HS_OK;
    const char *name = ev->u.meta.name;
    switch (ev->u.meta.kind) {
    case HS_MLPD_META_CLASS:
        if (name)
            st = describe_class(l, ev);
        break;
    case HS_MLPD_META_IMAGE:
    case HS_MLPD_META_ASSEMBLY: {
        bool asm_ = ev->u.meta.kind == HS_MLPD_META_ASSEMBLY;
        if (!name)
            break;
        uint64_t p = asm_ ? ev->u.meta.image : ev->u.meta.pointer;
        st = hs__mlpd_lookup(l, &m->images, p, (void **)&m->im, &m->cap_im,
                             sizeof *m->im, &i, &added);
        const char *d = st ? NULL : hs__mlpd_keep(l, name);
        if (!st && !d)
            st = HS_ERR_NOMEM;
        if (!st)
            *(asm_ ? &m->im[i].assembly : &m->im[i].name) = d;
        break;
    }
    case HS_MLPD_META_VTABLE:
        if (ev->u.meta.action == HS_MLPD_META_LOAD)
            st = describe_vtable(l, ev);
        break;
    case HS_MLPD_META_DOMAIN:
        /* The root domain's friendly name is the program's file name. */
        if (name && !l->program && !(l->program = hs__mlpd_keep(l, name)))
            st = HS_ERR_NOMEM;
        break;
    default:
        break;
    }
    return st;
}

int hs__mlpd_on_jit(struct loader *l, const hs_mlpd_event *ev)
{
    struct hs_census_mlpd *m = l->m;
    uint32_t i;
    bool added;
    int st = hs__mlpd_lookup(l, &m->methods, ev->u.jit.method,
                             (void **)&m->meth, &m->cap_meth, sizeof *m->meth,
                             &i, &added);
    if (!st && ev->u.jit.name &&
        !(m->meth[i] = hs__mlpd_keep(l, ev->u.jit.name)))
        st = HS_ERR_NOMEM;
    return st;
}
