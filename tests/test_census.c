/*
 * Tests of the census model: hand-built logs (tests/evwriter) for every
 * breakdown rule (-hc naming and -L, undefined cost centres, -hb placement,
 * -hi resolution, GHC 8.4 logs without SAMPLE_END, several
 * HEAP_PROF_BEGIN, zero-byte and repeated bands, the time profile), the
 * same log through a pipe a byte at a time, and the corpus logs when they
 * are present.
 */
#include <heapscope/heapscope.h>

#include "evwriter.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- helpers ------------------------------------------------------- */

/* Builds a census from bytes, fed in chunks of `chunk` bytes (0: all). */
static hs_census *census_from(const uint8_t *data, size_t len, size_t chunk,
                              unsigned limit, int *status)
{
    hs_census *c = hs_census_new();
    hs_reader *r = hs_reader_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    hs_census_set_name_limit(c, limit);
    size_t pos = 0;
    int st = HS_NEED_INPUT;
    while (pos < len) {
        size_t n = chunk && len - pos > chunk ? chunk : len - pos;
        hs_reader_feed(r, data + pos, n);
        pos += n;
        hs_event ev;
        while ((st = hs_reader_next(r, &ev)) == HS_EVENT)
            CU_ASSERT_EQUAL(hs_census_add_event(c, &ev), HS_OK);
        if (st < 0 || st == HS_DONE)
            break;
    }
    st = hs_reader_finish(r);
    CU_ASSERT_EQUAL(hs_census_finish(c, st == HS_DONE), HS_OK);
    if (status)
        *status = st;
    hs_reader_free(r);
    return c;
}

static hs_census *census_of(evw *w) { return census_from(w->data, w->len, 0, 0, NULL); }

/* The index of the band named `name`, or -1. */
static long band_named(const hs_census *c, const char *name)
{
    for (size_t b = 0; b < hs_census_band_count(c); b++)
        if (strcmp(hs_census_band_name(c, b), name) == 0)
            return (long)b;
    return -1;
}

/* Bytes of band `name` in sample i (0 when absent; -1 when no band). */
static long long bytes_in(const hs_census *c, size_t i, const char *name)
{
    long b = band_named(c, name);
    if (b < 0)
        return -1;
    const hs_census_entry *e;
    size_t n = hs_census_sample_entries(c, i, &e);
    for (size_t k = 0; k < n; k++)
        if (e[k].band == (uint32_t)b)
            return (long long)e[k].bytes;
    return 0;
}

static bool has_warning(const hs_census *c, const char *needle)
{
    for (size_t i = 0; i < hs_census_warning_count(c); i++)
        if (strstr(hs_census_warning(c, i), needle))
            return true;
    return false;
}

static void args_event(evw *w, uint64_t t, const char *const *argv, int n)
{
    size_t s = evw_event(w, 30, t, 1);
    evw_u32(w, 0);
    for (int i = 0; i < n; i++)
        evw_cstr(w, argv[i]);
    evw_event_end(w, s);
}

/* A GHC 9.x -hc log: cost centres, two samples, markers. */
static void build_hc(evw *w)
{
    evw_start_ghc92(w);
    {
        size_t s = evw_event(w, 29, 10, 1);
        evw_u32(w, 0);
        evw_bytes(w, "GHC-9.0.2 rts_p", 15);
        evw_event_end(w, s);
    }
    static const char *const argv[] = {"/tmp/x/prog", "a\"b", "+RTS", "-hc",
                                       "-l", "-RTS", "c"};
    args_event(w, 20, argv, 7);
    evw_event(w, 43, 30, 0);
    evw_u32(w, 0);
    evw_u64(w, 1795306888);
    evw_u32(w, 5);
    evw_heap_prof_begin(w, 40, 10000000, 1);
    evw_cost_centre(w, 41, 1, "main", "Main", "a.hs:1:1", 0);
    evw_cost_centre(w, 42, 2, "CAF", "Main", "<entire-module>", 1);
    evw_cost_centre(w, 43, 3, "go", "Lib", "b.hs:2:2", 0);
    evw_cost_centre(w, 44, 4, "PINNED", "SYSTEM", "<built-in>", 0);
    evw_sample_begin(w, 100, 0);
    uint32_t st1[] = {1, 2};      /* main/Main.CAF */
    uint32_t st2[] = {3, 1, 2};   /* go/main/Main.CAF */
    uint32_t st3[] = {4};
    uint32_t st4[] = {2, 3};      /* Main.CAFgo: no '/' after a CAF */
    evw_sample_ccs(w, 101, 100, 2, st1);
    evw_sample_ccs(w, 102, 200, 3, st2);
    evw_sample_ccs(w, 103, 50, 0, NULL);
    evw_sample_ccs(w, 104, 8, 1, st3);
    evw_sample_ccs(w, 105, 7, 2, st4);
    evw_sample_ccs(w, 106, 0, 1, st3);   /* repeated band: summed */
    evw_sample_end(w, 107, 0);
    evw_string_event(w, 58, 150, "phase two");
    evw_sample_begin(w, 200, 0);
    evw_sample_ccs(w, 201, 300, 3, st2);
    evw_sample_ccs(w, 202, 0, 2, st1);   /* zero bytes: kept */
    evw_sample_end(w, 203, 0);
    evw_data_end(w);
}

/* ---- tests ------------------------------------------------------------ */

