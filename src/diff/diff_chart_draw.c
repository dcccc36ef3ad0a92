/*
 * Drawing the diff chart: heading, the two runs' panels on one y scale,
 * the legend beside them, and the change panel under them.
 */
#include "diff/diff_chart.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct dlayout {
    double pad, lx, lw, x0, x1;
    hs_chart_panel run[2];
    hs_chart_axis vax, tax[2];
    double change_top, bottom;
} dlayout;

static const char *run_name(int k) { return k ? "after" : "before"; }

/* "before: PATH · peak 2.7 MiB at 640 ms · 3.7 MiB·s" */
static void run_caption(const hs__dchart *ch, int k, char *buf, size_t n)
{
    const hs_diff_run *r = hs_diff_get_run(ch->d, k);
    char peak[48], at[48], bs[48];
    hs_chart_fmt_bytes(peak, sizeof peak, (double)r->peak_bytes);
    hs_chart_fmt_seconds(at, sizeof at, (double)r->peak_time_ns / 1e9);
    hs_chart_fmt_bytes(bs, sizeof bs, r->byte_seconds);
    snprintf(buf, n, "%s: %s · peak %s at %s · %s·s", run_name(k), r->input,
             peak, at, bs);
}

static double draw_heading(hs_chart_canvas *cv, const hs__dchart *ch,
                           double w, double pad)
{
    const hs_diff_run *a = hs_diff_get_run(ch->d, 0);
    const hs_diff_run *b = hs_diff_get_run(ch->d, 1);
    char sub[512], pa[48], pb[48];
    uint32_t bd = hs_diff_breakdown(ch->d);
    hs_chart_fmt_bytes(pa, sizeof pa, (double)a->peak_bytes);
    hs_chart_fmt_bytes(pb, sizeof pb, (double)b->peak_bytes);
    char lb[96];
    const char *label = bd ? NULL : hs__diff_label(ch->d, lb, sizeof lb);
    int used = bd ? snprintf(sub, sizeof sub, "-%s, by %s · peak %s → %s",
                             hs_breakdown_flag(bd), hs_breakdown_name(bd), pa,
                             pb)
               : label ? snprintf(sub, sizeof sub, "%s · peak %s → %s", label,
                                  pa, pb)
                       : snprintf(sub, sizeof sub, "peak %s → %s", pa, pb);
    if (a->peak_bytes && used > 0 && (size_t)used < sizeof sub)
        snprintf(sub + used, sizeof sub - (size_t)used, " (%+.1f%%)",
                 ((double)b->peak_bytes - (double)a->peak_bytes) /
                     (double)a->peak_bytes * 100);
    const char *title = ch->chart.title ? ch->chart.title
                                             : "heap profile: before and after";
    double tfs = cv->font * 1.35, sfs = cv->font * 0.9, y = pad;
    hs_chart_draw_text(cv, title, pad, y, tfs, true, w - 2 * pad,
                       HS_ALIGN_LEFT, 0x111111);
    y += hs_chart_line_height(cv, tfs) + 2;
    hs_chart_draw_text(cv, sub, pad, y, sfs, false, w - 2 * pad,
                       HS_ALIGN_LEFT, 0x555555);
    return y + hs_chart_line_height(cv, sfs) + cv->font;
}

/* Both runs' panels share the value axis; time is each run's own length
 * (shown in %) or one axis in seconds. */
