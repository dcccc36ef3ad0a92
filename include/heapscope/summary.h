/*
 * heapscope/summary.h: garbage-collector statistics rebuilt from the
 * eventlog, as +RTS -s prints them, for a whole run or a time window.
 *
 *     hs_summary *s = hs_summary_new();
 *     hs_summary_set_window(s, &win);          // optional, before any event
 *     for each event ev the reader produces, in stream order:
 *         hs_summary_add_event(s, &ev);
 *     hs_summary_finish(s);
 *     const hs_summary_stats *st = hs_summary_get_stats(s);
 *     hs_summary_render_text(s, &sink);       // or hs_summary_render_json
 *     hs_summary_free(s);
 *
 * Event order and memory. A GHC eventlog is written in per-capability
 * blocks: each capability's events are in time order, but blocks of
 * different capabilities interleave in flush order, and an idle
 * capability may flush its only block at program exit, after every block
 * of the busy ones (the samples/markers-* logs are written exactly so).
 * The summary therefore never needs the events of different capabilities
 * in time order: every figure is either a per-capability state machine
 * (a collection's pause runs from GC_START to GC_END on the capability that
 * led it; a capability's allocation counter) fed in that capability's own
 * order, or a sum, maximum or count over collections, each collection
 * placed in or out of the window by its own timestamp. The result is the
 * same for any interleaving of the capabilities' streams, in one pass over
 * a file or a pipe, and memory is O(capabilities + generations + user
 * markers): one small record per capability and per generation, and the
 * times of the USER_MARKER events (kept so --between can be resolved). A
 * k-way time merge would instead have to hold every event of the busy
 * capabilities until the idle one's block arrives, which in the worst case
 * is the whole log.
 *
 * Windows by marker need the markers' times before the pass: run one
 * summary to find them (hs_summary_marker_window()), then a second with
 * the window set. A file is simply read twice; a pipe is spooled first.
 *
 * Pause definition. The pause of a collection is the time from GC_START to
 * GC_END on the capability that led it (the one that posts GC_GLOBAL_SYNC
 * and GC_STATS_GHC). GHC stamps exactly those two events with the times
 * its own +RTS -s accounting uses, so the per-generation elapsed totals,
 * average and maximum pauses equal the runtime's to the nanosecond; the
 * time other capabilities take to stop and restart is, as in +RTS -s,
 * mutator time. Each capability's own GC_START..GC_END time is reported
 * beside it (hs_summary_cap.gc_elapsed_ns) for the ThreadScope view.
 */
#ifndef HEAPSCOPE_SUMMARY_H
#define HEAPSCOPE_SUMMARY_H

#include "common.h"
#include "reader.h"
#include "mlpd.h"
#include "sink.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hs_summary hs_summary;

/* One generation's collections (within the window). */
typedef struct hs_summary_gen {
    uint32_t collections;      /* GC_STATS_GHC events of this generation */
    uint32_t par_collections;  /* ... with more than one GC thread */
    uint32_t timed;            /* ... whose leader's GC_START and GC_END were seen */
    uint64_t elapsed_ns;       /* sum of the timed collections' pauses */
    uint64_t max_pause_ns;
    uint64_t copied_bytes;
    uint64_t max_slop_bytes;
} hs_summary_gen;

/* One capability, in order of first appearance. */
typedef struct hs_summary_cap {
    uint32_t cap;
    uint32_t gcs;              /* its GC_START..GC_END intervals in the window */
    uint32_t led;              /* collections it led (posted GC_STATS_GHC) */
    uint64_t gc_elapsed_ns;    /* sum of its own GC_START..GC_END intervals */
    uint64_t allocated_bytes;  /* its HEAP_ALLOCATED growth in the window */
} hs_summary_cap;

/*
 * The figures. A has_* flag false means the log lacks the events the
 * figure is made from; the figure is then 0 and must not be shown as one.
 * Pointers are owned by the summary and valid until it is freed.
 */
