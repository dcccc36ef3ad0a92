/*
 * What a band looks like and whether the chart options keep it: the parts
 * of the chart's choices that need no cairo, shared by the chart, the diff
 * chart and the report page (which colours and filters bands as the chart
 * does, also in builds without charts).
 */
#include "render/band_look.h"

#include <fnmatch.h>
#include <limits.h>
#include <string.h>

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

static bool pattern_match(const char *pat, const char *name)
{
    if (strpbrk(pat, "*?["))
        return fnmatch(pat, name, 0) == 0;
    return strstr(name, pat) != NULL;
}

static bool any_match(const char *const *pats, const char *name)
{
    for (; pats && *pats; pats++)
        if (pattern_match(*pats, name))
            return true;
    return false;
}

bool hs_chart_band_filtered(const hs_chart_options *opt, const char *name)
{
    if (!opt)
        return false;
    if (opt->include && opt->include[0] && !any_match(opt->include, name))
        return true;
    return any_match(opt->exclude, name);
}
