/*
 * Tests of the diff model and its renderers: figures of a constructed pair
 * worked out by hand (normalising, summing bands that become equal, new
 * and gone, windows); a run against itself; the samples' two runs against
 * the census's own band statistics; an eventlog against the runtime's .hp
 * of the same run; the normalising rule on real GHC names; refusals; the
 * folded form against `folded` of each run. Edges (empty runs, saturation,
 * markers, the chart, a failing allocator) are in test_diff_edges.c,
 * --fail-if in test_diff_limits.c.
 */
#include <heapscope/heapscope.h>

#include "evwriter.h"
#include "diff_pair.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- tests ------------------------------------------------------------ */

static void test_normalize_rule(void)
{
    static const char *const cases[][2] = {
        {"<Main.sat_s2cM>", "<Main.sat>"},
        {"<Data.Foldable.sat_sayv>", "<Data.Foldable.sat>"},
        {"<GHC.Base.$wgo_s1Ab>", "<GHC.Base.$wgo>"},
        {"<Main.lvl_r3xY>", "<Main.lvl>"},
        {"<GHC.TopHandler.handler_s474>", "<GHC.TopHandler.handler>"},
        {"<GHC.Event.Manager.go_sb5Z>", "<GHC.Event.Manager.go>"},
        {"<Main.ds1_s2da>", "<Main.ds1>"},
        {"<Main.read_file>", "<Main.read_file>"},   /* tag f, no digit */
        {"<Main.x_a1B>", "<Main.x>"},               /* other tag, digits */
        {"<Main._s2cM>", "<Main._s2cM>"},           /* nothing before _ */
        {"MUT_ARR_PTRS_CLEAN", "MUT_ARR_PTRS_CLEAN"}, /* not in <...> */
        {"sat_s2cM", "sat_s2cM"},
        {"<Main.sat_s2cM> <Main.sat_s1>", "<Main.sat> <Main.sat>"},
        {"<Main.f_s12345678>", "<Main.f_s12345678>"}, /* too long */
        {"", ""},
    };
    char buf[64];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = hs_diff_normalize_name(cases[i][0], strlen(cases[i][0]),
                                          buf, sizeof buf);
        CU_ASSERT_STRING_EQUAL(buf, cases[i][1]);
        CU_ASSERT_EQUAL(n, strlen(cases[i][1]));
    }
    /* a short buffer: cut, NUL-terminated, full length returned */
    char small[5];
    size_t n = hs_diff_normalize_name("<Main.sat_s2cM>", 15, small,
                                      sizeof small);
    CU_ASSERT_EQUAL(n, 10);
    CU_ASSERT_STRING_EQUAL(small, "<Mai");
}

