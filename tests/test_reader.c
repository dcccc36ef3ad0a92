/*
 * Tests of the streaming eventlog reader: chunk-size independence, logs cut
 * at every byte, and hand-built logs (tests/evwriter) for every framing rule
 * and every documented error, each checked with its code, byte offset and
 * event index.
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

/* ---- helpers ------------------------------------------------------- */

/* What a test keeps of one event. */
typedef struct rec {
    uint16_t tag;
    int32_t cap;
    uint64_t time, offset, index, hash;
} rec;

typedef struct run {
    rec *ev;
    size_t n, cap;
    int status;      /* of hs_reader_finish, or the error */
    hs_error err;
    uint64_t end_offset; /* hs_reader_offset at the end */
} run;

static void run_free(run *r)
{
    free(r->ev);
    memset(r, 0, sizeof *r);
}

static void run_add(run *r, const hs_event *ev)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 256;
        r->ev = realloc(r->ev, r->cap * sizeof *r->ev);
        if (!r->ev)
            abort();
    }
    r->ev[r->n++] = (rec){ev->tag, ev->cap, ev->time, ev->offset, ev->index,
                          evh_fields(ev)};
}

/*
 * Decodes data[0..len) fed in chunks of `chunk` bytes (0 = all at once),
 * then finishes. Returns the events and the final status.
 */
static run decode_chunked(const uint8_t *data, size_t len, size_t chunk,
                          bool decode)
{
    run out = {0};
    hs_reader *r = hs_reader_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    hs_reader_set_decode(r, decode);
    if (!chunk)
        chunk = len ? len : 1;
    size_t pos = 0;
    int st = HS_NEED_INPUT;
    bool protocol_ok = true; /* one assertion per run, not per chunk */
    while (pos < len) {
        size_t n = len - pos < chunk ? len - pos : chunk;
        if (hs_reader_feed(r, data + pos, n) != HS_OK)
            protocol_ok = false;
        pos += n;
        hs_event ev;
        while ((st = hs_reader_next(r, &ev)) == HS_EVENT)
            run_add(&out, &ev);
        if (st < 0 || st == HS_DONE)
            break;
        if (st != HS_NEED_INPUT)
            protocol_ok = false;
    }
    CU_ASSERT(protocol_ok);
    out.status = hs_reader_finish(r);
    out.err = *hs_reader_error(r);
    out.end_offset = hs_reader_offset(r);
    hs_reader_free(r);
    return out;
}

/* The first differing event index, or SIZE_MAX when a and b agree. */
static size_t first_difference(const run *a, const run *b)
{
    size_t n = a->n < b->n ? a->n : b->n;
    for (size_t i = 0; i < n; i++) {
        const rec *x = &a->ev[i], *y = &b->ev[i];
        if (x->tag != y->tag || x->cap != y->cap || x->time != y->time ||
            x->offset != y->offset || x->index != y->index ||
            x->hash != y->hash)
            return i;
    }
    return a->n == b->n ? SIZE_MAX : n;
}

static run decode_all(const uint8_t *data, size_t len)
{
    return decode_chunked(data, len, 0, true);
}

/* Decodes a hand-built log and expects exactly status `code` with the
 * error at `offset` / `index`. */
static void expect_error(const evw *w, int code, uint64_t offset,
                         uint64_t index, size_t events_before)
{
    for (size_t chunk = 0; chunk <= 3; chunk++) {
        run r = decode_chunked(w->data, w->len, chunk, true);
        CU_ASSERT_EQUAL(r.status, code);
        CU_ASSERT_EQUAL(r.err.code, code);
        CU_ASSERT_EQUAL(r.err.offset, offset);
        CU_ASSERT_EQUAL(r.err.event_index, index);
        CU_ASSERT_EQUAL(r.n, events_before);
        CU_ASSERT(r.err.message[0] != 0);
        if (r.status != code || r.err.offset != offset ||
            r.err.event_index != index)
            fprintf(stderr, "\n  chunk %zu: got status %d offset %llu index "
                    "%llu (%s)\n", chunk, r.status,
                    (unsigned long long)r.err.offset,
                    (unsigned long long)r.err.event_index, r.err.message);
        run_free(&r);
    }
}

/* A minimal header declaring the GHC 9.2 types. */
/* ---- real logs: chunk sizes ---------------------------------------- */

struct real_log {
    char path[4096];
    const char *name;
};

/* The real logs used by the chunking tests: samples (always in the repo)
 * and a few corpus logs of other GHC versions when the corpus exists. */
