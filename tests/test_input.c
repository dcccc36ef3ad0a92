/*
 * The reader's input paths and its allocator: a regular file and a pipe
 * give the same events; a file read from the middle, one that grows while
 * it is read, and one larger than several read buffers; and
 * every allocation of the reader failing in turn gives HS_ERR_NOMEM,
 * recorded in the reader, and leaks nothing. And the formats told apart
 * by their first bytes (hs_format_sniff), as every command tells them.
 * hs_read_fd_count() counts what hs_reader_next() reads, on every path.
 * Every fixed size is framed alike by every loop (the count's takes the
 * common sizes as branches, read_count.c's fixed_total()).
 */
#include <heapscope/heapscope.h>

#include "read/input.h"
#include "read/read_eventlog.h"
#include "read/read_lanes.h"

#include "evhash.h"
#include "evwriter.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Everything about the events read, in order, in one hash. */
typedef struct digest {
    uint64_t n, hash;
} digest;

static int digest_cb(void *user, const hs_event *ev)
{
    digest *d = user;
    evh_mixu(&d->hash, ev->tag);
    evh_mixu(&d->hash, ev->time);
    evh_mixu(&d->hash, (uint64_t)(int64_t)ev->cap);
    evh_mixu(&d->hash, ev->offset);
    evh_mixu(&d->hash, ev->index);
    evh_mixu(&d->hash, evh_fields(ev));
    d->n++;
    return 0;
}

/* The events of data[0..len) fed in one chunk. */
static digest of_memory(const uint8_t *data, size_t len, int *status)
{
    digest d = {0, EVH_SEED};
    hs_reader *r = hs_reader_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    hs_reader_feed(r, data, len);
    hs_event ev;
    int st;
    while ((st = hs_reader_next(r, &ev)) == HS_EVENT)
        digest_cb(&d, &ev);
    *status = hs_reader_finish(r);
    hs_reader_free(r);
    return d;
}

static digest of_fd(int fd, int *status)
{
    digest d = {0, EVH_SEED};
    hs_reader *r = hs_reader_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    *status = hs_read_fd(r, fd, digest_cb, &d);
    hs_reader_free(r);
    return d;
}

/* A pipe whose writer (a child) sends data in irregular pieces. */
static int pipe_of(const uint8_t *data, size_t len, pid_t *pid)
{
    return tu_pipe_from(data, len, 31, 70001, pid);
}

/* hs_read_fd_count() on fd gives the tag counts of data[0..len) fed in
 * memory event by event, the same status and the same end offset, with
 * decoding off (the framing loop) and on (every event decoded first). */
static void check_count(int fd, const uint8_t *data, size_t len,
                        bool decode)
{
    static uint64_t want[65536], got[65536];
    memset(want, 0, sizeof want);
    memset(got, 0, sizeof got);
    hs_reader *m = hs_reader_new(), *r = hs_reader_new();
    CU_ASSERT_FATAL(m && r);
    hs_reader_feed(m, data, len);
    hs_event ev;
    while (hs_reader_next(m, &ev) == HS_EVENT)
        want[ev.tag]++;
    int want_st = hs_reader_finish(m);
    hs_reader_set_decode(r, decode);
    int st = hs_read_fd_count(r, fd, got);
    CU_ASSERT_EQUAL(st, want_st);
    CU_ASSERT(memcmp(got, want, sizeof got) == 0);
    CU_ASSERT_EQUAL(hs_reader_offset(r), hs_reader_offset(m));
    hs_reader_free(m);
    hs_reader_free(r);
}

