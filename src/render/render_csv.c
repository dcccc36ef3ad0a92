/*
 * The CSV renderer: census tables for spreadsheets and data frames.
 *
 *   long:  time_s,band,bytes[,count]   one row per band per sample (count:
 *                                      objects, when the census has them)
 *   wide:  time_s,<band>,<band>,...     one row per sample, 0 when absent
 *
 * Band names go through libcsv's csv_write, which quotes every field it
 * writes, so any label (commas, quotes, line breaks, any byte) survives a
 * CSV reader. Bands that share a name are one column (the band groups of
 * census.h, as in the .hp). A name a spreadsheet would take for a formula
 * is written with a ' in front (the formula guard).
 */
#include "heapscope/render.h"
#include "common/internal.h"
#include "render/csv_internal.h"

#include <csv.h>
#include <string.h>

/* Each group's quoted field, computed once. */
struct keys {
    const hs_allocator *alloc;
    hs_band_groups *groups;
    size_t count;
    char **quoted;
    size_t *quoted_len;
};

static void keys_free(struct keys *k)
{
    if (k->quoted)
        for (size_t i = 0; i < k->count; i++)
            hs_free(k->alloc, k->quoted[i]);
    hs_free(k->alloc, k->quoted);
    hs_free(k->alloc, k->quoted_len);
    hs_band_groups_free(k->groups);
}

/* Cells a spreadsheet evaluates: OWASP's list of leading characters. */
static bool looks_like_formula(const char *s)
{
    return s[0] && strchr("=+-@\t\r", s[0]) != NULL;
}

char *hs__csv_quote(const hs_allocator *a, const char *name, bool guard,
                    size_t *out_len)
{
    size_t len = strlen(name);
    const char *src = name;
    char *tmp = NULL;
    if (guard && looks_like_formula(name)) {
        if (!(tmp = hs_malloc(a, len + 2)))
            return NULL;
        tmp[0] = '\'';
        memcpy(tmp + 1, name, len + 1);
        src = tmp;
        len++;
    }
    /* csv_write tells the size it needs when given too little room. */
    size_t need = csv_write(NULL, 0, src, len);
    char *q = hs_malloc(a, need ? need : 1);
    if (q)
        *out_len = csv_write(q, need, src, len);
    hs_free(a, tmp);
    return q;
}

static int quote_name(struct keys *k, size_t i, const char *name,
                      bool guard)
{
    k->quoted[i] = hs__csv_quote(k->alloc, name, guard, &k->quoted_len[i]);
    return k->quoted[i] ? HS_OK : HS_ERR_NOMEM;
}

static int keys_build(struct keys *k, const hs_census *c, bool guard)
{
    memset(k, 0, sizeof *k);
    k->alloc = hs_census_allocator(c);
    if (!(k->groups = hs_band_groups_new(c)))
        return HS_ERR_NOMEM;
    size_t n = hs_band_groups_count(k->groups);
    k->quoted = hs_calloc(k->alloc, n ? n : 1, sizeof *k->quoted);
    k->quoted_len = hs_calloc(k->alloc, n ? n : 1, sizeof *k->quoted_len);
    if (!k->quoted || !k->quoted_len)
        return HS_ERR_NOMEM;
    k->count = n; /* slots not reached stay NULL, freed harmlessly */
    for (size_t i = 0; i < n; i++) {
        int st = quote_name(k, i, hs_band_groups_name(k->groups, i), guard);
        if (st)
            return st;
    }
    return HS_OK;
}

static void put_key(hs_outbuf *o, const struct keys *k, uint32_t key)
{
    hs_outbuf_write(o, k->quoted[key], k->quoted_len[key]);
}

/* Objects per group of sample s (a census with counts) into objs, which
 * holds a zero per group on entry and is cleared again by the caller. */
static void group_counts(const hs_census *c, const struct keys *k, size_t s,
                         uint64_t *objs)
{
    const hs_census_entry *raw;
    const uint64_t *cnt;
    size_t n = hs_census_sample_entries(c, s, &raw);
    if (hs_census_sample_counts(c, s, &cnt) != n)
        return;
    for (size_t i = 0; i < n; i++)
        objs[hs_band_groups_of(k->groups, raw[i].band)] += cnt[i];
}

