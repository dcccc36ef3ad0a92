/*
 * The cost-centre table (hs_top, census.h) as text, CSV or JSON.
 *
 *   text: a line saying what is counted, then the columns COST CENTRE,
 *         MODULE, SRC, %self, self, %inherited, inherited, aligned as the
 *         top table of GHC's .prof (names as hs_put_escaped shows them);
 *   CSV:  name,module,srcloc,self_U,self_percent,inherited_U,
 *         inherited_percent (U: ticks, bytes or byte_seconds), fields
 *         quoted as every CSV of heapscope (csv_internal.h);
 *   JSON: {"total_U": N, ["tick_s": S,] "cost_centres": [{"name",
 *         "module", "srcloc", "self_U", "inherited_U"}]}.
 */
#include "heapscope/render.h"
#include "common/internal.h"
#include "common/json.h"
#include "render/csv_internal.h"

#include <string.h>

#define TRY(x) do { int st_ = (x); if (st_ < 0) return st_; } while (0)

/* What the values count, as the names of keys and columns say it. */
static const char *unit_of(const hs_top *t)
{
    hs_top_source s = hs_top_get_options(t)->source;
    return s == HS_TOP_TIME ? "ticks"
           : s == HS_TOP_HEAP_PEAK ? "bytes" : "byte_seconds";
}

/* A value: whole ticks and bytes, byte-seconds with one decimal. */
static int put_value(hs_sink *out, const hs_top *t, double v, int width)
{
    int dec = hs_top_get_options(t)->source == HS_TOP_HEAP_BYTE_SECONDS;
    return hs_sink_printf(out, "%*.*f", width, dec, v);
}

static double percent(const hs_top *t, double v)
{
    double total = hs_top_total(t);
    return total > 0 ? 100.0 * v / total : 0.0;
}

/* The columns hs_put_escaped() takes for s: \xHH for control bytes and
 * backslashes, one per UTF-8 character (or stray byte) otherwise. */
static size_t text_width(const char *s)
{
    size_t w = 0, left = strlen(s);
    while (left) {
        unsigned char c = (unsigned char)*s;
        size_t k = c < 0x80 ? 1 : hs_utf8_char_len(s, left);
        if (!k)
            k = 1;
        w += c < 0x20 || c == 0x7f || c == '\\' ? 4 : 1;
        s += k;
        left -= k;
    }
    return w;
}

static int put_cell(hs_sink *out, const char *s, size_t width)
{
    TRY(hs_put_escaped(out, s, false));
    for (size_t w = text_width(s); w < width; w++)
        TRY(hs_sink_write(out, " ", 1));
    return hs_sink_write(out, "  ", 2);
}

static int text_title(const hs_top *t, hs_sink *out)
{
    const hs_top_options *o = hs_top_get_options(t);
    if (o->source == HS_TOP_TIME) {
        uint64_t tick = hs_top_tick_ns(t);
        TRY(hs_sink_printf(out, "%.0f ticks", hs_top_total(t)));
        if (tick)
            TRY(hs_sink_printf(out, " of %g ms (%.3f s)", tick / 1e6,
                               hs_top_total(t) * (double)tick / 1e9));
        TRY(o->cap < 0 ? hs_sink_printf(out, ", all capabilities")
                       : hs_sink_printf(out, ", capability %d", o->cap));
    } else if (o->source == HS_TOP_HEAP_PEAK) {
        char b[16];
        TRY(hs_sink_printf(out, "%s at the peak heap sample",
                           hs_format_bytes(b, sizeof b, hs_top_total(t))));
    } else {
        TRY(hs_sink_printf(out, "%.1f byte-seconds", hs_top_total(t)));
    }
    if (o->to_ns < UINT64_MAX)
        TRY(hs_sink_printf(out, ", from %.3f s to %.3f s", o->from_ns / 1e9,
                           o->to_ns / 1e9));
    else if (o->from_ns > 0)
        TRY(hs_sink_printf(out, ", from %.3f s on", o->from_ns / 1e9));
    return hs_sink_write(out, "\n\n", 2);
}

