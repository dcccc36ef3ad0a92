/*
 * Chart text: cleaning and capping labels, human units, and every text
 * laid out by pango, recorded for the SVG's searchable layer.
 */
#include "render/chart_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char ellipsis[] = "\xe2\x80\xa6"; /* … */

/* The length of s up to cap bytes, cut back to a UTF-8 character start. */
static size_t capped_len(const char *s, size_t cap, bool *cut)
{
    size_t n = 0;
    while (n < cap && s[n])
        n++;
    *cut = s[n] != 0;
    if (*cut)
        while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
            n--;
    return n;
}

char *hs_chart_clean_text(const hs_allocator *a, const char *s, size_t cap)
{
    bool cut;
    if (!s)
        s = "";
    /* Only the kept prefix is read, so a huge label costs its cap. */
    size_t n = capped_len(s, cap, &cut);
    /* each byte becomes at most U+FFFD's three */
    char *out = hs_malloc(a, 3 * n + sizeof ellipsis);
    if (!out)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t k = hs_utf8_char_len(s + i, n - i);
        if (!k) {
            memcpy(out + o, "\xef\xbf\xbd", 3); /* U+FFFD */
            o += 3;
            i++;
            continue;
        }
        bool ctl = k == 1 && ((unsigned char)s[i] < 0x20 || s[i] == 0x7f);
        if (ctl)
            out[o] = ' ';
        else
            memcpy(out + o, s + i, k);
        o += k;
        i += k;
    }
    memcpy(out + o, cut ? ellipsis : "", cut ? sizeof ellipsis : 1);
    return out;
}

void hs_chart_fmt_bytes(char *buf, size_t n, double v)
{
    hs_format_bytes(buf, n, v); /* common's, so the report page agrees */
}

void hs_chart_fmt_seconds(char *buf, size_t n, double s)
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

static void remember_text(hs_chart_canvas *cv, const char *text, double x,
                          double y, double size, double width, bool vertical)
{
    if (!cv->want_text || cv->status)
        return;
    if (!hs_grow(cv->alloc, (void **)&cv->texts, &cv->captexts,
                 cv->ntexts + 1, sizeof *cv->texts)) {
        cv->status = HS_ERR_NOMEM;
        return;
    }
    char *copy = hs_chart_clean_text(cv->alloc, text, HS_CHART_LABEL_MAX);
    if (!copy) {
        cv->status = HS_ERR_NOMEM;
        return;
    }
    cv->texts[cv->ntexts++] =
        (hs_chart_text){copy, x, y, size, width, vertical};
}

void hs_chart_note_area(hs_chart_canvas *cv, const hs_chart_series *s,
                        double peak)
{
    if (!cv->want_text || cv->status)
        return;
    if (!hs_grow(cv->alloc, (void **)&cv->areas, &cv->capareas,
                 cv->nareas + 1, sizeof *cv->areas)) {
        cv->status = HS_ERR_NOMEM;
        return;
    }
    cv->areas[cv->nareas++] = (hs_chart_area){s, peak};
}

/* A single-line layout in font `size`, bold or not, ellipsized at the end
 * to max_w (0 = no limit). The text is capped first: see
 * HS_CHART_DRAWN_MAX. The caller unrefs it; NULL when out of memory. */
static PangoLayout *make_layout(hs_chart_canvas *cv, const char *text,
                                double size, bool bold, double max_w)
{
    char *clean = hs_chart_clean_text(cv->alloc, text, HS_CHART_DRAWN_MAX);
    if (!clean) {
        cv->status = HS_ERR_NOMEM;
        return NULL;
    }
    PangoLayout *l = pango_layout_new(cv->pango);
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
    pango_layout_set_text(l, clean, -1);
    hs_free(cv->alloc, clean);
    return l;
}

