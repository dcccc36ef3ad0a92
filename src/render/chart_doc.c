/*
 * Chart documents: the cairo back ends (SVG, PDF, PNG) writing to a sink.
 *
 * SVG output is post-processed in memory: cairo writes glyphs as outlines
 * (so any name shows in any viewer), and we add what cairo cannot say: a
 * <title> per band area (a tooltip in browsers) and an invisible text layer
 * holding every label in full, so the file can be searched and copied from.
 */
#include "render/chart_internal.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>

#include <math.h>
#include <pthread.h>
#include <string.h>

/* Sizes in chart units: CSS pixels for SVG and PNG, points for PDF (A4
 * landscape). */
#define DEFAULT_W 1200.0
#define DEFAULT_H 720.0
#define PDF_W 842.0
#define PDF_H 595.0
#define MIN_SIDE 160.0
#define MAX_SIDE 20000.0
#define MAX_PNG_PIXELS 32767.0

typedef struct hs_chart_stream {
    hs_sink *sink;
    const hs_allocator *alloc;
    bool collect;          /* SVG: kept in buf for post-processing */
    char *buf;
    size_t len, cap;
    int status;
} hs_chart_stream;

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

static cairo_status_t stream_write(void *closure, const unsigned char *data,
                                   unsigned int len)
{
    hs_chart_stream *s = closure;
    int st = HS_OK;
    if (s->collect) {
        if (hs_grow(s->alloc, (void **)&s->buf, &s->cap, s->len + len + 1, 1)) {
            memcpy(s->buf + s->len, data, len);
            s->len += len;
            s->buf[s->len] = 0;
        } else {
            st = HS_ERR_NOMEM;
        }
    } else {
        st = hs_sink_write(s->sink, data, len);
    }
    if (st && !s->status)
        s->status = st;
    return st ? CAIRO_STATUS_WRITE_ERROR : CAIRO_STATUS_SUCCESS;
}

int hs_chart_check_options(const hs_chart_options *opt)
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

/* --- fonts ---------------------------------------------------------------- */

/*
 * One font map per thread, kept for the thread's life. A new map per
 * chart started fontconfig afresh (a thread of its own and the font
 * matching): 30 of the 34 ms a small SVG chart took, and a report or a
 * live refresh draws several. Pango's maps are not thread-safe, so
 * threads do not share one; a thread's map is freed when the thread ends.
 * (Pango's default map is per thread too, but never freed: it shows as a
 * leak in every program that checks.)
 */
static pthread_key_t fonts_key;
static pthread_once_t fonts_once = PTHREAD_ONCE_INIT;
static bool fonts_key_made;

static void fonts_free(void *map) { g_object_unref(map); }

static void fonts_key_make(void)
{
    fonts_key_made = pthread_key_create(&fonts_key, fonts_free) == 0;
}

/* A map loaded ahead (hs_chart_fonts_hand_over), for the next thread
 * without one: handed from thread to thread, never used by two at once. */
static pthread_mutex_t spare_lock = PTHREAD_MUTEX_INITIALIZER;
static PangoFontMap *spare;

/* The map left by hs_chart_fonts_hand_over, or NULL; the caller owns it. */
static PangoFontMap *take_spare(void)
{
    pthread_mutex_lock(&spare_lock);
    PangoFontMap *map = spare;
    spare = NULL;
    pthread_mutex_unlock(&spare_lock);
    return map;
}

void hs_chart_fonts_hand_over(void)
{
    pthread_once(&fonts_once, fonts_key_make);
    PangoFontMap *map = fonts_key_made ? pthread_getspecific(fonts_key)
                                       : NULL;
    if (!map || pthread_setspecific(fonts_key, NULL) != 0)
        return;
    pthread_mutex_lock(&spare_lock);
    PangoFontMap *drop = spare ? map : NULL;
    if (!spare)
        spare = map;
    pthread_mutex_unlock(&spare_lock);
    if (drop)
        g_object_unref(drop);
}

/* A reference to this thread's font map, made (or taken over from
 * hs_chart_fonts_hand_over) on first use. */
static PangoFontMap *thread_fonts(void)
{
    pthread_once(&fonts_once, fonts_key_make);
    PangoFontMap *map = fonts_key_made ? pthread_getspecific(fonts_key)
                                       : NULL;
    if (map)
        return g_object_ref(map);
    map = take_spare();
    if (!map)
        map = pango_cairo_font_map_new();
    if (fonts_key_made && pthread_setspecific(fonts_key, map) == 0)
        return g_object_ref(map); /* one for the thread, one for the doc */
    return map;
}

