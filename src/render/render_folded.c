/*
 * The folded-stack renderer: "frame;frame;frame N" lines, outermost frame
 * first, the input of flamegraph.pl, inferno and speedscope.
 *
 * Heap (-hc): one line per cost-centre stack, frames "Module.label",
 * weighted by its bytes at the sample with the largest total (peak), its
 * byte-seconds over the run (integral, hs_census_band_stats) or its
 * bytes at the last sample. Other breakdowns: one frame per band.
 * Time: one line per stack, weighted by its ticks; optionally under a
 * "cap N" root frame.
 *
 * Lines with the same text are summed into one, and lines are written in
 * the order their stacks were first seen. Frame text is cleaned so every
 * line parses: ';' (the separator) becomes ':', line breaks and TABs
 * become spaces, an empty frame becomes "?", and a frame ending in a space
 * and digits gets '_' for that space, so no frame can pass for the count.
 */
#include "heapscope/render.h"
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct folded {
    hs_intern lines;    /* the frames part of each line */
    double *weight;
    size_t cap_weight;
    char *buf;          /* the line being built */
    size_t len, cap;
    bool nomem;
};

static void buf_add(struct folded *f, const char *s, size_t n)
{
    if (f->nomem)
        return;
    if (!hs_grow((void **)&f->buf, &f->cap, f->len + n + 1, 1)) {
        f->nomem = true;
        return;
    }
    memcpy(f->buf + f->len, s, n);
    f->len += n;
}

/* Appends one frame, cleaned (see the top of the file). */
static void add_frame(struct folded *f, const char *a, const char *b)
{
    if (f->len)
        buf_add(f, ";", 1);
    size_t start = f->len;
    const char *parts[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        for (const char *p = parts[k]; p && *p; p++) {
            char ch = *p;
            if (ch == ';')
                ch = ':';
            else if (ch == '\n' || ch == '\r' || ch == '\t')
                ch = ' ';
            buf_add(f, &ch, 1);
        }
    }
    if (f->nomem)
        return;
    if (f->len == start) {
        buf_add(f, "?", 1);
        return;
    }
    size_t i = f->len;
    while (i > start && f->buf[i - 1] >= '0' && f->buf[i - 1] <= '9')
        i--;
    if (i < f->len && i > start && f->buf[i - 1] == ' ')
        f->buf[i - 1] = '_';
}

static void add_line(struct folded *f, double w)
{
    if (f->nomem)
        return;
    uint32_t idx;
    bool added;
    if (!hs_intern_put(&f->lines, f->buf ? f->buf : "", f->len, &idx,
                       &added) ||
        !hs_grow((void **)&f->weight, &f->cap_weight, (size_t)idx + 1,
                 sizeof *f->weight)) {
        f->nomem = true;
        return;
    }
    if (added)
        f->weight[idx] = 0;
    f->weight[idx] += w;
}

/* Frames of a cost-centre stack given innermost first. */
static void add_cc_frames(struct folded *f, const hs_census *c,
                          const uint32_t *ids, size_t depth)
{
    if (depth == 0) {
        add_frame(f, "MAIN", NULL);
        return;
    }
    for (size_t k = depth; k-- > 0;) {
        const hs_cost_centre *cc = hs_census_cost_centre(c, ids[k]);
        if (cc) {
            char *dot = NULL;
            size_t n = strlen(cc->module);
            dot = malloc(n + 2);
            if (!dot) {
                f->nomem = true;
                return;
            }
            memcpy(dot, cc->module, n);
            dot[n] = '.';
            dot[n + 1] = 0;
            add_frame(f, dot, cc->label);
            free(dot);
        } else {
            char tmp[32];
            snprintf(tmp, sizeof tmp, "<cc %u>", ids[k]);
            add_frame(f, tmp, NULL);
        }
    }
}

static void band_frames(struct folded *f, const hs_census *c, size_t band,
                        bool cc)
{
    f->len = 0;
    const uint32_t *ids;
    size_t depth = hs_census_band_stack(c, band, &ids);
    if (cc)
        add_cc_frames(f, c, ids, depth);
    else
        add_frame(f, hs_census_band_name(c, band), NULL);
}

