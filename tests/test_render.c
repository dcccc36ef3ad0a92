/*
 * Tests of the CSV and folded-stack renderers and of the sinks: labels
 * that break naive writers (commas, quotes, line breaks, ';', non-ASCII, a
 * trailing number) read back intact through an RFC 4180 reader; CSV sums
 * equal .hp sums; folded totals (peak = the largest sample, time = the
 * number of PROF_SAMPLE_COST_CENTRE events); what each renderer says when
 * the profile is missing; a failing sink.
 */
#include <heapscope/heapscope.h>

#include "csv_read.h"
#include "evwriter.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- helpers ------------------------------------------------------- */

static hs_census *census_of(const evw *w)
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

static hs_census *load_path(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return NULL;
    hs_census *c = hs_census_new();
    hs_error err;
    int st = hs_census_load_fd(c, fd, &err);
    CU_ASSERT_TRUE(st == HS_OK || st == HS_TRUNCATED);
    close(fd);
    return c;
}

/* Renders into memory; *st gets the status. The caller frees. */
static char *render(const hs_census *c, int which, int opt, int *st)
{
    hs_membuf m = {0};
    hs_sink s = hs_membuf_sink(&m);
    if (which == 0) {
        *st = hs_render_csv(c, &s, (hs_csv_layout)opt);
    } else if (which == 1) {
        hs_folded_options fo;
        hs_folded_options_init(&fo);
        fo.source = HS_FOLDED_HEAP;
        fo.weight = (hs_folded_weight)opt;
        fo.per_capability = false;
        *st = hs_render_folded(c, &s, &fo);
    } else {
        hs_folded_options fo;
        hs_folded_options_init(&fo);
        fo.source = HS_FOLDED_TIME;
        fo.weight = HS_WEIGHT_PEAK;
        fo.per_capability = opt != 0;
        *st = hs_render_folded(c, &s, &fo);
    }
    if (!m.data)
        m.data = strdup("");
    return m.data;
}

static const char *const nasty[] = {
    "plain",        "a,b",       "say \"hi\"", "two\nlines",
    "semi;colon",   "ünïcødé ✓", "trailing 42", "tab\there",
    "\"",           ",",
};
#define NNASTY (sizeof nasty / sizeof nasty[0])

/* A -hd log whose labels are the nasty strings; band k has k+1 bytes in
 * sample 0 and 10*(k+1) in sample 1, except band 0 absent there. */
static hs_census *nasty_census(void)
{
    evw w;
    evw_start_ghc92(&w);
    evw_heap_prof_begin(&w, 1, 1000, 3);
    evw_sample_begin(&w, 1000000, 0);
    for (size_t k = 0; k < NNASTY; k++)
        evw_sample_string(&w, 1000001, k + 1, nasty[k]);
    evw_sample_end(&w, 1000002, 0);
    evw_sample_begin(&w, 3000000, 0);
    for (size_t k = 1; k < NNASTY; k++)
        evw_sample_string(&w, 3000001, 10 * (k + 1), nasty[k]);
    evw_sample_end(&w, 3000002, 0);
    evw_data_end(&w);
    hs_census *c = census_of(&w);
    evw_free(&w);
    return c;
}

/* ---- tests ------------------------------------------------------------ */

static void test_csv_quoting(void)
{
    hs_census *c = nasty_census();
    int st;
    char *out = render(c, 0, HS_CSV_LONG, &st);
    CU_ASSERT_EQUAL(st, HS_OK);
    CU_ASSERT_TRUE(strncmp(out, "time_s,band,bytes\n", 18) == 0);
    struct csv_table t;
    CU_ASSERT_TRUE_FATAL(csv_read(out, &t));
    CU_ASSERT_EQUAL_FATAL(t.nrows, 1 + NNASTY + NNASTY - 1);
    for (size_t r = 0; r < t.nrows; r++)
        CU_ASSERT_EQUAL(t.nfields[r], 3);
    for (size_t k = 0; k < NNASTY; k++) {
        CU_ASSERT_STRING_EQUAL(t.rows[1 + k][0], "0.001000");
        CU_ASSERT_STRING_EQUAL(t.rows[1 + k][1], nasty[k]);
        CU_ASSERT_EQUAL(strtoull(t.rows[1 + k][2], NULL, 10), k + 1);
    }
    CU_ASSERT_STRING_EQUAL(t.rows[1 + NNASTY][0], "0.003000");
    CU_ASSERT_STRING_EQUAL(t.rows[1 + NNASTY][1], nasty[1]);
    table_free(&t);
    free(out);

    out = render(c, 0, HS_CSV_WIDE, &st);
    CU_ASSERT_EQUAL(st, HS_OK);
    CU_ASSERT_TRUE_FATAL(csv_read(out, &t));
    CU_ASSERT_EQUAL_FATAL(t.nrows, 3);
    CU_ASSERT_EQUAL_FATAL(t.nfields[0], 1 + NNASTY);
    CU_ASSERT_STRING_EQUAL(t.rows[0][0], "time_s");
    for (size_t k = 0; k < NNASTY; k++) {
        CU_ASSERT_STRING_EQUAL(t.rows[0][1 + k], nasty[k]);
        CU_ASSERT_EQUAL(strtoull(t.rows[1][1 + k], NULL, 10), k + 1);
        CU_ASSERT_EQUAL(strtoull(t.rows[2][1 + k], NULL, 10),
                        k ? 10 * (k + 1) : 0); /* absent: 0 */
    }
    table_free(&t);
    free(out);

    hs_membuf m = {0};
    hs_sink s = hs_membuf_sink(&m);
    CU_ASSERT_EQUAL(hs_render_csv(c, &s, (hs_csv_layout)7), HS_ERR_INVALID);
    hs_membuf_free(&m);
    hs_census_free(c);
}

