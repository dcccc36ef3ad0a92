/*
 * Tests of the eventlog reader on hand-built logs (tests/evwriter) of every
 * event layout it meets: unknown types, extra trailing fields' neighbours,
 * older and shorter layouts, GHC 6.12, other runtimes, block markers.
 */
#include <heapscope/heapscope.h>

#include "evwriter.h"
#include "evhash.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Decodes w whole and into evs[0..max); returns the count, asserting that
 * the log ends with HS_DONE at its last byte. The events' pointers are not
 * kept (the reader is freed): only numbers are checked by callers. */
typedef struct flat {
    uint16_t tag;
    bool known;
    int32_t cap;
    uint64_t time, offset;
    size_t payload_len;
    hs_event ev; /* pointer fields invalid after return */
} flat;

static size_t decode_flat(const evw *w, flat *evs, size_t max)
{
    hs_reader *r = hs_reader_new();
    hs_event ev;
    size_t n = 0;
    int st;
    hs_reader_feed(r, w->data, w->len);
    while ((st = hs_reader_next(r, &ev)) == HS_EVENT && n < max) {
        evs[n] = (flat){ev.tag, ev.known, ev.cap, ev.time, ev.offset,
                        ev.payload_len, ev};
        n++;
    }
    CU_ASSERT_EQUAL(st, HS_DONE);
    CU_ASSERT_EQUAL(hs_reader_finish(r), HS_DONE);
    CU_ASSERT_EQUAL(hs_reader_offset(r), w->len);
    hs_reader_free(r);
    return n;
}

static void test_unknown_event_types(void)
{
    evw w;
    evw_init(&w);
    evw_header_begin(&w);
    evw_declare(&w, 9, 0, "Starting GC");
    evw_declare(&w, 300, 5, "A future fixed event");
    evw_declare(&w, 301, EVW_VAR, "A future variable event");
    evw_declare(&w, 65000, 3, "A far tag");
    evw_declare(&w, 50, 12, "Current heap size");
    evw_header_end(&w);
    evw_event(&w, 300, 1, 0);
    evw_bytes(&w, "\0\xff\0\xff\x01", 5);
    evw_event(&w, 50, 2, 0);
    evw_u32(&w, 0);
    evw_u64(&w, 123456);
    static const char any[] = "any bytes \xff\xff\0 at all";
    size_t v = evw_event(&w, 301, 3, 1);
    evw_bytes(&w, any, sizeof any - 1);
    evw_event_end(&w, v);
    evw_event(&w, 301, 4, 1); /* empty variable payload */
    evw_event(&w, 9, 5, 0);
    evw_data_end(&w);

    flat e[8];
    size_t n = decode_flat(&w, e, 8);
    CU_ASSERT_EQUAL_FATAL(n, 5);
    CU_ASSERT_EQUAL(e[0].tag, 300);
    CU_ASSERT_FALSE(e[0].known);
    CU_ASSERT_EQUAL(e[0].payload_len, 5);
    CU_ASSERT_EQUAL(e[1].tag, 50);
    CU_ASSERT_TRUE(e[1].known);
    CU_ASSERT_EQUAL(e[1].ev.u.heap.bytes, 123456);
    CU_ASSERT_EQUAL(e[2].tag, 301);
    CU_ASSERT_FALSE(e[2].known);
    CU_ASSERT_EQUAL(e[2].payload_len, sizeof any - 1);
    CU_ASSERT_EQUAL(e[2].offset, v);
    CU_ASSERT_EQUAL(e[3].payload_len, 0);
    CU_ASSERT_EQUAL(e[4].tag, 9);
    CU_ASSERT_EQUAL(e[4].time, 5);
    CU_ASSERT_PTR_NULL(hs_event_name(300));

    /* The header's description and size of each declared type. */
    hs_reader *r = hs_reader_new();
    hs_event ev;
    hs_reader_feed(r, w.data, w.len);
    CU_ASSERT_EQUAL(hs_reader_next(r, &ev), HS_EVENT);
    int size = 0;
    hs_str desc;
    CU_ASSERT_TRUE(hs_reader_event_type(r, 300, &size, &desc));
    CU_ASSERT_EQUAL(size, 5);
    CU_ASSERT(desc.len == 20 && memcmp(desc.ptr, "A future fixed event", 20) == 0);
    CU_ASSERT_TRUE(hs_reader_event_type(r, 301, &size, NULL));
    CU_ASSERT_EQUAL(size, -1);
    CU_ASSERT_FALSE(hs_reader_event_type(r, 302, &size, &desc));
    /* descriptions are kept up to the largest declared tag */
    CU_ASSERT_TRUE(hs_reader_event_type(r, 65000, &size, &desc));
    CU_ASSERT(size == 3 && desc.len == 9 && memcmp(desc.ptr, "A far tag", 9) == 0);
    CU_ASSERT_FALSE(hs_reader_event_type(r, 65001, &size, &desc));
    /* declared out of order, found all the same */
    CU_ASSERT_TRUE(hs_reader_event_type(r, 50, &size, &desc));
    CU_ASSERT(size == 12 && desc.len == 17);
    CU_ASSERT_TRUE(hs_reader_event_type(r, 9, &size, &desc));
    CU_ASSERT(size == 0 && desc.len == 11 && !memcmp(desc.ptr, "Starting GC", 11));
    CU_ASSERT_FALSE(hs_reader_event_type(r, 10, &size, &desc));
    hs_reader_free(r);
    evw_free(&w);
}

