/*
 * The chart renderer: stacked-area, normalized and line charts of a census
 * as SVG, PDF or PNG, drawn with cairo, every text laid out by pango.
 *
 * The work comes in three passes over the census so that memory stays
 * proportional to (shown bands x pixel columns), never to the samples:
 *   1. per band: byte-seconds, peak, mean and spread (for ranking, sorting
 *      and the legend), and the whole heap's peak;
 *   2. per shown series (a band, or OTHER holding the rest): its peak and
 *      the value axis's maximum;
 *   3. one point per pixel column, after the layout has fixed how many
 *      columns the plot has. A column keeps its largest sample, so the
 *      peaks are never lost however many samples fall into it.
 *
 * SVG output is post-processed in memory: cairo writes glyphs as outlines
 * (so any name shows in any viewer), and we add what cairo cannot say: a
 * <title> per band area (a tooltip in browsers) and an invisible text layer
 * holding every label in full, so the file can be searched and copied from.
 */
#include "heapscope/reader.h"
#include "heapscope/render.h"
#include "internal.h"

#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <pango/pangocairo.h>

#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Sizes in the chart's own units: CSS pixels for SVG and PNG, points for
 * PDF (A4 landscape). */
#define DEFAULT_W 1200.0
#define DEFAULT_H 720.0
#define PDF_W 842.0
#define PDF_H 595.0
#define MIN_SIDE 160.0
#define MAX_SIDE 20000.0
#define MAX_PNG_PIXELS 32767.0

#define OTHER_COLOUR 0xbbbbbbu

/*
 * A palette readers with any common colour-vision deficiency can tell
 * apart: Paul Tol's "muted" scheme plus the blue and orange of his
 * "vibrant" one. Each band's style is a hash of its name: one of these
 * hues, plain or hatched (dashed in line charts), so a band keeps its look
 * across runs and across charts. Eleven hues are fewer than the bands of a
 * chart; hatching doubles the styles, and neighbours that still draw the
 * same style are told apart by the thin white seam drawn between areas.
 * OTHER is grey, which no band gets.
 */
static const uint32_t palette[] = {
    0xcc6677, 0x332288, 0xddcc77, 0x117733, 0x88ccee, 0x882255,
    0x44aa99, 0x999933, 0xaa4499, 0x0077bb, 0xee7733,
};
#define NPALETTE (sizeof palette / sizeof palette[0])

/* One band of the census: what ranking and sorting need. */
typedef struct band_stat {
    double integral; /* byte-seconds */
    double peak;
    double stddev;   /* over all samples, absent = 0 */
    bool excluded;   /* dropped by --include / --exclude */
} band_stat;

/* One drawn series: a band, or OTHER. */
typedef struct series {
    char *label;      /* valid UTF-8 without control characters, owned */
    size_t band;      /* census band; SIZE_MAX for OTHER */
    size_t members;   /* bands summed into it */
    double integral, stddev, peak;
    uint32_t colour;
    bool hatched;     /* stripes over the colour; dashes for a line */
} series;

/* Text drawn, kept for the SVG's searchable layer. */
typedef struct text_rec {
    char *text;       /* the full text, not the ellipsized one */
    double x, y, size, width;
    bool vertical;
} text_rec;

typedef struct chart {
    const hs_census *c;
    const hs_chart_options *opt;
    const hs_census_info *info;
    size_t nsamples, nbands;

    band_stat *bands;
    int32_t *slot_of;       /* band -> series index, -1 = not drawn */
    series *ser;            /* bottom of the stack first; OTHER last */
    size_t nser;
    bool has_other;
    double peak_total;      /* the whole heap's peak (every band) */
    uint64_t peak_time;
    double integral_total;
    double ymax;            /* the data's largest value on the value axis */

    /* Heap lines (area charts only). */
    const hs_census_point *lines[HS_LINE_COUNT];
    size_t nline[HS_LINE_COUNT];

    /* Geometry. */
    double w, h, scale;     /* chart units; device pixels per unit (PNG) */
    double font;            /* base font size */
    double px0, px1, py0, py1; /* plot rectangle */
    double t1;              /* x axis end, seconds */
    double xstep, ystep, ytop; /* tick step and axis top (axis units) */
    double xunit, yunit;    /* seconds per x axis unit, bytes per y unit */
    const char *xunit_name, *yunit_name;

    /* Reduced points. */
    size_t npts;
    double *px;             /* seconds */
    double *pv;             /* npts x nser values */

    cairo_t *cr;
    PangoContext *pango;
    bool want_text;         /* record texts (SVG) */
    text_rec *texts;
    size_t ntexts, captexts;
    int status;
} chart;

/* --- small helpers -------------------------------------------------- */

static uint32_t fnv1a(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 16777619u;
    }
    return h;
}

#define NSTYLES (2 * NPALETTE)

/*
 * The style of a band named `name`: preferably a function of the name
 * alone, so a band keeps its look across charts. Bands claim styles in
 * rank order (largest first); a band whose preferred style is taken, or
 * whose hue another band already wears, takes the next style that is least
 * used, hue first: hues run out before hatched variants are shared, no two
 * shown bands look alike while there are styles left, and the large bands,
 * which claim first, keep their own. used[] counts claims per style.
 */
static void band_style(const char *name, unsigned used[NSTYLES],
                       uint32_t *colour, bool *hatched)
{
    uint32_t h = fnv1a(name);
    unsigned want = (unsigned)(h % NPALETTE) +
                    (unsigned)NPALETTE * ((h / NPALETTE) % 2);
    unsigned best = want, best_score = UINT_MAX;
    for (unsigned k = 0; k < NSTYLES && best_score; k++) {
        unsigned cand = (want + k) % NSTYLES;
        unsigned hue = cand % NPALETTE;
        unsigned score = used[cand] * 1000 + used[hue] + used[hue + NPALETTE];
        if (score < best_score) {
            best = cand;
            best_score = score;
        }
    }
    used[best]++;
    *colour = palette[best % NPALETTE];
    *hatched = best >= NPALETTE;
}

static void set_rgb(cairo_t *cr, uint32_t rgb, double alpha)
{
    cairo_set_source_rgba(cr, ((rgb >> 16) & 0xff) / 255.0,
                          ((rgb >> 8) & 0xff) / 255.0, (rgb & 0xff) / 255.0,
                          alpha);
}

/*
 * Fills the current path with the series' colour and, for a hatched
 * series, pale diagonal stripes clipped to it. Stripes are drawn as lines,
 * not as a pattern: cairo 1.16 leaks the recording surfaces that vector
 * patterns need, and lines stay crisp at any zoom. The path is consumed.
 */
static void fill_series(cairo_t *cr, const series *s, cairo_fill_rule_t rule)
{
    set_rgb(cr, s->colour, 1);
    cairo_set_fill_rule(cr, rule);
    if (!s->hatched) {
        cairo_fill(cr);
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
        return;
    }
    cairo_fill_preserve(cr);
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
    double x0, y0, x1, y1;
    cairo_path_extents(cr, &x0, &y0, &x1, &y1);
    cairo_save(cr);
    cairo_clip(cr);
    const double step = 6;
    /* lines x + y = c, with c on a fixed grid so that stripes line up
     * between neighbouring areas */
    double c0 = floor((x0 + y0) / step) * step;
    for (double c = c0; c <= x1 + y1 + step; c += step) {
        cairo_move_to(cr, c - y1, y1);
        cairo_line_to(cr, c - y0 + 0, y0);
    }
    cairo_set_source_rgba(cr, 1, 1, 1, 0.55);
    cairo_set_line_width(cr, 1.4);
    cairo_stroke(cr);
    cairo_restore(cr);
}

