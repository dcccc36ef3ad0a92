/*
 * The reader tests' runs (reader_run.c): a log decoded in chunks, its
 * events kept as numbers (tag, capability, time, offset, index, a hash of
 * the fields).
 */
#ifndef HEAPSCOPE_TEST_READER_RUN_H
#define HEAPSCOPE_TEST_READER_RUN_H

#include <heapscope/heapscope.h>

#include "evwriter.h"
#include "evhash.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a test keeps of one event. */
typedef struct rec {
    uint16_t tag;
    int32_t cap;
    uint64_t time, offset, index, hash;
} rec;

typedef struct run {
    rec *ev;
    size_t n, cap;
    int status;      /* of hs_reader_finish, or the error */
    hs_error err;
    uint64_t end_offset; /* hs_reader_offset at the end */
} run;

void run_free(run *r);
void run_add(run *r, const hs_event *ev);

/*
 * Decodes data[0..len) fed in chunks of `chunk` bytes (0 = all at once),
 * then finishes. Returns the events and the final status.
 */
run decode_chunked(const uint8_t *data, size_t len, size_t chunk,
                   bool decode);

/* The first differing event index, or SIZE_MAX when a and b agree. */
size_t first_difference(const run *a, const run *b);

/* decode_chunked(data, len, 0, true). */
run decode_all(const uint8_t *data, size_t len);

/* Decodes a hand-built log and expects exactly status `code` with the
 * error at `offset` / `index`. */
void expect_error(const evw *w, int code, uint64_t offset,
                  uint64_t index, size_t events_before);

#endif
