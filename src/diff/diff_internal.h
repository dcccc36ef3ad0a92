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

/* Whether band names of census c lose a "(123)" cost-centre id prefix
 * when matched (a runtime -hc .hp), and that prefix's length in name[0,
 * len) (0: none). */
bool hs__diff_drops_ccs_id(const hs_census *c);

/* What both runs' samples are when they have no GHC breakdown (a Mono
 * file's "Mono heap shots, by class"), into buf (n bytes): buf when both
 * censuses say the same, else NULL. */
const char *hs__diff_label(const hs_diff *d, char *buf, size_t n);
size_t hs__diff_ccs_id_len(const char *name, size_t len);

#endif