static void test_folded_cleaning(void)
{
    hs_census *c = nasty_census();
    int st;
    char *out = render(c, 1, HS_WEIGHT_LAST, &st);
    CU_ASSERT_EQUAL(st, HS_OK);
    /* every line: frames, one space, a whole number; no frame can pass
     * for the count */
    size_t lines = 0;
    unsigned long long total = 0;
    for (char *p = out; *p;) {
        char *nl = strchr(p, '\n');
        CU_ASSERT_PTR_NOT_NULL_FATAL(nl);
        *nl = 0;
        char *sp = strrchr(p, ' ');
        CU_ASSERT_PTR_NOT_NULL_FATAL(sp);
        CU_ASSERT_TRUE(sp[1] && strspn(sp + 1, "0123456789") ==
                                    strlen(sp + 1));
        total += strtoull(sp + 1, NULL, 10);
        *sp = 0;
        CU_ASSERT_PTR_NULL(strchr(p, ';')); /* one frame per band */
        CU_ASSERT_PTR_NULL(strchr(p, '\t'));
        const char *prev = strrchr(p, ' ');
        CU_ASSERT_FALSE(prev && prev[1] &&
                        strspn(prev + 1, "0123456789") == strlen(prev + 1));
        lines++;
        p = nl + 1;
    }
    CU_ASSERT_EQUAL(lines, NNASTY - 1); /* band 0 is absent at the end */
    CU_ASSERT_EQUAL(total, hs_census_sample_total(c, 1));
    free(out);
    out = render(c, 1, HS_WEIGHT_PEAK, &st);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "semi:colon 50\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "trailing_42 70\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "two lines 40\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "ünïcødé ✓ 60\n"));
    free(out);
    /* integral: trapezoids over 2 ms: (k+1 + 10(k+1))/2 * 0.002 */
    out = render(c, 1, HS_WEIGHT_INTEGRAL, &st);
    CU_ASSERT_EQUAL(st, HS_OK);
    CU_ASSERT_STRING_EQUAL(out, "");  /* all round to 0 byte-seconds */
    free(out);
    /* no time profile in this census */
    out = render(c, 2, 0, &st);
    CU_ASSERT_EQUAL(st, HS_ERR_NO_DATA);
    CU_ASSERT_STRING_EQUAL(out, "");
    free(out);
    hs_census_free(c);
}

/* Weights past 2^63 are printed, saturating at UINT64_MAX: llround()
 * gave up above 2^63 and such a band's line vanished. */
static void test_folded_huge(void)
{
    evw w;
    evw_start_ghc92(&w);
    evw_heap_prof_begin(&w, 1, 1000, HS_BREAKDOWN_CLOSURE_DESCR);
    evw_sample_begin(&w, 1000000, 0);
    evw_sample_string(&w, 1000001, UINT64_MAX, "max");
    evw_sample_string(&w, 1000001, (UINT64_C(1) << 63) + 2048, "big");
    evw_sample_string(&w, 1000001, 3, "small");
    evw_sample_end(&w, 1000002, 0);
    evw_data_end(&w);
    hs_census *c = census_of(&w);
    evw_free(&w);
    int st;
    for (int k = 0; k < 2; k++) {
        /* peak; integral: a single sample lasts one second */
        char *out = render(c, 1, k ? HS_WEIGHT_INTEGRAL : HS_WEIGHT_PEAK,
                           &st);
        CU_ASSERT_EQUAL(st, HS_OK);
        CU_ASSERT_STRING_EQUAL(out, "max 18446744073709551615\n"
                                    "big 9223372036854777856\n"
                                    "small 3\n");
        free(out);
    }
    hs_census_free(c);
}

