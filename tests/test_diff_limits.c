/*
 * Tests of the diff's thresholds (--fail-if): the expressions parsed and
 * refused, and each limit checked both ways on the constructed pair.
 */
#include <heapscope/heapscope.h>

#include "diff_pair.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        {"--fail-if expressions", test_limit_parse},
        {"--fail-if thresholds both ways", test_limit_check},
        {NULL, NULL},
    };
    return tu_main("diff_limits", NULL, NULL, tests);
}
