/*
 * heapscope/census.h: census tables, the model every renderer reads.
 *
 * A census table holds the heap samples of one profile in time order (time
 * in nanoseconds since the program started), each with the bytes of every
 * band present in it. Bands are interned once and keep a stable index.
 * Memory grows with samples x bands present, never with the number of
 * events. It also holds the cost-centre definitions, the time profile
 * (stacks with tick counts, and each sample's time and capability in 16
 * bytes), user markers, and the heap-size lines.
 *
 * It is built incrementally: hand every event to hs_census_add_event() as
 * the reader produces it, then call hs_census_finish() once. The same code
 * serves a finished file and a live program. While a census is still being
 * built, pointers into its arrays (entries, markers, heap-line points) are
 * valid only until the next hs_census_add_event(); names, stacks and cost
 * centres never move. After hs_census_finish() everything stays valid
 * until hs_census_free(). A runtime .hp file loads into
 * the same model with hs_census_load_hp(); hs_census_load_fd() tells the
 * two apart by content.
 */
#ifndef HEAPSCOPE_CENSUS_H
#define HEAPSCOPE_CENSUS_H

#include "common.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hs_census hs_census;
/* An event as the eventlog reader decodes it (reader.h); the census needs
 * only its name, so that its header stands without the reader's. */
typedef struct hs_event hs_event;

typedef enum hs_source_kind {
    HS_SOURCE_NONE = 0,
    HS_SOURCE_EVENTLOG = 1,
    HS_SOURCE_HP = 2,
    HS_SOURCE_MLPD = 3      /* a Mono log-profiler file (mlpd.h) */
} hs_source_kind;

/* What is known about the run. Strings are NUL-terminated, owned by the
 * census and valid until it is freed; NULL when unknown. */
typedef struct hs_census_info {
    hs_source_kind source;
    const char *program;         /* argv[0] (.hp: the JOB's first word) */
    size_t argc;                 /* eventlog: the program's arguments as */
    const char *const *argv;     /* it got them, argv[0] and RTS options
                                  * included; 0 and NULL for a .hp */
    const char *job;             /* .hp: its JOB text as read; NULL for an
                                  * eventlog (hs_render_hp_job builds it) */
    const char *rts_identifier;  /* e.g. "GHC-9.0.2 rts_thr_p" */
    const char *date;            /* .hp: its DATE text as read; NULL for
                                  * an eventlog (see wall_clock_sec) */
    bool has_wall_clock;
    uint64_t wall_clock_sec;     /* Unix time of the log's start */
    uint32_t wall_clock_nsec;
    uint32_t breakdown;          /* HS_BREAKDOWN_*, 0 = no heap profile */
    uint64_t sample_period_ns;   /* heap profile sampling period, 0 = unknown */
    uint64_t tick_interval_ns;   /* time profile tick, 0 = no time profile */
    uint64_t end_time_ns;        /* time of the last event seen */
    bool complete;               /* the log had its data-end marker */
    uint64_t cut_offset;         /* !complete: the byte where it stops */
    uint64_t cut_line;           /* !complete, a .hp: the line, else 0 */
    uint64_t events;             /* events handed to the census */
    uint64_t ipe_records;        /* IPE events seen */
    uint64_t cost_centres;       /* cost-centre definitions */
    uint64_t time_samples;       /* PROF_SAMPLE_COST_CENTRE events */
    uint32_t capabilities;       /* highest capability number seen + 1 */
} hs_census_info;

/* A cost-centre definition. Strings owned by the census. */
typedef struct hs_cost_centre {
    uint32_t id;
    const char *label;
    const char *module;
    const char *srcloc;
    bool is_caf;
} hs_cost_centre;

/*
 * One band's bytes within a sample. A census holds one per band per
 * sample (millions for a long -hc run), so it is packed into 12 bytes
 * (4-byte aligned) rather than padded to 16: read and assign its fields,
 * but do not take the address of `bytes` (it may be misaligned).
 */
