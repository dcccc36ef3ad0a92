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
 * (user) in file order as one pass would and noting every event in *t
 * (zeroed, max_cap -1), up to the last events after every block of the
 * lent thread's, or up to where the lanes cannot read as one pass.
 * Returns false when the one pass is to go on from there, with r, s, *t
 * and fd's position where it goes on (maybe the start: no lanes); or
 * true with the pass's return in *st when fn stopped it, or s failed.
 */
bool hs__lanes_summary(hs_summary *s, hs_reader *r, int fd,
                       const hs_thread_loan *loan, hs_event_fn fn,
                       void *user, hs__tally *t, int *st);

#endif