static void test_folded_hc(void)
{
    evw w;
    evw_start_ghc92(&w);
    evw_heap_prof_begin(&w, 1, 1000, 1);
    evw_cost_centre(&w, 2, 1, "main", "Main", "a.hs:1:1", 0);
    evw_cost_centre(&w, 2, 2, "CAF", "Main", "<entire-module>", 1);
    evw_cost_centre(&w, 2, 3, "go;x", "Lib", "b.hs:1:1", 0);
    uint32_t a[] = {3, 1, 2}, b[] = {1, 2};
    uint64_t t0 = 1000000000;
    for (int s = 0; s < 3; s++) {
        evw_sample_begin(&w, t0 * (uint64_t)(s + 1), 0);
        evw_sample_ccs(&w, t0 * (uint64_t)(s + 1), 1000u * (uint64_t)(s + 1),
                       3, a);
        evw_sample_ccs(&w, t0 * (uint64_t)(s + 1), s == 1 ? 5000 : 100, 2,
                       b);
        evw_sample_ccs(&w, t0 * (uint64_t)(s + 1), 10, 0, NULL);
        evw_sample_ccs(&w, t0 * (uint64_t)(s + 1), 1, 1, (uint32_t[]){9});
        evw_sample_end(&w, t0 * (uint64_t)(s + 1), 0);
    }
    evw_data_end(&w);
    hs_census *c = census_of(&w);
    evw_free(&w);
    int st;
    char *out = render(c, 1, HS_WEIGHT_PEAK, &st);
    /* the peak is sample 1 (2000 + 5000 + 10 + 1) */
    CU_ASSERT_STRING_EQUAL(out, "Main.CAF;Main.main;Lib.go:x 2000\n"
                                "Main.CAF;Main.main 5000\n"
                                "MAIN 10\n"
                                "<cc 9> 1\n");
    free(out);
    out = render(c, 1, HS_WEIGHT_LAST, &st);
    CU_ASSERT_STRING_EQUAL(out, "Main.CAF;Main.main;Lib.go:x 3000\n"
                                "Main.CAF;Main.main 100\n"
                                "MAIN 10\n"
                                "<cc 9> 1\n");
    free(out);
    /* byte-seconds: (1000+2000)/2 + (2000+3000)/2 = 4000 over 2 s */
    out = render(c, 1, HS_WEIGHT_INTEGRAL, &st);
    CU_ASSERT_STRING_EQUAL(out, "Main.CAF;Main.main;Lib.go:x 4000\n"
                                "Main.CAF;Main.main 5100\n"
                                "MAIN 20\n"
                                "<cc 9> 2\n");
    free(out);
    hs_census_free(c);
}

/* The sum of the numbers ending the lines of folded output. */
static unsigned long long folded_sum(char *out)
{
    unsigned long long total = 0;
    for (char *p = out; (p = strchr(p, '\n')); p++) {
        char *q = p;
        while (q > out && q[-1] != ' ')
            q--;
        total += strtoull(q, NULL, 10);
    }
    return total;
}

/* A heap profile: CSV sums equal the census totals, folded peak =
 * largest sample. */
static void check_heap_sample(const hs_census *c)
{
    int st;
    /* csv long: per-sample sums equal the census totals, which
     * the .hp tests compare with the runtime's */
    char *out = render(c, 0, HS_CSV_LONG, &st);
    CU_ASSERT_EQUAL(st, HS_OK);
    struct csv_table t;
    CU_ASSERT_TRUE_FATAL(csv_read(out, &t));
    /* rows come grouped by sample; samples without entries have
     * no rows */
    size_t s = 0, r = 1;
    bool sums_ok = true;
    for (; s < hs_census_sample_count(c); s++) {
        const hs_census_entry *e;
        if (!hs_census_sample_entries(c, s, &e))
            continue;
        unsigned long long sum = 0;
        const char *time_s = r < t.nrows ? t.rows[r][0] : "";
        while (r < t.nrows && strcmp(t.rows[r][0], time_s) == 0)
            sum += strtoull(t.rows[r++][2], NULL, 10);
        if (sum != hs_census_sample_total(c, s))
            sums_ok = false;
    }
    CU_ASSERT_EQUAL(r, t.nrows);
    CU_ASSERT_TRUE(sums_ok);
    table_free(&t);
    free(out);
    out = render(c, 1, HS_WEIGHT_PEAK, &st);
    unsigned long long folded = folded_sum(out), peak = 0;
    for (size_t i = 0; i < hs_census_sample_count(c); i++)
        if (hs_census_sample_total(c, i) > peak)
            peak = hs_census_sample_total(c, i);
    CU_ASSERT_EQUAL(folded, peak);
    free(out);
}

