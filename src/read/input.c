/*
 * Reading an input fd in chunks with read(). See input.h.
 */
#include "read/input.h"
#include "common/internal.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* read() buffer. A chunk that stays in the CPU's cache while the kernel
 * copies it in and the decoder walks it: reads decode 2.3x faster than the
 * same file mapped (bench/run.sh, 300 MB log from the page cache: 0.12 s
 * against 0.28 s; the mapped walk misses the TLB and the cache on every
 * new page), and 128 KiB (a core's L2) faster than 1 MiB, whose copy
 * leaves the cache: on a real 300 MB -N2 log (bench/ratios.sh) the
 * kernel's copy took 0.07 s against 0.21 s, events --count 166-196 ms of
 * CPU against 302-352 ms. */
#define READ_BLOCK (1u << 17)
/* Where the buffer starts: a cache line. The kernel's copy into a buffer
 * 16 bytes off one (where a large malloc block starts, after its header)
 * took 3.5 times as long on the project's machine (AMD EPYC, rep movsb):
 * 115 ms of system time for a 163 MB file against 33 ms. */
#define BUF_ALIGN 64u
/* The most hs_input_peek() holds: the buffer is never smaller. */
#define PEEK_MAX (1u << 16)

/* READ_BLOCK, or less for a regular file with less than that left: its
 * remaining bytes and one more (to see the end in the same read), but at
 * least PEEK_MAX. A 4 KiB .hp then costs 64 KiB, not 1 MiB. */
static size_t block_size(int fd)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return READ_BLOCK;
    off_t at = lseek(fd, 0, SEEK_CUR);
    if (at < 0 || at > st.st_size)
        return READ_BLOCK;
    uint64_t left = (uint64_t)(st.st_size - at);
    if (left >= READ_BLOCK)
        return READ_BLOCK;
    return left + 1 > PEEK_MAX ? (size_t)left + 1 : PEEK_MAX;
}

void hs_input_open(hs_input *in, int fd, const hs_allocator *alloc)
{
    memset(in, 0, sizeof *in);
    in->fd = fd;
    in->alloc = alloc;
}

/* One read() into buf after the peeked bytes, EINTR retried. */
static int read_more(hs_input *in)
{
    if (!in->buf) {
        size_t cap = block_size(in->fd);
        in->block = hs_malloc(in->alloc, cap + BUF_ALIGN - 1);
        if (!in->block)
            return HS_ERR_NOMEM;
        in->buf = in->block + (-(uintptr_t)in->block & (BUF_ALIGN - 1));
        in->buf_cap = cap;
    }
    for (;;) {
        ssize_t n = read(in->fd, in->buf + in->buf_len,
                         in->buf_cap - in->buf_len);
        if (n > 0) {
            in->buf_len += (size_t)n;
            return HS_OK;
        }
        if (n == 0) {
            in->eof = true;
            return HS_OK;
        }
        if (errno != EINTR) {
            in->err_no = errno;
            return HS_ERR_IO;
        }
    }
}

int hs_input_next(hs_input *in, const uint8_t **data, size_t *len)
{
    *data = NULL;
    *len = 0;
    if (!in->buf_len && !in->eof) {
        int st = read_more(in);
        if (st < 0) {
            errno = in->err_no;
            return st;
        }
    }
    if (!in->buf_len)
        return HS_DONE;
    *data = in->buf;
    *len = in->buf_len;
    in->offset += in->buf_len;
    in->buf_len = 0;
    return HS_OK;
}

int hs_input_peek(hs_input *in, size_t n, const uint8_t **data,
                  size_t *len)
{
    if (n > PEEK_MAX)
        n = PEEK_MAX;
    while (in->buf_len < n && !in->eof) {
        int st = read_more(in);
        if (st < 0) {
            errno = in->err_no;
            return st;
        }
    }
    *data = in->buf ? in->buf : (const uint8_t *)"";
    *len = in->buf_len;
    return HS_OK;
}

void hs_input_close(hs_input *in)
{
    hs_free(in->alloc, in->block);
    in->block = in->buf = NULL;
    in->buf_len = 0;
}

void hs_input_drop(hs_input *in)
{
    in->buf_len = 0;
    in->eof = false;
}