static void check_paths(const char *path, const uint8_t *data, size_t len)
{
    int want_st, file_st, pipe_st;
    digest want = of_memory(data, len, &want_st);
    int fd = open(path, O_RDONLY);
    CU_ASSERT_FATAL(fd >= 0);
    digest file = of_fd(fd, &file_st);
    close(fd);
    pid_t pid;
    fd = pipe_of(data, len, &pid);
    digest piped = of_fd(fd, &pipe_st);
    close(fd);
    int wst;
    waitpid(pid, &wst, 0);
    CU_ASSERT(want.n > 0);
    CU_ASSERT(file.n == want.n && file.hash == want.hash);
    CU_ASSERT(piped.n == want.n && piped.hash == want.hash);
    CU_ASSERT(file_st == want_st && pipe_st == want_st);
    for (int decode = 0; decode < 2; decode++) {
        fd = open(path, O_RDONLY);
        CU_ASSERT_FATAL(fd >= 0);
        check_count(fd, data, len, decode);
        close(fd);
        fd = pipe_of(data, len, &pid);
        check_count(fd, data, len, decode);
        close(fd);
        waitpid(pid, &wst, 0);
    }
    if (file.hash != want.hash || piped.hash != want.hash)
        fprintf(stderr, "\n  %s: %llu events in memory, %llu from the file, %llu "
                "piped\n", path, (unsigned long long)want.n,
                (unsigned long long)file.n, (unsigned long long)piped.n);
}

static void test_samples_file_vs_pipe(void)
{
    static const char *const names[] = {"leak-hc", "leak-hb", "leak-p",
                                        "manycc-hc", "markers-hc"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/samples/%s.eventlog",
                 tu_source_dir(), names[i]);
        size_t len;
        uint8_t *data = tu_slurp(path, &len);
        CU_ASSERT_PTR_NOT_NULL_FATAL(data);
        check_paths(path, data, len);
        free(data);
    }
}

static char tmp_path[64];

static void write_file(const uint8_t *data, size_t len)
{
    strcpy(tmp_path, "/tmp/heapscope-input-XXXXXX");
    int fd = mkstemp(tmp_path);
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT_FATAL(write(fd, data, len) == (ssize_t)len);
    close(fd);
}

/* Larger than several read buffers (128 KiB), with events across their
 * edges. */
static void test_big_file(void)
{
    evw w;
    evw_start_ghc92(&w);
    for (uint64_t i = 0; w.len < (9u << 20); i++) {
        hs_event ev = {.tag = HS_EV_HEAP_SIZE};
        ev.u.heap.bytes = i * 4096;
        evw_write(&w, i, &ev);
        if (i % 7 == 0)
            evw_string_event(&w, HS_EV_USER_MSG, i, "a message of some size");
    }
    evw_data_end(&w);
    write_file(w.data, w.len);
    check_paths(tmp_path, w.data, w.len);
    unlink(tmp_path);
    evw_free(&w);
}

/* An fd that is not at the start: reading begins where it stands, at an
 * offset that is no multiple of the page size. */
static void test_fd_position(void)
{
    evw w;
    evw_init(&w);
    static const uint8_t junk[5003] = {1};
    evw_bytes(&w, junk, sizeof junk);
    size_t start = w.len;
    evw_header_begin(&w);
    evw_declare_ghc92(&w);
    evw_header_end(&w);
    evw_string_event(&w, HS_EV_USER_MARKER, 7, "here");
    evw_data_end(&w);
    write_file(w.data, w.len);
    int fd = open(tmp_path, O_RDONLY);
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT(lseek(fd, (off_t)start, SEEK_SET) == (off_t)start);
    int st, want_st;
    digest got = of_fd(fd, &st);
    digest want = of_memory(w.data + start, w.len - start, &want_st);
    CU_ASSERT_EQUAL(st, HS_DONE);
    CU_ASSERT(got.n == 1 && got.hash == want.hash);
    close(fd);
    unlink(tmp_path);
    evw_free(&w);
}

/* The writer appends the rest of the log while the reader is on its first
 * event: bytes past what the first read() saw are read too. */
struct grow { int fd; const evw *rest; uint64_t n; };

static int grow_cb(void *user, const hs_event *ev)
{
    struct grow *g = user;
    (void)ev;
    if (g->n++ == 0)
        CU_ASSERT(write(g->fd, g->rest->data, g->rest->len) ==
                  (ssize_t)g->rest->len);
    return 0;
}

