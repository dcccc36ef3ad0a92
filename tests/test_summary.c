/*
 * Tests of the +RTS -s summary on hand-built logs (tests/evwriter): pause
 * pairing, independence from the interleaving of capability blocks,
 * windows, markers, logs without GC events and old layouts. Real logs
 * (samples/ against +RTS -s, the corpus) are in test_summary_logs.c.
 */
#include <heapscope/heapscope.h>

#include "evwriter.h"
#include "summary_run.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- hand-built logs ------------------------------------------------- */

static void ev_heap(evw *w, uint16_t tag, uint64_t t, uint64_t bytes)
{
    evw_event(w, tag, t, 0);
    evw_u32(w, 0);
    evw_u64(w, bytes);
}

static void ev_gc_stats(evw *w, uint64_t t, uint16_t gen, uint64_t copied,
                        uint64_t slop, uint32_t threads, uint64_t max,
                        uint64_t balanced)
{
    evw_event(w, 53, t, 0);
    evw_u32(w, 0);
    evw_u16(w, gen);
    evw_u64(w, copied);
    evw_u64(w, slop);
    evw_u64(w, 1000); /* frag */
    evw_u32(w, threads);
    evw_u64(w, max);
    evw_u64(w, copied);
    evw_u64(w, balanced);
}

static void ev_marker(evw *w, uint64_t t, const char *name)
{
    size_t e = evw_event(w, 58, t, 1);
    evw_bytes(w, name, strlen(name));
    evw_event_end(w, e);
}

/*
 * Two capabilities. Cap 0 leads a minor collection at 100..150 (its GC_END
 * stamped earlier than the GC_STATS_GHC before it, as GHC does) and a
 * major one at 300..400; cap 1 leads a parallel minor one at 200..260.
 * Both caps post HEAP_ALLOCATED in every collection. Markers "a" at 50 on
 * cap 0, "b" at 250 on cap 1, "a" again at 350 on cap 0.
 */
static void cap0_block(evw *w)
{
    size_t b = evw_block(w, 10, 0);
    ev_marker(w, 50, "a");
    evw_event(w, 9, 100, 0);                     /* GC_START */
    ev_heap(w, 49, 140, 1000);                   /* HEAP_ALLOCATED */
    evw_event(w, 54, 145, 0);                    /* GC_GLOBAL_SYNC */
    ev_gc_stats(w, 146, 0, 500, 70, 1, 0, 0);
    evw_event(w, 10, 150, 0);                    /* GC_END */
    evw_event(w, 9, 205, 0);                     /* takes part in cap 1's */
    ev_heap(w, 49, 240, 3000);
    evw_event(w, 10, 270, 0);
    evw_event(w, 9, 300, 0);
    ev_heap(w, 49, 380, 5000);
    evw_event(w, 54, 390, 0);
    ev_gc_stats(w, 391, 1, 700, 90, 2, 400, 600);
    evw_event(w, 10, 400, 0);
    ev_heap(w, 51, 401, 4242);                   /* HEAP_LIVE */
    ev_heap(w, 50, 402, 3u << 20);               /* HEAP_SIZE */
    ev_marker(w, 350, "a");
    evw_block_end(w, b, 402);
}

static void cap1_block(evw *w)
{
    size_t b = evw_block(w, 20, 1);
    evw_event(w, 9, 110, 0);                     /* takes part in cap 0's */
    ev_heap(w, 49, 141, 100);
    evw_event(w, 10, 160, 0);
    evw_event(w, 9, 200, 0);
    ev_heap(w, 49, 230, 200);
    evw_event(w, 54, 250, 0);
    ev_gc_stats(w, 251, 0, 300, 50, 2, 200, 200);
    evw_event(w, 10, 260, 0);
    ev_heap(w, 50, 261, 2u << 20);
    ev_marker(w, 250, "b");
    evw_event(w, 9, 305, 0);
    ev_heap(w, 49, 381, 400);
    evw_event(w, 10, 410, 0);
    evw_block_end(w, b, 410);
}

static void global_block(evw *w)
{
    size_t b = evw_block(w, 5, 0xffff);
    evw_event(w, 52, 6, 0);                      /* HEAP_INFO_GHC */
    evw_u32(w, 0);
    evw_u16(w, 2);
    evw_u64(w, 0);
    evw_u64(w, 1 << 20);
    evw_u64(w, 1 << 20);
    evw_u64(w, 4096);
    size_t e = evw_event(w, 29, 7, 1);
    evw_u32(w, 0);
    evw_bytes(w, "GHC-9.0.2 rts_thr", 17);
    evw_event_end(w, e);
    evw_block_end(w, b, 7);
}

