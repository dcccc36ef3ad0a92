/*
 * The .mlpd reader's small calls: what it has read so far, telling an
 * .mlpd by its first bytes, and reading a whole file descriptor.
 */
#include "read/read_mlpd.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

const hs_error *hs_mlpd_reader_error(const hs_mlpd_reader *r)
{
    return &r->err;
}

uint64_t hs_mlpd_reader_skipped(const hs_mlpd_reader *r)
{
    return r->skipped;
}

const char *hs_mlpd_reader_skip_warning(const hs_mlpd_reader *r)
{
    return r->skipped ? r->skip_warning : NULL;
}

const hs_mlpd_header *hs_mlpd_reader_header(const hs_mlpd_reader *r)
{
    return r->header_done ? &r->hdr : NULL;
}

bool hs_mlpd_reader_compressed(const hs_mlpd_reader *r)
{
    return r->gzip;
}

uint64_t hs_mlpd_reader_offset(const hs_mlpd_reader *r)
{
    return r->consumed;
}

uint64_t hs_mlpd_reader_buffers(const hs_mlpd_reader *r)
{
    return r->buffers;
}

bool hs_mlpd_sniff(const void *data, size_t n)
{
    static const uint8_t id[4] = {0x01, 0x5a, 0x50, 0x4d};
    static const uint8_t gz[2] = {0x1f, 0x8b};
    const uint8_t *b = data;
    if (n == 0)
        return false;
    if (b[0] == 0x1f)
        return memcmp(b, gz, n < 2 ? n : 2) == 0;
    return memcmp(b, id, n < 4 ? n : 4) == 0;
}

#define READ_SIZE (1u << 16)

int hs__mlpd_read_fd_with(hs_mlpd_reader *r, int fd, hs__mlpd_drain_fn drain,
                          void *user)
{
    /* 64 KiB reads. Larger ones put more of Mono's buffers (up to 64 KiB)
     * whole in one read, decoded in place rather than staged, but leave
     * the core's L2: 1 MiB took 'events --count' from 1.00x to 1.14x
     * mprof-report's CPU on a 387 MB file, and 256 KiB measured no better
     * than 64 KiB (bench/README.md). */
    uint8_t *buf = hs_malloc(r->alloc, READ_SIZE);
    if (!buf)
        return hs__mlpd_fail(r, HS_ERR_NOMEM, r->consumed, "out of memory");
    int st = HS_OK;
    for (;;) {
        ssize_t got = read(fd, buf, READ_SIZE);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int e = errno;
            st = hs__mlpd_fail(r, HS_ERR_IO, r->consumed, "reading failed: %s",
                      strerror(e));
            errno = e;
            break;
        }
        if (got == 0) {
            st = hs_mlpd_reader_finish(r);
            break;
        }
        hs_mlpd_reader_feed(r, buf, (size_t)got);
        if ((st = drain(r, user)) != HS_NEED_INPUT)
            break;
    }
    hs_free(r->alloc, buf);
    return st;
}

struct each {
    hs_mlpd_event_fn fn;
    void *user;
    int rc; /* fn's non-zero return */
};

/* Hands each event of the chunk to fn; HS_EVENT when fn stops. */
static int drain_events(hs_mlpd_reader *r, void *user)
{
    struct each *e = user;
    hs_mlpd_event ev;
    int st;
    while ((st = hs_mlpd_reader_next(r, &ev)) == HS_EVENT)
        if (e->fn && (e->rc = e->fn(e->user, &ev)) != 0)
            return HS_EVENT;
    return st;
}

int hs_mlpd_read_fd(hs_mlpd_reader *r, int fd, hs_mlpd_event_fn fn,
                    void *user)
{
    struct each e = {fn, user, 0};
    int st = hs__mlpd_read_fd_with(r, fd, drain_events, &e);
    return e.rc ? e.rc : st;
}
