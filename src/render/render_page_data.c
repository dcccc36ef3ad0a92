/*
 * The page's data document: the census as compact columnar JSON.
 *
 * A page of 100,000 samples x 1,000 bands must stay under 10 MB, so values
 * are not written as a matrix: each band is one string column of deltas
 * in a base-32 varint (page.h documents it), divided by the band's common
 * divisor (bytes are whole words), runs of equal values collapsing into one
 * token. Past MAX_CELLS values the samples are merged into time intervals
 * keeping each band's maximum, as the SVG chart keeps each pixel column's,
 * and the document says so; a band's peak, time of peak and byte-seconds
 * always come from every sample.
 */
#include "render/page_internal.h"
#include "census/census_tprof_time.h"
#include "common/json.h"

#include <math.h>
#include <stdio.h>

/* Values the page decodes at most (each a double in the browser). */
#define MAX_CELLS 4000000u
/* Merged pages keep at least this many points: a screen's width. */
#define MIN_POINTS 2000u
/* The time profile over time: intervals, and cells of all its columns. */
#define TPROF_INTERVALS 200u
#define TPROF_CELLS 100000u

typedef struct pdata {
    const hs_census *c;
    const hs_page_options *opt;
    const hs_allocator *a;
    hs_outbuf *o;
    size_t ns, nb;
    hs_band_stats *st;
    hs_band_growth *gr;
    bool *excluded;
    uint64_t *gcd;       /* per band */
    size_t *point_of;    /* per sample: its point (merged pages) */
    size_t npts;
    int status;
} pdata;

static void out_col(pdata *p, column *k)
{
    hs_outbuf_putc(p->o, '"');
    hs_outbuf_write(p->o, k->buf ? k->buf : "", k->len);
    hs_outbuf_putc(p->o, '"');
}

/* --- small writers ------------------------------------------------------ */

#define us_of hs__page_us

#define out_double hs__page_out_double
#define out_key hs__page_out_key
#define out_cstr hs__page_out_cstr
#define out_strlist hs__page_out_strlist
#define out_strarray hs__page_out_strarray

/* --- points: every sample, or samples merged into time intervals -------- */

static uint64_t gcd64(uint64_t x, uint64_t y)
{
    while (y) {
        uint64_t t = x % y;
        x = y;
        y = t;
    }
    return x;
}

/* Decides the points and each band's common divisor, in one pass. */
static int plan_points(pdata *p)
{
    p->gcd = hs_calloc(p->a, p->nb ? p->nb : 1, sizeof *p->gcd);
    p->point_of = hs_calloc(p->a, p->ns ? p->ns : 1, sizeof *p->point_of);
    if (!p->gcd || !p->point_of)
        return HS_ERR_NOMEM;
    size_t limit = p->ns;
    if (p->nb && (double)p->ns * (double)p->nb > MAX_CELLS) {
        limit = MAX_CELLS / p->nb;
        if (limit < MIN_POINTS)
            limit = MIN_POINTS;
    }
    uint64_t t0 = p->ns ? hs_census_sample_time(p->c, 0) : 0;
    uint64_t t1 = p->ns ? hs_census_sample_time(p->c, p->ns - 1) : 0;
    double span = (double)(t1 - t0) + 1;
    size_t last = SIZE_MAX;
    p->npts = 0;
    for (size_t i = 0; i < p->ns; i++) {
        size_t bucket = i;
        if (limit < p->ns)
            bucket = (size_t)((double)(hs_census_sample_time(p->c, i) - t0) *
                              (double)limit / span);
        if (bucket != last)
            p->npts++;
        last = bucket;
        p->point_of[i] = p->npts - 1;
        const hs_census_entry *e;
        size_t n = hs_census_sample_entries(p->c, i, &e);
        for (size_t k = 0; k < n; k++)
            p->gcd[e[k].band] = gcd64(p->gcd[e[k].band], e[k].bytes);
    }
    for (size_t b = 0; b < p->nb; b++)
        if (!p->gcd[b])
            p->gcd[b] = 1;
    return HS_OK;
}

