/*
 * What the .mlpd loader adds to the builder (census_build.h): object
 * counts beside bytes, heap-line points and run facts without an event,
 * the allocation profile, the profile's label, the GC figures and the
 * slot for what a loader keeps with the census. Counts live in an array
 * parallel to the entries, allocated only when a source counts objects,
 * so other censuses pay nothing for them.
 */
#include "heapscope/reader.h"
#include "census/census_impl.h"

#include <stdio.h>
#include <string.h>

int hs__census_build_counted(hs_census *c, const char *name, size_t len,
                             uint64_t bytes, uint64_t count)
{
    int st = hs__census_build_bytes(c, name, len, bytes);
    if (st)
        return st;
    if (!hs_grow_zeroed(c->alloc, (void **)&c->counts, &c->cap_counts,
                        c->nentries, sizeof *c->counts))
        return hs__census_nomem(c);
    /* The band's entry in the open sample: new, or the one it summed into. */
    uint32_t k = hs_intern_find(&c->str_tab, name, len);
    size_t pos = c->last[c->str_band[k]].pos;
    c->counts[pos] = hs_add_sat(c->counts[pos], count);
    return HS_OK;
}

int hs__census_build_line(hs_census *c, hs_heap_line line, uint64_t time_ns,
                          uint64_t bytes)
{
    if (c->error)
        return c->error;
    hs_event ev;
    memset(&ev, 0, sizeof ev);
    ev.time = time_ns;
    ev.u.heap.bytes = bytes;
    return hs__census_add_line_point(c, line, &ev);
}

int hs__census_build_facts(hs_census *c, const char *rts_identifier,
                           uint64_t events)
{
    if (c->error)
        return c->error;
    if (rts_identifier &&
        !(c->info.rts_identifier = hs_arena_strndup(&c->arena, rts_identifier,
                                                    strlen(rts_identifier))))
        return hs__census_nomem(c);
    c->info.events += events;
    return HS_OK;
}

void hs__census_build_sites(hs_census *c, hs_census_site *sites, size_t n)
{
    if (c->sites != sites)
        hs_free(c->alloc, c->sites);
    c->sites = sites;
    c->nsites = n;
}

void hs__census_build_label(hs_census *c, const char *label)
{
    snprintf(c->label, sizeof c->label, "%s", label);
}

void hs__census_build_mlpd_stats(hs_census *c, const hs_mlpd_gc_stats *s)
{
    c->mlpd_stats = s;
}

void hs__census_ext_set(hs_census *c, void *ext, hs_census_ext_free_fn free_fn)
{
    if (c->ext_free)
        c->ext_free(c->ext, c->alloc);
    c->ext = ext;
    c->ext_free = free_fn;
}

void *hs__census_ext(const hs_census *c, hs_census_ext_free_fn free_fn)
{
    return c->ext_free == free_fn ? c->ext : NULL;
}

size_t hs_census_alloc_site_count(const hs_census *c)
{
    return c->nsites;
}

const char *hs_census_alloc_site(const hs_census *c, size_t i,
                                 const char *const **frames, size_t *nframes,
                                 uint64_t *bytes, uint64_t *count)
{
    if (i >= c->nsites)
        return NULL;
    const hs_census_site *o = &c->sites[i];
    if (frames)
        *frames = (const char *const *)o->frames;
    if (nframes)
        *nframes = o->nframes;
    if (bytes)
        *bytes = o->bytes;
    if (count)
        *count = o->count;
    return o->band;
}

const hs_mlpd_gc_stats *hs_census_mlpd_stats(const hs_census *c)
{
    return c->info.source == HS_SOURCE_MLPD ? c->mlpd_stats : NULL;
}

size_t hs_census_sample_counts(const hs_census *c, size_t i,
                               const uint64_t **counts)
{
    if (i >= c->nsamples || !c->counts) {
        *counts = NULL;
        return 0;
    }
    *counts = c->counts + c->samples[i].first;
    return c->samples[i].count;
}

bool hs_census_has_counts(const hs_census *c)
{
    return c->counts != NULL;
}
