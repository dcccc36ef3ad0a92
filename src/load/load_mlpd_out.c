/*
 * The end of loading an .mlpd: every pointer is named now that the whole
 * file has been read, heap shots (or allocation intervals) become census
 * samples, and allocation sites become the allocation profile.
 */
#include "load/load_mlpd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The description vtable id v stands for: itself, or for an entry whose
 * description never came (a use that no description of its pointer was
 * in force for), the next description of the pointer, else the last one
 * before it; NULL when the pointer was described nowhere. */
static const struct vtable_info *described(const struct hs_census_mlpd *m,
                                           uint32_t v)
{
    const struct vtable_info *vts = m->fig.vt.vt;
    const struct vtable_info *x = &vts[v], *before = NULL;
    if (x->described)
        return x;
    for (uint32_t k = x->next; k != UINT32_MAX; k = vts[k].next)
        if (vts[k].described)
            return &vts[k];
    uint64_t p = x->ptr;
    uint32_t pi = hs__ptr_map_find(&m->fig.vt.map, p);
    for (uint32_t k = m->fig.vt.chain[pi].head; k != v; k = vts[k].next)
        if (vts[k].described)
            before = &vts[k];
    return before;
}

/* The class of vtable id v, NULL when the file never named it; *klass
 * is the class pointer (0 when the vtable was never described) and *vt
 * the vtable pointer. A class pointer described more than once takes the
 * description in force when the vtable was made (the latest before it),
 * else the first. */
static const struct class_info *class_of(const struct hs_census_mlpd *m,
                                         uint64_t v, uint64_t *klass,
                                         uint64_t *vt)
{
    const struct vtable_info *x = described(m, (uint32_t)v);
    *vt = m->fig.vt.vt[v].ptr;
    *klass = x ? x->klass : 0;
    uint32_t pi = x ? hs__ptr_map_find(&m->classes, x->klass) : UINT32_MAX;
    if (pi == UINT32_MAX)
        return NULL;
    const struct class_info *best = NULL;
    for (uint32_t k = m->cchain[pi].head; k != UINT32_MAX; k = m->cl[k].next)
        if (!best || (m->cl[k].time <= x->time &&
                      (best->time > x->time || m->cl[k].time >= best->time)))
            best = &m->cl[k];
    return best;
}

/* The namespace of a class name: up to its last '.' before any generic
 * argument list or array brackets. */
static size_t namespace_len(const char *name)
{
    size_t end = strcspn(name, "<[");
    size_t dot = 0;
    for (size_t i = 0; i < end; i++)
        if (name[i] == '.')
            dot = i;
    return dot;
}

/* The band of vtable vt under m->by, as a string and length in *out
 * (pointing into a name or into buf). */
static size_t band_of(const struct hs_census_mlpd *m, uint64_t vt,
                      char *buf, size_t cap, const char **out)
{
    uint64_t klass, ptr;
    const struct class_info *ci = class_of(m, vt, &klass, &ptr);
    if (!ci) {
        *out = buf;
        return (size_t)snprintf(buf, cap, klass ? "unnamed class 0x%llx"
                                : "undescribed vtable 0x%llx",
                                (unsigned long long)(klass ? klass : ptr));
    }
    if (m->by == HS_MLPD_BY_CLASS) {
        *out = ci->name;
        return strlen(ci->name);
    }
    if (m->by == HS_MLPD_BY_NAMESPACE) {
        size_t n = namespace_len(ci->name);
        *out = n ? ci->name : "(global namespace)";
        return n ? n : strlen(*out);
    }
    uint32_t ii = hs__ptr_map_find(&m->images, ci->image);
    const struct image_info *im = ii == UINT32_MAX ? NULL : &m->im[ii];
    if (im && im->assembly) {
        *out = im->assembly;
        return strcspn(im->assembly, ",");
    }
    if (im && im->name) {
        const char *slash = strrchr(im->name, '/');
        *out = slash ? slash + 1 : im->name;
        return strlen(*out);
    }
    *out = buf;
    return (size_t)snprintf(buf, cap, "image 0x%llx",
                            (unsigned long long)ci->image);
}

/* Largest first; equal sizes by vtable, so the order does not depend on
 * the sort. */
