/*
 * Options structs that grow (common.h): a caller built against an older,
 * shorter struct has it filled and read only as far as it reaches, the
 * library taking its own defaults for the rest; a caller built against a
 * newer, longer struct is refused only when it sets a field this library
 * does not know; a struct never set up by _init is refused.
 */
#include <heapscope/heapscope.h>

#include "testutil.h"

#include <CUnit/Basic.h>

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

/* The leak-hc sample's census. */
static hs_census *leak_census(void)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/samples/leak-hc.eventlog",
             tu_source_dir());
    int fd = open(path, O_RDONLY);
    CU_ASSERT_FATAL(fd >= 0);
    hs_census *c = hs_census_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_EQUAL_FATAL(hs_census_load_fd(c, fd, NULL), HS_OK);
    close(fd);
    return c;
}

/* The page options as a caller of an older header knew them: the size,
 * the title and the input's name. */
typedef struct old_page_options {
    size_t size;
    const char *title;
    const char *input;
} old_page_options;

static char *page_data_of(const hs_census *c, const void *opt, int *st)
{
    hs_membuf m = {0};
    hs_sink s = hs_membuf_sink(&m);
    *st = hs_render_page_data(c, &s, opt);
    return m.data;
}

static void test_old_caller(void)
{
    CU_ASSERT_FATAL(offsetof(hs_page_options, bands) >=
                    sizeof(old_page_options));
    /* _init_size writes the old struct and not one byte past it */
    unsigned char buf[sizeof(hs_page_options) + 32];
    memset(buf, 0xa5, sizeof buf);
    old_page_options *old = (old_page_options *)buf;
    hs_page_options_init_size((hs_page_options *)old, sizeof *old);
    CU_ASSERT_EQUAL(old->size, sizeof *old);
    CU_ASSERT_PTR_NULL(old->title);
    for (size_t i = sizeof *old; i < sizeof buf; i++)
        CU_ASSERT_EQUAL_FATAL(buf[i], 0xa5);
    old->input = "old.eventlog";

    /* the rest are the library's defaults (15 bands, ...), whatever the
     * bytes past the old struct say: here what a newer caller would
     * write for one band */
    memset(buf + sizeof *old, 0, sizeof buf - sizeof *old);
    ((hs_page_options *)buf)->bands = 1;
    hs_census *c = leak_census();
    int st_old, st_new;
    char *a = page_data_of(c, old, &st_old);
    hs_page_options now;
    hs_page_options_init(&now);
    now.input = "old.eventlog";
    char *b = page_data_of(c, &now, &st_new);
    CU_ASSERT_EQUAL(st_old, HS_OK);
    CU_ASSERT_EQUAL(st_new, HS_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_STRING_EQUAL(a, b);
    CU_ASSERT_PTR_NOT_NULL(strstr(a, "\"bands\":15"));
    free(a);
    free(b);
    hs_census_free(c);
}

static void test_new_caller(void)
{
    /* a newer header's struct: longer, its extra fields left at their
     * defaults (zero) works; one set is refused */
    unsigned char buf[sizeof(hs_folded_options) + 16];
    hs_folded_options_init_size((hs_folded_options *)buf, sizeof buf);
    CU_ASSERT_EQUAL(((hs_folded_options *)buf)->size, sizeof buf);
    for (size_t i = sizeof(hs_folded_options); i < sizeof buf; i++)
        CU_ASSERT_EQUAL_FATAL(buf[i], 0);
    hs_census *c = leak_census();
    hs_membuf m = {0};
    hs_sink s = hs_membuf_sink(&m);
    CU_ASSERT_EQUAL(hs_render_folded(c, &s, (hs_folded_options *)buf), HS_OK);
    CU_ASSERT(m.len > 0);
    buf[sizeof buf - 1] = 1;
    CU_ASSERT_EQUAL(hs_render_folded(c, &s, (hs_folded_options *)buf),
                    HS_ERR_INVALID);
    hs_membuf_free(&m);
    hs_census_free(c);
}

static void test_not_initialised(void)
{
    hs_census *c = leak_census();
    hs_membuf m = {0};
    hs_sink s = hs_membuf_sink(&m);
    hs_chart_options zero;
    memset(&zero, 0, sizeof zero);
    CU_ASSERT_EQUAL(hs_render_chart(c, &s, &zero), HS_ERR_INVALID);
    hs_page_options pz;
    memset(&pz, 0, sizeof pz);
    CU_ASSERT_EQUAL(hs_render_page(c, &s, &pz), HS_ERR_INVALID);
    hs_csv_options cz;
    memset(&cz, 0, sizeof cz);
    CU_ASSERT_EQUAL(hs_render_csv_with(c, &s, &cz), HS_ERR_INVALID);
    CU_ASSERT_EQUAL(m.len, 0);
    /* NULL still means the defaults */
    CU_ASSERT_EQUAL(hs_render_csv_with(c, &s, NULL), HS_OK);

    hs_diff *d = NULL;
    hs_error err;
    hs_diff_options dz;
    memset(&dz, 0, sizeof dz);
    CU_ASSERT_EQUAL(hs_diff_new(c, c, &dz, NULL, &d, &err), HS_ERR_INVALID);
    CU_ASSERT_PTR_NULL(d);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "hs_diff_options_init"));

    hs_summary *sm = hs_summary_new();
    hs_summary_window wz;
    memset(&wz, 0, sizeof wz);
    CU_ASSERT_EQUAL(hs_summary_set_window(sm, &wz), HS_ERR_INVALID);
    hs_summary_free(sm);

    hs_live_source_options lz;
    memset(&lz, 0, sizeof lz);
    CU_ASSERT_PTR_NULL(hs_live_source_open("/dev/null", &lz, &err));
    CU_ASSERT_EQUAL(err.code, HS_ERR_INVALID);
    hs_membuf_free(&m);
    hs_census_free(c);
}

/* Every _init fills every field its header has: the defaults the
 * documentation names. */
static void test_defaults(void)
{
    hs_chart_options co;
    hs_chart_options_init(&co);
    CU_ASSERT_EQUAL(co.size, sizeof co);
    CU_ASSERT_EQUAL(co.bands, 15);
    hs_page_options po;
    hs_page_options_init(&po);
    CU_ASSERT_EQUAL(po.size, sizeof po);
    CU_ASSERT_EQUAL(po.bands, co.bands);
    hs_diff_options dop;
    hs_diff_options_init(&dop);
    CU_ASSERT_EQUAL(dop.to_ns[1], UINT64_MAX);
    hs_summary_window w;
    hs_summary_window_init(&w);
    CU_ASSERT_EQUAL(w.to_ns, UINT64_MAX);
    hs_diff_chart_options dco;
    hs_diff_chart_options_init(&dco);
    CU_ASSERT_PTR_NULL(dco.chart);
    hs_live_source_options lo;
    hs_live_source_options_init(&lo);
    CU_ASSERT_EQUAL(lo.size, sizeof lo);
}

int main(void)
{
    static const tu_test tests[] = {
        {"an older, shorter struct is filled and read as far as it reaches",
         test_old_caller},
        {"a newer, longer struct is refused only when it sets more",
         test_new_caller},
        {"a struct never set up by _init is refused", test_not_initialised},
        {"every _init fills the documented defaults", test_defaults},
        {NULL, NULL},
    };
    return tu_main("options", NULL, NULL, tests);
}
