/*
 * heapscope/diff.h: two runs compared, band by band.
 *
 * "Did memory go down after the fix, and where?" A diff takes two finished
 * censuses of the same breakdown (before and after), matches their bands
 * by name and gives, for each matched band, its peak and byte-seconds in
 * both runs and whether it is in both, new (after only) or gone (before
 * only); and for each run its peak heap, time of peak, byte-seconds and
 * duration, plus allocation and GC figures when the caller hands in
 * hs_summary figures of both runs.
 *
 *     hs_diff_options o;
 *     hs_diff_options_init(&o);
 *     o.normalize = true;
 *     hs_diff *d;
 *     if (hs_diff_new(before, after, &o, NULL, &d, &err) == HS_OK) {
 *         hs_render_diff_text(d, &sink);
 *         hs_diff_free(d);
 *     }
 *
 * The diff keeps pointers to both censuses: they must outlive it.
 *
 * Windows. Each run may be cut to a window [from_ns, to_ns] (for example
 * the span between two user markers, found in each run separately with
 * hs_diff_marker_window(), so the same phase of both runs is compared).
 * Only the samples inside the window count: peaks are taken over them and
 * byte-seconds integrate between them by the trapezoid rule (as
 * hs_census_band_stats() does for the whole run; a window holding a single
 * sample counts it as lasting one second).
 *
 * Matching. Bands match by their name. Names that are run-specific are
 * made comparable first: the "(ccs id)" prefix of -hc keys from a runtime
 * .hp file is always dropped (the eventlog never has it, and the ids change
 * between builds). With `normalize`, -hd (and -hi) closure descriptions
 * lose the unique suffixes GHC generates for local names, so
 * "<Main.sat_s2cM>" and "<Main.sat_s3Ab>" both become "<Main.sat>"; see
 * hs_diff_normalize_name() for the exact rule. Bands of one run that
 * become equal are summed sample by sample before peaks are taken.
 */
#ifndef HEAPSCOPE_DIFF_H
#define HEAPSCOPE_DIFF_H

#include "common.h"
#include "census.h"
#include "render.h"
#include "summary.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hs_diff hs_diff;

/* Index of the run in the two-element arrays below. */
enum { HS_DIFF_BEFORE = 0, HS_DIFF_AFTER = 1 };

typedef enum hs_diff_status {
    HS_DIFF_BOTH = 0,  /* in both runs */
    HS_DIFF_NEW = 1,   /* only in the after run */
    HS_DIFF_GONE = 2   /* only in the before run */
} hs_diff_status;

typedef enum hs_diff_order {
    HS_DIFF_BY_BYTE_SECONDS = 0, /* absolute change in byte-seconds */
    HS_DIFF_BY_PEAK = 1          /* absolute change in peak bytes */
} hs_diff_order;

typedef struct hs_diff_options {
    size_t size;  /* sizeof as the caller knew it; set by _init (common.h) */
    bool normalize;            /* drop generated unique suffixes (-hd, -hi) */
    hs_diff_order order;       /* how hs_diff_band_at() orders the bands */
    /* Per run: the window in ns since that run's start; {0, UINT64_MAX}
     * (the default) is the whole run. */
    uint64_t from_ns[2], to_ns[2];
    /* Optional labels saying how the window was chosen (for example the
     * two marker names), shown by the renderers; copied. NULL: none. */
    const char *from_marker, *to_marker;
    /* How the renderers name each run (a path); copied. NULL: "before",
     * "after". */
    const char *input[2];
    /* Optional GC figures of each run (hs_summary_get_stats(), over the
     * same window), copied; the renderers show allocation and GC figures
     * only when both are given and both have them. NULL: none. */
    const hs_summary_stats *gc[2];
} hs_diff_options;

/* Fills *o with the defaults: no normalising, by byte-seconds, whole
 * runs, no labels, no GC figures. */
HS_API void hs_diff_options_init_size(hs_diff_options *o, size_t size);
static inline void hs_diff_options_init(hs_diff_options *o)
{
    hs_diff_options_init_size(o, sizeof *o);
}