/* Every band's column: each point's largest bytes / the band's divisor. */
static int band_columns(pdata *p, column *cols)
{
    uint64_t *row = hs_calloc(p->a, p->nb ? p->nb : 1, sizeof *row);
    uint32_t *touched = hs_malloc(p->a, (p->nb ? p->nb : 1) * sizeof *touched);
    int rc = row && touched ? HS_OK : HS_ERR_NOMEM;
    size_t ntouched = 0;
    for (size_t i = 0; i < p->ns && rc == HS_OK; i++) {
        const hs_census_entry *e;
        size_t n = hs_census_sample_entries(p->c, i, &e);
        for (size_t k = 0; k < n; k++) {
            uint32_t b = e[k].band;
            uint64_t v = e[k].bytes / p->gcd[b] + 1; /* +1: present */
            if (!row[b])
                touched[ntouched++] = b;
            if (v > row[b])
                row[b] = v;
        }
        if (i + 1 < p->ns && p->point_of[i + 1] == p->point_of[i])
            continue;
        for (size_t k = 0; k < ntouched && rc == HS_OK; k++) {
            uint32_t b = touched[k];
            if (!hs__page_col_put(p->a, &cols[b], p->point_of[i], row[b] - 1))
                rc = HS_ERR_NOMEM;
            row[b] = 0;
        }
        ntouched = 0;
    }
    for (size_t b = 0; b < p->nb && rc == HS_OK; b++)
        if (!hs__page_col_end(p->a, &cols[b], p->npts))
            rc = HS_ERR_NOMEM;
    hs_free(p->a, row);
    hs_free(p->a, touched);
    return rc;
}

/* The times of the points (the first sample of each), as differences. */
static int time_column(pdata *p)
{
    column k = {0};
    uint64_t prev = 0;
    int rc = HS_OK;
    for (size_t i = 0; i < p->ns && rc == HS_OK; i++) {
        if (i && p->point_of[i] == p->point_of[i - 1])
            continue;
        uint64_t t = us_of(hs_census_sample_time(p->c, i));
        if (!hs__page_col_put(p->a, &k, p->point_of[i], t - prev))
            rc = HS_ERR_NOMEM;
        prev = t;
    }
    if (rc == HS_OK) {
        k.zrun = 0;
        out_key(p->o, "t");
        out_col(p, &k);
        hs_outbuf_putc(p->o, ',');
    }
    hs_free(p->a, k.buf);
    return rc;
}

/* --- cost-centre frames ------------------------------------------------- */

/* Frame names for the -hc stacks and the time profile: index by cost
 * centre id through an interning table of the ids' bytes. */
typedef struct frames {
    hs_intern ids;
} frames;

static uint32_t frame_of(pdata *p, frames *f, uint32_t id)
{
    uint32_t idx;
    bool added;
    if (!hs_intern_put(&f->ids, &id, sizeof id, &idx, &added)) {
        p->status = HS_ERR_NOMEM;
        return 0;
    }
    return idx;
}

static void out_stack(pdata *p, frames *f, const uint32_t *ids, size_t n)
{
    hs_outbuf_putc(p->o, '[');
    for (size_t i = 0; i < n; i++) {
        if (i)
            hs_outbuf_putc(p->o, ',');
        hs_outbuf_u64(p->o, frame_of(p, f, ids[i]));
    }
    hs_outbuf_putc(p->o, ']');
}

static void out_frames(pdata *p, frames *f)
{
    out_key(p->o, "frames");
    hs_outbuf_putc(p->o, '[');
    for (size_t i = 0; i < f->ids.count; i++) {
        uint32_t id;
        memcpy(&id, f->ids.keys[i].ptr, sizeof id);
        const hs_cost_centre *cc = hs_census_cost_centre(p->c, id);
        char name[64];
        if (i)
            hs_outbuf_putc(p->o, ',');
        if (!cc) {
            snprintf(name, sizeof name, "<cc %u>", id);
            out_cstr(p->o, name);
            continue;
        }
        if (!cc->module || !cc->module[0]) { /* a Mono method or symbol */
            out_cstr(p->o, cc->label);
            continue;
        }
        const char *const parts[] = {cc->module, cc->label, cc->srcloc};
        out_strarray(p->o, parts, 3);
    }
    hs_outbuf_puts(p->o, "],");
}

/* --- the parts of the document ------------------------------------------ */

