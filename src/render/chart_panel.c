/*
 * Chart panels: the bands of a selection as stacked areas or lines, the
 * heap lines, and the user markers, each into a rectangle of the canvas.
 */
#include "render/chart_internal.h"

#include <math.h>

/* Whether point k of a series (values v[k * ns]) or a neighbour is > 0. */
static bool near_nonzero(const double *v, size_t ns, size_t np, size_t k)
{
    return v[k * ns] > 0 || (k > 0 && v[(k - 1) * ns] > 0) ||
           (k + 1 < np && v[(k + 1) * ns] > 0);
}

/* Adds the polygon of series s over points [from, to) on top of base. */
static void add_run(hs_chart_canvas *cv, const hs_chart_panel *p,
                    const hs_chart_points *pts, const double *base, size_t s,
                    size_t from, size_t to)
{
    cairo_t *cr = cv->cr;
    size_t ns = pts->nser;
    for (size_t k = from; k < to; k++) {
        double x = hs_chart_xpos(cv, p, pts->t[k]);
        double y = hs_chart_ypos(cv, p, base[k] + pts->v[k * ns + s]);
        if (k == from)
            cairo_move_to(cr, x, y);
        else
            cairo_line_to(cr, x, y);
    }
    for (size_t k = to; k-- > from;)
        cairo_line_to(cr, hs_chart_xpos(cv, p, pts->t[k]),
                      hs_chart_ypos(cv, p, base[k]));
    cairo_close_path(cr);
}

/*
 * Each stretch where the band is non-zero (with the zero points at its
 * ends, for the ramps) is a simple polygon: the upper edge forwards, the
 * lower edge backwards. Skipping the zero stretches keeps charts of
 * thousands of short-lived bands small. Band areas, and only they, use
 * the even-odd rule, which lets the SVG post-processing find them.
 */
static void fill_area(hs_chart_canvas *cv, const hs_chart_panel *p,
                      const hs_chart_points *pts, const double *base,
                      size_t s)
{
    const double *v = pts->v + s;
    size_t np = pts->npts, ns = pts->nser, k = 0;
    bool any = false;
    while (k < np) {
        if (!near_nonzero(v, ns, np, k)) {
            k++;
            continue;
        }
        size_t start = k;
        while (k < np && near_nonzero(v, ns, np, k))
            k++;
        add_run(cv, p, pts, base, s, start, k);
        any = true;
    }
    /* A band that is zero at every drawn point still gets its (empty)
     * area, so that every legend entry has one. */
    if (!any)
        add_run(cv, p, pts, base, s, 0, np);
}

/* Seams between bands, so that neighbours of one colour stay apart.
 * Skipped when the bands are too many for seams to help. */
static void draw_seams(hs_chart_canvas *cv, const hs_chart_panel *p,
                       const hs_chart_points *pts, double *base)
{
    size_t np = pts->npts, ns = pts->nser;
    if (ns <= 1 || ns > 64)
        return;
    cairo_t *cr = cv->cr;
    for (size_t k = 0; k < np; k++)
        base[k] = 0;
    cairo_set_line_width(cr, 0.6);
    hs_chart_set_rgb(cr, 0xffffff, 0.85);
    for (size_t s = 0; s + 1 < ns; s++) {
        for (size_t k = 0; k < np; k++) {
            base[k] += pts->v[k * ns + s];
            double x = hs_chart_xpos(cv, p, pts->t[k]);
            double y = hs_chart_ypos(cv, p, base[k]);
            if (k == 0)
                cairo_move_to(cr, x, y);
            else
                cairo_line_to(cr, x, y);
        }
        cairo_stroke(cr);
    }
}

static void draw_areas(hs_chart_canvas *cv, const hs_chart_panel *p,
                       const hs_chart_selection *sel,
                       const hs_chart_points *pts, const double *peaks)
{
    cairo_t *cr = cv->cr;
    size_t np = pts->npts, ns = pts->nser;
    double *base = hs_calloc(cv->alloc, np ? np : 1, sizeof *base);
    if (!base) {
        cv->status = HS_ERR_NOMEM;
        return;
    }
    cairo_save(cr);
    cairo_rectangle(cr, p->x0, p->y0 - 1, p->x1 - p->x0, p->y1 - p->y0 + 1);
    cairo_clip(cr);
    for (size_t s = 0; s < ns; s++) {
        fill_area(cv, p, pts, base, s);
        for (size_t k = 0; k < np; k++)
            base[k] += pts->v[k * ns + s];
        hs_chart_fill_series(cr, &sel->ser[s], CAIRO_FILL_RULE_EVEN_ODD);
        hs_chart_note_area(cv, &sel->ser[s],
                           peaks ? peaks[s] : sel->ser[s].peak);
    }
    draw_seams(cv, p, pts, base);
    cairo_restore(cr);
    hs_free(cv->alloc, base);
}

static void draw_lines(hs_chart_canvas *cv, const hs_chart_panel *p,
                       const hs_chart_selection *sel,
                       const hs_chart_points *pts)
{
    cairo_t *cr = cv->cr;
    size_t np = pts->npts, ns = pts->nser;
    cairo_save(cr);
    cairo_rectangle(cr, p->x0, p->y0 - 2, p->x1 - p->x0, p->y1 - p->y0 + 4);
    cairo_clip(cr);
    cairo_set_line_width(cr, 1.6);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    for (size_t s = ns; s-- > 0;) {
        for (size_t k = 0; k < np; k++) {
            double x = hs_chart_xpos(cv, p, pts->t[k]);
            double y = hs_chart_ypos(cv, p, pts->v[k * ns + s]);
            if (k == 0)
                cairo_move_to(cr, x, y);
            else
                cairo_line_to(cr, x, y);
        }
        hs_chart_set_rgb(cr, sel->ser[s].colour, 1);
        if (sel->ser[s].hatched) {
            static const double dash[] = {6, 3};
            cairo_set_dash(cr, dash, 2, 0);
        }
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
    }
    cairo_restore(cr);
}