/*
 * Compares `before` and `after`, two finished censuses. On success returns
 * HS_OK and *out, which the caller frees with hs_diff_free(). Errors, with
 * err->message saying what was wrong (err may be NULL):
 *   HS_ERR_INVALID  the two have different breakdowns (e.g. -hc and -hy),
 *                   come from different profilers (a GHC eventlog or .hp
 *                   against anything else), or a window has from_ns >
 *                   to_ns; a breakdown not recorded (a .hp whose JOB names
 *                   no -h option) matches any;
 *   HS_ERR_NO_DATA  a census has no heap profile (err->line says which
 *                   run: 1 before, 2 after);
 *   HS_ERR_NOMEM.
 * alloc: where the diff's memory comes from (copied; NULL: the C
 * library's).
 */
HS_API int hs_diff_new(const hs_census *before, const hs_census *after,
                       const hs_diff_options *opt, const hs_allocator *alloc,
                       hs_diff **out, hs_error *err);

/* Frees d; the censuses are not touched. NULL is harmless. */
HS_API void hs_diff_free(hs_diff *d);

/* One run's figures over its window. */
typedef struct hs_diff_run {
    const char *input;         /* its label; owned by the diff */
    bool windowed;             /* a window other than the whole run */
    uint64_t from_ns, to_ns;   /* the window actually covered */
    uint64_t duration_ns;      /* to_ns - from_ns */
    size_t samples;            /* heap samples inside the window */
    size_t bands;              /* matched bands present in the window */
    uint64_t peak_bytes;       /* the largest sample total */
    uint64_t peak_time_ns;     /* when (the first such sample), since start */
    double byte_seconds;       /* the total's integral over the window */
    bool has_gc;               /* GC figures were handed in */
    hs_summary_stats gc;       /* those figures (gens and caps: NULL) */
    uint64_t collections;      /* collections of every generation */
} hs_diff_run;

/* Run HS_DIFF_BEFORE or HS_DIFF_AFTER; valid until d is freed. */
HS_API const hs_diff_run *hs_diff_get_run(const hs_diff *d, int which);

/* One matched band. */
typedef struct hs_diff_band {
    const char *name;          /* matched name (normalised with normalize) */
    hs_diff_status status;
    bool normalized_only;      /* no census name of one run equals one of
                                  the other: matched only after normalising */
    size_t members[2];         /* census bands of each run summed into it */
    uint64_t peak_bytes[2];    /* its largest bytes in one sample */
    uint64_t peak_time_ns[2];
    double byte_seconds[2];
} hs_diff_band;

/* The number of bands the two runs have between them, matched by name. */
HS_API size_t hs_diff_band_count(const hs_diff *d);

/*
 * Band i in the order of the options: the largest absolute change first,
 * ties by name. Valid until d is freed.
 */
HS_API const hs_diff_band *hs_diff_band_at(const hs_diff *d, size_t i);

/* Bands in both runs that matched only after normalising (0 without
 * normalize). */
HS_API size_t hs_diff_normalized_matches(const hs_diff *d);

/* The breakdown both censuses share (HS_BREAKDOWN_*, 0 when unknown). */
HS_API uint32_t hs_diff_breakdown(const hs_diff *d);

/* The order the diff was made with. */
HS_API hs_diff_order hs_diff_get_order(const hs_diff *d);

/* Whether the diff was made with `normalize`. */
HS_API bool hs_diff_is_normalized(const hs_diff *d);

/* The census of run `which`, as handed to hs_diff_new(). */
HS_API const hs_census *hs_diff_census(const hs_diff *d, int which);

/* The options' window labels (NULL when the window is by time or none). */
HS_API const char *hs_diff_from_marker(const hs_diff *d);
HS_API const char *hs_diff_to_marker(const hs_diff *d);

/*
 * The normalised form of a band name: inside each "<...>" closure
 * description, an identifier's trailing "_" + tag letter + 1 to 7 base-62
 * characters (GHC's printed unique, as in sat_s4Vf, $wgo_s1Ab, lvl_r3xY)
 * is dropped when the tag is 's' or 'r', or when the characters after the
 * tag hold a digit or an upper-case letter (so read_file stays). Names
 * outside angle brackets (constructors such as MUT_ARR_PTRS_CLEAN, types,
 * modules) are left alone. Writes at most cap - 1 bytes and a NUL to buf
 * (cap > 0); returns the length of the full result, which is never longer
 * than len.
 */
