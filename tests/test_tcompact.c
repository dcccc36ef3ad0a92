/*
 * Tests of the time profile's compaction in a live census
 * (hs_live_set_compaction(), src/census/census_tcompact.c): a long
 * synthetic -p stream on two capabilities, with and without heap
 * censuses, keeps its records bounded while the tick totals per stack
 * and capability, `folded --source time`, `top` and speedscope's weights
 * equal the uncompacted census's, and the profile over time equals that
 * of the same run with each merged tick moved to its bucket's start.
 * Linked from the library's objects: the profile over time is internal.
 */
#include <heapscope/heapscope.h>

#include "census/census_compact.h"
#include "census/census_tprof_time.h"
#include "evwriter.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TICK 1000000u /* 1 ms */
#define CAPS 2
#define MAX_SAMPLES 64 /* --max-samples: 16 * 64 time records each way */

/* Tick i of capability k: one of eight stacks (recursion included). */
static void stack_of(size_t i, unsigned k, uint32_t *ids, int *depth)
{
    static const uint32_t st[8][4] = {
        {1, 6, 0, 0}, {2, 1, 6, 0}, {3, 6, 0, 0}, {2, 2, 1, 6},
        {4, 3, 6, 0}, {5, 6, 0, 0}, {1, 2, 1, 6}, {0}};
    static const int d[8] = {2, 3, 2, 4, 3, 2, 4, 0};
    size_t s = (i * 7 + k * 3 + i / 1000) % 8;
    memcpy(ids, st[s], sizeof st[s]);
    *depth = d[s];
}

/* The log's start: cost centres 1 .. 6, a 1 ms tick and, when heap is
 * set, a heap profile every `heap` ticks. */
static void start_log(evw *w, size_t heap)
{
    static const char *names[] = {"a", "b", "c", "d", "e", "main"};
    evw_start_ghc92(w);
    for (uint32_t id = 1; id <= 6; id++)
        evw_cost_centre(w, 1, id, names[id - 1], "M", "m.hs:1:1", 0);
    evw_prof_begin(w, 1, TICK);
    if (heap)
        evw_heap_prof_begin(w, 1, heap * TICK, HS_BREAKDOWN_CLOSURE_TYPE);
}

/*
 * n ticks of 1 ms on CAPS capabilities, a heap census every `heap` ticks
 * (0: none). Ticks before `until` are written at the start of their
 * bucket of width `bucket` (0: as they are): what a compacted census
 * should count.
 */
static void write_ticks(evw *w, size_t n, size_t heap, uint64_t until,
                        uint64_t bucket)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t t = (i + 1) * TICK + 1000;
        uint64_t at = bucket && t < until ? t - t % bucket : t;
        for (unsigned k = 0; k < CAPS; k++) {
            uint32_t ids[4];
            int depth;
            stack_of(i, k, ids, &depth);
            evw_prof_sample(w, at, k, i, depth, ids);
        }
        if (heap && i % heap == heap - 1) {
            evw_sample_begin(w, t, i / heap);
            evw_sample_string(w, t, 1000 + i % 977, "THUNK");
            evw_sample_end(w, t, i / heap);
        }
    }
}

static uint8_t *run_log(size_t n, size_t heap, uint64_t until, uint64_t bucket,
                        size_t *len)
{
    evw w;
    start_log(&w, heap);
    write_ticks(&w, n, heap, until, bucket);
    evw_data_end(&w);
    *len = w.len;
    return w.data;
}

/* The log fed in chunks with --max-samples max (0: none); the largest
 * number of time records seen between chunks in *most. */
static hs_live *fed(const uint8_t *data, size_t len, size_t max, size_t *most)
{
    hs_live *l = hs_live_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(l);
    hs_live_set_compaction(l, max, max / 4);
    *most = 0;
    int st = HS_OK;
    for (size_t off = 0; off < len && st == HS_OK; off += 4096) {
        st = hs_live_feed(l, data + off, len - off < 4096 ? len - off : 4096);
        size_t n = hs_census_tprof_sample_count(hs_live_census(l));
        if (n > *most)
            *most = n;
    }
    CU_ASSERT_EQUAL(st, HS_DONE);
    CU_ASSERT_EQUAL(hs_live_finish(l), HS_DONE);
    return l;
}

typedef int (*render_fn)(const hs_census *, hs_sink *);