/* order: which block comes first in the file (0 cap0, 1 cap1, 2 global) */
static void build_log(evw *w, const int order[3])
{
    evw_start_ghc92(w);
    for (int i = 0; i < 3; i++) {
        if (order[i] == 0)
            cap0_block(w);
        else if (order[i] == 1)
            cap1_block(w);
        else
            global_block(w);
    }
    evw_data_end(w);
}

static void check_whole(const hs_summary_stats *st)
{
    CU_ASSERT_TRUE(st->has_allocated);
    CU_ASSERT_EQUAL(st->allocated_bytes, 5000 + 400);
    CU_ASSERT_TRUE(st->has_gc);
    CU_ASSERT_EQUAL(st->copied_bytes, 1500);
    CU_ASSERT_EQUAL_FATAL(st->n_gens, 2);
    CU_ASSERT_EQUAL(st->gens[0].collections, 2);
    CU_ASSERT_EQUAL(st->gens[0].par_collections, 1);
    CU_ASSERT_EQUAL(st->gens[1].collections, 1);
    CU_ASSERT_EQUAL(st->gens[1].par_collections, 1);
    /* pauses: the leaders' GC_START..GC_END */
    CU_ASSERT_EQUAL(st->gens[0].timed, 2);
    CU_ASSERT_EQUAL(st->gens[0].elapsed_ns, 50 + 60);
    CU_ASSERT_EQUAL(st->gens[0].max_pause_ns, 60);
    CU_ASSERT_EQUAL(st->gens[1].elapsed_ns, 100);
    CU_ASSERT_EQUAL(st->gc_ns, 210);
    CU_ASSERT_EQUAL(st->total_ns, 410);
    CU_ASSERT_EQUAL(st->mut_ns, 200);
    CU_ASSERT_EQUAL(st->major_gcs, 1);
    CU_ASSERT_TRUE(st->has_live);
    CU_ASSERT_EQUAL(st->max_live_bytes, 4242);
    CU_ASSERT_TRUE(st->has_slop);
    CU_ASSERT_EQUAL(st->max_slop_bytes, 90); /* major only, not 70 */
    CU_ASSERT_TRUE(st->has_heap_size);
    CU_ASSERT_EQUAL(st->max_mem_in_use_bytes, 3u << 20);
    CU_ASSERT_TRUE(st->has_work_balance);
    CU_ASSERT_FALSE(st->work_balance_estimated);
    CU_ASSERT_DOUBLE_EQUAL(st->work_balance, 800.0 / 1000.0, 1e-12);
    CU_ASSERT_TRUE(st->threaded);
    CU_ASSERT_FALSE(st->has_sparks);
    /* per capability: own GC intervals */
    CU_ASSERT_EQUAL_FATAL(st->n_caps, 2);
    for (uint32_t i = 0; i < st->n_caps; i++) {
        const hs_summary_cap *c = &st->caps[i];
        CU_ASSERT_EQUAL(c->gcs, 3);
        if (c->cap == 0) {
            CU_ASSERT_EQUAL(c->gc_elapsed_ns, 50 + 65 + 100);
            CU_ASSERT_EQUAL(c->led, 2);
            CU_ASSERT_EQUAL(c->allocated_bytes, 5000);
        } else {
            CU_ASSERT_EQUAL(c->cap, 1);
            CU_ASSERT_EQUAL(c->gc_elapsed_ns, 50 + 60 + 105);
            CU_ASSERT_EQUAL(c->led, 1);
            CU_ASSERT_EQUAL(c->allocated_bytes, 400);
        }
    }
}