typedef struct hs_summary_stats {
    /* the window actually covered, ns since program start */
    bool windowed;
    uint64_t from_ns, to_ns;

    bool has_allocated;            /* HEAP_ALLOCATED */
    uint64_t allocated_bytes;      /* sum over capabilities of the counter's growth */

    bool has_gc;                   /* GC_STATS_GHC */
    uint64_t copied_bytes;
    uint32_t n_gens;               /* from HEAP_INFO_GHC, else highest gen seen + 1 */
    const hs_summary_gen *gens;    /* n_gens entries */
    uint32_t major_gcs;            /* collections of the oldest generation */

    bool has_live;                 /* HEAP_LIVE */
    uint64_t max_live_bytes;
    bool has_slop;                 /* a major collection's GC_STATS_GHC */
    uint64_t max_slop_bytes;

    bool has_heap_size;            /* HEAP_SIZE */
    uint64_t max_mem_in_use_bytes; /* largest HEAP_SIZE */

    bool has_work_balance;         /* a collection with more than one GC thread */
    double work_balance;           /* 0 serial .. 1 perfect */
    bool work_balance_estimated;   /* pre-8.4 logs: from max/total copied */

    bool has_sparks;               /* SPARK_COUNTERS */
    uint64_t sparks_created, sparks_dud, sparks_overflowed,
             sparks_converted, sparks_gcd, sparks_fizzled;

    bool has_pauses;               /* a timed collection */
    uint64_t total_ns;             /* window length (whole run: last event's time) */
    uint64_t gc_ns;                /* sum of pauses */
    uint64_t mut_ns;               /* total_ns - gc_ns */

    /* allocated_bytes per MUT second; false when there is no MUT time or
     * the figure cannot be right (above 1 PB/s: a corrupted counter,
     * which a warning names); has_allocated is likewise false when the
     * counters' sum cannot be right. */
    bool has_alloc_rate;
    uint64_t alloc_rate;

    bool threaded;                 /* RTS_IDENTIFIER names a threaded RTS */
    bool heap_profiled;            /* HEAP_PROF_BEGIN: censuses run inside GCs */
    const char *rts_identifier;    /* NUL-terminated, or NULL */
    uint32_t n_caps;
    const hs_summary_cap *caps;
    uint64_t events;               /* events given to hs_summary_add_event() */

    /* The nonmoving collector's final synchronisations (CONC_SYNC_BEGIN to
     * CONC_SYNC_END, ended inside the window): +RTS -s's "Gen N syncs"
     * line, whose average divides by major_gcs. */
    bool has_nonmoving_syncs;
    uint32_t nonmoving_syncs;
    uint64_t nonmoving_sync_ns, nonmoving_sync_max_ns;
    bool nonmoving;                /* any concurrent-mark event */
} hs_summary_stats;

/* A window: [from_ns, to_ns] in ns since program start. to_ns UINT64_MAX
 * means to the end. The marker names only label the output (copied). */
typedef struct hs_summary_window {
    size_t size;  /* sizeof as the caller knew it; set by _init (common.h) */
    uint64_t from_ns;
    uint64_t to_ns;
    const char *from_marker;   /* NULL when the window is by time */
    const char *to_marker;
} hs_summary_window;

/* Fills *w with the whole run: from 0 to the end, no marker names. */
HS_API void hs_summary_window_init_size(hs_summary_window *w, size_t size);
static inline void hs_summary_window_init(hs_summary_window *w)
{
    hs_summary_window_init_size(w, sizeof *w);
}

/* A new summary, or NULL when out of memory. Free with hs_summary_free(). */
HS_API hs_summary *hs_summary_new(void);

/* The same, allocating everything it owns through `alloc` (copied; NULL
 * means the C library's). */
HS_API hs_summary *hs_summary_new_with(const hs_allocator *alloc);

/* Frees s and everything it returned; NULL is harmless. */
HS_API void hs_summary_free(hs_summary *s);

/*
 * Restricts the figures to a window. Must be called before the first
 * event: HS_ERR_MISUSE otherwise; HS_ERR_INVALID when from_ns > to_ns;
 * HS_ERR_NOMEM.
 */
HS_API int hs_summary_set_window(hs_summary *s, const hs_summary_window *w);

/*
 * Names the input (a path, "<stdin>") for the JSON's "input" key; the
 * text is copied. Returns HS_OK or HS_ERR_NOMEM (sticky).
 */
HS_API int hs_summary_set_input(hs_summary *s, const char *name);

/*
 * Takes one event, in the order the reader produced it. Events the
 * summary does not use are ignored. Returns HS_OK, or HS_ERR_NOMEM
 * (sticky), or HS_ERR_MISUSE after hs_summary_finish().
 */
HS_API int hs_summary_add_event(hs_summary *s, const hs_event *ev);

/*
 * The event tags hs_summary_add_event() reads, in tags[0 .. min(n, cap)); returns
 * n, their number. A reader set to decode only these (and any others a
 * caller needs, hs_reader_decode_only()) gives the summary the same
 * figures at a fraction of the decoding.
 */
