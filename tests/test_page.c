/*
 * The report page renderer: band names of any bytes stay inert inside the
 * page, and the embedded data decodes to the census's own figures.
 */
#include <heapscope/heapscope.h>

#include <CUnit/CUnit.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msglog.h"
#include "testutil.h"

/* --- helpers ---------------------------------------------------------- */

static hs_census *load_hp_text(const char *text)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    hs_census *c = hs_census_new();
    hs_error err;
    CU_ASSERT_FATAL(f && c);
    CU_ASSERT_EQUAL(hs_census_load_hp(c, f, &err), HS_OK);
    fclose(f);
    return c;
}

static hs_census *load_sample(const char *name)
{
    const char *dir = tu_samples_dir();
    if (!dir)
        return NULL;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_RDONLY);
    hs_census *c = hs_census_new();
    hs_error err;
    CU_ASSERT_FATAL(fd >= 0 && c);
    CU_ASSERT(hs_census_load_fd(c, fd, &err) >= 0);
    close(fd);
    return c;
}

static char *render(const hs_census *c,
                    int (*fn)(const hs_census *, hs_sink *,
                              const hs_page_options *))
{
    hs_membuf m = {0};
    hs_sink s = hs_membuf_sink(&m);
    hs_page_options opt;
    hs_page_options_init(&opt);
    opt.input = "in<put>.hp";
    CU_ASSERT_EQUAL(fn(c, &s, &opt), HS_OK);
    return m.data;
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

/* The varint column of page.h, decoded as templates/page/decode.mjs does. */
static size_t decode_column(const char *s, size_t len, uint64_t *out, size_t n)
{
    static const char last[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef";
    static const char more[] = "ghijklmnopqrstuvwxyz0123456789-_";
    uint64_t prev = 0;
    size_t k = 0;
    for (size_t i = 0; i < len && k < n;) {
        uint64_t v = 0;
        unsigned shift = 0;
        for (;;) {
            const char *p = strchr(more, s[i]);
            if (p && *p) {
                v |= (uint64_t)(p - more) << shift;
                shift += 5;
                i++;
                continue;
            }
            p = strchr(last, s[i++]);
            CU_ASSERT_FATAL(p && *p);
            v |= (uint64_t)(p - last) << shift;
            break;
        }
        if (v & 1) {
            for (uint64_t r = 0; r < (v - 1) / 2 && k < n; r++)
                out[k++] = prev;
        } else {
            uint64_t zz = v / 2;
            int64_t d = (int64_t)(zz >> 1) ^ -(int64_t)(zz & 1);
            prev += (uint64_t)d;
            out[k++] = prev;
        }
    }
    size_t got = k;
    for (; k < n; k++)
        out[k] = prev;
    return got;
}

/* The string value after `key` at or after p; *len its length. */
static const char *field(const char *p, const char *key, size_t *len)
{
    const char *q = strstr(p, key);
    CU_ASSERT_FATAL(q != NULL);
    q += strlen(key);
    const char *e = strchr(q, '"');
    *len = (size_t)(e - q);
    return q;
}

/* --- tests -------------------------------------------------------------- */

static const char odd_hp[] =
    "JOB \"odd </script> names\"\nDATE \"Thu Jan  1 00:00 1970\"\n"
    "SAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n"
    "BEGIN_SAMPLE 0.00\nEND_SAMPLE 0.00\n"
    "BEGIN_SAMPLE 0.10\n"
    "</script><script>alert(1)</script>\t100\n"
    "a\"b\\c\t200\n"
    "line\xe2\x80\xa8sep\t300\n"
    "para\xe2\x80\xa9sep\t350\n"
    "bad\xff\xfeutf\t400\n"
    "ctl\x01" "char\t500\n"
    "<!--&amp;-->\t600\n"
    "END_SAMPLE 0.10\n"
    "BEGIN_SAMPLE 0.20\nEND_SAMPLE 0.20\n";

static void test_escaping(void)
{
    hs_census *c = load_hp_text(odd_hp);
    char *page = render(c, hs_render_page);
    CU_ASSERT_FATAL(page != NULL);
    /* exactly the page's two scripts end: nothing a name holds closes one */
    CU_ASSERT_EQUAL(count(page, "</script"), 2);
    CU_ASSERT_EQUAL(count(page, "<script"), 2);
    const char *open = strstr(page, "<script type=\"application/json\" id=\"hs-data\">");
    CU_ASSERT_FATAL(open != NULL);
    open = strchr(open, '>') + 1;
    const char *close = strstr(open, "</script>");
    size_t n = (size_t)(close - open);
    /* the data holds no markup character and no raw line separator */
    CU_ASSERT_PTR_NULL(memchr(open, '<', n));
    CU_ASSERT_PTR_NULL(memchr(open, '>', n));
    CU_ASSERT_PTR_NULL(memchr(open, '&', n));
    char *data = strndup(open, n);
    CU_ASSERT_PTR_NULL(strstr(data, "\xe2\x80\xa8"));
    CU_ASSERT_PTR_NULL(strstr(data, "\xe2\x80\xa9"));
    CU_ASSERT_PTR_NOT_NULL(strstr(data, "\"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(data, "\"a\\\"b\\\\c\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(data, "\"line\\u2028sep\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(data, "\"para\\u2029sep\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(data, "\"bad\\ufffd\\ufffdutf\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(data, "\"ctl\\u0001char\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(data, "\"\\u003c!--\\u0026amp;--\\u003e\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(data, "\"input\":\"in\\u003cput\\u003e.hp\""));
    /* the no-script table and title escape them as HTML */
    CU_ASSERT_PTR_NOT_NULL(strstr(page, "&lt;/script&gt;&lt;script&gt;alert(1)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(page, "<title>odd &lt;/script&gt; names</title>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(page, "Content-Security-Policy"));
    CU_ASSERT_PTR_NULL(strstr(page, "{{"));
    free(data);
    free(page);
    hs_census_free(c);
}

/* Every band's column, the times and the figures equal the census's. */
/* The heap lines (heap, live, blocks): each one's count, times and bytes
 * decoded equal the census's points, times in rounded microseconds. */
static void check_lines(const hs_census *c, const char *doc)
{
    static const char *const names[HS_LINE_COUNT] = {"heap", "live",
                                                     "blocks"};
    const char *lines = strstr(doc, "\"lines\":{");
    CU_ASSERT_FATAL(lines != NULL);
    for (int l = 0; l < HS_LINE_COUNT; l++) {
        const hs_census_point *pt;
        size_t n = hs_census_heap_line(c, (hs_heap_line)l, &pt);
        char key[32];
        snprintf(key, sizeof key, "\"%s\":[%zu,\"", names[l], n);
        const char *p = strstr(lines, key);
        CU_ASSERT_EQUAL(p != NULL && p < strstr(lines, "}"), n > 0);
        if (!n || !p)
            continue;
        uint64_t *t = calloc(n, sizeof *t), *v = calloc(n, sizeof *v);
        CU_ASSERT_FATAL(t && v);
        size_t len;
        const char *q = field(p, key, &len);
        decode_column(q, len, t, n);
        q = field(q + len + 1, "\"", &len);
        decode_column(q, len, v, n);
        uint64_t at = 0;
        size_t bad = 0;
        for (size_t i = 0; i < n; i++) {
            at += t[i];
            uint64_t ns = pt[i].time_ns;
            bad += at != ns / 1000 + (ns % 1000 >= 500) ||
                   v[i] != pt[i].bytes;
        }
        CU_ASSERT_EQUAL(bad, 0);
        free(t);
        free(v);
    }
}

static void check_figures(const hs_census *c)
{
    char *doc = render(c, hs_render_page_data);
    CU_ASSERT_FATAL(doc != NULL);
    CU_ASSERT_PTR_NOT_NULL(strstr(doc, "\"exact\":true"));
    size_t ns = hs_census_sample_count(c), nb = hs_census_band_count(c);
    uint64_t *col = calloc(ns + 1, sizeof *col);
    hs_band_stats *st = calloc(nb + 1, sizeof *st);
    CU_ASSERT_FATAL(col && st && hs_census_band_stats(c, st) == HS_OK);
    size_t len;
    const char *t = field(doc, "\"t\":\"", &len);
    decode_column(t, len, col, ns);
    uint64_t at = 0;
    for (size_t i = 0; i < ns; i++) {
        at += col[i];
        uint64_t ns_t = hs_census_sample_time(c, i);
        CU_ASSERT_EQUAL(at, ns_t / 1000 + (ns_t % 1000 >= 500));
    }
    const char *p = strstr(doc, "\"bands\":[");
    for (size_t b = 0; b < nb; b++) {
        p = strstr(p, "\n{\"n\":");
        CU_ASSERT_FATAL(p != NULL);
        char key[64];
        snprintf(key, sizeof key, ",\"pk\":%llu,", (unsigned long long)st[b].peak_bytes);
        CU_ASSERT_PTR_NOT_NULL(strstr(p, key));
        unsigned long long g = strtoull(strstr(p, "\"g\":") + 4, NULL, 10);
        const char *d = field(p, "\"d\":\"", &len);
        decode_column(d, len, col, ns);
        for (size_t i = 0; i < ns; i++) {
            const hs_census_entry *e;
            size_t ne = hs_census_sample_entries(c, i, &e);
            uint64_t want = 0;
            for (size_t k = 0; k < ne; k++)
                if (e[k].band == b)
                    want = e[k].bytes;
            CU_ASSERT_EQUAL(col[i] * g, want);
        }
        p = d;
    }
    check_lines(c, doc);
    free(col);
    free(st);
    free(doc);
}

static void test_figures(void)
{
    static const char *const names[] = {"leak-hc.eventlog", "markers-hT.eventlog",
                                        "leak-hb.eventlog", "manycc-hc.hp"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        hs_census *c = load_sample(names[i]);
        if (!c) {
            printf("(no samples/: skipped) ");
            return;
        }
        check_figures(c);
        hs_census_free(c);
    }
    hs_census *c = load_hp_text(odd_hp);
    check_figures(c);
    hs_census_free(c);
}

/* Two samples, or false (none loaded) where samples/ is missing. */
static bool load_pair(const char *x, const char *y, hs_census **a,
                      hs_census **b)
{
    *a = load_sample(x);
    *b = load_sample(y);
    if (*a && *b)
        return true;
    hs_census_free(*a);
    hs_census_free(*b);
    return false;
}

/* A band keeps its colour across the two runs of a compare page. */
static void test_compare_colours(void)
{
    hs_census *a, *b;
    if (!load_pair("leak-hy.eventlog", "markers-hT.eventlog", &a, &b))
        return;
    hs_membuf m = {0};
    hs_sink s = hs_membuf_sink(&m);
    CU_ASSERT_EQUAL(hs_render_page_compare(a, b, &s, NULL), HS_OK);
    const char *after = strstr(m.data, ",\"after\":");
    CU_ASSERT_FATAL(after != NULL);
    size_t shared = 0;
    for (size_t i = 0; i < hs_census_band_count(a); i++) {
        char key[512];
        snprintf(key, sizeof key, "{\"n\":\"%s\",\"c\":\"", hs_census_band_name(a, i));
        const char *x = strstr(m.data, key), *y = strstr(after, key);
        if (!x || !y || x > after)
            continue;
        shared++;
        CU_ASSERT_EQUAL(strncmp(x + strlen(key), y + strlen(key), 7), 0);
    }
    CU_ASSERT(shared > 5);
    hs_membuf_free(&m);
    hs_census_free(a);
    hs_census_free(b);
}

/* A compare page names both runs under its title and carries the diff's
 * JSON (escaped for its <script>) for the Change tab. */
static void test_compare_diff(void)
{
    hs_census *a, *b;
    if (!load_pair("leak-hy.eventlog", "leak-hy.hp", &a, &b))
        return;
    hs_page_options opt;
    hs_page_options_init(&opt);
    opt.input = "/x/leak-hy.eventlog";
    opt.input_after = "y/leak-hy.hp";
    opt.diff_json = "{\"bands\":[{\"band\":\"</script>\"}]}";
    hs_membuf m = {0};
    hs_sink s = hs_membuf_sink(&m);
    CU_ASSERT_EQUAL_FATAL(hs_render_page_compare(a, b, &s, &opt), HS_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(m.data, "<p class=\"sub\"><b>before:</b> leak-hy.eventlog \xc2\xb7 "));
    CU_ASSERT_PTR_NOT_NULL(strstr(m.data, "<br><b>after:</b> leak-hy.hp \xc2\xb7 "));
    CU_ASSERT_PTR_NOT_NULL(strstr(m.data, ",\"diff\":{\"bands\":[{\"band\":\"\\u003c/script\\u003e\"}]}}"));
    CU_ASSERT_EQUAL(count(m.data, "</script"), 2);
    hs_membuf_free(&m);
    hs_census_free(a);
    hs_census_free(b);
}

/* A census of tests/msglog.h's log with n messages. */
static hs_census *msglog_census(size_t n)
{
    evw w;
    msglog_build(&w, n);
    FILE *f = tmpfile();
    CU_ASSERT_FATAL(f && fwrite(w.data, 1, w.len, f) == w.len && fflush(f) == 0);
    rewind(f);
    hs_census *c = hs_census_new();
    hs_error err;
    CU_ASSERT_FATAL(c != NULL);
    CU_ASSERT(hs_census_load_fd(c, fileno(f), &err) >= 0);
    fclose(f);
    evw_free(&w);
    return c;
}

/* The census keeps every user message in time order, raw; the page data
 * carries them escaped, each cut at a character boundary to 240 bytes. */
static void test_messages(void)
{
    hs_census *c = msglog_census(100);
    CU_ASSERT_EQUAL_FATAL(hs_census_message_count(c), 100);
    CU_ASSERT_EQUAL(hs_census_marker_count(c), 2);
    CU_ASSERT_STRING_EQUAL(hs_census_message_at(c, 0)->text, MSGLOG_SCRIPT);
    CU_ASSERT_STRING_EQUAL(hs_census_message_at(c, 1)->text, MSGLOG_ODD);
    CU_ASSERT_EQUAL(strlen(hs_census_message_at(c, 2)->text), 400);
    for (size_t i = 1; i < 100; i++)
        CU_ASSERT(hs_census_message_at(c, i - 1)->time_ns <
                  hs_census_message_at(c, i)->time_ns);
    CU_ASSERT_PTR_NULL(hs_census_message_at(c, 100));
    char *page = render(c, hs_render_page);
    CU_ASSERT_FATAL(page != NULL);
    CU_ASSERT_EQUAL(count(page, "</script"), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(page, "\"msgs\":{\"total\":100,\"step\":1,\"cut\":240,\"list\":[[5000,"
                                        "\"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(page, "\"odd \\ufffd\\ufffd bytes \\u0026 \\u003cb\\u003e\""));
    char cut[300] = "\"";
    for (size_t k = 0; k < 120; k++)
        strcat(cut, "\xc3\xa9");
    strcat(cut, "\"]");
    CU_ASSERT_PTR_NOT_NULL(strstr(page, cut));
    free(page);
    hs_census_free(c);
}

/* Past 10,000 messages the page carries every k-th, at most 10,000, and
 * says how many the log holds. */
static void test_messages_bound(void)
{
    hs_census *c = msglog_census(25000);
    CU_ASSERT_EQUAL(hs_census_message_count(c), 25000);
    char *doc = render(c, hs_render_page_data);
    CU_ASSERT_FATAL(doc != NULL);
    const char *p = strstr(doc, "\"msgs\":{\"total\":25000,\"step\":3,\"cut\":240,\"list\":[");
    CU_ASSERT_FATAL(p != NULL);
    const char *end = strstr(p, "]]},\n");
    CU_ASSERT_FATAL(end != NULL);
    size_t n = 0;
    for (const char *q = p; q && q < end; q = strstr(q + 1, "],["))
        n++;
    CU_ASSERT_EQUAL(n, 8334);
    /* message 3000 (3000 % 3 == 0) is carried: "phase 3" */
    CU_ASSERT_PTR_NOT_NULL(strstr(p, ",\"phase 3\"]"));
    free(doc);
    hs_census_free(c);
}

static void test_no_data(void)
{
    hs_census *c = hs_census_new();
    CU_ASSERT_EQUAL(hs_census_finish(c, true), HS_OK);
    hs_membuf m = {0};
    hs_sink s = hs_membuf_sink(&m);
    CU_ASSERT_EQUAL(hs_render_page(c, &s, NULL), HS_ERR_NO_DATA);
    CU_ASSERT_EQUAL(m.len, 0);
    hs_page_options opt;
    hs_page_options_init(&opt);
    opt.kind = (hs_chart_kind)7;
    hs_census *d = load_hp_text(odd_hp);
    CU_ASSERT_EQUAL(hs_render_page(d, &s, &opt), HS_ERR_INVALID);
    hs_membuf_free(&m);
    hs_census_free(c);
    hs_census_free(d);
}

int main(void)
{
    static const tu_test tests[] = {
        {"band names stay inert in the page", test_escaping},
        {"the embedded data equals the census", test_figures},
        {"compare pages colour a band alike in both runs", test_compare_colours},
        {"no data and bad options", test_no_data},
        {"compare pages name both runs and carry the diff", test_compare_diff},
        {"user messages kept, escaped and cut", test_messages},
        {"user messages bounded", test_messages_bound},
        {NULL, NULL},
    };
    return tu_main("page", NULL, NULL, tests);
}