static void test_block_orders(void)
{
    static const int orders[6][3] = {{0, 1, 2}, {1, 0, 2}, {2, 0, 1},
                                     {2, 1, 0}, {0, 2, 1}, {1, 2, 0}};
    char *first_text = NULL, *first_json = NULL;
    for (int o = 0; o < 6; o++) {
        evw w;
        build_log(&w, orders[o]);
        for (size_t chunk = 1; chunk <= 4096; chunk *= 8) {
            int fin;
            hs_summary *s = summarise(w.data, w.len, chunk, NULL, &fin);
            CU_ASSERT_EQUAL(fin, HS_OK);
            check_whole(hs_summary_get_stats(s));
            char *t = summary_render(s, false), *j = summary_render(s, true);
            if (!first_text) {
                first_text = t;
                first_json = j;
            } else {
                /* the caps' listing order follows the file; the rest not */
                CU_ASSERT_STRING_EQUAL(t, first_text);
                free(t);
                free(j);
            }
            hs_summary_free(s);
        }
        evw_free(&w);
    }
    CU_ASSERT_PTR_NOT_NULL(strstr(first_text,
        "           5,400 bytes allocated in the heap\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(first_text,
        "  Gen  0         2 colls,     1 par      n/a   0.000s"));
    CU_ASSERT_PTR_NOT_NULL(strstr(first_text,
        "  Parallel GC work balance: 80.00% (serial 0%, perfect 100%)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(first_json, "\"copied_bytes\": 1500"));
    CU_ASSERT_PTR_NOT_NULL(strstr(first_json, "\"sparks\": null"));
    free(first_text);
    free(first_json);
}

/* Windows by time: [0, 200) holds cap 0's minor collection only; [200,
 * end] the rest. */
static void windows_by_time(const evw *w)
{
    int fin;
    /* [0, 200): cap 0's minor collection only */
    hs_summary_window win;
    hs_summary_window_init(&win);
    win.from_ns = 0;
    win.to_ns = 199;
    win.from_marker = NULL;
    win.to_marker = NULL;
    hs_summary *s = summarise(w->data, w->len, 4096, &win, &fin);
    const hs_summary_stats *st = hs_summary_get_stats(s);
    CU_ASSERT_TRUE(st->windowed);
    CU_ASSERT_EQUAL(st->gens[0].collections, 1);
    CU_ASSERT_EQUAL(st->gens[1].collections, 0);
    CU_ASSERT_EQUAL(st->copied_bytes, 500);
    CU_ASSERT_EQUAL(st->allocated_bytes, 1000 + 100);
    CU_ASSERT_EQUAL(st->total_ns, 199);
    CU_ASSERT_FALSE(st->has_live);
    CU_ASSERT_FALSE(st->has_slop);
    CU_ASSERT_FALSE(st->has_work_balance);
    hs_summary_free(s);

    /* [200, end]: the rest; allocation from the counters' edges */
    hs_summary_window_init(&win);
    win.from_ns = 200;
    win.to_ns = UINT64_MAX;
    win.from_marker = NULL;
    win.to_marker = NULL;
    s = summarise(w->data, w->len, 7, &win, &fin);
    st = hs_summary_get_stats(s);
    CU_ASSERT_EQUAL(st->gens[0].collections, 1);
    CU_ASSERT_EQUAL(st->gens[1].collections, 1);
    CU_ASSERT_EQUAL(st->copied_bytes, 1000);
    CU_ASSERT_EQUAL(st->allocated_bytes, (5000 - 1000) + (400 - 100));
    CU_ASSERT_EQUAL(st->total_ns, 210);
    CU_ASSERT_EQUAL(st->max_slop_bytes, 90);
    hs_summary_free(s);
}

/* The markers, and windows between them resolved after a first pass. */
static void windows_by_marker(const evw *w)
{
    int fin;
    hs_summary *s = summarise(w->data, w->len, 4096, NULL, &fin);
    CU_ASSERT_EQUAL_FATAL(hs_summary_marker_count(s), 2);
    uint64_t count, first;
    hs_str m = hs_summary_marker(s, 0, &count, &first);
    CU_ASSERT(m.len == 1 && m.ptr[0] == 'a' && count == 2 && first == 50);
    m = hs_summary_marker(s, 1, &count, &first);
    CU_ASSERT(m.len == 1 && m.ptr[0] == 'b' && count == 1 && first == 250);
    uint64_t f = 0, t = 0;
    hs_error werr;
    CU_ASSERT_EQUAL(hs_summary_marker_window(s, (hs_str){"a", 1},
                                             (hs_str){"b", 1}, &f, &t, &werr), HS_OK);
    CU_ASSERT(f == 50 && t == 250);
    CU_ASSERT_EQUAL(hs_summary_marker_window(s, (hs_str){"a", 1},
                                             (hs_str){"a", 1}, &f, &t, &werr), HS_OK);
    CU_ASSERT(f == 50 && t == 350);
    CU_ASSERT_EQUAL(hs_summary_marker_window(s, (hs_str){"b", 1},
                                             (hs_str){"b", 1}, &f, &t, &werr),
                    HS_ERR_NO_DATA);
    CU_ASSERT_PTR_NOT_NULL(strstr(werr.message, "does not occur after"));
    /* a question, not a failure of the summary */
    CU_ASSERT_EQUAL(hs_summary_error(s)->code, HS_OK);
    CU_ASSERT_EQUAL(hs_summary_marker_window(s, (hs_str){"zz", 2},
                                             (hs_str){"b", 1}, &f, &t, &werr),
                    HS_ERR_NO_DATA);
    CU_ASSERT_PTR_NOT_NULL(strstr(werr.message, "\"zz\""));
    CU_ASSERT_EQUAL(hs_summary_marker_window(s, (hs_str){"a", 1},
                                             (hs_str){"b\0", 2}, &f, &t, NULL),
                    HS_ERR_NO_DATA); /* names match exactly, bytes and all */
    hs_summary_free(s);
}

