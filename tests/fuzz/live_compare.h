/*
 * fuzz_live's comparison of the live state's one pass with the general
 * path (../live_general.h), after every piece fed and at the end.
 */
#ifndef HEAPSCOPE_FUZZ_LIVE_COMPARE_H
#define HEAPSCOPE_FUZZ_LIVE_COMPARE_H

#include "../live_general.h"

/* Feeds the general path what hs_live_feed() just took (its status
 * live_st) and checks the two agree; nothing when g was not set up. */
void live_compare_feed(live_general *g, hs_live *l, int live_st,
                       const uint8_t *data, size_t len);
/* At the end (hs_live_finish() gave fin): the same status, error offset
 * and message, state, summary's event count and CSV. */
void live_compare_finish(live_general *g, hs_live *l, int fin);

#endif