HS_API size_t hs_summary_event_tags(uint16_t *tags, size_t cap);

/*
 * Ends the input and computes the figures. Returns HS_OK, or
 * HS_ERR_NO_DATA when the log has neither GC nor heap events (the stats
 * stay readable, every has_* flag false, and the renderers say which
 * figures cannot be computed), or a sticky error.
 */
HS_API int hs_summary_finish(hs_summary *s);

/*
 * Computes the figures of the events so far and leaves the summary open
 * for more, for a live view of a running program; the same computation
 * as hs_summary_finish(), so a snapshot after the last event equals the
 * final figures. The stats and the renderers then show the snapshot until
 * the next snapshot or finish. Returns HS_OK or a sticky error.
 */
HS_API int hs_summary_snapshot(hs_summary *s);

/* The figures; valid after hs_summary_finish() or hs_summary_snapshot()
 * until the next snapshot, or until s is freed. */
HS_API const hs_summary_stats *hs_summary_get_stats(const hs_summary *s);

/* The first error, with a message; code HS_OK when none. Valid until s is
 * freed. */
HS_API const hs_error *hs_summary_error(const hs_summary *s);

/*
 * Warnings about figures left out after hs_summary_finish() because they
 * cannot be right (a corrupted allocation counter), each a sentence owned
 * by the summary; hs_summary_warning() returns NULL for i out of range.
 */
HS_API size_t hs_summary_warning_count(const hs_summary *s);
HS_API const char *hs_summary_warning(const hs_summary *s, size_t i);

/* Distinct USER_MARKER names; after hs_summary_finish() they are in the
 * order of their earliest occurrence in time. */
HS_API size_t hs_summary_marker_count(const hs_summary *s);

/*
 * The i-th distinct marker: its name (bytes owned by the summary, valid
 * until it is freed), how often it occurs and its earliest time.
 */
HS_API hs_str hs_summary_marker(const hs_summary *s, size_t i,
                                uint64_t *count, uint64_t *first_ns);

/*
 * Resolves --between FROM TO after hs_summary_finish(): *from_ns is the
 * earliest occurrence of `from`, *to_ns the earliest occurrence of `to`
 * strictly after it (so FROM and TO may be the same name: the next one).
 * Returns HS_OK, or HS_ERR_NO_DATA with *err (when not NULL) saying which
 * name is missing (the caller lists hs_summary_marker()), or that `to`
 * never occurs after `from`; HS_ERR_MISUSE before finish. A question, not
 * a failure of s: hs_summary_error() is left alone.
 */
HS_API int hs_summary_marker_window(const hs_summary *s, hs_str from,
                                    hs_str to, uint64_t *from_ns,
                                    uint64_t *to_ns, hs_error *err);

/*
 * Writes the summary in the line formats of +RTS -s (so the two diff),
 * then the figures +RTS -s has and the log does not, and notes on the
 * figures that differ by construction. CPU-time columns read "n/a".
 * Returns HS_OK, HS_ERR_IO from the sink, or HS_ERR_MISUSE before finish.
 */
HS_API int hs_summary_render_text(const hs_summary *s, hs_sink *out);

/*
 * Writes the summary as one JSON object (UTF-8, ending in a newline).
 * Keys (a figure the log cannot give is null, never 0):
 *   heapscope_version hs_version()
 *   input             hs_summary_set_input()'s name or null
 *   program           the program's name (argv[0] from the log) or null
 *   window            null, or {from_ns, to_ns, from_marker, to_marker}
 *   rts               the RTS identifier string or null
 *   threaded, heap_profiled   booleans
 *   allocated_bytes, copied_bytes, max_live_bytes, live_samples,
 *   max_slop_bytes, max_mem_in_use_bytes, mem_in_use_mib
 *   generations       [{gen, collections, par_collections, timed,
 *                       elapsed_ns, avg_pause_ns, max_pause_ns,
 *                       copied_bytes}]
 *   work_balance_percent      0..100 or null
 *   sparks            null or {count, created, converted, overflowed, dud,
 *                       gcd, fizzled}
 *   total_elapsed_ns, gc_elapsed_ns, mut_elapsed_ns,
 *   productivity_elapsed_percent, alloc_rate_bytes_per_mut_second
 *   capabilities      [{cap, gc_intervals, led, gc_elapsed_ns,
 *                       allocated_bytes}]
 *   unavailable       names of +RTS -s figures the log cannot give
 *   notes             sentences on how figures differ from +RTS -s
 *   warnings          hs_summary_warning()'s sentences
 * Strings are escaped; bytes that are not UTF-8 become U+FFFD.
 */
