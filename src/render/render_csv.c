/*
 * The CSV renderer: census tables for spreadsheets and data frames.
 *
 *   long:  time_s,band,bytes           one row per band per sample
 *   wide:  time_s,<band>,<band>,...     one row per sample, 0 when absent
 *
 * Band names go through libcsv's csv_write, which quotes every field it
 * writes, so any label (commas, quotes, line breaks, any byte) survives a
 * CSV reader. Bands that share a name are one column (as in the .hp).
 */
#include "heapscope/render.h"
#include "internal.h"

#include <csv.h>
#include <stdlib.h>
#include <string.h>

/* A name keyed once; each key's quoted form is computed once too. */
struct keys {
    hs_intern names;
    uint32_t *key_of;   /* band -> key */
    char **quoted;      /* key -> quoted field */
    size_t *quoted_len;
};

static void keys_free(struct keys *k)
{
    if (k->quoted)
        for (size_t i = 0; i < k->names.count; i++)
            free(k->quoted[i]);
    free(k->quoted);
    free(k->quoted_len);
    free(k->key_of);
    hs_intern_free(&k->names);
}

static int keys_build(struct keys *k, const hs_census *c)
{
    memset(k, 0, sizeof *k);
    hs_intern_init(&k->names);
    size_t nb = hs_census_band_count(c);
    k->key_of = malloc((nb ? nb : 1) * sizeof *k->key_of);
    if (!k->key_of)
        return HS_ERR_NOMEM;
    for (size_t b = 0; b < nb; b++) {
        const char *name = hs_census_band_name(c, b);
        bool added;
        if (!hs_intern_put(&k->names, name, strlen(name), &k->key_of[b],
                           &added))
            return HS_ERR_NOMEM;
    }
    size_t nk = k->names.count ? k->names.count : 1;
    k->quoted = calloc(nk, sizeof *k->quoted);
    k->quoted_len = calloc(nk, sizeof *k->quoted_len);
    if (!k->quoted || !k->quoted_len)
        return HS_ERR_NOMEM;
    for (size_t i = 0; i < k->names.count; i++) {
        const struct hs_intern_key *key = &k->names.keys[i];
        /* csv_write tells the size it needs when given too little room. */
        size_t need = csv_write(NULL, 0, key->ptr, key->len);
        k->quoted[i] = malloc(need ? need : 1);
        if (!k->quoted[i])
            return HS_ERR_NOMEM;
        k->quoted_len[i] = csv_write(k->quoted[i], need, key->ptr, key->len);
    }
    return HS_OK;
}

static void put_key(hs_outbuf *o, const struct keys *k, uint32_t key)
{
    hs_outbuf_write(o, k->quoted[key], k->quoted_len[key]);
}

static int render_long(const hs_census *c, hs_outbuf *o, const struct keys *k)
{
    hs_outbuf_puts(o, "time_s,band,bytes\n");
    size_t nk = k->names.count ? k->names.count : 1;
    uint64_t *sum = calloc(nk, sizeof *sum);
    size_t *last = malloc(nk * sizeof *last);
    uint32_t *order = malloc(nk * sizeof *order);
    if (!sum || !last || !order) {
        free(sum);
        free(last);
        free(order);
        return HS_ERR_NOMEM;
    }
    for (size_t i = 0; i < nk; i++)
        last[i] = SIZE_MAX;
    for (size_t s = 0; s < hs_census_sample_count(c); s++) {
        const hs_census_entry *e;
        size_t ne = hs_census_sample_entries(c, s, &e), nord = 0;
        for (size_t i = 0; i < ne; i++) {
            uint32_t key = k->key_of[e[i].band];
            if (last[key] != s) {
                last[key] = s;
                sum[key] = 0;
                order[nord++] = key;
            }
            sum[key] += e[i].bytes;
        }
        for (size_t i = 0; i < nord; i++) {
            hs_outbuf_seconds(o, hs_census_sample_time(c, s));
            hs_outbuf_putc(o, ',');
            put_key(o, k, order[i]);
            hs_outbuf_putc(o, ',');
            hs_outbuf_u64(o, sum[order[i]]);
            hs_outbuf_putc(o, '\n');
        }
    }
    free(sum);
    free(last);
    free(order);
    return HS_OK;
}

static int render_wide(const hs_census *c, hs_outbuf *o, const struct keys *k)
{
    size_t nk = k->names.count;
    hs_outbuf_puts(o, "time_s");
    for (size_t i = 0; i < nk; i++) {
        hs_outbuf_putc(o, ',');
        put_key(o, k, (uint32_t)i);
    }
    hs_outbuf_putc(o, '\n');
    uint64_t *row = calloc(nk ? nk : 1, sizeof *row);
    if (!row)
        return HS_ERR_NOMEM;
    for (size_t s = 0; s < hs_census_sample_count(c); s++) {
        const hs_census_entry *e;
        size_t ne = hs_census_sample_entries(c, s, &e);
        memset(row, 0, (nk ? nk : 1) * sizeof *row);
        for (size_t i = 0; i < ne; i++)
            row[k->key_of[e[i].band]] += e[i].bytes;
        hs_outbuf_seconds(o, hs_census_sample_time(c, s));
        for (size_t i = 0; i < nk; i++) {
            hs_outbuf_putc(o, ',');
            hs_outbuf_u64(o, row[i]);
        }
        hs_outbuf_putc(o, '\n');
    }
    free(row);
    return HS_OK;
}

int hs_render_csv(const hs_census *c, hs_sink *out, hs_csv_layout layout)
{
    const hs_census_info *info = hs_census_get_info(c);
    if (info->source != HS_SOURCE_HP && !info->breakdown &&
        !hs_census_sample_count(c))
        return HS_ERR_NO_DATA;
    if (layout != HS_CSV_LONG && layout != HS_CSV_WIDE)
        return HS_ERR_INVALID;
    struct keys k;
    int st = keys_build(&k, c);
    hs_outbuf *o = st ? NULL : malloc(sizeof *o);
    if (!st && !o)
        st = HS_ERR_NOMEM;
    if (!st) {
        hs_outbuf_init(o, out);
        st = layout == HS_CSV_LONG ? render_long(c, o, &k)
                                   : render_wide(c, o, &k);
        int fs = hs_outbuf_flush(o);
        if (!st)
            st = fs;
    }
    free(o);
    keys_free(&k);
    return st;
}
