/*
 * Reading an input fd in chunks: mmap for regular files, read() for the
 * rest. See input.h.
 */
#include "read/input.h"
#include "common/internal.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* read() buffer: large enough that a pipe's reads cost little each. */
#define READ_BLOCK (1u << 20)
/* Mapped bytes handed out at a time; what lies behind is dropped from the
 * resident set, so peak RSS does not grow with the file. */
#define MAP_WINDOW ((size_t)2 << 20)

/* Maps the rest of a regular file, or leaves in->map NULL so that read()
 * takes over (pipes, sockets, an fd that cannot seek or map, an empty
 * rest, a file larger than the address space). A file truncated by
 * another process while mapped would raise SIGBUS; eventlog writers only
 * ever append. */
static void try_map(hs_input *in)
{
    struct stat st;
    if (fstat(in->fd, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    off_t off = lseek(in->fd, 0, SEEK_CUR);
    if (off < 0 || st.st_size <= off)
        return;
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0)
        return;
    off_t base = off - off % page;
    uint64_t len = (uint64_t)(st.st_size - base);
    if (len > SIZE_MAX)
        return;
    void *m = mmap(NULL, (size_t)len, PROT_READ, MAP_PRIVATE, in->fd, base);
    if (m == MAP_FAILED)
        return;
    (void)madvise(m, (size_t)len, MADV_SEQUENTIAL);
    in->map = m;
    in->map_len = (size_t)len;
    in->map_skip = in->map_pos = in->map_dropped = (size_t)(off - base);
    in->map_end = (uint64_t)st.st_size;
}

int hs_input_open(hs_input *in, int fd, const hs_allocator *alloc,
                  unsigned flags)
{
    memset(in, 0, sizeof *in);
    in->fd = fd;
    in->alloc = alloc;
    in->flags = flags;
    if (!(flags & HS_INPUT_NO_MMAP))
        try_map(in);
    return HS_OK;
}

/* Gives the mapped pages before the current window back to the kernel;
 * they were handed out and used up by the caller's previous chunk. */
static void drop_behind(hs_input *in)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t upto = page > 0 ? in->map_pos - in->map_pos % (size_t)page : 0;
    if (upto > in->map_dropped) {
        (void)madvise(in->map + in->map_dropped, upto - in->map_dropped,
                      MADV_DONTNEED);
        in->map_dropped = upto;
    }
}

/* The mapping is used up: unmap it and continue with read() just after
 * it, which picks up whatever was appended since it was made. */
static void unmap(hs_input *in)
{
    munmap(in->map, in->map_len);
    in->map = NULL;
    if (lseek(in->fd, (off_t)in->map_end, SEEK_SET) < 0)
        in->eof = true;
}

/* One read() into buf after the peeked bytes, EINTR retried. */
static int read_more(hs_input *in)
{
    if (!in->buf) {
        in->buf = hs_malloc(in->alloc, READ_BLOCK);
        if (!in->buf)
            return HS_ERR_NOMEM;
        in->buf_cap = READ_BLOCK;
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
    if (in->map && in->map_pos == in->map_len)
        unmap(in);
    if (in->map) {
        drop_behind(in);
        size_t n = in->map_len - in->map_pos;
        if (n > MAP_WINDOW)
            n = MAP_WINDOW;
        *data = in->map + in->map_pos;
        *len = n;
        in->map_pos += n;
        in->offset += n;
        return HS_OK;
    }
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
    if (in->map && in->map_pos < in->map_len) {
        *data = in->map + in->map_pos;
        *len = in->map_len - in->map_pos;
        return HS_OK;
    }
    if (in->map)
        unmap(in);
    if (n > (1u << 16))
        n = 1u << 16;
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
    if (in->map)
        munmap(in->map, in->map_len);
    hs_free(in->alloc, in->buf);
    in->map = NULL;
    in->buf = NULL;
    in->buf_len = 0;
}
