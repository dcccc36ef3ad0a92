/*
 * Small text helpers every part shows text with: the library's version,
 * the names of status codes, UTF-8 validation and human-readable byte
 * sizes. One copy each, so that
 * the summary's JSON, the events printer, the command line's messages,
 * the chart's legend and the report page agree.
 */
#include "common/internal.h"
#include "heapscope/sink.h"

#include <stdio.h>

const char *hs_version(void)
{
    return HS_VERSION_STRING;
}

unsigned hs_version_number(void)
{
    return HS_VERSION_NUMBER;
}

const char *hs_strerror(int code)
{
    switch (code) {
    case HS_OK: return "success";
    case HS_NEED_INPUT: return "more input needed";
    case HS_EVENT: return "event decoded";
    case HS_DONE: return "end of data";
    case HS_TRUNCATED: return "log truncated";
    case HS_ERR_BAD_MAGIC: return "not an eventlog";
    case HS_ERR_BAD_HEADER: return "malformed eventlog header";
    case HS_ERR_UNDECLARED_TAG: return "event type not declared in the header";
    case HS_ERR_BAD_SIZE: return "absurd size";
    case HS_ERR_MALFORMED_EVENT: return "malformed event";
    case HS_ERR_TRUNCATED_HEADER: return "eventlog header incomplete";
    case HS_ERR_NOMEM: return "out of memory";
    case HS_ERR_IO: return "input/output error";
    case HS_ERR_MISUSE: return "API misuse";
    case HS_ERR_PARSE: return "malformed input";
    case HS_ERR_NO_DATA: return "nothing to report";
    case HS_ERR_INVALID: return "invalid argument";
    default: return "unknown status";
    }
}

size_t hs_utf8_char_len(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t len;
    uint32_t cp;
    if (n == 0)
        return 0;
    if (p[0] < 0x80)
        return 1;
    if (p[0] >= 0xc2 && p[0] <= 0xdf) { len = 2; cp = p[0] & 0x1fu; }
    else if (p[0] >= 0xe0 && p[0] <= 0xef) { len = 3; cp = p[0] & 0x0fu; }
    else if (p[0] >= 0xf0 && p[0] <= 0xf4) { len = 4; cp = p[0] & 0x07u; }
    else return 0; /* a continuation byte, or an overlong 2-byte lead */
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3fu);
    }
    /* overlong 3- and 4-byte forms, UTF-16 surrogates, beyond U+10FFFF */
    if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
        (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
        return 0;
    return len;
}

char *hs_format_bytes(char *buf, size_t size, double v)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB",
                                        "PiB"};
    int u = 0;
    while (v >= 1024 && u < 5) {
        v /= 1024;
        u++;
    }
    /* three significant digits: 812 B, 9.53 KiB, 12.4 MiB, 124 GiB */
    if (u == 0)
        snprintf(buf, size, "%.0f B", v);
    else
        snprintf(buf, size, "%.*f %s", v < 10 ? 2 : v < 100 ? 1 : 0, v,
                 units[u]);
    return buf;
}

int hs_put_escaped(hs_sink *out, const char *name, bool quoted)
{
    char buf[256];
    size_t len = 0;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        if (len > sizeof buf - 5) {
            int st = hs_sink_write(out, buf, len);
            if (st < 0)
                return st;
            len = 0;
        }
        if (*p < 0x20 || *p == 0x7f || *p == '\\' || (quoted && *p == '"'))
            len += (size_t)snprintf(buf + len, 5, "\\x%02x", *p);
        else
            buf[len++] = (char)*p;
    }
    return hs_sink_write(out, buf, len);
}

const char *hs_breakdown_flag(uint32_t b)
{
    static const char *const flags[] = {"h?", "hc", "hm", "hd", "hy",
                                        "hr", "hb", "hT", "hi", "he"};
    return b < sizeof flags / sizeof flags[0] ? flags[b] : "h?";
}

const char *hs_breakdown_name(uint32_t b)
{
    static const char *const names[] = {
        "unknown breakdown", "cost centre stack", "module",
        "closure description", "type description", "retainer set",
        "biography", "closure type", "info table", "era"};
    return b < sizeof names / sizeof names[0] ? names[b] : names[0];
}
