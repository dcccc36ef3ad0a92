/*
 * Tests of what the eventlog reader decodes: the fields of each event, extra
 * trailing fields, raw stacks, decoding only some tags, and the reader's
 * memory.
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

static int count_cb(void *user, const hs_event *ev)
{
    (void)ev;
    ++*(size_t *)user;
    return 0;
}

/* Reading a real log from a file takes no table of all 65,536 tags (256
 * KiB) and no 1 MiB read buffer for a 94 KiB file: the largest request is
 * the read buffer, the file's size and one byte, and the up to 63 bytes
 * that put its start on a cache line (read/input.c). A header declaring tag
 * 65000 still works (test_unknown_event_types): the table grows to what
 * is declared. */
static void test_reader_memory(void)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/samples/phases-strict-hc.eventlog",
             tu_source_dir());
    FILE *f = fopen(path, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fseek(f, 0, SEEK_END);
    size_t len = (size_t)ftell(f);
    rewind(f);
    size_t events = 0;
    tu_failing mem = {-1, 0, 0};
    hs_allocator a = tu_failing_allocator(&mem);
    hs_reader *r = hs_reader_new_with(&a);
    CU_ASSERT_EQUAL(hs_read_fd(r, fileno(f), count_cb, &events), HS_DONE);
    CU_ASSERT(events > 1000);
    CU_ASSERT(mem.most >= len + 1 && mem.most < len + 1 + 64);
    CU_ASSERT(mem.most < 256 * 1024);
    hs_reader_free(r);
    CU_ASSERT_EQUAL(mem.live, 0);
    fclose(f);
}

/* Events declared longer than their fields: heap allocated, GC stats, a
 * sample begin, a string sample and an IPE record with a field after the
 * ones heapscope knows, then a GC start. */
static void build_extra_trailing(evw *w)
{
    evw_init(w);
    evw_header_begin(w);
    evw_declare(w, 49, 20, "Total heap mem ever allocated (+8)");
    evw_declare(w, 53, 66, "GC statistics (+8)");
    evw_declare(w, 162, 16, "Start of heap profile sample (+8)");
    evw_declare(w, 164, EVW_VAR, "Heap profile string sample");
    evw_declare(w, 169, EVW_VAR, "An IPE entry");
    evw_declare(w, 9, 0, "Starting GC");
    evw_header_end(w);
    evw_event(w, 49, 10, 0);
    evw_u32(w, 0);
    evw_u64(w, 0x0102030405060708ull);
    evw_u64(w, 0xffffffffffffffffull);
    evw_event(w, 53, 11, 0);
    evw_u32(w, 0);
    evw_u16(w, 1);
    evw_u64(w, 100);
    evw_u64(w, 200);
    evw_u64(w, 300);
    evw_u32(w, 4);
    evw_u64(w, 500);
    evw_u64(w, 600);
    evw_u64(w, 700);
    evw_u64(w, 0xdeadbeef);
    evw_event(w, 162, 12, 0);
    evw_u64(w, 42);
    evw_u64(w, 99);
    size_t s = evw_event(w, 164, 13, 1);
    evw_u8(w, 0);
    evw_u64(w, 4096);
    evw_cstr(w, "Data.Map.Internal.Bin");
    evw_u64(w, 0x4141414141414141ull); /* a future field */
    evw_event_end(w, s);
    s = evw_event(w, 169, 14, 1);
    evw_u64(w, 0x409f78);
    const char *f[7] = {"sat_s154_info", "21", "Int", "main",
                        "Main", "Test.hs:5:1-30", "future"};
    for (int i = 0; i < 7; i++)
        evw_cstr(w, f[i]);
    evw_event_end(w, s);
    evw_event(w, 9, 15, 0);
    evw_data_end(w);
}

