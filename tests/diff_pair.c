/*
 * The diff tests' helpers (test_diff*.c): censuses from hand-built logs
 * and from samples/, a pair constructed so that its figures can be worked
 * out by hand, the samples' phases pair, a band looked up, a rendering.
 */
#include "diff_pair.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

hs_census *diff_census_of(const evw *w)
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

hs_census *sample(const char *name)
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
void hd_sample(evw *w, uint64_t t_s, size_t n, const char *const *l,
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
hs_census *constructed(int which, uint32_t breakdown)
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
hs_diff *phases_pair(hs_census *c[2])
{
    c[0] = sample("phases-lazy-hc.eventlog");
    c[1] = sample("phases-strict-hc.eventlog");
    if (!c[0])
        return NULL;
    hs_diff *d = NULL;
    CU_ASSERT_EQUAL(hs_diff_new(c[0], c[1], NULL, NULL, &d, NULL), HS_OK);
    return d;
}

const hs_diff_band *find_band(const hs_diff *d, const char *name)
{
    for (size_t i = 0; i < hs_diff_band_count(d); i++)
        if (strcmp(hs_diff_band_at(d, i)->name, name) == 0)
            return hs_diff_band_at(d, i);
    return NULL;
}

char *render_text(const hs_diff *d, int kind)
{
    hs_membuf m = {0};
    hs_sink s = hs_membuf_sink(&m);
    int st = kind == 0   ? hs_render_diff_text(d, &s)
             : kind == 1 ? hs_render_diff_json(d, &s)
                         : hs_render_diff_folded(d, &s, NULL);
    CU_ASSERT_EQUAL(st, HS_OK);
    return m.data;
}
