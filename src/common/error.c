/*
 * The one way the library fills an hs_error (common.h): every part's
 * objects (reader, census, summary, live) and every call that reports
 * into its caller's hs_error go through hs__error_set, so the first-error
 * contract is written once.
 */
#include "common/internal.h"

#include <stdarg.h>
#include <stdio.h>

void hs__error_clear(hs_error *e)
{
    if (!e)
        return;
    memset(e, 0, sizeof *e);
    e->event_index = HS_NO_EVENT;
}

/* A record of HS_OK or of a warning (a truncated input: it describes
 * where the input stops now) takes the new one; an error stays, out of
 * memory included: the first error is the one that explains. */
static bool takes(const hs_error *e)
{
    return e->code >= HS_OK;
}

int hs__error_vset(hs_error *e, int code, const hs_error_at *at,
                   const char *fmt, va_list ap)
{
    if (!e || !takes(e))
        return code;
    hs__error_clear(e);
    e->code = code;
    if (at) {
        e->offset = at->offset;
        e->event_index = at->event_index;
        e->line = at->line;
    }
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    return code;
}

int hs__error_set(hs_error *e, int code, const hs_error_at *at,
                  const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    hs__error_vset(e, code, at, fmt, ap);
    va_end(ap);
    return code;
}
