/*
 * One way to read an input file descriptor, for every reader of the
 * library: a pull of chunks, each valid until the next pull.
 *
 * Files, pipes, sockets, FIFOs and terminals alike are read with read()
 * (EINTR retried) into one buffer of 128 KiB, so memory stays bounded
 * whatever the input's size. Regular files are not mapped: walking a
 * mapping page by page decoded at less than half the speed of a buffer
 * that stays in the cache (see input.c).
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

typedef struct hs_input {
    int fd;
    const hs_allocator *alloc;
    uint8_t *block;         /* the allocation; buf is its first 64-byte line */
    uint8_t *buf;
    size_t buf_cap, buf_len; /* buf_len: peeked bytes not yet handed out */
    bool eof;
    uint64_t offset;        /* bytes handed out so far */
    int err_no;             /* errno of a failed read(), else 0 */
} hs_input;

/*
 * Prepares to read fd from its current position. Nothing is read or
 * allocated yet, so it cannot fail: the buffer comes with the first pull.
 */
void hs_input_open(hs_input *in, int fd, const hs_allocator *alloc);

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

/* Forgets the bytes read and not handed out (a peek's): the next pull
 * reads on from where the fd stands, which its caller has moved. */
void hs_input_drop(hs_input *in);

/* Frees the buffer; the fd stays open. Harmless twice. */
void hs_input_close(hs_input *in);

#endif