static void test_extra_trailing_fields(void)
{
    evw w;
    build_extra_trailing(&w);

    hs_reader *r = hs_reader_new();
    hs_event ev;
    hs_reader_feed(r, w.data, w.len);
    CU_ASSERT_EQUAL_FATAL(hs_reader_next(r, &ev), HS_EVENT);
    CU_ASSERT_EQUAL(ev.tag, 49);
    CU_ASSERT_TRUE(ev.known);
    CU_ASSERT_EQUAL(ev.payload_len, 20);
    CU_ASSERT_EQUAL(ev.u.heap.bytes, 0x0102030405060708ull);
    CU_ASSERT_EQUAL_FATAL(hs_reader_next(r, &ev), HS_EVENT);
    CU_ASSERT_EQUAL(ev.tag, 53);
    CU_ASSERT_TRUE(ev.known);
    CU_ASSERT_EQUAL(ev.u.gc_stats.gen, 1);
    CU_ASSERT_EQUAL(ev.u.gc_stats.copied, 100);
    CU_ASSERT_EQUAL(ev.u.gc_stats.frag, 300);
    CU_ASSERT_EQUAL(ev.u.gc_stats.par_threads, 4);
    CU_ASSERT_EQUAL(ev.u.gc_stats.par_tot_copied, 600);
    CU_ASSERT_TRUE(ev.u.gc_stats.has_balanced);
    CU_ASSERT_EQUAL(ev.u.gc_stats.par_balanced_copied, 700);
    CU_ASSERT_EQUAL_FATAL(hs_reader_next(r, &ev), HS_EVENT);
    CU_ASSERT_EQUAL(ev.tag, 162);
    CU_ASSERT_EQUAL(ev.u.sample.era, 42);
    CU_ASSERT_EQUAL_FATAL(hs_reader_next(r, &ev), HS_EVENT);
    CU_ASSERT_EQUAL(ev.tag, 164);
    CU_ASSERT_TRUE(ev.known);
    CU_ASSERT_EQUAL(ev.u.string_sample.bytes, 4096);
    CU_ASSERT_EQUAL(ev.u.string_sample.label.len, 21);
    CU_ASSERT_NSTRING_EQUAL(ev.u.string_sample.label.ptr,
                            "Data.Map.Internal.Bin", 21);
    CU_ASSERT_EQUAL_FATAL(hs_reader_next(r, &ev), HS_EVENT);
    CU_ASSERT_EQUAL(ev.tag, 169);
    CU_ASSERT_EQUAL(ev.u.ipe.address, 0x409f78);
    CU_ASSERT_EQUAL(ev.u.ipe.srcloc.len, 14);
    CU_ASSERT_NSTRING_EQUAL(ev.u.ipe.srcloc.ptr, "Test.hs:5:1-30", 14);
    CU_ASSERT_NSTRING_EQUAL(ev.u.ipe.table_name.ptr, "sat_s154_info", 13);
    CU_ASSERT_EQUAL_FATAL(hs_reader_next(r, &ev), HS_EVENT);
    CU_ASSERT_EQUAL(ev.tag, 9);
    CU_ASSERT_EQUAL(ev.time, 15);
    CU_ASSERT_EQUAL(hs_reader_next(r, &ev), HS_DONE);
    hs_reader_free(r);
    evw_free(&w);
}

/* hs_reader_set_raw_stacks: sample stacks come as payload bytes only, and
 * a stack that runs past its event is still an error. */
static void test_raw_stacks(void)
{
    evw w;
    evw_start_ghc92(&w);
    uint32_t stack[2] = {9, 4};
    evw_sample_ccs(&w, 1, 512, 2, stack);
    size_t at = evw_event(&w, 163, 2, 1); /* depth 3, room for one id */
    evw_u8(&w, 0);
    evw_u64(&w, 8);
    evw_u8(&w, 3);
    evw_u32(&w, 1);
    evw_event_end(&w, at);
    evw_data_end(&w);
    hs_reader *r = hs_reader_new();
    hs_reader_set_raw_stacks(r, true);
    hs_event ev;
    hs_reader_feed(r, w.data, w.len);
    CU_ASSERT_EQUAL_FATAL(hs_reader_next(r, &ev), HS_EVENT);
    CU_ASSERT_TRUE(ev.known);
    CU_ASSERT_PTR_NULL(ev.u.ccs_sample.stack);
    CU_ASSERT_EQUAL(ev.u.ccs_sample.depth, 2);
    CU_ASSERT_EQUAL(ev.u.ccs_sample.bytes, 512);
    CU_ASSERT(ev.u.ccs_sample.stack_raw[3] == 9 &&
              ev.u.ccs_sample.stack_raw[7] == 4);
    CU_ASSERT_EQUAL(hs_reader_next(r, &ev), HS_ERR_MALFORMED_EVENT);
    CU_ASSERT_EQUAL(hs_reader_error(r)->offset, at);
    hs_reader_free(r);
    evw_free(&w);
}

