/*
 * One way to read an input file descriptor, for every reader of the
 * library: a pull of chunks, each valid until the next pull.
 *
 * A regular file is mapped (mmap with MADV_SEQUENTIAL) from the fd's
 * current position and handed out in windows without a copy; a window
 * the caller has moved past is dropped from the process's resident set
 * (MADV_DONTNEED: the pages stay in the page cache), so memory stays
 * bounded whatever the file's size. Bytes appended after the mapping was
 * made are then read with read(). Pipes, sockets, FIFOs, terminals and
 * anything that cannot be mapped are read with read() (EINTR retried)
 * into one buffer.
 *
 * The fd belongs to the caller and is never closed. A pull blocks until
 * some bytes or the end arrive and returns what one read() gave, so a
 * live caller (a socket, a growing pipe) gets data as soon as it exists.
 * Internal to the library.
 */
#ifndef HEAPSCOPE_READ_INPUT_H
#define HEAPSCOPE_READ_INPUT_H

#include "heapscope/common.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Do not map: read() even a regular file (for tests of both paths). */
#define HS_INPUT_NO_MMAP 1u

typedef struct hs_input {
    int fd;
    const hs_allocator *alloc;
    unsigned flags;
    /* the mapping: map[0 .. map_len), of which the file's bytes start at
     * map_skip (mmap offsets are page-aligned) and map_pos is handed out */
    uint8_t *map;
    size_t map_len, map_skip, map_pos, map_dropped;
    uint64_t map_end;       /* file offset just after the mapping */
    /* the read() path */
    uint8_t *buf;
    size_t buf_cap, buf_len; /* buf_len: peeked bytes not yet handed out */
    bool eof;
    uint64_t offset;        /* bytes handed out so far */
    int err_no;             /* errno of a failed read(), else 0 */
} hs_input;

/*
 * Prepares to read fd from its current position (flags: HS_INPUT_*).
 * Returns HS_OK, or HS_ERR_NOMEM. Nothing is read yet.
 */
int hs_input_open(hs_input *in, int fd, const hs_allocator *alloc,
                  unsigned flags);

/*
 * The next chunk in *data / *len, valid until the next hs_input_next(),
 * hs_input_peek() or hs_input_close(). Returns HS_OK (len > 0), HS_DONE at
 * the end of the input, HS_ERR_IO (errno kept in in->err_no and errno) or
 * HS_ERR_NOMEM.
 */
int hs_input_next(hs_input *in, const uint8_t **data, size_t *len);

/*
 * Makes the first n bytes of what hs_input_next() will return next
 * available in *data / *len without handing them out (len < n only when
 * the input ends first), so a caller can sniff a format on a pipe. n is at
 * most 64 KiB. Same returns as hs_input_next(), with HS_OK when len == 0
 * at the end.
 */
int hs_input_peek(hs_input *in, size_t n, const uint8_t **data,
                  size_t *len);

/* Unmaps and frees; the fd stays open. Harmless twice. */
void hs_input_close(hs_input *in);

#endif
