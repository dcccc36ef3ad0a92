/*
 * heapscope/render.h: renderers and the sinks they write to.
 *
 * A renderer reads a finished census table and writes bytes to a sink; it
 * never sees events. A sink is a small table of functions, so the same
 * renderer writes to a file, to memory in a test, or to a pipe.
 */
#ifndef HEAPSCOPE_RENDER_H
#define HEAPSCOPE_RENDER_H

#include "common.h"
#include "census.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where output goes. write() returns 0 on success, non-zero on failure
 * (errno set), after which the renderer stops with HS_ERR_IO. */
typedef struct hs_sink {
    int (*write)(void *ctx, const void *data, size_t len);
    void *ctx;
} hs_sink;

/* Writes all of data; returns HS_OK or HS_ERR_IO. */
HS_API int hs_sink_write(hs_sink *s, const void *data, size_t len);

/* printf to a sink; returns HS_OK or HS_ERR_IO. */
HS_API int hs_sink_printf(hs_sink *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/*
 * An output file written atomically: the data goes to a temporary file
 * beside `path`, which hs_output_commit() renames over `path`, and
 * hs_output_abort() removes. A path of "-" or NULL writes to standard
 * output instead (commit flushes it). Returns NULL with *err set when the
 * temporary file cannot be created.
 */
typedef struct hs_output hs_output;
HS_API hs_output *hs_output_open(const char *path, hs_error *err);
HS_API hs_sink *hs_output_sink(hs_output *o);
/* Closes and renames; frees o. HS_OK or HS_ERR_IO with *err set. */
HS_API int hs_output_commit(hs_output *o, hs_error *err);
/* Closes and removes the temporary file; frees o. NULL is harmless. */
HS_API void hs_output_abort(hs_output *o);

/* A growing in-memory sink (for tests and embedding). */
typedef struct hs_membuf {
    char *data;   /* NUL-terminated, owned; free with hs_membuf_free() */
    size_t len, cap;
} hs_membuf;
HS_API hs_sink hs_membuf_sink(hs_membuf *m);
HS_API void hs_membuf_free(hs_membuf *m);

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

/* --- folded stacks ------------------------------------------------------ */

typedef enum hs_folded_source {
    HS_FOLDED_HEAP = 0,
    HS_FOLDED_TIME = 1
} hs_folded_source;

typedef enum hs_folded_weight {
    HS_WEIGHT_PEAK = 0,      /* bytes at the sample with the largest total */
    HS_WEIGHT_INTEGRAL = 1,  /* byte-seconds over the run */
    HS_WEIGHT_LAST = 2       /* bytes at the last sample */
} hs_folded_weight;

typedef struct hs_folded_options {
    hs_folded_source source;
    hs_folded_weight weight;
    bool per_capability;     /* time: the capability as the root frame */
} hs_folded_options;

/*
 * Writes "frame;frame N" lines, outermost frame first, frames of cost
 * centres as "Module.label" (undefined ones "<cc N>", the empty stack
 * "MAIN"); other heap breakdowns one frame per band. Lines with equal
 * frames are summed; weights are rounded to whole numbers and lines that
 * round to 0 are left out. In frames ';' becomes ':', line breaks and TABs
 * spaces, an empty frame "?", and a space before a frame's trailing digits
 * '_'. With per_capability the root frame is "cap N". opt NULL: heap,
 * peak. Returns HS_OK, HS_ERR_NO_DATA (nothing written) when the census
 * lacks the profile asked for, HS_ERR_INVALID, HS_ERR_NOMEM or HS_ERR_IO.
 */
HS_API int hs_render_folded(const hs_census *c, hs_sink *out,
                            const hs_folded_options *opt);

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
    hs_chart_format format;
    hs_chart_kind kind;
    hs_chart_sort sort;
    unsigned bands;           /* top N by byte-seconds, 0 = all; default 15 */
    const char *const *include; /* NULL-terminated glob/substring lists, or NULL */
    const char *const *exclude;
    const char *title;        /* NULL: the program and its arguments */
    double width, height;     /* 0: defaults for the format */
    double dpi;               /* PNG only; 0: 96 */
    bool no_heap_lines;
} hs_chart_options;

/* Fills *opt with the defaults (area, size sort, 15 bands, SVG). */
HS_API void hs_chart_options_init(hs_chart_options *opt);

/* Whether this build has the chart renderer (cairo and pango). */
HS_API bool hs_chart_available(void);

/* Renders a chart; HS_ERR_NO_DATA when the census has no heap samples. */
HS_API int hs_render_chart(const hs_census *c, hs_sink *out,
                           const hs_chart_options *opt);

#ifdef __cplusplus
}
#endif

#endif
