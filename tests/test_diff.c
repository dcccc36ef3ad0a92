/*
 * Tests of the diff model and its renderers: figures of a constructed pair
 * worked out by hand (normalising, summing bands that become equal, new
 * and gone, windows); a run against itself; the samples' two runs against
 * the census's own band statistics; an eventlog against the runtime's .hp
 * of the same run; the normalising rule on real GHC names; refusals; a
 * failing allocator at every allocation; the folded form against
 * `folded` of each run.
 */
#include <heapscope/heapscope.h>

#include "evwriter.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- helpers ------------------------------------------------------- */

static hs_census *diff_census_of(const evw *w)
{
    hs_census *c = hs_census_new();
    hs_reader *r = hs_reader_new();
    hs_reader_feed(r, w->data, w->len);
    hs_event ev;
    while (hs_reader_next(r, &ev) == HS_EVENT)
        CU_ASSERT_EQUAL(hs_census_add_event(c, &ev), HS_OK);
    int st = hs_reader_finish(r);
    CU_ASSERT_EQUAL(hs_census_finish(c, st == HS_DONE), HS_OK);
    hs_reader_free(r);
    return c;
}

static hs_census *sample(const char *name)
{
    const char *dir = tu_samples_dir();
    if (!dir)
        return NULL;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_RDONLY);
    CU_ASSERT_TRUE_FATAL(fd >= 0);
    hs_census *c = hs_census_new();
    hs_error err;
    int st = hs_census_load_fd(c, fd, &err);
    CU_ASSERT_TRUE(st == HS_OK || st == HS_TRUNCATED);
    close(fd);
    return c;
}

/* One -hd sample at t seconds: n (label, bytes) pairs. */
static void hd_sample(evw *w, uint64_t t_s, size_t n, const char *const *l,
                      const uint64_t *b)
{
    uint64_t t = t_s * 1000000000u;
    evw_sample_begin(w, t, 0);
    for (size_t k = 0; k < n; k++)
        evw_sample_string(w, t + 1, b[k], l[k]);
    evw_sample_end(w, t + 2, 0);
}

/*
 * before, samples at 1, 2, 3 s:
 *   <Main.sat_s1Ab> 100 200 300, <Main.sat_s2Cd> 10 10 10, gone_band 5 5 -
 * after:
 *   <Main.sat_s9Zz> 50 50 50, fresh 7 7 7
 */
static hs_census *constructed(int which, uint32_t breakdown)
{
    evw w;
    evw_start_ghc92(&w);
    evw_heap_prof_begin(&w, 1, 1000, breakdown);
    if (which == 0) {
        static const char *const l[] = {"<Main.sat_s1Ab>", "<Main.sat_s2Cd>",
                                        "gone_band"};
        hd_sample(&w, 1, 3, l, (uint64_t[]){100, 10, 5});
        hd_sample(&w, 2, 3, l, (uint64_t[]){200, 10, 5});
        hd_sample(&w, 3, 2, l, (uint64_t[]){300, 10});
    } else {
        static const char *const l[] = {"<Main.sat_s9Zz>", "fresh"};
        for (uint64_t t = 1; t <= 3; t++)
            hd_sample(&w, t, 2, l, (uint64_t[]){50, 7});
    }
    evw_data_end(&w);
    hs_census *c = diff_census_of(&w);
    evw_free(&w);
    return c;
}

/* The samples' two phases runs (lazy before, strict after) and their
 * diff, or NULL when samples/ is not there. */
static hs_diff *phases_pair(hs_census *c[2])
{
    c[0] = sample("phases-lazy-hc.eventlog");
    c[1] = sample("phases-strict-hc.eventlog");
    if (!c[0])
        return NULL;
    hs_diff *d = NULL;
    CU_ASSERT_EQUAL(hs_diff_new(c[0], c[1], NULL, NULL, &d, NULL), HS_OK);
    return d;
}

