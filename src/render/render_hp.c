/*
 * The .hp renderer: a census as the runtime writes its heap profile, so
 * hp2ps and every tool that reads .hp files take it.
 *
 * Layout: JOB, DATE, SAMPLE_UNIT, VALUE_UNIT, an empty sample at 0, the
 * samples, hp2ps MARK lines between samples at their times, and an empty
 * closing sample at the end time. Entries are written as the census holds
 * them, zero bytes included: the runtime writes the five -hb bands of a
 * census even when one of them is 0.
 */
#include "heapscope/render.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* A quoted .hp string: quotes doubled, as the runtime writes its JOB. */
static void put_quoted(hs_outbuf *o, const char *s)
{
    hs_outbuf_putc(o, '"');
    for (const char *p = s ? s : ""; *p; p++) {
        if (*p == '"')
            hs_outbuf_putc(o, '"');
        /* A line break would end the header line early. */
        hs_outbuf_putc(o, *p == '\n' || *p == '\r' ? ' ' : *p);
    }
    hs_outbuf_putc(o, '"');
    hs_outbuf_putc(o, '\n');
}

static void put_sample_line(hs_outbuf *o, const char *kw, uint64_t ns)
{
    hs_outbuf_puts(o, kw);
    hs_outbuf_putc(o, ' ');
    hs_outbuf_seconds(o, ns);
    hs_outbuf_putc(o, '\n');
}

/* A band name as a .hp key: a TAB or line break inside it would split the
 * line, so they become spaces. Each name is cleaned once, not per line. */
static char *clean_key(const char *s, size_t len)
{
    char *k = malloc(len + 1);
    if (!k)
        return NULL;
    for (size_t i = 0; i < len; i++)
        k[i] = s[i] == '\t' || s[i] == '\n' || s[i] == '\r' ? ' ' : s[i];
    k[len] = 0;
    return k;
}

int hs_render_hp(const hs_census *c, hs_sink *out)
{
    const hs_census_info *info = hs_census_get_info(c);
    size_t ns = hs_census_sample_count(c);
    if (info->source != HS_SOURCE_HP && !info->breakdown && !ns)
        return HS_ERR_NO_DATA;

    /* Bands that share a name (two stacks with the same labels, names cut
     * by -L) are one key in the .hp: give each name one key index and sum
     * a sample's entries per key. */
    size_t nb = hs_census_band_count(c);
    uint32_t *key_of = malloc((nb ? nb : 1) * sizeof *key_of);
    hs_intern names;
    hs_intern_init(&names);
    size_t *last = NULL, *pos = NULL;
    char **keys = NULL;
    hs_census_entry *merged = NULL;
    size_t cap_merged = 0;
    hs_outbuf *o = malloc(sizeof *o);
    int st = HS_ERR_NOMEM;
    if (!key_of || !o)
        goto done;
    for (size_t b = 0; b < nb; b++) {
        const char *name = hs_census_band_name(c, b);
        bool added;
        if (!hs_intern_put(&names, name, strlen(name), &key_of[b], &added))
            goto done;
    }
    last = malloc((names.count ? names.count : 1) * sizeof *last);
    pos = malloc((names.count ? names.count : 1) * sizeof *pos);
    keys = calloc(names.count ? names.count : 1, sizeof *keys);
    if (!last || !pos || !keys)
        goto done;
    for (size_t k = 0; k < names.count; k++) {
        last[k] = SIZE_MAX;
        const struct hs_intern_key *nk = &names.keys[k];
        if (strcspn(nk->ptr, "\t\n\r") < nk->len &&
            !(keys[k] = clean_key(nk->ptr, nk->len)))
            goto done;
    }
    /* the common case: every band has a name of its own */
    bool unique = names.count == nb;

    hs_outbuf_init(o, out);
    hs_outbuf_puts(o, "JOB ");
    put_quoted(o, info->job ? info->job : info->program);
    hs_outbuf_puts(o, "DATE ");
    put_quoted(o, info->date);
    hs_outbuf_puts(o, "SAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n");
    put_sample_line(o, "BEGIN_SAMPLE", 0);
    put_sample_line(o, "END_SAMPLE", 0);

    size_t nm = hs_census_marker_count(c), m = 0;
    uint64_t end = info->end_time_ns;
    for (size_t i = 0; i < ns; i++) {
        uint64_t t = hs_census_sample_time(c, i);
        for (; m < nm && hs_census_marker_at(c, m)->time_ns < t; m++)
            put_sample_line(o, "MARK", hs_census_marker_at(c, m)->time_ns);
        if (t > end)
            end = t;
        const hs_census_entry *e;
        size_t ne = hs_census_sample_entries(c, i, &e);
        const hs_census_entry *lines = e;
        size_t nmerged = ne;
        if (!hs_grow((void **)&merged, &cap_merged, ne ? ne : 1,
                     sizeof *merged))
            goto done;
        if (!unique) {
            lines = merged;
            nmerged = 0;
        }
        for (size_t k = 0; k < ne && !unique; k++) {
            uint32_t key = key_of[e[k].band];
            if (last[key] == i) {
                uint64_t *v = &merged[pos[key]].bytes;
                *v = *v + e[k].bytes < *v ? UINT64_MAX : *v + e[k].bytes;
                continue;
            }
            last[key] = i;
            pos[key] = nmerged;
            merged[nmerged++] = e[k];
        }
        put_sample_line(o, "BEGIN_SAMPLE", t);
        for (size_t k = 0; k < nmerged; k++) {
            uint32_t key = key_of[lines[k].band];
            const struct hs_intern_key *nk = &names.keys[key];
            hs_outbuf_write(o, keys[key] ? keys[key] : nk->ptr, nk->len);
            hs_outbuf_putc(o, '\t');
            hs_outbuf_u64(o, lines[k].bytes);
            hs_outbuf_putc(o, '\n');
        }
        put_sample_line(o, "END_SAMPLE", t);
    }
    for (; m < nm; m++) {
        uint64_t t = hs_census_marker_at(c, m)->time_ns;
        put_sample_line(o, "MARK", t);
        if (t > end)
            end = t;
    }
    put_sample_line(o, "BEGIN_SAMPLE", end);
    put_sample_line(o, "END_SAMPLE", end);
    st = hs_outbuf_flush(o);
done:
    for (size_t k = 0; keys && k < names.count; k++)
        free(keys[k]);
    free(keys);
    free(key_of);
    free(last);
    free(pos);
    free(merged);
    free(o);
    hs_intern_free(&names);
    return st;
}
