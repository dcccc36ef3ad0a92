/*
 * Tests of the eventlog reader's framing rules and documented errors on
 * hand-built logs (tests/evwriter), each checked with its code, byte offset
 * and event index, whatever the chunk size; errors stay; misuse is refused.
 */
#include "reader_run.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_bad_magic(void)
{
    evw w;
    evw_init(&w);
    evw_bytes(&w, "JOB \"leak +RTS -hc\"\n", 20);
    expect_error(&w, HS_ERR_BAD_MAGIC, 0, UINT64_MAX, 0);
    evw_free(&w);

    /* Right first magic, wrong second one: a header error at byte 4. */
    evw_init(&w);
    evw_u32(&w, 0x68647262);
    evw_u32(&w, 0x12345678);
    expect_error(&w, HS_ERR_BAD_HEADER, 4, UINT64_MAX, 0);
    evw_free(&w);

    /* An event-type record without its 'ete' end. */
    evw_init(&w);
    evw_header_begin(&w);
    evw_u32(&w, 0x65746200);
    evw_u16(&w, 0);
    evw_u16(&w, 4);
    evw_u32(&w, 3);
    evw_bytes(&w, "abc", 3);
    evw_u32(&w, 0);
    size_t at = w.len;
    evw_u32(&w, 0x65746501);
    expect_error(&w, HS_ERR_BAD_HEADER, at, UINT64_MAX, 0);
    evw_free(&w);

    /* 'datb' missing after the header. */
    evw_init(&w);
    evw_header_begin(&w);
    evw_declare(&w, 0, 4, "Create thread");
    evw_u32(&w, 0x68657465);
    evw_u32(&w, 0x68647265);
    at = w.len;
    evw_u32(&w, 0x64617400);
    expect_error(&w, HS_ERR_BAD_HEADER, at, UINT64_MAX, 0);
    evw_free(&w);
}

static void test_undeclared_tag(void)
{
    evw w;
    evw_start_ghc92(&w);
    evw_event(&w, 9, 100, 0);
    evw_event(&w, 10, 200, 0);
    size_t at = evw_event(&w, 7, 300, 0); /* SHUTDOWN: not declared */
    evw_u32(&w, 1);
    evw_data_end(&w);
    expect_error(&w, HS_ERR_UNDECLARED_TAG, at, 2, 2);
    run r = decode_all(w.data, w.len);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err.message, "7"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err.message, "not declared"));
    run_free(&r);
    evw_free(&w);
}

static void test_stack_past_event(void)
{
    evw w;
    evw_start_ghc92(&w);
    evw_heap_prof_begin(&w, 1, 100000000, HS_BREAKDOWN_COST_CENTRE);
    evw_sample_begin(&w, 2, 0);
    /* depth 5, but only two cost-centre ids in the event */
    size_t at = evw_event(&w, 163, 3, 1);
    evw_u8(&w, 0);
    evw_u64(&w, 4096);
    evw_u8(&w, 5);
    evw_u32(&w, 1);
    evw_u32(&w, 2);
    evw_event_end(&w, at);
    evw_sample_end(&w, 4, 0);
    evw_data_end(&w);
    expect_error(&w, HS_ERR_MALFORMED_EVENT, at, 2, 2);

    /* Framing only: the event is skipped by its length, no error. */
    run r = decode_chunked(w.data, w.len, 0, false);
    CU_ASSERT_EQUAL(r.status, HS_DONE);
    CU_ASSERT_EQUAL(r.n, 4);
    run_free(&r);
    evw_free(&w);

    /* The same for a time-profile sample. */
    evw_start_ghc92(&w);
    evw_event(&w, 168, 1, 0);
    evw_u64(&w, 1000000);
    at = evw_event(&w, 167, 2, 1);
    evw_u32(&w, 0);
    evw_u64(&w, 7);
    evw_u8(&w, 3);
    evw_u32(&w, 9);
    evw_event_end(&w, at);
    evw_data_end(&w);
    expect_error(&w, HS_ERR_MALFORMED_EVENT, at, 1, 1);
    evw_free(&w);

    /* A cost centre whose strings have no NUL within the event. */
    evw_start_ghc92(&w);
    at = evw_event(&w, 161, 1, 1);
    evw_u32(&w, 12);
    evw_bytes(&w, "main\0Main", 9);
    evw_event_end(&w, at);
    evw_data_end(&w);
    expect_error(&w, HS_ERR_MALFORMED_EVENT, at, 0, 0);
    evw_free(&w);
}