/* A band's growth (hs_census_band_growth) and, for -hi, its IPE record. */
static void out_growth_ipe(pdata *p, size_t b)
{
    const hs_band_growth *g = &p->gr[b];
    hs_outbuf_puts(p->o, ",\"gr\":[");
    out_double(p->o, g->run_bytes_per_sec);
    hs_outbuf_putc(p->o, ',');
    out_double(p->o, g->late_bytes_per_sec);
    hs_outbuf_putc(p->o, ',');
    hs_outbuf_u64(p->o, g->last_bytes);
    hs_outbuf_puts(p->o, g->growing ? ",1]" : ",0]");
    const hs_census_ipe *r = hs_census_band_ipe(p->c, b);
    if (!r)
        return;
    const char *const f[] = {r->table_name, r->closure_desc, r->type_desc,
                             r->label, r->module, r->srcloc};
    hs_outbuf_puts(p->o, ",\"ip\":");
    out_strarray(p->o, f, sizeof f / sizeof *f);
}

static void out_band(pdata *p, size_t b, const hs_page_style *sty,
                     column *col, frames *f)
{
    const hs_band_stats *s = &p->st[b];
    char colour[16];
    snprintf(colour, sizeof colour, "#%06x", (unsigned)sty->colour);
    hs_outbuf_puts(p->o, b ? ",\n{\"n\":" : "\n{\"n\":");
    out_cstr(p->o, hs_census_band_name(p->c, b));
    hs_outbuf_puts(p->o, ",\"c\":\"");
    hs_outbuf_puts(p->o, colour);
    hs_outbuf_puts(p->o, sty->hatched ? "\",\"h\":1" : "\",\"h\":0");
    hs_outbuf_puts(p->o, p->excluded[b] ? ",\"x\":1,\"pk\":" : ",\"x\":0,\"pk\":");
    hs_outbuf_u64(p->o, s->peak_bytes);
    hs_outbuf_puts(p->o, ",\"pt\":");
    hs_outbuf_u64(p->o, us_of(s->peak_time_ns));
    hs_outbuf_puts(p->o, ",\"bs\":");
    out_double(p->o, s->byte_seconds);
    hs_outbuf_puts(p->o, ",\"sd\":");
    out_double(p->o, s->stddev_bytes);
    hs_outbuf_puts(p->o, ",\"g\":");
    hs_outbuf_u64(p->o, p->gcd[b]);
    out_growth_ipe(p, b);
    hs_outbuf_puts(p->o, ",\"d\":");
    out_col(p, col);
    const uint32_t *ids;
    size_t depth = hs_census_band_stack(p->c, b, &ids);
    if (depth) {
        hs_outbuf_puts(p->o, ",\"s\":");
        out_stack(p, f, ids, depth);
    }
    hs_outbuf_putc(p->o, '}');
}

static int out_bands(pdata *p, const hs_page_style *styles, frames *f)
{
    column *cols = hs_calloc(p->a, p->nb ? p->nb : 1, sizeof *cols);
    int rc = cols ? band_columns(p, cols) : HS_ERR_NOMEM;
    out_key(p->o, "bands");
    hs_outbuf_putc(p->o, '[');
    for (size_t b = 0; b < p->nb && rc == HS_OK; b++) {
        out_band(p, b, &styles[b], &cols[b], f);
        hs_free(p->a, cols[b].buf);
        cols[b].buf = NULL;
    }
    hs_outbuf_puts(p->o, "],\n");
    for (size_t b = 0; cols && b < p->nb; b++)
        hs_free(p->a, cols[b].buf);
    hs_free(p->a, cols);
    return rc;
}

static int out_lines(pdata *p)
{
    static const char *const names[HS_LINE_COUNT] = {"heap", "live",
                                                     "blocks"};
    out_key(p->o, "lines");
    hs_outbuf_putc(p->o, '{');
    bool first = true;
    for (int l = 0; l < HS_LINE_COUNT; l++) {
        const hs_census_point *pt;
        size_t n = hs_census_heap_line(p->c, (hs_heap_line)l, &pt);
        if (!n)
            continue;
        column t = {0}, v = {0};
        bool ok = true;
        uint64_t prev_us = 0;
        for (size_t i = 0; i < n && ok; i++) {
            uint64_t us = us_of(pt[i].time_ns);
            ok = hs__page_col_put(p->a, &t, i, us - prev_us) &&
                 hs__page_col_put(p->a, &v, i, pt[i].bytes);
            prev_us = us;
        }
        ok = ok && hs__page_col_end(p->a, &v, n);
        if (ok) {
            t.zrun = 0;
            hs_outbuf_puts(p->o, first ? "\"" : ",\"");
            hs_outbuf_puts(p->o, names[l]);
            hs_outbuf_puts(p->o, "\":[");
            hs_outbuf_u64(p->o, n);
            hs_outbuf_putc(p->o, ',');
            out_col(p, &t);
            hs_outbuf_putc(p->o, ',');
            out_col(p, &v);
            hs_outbuf_putc(p->o, ']');
            first = false;
        }
        hs_free(p->a, t.buf);
        hs_free(p->a, v.buf);
        if (!ok)
            return HS_ERR_NOMEM;
    }
    hs_outbuf_puts(p->o, "},\n");
    return HS_OK;
}

