/*
 * JSON string literals: the escaping every JSON renderer needs, in one
 * place.
 */
#include "common/json.h"
#include "heapscope/common.h"

#include <math.h>
#include <string.h>

int hs_json_string(hs_sink *out, const char *p, size_t n)
{
    if (!p)
        return hs_sink_write(out, "null", 4);
    /* escaped bytes gather here and go to the sink in pieces */
    char buf[512];
    size_t len = 0;
    const unsigned char *u = (const unsigned char *)p;
    buf[len++] = '"';
    for (size_t i = 0; i < n;) {
        if (len > sizeof buf - 8) {
            if (hs_sink_write(out, buf, len) != HS_OK)
                return HS_ERR_IO;
            len = 0;
        }
        unsigned char c = u[i];
        size_t k = c >= 0x80 ? hs_utf8_char_len(p + i, n - i) : 1;
        if (c == '"' || c == '\\') {
            buf[len++] = '\\';
            buf[len++] = (char)c;
        } else if (c < 0x20 || c == 0x7f) {
            static const char hex[] = "0123456789abcdef";
            memcpy(buf + len, "\\u00", 4);
            buf[len + 4] = hex[c >> 4];
            buf[len + 5] = hex[c & 15];
            len += 6;
        } else if (k == 0) {
            memcpy(buf + len, "\\ufffd", 6);
            len += 6;
            k = 1;
        } else {
            memcpy(buf + len, u + i, k);
            len += k;
        }
        i += k;
    }
    buf[len++] = '"';
    return hs_sink_write(out, buf, len);
}

int hs_json_cstring(hs_sink *out, const char *s)
{
    return hs_json_string(out, s, s ? strlen(s) : 0);
}

int hs_json_number(hs_sink *out, double v, int decimals)
{
    if (!isfinite(v))
        return hs_sink_write(out, "null", 4);
    return hs_sink_printf(out, "%.*f", decimals, v);
}