/* Normalised: the three sat bands are one, the figures by hand. */
static void constructed_normalised(const hs_census *a, const hs_census *b)
{
    hs_diff_options o;
    hs_diff_options_init(&o);
    o.normalize = true;
    hs_diff *d;
    CU_ASSERT_EQUAL_FATAL(hs_diff_new(a, b, &o, NULL, &d, NULL), HS_OK);
    CU_ASSERT_EQUAL(hs_diff_band_count(d), 3);
    CU_ASSERT_EQUAL(hs_diff_normalized_matches(d), 1);
    const hs_diff_band *sat = find_band(d, "<Main.sat>");
    CU_ASSERT_PTR_NOT_NULL_FATAL(sat);
    CU_ASSERT_EQUAL(sat->status, HS_DIFF_BOTH);
    CU_ASSERT_TRUE(sat->normalized_only);
    CU_ASSERT_EQUAL(sat->members[0], 2);
    CU_ASSERT_EQUAL(sat->members[1], 1);
    /* peak of the per-sample sum 110, 210, 310, not a sum of peaks */
    CU_ASSERT_EQUAL(sat->peak_bytes[0], 310);
    CU_ASSERT_EQUAL(sat->peak_time_ns[0], 3000000000u);
    CU_ASSERT_EQUAL(sat->peak_bytes[1], 50);
    CU_ASSERT_EQUAL(sat->peak_time_ns[1], 1000000000u);
    /* trapezoid: weights 0.5, 1, 0.5 s */
    CU_ASSERT_DOUBLE_EQUAL(sat->byte_seconds[0], 55 + 210 + 155, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(sat->byte_seconds[1], 100, 1e-9);
    const hs_diff_band *g = find_band(d, "gone_band");
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    CU_ASSERT_EQUAL(g->status, HS_DIFF_GONE);
    CU_ASSERT_DOUBLE_EQUAL(g->byte_seconds[0], 2.5 + 5, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(g->byte_seconds[1], 0, 1e-9);
    const hs_diff_band *f = find_band(d, "fresh");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(f->status, HS_DIFF_NEW);
    CU_ASSERT_EQUAL(f->peak_bytes[1], 7);
    /* order: |change| of byte-seconds, largest first */
    CU_ASSERT_PTR_EQUAL(hs_diff_band_at(d, 0), sat);
    CU_ASSERT_PTR_EQUAL(hs_diff_band_at(d, 1), f);     /* +14 */
    CU_ASSERT_PTR_EQUAL(hs_diff_band_at(d, 2), g);     /* -7.5 */
    const hs_diff_run *ra = hs_diff_get_run(d, HS_DIFF_BEFORE);
    const hs_diff_run *rb = hs_diff_get_run(d, HS_DIFF_AFTER);
    CU_ASSERT_EQUAL(ra->peak_bytes, 310);
    CU_ASSERT_EQUAL(ra->samples, 3);
    CU_ASSERT_DOUBLE_EQUAL(ra->byte_seconds, 420 + 7.5, 1e-9);
    CU_ASSERT_EQUAL(rb->peak_bytes, 57);
    CU_ASSERT_DOUBLE_EQUAL(rb->byte_seconds, 114, 1e-9);
    char *txt = render_text(d, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(txt, "1 matched only after normalising"));
    CU_ASSERT_PTR_NOT_NULL(strstr(txt, "gone  gone_band"));
    CU_ASSERT_PTR_NOT_NULL(strstr(txt, "new  fresh"));
    free(txt);
    hs_diff_free(d);
}

/* Without normalising the three sat bands stay apart. */
static void constructed_apart(const hs_census *a, const hs_census *b)
{
    hs_diff_options o;
    hs_diff_options_init(&o);
    hs_diff *d;
    o.normalize = false;
    CU_ASSERT_EQUAL_FATAL(hs_diff_new(a, b, &o, NULL, &d, NULL), HS_OK);
    CU_ASSERT_EQUAL(hs_diff_band_count(d), 5);
    CU_ASSERT_EQUAL(hs_diff_normalized_matches(d), 0);
    CU_ASSERT_EQUAL(find_band(d, "<Main.sat_s9Zz>")->status, HS_DIFF_NEW);
    CU_ASSERT_EQUAL(find_band(d, "<Main.sat_s1Ab>")->status, HS_DIFF_GONE);
    hs_diff_free(d);
}

/* A window: samples at 2 and 3 s only, weights 0.5, 0.5. */
static void constructed_window(const hs_census *a, const hs_census *b)
{
    hs_diff_options o;
    hs_diff_options_init(&o);
    hs_diff *d;
    o.normalize = true;
    o.from_ns[0] = o.from_ns[1] = 2000000000u;
    o.order = HS_DIFF_BY_PEAK;
    CU_ASSERT_EQUAL_FATAL(hs_diff_new(a, b, &o, NULL, &d, NULL), HS_OK);
    const hs_diff_band *sat = find_band(d, "<Main.sat>");
    CU_ASSERT_DOUBLE_EQUAL(sat->byte_seconds[0], 105 + 155, 1e-9);
    CU_ASSERT_EQUAL(hs_diff_get_run(d, 0)->samples, 2);
    CU_ASSERT_TRUE(hs_diff_get_run(d, 0)->windowed);
    CU_ASSERT_EQUAL(hs_diff_get_run(d, 0)->from_ns, 2000000000u);
    /* to the end of the log: the last sample's end event, 2 ns later */
    CU_ASSERT_EQUAL(hs_diff_get_run(d, 0)->duration_ns, 1000000002u);
    /* a window holding one sample counts it as one second */
    hs_diff_free(d);
    o.from_ns[0] = o.from_ns[1] = 3000000000u;
    CU_ASSERT_EQUAL_FATAL(hs_diff_new(a, b, &o, NULL, &d, NULL), HS_OK);
    CU_ASSERT_DOUBLE_EQUAL(find_band(d, "<Main.sat>")->byte_seconds[0], 310,
                           1e-9);
    /* gone_band is not in the window of the before run: new or absent */
    CU_ASSERT_PTR_NULL(find_band(d, "gone_band"));
    hs_diff_free(d);
}

static void test_constructed(void)
{
    hs_census *a = constructed(0, HS_BREAKDOWN_CLOSURE_DESCR);
    hs_census *b = constructed(1, HS_BREAKDOWN_CLOSURE_DESCR);
    constructed_normalised(a, b);
    constructed_apart(a, b);
    constructed_window(a, b);
    hs_census_free(a);
    hs_census_free(b);
}

static void test_refusals(void)
{
    hs_census *a = constructed(0, HS_BREAKDOWN_CLOSURE_DESCR);
    hs_census *b = constructed(1, HS_BREAKDOWN_TYPE_DESCR);
    hs_diff *d = (hs_diff *)1;
    hs_error err;
    CU_ASSERT_EQUAL(hs_diff_new(a, b, NULL, NULL, &d, &err), HS_ERR_INVALID);
    CU_ASSERT_PTR_NULL(d);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "-hd (closure description)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "-hy (type description)"));
    hs_census *empty = hs_census_new();
    CU_ASSERT_EQUAL(hs_census_finish(empty, true), HS_OK);
    CU_ASSERT_EQUAL(hs_diff_new(a, empty, NULL, NULL, &d, &err),
                    HS_ERR_NO_DATA);
    CU_ASSERT_EQUAL(err.line, 2);
    hs_diff_options o;
    hs_diff_options_init(&o);
    o.from_ns[1] = 5;
    o.to_ns[1] = 4;
    CU_ASSERT_EQUAL(hs_diff_new(a, a, &o, NULL, &d, &err), HS_ERR_INVALID);
    uint64_t from, to;
    CU_ASSERT_EQUAL(hs_diff_marker_window(a, "x", "y", &from, &to, &err),
                    HS_ERR_NO_DATA);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "\"x\""));
    hs_diff_free(NULL);
    hs_census_free(empty);
    hs_census_free(a);
    hs_census_free(b);
}