HS_API size_t hs_diff_normalize_name(const char *name, size_t len, char *buf,
                                     size_t cap);

/*
 * The window between two user markers of census c: *from_ns is the
 * earliest marker named `from`, *to_ns the earliest named `to` strictly
 * after it (the names may be equal: the next one). Returns HS_OK, or
 * HS_ERR_NO_DATA with err->message saying which name is missing.
 */
HS_API int hs_diff_marker_window(const hs_census *c, const char *from,
                                 const char *to, uint64_t *from_ns,
                                 uint64_t *to_ns, hs_error *err);

/* --- thresholds (a memory regression gate) ------------------------------ */

/* The figure a threshold watches. */
typedef enum hs_diff_figure {
    HS_DIFF_FIGURE_PEAK = 0,         /* peak bytes (of the run or the band) */
    HS_DIFF_FIGURE_BYTE_SECONDS = 1  /* the run's byte-seconds */
} hs_diff_figure;

/*
 * A threshold on the growth from before to after: "peak>+10%",
 * "peak>+5MiB", "byte-seconds>+10%", "byte-seconds>+2GiB*s",
 * "band:NAME>+1MiB" (that band's peak). The amount is signed ("+" may be
 * left out; "peak>-10%" asks for a 10% saving) and is a percentage of the
 * before figure or a size in B, KiB, MiB, GiB, TiB (or kB, MB, GB, TB), a
 * byte-seconds size optionally followed by "*s".
 */
typedef struct hs_diff_limit {
    hs_diff_figure figure;
    const char *band;          /* NULL: the whole run; else NAME, pointing
                                  into the parsed expression (band_len
                                  bytes, not NUL-terminated) */
    size_t band_len;
    bool percent;              /* amount is a percentage of before */
    double amount;             /* the growth allowed: percent or bytes */
} hs_diff_limit;

/*
 * Parses expr into *out (which points into expr: keep expr alive).
 * Returns HS_OK, or HS_ERR_INVALID with err->message saying what is
 * wrong (err may be NULL). NAME runs to the last '>', so a -hd name such
 * as "<Main.sat>" may stand in it.
 */
HS_API int hs_diff_limit_parse(const char *expr, hs_diff_limit *out,
                               hs_error *err);

/* A threshold checked against a diff. */
typedef struct hs_diff_limit_result {
    bool crossed;              /* change > allowed */
    bool found;                /* the band is in at least one run (always
                                  true for the whole run) */
    double before, after;      /* the figure in each run (0 where the band
                                  is absent) */
    double change;             /* after - before */
    double allowed;            /* amount, or before * amount / 100 */
} hs_diff_limit_result;

/*
 * Checks limit l against d into *r. NAME matches a band as the diff
 * matched them: a "(123)" cost-centre id prefix is dropped, and with the
 * diff's normalize NAME is normalised (hs_diff_normalize_name); a band
 * absent from before counts from 0 (so any growth crosses a percentage),
 * one absent from both runs is not found and not crossed. Returns HS_OK,
 * HS_ERR_INVALID for a bad l, or HS_ERR_NOMEM.
 */
HS_API int hs_diff_limit_check(const hs_diff *d, const hs_diff_limit *l,
                               hs_diff_limit_result *r);

/*
 * What a check found, as a phrase: "peak grew 23.4% (12.0 MiB ->
 * 14.8 MiB)", "band <Main.go> peak grew 1.50 MiB (0 B -> 1.50 MiB)",
 * "byte-seconds shrank 3.10% (...)". Writes at most cap - 1 bytes and a
 * NUL to buf (cap > 0); returns buf.
 */
HS_API char *hs_diff_limit_describe(const hs_diff_limit *l,
                                    const hs_diff_limit_result *r,
                                    char *buf, size_t cap);

/* --- renderers --------------------------------------------------------- */

/*
 * Text: both runs' figures side by side (peak heap, time of peak,
 * byte-seconds, duration, then allocation and GC figures when both runs
 * have them), the counts of bands in both, new and gone (and matched only
 * after normalising), then one line per band in the diff's order: before,
 * after, change and ratio of the ordering figure, and "new"/"gone".
 * Returns HS_OK or HS_ERR_IO.
 */