HS_API int hs_summary_render_json(const hs_summary *s, hs_sink *out);

/* --- Mono .mlpd files (summary_mlpd.c) ---------------------------------- */

struct hs_census;
/*
 * The GC summary of an .mlpd census: in the line shapes of +RTS -s where
 * a figure has a GHC counterpart (bytes allocated, maximum heap size and
 * residency, collections per generation with total and maximum times),
 * plus Mono's world stops; or as one JSON object (absent figures null)
 * that also says what it describes: heapscope_version, input (the name
 * given, or null) and program. Returns HS_OK, HS_ERR_NO_DATA (not an
 * .mlpd census, or no GC event in it; nothing written) or the sink's
 * error.
 */
HS_API int hs_mlpd_summary_text(const struct hs_census *c, hs_sink *out);
HS_API int hs_mlpd_summary_json(const struct hs_census *c, const char *input,
                                hs_sink *out);

/*
 * The same figures read straight from an .mlpd's events, no census built
 * (read -> summary):
 *
 *     hs_mlpd_summary *s = hs_mlpd_summary_new();
 *     hs_mlpd_summary_set_window(s, &win);      // optional, before events
 *     for each event ev hs_mlpd_reader_next() gives (BUFFER ones too):
 *         hs_mlpd_summary_add(s, &ev);
 *     hs_mlpd_summary_finish(s, r);
 *     hs_mlpd_summary_write_text(s, out);       // or _write_json
 *     hs_mlpd_summary_free(s);
 */
typedef struct hs_mlpd_summary hs_mlpd_summary;

/* A new Mono summary, or NULL when out of memory; _new_with allocates
 * through `alloc` (copied; NULL means the C library's). */
HS_API hs_mlpd_summary *hs_mlpd_summary_new(void);
HS_API hs_mlpd_summary *hs_mlpd_summary_new_with(const hs_allocator *alloc);

/* Frees s; NULL is harmless. */
HS_API void hs_mlpd_summary_free(hs_mlpd_summary *s);

/*
 * Counts only [w->from_ns, w->to_ns], ns since the file's first buffer
 * (mprof-report's t = 0): allocations and heap resizes in it, heap shots
 * whose HEAP_START, collections whose start and world stops whose
 * pre-stop are in it; elapsed time is the window's part of the run. A Mono
 * file has no user markers: a window with marker names, or ending before
 * it starts, is HS_ERR_INVALID; after the first event, HS_ERR_MISUSE.
 */
HS_API int hs_mlpd_summary_set_window(hs_mlpd_summary *s,
                                      const hs_summary_window *w);

/* One event, in file order. HS_OK, HS_ERR_NOMEM, or HS_ERR_MISUSE after
 * hs_mlpd_summary_finish(). */
HS_API int hs_mlpd_summary_add(hs_mlpd_summary *s, const hs_mlpd_event *ev);

/* The end of the events; r is the reader that gave them (NULL: no
 * truncation record is made). A heap shot left open counts in no figure.
 * HS_TRUNCATED when the reader was cut, or the file ends between two
 * buffers inside a heap shot (a killed run): hs_mlpd_summary_error() says
 * where, and which shot was left out. HS_ERR_NO_DATA when nothing was
 * there to summarise (no GC event, heap shot or allocation in the
 * window); else HS_OK. */
HS_API int hs_mlpd_summary_finish(hs_mlpd_summary *s,
                                  const hs_mlpd_reader *r);

/* A warning about the input once finished (a file with no buffer after
 * its header), else NULL. */
HS_API const char *hs_mlpd_summary_warning(const hs_mlpd_summary *s);

/* Why hs_mlpd_summary_finish() said HS_TRUNCATED (code 0 otherwise). */
HS_API const hs_error *hs_mlpd_summary_error(const hs_mlpd_summary *s);

/* The figures once finished, else NULL. */
HS_API const hs_mlpd_gc_stats *hs_mlpd_summary_get_stats(
    const hs_mlpd_summary *s);

/* As hs_mlpd_summary_text() and _json(), for a finished summary; a
 * windowed one says its window ("Window:" line; "window" key). */
HS_API int hs_mlpd_summary_write_text(const hs_mlpd_summary *s, hs_sink *out);
HS_API int hs_mlpd_summary_write_json(const hs_mlpd_summary *s,
                                      const char *input, hs_sink *out);

#ifdef __cplusplus
}
#endif

#endif
