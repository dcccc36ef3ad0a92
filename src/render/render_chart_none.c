/*
 * The chart renderer in a build without cairo and pango: it says so.
 */
#include "heapscope/render.h"
#include "common/internal.h"

#include <string.h>

bool hs_chart_available(void) { return false; }

int hs_chart_check(hs_error *err)
{
    hs__error_clear(err);
    return hs__error_set(err, HS_ERR_INVALID, NULL,
                         "this build has no charts");
}

int hs_chart_prepare(const hs_chart_options *const *opts, size_t n,
                     hs_error *err)
{
    (void)opts;
    (void)n;
    return hs_chart_check(err);
}

int hs_render_chart(const hs_census *c, hs_sink *out,
                    const hs_chart_options *opt)
{
    (void)c;
    (void)out;
    (void)opt;
    return HS_ERR_INVALID;
}