#pragma pack(push, 4)
typedef struct hs_census_entry {
    uint32_t band;
    uint64_t bytes;
} hs_census_entry;
#pragma pack(pop)

/* A user marker (USER_MARKER, or an .hp MARK line with an empty text), or
 * a user message (USER_MSG: traceEvent): a time and a text. */
typedef struct hs_census_marker {
    uint64_t time_ns;
    const char *text;
} hs_census_marker;

/* A point of a heap-size line. */
typedef struct hs_census_point {
    uint64_t time_ns;
    uint64_t bytes;
} hs_census_point;

typedef enum hs_heap_line {
    HS_LINE_HEAP_SIZE = 0,   /* HEAP_SIZE: megablocks reserved */
    HS_LINE_HEAP_LIVE = 1,   /* HEAP_LIVE: live bytes after major GCs */
    HS_LINE_BLOCKS_SIZE = 2, /* BLOCKS_SIZE: blocks allocated */
    HS_LINE_COUNT = 3
} hs_heap_line;

/* A new, empty census, or NULL when out of memory. */
HS_API hs_census *hs_census_new(void);

/* The same, allocating everything it owns through `alloc` (copied; NULL
 * means the C library's). */
HS_API hs_census *hs_census_new_with(const hs_allocator *alloc);

/* Frees the census and everything it owns; NULL is harmless. */
HS_API void hs_census_free(hs_census *c);

/* The allocator the census was made with (its own copy, valid until it is
 * freed), or NULL for the C library's: what a renderer of it allocates
 * through. */
HS_API const hs_allocator *hs_census_allocator(const hs_census *c);

/*
 * Cuts -hc band names the way the runtime's -L N does (0 = no cut, the
 * default): a name longer than N keeps N-4 bytes and ends with "...".
 * The census keeps every stack's whole name, so the limit may be set or
 * changed at any time; names returned earlier stay valid. Names cut to
 * the same text are joined by hs_band_groups, never in the model.
 */
HS_API void hs_census_set_name_limit(hs_census *c, unsigned limit);

/*
 * Adds one event. Events must come in stream order, decoded by the reader
 * (its default; with hs_reader_decode_only() the tags of
 * hs_census_event_tags() suffice, which is much faster on large logs, as
 * scheduler events then cost no decoding). Events the reader left
 * undecoded are counted but otherwise ignored. Returns HS_OK or
 * HS_ERR_NOMEM; errors are sticky, details in hs_census_error().
 */
HS_API int hs_census_add_event(hs_census *c, const hs_event *ev);

/*
 * The event tags the census reads, in tags[0 .. min(n, cap)); returns n,
 * their number. Hand them to hs_reader_decode_only().
 */
HS_API size_t hs_census_event_tags(uint16_t *tags, size_t cap);

/* The first error of hs_census_add_event() with the event's byte offset
 * and index; code HS_OK when there was none. Valid until freed. */
HS_API const hs_error *hs_census_error(const hs_census *c);

/*
 * Ends the input: closes an open sample (GHC 8.2/8.4 logs have no
 * SAMPLE_END), orders biographical samples by their own time, resolves -hi
 * addresses through the IPE records. `complete` tells whether the log had
 * its data-end marker. Call once, after the last event.
 */
HS_API int hs_census_finish(hs_census *c, bool complete);

/*
 * Loads a runtime .hp file (hp2ps's MARK lines included) from `in` into an
 * empty census, and finishes it. On a malformed file returns HS_ERR_PARSE
 * with err->line and err->message saying what was expected.
 */
HS_API int hs_census_load_hp(hs_census *c, FILE *in, hs_error *err);

/*
 * Reads fd to its end, an eventlog or a .hp file told apart by content,
 * into an empty census, and finishes it. Returns HS_OK, HS_TRUNCATED (a
 * truncated eventlog; everything before the cut is in the census and *err
 * holds the warning), or a negative error described by *err.
 */
HS_API int hs_census_load_fd(hs_census *c, int fd, hs_error *err);