static void test_hc_names(void)
{
    evw w;
    build_hc(&w);
    hs_census *c = census_of(&w);
    const hs_census_info *info = hs_census_get_info(c);
    CU_ASSERT_EQUAL(info->breakdown, HS_BREAKDOWN_COST_CENTRE);
    CU_ASSERT_EQUAL(info->sample_period_ns, 10000000);
    CU_ASSERT_TRUE(info->complete);
    CU_ASSERT_EQUAL(info->cost_centres, 4);
    CU_ASSERT_STRING_EQUAL(info->program, "/tmp/x/prog");
    /* the model keeps the arguments raw; the hp renderer builds the JOB */
    CU_ASSERT_EQUAL_FATAL(info->argc, 7);
    CU_ASSERT_STRING_EQUAL(info->argv[1], "a\"b");
    CU_ASSERT_STRING_EQUAL(info->argv[6], "c");
    CU_ASSERT_PTR_NULL(info->job);
    char job[64];
    CU_ASSERT_EQUAL(hs_render_hp_job(c, job, sizeof job), 22);
    CU_ASSERT_STRING_EQUAL(job, "prog a\"b c +RTS -hc -l");
    CU_ASSERT_STRING_EQUAL(info->rts_identifier, "GHC-9.0.2 rts_p");
    CU_ASSERT_TRUE(info->has_wall_clock);
    CU_ASSERT_EQUAL(info->wall_clock_sec, 1795306888);
    CU_ASSERT_PTR_NULL(info->date);
    char date[64];
    CU_ASSERT(hs_render_hp_date(c, date, sizeof date) >= 16);
    CU_ASSERT_PTR_NOT_NULL(strstr(date, " 20")); /* the year */
    CU_ASSERT_EQUAL(hs_census_sample_count(c), 2);
    CU_ASSERT_EQUAL(hs_census_sample_time(c, 0), 100);
    CU_ASSERT_EQUAL(hs_census_sample_time(c, 1), 200);
    CU_ASSERT_EQUAL(bytes_in(c, 0, "main/Main.CAF"), 100);
    CU_ASSERT_EQUAL(bytes_in(c, 0, "go/main/Main.CAF"), 200);
    CU_ASSERT_EQUAL(bytes_in(c, 0, "MAIN"), 50);
    CU_ASSERT_EQUAL(bytes_in(c, 0, "PINNED"), 8);
    CU_ASSERT_EQUAL(bytes_in(c, 0, "Main.CAFgo"), 7);
    CU_ASSERT_EQUAL(hs_census_sample_total(c, 0), 365);
    const hs_census_entry *e;
    CU_ASSERT_EQUAL(hs_census_sample_entries(c, 0, &e), 5);
    CU_ASSERT_EQUAL(hs_census_sample_entries(c, 1, &e), 2);
    CU_ASSERT_EQUAL(e[1].bytes, 0);
    CU_ASSERT_EQUAL(bytes_in(c, 1, "go/main/Main.CAF"), 300);
    /* the stack of a band, innermost first */
    long b = band_named(c, "go/main/Main.CAF");
    const uint32_t *ids;
    CU_ASSERT_EQUAL(hs_census_band_stack(c, (size_t)b, &ids), 3);
    CU_ASSERT_EQUAL(ids[0], 3);
    CU_ASSERT_EQUAL(ids[2], 2);
    CU_ASSERT_EQUAL(hs_census_band_stack(c, (size_t)band_named(c, "MAIN"),
                                         &ids), 0);
    const hs_cost_centre *cc = hs_census_cost_centre(c, 2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(cc);
    CU_ASSERT_STRING_EQUAL(cc->module, "Main");
    CU_ASSERT_TRUE(cc->is_caf);
    CU_ASSERT_PTR_NULL(hs_census_cost_centre(c, 99));
    CU_ASSERT_EQUAL(hs_census_marker_count(c), 1);
    CU_ASSERT_STRING_EQUAL(hs_census_marker_at(c, 0)->text, "phase two");
    CU_ASSERT_EQUAL(hs_census_marker_at(c, 0)->time_ns, 150);
    CU_ASSERT_EQUAL(hs_census_warning_count(c), 0);
    hs_census_free(c);

    /* -L: a name longer than N keeps N-4 bytes and ends with "..." */
    c = census_from(w.data, w.len, 0, 10, NULL);
    CU_ASSERT_EQUAL(bytes_in(c, 0, "go/mai..."), 200);
    CU_ASSERT_EQUAL(bytes_in(c, 0, "Main.CAFgo"), 7); /* exactly 10 */
    CU_ASSERT_EQUAL(bytes_in(c, 0, "MAIN"), 50);
    hs_census_free(c);

    /* every chunk size gives the same census */
    for (size_t chunk = 1; chunk <= 7; chunk++) {
        c = census_from(w.data, w.len, chunk, 0, NULL);
        CU_ASSERT_EQUAL(hs_census_sample_count(c), 2);
        CU_ASSERT_EQUAL(hs_census_band_count(c), 5);
        CU_ASSERT_EQUAL(bytes_in(c, 1, "go/main/Main.CAF"), 300);
        hs_census_free(c);
    }
    evw_free(&w);
    hs_census_free(NULL);
}

static void test_undefined_cost_centre(void)
{
    evw w;
    evw_start_ghc92(&w);
    evw_heap_prof_begin(&w, 1, 1000, 1);
    evw_cost_centre(&w, 2, 1, "main", "Main", "a.hs:1:1", 0);
    evw_sample_begin(&w, 10, 0);
    uint32_t st[] = {777, 1};
    evw_sample_ccs(&w, 11, 64, 2, st);
    evw_sample_ccs(&w, 12, 32, 1, st);
    evw_sample_end(&w, 13, 0);
    evw_data_end(&w);
    hs_census *c = census_of(&w);
    CU_ASSERT_EQUAL(bytes_in(c, 0, "<cc 777>/main"), 64);
    CU_ASSERT_EQUAL(bytes_in(c, 0, "<cc 777>"), 32);
    CU_ASSERT_TRUE(has_warning(c, "cost centre 777"));
    /* one warning per id, not per band */
    CU_ASSERT_EQUAL(hs_census_warning_count(c), 1);
    hs_census_free(c);
    evw_free(&w);
}

/* Band figures by hand: samples at 1 s, 2 s and 4 s stand for 0.5 s,
 * 1.5 s and 1 s (half the time to each neighbour). */
static void test_band_stats(void)
{
    evw w;
    evw_start_ghc92(&w);
    evw_heap_prof_begin(&w, 1, 1000, 4);
    evw_sample_begin(&w, 1000000000, 0);
    evw_sample_string(&w, 1000000001, 100, "A");
    evw_sample_end(&w, 1000000002, 0);
    evw_sample_begin(&w, 2000000000, 1);
    evw_sample_string(&w, 2000000001, 300, "A");
    evw_sample_string(&w, 2000000002, 200, "B");
    evw_sample_end(&w, 2000000003, 1);
    evw_sample_begin(&w, 4000000000, 2);
    evw_sample_string(&w, 4000000001, 400, "B");
    evw_sample_end(&w, 4000000002, 2);
    evw_data_end(&w);
    hs_census *c = census_of(&w);
    long a = band_named(c, "A"), b = band_named(c, "B");
    CU_ASSERT_FATAL(a >= 0 && b >= 0);
    hs_band_stats st[2];
    CU_ASSERT_EQUAL_FATAL(hs_census_band_count(c), 2);
    CU_ASSERT_EQUAL(hs_census_band_stats(c, st), HS_OK);
    CU_ASSERT_DOUBLE_EQUAL(st[a].byte_seconds, 500.0, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(st[b].byte_seconds, 700.0, 1e-6);
    CU_ASSERT_EQUAL(st[a].peak_bytes, 300);
    CU_ASSERT_EQUAL(st[a].peak_time_ns, 2000000000u);
    CU_ASSERT_EQUAL(st[b].peak_bytes, 400);
    CU_ASSERT_EQUAL(st[b].peak_time_ns, 4000000000u);
    CU_ASSERT_DOUBLE_EQUAL(st[a].mean_bytes, 400.0 / 3, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(st[a].stddev_bytes, 124.7219, 1e-3);
    CU_ASSERT_EQUAL(hs_census_peak_sample(c), 1);
    hs_census_free(c);
    evw_free(&w);

    /* One sample counts one second; no sample has no peak; a band never
     * above 0 peaks at the first sample (the page's rule too). */
    evw_start_ghc92(&w);
    evw_heap_prof_begin(&w, 1, 1000, 4);
    evw_sample_begin(&w, 5, 0);
    evw_sample_string(&w, 6, 10, "A");
    evw_sample_string(&w, 6, 0, "Z");
    evw_sample_end(&w, 7, 0);
    evw_data_end(&w);
    c = census_of(&w);
    a = band_named(c, "A");
    long z = band_named(c, "Z");
    CU_ASSERT_FATAL(a >= 0 && z >= 0);
    CU_ASSERT_EQUAL(hs_census_band_stats(c, st), HS_OK);
    CU_ASSERT_DOUBLE_EQUAL(st[a].byte_seconds, 10.0, 1e-9);
    CU_ASSERT_EQUAL(st[z].peak_bytes, 0);
    CU_ASSERT_EQUAL(st[z].peak_time_ns, 5);
    hs_census_free(c);
    evw_free(&w);
    c = hs_census_new();
    CU_ASSERT_EQUAL(hs_census_finish(c, true), HS_OK);
    CU_ASSERT_EQUAL(hs_census_peak_sample(c), SIZE_MAX);
    hs_census_free(c);
}

static void test_string_breakdowns(void)
{
    evw w;
    evw_start_ghc92(&w);
    evw_heap_prof_begin(&w, 1, 1000, 4);
    evw_sample_begin(&w, 10, 0);
    evw_sample_string(&w, 11, 16, "[]");
    evw_sample_string(&w, 12, 24, "Int, \"quoted\"\nline");
    evw_sample_string(&w, 13, 8, "[]"); /* same description twice */
    evw_sample_end(&w, 14, 0);
    evw_sample_begin(&w, 20, 0);
    evw_sample_end(&w, 21, 0); /* an empty census stays a sample */
    /* a second HEAP_PROF_BEGIN with another breakdown: warned */
    evw_heap_prof_begin(&w, 30, 1000, 7);
    evw_sample_begin(&w, 40, 0);
    evw_sample_string(&w, 41, 5, "ARR_WORDS");
    evw_sample_end(&w, 42, 0);
    evw_data_end(&w);
    hs_census *c = census_of(&w);
    CU_ASSERT_EQUAL(hs_census_get_info(c)->breakdown,
                    HS_BREAKDOWN_TYPE_DESCR);
    CU_ASSERT_EQUAL(hs_census_sample_count(c), 3);
    CU_ASSERT_EQUAL(bytes_in(c, 0, "[]"), 24);
    CU_ASSERT_EQUAL(bytes_in(c, 0, "Int, \"quoted\"\nline"), 24);
    const hs_census_entry *e;
    CU_ASSERT_EQUAL(hs_census_sample_entries(c, 1, &e), 0);
    CU_ASSERT_EQUAL(bytes_in(c, 2, "ARR_WORDS"), 5);
    CU_ASSERT_TRUE(has_warning(c, "second heap profile"));
    hs_census_free(c);
    evw_free(&w);
}

static hs_census *census_load_bytes(const uint8_t *data, size_t len, int *st,
                                    hs_error *err);

static void test_no_sample_end(void)
{
    /* GHC 8.2/8.4: no SAMPLE_END; a sample ends at the next begin. A log
     * cut among the events of its last sample may have stopped inside it:
     * that sample is left out. One followed by any other event was whole. */
    for (int followed = 0; followed < 2; followed++) {
        evw w;
        evw_init(&w);
        evw_header_begin(&w);
        evw_declare(&w, 58, EVW_VAR, "User marker");
        evw_declare(&w, 160, EVW_VAR, "Start of heap profile");
        evw_declare(&w, 162, 8, "Start of heap profile sample");
        evw_declare(&w, 164, EVW_VAR, "Heap profile string sample");
        evw_header_end(&w);
        evw_heap_prof_begin(&w, 1, 1000, 3);
        evw_sample_begin(&w, 10, 0);
        evw_sample_string(&w, 11, 1, "A");
        evw_sample_string(&w, 12, 2, "B");
        evw_sample_begin(&w, 20, 0);
        evw_sample_string(&w, 21, 3, "A");
        evw_sample_begin(&w, 30, 0);
        evw_sample_string(&w, 31, 4, "B");
        if (followed)
            evw_string_event(&w, 58, 40, "after");
        /* no data-end marker either: a truncated log */
        int st;
        hs_census *c = census_from(w.data, w.len, 0, 0, &st);
        CU_ASSERT_EQUAL(st, HS_TRUNCATED);
        CU_ASSERT_FALSE(hs_census_get_info(c)->complete);
        CU_ASSERT_EQUAL(hs_census_sample_count(c), followed ? 3 : 2);
        CU_ASSERT_EQUAL(bytes_in(c, 0, "B"), 2);
        CU_ASSERT_EQUAL(bytes_in(c, 1, "A"), 3);
        CU_ASSERT_EQUAL(bytes_in(c, 1, "B"), 0);
        CU_ASSERT_EQUAL(has_warning(c, "0.0000 s, was cut and is left out"),
                        !followed);
        if (followed) {
            CU_ASSERT_EQUAL(bytes_in(c, 2, "B"), 4);
            CU_ASSERT_EQUAL(hs_census_sample_time(c, 2), 30);
        }
        hs_error err;
        hs_census *l = census_load_bytes(w.data, w.len, &st, &err);
        CU_ASSERT_EQUAL(hs_census_sample_count(l), followed ? 3 : 2);
        hs_census_free(l);
        hs_census_free(c);

        /* with its data-end marker the log is whole: every sample stays */
        evw_data_end(&w);
        c = census_from(w.data, w.len, 0, 0, &st);
        CU_ASSERT_EQUAL(hs_census_sample_count(c), 3);
        CU_ASSERT_FALSE(has_warning(c, "was cut"));
        hs_census_free(c);
        evw_free(&w);
    }
}

static void test_biographical_order(void)
{
    /* -hb censuses all come at exit with one era: placed by their time */
    evw w;
    evw_start_ghc92(&w);
    evw_heap_prof_begin(&w, 1, 1000, 6);
    static const char *const states[] = {"VOID", "LAG", "USE",
                                         "INHERENT_USE", "DRAG"};
    uint64_t times[] = {3000, 1000, 2000};
    for (int s = 0; s < 3; s++) {
        evw_bio_sample_begin(&w, 9000 + (uint64_t)s, 4, times[s]);
        for (int k = 0; k < 5; k++)
            evw_sample_string(&w, 9000, times[s] + (uint64_t)k, states[k]);
        evw_sample_end(&w, 9000, 4);
    }
    evw_data_end(&w);
    hs_census *c = census_of(&w);
    CU_ASSERT_EQUAL_FATAL(hs_census_sample_count(c), 3);
    for (size_t i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL(hs_census_sample_time(c, i), 1000 * (i + 1));
        CU_ASSERT_EQUAL(bytes_in(c, i, "VOID"), (long long)(1000 * (i + 1)));
        CU_ASSERT_EQUAL(bytes_in(c, i, "DRAG"),
                        (long long)(1000 * (i + 1) + 4));
    }
    hs_census_free(c);
    evw_free(&w);
}

static void test_ipe_resolution(void)
{
    /* GHC 9.2 layout; IPE records after the samples that use them */
    evw w;
    evw_start_ghc92(&w);
    evw_heap_prof_begin(&w, 1, 1000, 8);
    evw_sample_begin(&w, 10, 0);
    evw_sample_string(&w, 11, 100, "0x409f78");
    evw_sample_string(&w, 12, 200, "0x40a088");
    evw_sample_string(&w, 13, 300, "0x40a0f8");
    evw_sample_string(&w, 14, 400, "0xdeadbeef");
    evw_sample_end(&w, 15, 0);
    evw_ipe(&w, 20, 0x409f78, "sat_s154_info", "21", "Integer -> IO ()",
            "main", "Main", "Test.hs:5:1-30");
    evw_ipe(&w, 21, 0x40a088, "main_info", "21", "IO ()", "main", "Main",
            "Test.hs:5:1-30");
    evw_ipe(&w, 22, 0x40a0f8, "main_info", "21", "IO ()", "main", "Main",
            "Test.hs:5:1-4");
    evw_data_end(&w);
    hs_census *c = census_of(&w);
    CU_ASSERT_EQUAL(hs_census_get_info(c)->ipe_records, 3);
    CU_ASSERT_EQUAL(bytes_in(c, 0, "sat_s154_info :: Integer -> IO () at "
                                   "Test.hs:5:1-30 (0x409f78)"), 100);
    /* two tables with one name stay two bands */
    CU_ASSERT_EQUAL(bytes_in(c, 0, "main_info :: IO () at Test.hs:5:1-30 "
                                   "(0x40a088)"), 200);
    CU_ASSERT_EQUAL(bytes_in(c, 0, "main_info :: IO () at Test.hs:5:1-4 "
                                   "(0x40a0f8)"), 300);
    /* no record: the address stays */
    CU_ASSERT_EQUAL(bytes_in(c, 0, "0xdeadbeef"), 400);
    hs_census_free(c);
    evw_free(&w);

    /* GHC 9.10 layout: the records first, each declared a byte long */
    evw_start_ghc92(&w);
    evw_ipe_ghc910(&w, 1, 0x409f78, "sat_s154_info", "21",
                   "Integer -> IO ()", "main", "Main", "Test.hs:5:1-30");
    evw_ipe_ghc910(&w, 2, 0x40a088, "main_info", "21", "IO ()", "main",
                   "Main", "Test.hs:5:1-30");
    evw_heap_prof_begin(&w, 3, 1000, 8);
    evw_sample_begin(&w, 10, 0);
    evw_sample_string(&w, 11, 100, "0x409f78");
    evw_sample_string(&w, 12, 200, "0x40a088");
    evw_sample_end(&w, 15, 0);
    evw_data_end(&w);
    c = census_of(&w);
    CU_ASSERT_EQUAL(hs_census_get_info(c)->ipe_records, 2);
    CU_ASSERT_EQUAL(hs_census_sample_count(c), 1);
    CU_ASSERT_EQUAL(bytes_in(c, 0, "sat_s154_info :: Integer -> IO () at "
                                   "Test.hs:5:1-30 (0x409f78)"), 100);
    CU_ASSERT_EQUAL(bytes_in(c, 0, "main_info :: IO () at Test.hs:5:1-30 "
                                   "(0x40a088)"), 200);
    hs_census_free(c);
    evw_free(&w);
}

static void test_time_profile(void)
{
    evw w;
    evw_start_ghc92(&w);
    evw_cost_centre(&w, 1, 1, "f", "M", "m.hs:1:1", 0);
    evw_cost_centre(&w, 2, 2, "main", "Main", "a.hs:1:1", 0);
    evw_event(&w, 168, 3, 0);
    evw_u64(&w, 1000000);
    uint32_t st[][2] = {{1, 2}, {2, 0}};
    uint32_t caps[] = {0, 1, 0, 0, 1};
    int which[] = {0, 0, 1, 0, 0};
    for (int i = 0; i < 5; i++) {
        size_t e = evw_event(&w, 167, 10 + (uint64_t)i, 1);
        evw_u32(&w, caps[i]);
        evw_u64(&w, (uint64_t)i);
        int depth = which[i] == 0 ? 2 : 1;
        evw_u8(&w, (uint8_t)depth);
        for (int k = 0; k < depth; k++)
            evw_u32(&w, st[which[i]][k]);
        evw_event_end(&w, e);
    }
    evw_data_end(&w);
    hs_census *c = census_of(&w);
    const hs_census_info *info = hs_census_get_info(c);
    CU_ASSERT_EQUAL(info->tick_interval_ns, 1000000);
    CU_ASSERT_EQUAL(info->time_samples, 5);
    CU_ASSERT_EQUAL(info->breakdown, 0);
    CU_ASSERT_EQUAL_FATAL(hs_census_tprof_count(c), 2);
    const uint32_t *ids;
    uint64_t ticks;
    CU_ASSERT_EQUAL(hs_census_tprof_stack(c, 0, -1, &ids, &ticks), 2);
    CU_ASSERT_EQUAL(ticks, 4);
    CU_ASSERT_EQUAL(ids[0], 1);
    hs_census_tprof_stack(c, 0, 1, &ids, &ticks);
    CU_ASSERT_EQUAL(ticks, 2);
    hs_census_tprof_stack(c, 0, 7, &ids, &ticks);
    CU_ASSERT_EQUAL(ticks, 0);
    CU_ASSERT_EQUAL(hs_census_tprof_stack(c, 1, -1, &ids, &ticks), 1);
    CU_ASSERT_EQUAL(ticks, 1);
    uint64_t sum = 0;
    for (size_t k = 0; k < hs_census_tprof_cap_count(c); k++) {
        size_t stack;
        uint32_t cap;
        sum += hs_census_tprof_cap_at(c, k, &stack, &cap);
        CU_ASSERT_TRUE(cap <= 1 && stack <= 1);
    }
    CU_ASSERT_EQUAL(sum, 5);
    hs_census_free(c);
    evw_free(&w);
}

static void test_heap_lines_and_orphans(void)
{
    evw w;
    evw_start_ghc92(&w);
    /* per-capability buffers: points come out of time order */
    size_t b1 = evw_block(&w, 50, 1);
    evw_event(&w, 50, 60, 0);
    evw_u32(&w, 0);
    evw_u64(&w, 4096);
    evw_block_end(&w, b1, 60);
    size_t b0 = evw_block(&w, 10, 0);
    evw_event(&w, 50, 20, 0);
    evw_u32(&w, 0);
    evw_u64(&w, 2048);
    evw_block_end(&w, b0, 20);
    evw_heap_prof_begin(&w, 70, 1000, 3);
    /* a sample event with no SAMPLE_BEGIN: kept, with a warning */
    evw_sample_string(&w, 80, 9, "X");
    evw_data_end(&w);
    hs_census *c = census_of(&w);
    const hs_census_point *pts;
    CU_ASSERT_EQUAL_FATAL(hs_census_heap_line(c, HS_LINE_HEAP_SIZE, &pts),
                          2);
    CU_ASSERT_EQUAL(pts[0].time_ns, 20);
    CU_ASSERT_EQUAL(pts[0].bytes, 2048);
    CU_ASSERT_EQUAL(pts[1].bytes, 4096);
    CU_ASSERT_EQUAL(hs_census_heap_line(c, HS_LINE_HEAP_LIVE, &pts), 0);
    CU_ASSERT_EQUAL(hs_census_get_info(c)->capabilities, 2);
    CU_ASSERT_EQUAL(hs_census_sample_count(c), 1);
    CU_ASSERT_EQUAL(bytes_in(c, 0, "X"), 9);
    CU_ASSERT_TRUE(has_warning(c, "outside any sample"));
    hs_census_free(c);
    evw_free(&w);
}

static void test_huge_stack(void)
{
    /* the deepest stack the format carries (255) names fine; with -L the
     * name is cut */
    evw w;
    evw_start_ghc92(&w);
    evw_heap_prof_begin(&w, 1, 1000, 1);
    uint32_t st[255];
    for (uint32_t i = 0; i < 255; i++) {
        char label[32];
        snprintf(label, sizeof label, "function_number_%u", i);
        evw_cost_centre(&w, 2, i + 1, label, "Deep", "d.hs:1:1", 0);
        st[i] = i + 1;
    }
    evw_sample_begin(&w, 10, 0);
    evw_sample_ccs(&w, 11, 1024, 255, st);
    evw_sample_end(&w, 12, 0);
    evw_data_end(&w);
    hs_census *c = census_of(&w);
    CU_ASSERT_EQUAL_FATAL(hs_census_band_count(c), 1);
    const char *name = hs_census_band_name(c, 0);
    CU_ASSERT_TRUE(strncmp(name, "function_number_0/function_number_1/",
                           36) == 0);
    CU_ASSERT_TRUE(strlen(name) > 4000);
    hs_census_free(c);
    c = census_from(w.data, w.len, 0, 25, NULL);
    CU_ASSERT_STRING_EQUAL(hs_census_band_name(c, 0),
                           "function_number_0/fun...");
    hs_census_free(c);
    evw_free(&w);
}

/* The same log through a pipe written a byte at a time. */
static void test_load_fd_pipe(void)
{
    evw w;
    build_hc(&w);
    int fds[2];
    CU_ASSERT_EQUAL_FATAL(pipe(fds), 0);
    pid_t pid = fork();
    CU_ASSERT_TRUE_FATAL(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        for (size_t i = 0; i < w.len; i++)
            if (write(fds[1], w.data + i, 1) != 1)
                _exit(1);
        _exit(0);
    }
    close(fds[1]);
    hs_census *c = hs_census_new();
    hs_error err;
    CU_ASSERT_EQUAL(hs_census_load_fd(c, fds[0], &err), HS_OK);
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    CU_ASSERT_EQUAL(hs_census_sample_count(c), 2);
    CU_ASSERT_EQUAL(bytes_in(c, 0, "go/main/Main.CAF"), 200);
    CU_ASSERT_EQUAL(hs_census_get_info(c)->source, HS_SOURCE_EVENTLOG);
    hs_census_free(c);

    /* a truncated log: everything before the cut, and HS_TRUNCATED */
    char path[] = "/tmp/heapscope-census-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_TRUE_FATAL(fd >= 0);
    unlink(path);
    CU_ASSERT_EQUAL((size_t)write(fd, w.data, w.len - 30), w.len - 30);
    lseek(fd, 0, SEEK_SET);
    c = hs_census_new();
    CU_ASSERT_EQUAL(hs_census_load_fd(c, fd, &err), HS_TRUNCATED);
    CU_ASSERT_EQUAL(err.code, HS_TRUNCATED);
    /* the cut falls inside the last sample, before its SAMPLE_END: that
     * sample is a fraction of a census and is left out, and the
     * truncation warning says so (issue 14) */
    CU_ASSERT_EQUAL(hs_census_sample_count(c), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "the last heap sample, at "
                                  "0.0000 s, was cut and is left out"));
    CU_ASSERT_EQUAL(hs_census_warning_count(c), 0);
    CU_ASSERT_FALSE(hs_census_get_info(c)->complete);
    hs_census_free(c);
    close(fd);

    /* not an eventlog at all */
    strcpy(path, "/tmp/heapscope-census-XXXXXX");
    fd = mkstemp(path);
    unlink(path);
    CU_ASSERT_EQUAL(write(fd, "\x01\x02\x03\x04\x05", 5), 5);
    lseek(fd, 0, SEEK_SET);
    c = hs_census_new();
    CU_ASSERT_EQUAL(hs_census_load_fd(c, fd, &err), HS_ERR_BAD_MAGIC);
    CU_ASSERT_EQUAL(err.code, HS_ERR_BAD_MAGIC);
    hs_census_free(c);
    close(fd);
    evw_free(&w);
}


/* Decoding only the census's tags (as hs_census_load_fd reads) gives the
 * same census as decoding everything; a stack that runs past its event is
 * reported with the event's offset and index. */
static void test_decode_only_census_tags(void)
{
    evw w;
    build_hc(&w);
    hs_reader *r = hs_reader_new();
    uint16_t tags[64];
    size_t ntags = hs_census_event_tags(tags, 64);
    CU_ASSERT_FATAL(ntags > 10 && ntags <= 64);
    for (size_t i = 0; i < ntags; i++) /* the tags the census needs */
        CU_ASSERT(tags[i] >= HS_EV_RTS_IDENTIFIER ||
                  tags[i] == HS_EV_USER_MSG);
    hs_reader_decode_only(r, tags, ntags);
    hs_census *c = hs_census_new();
    hs_reader_feed(r, w.data, w.len);
    hs_event ev;
    while (hs_reader_next(r, &ev) == HS_EVENT)
        CU_ASSERT_EQUAL(hs_census_add_event(c, &ev), HS_OK);
    CU_ASSERT_EQUAL(hs_census_finish(c, true), HS_OK);
    /* the same census as from decoded events */
    hs_census *d = census_of(&w);
    CU_ASSERT_EQUAL(hs_census_band_count(c), hs_census_band_count(d));
    CU_ASSERT_EQUAL(hs_census_sample_count(c), hs_census_sample_count(d));
    for (size_t b = 0; b < hs_census_band_count(d); b++)
        CU_ASSERT_STRING_EQUAL(hs_census_band_name(c, b),
                               hs_census_band_name(d, b));
    for (size_t i = 0; i < hs_census_sample_count(d); i++)
        CU_ASSERT_EQUAL(hs_census_sample_total(c, i),
                        hs_census_sample_total(d, i));
    char jc[128], jd[128];
    hs_render_hp_job(c, jc, sizeof jc);
    hs_render_hp_job(d, jd, sizeof jd);
    CU_ASSERT_STRING_EQUAL(jc, jd);
    CU_ASSERT_EQUAL(hs_census_marker_count(c), 1);
    CU_ASSERT_EQUAL(hs_census_error(c)->code, HS_OK);
    hs_census_free(c);
    hs_census_free(d);
    hs_reader_free(r);
    evw_free(&w);

    /* depth 5 but room for one id */
    evw_start_ghc92(&w);
    evw_heap_prof_begin(&w, 1, 1000, 1);
    evw_sample_begin(&w, 2, 0);
    size_t at = evw_event(&w, 163, 3, 1);
    evw_u8(&w, 0);
    evw_u64(&w, 8);
    evw_u8(&w, 5);
    evw_u32(&w, 1);
    evw_event_end(&w, at);
    evw_data_end(&w);
    char path[] = "/tmp/heapscope-framed-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_TRUE_FATAL(fd >= 0);
    unlink(path);
    CU_ASSERT_EQUAL((size_t)write(fd, w.data, w.len), w.len);
    lseek(fd, 0, SEEK_SET);
    c = hs_census_new();
    hs_error err;
    CU_ASSERT_EQUAL(hs_census_load_fd(c, fd, &err), HS_ERR_MALFORMED_EVENT);
    CU_ASSERT_EQUAL(err.code, HS_ERR_MALFORMED_EVENT);
    CU_ASSERT_EQUAL(err.offset, at);
    CU_ASSERT_EQUAL(err.event_index, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "HEAP_PROF_SAMPLE_COST_CENTRE"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "stack of depth 5"));
    hs_census_free(c);
    close(fd);
    evw_free(&w);
}

/* Markers from several capability buffers arrive out of order; they come
 * out in time order, equal times in arrival order. */
static void test_marker_order(void)
{
    evw w;
    evw_start_ghc92(&w);
    uint64_t times[] = {50, 10, 40, 40, 20, 90, 5, 40, 70, 60, 30, 80};
    size_t n = sizeof times / sizeof times[0];
    for (size_t i = 0; i < n; i++) {
        char text[16];
        snprintf(text, sizeof text, "m%zu", i);
        evw_string_event(&w, 58, times[i], text);
    }
    evw_data_end(&w);
    hs_census *c = census_of(&w);
    CU_ASSERT_EQUAL_FATAL(hs_census_marker_count(c), n);
    for (size_t i = 1; i < n; i++)
        CU_ASSERT_TRUE(hs_census_marker_at(c, i - 1)->time_ns <=
                       hs_census_marker_at(c, i)->time_ns);
    /* the three at 40 keep their order: m2, m3, m7 */
    CU_ASSERT_STRING_EQUAL(hs_census_marker_at(c, 4)->text, "m2");
    CU_ASSERT_STRING_EQUAL(hs_census_marker_at(c, 5)->text, "m3");
    CU_ASSERT_STRING_EQUAL(hs_census_marker_at(c, 6)->text, "m7");
    hs_census_free(c);
    evw_free(&w);
}

/* Markers at times[0..n) come out as a stable sort by time would put
 * them (an insertion sort here, the reference). */
static void check_marker_order(const uint64_t *times, size_t n)
{
    evw w;
    evw_start_ghc92(&w);
    size_t *want = malloc(n * sizeof *want);
    CU_ASSERT_PTR_NOT_NULL_FATAL(want);
    for (size_t i = 0; i < n; i++) {
        char text[16];
        snprintf(text, sizeof text, "m%zu", i);
        evw_string_event(&w, 58, times[i], text);
        size_t j = i;
        for (; j > 0 && times[want[j - 1]] > times[i]; j--)
            want[j] = want[j - 1];
        want[j] = i;
    }
    evw_data_end(&w);
    hs_census *c = census_of(&w);
    CU_ASSERT_EQUAL_FATAL(hs_census_marker_count(c), n);
    size_t wrong = 0;
    for (size_t i = 0; i < n; i++) {
        char text[16];
        snprintf(text, sizeof text, "m%zu", want[i]);
        wrong += strcmp(hs_census_marker_at(c, i)->text, text) != 0;
    }
    CU_ASSERT_EQUAL(wrong, 0);
    hs_census_free(c);
    evw_free(&w);
    free(want);
}

/* The orders logs give: blocks of three capabilities interleaved, with
 * equal times across them; and orders no few sorted sequences make
 * (descending pairs, a saw-tooth with ties), which the sort takes too. */
static void test_marker_order_shapes(void)
{
    enum { N = 600 };
    static uint64_t t[N];
    for (size_t i = 0; i < N; i++) /* blocks of 10 from caps 0, 1, 2 */
        t[i] = (i / 30) * 100 + (i % 10) * 10 + (i / 10 % 3) % 2;
    check_marker_order(t, N);
    for (size_t i = 0; i < N; i++)
        t[i] = (N - i) / 2;
    check_marker_order(t, N);
    for (size_t i = 0; i < N; i++)
        t[i] = (i * 37) % 23 / 2;
    check_marker_order(t, N);
}

/* ---- corpus --------------------------------------------------------- */

static hs_census *load_corpus(const char *name)
{
    const char *dir = tu_corpus_dir();
    if (!dir)
        return NULL;
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return NULL;
    hs_census *c = hs_census_new();
    hs_error err;
    int st = hs_census_load_fd(c, fd, &err);
    close(fd);
    CU_ASSERT_TRUE(st == HS_OK || st == HS_TRUNCATED);
    return c;
}

/* Counts events with `tag` in a corpus log. */
static uint64_t count_tag(const char *name, uint16_t tag)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", tu_corpus_dir(), name);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    hs_reader *r = hs_reader_new();
    uint8_t buf[65536];
    ssize_t n;
    uint64_t count = 0;
    while ((n = read(fd, buf, sizeof buf)) > 0) {
        hs_reader_feed(r, buf, (size_t)n);
        hs_event ev;
        int st;
        while ((st = hs_reader_next(r, &ev)) == HS_EVENT)
            count += ev.tag == tag;
        if (st < 0 || st == HS_DONE)
            break;
    }
    hs_reader_free(r);
    close(fd);
    return count;
}