static void test_older_and_short_layouts(void)
{
    evw w;
    evw_init(&w);
    evw_header_begin(&w);
    evw_declare(&w, 53, 50, "GC statistics");   /* GHC 8.2 */
    evw_declare(&w, 49, 8, "A layout too short to decode");
    evw_declare(&w, 2, 6, "Stop thread (old)"); /* no blocked_on */
    evw_header_end(&w);
    evw_event(&w, 53, 1, 0);
    evw_u32(&w, 0);
    evw_u16(&w, 1);
    evw_u64(&w, 11);
    evw_u64(&w, 22);
    evw_u64(&w, 33);
    evw_u32(&w, 1);
    evw_u64(&w, 44);
    evw_u64(&w, 55);
    evw_event(&w, 49, 2, 0);
    evw_u64(&w, 77);
    evw_event(&w, 2, 3, 0);
    evw_u32(&w, 5);
    evw_u16(&w, 14);
    evw_event(&w, 53, 4, 0);
    evw_bytes(&w, "\0\0\0\0\0\x01", 6);
    for (int i = 0; i < 44; i++)
        evw_u8(&w, (uint8_t)i);
    evw_data_end(&w);

    flat e[8];
    size_t n = decode_flat(&w, e, 8);
    CU_ASSERT_EQUAL_FATAL(n, 4);
    CU_ASSERT_TRUE(e[0].known);
    CU_ASSERT_EQUAL(e[0].payload_len, 50);
    CU_ASSERT_EQUAL(e[0].ev.u.gc_stats.copied, 11);
    CU_ASSERT_EQUAL(e[0].ev.u.gc_stats.slop, 22);
    CU_ASSERT_EQUAL(e[0].ev.u.gc_stats.frag, 33);
    CU_ASSERT_EQUAL(e[0].ev.u.gc_stats.par_threads, 1);
    CU_ASSERT_EQUAL(e[0].ev.u.gc_stats.par_max_copied, 44);
    CU_ASSERT_EQUAL(e[0].ev.u.gc_stats.par_tot_copied, 55);
    CU_ASSERT_FALSE(e[0].ev.u.gc_stats.has_balanced);
    CU_ASSERT_EQUAL(e[0].ev.u.gc_stats.par_balanced_copied, 0);
    /* too short for any layout: raw only, and skipped correctly */
    CU_ASSERT_EQUAL(e[1].tag, 49);
    CU_ASSERT_FALSE(e[1].known);
    CU_ASSERT_EQUAL(e[1].payload_len, 8);
    CU_ASSERT_TRUE(e[2].known);
    CU_ASSERT_EQUAL(e[2].ev.u.stop_thread.thread, 5);
    CU_ASSERT_EQUAL(e[2].ev.u.stop_thread.status, 14);
    CU_ASSERT_EQUAL(e[2].ev.u.stop_thread.blocked_on, 0);
    CU_ASSERT_EQUAL(e[3].time, 4);
    evw_free(&w);
}

/* A GHC 6.12 log: STARTUP declared empty but 2 bytes long, 64-bit thread
 * ids. Events as queens-ghc-6.12.1.eventlog begins (ghc-events' reference:
 * "startup: 4 capabilities", "cap 3: creating thread 1", ...). */
