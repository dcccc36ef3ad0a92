/*
 * Chart axes: round tick steps in human units, the mapping of a panel's
 * time and value to positions, and the grid lines and tick labels.
 */
#include "render/chart_internal.h"

#include <math.h>
#include <stdio.h>

/* 1, 2, 2.5 or 5 times a power of ten, at least range / target. */
static double nice_step(double range, double target)
{
    if (!(range > 0))
        return 1;
    if (target < 1)
        target = 1;
    double raw = range / target;
    double mag = pow(10, floor(log10(raw)));
    double f = raw / mag;
    double n = f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10;
    return n * mag;
}

/* Decimals needed to print multiples of step exactly. */
static int step_decimals(double step)
{
    for (int d = 0; d < 4; d++) {
        double v = step * pow(10, d);
        if (fabs(v - round(v)) < 1e-6 * (v > 1 ? v : 1))
            return d;
    }
    return 4;
}

static void fmt_tick(char *buf, size_t n, double v, double step,
                     const char *unit)
{
    int d = step_decimals(step);
    if (v == 0)
        snprintf(buf, n, "0");
    else if (unit)
        snprintf(buf, n, "%.*f %s", d, v, unit);
    else
        snprintf(buf, n, "%.*f", d, v);
}

/* The first multiple of step at least 4% above v (v >= 0): a band that
 * reaches the maximum never runs flat along the plot's top edge, as the
 * page's axis (format.mjs's yAxisTop). */
static double top_above(double v, double step)
{
    return ceil(v * 1.04 / step - 1e-9) * step;
}

static const char *const byte_units[] = {"B", "KiB", "MiB", "GiB", "TiB",
                                         "PiB"};

void hs_chart_value_axis(hs_chart_axis *ax, double vmax, double length,
                         double font, bool percent)
{
    if (percent) {
        ax->unit = 0.01;
        ax->unit_name = "%";
        ax->step = 20;
        ax->top = 100;
        return;
    }
    double v = vmax > 0 ? vmax : 1;
    int u = 0;
    ax->unit = 1;
    while (v / ax->unit >= 1024 && u < 5) {
        ax->unit *= 1024;
        u++;
    }
    ax->unit_name = byte_units[u];
    double vmax_u = v / ax->unit;
    ax->step = nice_step(vmax_u, length / (font * 4));
    ax->top = top_above(vmax_u, ax->step);
    if (ax->top <= 0)
        ax->top = ax->step;
    ax->bottom = 0;
}

void hs_chart_value_axis_signed(hs_chart_axis *ax, double vmin, double vmax,
                                double length, double font)
{
    vmin = vmin < 0 ? vmin : 0;
    vmax = vmax > 0 ? vmax : 0;
    /* the unit and step of the whole range, so both ends read alike */
    hs_chart_value_axis(ax, vmax - vmin, length, font, false);
    ax->top = top_above(vmax / ax->unit, ax->step);
    ax->bottom = floor(vmin / ax->unit / ax->step + 1e-9) * ax->step;
    if (ax->top <= ax->bottom)
        ax->top = ax->bottom + ax->step;
}

void hs_chart_time_axis(hs_chart_axis *ax, double t_end, double length,
                        double font, bool normalised)
{
    if (normalised) {
        ax->unit = 0.01;
        ax->unit_name = "%";
    } else if (t_end < 1) {
        ax->unit = 1e-3;
        ax->unit_name = "ms";
    } else if (t_end < 300) {
        ax->unit = 1;
        ax->unit_name = "s";
    } else if (t_end < 3 * 3600) {
        ax->unit = 60;
        ax->unit_name = "min";
    } else {
        ax->unit = 3600;
        ax->unit_name = "h";
    }
    double end_u = (t_end > 0 ? t_end : 1) / ax->unit;
    ax->step = nice_step(end_u, length / (font * 7));
    ax->top = ceil(end_u / ax->step - 1e-9) * ax->step;
    ax->bottom = 0;
}

double hs_chart_axis_end(const hs_chart_axis *ax)
{
    return ax->top * ax->unit;
}

double hs_chart_axis_start(const hs_chart_axis *ax)
{
    return ax->bottom * ax->unit;
}

double hs_chart_axis_label_width(hs_chart_canvas *cv, const hs_chart_axis *ax,
                                 double fs)
{
    char buf[64];
    fmt_tick(buf, sizeof buf, ax->top, ax->step, ax->unit_name);
    double w = hs_chart_text_width(cv, buf, fs, false);
    if (ax->bottom < 0) {
        fmt_tick(buf, sizeof buf, ax->bottom, ax->step, ax->unit_name);
        double wb = hs_chart_text_width(cv, buf, fs, false);
        w = wb > w ? wb : w;
    }
    return w;
}

