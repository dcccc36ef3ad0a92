/*
 * The chart renderer: stacked-area, normalized and line charts of a census
 * as SVG, PDF or PNG, drawn with cairo, every text laid out by pango.
 *
 * This file lays the chart out from the pieces in chart_internal.h: the
 * title and subtitle, the legend on the right, the bands' panel and under
 * it, on its own scale and sharing the time axis, the heap lines' panel
 * (heap size, live bytes, blocks size), so the bands fill their own height
 * however far the heap's reservation runs above them.
 *
 * Memory stays proportional to (shown bands x pixel columns) plus one
 * entry per band, never to the samples: the census is read in passes
 * (band statistics, series peaks, then one point per pixel column).
 */
#include "render/chart_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

typedef struct chart {
    const hs_census *c;
    const hs_chart_options *opt;
    const hs_census_info *info;
    hs_chart_selection sel;
    hs_chart_binding bind;
    hs_chart_points pts;
    char *title;                     /* owned */
    double line_peak[HS_LINE_COUNT]; /* all 0: no heap panel */
    bool heap_panel;
} chart;

/* The subtitle: breakdown, date, length, samples, peak, byte-seconds. */
static void subtitle_text(const chart *ch, char *sub, size_t sn)
{
    const hs_census_info *in = ch->info;
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
    char label[96];
    if (hs_census_profile_label(ch->c, label, sizeof label))
        ADD("%s", label);
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
    const hs_chart_binding *bd = &ch->bind;
    size_t ns = hs_census_sample_count(ch->c);
    hs_chart_fmt_seconds(a, sizeof a, bd->t_end);
    hs_format_bytes(b, sizeof b, bd->peak_total);
    hs_chart_fmt_seconds(p, sizeof p, bd->peak_time / 1e9);
    ADD("%s%s · %zu sample%s · peak %s at %s", used ? " · " : "", a, ns,
        ns == 1 ? "" : "s", b, p);
    hs_format_bytes(b, sizeof b, bd->integral_total);
    ADD(" · %s·s integrated", b);
#undef ADD
}

/* The title: the option's, else the run's command line as a .hp's JOB
 * gives it (hs_render_hp_job), or a default; kept in ch->title. */
static int make_title(chart *ch, const hs_allocator *a)
{
    const char *t = ch->opt->title;
    size_t len = t ? 0 : hs_render_hp_job(ch->c, NULL, 0);
    if (len == SIZE_MAX)
        return HS_ERR_NOMEM;
    if (!t && !len)
        t = "heap profile";
    if (t) {
        ch->title = hs_strndup(a, t, strlen(t));
    } else if ((ch->title = hs_malloc(a, len + 1)) != NULL &&
               hs_render_hp_job(ch->c, ch->title, len + 1) != len) {
        return HS_ERR_NOMEM;
    }
    return ch->title ? HS_OK : HS_ERR_NOMEM;
}

/* Where things go, in chart units. */
typedef struct layout {
    double pad, lx, lw;          /* legend column */
    hs_chart_panel bands, heap;  /* heap.y1 == heap.y0: no heap panel */
    hs_chart_axis vax, hax, tax; /* bands' values, heap's, time */
} layout;

/* Title and subtitle; returns the y under them. */
static double draw_heading(hs_chart_canvas *cv, const chart *ch, double w,
                           double pad)
{
    char sub[512];
    subtitle_text(ch, sub, sizeof sub);
    double tfs = cv->font * HS_CHART_FS_TITLE, sfs = cv->font * HS_CHART_FS_TEXT, y = pad;
    hs_chart_draw_text(cv, ch->title, pad, y, tfs, true, w - 2 * pad,
                       HS_ALIGN_LEFT, 0x111111);
    y += hs_chart_line_height(cv, tfs) + 2;
    hs_chart_draw_text(cv, sub, pad, y, sfs, false, w - 2 * pad,
                       HS_ALIGN_LEFT, 0x555555);
    return y + hs_chart_line_height(cv, sfs) + cv->font;
}

/* Splits the plot's height between the bands and the heap lines: the
 * heap panel takes about a quarter, and is left out when the chart is too
 * small for both to be read. */
static void split_panels(const chart *ch, layout *L, double top,
                         double bottom, double lh)
{
    L->bands.y0 = top;
    L->bands.y1 = bottom;
    L->heap.y0 = L->heap.y1 = bottom;
    if (!ch->heap_panel)
        return;
    double gap = lh * 1.2, hh = fmax((bottom - top) * 0.24, 3 * lh);
    if (bottom - top - hh - gap < 4 * lh)
        return;
    L->heap.y0 = bottom - hh;
    L->bands.y1 = L->heap.y0 - gap;
}