double hs_chart_text_width(hs_chart_canvas *cv, const char *text,
                           double size, bool bold)
{
    PangoLayout *l = make_layout(cv, text, size, bold, 0);
    if (!l)
        return 0;
    int w, h;
    pango_layout_get_pixel_size(l, &w, &h);
    g_object_unref(l);
    /* pixel sizes are in chart units: the context resolution is 72 */
    return w;
}

double hs_chart_line_height(hs_chart_canvas *cv, double size)
{
    /* CJK glyphs reach further than Latin ones; rows sized for both stay
     * evenly spaced whatever the labels hold. */
    PangoLayout *l = make_layout(cv, "Ag\xe6\x97\xa5", size, false, 0);
    if (!l)
        return size;
    int w, h;
    pango_layout_get_pixel_size(l, &w, &h);
    g_object_unref(l);
    return h;
}

double hs_chart_draw_text(hs_chart_canvas *cv, const char *text, double x,
                          double y, double size, bool bold, double max_w,
                          int align, uint32_t rgb)
{
    return hs_chart_draw_label(cv, text, text, x, y, size, max_w, align, rgb,
                               bold);
}

double hs_chart_draw_label(hs_chart_canvas *cv, const char *text,
                           const char *full, double x, double y, double size,
                           double max_w, int align, uint32_t rgb, bool bold)
{
    PangoLayout *l = make_layout(cv, text, size, bold, max_w);
    if (!l)
        return 0;
    int w, h;
    pango_layout_get_pixel_size(l, &w, &h);
    if (align == HS_ALIGN_RIGHT)
        x -= w;
    else if (align == HS_ALIGN_CENTER)
        x -= w / 2.0;
    hs_chart_set_rgb(cv->cr, rgb, 1);
    cairo_move_to(cv->cr, x, y);
    pango_cairo_show_layout(cv->cr, l);
    double base = pango_layout_get_baseline(l) / (double)PANGO_SCALE;
    remember_text(cv, full, x, y + base, size, w, false);
    g_object_unref(l);
    return w;
}

void hs_chart_draw_text_vertical(hs_chart_canvas *cv, const char *text,
                                 double x, double y_top, double size,
                                 double max_w, uint32_t rgb)
{
    PangoLayout *l = make_layout(cv, text, size, false, max_w);
    if (!l)
        return;
    int w, h;
    pango_layout_get_pixel_size(l, &w, &h);
    double y_bottom = y_top + w;
    cairo_t *cr = cv->cr;
    cairo_save(cr);
    cairo_translate(cr, x, y_bottom);
    cairo_rotate(cr, -M_PI / 2);
    pango_cairo_update_context(cr, cv->pango);
    pango_layout_context_changed(l);
    hs_chart_set_rgb(cr, 0xffffff, 0.75);
    cairo_rectangle(cr, -1, 0, w + 2, h);
    cairo_fill(cr);
    hs_chart_set_rgb(cr, rgb, 1);
    cairo_move_to(cr, 0, 0);
    pango_cairo_show_layout(cr, l);
    cairo_restore(cr);
    pango_cairo_update_context(cr, cv->pango);
    double base = pango_layout_get_baseline(l) / (double)PANGO_SCALE;
    remember_text(cv, text, x + base, y_bottom, size, w, true);
    g_object_unref(l);
}

void hs_chart_warm_text(hs_chart_canvas *cv, double font)
{
    /* the glyphs labels are mostly made of, and a CJK one, which loads the
     * fallback font as hs_chart_line_height does */
    static const char sample[] =
        "Ag\xe6\x97\xa5 0123456789 .,:;%()[]<>_-+*/# "
        "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    static const double part[] = {HS_CHART_FS_TITLE, HS_CHART_FS_TEXT,
                                  HS_CHART_FS_LEGEND, HS_CHART_FS_NOTE};
    for (size_t i = 0; i < sizeof part / sizeof part[0]; i++)
        hs_chart_text_width(cv, sample, font * part[i], false);
    /* the title's line height is measured in the regular weight, above */
    hs_chart_text_width(cv, sample, font * HS_CHART_FS_TITLE, true);
}
