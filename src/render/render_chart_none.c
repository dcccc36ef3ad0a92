/*
 * The chart renderer in a build without cairo and pango: it says so.
 */
#include "heapscope/render.h"

#include <string.h>

bool hs_chart_available(void) { return false; }

int hs_chart_check(hs_error *err)
{
    if (err) {
        memset(err, 0, sizeof *err);
        err->code = HS_ERR_INVALID;
        err->event_index = UINT64_MAX;
        strcpy(err->message, "this build has no charts");
    }
    return HS_ERR_INVALID;
}

int hs_render_chart(const hs_census *c, hs_sink *out,
                    const hs_chart_options *opt)
{
    (void)c;
    (void)out;
    (void)opt;
    return HS_ERR_INVALID;
}
