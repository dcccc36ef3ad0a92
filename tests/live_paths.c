/*
 * The live state's one pass (live/live_state.c: only the events the census
 * or the summary reads are handed over, the others counted by the read
 * loop and handed over at the end of each chunk) against the general
 * path, every event one by one through hs_census_add_event() and
 * hs_summary_add_event() from a reader decoding the same tags: after every
 * chunk the same event count, end of the run, capabilities, samples and
 * summary figures; at the end the same status, error message and byte
 * offset, census and summary. On every sample log in chunks of odd sizes,
 * a constructed log (blocks, events past a block's end, heap samples) cut
 * at every byte, and sample logs with a corrupt byte.
 */
#include "live_paths.h"

#include <heapscope/heapscope.h>

#include "evwriter.h"
#include "live_general.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *summary_json(hs_summary *s, bool snapshot)
{
    if (snapshot)
        hs_summary_snapshot(s);
    return render_summary(s);
}

static bool same_text(char *a, char *b)
{
    bool same = strcmp(a, b) == 0;
    CU_ASSERT_STRING_EQUAL(a, b);
    free(a);
    free(b);
    return same;
}

/* The summaries' event counts (which their JSON does not show). */
static bool same_events(const hs_summary *a, const hs_summary *b)
{
    bool same = hs_summary_get_stats(a)->events ==
                hs_summary_get_stats(b)->events;
    CU_ASSERT(same);
    return same;
}

/* What either path shows after a chunk; false at the first difference. */
static bool same_state(hs_live *l, live_general *g, bool summary)
{
    bool same = live_general_same_state(g, l);
    CU_ASSERT(same);
    const hs_census_info *b = hs_census_get_info(g->c);
    if (same && summary) {
        hs_live_metrics m;
        CU_ASSERT_EQUAL(hs_live_get_metrics(l, &m), HS_OK);
        same = m.events == b->events && m.elapsed_ns == b->end_time_ns;
        CU_ASSERT(same);
        same = same && same_text(summary_json(hs_live_summary(l), false),
                                 summary_json(g->s, true));
        same = same_events(hs_live_summary(l), g->s) && same;
    }
    return same;
}

/* Both paths over data in chunks of `chunk`, compared after every chunk
 * (the summary's figures every `every` chunks) and at the end. */
static bool compare(const char *name, const uint8_t *data, size_t len,
                    size_t chunk, size_t every)
{
    hs_live *l = hs_live_new();
    live_general g;
    CU_ASSERT_FATAL(l != NULL && live_general_init(&g, -1));
    bool same = true;
    size_t k = 0;
    for (size_t off = 0; off < len && same; off += chunk, k++) {
        size_t n = len - off < chunk ? len - off : chunk;
        int a = hs_live_feed(l, data + off, n), b = live_general_feed(&g, data + off, n);
        CU_ASSERT_EQUAL(a, b);
        same = a == b && same_state(l, &g, every && k % every == 0);
        if (a != HS_OK)
            break;
    }
    const hs_error *eb;
    int a = hs_live_finish(l), b = live_general_finish(&g, &eb);
    CU_ASSERT_EQUAL(a, b);
    const hs_error *ea = hs_live_error(l);
    if (b < 0 || b == HS_TRUNCATED) {
        /* a cut inside a sample says so after the reader's words */
        CU_ASSERT_EQUAL(ea->offset, eb->offset);
        CU_ASSERT_EQUAL(strncmp(ea->message, eb->message, strlen(eb->message)),
                        0);
        same = same && ea->offset == eb->offset;
    }
    if (b >= 0) {
        /* a census without samples has no CSV: their counts compared */
        if (hs_census_sample_count(g.c))
            same = same_text(render_csv(hs_live_census(l)),
                             render_csv(g.c)) && same;
        same = same_text(summary_json(hs_live_summary(l), false),
                         summary_json(g.s, false)) && same;
        same = same_events(hs_live_summary(l), g.s) && same;
        same = same_state(l, &g, false) && same;
    }
    if (!same)
        printf("\n  %s (%zu bytes, chunks of %zu): the paths differ\n", name,
               len, chunk);
    live_general_free(&g);
    hs_live_free(l);
    return same;
}

static int sample_names(char names[][4400], int cap)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/samples", tu_source_dir());
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) && n < cap) {
        size_t len = strlen(e->d_name);
        if (len > 9 && len < 200 &&
            strcmp(e->d_name + len - 9, ".eventlog") == 0)
            snprintf(names[n++], 4400, "%s/%s", dir, e->d_name);
    }
    if (d)
        closedir(d);
    return n;
}

