/*
 * The cost-centre table (hs_top_new, census.h) and the renderers of the
 * time profile (hs_render_top, hs_render_speedscope) on logs written with
 * tests/evwriter: a recursive stack counted once in inherited, several
 * capabilities, windows (edges included, an empty one), samples that
 * arrive out of time order, undefined cost centres, a -hc heap by peak
 * and by byte-seconds, the errors, and allocation failures.
 */
#include <heapscope/heapscope.h>

#include "evwriter.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The census of w's bytes, loaded through a pipe. */
static hs_census *load(const evw *w, const hs_allocator *alloc)
{
    pid_t pid;
    int fd = tu_pipe_from(w->data, w->len, 7, 61, &pid);
    hs_census *c = hs_census_new_with(alloc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    hs_error err;
    int st = hs_census_load_fd(c, fd, &err);
    close(fd);
    waitpid(pid, NULL, 0);
    CU_ASSERT_EQUAL(st, HS_OK);
    return c;
}

/*
 * main (1) -> f (2) -> g (3) -> f (2): f recurs. Times in ms.
 *   cap 0: 10 20 30  [2,3,2,1]     cap 1: 15 25 [3,2,1]
 *   cap 0: 40        [1]           cap 1: 35    []   (MAIN)
 *   cap 0: 50        [9,1] (9 never defined)
 */
static void write_log(evw *w)
{
    evw_start_ghc92(w);
    evw_cost_centre(w, 1, 1, "main", "Main", "a.hs:(3,1)-(5,20)", 0);
    evw_cost_centre(w, 1, 2, "f", "Main", "a.hs:7:1-30", 0);
    evw_cost_centre(w, 1, 3, "g", "Lib", "lib/B.hs:9:5", 0);
    evw_prof_begin(w, 2, 1000000);
    static const uint32_t rec[] = {2, 3, 2, 1}, g[] = {3, 2, 1},
                          m[] = {1}, u[] = {9, 1};
    const uint64_t ms = 1000000;
    /* capability 1's block first: its samples come before earlier ones */
    evw_prof_sample(w, 15 * ms, 1, 1, 3, g);
    evw_prof_sample(w, 25 * ms, 1, 2, 3, g);
    evw_prof_sample(w, 35 * ms, 1, 3, 0, NULL);
    evw_prof_sample(w, 10 * ms, 0, 1, 4, rec);
    evw_prof_sample(w, 20 * ms, 0, 2, 4, rec);
    evw_prof_sample(w, 30 * ms, 0, 3, 4, rec);
    evw_prof_sample(w, 40 * ms, 0, 4, 1, m);
    evw_prof_sample(w, 50 * ms, 0, 5, 2, u);
    evw_data_end(w);
}

/* The row labelled label, or NULL. */
static const hs_top_row *row(const hs_top *t, const char *label)
{
    for (size_t i = 0; i < hs_top_count(t); i++)
        if (strcmp(hs_top_row_at(t, i)->label, label) == 0)
            return hs_top_row_at(t, i);
    return NULL;
}

static void expect(const hs_top *t, const char *label, double self,
                   double inherited)
{
    const hs_top_row *r = row(t, label);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_DOUBLE_EQUAL(r->self, self, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(r->inherited, inherited, 1e-9);
}

static void test_whole_run(void)
{
    evw w;
    write_log(&w);
    hs_census *c = load(&w, NULL);
    hs_top *t;
    CU_ASSERT_EQUAL_FATAL(hs_top_new(c, NULL, &t), HS_OK);
    CU_ASSERT_EQUAL(hs_top_samples(t), 8);
    CU_ASSERT_DOUBLE_EQUAL(hs_top_total(t), 8, 1e-9);
    CU_ASSERT_EQUAL(hs_top_tick_ns(t), 1000000);
    /* f recurs in [2,3,2,1]: 3 samples, inherited 3 + 2 (under g), not 8 */
    expect(t, "f", 3, 5);
    expect(t, "g", 2, 5);
    expect(t, "main", 1, 7);
    expect(t, "MAIN", 1, 1);
    expect(t, "<cc 9>", 1, 1);
    const hs_top_row *r = row(t, "<cc 9>");
    CU_ASSERT_FALSE(r->defined);
    CU_ASSERT_STRING_EQUAL(r->module, "");
    CU_ASSERT_STRING_EQUAL(row(t, "g")->srcloc, "lib/B.hs:9:5");
    /* sorted by self, then inherited, then id */
    CU_ASSERT_STRING_EQUAL(hs_top_row_at(t, 0)->label, "f");
    CU_ASSERT_STRING_EQUAL(hs_top_row_at(t, 1)->label, "g");
    CU_ASSERT_STRING_EQUAL(hs_top_row_at(t, 2)->label, "main");
    double self = 0;
    for (size_t i = 0; i < hs_top_count(t); i++)
        self += hs_top_row_at(t, i)->self;
    CU_ASSERT_DOUBLE_EQUAL(self, hs_top_total(t), 1e-9);
    CU_ASSERT_PTR_NULL(hs_top_row_at(t, hs_top_count(t)));
    hs_top_free(t);
    /* the samples in time order, whatever order their blocks came in */
    CU_ASSERT_EQUAL_FATAL(hs_census_tprof_sample_count(c), 8);
    uint64_t prev = 0, time;
    uint32_t cap;
    for (size_t i = 0; i < 8; i++) {
        CU_ASSERT_NOT_EQUAL(hs_census_tprof_sample(c, i, &time, &cap),
                            SIZE_MAX);
        CU_ASSERT_TRUE(time >= prev);
        CU_ASSERT_EQUAL(cap, i % 2 == 1 && i < 6 ? 1 : 0);
        prev = time;
    }
    CU_ASSERT_EQUAL(hs_census_tprof_sample(c, 8, &time, &cap), SIZE_MAX);
    hs_census_free(c);
    evw_free(&w);
}

static void test_caps_and_windows(void)
{
    evw w;
    write_log(&w);
    hs_census *c = load(&w, NULL);
    hs_top_options o;
    hs_top *t;
    hs_top_options_init(&o);
    o.cap = 1;
    CU_ASSERT_EQUAL_FATAL(hs_top_new(c, &o, &t), HS_OK);
    CU_ASSERT_EQUAL(hs_top_samples(t), 3);
    expect(t, "g", 2, 2);
    expect(t, "f", 0, 2);
    expect(t, "MAIN", 1, 1);
    CU_ASSERT_PTR_NULL(row(t, "<cc 9>"));
    hs_top_free(t);
    /* [20 ms, 30 ms], both edges in: 20 25 30 */
    hs_top_options_init(&o);
    o.from_ns = 20000000;
    o.to_ns = 30000000;
    CU_ASSERT_EQUAL_FATAL(hs_top_new(c, &o, &t), HS_OK);
    CU_ASSERT_EQUAL(hs_top_samples(t), 3);
    expect(t, "f", 2, 3);
    expect(t, "g", 1, 3);
    hs_top_free(t);
    /* both: capability 0 in the window */
    o.cap = 0;
    CU_ASSERT_EQUAL_FATAL(hs_top_new(c, &o, &t), HS_OK);
    expect(t, "f", 2, 2);
    CU_ASSERT_EQUAL(hs_top_count(t), 3); /* f, g, main */
    hs_top_free(t);
    /* an empty window, and a capability without samples: no rows */
    o.cap = -1;
    o.from_ns = 41000000;
    o.to_ns = 49000000;
    CU_ASSERT_EQUAL_FATAL(hs_top_new(c, &o, &t), HS_OK);
    CU_ASSERT_EQUAL(hs_top_samples(t), 0);
    CU_ASSERT_EQUAL(hs_top_count(t), 0);
    CU_ASSERT_DOUBLE_EQUAL(hs_top_total(t), 0, 1e-9);
    hs_top_free(t);
    hs_top_options_init(&o);
    o.cap = 5;
    CU_ASSERT_EQUAL_FATAL(hs_top_new(c, &o, &t), HS_OK);
    CU_ASSERT_EQUAL(hs_top_count(t), 0);
    hs_top_free(t);
    /* what is refused */
    o.cap = -1;
    o.from_ns = 2;
    o.to_ns = 1;
    CU_ASSERT_EQUAL(hs_top_new(c, &o, &t), HS_ERR_INVALID);
    CU_ASSERT_PTR_NULL(t);
    hs_top_options_init(&o);
    o.source = HS_TOP_HEAP_PEAK;
    CU_ASSERT_EQUAL(hs_top_new(c, &o, &t), HS_ERR_NO_DATA);
    o.cap = 0;
    CU_ASSERT_EQUAL(hs_top_new(c, &o, &t), HS_ERR_INVALID);
    o.cap = -1;
    o.source = (hs_top_source)7;
    CU_ASSERT_EQUAL(hs_top_new(c, &o, &t), HS_ERR_INVALID);
    hs_census_free(c);
    evw_free(&w);
}

/* A -hc heap: samples at 1 s and 2 s; the second is the peak. */
static void test_heap(void)
{
    evw w;
    evw_start_ghc92(&w);
    evw_heap_prof_begin(&w, 1, 1000000000, HS_BREAKDOWN_COST_CENTRE);
    evw_cost_centre(&w, 1, 1, "main", "Main", "a.hs:1:1", 0);
    evw_cost_centre(&w, 1, 2, "f", "Main", "a.hs:2:1", 0);
    static const uint32_t mf[] = {2, 1}, fmf[] = {2, 1, 2, 1}, m[] = {1};
    evw_sample_begin(&w, 1000000000, 0);
    evw_sample_ccs(&w, 1000000000, 100, 2, mf);
    evw_sample_ccs(&w, 1000000000, 50, 1, m);
    evw_sample_end(&w, 1000000000, 0);
    evw_sample_begin(&w, 2000000000, 1);
    evw_sample_ccs(&w, 2000000000, 300, 2, mf);
    evw_sample_ccs(&w, 2000000000, 40, 4, fmf);
    evw_sample_end(&w, 2000000000, 1);
    evw_data_end(&w);
    hs_census *c = load(&w, NULL);
    hs_top_options o;
    hs_top *t;
    hs_top_options_init(&o);
    CU_ASSERT_EQUAL(hs_top_new(c, &o, &t), HS_ERR_NO_DATA);
    o.source = HS_TOP_HEAP_PEAK;
    CU_ASSERT_EQUAL_FATAL(hs_top_new(c, &o, &t), HS_OK);
    CU_ASSERT_DOUBLE_EQUAL(hs_top_total(t), 340, 1e-9);
    expect(t, "f", 340, 340);
    expect(t, "main", 0, 340);
    hs_top_free(t);
    /* byte-seconds by the trapezoid rule: half a second at each end */
    o.source = HS_TOP_HEAP_BYTE_SECONDS;
    CU_ASSERT_EQUAL_FATAL(hs_top_new(c, &o, &t), HS_OK);
    CU_ASSERT_EQUAL(hs_top_samples(t), 2);
    expect(t, "f", 0.5 * 100 + 0.5 * 340, 0.5 * 100 + 0.5 * 340);
    expect(t, "main", 25, 25 + 0.5 * 100 + 0.5 * 340);
    hs_top_free(t);
    /* the first sample alone: its peak */
    o.source = HS_TOP_HEAP_PEAK;
    o.to_ns = 1500000000;
    CU_ASSERT_EQUAL_FATAL(hs_top_new(c, &o, &t), HS_OK);
    expect(t, "f", 100, 100);
    expect(t, "main", 50, 150);
    hs_top_free(t);
    hs_census_free(c);
    evw_free(&w);
}

/* The renderers into memory: what the text, CSV, JSON and speedscope
 * output say of the log above. */
static char *render(hs_census *c, int which)
{
    hs_membuf m;
    hs_membuf_init(&m, NULL);
    hs_sink s = hs_membuf_sink(&m);
    int st;
    if (which < 3) {
        hs_top *t;
        CU_ASSERT_EQUAL_FATAL(hs_top_new(c, NULL, &t), HS_OK);
        st = hs_render_top(t, &s, (hs_top_format)which);
        hs_top_free(t);
    } else {
        hs_speedscope_options o;
        hs_speedscope_options_init(&o);
        o.name = "t.eventlog";
        st = hs_render_speedscope(c, &s, &o);
    }
    CU_ASSERT_EQUAL(st, HS_OK);
    char *text = strndup(m.data ? m.data : "", m.len);
    hs_membuf_free(&m);
    return text;
}

static void test_render(void)
{
    evw w;
    write_log(&w);
    hs_census *c = load(&w, NULL);
    char *s = render(c, HS_TOP_TEXT);
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "8 ticks of 1 ms (0.008 s), all "
                                     "capabilities\n\nCOST CENTRE  MODULE"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "\nf            Main    a.hs:7:1-30  "));
    free(s);
    s = render(c, HS_TOP_CSV);
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "name,module,srcloc,self_ticks,"
                                     "self_percent,inherited_ticks,"
                                     "inherited_percent\n\"f\",\"Main\","
                                     "\"a.hs:7:1-30\",3,37.50,5,62.50\n"));
    free(s);
    s = render(c, HS_TOP_JSON);
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "{\"total_ticks\": 8, \"tick_s\": "
                                     "0.001000000, \"cost_centres\": [\n"
                                     "  {\"name\": \"f\", \"module\": "
                                     "\"Main\", \"srcloc\": \"a.hs:7:1-30\","
                                     " \"self_ticks\": 3, "
                                     "\"inherited_ticks\": 5},\n"));
    free(s);
    s = render(c, 3);
    /* frames with file, line and column from both srcloc forms */
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "{\"name\": \"Main.main\", \"file\": "
                                     "\"a.hs\", \"line\": 3, \"col\": 1}"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "{\"name\": \"Lib.g\", \"file\": "
                                     "\"lib/B.hs\", \"line\": 9, \"col\": 5}"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "{\"name\": \"<cc 9>\"}"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "{\"name\": \"MAIN\"}"));
    /* all, then capabilities 0 and 1; capability 0's three samples of
     * one stack are one sample weighing 3, in time order */
    const char *all = strstr(s, "\"all capabilities\"");
    const char *c0 = strstr(s, "\"capability 0\"");
    const char *c1 = strstr(s, "\"capability 1\"");
    CU_ASSERT_TRUE(all && c0 && c1 && all < c0 && c0 < c1);
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "\"weights\": [3,1,1], \"startValue\": "
                                     "0, \"endValue\": 5}"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "\"weights\": [1,1,1,1,1,1,1,1], "
                                     "\"startValue\": 0, \"endValue\": 8}"));
    free(s);
    hs_census_free(c);
    evw_free(&w);
}

