/*
 * Tests of the time profile over time (src/census/census_tprof_time.h),
 * which the page's time-profile chart and table are drawn from: the
 * intervals (a whole number of ticks, reaching the log's end), self and
 * inherited ticks per interval (a cost centre recurring in a stack counts
 * once), the columns' order, the cell limit's "other", and out of memory.
 * Linked from the library's objects: the function is not public.
 */
#include <heapscope/heapscope.h>

#include "census/census_tprof_time.h"
#include "evwriter.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <string.h>

/* f (1) in main (2), f in f in main, main, g (3) in main: at 0.5, 1.5,
 * 2.5 and 5.5 ms, ticks of 1 ms. */
static void write_log(evw *w)
{
    static const uint32_t stacks[][3] = {{1, 2, 0}, {1, 1, 2}, {2, 0, 0},
                                         {3, 2, 0}};
    static const int depth[] = {2, 3, 1, 2};
    static const uint64_t at[] = {500000, 1500000, 2500000, 5500000};
    evw_start_ghc92(w);
    evw_cost_centre(w, 1, 1, "f", "M", "m.hs:1:1", 0);
    evw_cost_centre(w, 1, 2, "main", "Main", "a.hs:1:1", 0);
    evw_cost_centre(w, 1, 3, "g", "M", "m.hs:2:1", 0);
    evw_prof_begin(w, 2, 1000000);
    for (int i = 0; i < 4; i++)
        evw_prof_sample(w, at[i], 0, (uint64_t)i, depth[i], stacks[i]);
    evw_data_end(w);
}

static hs_census *census_with(const evw *w, const hs_allocator *a)
{
    hs_census *c = hs_census_new_with(a);
    hs_reader *r = hs_reader_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    hs_reader_feed(r, w->data, w->len);
    hs_event ev;
    while (hs_reader_next(r, &ev) == HS_EVENT)
        CU_ASSERT_EQUAL(hs_census_add_event(c, &ev), HS_OK);
    CU_ASSERT_EQUAL(hs_census_finish(c, hs_reader_finish(r) == HS_DONE), HS_OK);
    hs_reader_free(r);
    return c;
}

static void check_col(const uint64_t *v, const uint64_t *want, size_t n)
{
    for (size_t k = 0; k < n; k++)
        CU_ASSERT_EQUAL(v[k], want[k]);
}

static void test_intervals_and_recursion(void)
{
    evw w;
    write_log(&w);
    hs_census *c = census_with(&w, NULL);
    hs_tprof_series s;
    CU_ASSERT_EQUAL_FATAL(hs__census_tprof_series(c, 5, 1000, &s), HS_OK);
    /* 5.5 ms in 5 parts, rounded up to whole ticks: 2 ms, 3 intervals */
    CU_ASSERT_EQUAL(s.width_ns, 2000000);
    CU_ASSERT_EQUAL_FATAL(s.nintervals, 3);
    CU_ASSERT_EQUAL_FATAL(s.ncc, 3);
    CU_ASSERT_FALSE(s.other);
    CU_ASSERT_EQUAL(s.samples, 4);
    /* most self first; main before g by inherited ticks */
    CU_ASSERT_EQUAL(s.cc[0], 1);
    CU_ASSERT_EQUAL(s.cc[1], 2);
    CU_ASSERT_EQUAL(s.cc[2], 3);
    check_col(s.self, (uint64_t[]){2, 0, 0}, 3);
    check_col(s.inherited, (uint64_t[]){2, 0, 0}, 3); /* f in f: once */
    check_col(s.self + 3, (uint64_t[]){0, 1, 0}, 3);
    check_col(s.inherited + 3, (uint64_t[]){2, 1, 1}, 3);
    check_col(s.self + 6, (uint64_t[]){0, 0, 1}, 3);
    check_col(s.inherited + 6, (uint64_t[]){0, 0, 1}, 3);
    hs__census_tprof_series_free(c, &s);
    /* more intervals than ticks: one a tick */
    CU_ASSERT_EQUAL_FATAL(hs__census_tprof_series(c, 200, 100000, &s), HS_OK);
    CU_ASSERT_EQUAL(s.width_ns, 1000000);
    CU_ASSERT_EQUAL(s.nintervals, 6);
    uint64_t sum = 0;
    for (size_t k = 0; k < s.nintervals * s.ncc; k++)
        sum += s.self[k];
    CU_ASSERT_EQUAL(sum, 4);
    hs__census_tprof_series_free(c, &s);
    hs_census_free(c);
    evw_free(&w);
}