static void test_ghc612_layout(void)
{
    evw w;
    evw_start_ghc612(&w);
    evw_event(&w, HS_EV_STARTUP, 106000, 0);
    evw_u16(&w, 4);
    size_t b = evw_block(&w, 431000, 3);
    evw_event(&w, HS_EV_CREATE_THREAD, 431000, 0);
    evw_u64(&w, 1);
    evw_event(&w, HS_EV_RUN_THREAD, 432000, 0);
    evw_u64(&w, 1);
    evw_event(&w, HS_EV_STOP_THREAD, 471000, 0);
    evw_u64(&w, 0x100000001ull); /* the low half is the id */
    evw_u16(&w, 5);
    evw_event(&w, HS_EV_MIGRATE_THREAD, 472000, 0);
    evw_u64(&w, 2);
    evw_u16(&w, 1);
    evw_event(&w, HS_EV_GC_START, 473000, 0);
    evw_event(&w, HS_EV_CREATE_SPARK_THREAD, 474000, 0);
    evw_u64(&w, 7);
    evw_block_end(&w, b, 474000);
    evw_data_end(&w);

    flat e[16];
    size_t n = decode_flat(&w, e, 16);
    CU_ASSERT_EQUAL_FATAL(n, 8);
    CU_ASSERT_EQUAL(e[0].tag, HS_EV_STARTUP);
    CU_ASSERT_EQUAL(e[0].payload_len, 2);
    CU_ASSERT_EQUAL(e[1].tag, HS_EV_BLOCK_MARKER);
    CU_ASSERT_EQUAL(e[2].tag, HS_EV_CREATE_THREAD);
    CU_ASSERT_EQUAL(e[2].cap, 3);
    CU_ASSERT_TRUE(e[2].known);
    CU_ASSERT_EQUAL(e[2].ev.u.thread.thread, 1);
    CU_ASSERT_EQUAL(e[3].ev.u.thread.thread, 1);
    CU_ASSERT_EQUAL(e[4].ev.u.stop_thread.thread, 1);
    CU_ASSERT_EQUAL(e[4].ev.u.stop_thread.status, 5);
    CU_ASSERT_EQUAL(e[4].ev.u.stop_thread.blocked_on, 0);
    CU_ASSERT_EQUAL(e[5].ev.u.thread_cap.thread, 2);
    CU_ASSERT_EQUAL(e[5].ev.u.thread_cap.cap, 1);
    CU_ASSERT_EQUAL(e[6].tag, HS_EV_GC_START);
    CU_ASSERT_EQUAL(e[7].ev.u.spark_thread.thread, 7);
    int size = 0;
    hs_reader *r = hs_reader_new();
    hs_reader_feed(r, w.data, w.len);
    hs_event ev;
    CU_ASSERT_EQUAL(hs_reader_next(r, &ev), HS_EVENT);
    CU_ASSERT_TRUE(hs_reader_event_type(r, HS_EV_STARTUP, &size, NULL));
    CU_ASSERT_EQUAL(size, 2);
    hs_reader_free(r);
    evw_free(&w);

    /* the same STARTUP in a log of 4-byte thread ids is read as declared */
    evw_init(&w);
    evw_header_begin(&w);
    evw_declare(&w, HS_EV_CREATE_THREAD, 4, "Create thread");
    evw_declare(&w, HS_EV_STARTUP, 0, "Startup");
    evw_header_end(&w);
    evw_event(&w, HS_EV_STARTUP, 1, 0);
    evw_event(&w, HS_EV_CREATE_THREAD, 2, 0);
    evw_u32(&w, 9);
    evw_data_end(&w);
    n = decode_flat(&w, e, 16);
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_EQUAL(e[0].payload_len, 0);
    CU_ASSERT_EQUAL(e[1].ev.u.thread.thread, 9);
    evw_free(&w);
}

/* GHC 9.10's IPE events declare one byte more than they hold: whole or
 * fed in chunks of any size, every event after them stays framed. */
