/*
 * The live suite's comparison of the live state's one pass with the
 * general path, event by event (live_paths.c).
 */
#ifndef HEAPSCOPE_TEST_LIVE_PATHS_H
#define HEAPSCOPE_TEST_LIVE_PATHS_H

#include <heapscope/heapscope.h>

/* The census as long CSV, the summary as JSON (test_live.c; free them). */
char *render_csv(const hs_census *c);
char *render_summary(const hs_summary *sm);

void test_live_paths_samples(void);
void test_live_paths_cuts(void);
void test_live_paths_corrupt(void);

#endif