/* The run's metadata; valid until the census is freed. */
HS_API const hs_census_info *hs_census_get_info(const hs_census *c);

/* Whether there is a heap profile to render: a .hp file, or an eventlog
 * that began one (HEAP_PROF_BEGIN) or holds heap samples. The renderers
 * answer HS_ERR_NO_DATA without one. */
HS_API bool hs_census_has_heap_profile(const hs_census *c);

/*
 * What the census's samples are, in words for titles and pages, into
 * buf (n bytes, always NUL-terminated when n > 0): "-hc, by cost centre
 * stack", "Mono heap shots, by class", "Mono bytes allocated per 10 ms,
 * by namespace". Returns buf, or NULL (buf empty) when the census does
 * not say (a .hp file, or no heap profile).
 */
HS_API const char *hs_census_profile_label(const hs_census *c, char *buf,
                                           size_t n);

/* --- bands ---------------------------------------------------------- */

/* The number of bands (distinct names or stacks) over all samples. */
HS_API size_t hs_census_band_count(const hs_census *c);

/*
 * The band's name as the runtime writes it as a .hp key (for -hc without
 * the "(ccs id)" prefix, which the eventlog does not carry, and cut by
 * hs_census_set_name_limit; for -hi the info table's name when an IPE
 * record exists). A label holding NUL bytes is shown with each as \x00
 * (and a warning); two bands may share a name (-hc stacks with the same
 * labels), see hs_band_groups. Valid until freed.
 */
HS_API const char *hs_census_band_name(const hs_census *c, size_t band);

/*
 * For -hc bands: the cost-centre ids of the stack, innermost first, in
 * *ids (valid until freed); returns the depth (0 for MAIN and for bands of
 * other breakdowns).
 */
HS_API size_t hs_census_band_stack(const hs_census *c, size_t band,
                                   const uint32_t **ids);

/* A cost centre by id, or NULL when it was never defined. */
HS_API const hs_cost_centre *hs_census_cost_centre(const hs_census *c,
                                                   uint32_t id);

/* What an IPE record (-hi) says of an info table. Strings owned by the
 * census, empty (never NULL) where the record leaves them out. */
typedef struct hs_census_ipe {
    uint64_t address;
    const char *table_name;   /* e.g. "sat_s154_info" */
    const char *closure_desc; /* the closure type: "21", "THUNK", ... */
    const char *type_desc;    /* the Haskell type: "Integer -> IO ()" */
    const char *label;        /* the binding: "main" */
    const char *module;       /* "Main" */
    const char *srcloc;       /* "Test.hs:5:1-30" */
} hs_census_ipe;

/*
 * For a -hi band of a finished census whose address an IPE record names:
 * that record (valid until freed); NULL for other bands (no record, or
 * another breakdown).
 */
HS_API const hs_census_ipe *hs_census_band_ipe(const hs_census *c,
                                               size_t band);

/* --- samples -------------------------------------------------------- */

/* The number of heap samples, in time order. */
HS_API size_t hs_census_sample_count(const hs_census *c);

/* Sample i's time in ns since the program started. */
HS_API uint64_t hs_census_sample_time(const hs_census *c, size_t i);

/*
 * Sample i's entries (bands with their bytes, each band at most once, in
 * the order the runtime reported them) in *entries, valid until freed;
 * returns their number.
 */
HS_API size_t hs_census_sample_entries(const hs_census *c, size_t i,
                                       const hs_census_entry **entries);

/*
 * Sample i's object counts, parallel to its entries (counts[k] belongs to
 * entries[k]), in *counts, valid until freed; returns their number, or 0
 * with *counts NULL when the census has no counts (only .mlpd heap shots
 * carry them).
 */
HS_API size_t hs_census_sample_counts(const hs_census *c, size_t i,
                                      const uint64_t **counts);

/* True when the census carries object counts (hs_census_sample_counts). */
HS_API bool hs_census_has_counts(const hs_census *c);

/* Sum of the bytes of sample i. */
HS_API uint64_t hs_census_sample_total(const hs_census *c, size_t i);

