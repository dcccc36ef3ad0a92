/*
 * Chart data selection: which bands become series (filters, ranking by
 * byte-seconds, OTHER for the rest, stacking order, styles), and binding
 * a census to a selection (band -> series, peaks, the value axis's
 * maximum, the run's end).
 */
#include "render/chart_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- building a selection ------------------------------------------------ */

void hs_chart_selection_init(hs_chart_selection *sel, const hs_allocator *a)
{
    memset(sel, 0, sizeof *sel);
    sel->alloc = a;
}

void hs_chart_selection_free(hs_chart_selection *sel)
{
    for (size_t i = 0; i < sel->nser; i++) {
        hs_free(sel->alloc, sel->ser[i].label);
    }
    hs_free(sel->alloc, sel->ser);
    memset(sel, 0, sizeof *sel);
}

static hs_chart_series *new_series(hs_chart_selection *sel)
{
    if (!hs_grow(sel->alloc, (void **)&sel->ser, &sel->cap, sel->nser + 1,
                 sizeof *sel->ser))
        return NULL;
    hs_chart_series *s = &sel->ser[sel->nser];
    memset(s, 0, sizeof *s);
    s->band = SIZE_MAX;
    return s;
}

int hs_chart_selection_add(hs_chart_selection *sel, const char *name,
                           double integral, double stddev)
{
    hs_chart_series *s = new_series(sel);
    if (!s)
        return HS_ERR_NOMEM;
    /* the name is borrowed, not copied: a band name may be megabytes */
    s->name = name ? name : "";
    s->label = hs_chart_clean_text(sel->alloc, s->name, HS_CHART_LABEL_MAX);
    if (!s->label)
        return HS_ERR_NOMEM;
    s->members = 1;
    s->integral = integral;
    s->stddev = stddev;
    hs_chart_style_pick(name, sel->used, &s->colour, &s->hatched);
    sel->nser++;
    return HS_OK;
}

static int series_by_size(const void *a, const void *b)
{
    const hs_chart_series *x = a, *y = b;
    if (x->integral != y->integral)
        return x->integral > y->integral ? -1 : 1;
    return strcmp(x->label, y->label);
}

static int series_by_name(const void *a, const void *b)
{
    const hs_chart_series *x = a, *y = b;
    return strcmp(x->label, y->label);
}

/* The steadiest bands at the bottom, so that the bands that move are the
 * ones whose outline the eye follows. */
static int series_by_stddev(const void *a, const void *b)
{
    const hs_chart_series *x = a, *y = b;
    if (x->stddev != y->stddev)
        return x->stddev < y->stddev ? -1 : 1;
    return strcmp(x->label, y->label);
}

int hs_chart_selection_finish(hs_chart_selection *sel, hs_chart_sort sort,
                              size_t other_members, double other_integral)
{
    int (*cmp)(const void *, const void *) =
        sort == HS_SORT_NAME     ? series_by_name
        : sort == HS_SORT_STDDEV ? series_by_stddev
                                 : series_by_size;
    if (sel->nser)
        qsort(sel->ser, sel->nser, sizeof *sel->ser, cmp);
    if (!other_members)
        return HS_OK;
    hs_chart_series *o = new_series(sel);
    if (!o)
        return HS_ERR_NOMEM;
    char buf[64];
    snprintf(buf, sizeof buf, "OTHER (%zu band%s)", other_members,
             other_members == 1 ? "" : "s");
    o->label = hs_strndup(sel->alloc, buf, strlen(buf));
    if (!o->label)
        return HS_ERR_NOMEM;
    o->other = true;
    o->members = other_members;
    o->integral = other_integral;
    o->colour = HS_CHART_OTHER_COLOUR;
    sel->nser++;
    sel->has_other = true;
    return HS_OK;
}

/* --- the chart's own choice ------------------------------------------------ */

typedef struct rank {
    size_t band;
    double key, stddev;
    const char *name;
} rank;

