/*
 * heapscope/render.h: renderers, which write a census to a sink
 * (heapscope/sink.h).
 *
 * A renderer reads a finished census table and writes bytes to a sink; it
 * never sees events. A sink is a small table of functions, so the same
 * renderer writes to a file, to memory in a test, or to a pipe.
 */
#ifndef HEAPSCOPE_RENDER_H
#define HEAPSCOPE_RENDER_H

#include "common.h"
#include "census.h"
#include "ticky.h"
#include "sink.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- .hp -------------------------------------------------------------- */

/*
 * Writes the census as a runtime-style .hp file: JOB, DATE, SAMPLE_UNIT,
 * VALUE_UNIT, an empty first sample, every sample (time in seconds since
 * start, one "key<TAB>bytes" line per band the sample holds, zero bytes
 * included as the runtime writes -hb's five bands; bands sharing a name
 * summed into one key), MARK lines for markers between the samples at
 * their times, and an empty closing sample at the end time. A census
 * loaded from a runtime .hp comes out byte for byte as it went in.
 * Returns HS_OK, HS_ERR_NO_DATA (nothing written) when the census has no
 * heap profile, HS_ERR_NOMEM, or HS_ERR_IO from the sink.
 */
HS_API int hs_render_hp(const hs_census *c, hs_sink *out);

/*
 * The .hp JOB text of the census, as hs_render_hp writes it (before its
 * quotes are doubled): a .hp's own JOB as read; for an eventlog the
 * runtime's form, argv[0]'s base name, the program's arguments, then
 * " +RTS" and the RTS options when the runtime is a profiled one. Writes
 * at most size bytes, NUL included, into buf (NULL when size is 0) and
 * returns the text's whole length, as snprintf does; SIZE_MAX when out of
 * memory.
 */
HS_API size_t hs_render_hp_job(const hs_census *c, char *buf, size_t size);

/*
 * The .hp DATE text likewise: a .hp's own DATE, or the log's wall-clock
 * start in local time as ctime without seconds ("Sat Nov 21 23:58 2026");
 * empty when unknown. Never allocates.
 */
HS_API size_t hs_render_hp_date(const hs_census *c, char *buf, size_t size);

/* --- CSV -------------------------------------------------------------- */

typedef enum hs_csv_layout {
    HS_CSV_LONG = 0,  /* time_s,band,bytes: one row per band per sample */
    HS_CSV_WIDE = 1   /* time_s then one column per band, 0 when absent */
} hs_csv_layout;

/*
 * Writes the heap samples as CSV, band names quoted by libcsv (any byte
 * survives), bands sharing a name in one row/column, time_s in seconds
 * with six decimals. Returns HS_OK, HS_ERR_NO_DATA (nothing written)
 * without a heap profile, HS_ERR_INVALID for an unknown layout,
 * HS_ERR_NOMEM or HS_ERR_IO.
 */
HS_API int hs_render_csv(const hs_census *c, hs_sink *out,
                         hs_csv_layout layout);

typedef struct hs_csv_options {
    size_t size;  /* sizeof as the caller knew it; set by _init (common.h) */
    hs_csv_layout layout;
    bool bom;           /* start with a UTF-8 byte-order mark, for
                         * spreadsheets that otherwise misread UTF-8 */
    bool formula_guard; /* a band name starting with =, +, -, @, TAB or CR
                         * gets a ' in front (OWASP's advice against CSV
                         * injection), so a spreadsheet shows it as text
                         * rather than run it as a formula */
} hs_csv_options;

/* Defaults: long layout, no BOM, the formula guard on. */
HS_API void hs_csv_options_init_size(hs_csv_options *opt, size_t size);
static inline void hs_csv_options_init(hs_csv_options *opt)
{
    hs_csv_options_init_size(opt, sizeof *opt);
}

/* hs_render_csv with options (NULL = the defaults); the same returns.
 * hs_render_csv(c, out, layout) is this with the defaults and layout. */
HS_API int hs_render_csv_with(const hs_census *c, hs_sink *out,
                              const hs_csv_options *opt);

/* --- ticky-ticky counters (ticky.h) ------------------------------------- */

typedef enum hs_ticky_format {
    HS_TICKY_TEXT = 0,  /* a table: entries, allocs, allocd, arity, kinds,
                         * name; names with control bytes as \xHH */
    HS_TICKY_CSV = 1,   /* id,name,arity,arg_kinds,entries,allocs,allocd,
                         * samples, then the closure's IPE fields */
    HS_TICKY_JSON = 2   /* {"counters": [{"id", "name", "arity",
                         * "arg_kinds", "entries", "allocs", "allocd",
                         * "samples", "defined", "info_table",
                         * "closure_desc", "type", "label", "module",
                         * "srcloc"}]}, unknown fields null */
} hs_ticky_format;

typedef struct hs_ticky_options {
    size_t size;  /* sizeof as the caller knew it; set by _init (common.h) */
    hs_ticky_format format;
    bool formula_guard; /* CSV: as hs_csv_options' */
} hs_ticky_options;

