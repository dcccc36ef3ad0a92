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

#endif
