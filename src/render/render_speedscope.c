/*
 * The time profile in speedscope's own file format
 * (https://www.speedscope.app/file-format-schema.json): one frame table
 * shared by every profile, then one "sampled" profile of all
 * capabilities and one per capability, each sample a stack of frame
 * indices outermost first, in time order, weighed in ticks (unit
 * "none"); consecutive samples of one stack are one sample weighing
 * their number, which speedscope draws alike.
 *
 * A frame is a cost centre, named as the folded renderer names it
 * ("Module.label", "<cc N>" when undefined, "MAIN" for an empty stack),
 * with the file, line and column of its GHC source location
 * ("File.hs:6:34-37", "File.hs:(6,1)-(8,20)") when it has one.
 */
#include "heapscope/render.h"
#include "common/internal.h"
#include "common/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAIN_ID UINT32_MAX

struct ss {
    const hs_census *c;
    const hs_allocator *alloc;
    hs_outbuf *o;
    hs_intern frames;        /* key: u32 cost-centre id -> frame index */
    uint32_t **stack_frames; /* per stack: frame indices, outermost first */
    size_t nstacks;
};

void hs_speedscope_options_init_size(hs_speedscope_options *opt,
                                     size_t size)
{
    const hs_speedscope_options def = {.size = sizeof def};
    hs__options_fill(opt, size, &def, sizeof def);
}

/* Digits at *p into *v (at most 9 of them); false when there are none. */
static bool digits(const char **p, unsigned *v)
{
    const char *s = *p;
    unsigned x = 0;
    int n = 0;
    while (*s >= '0' && *s <= '9' && n < 9) {
        x = x * 10 + (unsigned)(*s++ - '0');
        n++;
    }
    if (!n)
        return false;
    *p = s;
    *v = x;
    return true;
}

static bool srcloc_split(const char *s, size_t *file_len, unsigned *line,
                         unsigned *col)
{
    for (const char *q = s ? strchr(s, ':') : NULL; q; q = strchr(q + 1, ':')) {
        const char *p = q + 1;
        bool paren = *p == '(';
        p += paren;
        if (q > s && digits(&p, line) && *p == (paren ? ',' : ':') &&
            (p++, digits(&p, col))) {
            *file_len = (size_t)(q - s);
            return true;
        }
    }
    return false;
}

/* The frame of id, appended to the table (as JSON, into o) when new. */
static bool frame_of(struct ss *x, uint32_t id, uint32_t *index)
{
    bool added;
    if (!hs_intern_put(&x->frames, &id, sizeof id, index, &added))
        return false;
    if (!added)
        return true;
    hs_outbuf *o = x->o;
    hs_outbuf_puts(o, *index ? ",\n    {\"name\": " : "\n    {\"name\": ");
    const hs_cost_centre *cc = id == MAIN_ID ? NULL
                                             : hs_census_cost_centre(x->c, id);
    char tmp[32];
    if (id == MAIN_ID) {
        hs_outbuf_puts(o, "\"MAIN\"}");
        return true;
    }
    if (!cc) {
        int n = snprintf(tmp, sizeof tmp, "<cc %u>", id);
        hs_json_outbuf_string(o, tmp, (size_t)n);
        hs_outbuf_putc(o, '}');
        return true;
    }
    /* "Module.label", one JSON string */
    size_t lm = cc->module ? strlen(cc->module) : 0,
           ll = cc->label ? strlen(cc->label) : 0;
    char *name = hs_malloc(x->alloc, lm + ll + 2);
    if (!name)
        return false;
    memcpy(name, cc->module ? cc->module : "", lm);
    name[lm] = '.';
    memcpy(name + lm + 1, cc->label ? cc->label : "", ll);
    hs_json_outbuf_string(o, name, lm + 1 + ll);
    hs_free(x->alloc, name);
    size_t fl;
    unsigned line, col;
    if (srcloc_split(cc->srcloc, &fl, &line, &col)) {
        hs_outbuf_puts(o, ", \"file\": ");
        hs_json_outbuf_string(o, cc->srcloc, fl);
        hs_outbuf_puts(o, ", \"line\": ");
        hs_outbuf_u64(o, line);
        hs_outbuf_puts(o, ", \"col\": ");
        hs_outbuf_u64(o, col);
    }
    hs_outbuf_putc(o, '}');
    return true;
}

/* Every stack's frames, writing the shared frame table as it goes. */
static int build_frames(struct ss *x)
{
    x->nstacks = hs_census_tprof_count(x->c);
    x->stack_frames = hs_calloc(x->alloc, x->nstacks ? x->nstacks : 1,
                                sizeof *x->stack_frames);
    if (!x->stack_frames)
        return HS_ERR_NOMEM;
    hs_outbuf_puts(x->o, "\"shared\": {\"frames\": [");
    for (size_t i = 0; i < x->nstacks; i++) {
        const uint32_t *ids;
        uint64_t ticks;
        size_t d = hs_census_tprof_stack(x->c, i, -1, &ids, &ticks);
        uint32_t *f = hs_calloc(x->alloc, d + 2, sizeof *f);
        if (!(x->stack_frames[i] = f))
            return HS_ERR_NOMEM;
        f[0] = (uint32_t)(d ? d : 1);  /* the count, then the frames */
        if (!d && !frame_of(x, MAIN_ID, &f[1]))
            return HS_ERR_NOMEM;
        for (size_t k = 0; k < d; k++)
            if (!frame_of(x, ids[d - 1 - k], &f[1 + k]))
                return HS_ERR_NOMEM;
    }
    hs_outbuf_puts(x->o, "\n  ]},\n");
    return HS_OK;
}