static void test_corpus(void)
{
    if (!tu_corpus_dir()) {
        tu_skip("no corpus (HEAPSCOPE_SHARED_DIR)");
        return;
    }
    /* GHC 8.2/8.4 logs with no SAMPLE_END */
    static const char *const sleep[] = {"sleep.h.eventlog",
                                        "sleep.hd.eventlog",
                                        "sleep.hm.eventlog",
                                        "sleep.hy.eventlog"};
    for (size_t i = 0; i < 4; i++) {
        hs_census *c = load_corpus(sleep[i]);
        if (!c)
            continue;
        uint64_t begins = count_tag(sleep[i], 162);
        uint64_t strings = count_tag(sleep[i], 164) + count_tag(sleep[i], 163);
        CU_ASSERT_EQUAL(hs_census_sample_count(c), begins);
        CU_ASSERT_TRUE(hs_census_get_info(c)->breakdown != 0);
        size_t entries = 0;
        for (size_t s = 0; s < hs_census_sample_count(c); s++) {
            const hs_census_entry *e;
            entries += hs_census_sample_entries(c, s, &e);
        }
        CU_ASSERT_TRUE(entries <= strings && entries > 0);
        hs_census_free(c);
    }
    /* biographical samples: placed by their own time, ascending */
    hs_census *c = load_corpus("biographical-samples.eventlog");
    if (c) {
        size_t n = hs_census_sample_count(c);
        CU_ASSERT_EQUAL(n, 6);
        CU_ASSERT_EQUAL(hs_census_sample_time(c, 0), 866544061);
        CU_ASSERT_EQUAL(hs_census_sample_time(c, n - 1), 4512086494);
        for (size_t i = 1; i < n; i++)
            CU_ASSERT_TRUE(hs_census_sample_time(c, i - 1) <
                           hs_census_sample_time(c, i));
        CU_ASSERT_EQUAL(hs_census_get_info(c)->breakdown,
                        HS_BREAKDOWN_BIOGRAPHY);
        hs_census_free(c);
    }
    /* the time profile: one tick per PROF_SAMPLE_COST_CENTRE */
    c = load_corpus("time-prof.eventlog");
    if (c) {
        uint64_t total = 0, ticks;
        const uint32_t *ids;
        for (size_t i = 0; i < hs_census_tprof_count(c); i++) {
            hs_census_tprof_stack(c, i, -1, &ids, &ticks);
            total += ticks;
        }
        CU_ASSERT_EQUAL(total, count_tag("time-prof.eventlog", 167));
        CU_ASSERT_EQUAL(hs_census_get_info(c)->time_samples, total);
        CU_ASSERT_EQUAL(hs_census_get_info(c)->tick_interval_ns, 1000000);
        hs_census_free(c);
    }
    c = load_corpus("stop.hT.eventlog");
    if (c) {
        CU_ASSERT_EQUAL(hs_census_sample_count(c), 14);
        CU_ASSERT_EQUAL(hs_census_get_info(c)->breakdown,
                        HS_BREAKDOWN_CLOSURE_TYPE);
        hs_census_free(c);
    }
    c = load_corpus("ghc-9.2-events.eventlog");
    if (c) {
        CU_ASSERT_EQUAL(hs_census_get_info(c)->ipe_records, 4);
        hs_census_free(c);
    }
}


