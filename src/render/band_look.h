/*
 * Band looks and filters shared by the chart, the diff chart and the page
 * (band_look.c). Not part of the public surface; needs no cairo.
 */
#ifndef HEAPSCOPE_BAND_LOOK_H
#define HEAPSCOPE_BAND_LOOK_H

#include "heapscope/render.h"

#include <stdbool.h>
#include <stdint.h>

#define HS_CHART_NSTYLES 22          /* 11 hues, plain or hatched */
#define HS_CHART_OTHER_COLOUR 0xbbbbbbu

/*
 * The style of a band named `name`: a function of the name when free, else
 * the least used one; used[] counts the claims (zero it per chart, claim
 * in rank order, largest band first). colour is 0xrrggbb.
 */
void hs_chart_style_pick(const char *name, unsigned used[HS_CHART_NSTYLES],
                         uint32_t *colour, bool *hatched);

/* Whether opt's include/exclude lists (substrings, or globs when they hold
 * *, ? or [) drop a band named `name`; never for a NULL opt. */
bool hs_chart_band_filtered(const hs_chart_options *opt, const char *name);

#endif
