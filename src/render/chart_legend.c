/*
 * The chart legend: swatch, label and peak for every series, top of the
 * stack first, then the heap lines; too many entries end in a row saying
 * how many were left out.
 */
#include "render/chart_internal.h"
#include "render/short_label.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

/*
 * When not all series fit, the legend lists the largest by byte-seconds,
 * still in stacking order: those with an integral above *cut, and *ties of
 * those equal to it (by position). Returns false when out of memory.
 */
static bool legend_cut(hs_chart_canvas *cv, const hs_chart_selection *sel,
                       size_t show, double *cut, size_t *ties)
{
    *cut = -1;
    *ties = SIZE_MAX;
    if (show >= sel->nser)
        return true;
    double *ints = hs_calloc(cv->alloc, sel->nser, sizeof *ints);
    if (!ints)
        return false;
    for (size_t k = 0; k < sel->nser; k++)
        ints[k] = sel->ser[k].integral;
    qsort(ints, sel->nser, sizeof *ints, cmp_double_desc);
    *cut = show ? ints[show - 1] : HUGE_VAL;
    *ties = 0;
    for (size_t k = 0; k < show; k++)
        *ties += ints[k] == *cut;
    hs_free(cv->alloc, ints);
    return true;
}

typedef struct row_geom {
    double x, w, lh, sw, fs, peak_w;
} row_geom;

/* The peak right-aligned, the label ellipsized before it. */
static void row_texts(hs_chart_canvas *cv, const row_geom *g, double y,
                      const char *label, const char *full, double peak)
{
    char buf[64];
    hs_format_bytes(buf, sizeof buf, peak);
    hs_chart_draw_text(cv, buf, g->x + g->w, y, g->fs, false, 0,
                       HS_ALIGN_RIGHT, 0x555555);
    hs_chart_draw_label(cv, label, full, g->x + g->sw + 5, y, g->fs,
                        g->w - g->sw - 5 - g->peak_w, HS_ALIGN_LEFT, 0x222222,
                        false);
}

static void legend_geom(hs_chart_canvas *cv, row_geom *g, double x, double w)
{
    *g = (row_geom){x, w, 0, 0, cv->font * HS_CHART_FS_LEGEND, 0};
    g->lh = hs_chart_line_height(cv, g->fs) + 3;
    g->sw = g->fs;
    g->peak_w = hs_chart_text_width(cv, "000.0 MiB", g->fs, false) + 6;
}

static double heap_line_rows(hs_chart_canvas *cv, const row_geom *g, double y,
                             const double line_peak[HS_LINE_COUNT])
{
    cairo_t *cr = cv->cr;
    for (int l = 0; l < HS_LINE_COUNT; l++) {
        if (!(line_peak[l] > 0))
            continue;
        const hs_chart_line_style *ls = &hs_chart_line_styles[l];
        hs_chart_set_rgb(cr, ls->rgb, 0.9);
        cairo_set_line_width(cr, 1.2);
        if (ls->dash > 0)
            cairo_set_dash(cr, &ls->dash, 1, 0);
        cairo_move_to(cr, g->x, y + g->lh / 2 - 1);
        cairo_line_to(cr, g->x + g->sw, y + g->lh / 2 - 1);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
        row_texts(cv, g, y, ls->name, ls->name, line_peak[l]);
        y += g->lh;
    }
    return y;
}

/*
 * Labels for names[0..n) by the page's rule (short_label.h): the most
 * characters with which every label fits avail points (8 at the fewest,
 * pango's end ellipsis past that). NULL when out of memory.
 */
