/*
 * libFuzzer target for the .hp parser.
 *
 * Input: the text of a (possibly hostile) .hp file. It is loaded twice,
 * through hs_census_load_hp() on a stdio stream and through
 * hs_census_load_fd() (which tells the format by content), and both must
 * give the same answer; then it is loaded again from a socket that hands
 * over a few bytes a read (so that the fast run of band lines and the band
 * guess meet chunk edges and the general way takes over), which must give
 * the same status, error, warnings and census, written as .hp byte for
 * byte; then every renderer runs on the census, and what `hp` writes must
 * read back to the same samples (hp_round_trip).
 */
#include "fuzz_common.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct writer {
    int fd;
    const uint8_t *data;
    size_t len, chunk;
};

/* Sends the data a chunk a message; stops when the reader has gone. */
static void *write_chunks(void *arg)
{
    struct writer *w = arg;
    for (size_t pos = 0; pos < w->len; pos += w->chunk) {
        size_t n = w->len - pos > w->chunk ? w->chunk : w->len - pos;
        if (send(w->fd, w->data + pos, n, MSG_NOSIGNAL) != (ssize_t)n)
            break;
    }
    close(w->fd);
    return NULL;
}

/* The census of data read from fd (the whole file) or, with chunk, from a
 * socket whose every read() gives `chunk` bytes. */
static hs_census *load_way(const uint8_t *data, size_t size, size_t chunk,
                           int *st, hs_error *err)
{
    int sv[2] = {-1, -1};
    pthread_t t;
    struct writer w = {-1, data, size, chunk};
    if (chunk) {
        CHECK(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) == 0);
        w.fd = sv[1];
        CHECK(pthread_create(&t, NULL, write_chunks, &w) == 0);
    } else if ((sv[0] = mem_fd(data, size)) < 0) {
        return NULL;
    }
    hs_census *c = hs_census_new();
    CHECK(c != NULL);
    memset(err, 0, sizeof *err);
    *st = hs_census_load_fd(c, sv[0], err);
    close(sv[0]);
    if (chunk)
        pthread_join(t, NULL);
    return c;
}

static char *as_hp(const hs_census *c)
{
    hs_membuf m;
    memset(&m, 0, sizeof m);
    hs_sink s = hs_membuf_sink(&m);
    CHECK(hs_render_hp(c, &s) == HS_OK);
    CHECK(hs_sink_write(&s, "", 1) == HS_OK);
    return m.data;
}

/* Loaded whole and in chunks of a size the input picks: the same. */
static void check_chunked(const uint8_t *data, size_t size)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < size && i < 64; i++)
        h = (h ^ data[i]) * 16777619u;
    size_t chunk = 1 + h % 32;
    if (size > 4096)
        chunk *= 1 + size / 4096; /* a few thousand reads at most */
    int st[2];
    hs_error err[2];
    hs_census *c[2] = {load_way(data, size, 0, &st[0], &err[0]), NULL};
    if (!c[0])
        return;
    c[1] = load_way(data, size, chunk, &st[1], &err[1]);
    CHECK(c[1] && st[0] == st[1]);
    if (hs_census_get_info(c[0])->source == HS_SOURCE_HP) {
        if (st[0] != HS_OK)
            CHECK(err[0].code == err[1].code && err[0].line == err[1].line &&
                  err[0].offset == err[1].offset &&
                  !strcmp(err[0].message, err[1].message));
        size_t n = hs_census_warning_count(c[0]);
        CHECK(n == hs_census_warning_count(c[1]));
        for (size_t i = 0; i < n; i++)
            CHECK(!strcmp(hs_census_warning(c[0], i),
                          hs_census_warning(c[1], i)));
        if (st[0] >= 0) {
            char *a = as_hp(c[0]), *b = as_hp(c[1]);
            CHECK(!strcmp(a, b));
            free(a);
            free(b);
        }
    }
    hs_census_free(c[0]);
    hs_census_free(c[1]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20))
        return 0;
    int st_fd;
    hs_census *by_fd = load_bytes(data, size, &st_fd);

    hs_census *by_file = hs_census_new();
    CHECK(by_file != NULL);
    /* fmemopen refuses a zero-length buffer; an empty file is what the
     * fd path saw then. */
    static const char nothing[1];
    FILE *f = fmemopen(size ? (void *)data : (void *)nothing, size ? size : 1,
                       "r");
    CHECK(f != NULL);
    if (!size)
        (void)fgetc(f);
    hs_error err;
    memset(&err, 0, sizeof err);
    int st_file = hs_census_load_hp(by_file, f, &err);
    fclose(f);

    /* Text that does not start like an eventlog is parsed as .hp by both
     * paths; they must agree on success, the error and the census. */
    if (by_fd && hs_census_get_info(by_fd)->source == HS_SOURCE_HP) {
        CHECK(st_file == st_fd);
        same_census(by_fd, by_file);
    } else if (!by_fd && st_file < 0) {
        CHECK(err.code == st_file);
    }
    check_chunked(data, size);
    if (by_fd) {
        render_all(by_fd);
        hp_round_trip(by_fd);
    }
    hs_census_free(by_file);
    hs_census_free(by_fd);
    return 0;
}