/* ---- integrity (issue 14) -------------------------------------------- */

/* Loads bytes with hs_census_load_fd from a temporary file. */
static hs_census *census_load_bytes(const uint8_t *data, size_t len, int *st,
                                    hs_error *err)
{
    char path[] = "/tmp/heapscope-census-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_TRUE_FATAL(fd >= 0);
    unlink(path);
    CU_ASSERT_EQUAL((size_t)write(fd, data, len), len);
    lseek(fd, 0, SEEK_SET);
    hs_census *c = hs_census_new();
    *st = hs_census_load_fd(c, fd, err);
    close(fd);
    return c;
}

static void test_cut_sample(void)
{
    /* a -hc log cut inside its second sample: every cut point gives only
     * whole samples (totals 300, then 700), never a fraction of one */
    evw w;
    evw_start_ghc92(&w);
    evw_heap_prof_begin(&w, 1, 1000, 1);
    evw_cost_centre(&w, 2, 1, "main", "Main", "a.hs:1:1", 0);
    evw_cost_centre(&w, 3, 2, "go", "Main", "a.hs:2:1", 0);
    uint32_t s1[] = {1}, s2[] = {2, 1};
    evw_sample_begin(&w, 100000000, 0);
    evw_sample_ccs(&w, 100000001, 100, 1, s1);
    evw_sample_ccs(&w, 100000002, 200, 2, s2);
    evw_sample_end(&w, 100000003, 0);
    size_t begin2 = w.len;
    evw_sample_begin(&w, 247600000, 1);
    evw_sample_ccs(&w, 247600001, 300, 1, s1);
    uint32_t s3[] = {1, 2, 1}; /* a band only this sample has */
    evw_sample_ccs(&w, 247600002, 400, 3, s3);
    size_t end2 = w.len;
    evw_sample_end(&w, 247600003, 1);
    for (size_t cut = begin2; cut <= w.len; cut++) {
        int st;
        hs_census *c = census_from(w.data, cut, 0, 0, &st);
        size_t n = hs_census_sample_count(c);
        CU_ASSERT_EQUAL(n, cut < w.len ? 1 : 2);
        CU_ASSERT_EQUAL(hs_census_sample_total(c, 0), 300);
        if (n == 2)
            CU_ASSERT_EQUAL(hs_census_sample_total(c, 1), 700);
        CU_ASSERT_EQUAL(hs_census_band_count(c), n == 2 ? 3 : 2);
        CU_ASSERT_EQUAL(hs_census_peak_sample(c), n - 1);
        /* once the SAMPLE_BEGIN is whole, the cut is said */
        bool said = has_warning(c, "the last heap sample, at 0.2476 s, was "
                                   "cut and is left out");
        CU_ASSERT_EQUAL(said, cut >= begin2 + 18 && cut < w.len);
        hs_census_free(c);
    }
    /* through hs_census_load_fd the same goes into the truncation message
     * instead of the warnings */
    int st;
    hs_error err;
    hs_census *c = census_load_bytes(w.data, end2, &st, &err);
    CU_ASSERT_EQUAL(st, HS_TRUNCATED);
    CU_ASSERT_EQUAL(hs_census_sample_count(c), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "; the last heap sample, at "
                                  "0.2476 s, was cut and is left out"));
    CU_ASSERT_FALSE(has_warning(c, "was cut"));
    hs_census_free(c);
    evw_free(&w);
}

