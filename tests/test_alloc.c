/*
 * Allocation failures, expat's way: for every n, the n-th allocation made
 * through the census's allocator fails, across loading a sample (eventlog
 * and .hp), building the census and rendering every output into memory.
 * Each run must end in a clean HS_ERR_NOMEM (or succeed, when the failed
 * allocation had a fallback), never crash, and give back every byte: the
 * counting allocator below is its own leak check, so this holds in builds
 * without LeakSanitizer too.
 */
#include <heapscope/heapscope.h>

#include "testutil.h"

#include <CUnit/CUnit.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Fails the allocation numbered fail_at (1-based; 0 = never) and counts
 * what is live. */
typedef struct counting {
    unsigned long calls, fail_at, live;
    bool failed;
} counting;

static void *c_malloc(void *user, size_t n)
{
    counting *k = user;
    if (++k->calls == k->fail_at) {
        k->failed = true;
        return NULL;
    }
    void *p = malloc(n);
    if (p)
        k->live++;
    return p;
}

static void *c_realloc(void *user, void *p, size_t n)
{
    counting *k = user;
    if (++k->calls == k->fail_at) {
        k->failed = true;
        return NULL;
    }
    void *q = realloc(p, n);
    if (q && !p)
        k->live++;
    return q;
}

static void c_free(void *user, void *p)
{
    counting *k = user;
    if (p)
        k->live--;
    free(p);
}

/* Loads path and renders everything; returns the first error, or HS_OK. */
static int run_once(const char *path, counting *k)
{
    hs_allocator a = {c_malloc, c_realloc, c_free, k};
    hs_census *c = hs_census_new_with(&a);
    if (!c)
        return HS_ERR_NOMEM;
    int fd = open(path, O_RDONLY);
    CU_ASSERT_FATAL(fd >= 0);
    hs_error err;
    memset(&err, 0, sizeof err);
    int st = hs_census_load_fd(c, fd, &err);
    close(fd);
    if (st < 0) {
        CU_ASSERT_EQUAL(err.code, st);
        CU_ASSERT(err.message[0] != 0);
        hs_census_free(c);
        return st;
    }
    int first = HS_OK;
#define KEEP(expr)                                                   \
    do {                                                             \
        hs_membuf m;                                                 \
        memset(&m, 0, sizeof m);                                     \
        hs_sink s = hs_membuf_sink(&m);                              \
        int r_ = (expr);                                             \
        if (r_ < 0 && r_ != HS_ERR_NO_DATA && first == HS_OK)        \
            first = r_;                                              \
        hs_membuf_free(&m);                                          \
    } while (0)
    KEEP(hs_render_hp(c, &s));
    KEEP(hs_render_csv(c, &s, HS_CSV_LONG));
    KEEP(hs_render_csv(c, &s, HS_CSV_WIDE));
    hs_folded_options fo;
    hs_folded_options_init(&fo);
    fo.source = HS_FOLDED_HEAP;
    fo.weight = HS_WEIGHT_INTEGRAL;
    fo.per_capability = false;
    KEEP(hs_render_folded(c, &s, &fo));
    hs_folded_options ft;
    hs_folded_options_init(&ft);
    ft.source = HS_FOLDED_TIME;
    ft.weight = HS_WEIGHT_PEAK;
    ft.per_capability = true;
    KEEP(hs_render_folded(c, &s, &ft));
    hs_page_options po;
    hs_page_options_init(&po);
    po.no_inline_chart = true; /* the chart is swept on its own below */
    KEEP(hs_render_page(c, &s, &po));
    /* The chart (cairo writing SVG: printf of every coordinate) costs
     * more than all the rest. Once the failing allocation is behind, it
     * only shows that the census still draws after a failed render; every
     * 8th run keeps showing that, and a run whose failure is still ahead
     * draws it always, so that each of the chart's allocations fails in
     * turn. */
    if (hs_chart_available() && (!k->failed || k->fail_at % 8 == 0)) {
        hs_chart_options co;
        hs_chart_options_init(&co);
        co.width = 300;
        co.height = 200;
        KEEP(hs_render_chart(c, &s, &co));
    }
#undef KEEP
    hs_census_free(c);
    return first;
}

/* Every n from 1 until a run needs no more allocations than n - 1. */
static void sweep(const char *name)
{
    const char *dir = tu_samples_dir();
    CU_ASSERT_FATAL(dir != NULL);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);

    counting k = {0, 0, 0, false};
    CU_ASSERT_EQUAL_FATAL(run_once(path, &k), HS_OK);
    CU_ASSERT_EQUAL(k.live, 0);
    unsigned long total = k.calls, bad = 0;
    for (unsigned long n = 1; n <= total; n++) {
        counting f = {0, n, 0, false};
        int st = run_once(path, &f);
        if (f.live != 0 || (f.failed && st != HS_ERR_NOMEM && st != HS_OK)) {
            if (bad++ < 5)
                fprintf(stderr, "%s: failing allocation %lu of %lu: "
                        "status %d, %lu blocks not freed\n", name, n,
                        total, st, f.live);
        }
    }
    CU_ASSERT_EQUAL(bad, 0);
    fprintf(stderr, "%s: %lu allocations, each failed in turn\n", name,
            total);
}

static void test_eventlog_hc(void) { sweep("leak-hc.eventlog"); }
static void test_eventlog_hy(void) { sweep("manycc-hy.eventlog"); }
static void test_eventlog_p(void) { sweep("leak-p.eventlog"); }
static void test_hp(void) { sweep("leak-hc.hp"); }

int main(void)
{
    static const tu_test tests[] = {
        {"eventlog -hc: every allocation fails in turn", test_eventlog_hc},
        {"eventlog -hy: every allocation fails in turn", test_eventlog_hy},
        {"eventlog -p: every allocation fails in turn", test_eventlog_p},
        {".hp: every allocation fails in turn", test_hp},
        {NULL, NULL}};
    return tu_main("alloc", NULL, NULL, tests);
}
