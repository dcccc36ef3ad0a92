/*
 * The summary's pass in two lanes (load_lanes.c), for load_eventlog.c.
 * Internal to the library.
 */
#ifndef HEAPSCOPE_LOAD_LANES_H
#define HEAPSCOPE_LOAD_LANES_H

#include "heapscope/load.h"
#include "read/read_eventlog.h"

/* Where the events of a tag go (load_eventlog.c's table). */
enum { HS__TO_CENSUS = 1, HS__TO_SUMMARY = 2 };

/* A pass in two lanes: the summary s (fresh; NULL for a census's pass
 * alone) and the events of `to` (256 entries), lane 0's own handed to fn
 * and those lane 1 keeps to kept_fn (the summary's capability events of
 * lane 1's blocks went to lane 1's summary, merged into s; without s,
 * lane 1 keeps every event its reader decodes); the log on fd from byte
 * base, in a thread of loan's (taken by the public call: its fields
 * whole). */
typedef struct hs__lanes_req {
    hs_summary *s;
    const uint8_t *to;
    hs_event_fn fn, kept_fn;
    void *user;
    int fd;
    uint64_t base;
    const hs_thread_loan *loan;
} hs__lanes_req;

/* What hs__lanes_read() did. */
enum {
    HS__LANES_NONE,   /* nothing: one pass reads from where it stands */
    HS__LANES_ON,     /* one pass goes on from fd's position */
    HS__LANES_STOPPED /* fn or s stopped the pass: its return in *st */
};

/*
 * Reads the eventlog of q (r new) in two lanes, the lent thread's and
 * the calling one's, handing the events on in file order as one pass
 * would and noting every event in *t (zeroed, max_cap -1), up to the
 * last events after every block of the lent thread's, or up to where
 * the lanes cannot read as one pass; r, s, *t and fd's position are left
 * where one pass goes on. Returns HS__LANES_*.
 */
int hs__lanes_read(const hs__lanes_req *q, hs_reader *r, hs__tally *t,
                   int *st);

#endif
