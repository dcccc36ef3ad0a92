/*
 * The interactive report page: templates/page.html filled with the data
 * document (render_page_data.c), the page's own CSS and JavaScript, and,
 * for readers without JavaScript, the SVG chart and a band table.
 */
#include "render/page_internal.h"

#include <stdio.h>
#include <time.h>

#include "page_css.h"
#include "page_html.h"
#include "page_js.h"

/* Rows of the table shown without JavaScript (the script shows every
 * band); the CSV has them all. */
#define STATIC_ROWS 200

void hs_page_options_init_size(hs_page_options *opt, size_t size)
{
    hs_chart_options chart; /* the chart's starting state is the page's */
    hs_chart_options_init(&chart);
    const hs_page_options def = {.size = sizeof def,
                                 .bands = chart.bands,
                                 .sort = chart.sort,
                                 .kind = chart.kind};
    hs__options_fill(opt, size, &def, sizeof def);
}

typedef struct page {
    const hs_census *c;       /* NULL on a compare page's shell */
    const hs_census *after;   /* compare pages: the second run */
    const hs_page_options *opt;
    const hs_allocator *a;
    char *title;              /* hs__page_title */
} page;

static int put_html(hs_sink *o, const char *s)
{
    size_t start = 0, n = s ? strlen(s) : 0;
    for (size_t i = 0; i < n; i++) {
        const char *rep;
        switch (s[i]) {
        case '&': rep = "&amp;"; break;
        case '<': rep = "&lt;"; break;
        case '>': rep = "&gt;"; break;
        case '"': rep = "&quot;"; break;
        default: continue;
        }
        if (hs_sink_write(o, s + start, i - start) ||
            hs_sink_write(o, rep, strlen(rep)))
            return HS_ERR_IO;
        start = i + 1;
    }
    return hs_sink_write(o, s + start, n - start);
}

static int put_csp(hs_sink *o, const page *pg)
{
    return hs_sink_printf(o, "default-src 'none'; script-src 'sha256-%s'; "
                          "style-src 'unsafe-inline'; img-src data:; "
                          "connect-src %s; base-uri 'none'; form-action "
                          "'none'", page_js_text_sha256,
                          pg->opt->live_url ? "'self'" : "'none'");
}

/* Where a live page fetches fresh data from. */
static int put_live(hs_sink *o, const page *pg)
{
    if (!pg->opt->live_url)
        return HS_OK;
    if (hs_sink_printf(o, "\n<meta name=\"heapscope-live\" content=\"") ||
        put_html(o, pg->opt->live_url))
        return HS_ERR_IO;
    return hs_sink_printf(o, "\" data-interval=\"%u\">",
                          pg->opt->live_interval_ms ? pg->opt->live_interval_ms
                                                    : 1000);
}

static const char *base_name(const char *path)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    return slash && slash[1] ? slash + 1 : path ? path : "";
}

/* The line under the title; a compare page's names both runs, each with
 * what its own subtitle says. */
static int put_subtitle(hs_sink *o, const page *pg)
{
    const hs_census *cs[2] = {pg->c, pg->after};
    const char *names[2] = {pg->opt->input, pg->opt->input_after};
    int rc = HS_OK;
    for (int k = 0; k < (pg->after ? 2 : 1) && rc == HS_OK; k++) {
        char *sub = hs__page_subtitle(cs[k], pg->opt);
        if (!sub)
            return HS_ERR_NOMEM;
        if (pg->after)
            rc = hs_sink_printf(o, "%s<b>%s</b> ", k ? "<br>" : "",
                                k ? "after:" : "before:");
        if (rc == HS_OK && pg->after)
            rc = put_html(o, base_name(names[k]));
        if (rc == HS_OK && pg->after)
            rc = hs_sink_printf(o, " \xc2\xb7 ");
        if (rc == HS_OK)
            rc = put_html(o, sub);
        hs_free(pg->a, sub);
    }
    return rc;
}

/* Whether opt->chart_svg is the chart the page would draw: a page of one
 * run, titled as the chart is by default, the run's command line. */
static bool chart_given(const page *pg)
{
    if (!pg->opt->chart_svg || pg->after || pg->opt->title)
        return false;
    size_t job = hs_render_hp_job(pg->c, NULL, 0);
    return job > 0 && job != SIZE_MAX;
}

