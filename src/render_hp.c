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
 * line, so they become spaces. */
static void put_key(hs_outbuf *o, const char *s)
{
    size_t n = strcspn(s, "\t\n\r");
    if (!s[n]) {
        hs_outbuf_write(o, s, n);
        return;
    }
    for (; *s; s++)
        hs_outbuf_putc(o, *s == '\t' || *s == '\n' || *s == '\r' ? ' '
                                                                 : *s);
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
    if (!last || !pos)
        goto done;
    for (size_t k = 0; k < names.count; k++)
        last[k] = SIZE_MAX;

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
        if (!hs_grow((void **)&merged, &cap_merged, ne ? ne : 1,
                     sizeof *merged))
            goto done;
        size_t nmerged = 0;
        for (size_t k = 0; k < ne; k++) {
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
            put_key(o, hs_census_band_name(c, merged[k].band));
            hs_outbuf_putc(o, '\t');
            hs_outbuf_u64(o, merged[k].bytes);
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
    free(key_of);
    free(last);
    free(pos);
    free(merged);
    free(o);
    hs_intern_free(&names);
    return st;
}
