/*
 * Chart styles drawn with cairo: hatched fills and the heap lines' looks.
 * The palette and the style each band gets from its name are in
 * band_look.c, which builds without cairo too.
 */
#include "render/chart_internal.h"

#include <math.h>

const hs_chart_line_style hs_chart_line_styles[HS_LINE_COUNT] = {
    {"heap size", 0x222222, 0},
    {"live bytes", 0x222222, 5},
    {"blocks size", 0x666666, 2},
};

void hs_chart_set_rgb(cairo_t *cr, uint32_t rgb, double alpha)
{
    cairo_set_source_rgba(cr, ((rgb >> 16) & 0xff) / 255.0,
                          ((rgb >> 8) & 0xff) / 255.0, (rgb & 0xff) / 255.0,
                          alpha);
}

/*
 * Stripes are drawn as lines, not as a pattern: cairo 1.16 leaks the
 * recording surfaces that vector patterns need, and lines stay crisp at
 * any zoom.
 */
void hs_chart_fill_series(cairo_t *cr, const hs_chart_series *s,
                          cairo_fill_rule_t rule)
{
    hs_chart_set_rgb(cr, s->colour, 1);
    cairo_set_fill_rule(cr, rule);
    if (!s->hatched) {
        cairo_fill(cr);
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
        return;
    }
    cairo_fill_preserve(cr);
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
    double x0, y0, x1, y1;
    cairo_path_extents(cr, &x0, &y0, &x1, &y1);
    cairo_save(cr);
    cairo_clip(cr);
    const double step = 6;
    /* lines x + y = c, with c on a fixed grid so that stripes line up
     * between neighbouring areas */
    double c0 = floor((x0 + y0) / step) * step;
    for (double c = c0; c <= x1 + y1 + step; c += step) {
        cairo_move_to(cr, c - y1, y1);
        cairo_line_to(cr, c - y0, y0);
    }
    cairo_set_source_rgba(cr, 1, 1, 1, 0.55);
    cairo_set_line_width(cr, 1.4);
    cairo_stroke(cr);
    cairo_restore(cr);
}
