/*
 * The ticky-ticky counters (heapscope/ticky.h) as a text table, CSV or
 * JSON, and as the page data's "ticky" part. One writer makes a counter's
 * JSON object for both the JSON output and the page.
 */
#include "heapscope/render.h"
#include "common/internal.h"
#include "common/json.h"
#include "render/csv_internal.h"
#include "render/page_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void hs_ticky_options_init_size(hs_ticky_options *opt, size_t size)
{
    const hs_ticky_options def = {.size = sizeof def,
                                  .format = HS_TICKY_TEXT,
                                  .formula_guard = true};
    hs__options_fill(opt, size, &def, sizeof def);
}

/* --- JSON ------------------------------------------------------------------ */

static void json_str(hs_outbuf *o, const char *key, const char *s)
{
    hs_outbuf_puts(o, key);
    hs_json_outbuf_string(o, s, s ? strlen(s) : 0); /* NULL: null */
}

static void json_u64(hs_outbuf *o, const char *key, uint64_t v)
{
    hs_outbuf_puts(o, key);
    hs_outbuf_u64(o, v);
}

/* A counter's members, without the braces. */
static void json_counter(hs_outbuf *o, const hs_ticky_counter *t)
{
    json_u64(o, "\"id\":", t->id);
    json_str(o, ",\"name\":", t->name);
    json_u64(o, ",\"arity\":", t->arity);
    json_str(o, ",\"arg_kinds\":", t->arg_kinds);
    json_u64(o, ",\"entries\":", t->entries);
    json_u64(o, ",\"allocs\":", t->allocs);
    json_u64(o, ",\"allocd\":", t->allocd);
    json_u64(o, ",\"samples\":", t->samples);
    hs_outbuf_puts(o, t->defined ? ",\"defined\":true" : ",\"defined\":false");
    if (t->has_info_table)
        json_u64(o, ",\"info_table\":", t->info_table);
    else
        hs_outbuf_puts(o, ",\"info_table\":null");
    json_str(o, ",\"closure_desc\":", t->closure_desc);
    json_str(o, ",\"type\":", t->type_desc);
    json_str(o, ",\"label\":", t->label);
    json_str(o, ",\"module\":", t->module);
    json_str(o, ",\"srcloc\":", t->srcloc);
}

static void render_json(const hs_census *c, hs_outbuf *o)
{
    hs_outbuf_puts(o, "{\"counters\": [");
    for (size_t i = 0; i < hs_census_ticky_count(c); i++) {
        hs_outbuf_puts(o, i ? ",\n  {" : "\n  {");
        json_counter(o, hs_census_ticky_at(c, i));
        hs_outbuf_putc(o, '}');
    }
    hs_outbuf_puts(o, "\n]}\n");
}

/* The page's part: sample times in µs, and each counter with its points
 * as one flat array of [sample, entries, allocs, allocd] quadruples, while
 * the points written stay within HS__PAGE_TICKY_POINTS (the counters
 * after, the smaller ones, get null: no sparkline), so that a log of many
 * counters and samples keeps a page a browser opens. */
void hs__page_ticky(const hs_census *c, hs_outbuf *o)
{
    size_t budget = HS__PAGE_TICKY_POINTS;
    hs_outbuf_puts(o, "\"ticky\":");
    if (!hs_census_has_ticky(c)) {
        hs_outbuf_puts(o, "null,\n");
        return;
    }
    hs_outbuf_puts(o, "{\"times_us\":[");
    for (size_t s = 0; s < hs_census_ticky_sample_count(c); s++) {
        if (s)
            hs_outbuf_putc(o, ',');
        uint64_t ns = hs_census_ticky_sample_time(c, s);
        hs_outbuf_u64(o, ns / 1000 + (ns % 1000 >= 500));
    }
    hs_outbuf_puts(o, "],\"counters\":[");
    for (size_t i = 0; i < hs_census_ticky_count(c); i++) {
        hs_outbuf_puts(o, i ? ",\n{" : "\n{");
        json_counter(o, hs_census_ticky_at(c, i));
        const hs_ticky_point *pt;
        size_t n = hs_census_ticky_points(c, i, &pt);
        if (n > budget) {
            hs_outbuf_puts(o, ",\"points\":null}");
            budget = 0;
            continue;
        }
        budget -= n;
        hs_outbuf_puts(o, ",\"points\":[");
        for (size_t k = 0; k < n; k++) {
            if (k)
                hs_outbuf_putc(o, ',');
            hs_outbuf_u64(o, pt[k].sample);
            json_u64(o, ",", pt[k].entries);
            json_u64(o, ",", pt[k].allocs);
            json_u64(o, ",", pt[k].allocd);
        }
        hs_outbuf_puts(o, "]}");
    }
    hs_outbuf_puts(o, "]},\n");
}

/* --- CSV ------------------------------------------------------------------- */