static int folded_time(const hs_census *c, hs_sink *s)
{
    hs_folded_options o;
    hs_folded_options_init(&o);
    o.source = HS_FOLDED_TIME;
    return hs_render_folded(c, s, &o);
}

static int speedscope(const hs_census *c, hs_sink *s)
{
    return hs_render_speedscope(c, s, NULL);
}

static char *render(const hs_census *c, render_fn f)
{
    hs_membuf b = {0};
    hs_sink s = hs_membuf_sink(&b);
    CU_ASSERT_EQUAL(f(c, &s), HS_OK);
    char *text = calloc(1, b.len + 1);
    memcpy(text, b.data, b.len);
    hs_membuf_free(&b);
    return text;
}

/* Speedscope's profiles' weights summed, profile by profile (each one
 * ends with its total as endValue). */
static void speedscope_totals(const hs_census *c, uint64_t *tot, size_t n)
{
    char *text = render(c, speedscope), *p = text;
    for (size_t k = 0; k < n; k++) {
        tot[k] = 0;
        char *w = strstr(p, "\"weights\": [");
        CU_ASSERT_PTR_NOT_NULL_FATAL(w);
        for (p = w + 12; *p != ']'; p += *p == ',')
            tot[k] += strtoull(p, &p, 10);
        char *e = strstr(p, "\"endValue\": ");
        CU_ASSERT_EQUAL(strtoull(e + 12, &p, 10), tot[k]);
    }
    CU_ASSERT_PTR_NULL(strstr(p, "\"weights\""));
    free(text);
}

/* top over the whole run (and cap 1) equals the reference's. */
static void same_top(const hs_census *a, const hs_census *b, int cap)
{
    hs_top_options o;
    hs_top_options_init(&o);
    o.cap = cap;
    hs_top *ta, *tb;
    CU_ASSERT_EQUAL_FATAL(hs_top_new(a, &o, &ta), HS_OK);
    CU_ASSERT_EQUAL_FATAL(hs_top_new(b, &o, &tb), HS_OK);
    CU_ASSERT_EQUAL(hs_top_samples(ta), hs_top_samples(tb));
    CU_ASSERT_EQUAL(hs_top_total(ta), hs_top_total(tb));
    CU_ASSERT_EQUAL_FATAL(hs_top_count(ta), hs_top_count(tb));
    for (size_t i = 0; i < hs_top_count(ta); i++) {
        const hs_top_row *x = hs_top_row_at(ta, i), *y = hs_top_row_at(tb, i);
        CU_ASSERT_EQUAL(x->id, y->id);
        CU_ASSERT_EQUAL(x->self, y->self);
        CU_ASSERT_EQUAL(x->inherited, y->inherited);
    }
    hs_top_free(ta);
    hs_top_free(tb);
}

/* Totals per stack and capability, folded, top and speedscope. */
static void same_totals(const hs_census *c, const hs_census *ref)
{
    CU_ASSERT_EQUAL(hs_census_get_info(c)->time_samples,
                    hs_census_get_info(ref)->time_samples);
    CU_ASSERT_EQUAL_FATAL(hs_census_tprof_count(c), hs_census_tprof_count(ref));
    for (size_t i = 0; i < hs_census_tprof_count(c); i++)
        for (int cap = -1; cap < CAPS; cap++) {
            const uint32_t *ids;
            uint64_t t1, t2;
            hs_census_tprof_stack(c, i, cap, &ids, &t1);
            hs_census_tprof_stack(ref, i, cap, &ids, &t2);
            CU_ASSERT_EQUAL(t1, t2);
        }
    uint64_t sum = 0;
    for (size_t i = 0; i < hs_census_tprof_sample_count(c); i++)
        sum += hs_census_tprof_sample_weight(c, i);
    CU_ASSERT_EQUAL(sum, hs_census_get_info(ref)->time_samples);
    char *f1 = render(c, folded_time), *f2 = render(ref, folded_time);
    CU_ASSERT_STRING_EQUAL(f1, f2);
    free(f1);
    free(f2);
    same_top(c, ref, -1);
    same_top(c, ref, 1);
    uint64_t s1[1 + CAPS], s2[1 + CAPS];
    speedscope_totals(c, s1, 1 + CAPS);
    speedscope_totals(ref, s2, 1 + CAPS);
    for (size_t k = 0; k < 1 + CAPS; k++)
        CU_ASSERT_EQUAL(s1[k], s2[k]);
}