static void layout_panels(hs_chart_canvas *cv, const hs__dchart *ch,
                          double w, double h, double top, dlayout *L)
{
    double fs = cv->font * 0.9, lh = hs_chart_line_height(cv, fs);
    L->pad = cv->font * 1.2;
    L->lw = fmin(fmax(w * 0.28, 150), 380);
    L->lx = w - L->pad - L->lw;
    L->bottom = h - L->pad;
    /* captions and time labels take 3 lines per run panel */
    double avail = L->bottom - top - 6 * lh - 2 * lh;
    double ph = fmax(avail * 0.32, 2 * lh);
    hs_chart_kind kind = ch->chart.kind;
    double vmax = 0;
    for (int k = 0; k < 2; k++)
        vmax = fmax(vmax, kind == HS_CHART_LINE ? ch->bind[k].max_series
                                                : ch->bind[k].max_total);
    hs_chart_value_axis(&L->vax, vmax, ph, cv->font,
                        kind == HS_CHART_NORMALIZED);
    L->x0 = L->pad + hs_chart_axis_label_width(cv, &L->vax, fs) + 8;
    L->x1 = fmax(L->lx - cv->font * 1.5, L->x0 + 20);
    bool absolute = ch->absolute_time;
    double t_end = fmax(ch->bind[0].t_end, ch->bind[1].t_end);
    double y = top;
    for (int k = 0; k < 2; k++) {
        hs_chart_panel *p = &L->run[k];
        p->x0 = L->x0;
        p->x1 = L->x1;
        p->y0 = y + lh + 2;
        p->y1 = p->y0 + ph;
        p->ytop = hs_chart_axis_end(&L->vax);
        hs_chart_time_axis(&L->tax[k], absolute ? t_end : 1, L->x1 - L->x0,
                           cv->font, !absolute);
        p->t_span = absolute ? hs_chart_axis_end(&L->tax[k])
                             : ch->bind[k].t_end;
        y = p->y1 + 2 * lh + 10;
    }
    L->change_top = y + lh / 2;
}

static void draw_run(hs_chart_canvas *cv, hs__dchart *ch, const dlayout *L,
                     int k)
{
    const hs_chart_panel *p = &L->run[k];
    char cap[1024];
    run_caption(ch, k, cap, sizeof cap);
    double fs = cv->font * 0.9;
    hs_chart_draw_text(cv, cap, p->x0, p->y0 - hs_chart_line_height(cv, fs) - 2,
                       fs, true, p->x1 - p->x0, HS_ALIGN_LEFT, 0x222222);
    int st = hs_chart_reduce(&ch->pts[k], &ch->bind[k], ch->sel.nser,
                             ch->sel.has_other, ch->chart.kind,
                             p->t_span, hs_chart_panel_columns(cv, p));
    if (st) {
        cv->status = st;
        return;
    }
    hs_chart_draw_value_axis(cv, p, &L->vax);
    hs_chart_draw_time_grid(cv, p, &L->tax[k]);
    hs_chart_draw_bands(cv, p, &ch->sel, &ch->pts[k], ch->chart.kind,
                        ch->bind[k].peak);
    hs_chart_draw_markers(cv, p, hs_diff_census(ch->d, k), p->y1);
    const hs_census_info *in = hs_census_get_info(hs_diff_census(ch->d, k));
    const char *what = ch->absolute_time
                           ? (in->source == HS_SOURCE_HP ? "time"
                                                         : "elapsed time")
                           : "share of the run's length";
    hs_chart_draw_time_labels(cv, p, &L->tax[k], what);
}

/* One bar of the change panel: from zero at xz to the change's end. */
static void change_bar(hs_chart_canvas *cv, const hs_chart_series *s,
                       double xz, double half, double maxabs, double change,
                       double y, double rh, const char *unit)
{
    double len = maxabs > 0 ? change / maxabs * half : 0;
    cairo_rectangle(cv->cr, len < 0 ? xz + len : xz, y + rh * 0.15,
                    fmax(fabs(len), 1), rh * 0.7);
    hs_chart_fill_series(cv->cr, s, CAIRO_FILL_RULE_WINDING);
    char num[48], buf[64];
    hs_chart_fmt_bytes(num, sizeof num, fabs(change));
    snprintf(buf, sizeof buf, "%s%s%s", change > 0 ? "+" : change < 0 ? "−" : "",
             num, unit);
    double fs = cv->font * 0.8;
    hs_chart_draw_text(cv, buf, change < 0 ? xz + 4 : xz - 4, y, fs, false, 0,
                       change < 0 ? HS_ALIGN_LEFT : HS_ALIGN_RIGHT, 0x333333);
}

/* Series indices with a diff band, by absolute change, largest first. */
static size_t change_rows(const hs__dchart *ch, size_t *rows)
{
    size_t n = 0;
    for (size_t s = 0; s < ch->sel.nser; s++)
        if (ch->series_band[s] != SIZE_MAX)
            rows[n++] = s;
    for (size_t i = 1; i < n; i++) /* insertion sort: a chart's few bands */
        for (size_t j = i; j > 0 && fabs(ch->change[rows[j]]) >
                                        fabs(ch->change[rows[j - 1]]); j--) {
            size_t t = rows[j];
            rows[j] = rows[j - 1];
            rows[j - 1] = t;
        }
    return n;
}

