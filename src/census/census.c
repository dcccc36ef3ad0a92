/*
 * The census model, built incrementally from events.
 *
 * Bands are interned in a hash table keyed by a 4-byte kind followed by
 * the band's identity: the cost-centre ids of the stack for -hc (so two
 * stacks with the same labels stay apart, as the runtime keeps them), the
 * label bytes for every other breakdown. One hash per sample event finds
 * the band, whatever the number of bands.
 *
 * Samples are records {time, first entry, entry count}; entries of all
 * samples sit in one array in arrival order. Each band remembers the last
 * sample it appeared in and where, so a band reported twice in one sample
 * (two runtime stacks that differ only beyond depth 255, two info tables
 * with the same description) is summed into one entry in O(1).
 *
 * Invariants:
 *   - entries[samples[i].first .. + count) belong to sample i, and samples
 *     are appended in arrival order; finish() only reorders the records.
 *   - last[b].sample == the open sample's index iff band b already has an
 *     entry in it, at entries[last[b].pos]. (Kept apart from the bands so
 *     the per-event path touches 16 bytes per band, not a whole record.)
 */
#include "heapscope/census.h"
#include "internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_WARNINGS 200

enum band_kind { BAND_CCS = 1, BAND_STRING = 2 };

struct band {
    const char *name;
    const uint32_t *stack;  /* innermost first, into the intern arena */
    uint32_t depth;
    uint32_t kind;
    bool unresolved;        /* named with "<cc N>" for an undefined id */
};

struct band_last {
    size_t sample;
    size_t pos;
    uint32_t key;           /* index in ccs_tab or str_tab */
};

struct sample {
    uint64_t time;
    size_t first;
    size_t count;
    uint64_t total;
    size_t seq;             /* arrival order, to keep sorting stable */
};

struct ipe {
    uint64_t address;
    const char *table_name, *closure_desc, *type_desc, *label, *module,
        *srcloc;
};

struct tstack {
    const uint32_t *ids;
    uint32_t depth;
    uint64_t ticks;
};

struct hs_census {
    hs_census_info info;
    int error;
    bool finished;
    unsigned name_limit;
    hs_arena *arena;

    hs_intern ccs_tab;       /* key: stack ids, big-endian as in the log */
    uint32_t *ccs_band;      /* ccs_tab index -> band */
    size_t cap_ccs_band;
    hs_intern str_tab;       /* key: label bytes */
    uint32_t *str_band;      /* str_tab index -> band */
    size_t cap_str_band;
    struct band *bands;
    size_t nbands, cap_bands;
    struct band_last *last;
    size_t cap_last;

    struct sample *samples;
    size_t nsamples, cap_samples;
    hs_census_entry *entries;
    size_t nentries, cap_entries;
    bool open;               /* the last sample still takes entries */
    bool samples_unsorted;
    bool warned_orphan;

    hs_intern cc_tab;        /* key: u32 id, host order */
    hs_cost_centre **ccs;
    size_t cap_ccs;

    hs_intern ipe_tab;       /* key: u64 address, host order */
    struct ipe *ipes;
    size_t cap_ipes;

    hs_census_marker *markers;
    size_t nmarkers, cap_markers;
    bool markers_unsorted;

    hs_census_point *lines[HS_LINE_COUNT];
    size_t nlines[HS_LINE_COUNT], cap_lines[HS_LINE_COUNT];
    bool lines_unsorted[HS_LINE_COUNT];

    hs_intern tstack_tab;    /* key: stack ids, big-endian as in the log */
    struct tstack *tstacks;
    size_t cap_tstacks;
    hs_intern tcap_tab;      /* key: {u32 stack index, u32 cap} */
    uint64_t *tcap_ticks;
    size_t cap_tcap;

    hs_intern undef_tab;     /* undefined cost-centre ids already warned */

    char **warnings;
    size_t nwarnings, cap_warnings;
    uint64_t warnings_dropped;

    char *scratch;           /* name building */
    size_t cap_scratch;
    uint8_t *keybuf;         /* big-endian stack of a decoded event */
    size_t cap_keybuf;
    hs_error err;            /* the first malformed event */
};

/* --- small helpers ------------------------------------------------------ */

static int nomem(hs_census *c)
{
    c->error = HS_ERR_NOMEM;
    memset(&c->err, 0, sizeof c->err);
    c->err.code = HS_ERR_NOMEM;
    c->err.event_index = UINT64_MAX;
    snprintf(c->err.message, sizeof c->err.message,
             "out of memory while building the census");
    return c->error;
}

static void warnf(hs_census *c, const char *fmt, ...) HS_PRINTF(2, 3);

static void warnf(hs_census *c, const char *fmt, ...)
{
    if (c->nwarnings >= MAX_WARNINGS) {
        c->warnings_dropped++;
        return;
    }
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    size_t len = strlen(buf);
    char *s = hs_arena_strndup(&c->arena, buf, len);
    if (!s || !hs_grow((void **)&c->warnings, &c->cap_warnings,
                       c->nwarnings + 1, sizeof *c->warnings))
        return; /* a lost warning is not worth failing the census for */
    c->warnings[c->nwarnings++] = s;
}

static const char *dup_str(hs_census *c, hs_str s)
{
    return hs_arena_strndup(&c->arena, s.ptr ? s.ptr : "", s.len);
}

static bool scratch_room(hs_census *c, size_t need)
{
    return hs_grow((void **)&c->scratch, &c->cap_scratch, need, 1);
}

/* --- lifetime ------------------------------------------------------------ */

hs_census *hs_census_new(void)
{
    hs_census *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    hs_arena_init(&c->arena);
    hs_intern_init(&c->ccs_tab);
    hs_intern_init(&c->str_tab);
    hs_intern_init(&c->cc_tab);
    hs_intern_init(&c->ipe_tab);
    hs_intern_init(&c->tstack_tab);
    hs_intern_init(&c->tcap_tab);
    hs_intern_init(&c->undef_tab);
    return c;
}

