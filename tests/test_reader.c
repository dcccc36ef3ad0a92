/*
 * Tests of the streaming eventlog reader on real logs: chunk-size
 * independence, hs_read_fd on a pipe, logs cut at every byte and
 * truncated logs. The framing rules and documented errors are in
 * test_reader_errors.c, the layouts in test_reader_layouts.c, the decoded
 * fields in test_reader_fields.c.
 */
#include <heapscope/heapscope.h>

#include "evwriter.h"
#include "evhash.h"
#include "reader_run.h"
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
        {"truncated logs", test_truncated_logs},
        {NULL, NULL},
    };
    return tu_main("reader", NULL, NULL, tests);
}
