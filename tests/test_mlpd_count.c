/*
 * hs_mlpd_read_fd_count() against the general path (hs_mlpd_read_fd()
 * with a callback that counts): the same counts per event byte, status,
 * error (code, message, offset, event index), skipped buffers and their
 * warning, offset and buffers read, on every .mlpd of samples/mono/ (plain
 * and gzip), on bench/gen_mlpd.c's files, read from a file, a pipe and
 * chunks of odd sizes; on a file cut at every byte of its first buffers;
 * and on files with bytes corrupted one at a time and with runs of
 * continuation bytes (LEB128 values of nine, ten and more bytes).
 */
#include "mlpd_counted.h"
#include "testutil.h"

#include <heapscope/heapscope.h>

#include <CUnit/Basic.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

typedef mlpd_counted outcome;

/* Reads fd to its end, by counting or event by event. */
static void outcome_of(int fd, bool walker, outcome *o)
{
    mlpd_counted_read(fd, walker, o);
}

/* One temporary file, rewritten for each input. */
static int scratch = -1;

/* The scratch file holding data[0 .. n), at its start. */
static int file_of(const uint8_t *data, size_t n)
{
    if (scratch < 0) {
        FILE *f = tmpfile();
        if (!f || (scratch = dup(fileno(f))) < 0)
            abort();
        fclose(f);
    }
    if (ftruncate(scratch, 0) != 0 ||
        (n && pwrite(scratch, data, n, 0) != (ssize_t)n))
        abort();
    lseek(scratch, 0, SEEK_SET);
    return scratch;
}

/* A socket from which each read() returns one chunk of `chunk` bytes
 * (the last one shorter), written by a forked child. */
static int chunks_of(const uint8_t *data, size_t n, size_t chunk, pid_t *pid)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) != 0)
        abort();
    fflush(NULL);
    if ((*pid = fork()) < 0)
        abort();
    if (*pid == 0) {
        close(sv[0]);
        for (size_t pos = 0; pos < n; pos += chunk) {
            size_t k = n - pos < chunk ? n - pos : chunk;
            if (write(sv[1], data + pos, k) != (ssize_t)k)
                _exit(1);
        }
        _exit(0);
    }
    close(sv[1]);
    return sv[0];
}

static bool same_outcome(const outcome *a, const outcome *b, const char *what)
{
    bool same = mlpd_counted_same(a, b);
    if (!same)
        fprintf(stderr, "\n%s: counting gives st %d \"%s\" at %llu (event "
                "%llu), %llu skipped; the events give st %d \"%s\" at %llu "
                "(event %llu), %llu skipped\n", what, b->st, b->err.message,
                (unsigned long long)b->err.offset,
                (unsigned long long)b->err.event_index,
                (unsigned long long)b->skipped, a->st, a->err.message,
                (unsigned long long)a->err.offset,
                (unsigned long long)a->err.event_index,
                (unsigned long long)a->skipped);
    if (!same)
        fprintf(stderr, "offset %llu / %llu, buffers %llu / %llu\n",
                (unsigned long long)b->offset, (unsigned long long)a->offset,
                (unsigned long long)b->buffers,
                (unsigned long long)a->buffers);
    return same;
}

/* The general path's outcome on data[0 .. n), read from a file. */
static void general(const uint8_t *data, size_t n, outcome *o)
{
    outcome_of(file_of(data, n), false, o);
}

/* Counting data[0 .. n) from a file gives the general path's outcome. */
static bool same_from_file(const uint8_t *data, size_t n, const char *what)
{
    outcome want, got;
    int fd = file_of(data, n);
    outcome_of(fd, false, &want);
    lseek(fd, 0, SEEK_SET);
    outcome_of(fd, true, &got);
    return same_outcome(&want, &got, what);
}

/* The outcome of reading data[0 .. n) from a socket in chunks of `chunk`
 * bytes, or (chunk 0) from a pipe written in irregular pieces. */
static void streamed(const uint8_t *data, size_t n, size_t chunk, bool walker,
                     outcome *o)
{
    pid_t pid;
    int fd = chunk ? chunks_of(data, n, chunk, &pid)
                   : tu_pipe_from(data, n, 7919, 9973, &pid);
    outcome_of(fd, walker, o);
    close(fd);
    waitpid(pid, NULL, 0);
}

/* ... and from a socket in chunks of each size of `sizes` (0-ended), as
 * the general path reads the same chunks, and from a pipe. */
static bool same_from_streams(const uint8_t *data, size_t n,
                              const size_t *sizes, const char *what)
{
    outcome want, got;
    for (unsigned i = 0; sizes[i]; i++) {
        streamed(data, n, sizes[i], false, &want);
        streamed(data, n, sizes[i], true, &got);
        if (!same_outcome(&want, &got, what))
            return false;
    }
    /* a pipe's chunks vary from run to run, and with them the offset an
     * error in the file header leaves the reader at */
    general(data, n, &want);
    streamed(data, n, 0, true, &got);
    got.offset = want.offset;
    return same_outcome(&want, &got, what);
}

static size_t same_on_files(const char *pattern)
{
    static const size_t sizes[] = {4093, 65536, 0};
    char full[4096];
    snprintf(full, sizeof full, "%s/%s", tu_source_dir(), pattern);
    glob_t g;
    if (glob(full, 0, NULL, &g) != 0)
        return 0;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        const char *name = strrchr(g.gl_pathv[i], '/') + 1;
        size_t n;
        uint8_t *data = tu_slurp(g.gl_pathv[i], &n);
        CU_ASSERT_PTR_NOT_NULL_FATAL(data);
        CU_ASSERT(same_from_file(data, n, name));
        CU_ASSERT(same_from_streams(data, n, sizes, name));
        free(data);
    }
    size_t n = g.gl_pathc;
    globfree(&g);
    return n;
}