static cairo_surface_t *make_surface(hs_chart_doc *d, double dev_w,
                                     double dev_h)
{
    cairo_surface_t *surf;
    switch (d->format) {
    case HS_CHART_SVG:
        d->stream->collect = true;
        d->cv.want_text = true;
        surf = cairo_svg_surface_create_for_stream(stream_write, d->stream,
                                                   dev_w, dev_h);
        cairo_svg_surface_restrict_to_version(surf, CAIRO_SVG_VERSION_1_1);
        cairo_svg_surface_set_document_unit(surf, CAIRO_SVG_UNIT_PX);
        return surf;
    case HS_CHART_PDF:
        surf = cairo_pdf_surface_create_for_stream(stream_write, d->stream,
                                                   dev_w, dev_h);
        if (d->title)
            cairo_pdf_surface_set_metadata(surf, CAIRO_PDF_METADATA_TITLE,
                                           d->title);
        cairo_pdf_surface_set_metadata(surf, CAIRO_PDF_METADATA_CREATOR,
                                       "heapscope " HS_VERSION_STRING);
        return surf;
    default:
        return cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)dev_w,
                                          (int)dev_h);
    }
}

/* Sizes and scale from the options; HS_ERR_INVALID for a PNG too large. */
static int doc_geometry(hs_chart_doc *d, const hs_chart_options *opt,
                        double *dev_w, double *dev_h)
{
    bool pdf = opt->format == HS_CHART_PDF;
    d->w = opt->width ? opt->width : pdf ? PDF_W : DEFAULT_W;
    d->h = opt->height ? opt->height : pdf ? PDF_H : DEFAULT_H;
    d->cv.scale = 1;
    *dev_w = d->w;
    *dev_h = d->h;
    if (opt->format == HS_CHART_PNG) {
        /* width and height are the PNG's pixels; the dpi scales what is
         * drawn, so 192 dpi is the same picture at twice the detail. */
        d->cv.scale = (opt->dpi ? opt->dpi : 96) / 96.0;
        *dev_w = round(d->w);
        *dev_h = round(d->h);
        d->w = *dev_w / d->cv.scale;
        d->h = *dev_h / d->cv.scale;
        if (*dev_w > MAX_PNG_PIXELS || *dev_h > MAX_PNG_PIXELS)
            return HS_ERR_INVALID;
    }
    double side = d->w < d->h ? d->w : d->h;
    d->cv.font = fmin(14, fmax(8, side / 60));
    return HS_OK;
}

double hs_chart_doc_font(const hs_chart_options *opt)
{
    hs_chart_doc d;
    double dev_w, dev_h;
    memset(&d, 0, sizeof d);
    return doc_geometry(&d, opt, &dev_w, &dev_h) == HS_OK ? d.cv.font : 0;
}

static void doc_free(hs_chart_doc *d)
{
    const hs_allocator *a = d->cv.alloc;
    hs_chart_canvas *cv = &d->cv;
    for (size_t i = 0; i < cv->ntexts; i++)
        hs_free(a, cv->texts[i].text);
    hs_free(a, cv->texts);
    hs_free(a, cv->areas);
    if (d->stream)
        hs_free(a, d->stream->buf);
    hs_free(a, d->stream);
    hs_free(a, d->title);
    memset(d, 0, sizeof *d);
}

int hs_chart_doc_open(hs_chart_doc *d, const hs_chart_options *opt,
                      hs_sink *out, const char *title, const hs_allocator *a)
{
    memset(d, 0, sizeof *d);
    d->cv.alloc = a;
    d->format = opt->format;
    d->out = out;
    double dev_w, dev_h;
    int st = doc_geometry(d, opt, &dev_w, &dev_h);
    d->stream = st ? NULL : hs_calloc(a, 1, sizeof *d->stream);
    d->title = d->stream ? hs_chart_clean_text(a, title, HS_CHART_LABEL_MAX)
                         : NULL;
    if (!st && !d->title)
        st = HS_ERR_NOMEM;
    if (st) {
        doc_free(d);
        return st;
    }
    d->stream->sink = out;
    d->stream->alloc = a;
    d->surf = make_surface(d, dev_w, dev_h);
    st = from_cairo(cairo_surface_status(d->surf));
    if (st) {
        cairo_surface_destroy(d->surf);
        doc_free(d);
        return st;
    }
    d->cv.cr = cairo_create(d->surf);
    cairo_scale(d->cv.cr, d->cv.scale, d->cv.scale);
    d->fonts = thread_fonts();
    d->cv.pango = pango_font_map_create_context(d->fonts);
    pango_cairo_update_context(d->cv.cr, d->cv.pango);
    /* 72 per inch: a font of size N is N chart units tall, whatever the
     * surface. */
    pango_cairo_context_set_resolution(d->cv.pango, 72);
    hs_chart_set_rgb(d->cv.cr, 0xffffff, 1);
    cairo_paint(d->cv.cr);
    return HS_OK;
}