/* A time profile: the folded total, whole or per capability, is the
 * number of time samples. */
static void check_time_sample(const hs_census *c)
{
    int st;
    for (int per_cap = 0; per_cap < 2; per_cap++) {
        char *out = render(c, 2, per_cap, &st);
        CU_ASSERT_EQUAL(st, HS_OK);
        CU_ASSERT_EQUAL(folded_sum(out), hs_census_get_info(c)->time_samples);
        if (per_cap)
            CU_ASSERT_TRUE(strncmp(out, "cap ", 4) == 0);
        free(out);
    }
}

/* Over every sample: CSV sums equal .hp sums, folded peak = largest. */
static void test_samples(void)
{
    const char *dir = tu_samples_dir();
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d) {
        printf("\n  note: no samples/ directory; skipped ");
        return;
    }
    struct dirent *de;
    int heap = 0, time = 0;
    while ((de = readdir(d))) {
        size_t n = strlen(de->d_name);
        if (n < 10 || strcmp(de->d_name + n - 9, ".eventlog") != 0)
            continue;
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        hs_census *c = load_path(path);
        const hs_census_info *in = hs_census_get_info(c);
        if (in->breakdown) {
            check_heap_sample(c);
            heap++;
        }
        if (in->time_samples) {
            check_time_sample(c);
            time++;
        }
        hs_census_free(c);
    }
    closedir(d);
    CU_ASSERT_TRUE(heap >= 7);
    CU_ASSERT_TRUE(time >= 1);
}

/* time-prof corpus log: folded total = number of PROF_SAMPLE events */
static void test_corpus_time(void)
{
    const char *dir = tu_corpus_dir();
    if (!dir) {
        tu_skip("no corpus (HEAPSCOPE_SHARED_DIR)");
        return;
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/time-prof.eventlog", dir);
    hs_census *c = load_path(path);
    if (!c)
        return;
    /* count the events independently of the census */
    int fd = open(path, O_RDONLY);
    hs_reader *r = hs_reader_new();
    unsigned long long events = 0;
    static uint8_t buf[1 << 16];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0) {
        hs_reader_feed(r, buf, (size_t)n);
        hs_event ev;
        int st;
        while ((st = hs_reader_next(r, &ev)) == HS_EVENT)
            events += ev.tag == HS_EV_PROF_SAMPLE_COST_CENTRE;
        if (st < 0 || st == HS_DONE)
            break;
    }
    hs_reader_free(r);
    close(fd);
    int st;
    char *out = render(c, 2, 0, &st);
    CU_ASSERT_EQUAL(folded_sum(out), events);
    CU_ASSERT_TRUE(events > 0);
    free(out);
    /* and it has no heap profile */
    out = render(c, 0, HS_CSV_LONG, &st);
    CU_ASSERT_EQUAL(st, HS_ERR_NO_DATA);
    free(out);
    hs_membuf m = {0};
    hs_sink s = hs_membuf_sink(&m);
    CU_ASSERT_EQUAL(hs_render_hp(c, &s), HS_ERR_NO_DATA);
    CU_ASSERT_EQUAL(m.len, 0);
    hs_membuf_free(&m);
    hs_census_free(c);
}

static int failing_write(void *ctx, const void *data, size_t len)
{
    (void)data;
    (void)len;
    int *calls = ctx;
    (*calls)++;
    errno = ENOSPC;
    return -1;
}

static void test_failing_sink(void)
{
    hs_census *c = nasty_census();
    int calls = 0;
    hs_sink s = {failing_write, &calls};
    CU_ASSERT_EQUAL(hs_render_hp(c, &s), HS_ERR_IO);
    CU_ASSERT_EQUAL(hs_render_csv(c, &s, HS_CSV_WIDE), HS_ERR_IO);
    hs_folded_options fo;
    hs_folded_options_init(&fo);
    fo.source = HS_FOLDED_HEAP;
    fo.weight = HS_WEIGHT_PEAK;
    fo.per_capability = false;
    CU_ASSERT_EQUAL(hs_render_folded(c, &s, &fo), HS_ERR_IO);
    CU_ASSERT_EQUAL(calls, 3); /* each stops at its first failure */
    hs_census_free(c);
}