static void test_absurd_sizes(void)
{
    /* A description of 4 GB: refused at the length field (byte 16). */
    evw w;
    evw_init(&w);
    evw_header_begin(&w);
    evw_u32(&w, 0x65746200);
    evw_u16(&w, 0);
    evw_u16(&w, 4);
    evw_u32(&w, 0xffffffffu);
    evw_bytes(&w, "Create thread", 13);
    expect_error(&w, HS_ERR_BAD_SIZE, 16, UINT64_MAX, 0);
    run r = decode_all(w.data, w.len);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err.message, "4294967295"));
    run_free(&r);
    evw_free(&w);

    /* 4 GB of extra information, after a valid first record. */
    evw_init(&w);
    evw_header_begin(&w);
    evw_declare(&w, 9, 0, "Starting GC");
    evw_u32(&w, 0x65746200);
    evw_u16(&w, 10);
    evw_u16(&w, 0);
    evw_u32(&w, 11);
    evw_bytes(&w, "Finished GC", 11);
    size_t at = w.len;
    evw_u32(&w, 0xfffffff0u);
    expect_error(&w, HS_ERR_BAD_SIZE, at, UINT64_MAX, 0);
    evw_free(&w);

    /* A block marker declaring a block smaller than itself. */
    evw_start_ghc92(&w);
    evw_event(&w, 9, 1, 0);
    at = evw_block(&w, 2, 0);
    w.data[at + 13] = 10; /* block_size = 10 < 24 */
    evw_event(&w, 10, 3, 0);
    evw_data_end(&w);
    expect_error(&w, HS_ERR_BAD_SIZE, at, 1, 1);
    evw_free(&w);

    /* The same with a block size of exactly 23: one byte short. */
    evw_start_ghc92(&w);
    at = evw_block(&w, 2, 0);
    w.data[at + 13] = 23;
    evw_data_end(&w);
    expect_error(&w, HS_ERR_BAD_SIZE, at, 0, 0);
    evw_free(&w);
}

static void test_duplicate_declaration(void)
{
    evw w;
    evw_init(&w);
    evw_header_begin(&w);
    evw_declare(&w, 9, 0, "Starting GC");
    evw_declare(&w, 10, 0, "Finished GC");
    size_t at = w.len + 4; /* the tag field after 'etb\0' */
    evw_declare(&w, 9, 0, "Starting GC again");
    evw_header_end(&w);
    evw_data_end(&w);
    expect_error(&w, HS_ERR_BAD_HEADER, at, UINT64_MAX, 0);
    run r = decode_all(w.data, w.len);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err.message, "twice"));
    run_free(&r);
    evw_free(&w);

    /* Declaring 65535, the data-end marker's tag, is refused too. */
    evw_init(&w);
    evw_header_begin(&w);
    at = w.len + 4;
    evw_declare(&w, 0xffff, 0, "End");
    evw_header_end(&w);
    expect_error(&w, HS_ERR_BAD_HEADER, at, UINT64_MAX, 0);
    evw_free(&w);
}

/* After an error every call returns it and the record does not change. */
static void test_sticky_error(void)
{
    evw w;
    evw_start_ghc92(&w);
    evw_event(&w, 9, 1, 0);
    size_t at = evw_event(&w, 300, 2, 0);
    evw_event(&w, 10, 3, 0);
    evw_data_end(&w);

    hs_reader *r = hs_reader_new();
    hs_event ev;
    CU_ASSERT_EQUAL(hs_reader_feed(r, w.data, w.len), HS_OK);
    CU_ASSERT_EQUAL(hs_reader_next(r, &ev), HS_EVENT);
    CU_ASSERT_EQUAL(hs_reader_next(r, &ev), HS_ERR_UNDECLARED_TAG);
    hs_error first = *hs_reader_error(r);
    CU_ASSERT_EQUAL(first.offset, at);
    CU_ASSERT_EQUAL(first.event_index, 1);
    for (int i = 0; i < 3; i++)
        CU_ASSERT_EQUAL(hs_reader_next(r, &ev), HS_ERR_UNDECLARED_TAG);
    CU_ASSERT_EQUAL(hs_reader_feed(r, w.data, w.len), HS_ERR_UNDECLARED_TAG);
    CU_ASSERT_EQUAL(hs_reader_next(r, &ev), HS_ERR_UNDECLARED_TAG);
    CU_ASSERT_EQUAL(hs_reader_finish(r), HS_ERR_UNDECLARED_TAG);
    CU_ASSERT_EQUAL(hs_reader_finish(r), HS_ERR_UNDECLARED_TAG);
    CU_ASSERT_EQUAL(memcmp(&first, hs_reader_error(r), sizeof first), 0);
    hs_reader_free(r);

    /* A header error is sticky as well, and finish keeps it rather than
     * reporting a truncated header. */
    r = hs_reader_new();
    CU_ASSERT_EQUAL(hs_reader_feed(r, "hdrX", 4), HS_OK);
    CU_ASSERT_EQUAL(hs_reader_next(r, &ev), HS_ERR_BAD_MAGIC);
    CU_ASSERT_EQUAL(hs_reader_finish(r), HS_ERR_BAD_MAGIC);
    CU_ASSERT_EQUAL(hs_reader_next(r, &ev), HS_ERR_BAD_MAGIC);
    CU_ASSERT_EQUAL(hs_reader_error(r)->offset, 0);
    CU_ASSERT_FALSE(hs_reader_header_done(r));
    hs_reader_free(r);
    evw_free(&w);
}

