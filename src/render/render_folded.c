/*
 * The folded-stack renderer: "frame;frame;frame N" lines, outermost frame
 * first, the input of flamegraph.pl, inferno and speedscope.
 *
 * Heap (-hc): one line per cost-centre stack, frames "Module.label",
 * weighted by its bytes at the sample with the largest total (peak), its
 * byte-seconds over the run (integral, hs_census_band_stats) or its
 * bytes at the last sample. A runtime -hc .hp has no stacks, only keys
 * "(ccs id)label/label/...", innermost first: the id is dropped and the
 * labels become frames, outermost first. Other breakdowns: one frame per
 * band.
 * Time: one line per stack, weighted by its ticks; optionally under a
 * "cap N" root frame. Alloc (a Mono .mlpd): one line per allocation site,
 * the backtrace's methods then the allocated class, by bytes or objects.
 *
 * Lines with the same text are summed into one, and lines are written in
 * the order their stacks were first seen. Frame text is cleaned so every
 * line parses: ';' (the separator) becomes ':', line breaks and TABs
 * become spaces, an empty frame becomes "?", and a frame ending in a space
 * and digits gets '_' for that space, so no frame can pass for the count.
 */
#include "heapscope/render.h"
#include "heapscope/mlpd_census.h"
#include "common/internal.h"
#include "render/folded_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct folded {
    const hs_allocator *alloc;  /* the census's */
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
    if (!hs_grow(f->alloc, (void **)&f->buf, &f->cap, f->len + n + 1, 1)) {
        f->nomem = true;
        return;
    }
    memcpy(f->buf + f->len, s, n);
    f->len += n;
}

/* Appends one frame made of three parts (any may be NULL), cleaned (see
 * the top of the file); a part's length is nb[k], or SIZE_MAX for all of
 * its C string. */
