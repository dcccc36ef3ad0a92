/*
 * The summary's pass in two lanes (hs_summary_load_fd_lent) against the
 * one pass (hs_summary_load_fd), for test_onepass.c.
 */
#ifndef HEAPSCOPE_TEST_LANES_CHECK_H
#define HEAPSCOPE_TEST_LANES_CHECK_H

#include "lanes_same.h" /* onepass_text, _join, _csv */

#include <heapscope/heapscope.h>

#include <stdbool.h>

/* The log file at path read both ways, everything compared: the return,
 * the reader's error, offset and warning, the summary's error and JSON
 * (with window w when not NULL). Returns how many times the lanes' pass
 * started its second thread (0: the log was read in one pass). */
int lanes_compare(const char *path, const hs_summary_window *w);

/* The same for hs_census_load_summary_fd() against
 * hs_census_load_summary_fd_lent(): the return and error, the census's
 * figures, heap lines, markers, messages, warnings and CSV, and the
 * summary's JSON. */
int lanes_census_compare(const char *path);

/* A -N3 log made with tests/evwriter.c, read both ways whole (with its
 * figures in each capability in turn, and windowed), with a corrupt
 * event at every event of one of lane 1's blocks, block sizes off an
 * event's end, and cut at every byte of its last two blocks; the
 * census's pass whole, with the undeclared tags in lane 1's block and
 * cut at every byte of the last block. */
void test_lanes_built(void);

#endif