/* The profile over time, every cell, at two resolutions. */
static void same_series(const hs_census *a, const hs_census *b)
{
    static const size_t intervals[] = {200, 7};
    for (size_t r = 0; r < 2; r++) {
        hs_tprof_series x, y;
        CU_ASSERT_EQUAL_FATAL(hs__census_tprof_series(a, intervals[r], 100000, &x), HS_OK);
        CU_ASSERT_EQUAL_FATAL(hs__census_tprof_series(b, intervals[r], 100000, &y), HS_OK);
        CU_ASSERT_EQUAL(x.samples, y.samples);
        CU_ASSERT_EQUAL_FATAL(x.nintervals, y.nintervals);
        CU_ASSERT_EQUAL_FATAL(x.ncc, y.ncc);
        size_t cells = (x.ncc + x.root + x.other) * x.nintervals;
        CU_ASSERT_EQUAL(memcmp(x.self, y.self, cells * sizeof *x.self), 0);
        CU_ASSERT_EQUAL(memcmp(x.inherited, y.inherited,
                               cells * sizeof *x.inherited), 0);
        hs__census_tprof_series_free(a, &x);
        hs__census_tprof_series_free(b, &y);
    }
}

/* /status.json and /metrics name the buckets' width: the precision of
 * time-profile windows before merged_before_s. */
static void status_says(hs_live *l, const hs_live_metrics *m, uint64_t bucket)
{
    char want[64];
    hs_membuf b = {0};
    hs_sink s = hs_membuf_sink(&b);
    CU_ASSERT_EQUAL(hs_live_render_json(l, m, &s, "done"), HS_OK);
    CU_ASSERT_EQUAL(hs_live_render_prometheus(l, m, &s, 3), HS_OK);
    CU_ASSERT_EQUAL(hs_sink_write(&s, "", 1), HS_OK);
    snprintf(want, sizeof want, "\"tprof_bucket_s\":%.6f", bucket / 1e9);
    CU_ASSERT_PTR_NOT_NULL(strstr((char *)b.data, want));
    snprintf(want, sizeof want, "heapscope_tprof_bucket_seconds %.9f",
             bucket / 1e9);
    CU_ASSERT_PTR_NOT_NULL(strstr((char *)b.data, want));
    hs_membuf_free(&b);
}

/* The page's data says so too: its time-profile windows before the
 * horizon are at bucket precision (0 and 0 for a census never merged). */
static void page_says(const hs_census *c, uint64_t bucket, uint64_t until)
{
    hs_membuf b = {0};
    hs_sink s = hs_membuf_sink(&b);
    hs_page_options po;
    hs_page_options_init(&po);
    CU_ASSERT_EQUAL(hs_render_page_data(c, &s, &po), HS_OK);
    CU_ASSERT_EQUAL(hs_sink_write(&s, "", 1), HS_OK);
    char want[96];
    snprintf(want, sizeof want, "\"bucket_us\":%llu,\"merged_until_us\":%llu",
             (unsigned long long)((bucket + 500) / 1000),
             (unsigned long long)((until + 500) / 1000));
    CU_ASSERT_PTR_NOT_NULL(strstr((char *)b.data, want));
    hs_membuf_free(&b);
}

static void check_run(size_t n, size_t heap)
{
    size_t len, len2, most, most_ref;
    uint8_t *data = run_log(n, heap, 0, 0, &len);
    hs_live *l = fed(data, len, MAX_SAMPLES, &most);
    hs_live *r = fed(data, len, 0, &most_ref);
    const hs_census *c = hs_live_census(l), *ref = hs_live_census(r);
    /* (a) bounded: merged records and raw samples, 16 * 64 each */
    CU_ASSERT_EQUAL(most_ref, n * CAPS);
    CU_ASSERT(most <= 2 * 16 * MAX_SAMPLES + CAPS);
    CU_ASSERT(hs_census_tprof_sample_count(c) <= 2 * 16 * MAX_SAMPLES);
    uint64_t until = hs_census_tprof_merged_until(c);
    uint64_t bucket = hs_census_tprof_bucket_ns(c);
    CU_ASSERT(until > 0 && bucket >= TICK && bucket % TICK == 0);
    hs_live_metrics m;
    CU_ASSERT_EQUAL(hs_live_get_metrics(l, &m), HS_OK);
    CU_ASSERT(m.compacted && m.compacted_until_ns == until);
    status_says(l, &m, bucket);
    page_says(c, bucket, until);
    CU_ASSERT_EQUAL(hs_census_tprof_bucket_ns(ref), 0);
    page_says(ref, 0, 0);
    /* (b) totals exact */
    same_totals(c, ref);
    /* (c) over time: the run with the merged ticks at their buckets */
    uint8_t *moved = run_log(n, heap, until, bucket, &len2);
    hs_live *b = fed(moved, len2, 0, &most_ref);
    same_series(c, hs_live_census(b));
    hs_live_free(b);
    hs_live_free(r);
    hs_live_free(l);
    free(moved);
    free(data);
}