void hs_chart_draw_bands(hs_chart_canvas *cv, const hs_chart_panel *p,
                         const hs_chart_selection *sel,
                         const hs_chart_points *pts, hs_chart_kind kind,
                         const double *peaks)
{
    if (kind == HS_CHART_LINE)
        draw_lines(cv, p, sel, pts);
    else
        draw_areas(cv, p, sel, pts, peaks);
}

double hs_chart_heap_peaks(const hs_census *c, double peak[HS_LINE_COUNT])
{
    double top = 0;
    for (int l = 0; l < HS_LINE_COUNT; l++) {
        const hs_census_point *pt;
        size_t n = hs_census_heap_line(c, (hs_heap_line)l, &pt);
        /* the largest as an integer, then as a double: the same, the
         * conversion being monotonic, without one per point */
        uint64_t most = 0;
        for (size_t i = 0; i < n; i++)
            most = pt[i].bytes > most ? pt[i].bytes : most;
        peak[l] = (double)most;
        if (peak[l] > top)
            top = peak[l];
    }
    return top;
}

/* One vertex per pixel column, the column's largest value (at the time of
 * its first point with that value). The heap line has a point per GC:
 * its columns come from a cursor, with no division per point. */
static void trace_line(hs_chart_canvas *cv, const hs_chart_panel *p,
                       const hs_census_point *pt, size_t n, size_t ncols)
{
    cairo_t *cr = cv->cr;
    hs_chart_col_cursor cols;
    hs_chart_col_cursor_init(&cols, p->t_span, ncols);
    size_t cur = SIZE_MAX;
    uint64_t bx = 0, bmax = 0; /* the column's largest value, bv exactly */
    double bv = -1;
    bool started = false;
    for (size_t i = 0; i <= n; i++) {
        size_t col = i < n ? hs_chart_col_cursor_at(&cols, pt[i].time_ns)
                           : SIZE_MAX;
        if ((col != cur || i == n) && cur != SIZE_MAX) {
            double x = hs_chart_xpos(cv, p, bx / 1e9);
            double y = hs_chart_ypos(cv, p, bv);
            if (!started)
                cairo_move_to(cr, x, y);
            else
                cairo_line_to(cr, x, y);
            started = true;
            bv = -1;
        }
        if (i == n)
            break;
        cur = col;
        /* as (double)bytes > bv alone: the conversion is monotonic, so
         * the integer test only skips points that cannot pass */
        if (bv < 0 || (pt[i].bytes > bmax && (double)pt[i].bytes > bv)) {
            bmax = pt[i].bytes;
            bv = (double)bmax;
            bx = pt[i].time_ns;
        }
    }
}

void hs_chart_draw_heap_lines(hs_chart_canvas *cv, const hs_chart_panel *p,
                              const hs_census *c)
{
    cairo_t *cr = cv->cr;
    size_t ncols = hs_chart_panel_columns(cv, p);
    cairo_save(cr);
    cairo_rectangle(cr, p->x0, p->y0 - 2, p->x1 - p->x0, p->y1 - p->y0 + 4);
    cairo_clip(cr);
    cairo_set_line_width(cr, 1.2);
    for (int l = 0; l < HS_LINE_COUNT; l++) {
        const hs_census_point *pt;
        size_t n = hs_census_heap_line(c, (hs_heap_line)l, &pt);
        if (!n)
            continue;
        trace_line(cv, p, pt, n, ncols);
        const hs_chart_line_style *ls = &hs_chart_line_styles[l];
        if (ls->dash > 0)
            cairo_set_dash(cr, &ls->dash, 1, 0);
        hs_chart_set_rgb(cr, ls->rgb, 0.9);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
    }
    cairo_restore(cr);
}

void hs_chart_draw_markers(hs_chart_canvas *cv, const hs_chart_panel *p,
                           const hs_census *c, double y_bottom)
{
    size_t n = hs_census_marker_count(c);
    if (!n)
        return;
    cairo_t *cr = cv->cr;
    double fs = cv->font * HS_CHART_FS_NOTE, lh = hs_chart_line_height(cv, fs);
    double last_line = -1e9, last_label = -1e9;
    cairo_set_line_width(cr, 0.8);
    for (size_t i = 0; i < n; i++) {
        const hs_census_marker *m = hs_census_marker_at(c, i);
        double t = m->time_ns / 1e9;
        if (t > p->t_span)
            continue;
        double x = round(hs_chart_xpos(cv, p, t)) + 0.5;
        if (x - last_line >= 1 / cv->scale) {
            hs_chart_set_rgb(cr, 0x993333, 0.75);
            cairo_move_to(cr, x, p->y0);
            cairo_line_to(cr, x, y_bottom);
            cairo_stroke(cr);
            last_line = x;
        }
        /* A label only where it does not run into the previous one. */
        if (m->text && m->text[0] && x - last_label >= lh + 1) {
            hs_chart_draw_text_vertical(cv, m->text, x + 1.5, p->y0 + 3, fs,
                                        (p->y1 - p->y0) * 0.6, 0x772222);
            last_label = x;
        }
    }
}