static int render_text(const hs_top *t, hs_sink *out)
{
    size_t n = hs_top_count(t);
    size_t wn = strlen("COST CENTRE"), wm = strlen("MODULE"), ws = 3;
    for (size_t i = 0; i < n; i++) {
        const hs_top_row *r = hs_top_row_at(t, i);
        size_t a = text_width(r->label), b = text_width(r->module),
               c = text_width(r->srcloc);
        wn = a > wn ? a : wn;
        wm = b > wm ? b : wm;
        ws = c > ws ? c : ws;
    }
    char v[64];
    int wv = snprintf(v, sizeof v, "%.1f", hs_top_total(t));
    wv = wv < 9 ? 9 : wv;
    TRY(text_title(t, out));
    TRY(put_cell(out, "COST CENTRE", wn));
    TRY(put_cell(out, "MODULE", wm));
    TRY(put_cell(out, "SRC", ws));
    TRY(hs_sink_printf(out, "%6s  %*s  %10s  %*s\n", "%self", wv, "self",
                       "%inherited", wv, "inherited"));
    for (size_t i = 0; i < n; i++) {
        const hs_top_row *r = hs_top_row_at(t, i);
        TRY(put_cell(out, r->label, wn));
        TRY(put_cell(out, r->module, wm));
        TRY(put_cell(out, r->srcloc, ws));
        TRY(hs_sink_printf(out, "%6.1f  ", percent(t, r->self)));
        TRY(put_value(out, t, r->self, wv));
        TRY(hs_sink_printf(out, "  %10.1f  ", percent(t, r->inherited)));
        TRY(put_value(out, t, r->inherited, wv));
        TRY(hs_sink_write(out, "\n", 1));
    }
    return HS_OK;
}

static int csv_field(hs_sink *out, const hs_allocator *alloc, const char *s)
{
    size_t len;
    char *q = hs__csv_quote(alloc, s, true, &len);
    if (!q)
        return HS_ERR_NOMEM;
    int st = hs_sink_write(out, q, len);
    hs_free(alloc, q);
    return st < 0 ? st : hs_sink_write(out, ",", 1);
}

static int render_csv(const hs_top *t, hs_sink *out,
                      const hs_allocator *alloc)
{
    const char *u = unit_of(t);
    TRY(hs_sink_printf(out, "name,module,srcloc,self_%s,self_percent,"
                            "inherited_%s,inherited_percent\n", u, u));
    for (size_t i = 0; i < hs_top_count(t); i++) {
        const hs_top_row *r = hs_top_row_at(t, i);
        TRY(csv_field(out, alloc, r->label));
        TRY(csv_field(out, alloc, r->module));
        TRY(csv_field(out, alloc, r->srcloc));
        TRY(put_value(out, t, r->self, 0));
        TRY(hs_sink_printf(out, ",%.2f,", percent(t, r->self)));
        TRY(put_value(out, t, r->inherited, 0));
        TRY(hs_sink_printf(out, ",%.2f\n", percent(t, r->inherited)));
    }
    return HS_OK;
}

static int json_key(hs_sink *out, const char *key, const char *unit)
{
    return hs_sink_printf(out, "\"%s%s\": ", key, unit);
}

static int render_json(const hs_top *t, hs_sink *out)
{
    const char *u = unit_of(t);
    int dec = hs_top_get_options(t)->source == HS_TOP_HEAP_BYTE_SECONDS ? 6
                                                                         : 0;
    TRY(hs_sink_write(out, "{", 1));
    TRY(json_key(out, "total_", u));
    TRY(hs_json_number(out, hs_top_total(t), dec));
    if (hs_top_get_options(t)->source == HS_TOP_TIME) {
        TRY(hs_sink_printf(out, ", \"tick_s\": "));
        TRY(hs_top_tick_ns(t) ? hs_json_number(out, hs_top_tick_ns(t) / 1e9, 9)
                              : hs_sink_write(out, "null", 4));
    }
    TRY(hs_sink_printf(out, ", \"cost_centres\": ["));
    for (size_t i = 0; i < hs_top_count(t); i++) {
        const hs_top_row *r = hs_top_row_at(t, i);
        TRY(hs_sink_printf(out, "%s\n  {\"name\": ", i ? "," : ""));
        TRY(hs_json_cstring(out, r->label));
        TRY(hs_sink_printf(out, ", \"module\": "));
        TRY(hs_json_cstring(out, r->module));
        TRY(hs_sink_printf(out, ", \"srcloc\": "));
        TRY(hs_json_cstring(out, r->srcloc));
        TRY(hs_sink_printf(out, ", "));
        TRY(json_key(out, "self_", u));
        TRY(hs_json_number(out, r->self, dec));
        TRY(hs_sink_printf(out, ", "));
        TRY(json_key(out, "inherited_", u));
        TRY(hs_json_number(out, r->inherited, dec));
        TRY(hs_sink_write(out, "}", 1));
    }
    return hs_sink_printf(out, "%s]}\n", hs_top_count(t) ? "\n" : "");
}

int hs_render_top(const hs_top *t, hs_sink *out, hs_top_format format)
{
    const hs_allocator *alloc = hs_top_allocator(t);
    switch (format) {
    case HS_TOP_TEXT:
        return render_text(t, out);
    case HS_TOP_CSV:
        return render_csv(t, out, alloc);
    case HS_TOP_JSON:
        return render_json(t, out);
    }
    return HS_ERR_INVALID;
}
