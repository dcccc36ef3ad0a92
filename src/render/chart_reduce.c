/*
 * Per-pixel-column reduction: a bound census becomes at most one point
 * per pixel column, so memory and drawing are proportional to (series x
 * columns), never to the samples. A column keeps its largest sample (its
 * largest value per series in line charts), so no peak is ever lost.
 */
#include "render/chart_internal.h"

#include <string.h>

size_t hs_chart_column_of(double t, double t_span, size_t ncols)
{
    if (!(t_span > 0) || t <= 0)
        return 0;
    double f = t / t_span * (double)ncols;
    if (f >= (double)ncols)
        return ncols - 1;
    return (size_t)f;
}

void hs_chart_col_cursor_init(hs_chart_col_cursor *k, double t_span,
                              size_t ncols)
{
    *k = (hs_chart_col_cursor){t_span, ncols, 1, 0, 0};
}

static size_t col_at(const hs_chart_col_cursor *k, uint64_t ns)
{
    return hs_chart_column_of(ns / 1e9, k->t_span, k->ncols);
}

/* The first time after ns (whose column is col) in a later column, or
 * UINT64_MAX when there is none before it: from where the column's end
 * should be, by the inverse of the mapping, then galloping to a bracket
 * and halving it, the column computed exactly at each step. */
