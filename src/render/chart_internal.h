/*
 * The chart renderer's pieces, for renderers that compose charts of their
 * own (the diff's two profiles and change panel, the report page's inline
 * chart). Not part of the public surface.
 *
 * The pieces, in the order a chart is made:
 *
 *   selection  which bands are drawn as which series, and how each looks
 *              (colour, hatching). Independent of any census once built,
 *              so two censuses can be drawn with the same bands and looks.
 *   binding    one census mapped onto a selection: census band -> series,
 *              each series' peak in that census, the largest stacked total
 *              (for a shared y scale) and the run's end.
 *   points     a binding reduced to at most one point per pixel column.
 *   document   a cairo surface writing SVG, PDF or PNG to a sink, with a
 *              canvas (cairo context, pango context, recorded texts) to
 *              draw on; closing it post-processes the SVG.
 *   panel      a rectangle of the canvas with its time and value mapping;
 *              bands, heap lines, axes and markers are drawn into panels.
 *   legend     swatch, label and peak per series, then the heap lines.
 *
 * Every allocation goes through the allocator given (the census's, from
 * hs_census_allocator); cairo, pango and glib allocate on their own.
 * Functions that draw record failures in the canvas's sticky `status`.
 */
#ifndef HEAPSCOPE_CHART_INTERNAL_H
#define HEAPSCOPE_CHART_INTERNAL_H

#include "heapscope/render.h"
#include "common/internal.h"
#include "render/band_look.h"

#include <cairo.h>
#include <pango/pangocairo.h>

/* --- text (chart_text.c) ------------------------------------------------ */

/*
 * Labels are cut to this many bytes (at a character boundary, "…" added)
 * before anything else sees them: pango lays out, and so allocates for,
 * every character it is given even when it ellipsizes, so a 10 MB band
 * name would cost gigabytes. Drawn text is cut shorter still; the SVG's
 * searchable layer and tooltips keep the longer form.
 */
#define HS_CHART_LABEL_MAX 4096
#define HS_CHART_DRAWN_MAX 512

/*
 * A copy of at most `cap` bytes of s (plus "…" when cut) that pango and
 * XML accept: invalid UTF-8 becomes U+FFFD, control characters spaces.
 * Allocated with `a`; NULL when out of memory.
 */
char *hs_chart_clean_text(const hs_allocator *a, const char *s, size_t cap);

/* "310 ms", "1.25 s", "4.0 min". */
void hs_chart_fmt_seconds(char *buf, size_t n, double s);
/* "812 B", "12.4 MiB": hs_format_bytes, under the name the composing
 * renderers (diff) were written against. */
void hs_chart_fmt_bytes(char *buf, size_t n, double v);

/* A text drawn, kept for the SVG's searchable layer. */
typedef struct hs_chart_text {
    char *text;       /* the full (capped) text, not the ellipsized one */
    double x, y, size, width;
    bool vertical;
} hs_chart_text;

struct hs_chart_series;

/* A band area drawn, in drawing order, for the SVG's per-area titles. */
typedef struct hs_chart_area {
    const struct hs_chart_series *ser;
    double peak;
} hs_chart_area;

/* What every drawing call draws on. */
typedef struct hs_chart_canvas {
    cairo_t *cr;
    PangoContext *pango;
    const hs_allocator *alloc;
    double scale;          /* device pixels per chart unit (PNG dpi) */
    double font;           /* base font size, chart units */
    bool want_text;        /* record texts and areas (SVG) */
    hs_chart_text *texts;
    size_t ntexts, captexts;
    hs_chart_area *areas;
    size_t nareas, capareas;
    int status;            /* first failure, HS_OK until then */
} hs_chart_canvas;

enum { HS_ALIGN_LEFT, HS_ALIGN_RIGHT, HS_ALIGN_CENTER };

/* The charts' font sizes, as parts of the canvas's base font: every size
 * a chart lays text out in, so the fonts can be loaded ahead
 * (hs_chart_warm_text). */
