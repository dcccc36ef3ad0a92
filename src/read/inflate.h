/*
 * A gzip stream inflated piecewise, one member after another, behind one
 * interface with two engines: Intel's ISA-L (about twice zlib's speed on
 * Mono's files) where the build found it, zlib otherwise. The .mlpd reader
 * is its only user; what it needs is here and nothing more.
 */
#ifndef HS_READ_INFLATE_H
#define HS_READ_INFLATE_H

#include "common/internal.h"

#include <stddef.h>
#include <stdint.h>

typedef struct hs_inflater hs_inflater;

enum {
    HS_INF_OK,      /* progress, or none possible without more input */
    HS_INF_END,     /* the member's trailer was read and checked */
    HS_INF_CORRUPT, /* the stream is not gzip, or its data is corrupt */
    HS_INF_NOMEM
};

/* NULL when out of memory. */
hs_inflater *hs__inflater_new(const hs_allocator *alloc);
void hs__inflater_free(hs_inflater *z);

/* Ready for the next member of a concatenated stream; false when out of
 * memory. */
bool hs__inflater_next_member(hs_inflater *z);

/*
 * Inflates from in[0..in_len) into out[0..out_cap); *in_used and *out_got
 * say how much of each it took and gave (output before a corruption is
 * given, then HS_INF_CORRUPT with *msg set). A full output may leave more
 * waiting: call again with room.
 */
int hs__inflater_run(hs_inflater *z, const uint8_t *in, size_t in_len,
                     size_t *in_used, uint8_t *out, size_t out_cap,
                     size_t *out_got, const char **msg);

/* Compressed bytes taken so far, over all members. */
uint64_t hs__inflater_total_in(const hs_inflater *z);

/* "isa-l" or "zlib": the engine this build uses. */
const char *hs__inflater_engine(void);

#endif