/* The SVG chart inline, without its XML declaration. */
static int put_chart(hs_sink *o, const page *pg)
{
    if (pg->opt->no_inline_chart || !hs_chart_available() ||
        !hs_census_sample_count(pg->c))
        return HS_OK;
    hs_membuf m = {0};
    hs_sink ms = hs_membuf_sink(&m);
    bool given = chart_given(pg);
    hs_chart_options co;
    hs_chart_options_init(&co);
    co.format = HS_CHART_SVG;
    co.bands = pg->opt->bands;
    co.include = pg->opt->include;
    co.exclude = pg->opt->exclude;
    co.sort = pg->opt->sort;
    co.kind = pg->opt->kind;
    co.title = pg->title;
    int st = given ? HS_OK : hs_render_chart(pg->c, &ms, &co);
    const char *svg = given ? pg->opt->chart_svg : m.data ? m.data : "";
    if (strncmp(svg, "<?xml", 5) == 0) {
        const char *nl = strchr(svg, '\n');
        svg = nl ? nl + 1 : svg + strlen(svg);
    }
    if (st == HS_OK)
        st = hs_sink_write(o, svg, strlen(svg));
    else if (st == HS_ERR_NO_DATA) /* every band excluded: nothing to draw */
        st = HS_OK;
    hs_membuf_free(&m);
    return st;
}

static const hs_band_stats *sort_stats;

static int by_byte_seconds(const void *x, const void *y)
{
    double a = sort_stats[*(const size_t *)x].byte_seconds;
    double b = sort_stats[*(const size_t *)y].byte_seconds;
    return a > b ? -1 : a < b;
}

static int put_row(hs_sink *o, const page *pg, size_t rank, size_t b,
                   const hs_band_stats *s, double total)
{
    char pk[32];
    hs_format_bytes(pk, sizeof pk, (double)s->peak_bytes);
    int rc = hs_sink_printf(o, "<tr><td class=\"n\">%zu</td><td class=\"band\">",
                            rank);
    if (!rc)
        rc = put_html(o, hs_census_band_name(pg->c, b));
    if (!rc)
        rc = hs_sink_printf(o, "</td><td class=\"n\">%s</td><td class=\"n\">"
                            "%.3f s</td><td class=\"n\">%.1f%%</td></tr>\n",
                            pk, s->peak_time_ns / 1e9,
                            total > 0 ? 100 * s->byte_seconds / total : 0);
    return rc;
}

/* The no-script table: the largest bands by byte-seconds. */
static int put_table(hs_sink *o, const page *pg)
{
    size_t nb = hs_census_band_count(pg->c);
    hs_band_stats *st = hs_calloc(pg->a, nb ? nb : 1, sizeof *st);
    size_t *order = hs_calloc(pg->a, nb ? nb : 1, sizeof *order);
    int rc = st && order ? hs_census_band_stats(pg->c, st) : HS_ERR_NOMEM;
    double total = 0;
    for (size_t b = 0; b < nb && rc == HS_OK; b++) {
        order[b] = b;
        total += st[b].byte_seconds;
    }
    if (rc == HS_OK) {
        sort_stats = st;
        qsort(order, nb, sizeof *order, by_byte_seconds);
    }
    for (size_t i = 0; i < nb && i < STATIC_ROWS && rc == HS_OK; i++)
        rc = put_row(o, pg, i + 1, order[i], &st[order[i]], total);
    if (rc == HS_OK && nb > STATIC_ROWS)
        rc = hs_sink_printf(o, "<tr><td></td><td colspan=\"4\">and %zu "
                            "smaller bands (the CSV has all of them)"
                            "</td></tr>\n", nb - STATIC_ROWS);
    hs_free(pg->a, st);
    hs_free(pg->a, order);
    return rc;
}

static int put_files(hs_sink *o, const page *pg)
{
    if (!pg->opt->nlinks)
        return HS_OK;
    if (hs_sink_printf(o, "<section id=\"files\">\n<h2>Files</h2>\n<ul>\n"))
        return HS_ERR_IO;
    for (size_t i = 0; i < pg->opt->nlinks; i++) {
        const hs_page_link *l = &pg->opt->links[i];
        if (hs_sink_printf(o, "<li><a href=\"") || put_html(o, l->href) ||
            hs_sink_printf(o, "\">") || put_html(o, l->label ? l->label : l->href) ||
            hs_sink_printf(o, "</a></li>\n"))
            return HS_ERR_IO;
    }
    return hs_sink_printf(o, "</ul>\n</section>");
}

static int put_data(hs_sink *o, const page *pg)
{
    hs_page_script_sink ss;
    hs_sink s = hs__page_script_sink(&ss, o);
    int rc;
    if (!pg->after) {
        rc = hs__page_data(pg->c, pg->opt, NULL, &s);
    } else {
        rc = hs_sink_write(&s, "{\"compare\":true,\"before\":", 25);
        if (rc == HS_OK)
            rc = hs__page_compare_data(pg->c, pg->after, pg->opt, &s);
        const char *dj = pg->opt->diff_json;
        if (rc == HS_OK && dj && *dj)
            rc = hs_sink_write(&s, ",\"diff\":", 8);
        if (rc == HS_OK && dj && *dj)
            rc = hs_sink_write(&s, dj, strlen(dj));
        if (rc == HS_OK)
            rc = hs_sink_write(&s, "}", 1);
    }
    if (rc == HS_OK)
        rc = hs__page_script_flush(&ss);
    return rc;
}