static size_t real_logs(struct real_log *out, size_t max)
{
    static const char *const samples[] = {"leak-hc", "markers-hc", "leak-hb",
                                          "manycc-p"};
    static const char *const corpus[] = {
        "ghc-9.2-events.eventlog", "biographical-samples.eventlog",
        "hello-ghc-8.2.2.eventlog", "sleep.hd.eventlog", "time-prof.eventlog",
        "parallelTest.eventlog", "trace-binary-nonutf.eventlog",
        "ticky-new.eventlog", "testlog-part.eventlog"};
    size_t n = 0;
    for (size_t i = 0; i < sizeof samples / sizeof *samples && n < max; i++) {
        snprintf(out[n].path, sizeof out[n].path, "%s/samples/%s.eventlog",
                 tu_source_dir(), samples[i]);
        out[n].name = samples[i];
        if (access(out[n].path, R_OK) == 0)
            n++;
    }
    const char *cd = tu_corpus_dir();
    if (!cd)
        tu_skip("no corpus at $HEAPSCOPE_SHARED_DIR/corpus/ghc-events;"
                " chunking checked on samples only");
    for (size_t i = 0; cd && i < sizeof corpus / sizeof *corpus && n < max;
         i++) {
        snprintf(out[n].path, sizeof out[n].path, "%s/%s", cd, corpus[i]);
        out[n].name = corpus[i];
        if (access(out[n].path, R_OK) == 0)
            n++;
    }
    return n;
}

static void test_chunk_sizes(void)
{
    struct real_log logs[16];
    size_t nlogs = real_logs(logs, 16);
    CU_ASSERT_FATAL(nlogs >= 2);
    for (size_t l = 0; l < nlogs; l++) {
        size_t len;
        uint8_t *data = tu_slurp(logs[l].path, &len);
        CU_ASSERT_PTR_NOT_NULL_FATAL(data);
        run whole = decode_all(data, len);
        /* Real logs end with the data-end marker, except the corpus's
         * deliberately cut testlog-part. */
        if (strcmp(logs[l].name, "testlog-part.eventlog") == 0) {
            CU_ASSERT_EQUAL(whole.status, HS_TRUNCATED);
            CU_ASSERT_EQUAL(whole.err.offset, len);
        } else {
            CU_ASSERT_EQUAL(whole.status, HS_DONE);
            CU_ASSERT_EQUAL(whole.end_offset, len);
        }
        CU_ASSERT(whole.n > 10);
        for (size_t i = 0; i < whole.n; i++)
            if (whole.ev[i].index != i) {
                CU_FAIL("event indexes are not 0, 1, 2, ...");
                break;
            }
        for (size_t chunk = 1; chunk <= 16; chunk++) {
            run r = decode_chunked(data, len, chunk, true);
            size_t d = first_difference(&whole, &r);
            CU_ASSERT_EQUAL(d, SIZE_MAX);
            CU_ASSERT_EQUAL(r.status, whole.status);
            CU_ASSERT_EQUAL(r.err.offset, whole.err.offset);
            if (d != SIZE_MAX)
                fprintf(stderr, "\n  %s: chunk %zu differs at event %zu\n",
                        logs[l].name, chunk, d);
            run_free(&r);
        }
        /* Odd large chunks cross events at every position too. */
        size_t big[] = {4093, 65536, 65549, len - 1};
        for (size_t k = 0; k < sizeof big / sizeof *big; k++) {
            if (!big[k])
                continue;
            run r = decode_chunked(data, len, big[k], true);
            CU_ASSERT_EQUAL(first_difference(&whole, &r), SIZE_MAX);
            CU_ASSERT_EQUAL(r.status, whole.status);
            run_free(&r);
        }
        /* Framing alone gives the same tags, times, caps and offsets. */
        run frame = decode_chunked(data, len, 5, false);
        CU_ASSERT_EQUAL_FATAL(frame.n, whole.n);
        for (size_t i = 0; i < frame.n; i++) {
            if (frame.ev[i].tag != whole.ev[i].tag ||
                frame.ev[i].offset != whole.ev[i].offset ||
                frame.ev[i].cap != whole.ev[i].cap ||
                frame.ev[i].time != whole.ev[i].time) {
                CU_FAIL("framing without decoding differs");
                break;
            }
        }
        run_free(&frame);
        run_free(&whole);
        free(data);
    }
}

/* hs_read_fd on a pipe fed by a child in small, irregular writes gives the
 * same events as decoding the file in memory. */
struct fd_collect {
    run *r;
    size_t stop_after; /* return 7 after this many events (0 = never) */
};

static int collect_cb(void *user, const hs_event *ev)
{
    struct fd_collect *c = user;
    run_add(c->r, ev);
    if (c->stop_after && c->r->n == c->stop_after)
        return 7;
    return 0;
}