void hs_census_free(hs_census *c)
{
    if (!c)
        return;
    hs_intern_free(&c->ccs_tab);
    hs_intern_free(&c->str_tab);
    free(c->ccs_band);
    free(c->str_band);
    hs_intern_free(&c->cc_tab);
    hs_intern_free(&c->ipe_tab);
    hs_intern_free(&c->tstack_tab);
    hs_intern_free(&c->tcap_tab);
    hs_intern_free(&c->undef_tab);
    free(c->bands);
    free(c->last);
    free(c->samples);
    free(c->entries);
    free(c->ccs);
    free(c->ipes);
    free(c->markers);
    for (int i = 0; i < HS_LINE_COUNT; i++)
        free(c->lines[i]);
    free(c->tstacks);
    free(c->tcap_ticks);
    free(c->warnings);
    free(c->scratch);
    free(c->keybuf);
    hs_arena_free(&c->arena);
    free(c);
}

void hs_census_set_name_limit(hs_census *c, unsigned limit)
{
    /* The runtime writes "..." over the last four bytes it keeps, so a
     * limit below 4 has no meaning; treat it as 4. */
    c->name_limit = limit && limit < 4 ? 4 : limit;
}

/* --- cost centres ---------------------------------------------------------- */

static const hs_cost_centre *find_cc(const hs_census *c, uint32_t id)
{
    uint32_t i = hs_intern_find(&c->cc_tab, &id, sizeof id);
    return i == UINT32_MAX ? NULL : c->ccs[i];
}

static int add_cost_centre(hs_census *c, const hs_event *ev)
{
    uint32_t id = ev->u.cost_centre.id;
    uint32_t idx;
    bool added;
    if (!hs_intern_put(&c->cc_tab, &id, sizeof id, &idx, &added))
        return nomem(c);
    if (!added)
        return HS_OK; /* the first definition stands */
    if (!hs_grow((void **)&c->ccs, &c->cap_ccs, (size_t)idx + 1,
                 sizeof *c->ccs))
        return nomem(c);
    hs_cost_centre *cc = hs_arena_alloc(&c->arena, sizeof *cc);
    if (!cc)
        return nomem(c);
    cc->id = id;
    cc->label = dup_str(c, ev->u.cost_centre.label);
    cc->module = dup_str(c, ev->u.cost_centre.module);
    cc->srcloc = dup_str(c, ev->u.cost_centre.srcloc);
    cc->is_caf = ev->u.cost_centre.flags & HS_CC_FLAG_CAF;
    if (!cc->label || !cc->module || !cc->srcloc)
        return nomem(c);
    c->ccs[idx] = cc;
    c->info.cost_centres++;
    return HS_OK;
}

/* Remembers that `id` was used undefined, warning once per id. */
static void note_undefined(hs_census *c, uint32_t id, const char *what)
{
    uint32_t idx;
    bool added;
    if (!hs_intern_put(&c->undef_tab, &id, sizeof id, &idx, &added) ||
        !added)
        return;
    warnf(c, "cost centre %u is used by %s but never defined; it is shown "
          "as <cc %u>", id, what, id);
}

/*
 * Writes the runtime's .hp name of a cost-centre stack into c->scratch:
 * labels innermost first, "/" after each one but the last, a cost centre
 * labelled CAF written Module.CAF with no "/" after it (the runtime's
 * rule), the empty stack "MAIN"; then the -L cut: a name longer than the
 * limit keeps limit-4 bytes and ends with "...". Returns false when out
 * of memory; *unresolved tells whether an id was undefined.
 */
static bool ccs_name(hs_census *c, const uint32_t *ids, uint32_t depth,
                     size_t *out_len, bool *unresolved)
{
    size_t len = 0;
    *unresolved = false;
    if (depth == 0) {
        if (!scratch_room(c, 5))
            return false;
        memcpy(c->scratch, "MAIN", 5);
        *out_len = 4;
        return true;
    }
    for (uint32_t i = 0; i < depth; i++) {
        const hs_cost_centre *cc = find_cc(c, ids[i]);
        char tmp[32];
        const char *a = tmp, *b = "";
        bool caf = false;
        if (!cc) {
            snprintf(tmp, sizeof tmp, "<cc %u>", ids[i]);
            *unresolved = true;
        } else if (strcmp(cc->label, "CAF") == 0) {
            a = cc->module;
            b = ".CAF";
            caf = true;
        } else {
            a = cc->label;
        }
        size_t la = strlen(a), lb = strlen(b);
        bool sep = !caf && i + 1 < depth;
        if (!scratch_room(c, len + la + lb + 2))
            return false;
        memcpy(c->scratch + len, a, la);
        len += la;
        memcpy(c->scratch + len, b, lb);
        len += lb;
        if (sep)
            c->scratch[len++] = '/';
    }
    if (c->name_limit && len > c->name_limit) {
        len = c->name_limit - 4;
        memcpy(c->scratch + len, "...", 3);
        len += 3;
    }
    c->scratch[len] = 0;
    *out_len = len;
    return true;
}

/* --- bands and samples ------------------------------------------------------ */

static int open_sample(hs_census *c, uint64_t time)
{
    if (!hs_grow((void **)&c->samples, &c->cap_samples, c->nsamples + 1,
                 sizeof *c->samples))
        return nomem(c);
    if (c->nsamples && time < c->samples[c->nsamples - 1].time)
        c->samples_unsorted = true;
    c->samples[c->nsamples] = (struct sample){
        .time = time, .first = c->nentries, .count = 0, .total = 0,
        .seq = c->nsamples};
    c->nsamples++;
    c->open = true;
    return HS_OK;
}

static int new_band(hs_census *c, uint32_t kind, uint32_t *band)
{
    if (c->nbands >= UINT32_MAX - 1 ||
        !hs_grow((void **)&c->bands, &c->cap_bands, c->nbands + 1,
                 sizeof *c->bands) ||
        !hs_grow((void **)&c->last, &c->cap_last, c->nbands + 1,
                 sizeof *c->last))
        return nomem(c);
    struct band *b = &c->bands[c->nbands];
    memset(b, 0, sizeof *b);
    b->kind = kind;
    c->last[c->nbands] = (struct band_last){SIZE_MAX, 0, 0};
    *band = (uint32_t)c->nbands++;
    return HS_OK;
}