/* hs_reader_decode_only: the listed tags are decoded, the rest framed;
 * hs_reader_set_decode undoes it. */
static void test_decode_only(void)
{
    evw w;
    evw_start_ghc92(&w);
    evw_string_event(&w, 58, 1, "mark");
    evw_event(&w, 0, 2, 0);
    evw_u32(&w, 7);
    evw_sample_string(&w, 3, 64, "Int");
    evw_data_end(&w);
    static const uint16_t only[] = {164, 58};
    for (int pass = 0; pass < 3; pass++) {
        hs_reader *r = hs_reader_new();
        if (pass == 1)
            hs_reader_decode_only(r, only, 2);
        if (pass == 2) {
            hs_reader_decode_only(r, only + 1, 1);
            hs_reader_set_decode(r, true);
        }
        hs_event ev;
        hs_reader_feed(r, w.data, w.len);
        bool known[3];
        for (int i = 0; i < 3; i++) {
            CU_ASSERT_EQUAL_FATAL(hs_reader_next(r, &ev), HS_EVENT);
            known[i] = ev.known;
        }
        CU_ASSERT_EQUAL(hs_reader_next(r, &ev), HS_DONE);
        CU_ASSERT_TRUE(known[0]);              /* USER_MARKER: listed */
        CU_ASSERT_EQUAL(known[1], pass != 1);  /* CREATE_THREAD: not */
        CU_ASSERT_TRUE(known[2]);              /* HEAP_PROF_SAMPLE_STRING */
        CU_ASSERT_EQUAL(ev.u.string_sample.bytes, 64);
        hs_reader_free(r);
    }
    evw_free(&w);
}

/* One event of each layout the decoded-fields test reads back: RTS id,
 * program arguments, wall clock, heap info, a cost centre, a -hc sample,
 * a -hb sample begin, a marker, a thread wakeup. */
static void build_decoded(evw *w)
{
    evw_start_ghc92(w);
    size_t s = evw_event(w, 29, 1, 1);
    evw_u32(w, 1);
    evw_bytes(w, "GHC-9.0.2 rts_p", 15);
    evw_event_end(w, s);
    s = evw_event(w, 30, 2, 1);
    evw_u32(w, 0);
    evw_bytes(w, "./leak\0+RTS\0-hc\0", 16);
    evw_event_end(w, s);
    evw_event(w, 43, 3, 0);
    evw_u32(w, 1);
    evw_u64(w, 1700000000);
    evw_u32(w, 123456789);
    evw_event(w, 52, 4, 0);
    evw_u32(w, 0);
    evw_u16(w, 2);
    evw_u64(w, 0);
    evw_u64(w, 1048576);
    evw_u64(w, 1048576);
    evw_u64(w, 4096);
    evw_cost_centre(w, 5, 77, "go", "Main", "leak.hs:3:1-9", 1);
    uint32_t stack[3] = {77, 5, 1};
    evw_sample_ccs(w, 6, 8192, 3, stack);
    evw_bio_sample_begin(w, 7, 3, 123456);
    evw_string_event(w, 58, 8, "phase \"two\"");
    evw_event(w, 8, 9, 0);
    evw_u32(w, 12);
    evw_u16(w, 1);
    evw_data_end(w);
}