/* The index of the sample with the largest total (the first of equals),
 * or SIZE_MAX when there are no samples. */
HS_API size_t hs_census_peak_sample(const hs_census *c);

/* Figures of one band over the whole census. */
typedef struct hs_band_stats {
    uint64_t peak_bytes;    /* its largest bytes in one sample */
    uint64_t peak_time_ns;  /* when that was (the first such sample; the
                               first sample for a band never above 0) */
    double byte_seconds;    /* integral over time, see below */
    double mean_bytes;      /* over all samples, absent counting as 0 */
    double stddev_bytes;    /* likewise */
} hs_band_stats;

/*
 * Fills out[0 .. hs_census_band_count(c)), which the caller allocates.
 * byte_seconds follows the trapezoid rule between consecutive samples, a
 * band absent from a sample having 0 bytes there; a census of a single
 * sample counts it as lasting one second, so that bands still rank by size.
 * The diff's figures over a window and the page's (which receives these in
 * its data and computes a zoomed window's alike) follow the same rule.
 * Returns HS_OK, or HS_ERR_NOMEM.
 */
HS_API int hs_census_band_stats(const hs_census *c, hs_band_stats *out);

/*
 * How a band grows, for leak hunting. The slopes are of the least-squares
 * line through the band's bytes at the samples (absent counting as 0), in
 * bytes per second:
 *   - run: over every sample;
 *   - late: over the samples of the run's last third, the times within
 *     [t0 + 2/3 (t1 - t0), t1] for the first and last samples' t0, t1;
 * a slope over fewer than two samples is 0, and so is one that makes less
 * than half a byte over its samples' time (rounding). The band is still growing at
 * the end when its late slope is above 0 and its bytes at the last sample
 * are above its mean over the run: a band that rises at the end but stays
 * below its usual size, or that reached its size early and holds it, is
 * not.
 */
typedef struct hs_band_growth {
    double run_bytes_per_sec;
    double late_bytes_per_sec;
    uint64_t last_bytes;      /* at the last sample */
    bool growing;
} hs_band_growth;

/* Fills out[0 .. hs_census_band_count(c)), which the caller allocates, by
 * the rule above. Returns HS_OK, or HS_ERR_NOMEM. */
HS_API int hs_census_band_growth(const hs_census *c, hs_band_growth *out);

/* --- band groups: bands as a .hp or CSV file names them --------------- */

/*
 * A view of the census that joins bands of equal name into one group, as
 * the keys of a .hp file do: -hc stacks whose labels are the same, or
 * whose names -L cut to the same text. Every renderer that writes names
 * as keys (hp, CSV) uses it, so joining happens in one place; joined
 * bytes saturate at UINT64_MAX. Groups are numbered in the order of
 * their first band, so when no two bands share a name group g is band g.
 * The view allocates through the census's allocator and is valid while
 * the census is unchanged.
 */
typedef struct hs_band_groups hs_band_groups;

/* The groups of a finished census, or NULL when out of memory. */
HS_API hs_band_groups *hs_band_groups_new(const hs_census *c);

/* Frees the view; NULL is harmless. */
HS_API void hs_band_groups_free(hs_band_groups *g);

/* The number of groups (distinct band names). */
HS_API size_t hs_band_groups_count(const hs_band_groups *g);

/* The group's name (its bands' name); valid until the census is freed. */
HS_API const char *hs_band_groups_name(const hs_band_groups *g, size_t group);

/* The group of a band. */
HS_API size_t hs_band_groups_of(const hs_band_groups *g, size_t band);

/*
 * Sample i's entries joined per group (entries[k].band is a group index),
 * in the order of each group's first entry, in *entries; returns their
 * number. Valid until the next call on this view or its free.
 */
HS_API size_t hs_band_groups_sample(hs_band_groups *g, size_t i,
                                    const hs_census_entry **entries);

/* --- markers and heap lines ------------------------------------------ */

