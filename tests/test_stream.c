/*
 * Streams as real programs send them: GHC 9.0 with the eventlog-socket
 * library sends every client but the first a 24-byte block marker ahead of
 * the header (see ../shared/elsock/README.md). The reader skips one such
 * marker at byte 0 with a warning, whatever the chunk edges, and reads the
 * same events as from the log alone; anything else before the header is
 * still refused.
 */
#include <heapscope/heapscope.h>

#include "evhash.h"
#include "evwriter.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MARKER_LEN 24

/* A whole read of data in chunks of `chunk` bytes (0: at once): the
 * events folded into one hash with their offsets less `shift`, the count,
 * the final status and error, and the reader's warning. */
typedef struct outcome {
    uint64_t hash, n;
    int status;
    hs_error err;
    const char *warning;
    bool offsets_ok; /* every offset was at least `shift` */
} outcome;

static uint64_t mix(uint64_t h, uint64_t v)
{
    return (h ^ v) * 0x100000001b3ull;
}

static outcome read_chunked(const uint8_t *data, size_t len, size_t chunk,
                            uint64_t shift)
{
    outcome o = {0xcbf29ce484222325ull, 0, 0, {0}, NULL, true};
    hs_reader *r = hs_reader_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    size_t step = chunk ? chunk : len;
    int st = HS_NEED_INPUT;
    for (size_t pos = 0; pos < len && st == HS_NEED_INPUT; pos += step) {
        hs_reader_feed(r, data + pos, len - pos < step ? len - pos : step);
        hs_event ev;
        while ((st = hs_reader_next(r, &ev)) == HS_EVENT) {
            o.offsets_ok &= ev.offset >= shift;
            uint64_t fields[] = {ev.tag, (uint64_t)ev.cap, ev.time,
                                 ev.offset - shift, ev.index,
                                 evh_fields(&ev)};
            for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
                o.hash = mix(o.hash, fields[i]);
            o.n++;
        }
    }
    o.status = hs_reader_finish(r);
    o.err = *hs_reader_error(r);
    o.warning = hs_reader_warning(r);
    hs_reader_free(r);
    return o;
}

/* The marker GHC 9.0 leaves in the global buffer: its first four bytes are
 * what the old error showed ("found 0x00120000"). */
static void put_marker(evw *w)
{
    evw_u16(w, 18);
    evw_u64(w, 12345);
    evw_u32(w, 0);
    evw_u64(w, 0);
    evw_u16(w, 0xffff);
}

static uint8_t *with_marker(const uint8_t *log, size_t len)
{
    evw w;
    evw_init(&w);
    put_marker(&w);
    CU_ASSERT_EQUAL_FATAL(w.len, MARKER_LEN);
    evw_bytes(&w, log, len);
    return w.data;
}

/* The marker and the log read at every chunk size from 1 to max_chunk,
 * and all at once, give the log's own events and status, plus a warning. */
static void check_same(const uint8_t *log, size_t len, size_t max_chunk)
{
    outcome alone = read_chunked(log, len, 0, 0);
    CU_ASSERT_PTR_NULL(alone.warning);
    CU_ASSERT(alone.n > 3);
    uint8_t *both = with_marker(log, len);
    size_t bad = 0;
    for (size_t chunk = 1; chunk <= max_chunk + 1; chunk++) {
        size_t c = chunk > max_chunk ? 0 : chunk; /* and all at once */
        outcome o = read_chunked(both, len + MARKER_LEN, c, MARKER_LEN);
        bool same = o.hash == alone.hash && o.n == alone.n &&
                    o.status == alone.status && o.offsets_ok &&
                    o.warning && strstr(o.warning, "block marker");
        if (!same && bad++ < 3)
            fprintf(stderr, "\n  chunk %zu: %llu events, status %d (%s)\n",
                    c, (unsigned long long)o.n, o.status, o.err.message);
    }
    CU_ASSERT_EQUAL(bad, 0);
    free(both);
}

static void test_marker_small_log_every_chunk(void)
{
    evw w;
    evw_start_ghc92(&w);
    size_t b = evw_block(&w, 5, 0);
    evw_event(&w, 9, 6, 0);
    evw_event(&w, 10, 7, 0);
    evw_block_end(&w, b, 7);
    evw_heap_prof_begin(&w, 8, 1000, 4);
    evw_sample_begin(&w, 9, 1);
    evw_sample_string(&w, 10, 4096, "THUNK");
    evw_sample_end(&w, 11, 1);
    evw_data_end(&w);
    check_same(w.data, w.len, w.len);
    evw_free(&w);
}

static void test_marker_real_log(void)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/samples/phases-strict-hc.eventlog",
             tu_source_dir());
    size_t len;
    uint8_t *log = tu_slurp(path, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    check_same(log, len, 64);
    free(log);
}

/* Reads data at chunk sizes 1, 2, 3 and whole, expecting `code` at
 * `offset` with `words` in the message. */
static void expect_refused(const evw *w, int code, uint64_t offset,
                           const char *words)
{
    for (size_t chunk = 0; chunk <= 3; chunk++) {
        outcome o = read_chunked(w->data, w->len, chunk, 0);
        CU_ASSERT_EQUAL(o.status, code);
        CU_ASSERT_EQUAL(o.err.offset, offset);
        CU_ASSERT_EQUAL(o.n, 0);
        CU_ASSERT_PTR_NOT_NULL(strstr(o.err.message, words));
        if (!strstr(o.err.message, words) || o.err.offset != offset)
            fprintf(stderr, "\n  chunk %zu: %d at %llu: %s\n", chunk,
                    o.status, (unsigned long long)o.err.offset,
                    o.err.message);
    }
}

static void test_only_one_marker_at_byte_0(void)
{
    evw w, log;
    evw_start_ghc92(&log);
    evw_data_end(&log);

    /* Two markers: the second is not skipped. */
    evw_init(&w);
    put_marker(&w);
    put_marker(&w);
    evw_bytes(&w, log.data, log.len);
    expect_refused(&w, HS_ERR_BAD_MAGIC, MARKER_LEN,
                   "block marker at byte 0 is not followed by the header "
                   "magic 'hdrb' (found 0x00120000)");
    evw_free(&w);

    /* Another event type at byte 0 is no eventlog, as before. */
    evw_init(&w);
    evw_u16(&w, 19);
    evw_u64(&w, 1);
    evw_bytes(&w, log.data, log.len);
    expect_refused(&w, HS_ERR_BAD_MAGIC, 0,
                   "does not start with the header magic 'hdrb' (found "
                   "0x00130000)");
    evw_free(&w);

    /* A marker and nothing after it: the header is missing. */
    evw_init(&w);
    put_marker(&w);
    expect_refused(&w, HS_ERR_TRUNCATED_HEADER, MARKER_LEN,
                   "inside the eventlog header");
    evw_free(&w);

    /* A marker inside the header is malformed, as any stray bytes are. */
    evw_init(&w);
    evw_u32(&w, 0x68647262);
    put_marker(&w);
    expect_refused(&w, HS_ERR_BAD_HEADER, 4, "expected 'hetb'");
    evw_free(&w);
    evw_free(&log);
}

int main(void)
{
    static const tu_test tests[] = {
        {"marker + small log at every chunk size",
         test_marker_small_log_every_chunk},
        {"marker + real log at chunk sizes 1..64",
         test_marker_real_log},
        {"only one marker, only at byte 0", test_only_one_marker_at_byte_0},
        {NULL, NULL},
    };
    return tu_main("stream", NULL, NULL, tests);
}