#define HS_CHART_FS_TITLE 1.35  /* the title, bold */
#define HS_CHART_FS_TEXT 0.9    /* the subtitle and the axes */
#define HS_CHART_FS_LEGEND 0.85 /* the legend's rows */
#define HS_CHART_FS_NOTE 0.8    /* the heap panel's caption and markers */

/*
 * Draws text with its top-left (top-right, top-centre) corner at x, y,
 * ellipsized to max_w (0 = no limit); returns the drawn width.
 */
double hs_chart_draw_text(hs_chart_canvas *cv, const char *text, double x,
                          double y, double size, bool bold, double max_w,
                          int align, uint32_t rgb);
/* The same, drawing `text` (a shortened label) and keeping `full` in the
 * SVG's searchable layer. */
double hs_chart_draw_label(hs_chart_canvas *cv, const char *text,
                           const char *full, double x, double y, double size,
                           double max_w, int align, uint32_t rgb, bool bold);
/* Text running upwards from x, y_top + its width, on a pale backing. */
void hs_chart_draw_text_vertical(hs_chart_canvas *cv, const char *text,
                                 double x, double y_top, double size,
                                 double max_w, uint32_t rgb);
double hs_chart_text_width(hs_chart_canvas *cv, const char *text,
                           double size, bool bold);
/* The height of a row of text of `size`, tall enough for CJK glyphs. */
double hs_chart_line_height(hs_chart_canvas *cv, double size);
/* Lays text out in every size and weight a chart of base font `font`
 * uses (HS_CHART_FS_*), loading those fonts into the canvas's font map. */
void hs_chart_warm_text(hs_chart_canvas *cv, double font);
/* Records a band area for the SVG's titles (no-op unless want_text). */
void hs_chart_note_area(hs_chart_canvas *cv, const struct hs_chart_series *s,
                        double peak);

/* --- styles drawn (chart_style.c; the palette is band_look.h's) ---------- */

void hs_chart_set_rgb(cairo_t *cr, uint32_t rgb, double alpha);
/* Fills (and consumes) the current path in the series' colour, hatched
 * when the series is. */
void hs_chart_fill_series(cairo_t *cr, const struct hs_chart_series *s,
                          cairo_fill_rule_t rule);

/* The heap lines' names and looks (dash 0 = solid). */
typedef struct hs_chart_line_style {
    const char *name;
    uint32_t rgb;
    double dash;
} hs_chart_line_style;
extern const hs_chart_line_style hs_chart_line_styles[HS_LINE_COUNT];

/* --- selection and binding (chart_select.c) ------------------------------ */

/* One drawn series: a band (by name), or OTHER holding the rest. */
typedef struct hs_chart_series {
    const char *name; /* the band's name, borrowed; NULL for OTHER */
    char *label;      /* clean, capped text for legends and titles; owned */
    size_t members;   /* bands summed into it */
    double integral;  /* byte-seconds (in the census it was chosen from) */
    double stddev;
    double peak;      /* largest value, set by hs_chart_bind */
    uint32_t colour;
    bool hatched;     /* stripes over the colour; dashes for a line */
    bool other;
    size_t band;      /* band index in the census it was chosen from */
} hs_chart_series;

typedef struct hs_chart_selection {
    const hs_allocator *alloc;
    hs_chart_series *ser;  /* bottom of the stack first; OTHER last */
    size_t nser, cap;
    bool has_other;
    const hs_census *source; /* the census hs_chart_select chose from */
    unsigned used[HS_CHART_NSTYLES];
} hs_chart_selection;

/* An empty selection; free it with hs_chart_selection_free. */
void hs_chart_selection_init(hs_chart_selection *sel, const hs_allocator *a);
void hs_chart_selection_free(hs_chart_selection *sel);
/*
 * Adds a band as a series, taking the next style: add in rank order
 * (largest first) so the large bands keep their own looks. `name` is
 * borrowed (not copied: names can be megabytes) and must outlive the
 * selection, as a census's band names do. HS_OK or HS_ERR_NOMEM.
 */