static void test_growing_file(void)
{
    evw w, rest;
    evw_start_ghc92(&w);
    evw_string_event(&w, HS_EV_USER_MARKER, 1, "first");
    evw_init(&rest);
    for (int i = 0; i < 1000; i++)
        evw_string_event(&rest, HS_EV_USER_MSG, 2 + i, "appended later");
    evw_data_end(&rest);
    write_file(w.data, w.len);
    int fd = open(tmp_path, O_RDONLY);
    struct grow g = {open(tmp_path, O_WRONLY | O_APPEND), &rest, 0};
    CU_ASSERT_FATAL(fd >= 0 && g.fd >= 0);
    hs_reader *r = hs_reader_new();
    CU_ASSERT_EQUAL(hs_read_fd(r, fd, grow_cb, &g), HS_DONE);
    CU_ASSERT_EQUAL(g.n, 1001);
    hs_reader_free(r);
    close(fd);
    close(g.fd);
    unlink(tmp_path);
    evw_free(&w);
    evw_free(&rest);
}

/* An allocator that fails its n-th call and counts what is outstanding. */
typedef struct failing {
    long calls, fail_at, live;
} failing;

static void *f_malloc(void *u, size_t n)
{
    failing *f = u;
    if (f->calls++ == f->fail_at)
        return NULL;
    void *p = malloc(n);
    f->live += p != NULL;
    return p;
}

static void *f_realloc(void *u, void *p, size_t n)
{
    failing *f = u;
    if (f->calls++ == f->fail_at)
        return NULL;
    void *q = realloc(p, n);
    f->live += q && !p;
    return q;
}

static void f_free(void *u, void *p)
{
    failing *f = u;
    f->live -= p != NULL;
    free(p);
}

static int count_cb(void *user, const hs_event *ev)
{
    (void)ev;
    ++*(uint64_t *)user;
    return 0;
}

/* From a file or a pipe (the read() buffer is the allocation hs_read_fd
 * once failed to report). */
static void allocation_failures(bool piped)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/samples/leak-hc.eventlog",
             tu_source_dir());
    size_t len;
    uint8_t *data = tu_slurp(path, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(data);
    long total = -1;
    for (long n = 0; total < 0 || n <= total; n++) {
        failing f = {0, n, 0};
        if (total < 0)
            f.fail_at = -1; /* first a run without failures, to count */
        hs_allocator a = {f_malloc, f_realloc, f_free, &f};
        hs_reader *r = hs_reader_new_with(&a);
        if (r) {
            pid_t pid = 0;
            int fd = piped ? pipe_of(data, len, &pid) : open(path, O_RDONLY);
            CU_ASSERT_FATAL(fd >= 0);
            uint64_t events = 0;
            int st = hs_read_fd(r, fd, count_cb, &events);
            close(fd);
            if (piped)
                waitpid(pid, NULL, 0);
            if (f.fail_at < 0 || f.fail_at >= f.calls) {
                CU_ASSERT_EQUAL(st, HS_DONE);
            } else {
                /* Out of memory, and said so: a caller that prints
                 * hs_reader_error() has a message. */
                CU_ASSERT_EQUAL(st, HS_ERR_NOMEM);
                CU_ASSERT_EQUAL(hs_reader_error(r)->code, HS_ERR_NOMEM);
                CU_ASSERT(hs_reader_error(r)->message[0] != 0);
                CU_ASSERT_EQUAL(hs_reader_next(r, &(hs_event){0}),
                                HS_ERR_NOMEM);
            }
            hs_reader_free(r);
        }
        CU_ASSERT_EQUAL(f.live, 0);
        if (total < 0) {
            total = f.calls;
            n = -1;
            CU_ASSERT(total > (piped ? 5 : 4));
        }
    }
    free(data);
}

static void test_allocation_failures(void)
{
    allocation_failures(false);
    allocation_failures(true);
}