/* Host-order ids of a big-endian stack, in the arena (they never move). */
static uint32_t *stack_ids(hs_census *c, const uint8_t *be, uint32_t depth)
{
    uint32_t *ids = hs_arena_alloc(&c->arena, depth ? depth * 4u : 1u);
    if (ids)
        for (uint32_t k = 0; k < depth; k++)
            ids[k] = hs_be32(be + 4 * k);
    return ids;
}

/*
 * A guess that saves the hash lookup: the band at the same position in
 * the previous sample. Censuses of a settled heap list their bands in the
 * same order; when they do not, the guess costs one length compare.
 * Returns the band, or UINT32_MAX.
 */
static inline uint32_t predict(const hs_census *c, const hs_intern *tab,
                        uint32_t kind, const void *key, size_t len)
{
    if (!c->open || c->nsamples < 2)
        return UINT32_MAX;
    const struct sample *prev = &c->samples[c->nsamples - 2];
    size_t k = c->samples[c->nsamples - 1].count;
    if (k >= prev->count)
        return UINT32_MAX;
    uint32_t b = c->entries[prev->first + k].band;
    if (c->bands[b].kind != kind)
        return UINT32_MAX;
    const struct hs_intern_key *stored = &tab->keys[c->last[b].key];
    if (stored->len != len)
        return UINT32_MAX;
    /* keys are short: compare 8 bytes at a time here rather than call */
    const unsigned char *x = (const unsigned char *)stored->ptr, *y = key;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t u, v;
        memcpy(&u, x + i, 8);
        memcpy(&v, y + i, 8);
        if (u != v)
            return UINT32_MAX;
    }
    if (i + 4 <= len) {
        uint32_t u, v;
        memcpy(&u, x + i, 4);
        memcpy(&v, y + i, 4);
        if (u != v)
            return UINT32_MAX;
        i += 4;
    }
    for (; i < len; i++)
        if (x[i] != y[i])
            return UINT32_MAX;
    return b;
}

/* The band of a cost-centre stack given as the log's big-endian ids. */
static inline int ccs_band(hs_census *c, const uint8_t *be, uint32_t depth,
                    uint32_t *band)
{
    if ((*band = predict(c, &c->ccs_tab, BAND_CCS, be, (size_t)depth * 4)) !=
        UINT32_MAX)
        return HS_OK;
    uint32_t k;
    bool added;
    if (!hs_intern_put(&c->ccs_tab, be, (size_t)depth * 4, &k, &added))
        return nomem(c);
    if (!added) {
        *band = c->ccs_band[k];
        return HS_OK;
    }
    if (!hs_grow((void **)&c->ccs_band, &c->cap_ccs_band, (size_t)k + 1,
                 sizeof *c->ccs_band))
        return nomem(c);
    int st = new_band(c, BAND_CCS, band);
    if (st)
        return st;
    struct band *b = &c->bands[*band];
    b->depth = depth;
    b->stack = stack_ids(c, be, depth);
    size_t len;
    if (!b->stack || !ccs_name(c, b->stack, depth, &len, &b->unresolved))
        return nomem(c);
    b->name = hs_arena_strndup(&c->arena, c->scratch, len);
    if (!b->name)
        return nomem(c);
    c->ccs_band[k] = *band;
    c->last[*band].key = k;
    return HS_OK;
}

static int str_band(hs_census *c, const char *label, size_t len,
                    uint32_t *band)
{
    if ((*band = predict(c, &c->str_tab, BAND_STRING, label, len)) !=
        UINT32_MAX)
        return HS_OK;
    uint32_t k;
    bool added;
    if (!hs_intern_put(&c->str_tab, label, len, &k, &added))
        return nomem(c);
    if (!added) {
        *band = c->str_band[k];
        return HS_OK;
    }
    if (!hs_grow((void **)&c->str_band, &c->cap_str_band, (size_t)k + 1,
                 sizeof *c->str_band))
        return nomem(c);
    int st = new_band(c, BAND_STRING, band);
    if (st)
        return st;
    /* the interned key is NUL-terminated and never moves */
    c->bands[*band].name = c->str_tab.keys[k].ptr;
    c->str_band[k] = *band;
    c->last[*band].key = k;
    return HS_OK;
}

/* Adds bytes to band bi in the open sample (opening one if needed). */
static inline int add_entry(hs_census *c, uint64_t offset, uint64_t time,
                     uint32_t bi, uint64_t bytes)
{
    if (!c->open) {
        /* A sample event with no SAMPLE_BEGIN before it: keep the data in
         * a sample of its own rather than drop it. */
        if (!c->warned_orphan) {
            warnf(c, "a heap sample event at byte %llu comes outside any "
                  "sample; a sample is started at its time",
                  (unsigned long long)offset);
            c->warned_orphan = true;
        }
        int st = open_sample(c, time);
        if (st)
            return st;
    }
    struct band_last *b = &c->last[bi];
    size_t si = c->nsamples - 1;
    struct sample *s = &c->samples[si];
    s->total = s->total + bytes < s->total ? UINT64_MAX : s->total + bytes;
    if (b->sample == si) {
        uint64_t *e = &c->entries[b->pos].bytes;
        *e = *e + bytes < *e ? UINT64_MAX : *e + bytes;
        return HS_OK;
    }
    if (c->nentries == c->cap_entries &&
        !hs_grow((void **)&c->entries, &c->cap_entries, c->nentries + 1,
                 sizeof *c->entries))
        return nomem(c);
    c->entries[c->nentries] = (hs_census_entry){bi, bytes};
    b->sample = si;
    b->pos = c->nentries++;
    s->count++;
    return HS_OK;
}

