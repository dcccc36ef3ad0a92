/*
 * What the diff's renderers share; not part of the public surface.
 */
#ifndef HEAPSCOPE_DIFF_INTERNAL_H
#define HEAPSCOPE_DIFF_INTERNAL_H

#include "heapscope/diff.h"

/* Returns from the enclosing function on the first failed write. */
#define TRY(x)                                                              \
    do {                                                                    \
        int try_st_ = (x);                                                  \
        if (try_st_ != HS_OK)                                               \
            return try_st_;                                                 \
    } while (0)

/*
 * The index (for hs_diff_band_at) of the diff band that band `census_band`
 * of run `which`'s census is summed into, or SIZE_MAX when that band is in
 * neither window. How the chart draws a diff's bands with one look in
 * both runs, whatever their census names.
 */
size_t hs__diff_band_of(const hs_diff *d, int which, size_t census_band);

/* The allocator the diff was made with (NULL: the C library's). */
const hs_allocator *hs__diff_allocator(const hs_diff *d);

#endif
