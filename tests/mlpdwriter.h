/*
 * A tiny .mlpd writer for constructed files (test_mlpd_built.c,
 * test_mlpd_fast.c): a file's bytes in one fixed array.
 */
#ifndef HEAPSCOPE_TEST_MLPDWRITER_H
#define HEAPSCOPE_TEST_MLPDWRITER_H

#include <stddef.h>
#include <stdint.h>

struct wr { uint8_t b[32768]; size_t n; };

void w_bytes(struct wr *w, const void *p, size_t n);
/* v in `size` bytes, little-endian. */
void w_u(struct wr *w, uint64_t v, unsigned size);
void w_uleb(struct wr *w, uint64_t v);
void w_sleb(struct wr *w, int64_t v);
/* The file header: format 3.0, data version 17, pointers of ptr_size. */
void w_header(struct wr *w, uint8_t ptr_size);
/* A buffer of thread 7 from `time` holding p[0 .. n). */
void w_buffer_at(struct wr *w, uint64_t ptr_base, uint64_t time,
                 const uint8_t *p, size_t n);

#endif