static void test_cut_biographical(void)
{
    /* -hb: censuses written at exit; a cut among them leaves the whole
     * ones, drops the cut one and warns that later ones may be missing */
    evw w;
    evw_start_ghc92(&w);
    evw_heap_prof_begin(&w, 1, 1000, 6);
    size_t ends[3];
    for (int s = 0; s < 3; s++) {
        evw_bio_sample_begin(&w, 9000, 4, 1000 * (uint64_t)(s + 1));
        evw_sample_string(&w, 9000, 10, "VOID");
        evw_sample_string(&w, 9000, 20, "LAG");
        evw_sample_end(&w, 9000, 4);
        ends[s] = w.len;
    }
    int st;
    hs_census *c = census_from(w.data, ends[1] - 5, 0, 0, &st);
    CU_ASSERT_EQUAL(hs_census_sample_count(c), 1);
    CU_ASSERT_TRUE(has_warning(c, "was cut and is left out"));
    CU_ASSERT_TRUE(has_warning(c, "censuses after the cut may be missing"));
    hs_census_free(c);
    c = census_from(w.data, ends[1], 0, 0, &st);
    CU_ASSERT_EQUAL(hs_census_sample_count(c), 2);
    CU_ASSERT_FALSE(has_warning(c, "was cut"));
    CU_ASSERT_TRUE(has_warning(c, "may be missing"));
    hs_census_free(c);
    evw_data_end(&w);
    c = census_of(&w);
    CU_ASSERT_EQUAL(hs_census_sample_count(c), 3);
    CU_ASSERT_EQUAL(hs_census_warning_count(c), 0);
    hs_census_free(c);
    evw_free(&w);
}

