/*
 * heapscope/ticky.h: the ticky-ticky counters of a census (a program built
 * with -ticky and run with +RTS -lT).
 *
 * The runtime writes, at each ticky sample, a TICKY_COUNTER_BEGIN_SAMPLE
 * event (older runtimes do not) and one TICKY_COUNTER_SAMPLE per counter that moved,
 * then resets that counter's figures to zero (rts/eventlog/EventLog.c,
 * postTickyCounterSample): a sample is the change since the previous one,
 * so a counter's figures over the run are the sum of its samples. The
 * definitions (TICKY_COUNTER_DEF: name, arity, argument kinds, the info
 * table's address, a JSON text) are written at exit, after the samples,
 * and a counter that never moved has none. A counter is known by its id
 * (the runtime's address of the counter).
 *
 * The census collects them from its events (hs_census_add_event, or
 * hs_census_load_fd): the figures are summed as samples come, definitions
 * name counters whenever they come, and hs_census_finish() orders the
 * counters (most bytes allocated first, then most entries, then by id)
 * and gives each the IPE record (closure information) of its info table,
 * when the log has one. Strings are owned by the census; records are
 * valid until the next event is added, and after hs_census_finish() until
 * the census is freed.
 */
#ifndef HEAPSCOPE_TICKY_H
#define HEAPSCOPE_TICKY_H

#include "census.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One counter. Closure fields are NULL when the log has no IPE record of
 * its info table (or no info table: has_info_table false or address 0). */
typedef struct hs_ticky_counter {
    uint64_t id;              /* the counter's id in the log */
    bool defined;             /* a TICKY_COUNTER_DEF named it */
    const char *name;         /* "" when not defined */
    uint16_t arity;
    const char *arg_kinds;    /* one letter per argument, "" when none */
    const char *json;         /* the definition's JSON text, "" when none */
    bool has_info_table;      /* the definition carries the address */
    uint64_t info_table;
    const char *closure_desc; /* from the IPE record of info_table */
    const char *type_desc;
    const char *label;
    const char *module;
    const char *srcloc;
    uint64_t entries;         /* summed over the samples (saturating) */
    uint64_t allocs;          /* bytes the closure's code allocated */
    uint64_t allocd;          /* bytes of this closure allocated */
    size_t samples;           /* samples it moved in */
} hs_ticky_counter;

/* A counter's figures in one sample (the change since the one before). */
typedef struct hs_ticky_point {
    size_t sample;            /* index for hs_census_ticky_sample_time */
    uint64_t entries, allocs, allocd;
} hs_ticky_point;

/* Whether the log has ticky events (a definition, a sample or a sample's
 * beginning). */
HS_API bool hs_census_has_ticky(const hs_census *c);

/* The number of counters (defined or sampled). */
HS_API size_t hs_census_ticky_count(const hs_census *c);

/* Counter i (after hs_census_finish(): by allocd, then entries, both
 * descending, then by id; before, in order of first appearance), or NULL
 * when i is out of range. */
HS_API const hs_ticky_counter *hs_census_ticky_at(const hs_census *c,
                                                  size_t i);

/* The number of ticky samples: BEGIN_SAMPLE events, or, in a log without
 * them (older runtimes), runs of sample events in which no counter repeats. */
HS_API size_t hs_census_ticky_sample_count(const hs_census *c);

/* The time of ticky sample s in ns, 0 when out of range. */
HS_API uint64_t hs_census_ticky_sample_time(const hs_census *c, size_t s);

/* Counter i's figures per sample it moved in, by sample; *points gets
 * the array (NULL when none). Valid after hs_census_finish() only (0
 * before). */
HS_API size_t hs_census_ticky_points(const hs_census *c, size_t i,
                                     const hs_ticky_point **points);

#ifdef __cplusplus
}
#endif

#endif
