/*
 * What reading a .mlpd from a descriptor gives, event by event
 * (hs_mlpd_read_fd()) or by counting (hs_mlpd_read_fd_count()), for
 * test_mlpd_count.c and the fuzz target fuzz_mlpd (mlpd_counted.c).
 */
#ifndef HEAPSCOPE_TEST_MLPD_COUNTED_H
#define HEAPSCOPE_TEST_MLPD_COUNTED_H

#include <heapscope/heapscope.h>

#include <stdbool.h>
#include <stdint.h>

typedef struct mlpd_counted {
    uint64_t counts[256]; /* events per event byte */
    int st;
    hs_error err;
    uint64_t skipped, offset, buffers;
    char warning[256];
} mlpd_counted;

/* Reads fd to its end, by counting (walker) or event by event. */
void mlpd_counted_read(int fd, bool walker, mlpd_counted *o);
/* The same counts, status, error (code, message, offset, event index),
 * skipped buffers and their warning, offset and buffers read. */
bool mlpd_counted_same(const mlpd_counted *a, const mlpd_counted *b);

#endif