/* A decoded stack (host order) as the log's big-endian bytes in keybuf. */
static const uint8_t *to_be(hs_census *c, const uint32_t *ids, uint32_t n)
{
    if (!hs_grow((void **)&c->keybuf, &c->cap_keybuf, (size_t)n * 4 + 1, 1))
        return NULL;
    for (uint32_t k = 0; k < n; k++) {
        c->keybuf[4 * k] = (uint8_t)(ids[k] >> 24);
        c->keybuf[4 * k + 1] = (uint8_t)(ids[k] >> 16);
        c->keybuf[4 * k + 2] = (uint8_t)(ids[k] >> 8);
        c->keybuf[4 * k + 3] = (uint8_t)ids[k];
    }
    return c->keybuf;
}

static inline int add_ccs_sample(hs_census *c, const hs_event *ev,
                          const uint8_t *be, uint32_t depth, uint64_t bytes)
{
    uint32_t bi;
    int st = ccs_band(c, be, depth, &bi);
    return st ? st : add_entry(c, ev->offset, ev->time, bi, bytes);
}

static int add_string_sample(hs_census *c, const hs_event *ev, hs_str l,
                             uint64_t bytes)
{
    uint32_t bi;
    int st = str_band(c, l.ptr ? l.ptr : "", l.len, &bi);
    return st ? st : add_entry(c, ev->offset, ev->time, bi, bytes);
}

static int heap_prof_begin(hs_census *c, const hs_event *ev)
{
    uint32_t bd = ev->u.heap_prof_begin.breakdown;
    if (!c->info.breakdown) {
        c->info.breakdown = bd ? bd : UINT32_MAX;
        c->info.sample_period_ns = ev->u.heap_prof_begin.period;
    } else if (c->info.breakdown != bd) {
        warnf(c, "a second heap profile (-%s) begins at byte %llu after "
              "-%s; its samples join the same table",
              hs_breakdown_flag(bd), (unsigned long long)ev->offset,
              hs_breakdown_flag(c->info.breakdown));
    }
    return HS_OK;
}

/* --- run metadata ---------------------------------------------------------- */

/* The runtime's JOB line: the program's base name, its own arguments,
 * then " +RTS" and the RTS options (profiled runtimes only write those). */
static int set_program(hs_census *c, const hs_event *ev)
{
    if (c->info.program)
        return HS_OK;
    hs_str raw = ev->u.args.raw;
    const char *rts_id = c->info.rts_identifier;
    bool profiled = true;
    if (rts_id) {
        /* "GHC-9.0.2 rts_thr_p": the way tags after "rts". */
        const char *w = strstr(rts_id, "rts");
        profiled = false;
        for (const char *p = w; p && *p; p++)
            if (*p == '_' && p[1] == 'p' && (p[2] == 0 || p[2] == '_'))
                profiled = true;
        if (!w)
            profiled = true;
    }
    size_t cap = raw.len * 2 + 16;
    char *prog_args = malloc(cap), *rts_args = malloc(cap);
    if (!prog_args || !rts_args) {
        free(prog_args);
        free(rts_args);
        return nomem(c);
    }
    size_t lp = 0, lr = 0;
    const char *argv0 = NULL;
    size_t argv0_len = 0;
    int mode = 0; /* 0 program args, 1 RTS args, 2 all program args */
    size_t start = 0;
    for (size_t i = 0; i <= raw.len; i++) {
        if (i < raw.len && raw.ptr[i] != 0)
            continue;
        if (i == raw.len && start == i && argv0)
            break;
        const char *a = raw.ptr + start;
        size_t alen = i - start;
        start = i + 1;
        if (!argv0) {
            argv0 = a;
            argv0_len = alen;
            continue;
        }
        if (mode != 2 && alen == 4 && memcmp(a, "+RTS", 4) == 0) {
            mode = 1;
            continue;
        }
        if (mode == 1 && alen == 4 && memcmp(a, "-RTS", 4) == 0) {
            mode = 0;
            continue;
        }
        if (mode != 2 && alen == 5 && memcmp(a, "--RTS", 5) == 0) {
            mode = 2;
            continue;
        }
        char *dst = mode == 1 ? rts_args : prog_args;
        size_t *l = mode == 1 ? &lr : &lp;
        dst[(*l)++] = ' ';
        memcpy(dst + *l, a, alen);
        *l += alen;
    }
    if (!argv0) {
        argv0 = "";
        argv0_len = 0;
    }
    c->info.program = hs_arena_strndup(&c->arena, argv0, argv0_len);
    const char *base = argv0;
    for (size_t i = 0; i < argv0_len; i++)
        if (argv0[i] == '/')
            base = argv0 + i + 1;
    size_t base_len = argv0_len - (size_t)(base - argv0);
    size_t jl = base_len + lp + (profiled ? 5 + lr : 0);
    char *job = hs_arena_alloc(&c->arena, jl + 1);
    if (job) {
        size_t k = 0;
        memcpy(job + k, base, base_len);
        k += base_len;
        memcpy(job + k, prog_args, lp);
        k += lp;
        if (profiled) {
            memcpy(job + k, " +RTS", 5);
            k += 5;
            memcpy(job + k, rts_args, lr);
            k += lr;
        }
        job[k] = 0;
    }
    c->info.job = job;
    free(prog_args);
    free(rts_args);
    return c->info.program && job ? HS_OK : nomem(c);
}

static const char *const day_names[] = {"Sun", "Mon", "Tue", "Wed",
                                        "Thu", "Fri", "Sat"};
static const char *const month_names[] = {"Jan", "Feb", "Mar", "Apr",
                                          "May", "Jun", "Jul", "Aug",
                                          "Sep", "Oct", "Nov", "Dec"};

/* The .hp DATE: ctime's layout without the seconds, in local time like
 * the runtime's, and independent of the locale. */
static void set_date(hs_census *c, uint64_t sec)
{
    time_t t = (time_t)sec;
    struct tm tm;
    if ((uint64_t)t != sec || !localtime_r(&t, &tm) || tm.tm_wday < 0 ||
        tm.tm_wday > 6 || tm.tm_mon < 0 || tm.tm_mon > 11)
        return;
    char buf[64];
    snprintf(buf, sizeof buf, "%s %s %2d %02d:%02d %d", day_names[tm.tm_wday],
             month_names[tm.tm_mon], tm.tm_mday, tm.tm_hour, tm.tm_min,
             tm.tm_year + 1900);
    c->info.date = hs_arena_strndup(&c->arena, buf, strlen(buf));
}