static void test_ipe_declared_one_long(void)
{
    evw w;
    evw_start_ghc92(&w);
    size_t b = evw_block(&w, 1, 0xffff);
    evw_ipe_ghc910(&w, 2, 0x409f78, "sat_s154_info", "21",
                   "Integer -> IO ()", "main", "Main", "Test.hs:5:1-30");
    evw_ipe_ghc910(&w, 3, 0x40a088, "main_info", "21", "IO ()", "main",
                   "Main", "Test.hs:5:1-30");
    evw_sample_begin(&w, 4, 7);
    evw_block_end(&w, b, 4);
    evw_ipe_ghc910(&w, 5, 0x40a0f8, "main_info", "21", "IO ()", "main",
                   "Main", "Test.hs:5:1-4"); /* then the data-end marker */
    evw_data_end(&w);

    flat e[8];
    size_t n = decode_flat(&w, e, 8);
    CU_ASSERT_EQUAL_FATAL(n, 5);
    CU_ASSERT_EQUAL(e[1].tag, HS_EV_IPE);
    CU_ASSERT_TRUE(e[1].known);
    CU_ASSERT_EQUAL(e[1].ev.u.ipe.address, 0x409f78);
    CU_ASSERT_EQUAL(e[2].tag, HS_EV_IPE);
    CU_ASSERT_EQUAL(e[2].time, 3);
    CU_ASSERT_EQUAL(e[3].tag, HS_EV_HEAP_PROF_SAMPLE_BEGIN);
    CU_ASSERT_EQUAL(e[3].ev.u.sample.era, 7);
    CU_ASSERT_EQUAL(e[3].cap, HS_CAP_NONE);
    CU_ASSERT_EQUAL(e[4].tag, HS_EV_IPE);
    CU_ASSERT_EQUAL(e[4].time, 5);

    for (size_t chunk = 1; chunk <= 40; chunk++) {
        hs_reader *r = hs_reader_new();
        hs_event ev;
        size_t got = 0, ipes = 0;
        int st = HS_NEED_INPUT;
        for (size_t at = 0; at < w.len && st != HS_DONE; at += chunk) {
            size_t len = w.len - at < chunk ? w.len - at : chunk;
            hs_reader_feed(r, w.data + at, len);
            while ((st = hs_reader_next(r, &ev)) == HS_EVENT) {
                got++;
                ipes += ev.tag == HS_EV_IPE && ev.payload_len ==
                                                   e[got - 1].payload_len;
            }
        }
        CU_ASSERT_EQUAL(st, HS_DONE);
        CU_ASSERT_EQUAL(got, 5);
        CU_ASSERT_EQUAL(ipes, 3);
        CU_ASSERT_EQUAL(hs_reader_offset(r), w.len);
        hs_reader_free(r);
    }
    evw_free(&w);

    /* Two surplus bytes are a newer layout's extra fields: kept. */
    evw_start_ghc92(&w);
    size_t s = w.len;
    evw_ipe(&w, 2, 1, "t", "21", "T", "l", "M", "M.hs:1:1");
    evw_bytes(&w, "\0\0", 2);
    evw_event_end(&w, s);
    evw_data_end(&w);
    n = decode_flat(&w, e, 8);
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_EQUAL(e[0].payload_len, 8 + 2 + 3 + 2 + 2 + 2 + 9 + 2);
    evw_free(&w);
}

/* NONMOVING_HEAP_CENSUS in its two layouts: 13 bytes with the block size
 * as a base-2 logarithm (before GHC 9.8), 14 with the size itself. */
static void test_nonmoving_census_layouts(void)
{
    for (int size = 13; size <= 14; size++) {
        evw w;
        evw_init(&w);
        evw_header_begin(&w);
        evw_declare(&w, HS_EV_NONMOVING_HEAP_CENSUS, (uint16_t)size,
                    "Nonmoving heap census");
        evw_header_end(&w);
        evw_event(&w, HS_EV_NONMOVING_HEAP_CENSUS, 5, 0);
        if (size == 13)
            evw_u8(&w, 4);
        else
            evw_u16(&w, 16);
        evw_u32(&w, 3);
        evw_u32(&w, 2);
        evw_u32(&w, 54);
        evw_data_end(&w);
        flat e[2];
        size_t n = decode_flat(&w, e, 2);
        CU_ASSERT_EQUAL_FATAL(n, 1);
        CU_ASSERT_TRUE(e[0].known);
        CU_ASSERT_EQUAL(e[0].ev.u.nonmoving_census.blk_size, 16);
        CU_ASSERT_EQUAL(e[0].ev.u.nonmoving_census.active_segs, 3);
        CU_ASSERT_EQUAL(e[0].ev.u.nonmoving_census.filled_segs, 2);
        CU_ASSERT_EQUAL(e[0].ev.u.nonmoving_census.live_blocks, 54);
        evw_free(&w);
    }
}

/* Mercury's runtime numbers its own events among GHC's: 39 is a variable
 * id->string mapping there, GHC's SPARK_STEAL (fixed, u16) here; 40 is
 * fixed and empty in both (SPARK_FIZZLE to ghc-events). A tag declared
 * variable where GHC's is fixed stays raw, and frames by its length. */