/* The format of the first HS_FORMAT_SNIFF_BYTES bytes of a sample. */
static hs_format sniff_sample(const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", tu_samples_dir(), name);
    uint8_t b[HS_FORMAT_SNIFF_BYTES];
    FILE *f = fopen(path, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    size_t n = fread(b, 1, sizeof b, f);
    fclose(f);
    return hs_format_sniff(b, n);
}

static void test_sniff(void)
{
    static const struct {
        const char *bytes;
        size_t n;
        hs_format want;
    } cases[] = {
        {"", 0, HS_FORMAT_UNKNOWN},
        {"hdrb", 4, HS_FORMAT_EVENTLOG},
        {"hd", 2, HS_FORMAT_EVENTLOG},        /* as far as two bytes tell */
        {"\0\x12\0\0", 4, HS_FORMAT_EVENTLOG}, /* a block marker first */
        {"hdrx", 4, HS_FORMAT_TEXT},
        {"JOB ", 4, HS_FORMAT_HP},
        {"JOB\t", 4, HS_FORMAT_HP},
        {"JOB", 3, HS_FORMAT_TEXT},           /* not yet its blank */
        {"JOBS", 4, HS_FORMAT_TEXT},
        {"\nJOB", 4, HS_FORMAT_TEXT},
        {"\x01\x5a\x50\x4d", 4, HS_FORMAT_MLPD},
        {"\x01", 1, HS_FORMAT_MLPD},
        {"\x01\x5a\x50\x4e", 4, HS_FORMAT_UNKNOWN},
        {"\x1f\x8b\x08\0", 4, HS_FORMAT_MLPD_GZIP},
        {"\x1f", 1, HS_FORMAT_MLPD_GZIP},
        {"\x1f\x8c", 2, HS_FORMAT_UNKNOWN},
        {"\x7f\x45\x4c\x46", 4, HS_FORMAT_UNKNOWN}, /* an ELF file */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hs_format got = hs_format_sniff(cases[i].bytes, cases[i].n);
        if (got != cases[i].want)
            fprintf(stderr, "\ncase %zu: %d, not %d\n", i, (int)got,
                    (int)cases[i].want);
        CU_ASSERT_EQUAL(got, cases[i].want);
    }
    if (!tu_samples_dir())
        return;
    CU_ASSERT_EQUAL(sniff_sample("leak-hc.eventlog"), HS_FORMAT_EVENTLOG);
    CU_ASSERT_EQUAL(sniff_sample("leak-hc.hp"), HS_FORMAT_HP);
    CU_ASSERT_EQUAL(sniff_sample("mono/leak-ondemand.mlpd"), HS_FORMAT_MLPD);
    CU_ASSERT_EQUAL(sniff_sample("mono/leak-ondemand-zip.mlpd.gz"),
                    HS_FORMAT_MLPD_GZIP);
}

/* An allocator whose blocks all start 16 bytes past a cache line, as
 * glibc's mapped ones do: the size kept in the 16 bytes before. */
static void *skew_malloc(void *u, size_t n)
{
    (void)u;
    uint8_t *raw = aligned_alloc(64, (n + 16 + 63) / 64 * 64);
    if (!raw)
        return NULL;
    memcpy(raw, &n, sizeof n);
    return raw + 16;
}

static void skew_free(void *u, void *p)
{
    (void)u;
    if (p)
        free((uint8_t *)p - 16);
}

static void *skew_realloc(void *u, void *p, size_t n)
{
    uint8_t *q = skew_malloc(u, n);
    if (q && p) {
        size_t old;
        memcpy(&old, (uint8_t *)p - 16, sizeof old);
        memcpy(q, p, old < n ? old : n);
    }
    if (q)
        skew_free(u, p);
    return q;
}

/* Every chunk of fd, peeked and pulled, starts on a cache line: the
 * kernel's copy into a buffer off one took 3 to 4 times as long. */
static void check_aligned(int fd, const hs_allocator *a, size_t len)
{
    hs_input in;
    hs_input_open(&in, fd, a);
    const uint8_t *data;
    size_t n, total = 0;
    CU_ASSERT_EQUAL_FATAL(hs_input_peek(&in, 4, &data, &n), HS_OK);
    CU_ASSERT_EQUAL((uintptr_t)data % 64, 0);
    while (hs_input_next(&in, &data, &n) == HS_OK) {
        CU_ASSERT_EQUAL((uintptr_t)data % 64, 0);
        total += n;
    }
    CU_ASSERT_EQUAL(total, len);
    hs_input_close(&in);
}

static void test_aligned_chunks(void)
{
    hs_allocator skew = {skew_malloc, skew_realloc, skew_free, NULL};
    static uint8_t data[300000];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 7);
    /* larger than a read buffer, smaller than one, and through a pipe */
    static const size_t sizes[] = {sizeof data, 70000, 5};
    for (size_t k = 0; k < 3; k++) {
        write_file(data, sizes[k]);
        for (int with = 0; with < 2; with++) {
            int fd = open(tmp_path, O_RDONLY);
            CU_ASSERT_FATAL(fd >= 0);
            check_aligned(fd, with ? &skew : NULL, sizes[k]);
            close(fd);
        }
        unlink(tmp_path);
    }
    pid_t pid;
    int fd = pipe_of(data, sizeof data, &pid);
    check_aligned(fd, &skew, sizeof data);
    close(fd);
    waitpid(pid, NULL, 0);
}