/* --- time profile ----------------------------------------------------------- */

static int add_prof_sample(hs_census *c, const uint8_t *be, uint32_t depth,
                           uint32_t cap)
{
    uint32_t si;
    bool added;
    if (!hs_intern_put(&c->tstack_tab, be, (size_t)depth * 4, &si, &added))
        return nomem(c);
    if (added) {
        if (!hs_grow((void **)&c->tstacks, &c->cap_tstacks, (size_t)si + 1,
                     sizeof *c->tstacks))
            return nomem(c);
        const uint32_t *ids = stack_ids(c, be, depth);
        if (!ids)
            return nomem(c);
        c->tstacks[si] = (struct tstack){ids, depth, 0};
    }
    c->tstacks[si].ticks++;
    uint32_t key[2] = {si, cap};
    uint32_t ki;
    if (!hs_intern_put(&c->tcap_tab, key, sizeof key, &ki, &added))
        return nomem(c);
    if (added) {
        if (!hs_grow((void **)&c->tcap_ticks, &c->cap_tcap, (size_t)ki + 1,
                     sizeof *c->tcap_ticks))
            return nomem(c);
        c->tcap_ticks[ki] = 0;
    }
    c->tcap_ticks[ki]++;
    c->info.time_samples++;
    /* A hostile capability number must not make "capabilities" absurd;
     * the per-capability table itself holds any value. */
    if (cap < 65536 && cap + 1 > c->info.capabilities)
        c->info.capabilities = cap + 1;
    return HS_OK;
}

/* --- events ------------------------------------------------------------------ */

static int add_line_point(hs_census *c, hs_heap_line line, const hs_event *ev)
{
    if (!hs_grow((void **)&c->lines[line], &c->cap_lines[line],
                 c->nlines[line] + 1, sizeof(hs_census_point)))
        return nomem(c);
    size_t n = c->nlines[line];
    if (n && ev->time < c->lines[line][n - 1].time_ns)
        c->lines_unsorted[line] = true;
    c->lines[line][n] = (hs_census_point){ev->time, ev->u.heap.bytes};
    c->nlines[line]++;
    return HS_OK;
}

static int add_ipe(hs_census *c, const hs_event *ev)
{
    uint64_t addr = ev->u.ipe.address;
    uint32_t idx;
    bool added;
    c->info.ipe_records++;
    if (!hs_intern_put(&c->ipe_tab, &addr, sizeof addr, &idx, &added))
        return nomem(c);
    if (!added)
        return HS_OK;
    if (!hs_grow((void **)&c->ipes, &c->cap_ipes, (size_t)idx + 1,
                 sizeof *c->ipes))
        return nomem(c);
    struct ipe *r = &c->ipes[idx];
    r->address = addr;
    r->table_name = dup_str(c, ev->u.ipe.table_name);
    r->closure_desc = dup_str(c, ev->u.ipe.closure_desc);
    r->type_desc = dup_str(c, ev->u.ipe.type_desc);
    r->label = dup_str(c, ev->u.ipe.label);
    r->module = dup_str(c, ev->u.ipe.module);
    r->srcloc = dup_str(c, ev->u.ipe.srcloc);
    if (!r->table_name || !r->closure_desc || !r->type_desc || !r->label ||
        !r->module || !r->srcloc)
        return nomem(c);
    return HS_OK;
}

static int add_marker(hs_census *c, const hs_event *ev)
{
    if (!hs_grow((void **)&c->markers, &c->cap_markers, c->nmarkers + 1,
                 sizeof *c->markers))
        return nomem(c);
    const char *text = dup_str(c, ev->u.msg.text);
    if (!text)
        return nomem(c);
    if (c->nmarkers && ev->time < c->markers[c->nmarkers - 1].time_ns)
        c->markers_unsorted = true;
    c->markers[c->nmarkers++] = (hs_census_marker){ev->time, text};
    return HS_OK;
}

/* Tags the census reads; everything else costs one table lookup. */
static const bool census_tags[256] = {
    [HS_EV_RTS_IDENTIFIER] = true, [HS_EV_PROGRAM_ARGS] = true,
    [HS_EV_WALL_CLOCK_TIME] = true, [HS_EV_HEAP_SIZE] = true,
    [HS_EV_HEAP_LIVE] = true, [HS_EV_BLOCKS_SIZE] = true,
    [HS_EV_USER_MARKER] = true, [HS_EV_HEAP_PROF_BEGIN] = true,
    [HS_EV_HEAP_PROF_COST_CENTRE] = true,
    [HS_EV_HEAP_PROF_SAMPLE_BEGIN] = true,
    [HS_EV_HEAP_PROF_SAMPLE_COST_CENTRE] = true,
    [HS_EV_HEAP_PROF_SAMPLE_STRING] = true,
    [HS_EV_HEAP_PROF_SAMPLE_END] = true,
    [HS_EV_HEAP_BIO_PROF_SAMPLE_BEGIN] = true,
    [HS_EV_PROF_SAMPLE_COST_CENTRE] = true, [HS_EV_PROF_BEGIN] = true,
    [HS_EV_IPE] = true,
};

static bool wanted(uint16_t tag)
{
    return tag < 256 && census_tags[tag];
}

/* The three sample events. Band keys are the stack's big-endian bytes as
 * they stand in the payload, so nothing is converted or copied; an event
 * made by hand without them has its ids converted. */
static int add_sample_event(hs_census *c, const hs_event *ev)
{
    switch (ev->tag) {
    case HS_EV_HEAP_PROF_SAMPLE_COST_CENTRE: {
        const uint8_t *be = ev->u.ccs_sample.stack_raw;
        if (!be && !(be = to_be(c, ev->u.ccs_sample.stack,
                                ev->u.ccs_sample.depth)))
            return nomem(c);
        return add_ccs_sample(c, ev, be, ev->u.ccs_sample.depth,
                              ev->u.ccs_sample.bytes);
    }
    case HS_EV_HEAP_PROF_SAMPLE_STRING:
        return add_string_sample(c, ev, ev->u.string_sample.label,
                                 ev->u.string_sample.bytes);
    default: { /* PROF_SAMPLE_COST_CENTRE */
        const uint8_t *be = ev->u.prof_sample.stack_raw;
        if (!be && !(be = to_be(c, ev->u.prof_sample.stack,
                                ev->u.prof_sample.depth)))
            return nomem(c);
        return add_prof_sample(c, be, ev->u.prof_sample.depth,
                               ev->u.prof_sample.cap);
    }
    }
}