static void compute_layout(hs_chart_canvas *cv, const chart *ch, double w,
                           double h, double top, layout *L)
{
    L->pad = cv->font * 1.2;
    L->lw = fmin(fmax(w * 0.3, 150), 420);
    L->lw = fmin(L->lw, w * 0.45);
    L->lx = w - L->pad - L->lw;
    double fs = cv->font * HS_CHART_FS_TEXT, lh = hs_chart_line_height(cv, fs);
    double bottom = fmax(h - L->pad - 2 * lh - 10, top + lh / 2 + 20);
    split_panels(ch, L, top + lh / 2, bottom, lh);
    hs_chart_kind kind = ch->opt->kind;
    double vmax = kind == HS_CHART_LINE ? ch->bind.max_series
                                        : ch->bind.max_total;
    hs_chart_value_axis(&L->vax, vmax, L->bands.y1 - L->bands.y0, cv->font,
                        kind == HS_CHART_NORMALIZED);
    L->bands.ytop = hs_chart_axis_end(&L->vax);
    double lw = hs_chart_axis_label_width(cv, &L->vax, fs);
    bool heap = L->heap.y1 > L->heap.y0;
    if (heap) {
        double hmax = 0;
        for (int l = 0; l < HS_LINE_COUNT; l++)
            hmax = fmax(hmax, ch->line_peak[l]);
        /* ticks twice as dense as the bands': the panel is short */
        hs_chart_value_axis(&L->hax, hmax, 2 * (L->heap.y1 - L->heap.y0),
                            cv->font, false);
        L->heap.ytop = hs_chart_axis_end(&L->hax);
        lw = fmax(lw, hs_chart_axis_label_width(cv, &L->hax, fs));
    }
    L->bands.x0 = L->heap.x0 = L->pad + lw + 8;
    L->bands.x1 = L->heap.x1 =
        fmax(L->lx - cv->font * 1.5, L->bands.x0 + 20);
    /* the time axis ends on the first tick at or after the run's end */
    hs_chart_time_axis(&L->tax, ch->bind.t_end, L->bands.x1 - L->bands.x0,
                       cv->font, false);
    L->bands.t_span = L->heap.t_span = hs_chart_axis_end(&L->tax);
}

static void draw_chart(hs_chart_canvas *cv, chart *ch, double w, double h)
{
    layout L = {0};
    double top = draw_heading(cv, ch, w, cv->font * 1.2);
    compute_layout(cv, ch, w, h, top, &L);
    bool heap = L.heap.y1 > L.heap.y0;
    const hs_chart_panel *lowest = heap ? &L.heap : &L.bands;

    int st = hs_chart_reduce(&ch->pts, &ch->bind, ch->sel.nser,
                             ch->sel.has_other, ch->opt->kind,
                             L.bands.t_span,
                             hs_chart_panel_columns(cv, &L.bands));
    if (st) {
        cv->status = st;
        return;
    }
    hs_chart_draw_value_axis(cv, &L.bands, &L.vax);
    hs_chart_draw_time_grid(cv, &L.bands, &L.tax);
    if (heap) {
        hs_chart_draw_value_axis(cv, &L.heap, &L.hax);
        hs_chart_draw_time_grid(cv, &L.heap, &L.tax);
    }
    hs_chart_draw_bands(cv, &L.bands, &ch->sel, &ch->pts, ch->opt->kind,
                        NULL);
    if (heap)
        hs_chart_draw_heap_lines(cv, &L.heap, ch->c);
    hs_chart_draw_markers(cv, &L.bands, ch->c, lowest->y1);
    bool hp = ch->info && ch->info->source == HS_SOURCE_HP;
    hs_chart_draw_time_labels(cv, lowest, &L.tax,
                              hp ? "time" : "elapsed time");
    if (!heap) {
        hs_chart_draw_legend(cv, &ch->sel, NULL, NULL, L.lx, L.lw, L.bands.y0,
                             h - L.pad);
        return;
    }
    /* the heap lines' legend beside their panel, under a caption */
    double fs = cv->font * HS_CHART_FS_NOTE;
    hs_chart_draw_text(cv, "heap, on its own scale", L.lx, L.heap.y0, fs,
                       false, L.lw, HS_ALIGN_LEFT, 0x666666);
    double y = L.heap.y0 + hs_chart_line_height(cv, fs) + 3;
    hs_chart_draw_legend(cv, &ch->sel, NULL, NULL, L.lx, L.lw, L.bands.y0,
                         L.bands.y1);
    hs_chart_draw_line_legend(cv, ch->line_peak, L.lx, L.lw, y);
}