static void test_empty_samples(void)
{
    /* samples and no band at all (empty-samples.hp): no NULL + 0 in the
     * band statistics (UBSan checks it), empty entries never NULL */
    evw w;
    evw_start_ghc92(&w);
    evw_heap_prof_begin(&w, 1, 1000, 7);
    for (uint64_t t = 1; t <= 3; t++) {
        evw_sample_begin(&w, t * 1000, t);
        evw_sample_end(&w, t * 1000 + 1, t);
    }
    evw_data_end(&w);
    hs_census *c = census_of(&w);
    CU_ASSERT_EQUAL(hs_census_sample_count(c), 3);
    CU_ASSERT_EQUAL(hs_census_band_count(c), 0);
    hs_band_stats one;
    CU_ASSERT_EQUAL(hs_census_band_stats(c, &one), HS_OK);
    const hs_census_entry *e = NULL;
    CU_ASSERT_EQUAL(hs_census_sample_entries(c, 1, &e), 0);
    CU_ASSERT_PTR_NOT_NULL(e);
    CU_ASSERT_EQUAL(hs_census_peak_sample(c), 0);
    hs_band_groups *g = hs_band_groups_new(c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    CU_ASSERT_EQUAL(hs_band_groups_count(g), 0);
    CU_ASSERT_EQUAL(hs_band_groups_sample(g, 2, &e), 0);
    hs_band_groups_free(g);
    hs_census_free(c);
    evw_free(&w);
}

static void test_one_end_time(void)
{
    /* a corrupt timestamp inside a capability's block (times going back
     * after it): hs_census_load_fd and hs_census_add_event agree */
    evw w;
    evw_start_ghc92(&w);
    size_t b = evw_block(&w, 1000, 0);
    static const uint64_t times[] = {31000000, 144115188000000000ull,
                                     5000000, 31000000};
    for (int i = 0; i < 4; i++) {
        evw_event(&w, 50, times[i], 0); /* HEAP_SIZE */
        evw_u32(&w, 0);
        evw_u64(&w, 4096);
    }
    evw_block_end(&w, b, 31000000);
    size_t b1 = evw_block(&w, 2000, 1);
    evw_event(&w, 50, 20000000, 0);
    evw_u32(&w, 0);
    evw_u64(&w, 8192);
    evw_block_end(&w, b1, 20000000);
    evw_data_end(&w);
    int st;
    hs_error err;
    hs_census *a = census_of(&w);
    hs_census *l = census_load_bytes(w.data, w.len, &st, &err);
    CU_ASSERT_EQUAL(st, HS_OK);
    const hs_census_info *ia = hs_census_get_info(a),
                         *il = hs_census_get_info(l);
    CU_ASSERT_EQUAL(ia->end_time_ns, il->end_time_ns);
    CU_ASSERT_EQUAL(ia->end_time_ns, 144115188000000000ull);
    CU_ASSERT_EQUAL(ia->events, il->events);
    CU_ASSERT_EQUAL(ia->capabilities, il->capabilities);
    CU_ASSERT_EQUAL(il->capabilities, 2);
    hs_census_free(a);
    hs_census_free(l);
    evw_free(&w);
}

static void test_band_groups(void)
{
    /* two stacks with the same labels, and -L cutting two names to one:
     * one group each, their bytes summed, saturating */
    evw w;
    evw_start_ghc92(&w);
    evw_heap_prof_begin(&w, 1, 1000, 1);
    evw_cost_centre(&w, 2, 1, "f", "M", "a.hs:1:1", 0);
    evw_cost_centre(&w, 3, 2, "f", "M", "a.hs:9:1", 0); /* same label */
    evw_cost_centre(&w, 4, 3, "a_long_name_one", "M", "a.hs:3:1", 0);
    evw_cost_centre(&w, 5, 4, "a_long_name_two", "M", "a.hs:4:1", 0);
    uint32_t s1[] = {1}, s2[] = {2}, s3[] = {3}, s4[] = {4};
    evw_sample_begin(&w, 10, 0);
    evw_sample_ccs(&w, 11, UINT64_MAX - 5, 1, s1);
    evw_sample_ccs(&w, 12, 10, 1, s3);
    evw_sample_ccs(&w, 13, 7, 1, s2);
    evw_sample_ccs(&w, 14, 20, 1, s4);
    evw_sample_end(&w, 15, 0);
    evw_data_end(&w);
    hs_census *c = census_from(w.data, w.len, 0, 10, NULL);
    CU_ASSERT_EQUAL(hs_census_band_count(c), 4); /* the model keeps all */
    hs_band_groups *g = hs_band_groups_new(c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    CU_ASSERT_EQUAL_FATAL(hs_band_groups_count(g), 2);
    CU_ASSERT_STRING_EQUAL(hs_band_groups_name(g, 0), "f");
    CU_ASSERT_STRING_EQUAL(hs_band_groups_name(g, 1), "a_long...");
    CU_ASSERT_EQUAL(hs_band_groups_of(g, 2), 0); /* stack {2}: band 2 */
    const hs_census_entry *e;
    CU_ASSERT_EQUAL_FATAL(hs_band_groups_sample(g, 0, &e), 2);
    CU_ASSERT_EQUAL(e[0].band, 0);
    CU_ASSERT_EQUAL(e[0].bytes, UINT64_MAX); /* saturated, not wrapped */
    CU_ASSERT_EQUAL(e[1].band, 1);
    CU_ASSERT_EQUAL(e[1].bytes, 30);
    hs_band_groups_free(g);
    /* the model keeps whole names: the limit can be lifted or changed
     * afterwards, and only the view joins what it cuts alike */
    hs_census_set_name_limit(c, 0);
    CU_ASSERT_STRING_EQUAL(hs_census_band_name(c, 1), "a_long_name_one");
    g = hs_band_groups_new(c);
    CU_ASSERT_EQUAL(hs_band_groups_count(g), 3);
    hs_band_groups_free(g);
    hs_census_set_name_limit(c, 13);
    CU_ASSERT_STRING_EQUAL(hs_census_band_name(c, 3), "a_long_na...");
    CU_ASSERT_EQUAL(hs_census_error(c)->code, HS_OK);
    hs_census_free(c);
    evw_free(&w);
}


struct failing { unsigned long calls, fail_at; };

static void *f_malloc(void *u, size_t n)
{
    struct failing *f = u;
    return ++f->calls == f->fail_at ? NULL : malloc(n);
}

static void *f_realloc(void *u, void *p, size_t n)
{
    struct failing *f = u;
    return ++f->calls == f->fail_at ? NULL : realloc(p, n);
}

static void f_free(void *u, void *p)
{
    (void)u;
    free(p);
}

static void test_nomem_keeps_offset(void)
{
    /* out of memory on any allocation while adding events: the error
     * names the event being added (offset and index), and it is the
     * first error that stays */
    evw w;
    build_hc(&w);
    unsigned long failures = 0;
    for (unsigned long n = 1; n < 5000; n++) {
        struct failing f = {0, n};
        hs_allocator a = {f_malloc, f_realloc, f_free, &f};
        hs_census *c = hs_census_new_with(&a);
        hs_reader *r = hs_reader_new();
        if (!c) {
            hs_reader_free(r);
            continue;
        }
        hs_reader_feed(r, w.data, w.len);
        hs_event ev;
        int st = HS_OK;
        while (st == HS_OK && hs_reader_next(r, &ev) == HS_EVENT)
            st = hs_census_add_event(c, &ev);
        if (st == HS_ERR_NOMEM) {
            failures++;
            const hs_error *e = hs_census_error(c);
            CU_ASSERT_EQUAL(e->code, HS_ERR_NOMEM);
            CU_ASSERT_EQUAL(e->offset, ev.offset);
            CU_ASSERT_EQUAL(e->event_index, ev.index);
            /* sticky: later calls return it and do not change it */
            CU_ASSERT_EQUAL(hs_census_add_event(c, &ev), HS_ERR_NOMEM);
            CU_ASSERT_EQUAL(hs_census_finish(c, true), HS_ERR_NOMEM);
            CU_ASSERT_EQUAL(hs_census_error(c)->offset, ev.offset);
        } else {
            CU_ASSERT_EQUAL(st, HS_OK);
        }
        hs_census_free(c);
        hs_reader_free(r);
        if (f.calls < n)
            break; /* no allocation left to fail */
    }
    CU_ASSERT_TRUE(failures >= 10);
    evw_free(&w);
}


static void rts_id_event(evw *w, const char *id)
{
    size_t s = evw_event(w, 29, 1, 1);
    evw_u32(w, 0);
    evw_bytes(w, id, strlen(id));
    evw_event_end(w, s);
}

static void test_cut_first_sample(void)
{
    /* a cut inside the very first sample, before any SAMPLE_END: the
     * fraction is left out whether the runtime closes its samples (GHC
     * 8.9 and later, or a -hb log) or not (GHC 8.4: the log stops among
     * the sample's events). An event of another kind after it (`then`)
     * shows an 8.4 sample whole; a closing runtime's sample is still open */
    static const struct {
        const char *rts;
        int bd, then;
        size_t want;
    } cases[] = {
        {"GHC-9.0.2 rts_p", 1, 0, 0},
        {"GHC-9.0.2 rts_p", 1, 1, 0},
        {"GHC-8.10.7 rts_p", 1, 0, 0},
        {"GHC-8.4.3 rts_p", 1, 0, 0},
        {"GHC-8.4.3 rts_p", 1, 1, 1},
        {NULL, 1, 0, 0},           /* unknown runtime */
        {NULL, 1, 1, 1},
        {NULL, 6, 1, 0},           /* -hb: closed by its runtime */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        evw w;
        evw_start_ghc92(&w);
        if (cases[k].rts)
            rts_id_event(&w, cases[k].rts);
        evw_heap_prof_begin(&w, 2, 1000, (uint32_t)cases[k].bd);
        evw_cost_centre(&w, 3, 1, "main", "Main", "a.hs:1:1", 0);
        uint32_t s1[] = {1};
        if (cases[k].bd == 6)
            evw_bio_sample_begin(&w, 10, 0, 10);
        else
            evw_sample_begin(&w, 10, 0);
        if (cases[k].bd == 6)
            evw_sample_string(&w, 11, 100, "VOID");
        else
            evw_sample_ccs(&w, 11, 100, 1, s1);
        if (cases[k].then)
            evw_string_event(&w, HS_EV_USER_MARKER, 12, "then");
        int st;
        hs_census *c = census_from(w.data, w.len, 0, 0, &st);
        CU_ASSERT_EQUAL(hs_census_sample_count(c), cases[k].want);
        CU_ASSERT_EQUAL(has_warning(c, "was cut and is left out"),
                        cases[k].want == 0);
        hs_error err;
        hs_census *l = census_load_bytes(w.data, w.len, &st, &err);
        CU_ASSERT_EQUAL(st, HS_TRUNCATED);
        CU_ASSERT_EQUAL(hs_census_sample_count(l), cases[k].want);
        hs_census_free(l);
        hs_census_free(c);
        evw_free(&w);
    }
}

int main(void)
{
    static const tu_test tests[] = {
        {"-hc names, -L, repeated and zero bands", test_hc_names},
        {"undefined cost centre", test_undefined_cost_centre},
        {"string breakdowns", test_string_breakdowns},
        {"band figures and the peak sample", test_band_stats},
        {"no SAMPLE_END (GHC 8.4)", test_no_sample_end},
        {"-hb placed by sample time", test_biographical_order},
        {"-hi through IPE records", test_ipe_resolution},
        {"time profile", test_time_profile},
        {"heap lines and orphan samples", test_heap_lines_and_orphans},
        {"huge stack", test_huge_stack},
        {"hs_census_load_fd: pipe, truncation, bad magic", test_load_fd_pipe},
        {"decoding only the census's tags; a malformed stack", test_decode_only_census_tags},
        {"markers out of order", test_marker_order},
        {"markers in the orders logs give", test_marker_order_shapes},
        {"corpus logs", test_corpus},
        {"a sample cut before its end is left out", test_cut_sample},
        {"-hb censuses cut", test_cut_biographical},
        {"a cut inside the first sample", test_cut_first_sample},
        {"samples without bands", test_empty_samples},
        {"one end time whichever way loaded", test_one_end_time},
        {"band groups: joined by name, saturating", test_band_groups},
        {"out of memory keeps the event's offset", test_nomem_keeps_offset},
        {NULL, NULL},
    };
    return tu_main("census", NULL, NULL, tests);
}
