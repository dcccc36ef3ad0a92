/*
 * The chart's defaults, in every build (with or without cairo and pango):
 * the page's starting state and the command line's defaults come from
 * here, so each is written once.
 */
#include "heapscope/render.h"

#include "common/internal.h"

void hs_chart_options_init_size(hs_chart_options *opt, size_t size)
{
    const hs_chart_options def = {.size = sizeof def,
                                  .format = HS_CHART_SVG,
                                  .kind = HS_CHART_AREA,
                                  .sort = HS_SORT_SIZE,
                                  .bands = 15};
    hs__options_fill(opt, size, &def, sizeof def);
}