/* The events of data[0..len) fed a byte at a time: every event staged,
 * framed by the general path alone (event_step()). */
static digest of_bytes(const uint8_t *data, size_t len, int *status)
{
    digest d = {0, EVH_SEED};
    hs_reader *r = hs_reader_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    int st = HS_NEED_INPUT;
    hs_event ev;
    for (size_t i = 0; i < len && st != HS_DONE && st >= 0; i++) {
        hs_reader_feed(r, data + i, 1);
        while ((st = hs_reader_next(r, &ev)) == HS_EVENT)
            digest_cb(&d, &ev);
    }
    *status = hs_reader_finish(r);
    hs_reader_free(r);
    return d;
}

/* Tags of this test: 1000 + the declared size, 0 to 70 bytes. */
#define SIZE_TAG0 1000u
#define SIZES 71u

/* digest_cb() of the events of even sizes alone (the tally's). */
static int even_cb(void *user, const hs_event *ev)
{
    return (ev->tag - SIZE_TAG0) % 2 ? 0 : digest_cb(user, ev);
}

static void test_every_fixed_size(void)
{
    evw w;
    evw_init(&w);
    evw_header_begin(&w);
    for (uint16_t s = 0; s < SIZES; s++)
        evw_declare(&w, (uint16_t)(SIZE_TAG0 + s), s, "sized");
    evw_header_end(&w);
    uint32_t x = 12345;
    for (uint64_t i = 0; i < 4000; i++) {
        x = x * 1103515245u + 12345u;
        /* runs of the branch sizes (0, 4, 10, 12) and the others mixed */
        uint16_t s = (uint16_t)(x >> 8) % SIZES;
        if (x >> 30 & 1)
            s = (uint16_t[]){0, 4, 10, 12}[x >> 28 & 3];
        evw_event(&w, (uint16_t)(SIZE_TAG0 + s), i * 3, 0);
        for (uint16_t k = 0; k < s; k++)
            evw_u8(&w, (uint8_t)(x >> (k % 24)));
    }
    evw_data_end(&w);
    int want_st, mem_st;
    digest want = of_bytes(w.data, w.len, &want_st);
    digest mem = of_memory(w.data, w.len, &mem_st);
    CU_ASSERT_EQUAL(want.n, 4000);
    CU_ASSERT(mem.n == want.n && mem.hash == want.hash);
    CU_ASSERT(want_st == HS_DONE && mem_st == HS_DONE);
    write_file(w.data, w.len);
    check_paths(tmp_path, w.data, w.len); /* run_plain(), run_count() */

    /* the tally's loop, the even sizes decoded and handed on */
    digest even = {0, EVH_SEED}, got = {0, EVH_SEED};
    hs_reader *m = hs_reader_new(), *r = hs_reader_new();
    CU_ASSERT_FATAL(m && r);
    hs_reader_feed(m, w.data, w.len);
    hs_event ev;
    while (hs_reader_next(m, &ev) == HS_EVENT)
        even_cb(&even, &ev);
    uint16_t tags[SIZES];
    for (uint16_t s = 0; s < SIZES; s += 2)
        tags[s / 2] = (uint16_t)(SIZE_TAG0 + s);
    hs_reader_decode_only(r, tags, (SIZES + 1) / 2);
    hs__tally t = {0, 0, 0, 0, HS_CAP_NONE, 0};
    int fd = open(tmp_path, O_RDONLY);
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT_EQUAL(hs__read_fd_tally(r, fd, digest_cb, &got, &t), HS_DONE);
    close(fd);
    CU_ASSERT(got.n == even.n && got.hash == even.hash);
    CU_ASSERT_EQUAL(t.events, want.n);
    CU_ASSERT_EQUAL(t.max_time, 3 * 3999);
    CU_ASSERT_EQUAL(hs_reader_offset(r), hs_reader_offset(m));
    hs_reader_free(m);
    hs_reader_free(r);
    unlink(tmp_path);
    evw_free(&w);
}

