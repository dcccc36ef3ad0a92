/*
 * Tests of the diff at its edges: a run without samples, sums near 2^64,
 * marker windows and their texts, the chart, and a failing allocator at
 * every allocation of the model and of each renderer.
 */
#include <heapscope/heapscope.h>

#include "diff_pair.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An allocator that fails its n-th allocation and counts what is live. */
struct failing {
    long left;   /* allocations until the failure; < 0 never */
    long live;
};

static void *f_malloc(void *u, size_t n)
{
    struct failing *f = u;
    if (f->left == 0)
        return NULL;
    f->left--;
    void *p = malloc(n);
    f->live += p != NULL;
    return p;
}

static void *f_realloc(void *u, void *p, size_t n)
{
    struct failing *f = u;
    if (f->left == 0)
        return NULL;
    f->left--;
    void *q = realloc(p, n);
    f->live += q && !p;
    return q;
}

static void f_free(void *u, void *p)
{
    struct failing *f = u;
    f->live -= p != NULL;
    free(p);
}

static void test_allocator(void)
{
    hs_census *a = constructed(0, HS_BREAKDOWN_CLOSURE_DESCR);
    hs_census *b = constructed(1, HS_BREAKDOWN_CLOSURE_DESCR);
    hs_diff_options o;
    hs_diff_options_init(&o);
    o.normalize = true;
    o.from_marker = "m1";
    o.to_marker = "m2";
    bool succeeded = false;
    for (long n = 0; n < 1000 && !succeeded; n++) {
        struct failing f = {n, 0};
        hs_allocator al = {f_malloc, f_realloc, f_free, &f};
        hs_diff *d = NULL;
        int st = hs_diff_new(a, b, &o, &al, &d, NULL);
        CU_ASSERT_TRUE(st == HS_OK || st == HS_ERR_NOMEM);
        if (st == HS_OK) {
            succeeded = true;
            CU_ASSERT_EQUAL(hs_diff_band_count(d), 3);
            hs_diff_free(d);
        } else {
            CU_ASSERT_PTR_NULL(d);
        }
        CU_ASSERT_EQUAL(f.live, 0);
    }
    CU_ASSERT_TRUE(succeeded);
    hs_census_free(a);
    hs_census_free(b);
}

/* The renderers that allocate (folded, chart) through the diff's
 * allocator: every failure in turn gives HS_ERR_NOMEM and leaks nothing. */
static void test_render_allocator(void)
{
    hs_census *c[2] = {sample("phases-lazy-hc.eventlog"),
                       sample("phases-strict-hc.eventlog")};
    if (!c[0])
        return;
    struct failing f = {-1, 0};
    hs_allocator al = {f_malloc, f_realloc, f_free, &f};
    hs_diff *d;
    CU_ASSERT_EQUAL_FATAL(hs_diff_new(c[0], c[1], NULL, &al, &d, NULL), HS_OK);
    long base = f.live;
    /* a small chart of two bands: each failing run writes the SVG up to
     * its failure (the document's buffer uses the allocator), and cairo's
     * printf of every coordinate of the full default chart was nearly all
     * of this suite's time */
    hs_chart_options look;
    hs_chart_options_init(&look);
    look.width = 300;
    look.height = 200;
    look.bands = 2;
    hs_diff_chart_options co;
    hs_diff_chart_options_init(&co);
    co.chart = &look;
    for (int which = 0; which < (hs_chart_available() ? 2 : 1); which++) {
        bool succeeded = false;
        for (long n = 0; n < 2000 && !succeeded; n++) {
            f.left = n;
            hs_membuf m = {0};
            hs_sink s = hs_membuf_sink(&m);
            int st = which == 0 ? hs_render_diff_folded(d, &s, NULL)
                                : hs_render_diff_chart(d, &s, &co);
            CU_ASSERT_TRUE(st == HS_OK || st == HS_ERR_NOMEM);
            succeeded = st == HS_OK;
            CU_ASSERT_EQUAL(f.live, base);
            hs_membuf_free(&m);
        }
        CU_ASSERT_TRUE(succeeded);
    }
    f.left = -1;
    hs_diff_free(d);
    CU_ASSERT_EQUAL(f.live, 0);
    hs_census_free(c[0]);
    hs_census_free(c[1]);
}

