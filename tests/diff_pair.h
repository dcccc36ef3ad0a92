/*
 * The diff tests' helpers (diff_pair.c).
 */
#ifndef HEAPSCOPE_TEST_DIFF_PAIR_H
#define HEAPSCOPE_TEST_DIFF_PAIR_H

#include <heapscope/heapscope.h>

#include "evwriter.h"

#include <stddef.h>
#include <stdint.h>

/* The census of a hand-built log, every event added with HS_OK. */
hs_census *diff_census_of(const evw *w);
/* samples/NAME loaded, or NULL when samples/ is not there. */
hs_census *sample(const char *name);
/* One -hd sample at t seconds: n (label, bytes) pairs. */
void hd_sample(evw *w, uint64_t t_s, size_t n, const char *const *l,
               const uint64_t *b);
/*
 * before (which 0), samples at 1, 2, 3 s:
 *   <Main.sat_s1Ab> 100 200 300, <Main.sat_s2Cd> 10 10 10, gone_band 5 5 -
 * after (which 1):
 *   <Main.sat_s9Zz> 50 50 50, fresh 7 7 7
 */
hs_census *constructed(int which, uint32_t breakdown);
/* The samples' two phases runs (lazy before, strict after) and their
 * diff, or NULL when samples/ is not there. */
hs_diff *phases_pair(hs_census *c[2]);
/* The band named `name`, or NULL. */
const hs_diff_band *find_band(const hs_diff *d, const char *name);
/* The diff as text (kind 0), JSON (1) or folded (2). */
char *render_text(const hs_diff *d, int kind);

#endif