/* One column of the series: n values from v, encoded. */
static int out_series_col(pdata *p, const uint64_t *v, size_t n)
{
    column k = {0};
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++)
        if (v[i])
            ok = hs__page_col_put(p->a, &k, i, v[i]);
    ok = ok && hs__page_col_end(p->a, &k, n);
    if (ok)
        out_col(p, &k);
    hs_free(p->a, k.buf);
    return ok ? HS_OK : HS_ERR_NOMEM;
}

/* "iv": the profile per interval (census_tprof_time.h): the interval,
 * the named cost centres (frame, source location) and the columns of
 * self and inherited ticks, then "root" and "other" when they are there. */
static int out_tprof_series(pdata *p, frames *f)
{
    hs_tprof_series s;
    int rc = hs__census_tprof_series(p->c, TPROF_INTERVALS, TPROF_CELLS, &s);
    if (rc != HS_OK)
        return rc;
    size_t K = s.nintervals, cols = s.ncc + s.root + s.other;
    hs_outbuf_puts(p->o, ",\"iv\":{\"n\":");
    hs_outbuf_u64(p->o, K);
    hs_outbuf_puts(p->o, ",\"w_ns\":");
    hs_outbuf_u64(p->o, s.width_ns);
    hs_outbuf_puts(p->o, s.root ? ",\"root\":1" : ",\"root\":0");
    hs_outbuf_puts(p->o, s.other ? ",\"other\":1" : ",\"other\":0");
    hs_outbuf_puts(p->o, ",\"cc\":[");
    for (size_t j = 0; j < s.ncc; j++) {
        const hs_cost_centre *cc = hs_census_cost_centre(p->c, s.cc[j]);
        hs_outbuf_puts(p->o, j ? ",[" : "[");
        hs_outbuf_u64(p->o, frame_of(p, f, s.cc[j]));
        hs_outbuf_putc(p->o, ',');
        out_cstr(p->o, cc ? cc->srcloc : NULL);
        hs_outbuf_putc(p->o, ']');
    }
    for (int pass = 0; pass < 2 && rc == HS_OK; pass++) {
        const uint64_t *v = pass ? s.inherited : s.self;
        hs_outbuf_puts(p->o, pass ? "],\"inh\":[" : "],\"self\":[");
        for (size_t j = 0; j < cols && rc == HS_OK; j++) {
            if (j)
                hs_outbuf_putc(p->o, ',');
            rc = out_series_col(p, v + j * K, K);
        }
    }
    hs_outbuf_puts(p->o, "]}");
    hs__census_tprof_series_free(p->c, &s);
    return rc;
}