/* A window labelled by markers says so, its labels quoted. */
static void windows_labelled(const evw *w)
{
    int fin;
    hs_summary_window win;
    /* a window labelled by markers says so */
    hs_summary_window_init(&win);
    win.from_ns = 50;
    win.to_ns = 250;
    win.from_marker = "a";
    win.to_marker = "b";
    hs_summary *s = summarise(w->data, w->len, 4096, &win, &fin);
    char *text = summary_render(s, false), *json = summary_render(s, true);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "(user marker \"a\" to \"b\")"));
    CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"from_marker\": \"a\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"from_ns\": 50, \"to_ns\": 250"));
    free(text);
    free(json);
    hs_summary_free(s);

    /* the text quotes the labels: a quote or backslash inside is \xHH */
    hs_summary_window_init(&win);
    win.from_ns = 50;
    win.to_ns = 250;
    win.from_marker = "say \"hi\"";
    win.to_marker = "a\\b";
    s = summarise(w->data, w->len, 4096, &win, &fin);
    text = summary_render(s, false);
    CU_ASSERT_PTR_NOT_NULL(
        strstr(text, "(user marker \"say \\x22hi\\x22\" to \"a\\x5cb\")"));
    free(text);
    hs_summary_free(s);
}

static void test_windows(void)
{
    static const int order[3] = {1, 2, 0};
    evw w;
    build_log(&w, order);
    windows_by_time(&w);
    windows_by_marker(&w);
    windows_labelled(&w);
    evw_free(&w);
}

/*
 * A corrupted allocation counter (a flipped high bit, as a fuzzer made
 * it): the alloc rate would be ~9.2e18 bytes per MUT second, beyond any
 * machine and, for a short MUT time, beyond uint64_t (undefined when
 * converted). It is refused with a warning: n/a in the text, null in the
 * JSON; and a counter sum beyond 64 bits refuses bytes allocated too.
 */
static void test_corrupt_alloc_counter(void)
{
    /* 0: 100 TB in 1 us of MUT: the rate (1e20, beyond uint64_t) alone is
     * refused; 1: a counter of 2^63: bytes allocated too; 2: two such
     * counters, whose sum overflows 64 bits. */
    static const uint64_t counter[3] = {100000000000000ull,
                                        (1ull << 63) + 4096,
                                        (1ull << 63) + 4096};
    for (int v = 0; v < 3; v++) {
        evw w;
        evw_start_ghc92(&w);
        size_t b = evw_block(&w, 1, 0);
        evw_event(&w, 9, 1000, 0);                   /* GC_START */
        ev_heap(&w, 49, 1500, counter[v]);           /* HEAP_ALLOCATED */
        ev_gc_stats(&w, 1600, 0, 500, 70, 1, 0, 0);
        evw_event(&w, 10, 2000, 0);                  /* GC_END */
        evw_block_end(&w, b, 2000);
        if (v == 2) {
            b = evw_block(&w, 1, 1);
            ev_heap(&w, 49, 1500, counter[v]);
            evw_block_end(&w, b, 2000);
        }
        evw_data_end(&w);
        int fin;
        hs_summary *s = summarise(w.data, w.len, 4096, NULL, &fin);
        CU_ASSERT_EQUAL(fin, HS_OK);
        const hs_summary_stats *st = hs_summary_get_stats(s);
        CU_ASSERT_TRUE(st->has_pauses);
        CU_ASSERT_EQUAL(st->mut_ns, 1000);
        CU_ASSERT_FALSE(st->has_alloc_rate);
        CU_ASSERT_EQUAL(st->has_allocated, v == 0);
        CU_ASSERT_EQUAL_FATAL(hs_summary_warning_count(s), 1);
        CU_ASSERT_PTR_NOT_NULL(strstr(hs_summary_warning(s, 0),
                                      "cannot be right"));
        CU_ASSERT_PTR_NULL(hs_summary_warning(s, 1));
        char *text = summary_render(s, false), *json = summary_render(s, true);
        CU_ASSERT_PTR_NULL(strstr(text, "9,223,372"));
        if (v == 0) {
            CU_ASSERT_PTR_NOT_NULL(strstr(text,
                "  Alloc rate    n/a bytes per MUT second\n"));
            CU_ASSERT_PTR_NOT_NULL(strstr(text,
                "100,000,000,000,000 bytes allocated in the heap"));
        } else {
            CU_ASSERT_PTR_NULL(strstr(text, "bytes allocated in the heap\n"));
            CU_ASSERT_PTR_NULL(strstr(text, "  Alloc rate    "));
            CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"allocated_bytes\": null"));
        }
        CU_ASSERT_PTR_NOT_NULL(strstr(json,
            "\"alloc_rate_bytes_per_mut_second\": null"));
        CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"warnings\": [\n    \""));
        free(text);
        free(json);
        hs_summary_free(s);
        evw_free(&w);
    }
}