int hs_chart_selection_add(hs_chart_selection *sel, const char *name,
                           double integral, double stddev);
/*
 * Orders the series for stacking and, when other_members > 0, adds OTHER
 * ("OTHER (N bands)") on top. HS_OK or HS_ERR_NOMEM.
 */
int hs_chart_selection_finish(hs_chart_selection *sel, hs_chart_sort sort,
                              size_t other_members, double other_integral);
/*
 * The chart's own choice: bands kept by opt's include/exclude, the
 * opt->bands largest by byte-seconds as series, the rest as OTHER, in
 * opt->sort order. HS_OK, HS_ERR_NO_DATA when no band is kept, or
 * HS_ERR_NOMEM.
 */
int hs_chart_select(hs_chart_selection *sel, const hs_census *c,
                    const hs_chart_options *opt, const hs_allocator *a);

typedef struct hs_chart_binding {
    const hs_census *c;
    const hs_allocator *alloc;
    int32_t *slot_of;      /* census band -> series index, -1 = not drawn */
    size_t nbands;
    double *peak;          /* per series: its largest value in c */
    double max_total;      /* largest sum of the drawn series at a sample */
    double max_series;     /* largest single series value */
    double t_end;          /* seconds: the last sample or the run's end */
    double peak_total;     /* the whole heap's peak (every band) */
    uint64_t peak_time;    /* ns, when it peaked */
    double integral_total; /* byte-seconds of every band */
} hs_chart_binding;

/*
 * Maps census c onto sel: the census sel was chosen from by band index,
 * any other by name (bands without a series go to OTHER when sel has one,
 * unless opt's filters drop them; opt may be NULL). Fills the peaks and
 * maxima, and sets every series' `peak` from c. HS_OK, HS_ERR_NO_DATA
 * when c has no samples, or HS_ERR_NOMEM; free with hs_chart_binding_free.
 */
int hs_chart_bind(hs_chart_binding *b, hs_chart_selection *sel,
                  const hs_census *c, const hs_chart_options *opt);
/*
 * The same with the band -> series map given by the caller (slot_of[k]
 * for census band k, -1 = not drawn; copied), for charts whose bands match
 * by something other than their census names (the diff's normalised
 * names). Series peaks are left in b->peak, not copied into sel.
 */
int hs_chart_bind_map(hs_chart_binding *b, hs_chart_selection *sel,
                      const hs_census *c, const int32_t *slot_of);
void hs_chart_binding_free(hs_chart_binding *b);

/* --- per-pixel-column reduction (chart_reduce.c) ------------------------- */

typedef struct hs_chart_points {
    const hs_allocator *alloc;
    size_t npts, nser;
    double *t;             /* seconds */
    double *v;             /* npts x nser values */
} hs_chart_points;

/*
 * At most one point per column of `ncols` over [0, t_span] seconds: for
 * stacked kinds the column's sample with the largest drawn total, for
 * lines each series' largest value, so no peak is lost. Normalized rows
 * sum to 1. A lone sample spans the axis. HS_OK or HS_ERR_NOMEM; free
 * with hs_chart_points_free.
 */
int hs_chart_reduce(hs_chart_points *p, const hs_chart_binding *b,
                    size_t nser, bool has_other, hs_chart_kind kind,
                    double t_span, size_t ncols);
void hs_chart_points_free(hs_chart_points *p);
/* The column of time t (seconds) among ncols over [0, t_span]. */
size_t hs_chart_column_of(double t, double t_span, size_t ncols);

/*
 * Columns of times in nanoseconds, each hs_chart_column_of(ns / 1e9, ...)
 * exactly, without a division per time: the cursor keeps the range of
 * times [lo, hi) that fall in its column (the column is monotonic in the
 * time) and computes a column only for a time outside it. Fastest for
 * times in order, right for any.
 */