/* A -N2 log of `blocks` blocks taking turns between capabilities 0 and
 * 1, each of two USER_MARKERs of `text` bytes, written to path. */
static void marker_blocks(const char *path, int blocks, size_t text)
{
    char *msg = malloc(text);
    CU_ASSERT_FATAL(msg != NULL);
    memset(msg, 'm', text);
    evw w;
    evw_start_ghc92(&w);
    uint64_t t = 1000;
    for (int i = 0; i < blocks; i++) {
        size_t at = evw_block(&w, t, (uint16_t)(i % 2));
        for (int k = 0; k < 2; k++) {
            hs_event m = {.tag = HS_EV_USER_MARKER, .known = true};
            m.u.msg.text = (hs_str){msg, text};
            evw_write(&w, t += 10, &m);
        }
        evw_block_end(&w, at, t);
    }
    evw_data_end(&w);
    FILE *f = fopen(path, "wb");
    CU_ASSERT_FATAL(f && fwrite(w.data, 1, w.len, f) == w.len);
    fclose(f);
    evw_free(&w);
    free(msg);
}

/* The plan of the log at path: its number of segments, lane 1's blocks
 * in *lane1 and whether its segments end where the file does. */
static size_t plan_of(const char *path, size_t *lane1, bool *whole)
{
    int fd = open(path, O_RDONLY);
    hs_reader *r = hs_reader_new();
    CU_ASSERT_FATAL(fd >= 0 && r != NULL);
    uint64_t at, size = (uint64_t)lseek(fd, 0, SEEK_END);
    CU_ASSERT_FATAL(hs__reader_header_pread(r, fd, 0, &at) == HS_OK);
    hs__plan p;
    CU_ASSERT_FATAL(hs__plan_make(r, fd, 0, at, size, &p, NULL) == HS_OK);
    size_t n = p.n;
    *lane1 = p.lane1_blocks;
    *whole = p.seg[n - 1].off + p.seg[n - 1].len == size;
    hs__plan_free(&p, NULL);
    hs_reader_free(r);
    close(fd);
    return n;
}

/* Blocks of a few events each cost the two lanes more than they carry:
 * the plan's walk stops after 64 of them, the rest one segment of one
 * pass; blocks of 64 KiB are planned to the end (the data-end marker a
 * segment of its own). */
static void test_lanes_small_blocks(void)
{
    char path[] = "/tmp/heapscope-plan-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    size_t lane1;
    bool whole;
    marker_blocks(path, 300, 20);
    /* the rest, in lane 0, outweighs both capabilities' blocks planned */
    CU_ASSERT_EQUAL(plan_of(path, &lane1, &whole), 65);
    CU_ASSERT(lane1 == 64 && whole);
    marker_blocks(path, 80, 32 * 1024);
    CU_ASSERT_EQUAL(plan_of(path, &lane1, &whole), 81);
    CU_ASSERT(lane1 == 40 && whole);
    unlink(path);
}

int main(void)
{
    static const tu_test tests[] = {
        {"samples: file, pipe and memory agree",
         test_samples_file_vs_pipe},
        {"a file larger than several read buffers", test_big_file},
        {"reading from the fd's position", test_fd_position},
        {"a file that grows while read", test_growing_file},
        {"every allocation failing in turn", test_allocation_failures},
        {"formats told apart by their first bytes", test_sniff},
        {"chunks start on a cache line", test_aligned_chunks},
        {"every fixed size framed alike by every loop",
         test_every_fixed_size},
        {"the lanes' plan stops at small blocks", test_lanes_small_blocks},
        {NULL, NULL},
    };
    return tu_main("input", NULL, NULL, tests);
}