static void test_samples(void)
{
    CU_ASSERT(same_on_files("samples/mono/*.mlpd*") >= 19);
    /* the fuzz target's inputs: a gzip stream corrupt after some output */
    CU_ASSERT(same_on_files("tests/fuzz/regress/mlpd/*") >= 1);
}

/* What bench/gen_mlpd writes with ARG, or NULL without GEN_MLPD. */
static uint8_t *gen(const char *arg, size_t *n)
{
    const char *exe = getenv("GEN_MLPD");
    if (!exe)
        return NULL;
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' %s", exe, arg);
    FILE *p = popen(cmd, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    size_t cap = 1 << 16;
    uint8_t *data = malloc(cap);
    *n = 0;
    size_t got;
    while ((got = fread(data + *n, 1, cap - *n, p)) > 0)
        if ((*n += got) == cap)
            data = realloc(data, cap *= 2);
    CU_ASSERT(pclose(p) == 0);
    return data;
}

static void test_generated(void)
{
    static const size_t sizes[] = {1, 7, 64, 65, 0};
    static const size_t big_sizes[] = {65535, 0};
    size_t n;
    uint8_t *data = gen("--every-event", &n);
    if (!data) {
        tu_skip("GEN_MLPD is not set");
        return;
    }
    CU_ASSERT(same_from_file(data, n, "every event"));
    CU_ASSERT(same_from_streams(data, n, sizes, "every event"));
    free(data);
    data = gen("1", &n);
    CU_ASSERT(same_from_file(data, n, "gen_mlpd 1"));
    CU_ASSERT(same_from_streams(data, n, big_sizes, "gen_mlpd 1"));
    free(data);
}

/* A file of samples/mono/. */
static uint8_t *sample(const char *name, size_t *n)
{
    char rel[256];
    snprintf(rel, sizeof rel, "mono/%s", name);
    uint8_t *data = tu_slurp_sample(rel, n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(data);
    return data;
}

/* Cut after every step-th byte up to `upto`, data counts as the general
 * path reads it. */
static bool same_cuts(const uint8_t *data, size_t upto, size_t step,
                      const char *what)
{
    for (size_t k = 0; k <= upto; k += step)
        if (!same_from_file(data, k, what)) {
            fprintf(stderr, "(cut after %zu bytes)\n", k);
            return false;
        }
    return true;
}

static void test_cut_every_byte(void)
{
    size_t n;
    uint8_t *data = gen("--every-event", &n);
    if (data) {
        CU_ASSERT(same_cuts(data, n, 1, "every event, cut"));
        free(data);
    }
    /* a real file's first buffers: metadata, then allocations with
     * backtraces (the walker's fast path) */
    data = sample("threads-alloc-heapshot.mlpd", &n);
    CU_ASSERT(same_cuts(data, n < 8000 ? n : 8000, 1,
                        "threads-alloc-heapshot.mlpd, cut"));
    free(data);
    /* gzip: the events inflated up to the cut */
    data = sample("churn-killed-zip.mlpd.gz", &n);
    CU_ASSERT(same_cuts(data, n, 16, "churn-killed-zip.mlpd.gz, cut"));
    free(data);
}

/* Each byte of data[from .. to) set to each of `values` and to itself
 * with its low bit flipped, in turn (and back), and runs of 8 to 11
 * continuation bytes from every 5th byte (LEB128 values of nine bytes, the
 * longest the walker takes, and longer): counting gives the general
 * path's outcome on data[0 .. n). */
static bool same_corrupted(uint8_t *data, size_t n, size_t from, size_t to,
                           const char *what)
{
    static const uint8_t values[] = {0x00, 0x80, 0xff};
    for (size_t i = from; i < to; i++) {
        uint8_t keep = data[i];
        for (unsigned v = 0; v <= sizeof values; v++) {
            data[i] = v < sizeof values ? values[v] : keep ^ 0x01;
            bool same = same_from_file(data, n, what);
            data[i] = keep;
            if (!same) {
                fprintf(stderr, "(byte %zu set to %02x)\n", i,
                        v < sizeof values ? values[v] : keep ^ 0x01);
                return false;
            }
        }
    }
    uint8_t keep[12];
    for (size_t i = from; i + sizeof keep < to; i += 5)
        for (size_t run = 8; run <= 11; run++) {
            memcpy(keep, data + i, run);
            for (size_t k = 0; k < run; k++)
                data[i + k] |= 0x80;
            bool same = same_from_file(data, n, what);
            memcpy(data + i, keep, run);
            if (!same) {
                fprintf(stderr, "(%zu continuation bytes at %zu)\n", run, i);
                return false;
            }
        }
    return true;
}

static void test_corrupted(void)
{
    size_t n;
    uint8_t *data = gen("--every-event", &n);
    if (data) {
        CU_ASSERT(same_corrupted(data, n, 0, n, "every event, corrupted"));
        free(data);
    }
    data = sample("threads-alloc-heapshot.mlpd", &n);
    /* its first buffers, with 43 allocations, cut after 6,000 bytes */
    size_t cut = n < 6000 ? n : 6000;
    CU_ASSERT(same_corrupted(data, cut, 0, cut,
                             "threads-alloc-heapshot, corrupted"));
    free(data);
}

int main(void)
{
    static const tu_test tests[] = {
        {"every sample: the general path's counts, from files and streams",
         test_samples},
        {"gen_mlpd's files, in chunks of odd sizes", test_generated},
        {"a file cut at every byte", test_cut_every_byte},
        {"corrupted bytes and overlong LEB128 values", test_corrupted},
        {NULL, NULL}};
    return tu_main("mlpd_count", NULL, NULL, tests);
}