/* A run against itself: every band in both, no change anywhere. */
static void test_self(void)
{
    static const char *const names[] = {"leak-hc.eventlog", "leak-hd.hp",
                                        "phases-lazy-hc.eventlog"};
    for (size_t n = 0; n < 3; n++) {
        hs_census *c = sample(names[n]);
        if (!c)
            return;
        hs_diff *d;
        CU_ASSERT_EQUAL_FATAL(hs_diff_new(c, c, NULL, NULL, &d, NULL), HS_OK);
        const hs_diff_run *a = hs_diff_get_run(d, 0), *b = hs_diff_get_run(d, 1);
        CU_ASSERT_EQUAL(a->peak_bytes, b->peak_bytes);
        CU_ASSERT_EQUAL(a->peak_bytes,
                        hs_census_sample_total(c, hs_census_peak_sample(c)));
        CU_ASSERT_EQUAL(a->byte_seconds, b->byte_seconds);
        CU_ASSERT_TRUE(hs_diff_band_count(d) > 0);
        for (size_t i = 0; i < hs_diff_band_count(d); i++) {
            const hs_diff_band *x = hs_diff_band_at(d, i);
            CU_ASSERT_EQUAL(x->status, HS_DIFF_BOTH);
            CU_ASSERT_EQUAL(x->peak_bytes[0], x->peak_bytes[1]);
            CU_ASSERT_EQUAL(x->byte_seconds[0], x->byte_seconds[1]);
        }
        hs_diff_free(d);
        hs_census_free(c);
    }
}

/* The two phases runs: each band's figures equal the census's own
 * statistics of the band of that name (each name is one band there). */