void test_live_paths_samples(void)
{
    static char names[64][4400];
    int n = sample_names(names, 64);
    CU_ASSERT(n >= 10);
    static const size_t chunks[] = {1, 61, 4093, 65536};
    for (int i = 0; i < n; i++) {
        size_t len;
        uint8_t *data = tu_slurp(names[i], &len);
        CU_ASSERT_PTR_NOT_NULL_FATAL(data);
        for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
            /* a byte at a time for a few logs, the summary's figures
             * every so often */
            if (chunks[c] == 1 && i % 6)
                continue;
            CU_ASSERT(compare(names[i], data, len, chunks[c],
                              chunks[c] < 4093 ? 977 : 1));
        }
        free(data);
    }
}

/* A log of what a -hT -N2 run writes, small: blocks of two capabilities
 * with GC, heap and scheduler events, events past a block's end, heap
 * samples (closed with SAMPLE_END when `ends`; GHC 8.2/8.4 wrote none, so
 * a cut log's last sample was cut when nothing follows its events), a
 * user message. */
static void build_log(evw *w, bool ends)
{
    evw_start_ghc92(w);
    uint64_t t = 1000;
    evw_heap_prof_begin(w, t, 100000, 7 /* closure type */);
    for (int round = 0; round < 12; round++) {
        for (uint16_t cap = 0; cap < 2; cap++) {
            size_t b = evw_block(w, t, cap);
            evw_write(w, t += 5, &(hs_event){.tag = HS_EV_RUN_THREAD});
            evw_write(w, t += 10, &(hs_event){.tag = HS_EV_GC_START});
            evw_write(w, t += 3, &(hs_event){.tag = HS_EV_GC_GLOBAL_SYNC});
            hs_event heap = {.tag = HS_EV_HEAP_ALLOCATED};
            heap.u.heap.bytes = 4096u * (uint64_t)(round + 1);
            evw_write(w, t += 2, &heap);
            heap.tag = HS_EV_HEAP_SIZE;
            evw_write(w, t += 2, &heap);
            evw_write(w, t += 90 + cap * 7, &(hs_event){.tag = HS_EV_GC_END});
            evw_block_end(w, b, t);
        }
        evw_write(w, t += 10, &(hs_event){.tag = HS_EV_REQUEST_SEQ_GC});
        if (round % 4 == 1) {
            evw_sample_begin(w, t += 20, (uint64_t)round);
            evw_sample_string(w, t, 1000u + (uint64_t)round, "THUNK");
            evw_sample_string(w, t, 500, "ghc-prim:GHC.Types.I#");
            if (ends && round != 9) /* a sample left open */
                evw_sample_end(w, t += 5, (uint64_t)round);
        }
        if (round == 6)
            evw_string_event(w, HS_EV_USER_MSG, t += 1, "half way");
    }
    evw_data_end(w);
}

void test_live_paths_cuts(void)
{
    for (int ends = 0; ends < 2; ends++) {
        evw w;
        build_log(&w, ends);
        hs_live *whole = hs_live_new(); /* the log is what it should be */
        CU_ASSERT_EQUAL(hs_live_feed(whole, w.data, w.len), HS_DONE);
        CU_ASSERT_EQUAL(hs_live_finish(whole), HS_DONE);
        CU_ASSERT_EQUAL(hs_census_sample_count(hs_live_census(whole)),
                        (size_t)(3 - ends)); /* one left open */
        hs_live_free(whole);
        /* every prefix, fed in chunks of 7 (an event cut anywhere) */
        for (size_t cut = 0; cut <= w.len; cut++)
            if (!compare(ends ? "the constructed log" : "the constructed "
                         "log without SAMPLE_END", w.data, cut, 7, 0))
                break;
        evw_free(&w);
    }
}

void test_live_paths_corrupt(void)
{
    static char names[64][4400];
    int n = sample_names(names, 64);
    for (int i = 0; i < n; i += 5) {
        size_t len;
        uint8_t *data = tu_slurp(names[i], &len);
        CU_ASSERT_PTR_NOT_NULL_FATAL(data);
        for (size_t at = 997; at < len; at += len / 13 + 1) {
            for (unsigned flip = 0x01; flip < 0x100; flip <<= 3) {
                data[at] ^= (uint8_t)flip;
                bool same = compare(names[i], data, len, 4093, 0);
                data[at] ^= (uint8_t)flip;
                if (!same) {
                    printf("  (byte %zu xor 0x%02x)\n", at, flip);
                    at = len;
                    break;
                }
            }
        }
        free(data);
    }
}
