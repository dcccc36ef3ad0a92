/*
 * Text the page embeds: the <script>-safe sink and the bands' looks (its
 * JSON strings are common/json.c's).
 */
#include "render/page_internal.h"

#include <stdarg.h>
#include <stdio.h>

/* --- the <script>-safe sink ----------------------------------------------- */

static int put(hs_page_script_sink *s, const void *d, size_t n)
{
    return hs_sink_write(s->out, d, n);
}

static int script_write(void *ctx, const void *data, size_t len)
{
    hs_page_script_sink *s = ctx;
    const unsigned char *p = data;
    size_t start = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = p[i];
        const char *rep = NULL;
        if (s->nheld) {
            /* E2 80 then A8/A9 is U+2028/U+2029 */
            bool next = s->nheld == 1 ? c == 0x80 : (c == 0xa8 || c == 0xa9);
            if (next && s->nheld == 1) {
                s->held[s->nheld++] = c;
                start = i + 1;
                continue;
            }
            int rc = next ? put(s, c == 0xa8 ? "\\u2028" : "\\u2029", 6)
                          : put(s, s->held, s->nheld);
            s->nheld = 0;
            if (rc)
                return -1;
            start = next ? i + 1 : i;
            if (next)
                continue;
        }
        switch (c) {
        case '<': rep = "\\u003c"; break;
        case '>': rep = "\\u003e"; break;
        case '&': rep = "\\u0026"; break;
        case 0xe2: break;
        default: continue;
        }
        if (put(s, p + start, i - start))
            return -1;
        start = i + 1;
        if (rep) {
            if (put(s, rep, 6))
                return -1;
        } else {
            s->held[s->nheld++] = c;
        }
    }
    return put(s, p + start, len - start) ? -1 : 0;
}

hs_sink hs__page_script_sink(hs_page_script_sink *s, hs_sink *out)
{
    s->out = out;
    s->nheld = 0;
    return (hs_sink){script_write, s};
}

int hs__page_script_flush(hs_page_script_sink *s)
{
    int rc = s->nheld ? put(s, s->held, s->nheld) : HS_OK;
    s->nheld = 0;
    return rc ? HS_ERR_IO : HS_OK;
}

/* --- the bands' looks ----------------------------------------------------- */

typedef struct ranked {
    size_t band;
    double key;
    const char *name;
    bool excluded;
} ranked;

/* The chart's rank: kept bands first, then byte-seconds, then name. */
static int by_rank(const void *x, const void *y)
{
    const ranked *a = x, *b = y;
    if (a->excluded != b->excluded)
        return a->excluded ? 1 : -1;
    if (a->key != b->key)
        return a->key > b->key ? -1 : 1;
    return strcmp(a->name, b->name);
}

int hs__page_styles(const hs_census *c, const hs_page_options *opt,
                    hs_page_style *out, bool *excluded)
{
    const hs_allocator *a = hs_census_allocator(c);
    size_t nb = hs_census_band_count(c);
    hs_band_stats *st = hs_calloc(a, nb ? nb : 1, sizeof *st);
    ranked *r = hs_calloc(a, nb ? nb : 1, sizeof *r);
    int rc = st && r ? hs_census_band_stats(c, st) : HS_ERR_NOMEM;
    hs_chart_options co;
    hs_chart_options_init(&co);
    co.include = opt->include;
    co.exclude = opt->exclude;
    for (size_t b = 0; b < nb && rc == HS_OK; b++) {
        const char *name = hs_census_band_name(c, b);
        r[b] = (ranked){b, st[b].byte_seconds, name ? name : "", false};
        r[b].excluded = hs_chart_band_filtered(&co, r[b].name);
        if (excluded)
            excluded[b] = r[b].excluded;
    }
    if (rc == HS_OK && out) {
        qsort(r, nb, sizeof *r, by_rank);
        unsigned used[HS_CHART_NSTYLES] = {0};
        for (size_t i = 0; i < nb; i++)
            hs_chart_style_pick(r[i].name, used, &out[r[i].band].colour,
                                &out[r[i].band].hatched);
    }
    hs_free(a, st);
    hs_free(a, r);
    return rc;
}

/* --- two runs with one look per band name ---------------------------------- */

/* Both runs' bands by name: a name claims its style by its larger
 * byte-seconds of the two runs, so it looks the same in both. */