static int cmp_cell(const void *a, const void *b)
{
    const struct cell *x = a, *y = b;
    if (x->bytes != y->bytes)
        return x->bytes < y->bytes ? 1 : -1;
    return x->vtable < y->vtable ? -1 : x->vtable > y->vtable;
}

/* Adds n cells (sorted here, in place) as the entries of the open sample. */
static int add_cells(hs_census *c, const struct hs_census_mlpd *m,
                     struct cell *cells, size_t n)
{
    if (n > 1)
        qsort(cells, n, sizeof *cells, cmp_cell);
    char buf[64];
    for (size_t i = 0; i < n; i++) {
        const char *name;
        size_t len = band_of(m, cells[i].vtable, buf, sizeof buf, &name);
        int st = hs__census_build_counted(c, name, len, cells[i].bytes,
                                          cells[i].count);
        if (st)
            return st;
    }
    return HS_OK;
}

/* By time; shots of one time in file order (`first` grows with it). */
static int cmp_shot(const void *a, const void *b)
{
    const struct shot *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    return x->first < y->first ? -1 : x->first > y->first;
}

/* The shots in time order; a cut one (the last in the file) comes last
 * and stays open, for hs_census_finish to leave out with a warning. */
static int build_shots(hs_census *c, struct hs_census_mlpd *m)
{
    size_t whole = m->nshots - (m->cut_shot ? 1 : 0);
    if (whole > 1)
        qsort(m->shots, whole, sizeof *m->shots, cmp_shot);
    int st = HS_OK;
    for (size_t k = 0; k < m->nshots && !st; k++) {
        const struct shot *s = &m->shots[k];
        uint64_t total = 0;
        for (size_t i = 0; i < s->n; i++)
            total = hs_add_sat(total, m->cells[s->first + i].bytes);
        st = hs__census_build_sample_begin(c, s->time);
        if (!st && s->n) /* an empty shot has no cells, maybe no array */
            st = add_cells(c, m, m->cells + s->first, s->n);
        if (k == whole)
            break;
        if (!st)
            st = hs__census_build_sample_end(c);
        if (!st)
            st = hs__census_build_line(c, HS_LINE_HEAP_LIVE, s->time, total);
    }
    return st;
}

/* Allocation intervals as samples: every interval from the first to the
 * last, an empty sample where nothing was allocated. */
static int build_alloc_samples(hs_census *c, struct hs_census_mlpd *m)
{
    const hs_allocator *a = hs__census_allocator(c);
    size_t n = m->buckets.count;
    uint64_t last = 0;
    for (size_t i = 0; i < n; i++) {
        const uint64_t *k = (const uint64_t *)m->buckets.keys[i].ptr;
        if (k[0] > last)
            last = k[0];
    }
    /* A run of hours at 10 ms would make millions of samples: widen the
     * interval so that there are at most 131,072. */
    uint64_t factor = last / (1u << 17) + 1;
    last /= factor;
    struct cell *cells = hs_calloc(a, n + 1, sizeof *cells);
    size_t *start = hs_calloc(a, (size_t)last + 2, sizeof *start);
    int st = cells && start ? HS_OK : HS_ERR_NOMEM;
    if (!st && n)
        st = hs__census_build_reserve(c, (size_t)last + 1);
    /* A counting sort of the cells by interval. */
    for (size_t i = 0; !st && i < n; i++)
        start[((const uint64_t *)m->buckets.keys[i].ptr)[0] / factor + 1]++;
    for (uint64_t b = 0; !st && b <= last; b++)
        start[b + 1] += start[b];
    for (size_t i = 0; !st && i < n; i++) {
        const uint64_t *k = (const uint64_t *)m->buckets.keys[i].ptr;
        cells[start[k[0] / factor]++] =
            (struct cell){k[1], m->bucket_bytes[i], m->bucket_count[i]};
    }
    size_t from = 0;
    for (uint64_t b = 0; !st && n && b <= last; b++) {
        st = hs__census_build_sample_begin(c, b * factor * m->interval);
        if (!st && start[b] > from)
            st = add_cells(c, m, cells + from, start[b] - from);
        if (!st)
            st = hs__census_build_sample_end(c);
        from = start[b];
    }
    hs_free(a, cells);
    hs_free(a, start);
    m->interval *= factor; /* the width the samples have, for their label */
    return st;
}