static void test_read_fd_pipe(void)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/samples/markers-hc.eventlog",
             tu_source_dir());
    size_t len;
    uint8_t *data = tu_slurp(path, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(data);
    run whole = decode_all(data, len);

    pid_t pid;
    int fd = tu_pipe_from(data, len, 7, 9973, &pid); /* irregular sizes */
    run got = {0};
    struct fd_collect c = {&got, 0};
    hs_reader *r = hs_reader_new();
    int st = hs_read_fd(r, fd, collect_cb, &c);
    close(fd);
    int wst;
    waitpid(pid, &wst, 0);
    CU_ASSERT(WIFEXITED(wst) && WEXITSTATUS(wst) == 0);
    CU_ASSERT_EQUAL(st, HS_DONE);
    CU_ASSERT_EQUAL(first_difference(&whole, &got), SIZE_MAX);
    CU_ASSERT_EQUAL(hs_reader_offset(r), len);
    hs_reader_free(r);
    run_free(&got);

    /* A callback's non-zero return stops reading and is returned. */
    fd = open(path, O_RDONLY);
    CU_ASSERT_FATAL(fd >= 0);
    c = (struct fd_collect){&got, 100};
    r = hs_reader_new();
    st = hs_read_fd(r, fd, collect_cb, &c);
    CU_ASSERT_EQUAL(st, 7);
    CU_ASSERT_EQUAL(got.n, 100);
    close(fd);
    hs_reader_free(r);
    run_free(&got);

    /* A read error (a directory) is HS_ERR_IO with errno kept, and sticky. */
    fd = open(tu_source_dir(), O_RDONLY);
    CU_ASSERT_FATAL(fd >= 0);
    c = (struct fd_collect){&got, 0};
    r = hs_reader_new();
    errno = 0;
    st = hs_read_fd(r, fd, collect_cb, &c);
    CU_ASSERT_EQUAL(st, HS_ERR_IO);
    CU_ASSERT_EQUAL(errno, EISDIR);
    CU_ASSERT_EQUAL(hs_reader_error(r)->code, HS_ERR_IO);
    CU_ASSERT_EQUAL(hs_reader_finish(r), HS_ERR_IO);
    close(fd);
    hs_reader_free(r);
    run_free(&got);

    run_free(&whole);
    free(data);
}

/* ---- real logs: cut at every byte ---------------------------------- */

/*
 * Checks data cut at `cut` against the full decode `full`: the events are
 * the complete ones before the cut, then the right status.
 * header_len is the offset of the first event; end_marker the offset of
 * the data-end marker (or SIZE_MAX).
 */
static bool check_cut(const uint8_t *data, size_t cut, size_t chunk,
                      const run *full, uint64_t header_len,
                      uint64_t end_marker)
{
    run r = decode_chunked(data, cut, chunk, true);
    bool ok = true;
    if (cut < header_len) {
        /* no byte at all is no log; any other cut is a cut header */
        ok = r.status == (cut ? HS_ERR_TRUNCATED_HEADER : HS_ERR_BAD_MAGIC) &&
             r.n == 0 &&
             r.err.offset == cut && r.err.event_index == UINT64_MAX;
    } else if (cut >= end_marker + 2) {
        ok = r.status == HS_DONE && r.n == full->n &&
             first_difference(full, &r) == SIZE_MAX;
    } else {
        /* complete events: those whose end (the next event's start, or the
         * data-end marker) is at or before the cut */
        size_t n = 0;
        while (n < full->n &&
               (n + 1 < full->n ? full->ev[n + 1].offset : end_marker) <= cut)
            n++;
        ok = r.status == HS_TRUNCATED && r.err.code == HS_TRUNCATED &&
             r.err.offset == cut && r.err.event_index == n && r.n == n;
        /* every event delivered is the same as in the full decode */
        for (size_t i = 0; ok && i < r.n; i++)
            ok = full->ev[i].tag == r.ev[i].tag &&
                 full->ev[i].offset == r.ev[i].offset &&
                 full->ev[i].cap == r.ev[i].cap &&
                 full->ev[i].hash == r.ev[i].hash;
    }
    if (!ok)
        fprintf(stderr, "\n  cut at %zu (chunk %zu): status %d, %zu events, "
                "offset %llu, index %llu: %s\n", cut, chunk, r.status, r.n,
                (unsigned long long)r.err.offset,
                (unsigned long long)r.err.event_index, r.err.message);
    run_free(&r);
    return ok;
}