static void test_bounded_profile_only(void) { check_run(60000, 0); }

/* Censuses every 100 ticks: the raw samples' budget still sets the
 * horizon, ahead of the censuses' (16 of 64 kept raw). */
static void test_bounded_with_censuses(void) { check_run(60000, 100); }

/* Censuses every 2 ticks: their compaction's horizon leads, and the
 * time profile is merged to it. */
static void test_merged_at_census_horizon(void) { check_run(20000, 2); }

/* Ticks that come late, from before the merged part's horizon (a
 * stream gone back in time), join the buckets when the census finishes:
 * the records stay in time order and the totals exact. */
static void test_late_ticks(void)
{
    evw w;
    start_log(&w, 0);
    write_ticks(&w, 3000, 0, 0, 0);
    static const uint32_t late[2] = {5, 6};
    for (unsigned k = 0; k < 3; k++)
        evw_prof_sample(&w, 500000 + k, k % CAPS, 9000 + k, 2, late);
    evw_data_end(&w);
    size_t most;
    hs_live *l = fed(w.data, w.len, 8, &most);
    hs_live *r = fed(w.data, w.len, 0, &most);
    const hs_census *c = hs_live_census(l);
    CU_ASSERT(hs_census_tprof_merged_until(c) > 500000 + 2);
    uint64_t prev = 0;
    for (size_t i = 0; i < hs_census_tprof_sample_count(c); i++) {
        uint64_t t;
        uint32_t cap;
        hs_census_tprof_sample(c, i, &t, &cap);
        CU_ASSERT(t >= prev);
        prev = t;
    }
    same_totals(c, hs_live_census(r));
    hs_live_free(l);
    hs_live_free(r);
    evw_free(&w);
}

/* Out of memory while merging: the census's sticky error, nothing
 * changed or leaked. */
static void test_out_of_memory(void)
{
    size_t len;
    uint8_t *data = run_log(2000, 0, 0, 0, &len);
    tu_failing f = {.left = -1};
    hs_allocator a = tu_failing_allocator(&f);
    for (long left = 0; left < 3; left++) {
        hs_census *c = hs_census_new_with(&a);
        hs_reader *r = hs_reader_new();
        hs_reader_feed(r, data, len);
        hs_event ev;
        while (hs_reader_next(r, &ev) == HS_EVENT)
            CU_ASSERT_EQUAL(hs_census_add_event(c, &ev), HS_OK);
        f.left = left;
        int rc = hs__census_tprof_merge(c, 1000 * TICK, 16);
        f.left = -1;
        size_t n = hs_census_tprof_sample_count(c);
        if (left < 2) {
            CU_ASSERT_EQUAL(rc, HS_ERR_NOMEM);
            CU_ASSERT_EQUAL(hs_census_error(c)->code, HS_ERR_NOMEM);
            CU_ASSERT_EQUAL(n, 2000 * CAPS);
        } else {
            CU_ASSERT_EQUAL(rc, HS_OK);
            CU_ASSERT(n <= 16 + 1001 * CAPS);
            CU_ASSERT_EQUAL(hs_census_finish(c, true), HS_OK);
            CU_ASSERT_EQUAL(hs_census_get_info(c)->time_samples, 2000 * CAPS);
        }
        hs_reader_free(r);
        hs_census_free(c);
    }
    CU_ASSERT_EQUAL(f.live, 0);
    free(data);
}

int main(void)
{
    static const tu_test tests[] = {
        {"a -p stream alone: bounded, totals exact", test_bounded_profile_only},
        {"with heap censuses: bounded, totals exact", test_bounded_with_censuses},
        {"merged to the censuses' horizon", test_merged_at_census_horizon},
        {"late ticks join the buckets at the end", test_late_ticks},
        {"out of memory while merging", test_out_of_memory},
        {NULL, NULL}};
    return tu_main("tcompact", NULL, NULL, tests);
}