/* A heap-only log has no time profile for either renderer. */
static void test_no_time_profile(void)
{
    evw w;
    evw_start_ghc92(&w);
    evw_heap_prof_begin(&w, 1, 1000000000, HS_BREAKDOWN_CLOSURE_TYPE);
    evw_data_end(&w);
    hs_census *c = load(&w, NULL);
    hs_top *t = (hs_top *)1;
    CU_ASSERT_EQUAL(hs_top_new(c, NULL, &t), HS_ERR_NO_DATA);
    CU_ASSERT_PTR_NULL(t);
    hs_top_options o;
    hs_top_options_init(&o);
    o.source = HS_TOP_HEAP_BYTE_SECONDS;
    CU_ASSERT_EQUAL(hs_top_new(c, &o, &t), HS_ERR_NO_DATA);
    hs_membuf m;
    hs_membuf_init(&m, NULL);
    hs_sink s = hs_membuf_sink(&m);
    CU_ASSERT_EQUAL(hs_render_speedscope(c, &s, NULL), HS_ERR_NO_DATA);
    CU_ASSERT_EQUAL(m.len, 0);
    hs_membuf_free(&m);
    hs_census_free(c);
    evw_free(&w);
}

/* Every allocation failing in turn: NOMEM, nothing leaked. */
static void test_nomem(void)
{
    evw w;
    write_log(&w);
    for (long left = 0; left < 400; left++) {
        tu_failing f = {-1, 0, 0};
        hs_allocator a = tu_failing_allocator(&f);
        hs_census *c = load(&w, &a);
        f.left = left;
        hs_top *t = NULL;
        int st = hs_top_new(c, NULL, &t);
        hs_membuf m;
        hs_membuf_init(&m, NULL);
        hs_sink s = hs_membuf_sink(&m);
        int rs = st ? st : hs_render_top(t, &s, HS_TOP_CSV);
        int ss = hs_render_speedscope(c, &s, NULL);
        hs_membuf_free(&m);
        CU_ASSERT_TRUE(st == HS_OK || st == HS_ERR_NOMEM);
        CU_ASSERT_TRUE(rs == HS_OK || rs == HS_ERR_NOMEM);
        CU_ASSERT_TRUE(ss == HS_OK || ss == HS_ERR_NOMEM);
        hs_top_free(t);
        hs_census_free(c);
        CU_ASSERT_EQUAL(f.live, 0);
        if (st == HS_OK && rs == HS_OK && ss == HS_OK)
            break;
    }
    evw_free(&w);
}

int main(void)
{
    static const tu_test tests[] = {
        {"whole run: recursion counted once, time order", test_whole_run},
        {"capabilities and windows", test_caps_and_windows},
        {"-hc heap by peak and byte-seconds", test_heap},
        {"text, CSV, JSON and speedscope", test_render},
        {"no time profile", test_no_time_profile},
        {"allocation failures", test_nomem},
        {NULL, NULL},
    };
    return tu_main("top", NULL, NULL, tests);
}