/* A run whose profile has no sample (a .hp with its JOB line alone) has
 * no folded line: its stacks count 0 against the other's. The fuzzer found
 * the merge doing pointer arithmetic on the empty output's NULL. */
static hs_census *job_only(void)
{
    static const char job[] = "JOB \"leak +RTS -hd\"\n";
    FILE *f = fmemopen((void *)job, sizeof job - 1, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    hs_census *c = hs_census_new();
    CU_ASSERT_EQUAL(hs_census_load_hp(c, f, NULL), HS_OK);
    fclose(f);
    CU_ASSERT_EQUAL(hs_census_sample_count(c), 0);
    CU_ASSERT_EQUAL(hs_census_get_info(c)->breakdown,
                    HS_BREAKDOWN_CLOSURE_DESCR);
    return c;
}

static void test_folded_empty_run(void)
{
    hs_census *empty = job_only();
    hs_census *full = constructed(0, HS_BREAKDOWN_CLOSURE_DESCR);
    for (int k = 0; k < 2; k++) {
        hs_diff *d = NULL;
        CU_ASSERT_EQUAL_FATAL(hs_diff_new(k ? full : empty, k ? empty : full,
                                          NULL, NULL, &d, NULL), HS_OK);
        char *text = render_text(d, 2);
        CU_ASSERT_PTR_NOT_NULL_FATAL(text);
        /* both orders: each stack (at its last sample) is 0 in the
         * empty run */
        CU_ASSERT_STRING_EQUAL(text, k ? "<Main.sat_s1Ab> 300 0\n"
                                         "<Main.sat_s2Cd> 10 0\n"
                                       : "<Main.sat_s1Ab> 0 300\n"
                                         "<Main.sat_s2Cd> 0 10\n");
        free(text);
        hs_diff_free(d);
    }
    hs_census *empty2 = job_only();
    hs_diff *d = NULL;
    CU_ASSERT_EQUAL_FATAL(hs_diff_new(empty, empty2, NULL, NULL, &d, NULL),
                          HS_OK);
    hs_membuf m = {0};
    hs_sink s = hs_membuf_sink(&m);
    CU_ASSERT_EQUAL(hs_render_diff_folded(d, &s, NULL), HS_OK);
    CU_ASSERT_EQUAL(m.len, 0);
    hs_membuf_free(&m);
    hs_diff_free(d);
    hs_census_free(empty2);
    hs_census_free(full);
    hs_census_free(empty);
}

/* Sums near 2^64 saturate as the census's do: the fuzzer found a run's
 * peak (a wrapped sample total) below one of its bands' peaks. Three bands
 * that normalise to one key, the first holding UINT64_MAX, also once made
 * the per-sample list of keys overflow, the saturated sum standing for
 * "not yet in this sample". */
static void test_saturated_sums(void)
{
    evw w;
    evw_start_ghc92(&w);
    evw_heap_prof_begin(&w, 1, 1000, HS_BREAKDOWN_CLOSURE_DESCR);
    static const char *const l[] = {"<Main.sat_s1Ab>", "<Main.sat_s2Cd>",
                                    "<Main.sat_s3Ef>"};
    hd_sample(&w, 1, 3, l, (uint64_t[]){UINT64_MAX, 5, 7});
    evw_data_end(&w);
    hs_census *c = diff_census_of(&w);
    evw_free(&w);
    CU_ASSERT_EQUAL_FATAL(hs_census_sample_count(c), 1);
    CU_ASSERT_EQUAL(hs_census_sample_total(c, 0), UINT64_MAX);
    for (int norm = 0; norm < 2; norm++) {
        hs_diff_options o;
        hs_diff_options_init(&o);
        o.normalize = norm;
        hs_diff *d = NULL;
        CU_ASSERT_EQUAL_FATAL(hs_diff_new(c, c, &o, NULL, &d, NULL), HS_OK);
        for (int k = 0; k < 2; k++)
            CU_ASSERT_EQUAL(hs_diff_get_run(d, k)->peak_bytes, UINT64_MAX);
        CU_ASSERT_EQUAL(hs_diff_band_count(d), norm ? 1 : 3);
        const hs_diff_band *b = find_band(d, norm ? "<Main.sat>"
                                                  : "<Main.sat_s1Ab>");
        CU_ASSERT_PTR_NOT_NULL_FATAL(b);
        CU_ASSERT_EQUAL(b->peak_bytes[0], UINT64_MAX);
        CU_ASSERT_EQUAL(b->peak_bytes[1], UINT64_MAX);
        CU_ASSERT_EQUAL(b->members[0], norm ? 3 : 1);
        char *text = render_text(d, 2);
        CU_ASSERT_PTR_NOT_NULL_FATAL(text);
        CU_ASSERT_STRING_EQUAL(text, norm
            ? "<Main.sat> 18446744073709551615 18446744073709551615\n"
            : "<Main.sat_s1Ab> 18446744073709551615 18446744073709551615\n"
              "<Main.sat_s2Cd> 5 5\n<Main.sat_s3Ef> 7 7\n");
        free(text);
        hs_diff_free(d);
    }
    hs_census_free(c);
}

/* Marker windows: the earliest `from`, the earliest `to` after it, also
 * when a marker stands at the last representable time (UINT64_MAX was
 * once the "not found" mark). */
static void test_marker_window(void)
{
    evw w;
    evw_start_ghc92(&w);
    evw_heap_prof_begin(&w, 1, 1000, HS_BREAKDOWN_CLOSURE_DESCR);
    static const char *const l[] = {"band"};
    hd_sample(&w, 1, 1, l, (uint64_t[]){10});
    evw_string_event(&w, HS_EV_USER_MARKER, 2000000000, "x");
    evw_string_event(&w, HS_EV_USER_MARKER, 3000000000, "y");
    evw_string_event(&w, HS_EV_USER_MARKER, 4000000000, "x");
    evw_string_event(&w, HS_EV_USER_MARKER, UINT64_MAX, "z");
    evw_data_end(&w);
    hs_census *c = diff_census_of(&w);
    evw_free(&w);
    uint64_t from = 0, to = 0;
    hs_error err;
    CU_ASSERT_EQUAL(hs_diff_marker_window(c, "x", "y", &from, &to, &err),
                    HS_OK);
    CU_ASSERT_EQUAL(from, 2000000000);
    CU_ASSERT_EQUAL(to, 3000000000);
    CU_ASSERT_EQUAL(hs_diff_marker_window(c, "x", "x", &from, &to, &err),
                    HS_OK);
    CU_ASSERT_EQUAL(to, 4000000000);
    CU_ASSERT_EQUAL(hs_diff_marker_window(c, "y", "z", &from, &to, &err),
                    HS_OK);
    CU_ASSERT_EQUAL(from, 3000000000);
    CU_ASSERT_EQUAL(to, UINT64_MAX);
    CU_ASSERT_EQUAL(hs_diff_marker_window(c, "z", "x", &from, &to, &err),
                    HS_ERR_NO_DATA);
    CU_ASSERT_STRING_EQUAL(err.message,
                           "no user marker named \"x\" after \"z\"");
    hs_census_free(c);
}

/* The text quotes the window's marker texts: a quote, a backslash or a
 * control byte inside one is written as \xHH, so the quoted text ends
 * where the marker does; the JSON carries the texts exactly. */
static void test_marker_labels_text(void)
{
    hs_census *a = constructed(0, HS_BREAKDOWN_CLOSURE_DESCR);
    hs_census *b = constructed(1, HS_BREAKDOWN_CLOSURE_DESCR);
    hs_diff_options o;
    hs_diff_options_init(&o);
    o.from_marker = "say \"hi\" to marker \"";
    o.to_marker = "a\\b\tc";
    o.to_ns[0] = o.to_ns[1] = 10000000000u; /* a window: the JSON shows it */
    hs_diff *d = NULL;
    CU_ASSERT_EQUAL_FATAL(hs_diff_new(a, b, &o, NULL, &d, NULL), HS_OK);
    char *txt = render_text(d, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(
        txt, "window: from marker \"say \\x22hi\\x22 to marker \\x22\" "
             "to marker \"a\\x5cb\\x09c\"\n"));
    free(txt);
    char *j = render_text(d, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(j, "\"say \\\"hi\\\" to marker \\\"\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(j, "\"a\\\\b\\u0009c\""));
    free(j);
    hs_diff_free(d);
    hs_census_free(a);
    hs_census_free(b);
}

/* The chart: both runs drawn, one look per matched band, refusals. */
static void test_chart(void)
{
    hs_census *a = sample("phases-O0-hd.eventlog");
    hs_census *b = sample("phases-O1-hd.eventlog");
    if (!a)
        return;
    hs_diff_options o;
    hs_diff_options_init(&o);
    o.normalize = true;
    o.input[0] = "O0 & <build>";
    hs_diff *d;
    CU_ASSERT_EQUAL_FATAL(hs_diff_new(a, b, &o, NULL, &d, NULL), HS_OK);
    hs_diff_chart_options co;
    hs_diff_chart_options_init(&co);
    hs_chart_options look;
    hs_chart_options_init(&look);
    co.chart = &look;
    hs_membuf m = {0};
    hs_sink s = hs_membuf_sink(&m);
    int st = hs_render_diff_chart(d, &s, &co);
    if (!hs_chart_available()) {
        CU_ASSERT_EQUAL(st, HS_ERR_INVALID);
    } else {
        CU_ASSERT_EQUAL(st, HS_OK);
        CU_ASSERT_PTR_NOT_NULL(strstr(m.data, "<svg"));
        /* the caption of each run, escaped, and the normalised band */
        CU_ASSERT_PTR_NOT_NULL(strstr(m.data, "before: O0 &amp; &lt;build&gt;"));
        CU_ASSERT_PTR_NOT_NULL(strstr(m.data, "after: after"));
        CU_ASSERT_PTR_NOT_NULL(strstr(m.data, "&lt;Main.sat&gt;"));
        CU_ASSERT_PTR_NULL(strstr(m.data, "Main.sat_s"));
        /* a filter that keeps nothing */
        const char *none[] = {"no such band", NULL};
        look.include = none;
        hs_membuf m2 = {0};
        hs_sink s2 = hs_membuf_sink(&m2);
        CU_ASSERT_EQUAL(hs_render_diff_chart(d, &s2, &co), HS_ERR_NO_DATA);
        hs_membuf_free(&m2);
        look.include = NULL;
        look.kind = (hs_chart_kind)7;
        CU_ASSERT_EQUAL(hs_render_diff_chart(d, &s2, &co), HS_ERR_INVALID);
    }
    hs_membuf_free(&m);
    hs_diff_free(d);
    hs_census_free(a);
    hs_census_free(b);
}

int main(void)
{
    static const tu_test tests[] = {
        {"folded with a run without samples", test_folded_empty_run},
        {"sums near 2^64 saturate", test_saturated_sums},
        {"marker windows", test_marker_window},
        {"marker texts in the text", test_marker_labels_text},
        {"failing allocator", test_allocator},
        {"chart", test_chart},
        {"renderers on a failing allocator", test_render_allocator},
        {NULL, NULL},
    };
    return tu_main("diff_edges", NULL, NULL, tests);
}