static int out_tprof(pdata *p, frames *f)
{
    size_t n = hs_census_tprof_count(p->c);
    out_key(p->o, "tprof");
    if (!n) {
        hs_outbuf_puts(p->o, "null,\n");
        return HS_OK;
    }
    hs_outbuf_puts(p->o, "{\"tick_us\":");
    hs_outbuf_u64(p->o, us_of(hs_census_get_info(p->c)->tick_interval_ns));
    /* a live census's merged ticks: windows before merged_until_us are
     * as precise as bucket_us (0 and 0: none merged) */
    hs_outbuf_puts(p->o, ",\"bucket_us\":");
    hs_outbuf_u64(p->o, us_of(hs_census_tprof_bucket_ns(p->c)));
    hs_outbuf_puts(p->o, ",\"merged_until_us\":");
    hs_outbuf_u64(p->o, us_of(hs_census_tprof_merged_until(p->c)));
    hs_outbuf_puts(p->o, ",\"stacks\":[");
    for (size_t i = 0; i < n; i++) {
        const uint32_t *ids;
        uint64_t ticks;
        size_t depth = hs_census_tprof_stack(p->c, i, -1, &ids, &ticks);
        hs_outbuf_puts(p->o, i ? ",[" : "[");
        hs_outbuf_u64(p->o, ticks);
        hs_outbuf_putc(p->o, ',');
        out_stack(p, f, ids, depth);
        hs_outbuf_putc(p->o, ']');
    }
    hs_outbuf_puts(p->o, "],\"caps\":[");
    for (size_t k = 0; k < hs_census_tprof_cap_count(p->c); k++) {
        size_t stack;
        uint32_t cap;
        uint64_t ticks = hs_census_tprof_cap_at(p->c, k, &stack, &cap);
        hs_outbuf_puts(p->o, k ? ",[" : "[");
        hs_outbuf_u64(p->o, stack);
        hs_outbuf_putc(p->o, ',');
        hs_outbuf_u64(p->o, cap);
        hs_outbuf_putc(p->o, ',');
        hs_outbuf_u64(p->o, ticks);
        hs_outbuf_putc(p->o, ']');
    }
    hs_outbuf_putc(p->o, ']');
    int rc = out_tprof_series(p, f);
    hs_outbuf_puts(p->o, "},\n");
    return rc;
}

static int out_head(pdata *p)
{
    char *title = hs__page_title(p->c, p->opt);
    if (!title)
        return HS_ERR_NOMEM;
    const hs_census_info *in = hs_census_get_info(p->c);
    const hs_page_options *opt = p->opt;
    static const char *const sorts[] = {"size", "name", "stddev"};
    static const char *const kinds[] = {"area", "normalized", "line"};
    hs_outbuf_puts(p->o, "{\"v\":1,\"title\":");
    out_cstr(p->o, title);
    hs_free(p->a, title);
    hs_outbuf_puts(p->o, ",\"input\":");
    out_cstr(p->o, opt->input);
    hs_outbuf_puts(p->o, ",\"program\":");
    out_cstr(p->o, in->program);
    hs_outbuf_puts(p->o, ",\"rts\":");
    out_cstr(p->o, in->rts_identifier);
    hs_outbuf_puts(p->o, ",\"breakdown\":");
    out_cstr(p->o, in->breakdown ? hs_breakdown_flag(in->breakdown) : NULL);
    hs_outbuf_puts(p->o, ",\"breakdown_name\":");
    out_cstr(p->o, in->breakdown ? hs_breakdown_name(in->breakdown) : NULL);
    char label[96];
    hs_outbuf_puts(p->o, ",\"profile\":");
    out_cstr(p->o, hs_census_profile_label(p->c, label, sizeof label));
    char *sub = hs__page_subtitle(p->c, opt);
    if (!sub)
        return HS_ERR_NOMEM;
    hs_outbuf_puts(p->o, ",\"subtitle\":");
    out_cstr(p->o, sub);
    hs_free(p->a, sub);
    hs_outbuf_puts(p->o, ",\"notice\":");
    out_cstr(p->o, opt->notice);
    hs_outbuf_puts(p->o, ",\"end_us\":");
    hs_outbuf_u64(p->o, us_of(in->end_time_ns));
    hs_outbuf_puts(p->o, in->complete || in->source != HS_SOURCE_EVENTLOG
                             ? ",\"complete\":true" : ",\"complete\":false");
    hs_outbuf_puts(p->o, ",\n\"state\":{\"bands\":");
    hs_outbuf_u64(p->o, opt->bands);
    hs_outbuf_puts(p->o, ",\"include\":");
    out_strlist(p->o, opt->include);
    hs_outbuf_puts(p->o, ",\"exclude\":");
    out_strlist(p->o, opt->exclude);
    hs_outbuf_puts(p->o, ",\"sort\":\"");
    hs_outbuf_puts(p->o, sorts[opt->sort]);
    hs_outbuf_puts(p->o, "\",\"kind\":\"");
    hs_outbuf_puts(p->o, kinds[opt->kind]);
    hs_outbuf_puts(p->o, "\"},\n\"exact\":");
    hs_outbuf_puts(p->o, p->npts == p->ns ? "true" : "false");
    hs_outbuf_puts(p->o, ",\"samples\":");
    hs_outbuf_u64(p->o, p->ns);
    hs_outbuf_puts(p->o, ",\"points\":");
    hs_outbuf_u64(p->o, p->npts);
    hs_outbuf_putc(p->o, ',');
    return HS_OK;
}

