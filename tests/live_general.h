/*
 * The live state's general path (live_general.c), shared by
 * tests/live_paths.c and the fuzz target fuzz_live: the reader's events
 * one by one through hs_census_add_event() and hs_summary_add_event(),
 * from a reader decoding the tags they read, to compare with hs_live's
 * one pass (live/live_state.c).
 */
#ifndef HEAPSCOPE_TEST_LIVE_GENERAL_H
#define HEAPSCOPE_TEST_LIVE_GENERAL_H

#include <heapscope/heapscope.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct live_general {
    hs_reader *r;
    hs_census *c;
    hs_summary *s;
    int status;
} live_general;

/* name_limit < 0: none set (else as hs_live_set_name_limit()). False when
 * out of memory. */
bool live_general_init(live_general *g, long name_limit);
void live_general_free(live_general *g);
/* Feeds the bytes; HS_OK, HS_DONE or an error, as hs_live_feed(). */
int live_general_feed(live_general *g, const uint8_t *data, size_t len);
/* hs_live_finish()'s steps on the general path's objects: its status, and
 * in *err the record of the error or truncation it reports. */
int live_general_finish(live_general *g, const hs_error **err);
/* What either path shows after a chunk: events, end of the run,
 * capabilities, source and samples. */
bool live_general_same_state(const live_general *g, hs_live *l);

#endif