static void test_feed_misuse(void)
{
    evw w;
    evw_start_ghc92(&w);
    for (int i = 0; i < 4; i++)
        evw_event(&w, 9 + (i & 1), (uint64_t)i, 0);
    evw_data_end(&w);

    hs_reader *r = hs_reader_new();
    hs_event ev;
    /* Before any input: nothing to do, not an error. */
    CU_ASSERT_EQUAL(hs_reader_next(r, &ev), HS_NEED_INPUT);
    CU_ASSERT_EQUAL(hs_reader_feed(r, NULL, 0), HS_OK);
    CU_ASSERT_EQUAL(hs_reader_next(r, &ev), HS_NEED_INPUT);
    CU_ASSERT_EQUAL(hs_reader_offset(r), 0);

    CU_ASSERT_EQUAL(hs_reader_feed(r, w.data, w.len), HS_OK);
    CU_ASSERT_EQUAL(hs_reader_next(r, &ev), HS_EVENT);
    CU_ASSERT_EQUAL(ev.time, 0);
    /* The chunk is not used up: feeding again is refused, and not fatal. */
    static const uint8_t other[4] = {0xde, 0xad, 0xbe, 0xef};
    CU_ASSERT_EQUAL(hs_reader_feed(r, other, sizeof other), HS_ERR_MISUSE);
    CU_ASSERT_EQUAL(hs_reader_error(r)->code, HS_OK);
    for (uint64_t t = 1; t < 4; t++) {
        CU_ASSERT_EQUAL_FATAL(hs_reader_next(r, &ev), HS_EVENT);
        CU_ASSERT_EQUAL(ev.time, t);
        CU_ASSERT_EQUAL(ev.index, t);
    }
    CU_ASSERT_EQUAL(hs_reader_next(r, &ev), HS_DONE);
    CU_ASSERT_EQUAL(hs_reader_next(r, &ev), HS_DONE);
    CU_ASSERT_EQUAL(hs_reader_finish(r), HS_DONE);
    CU_ASSERT_EQUAL(hs_reader_error(r)->code, HS_OK);
    CU_ASSERT_EQUAL(hs_reader_offset(r), w.len);
    CU_ASSERT_TRUE(hs_reader_header_done(r));
    hs_reader_free(r);

    /* Finishing a reader that never saw a byte: an empty input, no log
     * at all (not a cut one). */
    r = hs_reader_new();
    CU_ASSERT_EQUAL(hs_reader_finish(r), HS_ERR_BAD_MAGIC);
    CU_ASSERT_EQUAL(hs_reader_error(r)->offset, 0);
    CU_ASSERT_EQUAL(hs_reader_error(r)->event_index, UINT64_MAX);
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_reader_error(r)->message, "empty"));
    hs_reader_free(r);
    hs_reader_free(NULL);
    evw_free(&w);
}

int main(void)
{
    static const tu_test tests[] = {
        {"bad magic and header", test_bad_magic},
        {"undeclared tag", test_undeclared_tag},
        {"stack past the event", test_stack_past_event},
        {"absurd sizes", test_absurd_sizes},
        {"duplicate declaration", test_duplicate_declaration},
        {"sticky errors", test_sticky_error},
        {"feed misuse", test_feed_misuse},
        {NULL, NULL},
    };
    return tu_main("reader_errors", NULL, NULL, tests);
}
