/*
 * Loading an .mlpd: naming. Pointers (classes, images, assemblies,
 * methods) and the descriptions the file gives them, kept so that a use
 * is named by the description in force at its time, whatever the order
 * they come in (load_mlpd.h; vtables are read/mlpd_figures.c's). The
 * event loop is load_mlpd.c.
 */
#include "load/load_mlpd.h"

#include <string.h>

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

/* A CLASS load: a new description at the end of the pointer's chain. */
static int describe_class(struct loader *l, const hs_mlpd_event *ev)
{
    struct hs_census_mlpd *m = l->m;
    struct chain *c = hs__mlpd_chain_of(l->a, &m->classes, &m->cchain,
                                        &m->cap_cchain, ev->u.meta.pointer);
    const char *name = hs__mlpd_keep(l, ev->u.meta.name);
    if (!c || !name || m->ncl >= UINT32_MAX - 1 ||
        !hs_grow(l->a, (void **)&m->cl, &m->cap_cl, m->ncl + 1, sizeof *m->cl))
        return HS_ERR_NOMEM;
    uint32_t k = (uint32_t)m->ncl++;
    m->cl[k] = (struct class_info){ev->u.meta.image, ev->time, name,
                                   UINT32_MAX};
    hs__mlpd_chain_push(c, c->tail == UINT32_MAX ? NULL : &m->cl[c->tail].next,
                        k);
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