static void add_frame_parts(struct folded *f, const char *const parts[3],
                            const size_t nb[3])
{
    if (f->len)
        buf_add(f, ";", 1);
    size_t start = f->len;
    for (int k = 0; k < 3; k++) {
        const char *p = parts[k];
        for (size_t i = 0; p && i < nb[k] && p[i]; i++) {
            char ch = p[i];
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

static void add_frame(struct folded *f, const char *a, const char *b)
{
    const char *parts[3] = {a, b, NULL};
    const size_t nb[3] = {SIZE_MAX, SIZE_MAX, 0};
    add_frame_parts(f, parts, nb);
}

static void add_line(struct folded *f, double w)
{
    if (f->nomem)
        return;
    uint32_t idx;
    bool added;
    if (!hs_intern_put(&f->lines, f->buf ? f->buf : "", f->len, &idx,
                       &added) ||
        !hs_grow(f->alloc, (void **)&f->weight, &f->cap_weight,
                 (size_t)idx + 1,
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
            /* No module (a Mono method or symbol): the label alone. */
            bool mod = cc->module && cc->module[0];
            const char *parts[3] = {mod ? cc->module : NULL,
                                    mod ? "." : NULL, cc->label};
            const size_t nb[3] = {SIZE_MAX, SIZE_MAX, SIZE_MAX};
            add_frame_parts(f, parts, nb);
        } else {
            char tmp[32];
            snprintf(tmp, sizeof tmp, "<cc %u>", ids[k]);
            add_frame(f, tmp, NULL);
        }
    }
}

/* One frame of a .hp -hc key. */
static void add_label(struct folded *f, const char *s, size_t n)
{
    const char *parts[3] = {s, NULL, NULL};
    const size_t nb[3] = {n, 0, 0};
    add_frame_parts(f, parts, nb);
}

/*
 * A runtime .hp -hc key as frames, outermost first: "(305)build/main.m/
 * main" is the stack main -> main.m -> build. The runtime writes labels
 * innermost first joined by '/', except that a CAF ("Module.CAF") has no
 * '/' after it; the ccs id prefix is not a frame.
 */
static void add_hp_ccs_frames(struct folded *f, const char *key)
{
    const char *p = key;
    if (*p == '(') {
        const char *q = p + 1;
        while (*q >= '0' && *q <= '9')
            q++;
        if (*q == ')' && q > p + 1 && q[1])
            p = q + 1;
    }
    /* frames from the end of the key back to its start */
    const char *end = p + strlen(p);
    while (end > p && !f->nomem) {
        const char *s = end;
        while (s > p && s[-1] != '/')
            s--;
        /* "Main.CAFgo": the CAF is the outer frame, its text ends at .CAF */
        const char *caf = NULL;
        for (const char *x = s; x + 4 < end; x++)
            if (memcmp(x, ".CAF", 4) == 0)
                caf = x + 4;
        if (caf) {
            add_label(f, caf, (size_t)(end - caf));
            end = caf;
            continue;
        }
        add_label(f, s, (size_t)(end - s));
        end = s > p ? s - 1 : p;
    }
}

static void band_frames(struct folded *f, const hs_census *c, size_t band,
                        int cc)
{
    f->len = 0;
    const uint32_t *ids;
    size_t depth = hs_census_band_stack(c, band, &ids);
    if (cc == 1)
        add_cc_frames(f, c, ids, depth);
    else if (cc == 2)
        add_hp_ccs_frames(f, hs_census_band_name(c, band));
    else
        add_frame(f, hs_census_band_name(c, band), NULL);
}

static int heap_weights(struct folded *f, const hs_census *c,
                        hs_folded_weight weight, bool hp_keys)
{
    const hs_census_info *info = hs_census_get_info(c);
    size_t ns = hs_census_sample_count(c);
    size_t nb = hs_census_band_count(c);
    /* 1: stacks of cost-centre ids; 2: a runtime .hp's -hc keys */
    int cc = info->breakdown != HS_BREAKDOWN_COST_CENTRE ? 0
             : info->source == HS_SOURCE_HP || hp_keys   ? 2
                                                          : 1;
    double *w = hs_calloc(f->alloc, nb ? nb : 1, sizeof *w);
    if (!w)
        return HS_ERR_NOMEM;
    if (ns && weight == HS_WEIGHT_INTEGRAL) {
        hs_band_stats *st = hs_calloc(f->alloc, nb ? nb : 1, sizeof *st);
        if (!st || hs_census_band_stats(c, st) != HS_OK) {
            hs_free(f->alloc, st);
            hs_free(f->alloc, w);
            return HS_ERR_NOMEM;
        }
        for (size_t b = 0; b < nb; b++)
            w[b] = st[b].byte_seconds;
        hs_free(f->alloc, st);
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
    hs_free(f->alloc, w);
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

/* Allocation sites: methods outermost first, the class as the leaf. */
static int alloc_weights(struct folded *f, const hs_census *c, bool count)
{
    size_t n = hs_census_alloc_site_count(c);
    for (size_t i = 0; i < n && !f->nomem; i++) {
        const char *const *frames;
        size_t nframes;
        uint64_t bytes, objs;
        const char *band = hs_census_alloc_site(c, i, &frames, &nframes,
                                                &bytes, &objs);
        f->len = 0;
        for (size_t k = 0; k < nframes; k++)
            add_frame(f, frames[k], NULL);
        add_frame(f, band, NULL);
        add_line(f, (double)(count ? objs : bytes));
    }
    return f->nomem ? HS_ERR_NOMEM : HS_OK;
}

/* A line's weight as printed: rounded half away from zero, and saturated
 * at UINT64_MAX (bytes from a hostile file can sum past 2^63, where
 * llround() gives up, and a line must not vanish for being large). */
static uint64_t printed_weight(double w)
{
    double r = round(w);
    if (!(r > 0))
        return 0;
    return r >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)r;
}

int hs_render_folded(const hs_census *c, hs_sink *out,
                     const hs_folded_options *opt)
{
    return hs__render_folded_keys(c, out, opt, false);
}

int hs__render_folded_keys(const hs_census *c, hs_sink *out,
                           const hs_folded_options *opt, bool hp_keys)
{
    hs_folded_options taken;
    hs_folded_options_init(&taken);
    if (hs__options_take(&taken, sizeof taken, opt))
        return HS_ERR_INVALID;
    opt = &taken;
    const hs_census_info *info = hs_census_get_info(c);
    if (opt->source == HS_FOLDED_TIME) {
        if (!info->time_samples)
            return HS_ERR_NO_DATA;
    } else if (opt->source == HS_FOLDED_HEAP) {
        if (!hs_census_has_heap_profile(c))
            return HS_ERR_NO_DATA;
        if (opt->weight != HS_WEIGHT_PEAK &&
            opt->weight != HS_WEIGHT_INTEGRAL &&
            opt->weight != HS_WEIGHT_LAST)
            return HS_ERR_INVALID;
    } else if (opt->source == HS_FOLDED_ALLOC) {
        if (!hs_census_alloc_site_count(c))
            return HS_ERR_NO_DATA;
        if (opt->weight != HS_WEIGHT_BYTES && opt->weight != HS_WEIGHT_COUNT)
            return HS_ERR_INVALID;
    } else {
        return HS_ERR_INVALID;
    }
    struct folded f;
    memset(&f, 0, sizeof f);
    f.alloc = hs_census_allocator(c);
    hs_intern_init(&f.lines, f.alloc);
    int st = opt->source == HS_FOLDED_TIME
                 ? time_weights(&f, c, opt->per_capability)
             : opt->source == HS_FOLDED_ALLOC
                 ? alloc_weights(&f, c, opt->weight == HS_WEIGHT_COUNT)
                 : heap_weights(&f, c, opt->weight, hp_keys);
    hs_outbuf *o = st ? NULL : hs_malloc(f.alloc, sizeof *o);
    if (!st && !o)
        st = HS_ERR_NOMEM;
    if (!st) {
        hs_outbuf_init(o, out);
        for (size_t i = 0; i < f.lines.count; i++) {
            uint64_t w = printed_weight(f.weight[i]);
            if (!w)
                continue; /* rounds to nothing: no line */
            hs_outbuf_write(o, f.lines.keys[i].ptr, f.lines.keys[i].len);
            hs_outbuf_putc(o, ' ');
            hs_outbuf_u64(o, w);
            hs_outbuf_putc(o, '\n');
        }
        st = hs_outbuf_flush(o);
    }
    hs_free(f.alloc, o);
    hs_free(f.alloc, f.weight);
    hs_free(f.alloc, f.buf);
    hs_intern_free(&f.lines);
    return st;
}

void hs_folded_options_init_size(hs_folded_options *opt, size_t size)
{
    const hs_folded_options def = {.size = sizeof def,
                                   .source = HS_FOLDED_HEAP,
                                   .weight = HS_WEIGHT_PEAK};
    hs__options_fill(opt, size, &def, sizeof def);
}