static char **fit_labels(hs_chart_canvas *cv, const char **names, size_t n,
                         double fs, double avail)
{
    size_t longest = 8;
    for (size_t k = 0; k < n; k++)
        if (strlen(names[k]) > longest)
            longest = strlen(names[k]);
    double cw = hs_chart_text_width(cv, "abcdefghijklmnopqrstuvwxyz", fs,
                                    false) / 26;
    size_t max = cw > 0 && avail / cw + 4 < (double)longest
                     ? (size_t)(avail / cw) + 4 : longest;
    for (;; max--) {
        char **l = hs__short_labels(cv->alloc, names, n, max);
        bool fit = l != NULL;
        for (size_t k = 0; k < n && fit; k++)
            fit = hs_chart_text_width(cv, l[k], fs, false) <= avail;
        if (!l || fit || max <= 8)
            return l;
        hs__short_labels_free(cv->alloc, l, n);
    }
}

/* The series the legend lists (the largest when not all fit), in
 * stacking order, top first, into shown; returns their number. */
static size_t listed(const hs_chart_selection *sel, double cut, size_t ties,
                     size_t *shown)
{
    size_t n = 0;
    for (size_t k = sel->nser; k-- > 0;) {
        const hs_chart_series *s = &sel->ser[k];
        if (s->integral < cut)
            continue;
        if (s->integral == cut) {
            if (!ties)
                continue;
            ties--;
        }
        shown[n++] = k;
    }
    return n;
}

void hs_chart_draw_legend(hs_chart_canvas *cv, const hs_chart_selection *sel,
                          const double *peaks,
                          const double line_peak[HS_LINE_COUNT], double x,
                          double w, double y, double bottom)
{
    row_geom g;
    legend_geom(cv, &g, x, w);
    size_t nlines = 0;
    for (int l = 0; line_peak && l < HS_LINE_COUNT; l++)
        nlines += line_peak[l] > 0;
    size_t fit = (size_t)floor((bottom - y) / g.lh);
    size_t show = sel->nser;
    if (sel->nser + nlines > fit)
        show = fit > nlines + 1 ? fit - nlines - 1 : 0;
    double cut;
    size_t ties, n = 0;
    size_t *shown = hs_calloc(cv->alloc, sel->nser + 1, sizeof *shown);
    const char **names = hs_calloc(cv->alloc, sel->nser + 1, sizeof *names);
    char **labels = NULL;
    if (shown && names && legend_cut(cv, sel, show, &cut, &ties)) {
        n = listed(sel, cut, ties, shown);
        for (size_t i = 0; i < n; i++)
            names[i] = sel->ser[shown[i]].label;
        labels = fit_labels(cv, names, n, g.fs, g.w - g.sw - 5 - g.peak_w);
    }
    if (!labels)
        cv->status = HS_ERR_NOMEM;
    for (size_t i = 0; labels && i < n; i++) {
        const hs_chart_series *s = &sel->ser[shown[i]];
        cairo_rectangle(cv->cr, x, y + (g.lh - g.sw) / 2 - 1, g.sw, g.sw);
        hs_chart_fill_series(cv->cr, s, CAIRO_FILL_RULE_WINDING);
        row_texts(cv, &g, y, labels[i], s->label,
                  peaks ? peaks[shown[i]] : s->peak);
        y += g.lh;
    }
    hs__short_labels_free(cv->alloc, labels, n);
    hs_free(cv->alloc, shown);
    hs_free(cv->alloc, names);
    if (cv->status)
        return;
    if (show < sel->nser) {
        char more[96];
        snprintf(more, sizeof more, "\xe2\x80\xa6 and %zu more, not listed",
                 sel->nser - show);
        hs_chart_draw_text(cv, more, x + g.sw + 5, y, g.fs, false,
                           w - g.sw - 5, HS_ALIGN_LEFT, 0x555555);
        y += g.lh;
    }
    if (nlines)
        heap_line_rows(cv, &g, y + g.lh * 0.3, line_peak);
}

void hs_chart_draw_line_legend(hs_chart_canvas *cv,
                               const double line_peak[HS_LINE_COUNT],
                               double x, double w, double y)
{
    row_geom g;
    legend_geom(cv, &g, x, w);
    heap_line_rows(cv, &g, y, line_peak);
}
