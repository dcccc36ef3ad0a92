/*
 * The live state's general path for fuzz_live.c (live_general.c): the
 * reader's events one by one into a census and a summary, as
 * tests/live_paths.c has it, to compare with hs_live's one pass.
 */
#ifndef HEAPSCOPE_FUZZ_LIVE_GENERAL_H
#define HEAPSCOPE_FUZZ_LIVE_GENERAL_H

#include <heapscope/heapscope.h>

#include <stddef.h>
#include <stdint.h>

typedef struct live_general {
    hs_reader *r;
    hs_census *c;
    hs_summary *s;
    int status;
} live_general;

/* name_limit < 0: none set. */
void live_general_init(live_general *g, long name_limit);
void live_general_free(live_general *g);
/* Feeds both paths what hs_live_feed() just took (status live_st) and
 * checks they agree on status, events, end time, capabilities, samples. */
void live_general_feed(live_general *g, hs_live *l, int live_st,
                       const uint8_t *data, size_t len);
/* At the end (hs_live_finish() gave fin): the same status, error offset
 * and message, census and summary figures. */
void live_general_finish(live_general *g, hs_live *l, int fin);

#endif
