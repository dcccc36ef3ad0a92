/*
 * How bands grow (hs_census_band_growth: least-squares slopes over the run
 * and its last third, the "still growing" rule) and what -hi bands' IPE
 * records say (hs_census_band_ipe), on logs written by the event writer.
 */
#include "evwriter.h"
#include "testutil.h"

#include <heapscope/heapscope.h>

#include <CUnit/CUnit.h>
#include <math.h>
#include <string.h>

static hs_census *census_with(const evw *w, const hs_allocator *a)
{
    hs_reader *r = hs_reader_new();
    hs_census *c = hs_census_new_with(a);
    if (!r || !c) {
        hs_reader_free(r);
        hs_census_free(c);
        return NULL;
    }
    hs_event ev;
    int st = hs_reader_feed(r, w->data, w->len);
    while (st >= 0 && (st = hs_reader_next(r, &ev)) == HS_EVENT)
        hs_census_add_event(c, &ev);
    st = hs_reader_finish(r);
    hs_census_finish(c, st == HS_DONE);
    hs_reader_free(r);
    return c;
}

static long band_named(const hs_census *c, const char *name)
{
    for (size_t b = 0; b < hs_census_band_count(c); b++)
        if (strcmp(hs_census_band_name(c, b), name) == 0)
            return (long)b;
    return -1;
}

/* Seven samples a second apart (-hd): "grow" 100 (i + 1) bytes, "flat"
 * 500, "spike" 1000 at 2 s then 0, 0, 10, 20, "gone" 300 until 3 s. */
static void growth_log(evw *w)
{
    static const uint64_t spike[7] = {0, 0, 1000, 0, 0, 10, 20};
    evw_start_ghc92(w);
    evw_heap_prof_begin(w, 0, 1000000000, 4);
    for (uint64_t i = 0; i < 7; i++) {
        uint64_t t = i * 1000000000u;
        evw_sample_begin(w, t, i);
        evw_sample_string(w, t, 100 * (i + 1), "grow");
        evw_sample_string(w, t, 500, "flat");
        if (spike[i])
            evw_sample_string(w, t, spike[i], "spike");
        if (i < 4)
            evw_sample_string(w, t, 300, "gone");
        evw_sample_end(w, t, i);
    }
    evw_data_end(w);
}