static void test_samples_against_stats(void)
{
    hs_census *c[2];
    hs_diff *d = phases_pair(c);
    if (!d)
        return;
    size_t seen[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        size_t nb = hs_census_band_count(c[k]);
        hs_band_stats *st = calloc(nb, sizeof *st);
        CU_ASSERT_EQUAL(hs_census_band_stats(c[k], st), HS_OK);
        double total = 0;
        for (size_t b = 0; b < nb; b++) {
            const hs_diff_band *x = find_band(d, hs_census_band_name(c[k], b));
            CU_ASSERT_PTR_NOT_NULL_FATAL(x);
            CU_ASSERT_EQUAL(x->peak_bytes[k], st[b].peak_bytes);
            CU_ASSERT_EQUAL(x->peak_time_ns[k], st[b].peak_time_ns);
            CU_ASSERT_DOUBLE_EQUAL(x->byte_seconds[k], st[b].byte_seconds,
                                   1e-6 * (1 + st[b].byte_seconds));
            CU_ASSERT_NOT_EQUAL(x->status, k ? HS_DIFF_GONE : HS_DIFF_NEW);
            total += st[b].byte_seconds;
            seen[k]++;
        }
        CU_ASSERT_DOUBLE_EQUAL(hs_diff_get_run(d, k)->byte_seconds, total,
                               1e-6 * total);
        free(st);
    }
    /* the fix: less memory, and the lazy counting bands are gone */
    CU_ASSERT_TRUE(hs_diff_get_run(d, 1)->peak_bytes <
                   hs_diff_get_run(d, 0)->peak_bytes / 10);
    const hs_diff_band *lazy =
        find_band(d, "bumpLazy/countLazy/summaryLazy.t/summaryLazy/main.r/main");
    CU_ASSERT_PTR_NOT_NULL(lazy);
    if (lazy)
        CU_ASSERT_EQUAL(lazy->status, HS_DIFF_GONE);
    CU_ASSERT_TRUE(hs_diff_band_count(d) >= seen[0]);
    hs_diff_free(d);
    hs_census_free(c[0]);
    hs_census_free(c[1]);
}

/* An eventlog against the runtime's .hp of the same run: the .hp's "(ccs
 * id)" prefixes are dropped, so every band matches. */
static void test_eventlog_against_hp(void)
{
    hs_census *a = sample("leak-hc.eventlog");
    hs_census *b = sample("leak-hc.hp");
    if (!a)
        return;
    hs_diff *d;
    CU_ASSERT_EQUAL_FATAL(hs_diff_new(a, b, NULL, NULL, &d, NULL), HS_OK);
    for (size_t i = 0; i < hs_diff_band_count(d); i++)
        CU_ASSERT_EQUAL(hs_diff_band_at(d, i)->status, HS_DIFF_BOTH);
    CU_ASSERT_EQUAL(hs_diff_get_run(d, 0)->peak_bytes,
                    hs_diff_get_run(d, 1)->peak_bytes);
    hs_diff_free(d);
    hs_census_free(a);
    hs_census_free(b);
}

/* -hd of two builds (-O0, -O1): the generated names differ and match only
 * after normalising. */
static void test_normalize_builds(void)
{
    hs_census *a = sample("phases-O0-hd.eventlog");
    hs_census *b = sample("phases-O1-hd.eventlog");
    if (!a)
        return;
    hs_diff_options o;
    hs_diff_options_init(&o);
    hs_diff *d;
    CU_ASSERT_EQUAL_FATAL(hs_diff_new(a, b, &o, NULL, &d, NULL), HS_OK);
    CU_ASSERT_PTR_NULL(find_band(d, "<Main.sat>"));
    size_t plain = hs_diff_band_count(d);
    hs_diff_free(d);
    o.normalize = true;
    CU_ASSERT_EQUAL_FATAL(hs_diff_new(a, b, &o, NULL, &d, NULL), HS_OK);
    const hs_diff_band *sat = find_band(d, "<Main.sat>");
    CU_ASSERT_PTR_NOT_NULL_FATAL(sat);
    CU_ASSERT_EQUAL(sat->status, HS_DIFF_BOTH);
    CU_ASSERT_TRUE(sat->normalized_only);
    CU_ASSERT_TRUE(sat->members[0] >= 2);
    CU_ASSERT_TRUE(hs_diff_normalized_matches(d) >= 1);
    CU_ASSERT_TRUE(hs_diff_band_count(d) < plain);
    /* names without generated suffixes keep matching exactly */
    const hs_diff_band *cons = find_band(d, ":");
    CU_ASSERT_PTR_NOT_NULL(cons);
    if (cons)
        CU_ASSERT_FALSE(cons->normalized_only);
    /* the folded form uses the same normalised frames */
    char *f = render_text(d, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(f, "<Main.sat> "));
    CU_ASSERT_PTR_NULL(strstr(f, "<Main.sat_s"));
    free(f);
    hs_diff_free(d);
    hs_census_free(a);
    hs_census_free(b);
}

/* The sum of the last number of every line (`last`), or of the one
 * before it: the two columns of "stack before after". */
