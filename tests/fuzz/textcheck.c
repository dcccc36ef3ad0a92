/*
 * Well-formedness checks of the texts the live mode serves (JSON,
 * Prometheus), shared by the fuzz targets. Built without the fuzzer's
 * coverage instrumentation (tests/meson.build): what the checker's
 * branches do says nothing of heapscope, and instrumented they took a
 * third of fuzz_live's time.
 */
#include "textcheck.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* A JSON value (strings valid UTF-8: band names come from the log and
 * need not be, but what heapscope writes must be); returns the end or
 * NULL. */
static const char *json_value(const char *p, const char *end, int depth);

static const char *json_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
        p++;
    return p;
}

static const char *json_str(const char *p, const char *end)
{
    if (p >= end || *p != '"')
        return NULL;
    for (p++; p < end; p++) {
        unsigned char ch = (unsigned char)*p;
        if (ch == '"')
            return p + 1;
        if (ch < 0x20)
            return NULL;
        if (ch >= 0x80) {
            size_t k = hs_utf8_char_len(p, (size_t)(end - p));
            if (!k)
                return NULL;
            p += k - 1;
        } else if (ch == '\\') {
            if (++p >= end)
                return NULL;
            if (*p == 'u') {
                for (int k = 0; k < 4; k++)
                    if (++p >= end || !isxdigit((unsigned char)*p))
                        return NULL;
            } else if (!memchr("\"\\/bfnrt", *p, 8)) {
                return NULL;
            }
        }
    }
    return NULL;
}

static const char *json_seq(const char *p, const char *end, int depth,
                            char close, bool keyed)
{
    p = json_ws(p + 1, end);
    if (p < end && *p == close)
        return p + 1;
    for (;;) {
        if (keyed) {
            if (!(p = json_str(p, end)))
                return NULL;
            p = json_ws(p, end);
            if (p >= end || *p != ':')
                return NULL;
            p++;
        }
        if (!(p = json_value(p, end, depth + 1)))
            return NULL;
        p = json_ws(p, end);
        if (p < end && *p == close)
            return p + 1;
        if (p >= end || *p != ',')
            return NULL;
        p = json_ws(p + 1, end);
    }
}

static const char *json_value(const char *p, const char *end, int depth)
{
    p = json_ws(p, end);
    if (p >= end || depth > 64)
        return NULL;
    if (*p == '{' || *p == '[')
        return json_seq(p, end, depth, *p == '{' ? '}' : ']', *p == '{');
    if (*p == '"')
        return json_str(p, end);
    static const char *const words[] = {"true", "false", "null"};
    for (int k = 0; k < 3; k++) {
        size_t n = strlen(words[k]);
        if ((size_t)(end - p) >= n && memcmp(p, words[k], n) == 0)
            return p + n;
    }
    const char *q = p;
    if (q < end && *q == '-')
        q++;
    const char *digits = q;
    while (q < end && *q && strchr("0123456789.eE+-", *q))
        q++;
    return q > digits ? q : NULL;
}

void check_json(const hs_membuf *m)
{
    const char *end = m->data + m->len;
    const char *p = json_value(m->data, end, 0);
    CHECK(p != NULL);
    CHECK(json_ws(p, end) == end);
}

static bool metric_name_char(char ch, bool first)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
           ch == '_' || ch == ':' || (!first && ch >= '0' && ch <= '9');
}

/* The length of the UTF-8 character at p in a label value; traps when
 * there is none (the format wants UTF-8 and has no byte escape). */
static size_t label_char(const char *p, const char *eol)
{
    size_t k = hs_utf8_char_len(p, (size_t)(eol - p));
    CHECK(k > 0);
    return k;
}

/* Prometheus text: comment lines, or NAME{LABEL="VALUE",...} NUMBER with
 * backslash, quote and line feed escaped in label values, which are
 * UTF-8. */
void check_prometheus(const hs_membuf *m)
{
    const char *p = m->data, *end = m->data + m->len;
    CHECK(m->len > 0 && end[-1] == '\n');
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        CHECK(eol != NULL);
        if (*p == '#') {
            CHECK(strncmp(p, "# HELP heapscope_", 17) == 0 ||
                  strncmp(p, "# TYPE heapscope_", 17) == 0);
            p = eol + 1;
            continue;
        }
        CHECK(metric_name_char(*p, true));
        while (p < eol && metric_name_char(*p, false))
            p++;
        if (p < eol && *p == '{') {
            do {
                p++;
                CHECK(p < eol && metric_name_char(*p, true));
                while (p < eol && metric_name_char(*p, false))
                    p++;
                CHECK(p + 1 < eol && p[0] == '=' && p[1] == '"');
                for (p += 2; p < eol && *p != '"'; p++) {
                    if (*p == '\\')
                        CHECK(++p < eol && memchr("\\\"n", *p, 3));
                    else if ((unsigned char)*p >= 0x80)
                        p += label_char(p, eol) - 1;
                }
                CHECK(p < eol);
                p++;
            } while (p < eol && *p == ',');
            CHECK(p < eol && *p == '}');
            p++;
        }
        CHECK(p < eol && *p == ' ');
        char *num_end;
        (void)strtod(p + 1, &num_end);
        CHECK(num_end == eol && num_end > p + 1);
        p = eol + 1;
    }
}
