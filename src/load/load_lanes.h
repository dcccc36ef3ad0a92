/*
 * The summary's pass in two lanes (load_lanes.c), for load_eventlog.c.
 * Internal to the library.
 */
#ifndef HEAPSCOPE_LOAD_LANES_H
#define HEAPSCOPE_LOAD_LANES_H

#include "heapscope/load.h"
#include "read/read_eventlog.h"

/*
 * Reads the eventlog on fd (r new, s fresh) in two lanes, the lent
 * thread's and the calling one's, handing the summary's events to fn
 * (user) as one pass would and noting every event in *t (zeroed, max_cap
 * -1). Returns true with the pass's return in *st, or false when the
 * pass is to be made in one lane: r, s, *t and fd's position are then
 * where that pass goes on from (r's header maybe read).
 */
bool hs__lanes_summary(hs_summary *s, hs_reader *r, int fd,
                       const hs_thread_loan *loan, hs_event_fn fn,
                       void *user, hs__tally *t, int *st);

#endif
