/*
 * Tests of the one JSON string writer and the one Prometheus label-value
 * escaper (src/common/json.h), which every machine-read text uses: valid
 * UTF-8 passes, the format's own characters are escaped, and each byte
 * that does not begin a valid UTF-8 character becomes U+FFFD, so any band
 * name gives valid JSON and a label value promtool accepts. Linked from
 * the library's objects: the writers are not public.
 */
#include <heapscope/heapscope.h>

#include "common/internal.h"
#include "common/json.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define FFFD "\xef\xbf\xbd"

typedef struct {
    const char *in;
    size_t n;       /* 0: strlen(in) */
    const char *json;
    const char *prom;
} text_case;

static const text_case cases[] = {
    {"", 0, "\"\"", ""},
    {"plain ASCII", 0, "\"plain ASCII\"", "plain ASCII"},
    {"q\"b\\n\nt\tr\r", 0, "\"q\\\"b\\\\n\\u000at\\u0009r\\u000d\"",
     "q\\\"b\\\\n\\nt\tr\r"},
    {"\x01\x1f\x7f", 0, "\"\\u0001\\u001f\\u007f\"", "\x01\x1f\x7f"},
    {"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf", 0,
     "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\"",
     "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf"},
    /* a continuation byte alone, bytes never in UTF-8 */
    {"a\x80" "b\xff\xfe", 0, "\"a\\ufffdb\\ufffd\\ufffd\"",
     "a" FFFD "b" FFFD FFFD},
    /* a lead byte cut short, by another character or by the end */
    {"\xc3(\xe2\x82", 0, "\"\\ufffd(\\ufffd\\ufffd\"", FFFD "(" FFFD FFFD},
    /* overlong forms, a surrogate, beyond U+10FFFF */
    {"\xc0\xaf\xe0\x80\xaf", 0,
     "\"\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\"",
     FFFD FFFD FFFD FFFD FFFD},
    {"\xed\xa0\x80\xf4\x90\x80\x80", 0,
     "\"\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\"",
     FFFD FFFD FFFD FFFD FFFD FFFD FFFD},
    /* a NUL inside a counted JSON string */
    {"a\0b", 3, "\"a\\u0000b\"", NULL},
};

static char *json_of(const char *p, size_t n)
{
    hs_membuf m = {0};
    hs_sink s = hs_membuf_sink(&m);
    CU_ASSERT_EQUAL(hs_json_string(&s, p, n), HS_OK);
    return m.data ? m.data : strdup("");
}

static char *json_outbuf_of(const char *p, size_t n)
{
    hs_membuf m = {0};
    hs_sink s = hs_membuf_sink(&m);
    static hs_outbuf o; /* 64 KiB: not on the stack */
    hs_outbuf_init(&o, &s);
    hs_json_outbuf_string(&o, p, n);
    CU_ASSERT_EQUAL(hs_outbuf_flush(&o), HS_OK);
    return m.data ? m.data : strdup("");
}

static char *prom_of(const char *p)
{
    hs_membuf m = {0};
    hs_sink s = hs_membuf_sink(&m);
    CU_ASSERT_EQUAL(hs_prom_label_value(&s, p), HS_OK);
    return m.data ? m.data : strdup("");
}

static void test_cases(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const text_case *c = &cases[i];
        size_t n = c->n ? c->n : strlen(c->in);
        char *j = json_of(c->in, n), *o = json_outbuf_of(c->in, n);
        CU_ASSERT_STRING_EQUAL(j, c->json);
        CU_ASSERT_STRING_EQUAL(o, c->json);
        free(j);
        free(o);
        if (c->prom) {
            char *p = prom_of(c->in);
            CU_ASSERT_STRING_EQUAL(p, c->prom);
            free(p);
        }
    }
    char *j = json_of(NULL, 0), *o = json_outbuf_of(NULL, 0);
    CU_ASSERT_STRING_EQUAL(j, "null");
    CU_ASSERT_STRING_EQUAL(o, "null");
    free(j);
    free(o);
    hs_membuf m = {0};
    hs_sink s = hs_membuf_sink(&m);
    CU_ASSERT_EQUAL(hs_json_cstring(&s, "\xff"), HS_OK);
    CU_ASSERT_STRING_EQUAL(m.data, "\"\\ufffd\"");
    hs_membuf_free(&m);
}

/* Repeats unit `times` times after `shift` bytes of 'a'. */
static char *repeat(const char *unit, size_t shift, size_t times)
{
    size_t u = strlen(unit);
    char *s = malloc(shift + u * times + 1);
    memset(s, 'a', shift);
    for (size_t k = 0; k < times; k++)
        memcpy(s + shift + k * u, unit, u);
    s[shift + u * times] = 0;
    return s;
}

/* Long names: the writers work in pieces, and a character or an escape
 * may fall on any edge of a piece. */
static void test_long_strings(void)
{
    static const char unit[] = "\xe2\x82\xac\xff\"\xf0\x9f\x98\x80\x01\\";
    static const char ujson[] = "\xe2\x82\xac\\ufffd\\\""
                                "\xf0\x9f\x98\x80\\u0001\\\\";
    static const char uprom[] = "\xe2\x82\xac" FFFD "\\\""
                                "\xf0\x9f\x98\x80\x01\\\\";
    for (size_t shift = 0; shift < 8; shift++) {
        for (size_t times = 1; times < 400; times += 37) {
            char *in = repeat(unit, shift, times);
            char *body = repeat(ujson, shift, times);
            size_t bl = strlen(body);
            char *want = malloc(bl + 3);
            want[0] = '"';
            memcpy(want + 1, body, bl);
            memcpy(want + 1 + bl, "\"", 2);
            char *j = json_of(in, strlen(in));
            char *o = json_outbuf_of(in, strlen(in));
            char *p = prom_of(in), *pw = repeat(uprom, shift, times);
            CU_ASSERT_STRING_EQUAL(j, want);
            CU_ASSERT_STRING_EQUAL(o, want);
            CU_ASSERT_STRING_EQUAL(p, pw);
            free(in);
            free(body);
            free(want);
            free(j);
            free(o);
            free(p);
            free(pw);
        }
    }
}

/* A sink that fails after `left` successful writes. */
static int failing_write(void *ctx, const void *data, size_t len)
{
    (void)data;
    (void)len;
    int *left = ctx;
    if (*left == 0) {
        errno = ENOSPC;
        return -1;
    }
    (*left)--;
    return 0;
}

static void test_write_failure(void)
{
    char *in = repeat("\xff\"", 0, 300); /* more than one piece */
    for (int ok = 0; ok < 3; ok++) {
        int left = ok;
        hs_sink s = {failing_write, &left};
        CU_ASSERT_EQUAL(hs_json_string(&s, in, strlen(in)), HS_ERR_IO);
        left = ok;
        CU_ASSERT_EQUAL(hs_prom_label_value(&s, in), HS_ERR_IO);
    }
    free(in);
}

int main(void)
{
    static const tu_test tests[] = {
        {"escapes and U+FFFD, byte by byte", test_cases},
        {"long strings across the writers' pieces", test_long_strings},
        {"a failing sink gives HS_ERR_IO", test_write_failure},
        {NULL, NULL},
    };
    return tu_main("json", NULL, NULL, tests);
}