static void test_foreign_layouts(void)
{
    evw w;
    evw_init(&w);
    evw_header_begin(&w);
    evw_declare(&w, 39, EVW_VAR, "Register an id->string mapping");
    evw_declare(&w, 40, 0, "About to call main/2");
    evw_declare(&w, HS_EV_USER_MSG, 6, "A fixed user message");
    evw_header_end(&w);
    size_t s = evw_event(&w, 39, 1, 1);
    evw_cstr(&w, "main");
    evw_u32(&w, 7);
    evw_event_end(&w, s);
    evw_event(&w, 40, 2, 0);
    evw_event(&w, HS_EV_USER_MSG, 3, 0);
    evw_bytes(&w, "abcdef", 6);
    evw_data_end(&w);
    flat e[4];
    size_t n = decode_flat(&w, e, 4);
    CU_ASSERT_EQUAL_FATAL(n, 3);
    CU_ASSERT_FALSE(e[0].known);
    CU_ASSERT_EQUAL(e[0].payload_len, 9);
    CU_ASSERT_TRUE(e[1].known);
    CU_ASSERT_FALSE(e[2].known);
    CU_ASSERT_EQUAL(e[2].time, 3);
    evw_free(&w);
}

static void test_block_markers(void)
{
    evw w;
    evw_start_ghc92(&w);
    size_t hdr = w.len;
    evw_event(&w, 9, 1, 0);               /* 0: before any block */
    size_t b0 = evw_block(&w, 2, 0);      /* 1: cap 0 */
    evw_event(&w, 9, 3, 0);               /* 2 */
    evw_event(&w, 10, 4, 0);              /* 3 */
    evw_block_end(&w, b0, 4);
    evw_event(&w, 11, 5, 0);              /* 4: after the block: none */
    size_t bg = evw_block(&w, 6, 0xffff); /* 5: the global buffer */
    evw_heap_prof_begin(&w, 7, 1000, 1);  /* 6 */
    evw_block_end(&w, bg, 7);
    size_t b1 = evw_block(&w, 8, 3);      /* 7: cap 3 */
    evw_event(&w, 12, 9, 0);              /* 8 */
    evw_block_end(&w, b1, 9);
    size_t b2 = evw_block(&w, 10, 2);     /* 9: cap 2, never closed */
    evw_event(&w, 9, 11, 0);              /* 10 */
    evw_event(&w, 10, 12, 0);             /* 11 */
    evw_sample_begin(&w, 13, 1);          /* 12 */
    evw_data_end(&w);

    static const int32_t want[] = {HS_CAP_NONE, 0, 0, 0, HS_CAP_NONE,
                                   HS_CAP_NONE, HS_CAP_NONE, 3, 3, 2, 2, 2,
                                   2};
    flat e[16];
    size_t n = decode_flat(&w, e, 16);
    CU_ASSERT_EQUAL_FATAL(n, 13);
    for (size_t i = 0; i < n; i++) {
        CU_ASSERT_EQUAL(e[i].cap, want[i]);
        if (e[i].cap != want[i])
            fprintf(stderr, "\n  event %zu: cap %d, want %d\n", i, e[i].cap,
                    want[i]);
    }
    CU_ASSERT_EQUAL(e[0].offset, hdr);
    CU_ASSERT_EQUAL(e[1].tag, 18);
    CU_ASSERT_TRUE(e[1].known);
    CU_ASSERT_EQUAL(e[1].ev.u.block.size, 24 + 20);
    CU_ASSERT_EQUAL(e[1].ev.u.block.end_time, 4);
    CU_ASSERT_EQUAL(e[1].ev.u.block.cap, 0);
    CU_ASSERT_EQUAL(e[5].ev.u.block.cap, 0xffff);
    CU_ASSERT_EQUAL(e[9].offset, b2);
    CU_ASSERT_EQUAL(e[9].ev.u.block.size, 0);
    evw_free(&w);
}

int main(void)
{
    static const tu_test tests[] = {
        {"unknown event types", test_unknown_event_types},
        {"older and short layouts", test_older_and_short_layouts},
        {"GHC 6.12: empty STARTUP, 64-bit thread ids", test_ghc612_layout},
        {"GHC 9.10: IPE declared one byte long", test_ipe_declared_one_long},
        {"nonmoving census, both layouts", test_nonmoving_census_layouts},
        {"another runtime's layout under a GHC tag", test_foreign_layouts},
        {"block markers", test_block_markers},
        {NULL, NULL},
    };
    return tu_main("reader_layouts", NULL, NULL, tests);
}