static char *render_csv_opts(const hs_census *c, const hs_csv_options *o)
{
    hs_membuf m = {0};
    hs_sink s = hs_membuf_sink(&m);
    CU_ASSERT_EQUAL(hs_render_csv_with(c, &s, o), HS_OK);
    return m.data ? m.data : strdup("");
}

static void test_csv_guard_and_bom(void)
{
    /* cells a spreadsheet would evaluate get a ' in front (OWASP); the
     * guard can be turned off; --bom starts with EF BB BF */
    static const char *const names[] = {"=SUM(A1:A2)", "+1", "-x", "@cmd",
                                        "\tTAB", "\rCR", "safe=1"};
    evw w;
    evw_start_ghc92(&w);
    evw_heap_prof_begin(&w, 1, 1000, 4);
    evw_sample_begin(&w, 1000000, 0);
    for (size_t k = 0; k < 7; k++)
        evw_sample_string(&w, 1000001, k + 1, names[k]);
    evw_sample_end(&w, 1000002, 0);
    evw_data_end(&w);
    hs_census *c = census_of(&w);
    evw_free(&w);
    hs_csv_options o;
    hs_csv_options_init(&o);
    CU_ASSERT_TRUE(o.formula_guard);
    CU_ASSERT_FALSE(o.bom);
    char *out = render_csv_opts(c, &o);
    struct csv_table t;
    CU_ASSERT_TRUE_FATAL(csv_read(out, &t));
    CU_ASSERT_EQUAL_FATAL(t.nrows, 8);
    for (size_t k = 0; k < 7; k++) {
        char want[64];
        snprintf(want, sizeof want, "%s%s", k < 6 ? "'" : "", names[k]);
        CU_ASSERT_STRING_EQUAL(t.rows[1 + k][1], want);
    }
    table_free(&t);
    free(out);
    /* the default hs_render_csv guards too */
    out = render(c, 0, HS_CSV_WIDE, &(int){0});
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"'=SUM(A1:A2)\""));
    free(out);
    o.formula_guard = false;
    o.bom = true;
    o.layout = HS_CSV_WIDE;
    out = render_csv_opts(c, &o);
    CU_ASSERT_TRUE(strncmp(out, "\xef\xbb\xbftime_s,\"=SUM(A1:A2)\",", 21) == 0);
    free(out);
    hs_census_free(c);
}

static void test_folded_hp_hc(void)
{
    /* a runtime -hc .hp: keys split into stacks, outermost first, the
     * (ccs id) dropped, a CAF ending its frame */
    static const char hp[] =
        "JOB \"p +RTS -hc\"\nBEGIN_SAMPLE 1\n"
        "(261)genProgram/runAll/main\t100\n"
        "(12)go/main/Main.CAF\t50\n(3)MAIN\t7\n(4)PINNED\t9\n"
        "(5)inner/Lib.CAFouter\t3\n(6)\t1\nEND_SAMPLE 1\n";
    FILE *f = fmemopen((void *)hp, sizeof hp - 1, "r");
    hs_census *c = hs_census_new();
    hs_error err;
    CU_ASSERT_EQUAL(hs_census_load_hp(c, f, &err), HS_OK);
    fclose(f);
    int st;
    char *out = render(c, 1, HS_WEIGHT_PEAK, &st);
    CU_ASSERT_EQUAL(st, HS_OK);
    CU_ASSERT_STRING_EQUAL(out, "main;runAll;genProgram 100\n"
                                "Main.CAF;main;go 50\n"
                                "MAIN 7\n"
                                "PINNED 9\n"
                                "outer;Lib.CAF;inner 3\n"
                                "(6) 1\n");
    free(out);
    hs_census_free(c);
}

int main(void)
{
    static const tu_test tests[] = {
        {"csv: any label survives quoting", test_csv_quoting},
        {"folded: frames cleaned, weights", test_folded_cleaning},
        {"folded: -hc stacks, peak/last/integral", test_folded_hc},
        {"folded: weights past 2^63", test_folded_huge},
        {"samples: csv sums, folded totals", test_samples},
        {"corpus time profile", test_corpus_time},
        {"failing sink", test_failing_sink},
        {"csv: formula guard, --bom", test_csv_guard_and_bom},
        {"folded: a runtime -hc .hp as stacks", test_folded_hp_hc},
        {NULL, NULL},
    };
    return tu_main("render", NULL, NULL, tests);
}