static void out_links(pdata *p)
{
    out_key(p->o, "links");
    hs_outbuf_putc(p->o, '[');
    for (size_t i = 0; i < p->opt->nlinks; i++) {
        const hs_page_link *l = &p->opt->links[i];
        hs_outbuf_puts(p->o, i ? ",[" : "[");
        out_cstr(p->o, l->href);
        hs_outbuf_putc(p->o, ',');
        out_cstr(p->o, l->label ? l->label : l->href);
        hs_outbuf_putc(p->o, ']');
    }
    hs_outbuf_puts(p->o, "],\n\"gc\":");
}

/* The summary's own JSON, written straight to the sink after ours. */
static int out_gc(pdata *p, hs_sink *out)
{
    const char *gc = p->opt->gc_json;
    int rc = hs_outbuf_flush(p->o);
    if (rc == HS_OK && gc && *gc)
        rc = hs_sink_write(out, gc, strlen(gc));
    else if (rc == HS_OK)
        rc = hs_sink_write(out, "null", 4);
    if (rc == HS_OK)
        rc = hs_sink_write(out, "}\n", 2);
    return rc;
}

static int write_doc(pdata *p, const hs_page_style *styles, hs_sink *out)
{
    frames f;
    hs_intern_init(&f.ids, p->a);
    int rc = out_head(p);
    if (rc == HS_OK)
        rc = time_column(p);
    if (rc == HS_OK)
        rc = out_bands(p, styles, &f);
    if (rc == HS_OK) {
        hs__page_marks(p->o, p->c);
        rc = out_lines(p);
    }
    if (rc == HS_OK)
        rc = out_tprof(p, &f);
    if (rc == HS_OK) {
        hs__page_ticky(p->c, p->o);
        out_frames(p, &f);
        out_links(p);
        rc = p->status ? p->status : out_gc(p, out);
    }
    hs_intern_free(&f.ids);
    return rc;
}

int hs__page_data(const hs_census *c, const hs_page_options *opt,
                  const hs_page_style *styles, hs_sink *out)
{
    pdata p = {.c = c, .opt = opt, .a = hs_census_allocator(c)};
    p.ns = hs_census_sample_count(c);
    p.nb = hs_census_band_count(c);
    if (!p.ns && !hs_census_tprof_count(c) && !hs_census_has_ticky(c) &&
        !(opt->gc_json && *opt->gc_json) && !opt->live_url)
        return HS_ERR_NO_DATA;
    if ((unsigned)opt->sort > HS_SORT_STDDEV ||
        (unsigned)opt->kind > HS_CHART_LINE)
        return HS_ERR_INVALID;
    hs_page_style *own = NULL;
    p.o = hs_malloc(p.a, sizeof *p.o);
    p.st = hs_calloc(p.a, p.nb ? p.nb : 1, sizeof *p.st);
    p.gr = hs_calloc(p.a, p.nb ? p.nb : 1, sizeof *p.gr);
    p.excluded = hs_calloc(p.a, p.nb ? p.nb : 1, sizeof *p.excluded);
    if (!styles)
        styles = own = hs_calloc(p.a, p.nb ? p.nb : 1, sizeof *own);
    int rc = p.o && p.st && p.gr && p.excluded && styles ? HS_OK
                                                          : HS_ERR_NOMEM;
    if (rc == HS_OK)
        rc = hs_census_band_stats(c, p.st);
    if (rc == HS_OK)
        rc = hs_census_band_growth(c, p.gr);
    if (rc == HS_OK)
        rc = hs__page_styles(c, opt, own ? own : NULL, p.excluded);
    if (rc == HS_OK)
        rc = plan_points(&p);
    if (rc == HS_OK) {
        hs_outbuf_init(p.o, out);
        rc = write_doc(&p, styles, out);
    }
    hs_free(p.a, p.o);
    hs_free(p.a, p.st);
    hs_free(p.a, p.gr);
    hs_free(p.a, p.excluded);
    hs_free(p.a, p.gcd);
    hs_free(p.a, p.point_of);
    hs_free(p.a, own);
    return rc;
}