static uint64_t column_end(const hs_chart_col_cursor *k, uint64_t ns,
                           size_t col)
{
    double g = ((double)col + 1) * k->t_span / (double)k->ncols * 1e9;
    uint64_t lo = ns, hi = UINT64_MAX; /* col_at(lo) == col; hi past it */
    uint64_t guess = g > (double)ns && g < 1.8e19 ? (uint64_t)g : ns;
    if (guess > ns && col_at(k, guess) != col) {
        hi = guess;
        for (uint64_t step = 1; hi - lo > step; step *= 2) {
            if (col_at(k, hi - step) == col) {
                lo = hi - step;
                break;
            }
            hi -= step;
        }
    } else {
        lo = guess > ns ? guess : ns;
        for (uint64_t step = 1; UINT64_MAX - lo > step; step *= 2) {
            if (col_at(k, lo + step) != col) {
                hi = lo + step;
                break;
            }
            lo += step;
        }
        if (hi == UINT64_MAX && col_at(k, UINT64_MAX) == col)
            return UINT64_MAX;
    }
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (col_at(k, mid) == col)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

size_t hs_chart_col_cursor_move(hs_chart_col_cursor *k, uint64_t ns)
{
    k->col = col_at(k, ns);
    k->lo = ns;
    k->hi = column_end(k, ns, k->col);
    return k->col;
}

typedef struct reducer {
    const hs_chart_binding *b;
    hs_chart_points *p;
    size_t oslot;          /* OTHER's series, SIZE_MAX when none */
    double t_span;
    size_t ncols;
} reducer;

static double sample_seconds(const hs_census *c, size_t i)
{
    return hs_census_sample_time(c, i) / 1e9;
}

/* Adds sample i's drawn values to row; keep_max: each series keeps its
 * largest (line charts), OTHER as the sum of its members. */
static void add_sample_values(const reducer *r, size_t i, double *row,
                              bool keep_max)
{
    const hs_chart_binding *b = r->b;
    const hs_census_entry *e;
    size_t n = hs_census_sample_entries(b->c, i, &e);
    double other = 0;
    for (size_t k = 0; k < n; k++) {
        if (e[k].band >= b->nbands || b->slot_of[e[k].band] < 0)
            continue;
        size_t s = (size_t)b->slot_of[e[k].band];
        double v = (double)e[k].bytes;
        if (!keep_max)
            row[s] += v;
        else if (s == r->oslot)
            other += v;
        else if (v > row[s])
            row[s] = v;
    }
    if (keep_max && r->oslot != SIZE_MAX && other > row[r->oslot])
        row[r->oslot] = other;
}

static double shown_total(const hs_chart_binding *b, size_t i)
{
    const hs_census_entry *e;
    size_t n = hs_census_sample_entries(b->c, i, &e);
    double t = 0;
    for (size_t k = 0; k < n; k++)
        if (e[k].band < b->nbands && b->slot_of[e[k].band] >= 0)
            t += (double)e[k].bytes;
    return t;
}

static void reduce_lines(const reducer *r, size_t nsamples)
{
    hs_chart_points *p = r->p;
    size_t cur = SIZE_MAX;
    for (size_t i = 0; i < nsamples; i++) {
        double t = sample_seconds(r->b->c, i);
        size_t col = hs_chart_column_of(t, r->t_span, r->ncols);
        if (cur == SIZE_MAX || col != cur) {
            cur = col;
            p->t[p->npts++] = t;
        }
        add_sample_values(r, i, p->v + (p->npts - 1) * p->nser, true);
    }
}

/* Stacked charts: the column's point is its sample with the largest total,
 * a real sample, so the stack's top is never above what the heap really
 * held and its peak is never lost. */
static void reduce_stacked(const reducer *r, size_t nsamples)
{
    hs_chart_points *p = r->p;
    const hs_census *c = r->b->c;
    size_t cur = SIZE_MAX, best = 0;
    double best_v = -1;
    for (size_t i = 0; i <= nsamples; i++) {
        size_t col = i < nsamples ? hs_chart_column_of(sample_seconds(c, i),
                                                       r->t_span, r->ncols)
                                  : SIZE_MAX;
        if (col != cur || i == nsamples) {
            if (cur != SIZE_MAX) {
                p->t[p->npts] = sample_seconds(c, best);
                add_sample_values(r, best, p->v + p->npts * p->nser, false);
                p->npts++;
            }
            if (i == nsamples)
                break;
            cur = col;
            best_v = -1;
        }
        double v = shown_total(r->b, i);
        if (v > best_v) {
            best_v = v;
            best = i;
        }
    }
}

static void normalize_rows(hs_chart_points *p)
{
    for (size_t k = 0; k < p->npts; k++) {
        double *row = p->v + k * p->nser, t = 0;
        for (size_t s = 0; s < p->nser; s++)
            t += row[s];
        for (size_t s = 0; s < p->nser; s++)
            row[s] = t > 0 ? row[s] / t : 0;
    }
}

int hs_chart_reduce(hs_chart_points *p, const hs_chart_binding *b,
                    size_t nser, bool has_other, hs_chart_kind kind,
                    double t_span, size_t ncols)
{
    memset(p, 0, sizeof *p);
    p->alloc = b->alloc;
    p->nser = nser;
    if (ncols < 2)
        ncols = 2;
    size_t nsamples = hs_census_sample_count(b->c);
    size_t cap = nsamples < ncols ? nsamples : ncols;
    if (cap < 2)
        cap = 2;
    p->t = hs_calloc(p->alloc, cap, sizeof *p->t);
    p->v = hs_calloc(p->alloc, cap, (nser ? nser : 1) * sizeof *p->v);
    if (!p->t || !p->v) {
        hs_chart_points_free(p);
        return HS_ERR_NOMEM;
    }
    reducer r = {b, p, has_other && nser ? nser - 1 : SIZE_MAX, t_span,
                 ncols};
    if (nsamples <= ncols) {
        for (size_t i = 0; i < nsamples; i++) {
            p->t[i] = sample_seconds(b->c, i);
            add_sample_values(&r, i, p->v + i * nser, false);
        }
        p->npts = nsamples;
    } else if (kind == HS_CHART_LINE) {
        reduce_lines(&r, nsamples);
    } else {
        reduce_stacked(&r, nsamples);
    }
    /* A lone sample is drawn across the whole axis: an area needs width. */
    if (p->npts == 1) {
        memcpy(p->v + nser, p->v, nser * sizeof *p->v);
        p->t[0] = 0;
        p->t[1] = t_span;
        p->npts = 2;
    }
    if (kind == HS_CHART_NORMALIZED)
        normalize_rows(p);
    return HS_OK;
}

void hs_chart_points_free(hs_chart_points *p)
{
    hs_free(p->alloc, p->t);
    hs_free(p->alloc, p->v);
    p->t = NULL;
    p->v = NULL;
    p->npts = 0;
}