static const hs_diff_band *find_band(const hs_diff *d, const char *name)
{
    for (size_t i = 0; i < hs_diff_band_count(d); i++)
        if (strcmp(hs_diff_band_at(d, i)->name, name) == 0)
            return hs_diff_band_at(d, i);
    return NULL;
}

static char *render_text(const hs_diff *d, int kind)
{
    hs_membuf m = {0};
    hs_sink s = hs_membuf_sink(&m);
    int st = kind == 0   ? hs_render_diff_text(d, &s)
             : kind == 1 ? hs_render_diff_json(d, &s)
                         : hs_render_diff_folded(d, &s, NULL);
    CU_ASSERT_EQUAL(st, HS_OK);
    return m.data;
}

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

static void test_constructed(void)
{
    hs_census *a = constructed(0, HS_BREAKDOWN_CLOSURE_DESCR);
    hs_census *b = constructed(1, HS_BREAKDOWN_CLOSURE_DESCR);
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

    /* without normalising the three sat bands stay apart */
    o.normalize = false;
    CU_ASSERT_EQUAL_FATAL(hs_diff_new(a, b, &o, NULL, &d, NULL), HS_OK);
    CU_ASSERT_EQUAL(hs_diff_band_count(d), 5);
    CU_ASSERT_EQUAL(hs_diff_normalized_matches(d), 0);
    CU_ASSERT_EQUAL(find_band(d, "<Main.sat_s9Zz>")->status, HS_DIFF_NEW);
    CU_ASSERT_EQUAL(find_band(d, "<Main.sat_s1Ab>")->status, HS_DIFF_GONE);
    hs_diff_free(d);

    /* a window: samples at 2 and 3 s only, weights 0.5, 0.5 */
    o.normalize = true;
    o.from_ns[0] = o.from_ns[1] = 2000000000u;
    o.order = HS_DIFF_BY_PEAK;
    CU_ASSERT_EQUAL_FATAL(hs_diff_new(a, b, &o, NULL, &d, NULL), HS_OK);
    sat = find_band(d, "<Main.sat>");
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
    for (int which = 0; which < (hs_chart_available() ? 2 : 1); which++) {
        bool succeeded = false;
        for (long n = 0; n < 2000 && !succeeded; n++) {
            f.left = n;
            hs_membuf m = {0};
            hs_sink s = hs_membuf_sink(&m);
            int st = which == 0 ? hs_render_diff_folded(d, &s, NULL)
                                : hs_render_diff_chart(d, &s, NULL);
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

/* ---- thresholds (--fail-if) -------------------------------------------- */

static void test_limit_parse(void)
{
    hs_diff_limit l;
    hs_error err;
    CU_ASSERT_EQUAL(hs_diff_limit_parse("peak>+10%", &l, &err), HS_OK);
    CU_ASSERT_EQUAL(l.figure, HS_DIFF_FIGURE_PEAK);
    CU_ASSERT_PTR_NULL(l.band);
    CU_ASSERT_TRUE(l.percent);
    CU_ASSERT_DOUBLE_EQUAL(l.amount, 10, 1e-12);
    CU_ASSERT_EQUAL(hs_diff_limit_parse("peak>+5MiB", &l, &err), HS_OK);
    CU_ASSERT_FALSE(l.percent);
    CU_ASSERT_DOUBLE_EQUAL(l.amount, 5 * 1048576.0, 1e-6);
    CU_ASSERT_EQUAL(hs_diff_limit_parse("peak>1.5kB", &l, &err), HS_OK);
    CU_ASSERT_DOUBLE_EQUAL(l.amount, 1500, 1e-9);
    CU_ASSERT_EQUAL(hs_diff_limit_parse("peak>-10%", &l, &err), HS_OK);
    CU_ASSERT_DOUBLE_EQUAL(l.amount, -10, 1e-12);
    CU_ASSERT_EQUAL(hs_diff_limit_parse("byte-seconds>+10%", &l, &err),
                    HS_OK);
    CU_ASSERT_EQUAL(l.figure, HS_DIFF_FIGURE_BYTE_SECONDS);
    CU_ASSERT_EQUAL(hs_diff_limit_parse("byte-seconds>+2GiB*s", &l, &err),
                    HS_OK);
    CU_ASSERT_DOUBLE_EQUAL(l.amount, 2 * 1073741824.0, 1e-3);
    /* NAME runs to the last '>': a -hd closure description fits */
    const char *e = "band:<Main.sat>>+1KiB";
    CU_ASSERT_EQUAL(hs_diff_limit_parse(e, &l, &err), HS_OK);
    CU_ASSERT_EQUAL(l.figure, HS_DIFF_FIGURE_PEAK);
    CU_ASSERT_PTR_EQUAL(l.band, e + 5);
    CU_ASSERT_EQUAL(l.band_len, 10);
    CU_ASSERT_DOUBLE_EQUAL(l.amount, 1024, 1e-9);
    static const char *const bad[][2] = {
        {"peak", "no '>'"},
        {"heap>+1%", "unknown figure \"heap\""},
        {"band:>+1%", "without a band name"},
        {"peak>", "expected a number"},
        {"peak>+%", "expected a number"},
        {"peak>+inf%", "expected a number"},
        {"peak>+10", "no unit after the number"},
        {"peak>+10parsecs", "\"parsecs\" after the number"},
        {"peak>+1MiB*s", "\"MiB*s\" after the number"},
        {"peak>+1%%", "\"%%\" after the number"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CU_ASSERT_EQUAL(hs_diff_limit_parse(bad[i][0], &l, &err),
                        HS_ERR_INVALID);
        CU_ASSERT_PTR_NOT_NULL(strstr(err.message, bad[i][1]));
    }
}

/* Checks expr against d: whether it is crossed, and the describe text. */
static void limit_case(const hs_diff *d, const char *expr, bool crossed,
                       const char *words)
{
    hs_diff_limit l;
    hs_diff_limit_result r;
    char buf[256];
    CU_ASSERT_EQUAL_FATAL(hs_diff_limit_parse(expr, &l, NULL), HS_OK);
    CU_ASSERT_EQUAL_FATAL(hs_diff_limit_check(d, &l, &r), HS_OK);
    if (r.crossed != crossed)
        fprintf(stderr, "\n%s: crossed %d, expected %d\n", expr, r.crossed,
                crossed);
    CU_ASSERT_EQUAL(r.crossed, crossed);
    hs_diff_limit_describe(&l, &r, buf, sizeof buf);
    if (strcmp(buf, words) != 0)
        fprintf(stderr, "\n%s: \"%s\", expected \"%s\"\n", expr, buf, words);
    CU_ASSERT_STRING_EQUAL(buf, words);
}

/*
 * The constructed pair both ways. Run totals: before 115, 215, 310 at 1,
 * 2, 3 s (peak 310, byte-seconds 57.5 + 215 + 155 = 427.5), after 57 at
 * each (peak 57, byte-seconds 114). Bands: <Main.sat> 310 -> 50, fresh
 * new (0 -> 7), gone_band 5 -> gone.
 */
static void test_limit_check(void)
{
    hs_census *a = constructed(0, HS_BREAKDOWN_CLOSURE_DESCR);
    hs_census *b = constructed(1, HS_BREAKDOWN_CLOSURE_DESCR);
    hs_diff_options o;
    hs_diff_options_init(&o);
    o.normalize = true;
    hs_diff *shrink, *grow;
    CU_ASSERT_EQUAL_FATAL(hs_diff_new(a, b, &o, NULL, &shrink, NULL), HS_OK);
    CU_ASSERT_EQUAL_FATAL(hs_diff_new(b, a, &o, NULL, &grow, NULL), HS_OK);
    limit_case(shrink, "peak>+10%", false,
               "peak shrank 81.6% (310 B -> 57 B)");
    limit_case(shrink, "peak>-80%", false,
               "peak shrank 81.6% (310 B -> 57 B)");
    limit_case(shrink, "peak>-90%", true,
               "peak shrank 81.6% (310 B -> 57 B)");
    limit_case(grow, "peak>+10%", true, "peak grew 443.9% (57 B -> 310 B)");
    limit_case(grow, "peak>+443.8%", true,
               "peak grew 443.9% (57 B -> 310 B)");
    limit_case(grow, "peak>+444%", false,
               "peak grew 443.9% (57 B -> 310 B)");
    limit_case(grow, "peak>+253B", false, "peak grew 253 B (57 B -> 310 B)");
    limit_case(grow, "peak>+252B", true, "peak grew 253 B (57 B -> 310 B)");
    limit_case(grow, "byte-seconds>+10%", true,
               "byte-seconds grew 275.0% (114 B*s -> 428 B*s)");
    limit_case(shrink, "byte-seconds>+0%", false,
               "byte-seconds shrank 73.3% (428 B*s -> 114 B*s)");
    limit_case(grow, "byte-seconds>+314B*s", false,
               "byte-seconds grew 314 B*s (114 B*s -> 428 B*s)");
    /* a band new in after counts from 0: any growth crosses a percentage */
    limit_case(shrink, "band:fresh>+1000%", true,
               "band fresh peak grew 7 B (0 B -> 7 B)");
    limit_case(shrink, "band:fresh>+7B", false,
               "band fresh peak grew 7 B (0 B -> 7 B)");
    limit_case(grow, "band:gone_band>+0B", true,
               "band gone_band peak grew 5 B (0 B -> 5 B)");
    /* NAME normalised as the diff normalised the bands */
    limit_case(grow, "band:<Main.sat_s7Qq>>+500%", true,
               "band <Main.sat_s7Qq> peak grew 520.0% (50 B -> 310 B)");
    limit_case(grow, "band:<Main.sat>>+521%", false,
               "band <Main.sat> peak grew 520.0% (50 B -> 310 B)");
    /* in neither run: not found, not crossed */
    hs_diff_limit l;
    hs_diff_limit_result r;
    CU_ASSERT_EQUAL(hs_diff_limit_parse("band:nowhere>-5%", &l, NULL), HS_OK);
    CU_ASSERT_EQUAL(hs_diff_limit_check(grow, &l, &r), HS_OK);
    CU_ASSERT_FALSE(r.found);
    CU_ASSERT_FALSE(r.crossed);
    /* without normalize the generated suffix no longer matches */
    hs_diff *raw;
    CU_ASSERT_EQUAL_FATAL(hs_diff_new(b, a, NULL, NULL, &raw, NULL), HS_OK);
    CU_ASSERT_EQUAL(hs_diff_limit_parse("band:<Main.sat_s7Qq>>+0B", &l, NULL),
                    HS_OK);
    CU_ASSERT_EQUAL(hs_diff_limit_check(raw, &l, &r), HS_OK);
    CU_ASSERT_FALSE(r.found);
    limit_case(raw, "band:<Main.sat_s1Ab>>+299B", true,
               "band <Main.sat_s1Ab> peak grew 300 B (0 B -> 300 B)");
    hs_diff_free(raw);
    hs_diff_free(shrink);
    hs_diff_free(grow);
    hs_census_free(a);
    hs_census_free(b);
}

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
        {"folded with a run without samples", test_folded_empty_run},
        {"sums near 2^64 saturate", test_saturated_sums},
        {"marker windows", test_marker_window},
        {"marker texts in the text", test_marker_labels_text},
        {"json", test_json},
        {"failing allocator", test_allocator},
        {"chart", test_chart},
        {"renderers on a failing allocator", test_render_allocator},
        {"--fail-if expressions", test_limit_parse},
        {"--fail-if thresholds both ways", test_limit_check},
        {NULL, NULL},
    };
    return tu_main("diff", NULL, NULL, tests);
}