static int heap_weights(struct folded *f, const hs_census *c,
                        hs_folded_weight weight)
{
    const hs_census_info *info = hs_census_get_info(c);
    size_t ns = hs_census_sample_count(c);
    size_t nb = hs_census_band_count(c);
    bool cc = info->breakdown == HS_BREAKDOWN_COST_CENTRE &&
              info->source == HS_SOURCE_EVENTLOG;
    double *w = calloc(nb ? nb : 1, sizeof *w);
    if (!w)
        return HS_ERR_NOMEM;
    if (ns && weight == HS_WEIGHT_INTEGRAL) {
        hs_band_stats *st = calloc(nb ? nb : 1, sizeof *st);
        if (!st || hs_census_band_stats(c, st) != HS_OK) {
            free(st);
            free(w);
            return HS_ERR_NOMEM;
        }
        for (size_t b = 0; b < nb; b++)
            w[b] = st[b].byte_seconds;
        free(st);
    } else if (ns) {
        size_t pick = weight == HS_WEIGHT_PEAK ? hs_census_peak_sample(c)
                                               : ns - 1;
        const hs_census_entry *e;
        size_t ne = hs_census_sample_entries(c, pick, &e);
        for (size_t k = 0; k < ne; k++)
            w[e[k].band] += (double)e[k].bytes;
    }
    /* Bands in index order: the order their stacks were first seen. */
    for (size_t b = 0; b < nb && !f->nomem; b++) {
        if (w[b] <= 0)
            continue;
        band_frames(f, c, b, cc);
        add_line(f, w[b]);
    }
    free(w);
    return f->nomem ? HS_ERR_NOMEM : HS_OK;
}

static int time_weights(struct folded *f, const hs_census *c, bool per_cap)
{
    size_t n = hs_census_tprof_count(c);
    if (!per_cap) {
        for (size_t i = 0; i < n && !f->nomem; i++) {
            const uint32_t *ids;
            uint64_t ticks;
            size_t depth = hs_census_tprof_stack(c, i, -1, &ids, &ticks);
            f->len = 0;
            add_cc_frames(f, c, ids, depth);
            add_line(f, (double)ticks);
        }
    } else {
        size_t np = hs_census_tprof_cap_count(c);
        for (size_t k = 0; k < np && !f->nomem; k++) {
            size_t stack;
            uint32_t cap;
            uint64_t ticks = hs_census_tprof_cap_at(c, k, &stack, &cap);
            const uint32_t *ids;
            uint64_t all;
            size_t depth = hs_census_tprof_stack(c, stack, -1, &ids, &all);
            char root[32];
            /* Written as is: never the last frame, so its number cannot
             * pass for the count. */
            int rn = snprintf(root, sizeof root, "cap %u", cap);
            f->len = 0;
            buf_add(f, root, (size_t)rn);
            add_cc_frames(f, c, ids, depth);
            add_line(f, (double)ticks);
        }
    }
    return f->nomem ? HS_ERR_NOMEM : HS_OK;
}

int hs_render_folded(const hs_census *c, hs_sink *out,
                     const hs_folded_options *opt)
{
    hs_folded_options def = {HS_FOLDED_HEAP, HS_WEIGHT_PEAK, false};
    if (!opt)
        opt = &def;
    const hs_census_info *info = hs_census_get_info(c);
    if (opt->source == HS_FOLDED_TIME) {
        if (!info->time_samples)
            return HS_ERR_NO_DATA;
    } else if (opt->source == HS_FOLDED_HEAP) {
        if (info->source != HS_SOURCE_HP && !info->breakdown &&
            !hs_census_sample_count(c))
            return HS_ERR_NO_DATA;
        if (opt->weight != HS_WEIGHT_PEAK &&
            opt->weight != HS_WEIGHT_INTEGRAL &&
            opt->weight != HS_WEIGHT_LAST)
            return HS_ERR_INVALID;
    } else {
        return HS_ERR_INVALID;
    }
    struct folded f;
    memset(&f, 0, sizeof f);
    hs_intern_init(&f.lines);
    int st = opt->source == HS_FOLDED_TIME
                 ? time_weights(&f, c, opt->per_capability)
                 : heap_weights(&f, c, opt->weight);
    hs_outbuf *o = st ? NULL : malloc(sizeof *o);
    if (!st && !o)
        st = HS_ERR_NOMEM;
    if (!st) {
        hs_outbuf_init(o, out);
        for (size_t i = 0; i < f.lines.count; i++) {
            double w = llround(f.weight[i]) > 0 ? f.weight[i] : 0;
            if (w <= 0)
                continue; /* rounds to nothing: no line */
            hs_outbuf_write(o, f.lines.keys[i].ptr, f.lines.keys[i].len);
            hs_outbuf_putc(o, ' ');
            hs_outbuf_u64(o, (uint64_t)llround(w));
            hs_outbuf_putc(o, '\n');
        }
        st = hs_outbuf_flush(o);
    }
    free(o);
    free(f.weight);
    free(f.buf);
    hs_intern_free(&f.lines);
    return st;
}
