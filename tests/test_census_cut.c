/*
 * Tests of the census on cut and partial logs (issue 14): a sample cut
 * before its end is left out (-hc, -hb, the first sample, GHC 8.4 logs
 * without SAMPLE_END), samples without bands, one end time whichever way
 * the log is loaded.
 */
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
        {"no SAMPLE_END (GHC 8.4)", test_no_sample_end},
        {"a sample cut before its end is left out", test_cut_sample},
        {"-hb censuses cut", test_cut_biographical},
        {"a cut inside the first sample", test_cut_first_sample},
        {"samples without bands", test_empty_samples},
        {"one end time whichever way loaded", test_one_end_time},
        {NULL, NULL},
    };
    return tu_main("census_cut", NULL, NULL, tests);
}