/* Cuts `path` at every offset in [from, to) and checks each cut. */
static void cut_file(const char *path, size_t from, size_t to, size_t chunk)
{
    size_t len;
    uint8_t *data = tu_slurp(path, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(data);
    run full = decode_all(data, len);
    CU_ASSERT_EQUAL_FATAL(full.status, HS_DONE);
    CU_ASSERT_FATAL(full.n > 0);
    uint64_t header_len = full.ev[0].offset;
    uint64_t end_marker = full.end_offset - 2;
    if (to > len + 1)
        to = len + 1;
    size_t bad = 0;
    for (size_t cut = from; cut < to && bad < 5; cut++)
        if (!check_cut(data, cut, chunk, &full, header_len, end_marker))
            bad++;
    CU_ASSERT_EQUAL(bad, 0);
    run_free(&full);
    free(data);
}

static void test_cut_every_offset(void)
{
    const char *cd = tu_corpus_dir();
    char path[4096];
    if (cd) {
        /* Small real logs from GHC 8.8 (user message) and 8.2 (50-byte
         * GC statistics): every cut, fed whole and byte by byte. */
        snprintf(path, sizeof path, "%s/unicode.eventlog", cd);
        cut_file(path, 0, SIZE_MAX, 0);
        cut_file(path, 0, SIZE_MAX, 1);
        snprintf(path, sizeof path, "%s/hello-ghc-8.2.2.eventlog", cd);
        cut_file(path, 0, SIZE_MAX, 0);
    } else {
        tu_skip("no corpus; cutting a sample's head and tail only");
    }
    /* A sample (always present): every cut through its header and first
     * events, and through its last events and data-end marker. */
    snprintf(path, sizeof path, "%s/samples/markers-hc.eventlog",
             tu_source_dir());
    size_t len;
    uint8_t *data = tu_slurp(path, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(data);
    free(data);
    cut_file(path, 0, 6000, 0);
    cut_file(path, 0, 800, 1);
    cut_file(path, len - 400, len + 1, 0);
    cut_file(path, len - 64, len + 1, 3);
}

/* ---- hand-built logs: errors --------------------------------------- */

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

/* ---- hand-built logs: framing rules -------------------------------- */

static void test_truncated_logs(void)
{
    /* No data-end marker: every event, then a warning at the last byte. */
    evw w;
    evw_start_ghc92(&w);
    evw_event(&w, 9, 1, 0);
    evw_string_event(&w, 19, 2, "hello");
    run r = decode_all(w.data, w.len);
    CU_ASSERT_EQUAL(r.status, HS_TRUNCATED);
    CU_ASSERT_EQUAL(r.n, 2);
    CU_ASSERT_EQUAL(r.err.code, HS_TRUNCATED);
    CU_ASSERT_EQUAL(r.err.offset, w.len);
    CU_ASSERT_EQUAL(r.err.event_index, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err.message, "truncated"));
    run_free(&r);

    /* A variable event whose length runs past the end of the input: cut
     * in the middle of event 2, which starts at `at`. */
    size_t at = evw_event(&w, 19, 3, 1);
    evw_bytes(&w, "abc", 3);
    w.data[at + 11] = 200; /* declares 200 bytes, 3 present */
    char at_text[32];
    snprintf(at_text, sizeof at_text, "%zu", at);
    for (size_t chunk = 0; chunk < 3; chunk++) {
        r = decode_chunked(w.data, w.len, chunk, true);
        CU_ASSERT_EQUAL(r.status, HS_TRUNCATED);
        CU_ASSERT_EQUAL(r.n, 2);
        CU_ASSERT_EQUAL(r.err.offset, w.len);
        CU_ASSERT_EQUAL(r.err.event_index, 2);
        CU_ASSERT_PTR_NOT_NULL(strstr(r.err.message, at_text));
        run_free(&r);
    }
    evw_free(&w);

    /* Cut inside the header. */
    evw_start_ghc92(&w);
    r = decode_chunked(w.data, 30, 7, true);
    CU_ASSERT_EQUAL(r.status, HS_ERR_TRUNCATED_HEADER);
    CU_ASSERT_EQUAL(r.err.offset, 30);
    CU_ASSERT_EQUAL(r.err.event_index, UINT64_MAX);
    run_free(&r);
    /* A complete header and nothing else is a truncated log, not an
     * incomplete header. */
    r = decode_all(w.data, w.len);
    CU_ASSERT_EQUAL(r.status, HS_TRUNCATED);
    CU_ASSERT_EQUAL(r.err.offset, w.len);
    CU_ASSERT_EQUAL(r.n, 0);
    run_free(&r);
    evw_free(&w);
}

/* Decoded fields of the events heapscope names in FORMAT-NOTES. */
int main(void)
{
    static const tu_test tests[] = {
        {"chunk sizes 1..16 and whole file", test_chunk_sizes},
        {"hs_read_fd on a pipe", test_read_fd_pipe},
        {"cut at every byte offset", test_cut_every_offset},
        {"bad magic and header", test_bad_magic},
        {"undeclared tag", test_undeclared_tag},
        {"stack past the event", test_stack_past_event},
        {"absurd sizes", test_absurd_sizes},
        {"duplicate declaration", test_duplicate_declaration},
        {"sticky errors", test_sticky_error},
        {"feed misuse", test_feed_misuse},
        {"truncated logs", test_truncated_logs},
        {NULL, NULL},
    };
    return tu_main("reader", NULL, NULL, tests);
}
