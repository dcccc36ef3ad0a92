/*
 * Chart styles: the colour-blind-safe palette, the style each band gets
 * from its name, hatched fills, and the heap lines' looks.
 */
#include "render/chart_internal.h"

#include <limits.h>
#include <math.h>

/*
 * A palette readers with any common colour-vision deficiency can tell
 * apart: Paul Tol's "muted" scheme plus the blue and orange of his
 * "vibrant" one. Each band's style is a hash of its name: one of these
 * hues, plain or hatched (dashed in line charts), so a band keeps its look
 * across runs and across charts. Eleven hues are fewer than the bands of a
 * chart; hatching doubles the styles, and neighbours that still draw the
 * same style are told apart by the thin white seam drawn between areas.
 * OTHER is grey, which no band gets.
 */
static const uint32_t palette[] = {
    0xcc6677, 0x332288, 0xddcc77, 0x117733, 0x88ccee, 0x882255,
    0x44aa99, 0x999933, 0xaa4499, 0x0077bb, 0xee7733,
};
#define NPALETTE (sizeof palette / sizeof palette[0])

_Static_assert(HS_CHART_NSTYLES == 2 * NPALETTE, "plain and hatched styles");

const hs_chart_line_style hs_chart_line_styles[HS_LINE_COUNT] = {
    {"heap size", 0x222222, 0},
    {"live bytes", 0x222222, 5},
    {"blocks size", 0x666666, 2},
};

static uint32_t fnv1a(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 16777619u;
    }
    return h;
}

/*
 * Bands claim styles in rank order (largest first); a band whose preferred
 * style is taken, or whose hue another band already wears, takes the next
 * style that is least used, hue first: hues run out before hatched
 * variants are shared, no two shown bands look alike while there are
 * styles left, and the large bands, which claim first, keep their own.
 */
void hs_chart_style_pick(const char *name, unsigned used[HS_CHART_NSTYLES],
                         uint32_t *colour, bool *hatched)
{
    uint32_t h = fnv1a(name);
    unsigned want = (unsigned)(h % NPALETTE) +
                    (unsigned)NPALETTE * ((h / NPALETTE) % 2);
    unsigned best = want, best_score = UINT_MAX;
    for (unsigned k = 0; k < HS_CHART_NSTYLES && best_score; k++) {
        unsigned cand = (want + k) % HS_CHART_NSTYLES;
        unsigned hue = cand % NPALETTE;
        unsigned score = used[cand] * 1000 + used[hue] + used[hue + NPALETTE];
        if (score < best_score) {
            best = cand;
            best_score = score;
        }
    }
    used[best]++;
    *colour = palette[best % NPALETTE];
    *hatched = best >= NPALETTE;
}

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