/* A copy of s that pango and XML accept: invalid UTF-8 becomes U+FFFD and
 * control characters become spaces. NULL when out of memory. */
static char *clean_text(const char *s)
{
    gchar *v = g_utf8_make_valid(s ? s : "", -1);
    if (!v)
        return NULL;
    char *out = strdup(v);
    g_free(v);
    if (!out)
        return NULL;
    for (unsigned char *p = (unsigned char *)out; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            *p = ' ';
    return out;
}

static bool has_glob(const char *p)
{
    return strpbrk(p, "*?[") != NULL;
}

static bool pattern_match(const char *pat, const char *name)
{
    if (has_glob(pat))
        return fnmatch(pat, name, 0) == 0;
    return strstr(name, pat) != NULL;
}

static bool any_match(const char *const *pats, const char *name)
{
    for (; pats && *pats; pats++)
        if (pattern_match(*pats, name))
            return true;
    return false;
}

static bool band_filtered_out(const hs_chart_options *opt, const char *name)
{
    if (opt->include && opt->include[0] && !any_match(opt->include, name))
        return true;
    return any_match(opt->exclude, name);
}

/* 1, 2, 2.5 or 5 times a power of ten, at least range / target. */
static double nice_step(double range, double target)
{
    if (!(range > 0))
        return 1;
    if (target < 1)
        target = 1;
    double raw = range / target;
    double mag = pow(10, floor(log10(raw)));
    double f = raw / mag;
    double n = f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10;
    return n * mag;
}

/* Decimals needed to print multiples of step exactly. */
static int step_decimals(double step)
{
    for (int d = 0; d < 4; d++) {
        double v = step * pow(10, d);
        if (fabs(v - round(v)) < 1e-6 * (v > 1 ? v : 1))
            return d;
    }
    return 4;
}

static const char *const byte_units[] = {"B", "KiB", "MiB", "GiB", "TiB",
                                         "PiB"};

/* Human bytes for the legend and subtitle: "812 B", "12.4 MiB". */
static void fmt_bytes(char *buf, size_t n, double v)
{
    int u = 0;
    while (v >= 1024 && u < 5) {
        v /= 1024;
        u++;
    }
    if (u == 0)
        snprintf(buf, n, "%.0f B", v);
    else
        snprintf(buf, n, "%.*f %s", v < 10 ? 2 : v < 100 ? 1 : 0, v,
                 byte_units[u]);
}

static void fmt_seconds(char *buf, size_t n, double s)
{
    if (s < 1)
        snprintf(buf, n, "%.0f ms", s * 1000);
    else if (s < 120)
        snprintf(buf, n, "%.2f s", s);
    else if (s < 7200)
        snprintf(buf, n, "%.1f min", s / 60);
    else
        snprintf(buf, n, "%.1f h", s / 3600);
}

static int from_cairo(cairo_status_t st)
{
    switch (st) {
    case CAIRO_STATUS_SUCCESS: return HS_OK;
    case CAIRO_STATUS_NO_MEMORY: return HS_ERR_NOMEM;
    case CAIRO_STATUS_WRITE_ERROR: return HS_ERR_IO;
    case CAIRO_STATUS_INVALID_SIZE: return HS_ERR_INVALID;
    default: return HS_ERR_IO;
    }
}

/* --- pass 1: band statistics ----------------------------------------- */

static double sample_seconds(const chart *ch, size_t i)
{
    return hs_census_sample_time(ch->c, i) / 1e9;
}

static int gather_band_stats(chart *ch)
{
    ch->bands = calloc(ch->nbands ? ch->nbands : 1, sizeof *ch->bands);
    hs_band_stats *st = calloc(ch->nbands ? ch->nbands : 1, sizeof *st);
    if (!ch->bands || !st || hs_census_band_stats(ch->c, st) != HS_OK) {
        free(st);
        return HS_ERR_NOMEM;
    }
    for (size_t b = 0; b < ch->nbands; b++) {
        const char *name = hs_census_band_name(ch->c, b);
        band_stat *bs = &ch->bands[b];
        bs->excluded = band_filtered_out(ch->opt, name ? name : "");
        bs->integral = st[b].byte_seconds;
        bs->peak = (double)st[b].peak_bytes;
        bs->stddev = st[b].stddev_bytes;
        ch->integral_total += st[b].byte_seconds;
    }
    free(st);
    size_t peak = hs_census_peak_sample(ch->c);
    if (peak != SIZE_MAX) {
        ch->peak_total = (double)hs_census_sample_total(ch->c, peak);
        ch->peak_time = hs_census_sample_time(ch->c, peak);
    }
    return HS_OK;
}

/* --- choosing and ordering the series --------------------------------- */

typedef struct rank {
    size_t band;
    double key;
    const char *name;
} rank;

static int by_integral_desc(const void *a, const void *b)
{
    const rank *x = a, *y = b;
    if (x->key != y->key)
        return x->key > y->key ? -1 : 1;
    return strcmp(x->name, y->name);
}

static int series_by_size(const void *a, const void *b)
{
    const series *x = a, *y = b;
    if (x->integral != y->integral)
        return x->integral > y->integral ? -1 : 1;
    return strcmp(x->label, y->label);
}

static int series_by_name(const void *a, const void *b)
{
    const series *x = a, *y = b;
    return strcmp(x->label, y->label);
}

/* The steadiest bands at the bottom, so that the bands that move are the
 * ones whose outline the eye follows. */
static int series_by_stddev(const void *a, const void *b)
{
    const series *x = a, *y = b;
    if (x->stddev != y->stddev)
        return x->stddev < y->stddev ? -1 : 1;
    return strcmp(x->label, y->label);
}

static int choose_series(chart *ch)
{
    size_t nkept = 0;
    rank *r = malloc((ch->nbands ? ch->nbands : 1) * sizeof *r);
    ch->slot_of = malloc((ch->nbands ? ch->nbands : 1) * sizeof *ch->slot_of);
    if (!r || !ch->slot_of) {
        free(r);
        return HS_ERR_NOMEM;
    }
    for (size_t b = 0; b < ch->nbands; b++) {
        ch->slot_of[b] = -1;
        if (ch->bands[b].excluded)
            continue;
        const char *name = hs_census_band_name(ch->c, b);
        r[nkept++] = (rank){b, ch->bands[b].integral, name ? name : ""};
    }
    if (!nkept) {
        free(r);
        return HS_ERR_NO_DATA;
    }
    qsort(r, nkept, sizeof *r, by_integral_desc);
    size_t shown = nkept;
    if (ch->opt->bands && ch->opt->bands < nkept)
        shown = ch->opt->bands;
    ch->has_other = shown < nkept;
    ch->nser = shown + (ch->has_other ? 1 : 0);
    ch->ser = calloc(ch->nser, sizeof *ch->ser);
    if (!ch->ser) {
        free(r);
        return HS_ERR_NOMEM;
    }
    unsigned used[NSTYLES] = {0};
    for (size_t i = 0; i < shown; i++) {
        const band_stat *bs = &ch->bands[r[i].band];
        series *s = &ch->ser[i];
        s->label = clean_text(r[i].name);
        if (!s->label) {
            free(r);
            return HS_ERR_NOMEM;
        }
        s->band = r[i].band;
        s->members = 1;
        s->integral = bs->integral;
        s->stddev = bs->stddev;
        band_style(r[i].name, used, &s->colour, &s->hatched);
    }
    switch (ch->opt->sort) {
    case HS_SORT_NAME:
        qsort(ch->ser, shown, sizeof *ch->ser, series_by_name);
        break;
    case HS_SORT_STDDEV:
        qsort(ch->ser, shown, sizeof *ch->ser, series_by_stddev);
        break;
    default:
        qsort(ch->ser, shown, sizeof *ch->ser, series_by_size);
        break;
    }
    for (size_t i = 0; i < shown; i++)
        ch->slot_of[ch->ser[i].band] = (int32_t)i;
    if (ch->has_other) {
        series *o = &ch->ser[shown];
        o->band = SIZE_MAX;
        o->members = nkept - shown;
        for (size_t i = shown; i < nkept; i++) {
            ch->slot_of[r[i].band] = (int32_t)shown;
            o->integral += ch->bands[r[i].band].integral;
        }
        char buf[64];
        snprintf(buf, sizeof buf, "OTHER (%zu band%s)", o->members,
                 o->members == 1 ? "" : "s");
        o->label = strdup(buf);
        o->colour = OTHER_COLOUR;
        if (!o->label) {
            free(r);
            return HS_ERR_NOMEM;
        }
    }
    free(r);
    return HS_OK;
}

/* --- pass 2: series peaks and the value axis --------------------------- */

static int gather_series_peaks(chart *ch)
{
    double *acc = calloc(ch->nser, sizeof *acc);
    size_t *touched = malloc(ch->nser * sizeof *touched);
    if (!acc || !touched) {
        free(acc);
        free(touched);
        return HS_ERR_NOMEM;
    }
    double best_total = 0;
    for (size_t i = 0; i < ch->nsamples; i++) {
        const hs_census_entry *e;
        size_t n = hs_census_sample_entries(ch->c, i, &e), nt = 0;
        double tot = 0;
        for (size_t k = 0; k < n; k++) {
            if (e[k].band >= ch->nbands || ch->slot_of[e[k].band] < 0)
                continue;
            size_t s = (size_t)ch->slot_of[e[k].band];
            if (acc[s] == 0)
                touched[nt++] = s;
            acc[s] += (double)e[k].bytes;
            tot += (double)e[k].bytes;
            if (acc[s] == 0) /* a zero entry: keep it out of the list */
                nt--;
        }
        for (size_t k = 0; k < nt; k++) {
            size_t s = touched[k];
            if (acc[s] > ch->ser[s].peak)
                ch->ser[s].peak = acc[s];
            acc[s] = 0;
        }
        if (tot > best_total)
            best_total = tot;
    }
    free(acc);
    free(touched);

    if (ch->opt->kind == HS_CHART_NORMALIZED) {
        ch->ymax = 1;
    } else if (ch->opt->kind == HS_CHART_LINE) {
        ch->ymax = 0;
        for (size_t s = 0; s < ch->nser; s++)
            if (ch->ser[s].peak > ch->ymax)
                ch->ymax = ch->ser[s].peak;
    } else {
        ch->ymax = best_total;
        for (int l = 0; l < HS_LINE_COUNT; l++)
            for (size_t p = 0; p < ch->nline[l]; p++)
                if ((double)ch->lines[l][p].bytes > ch->ymax)
                    ch->ymax = (double)ch->lines[l][p].bytes;
    }
    return HS_OK;
}

/* --- pass 3: one point per pixel column -------------------------------- */

static size_t column_of(const chart *ch, double t, size_t ncols)
{
    if (!(ch->t1 > 0) || t <= 0)
        return 0;
    double f = t / ch->t1 * (double)ncols;
    if (f >= (double)ncols)
        return ncols - 1;
    return (size_t)f;
}

static void add_sample_values(const chart *ch, size_t i, double *row,
                              bool keep_max)
{
    const hs_census_entry *e;
    size_t n = hs_census_sample_entries(ch->c, i, &e);
    if (!keep_max) {
        for (size_t k = 0; k < n; k++)
            if (e[k].band < ch->nbands && ch->slot_of[e[k].band] >= 0)
                row[ch->slot_of[e[k].band]] += (double)e[k].bytes;
        return;
    }
    /* Line charts: each series keeps its own largest value in the column;
     * OTHER is a sum, so it is summed first and compared after. */
    double other = 0;
    size_t oslot = ch->has_other ? ch->nser - 1 : SIZE_MAX;
    for (size_t k = 0; k < n; k++) {
        if (e[k].band >= ch->nbands || ch->slot_of[e[k].band] < 0)
            continue;
        size_t s = (size_t)ch->slot_of[e[k].band];
        double v = (double)e[k].bytes;
        if (s == oslot)
            other += v;
        else if (v > row[s])
            row[s] = v;
    }
    if (oslot != SIZE_MAX && other > row[oslot])
        row[oslot] = other;
}

static double shown_total(const chart *ch, size_t i)
{
    const hs_census_entry *e;
    size_t n = hs_census_sample_entries(ch->c, i, &e);
    double t = 0;
    for (size_t k = 0; k < n; k++)
        if (e[k].band < ch->nbands && ch->slot_of[e[k].band] >= 0)
            t += (double)e[k].bytes;
    return t;
}

static int reduce_points(chart *ch)
{
    size_t ncols = (size_t)ceil((ch->px1 - ch->px0) * ch->scale);
    if (ncols < 2)
        ncols = 2;
    size_t cap = ch->nsamples < ncols ? ch->nsamples : ncols;
    if (cap < 2)
        cap = 2;
    ch->px = calloc(cap, sizeof *ch->px);
    ch->pv = calloc(cap * ch->nser, sizeof *ch->pv);
    if (!ch->px || !ch->pv)
        return HS_ERR_NOMEM;
    bool line = ch->opt->kind == HS_CHART_LINE;

    if (ch->nsamples <= ncols) {
        for (size_t i = 0; i < ch->nsamples; i++) {
            ch->px[i] = sample_seconds(ch, i);
            add_sample_values(ch, i, ch->pv + i * ch->nser, false);
        }
        ch->npts = ch->nsamples;
    } else if (line) {
        size_t cur = SIZE_MAX;
        for (size_t i = 0; i < ch->nsamples; i++) {
            double t = sample_seconds(ch, i);
            size_t col = column_of(ch, t, ncols);
            if (cur == SIZE_MAX || col != cur) {
                cur = col;
                ch->px[ch->npts++] = t;
            }
            add_sample_values(ch, i, ch->pv + (ch->npts - 1) * ch->nser,
                              true);
        }
    } else {
        /* Stacked charts: the column's point is its sample with the
         * largest total, a real sample, so the stack's top is never above
         * what the heap really held and its peak is never lost. */
        size_t cur = SIZE_MAX, best = 0;
        double best_v = -1;
        for (size_t i = 0; i <= ch->nsamples; i++) {
            size_t col = i < ch->nsamples
                             ? column_of(ch, sample_seconds(ch, i), ncols)
                             : SIZE_MAX;
            if (col != cur || i == ch->nsamples) {
                if (cur != SIZE_MAX) {
                    ch->px[ch->npts] = sample_seconds(ch, best);
                    add_sample_values(ch, best, ch->pv + ch->npts * ch->nser,
                                      false);
                    ch->npts++;
                }
                if (i == ch->nsamples)
                    break;
                cur = col;
                best_v = -1;
            }
            double v = shown_total(ch, i);
            if (v > best_v) {
                best_v = v;
                best = i;
            }
        }
    }
    /* A lone sample is drawn across the whole axis: an area needs width. */
    if (ch->npts == 1) {
        memcpy(ch->pv + ch->nser, ch->pv, ch->nser * sizeof *ch->pv);
        ch->px[0] = 0;
        ch->px[1] = ch->t1;
        ch->npts = 2;
    }
    if (ch->opt->kind == HS_CHART_NORMALIZED) {
        for (size_t p = 0; p < ch->npts; p++) {
            double *row = ch->pv + p * ch->nser, t = 0;
            for (size_t s = 0; s < ch->nser; s++)
                t += row[s];
            for (size_t s = 0; s < ch->nser; s++)
                row[s] = t > 0 ? row[s] / t : 0;
        }
    }
    return HS_OK;
}

/* --- text ------------------------------------------------------------- */

static void remember_text(chart *ch, const char *text, double x, double y,
                          double size, double width, bool vertical)
{
    if (!ch->want_text || ch->status)
        return;
    if (ch->ntexts == ch->captexts) {
        size_t cap = ch->captexts ? ch->captexts * 2 : 64;
        text_rec *t = realloc(ch->texts, cap * sizeof *t);
        if (!t) {
            ch->status = HS_ERR_NOMEM;
            return;
        }
        ch->texts = t;
        ch->captexts = cap;
    }
    char *copy = clean_text(text);
    if (!copy) {
        ch->status = HS_ERR_NOMEM;
        return;
    }
    ch->texts[ch->ntexts++] = (text_rec){copy, x, y, size, width, vertical};
}

/* A single-line layout in font `size`, bold or not, ellipsized at the end
 * to max_w (0 = no limit). The caller unrefs it. */
static PangoLayout *make_layout(chart *ch, const char *text, double size,
                                bool bold, double max_w)
{
    PangoLayout *l = pango_layout_new(ch->pango);
    PangoFontDescription *fd = pango_font_description_new();
    pango_font_description_set_family(fd, "DejaVu Sans,Noto Sans CJK JP,Sans");
    pango_font_description_set_absolute_size(fd, size * PANGO_SCALE);
    if (bold)
        pango_font_description_set_weight(fd, PANGO_WEIGHT_BOLD);
    pango_layout_set_font_description(l, fd);
    pango_font_description_free(fd);
    pango_layout_set_single_paragraph_mode(l, TRUE);
    if (max_w > 0) {
        pango_layout_set_width(l, (int)(max_w * PANGO_SCALE));
        pango_layout_set_ellipsize(l, PANGO_ELLIPSIZE_END);
    }
    char *clean = clean_text(text);
    pango_layout_set_text(l, clean ? clean : "", -1);
    free(clean);
    return l;
}

static double text_width(chart *ch, const char *text, double size, bool bold)
{
    PangoLayout *l = make_layout(ch, text, size, bold, 0);
    int w, h;
    pango_layout_get_pixel_size(l, &w, &h);
    g_object_unref(l);
    (void)h;
    /* pixel sizes are in our units because the context resolution is 72 */
    return w;
}

static double line_height(chart *ch, double size)
{
    /* CJK glyphs reach further than Latin ones; rows sized for both stay
     * evenly spaced whatever the labels hold. */
    PangoLayout *l = make_layout(ch, "Ag\xe6\x97\xa5", size, false, 0);
    int w, h;
    pango_layout_get_pixel_size(l, &w, &h);
    g_object_unref(l);
    (void)w;
    return h;
}

enum { ALIGN_LEFT, ALIGN_RIGHT, ALIGN_CENTER };

/*
 * Draws text with its top-left (or top-right, top-centre) at x, y,
 * ellipsized to max_w; returns the drawn width.
 */
static double draw_text(chart *ch, const char *text, double x, double y,
                        double size, bool bold, double max_w, int align,
                        uint32_t rgb)
{
    PangoLayout *l = make_layout(ch, text, size, bold, max_w);
    int w, h;
    pango_layout_get_pixel_size(l, &w, &h);
    if (align == ALIGN_RIGHT)
        x -= w;
    else if (align == ALIGN_CENTER)
        x -= w / 2.0;
    cairo_t *cr = ch->cr;
    set_rgb(cr, rgb, 1);
    cairo_move_to(cr, x, y);
    pango_cairo_show_layout(cr, l);
    double base = pango_layout_get_baseline(l) / (double)PANGO_SCALE;
    remember_text(ch, text, x, y + base, size, w, false);
    g_object_unref(l);
    return w;
}

/* Text running upwards, its end at y_top and its left edge (as read) at
 * x, on a pale backing so that it stays legible over the areas. */
static void draw_text_vertical(chart *ch, const char *text, double x,
                               double y_top, double size, double max_w,
                               uint32_t rgb)
{
    PangoLayout *l = make_layout(ch, text, size, false, max_w);
    int w, h;
    pango_layout_get_pixel_size(l, &w, &h);
    double y_bottom = y_top + w;
    cairo_t *cr = ch->cr;
    cairo_save(cr);
    cairo_translate(cr, x, y_bottom);
    cairo_rotate(cr, -M_PI / 2);
    pango_cairo_update_context(cr, ch->pango);
    pango_layout_context_changed(l);
    set_rgb(cr, 0xffffff, 0.75);
    cairo_rectangle(cr, -1, 0, w + 2, h);
    cairo_fill(cr);
    set_rgb(cr, rgb, 1);
    cairo_move_to(cr, 0, 0);
    pango_cairo_show_layout(cr, l);
    cairo_restore(cr);
    pango_cairo_update_context(cr, ch->pango);
    double base = pango_layout_get_baseline(l) / (double)PANGO_SCALE;
    remember_text(ch, text, x + base, y_bottom, size, w, true);
    g_object_unref(l);
}

/* --- axes -------------------------------------------------------------- */

static void choose_units(chart *ch)
{
    /* time */
    double t1 = ch->t1;
    if (t1 < 1) {
        ch->xunit = 1e-3;
        ch->xunit_name = "ms";
    } else if (t1 < 300) {
        ch->xunit = 1;
        ch->xunit_name = "s";
    } else if (t1 < 3 * 3600) {
        ch->xunit = 60;
        ch->xunit_name = "min";
    } else {
        ch->xunit = 3600;
        ch->xunit_name = "h";
    }
    /* bytes */
    if (ch->opt->kind == HS_CHART_NORMALIZED) {
        ch->yunit = 0.01;
        ch->yunit_name = "%";
        return;
    }
    double v = ch->ymax > 0 ? ch->ymax : 1;
    int u = 0;
    ch->yunit = 1;
    while (v / ch->yunit >= 1024 && u < 5) {
        ch->yunit *= 1024;
        u++;
    }
    ch->yunit_name = byte_units[u];
}

static void fmt_tick(char *buf, size_t n, double v, double step,
                     const char *unit)
{
    int d = step_decimals(step);
    if (v == 0)
        snprintf(buf, n, "0");
    else if (unit)
        snprintf(buf, n, "%.*f %s", d, v, unit);
    else
        snprintf(buf, n, "%.*f", d, v);
}

/* Positions snap to an eighth of a device pixel: invisible, and it keeps
 * the numbers in SVG and PDF paths short. */
static double snap(const chart *ch, double v)
{
    return round(v * 8 * ch->scale) / (8 * ch->scale);
}

static double xpos(const chart *ch, double seconds)
{
    return snap(ch, ch->px0 + seconds / ch->t1 * (ch->px1 - ch->px0));
}

static double ypos(const chart *ch, double v)
{
    double top = ch->ytop > 0 ? ch->ytop : 1;
    return snap(ch, ch->py1 - v / top * (ch->py1 - ch->py0));
}

/* --- drawing ------------------------------------------------------------ */

static void draw_grid_and_axes(chart *ch)
{
    cairo_t *cr = ch->cr;
    double fs = ch->font * 0.9;
    char buf[64];
    cairo_set_line_width(cr, 1);
    /* y grid and labels */
    double ytop_u = ch->ytop / ch->yunit;
    size_t nticks = (size_t)floor(ytop_u / ch->ystep + 0.5);
    for (size_t i = 0; i <= nticks; i++) {
        double v = (double)i * ch->ystep;
        double y = round(ypos(ch, v * ch->yunit)) + 0.5;
        set_rgb(cr, i ? 0xe4e4e4 : 0x888888, 1);
        cairo_move_to(cr, ch->px0, y);
        cairo_line_to(cr, ch->px1, y);
        cairo_stroke(cr);
        fmt_tick(buf, sizeof buf, v, ch->ystep, ch->yunit_name);
        double lh = line_height(ch, fs);
        draw_text(ch, buf, ch->px0 - 6, y - lh / 2, fs, false, 0, ALIGN_RIGHT,
                  0x444444);
    }
    /* x grid and labels */
    double xtop_u = ch->t1 / ch->xunit;
    size_t nx = (size_t)floor(xtop_u / ch->xstep + 1e-9);
    for (size_t i = 0; i <= nx; i++) {
        double v = (double)i * ch->xstep;
        double x = round(xpos(ch, v * ch->xunit)) + 0.5;
        set_rgb(cr, i ? 0xeeeeee : 0x888888, 1);
        cairo_move_to(cr, x, ch->py0);
        cairo_line_to(cr, x, ch->py1);
        cairo_stroke(cr);
        fmt_tick(buf, sizeof buf, v, ch->xstep, NULL);
        draw_text(ch, buf, x, ch->py1 + 4, fs, false, 0, ALIGN_CENTER,
                  0x444444);
    }
    const char *what = ch->info && ch->info->source == HS_SOURCE_HP
                           ? "time"
                           : "elapsed time";
    snprintf(buf, sizeof buf, "%s (%s)", what, ch->xunit_name);
    double lh = line_height(ch, fs);
    draw_text(ch, buf, (ch->px0 + ch->px1) / 2, ch->py1 + 6 + lh, fs, false,
              0, ALIGN_CENTER, 0x444444);
}

/* Whether point p of a series (values v[p * ns]) or a neighbour is > 0. */
static bool near_nonzero(const double *v, size_t ns, size_t np, size_t p)
{
    return v[p * ns] > 0 || (p > 0 && v[(p - 1) * ns] > 0) ||
           (p + 1 < np && v[(p + 1) * ns] > 0);
}

/* Adds the polygon of series s over points [from, to) on top of base. */
static void add_run(chart *ch, const double *base, size_t s, size_t from,
                    size_t to)
{
    cairo_t *cr = ch->cr;
    size_t ns = ch->nser;
    for (size_t p = from; p < to; p++) {
        double x = xpos(ch, ch->px[p]);
        double y = ypos(ch, base[p] + ch->pv[p * ns + s]);
        if (p == from)
            cairo_move_to(cr, x, y);
        else
            cairo_line_to(cr, x, y);
    }
    for (size_t p = to; p-- > from;)
        cairo_line_to(cr, xpos(ch, ch->px[p]), ypos(ch, base[p]));
    cairo_close_path(cr);
}

static void draw_areas(chart *ch)
{
    cairo_t *cr = ch->cr;
    size_t np = ch->npts, ns = ch->nser;
    double *base = calloc(np, sizeof *base);
    if (!base) {
        ch->status = HS_ERR_NOMEM;
        return;
    }
    cairo_save(cr);
    cairo_rectangle(cr, ch->px0, ch->py0 - 1, ch->px1 - ch->px0,
                    ch->py1 - ch->py0 + 1);
    cairo_clip(cr);
    for (size_t s = 0; s < ns; s++) {
        /* Each stretch where the band is non-zero (with the zero points at
         * its ends, for the ramps) is a simple polygon: the upper edge
         * forwards, the lower edge backwards. Skipping the zero stretches
         * keeps charts of thousands of short-lived bands small. Band areas,
         * and only they, use the even-odd rule, which lets the SVG
         * post-processing find them. */
        const double *v = ch->pv + s;
        bool any = false;
        size_t p = 0;
        while (p < np) {
            if (!near_nonzero(v, ns, np, p)) {
                p++;
                continue;
            }
            size_t start = p;
            while (p < np && near_nonzero(v, ns, np, p))
                p++;
            add_run(ch, base, s, start, p);
            any = true;
        }
        /* A band that is zero at every drawn point still gets its (empty)
         * area, so that every legend entry has one. */
        if (!any)
            add_run(ch, base, s, 0, np);
        for (size_t q = 0; q < np; q++)
            base[q] += v[q * ns];
        fill_series(cr, &ch->ser[s], CAIRO_FILL_RULE_EVEN_ODD);
    }
    /* Seams between bands, so that neighbours of one colour stay apart.
     * Skipped when the bands are too many for seams to help. */
    if (ns > 1 && ns <= 64) {
        for (size_t p = 0; p < np; p++)
            base[p] = 0;
        cairo_set_line_width(cr, 0.6);
        set_rgb(cr, 0xffffff, 0.85);
        for (size_t s = 0; s + 1 < ns; s++) {
            for (size_t p = 0; p < np; p++) {
                base[p] += ch->pv[p * ns + s];
                double x = xpos(ch, ch->px[p]), y = ypos(ch, base[p]);
                if (p == 0)
                    cairo_move_to(cr, x, y);
                else
                    cairo_line_to(cr, x, y);
            }
            cairo_stroke(cr);
        }
    }
    cairo_restore(cr);
    free(base);
}

static void draw_lines(chart *ch)
{
    cairo_t *cr = ch->cr;
    size_t np = ch->npts, ns = ch->nser;
    cairo_save(cr);
    cairo_rectangle(cr, ch->px0, ch->py0 - 2, ch->px1 - ch->px0,
                    ch->py1 - ch->py0 + 4);
    cairo_clip(cr);
    cairo_set_line_width(cr, 1.6);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    for (size_t s = ns; s-- > 0;) {
        for (size_t p = 0; p < np; p++) {
            double x = xpos(ch, ch->px[p]), y = ypos(ch, ch->pv[p * ns + s]);
            if (p == 0)
                cairo_move_to(cr, x, y);
            else
                cairo_line_to(cr, x, y);
        }
        set_rgb(cr, ch->ser[s].colour, 1);
        if (ch->ser[s].hatched) {
            static const double dash[] = {6, 3};
            cairo_set_dash(cr, dash, 2, 0);
        }
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
    }
    cairo_restore(cr);
}

static const struct heap_line_style {
    const char *name;
    uint32_t rgb;
    double dash;
} line_styles[HS_LINE_COUNT] = {
    {"heap size", 0x222222, 0},
    {"live bytes", 0x222222, 5},
    {"blocks size", 0x666666, 2},
};

static void draw_heap_lines(chart *ch)
{
    cairo_t *cr = ch->cr;
    size_t ncols = (size_t)ceil((ch->px1 - ch->px0) * ch->scale);
    if (ncols < 2)
        ncols = 2;
    cairo_save(cr);
    cairo_rectangle(cr, ch->px0, ch->py0 - 2, ch->px1 - ch->px0,
                    ch->py1 - ch->py0 + 4);
    cairo_clip(cr);
    cairo_set_line_width(cr, 1);
    for (int l = 0; l < HS_LINE_COUNT; l++) {
        if (!ch->nline[l])
            continue;
        const hs_census_point *pt = ch->lines[l];
        size_t n = ch->nline[l], cur = SIZE_MAX;
        double bx = 0, bv = -1;
        bool started = false;
        /* One vertex per pixel column, the column's largest value. */
        for (size_t i = 0; i <= n; i++) {
            double t = i < n ? pt[i].time_ns / 1e9 : 0;
            size_t col = i < n ? column_of(ch, t, ncols) : SIZE_MAX;
            if ((col != cur || i == n) && cur != SIZE_MAX) {
                double x = xpos(ch, bx), y = ypos(ch, bv);
                if (!started)
                    cairo_move_to(cr, x, y);
                else
                    cairo_line_to(cr, x, y);
                started = true;
                bv = -1;
            }
            if (i == n)
                break;
            cur = col;
            if ((double)pt[i].bytes > bv) {
                bv = (double)pt[i].bytes;
                bx = t;
            }
        }
        if (line_styles[l].dash > 0) {
            double d = line_styles[l].dash;
            cairo_set_dash(cr, &d, 1, 0);
        }
        set_rgb(cr, line_styles[l].rgb, 0.9);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
    }
    cairo_restore(cr);
}

static void draw_markers(chart *ch)
{
    size_t n = hs_census_marker_count(ch->c);
    if (!n)
        return;
    cairo_t *cr = ch->cr;
    double fs = ch->font * 0.8, lh = line_height(ch, fs);
    double last_line = -1e9, last_label = -1e9;
    cairo_set_line_width(cr, 0.8);
    for (size_t i = 0; i < n; i++) {
        const hs_census_marker *m = hs_census_marker_at(ch->c, i);
        double t = m->time_ns / 1e9;
        if (t > ch->t1)
            continue;
        double x = round(xpos(ch, t)) + 0.5;
        if (x - last_line >= 1 / ch->scale) {
            set_rgb(cr, 0x993333, 0.75);
            cairo_move_to(cr, x, ch->py0);
            cairo_line_to(cr, x, ch->py1);
            cairo_stroke(cr);
            last_line = x;
        }
        /* A label only where it does not run into the previous one. */
        if (m->text && m->text[0] && x - last_label >= lh + 1) {
            draw_text_vertical(ch, m->text, x + 1.5, ch->py0 + 3, fs,
                               (ch->py1 - ch->py0) * 0.6, 0x772222);
            last_label = x;
        }
    }
}

static int cmp_double_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* The legend: swatch, label and peak for every series, top of the stack
 * first, then the heap lines. Returns nothing; too many entries end in a
 * line saying how many were left out. */
static void draw_legend(chart *ch, double lx, double lw, double ly,
                        double lbottom)
{
    cairo_t *cr = ch->cr;
    double fs = ch->font * 0.85, lh = line_height(ch, fs) + 3;
    char peak[64];
    double peak_w = text_width(ch, "000.0 MiB", fs, false) + 6;
    size_t nlines = 0;
    bool heap = ch->opt->kind == HS_CHART_AREA && !ch->opt->no_heap_lines;
    if (heap)
        for (int l = 0; l < HS_LINE_COUNT; l++)
            nlines += ch->nline[l] ? 1 : 0;
    size_t fit = (size_t)floor((lbottom - ly) / lh);
    size_t total = ch->nser + nlines;
    size_t show_ser = ch->nser;
    if (total > fit)
        show_ser = fit > nlines + 1 ? fit - nlines - 1 : 0;
    /* When not all fit, the legend lists the largest series by
     * byte-seconds, still in stacking order: those with an integral of at
     * least the show_ser-th largest (ties broken by position). */
    double cut = -1;
    size_t ties = SIZE_MAX;
    if (show_ser < ch->nser) {
        double *ints = malloc(ch->nser * sizeof *ints);
        if (!ints) {
            ch->status = HS_ERR_NOMEM;
            return;
        }
        for (size_t k = 0; k < ch->nser; k++)
            ints[k] = ch->ser[k].integral;
        qsort(ints, ch->nser, sizeof *ints, cmp_double_desc);
        cut = show_ser ? ints[show_ser - 1] : HUGE_VAL;
        ties = 0;
        for (size_t k = 0; k < show_ser; k++)
            ties += ints[k] == cut;
        free(ints);
    }
    double y = ly;
    double sw = fs;
    for (size_t k = 0; k < ch->nser; k++) {
        const series *s = &ch->ser[ch->nser - 1 - k];
        if (s->integral < cut)
            continue;
        if (s->integral == cut) {
            if (!ties)
                continue;
            ties--;
        }
        cairo_rectangle(cr, lx, y + (lh - sw) / 2 - 1, sw, sw);
        fill_series(cr, s, CAIRO_FILL_RULE_WINDING);
        fmt_bytes(peak, sizeof peak, s->peak);
        draw_text(ch, peak, lx + lw, y, fs, false, 0, ALIGN_RIGHT, 0x555555);
        draw_text(ch, s->label, lx + sw + 5, y, fs, false,
                  lw - sw - 5 - peak_w, ALIGN_LEFT, 0x222222);
        y += lh;
    }
    if (show_ser < ch->nser) {
        char more[96];
        snprintf(more, sizeof more, "… and %zu more, not listed",
                 ch->nser - show_ser);
        draw_text(ch, more, lx + sw + 5, y, fs, false, lw - sw - 5,
                  ALIGN_LEFT, 0x555555);
        y += lh;
    }
    if (!heap)
        return;
    for (int l = 0; l < HS_LINE_COUNT; l++) {
        if (!ch->nline[l])
            continue;
        double pk = 0;
        for (size_t i = 0; i < ch->nline[l]; i++)
            if ((double)ch->lines[l][i].bytes > pk)
                pk = (double)ch->lines[l][i].bytes;
        y += l == 0 ? lh * 0.3 : 0;
        set_rgb(cr, line_styles[l].rgb, 0.9);
        cairo_set_line_width(cr, 1.2);
        if (line_styles[l].dash > 0) {
            double d = line_styles[l].dash;
            cairo_set_dash(cr, &d, 1, 0);
        }
        cairo_move_to(cr, lx, y + lh / 2 - 1);
        cairo_line_to(cr, lx + sw, y + lh / 2 - 1);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
        fmt_bytes(peak, sizeof peak, pk);
        draw_text(ch, peak, lx + lw, y, fs, false, 0, ALIGN_RIGHT, 0x555555);
        draw_text(ch, line_styles[l].name, lx + sw + 5, y, fs, false,
                  lw - sw - 5 - peak_w, ALIGN_LEFT, 0x222222);
        y += lh;
    }
}

/* The title and subtitle texts. */
static void title_texts(const chart *ch, char *title, size_t tn, char *sub,
                        size_t sn)
{
    const hs_census_info *in = ch->info;
    if (ch->opt->title)
        snprintf(title, tn, "%s", ch->opt->title);
    else if (in && in->job && in->job[0])
        snprintf(title, tn, "%s", in->job);
    else if (in && in->program && in->program[0])
        snprintf(title, tn, "%s", in->program);
    else
        snprintf(title, tn, "heap profile");

    size_t used = 0;
    sub[0] = 0;
#define ADD(...)                                                              \
    do {                                                                      \
        if (used < sn) {                                                      \
            int k_ = snprintf(sub + used, sn - used, __VA_ARGS__);            \
            if (k_ > 0)                                                       \
                used += (size_t)k_;                                           \
        }                                                                     \
    } while (0)
    if (in && in->breakdown)
        ADD("-%s, by %s", hs_breakdown_flag(in->breakdown),
            hs_breakdown_name(in->breakdown));
    if (in && in->date && in->date[0]) {
        ADD("%s%s", used ? " · " : "", in->date);
    } else if (in && in->has_wall_clock) {
        time_t t = (time_t)in->wall_clock_sec;
        struct tm tm;
        char d[64];
        if (gmtime_r(&t, &tm) && strftime(d, sizeof d, "%Y-%m-%d %H:%M UTC",
                                          &tm))
            ADD("%s%s", used ? " · " : "", d);
    }
    char a[48], b[48], p[48];
    fmt_seconds(a, sizeof a, ch->t1);
    fmt_bytes(b, sizeof b, ch->peak_total);
    fmt_seconds(p, sizeof p, ch->peak_time / 1e9);
    ADD("%s%s · %zu sample%s · peak %s at %s", used ? " · " : "", a,
        ch->nsamples, ch->nsamples == 1 ? "" : "s", b, p);
    fmt_bytes(b, sizeof b, ch->integral_total);
    ADD(" · %s·s integrated", b);
#undef ADD
}

static void layout_and_draw(chart *ch)
{
    cairo_t *cr = ch->cr;
    double pad = ch->font * 1.2;
    char title[512], sub[512];
    title_texts(ch, title, sizeof title, sub, sizeof sub);

    set_rgb(cr, 0xffffff, 1);
    cairo_paint(cr);

    double tfs = ch->font * 1.35, sfs = ch->font * 0.9;
    double y = pad;
    draw_text(ch, title, pad, y, tfs, true, ch->w - 2 * pad, ALIGN_LEFT,
              0x111111);
    y += line_height(ch, tfs) + 2;
    draw_text(ch, sub, pad, y, sfs, false, ch->w - 2 * pad, ALIGN_LEFT,
              0x555555);
    y += line_height(ch, sfs) + ch->font;

    /* Legend on the right, plot on the left. */
    double lw = ch->w * 0.3;
    if (lw < 150)
        lw = 150;
    if (lw > 420)
        lw = 420;
    if (lw > ch->w * 0.45)
        lw = ch->w * 0.45;
    double lx = ch->w - pad - lw;

    choose_units(ch);
    double fs = ch->font * 0.9, lh = line_height(ch, fs);
    ch->py0 = y + lh / 2;
    ch->py1 = ch->h - pad - 2 * lh - 10;
    if (ch->py1 < ch->py0 + 20)
        ch->py1 = ch->py0 + 20;
    /* y ticks: a round step in the chosen unit, the axis ending on one */
    double ymax_u = (ch->ymax > 0 ? ch->ymax : 1) / ch->yunit;
    ch->ystep = nice_step(ymax_u, (ch->py1 - ch->py0) / (ch->font * 4));
    if (ch->opt->kind == HS_CHART_NORMALIZED)
        ch->ystep = 20;
    double top_u = ceil(ymax_u / ch->ystep - 1e-9) * ch->ystep;
    if (top_u <= 0)
        top_u = ch->ystep;
    ch->ytop = top_u * ch->yunit;
    char buf[64];
    fmt_tick(buf, sizeof buf, top_u, ch->ystep, ch->yunit_name);
    double yl_w = text_width(ch, buf, fs, false);
    ch->px0 = pad + yl_w + 8;
    ch->px1 = lx - ch->font * 1.5;
    if (ch->px1 < ch->px0 + 20)
        ch->px1 = ch->px0 + 20;
    /* x ticks, the axis ending on the last one at or after the end */
    double t1_u = ch->t1 / ch->xunit;
    ch->xstep = nice_step(t1_u, (ch->px1 - ch->px0) / (ch->font * 7));
    t1_u = ceil(t1_u / ch->xstep - 1e-9) * ch->xstep;
    ch->t1 = t1_u * ch->xunit;

    if (reduce_points(ch) != HS_OK) {
        ch->status = HS_ERR_NOMEM;
        return;
    }
    draw_grid_and_axes(ch);
    if (ch->opt->kind == HS_CHART_LINE)
        draw_lines(ch);
    else
        draw_areas(ch);
    if (ch->opt->kind == HS_CHART_AREA && !ch->opt->no_heap_lines)
        draw_heap_lines(ch);
    draw_markers(ch);
    draw_legend(ch, lx, lw, ch->py0, ch->h - pad);
}

/* --- output --------------------------------------------------------------- */

typedef struct stream_ctx {
    hs_sink *sink;
    hs_membuf *mem;  /* SVG: collected for post-processing */
    int status;
} stream_ctx;

static cairo_status_t stream_write(void *closure, const unsigned char *data,
                                   unsigned int len)
{
    stream_ctx *s = closure;
    int st;
    if (s->mem) {
        hs_sink m = hs_membuf_sink(s->mem);
        st = hs_sink_write(&m, data, len);
        if (st)
            st = HS_ERR_NOMEM;
    } else {
        st = hs_sink_write(s->sink, data, len);
    }
    if (st && !s->status)
        s->status = st;
    return st ? CAIRO_STATUS_WRITE_ERROR : CAIRO_STATUS_SUCCESS;
}

static int put_xml_text(hs_sink *out, const char *s)
{
    const char *run = s;
    int st = HS_OK;
    for (; *s && !st; s++) {
        const char *rep = NULL;
        switch (*s) {
        case '&': rep = "&amp;"; break;
        case '<': rep = "&lt;"; break;
        case '>': rep = "&gt;"; break;
        case '"': rep = "&quot;"; break;
        default: break;
        }
        if (rep) {
            st = hs_sink_write(out, run, (size_t)(s - run));
            if (!st)
                st = hs_sink_write(out, rep, strlen(rep));
            run = s + 1;
        }
    }
    if (!st)
        st = hs_sink_write(out, run, strlen(run));
    return st;
}

static const char band_path_mark[] = "fill-rule:evenodd;";

/*
 * Writes cairo's SVG with our additions: a document <title>, a <title>
 * (band name and peak) inside each band area, and the invisible text
 * layer. Band areas are cairo's only even-odd fills, in stacking order.
 */
static int write_svg(chart *ch, const char *svg, size_t len, hs_sink *out,
                     const char *title)
{
    int st = HS_OK;
    const char *end = svg + len, *p = svg;
    /* After the opening <svg ...> tag: the document title. */
    const char *open = strstr(svg, "<svg");
    const char *open_end = open ? strchr(open, '>') : NULL;
    if (open_end) {
        st = hs_sink_write(out, p, (size_t)(open_end + 1 - p));
        p = open_end + 1;
        if (!st)
            st = hs_sink_printf(out, "\n<title>");
        if (!st)
            st = put_xml_text(out, title);
        if (!st)
            st = hs_sink_printf(out, "</title>");
    }
    size_t band = 0;
    char peak[64];
    while (!st && p < end) {
        const char *m = strstr(p, band_path_mark);
        const char *close = m ? strstr(m, "/>") : NULL;
        if (!m || !close || band >= ch->nser)
            break;
        const char *start = m;
        while (start > p && strncmp(start, "<path", 5) != 0)
            start--;
        const series *s = &ch->ser[band++];
        if (strncmp(start, "<path", 5) == 0) {
            /* the band's style, for scripts and style sheets */
            st = hs_sink_write(out, p, (size_t)(start + 5 - p));
            if (!st)
                st = hs_sink_printf(out, " class=\"hs-band\" "
                                         "data-colour=\"#%06x\"%s",
                                    (unsigned)s->colour,
                                    s->hatched ? " data-hatched=\"1\"" : "");
            p = start + 5;
        }
        if (!st)
            st = hs_sink_write(out, p, (size_t)(close - p));
        fmt_bytes(peak, sizeof peak, s->peak);
        if (!st)
            st = hs_sink_printf(out, "><title>");
        if (!st)
            st = put_xml_text(out, s->label);
        if (!st)
            st = hs_sink_printf(out, " (peak %s)</title></path>", peak);
        p = close + 2;
    }
    const char *tail = NULL;
    for (const char *q = p; (q = strstr(q, "</svg>")) != NULL; q++)
        tail = q;
    if (!tail)
        tail = end;
    if (!st)
        st = hs_sink_write(out, p, (size_t)(tail - p));
    if (!st)
        st = hs_sink_printf(out, "<g id=\"heapscope-text\" "
                                 "style=\"fill-opacity:0;stroke:none\" "
                                 "font-family=\"sans-serif\">\n");
    for (size_t i = 0; !st && i < ch->ntexts; i++) {
        const text_rec *t = &ch->texts[i];
        if (t->vertical)
            st = hs_sink_printf(out,
                                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\""
                                " transform=\"rotate(-90 %.1f %.1f)\"",
                                t->x, t->y, t->size, t->x, t->y);
        else
            st = hs_sink_printf(out,
                                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\"",
                                t->x, t->y, t->size);
        if (!st && t->width > 0)
            st = hs_sink_printf(out, " textLength=\"%.1f\" "
                                     "lengthAdjust=\"spacingAndGlyphs\"",
                                t->width);
        if (!st)
            st = hs_sink_write(out, ">", 1);
        if (!st)
            st = put_xml_text(out, t->text);
        if (!st)
            st = hs_sink_printf(out, "</text>\n");
    }
    if (!st)
        st = hs_sink_printf(out, "</g>\n");
    if (!st)
        st = hs_sink_write(out, tail, (size_t)(end - tail));
    return st;
}

/* --- public ---------------------------------------------------------------- */

void hs_chart_options_init(hs_chart_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->format = HS_CHART_SVG;
    opt->kind = HS_CHART_AREA;
    opt->sort = HS_SORT_SIZE;
    opt->bands = 15;
}

bool hs_chart_available(void) { return true; }

static void chart_free(chart *ch)
{
    if (ch->ser)
        for (size_t i = 0; i < ch->nser; i++)
            free(ch->ser[i].label);
    for (size_t i = 0; i < ch->ntexts; i++)
        free(ch->texts[i].text);
    free(ch->texts);
    free(ch->ser);
    free(ch->bands);
    free(ch->slot_of);
    free(ch->px);
    free(ch->pv);
}

static int check_options(const hs_chart_options *opt)
{
    if ((unsigned)opt->format > HS_CHART_PNG ||
        (unsigned)opt->kind > HS_CHART_LINE ||
        (unsigned)opt->sort > HS_SORT_STDDEV)
        return HS_ERR_INVALID;
    if (opt->width != 0 && !(opt->width >= MIN_SIDE && opt->width <= MAX_SIDE))
        return HS_ERR_INVALID;
    if (opt->height != 0 &&
        !(opt->height >= MIN_SIDE && opt->height <= MAX_SIDE))
        return HS_ERR_INVALID;
    if (opt->dpi != 0 && !(opt->dpi >= 24 && opt->dpi <= 1200))
        return HS_ERR_INVALID;
    return HS_OK;
}

int hs_render_chart(const hs_census *c, hs_sink *out,
                    const hs_chart_options *opt)
{
    hs_chart_options defaults;
    if (!c || !out)
        return HS_ERR_MISUSE;
    if (!opt) {
        hs_chart_options_init(&defaults);
        opt = &defaults;
    }
    int st = check_options(opt);
    if (st)
        return st;

    chart ch = {0};
    ch.c = c;
    ch.opt = opt;
    ch.info = hs_census_get_info(c);
    ch.nsamples = hs_census_sample_count(c);
    ch.nbands = hs_census_band_count(c);
    if (!ch.nsamples)
        return HS_ERR_NO_DATA;
    if (opt->kind == HS_CHART_AREA && !opt->no_heap_lines)
        for (int l = 0; l < HS_LINE_COUNT; l++)
            ch.nline[l] = hs_census_heap_line(c, (hs_heap_line)l, &ch.lines[l]);

    st = gather_band_stats(&ch);
    if (!st)
        st = choose_series(&ch);
    if (!st)
        st = gather_series_peaks(&ch);
    if (st) {
        chart_free(&ch);
        return st;
    }

    /* The x axis ends at the last sample or the end of the run. */
    double last = sample_seconds(&ch, ch.nsamples - 1);
    double end = ch.info ? ch.info->end_time_ns / 1e9 : 0;
    ch.t1 = last > end ? last : end;
    if (!(ch.t1 > 0))
        ch.t1 = 1;

    bool pdf = opt->format == HS_CHART_PDF;
    ch.w = opt->width ? opt->width : pdf ? PDF_W : DEFAULT_W;
    ch.h = opt->height ? opt->height : pdf ? PDF_H : DEFAULT_H;
    ch.scale = 1;
    double dev_w = ch.w, dev_h = ch.h;
    if (opt->format == HS_CHART_PNG) {
        /* width and height are the PNG's pixels; the dpi scales what is
         * drawn, so 192 dpi is the same picture at twice the detail. */
        ch.scale = (opt->dpi ? opt->dpi : 96) / 96.0;
        dev_w = round(ch.w);
        dev_h = round(ch.h);
        ch.w = dev_w / ch.scale;
        ch.h = dev_h / ch.scale;
        if (dev_w > MAX_PNG_PIXELS || dev_h > MAX_PNG_PIXELS) {
            chart_free(&ch);
            return HS_ERR_INVALID;
        }
    }
    double side = ch.w < ch.h ? ch.w : ch.h;
    ch.font = side / 60;
    if (ch.font < 8)
        ch.font = 8;
    if (ch.font > 14)
        ch.font = 14;

    hs_membuf mem = {0};
    stream_ctx sc = {out, NULL, HS_OK};
    cairo_surface_t *surf;
    switch (opt->format) {
    case HS_CHART_SVG:
        sc.mem = &mem;
        ch.want_text = true;
        surf = cairo_svg_surface_create_for_stream(stream_write, &sc, dev_w,
                                                   dev_h);
        cairo_svg_surface_restrict_to_version(surf, CAIRO_SVG_VERSION_1_1);
        cairo_svg_surface_set_document_unit(surf, CAIRO_SVG_UNIT_PX);
        break;
    case HS_CHART_PDF:
        surf = cairo_pdf_surface_create_for_stream(stream_write, &sc, dev_w,
                                                   dev_h);
        break;
    default:
        surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)dev_w,
                                          (int)dev_h);
        break;
    }
    st = from_cairo(cairo_surface_status(surf));
    if (st) {
        cairo_surface_destroy(surf);
        chart_free(&ch);
        return st;
    }
    ch.cr = cairo_create(surf);
    cairo_scale(ch.cr, ch.scale, ch.scale);
    /* A font map of our own, freed below: the shared default one lives
     * as long as the thread and shows up as a leak in every program that
     * checks for them. */
    PangoFontMap *fonts = pango_cairo_font_map_new();
    ch.pango = pango_font_map_create_context(fonts);
    pango_cairo_update_context(ch.cr, ch.pango);
    /* 72 per inch: a font of size N is N of our units tall, whatever the
     * surface. */
    pango_cairo_context_set_resolution(ch.pango, 72);

    char title[512], sub[8];
    title_texts(&ch, title, sizeof title, sub, sizeof sub);
    if (opt->format == HS_CHART_PDF) {
        char *t = clean_text(title);
        if (t)
            cairo_pdf_surface_set_metadata(surf, CAIRO_PDF_METADATA_TITLE, t);
        free(t);
        cairo_pdf_surface_set_metadata(surf, CAIRO_PDF_METADATA_CREATOR,
                                       "heapscope " HS_VERSION_STRING);
    }

    layout_and_draw(&ch);
    st = ch.status;
    if (!st)
        st = from_cairo(cairo_status(ch.cr));
    g_object_unref(ch.pango);
    g_object_unref(fonts);
    cairo_destroy(ch.cr);
    if (!st && opt->format == HS_CHART_PNG)
        st = from_cairo(cairo_surface_write_to_png_stream(surf, stream_write,
                                                          &sc));
    cairo_surface_finish(surf);
    if (!st)
        st = from_cairo(cairo_surface_status(surf));
    cairo_surface_destroy(surf);
    if (sc.status)
        st = sc.status;
    if (!st && opt->format == HS_CHART_SVG) {
        char *t = clean_text(title);
        st = t ? write_svg(&ch, mem.data ? mem.data : "", mem.len, out, t)
               : HS_ERR_NOMEM;
        free(t);
    }
    hs_membuf_free(&mem);
    chart_free(&ch);
    return st;
}
