/*
 * Band figures over a window of a census's samples: the one rule the
 * census's callers, the diff and (through the page data) the page use.
 * Internal: the diff sums bands that match by name with it.
 */
#ifndef HEAPSCOPE_CENSUS_STATS_H
#define HEAPSCOPE_CENSUS_STATS_H

#include "heapscope/census.h"

#include <stdbool.h>

/*
 * What hs__census_window_stats() computes. Its figures follow the rule
 * hs_census_band_stats() documents, over the samples at times within
 * [from_ns, to_ns] (both ends included) alone:
 *   - the bands are summed sample by sample into groups (group_of_band[b]
 *     is band b's group, below ngroups; NULL: each band its own group), a
 *     group's bytes saturating at UINT64_MAX;
 *   - peak: the largest sum; its time, the first window sample with it (a
 *     group never above 0 peaks at the window's first sample);
 *   - byte-seconds: the trapezoid rule between the window's consecutive
 *     samples, written as a weighted sum: sample i weighs half the time
 *     between its neighbours in the window, the first and the last half
 *     their one interval, a window of one sample one second;
 *   - mean and standard deviation over the window's samples, a group
 *     absent from a sample counting as 0 there;
 *   - on request, the least-squares slope and the last sample's bytes
 *     (hs_census_band_growth's figures).
 */
typedef struct hs_window_stats {
    uint64_t from_ns, to_ns;
    const uint32_t *group_of_band; /* NULL: one group per band */
    size_t ngroups;                /* with group_of_band */
    hs_band_stats *out;            /* [groups]: each group's figures */
    bool *present;                 /* NULL, or [groups]: true when the
                                      group has an entry in a window
                                      sample */
    hs_band_stats *total;          /* NULL, or all the bands together */
    size_t samples;                /* set: how many samples the window has */
    double *slope;                 /* NULL, or [groups]: the slope of the
                                      least-squares line through the
                                      group's bytes at the window's samples
                                      (absent: 0), in bytes per second; 0
                                      for fewer than two samples or less
                                      than half a byte over the window */
    uint64_t *last;                /* NULL, or [groups]: the bytes at the
                                      window's last sample */
} hs_window_stats;

/* Fills w's outputs. HS_OK, or HS_ERR_NOMEM. */
int hs__census_window_stats(const hs_census *c, hs_window_stats *w);

#endif