static void test_growth(void)
{
    evw w;
    growth_log(&w);
    hs_census *c = census_with(&w, NULL);
    CU_ASSERT_FATAL(c != NULL);
    CU_ASSERT_EQUAL_FATAL(hs_census_sample_count(c), 7);
    hs_band_growth g[4];
    CU_ASSERT_EQUAL_FATAL(hs_census_band_count(c), 4);
    CU_ASSERT_EQUAL_FATAL(hs_census_band_growth(c, g), HS_OK);
    long grow = band_named(c, "grow"), flat = band_named(c, "flat"),
         spk = band_named(c, "spike"), gone = band_named(c, "gone");
    CU_ASSERT_FATAL(grow >= 0 && flat >= 0 && spk >= 0 && gone >= 0);
    CU_ASSERT_DOUBLE_EQUAL(g[grow].run_bytes_per_sec, 100, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(g[grow].late_bytes_per_sec, 100, 1e-9);
    CU_ASSERT_EQUAL(g[grow].last_bytes, 700);
    CU_ASSERT_TRUE(g[grow].growing);
    CU_ASSERT_DOUBLE_EQUAL(g[flat].run_bytes_per_sec, 0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(g[flat].late_bytes_per_sec, 0, 1e-9);
    CU_ASSERT_FALSE(g[flat].growing);
    /* sum (t - 3) v / sum (t - 3)^2 = (-1000 + 20 + 60) / 28 */
    CU_ASSERT_DOUBLE_EQUAL(g[spk].run_bytes_per_sec, -920.0 / 28, 1e-9);
    /* the last third: 4 s to 6 s, 0, 10, 20 */
    CU_ASSERT_DOUBLE_EQUAL(g[spk].late_bytes_per_sec, 10, 1e-9);
    CU_ASSERT_EQUAL(g[spk].last_bytes, 20);
    CU_ASSERT_FALSE(g[spk].growing); /* rises, but below its mean */
    CU_ASSERT_TRUE(g[gone].run_bytes_per_sec < 0);
    CU_ASSERT_DOUBLE_EQUAL(g[gone].late_bytes_per_sec, 0, 1e-9);
    CU_ASSERT_EQUAL(g[gone].last_bytes, 0);
    CU_ASSERT_FALSE(g[gone].growing);
    hs_census_free(c);
    evw_free(&w);
}

/* One sample: no slope, nothing grows. */
static void test_growth_one_sample(void)
{
    evw w;
    evw_start_ghc92(&w);
    evw_heap_prof_begin(&w, 0, 1000, 4);
    evw_sample_begin(&w, 5, 0);
    evw_sample_string(&w, 5, 64, "only");
    evw_sample_end(&w, 5, 0);
    evw_data_end(&w);
    hs_census *c = census_with(&w, NULL);
    CU_ASSERT_FATAL(c != NULL);
    hs_band_growth g;
    CU_ASSERT_EQUAL_FATAL(hs_census_band_growth(c, &g), HS_OK);
    CU_ASSERT_EQUAL(g.run_bytes_per_sec, 0);
    CU_ASSERT_EQUAL(g.late_bytes_per_sec, 0);
    CU_ASSERT_EQUAL(g.last_bytes, 64);
    CU_ASSERT_FALSE(g.growing);
    hs_census_free(c);
    evw_free(&w);
}

/* Out of memory at each allocation: HS_ERR_NOMEM, nothing leaked. */
static void test_growth_nomem(void)
{
    evw w;
    growth_log(&w);
    tu_failing f = {-1, 0, 0};
    hs_allocator a = tu_failing_allocator(&f);
    hs_census *c = census_with(&w, &a);
    CU_ASSERT_FATAL(c != NULL);
    hs_band_growth g[4];
    int st = HS_ERR_NOMEM;
    for (long k = 0; st == HS_ERR_NOMEM && k < 50; k++) {
        long before = f.live;
        f.left = k;
        st = hs_census_band_growth(c, g);
        CU_ASSERT_EQUAL(f.live, before);
    }
    f.left = -1;
    CU_ASSERT_EQUAL(st, HS_OK);
    hs_census_free(c);
    CU_ASSERT_EQUAL(f.live, 0);
    evw_free(&w);
}

static void test_band_ipe(void)
{
    evw w;
    evw_start_ghc92(&w);
    evw_heap_prof_begin(&w, 1, 1000, 8);
    evw_sample_begin(&w, 10, 0);
    evw_sample_string(&w, 11, 100, "0x409f78");
    evw_sample_string(&w, 14, 400, "0xdeadbeef");
    evw_sample_end(&w, 15, 0);
    evw_ipe(&w, 20, 0x409f78, "sat_s154_info", "THUNK", "Integer -> IO ()",
            "go", "Leak", "Leak.hs:6:34-37");
    evw_data_end(&w);
    hs_census *c = census_with(&w, NULL);
    CU_ASSERT_FATAL(c != NULL);
    long b = band_named(c, "sat_s154_info :: Integer -> IO () at "
                           "Leak.hs:6:34-37 (0x409f78)");
    long none = band_named(c, "0xdeadbeef");
    CU_ASSERT_FATAL(b >= 0 && none >= 0);
    const hs_census_ipe *r = hs_census_band_ipe(c, (size_t)b);
    CU_ASSERT_FATAL(r != NULL);
    CU_ASSERT_EQUAL(r->address, 0x409f78);
    CU_ASSERT_STRING_EQUAL(r->table_name, "sat_s154_info");
    CU_ASSERT_STRING_EQUAL(r->closure_desc, "THUNK");
    CU_ASSERT_STRING_EQUAL(r->type_desc, "Integer -> IO ()");
    CU_ASSERT_STRING_EQUAL(r->label, "go");
    CU_ASSERT_STRING_EQUAL(r->module, "Leak");
    CU_ASSERT_STRING_EQUAL(r->srcloc, "Leak.hs:6:34-37");
    CU_ASSERT_PTR_NULL(hs_census_band_ipe(c, (size_t)none));
    CU_ASSERT_PTR_NULL(hs_census_band_ipe(c, 99));
    hs_census_free(c);
    evw_free(&w);
}

int main(void)
{
    static const tu_test tests[] = {
        {"growth over the run and its last third", test_growth},
        {"growth of one sample", test_growth_one_sample},
        {"growth out of memory", test_growth_nomem},
        {"-hi bands' IPE records", test_band_ipe},
        {NULL, NULL},
    };
    return tu_main("growth", NULL, NULL, tests);
}
