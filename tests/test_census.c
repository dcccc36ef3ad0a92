/*
 * Tests of the census model: hand-built logs (tests/evwriter) for every
 * breakdown rule (-hc naming and -L, undefined cost centres, -hb placement,
 * -hi resolution, several HEAP_PROF_BEGIN, zero-byte and repeated bands,
 * band groups, the time profile). Cut logs are in test_census_cut.c; the
 * census's input (a pipe, decoding only its tags, memory, the corpus) in
 * test_census_input.c.
 */
#include <heapscope/heapscope.h>

#include "evwriter.h"
#include "census_build.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

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
 * equal times across them, and blocks written out of their time order;
 * and orders no few sorted sequences make
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
    /* a block that starts later written first: the chains' turns, of
     * several events at a time, stop at a tie with an earlier event */
    for (size_t i = 0; i < N; i++)
        t[i] = (i / 20) * 100 + (i % 20 < 10 ? 10 : 0) + (i % 10) / 3 * 10;
    check_marker_order(t, N);
    /* blocks of 1 to 40 from 2, 3 and 9 caps taking turns, each across
     * the same span, so that they overlap their neighbours, short ones
     * and long ones, with ties (each run merged in place); then the
     * same with a descending second half (the in-place merging gives up
     * half-way and the general way finishes) */
    uint64_t x = 1;
    for (int caps = 2; caps <= 9; caps += caps == 3 ? 6 : 1)
        for (int tail = 0; tail < 2; tail++) {
            for (size_t i = 0, b = 0; i < N; b++) {
                x = x * 6364136223846793005ull + 1442695040888963407ull;
                size_t len = 1 + (x >> 33) % 40;
                for (size_t j = 0; j < len && i < N; j++, i++)
                    t[i] = (b / (size_t)caps) * 60 + j * 60 / len / 5 * 5 +
                           (x >> 40) % 2 * 5;
                if (tail && i >= N / 2)
                    for (; i < N; i++)
                        t[i] = (N - i) / 2;
            }
            check_marker_order(t, N);
        }
}

/* ---- corpus --------------------------------------------------------- */


/* ---- integrity (issue 14) -------------------------------------------- */

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



int main(void)
{
    static const tu_test tests[] = {
        {"-hc names, -L, repeated and zero bands", test_hc_names},
        {"undefined cost centre", test_undefined_cost_centre},
        {"string breakdowns", test_string_breakdowns},
        {"band figures and the peak sample", test_band_stats},
        {"-hb placed by sample time", test_biographical_order},
        {"-hi through IPE records", test_ipe_resolution},
        {"time profile", test_time_profile},
        {"heap lines and orphan samples", test_heap_lines_and_orphans},
        {"huge stack", test_huge_stack},
        {"markers out of order", test_marker_order},
        {"markers in the orders logs give", test_marker_order_shapes},
        {"band groups: joined by name, saturating", test_band_groups},
        {NULL, NULL},
    };
    return tu_main("census", NULL, NULL, tests);
}