static void draw_changes(hs_chart_canvas *cv, hs__dchart *ch,
                         const dlayout *L)
{
    bool peak = hs_diff_get_order(ch->d) == HS_DIFF_BY_PEAK;
    double fs = cv->font * 0.9, lh = hs_chart_line_height(cv, fs);
    hs_chart_draw_text(cv, peak ? "change of each band's peak (after − before)"
                                : "change of each band's byte-seconds "
                                  "(after − before)",
                       L->pad, L->change_top, fs, true, L->lx + L->lw - L->pad,
                       HS_ALIGN_LEFT, 0x222222);
    size_t *rows = hs_calloc(ch->alloc, ch->sel.nser, sizeof *rows);
    if (!rows) {
        cv->status = HS_ERR_NOMEM;
        return;
    }
    size_t n = change_rows(ch, rows);
    double y0 = L->change_top + lh + 4, rh = fmin(lh * 1.25,
                                                  (L->bottom - y0) / (n ? n : 1));
    if (rh < lh * 0.6)
        n = (size_t)fmax(0, floor((L->bottom - y0) / (lh * 0.6)));
    rh = fmax(rh, lh * 0.6);
    /* under the legend too: the panel spans the whole width */
    double right = L->lx + L->lw;
    double labw = fmin((right - L->pad) * 0.3, 360);
    double bx0 = L->pad + labw + 8, bx1 = right, xz = (bx0 + bx1) / 2;
    double maxabs = 0;
    for (size_t i = 0; i < n; i++)
        maxabs = fmax(maxabs, fabs(ch->change[rows[i]]));
    hs_chart_set_rgb(cv->cr, 0x888888, 1);
    cairo_set_line_width(cv->cr, 1);
    cairo_move_to(cv->cr, round(xz) + 0.5, y0);
    cairo_line_to(cv->cr, round(xz) + 0.5, y0 + rh * (double)n);
    cairo_stroke(cv->cr);
    for (size_t i = 0; i < n; i++) {
        const hs_chart_series *s = &ch->sel.ser[rows[i]];
        double y = y0 + rh * (double)i;
        const hs_diff_band *b = hs_diff_band_at(ch->d, ch->series_band[rows[i]]);
        char label[HS_CHART_DRAWN_MAX + 16];
        /* the mark first: a long label is ellipsized at its end */
        snprintf(label, sizeof label, "%s%s",
                 b->status == HS_DIFF_NEW    ? "(new) "
                 : b->status == HS_DIFF_GONE ? "(gone) "
                                             : "",
                 s->label);
        hs_chart_draw_text(cv, label, bx0 - 8, y, cv->font * 0.8, false, labw,
                           HS_ALIGN_RIGHT, 0x333333);
        change_bar(cv, s, xz, (bx1 - bx0) / 2 - 2, maxabs, ch->change[rows[i]],
                   y, rh, peak ? "" : "·s");
    }
    hs_free(ch->alloc, rows);
}

int hs__diff_chart_draw(hs__dchart *ch, hs_sink *out)
{
    hs_chart_options co = ch->chart;
    if (co.width == 0 && co.height == 0) {
        /* taller than a single chart: two panels and the changes */
        co.width = co.format == HS_CHART_PDF ? 842 : 1200;
        co.height = co.format == HS_CHART_PDF ? 842 : 1100;
    }
    hs_chart_doc doc;
    const char *title = co.title ? co.title : "heapscope diff";
    int st = hs_chart_doc_open(&doc, &co, out, title, ch->alloc);
    if (st)
        return st;
    hs_chart_canvas *cv = &doc.cv;
    dlayout L = {0};
    double top = draw_heading(cv, ch, doc.w, cv->font * 1.2);
    layout_panels(cv, ch, doc.w, doc.h, top, &L);
    for (int k = 0; k < 2 && cv->status == HS_OK; k++)
        draw_run(cv, ch, &L, k);
    hs_chart_draw_legend(cv, &ch->sel, ch->peaks, NULL, L.lx, L.lw,
                         L.run[0].y0, L.run[1].y1);
    draw_changes(cv, ch, &L);
    return hs_chart_doc_close(&doc);
}
