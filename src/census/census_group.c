/*
 * Names as the .hp shows them: the -L cut (the one place names are cut)
 * and band groups (census.h), bands of equal name joined as .hp keys are
 * (the one place bands are merged by name). The model itself keeps every
 * band apart, and the whole name of each -hc stack.
 */
#include "census/census_impl.h"

#include <string.h>

const char *hs__census_cut_name(hs_census *c, const char *full)
{
    size_t len = strlen(full);
    if (!c->name_limit || len <= c->name_limit)
        return full;
    /* the runtime writes "..." over the last bytes it keeps */
    size_t keep = c->name_limit - 4;
    char *s = hs_arena_alloc(&c->arena, keep + 4);
    if (!s)
        return NULL;
    memcpy(s, full, keep);
    memcpy(s + keep, "...", 4);
    return s;
}

void hs_census_set_name_limit(hs_census *c, unsigned limit)
{
    /* The runtime writes "..." over the last four bytes it keeps, so a
     * limit below 4 has no meaning; treat it as 4. */
    c->name_limit = limit && limit < 4 ? 4 : limit;
    /* names already made are cut (or uncut) again from their whole text */
    for (size_t b = 0; b < c->nbands && !c->error; b++) {
        struct band *band = &c->bands[b];
        if (band->kind != BAND_CCS || !band->full)
            continue;
        const char *name = hs__census_cut_name(c, band->full);
        if (!name)
            hs__census_nomem(c);
        else
            band->name = name;
    }
}

struct hs_band_groups {
    const hs_census *c;
    hs_intern names;        /* group names, in the order first seen */
    uint32_t *group_of;     /* band -> group */
    bool identity;          /* every band its own group: no joining */
    size_t *last;           /* group -> the sample it last joined, + 1 */
    size_t *pos;            /* group -> its entry there */
    hs_census_entry *out;   /* the joined entries of one sample */
};

void hs_band_groups_free(hs_band_groups *g)
{
    if (!g)
        return;
    const hs_allocator *a = g->c->alloc;
    hs_intern_free(&g->names);
    hs_free(a, g->group_of);
    hs_free(a, g->last);
    hs_free(a, g->pos);
    hs_free(a, g->out);
    hs_free(a, g);
}

hs_band_groups *hs_band_groups_new(const hs_census *c)
{
    const hs_allocator *a = c->alloc;
    hs_band_groups *g = hs_calloc(a, 1, sizeof *g);
    if (!g)
        return NULL;
    g->c = c;
    hs_intern_init(&g->names, a);
    size_t nb = c->nbands, most = 0;
    g->group_of = hs_calloc(a, nb ? nb : 1, sizeof *g->group_of);
    if (!g->group_of)
        goto fail;
    for (size_t b = 0; b < nb; b++) {
        const char *name = c->bands[b].name;
        bool added;
        if (!hs_intern_put(&g->names, name, strlen(name), &g->group_of[b],
                           &added))
            goto fail;
    }
    g->identity = g->names.count == nb;
    if (g->identity)
        return g;
    for (size_t i = 0; i < c->nsamples; i++)
        if (c->samples[i].count > most)
            most = c->samples[i].count;
    size_t ng = g->names.count ? g->names.count : 1;
    g->last = hs_calloc(a, ng, sizeof *g->last);
    g->pos = hs_calloc(a, ng, sizeof *g->pos);
    g->out = hs_calloc(a, most ? most : 1, sizeof *g->out);
    if (g->last && g->pos && g->out)
        return g;
fail:
    hs_band_groups_free(g);
    return NULL;
}

size_t hs_band_groups_count(const hs_band_groups *g)
{
    return g->names.count;
}

const char *hs_band_groups_name(const hs_band_groups *g, size_t group)
{
    return group < g->names.count ? g->names.keys[group].ptr : NULL;
}

size_t hs_band_groups_of(const hs_band_groups *g, size_t band)
{
    return band < g->c->nbands ? g->group_of[band] : SIZE_MAX;
}

size_t hs_band_groups_sample(hs_band_groups *g, size_t i,
                             const hs_census_entry **entries)
{
    const hs_census_entry *e;
    size_t ne = hs_census_sample_entries(g->c, i, &e);
    if (g->identity) {
        *entries = e;
        return ne;
    }
    size_t n = 0;
    for (size_t k = 0; k < ne; k++) {
        uint32_t grp = g->group_of[e[k].band];
        if (g->last[grp] == i + 1) {
            hs_census_entry *o = &g->out[g->pos[grp]];
            o->bytes = hs_add_sat(o->bytes, e[k].bytes);
            continue;
        }
        g->last[grp] = i + 1;
        g->pos[grp] = n;
        g->out[n++] = (hs_census_entry){grp, e[k].bytes};
    }
    *entries = g->out;
    return n;
}