/* Defaults: the text table, the formula guard on. */
HS_API void hs_ticky_options_init_size(hs_ticky_options *opt, size_t size);
static inline void hs_ticky_options_init(hs_ticky_options *opt)
{
    hs_ticky_options_init_size(opt, sizeof *opt);
}

/*
 * Writes the census's ticky counters (hs_census_ticky_at's order: most
 * bytes allocated first, then most entries) in opt's format (NULL: the
 * defaults). Returns HS_OK, HS_ERR_NO_DATA (nothing written) when the log
 * has no ticky events, HS_ERR_INVALID for an unknown format, HS_ERR_NOMEM
 * or HS_ERR_IO.
 */
HS_API int hs_render_ticky(const hs_census *c, hs_sink *out,
                           const hs_ticky_options *opt);

/* --- folded stacks ------------------------------------------------------ */

typedef enum hs_folded_source {
    HS_FOLDED_HEAP = 0,
    HS_FOLDED_TIME = 1,
    HS_FOLDED_ALLOC = 2      /* .mlpd allocations: backtrace;Class */
} hs_folded_source;

typedef enum hs_folded_weight {
    HS_WEIGHT_PEAK = 0,      /* bytes at the sample with the largest total */
    HS_WEIGHT_INTEGRAL = 1,  /* byte-seconds over the run */
    HS_WEIGHT_LAST = 2,      /* bytes at the last sample */
    HS_WEIGHT_BYTES = 3,     /* alloc: bytes allocated */
    HS_WEIGHT_COUNT = 4      /* alloc: objects allocated */
} hs_folded_weight;

typedef struct hs_folded_options {
    size_t size;  /* sizeof as the caller knew it; set by _init (common.h) */
    hs_folded_source source;
    hs_folded_weight weight;
    bool per_capability;     /* time: the capability as the root frame */
} hs_folded_options;

/* Fills *opt with the defaults: heap profile, peak weight, no
 * per-capability root. */
HS_API void hs_folded_options_init_size(hs_folded_options *opt, size_t size);
static inline void hs_folded_options_init(hs_folded_options *opt)
{
    hs_folded_options_init_size(opt, sizeof *opt);
}

/*
 * Writes "frame;frame N" lines, outermost frame first, frames of cost
 * centres as "Module.label" (undefined ones "<cc N>", the empty stack
 * "MAIN"); other heap breakdowns one frame per band. Lines with equal
 * frames are summed; weights are rounded to whole numbers and lines that
 * round to 0 are left out. In frames ';' becomes ':', line breaks and TABs
 * spaces, an empty frame "?", and a space before a frame's trailing digits
 * '_'. With per_capability the root frame is "cap N". Alloc (an .mlpd's
 * allocation sites, mlpd.h): the backtrace's methods outermost first, then
 * the allocated class as the leaf frame, weighted by bytes (the default) or
 * objects. opt NULL: heap,
 * peak. Returns HS_OK, HS_ERR_NO_DATA (nothing written) when the census
 * lacks the profile asked for, HS_ERR_INVALID, HS_ERR_NOMEM or HS_ERR_IO.
 */
HS_API int hs_render_folded(const hs_census *c, hs_sink *out,
                            const hs_folded_options *opt);

/* --- speedscope's file format ------------------------------------------ */

typedef struct hs_speedscope_options {
    size_t size;  /* sizeof as the caller knew it; set by _init (common.h) */
    const char *name;        /* the file's "name" (the input's); NULL:
                                "heapscope" */
} hs_speedscope_options;

/* Fills *opt with the defaults (no name). */
HS_API void hs_speedscope_options_init_size(hs_speedscope_options *opt,
                                           size_t size);
static inline void hs_speedscope_options_init(hs_speedscope_options *opt)
{
    hs_speedscope_options_init_size(opt, sizeof *opt);
}

/*
 * Writes the time profile as speedscope's JSON file format
 * (https://www.speedscope.app/file-format-schema.json): "exporter"
 * "heapscope VERSION", a frame table shared by every profile (one frame
 * per cost centre, named "Module.label" as hs_render_folded names it,
 * with "file", "line" and "col" from a GHC source location such as
 * "Fib.hs:4:1-50" or "Fib.hs:(4,1)-(6,20)"), then "sampled" profiles of
 * unit "none": all capabilities first, then one per capability in
 * increasing order, samples in time order weighed in ticks (consecutive
 * samples of one stack as one sample of their number). Returns HS_OK,
 * HS_ERR_NO_DATA (nothing written) without a time profile, HS_ERR_NOMEM
 * or HS_ERR_IO.
 */
HS_API int hs_render_speedscope(const hs_census *c, hs_sink *out,
                                const hs_speedscope_options *opt);

/* --- the cost-centre table (top) --------------------------------------- */

typedef enum hs_top_format {
    HS_TOP_TEXT = 0,   /* aligned columns, as GHC's .prof top table */
    HS_TOP_CSV = 1,    /* one row per cost centre, libcsv's quoting */
    HS_TOP_JSON = 2
} hs_top_format;