static int render_long(const hs_census *c, hs_outbuf *o, const struct keys *k)
{
    /* Objects per band when the source counts them (.mlpd heap shots). */
    bool counted = hs_census_has_counts(c);
    uint64_t *objs = counted ? hs_calloc(k->alloc, k->count + 1, sizeof *objs)
                             : NULL;
    if (counted && !objs)
        return HS_ERR_NOMEM;
    hs_outbuf_puts(o, counted ? "time_s,band,bytes,count\n"
                              : "time_s,band,bytes\n");
    for (size_t s = 0; s < hs_census_sample_count(c); s++) {
        const hs_census_entry *e;
        size_t ne = hs_band_groups_sample(k->groups, s, &e);
        if (counted)
            group_counts(c, k, s, objs);
        for (size_t i = 0; i < ne; i++) {
            hs_outbuf_seconds(o, hs_census_sample_time(c, s));
            hs_outbuf_putc(o, ',');
            put_key(o, k, e[i].band);
            hs_outbuf_putc(o, ',');
            hs_outbuf_u64(o, e[i].bytes);
            if (counted) {
                hs_outbuf_putc(o, ',');
                hs_outbuf_u64(o, objs[e[i].band]);
                objs[e[i].band] = 0;
            }
            hs_outbuf_putc(o, '\n');
        }
    }
    hs_free(k->alloc, objs);
    return HS_OK;
}

static int render_wide(const hs_census *c, hs_outbuf *o, const struct keys *k)
{
    size_t nk = k->count;
    hs_outbuf_puts(o, "time_s");
    for (size_t i = 0; i < nk; i++) {
        hs_outbuf_putc(o, ',');
        put_key(o, k, (uint32_t)i);
    }
    hs_outbuf_putc(o, '\n');
    uint64_t *row = hs_calloc(k->alloc, nk ? nk : 1, sizeof *row);
    if (!row)
        return HS_ERR_NOMEM;
    for (size_t s = 0; s < hs_census_sample_count(c); s++) {
        const hs_census_entry *e;
        size_t ne = hs_band_groups_sample(k->groups, s, &e);
        memset(row, 0, (nk ? nk : 1) * sizeof *row);
        for (size_t i = 0; i < ne; i++)
            row[e[i].band] = e[i].bytes;
        hs_outbuf_seconds(o, hs_census_sample_time(c, s));
        for (size_t i = 0; i < nk; i++) {
            hs_outbuf_putc(o, ',');
            hs_outbuf_u64(o, row[i]);
        }
        hs_outbuf_putc(o, '\n');
    }
    hs_free(k->alloc, row);
    return HS_OK;
}

void hs_csv_options_init(hs_csv_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->layout = HS_CSV_LONG;
    opt->formula_guard = true;
}

int hs_render_csv_with(const hs_census *c, hs_sink *out,
                       const hs_csv_options *opt)
{
    hs_csv_options def;
    if (!opt) {
        hs_csv_options_init(&def);
        opt = &def;
    }
    if (!hs_census_has_heap_profile(c))
        return HS_ERR_NO_DATA;
    if (opt->layout != HS_CSV_LONG && opt->layout != HS_CSV_WIDE)
        return HS_ERR_INVALID;
    struct keys k;
    int st = keys_build(&k, c, opt->formula_guard);
    hs_outbuf *o = st ? NULL : hs_malloc(k.alloc, sizeof *o);
    if (!st && !o)
        st = HS_ERR_NOMEM;
    if (!st) {
        hs_outbuf_init(o, out);
        if (opt->bom)
            hs_outbuf_write(o, "\xef\xbb\xbf", 3);
        st = opt->layout == HS_CSV_LONG ? render_long(c, o, &k)
                                        : render_wide(c, o, &k);
        int fs = hs_outbuf_flush(o);
        if (!st)
            st = fs;
    }
    hs_free(k.alloc, o);
    keys_free(&k);
    return st;
}

int hs_render_csv(const hs_census *c, hs_sink *out, hs_csv_layout layout)
{
    hs_csv_options opt;
    hs_csv_options_init(&opt);
    opt.layout = layout;
    return hs_render_csv_with(c, out, &opt);
}
