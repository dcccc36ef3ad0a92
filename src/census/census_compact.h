/*
 * Bounding a census that grows for as long as a program runs: old samples
 * merged into coarser buckets (census_compact.c). Internal: src/live/
 * calls it between samples.
 */
#ifndef HEAPSCOPE_CENSUS_COMPACT_H
#define HEAPSCOPE_CENSUS_COMPACT_H

#include "heapscope/census.h"

/* Where a compacted census stands; zeroed before the first call. */
typedef struct hs_census_compaction {
    size_t buckets;     /* the first `buckets` samples are merged buckets */
    size_t width;       /* samples per bucket (a power of two) */
    size_t partial;     /* samples in the last bucket while it is short of
                           width, else 0 */
    uint64_t until_ns;  /* time of the first sample not in a bucket */
} hs_census_compaction;

/*
 * Bounds a census that grows for as long as a program runs. The latest
 * keep_recent samples stay as they are; older ones are merged into
 * buckets of equal width, the last one possibly still filling (a bucket
 * has the time of its first sample and each band's maximum over its
 * samples, what a chart of the heap needs: a peak is never lost; its
 * total is the sum of those maxima), and when the buckets outnumber
 * (max_samples - keep_recent) / 2 neighbours merge into buckets twice as
 * wide. So after a call the census holds at most max_samples samples,
 * the run's whole span at one even resolution plus the recent past at
 * full. Heap-line points are merged with the samples of their time. A
 * census whose samples went back in time (a corrupt stream) is merged in
 * the order its samples came, its heap lines left whole. Call only
 * between samples (none open), on an unfinished census; otherwise it
 * does nothing. Returns HS_OK.
 */
int hs__census_compact(hs_census *c, hs_census_compaction *st,
                       size_t max_samples, size_t keep_recent);

/*
 * hs__census_compact() just before a SAMPLE_BEGIN (or a biographical
 * one) is added: the sample before it is complete then even when the log
 * never closes one (GHC 8.2/8.4 write no SAMPLE_END), and the BEGIN opens
 * the next at once.
 */
int hs__census_compact_at_begin(hs_census *c, hs_census_compaction *st,
                                size_t max_samples, size_t keep_recent);

/*
 * After hs_census_finish() of a truncated stream: appends the census's
 * "last heap sample was cut" warning to the reader's truncation warning
 * *err, as hs_census_load_fd() does, so watch and the batch commands say
 * the same.
 */
void hs__census_live_fold_cut(hs_census *c, hs_error *err);

/*
 * Bounds the time profile's samples as hs__census_compact() bounds the
 * heap's: those before until_ns (or an earlier call's horizon, if later)
 * are merged into records of (time bucket, stack, capability) with their
 * ticks as weight, buckets a whole number of ticks wide from the run's
 * start and doubled in width while more than max_records remain (a
 * bucket is never wider than needed to get there; one record per
 * (stack, capability) is the floor). Totals per stack and capability
 * stay exact; a record's time is its bucket's start. The latest samples
 * stay as they came. Any time on an unfinished census. HS_OK or
 * HS_ERR_NOMEM (the census's sticky error).
 */
int hs__census_tprof_merge(hs_census *c, uint64_t until_ns,
                           size_t max_records);

/* The time-profile records not merged yet, and the horizon before which
 * they are (0: none merged). */
size_t hs__census_tprof_raw_count(const hs_census *c);
uint64_t hs__census_tprof_merged_until(const hs_census *c);

/* The number of entries (band values) the census holds, all samples
 * together: what its memory grows with. */
size_t hs__census_entry_count(const hs_census *c);

#endif
