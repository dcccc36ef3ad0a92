/*
 * The diff as two-column folded stacks, "frame;frame before after", the
 * output of flamegraph.pl's difffolded.pl, which flamegraph.pl turns into
 * a differential flame graph (red grew, blue shrank).
 *
 * Each run is rendered by the folded renderer, so frames are those of
 * `heapscope folded` (the same cleaning), then the lines are matched by
 * their frames. One rule names -hc frames alike in both runs: when either
 * run is a runtime .hp, whose keys have no module names ("main",
 * "PINNED"), both runs' frames come from their band names, the keys the
 * text and JSON diffs match by; two eventlogs keep "Module.label" frames.
 */
#include "heapscope/diff.h"
#include "common/internal.h"
#include "diff/diff_internal.h"
#include "render/folded_internal.h"

#include <inttypes.h>
#include <string.h>

struct merge {
    const hs_allocator *alloc;
    hs_intern stacks;        /* frames part of each line */
    uint64_t (*w)[2];        /* per stack: before, after */
    size_t cap;
    char *buf;               /* a normalised stack */
    size_t buf_cap;
};

/* Adds the lines of one run's folded output to m as run `which`; a run
 * with no line (a profile without samples) has text NULL. */
static int add_lines(struct merge *m, const char *text, size_t len,
                     int which, bool normalize)
{
    if (!len)
        return HS_OK;
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *line_end = nl ? nl : end;
        const char *sp = line_end;
        while (sp > p && sp[-1] != ' ')
            sp--;
        if (sp > p) {
            uint64_t v = 0;
            for (const char *q = sp; q < line_end; q++)
                v = v * 10 + (uint64_t)(*q - '0');
            const char *key = p;
            size_t klen = (size_t)(sp - 1 - p);
            if (normalize) {
                if (!hs_grow(m->alloc, (void **)&m->buf, &m->buf_cap,
                             klen + 1, 1))
                    return HS_ERR_NOMEM;
                klen = hs_diff_normalize_name(p, klen, m->buf, m->buf_cap);
                key = m->buf;
            }
            uint32_t idx;
            bool added;
            if (!hs_intern_put(&m->stacks, key, klen, &idx, &added) ||
                !hs_grow(m->alloc, (void **)&m->w, &m->cap, (size_t)idx + 1,
                         sizeof *m->w))
                return HS_ERR_NOMEM;
            if (added)
                m->w[idx][0] = m->w[idx][1] = 0;
            m->w[idx][which] = hs_add_sat(m->w[idx][which], v);
        }
        p = line_end + 1;
    }
    return HS_OK;
}

static int render_run(const hs_census *c, const hs_folded_options *opt,
                      bool hp_keys, hs_membuf *mb)
{
    hs_sink s = hs_membuf_sink(mb);
    int st = hs__render_folded_keys(c, &s, opt, hp_keys);
    return st == HS_ERR_NO_DATA ? HS_OK : st; /* no lines: all zero */
}

int hs_render_diff_folded(const hs_diff *d, hs_sink *out,
                          const hs_folded_options *opt)
{
    hs_folded_options taken;
    hs_folded_options_init(&taken);
    if (hs__options_take(&taken, sizeof taken, opt))
        return HS_ERR_INVALID;
    opt = &taken;
    if (opt->source != HS_FOLDED_HEAP ||
        hs_diff_get_run(d, HS_DIFF_BEFORE)->windowed ||
        hs_diff_get_run(d, HS_DIFF_AFTER)->windowed)
        return HS_ERR_INVALID;
    struct merge m;
    memset(&m, 0, sizeof m);
    m.alloc = hs__diff_allocator(d);
    hs_intern_init(&m.stacks, m.alloc);
    bool hp_keys = false;
    for (int k = 0; k < 2; k++)
        hp_keys |= hs_census_get_info(hs_diff_census(d, k))->source ==
                   HS_SOURCE_HP;
    int st = HS_OK;
    for (int k = 0; k < 2 && st == HS_OK; k++) {
        hs_membuf mb = {0};
        st = render_run(hs_diff_census(d, k), opt, hp_keys, &mb);
        if (st == HS_OK)
            st = add_lines(&m, mb.data, mb.len, k, hs_diff_is_normalized(d));
        hs_membuf_free(&mb);
    }
    for (size_t i = 0; i < m.stacks.count && st == HS_OK; i++) {
        st = hs_sink_write(out, m.stacks.keys[i].ptr, m.stacks.keys[i].len);
        if (st == HS_OK)
            st = hs_sink_printf(out, " %" PRIu64 " %" PRIu64 "\n",
                                m.w[i][0], m.w[i][1]);
    }
    hs_intern_free(&m.stacks);
    hs_free(m.alloc, m.w);
    hs_free(m.alloc, m.buf);
    return st;
}