/* Fills the template: each {{name}} is replaced, other text copied. */
static int fill(hs_sink *o, const page *pg)
{
    const char *t = page_html_template;
    for (;;) {
        const char *open = strstr(t, "{{");
        if (!open)
            return hs_sink_write(o, t, strlen(t));
        const char *close = strstr(open, "}}");
        if (hs_sink_write(o, t, (size_t)(open - t)) || !close)
            return close ? HS_ERR_IO : HS_ERR_INVALID;
        size_t n = (size_t)(close - open - 2);
        const char *k = open + 2;
        int rc;
#define KEY(s) (n == sizeof(s) - 1 && memcmp(k, s, n) == 0)
        if (KEY("title")) rc = put_html(o, pg->title);
        else if (KEY("csp")) rc = put_csp(o, pg);
        else if (KEY("css")) rc = hs_sink_write(o, page_css_text, strlen(page_css_text));
        else if (KEY("js")) rc = hs_sink_write(o, page_js_text, strlen(page_js_text));
        else if (KEY("subtitle")) rc = put_subtitle(o, pg);
        else if (KEY("chart")) rc = pg->after ? HS_OK : put_chart(o, pg);
        else if (KEY("bands")) rc = pg->after ? HS_OK : put_table(o, pg);
        else if (KEY("files")) rc = put_files(o, pg);
        else if (KEY("data")) rc = put_data(o, pg);
        else if (KEY("live")) rc = put_live(o, pg);
        else if (KEY("version")) rc = put_html(o, HS_VERSION_STRING);
        else if (KEY("input")) rc = put_html(o, pg->opt->input ? pg->opt->input : "");
        else rc = HS_ERR_INVALID; /* a template this code does not know */
#undef KEY
        if (rc)
            return rc;
        t = close + 2;
    }
}

/* Checks c and *opt, replacing *opt by *def: the defaults, with the
 * caller's options (NULL: none) taken over them. */
static int check(const hs_census *c, const hs_page_options **opt,
                 hs_page_options *def)
{
    if (*opt != def) {
        hs_page_options_init(def);
        if (hs__options_take(def, sizeof *def, *opt))
            return HS_ERR_INVALID;
        *opt = def;
    }
    if ((unsigned)(*opt)->sort > HS_SORT_STDDEV ||
        (unsigned)(*opt)->kind > HS_CHART_LINE)
        return HS_ERR_INVALID;
    /* A live page renders from the first byte: it waits for the rest. */
    if (!hs_census_sample_count(c) && !hs_census_tprof_count(c) &&
        !hs_census_has_ticky(c) && !(*opt)->live_url)
        return HS_ERR_NO_DATA;
    return HS_OK;
}

int hs_render_page(const hs_census *c, hs_sink *out,
                   const hs_page_options *opt)
{
    hs_page_options def;
    int rc = check(c, &opt, &def);
    /* A log with GC events alone still has its GC tab to show. */
    if (rc == HS_ERR_NO_DATA && opt->gc_json && *opt->gc_json)
        rc = HS_OK;
    if (rc)
        return rc;
    page pg = {c, NULL, opt, hs_census_allocator(c), hs__page_title(c, opt)};
    rc = pg.title ? fill(out, &pg) : HS_ERR_NOMEM;
    hs_free(pg.a, pg.title);
    return rc;
}

int hs_render_page_data(const hs_census *c, hs_sink *out,
                        const hs_page_options *opt)
{
    hs_page_options def;
    int rc = check(c, &opt, &def);
    if (rc)
        return rc;
    hs_page_script_sink ss;
    hs_sink s = hs__page_script_sink(&ss, out);
    rc = hs__page_data(c, opt, NULL, &s);
    return rc ? rc : hs__page_script_flush(&ss);
}

int hs_render_page_compare(const hs_census *before, const hs_census *after,
                           hs_sink *out, const hs_page_options *opt)
{
    hs_page_options def;
    int rc = check(before, &opt, &def);
    if (!rc)
        rc = check(after, &opt, &def);
    if (!rc && (!hs_census_sample_count(before) ||
                !hs_census_sample_count(after)))
        rc = HS_ERR_NO_DATA;
    if (rc)
        return rc;
    page pg = {before, after, opt, hs_census_allocator(before),
               hs__page_title(before, opt)};
    rc = pg.title ? fill(out, &pg) : HS_ERR_NOMEM;
    hs_free(pg.a, pg.title);
    return rc;
}