size_t hs_census_event_tags(uint16_t *tags, size_t cap)
{
    size_t n = 0;
    for (uint16_t t = 0; t < 256; t++)
        if (census_tags[t]) {
            if (n < cap)
                tags[n] = t;
            n++;
        }
    return n;
}

void hs__census_skipped(hs_census *c, uint64_t events, uint64_t max_time,
                        int32_t max_cap)
{
    c->info.events += events;
    if (max_time > c->info.end_time_ns)
        c->info.end_time_ns = max_time;
    if (max_cap >= 0 && (uint32_t)max_cap + 1 > c->info.capabilities)
        c->info.capabilities = (uint32_t)max_cap + 1;
    if (events)
        c->info.source = HS_SOURCE_EVENTLOG;
}

int hs_census_add_event(hs_census *c, const hs_event *ev)
{
    if (c->error)
        return c->error;
    if (c->finished)
        return HS_ERR_MISUSE;
    hs__census_skipped(c, 1, ev->time, ev->cap);
    if (!wanted(ev->tag))
        return HS_OK;
    return hs__census_add_wanted(c, ev);
}

int hs__census_add_wanted(hs_census *c, const hs_event *ev)
{
    if (c->error)
        return c->error;
    /* Not decoded: a layout older than any the reader knows (too short
     * for its fields), which the census ignores as the reader does. */
    if (!ev->known)
        return HS_OK;
    if (ev->tag == HS_EV_HEAP_PROF_SAMPLE_COST_CENTRE ||
        ev->tag == HS_EV_HEAP_PROF_SAMPLE_STRING ||
        ev->tag == HS_EV_PROF_SAMPLE_COST_CENTRE)
        return add_sample_event(c, ev);
    switch (ev->tag) {
    case HS_EV_HEAP_PROF_SAMPLE_BEGIN:
        return open_sample(c, ev->time);
    case HS_EV_HEAP_BIO_PROF_SAMPLE_BEGIN:
        /* Biographical censuses are all written at exit; the time the
         * census was taken is in the event, not in its timestamp. */
        return open_sample(c, ev->u.bio_sample.time);
    case HS_EV_HEAP_PROF_SAMPLE_END:
        c->open = false;
        return HS_OK;
    case HS_EV_HEAP_PROF_BEGIN:
        return heap_prof_begin(c, ev);
    case HS_EV_HEAP_PROF_COST_CENTRE:
        return add_cost_centre(c, ev);
    case HS_EV_PROF_BEGIN:
        if (!c->info.tick_interval_ns)
            c->info.tick_interval_ns = ev->u.prof_begin.tick_interval;
        return HS_OK;
    case HS_EV_IPE:
        return add_ipe(c, ev);
    case HS_EV_USER_MARKER:
        return add_marker(c, ev);
    case HS_EV_HEAP_SIZE:
        return add_line_point(c, HS_LINE_HEAP_SIZE, ev);
    case HS_EV_HEAP_LIVE:
        return add_line_point(c, HS_LINE_HEAP_LIVE, ev);
    case HS_EV_BLOCKS_SIZE:
        return add_line_point(c, HS_LINE_BLOCKS_SIZE, ev);
    case HS_EV_RTS_IDENTIFIER:
        if (!c->info.rts_identifier) {
            c->info.rts_identifier = dup_str(c, ev->u.rts_identifier.text);
            if (!c->info.rts_identifier)
                return nomem(c);
        }
        return HS_OK;
    case HS_EV_PROGRAM_ARGS:
        return set_program(c, ev);
    case HS_EV_WALL_CLOCK_TIME:
        if (!c->info.has_wall_clock) {
            c->info.has_wall_clock = true;
            c->info.wall_clock_sec = ev->u.wall_clock.sec;
            c->info.wall_clock_nsec = ev->u.wall_clock.nsec;
            set_date(c, ev->u.wall_clock.sec);
        }
        return HS_OK;
    default:
        return HS_OK;
    }
}

const hs_error *hs_census_error(const hs_census *c) { return &c->err; }

/* --- finishing ---------------------------------------------------------------- */

static int cmp_sample(const void *a, const void *b)
{
    const struct sample *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static inline uint64_t time_at(const unsigned char *a, size_t i, size_t size)
{
    uint64_t t;
    memcpy(&t, a + i * size, sizeof t);
    return t;
}

/*
 * Stable sort by time of an array whose elements start with a u64 time
 * (markers, heap-line points). Such arrays arrive as a few long sorted
 * runs (one per capability buffer, interleaved block by block), so a
 * natural merge sort finishes in a few passes; its worst case is still
 * O(n log n).
 */
static bool stable_sort_by_time(void *base, size_t n, size_t size)
{
    if (n < 2)
        return true;
    unsigned char *a = base, *tmp = malloc(n * size);
    if (!tmp)
        return false;
#define T(arr, i) time_at((arr), (i), size)
    for (;;) {
        size_t runs = 0, i = 0, out = 0;
        while (i < n) {
            /* run 1: [i, m), run 2: [m, e) */
            size_t m = i + 1;
            while (m < n && T(a, m - 1) <= T(a, m))
                m++;
            size_t e = m;
            if (m < n) {
                e = m + 1;
                while (e < n && T(a, e - 1) <= T(a, e))
                    e++;
            }
            size_t x = i, y = m;
            while (x < m || y < e) {
                size_t from = (y >= e || (x < m && T(a, x) <= T(a, y)))
                                  ? x++ : y++;
                memcpy(tmp + out * size, a + from * size, size);
                out++;
            }
            runs++;
            i = e;
        }
        memcpy(a, tmp, n * size);
        if (runs <= 1)
            break;
    }
#undef T
    free(tmp);
    return true;
}

/* Parses a -hi label ("0x" and hex digits, as C's %p prints on glibc). */
static bool parse_address(const char *s, uint64_t *out)
{
    if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || !s[2])
        return false;
    uint64_t v = 0;
    for (const char *p = s + 2; *p; p++) {
        int d;
        if (*p >= '0' && *p <= '9')
            d = *p - '0';
        else if (*p >= 'a' && *p <= 'f')
            d = *p - 'a' + 10;
        else if (*p >= 'A' && *p <= 'F')
            d = *p - 'A' + 10;
        else
            return false;
        if (v >> 60)
            return false;
        v = v << 4 | (uint64_t)d;
    }
    *out = v;
    return true;
}