/* The user markers in time order: their number, and marker i (valid until
 * the census is freed). */
HS_API size_t hs_census_marker_count(const hs_census *c);
HS_API const hs_census_marker *hs_census_marker_at(const hs_census *c,
                                                    size_t i);

/* The user messages (USER_MSG, written by Debug.Trace.traceEvent) in time
 * order, every one the log holds: their number, and message i (valid
 * until the census is freed). */
HS_API size_t hs_census_message_count(const hs_census *c);
HS_API const hs_census_marker *hs_census_message_at(const hs_census *c,
                                                     size_t i);

/* The points of one heap line in *points (valid until freed); returns
 * their number (0 when the log has none). */
HS_API size_t hs_census_heap_line(const hs_census *c, hs_heap_line line,
                                  const hs_census_point **points);

/* --- time profile ---------------------------------------------------- */

/* Number of distinct stacks seen in PROF_SAMPLE_COST_CENTRE events. */
HS_API size_t hs_census_tprof_count(const hs_census *c);

/*
 * Distinct stack i: its cost-centre ids innermost first in *ids (valid
 * until freed), its depth as the return value, and its tick count in
 * *ticks. With cap >= 0 the count is of that capability only.
 */
HS_API size_t hs_census_tprof_stack(const hs_census *c, size_t i, int cap,
                                    const uint32_t **ids, uint64_t *ticks);

/* Number of (stack, capability) pairs with ticks in the time profile. */
HS_API size_t hs_census_tprof_cap_count(const hs_census *c);

/*
 * Pair k (0 <= k < hs_census_tprof_cap_count()): the stack's index for
 * hs_census_tprof_stack() in *stack, the capability in *cap; returns the
 * pair's tick count. Pairs come in the order they were first seen.
 */
HS_API uint64_t hs_census_tprof_cap_at(const hs_census *c, size_t k,
                                       size_t *stack, uint32_t *cap);

/* The number of time-profile samples (PROF_SAMPLE_COST_CENTRE events,
 * one tick each) over all capabilities; in a census whose old samples
 * were merged (a live one under hs_live_set_compaction()), the number of
 * records, the merged ones standing for several ticks each
 * (hs_census_tprof_sample_weight()). */
HS_API size_t hs_census_tprof_sample_count(const hs_census *c);

/*
 * Time-profile sample i, in time order once the census is finished (in
 * arrival order before; equal times keep it): its time in ns since the
 * program started in *time_ns, its capability in *cap; returns its
 * stack's index for hs_census_tprof_stack(), or SIZE_MAX (and zeros)
 * when i is out of range. A merged record's time is its bucket's start:
 * the merged records come first, by time, stack and capability, and the
 * samples after hs_census_tprof_merged_until() follow one by one.
 */
HS_API size_t hs_census_tprof_sample(const hs_census *c, size_t i,
                                     uint64_t *time_ns, uint32_t *cap);

/*
 * The ticks time-profile record i stands for: 1 for a sample as it came,
 * the ticks of its (bucket, stack, capability) for a merged record, 0
 * when i is out of range. The weights add up to the tick counts of
 * hs_census_tprof_stack() and hs_census_tprof_cap_at(), which stay
 * exact; only when a tick happened is known to bucket precision.
 */
HS_API uint64_t hs_census_tprof_sample_weight(const hs_census *c, size_t i);

/*
 * The width in ns of the buckets old time-profile samples were merged
 * into (a whole number of ticks, from the run's start; it doubles as a
 * long run goes on), or 0 when none was merged: a census from a file
 * never is. Windows (hs_top_new(), the page's profile over time) that
 * end before hs_census_tprof_merged_until() count a bucket's ticks at
 * its start, so their edges are as precise as this width.
 */
HS_API uint64_t hs_census_tprof_bucket_ns(const hs_census *c);

/* The time before which time-profile samples are merged into buckets,
 * or 0 when none is. */
HS_API uint64_t hs_census_tprof_merged_until(const hs_census *c);

/* --- the cost-centre table (top) -------------------------------------- */