static void test_decoded_fields(void)
{
    evw w;
    build_decoded(&w);

    hs_reader *r = hs_reader_new();
    hs_event ev;
    hs_reader_feed(r, w.data, w.len);
    CU_ASSERT_EQUAL_FATAL(hs_reader_next(r, &ev), HS_EVENT);
    CU_ASSERT_EQUAL(ev.u.rts_identifier.capset, 1);
    CU_ASSERT_EQUAL(ev.u.rts_identifier.text.len, 15);
    CU_ASSERT_NSTRING_EQUAL(ev.u.rts_identifier.text.ptr, "GHC-9.0.2 rts_p",
                            15);
    CU_ASSERT_EQUAL_FATAL(hs_reader_next(r, &ev), HS_EVENT);
    CU_ASSERT_EQUAL(ev.u.args.count, 3);
    CU_ASSERT_EQUAL(ev.u.args.raw.len, 15);
    CU_ASSERT_EQUAL_FATAL(hs_reader_next(r, &ev), HS_EVENT);
    CU_ASSERT_EQUAL(ev.u.wall_clock.capset, 1);
    CU_ASSERT_EQUAL(ev.u.wall_clock.sec, 1700000000);
    CU_ASSERT_EQUAL(ev.u.wall_clock.nsec, 123456789);
    CU_ASSERT_EQUAL_FATAL(hs_reader_next(r, &ev), HS_EVENT);
    CU_ASSERT_EQUAL(ev.u.heap_info.gens, 2);
    CU_ASSERT_EQUAL(ev.u.heap_info.block, 4096);
    CU_ASSERT_EQUAL_FATAL(hs_reader_next(r, &ev), HS_EVENT);
    CU_ASSERT_EQUAL(ev.u.cost_centre.id, 77);
    CU_ASSERT_NSTRING_EQUAL(ev.u.cost_centre.module.ptr, "Main", 4);
    CU_ASSERT_EQUAL(ev.u.cost_centre.srcloc.len, 13);
    CU_ASSERT_EQUAL(ev.u.cost_centre.flags, HS_CC_FLAG_CAF);
    CU_ASSERT_EQUAL_FATAL(hs_reader_next(r, &ev), HS_EVENT);
    CU_ASSERT_EQUAL(ev.u.ccs_sample.bytes, 8192);
    CU_ASSERT_EQUAL_FATAL(ev.u.ccs_sample.depth, 3);
    CU_ASSERT(ev.u.ccs_sample.stack[0] == 77 && ev.u.ccs_sample.stack[2] == 1);
    /* the same ids as they stand in the payload */
    CU_ASSERT_PTR_EQUAL(ev.u.ccs_sample.stack_raw, ev.payload + 10);
    CU_ASSERT(ev.u.ccs_sample.stack_raw[3] == 77 &&
              ev.u.ccs_sample.stack_raw[11] == 1);
    CU_ASSERT_EQUAL_FATAL(hs_reader_next(r, &ev), HS_EVENT);
    CU_ASSERT_EQUAL(ev.u.bio_sample.era, 3);
    CU_ASSERT_EQUAL(ev.u.bio_sample.time, 123456);
    CU_ASSERT_EQUAL_FATAL(hs_reader_next(r, &ev), HS_EVENT);
    CU_ASSERT_EQUAL(ev.tag, HS_EV_USER_MARKER);
    CU_ASSERT_EQUAL(ev.u.msg.text.len, 11);
    CU_ASSERT_EQUAL_FATAL(hs_reader_next(r, &ev), HS_EVENT);
    CU_ASSERT_EQUAL(ev.u.thread_cap.thread, 12);
    CU_ASSERT_EQUAL(ev.u.thread_cap.cap, 1);
    CU_ASSERT_EQUAL(hs_reader_next(r, &ev), HS_DONE);
    hs_reader_free(r);
    evw_free(&w);

    CU_ASSERT_STRING_EQUAL(hs_event_name(164), "HEAP_PROF_SAMPLE_STRING");
    CU_ASSERT_STRING_EQUAL(hs_event_name(18), "BLOCK_MARKER");
    CU_ASSERT_PTR_NULL(hs_event_name(65535));
    CU_ASSERT_STRING_EQUAL(hs_breakdown_flag(HS_BREAKDOWN_BIOGRAPHY), "hb");
    CU_ASSERT_STRING_EQUAL(hs_breakdown_flag(1000), "h?");
    for (int c = -13; c <= 5; c++)
        CU_ASSERT_PTR_NOT_NULL(hs_strerror(c));
}

int main(void)
{
    static const tu_test tests[] = {
        {"decoding only some tags", test_decode_only},
        {"raw stacks only", test_raw_stacks},
        {"a reader's largest allocation is its read buffer",
         test_reader_memory},
        {"extra trailing fields", test_extra_trailing_fields},
        {"decoded fields", test_decoded_fields},
        {NULL, NULL},
    };
    return tu_main("reader_fields", NULL, NULL, tests);
}
