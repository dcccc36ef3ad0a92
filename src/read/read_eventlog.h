/*
 * The eventlog reader's one read loop, for the library's own loaders:
 * hs_read_fd() on an input that is already open (the census peeks at it
 * first to tell an eventlog from a .hp). Internal to the library.
 */
#ifndef HEAPSCOPE_READ_READ_EVENTLOG_H
#define HEAPSCOPE_READ_READ_EVENTLOG_H

#include "heapscope/reader.h"
#include "read/input.h"

/* As hs_read_fd(), reading `in` from where it stands; `in` stays open. */
int hs__read_input(hs_reader *r, hs_input *in, hs_event_fn fn, void *user);

/*
 * What the read loop notes of every event, so that the events nobody
 * decodes cost no call: their number, the latest time and the highest
 * capability. Block markers are counted apart, their times too (a
 * marker's time is its block's start, which the summary does not take for
 * an event's), and last_tag is the tag of the latest event that is not a
 * block marker.
 */
typedef struct hs__tally {
    uint64_t events, markers;
    uint64_t max_time, marker_max_time;
    int32_t max_cap;         /* -1: none */
    uint16_t last_tag;
} hs__tally;

/*
 * As hs__read_input(), but only the events of tags the reader decodes go
 * to fn (decoded, or left raw when their layout is not the table's); every
 * event, those included, is noted in *t, which the caller zeroes (max_cap
 * -1) before the first call. fn must not ask r where it is: its position
 * is brought up to date once per run of events, not for each.
 */
int hs__read_input_tally(hs_reader *r, hs_input *in, hs_event_fn fn,
                         void *user, hs__tally *t);

/* What the framing returns, the marker not read, at a block marker
 * where a pass in two lanes planned none (read_lanes.h). */
#define HS__LANE_STOP 100

/* As hs__read_input_tally() on fd from where it stands, through an input
 * of r's allocator (hs_read_fd() with a tally). */
int hs__read_fd_tally(hs_reader *r, int fd, hs_event_fn fn, void *user,
                      hs__tally *t);

/*
 * The same for bytes fed as they come (the live state's): hands every
 * complete event of data (after what an earlier call staged) to fn as
 * hs__read_input_tally() does, and stages an event the chunk cuts.
 * Returns HS_NEED_INPUT when the chunk is used up, HS_DONE at the
 * data-end marker, an error (the reader holds it), or fn's non-zero
 * return, also in *stop (0 otherwise).
 */
int hs__reader_feed_tally(hs_reader *r, const void *data, size_t len,
                          hs_event_fn fn, void *user, hs__tally *t, int *stop);

#endif