/* Positions snap to an eighth of a device pixel: invisible, and it keeps
 * the numbers in SVG and PDF paths short. */
static double snap(const hs_chart_canvas *cv, double v)
{
    return round(v * 8 * cv->scale) / (8 * cv->scale);
}

double hs_chart_xpos(const hs_chart_canvas *cv, const hs_chart_panel *p,
                     double seconds)
{
    double span = p->t_span > 0 ? p->t_span : 1;
    return snap(cv, p->x0 + seconds / span * (p->x1 - p->x0));
}

double hs_chart_ypos(const hs_chart_canvas *cv, const hs_chart_panel *p,
                     double v)
{
    double range = p->ytop - p->ybottom;
    if (!(range > 0))
        range = 1;
    return snap(cv, p->y1 - (v - p->ybottom) / range * (p->y1 - p->y0));
}

size_t hs_chart_panel_columns(const hs_chart_canvas *cv,
                              const hs_chart_panel *p)
{
    double n = ceil((p->x1 - p->x0) * cv->scale);
    return n < 2 ? 2 : (size_t)n;
}

void hs_chart_draw_value_axis(hs_chart_canvas *cv, const hs_chart_panel *p,
                              const hs_chart_axis *ax)
{
    cairo_t *cr = cv->cr;
    double fs = cv->font * HS_CHART_FS_TEXT, lh = hs_chart_line_height(cv, fs);
    char buf[64];
    cairo_set_line_width(cr, 1);
    size_t nticks = (size_t)floor((ax->top - ax->bottom) / ax->step + 0.5);
    hs_chart_panel scaled = *p;
    scaled.ytop = hs_chart_axis_end(ax);
    scaled.ybottom = hs_chart_axis_start(ax);
    for (size_t i = 0; i <= nticks; i++) {
        double v = ax->bottom + (double)i * ax->step;
        if (fabs(v) < ax->step * 1e-6)
            v = 0;
        double y = round(hs_chart_ypos(cv, &scaled, v * ax->unit)) + 0.5;
        hs_chart_set_rgb(cr, v != 0 ? 0xe4e4e4 : 0x888888, 1);
        cairo_move_to(cr, p->x0, y);
        cairo_line_to(cr, p->x1, y);
        cairo_stroke(cr);
        fmt_tick(buf, sizeof buf, v, ax->step, ax->unit_name);
        hs_chart_draw_text(cv, buf, p->x0 - 6, y - lh / 2, fs, false, 0,
                           HS_ALIGN_RIGHT, 0x444444);
    }
}

/* The x position of time tick i of ax in p. */
static double tick_x(const hs_chart_canvas *cv, const hs_chart_panel *p,
                     const hs_chart_axis *ax, size_t i)
{
    hs_chart_panel scaled = *p;
    scaled.t_span = hs_chart_axis_end(ax);
    return round(hs_chart_xpos(cv, &scaled, (double)i * ax->step * ax->unit))
           + 0.5;
}

static size_t time_ticks(const hs_chart_axis *ax)
{
    return (size_t)floor(ax->top / ax->step + 1e-9);
}

void hs_chart_draw_time_grid(hs_chart_canvas *cv, const hs_chart_panel *p,
                             const hs_chart_axis *ax)
{
    cairo_t *cr = cv->cr;
    cairo_set_line_width(cr, 1);
    size_t nx = time_ticks(ax);
    for (size_t i = 0; i <= nx; i++) {
        double x = tick_x(cv, p, ax, i);
        hs_chart_set_rgb(cr, i ? 0xeeeeee : 0x888888, 1);
        cairo_move_to(cr, x, p->y0);
        cairo_line_to(cr, x, p->y1);
        cairo_stroke(cr);
    }
}

void hs_chart_draw_time_labels(hs_chart_canvas *cv, const hs_chart_panel *p,
                               const hs_chart_axis *ax, const char *title)
{
    double fs = cv->font * HS_CHART_FS_TEXT, lh = hs_chart_line_height(cv, fs);
    char buf[64];
    size_t nx = time_ticks(ax);
    for (size_t i = 0; i <= nx; i++) {
        fmt_tick(buf, sizeof buf, (double)i * ax->step, ax->step, NULL);
        hs_chart_draw_text(cv, buf, tick_x(cv, p, ax, i), p->y1 + 4, fs,
                           false, 0, HS_ALIGN_CENTER, 0x444444);
    }
    if (!title)
        return;
    snprintf(buf, sizeof buf, "%s (%s)", title, ax->unit_name);
    hs_chart_draw_text(cv, buf, (p->x0 + p->x1) / 2, p->y1 + 6 + lh, fs,
                       false, 0, HS_ALIGN_CENTER, 0x444444);
}