/* What a cost-centre table counts. */
typedef enum hs_top_source {
    HS_TOP_TIME = 0,              /* time-profile ticks (+RTS -p -l) */
    HS_TOP_HEAP_PEAK = 1,         /* -hc: bytes at the sample with the
                                     largest total in the window */
    HS_TOP_HEAP_BYTE_SECONDS = 2  /* -hc: byte-seconds over the window
                                     (hs_census_band_stats's rule) */
} hs_top_source;

typedef struct hs_top_options {
    size_t size;  /* sizeof as the caller knew it; set by _init (common.h) */
    hs_top_source source;
    int cap;                  /* time: only this capability; -1: all */
    uint64_t from_ns, to_ns;  /* the window, both ends included */
} hs_top_options;

/* Fills *opt with the defaults: time ticks, every capability, the whole
 * run (0 to UINT64_MAX). */
HS_API void hs_top_options_init_size(hs_top_options *opt, size_t size);
static inline void hs_top_options_init(hs_top_options *opt)
{
    hs_top_options_init_size(opt, sizeof *opt);
}

/*
 * One cost centre's row. Strings are never NULL: an undefined id reads
 * label "<cc N>" with empty module and srcloc; samples whose stack is
 * empty (the runtime's MAIN alone) are the row "MAIN" (id UINT32_MAX,
 * module "MAIN", srcloc "<built-in>"). self counts the samples (ticks,
 * bytes or byte-seconds) whose innermost cost centre it is; inherited
 * those whose stack holds it, each sample once even when the cost
 * centre recurs in its stack.
 */
typedef struct hs_top_row {
    uint32_t id;
    const char *label, *module, *srcloc;
    bool defined;             /* false: an id no definition named */
    double self, inherited;
} hs_top_row;

/* A computed table; valid while its census is, freed by hs_top_free(). */
typedef struct hs_top hs_top;

/*
 * The cost-centre table of census c (finished) under opt (NULL: the
 * defaults) into *out: rows sorted by self, largest first (then by
 * inherited, then by id). Returns HS_OK (a window or capability without
 * samples gives a table of no rows), HS_ERR_NO_DATA (*out NULL) when the
 * census has no time profile (HS_TOP_TIME) or no eventlog -hc heap
 * profile (the heap sources), HS_ERR_INVALID for a window with from_ns >
 * to_ns, an unknown source or a capability with a heap source, or
 * HS_ERR_NOMEM. Allocates through the census's allocator.
 */
HS_API int hs_top_new(const hs_census *c, const hs_top_options *opt,
                      hs_top **out);

/* Frees a table; NULL is harmless. */
HS_API void hs_top_free(hs_top *t);

/* The options it was computed with (window, capability, source). */
HS_API const hs_top_options *hs_top_get_options(const hs_top *t);

/* The allocator it was made with (its census's), for what renders it. */
HS_API const hs_allocator *hs_top_allocator(const hs_top *t);

/* The sum of every row's self: the samples' ticks, bytes or
 * byte-seconds in the window. */
HS_API double hs_top_total(const hs_top *t);

/* How many samples counted: time-profile samples (ticks), or heap
 * samples in the window. */
HS_API uint64_t hs_top_samples(const hs_top *t);

/* The time profile's tick in ns (the census's tick_interval_ns; 0 when
 * unknown or a heap source). */
HS_API uint64_t hs_top_tick_ns(const hs_top *t);

/* The number of rows, and row i (NULL when out of range). */
HS_API size_t hs_top_count(const hs_top *t);
HS_API const hs_top_row *hs_top_row_at(const hs_top *t, size_t i);

/* --- warnings ------------------------------------------------------- */

/* Warnings met while building (an undefined cost centre, ...), each a
 * sentence; at most a few hundred are kept. Valid until freed. */
HS_API size_t hs_census_warning_count(const hs_census *c);
HS_API const char *hs_census_warning(const hs_census *c, size_t i);

#ifdef __cplusplus
}
#endif

#endif
