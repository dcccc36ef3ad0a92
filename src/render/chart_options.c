/*
 * The chart's defaults, in every build (with or without cairo and pango):
 * the page's starting state and the command line's defaults come from
 * here, so each is written once.
 */
#include "heapscope/render.h"

#include <string.h>

void hs_chart_options_init(hs_chart_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->format = HS_CHART_SVG;
    opt->kind = HS_CHART_AREA;
    opt->sort = HS_SORT_SIZE;
    opt->bands = 15;
}
