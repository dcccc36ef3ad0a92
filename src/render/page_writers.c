/*
 * The page data's small JSON writers (page_internal.h), through the one
 * JSON writer for strings.
 */
#include "render/page_internal.h"
#include "common/json.h"

#include <math.h>
#include <stdio.h>

#define out_cstr hs__page_out_cstr

void hs__page_out_double(hs_outbuf *o, double v)
{
    char b[40];
    if (!isfinite(v))
        v = 0;
    int n = snprintf(b, sizeof b, "%.7g", v);
    hs_outbuf_write(o, b, (size_t)n);
}

void hs__page_out_key(hs_outbuf *o, const char *key)
{
    hs_outbuf_putc(o, '"');
    hs_outbuf_puts(o, key);
    hs_outbuf_puts(o, "\":");
}

void hs__page_out_cstr(hs_outbuf *o, const char *s)
{
    hs_json_outbuf_string(o, s, s ? strlen(s) : 0);
}

void hs__page_out_strlist(hs_outbuf *o, const char *const *l)
{
    hs_outbuf_putc(o, '[');
    for (size_t i = 0; l && l[i]; i++) {
        if (i)
            hs_outbuf_putc(o, ',');
        out_cstr(o, l[i]);
    }
    hs_outbuf_putc(o, ']');
}

/* n strings as a JSON array. */
void hs__page_out_strarray(hs_outbuf *o, const char *const *f, size_t n)
{
    hs_outbuf_putc(o, '[');
    for (size_t k = 0; k < n; k++) {
        if (k)
            hs_outbuf_putc(o, ',');
        out_cstr(o, f[k]);
    }
    hs_outbuf_putc(o, ']');
}
