/*
 * test_mlpd_summary: the Mono summary read straight from an .mlpd's
 * events (hs_mlpd_summary, read -> summary) against the census's figures
 * of the same file, its window contract and its allocation failures.
 */
#include "testutil.h"

#include <heapscope/heapscope.h>

#include <CUnit/Basic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const files[] = {
    "leak-ondemand.mlpd", "threads-alloc-heapshot.mlpd",
    "churn-100ms-sample.mlpd", "churn-killed.mlpd", "sites-alloc-zip.mlpd.gz",
    "workers-legacy-cut.mlpd.gz", "domains-gcalloc-zip.mlpd.gz"};

static void *sample(const char *name, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/mono/%s", tu_samples_dir(), name);
    return tu_slurp(path, len);
}

/* The summary of data[0 .. len) in window w (NULL: none) through
 * allocator a; the status of the first call that failed, else finish's. */
static int summarise(const uint8_t *data, size_t len, const hs_allocator *a,
                     const hs_summary_window *w, hs_mlpd_summary **out)
{
    *out = hs_mlpd_summary_new_with(a);
    hs_mlpd_reader *r = hs_mlpd_reader_new_with(a);
    int st = *out && r ? HS_OK : HS_ERR_NOMEM;
    if (!st && w)
        st = hs_mlpd_summary_set_window(*out, w);
    if (!st)
        hs_mlpd_reader_feed(r, data, len);
    hs_mlpd_event ev;
    int rs = HS_OK;
    while (!st && (rs = hs_mlpd_reader_next(r, &ev)) == HS_EVENT)
        st = hs_mlpd_summary_add(*out, &ev);
    if (!st && rs >= 0)
        rs = hs_mlpd_reader_finish(r);
    if (!st && rs < 0)
        st = rs;
    if (!st)
        st = hs_mlpd_summary_finish(*out, r);
    hs_mlpd_reader_free(r);
    return st;
}

/* Text of the census's summary (or of s's, when s is given). */
static char *text_of(const hs_census *c, const hs_mlpd_summary *s)
{
    hs_membuf mb;
    hs_membuf_init(&mb, NULL);
    hs_sink out = hs_membuf_sink(&mb);
    int st = s ? hs_mlpd_summary_write_text(s, &out)
               : hs_mlpd_summary_text(c, &out);
    CU_ASSERT_EQUAL(st, HS_OK);
    return mb.data;
}

static void test_equals_census(void)
{
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        size_t len;
        uint8_t *data = sample(files[i], &len);
        CU_ASSERT_PTR_NOT_NULL_FATAL(data);
        hs_mlpd_summary *s;
        int st = summarise(data, len, NULL, NULL, &s);
        CU_ASSERT(st == HS_OK || st == HS_TRUNCATED);
        hs_census *c = hs_census_new();
        char path[4096];
        snprintf(path, sizeof path, "%s/mono/%s", tu_samples_dir(), files[i]);
        FILE *f = fopen(path, "rb");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        hs_error err;
        CU_ASSERT(hs_census_load_fd(c, fileno(f), &err) >= 0);
        fclose(f);
        const hs_mlpd_gc_stats *a = hs_mlpd_summary_get_stats(s);
        const hs_mlpd_gc_stats *b = hs_census_mlpd_stats(c);
        CU_ASSERT_PTR_NOT_NULL_FATAL(a);
        CU_ASSERT_PTR_NOT_NULL_FATAL(b);
        if (memcmp(a, b, sizeof *a))
            printf("\n%s: the figures differ\n", files[i]);
        CU_ASSERT(memcmp(a, b, sizeof *a) == 0);
        char *ta = text_of(NULL, s), *tb = text_of(c, NULL);
        CU_ASSERT(ta && tb && strcmp(ta, tb) == 0);
        free(ta);
        free(tb);
        hs_census_free(c);
        hs_mlpd_summary_free(s);
        free(data);
    }
}

static void test_window_contract(void)
{
    hs_mlpd_summary *s = hs_mlpd_summary_new();
    hs_summary_window w;
    hs_summary_window_init(&w);
    w.from_marker = "a";
    w.to_marker = "b";
    CU_ASSERT_EQUAL(hs_mlpd_summary_set_window(s, &w), HS_ERR_INVALID);
    hs_summary_window_init(&w);
    w.from_ns = 2;
    w.to_ns = 1;
    CU_ASSERT_EQUAL(hs_mlpd_summary_set_window(s, &w), HS_ERR_INVALID);
    hs_mlpd_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = HS_MLPD_BUFFER;
    CU_ASSERT_EQUAL(hs_mlpd_summary_add(s, &ev), HS_OK);
    hs_summary_window_init(&w);
    CU_ASSERT_EQUAL(hs_mlpd_summary_set_window(s, &w), HS_ERR_MISUSE);
    CU_ASSERT_PTR_NULL(hs_mlpd_summary_get_stats(s));
    CU_ASSERT_EQUAL(hs_mlpd_summary_finish(s, NULL), HS_ERR_NO_DATA);
    CU_ASSERT_EQUAL(hs_mlpd_summary_add(s, &ev), HS_ERR_MISUSE);
    hs_mlpd_summary_free(s);
    hs_mlpd_summary_free(NULL);
}

/* Every allocation failing in turn (the first n succeed, for n = 0, 1,
 * ... until none fails) ends in HS_ERR_NOMEM, nothing leaked. */
static void test_allocation_failures(void)
{
    size_t len;
    uint8_t *data = sample("threads-alloc-heapshot.mlpd", &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(data);
    int wrong = 0;
    bool done = false;
    long n = 0;
    for (; !done && n < 1000000; n += n < 200 ? 1 : n / 16) {
        tu_failing f = {n, 0, 0};
        hs_allocator a = tu_failing_allocator(&f);
        hs_mlpd_summary *s;
        int st = summarise(data, len, &a, NULL, &s);
        hs_mlpd_summary_free(s);
        done = st == HS_OK;
        if ((!done && st != HS_ERR_NOMEM) || f.live)
            wrong++;
    }
    CU_ASSERT(done);
    CU_ASSERT(n > 5);
    CU_ASSERT_EQUAL(wrong, 0);
    free(data);
}

int main(void)
{
    static const tu_test tests[] = {
        {"the events' summary equals the census's", test_equals_census},
        {"a window by markers, reversed or late is refused",
         test_window_contract},
        {"every allocation failure is reported", test_allocation_failures},
        {NULL, NULL},
    };
    return tu_main("mlpd_summary", NULL, NULL, tests);
}