/*
 * Writes table t (hs_top_new, census.h) in rows as they are sorted:
 *   text  a title line (what is counted, over which capability and
 *         window), then COST CENTRE, MODULE, SRC, %self, self,
 *         %inherited, inherited; names with control bytes as \xHH;
 *   CSV   name,module,srcloc,self_U,self_percent,inherited_U,
 *         inherited_percent, U being ticks, bytes or byte_seconds, each
 *         text quoted and guarded against formulas as hs_render_csv does;
 *   JSON  {"total_U": N, "tick_s": S (ticks only; null when unknown),
 *         "cost_centres": [{"name", "module", "srcloc", "self_U",
 *         "inherited_U"}]}, the self values adding up to total_U.
 * Returns HS_OK, HS_ERR_INVALID (an unknown format), HS_ERR_NOMEM or
 * HS_ERR_IO.
 */
HS_API int hs_render_top(const hs_top *t, hs_sink *out, hs_top_format format);

/* --- charts (cairo + pango) ------------------------------------------ */

typedef enum hs_chart_format {
    HS_CHART_SVG = 0,
    HS_CHART_PDF = 1,
    HS_CHART_PNG = 2
} hs_chart_format;

typedef enum hs_chart_kind {
    HS_CHART_AREA = 0,        /* stacked area */
    HS_CHART_NORMALIZED = 1,  /* each sample as 100% */
    HS_CHART_LINE = 2         /* one line per band */
} hs_chart_kind;

typedef enum hs_chart_sort {
    HS_SORT_SIZE = 0,
    HS_SORT_NAME = 1,
    HS_SORT_STDDEV = 2
} hs_chart_sort;

typedef struct hs_chart_options {
    size_t size;  /* sizeof as the caller knew it; set by _init (common.h) */
    hs_chart_format format;
    hs_chart_kind kind;
    hs_chart_sort sort;
    unsigned bands;           /* top N by byte-seconds, 0 = all; default 15 */
    const char *const *include; /* NULL-terminated glob/substring lists, or NULL */
    const char *const *exclude;
    const char *title;        /* NULL: the program and its arguments */
    double width, height;     /* 0: defaults for the format */
    double dpi;               /* PNG only; 0: 96 */
    bool no_heap_lines;       /* leave out the heap lines' panel */
} hs_chart_options;

/* Fills *opt with the defaults (area, size sort, 15 bands, SVG). */
HS_API void hs_chart_options_init_size(hs_chart_options *opt, size_t size);
static inline void hs_chart_options_init(hs_chart_options *opt)
{
    hs_chart_options_init_size(opt, sizeof *opt);
}

/* Whether this build has the chart renderer (cairo and pango). */
HS_API bool hs_chart_available(void);

/*
 * Whether charts can be drawn here: opens a small document and lays out a
 * line of text, which makes pango load fontconfig and a font. HS_OK, or
 * HS_ERR_NOMEM (cairo or pango short of memory, or no font that draws
 * text) or HS_ERR_INVALID (a build without charts) with *err (may be
 * NULL) set. Lets a caller refuse before writing rather than fail in the
 * middle; it cannot stop a library that aborts instead of failing.
 */
HS_API int hs_chart_check(hs_error *err);

/*
 * hs_chart_check, and the fonts of charts drawn with each of opts[0..n)
 * loaded ahead (fontconfig's configuration and cache, and every size and
 * weight of text such a chart lays out), into a font map left for the
 * next chart drawn in a thread that has none yet: this thread's, or
 * another's. For a caller that loads its input meanwhile in a thread of
 * its own (the library starts none); without it the first chart of each
 * thread loads its fonts itself, with the same results and bytes (SVG
 * and PDF charts: a PNG's text, drawn at its dpi on an image, is laid out
 * anew). Thread-safe. HS_OK; as hs_chart_check; HS_ERR_INVALID for a bad option,
 * HS_ERR_MISUSE for opts or one of them NULL (opts may be NULL when n is
 * 0). Since HEAPSCOPE_0.2.
 */
HS_API int hs_chart_prepare(const hs_chart_options *const *opts, size_t n,
                            hs_error *err);

/*
 * Renders a chart of c to out: a title and subtitle, the shown bands
 * (stacked, normalized or as lines) on a value axis of their own, and,
 * when c has heap size, live bytes or blocks size lines, those in a panel
 * under the bands on their own scale, sharing the time axis; user markers
 * as vertical lines; a legend with each series' peak. Labels are cut
 * (with "…") before layout, so a huge band name costs no more than a
 * short one. Allocates through c's allocator (cairo and pango use their
 * own). opt NULL: the defaults. Returns HS_OK; HS_ERR_NO_DATA (nothing
 * written) when c has no heap samples, its samples hold no band, or the
 * filters drop every band; HS_ERR_INVALID for a bad option; HS_ERR_NOMEM;
 * HS_ERR_IO from the sink.
 */
HS_API int hs_render_chart(const hs_census *c, hs_sink *out,
                           const hs_chart_options *opt);

#ifdef __cplusplus
}
#endif

#endif