/* The next run of consecutive samples of one stack from sample *i on, on
 * capability cap (-1: any): its stack in *stack, its ticks returned (0
 * at the end: a merged record counts its weight); *i moves past it. */
static uint64_t next_run(const hs_census *c, int cap, size_t *i,
                         size_t *stack)
{
    size_t n = hs_census_tprof_sample_count(c);
    uint64_t w = 0, t;
    uint32_t k;
    for (; *i < n; (*i)++) {
        size_t s = hs_census_tprof_sample(c, *i, &t, &k);
        if (cap >= 0 && k != (uint32_t)cap)
            continue;
        if (w && s != *stack)
            break;
        *stack = s;
        w += hs_census_tprof_sample_weight(c, *i);
    }
    return w;
}

/* One sampled profile: the runs of capability cap (-1: all). */
static void write_profile(struct ss *x, int cap)
{
    hs_outbuf *o = x->o;
    char name[48];
    int nn = cap < 0 ? snprintf(name, sizeof name, "all capabilities")
                     : snprintf(name, sizeof name, "capability %d", cap);
    hs_outbuf_puts(o, "{\"type\": \"sampled\", \"name\": ");
    hs_json_outbuf_string(o, name, (size_t)nn);
    hs_outbuf_puts(o, ", \"unit\": \"none\", \"samples\": [");
    size_t i = 0, stack = 0;
    uint64_t w, total = 0;
    for (bool first = true; (w = next_run(x->c, cap, &i, &stack)); first = false) {
        const uint32_t *f = x->stack_frames[stack];
        hs_outbuf_puts(o, first ? "\n      [" : ",\n      [");
        for (uint32_t k = 0; k < f[0]; k++) {
            if (k)
                hs_outbuf_putc(o, ',');
            hs_outbuf_u64(o, f[1 + k]);
        }
        hs_outbuf_putc(o, ']');
        total += w;
    }
    hs_outbuf_puts(o, "],\n    \"weights\": [");
    i = 0;
    for (bool first = true; (w = next_run(x->c, cap, &i, &stack)); first = false) {
        if (!first)
            hs_outbuf_putc(o, ',');
        hs_outbuf_u64(o, w);
    }
    hs_outbuf_puts(o, "], \"startValue\": 0, \"endValue\": ");
    hs_outbuf_u64(o, total);
    hs_outbuf_putc(o, '}');
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The profiles: all capabilities, then each capability in order. */
static int write_profiles(struct ss *x)
{
    size_t n = hs_census_tprof_sample_count(x->c), ncaps = 0;
    uint32_t *caps = hs_calloc(x->alloc, n ? n : 1, sizeof *caps);
    if (!caps)
        return HS_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        uint64_t t;
        hs_census_tprof_sample(x->c, i, &t, &caps[i]);
    }
    qsort(caps, n, sizeof *caps, cmp_u32);
    for (size_t i = 0; i < n; i++)
        if (!ncaps || caps[i] != caps[ncaps - 1])
            caps[ncaps++] = caps[i];
    hs_outbuf_puts(x->o, "  \"profiles\": [\n    ");
    write_profile(x, -1);
    for (size_t k = 0; k < ncaps && caps[k] <= INT32_MAX; k++) {
        hs_outbuf_puts(x->o, ",\n    ");
        write_profile(x, (int)caps[k]);
    }
    hs_outbuf_puts(x->o, "\n  ]\n}\n");
    hs_free(x->alloc, caps);
    return HS_OK;
}

int hs_render_speedscope(const hs_census *c, hs_sink *out,
                         const hs_speedscope_options *caller)
{
    hs_speedscope_options taken, *opt = &taken;
    hs_speedscope_options_init(&taken);
    if (hs__options_take(&taken, sizeof taken, caller))
        return HS_ERR_INVALID;
    if (!hs_census_tprof_sample_count(c))
        return HS_ERR_NO_DATA;
    struct ss x;
    memset(&x, 0, sizeof x);
    x.c = c;
    x.alloc = hs_census_allocator(c);
    hs_intern_init(&x.frames, x.alloc);
    int st = (x.o = hs_malloc(x.alloc, sizeof *x.o)) ? HS_OK : HS_ERR_NOMEM;
    if (!st) {
        hs_outbuf_init(x.o, out);
        hs_outbuf_puts(x.o, "{\"$schema\": "
                       "\"https://www.speedscope.app/file-format-schema.json\",\n"
                       "  \"exporter\": ");
        char exporter[64];
        int n = snprintf(exporter, sizeof exporter, "heapscope %s",
                         hs_version());
        hs_json_outbuf_string(x.o, exporter, (size_t)n);
        hs_outbuf_puts(x.o, ",\n  \"name\": ");
        const char *name = opt && opt->name ? opt->name : "heapscope";
        hs_json_outbuf_string(x.o, name, strlen(name));
        hs_outbuf_puts(x.o, ",\n  \"activeProfileIndex\": 0,\n  ");
        st = build_frames(&x);
        if (!st)
            st = write_profiles(&x);
        int fs = hs_outbuf_flush(x.o);
        if (!st)
            st = fs;
    }
    for (size_t i = 0; x.stack_frames && i < x.nstacks; i++)
        hs_free(x.alloc, x.stack_frames[i]);
    hs_free(x.alloc, x.stack_frames);
    hs_intern_free(&x.frames);
    hs_free(x.alloc, x.o);
    return st;
}