/*
 * -hi: names each address band after its info table:
 * "NAME :: TYPE at SRCLOC (ADDRESS)", parts left out when the record has
 * them empty. The address stays in the name so two tables with the same
 * name (a common case) remain two bands.
 */
static int resolve_ipe(hs_census *c)
{
    for (size_t i = 0; i < c->nbands; i++) {
        struct band *b = &c->bands[i];
        uint64_t addr;
        if (b->kind != BAND_STRING || !parse_address(b->name, &addr))
            continue;
        uint32_t k = hs_intern_find(&c->ipe_tab, &addr, sizeof addr);
        if (k == UINT32_MAX)
            continue;
        const struct ipe *r = &c->ipes[k];
        size_t n = strlen(r->table_name) + strlen(r->type_desc) +
                   strlen(r->srcloc) + strlen(b->name) + 16;
        char *name = hs_arena_alloc(&c->arena, n);
        if (!name)
            return nomem(c);
        size_t len = 0;
        len += (size_t)snprintf(name + len, n - len, "%s",
                                r->table_name[0] ? r->table_name : "?");
        if (r->type_desc[0])
            len += (size_t)snprintf(name + len, n - len, " :: %s",
                                    r->type_desc);
        if (r->srcloc[0])
            len += (size_t)snprintf(name + len, n - len, " at %s",
                                    r->srcloc);
        snprintf(name + len, n - len, " (%s)", b->name);
        b->name = name;
    }
    return HS_OK;
}

/* Renames -hc bands made before their cost centres were defined, and
 * warns once per id still undefined. */
static int resolve_late_cost_centres(hs_census *c)
{
    for (size_t i = 0; i < c->nbands; i++) {
        struct band *b = &c->bands[i];
        if (!b->unresolved)
            continue;
        size_t len;
        if (!ccs_name(c, b->stack, b->depth, &len, &b->unresolved))
            return nomem(c);
        const char *name = hs_arena_strndup(&c->arena, c->scratch, len);
        if (!name)
            return nomem(c);
        b->name = name;
        for (uint32_t k = 0; k < b->depth; k++)
            if (!find_cc(c, b->stack[k]))
                note_undefined(c, b->stack[k], "a heap sample");
    }
    for (size_t i = 0; i < c->tstack_tab.count; i++)
        for (uint32_t k = 0; k < c->tstacks[i].depth; k++)
            if (!find_cc(c, c->tstacks[i].ids[k]))
                note_undefined(c, c->tstacks[i].ids[k],
                               "a time-profile sample");
    return HS_OK;
}

int hs_census_finish(hs_census *c, bool complete)
{
    if (c->error)
        return c->error;
    if (c->finished)
        return HS_ERR_MISUSE;
    c->open = false;
    c->info.complete = complete;
    if (c->info.breakdown == UINT32_MAX)
        c->info.breakdown = 0;
    if (c->samples_unsorted)
        qsort(c->samples, c->nsamples, sizeof *c->samples, cmp_sample);
    if (c->markers_unsorted &&
        !stable_sort_by_time(c->markers, c->nmarkers, sizeof *c->markers))
        return nomem(c);
    for (int i = 0; i < HS_LINE_COUNT; i++)
        if (c->lines_unsorted[i] &&
            !stable_sort_by_time(c->lines[i], c->nlines[i],
                                 sizeof(hs_census_point)))
            return nomem(c);
    int st = resolve_late_cost_centres(c);
    if (!st && c->info.breakdown == HS_BREAKDOWN_INFO_TABLE)
        st = resolve_ipe(c);
    if (st)
        return st;
    if (c->warnings_dropped) {
        uint64_t n = c->warnings_dropped;
        c->warnings_dropped = 0;
        c->nwarnings--; /* make room for the summary */
        warnf(c, "%llu more warnings were left out",
              (unsigned long long)n + 1);
    }
    for (size_t i = 0; i < c->nsamples; i++)
        if (c->samples[i].time > c->info.end_time_ns)
            c->info.end_time_ns = c->samples[i].time;
    c->finished = true;
    return HS_OK;
}

/* --- used by the .hp reader (census_hp.c) ----------------------------------- */

int hs__census_hp_sample(hs_census *c, uint64_t time)
{
    if (c->error)
        return c->error;
    c->info.source = HS_SOURCE_HP;
    return open_sample(c, time);
}

int hs__census_hp_entry(hs_census *c, const char *name, size_t len,
                        uint64_t bytes)
{
    if (c->error)
        return c->error;
    uint32_t bi;
    int st = str_band(c, name, len, &bi);
    return st ? st : add_entry(c, 0, 0, bi, bytes);
}

void hs__census_hp_end_sample(hs_census *c) { c->open = false; }

int hs__census_hp_marker(hs_census *c, uint64_t time)
{
    if (c->error)
        return c->error;
    hs_event ev = {0};
    ev.time = time;
    ev.u.msg.text = (hs_str){"", 0};
    return add_marker(c, &ev);
}

/* Drops the last sample (the .hp's empty closing sample). */
void hs__census_hp_drop_last(hs_census *c)
{
    if (c->nsamples && c->samples[c->nsamples - 1].count == 0)
        c->nsamples--;
}

