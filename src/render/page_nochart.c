/*
 * Builds without cairo and pango have no chart renderer, but their pages
 * still colour and filter bands as the chart would: the chart's palette
 * and style choice (chart_style.c) and its --include/--exclude matching
 * (chart_select.c), which need cairo there, without it here. Keep the two
 * in step.
 */
#include "render/page_internal.h"

#include <fnmatch.h>
#include <limits.h>

static const uint32_t palette[] = {
    0xcc6677, 0x332288, 0xddcc77, 0x117733, 0x88ccee, 0x882255,
    0x44aa99, 0x999933, 0xaa4499, 0x0077bb, 0xee7733,
};
#define NPALETTE (sizeof palette / sizeof palette[0])

void hs_chart_style_pick(const char *name, unsigned used[HS_PAGE_NSTYLES],
                         uint32_t *colour, bool *hatched)
{
    uint32_t h = 2166136261u;
    for (const char *s = name; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    unsigned want = (unsigned)(h % NPALETTE) +
                    (unsigned)NPALETTE * ((h / NPALETTE) % 2);
    unsigned best = want, best_score = UINT_MAX;
    for (unsigned k = 0; k < HS_PAGE_NSTYLES && best_score; k++) {
        unsigned cand = (want + k) % HS_PAGE_NSTYLES;
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

static bool any_match(const char *const *pats, const char *name)
{
    for (; pats && *pats; pats++)
        if (strpbrk(*pats, "*?[") ? fnmatch(*pats, name, 0) == 0
                                  : strstr(name, *pats) != NULL)
            return true;
    return false;
}

bool hs_chart_band_filtered(const hs_chart_options *opt, const char *name)
{
    if (opt->include && opt->include[0] && !any_match(opt->include, name))
        return true;
    return any_match(opt->exclude, name);
}
