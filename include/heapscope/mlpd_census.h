/*
 * heapscope/mlpd_census.h: Mono log-profiler files (.mlpd, mlpd.h) in a
 * census: the options of loading one, its allocation profile and its GC
 * figures.
 *
 * hs_census_load_fd() tells an .mlpd (plain or gzip) apart by content and
 * builds the census from it: each heap shot is a sample at its
 * HEAP_START's time (ns since the first buffer of the file, as
 * mprof-report counts), one band per class with bytes and object counts
 * (hs_census_sample_counts); heap-object continuation records (size 0) are
 * not objects. Objects are keyed by vtable and named once the whole file
 * is read, so a vtable described after its first use (other threads'
 * buffers) is named correctly, where mprof-report says "unresolved class".
 * GC_RESIZE events make the HS_LINE_HEAP_SIZE line and shot totals the
 * HS_LINE_HEAP_LIVE line. Allocations make the allocation profile below.
 */
#ifndef HEAPSCOPE_MLPD_CENSUS_H
#define HEAPSCOPE_MLPD_CENSUS_H

#include "common.h"
#include "census.h"
#include "mlpd.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How bands group objects. */
typedef enum hs_mlpd_group {
    HS_MLPD_BY_CLASS = 0,     /* the class's full name (default) */
    HS_MLPD_BY_NAMESPACE = 1, /* the name up to its last '.' outside <> */
    HS_MLPD_BY_ASSEMBLY = 2   /* the assembly's name (before its first ',') */
} hs_mlpd_group;

/* What the census's samples are. */
typedef enum hs_mlpd_samples {
    HS_MLPD_SAMPLES_HEAP = 0,  /* heap shots (default) */
    HS_MLPD_SAMPLES_ALLOC = 1  /* bytes allocated per interval, per band */
} hs_mlpd_samples;

/*
 * Options for loading an .mlpd into c; set before hs_census_load_fd().
 * interval_ns is the width of an allocation sample (0: 10 ms; widened
 * to a multiple of it when the run would need more than 131,072). Returns
 * HS_OK, HS_ERR_INVALID for a bad value or HS_ERR_NOMEM.
 */
HS_API int hs_census_set_mlpd_options(hs_census *c, hs_mlpd_group by,
                                      hs_mlpd_samples samples,
                                      uint64_t interval_ns);

/* Number of allocation sites (distinct band and backtrace) of an .mlpd
 * census; 0 for other censuses or a file without ALLOC events. */
HS_API size_t hs_census_alloc_site_count(const hs_census *c);

/*
 * Allocation site i: returns the band name (class, namespace or assembly)
 * and sets *frames to the backtrace's method names, outermost first
 * (*nframes of them, 0 when the file had no backtrace), *bytes and *count
 * to what was allocated there. Strings are owned by the census. Sites are
 * ordered by bytes, largest first. NULL when i is out of range.
 */
HS_API const char *hs_census_alloc_site(const hs_census *c, size_t i,
                                        const char *const **frames,
                                        size_t *nframes, uint64_t *bytes,
                                        uint64_t *count);

/* hs_mlpd_gc_stats, the figures, is declared in mlpd.h. */

/* The figures, or NULL when c was not loaded from an .mlpd. */
HS_API const hs_mlpd_gc_stats *hs_census_mlpd_stats(const hs_census *c);

/*
 * hs_census_load_fd() for an input whose first n bytes were already read
 * from fd into prefix (a pipe that cannot be re-read): an .mlpd, plain or
 * gzip. Returns as hs_census_load_fd().
 */
HS_API int hs_census_load_mlpd_fd(hs_census *c, int fd, const void *prefix,
                                  size_t n, hs_error *err);

#ifdef __cplusplus
}
#endif

#endif