int hs__census_hp_set(hs_census *c, const char *job, const char *date,
                      uint32_t breakdown, uint64_t end_ns)
{
    if (c->error)
        return c->error;
    c->info.source = HS_SOURCE_HP;
    if (job) {
        c->info.job = hs_arena_strndup(&c->arena, job, strlen(job));
        /* The program is the JOB's first word. */
        size_t n = strcspn(job, " ");
        c->info.program = hs_arena_strndup(&c->arena, job, n);
        if (!c->info.job || !c->info.program)
            return nomem(c);
    }
    if (date && !(c->info.date = hs_arena_strndup(&c->arena, date,
                                                  strlen(date))))
        return nomem(c);
    c->info.breakdown = breakdown;
    if (end_ns > c->info.end_time_ns)
        c->info.end_time_ns = end_ns;
    return HS_OK;
}

/* --- getters ----------------------------------------------------------------- */

const hs_census_info *hs_census_get_info(const hs_census *c)
{
    return &c->info;
}

size_t hs_census_band_count(const hs_census *c) { return c->nbands; }

const char *hs_census_band_name(const hs_census *c, size_t band)
{
    return band < c->nbands ? c->bands[band].name : NULL;
}

size_t hs_census_band_stack(const hs_census *c, size_t band,
                            const uint32_t **ids)
{
    if (band >= c->nbands || c->bands[band].kind != BAND_CCS) {
        *ids = NULL;
        return 0;
    }
    *ids = c->bands[band].stack;
    return c->bands[band].depth;
}

const hs_cost_centre *hs_census_cost_centre(const hs_census *c, uint32_t id)
{
    return find_cc(c, id);
}

size_t hs_census_sample_count(const hs_census *c) { return c->nsamples; }

uint64_t hs_census_sample_time(const hs_census *c, size_t i)
{
    return i < c->nsamples ? c->samples[i].time : 0;
}

size_t hs_census_sample_entries(const hs_census *c, size_t i,
                                const hs_census_entry **entries)
{
    if (i >= c->nsamples) {
        *entries = NULL;
        return 0;
    }
    *entries = c->entries + c->samples[i].first;
    return c->samples[i].count;
}

uint64_t hs_census_sample_total(const hs_census *c, size_t i)
{
    return i < c->nsamples ? c->samples[i].total : 0;
}

size_t hs_census_peak_sample(const hs_census *c)
{
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < c->nsamples; i++)
        if (best == SIZE_MAX || c->samples[i].total > c->samples[best].total)
            best = i;
    return best;
}

int hs_census_band_stats(const hs_census *c, hs_band_stats *out)
{
    size_t ns = c->nsamples, nb = c->nbands;
    double *sumsq = calloc(nb ? nb : 1, sizeof *sumsq);
    if (!sumsq)
        return HS_ERR_NOMEM;
    memset(out, 0, nb * sizeof *out);
    for (size_t i = 0; i < ns; i++) {
        /* Sample i stands for half the time to each neighbour. */
        double w = 1;
        if (ns > 1) {
            uint64_t prev = c->samples[i ? i - 1 : i].time;
            uint64_t next = c->samples[i + 1 < ns ? i + 1 : i].time;
            w = (double)(next - prev) / 2e9;
        }
        const hs_census_entry *e = c->entries + c->samples[i].first;
        for (size_t k = 0; k < c->samples[i].count; k++) {
            hs_band_stats *b = &out[e[k].band];
            double v = (double)e[k].bytes;
            b->byte_seconds += v * w;
            b->mean_bytes += v;
            sumsq[e[k].band] += v * v;
            if (e[k].bytes > b->peak_bytes) {
                b->peak_bytes = e[k].bytes;
                b->peak_time_ns = c->samples[i].time;
            }
        }
    }
    for (size_t b = 0; b < nb && ns; b++) {
        double mean = out[b].mean_bytes / (double)ns;
        double var = sumsq[b] / (double)ns - mean * mean;
        out[b].mean_bytes = mean;
        out[b].stddev_bytes = var > 0 ? sqrt(var) : 0;
    }
    free(sumsq);
    return HS_OK;
}

size_t hs_census_marker_count(const hs_census *c) { return c->nmarkers; }

const hs_census_marker *hs_census_marker_at(const hs_census *c, size_t i)
{
    return i < c->nmarkers ? &c->markers[i] : NULL;
}

size_t hs_census_heap_line(const hs_census *c, hs_heap_line line,
                           const hs_census_point **points)
{
    if ((unsigned)line >= HS_LINE_COUNT) {
        *points = NULL;
        return 0;
    }
    *points = c->lines[line];
    return c->nlines[line];
}

size_t hs_census_tprof_count(const hs_census *c)
{
    return c->tstack_tab.count;
}

size_t hs_census_tprof_stack(const hs_census *c, size_t i, int cap,
                             const uint32_t **ids, uint64_t *ticks)
{
    if (i >= c->tstack_tab.count) {
        *ids = NULL;
        *ticks = 0;
        return 0;
    }
    const struct tstack *t = &c->tstacks[i];
    *ids = t->ids;
    if (cap < 0) {
        *ticks = t->ticks;
    } else {
        uint32_t key[2] = {(uint32_t)i, (uint32_t)cap};
        uint32_t k = hs_intern_find(&c->tcap_tab, key, sizeof key);
        *ticks = k == UINT32_MAX ? 0 : c->tcap_ticks[k];
    }
    return t->depth;
}

size_t hs_census_tprof_cap_count(const hs_census *c)
{
    return c->tcap_tab.count;
}

uint64_t hs_census_tprof_cap_at(const hs_census *c, size_t k, size_t *stack,
                                uint32_t *cap)
{
    if (k >= c->tcap_tab.count) {
        *stack = 0;
        *cap = 0;
        return 0;
    }
    uint32_t key[2];
    memcpy(key, c->tcap_tab.keys[k].ptr, sizeof key);
    *stack = key[0];
    *cap = key[1];
    return c->tcap_ticks[k];
}

size_t hs_census_warning_count(const hs_census *c) { return c->nwarnings; }

const char *hs_census_warning(const hs_census *c, size_t i)
{
    return i < c->nwarnings ? c->warnings[i] : NULL;
}
