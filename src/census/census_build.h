/*
 * The census builder: what a reader other than the eventlog event stream
 * (the .hp parser and the Mono .mlpd reader, connected in src/load/)
 * calls to fill a census. Not part of the public surface.
 *
 * Order: hs__census_build_begin() once, then samples (begin, bytes per
 * named band, end), markers and the run's facts in any order, then the
 * public hs_census_finish(). Every call returns HS_OK or the census's
 * sticky error (HS_ERR_NOMEM, HS_ERR_MISUSE after finishing); the first
 * error is kept in hs_census_error().
 */
#ifndef HEAPSCOPE_CENSUS_BUILD_H
#define HEAPSCOPE_CENSUS_BUILD_H

#include "heapscope/census.h"
#include "heapscope/mlpd_census.h"

#include <stddef.h>
#include <stdint.h>

/* Names the input format (HS_SOURCE_*); call before anything else. */
int hs__census_build_begin(hs_census *c, hs_source_kind source);

/* Opens a sample at time_ns (ns since the program started). Samples may
 * come out of time order; hs_census_finish() sorts them (stably) and
 * warns that it did. An open sample is closed first. */
int hs__census_build_sample_begin(hs_census *c, uint64_t time_ns);

/* Room for n more samples: a builder that knows how many it will open
 * (the .mlpd allocation intervals, up to 131,072) grows the array once
 * instead of at every doubling. */
int hs__census_build_reserve(hs_census *c, size_t n);

/*
 * Adds bytes to the band named name[0 .. len) (any bytes; a band is its
 * exact name) in the open sample, opening one at time 0 when none is;
 * the same band twice in one sample is summed, saturating.
 */
int hs__census_build_bytes(hs_census *c, const char *name, size_t len,
                           uint64_t bytes);

/* Closes the open sample. */
int hs__census_build_sample_end(hs_census *c);

/* A user marker at time_ns with text[0 .. len) (copied). */
int hs__census_build_marker(hs_census *c, uint64_t time_ns,
                            const char *text, size_t len);

/* The run's facts a foreign format gives; NULL / 0 / false = unknown,
 * and unknown fields leave what is already set. Strings are copied. */
typedef struct hs_census_run {
    const char *program;     /* argv[0] or the program's name */
    const char *job;         /* the command line as the input wrote it */
    const char *date;        /* the start as the input wrote it */
    bool has_wall_clock;
    uint64_t wall_clock_sec; /* Unix time of the start */
    uint32_t wall_clock_nsec;
    uint32_t breakdown;      /* HS_BREAKDOWN_* */
    uint64_t sample_period_ns;
    uint64_t end_ns;         /* the run's end when the input says it */
} hs_census_run;

int hs__census_build_run(hs_census *c, const hs_census_run *run);

/* A warning about the input, one sentence (at most a few hundred are
 * kept, see hs_census_warning()). */
void hs__census_build_warn(hs_census *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* --- the eventlog loader's fast path (load/load.c) --------------------- */

/* hs_census_add_event for an event whose tag the census reads, without
 * the per-event bookkeeping: the caller reports every event, read or not,
 * to hs__census_skipped (their number, the latest time, the highest
 * capability). */
struct hs_event;
int hs__census_add_wanted(hs_census *c, const struct hs_event *ev);
void hs__census_skipped(hs_census *c, uint64_t events, uint64_t max_time,
                        int32_t max_cap);
/* The census's bookkeeping of every event a read loop noted in t
 * (read/read_eventlog.h), as hs_census_add_event() does it one by one:
 * their number, the end of the run, the capabilities and the latest
 * tag (whether the log stops inside a heap sample). */
struct hs__tally;
void hs__census_tally(hs_census *c, const struct hs__tally *t);

/* The same as the public hs_census_allocator (census.h), which new code
 * should call; kept for the chart renderer, which calls this name. */
struct hs_allocator;
const struct hs_allocator *hs__census_allocator(const struct hs_census *c);

/* --- census_counts.c: what the .mlpd loader adds to the builder ------- */

/* hs__census_build_bytes with a number of objects (hs_census_sample_counts). */
int hs__census_build_counted(hs_census *c, const char *name, size_t len,
                             uint64_t bytes, uint64_t count);
/* A point of a heap line at time_ns. */
int hs__census_build_line(hs_census *c, hs_heap_line line, uint64_t time_ns,
                          uint64_t bytes);
/* The run's facts hs_census_run has no field for (NULL, 0: unknown). */
int hs__census_build_facts(hs_census *c, const char *rts_identifier,
                           uint64_t events);

/* One allocation site of the allocation profile (hs_census_alloc_site). */
typedef struct hs_census_site {
    const char *band;
    const char **frames;     /* outermost first; NULL when nframes is 0 */
    size_t nframes;
    uint64_t bytes, count;
} hs_census_site;

/* The allocation profile: the census takes sites[0 .. n) (allocated with
 * its allocator, ordered as the getters give them) and frees it, and the
 * array it held before unless that is the same; the strings must live as
 * long as the census (in its extension's arena). */
void hs__census_build_sites(hs_census *c, hs_census_site *sites, size_t n);

/* The profile's label (hs_census_profile_label), copied (at most 95
 * bytes); replaces the one the breakdown gives. */
void hs__census_build_label(hs_census *c, const char *label);

/* The time profile of a foreign format (the .mlpd's CPU samples): a cost
 * centre named label alone (no module, no source location; the first
 * definition of an id stands), and one tick of the stack ids[0 .. depth),
 * innermost first, on capability 0, at time_ns; tick_ns sets the tick's
 * length when none is set yet. */
int hs__census_build_cost_centre(hs_census *c, uint32_t id,
                                 const char *label);
int hs__census_build_time_sample(hs_census *c, const uint32_t *ids,
                                 uint32_t depth, uint64_t tick_ns,
                                 uint64_t time_ns);

/* An .mlpd's GC figures (hs_census_mlpd_stats, once the census's source
 * is HS_SOURCE_MLPD); they stay where they are, in the extension. */
void hs__census_build_mlpd_stats(hs_census *c, const hs_mlpd_gc_stats *s);

/*
 * What a loader keeps with the census (the .mlpd loader: its options, its
 * names, its figures): the census holds ext and frees it with free_fn when
 * it is freed, and knows nothing else of it. hs__census_ext returns it
 * when it was set with free_fn (the loader's mark), else NULL.
 */
typedef void (*hs_census_ext_free_fn)(void *ext, const hs_allocator *a);
void hs__census_ext_set(hs_census *c, void *ext, hs_census_ext_free_fn free_fn);
void *hs__census_ext(const hs_census *c, hs_census_ext_free_fn free_fn);

#endif
