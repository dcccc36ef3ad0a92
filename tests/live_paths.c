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
#include "testutil.h"

#include <CUnit/Basic.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The general path: the reader's events one by one. */
typedef struct general {
    hs_reader *r;
    hs_census *c;
    hs_summary *s;
    int status;
} general;

static void general_init(general *g)
{
    uint16_t tags[512];
    size_t n = hs_census_event_tags(tags, 256);
    n += hs_summary_event_tags(tags + n, 256);
    g->r = hs_reader_new();
    g->c = hs_census_new();
    g->s = hs_summary_new();
    g->status = HS_OK;
    CU_ASSERT_FATAL(g->r && g->c && g->s);
    hs_reader_decode_only(g->r, tags, n);
}

static void general_free(general *g)
{
    hs_reader_free(g->r);
    hs_census_free(g->c);
    hs_summary_free(g->s);
}

static int general_feed(general *g, const uint8_t *data, size_t len)
{
    if (g->status)
        return g->status;
    int st = hs_reader_feed(g->r, data, len);
    hs_event ev;
    while (st >= 0 && (st = hs_reader_next(g->r, &ev)) == HS_EVENT) {
        if ((st = hs_census_add_event(g->c, &ev)) != HS_OK ||
            (st = hs_summary_add_event(g->s, &ev)) != HS_OK)
            return g->status = st;
    }
    if (st == HS_DONE || st < 0)
        return g->status = st;
    return HS_OK;
}

/* hs_live_finish()'s steps on the general path's objects. */
static int general_finish(general *g)
{
    int st = g->status < 0 ? g->status : hs_reader_finish(g->r);
    if (st < 0)
        return st;
    hs_census_finish(g->c, st == HS_DONE);
    hs_summary_finish(g->s);
    return st;
}

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
static bool same_state(hs_live *l, general *g, bool summary)
{
    const hs_census_info *a = hs_census_get_info(hs_live_census(l));
    const hs_census_info *b = hs_census_get_info(g->c);
    bool same = a->events == b->events && a->end_time_ns == b->end_time_ns &&
                a->capabilities == b->capabilities &&
                a->source == b->source &&
                hs_census_sample_count(hs_live_census(l)) ==
                    hs_census_sample_count(g->c);
    CU_ASSERT(same);
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
    general g;
    general_init(&g);
    CU_ASSERT_FATAL(l != NULL);
    bool same = true;
    size_t k = 0;
    for (size_t off = 0; off < len && same; off += chunk, k++) {
        size_t n = len - off < chunk ? len - off : chunk;
        int a = hs_live_feed(l, data + off, n), b = general_feed(&g, data + off, n);
        CU_ASSERT_EQUAL(a, b);
        same = a == b && same_state(l, &g, every && k % every == 0);
        if (a != HS_OK)
            break;
    }
    int a = hs_live_finish(l), b = general_finish(&g);
    CU_ASSERT_EQUAL(a, b);
    const hs_error *ea = hs_live_error(l), *eb = hs_reader_error(g.r);
    if (b < 0 && b == g.status && b != hs_reader_error(g.r)->code)
        eb = b == hs_census_error(g.c)->code ? hs_census_error(g.c)
                                              : hs_summary_error(g.s);
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
    general_free(&g);
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
