/*
 * The one pass over an eventlog's events (load_eventlog.c), for load.c.
 * Internal to the library.
 */
#ifndef HEAPSCOPE_LOAD_EVENTLOG_H
#define HEAPSCOPE_LOAD_EVENTLOG_H

#include "heapscope/census.h"
#include "heapscope/load.h"
#include "heapscope/summary.h"
#include "read/input.h"

/* The eventlog `in` into the empty census c and, when s is not NULL, the
 * summary s in the same pass (in two lanes with a thread of loan's, which
 * may be NULL); c finished, s not. Returns as hs_census_load_fd() does; a
 * failure of s ends the load with its error in *err. */
int hs__load_eventlog(hs_census *c, hs_summary *s, hs_input *in,
                      const hs_thread_loan *loan, hs_error *err);

/* Sets r to decode only the tags the census (when `census`) and the
 * summary (when `summary`) read: what a caller that hands every event to
 * them one by one (the live state) needs decoded. */
void hs__load_decode_for(hs_reader *r, bool census, bool summary);

#endif
