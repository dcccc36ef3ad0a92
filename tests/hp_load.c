/*
 * The .hp tests' helpers (test_hpfile*.c): a census loaded from a path or
 * from .hp text, rendered back as .hp, and a small good .hp file.
 */
#include "hp_load.h"

#include <CUnit/Basic.h>

#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

hs_census *load_path(const char *path, int *status)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return NULL;
    hs_census *c = hs_census_new();
    hs_error err;
    *status = hs_census_load_fd(c, fd, &err);
    close(fd);
    return c;
}

hs_census *load_text(const char *text, int *status, hs_error *err)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    hs_census *c = hs_census_new();
    *status = hs_census_load_hp(c, f, err);
    fclose(f);
    return c;
}

struct writer {
    int fd;
    const char *data;
    size_t len, chunk;
    bool failed;
};

/* Writes the data a chunk a message; a load that stops early closes the
 * other end, and the writer stops at the failed send (no SIGPIPE). */
static void *write_chunks(void *arg)
{
    struct writer *w = arg;
    for (size_t pos = 0; pos < w->len;) {
        size_t n = w->chunk && w->len - pos > w->chunk ? w->chunk
                                                       : w->len - pos;
        if (send(w->fd, w->data + pos, n, MSG_NOSIGNAL) != (ssize_t)n) {
            w->failed = true;
            break;
        }
        pos += n;
    }
    close(w->fd);
    return NULL;
}

hs_census *load_chunked_with(const hs_allocator *alloc, const char *data,
                             size_t len, size_t chunk, int *st, hs_error *err)
{
    int sv[2];
    CU_ASSERT_EQUAL_FATAL(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
    struct writer w = {sv[1], data, len, chunk, false};
    pthread_t t;
    CU_ASSERT_EQUAL_FATAL(pthread_create(&t, NULL, write_chunks, &w), 0);
    hs_census *c = hs_census_new_with(alloc);
    hs_error local;
    *st = hs_census_load_fd(c, sv[0], err ? err : &local);
    close(sv[0]);
    pthread_join(t, NULL);
    /* the writer may stop when the load stopped reading */
    CU_ASSERT_TRUE(!w.failed || *st < 0);
    return c;
}

hs_census *load_chunked_err(const char *data, size_t len, size_t chunk,
                           int *st, hs_error *err)
{
    return load_chunked_with(NULL, data, len, chunk, st, err);
}

hs_census *load_chunked(const char *data, size_t len, size_t chunk, int *st)
{
    return load_chunked_err(data, len, chunk, st, NULL);
}

char *render_hp(const hs_census *c)
{
    hs_membuf m = {0};
    hs_sink s = hs_membuf_sink(&m);
    CU_ASSERT_EQUAL(hs_render_hp(c, &s), HS_OK);
    return m.data;
}

const char good_hp[] =
    "JOB \"prog \"\"quoted\"\" +RTS -hy\"\n"
    "DATE \"Sun Nov 22 00:21 2026\"\n"
    "SAMPLE_UNIT \"seconds\"\n"
    "VALUE_UNIT \"bytes\"\n"
    "BEGIN_SAMPLE 0.000000\n"
    "END_SAMPLE 0.000000\n"
    "MARK 0.005000\n"
    "BEGIN_SAMPLE 0.010000\n"
    "Integer -> IO ()\t100\n"
    "[]\t24\n"
    "END_SAMPLE 0.010000\n"
    "BEGIN_SAMPLE 0.020000\n"
    "END_SAMPLE 0.020000\n"
    "BEGIN_SAMPLE 0.030000\n"
    "[]\t0\n"
    "END_SAMPLE 0.030000\n"
    "MARK 0.030000\n"
    "BEGIN_SAMPLE 0.040000\n"
    "END_SAMPLE 0.040000\n";