static int by_integral_desc(const void *a, const void *b)
{
    const rank *x = a, *y = b;
    if (x->key != y->key)
        return x->key > y->key ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* The bands the filters keep, in r[], largest first; returns how many. */
static size_t rank_bands(const hs_census *c, const hs_chart_options *opt,
                         const hs_band_stats *st, rank *r)
{
    size_t nkept = 0, nb = hs_census_band_count(c);
    for (size_t b = 0; b < nb; b++) {
        const char *name = hs_census_band_name(c, b);
        name = name ? name : "";
        if (hs_chart_band_filtered(opt, name))
            continue;
        r[nkept++] = (rank){b, st[b].byte_seconds, st[b].stddev_bytes, name};
    }
    qsort(r, nkept, sizeof *r, by_integral_desc);
    return nkept;
}

int hs_chart_select(hs_chart_selection *sel, const hs_census *c,
                    const hs_chart_options *opt, const hs_allocator *a)
{
    hs_chart_selection_init(sel, a);
    size_t nb = hs_census_band_count(c);
    if (!nb)
        return HS_ERR_NO_DATA; /* samples, if any, that hold no band */
    hs_band_stats *st = hs_calloc(a, nb ? nb : 1, sizeof *st);
    rank *r = hs_calloc(a, nb ? nb : 1, sizeof *r);
    int rc = st && r ? hs_census_band_stats(c, st) : HS_ERR_NOMEM;
    size_t nkept = rc == HS_OK ? rank_bands(c, opt, st, r) : 0;
    if (rc == HS_OK && !nkept)
        rc = HS_ERR_NO_DATA;
    size_t shown = nkept;
    if (opt->bands && opt->bands < nkept)
        shown = opt->bands;
    for (size_t i = 0; rc == HS_OK && i < shown; i++) {
        rc = hs_chart_selection_add(sel, r[i].name, r[i].key, r[i].stddev);
        if (rc == HS_OK)
            sel->ser[sel->nser - 1].band = r[i].band;
    }
    double other = 0;
    for (size_t i = shown; i < nkept; i++)
        other += r[i].key;
    if (rc == HS_OK)
        rc = hs_chart_selection_finish(sel, opt->sort, nkept - shown, other);
    sel->source = c;
    hs_free(a, st);
    hs_free(a, r);
    if (rc != HS_OK)
        hs_chart_selection_free(sel);
    return rc;
}

/* --- binding a census to a selection ---------------------------------------- */

/* Series by band name, for censuses other than the selection's source:
 * interned in series order, so name index k is series series_of[k]. */
typedef struct name_map {
    hs_intern names;
    int32_t *series_of;
} name_map;

static int name_map_init(name_map *m, const hs_chart_selection *sel,
                         size_t nreal, const hs_allocator *a)
{
    hs_intern_init(&m->names, a);
    m->series_of = hs_calloc(a, nreal ? nreal : 1, sizeof *m->series_of);
    if (!m->series_of)
        return HS_ERR_NOMEM;
    for (size_t i = 0; i < nreal; i++) {
        const char *n = sel->ser[i].name;
        uint32_t idx;
        bool added;
        if (!hs_intern_put(&m->names, n, strlen(n), &idx, &added))
            return HS_ERR_NOMEM;
        if (added)
            m->series_of[idx] = (int32_t)i;
    }
    return HS_OK;
}

static void name_map_free(name_map *m, const hs_allocator *a)
{
    hs_intern_free(&m->names);
    hs_free(a, m->series_of);
}

/* slot_of[] for c: by band index for the census sel came from, by name for
 * any other; then OTHER (or nothing) for the rest. */
static int map_bands(hs_chart_binding *b, const hs_chart_selection *sel,
                     const hs_chart_options *opt)
{
    const hs_census *c = b->c;
    size_t nreal = sel->nser - (sel->has_other ? 1 : 0);
    bool by_name = sel->source != c;
    name_map m;
    int rc = by_name ? name_map_init(&m, sel, nreal, b->alloc) : HS_OK;
    for (size_t k = 0; k < b->nbands; k++)
        b->slot_of[k] = -1;
    for (size_t i = 0; !by_name && i < nreal; i++)
        if (sel->ser[i].band < b->nbands)
            b->slot_of[sel->ser[i].band] = (int32_t)i;
    for (size_t k = 0; rc == HS_OK && k < b->nbands; k++) {
        const char *name = hs_census_band_name(c, k);
        name = name ? name : "";
        if (by_name) {
            uint32_t idx = hs_intern_find(&m.names, name, strlen(name));
            if (idx != UINT32_MAX)
                b->slot_of[k] = m.series_of[idx];
        }
        if (b->slot_of[k] < 0 && sel->has_other &&
            !hs_chart_band_filtered(opt, name))
            b->slot_of[k] = (int32_t)(sel->nser - 1);
    }
    if (by_name)
        name_map_free(&m, b->alloc);
    return rc;
}

/* Each series' peak and the largest stacked total and single value. */
static int series_peaks(hs_chart_binding *b, size_t nser)
{
    double *acc = hs_calloc(b->alloc, nser, sizeof *acc);
    size_t *touched = hs_calloc(b->alloc, nser, sizeof *touched);
    if (!acc || !touched) {
        hs_free(b->alloc, acc);
        hs_free(b->alloc, touched);
        return HS_ERR_NOMEM;
    }
    size_t ns = hs_census_sample_count(b->c);
    for (size_t i = 0; i < ns; i++) {
        const hs_census_entry *e;
        size_t n = hs_census_sample_entries(b->c, i, &e), nt = 0;
        double tot = 0;
        for (size_t k = 0; k < n; k++) {
            if (e[k].band >= b->nbands || b->slot_of[e[k].band] < 0)
                continue;
            size_t s = (size_t)b->slot_of[e[k].band];
            if (acc[s] == 0)
                touched[nt++] = s;
            acc[s] += (double)e[k].bytes;
            tot += (double)e[k].bytes;
            if (acc[s] == 0) /* a zero entry: keep it out of the list */
                nt--;
        }
        for (size_t k = 0; k < nt; k++) {
            size_t s = touched[k];
            if (acc[s] > b->peak[s])
                b->peak[s] = acc[s];
            if (acc[s] > b->max_series)
                b->max_series = acc[s];
            acc[s] = 0;
        }
        if (tot > b->max_total)
            b->max_total = tot;
    }
    hs_free(b->alloc, acc);
    hs_free(b->alloc, touched);
    return HS_OK;
}

/* The run's facts the subtitle gives: its end, peak and byte-seconds. */
static int run_facts(hs_chart_binding *b)
{
    const hs_census *c = b->c;
    size_t ns = hs_census_sample_count(c);
    const hs_census_info *info = hs_census_get_info(c);
    double last = hs_census_sample_time(c, ns - 1) / 1e9;
    double end = info ? info->end_time_ns / 1e9 : 0;
    b->t_end = last > end ? last : end;
    size_t peak = hs_census_peak_sample(c);
    if (peak != SIZE_MAX) {
        b->peak_total = (double)hs_census_sample_total(c, peak);
        b->peak_time = hs_census_sample_time(c, peak);
    }
    if (!b->nbands)
        return HS_OK;
    hs_band_stats *st = hs_calloc(b->alloc, b->nbands ? b->nbands : 1,
                                  sizeof *st);
    if (!st || hs_census_band_stats(c, st) != HS_OK) {
        hs_free(b->alloc, st);
        return HS_ERR_NOMEM;
    }
    for (size_t k = 0; k < b->nbands; k++)
        b->integral_total += st[k].byte_seconds;
    hs_free(b->alloc, st);
    return HS_OK;
}

/* The binding's arrays for c and sel; HS_ERR_NO_DATA without samples. */
static int bind_start(hs_chart_binding *b, const hs_chart_selection *sel,
                      const hs_census *c)
{
    memset(b, 0, sizeof *b);
    b->c = c;
    b->alloc = sel->alloc;
    b->nbands = hs_census_band_count(c);
    if (!hs_census_sample_count(c))
        return HS_ERR_NO_DATA;
    b->slot_of = hs_calloc(b->alloc, b->nbands ? b->nbands : 1,
                           sizeof *b->slot_of);
    b->peak = hs_calloc(b->alloc, sel->nser ? sel->nser : 1, sizeof *b->peak);
    return b->slot_of && b->peak ? HS_OK : HS_ERR_NOMEM;
}

/* Peaks and run facts once slot_of is filled; frees b on failure. */
static int bind_end(hs_chart_binding *b, size_t nser, int rc)
{
    if (rc == HS_OK)
        rc = series_peaks(b, nser);
    if (rc == HS_OK)
        rc = run_facts(b);
    if (rc != HS_OK)
        hs_chart_binding_free(b);
    return rc;
}

int hs_chart_bind(hs_chart_binding *b, hs_chart_selection *sel,
                  const hs_census *c, const hs_chart_options *opt)
{
    int rc = bind_start(b, sel, c);
    if (rc == HS_OK)
        rc = map_bands(b, sel, opt);
    rc = bind_end(b, sel->nser, rc);
    if (rc != HS_OK)
        return rc;
    for (size_t i = 0; i < sel->nser; i++)
        sel->ser[i].peak = b->peak[i];
    return HS_OK;
}

int hs_chart_bind_map(hs_chart_binding *b, hs_chart_selection *sel,
                      const hs_census *c, const int32_t *slot_of)
{
    int rc = bind_start(b, sel, c);
    for (size_t k = 0; rc == HS_OK && k < b->nbands; k++)
        b->slot_of[k] = slot_of[k] < (int32_t)sel->nser ? slot_of[k] : -1;
    return bind_end(b, sel->nser, rc);
}

void hs_chart_binding_free(hs_chart_binding *b)
{
    hs_free(b->alloc, b->slot_of);
    hs_free(b->alloc, b->peak);
    b->slot_of = NULL;
    b->peak = NULL;
}