/* --- SVG post-processing ------------------------------------------------ */

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

/* The opening <svg ...> tag, then the document's <title>; *p moves on. */
static int svg_head(hs_sink *out, const char **p, const char *title)
{
    const char *open = strstr(*p, "<svg");
    const char *open_end = open ? strchr(open, '>') : NULL;
    if (!open_end)
        return HS_OK;
    int st = hs_sink_write(out, *p, (size_t)(open_end + 1 - *p));
    *p = open_end + 1;
    if (!st)
        st = hs_sink_printf(out, "\n<title>");
    if (!st)
        st = put_xml_text(out, title);
    if (!st)
        st = hs_sink_printf(out, "</title>");
    return st;
}

static const char band_path_mark[] = "fill-rule:evenodd;";

/* Band areas are cairo's only even-odd fills, in the order drawn: each
 * gets a class, its style and a <title> (label and peak). */
static int svg_areas(const hs_chart_canvas *cv, hs_sink *out, const char **pp)
{
    int st = HS_OK;
    const char *p = *pp;
    char peak[64];
    for (size_t k = 0; !st && k < cv->nareas; k++) {
        const char *m = strstr(p, band_path_mark);
        const char *close = m ? strstr(m, "/>") : NULL;
        if (!m || !close)
            break;
        const char *start = m;
        while (start > p && strncmp(start, "<path", 5) != 0)
            start--;
        const hs_chart_series *s = cv->areas[k].ser;
        if (strncmp(start, "<path", 5) == 0) {
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
        hs_format_bytes(peak, sizeof peak, cv->areas[k].peak);
        if (!st)
            st = hs_sink_printf(out, "><title>");
        if (!st)
            st = put_xml_text(out, s->label);
        if (!st)
            st = hs_sink_printf(out, " (peak %s)</title></path>", peak);
        p = close + 2;
    }
    *pp = p;
    return st;
}

/* The invisible layer of every text drawn, in full, for search and copy. */
static int svg_text_layer(const hs_chart_canvas *cv, hs_sink *out)
{
    int st = hs_sink_printf(out, "<g id=\"heapscope-text\" "
                                 "style=\"fill-opacity:0;stroke:none\" "
                                 "font-family=\"sans-serif\">\n");
    for (size_t i = 0; !st && i < cv->ntexts; i++) {
        const hs_chart_text *t = &cv->texts[i];
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
    return st;
}

static int write_svg(const hs_chart_doc *d)
{
    const char *svg = d->stream->buf ? d->stream->buf : "";
    const char *end = svg + d->stream->len, *p = svg;
    hs_sink *out = d->out;
    int st = svg_head(out, &p, d->title);
    if (!st)
        st = svg_areas(&d->cv, out, &p);
    const char *tail = NULL;
    for (const char *q = p; (q = strstr(q, "</svg>")) != NULL; q++)
        tail = q;
    if (!tail)
        tail = end;
    if (!st)
        st = hs_sink_write(out, p, (size_t)(tail - p));
    if (!st)
        st = svg_text_layer(&d->cv, out);
    if (!st)
        st = hs_sink_write(out, tail, (size_t)(end - tail));
    return st;
}

int hs_chart_doc_close(hs_chart_doc *d)
{
    int st = d->cv.status;
    if (!st)
        st = from_cairo(cairo_status(d->cv.cr));
    g_object_unref(d->cv.pango);
    g_object_unref(d->fonts);
    cairo_destroy(d->cv.cr);
    if (!st && d->format == HS_CHART_PNG)
        st = from_cairo(cairo_surface_write_to_png_stream(d->surf,
                                                          stream_write,
                                                          d->stream));
    cairo_surface_finish(d->surf);
    if (!st)
        st = from_cairo(cairo_surface_status(d->surf));
    cairo_surface_destroy(d->surf);
    if (d->stream->status)
        st = d->stream->status;
    if (!st && d->format == HS_CHART_SVG)
        st = write_svg(d);
    doc_free(d);
    return st;
}