static uint64_t folded_total(const char *text, bool last)
{
    uint64_t sum = 0;
    for (const char *p = text; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char line[4096];
        CU_ASSERT_TRUE_FATAL(len < sizeof line);
        memcpy(line, p, len);
        line[len] = 0;
        char *sp = strrchr(line, ' ');
        CU_ASSERT_PTR_NOT_NULL_FATAL(sp);
        if (!last) {
            *sp = 0;
            sp = strrchr(line, ' ');
            CU_ASSERT_PTR_NOT_NULL_FATAL(sp);
        }
        sum += strtoull(sp + 1, NULL, 10);
        p += len + (nl ? 1 : 0);
    }
    return sum;
}

static void test_folded(void)
{
    hs_census *c[2];
    hs_diff *d = phases_pair(c);
    if (!d)
        return;
    char *two = render_text(d, 2);
    for (int k = 0; k < 2; k++) {
        hs_membuf m = {0};
        hs_sink s = hs_membuf_sink(&m);
        CU_ASSERT_EQUAL(hs_render_folded(c[k], &s, NULL), HS_OK);
        CU_ASSERT_EQUAL(folded_total(two, k == 1),
                        folded_total(m.data, true));
        hs_membuf_free(&m);
    }
    CU_ASSERT_PTR_NOT_NULL(strstr(two, "Main.main;Main.main.r;Main.summaryLazy;Main.summaryLazy.t;"));
    free(two);
    /* with a window the folded form is refused */
    hs_diff_free(d);
    hs_diff_options o;
    hs_diff_options_init(&o);
    o.to_ns[0] = o.to_ns[1] = 100000000u;
    CU_ASSERT_EQUAL_FATAL(hs_diff_new(c[0], c[1], &o, NULL, &d, NULL), HS_OK);
    hs_membuf m = {0};
    hs_sink s = hs_membuf_sink(&m);
    CU_ASSERT_EQUAL(hs_render_diff_folded(d, &s, NULL), HS_ERR_INVALID);
    hs_membuf_free(&m);
    hs_diff_free(d);
    hs_census_free(c[0]);
    hs_census_free(c[1]);
}

/* JSON: the keys the issue asks for, and escaping of any band name. */
static void test_json(void)
{
    hs_census *a = constructed(0, HS_BREAKDOWN_CLOSURE_DESCR);
    hs_census *b = constructed(1, HS_BREAKDOWN_CLOSURE_DESCR);
    hs_diff_options o;
    hs_diff_options_init(&o);
    o.input[0] = "a \"quoted\"\n\xff.eventlog";
    hs_diff *d;
    CU_ASSERT_EQUAL_FATAL(hs_diff_new(a, b, &o, NULL, &d, NULL), HS_OK);
    char *j = render_text(d, 1);
    static const char *const keys[] = {
        "\"before\": {\"input\": \"a \\\"quoted\\\"\\u000a\\ufffd.eventlog\"",
        "\"after\": {\"input\": \"after\"", "\"peak_bytes\": 310",
        "\"peak_time_s\": 3.000000", "\"byte_seconds\": 427.500000",
        "\"duration_s\": ", "\"window\": null",
        "{\"band\": \"gone_band\", \"status\": \"gone\"",
        "\"before_peak_bytes\": 5, \"after_peak_bytes\": 0",
        "\"before_byte_seconds\": 7.500000, \"after_byte_seconds\": 0.000000",
        "{\"band\": \"fresh\", \"status\": \"new\"", "\"ratio\": null",
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!strstr(j, keys[i])) {
            printf("\nmissing in JSON: %s\n%s\n", keys[i], j);
            CU_FAIL("JSON key");
        }
    free(j);
    hs_diff_free(d);
    hs_census_free(a);
    hs_census_free(b);
}

/* ---- thresholds (--fail-if) -------------------------------------------- */

int main(void)
{
    static const tu_test tests[] = {
        {"normalising rule", test_normalize_rule},
        {"constructed pair by hand", test_constructed},
        {"refusals", test_refusals},
        {"a run against itself", test_self},
        {"samples against band statistics", test_samples_against_stats},
        {"eventlog against its .hp", test_eventlog_against_hp},
        {"normalising two builds' -hd", test_normalize_builds},
        {"folded against folded", test_folded},
        {"json", test_json},
        {NULL, NULL},
    };
    return tu_main("diff", NULL, NULL, tests);
}