typedef struct hs_chart_col_cursor {
    double t_span;
    size_t ncols;
    uint64_t lo, hi; /* times in column col; empty at first */
    size_t col;
} hs_chart_col_cursor;
void hs_chart_col_cursor_init(hs_chart_col_cursor *k, double t_span,
                              size_t ncols);
/* The column of a time outside the cursor's range, which then holds it. */
size_t hs_chart_col_cursor_move(hs_chart_col_cursor *k, uint64_t ns);
static inline size_t hs_chart_col_cursor_at(hs_chart_col_cursor *k,
                                            uint64_t ns)
{
    if (ns >= k->lo && ns < k->hi)
        return k->col;
    return hs_chart_col_cursor_move(k, ns);
}

/* --- panels, axes, markers (chart_panel.c, chart_axes.c) ----------------- */

/*
 * A rectangle of the canvas and its mapping: time 0..t_span seconds
 * across x0..x1 (t_span = a run's own end draws time normalised to that
 * run), value ybottom..ytop from y1 up to y0 (bytes, or 1 for normalized;
 * ybottom is 0 but for a panel of signed values, such as a change per
 * band, where it is negative).
 */
typedef struct hs_chart_panel {
    double x0, y0, x1, y1;
    double t_span;
    double ytop;
    double ybottom;
} hs_chart_panel;

double hs_chart_xpos(const hs_chart_canvas *cv, const hs_chart_panel *p,
                     double seconds);
double hs_chart_ypos(const hs_chart_canvas *cv, const hs_chart_panel *p,
                     double v);
/* Pixel columns across the panel (at least 2). */
size_t hs_chart_panel_columns(const hs_chart_canvas *cv,
                              const hs_chart_panel *p);

/*
 * Draws the series of sel with points pts into panel p: stacked areas
 * (area, normalized) or one line per series (line). Areas are recorded
 * for the SVG's titles with the peaks given (NULL: each series' peak).
 */
void hs_chart_draw_bands(hs_chart_canvas *cv, const hs_chart_panel *p,
                         const hs_chart_selection *sel,
                         const hs_chart_points *pts, hs_chart_kind kind,
                         const double *peaks);
/* Heap size, live bytes and blocks size of c, one vertex per column. */
void hs_chart_draw_heap_lines(hs_chart_canvas *cv, const hs_chart_panel *p,
                              const hs_census *c);
/* The heap lines' peaks (0 when absent); returns the largest. */
double hs_chart_heap_peaks(const hs_census *c, double peak[HS_LINE_COUNT]);
/* c's user markers as lines from p->y0 down to y_bottom, labelled in p. */
void hs_chart_draw_markers(hs_chart_canvas *cv, const hs_chart_panel *p,
                           const hs_census *c, double y_bottom);

/* A tick axis: ticks every `step` units from `bottom` (0, or below 0 for
 * signed values) up to `top` units. */
typedef struct hs_chart_axis {
    double unit;           /* axis quantity per unit (bytes, seconds) */
    const char *unit_name; /* "MiB", "s", "%" ... */
    double step, top;      /* in units */
    double bottom;         /* in units, <= 0 */
} hs_chart_axis;

/* A byte (or, percent, fraction) axis reaching vmax, ticks about every
 * 4 fonts over `length` chart units. */
void hs_chart_value_axis(hs_chart_axis *ax, double vmax, double length,
                         double font, bool percent);
/* A byte axis from vmin (<= 0) to vmax, for signed values: bottom and top
 * on round ticks, 0 among them. */
void hs_chart_value_axis_signed(hs_chart_axis *ax, double vmin, double vmax,
                                double length, double font);
/* A time axis reaching t_end seconds (normalised: 0..1 shown in %). */
void hs_chart_time_axis(hs_chart_axis *ax, double t_end, double length,
                        double font, bool normalised);