static int cmp_site(const void *a, const void *b)
{
    const hs_census_site *x = a, *y = b;
    if (x->bytes != y->bytes)
        return x->bytes < y->bytes ? 1 : -1;
    int d = strcmp(x->band, y->band);
    if (d)
        return d;
    return x->nframes < y->nframes ? -1 : x->nframes > y->nframes;
}

const char *hs__mlpd_method_name(struct hs_census_mlpd *m, uint64_t p)
{
    uint32_t i = hs__ptr_map_find(&m->methods, p);
    if (i != UINT32_MAX && m->meth[i])
        return m->meth[i];
    char buf[48];
    int n = snprintf(buf, sizeof buf, "unknown method 0x%llx",
                     (unsigned long long)p);
    return hs_arena_strndup(&m->arena, buf, (size_t)n);
}

/* One allocation site with its names. */
static int name_site(struct hs_census_mlpd *m, size_t i, hs_census_site *o)
{
    const uint64_t *key = (const uint64_t *)m->sites.keys[i].ptr;
    size_t nframes = m->sites.keys[i].len / sizeof *key - 1;
    char buf[64];
    const char *name;
    size_t len = band_of(m, key[0], buf, sizeof buf, &name);
    o->band = hs_arena_strndup(&m->arena, name, len);
    o->frames = nframes ? hs_arena_alloc(&m->arena, nframes * sizeof *o->frames)
                        : NULL;
    if (!o->band || (nframes && !o->frames))
        return HS_ERR_NOMEM;
    o->nframes = nframes;
    for (size_t f = 0; f < nframes; f++)
        if (!(o->frames[f] = hs__mlpd_method_name(m, key[1 + f])))
            return HS_ERR_NOMEM;
    o->bytes = m->site_bytes[i];
    o->count = m->site_count[i];
    return HS_OK;
}

static int build_sites(hs_census *c, struct hs_census_mlpd *m)
{
    size_t n = m->sites.count;
    hs_census_site *out = hs_calloc(hs__census_allocator(c), n + 1,
                                    sizeof *out);
    if (!out)
        return HS_ERR_NOMEM;
    hs__census_build_sites(c, out, 0); /* the census frees it */
    for (size_t i = 0; i < n; i++)
        if (name_site(m, i, &out[i]))
            return HS_ERR_NOMEM;
    if (n > 1)
        qsort(out, n, sizeof *out, cmp_site);
    hs__census_build_sites(c, out, n);
    return HS_OK;
}

int hs__mlpd_build(hs_census *c, struct hs_census_mlpd *m)
{
    int st = m->samples == HS_MLPD_SAMPLES_ALLOC ? build_alloc_samples(c, m)
                                                 : build_shots(c, m);
    hs__mlpd_label(c, m); /* the samples' width, widened or not */
    if (!st && !hs_census_sample_count(c))
        hs__census_build_label(c, ""); /* no heap profile: no shots (or
                                          allocations) to sample */
    return st ? st : build_sites(c, m);
}

/* A whole number of seconds, milliseconds, microseconds or nanoseconds. */
static void format_width(char *buf, size_t n, uint64_t ns)
{
    static const struct { uint64_t ns; const char *unit; } units[] = {
        {1000000000u, "s"}, {1000000u, "ms"}, {1000u, "us"}, {1u, "ns"}};
    size_t u = 0;
    while (u + 1 < sizeof units / sizeof units[0] && ns % units[u].ns)
        u++;
    snprintf(buf, n, "%llu %s", (unsigned long long)(ns / units[u].ns),
             units[u].unit);
}

void hs__mlpd_label(hs_census *c, const struct hs_census_mlpd *m)
{
    static const char *const by[] = {"class", "namespace", "assembly"};
    char label[96];
    if (m->samples == HS_MLPD_SAMPLES_ALLOC) {
        char width[32];
        format_width(width, sizeof width, m->interval ? m->interval : 10000000u);
        snprintf(label, sizeof label, "Mono bytes allocated per %s, by %s",
                 width, by[m->by]);
    } else {
        snprintf(label, sizeof label, "Mono heap shots, by %s", by[m->by]);
    }
    hs__census_build_label(c, label);
}
