/*
 * Strings in the texts machines read, each by one rule in one place: JSON
 * string literals (every JSON writer: summary, diff, live, the page's
 * data) and Prometheus label values (/metrics). Band names come from the
 * log and need not be UTF-8: both rules validate it and give a byte that
 * does not begin a valid UTF-8 character as U+FFFD, one per byte.
 */
#include "common/json.h"
#include "common/internal.h"
#include "heapscope/common.h"

#include <math.h>
#include <string.h>

/* U+FFFD as it stands in JSON, and as UTF-8 where no escape exists. */
#define JSON_REPLACEMENT "\\ufffd"
#define UTF8_REPLACEMENT "\xef\xbf\xbd"

/* The JSON form of the character at p[0..n) (n > 0) into e (at most 6
 * bytes); returns its length and sets *used to the input bytes it
 * stands for. */
static size_t json_char(const unsigned char *p, size_t n, char e[6],
                        size_t *used)
{
    static const char hex[] = "0123456789abcdef";
    unsigned char c = p[0];
    *used = 1;
    if (c == '"' || c == '\\') {
        e[0] = '\\';
        e[1] = (char)c;
        return 2;
    }
    if (c < 0x20 || c == 0x7f) {
        memcpy(e, "\\u00", 4);
        e[4] = hex[c >> 4];
        e[5] = hex[c & 15];
        return 6;
    }
    size_t k = c < 0x80 ? 1 : hs_utf8_char_len((const char *)p, n);
    if (k == 0) {
        memcpy(e, JSON_REPLACEMENT, 6);
        return 6;
    }
    memcpy(e, p, k);
    *used = k;
    return k;
}

/* Escapes p[*at..n) into buf (cap >= 6) until the string ends or the
 * next character might not fit; returns the bytes written. */
static size_t json_chunk(const char *p, size_t n, size_t *at, char *buf,
                         size_t cap)
{
    const unsigned char *u = (const unsigned char *)p;
    size_t len = 0, used;
    while (*at < n && cap - len >= 6) {
        len += json_char(u + *at, n - *at, buf + len, &used);
        *at += used;
    }
    return len;
}

int hs_json_string(hs_sink *out, const char *p, size_t n)
{
    if (!p)
        return hs_sink_write(out, "null", 4);
    /* escaped bytes gather here and go to the sink in pieces */
    char buf[512];
    size_t len = 0, at = 0;
    buf[len++] = '"';
    for (;;) {
        /* one byte kept for the closing quote */
        len += json_chunk(p, n, &at, buf + len, sizeof buf - 1 - len);
        if (at == n)
            break;
        if (hs_sink_write(out, buf, len) != HS_OK)
            return HS_ERR_IO;
        len = 0;
    }
    buf[len++] = '"';
    return hs_sink_write(out, buf, len);
}

int hs_json_cstring(hs_sink *out, const char *s)
{
    return hs_json_string(out, s, s ? strlen(s) : 0);
}

void hs_json_outbuf_string(hs_outbuf *o, const char *p, size_t n)
{
    if (!p) {
        hs_outbuf_write(o, "null", 4);
        return;
    }
    char buf[256];
    size_t at = 0;
    hs_outbuf_putc(o, '"');
    while (at < n)
        hs_outbuf_write(o, buf, json_chunk(p, n, &at, buf, sizeof buf));
    hs_outbuf_putc(o, '"');
}

int hs_json_number(hs_sink *out, double v, int decimals)
{
    if (!isfinite(v))
        return hs_sink_write(out, "null", 4);
    return hs_sink_printf(out, "%.*f", decimals, v);
}

int hs_prom_label_value(hs_sink *out, const char *s)
{
    const char *run = s; /* bytes that pass as they are, not yet written */
    const char *p = s;
    size_t left = strlen(s);
    while (left) {
        unsigned char c = (unsigned char)*p;
        const char *rep = c == '\\' ? "\\\\" : c == '"' ? "\\\""
                          : c == '\n' ? "\\n" : NULL;
        size_t k = c < 0x80 ? 1 : hs_utf8_char_len(p, left);
        if (!rep && k) {
            p += k;
            left -= k;
            continue;
        }
        if (hs_sink_write(out, run, (size_t)(p - run)) != HS_OK ||
            hs_sink_write(out, rep ? rep : UTF8_REPLACEMENT,
                          rep ? 2 : 3) != HS_OK)
            return HS_ERR_IO;
        p++;
        left--;
        run = p;
    }
    return hs_sink_write(out, run, (size_t)(p - run));
}