/* The top and the bottom of the axis in its quantity (bytes, seconds):
 * what a panel's ytop and ybottom take. */
double hs_chart_axis_end(const hs_chart_axis *ax);
double hs_chart_axis_start(const hs_chart_axis *ax);
/* The width of ax's widest value label at font size fs. */
double hs_chart_axis_label_width(hs_chart_canvas *cv, const hs_chart_axis *ax,
                                 double fs);
/* Horizontal grid lines and value labels left of the panel (the 0 line
 * darker), for an axis whose start and end are the panel's ybottom and
 * ytop. */
void hs_chart_draw_value_axis(hs_chart_canvas *cv, const hs_chart_panel *p,
                              const hs_chart_axis *ax);
/* Vertical grid lines of the time ticks across panel p. */
void hs_chart_draw_time_grid(hs_chart_canvas *cv, const hs_chart_panel *p,
                             const hs_chart_axis *ax);
/* Time tick labels under p and, unless NULL, `title` (e.g. "elapsed
 * time") under them with the unit: "elapsed time (s)". */
void hs_chart_draw_time_labels(hs_chart_canvas *cv, const hs_chart_panel *p,
                               const hs_chart_axis *ax, const char *title);

/* --- legend (chart_legend.c) ---------------------------------------------- */

/*
 * Swatch, label and peak per series (top of the stack first; peaks from
 * `peaks` or each series' own when NULL), then one row per heap line whose
 * line_peak[l] > 0 (line_peak may be NULL), in the box x..x+w, y..bottom.
 * When not all fit, the largest series are listed and a last row says how
 * many were left out.
 */
void hs_chart_draw_legend(hs_chart_canvas *cv, const hs_chart_selection *sel,
                          const double *peaks,
                          const double line_peak[HS_LINE_COUNT], double x,
                          double w, double y, double bottom);
/* Only the heap lines' rows (those with line_peak[l] > 0), from y down:
 * beside a heap-lines panel. */
void hs_chart_draw_line_legend(hs_chart_canvas *cv,
                               const double line_peak[HS_LINE_COUNT],
                               double x, double w, double y);

/* --- documents: SVG, PDF, PNG back ends (chart_doc.c) ---------------------- */

typedef struct hs_chart_doc {
    hs_chart_canvas cv;
    double w, h;           /* chart units: CSS px (SVG, PNG) or points (PDF) */
    hs_chart_format format;
    /* private */
    cairo_surface_t *surf;
    PangoFontMap *fonts;
    hs_sink *out;
    char *title;
    struct hs_chart_stream *stream;
} hs_chart_doc;

/*
 * Opens a document of opt's format and size (defaults when 0: 1200 x 720
 * px, A4 landscape for PDF), opt checked by hs_chart_check_options() (the
 * renderer's entry point checks once per chart), writing to out, titled `title` (PDF metadata,
 * SVG <title>), its canvas painted white. HS_OK, HS_ERR_INVALID for a
 * size cairo refuses, HS_ERR_NOMEM; on failure nothing is left to close.
 */
int hs_chart_doc_open(hs_chart_doc *d, const hs_chart_options *opt,
                      hs_sink *out, const char *title, const hs_allocator *a);
/*
 * Finishes the document and writes it (SVG with a title per recorded band
 * area and the searchable text layer). Returns the first failure of the
 * drawing (the canvas's status), cairo, or the sink; frees everything.
 */
int hs_chart_doc_close(hs_chart_doc *d);
/* The base font size of a chart drawn with opt (checked). */
double hs_chart_doc_font(const hs_chart_options *opt);
/*
 * Leaves this thread's font map, if it has one, for the next thread that
 * opens a document without one of its own (this one or another), which
 * takes it over; a map already left is kept and this one dropped.
 */
void hs_chart_fonts_hand_over(void);

/* Validates opt's enums and sizes: HS_OK or HS_ERR_INVALID. */
int hs_chart_check_options(const hs_chart_options *opt);

#endif