/* An allocator that fails the n-th allocation (and every later one). */
/*
 * Every allocation of a summary of the hand-built log fails in turn: each
 * run ends with HS_ERR_NOMEM kept as the error (or succeeds once n passes
 * the number of allocations), never a crash, and frees every block.
 */
static void test_allocation_failures(void)
{
    static const int order[3] = {2, 0, 1};
    evw w;
    build_log(&w, order);
    bool finished = false;
    for (long n = 0; n < 10000 && !finished; n++) {
        tu_failing f = {n, 0, 0};
        hs_allocator a = tu_failing_allocator(&f);
        hs_summary *s = hs_summary_new_with(&a);
        if (!s) {
            CU_ASSERT_EQUAL(f.live, 0);
            continue;
        }
        hs_reader *r = hs_reader_new();
        hs_reader_feed(r, w.data, w.len);
        hs_event ev;
        int st = HS_OK;
        while (st >= 0 && hs_reader_next(r, &ev) == HS_EVENT)
            st = hs_summary_add_event(s, &ev);
        hs_reader_free(r);
        if (st >= 0)
            st = hs_summary_finish(s);
        if (st >= 0) {
            hs_membuf m = {0};
            hs_sink k = hs_membuf_sink(&m);
            st = hs_summary_render_json(s, &k);
            hs_membuf_free(&m);
            finished = st == HS_OK;
        } else {
            CU_ASSERT_EQUAL(st, HS_ERR_NOMEM);
            CU_ASSERT_EQUAL(hs_summary_error(s)->code, HS_ERR_NOMEM);
            /* sticky: nothing more is done */
            CU_ASSERT_EQUAL(hs_summary_finish(s), HS_ERR_NOMEM);
        }
        hs_summary_free(s);
        CU_ASSERT_EQUAL(f.live, 0);
    }
    CU_ASSERT_TRUE(finished);
    evw_free(&w);
}

/* A log with only user messages: every figure unavailable, none zero. */
static void test_no_gc_events(void)
{
    evw w;
    evw_start_ghc92(&w);
    size_t b = evw_block(&w, 1, 0);
    evw_string_event(&w, 19, 1000, "hello");
    ev_marker(&w, 2000, "m");
    evw_block_end(&w, b, 2000);
    evw_data_end(&w);
    int fin;
    hs_summary *s = summarise(w.data, w.len, 4096, NULL, &fin);
    CU_ASSERT_EQUAL(fin, HS_ERR_NO_DATA);
    const hs_summary_stats *st = hs_summary_get_stats(s);
    CU_ASSERT_FALSE(st->has_allocated || st->has_gc || st->has_live ||
                    st->has_slop || st->has_heap_size || st->has_pauses ||
                    st->has_work_balance || st->has_sparks);
    CU_ASSERT_EQUAL(st->total_ns, 2000);
    char *text = summary_render(s, false), *json = summary_render(s, true);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "no GC statistics can be computed"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "bytes copied during GC (no "
                                        "GC_STATS_GHC events)"));
    CU_ASSERT_PTR_NULL(strstr(text, "bytes allocated in the heap\n"));
    CU_ASSERT_PTR_NULL(strstr(text, "colls,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"allocated_bytes\": null"));
    CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"generations\": null"));
    CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"gc_elapsed_ns\": null"));
    free(text);
    free(json);
    hs_summary_free(s);
    evw_free(&w);
}

