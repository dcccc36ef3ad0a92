/*
 * The summary fed in bulk, for the library's one pass over the events
 * (load/load_eventlog.c): the events it does not read are counted there
 * and handed over at once. Internal to the library.
 */
#ifndef HEAPSCOPE_SUMMARY_BULK_H
#define HEAPSCOPE_SUMMARY_BULK_H

#include "heapscope/summary.h"

/* The count and the end of the run of `events` events, `timed` of them
 * not block markers, the latest of whose times is max_time: what
 * hs_summary_add_event() notes of every event, and all it does with one
 * outside hs_summary_event_tags(). */
void hs__summary_skipped(hs_summary *s, uint64_t events, uint64_t timed,
                         uint64_t max_time);

/* hs_summary_add_event() of an event that is no block marker, but for its
 * count and time, which the caller hands over with hs__summary_skipped():
 * the one pass's way, which notes those of every event anyway. */
int hs__summary_add_counted(hs_summary *s, const hs_event *ev);

/* The same for the events a read loop noted in t (read/read_eventlog.h),
 * `given` of which went to hs_summary_add_event() (none a block marker). */
struct hs__tally;
void hs__summary_tally(hs_summary *s, const struct hs__tally *t,
                       uint64_t given);

#endif
