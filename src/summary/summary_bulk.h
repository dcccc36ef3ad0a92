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

/*
 * The pass in two lanes (summary_lanes.c). The six tags below go to a
 * capability's state (summary_event.c); a second summary made by
 * hs__summary_lane() takes those of the capabilities the second lane
 * reads, and hs__summary_merge() moves them into s: HS_OK, or
 * HS_ERR_NOMEM or HS_ERR_MISUSE (a capability in both) recorded in s. hs__summary_fresh() says s has had no event and no
 * failure. Before each of its blocks the second lane saves its summary
 * as it is (hs__summary_save(), cap the block's capability), so that
 * hs__summary_restore() can take it back to before the first of n
 * blocks it read on (snaps: their saves, in order).
 */
static inline bool hs__summary_cap_tag(uint16_t tag)
{
    switch (tag) {
    case HS_EV_GC_START: case HS_EV_GC_END: case HS_EV_GC_STATS_GHC:
    case HS_EV_HEAP_SIZE: case HS_EV_HEAP_ALLOCATED:
    case HS_EV_SPARK_COUNTERS:
        return true;
    default:
        return false;
    }
}
typedef struct hs__summary_snap hs__summary_snap;
bool hs__summary_fresh(const hs_summary *s);
/* The allocator s was made with (NULL: the C library's). */
const hs_allocator *hs__summary_alloc(const hs_summary *s);
hs_summary *hs__summary_lane(const hs_summary *s);
int hs__summary_merge(hs_summary *s, hs_summary *lane);
hs__summary_snap *hs__summary_snap_new(const hs_summary *lane);
void hs__summary_snap_free(const hs_summary *lane, hs__summary_snap *snap);
int hs__summary_save(const hs_summary *lane, int32_t cap,
                     hs__summary_snap *snap);
void hs__summary_restore(hs_summary *lane, hs__summary_snap *const *snaps,
                         size_t n);
/* Records msg as s's HS_ERR_INVALID error and returns that code. */
int hs__summary_invalid(hs_summary *s, const char *msg);

#endif