/*
 * GHC 8.2's layout: GC_STATS_GHC of 50 bytes (no balanced field), posted
 * after GC_END; no HEAP_INFO_GHC. The pause still pairs and the work
 * balance is estimated from max and total copied.
 */
static void test_old_layout(void)
{
    evw w;
    evw_init(&w);
    evw_header_begin(&w);
    evw_declare(&w, 9, 0, "Starting GC");
    evw_declare(&w, 10, 0, "Finished GC");
    evw_declare(&w, 18, 14, "Block marker");
    evw_declare(&w, 49, 12, "Total heap mem ever allocated");
    evw_declare(&w, 53, 50, "GC statistics");
    evw_header_end(&w);
    size_t b = evw_block(&w, 1, 0);
    evw_event(&w, 9, 100, 0);
    evw_event(&w, 10, 130, 0);
    evw_event(&w, 53, 131, 0);
    evw_u32(&w, 0);
    evw_u16(&w, 0);
    evw_u64(&w, 1000);  /* copied */
    evw_u64(&w, 10);    /* slop */
    evw_u64(&w, 0);     /* frag */
    evw_u32(&w, 2);     /* threads */
    evw_u64(&w, 600);   /* max copied */
    evw_u64(&w, 1000);  /* total copied */
    ev_heap(&w, 49, 132, 777);
    evw_block_end(&w, b, 132);
    evw_data_end(&w);
    int fin;
    hs_summary *s = summarise(w.data, w.len, 3, NULL, &fin);
    CU_ASSERT_EQUAL(fin, HS_OK);
    const hs_summary_stats *st = hs_summary_get_stats(s);
    CU_ASSERT_EQUAL_FATAL(st->n_gens, 1);
    CU_ASSERT_EQUAL(st->gens[0].collections, 1);
    CU_ASSERT_EQUAL(st->gens[0].timed, 1);
    CU_ASSERT_EQUAL(st->gens[0].elapsed_ns, 30);
    CU_ASSERT_TRUE(st->has_work_balance);
    CU_ASSERT_TRUE(st->work_balance_estimated);
    CU_ASSERT_DOUBLE_EQUAL(st->work_balance, 1000.0 / 600.0 - 1, 1e-12);
    CU_ASSERT_EQUAL(st->allocated_bytes, 777);
    hs_summary_free(s);
    evw_free(&w);
}

/* A log cut inside a collection: the open collection has no pause. */
static void test_truncated_in_gc(void)
{
    static const int order[3] = {2, 0, 1};
    evw w;
    build_log(&w, order);
    /* find cap 0's second GC_STATS_GHC (time 391) and cut right after it */
    size_t cut = 0;
    for (size_t i = 0; i + 10 <= w.len; i++)
        if (w.data[i] == 0 && w.data[i + 1] == 53 && w.data[i + 9] == 0x87 &&
            w.data[i + 8] == 0x01) { /* tag 53, time 0x187 = 391 */
            cut = i + 10 + 58;
            break;
        }
    CU_ASSERT_FATAL(cut > 0);
    int fin;
    hs_summary *s = summarise(w.data, cut, 4096, NULL, &fin);
    const hs_summary_stats *st = hs_summary_get_stats(s);
    CU_ASSERT_EQUAL(st->gens[1].collections, 1);
    CU_ASSERT_EQUAL(st->gens[1].timed, 0);
    char *text = summary_render(s, false);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "Gen  1         1 colls"));
    free(text);
    hs_summary_free(s);
    evw_free(&w);
}

int main(void)
{
    static const tu_test tests[] = {
        {"any block order and chunk size", test_block_orders},
        {"windows and markers", test_windows},
        {"corrupted allocation counter", test_corrupt_alloc_counter},
        {"allocation failures", test_allocation_failures},
        {"log without GC events", test_no_gc_events},
        {"GHC 8.2 layout", test_old_layout},
        {"truncated inside a collection", test_truncated_in_gc},
        {NULL, NULL},
    };
    return tu_main("summary", NULL, NULL, tests);
}