static int shared_styles(const hs_census *const cs[2], const hs_page_options *opt,
                         hs_page_style *out[2])
{
    const hs_allocator *a = hs_census_allocator(cs[0]);
    size_t nb[2] = {hs_census_band_count(cs[0]), hs_census_band_count(cs[1])};
    hs_intern names;
    hs_intern_init(&names, a);
    uint32_t *idx[2] = {hs_calloc(a, nb[0] + 1, sizeof(uint32_t)),
                        hs_calloc(a, nb[1] + 1, sizeof(uint32_t))};
    ranked *r = hs_calloc(a, nb[0] + nb[1] + 1, sizeof *r);
    hs_page_style *sty = hs_calloc(a, nb[0] + nb[1] + 1, sizeof *sty);
    bool *ex = hs_calloc(a, nb[0] + nb[1] + 1, sizeof *ex);
    int rc = idx[0] && idx[1] && r && sty && ex ? HS_OK : HS_ERR_NOMEM;
    for (int k = 0; k < 2 && rc == HS_OK; k++) {
        hs_band_stats *st = hs_calloc(a, nb[k] + 1, sizeof *st);
        rc = st ? hs_census_band_stats(cs[k], st) : HS_ERR_NOMEM;
        if (rc == HS_OK)
            rc = hs__page_styles(cs[k], opt, NULL, ex);
        for (size_t b = 0; b < nb[k] && rc == HS_OK; b++) {
            const char *name = hs_census_band_name(cs[k], b);
            bool added;
            name = name ? name : "";
            if (!hs_intern_put(&names, name, strlen(name), &idx[k][b], &added)) {
                rc = HS_ERR_NOMEM;
                break;
            }
            ranked *e = &r[idx[k][b]];
            if (added)
                *e = (ranked){idx[k][b], 0, names.keys[idx[k][b]].ptr, true};
            if (st[b].byte_seconds > e->key)
                e->key = st[b].byte_seconds;
            e->excluded = e->excluded && ex[b];
        }
        hs_free(a, st);
    }
    if (rc == HS_OK) {
        qsort(r, names.count, sizeof *r, by_rank);
        unsigned used[HS_CHART_NSTYLES] = {0};
        for (size_t i = 0; i < names.count; i++)
            hs_chart_style_pick(r[i].name, used, &sty[r[i].band].colour,
                                &sty[r[i].band].hatched);
        for (int k = 0; k < 2; k++)
            for (size_t b = 0; b < nb[k]; b++)
                out[k][b] = sty[idx[k][b]];
    }
    hs_intern_free(&names);
    hs_free(a, idx[0]);
    hs_free(a, idx[1]);
    hs_free(a, r);
    hs_free(a, sty);
    hs_free(a, ex);
    return rc;
}

int hs__page_compare_data(const hs_census *before, const hs_census *after,
                          const hs_page_options *opt, hs_sink *out)
{
    const hs_census *cs[2] = {before, after};
    const hs_allocator *a = hs_census_allocator(before);
    hs_page_style *sty[2] = {
        hs_calloc(a, hs_census_band_count(before) + 1, sizeof(hs_page_style)),
        hs_calloc(a, hs_census_band_count(after) + 1, sizeof(hs_page_style))};
    hs_page_options o = *opt;
    o.gc_json = NULL; /* one summary cannot describe two runs */
    int rc = sty[0] && sty[1] ? shared_styles(cs, &o, sty) : HS_ERR_NOMEM;
    if (rc == HS_OK)
        rc = hs__page_data(before, &o, sty[0], out);
    if (rc == HS_OK)
        rc = hs_sink_write(out, ",\"after\":", 9);
    o.input = opt->input_after;
    if (rc == HS_OK)
        rc = hs__page_data(after, &o, sty[1], out);
    hs_free(a, sty[0]);
    hs_free(a, sty[1]);
    return rc;
}

char *hs__page_title(const hs_census *c, const hs_page_options *opt)
{
    const hs_allocator *a = hs_census_allocator(c);
    if (opt->title)
        return hs_strndup(a, opt->title, strlen(opt->title));
    size_t n = hs_render_hp_job(c, NULL, 0);
    /* A log that does not give the command line (a live one before its
     * first events): the input's name. */
    if (n == 0 && opt->input)
        return hs_strndup(a, opt->input, strlen(opt->input));
    char *t = n != SIZE_MAX ? hs_malloc(a, n + 1) : NULL;
    /* The second call allocates too and may fail: then t holds nothing. */
    if (t && hs_render_hp_job(c, t, n + 1) != n) {
        hs_free(a, t);
        t = NULL;
    }
    return t;
}

/* --- the subtitle ----------------------------------------------------------- */

#define DOT " \xc2\xb7 " /* " · " */

typedef struct line {
    char buf[400];
    size_t len;
} line;

static void add(line *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(l->buf + l->len, sizeof l->buf - l->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        l->len += (size_t)n < sizeof l->buf - l->len ? (size_t)n
                                                     : sizeof l->buf - 1 - l->len;
}

/* What a census without heap samples holds. */
static void add_no_samples(line *l, const hs_census *c, bool live)
{
    double end = hs_census_get_info(c)->end_time_ns / 1e9;
    const hs_census_point *pt;
    bool lines = hs_census_heap_line(c, HS_LINE_HEAP_SIZE, &pt) ||
                 hs_census_heap_line(c, HS_LINE_HEAP_LIVE, &pt);
    if (hs_census_tprof_count(c))
        add(l, "time profile" DOT "%zu stacks" DOT "%.3f s",
            hs_census_tprof_count(c), end);
    else if (live && !lines)
        add(l, "live" DOT "waiting for the program's first GC events");
    else if (live)
        add(l, "live" DOT "no heap census yet" DOT "%.3f s", end);
    else
        add(l, "no heap profile" DOT "%.3f s", end);
}

char *hs__page_subtitle(const hs_census *c, const hs_page_options *opt)
{
    const hs_census_info *in = hs_census_get_info(c);
    size_t n = hs_census_sample_count(c);
    line l = {.len = 0};
    l.buf[0] = 0;
    /* A live page names its program: the title may still be the FIFO's. */
    if (opt->live_url && in->program && *in->program) {
        const char *slash = strrchr(in->program, '/');
        add(&l, "%.120s" DOT, slash && slash[1] ? slash + 1 : in->program);
    }
    char label[96], pk[32];
    if (!n) {
        add_no_samples(&l, c, opt->live_url != NULL);
    } else {
        size_t peak = hs_census_peak_sample(c);
        hs_format_bytes(pk, sizeof pk, (double)hs_census_sample_total(c, peak));
        if (hs_census_profile_label(c, label, sizeof label))
            add(&l, "%s" DOT, label);
        add(&l, "%zu samples" DOT "%.3f s" DOT "peak %s at %.3f s", n,
            in->end_time_ns / 1e9, pk, hs_census_sample_time(c, peak) / 1e9);
    }
    return hs_strndup(hs_census_allocator(c), l.buf, l.len);
}