static int csv_field(hs_outbuf *o, const hs_allocator *a, const char *s,
                     bool guard)
{
    size_t len = 0;
    char *q = hs__csv_quote(a, s ? s : "", guard, &len);
    if (!q)
        return HS_ERR_NOMEM;
    hs_outbuf_write(o, q, len);
    hs_free(a, q);
    return HS_OK;
}

static int render_csv(const hs_census *c, hs_outbuf *o, bool guard)
{
    const hs_allocator *a = hs_census_allocator(c);
    hs_outbuf_puts(o, "id,name,arity,arg_kinds,entries,allocs,allocd,samples,"
                      "closure_desc,type,label,module,srcloc\n");
    for (size_t i = 0; i < hs_census_ticky_count(c); i++) {
        const hs_ticky_counter *t = hs_census_ticky_at(c, i);
        const char *cl[] = {t->closure_desc, t->type_desc, t->label,
                            t->module, t->srcloc};
        hs_outbuf_u64(o, t->id);
        hs_outbuf_putc(o, ',');
        int st = csv_field(o, a, t->name, guard);
        json_u64(o, ",", t->arity);
        hs_outbuf_putc(o, ',');
        if (!st)
            st = csv_field(o, a, t->arg_kinds, guard);
        json_u64(o, ",", t->entries);
        json_u64(o, ",", t->allocs);
        json_u64(o, ",", t->allocd);
        json_u64(o, ",", t->samples);
        for (size_t k = 0; k < 5 && !st; k++) {
            hs_outbuf_putc(o, ',');
            st = csv_field(o, a, cl[k], guard);
        }
        if (st)
            return st;
        hs_outbuf_putc(o, '\n');
    }
    return HS_OK;
}

/* --- text ------------------------------------------------------------------ */

/* Text from the log, escaped (hs_put_escaped), after what o holds. */
static int put_escaped(hs_outbuf *o, hs_sink *out, const char *s)
{
    int st = hs_outbuf_flush(o);
    return st ? st : hs_put_escaped(out, s, false);
}

static int text_row(hs_outbuf *o, hs_sink *out, const hs_ticky_counter *t)
{
    char line[160];
    snprintf(line, sizeof line, "%13" PRIu64 " %13" PRIu64 " %13" PRIu64
             " %5u  ", t->entries, t->allocs, t->allocd, (unsigned)t->arity);
    hs_outbuf_puts(o, line);
    const char *kinds = t->arg_kinds[0] ? t->arg_kinds : "-";
    int st = put_escaped(o, out, kinds);
    for (size_t k = strlen(kinds); k < 8; k++)
        hs_outbuf_putc(o, ' ');
    if (t->defined) {
        if (!st)
            st = put_escaped(o, out, t->name);
    } else {
        snprintf(line, sizeof line, "(no definition: counter 0x%" PRIx64 ")",
                 t->id);
        hs_outbuf_puts(o, line);
    }
    if (!st && t->srcloc && t->srcloc[0]) {
        hs_outbuf_puts(o, " at ");
        st = put_escaped(o, out, t->srcloc);
    }
    hs_outbuf_putc(o, '\n');
    return st;
}

static int render_text(const hs_census *c, hs_outbuf *o, hs_sink *out)
{
    size_t n = hs_census_ticky_count(c), ns = hs_census_ticky_sample_count(c);
    char line[160];
    snprintf(line, sizeof line, "ticky counters: %zu, samples: %zu\n", n, ns);
    hs_outbuf_puts(o, line);
    hs_outbuf_puts(o, "      entries        allocs        allocd arity"
                      "  kinds     name\n");
    for (size_t i = 0; i < n; i++) {
        int st = text_row(o, out, hs_census_ticky_at(c, i));
        if (st)
            return st;
    }
    return HS_OK;
}

int hs_render_ticky(const hs_census *c, hs_sink *out,
                    const hs_ticky_options *opt)
{
    hs_ticky_options taken;
    hs_ticky_options_init(&taken);
    if (hs__options_take(&taken, sizeof taken, opt))
        return HS_ERR_INVALID;
    opt = &taken;
    if ((unsigned)opt->format > HS_TICKY_JSON)
        return HS_ERR_INVALID;
    if (!hs_census_has_ticky(c))
        return HS_ERR_NO_DATA;
    const hs_allocator *a = hs_census_allocator(c);
    hs_outbuf *o = hs_malloc(a, sizeof *o);
    if (!o)
        return HS_ERR_NOMEM;
    hs_outbuf_init(o, out);
    int st = HS_OK;
    if (opt->format == HS_TICKY_JSON)
        render_json(c, o);
    else if (opt->format == HS_TICKY_CSV)
        st = render_csv(c, o, opt->formula_guard);
    else
        st = render_text(c, o, out);
    int fs = hs_outbuf_flush(o);
    hs_free(a, o);
    return st ? st : fs;
}
