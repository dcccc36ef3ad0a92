/*
 * The diff chart in a build without cairo and pango: refused, as
 * hs_render_chart is (hs_chart_available() says false).
 */
#include "heapscope/diff.h"

#include <string.h>

int hs_render_diff_chart(const hs_diff *d, hs_sink *out,
                         const hs_diff_chart_options *opt)
{
    (void)d;
    (void)out;
    (void)opt;
    return HS_ERR_INVALID;
}