/* --- public --------------------------------------------------------------- */

bool hs_chart_available(void) { return true; }

/* hs_chart_check's document, in which the fonts of charts drawn with
 * each of opts[0..n) (checked) are loaded too, the map then handed over
 * (hs_chart_fonts_hand_over) when n > 0. */
static int check_fonts(const hs_chart_options *const *opts, size_t n,
                       hs_error *err)
{
    hs_membuf mb;
    hs_membuf_init(&mb, NULL);
    hs_sink out = hs_membuf_sink(&mb);
    hs_chart_options opt;
    hs_chart_options_init(&opt);
    hs_chart_doc d;
    double w = 0;
    int st = hs_chart_doc_open(&d, &opt, &out, "check", NULL);
    if (st == HS_OK) {
        w = hs_chart_text_width(&d.cv, "0123456789 MiB", 12, false);
        for (size_t i = 0; i < n && w > 0; i++) {
            hs_chart_options o;
            hs_chart_options_init(&o);
            if (!hs__options_take(&o, sizeof o, opts[i]))
                hs_chart_warm_text(&d.cv, hs_chart_doc_font(&o));
        }
        st = hs_chart_doc_close(&d);
    }
    hs_membuf_free(&mb);
    if (n)
        hs_chart_fonts_hand_over();
    if (st == HS_OK && !(w > 0))
        st = HS_ERR_NOMEM; /* no font: pango lays text out as nothing */
    hs__error_clear(err);
    if (st)
        hs__error_set(err, st, NULL,
                      "cairo and pango cannot draw text here (%s; short of "
                      "memory or fonts?)", hs_strerror(st));
    return st;
}

int hs_chart_check(hs_error *err) { return check_fonts(NULL, 0, err); }

int hs_chart_prepare(const hs_chart_options *const *opts, size_t n,
                     hs_error *err)
{
    int st = opts || !n ? HS_OK : HS_ERR_MISUSE;
    for (size_t i = 0; i < n && !st; i++) {
        hs_chart_options o;
        hs_chart_options_init(&o);
        st = !opts[i] ? HS_ERR_MISUSE
             : hs__options_take(&o, sizeof o, opts[i]) ||
                     hs_chart_check_options(&o)
                 ? HS_ERR_INVALID
                 : HS_OK;
    }
    if (st) {
        hs__error_clear(err);
        return hs__error_set(err, st, NULL, "hs_chart_prepare: %s",
                             hs_strerror(st));
    }
    return check_fonts(opts, n, err);
}

static void chart_free(chart *ch, const hs_allocator *a)
{
    hs_free(a, ch->title);
    hs_chart_points_free(&ch->pts);
    hs_chart_binding_free(&ch->bind);
    hs_chart_selection_free(&ch->sel);
}

int hs_render_chart(const hs_census *c, hs_sink *out,
                    const hs_chart_options *opt)
{
    if (!c || !out)
        return HS_ERR_MISUSE;
    hs_chart_options taken;
    hs_chart_options_init(&taken);
    if (hs__options_take(&taken, sizeof taken, opt))
        return HS_ERR_INVALID;
    opt = &taken;
    int st = hs_chart_check_options(opt);
    if (st)
        return st;
    if (!hs_census_sample_count(c))
        return HS_ERR_NO_DATA;
    const hs_allocator *a = hs_census_allocator(c);
    chart ch = {.c = c, .opt = opt, .info = hs_census_get_info(c)};
    st = make_title(&ch, a);
    if (!st)
        st = hs_chart_select(&ch.sel, c, opt, a);
    if (!st)
        st = hs_chart_bind(&ch.bind, &ch.sel, c, opt);
    if (st) {
        chart_free(&ch, a);
        return st;
    }
    if (!opt->no_heap_lines)
        ch.heap_panel = hs_chart_heap_peaks(c, ch.line_peak) > 0;

    hs_chart_doc doc;
    st = hs_chart_doc_open(&doc, opt, out, ch.title, a);
    if (!st) {
        draw_chart(&doc.cv, &ch, doc.w, doc.h);
        st = hs_chart_doc_close(&doc);
    }
    chart_free(&ch, a);
    return st;
}