static void test_other_column(void)
{
    evw w;
    write_log(&w);
    hs_census *c = census_with(&w, NULL);
    hs_tprof_series s;
    /* room for one named column and "other" */
    CU_ASSERT_EQUAL_FATAL(hs__census_tprof_series(c, 5, 6, &s), HS_OK);
    CU_ASSERT_EQUAL_FATAL(s.ncc, 1);
    CU_ASSERT_TRUE_FATAL(s.other);
    CU_ASSERT_EQUAL(s.cc[0], 1);
    check_col(s.self + 3, (uint64_t[]){0, 1, 1}, 3);
    /* the samples holding main or g, each once */
    check_col(s.inherited + 3, (uint64_t[]){2, 1, 1}, 3);
    hs__census_tprof_series_free(c, &s);
    hs_census_free(c);
    evw_free(&w);
}

/* A sample of an empty stack (GHC's MAIN) has a column of its own, after
 * the named ones and before "other". */
static void test_empty_stack(void)
{
    evw w;
    evw_start_ghc92(&w);
    evw_cost_centre(&w, 1, 1, "f", "M", "m.hs:1:1", 0);
    evw_cost_centre(&w, 1, 2, "g", "M", "m.hs:2:1", 0);
    evw_prof_begin(&w, 2, 1000000);
    static const int depth[] = {1, 0, 1, 0, 1};
    static const uint32_t id[] = {1, 0, 1, 0, 2};
    for (int i = 0; i < 5; i++)
        evw_prof_sample(&w, 500000 + 1000000 * (uint64_t)i, 0, (uint64_t)i,
                        depth[i], &id[i]);
    evw_data_end(&w);
    hs_census *c = census_with(&w, NULL);
    hs_tprof_series s;
    CU_ASSERT_EQUAL_FATAL(hs__census_tprof_series(c, 1, 1000, &s), HS_OK);
    CU_ASSERT_EQUAL_FATAL(s.nintervals, 1);
    CU_ASSERT_EQUAL_FATAL(s.ncc, 2);
    CU_ASSERT_TRUE(s.root);
    CU_ASSERT_FALSE(s.other);
    CU_ASSERT_EQUAL(s.self[2], 2);
    CU_ASSERT_EQUAL(s.inherited[2], 2);
    CU_ASSERT_EQUAL(s.self[0] + s.self[1] + s.self[2], 5);
    hs__census_tprof_series_free(c, &s);
    /* one named column fits: g goes to other, after the root */
    CU_ASSERT_EQUAL_FATAL(hs__census_tprof_series(c, 1, 3, &s), HS_OK);
    CU_ASSERT_EQUAL_FATAL(s.ncc, 1);
    CU_ASSERT_TRUE(s.root && s.other);
    CU_ASSERT_EQUAL(s.cc[0], 1);
    CU_ASSERT_EQUAL(s.self[1], 2);
    CU_ASSERT_EQUAL(s.self[2], 1);
    CU_ASSERT_EQUAL(s.inherited[2], 1);
    hs__census_tprof_series_free(c, &s);
    hs_census_free(c);
    evw_free(&w);
}

static void test_no_samples(void)
{
    evw w;
    evw_start_ghc92(&w);
    evw_data_end(&w);
    hs_census *c = census_with(&w, NULL);
    hs_tprof_series s;
    CU_ASSERT_EQUAL(hs__census_tprof_series(c, 200, 1000, &s), HS_OK);
    CU_ASSERT_EQUAL(s.nintervals, 0);
    CU_ASSERT_PTR_NULL(s.self);
    hs__census_tprof_series_free(c, &s);
    hs_census_free(c);
    evw_free(&w);
}

static void test_out_of_memory(void)
{
    evw w;
    write_log(&w);
    tu_failing f = {.left = -1};
    hs_allocator a = tu_failing_allocator(&f);
    hs_census *c = census_with(&w, &a);
    int failed = 0;
    for (long left = 0; left < 100; left++) {
        f.left = left;
        hs_tprof_series s;
        int rc = hs__census_tprof_series(c, 5, 1000, &s);
        f.left = -1;
        if (rc == HS_OK) {
            CU_ASSERT_EQUAL(s.samples, 4);
            hs__census_tprof_series_free(c, &s);
            break;
        }
        CU_ASSERT_EQUAL(rc, HS_ERR_NOMEM);
        CU_ASSERT_PTR_NULL(s.self);
        failed++;
    }
    CU_ASSERT_TRUE(failed > 3);
    hs_census_free(c);
    CU_ASSERT_EQUAL(f.live, 0);
    evw_free(&w);
}

int main(void)
{
    static const tu_test tests[] = {
        {"intervals, self and inherited, recursion once", test_intervals_and_recursion},
        {"the cell limit's other column", test_other_column},
        {"an empty stack's column", test_empty_stack},
        {"no samples", test_no_samples},
        {"out of memory", test_out_of_memory},
        {NULL, NULL},
    };
    return tu_main("tprof_time", NULL, NULL, tests);
}