HS_API int hs_render_diff_text(const hs_diff *d, hs_sink *out);

/*
 * JSON, one object ending in a newline:
 *   breakdown   "hc", "hd", ... or null
 *   order       "byte_seconds" or "peak"
 *   normalize   boolean; normalized_matches  number
 *   window      null, or {before: {from_s, to_s}, after: {...},
 *               from_marker, to_marker}
 *   before, after  {input, peak_bytes, peak_time_s, byte_seconds,
 *               duration_s, samples, bands, gc}, gc null or
 *               {allocated_bytes, copied_bytes, max_live_bytes,
 *               max_mem_in_use_bytes, collections, major_collections,
 *               gc_elapsed_s, mut_elapsed_s} (null for a figure missing)
 *   bands       [{band, status ("both"|"new"|"gone"), normalized_only,
 *               before_peak_bytes, after_peak_bytes, before_byte_seconds,
 *               after_byte_seconds, change_byte_seconds, change_peak_bytes,
 *               ratio (after/before of the ordering figure, null when
 *               before is 0)}] in the diff's order.
 * Strings are escaped; bytes that are not UTF-8 become U+FFFD. Returns
 * HS_OK or HS_ERR_IO.
 */
HS_API int hs_render_diff_json(const hs_diff *d, hs_sink *out);

/*
 * Folded stacks in the two-column form of flamegraph.pl's difffolded.pl:
 * "frame;frame before after", frames as hs_render_folded() writes them
 * for each run with the weight of `opt` (source must be heap); when
 * either run is a runtime .hp, -hc frames of both runs come from their
 * band names (labels without modules, "Module.CAF", "PINNED"), as the
 * .hp's keys do, so a stack is named alike in both. Lines of
 * the before run first, then those only in the after run, a stack absent
 * from a run counting 0. With the diff's normalize, frames are normalised
 * as band names are. Returns HS_OK, HS_ERR_INVALID when the diff has a
 * window (the folded renderer works on whole runs) or opt asks for a time
 * profile, HS_ERR_NOMEM or HS_ERR_IO.
 */
HS_API int hs_render_diff_folded(const hs_diff *d, hs_sink *out,
                                 const hs_folded_options *opt);

/* --- chart (cairo and pango; see hs_chart_available()) ------------------ */

typedef struct hs_diff_chart_options {
    size_t size;  /* sizeof as the caller knew it; set by _init (common.h) */
    /* format, kind, sort, bands (the largest in either run; the rest as
     * OTHER), include/exclude, title, size and dpi as for hs_render_chart;
     * a size of 0 x 0 means 1200 x 1100 px (PDF: 842 x 842 pt); borrowed
     * for the call. NULL: hs_chart_options_init's defaults. */
    const hs_chart_options *chart;
    /* false: each run's time normalised to its own length (the panels
     * align the runs' phases); true: both on one axis in seconds */
    bool absolute_time;
} hs_diff_chart_options;

/* Fills *o with the defaults (hs_chart_options_init, normalised time). */
HS_API void hs_diff_chart_options_init_size(hs_diff_chart_options *o, size_t size);
static inline void hs_diff_chart_options_init(hs_diff_chart_options *o)
{
    hs_diff_chart_options_init_size(o, sizeof *o);
}

/*
 * The two runs' profiles one above the other on the same y scale, each
 * band with the same look in both (matched as the diff matched them),
 * user markers as lines, a legend with each band's larger peak, and under
 * them a panel with one bar per drawn band: its change of byte-seconds
 * (or peak, with the diff's order by peak), new and gone bands marked.
 * Windows do not cut the chart: it shows whole runs. Returns HS_OK,
 * HS_ERR_NO_DATA when a run has no samples or the filters keep no band,
 * HS_ERR_INVALID for bad options or a build without charts,
 * HS_ERR_NOMEM, or HS_ERR_IO.
 */
HS_API int hs_render_diff_chart(const hs_diff *d, hs_sink *out,
                                const hs_diff_chart_options *opt);

#ifdef __cplusplus
}
#endif

#endif
