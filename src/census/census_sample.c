/*
 * The per-event path: interning bands, opening samples, adding entries.
 */
#include "heapscope/reader.h"
#include "census/census_impl.h"
#include "census/census_build.h"
#include "read/read_eventlog.h"
#include "read/read_hp.h"

#include <string.h>

/* The per-line and per-event lookups, inlined where they are used. */
#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

int hs__census_open_sample(hs_census *c, uint64_t time)
{
    if (!hs_grow(c->alloc, (void **)&c->samples, &c->cap_samples, c->nsamples + 1,
                 sizeof *c->samples))
        return hs__census_nomem(c);
    if (c->nsamples && time < c->samples[c->nsamples - 1].time)
        c->samples_unsorted = true;
    c->samples[c->nsamples] = (struct sample){
        .time = time, .first = c->nentries, .count = 0, .total = 0,
        .seq = c->nsamples};
    c->nsamples++;
    c->open = true;
    c->open_nbands = c->nbands;
    c->open_prev = 0;
    /* predict() is turned off after a sample whose bands it mostly
     * missed (bands that come in another order every census), and tried
     * again every 16th sample. */
    if (!c->predict_off)
        c->predict_off = c->predict_misses > c->predict_tries / 2;
    else if (c->nsamples % 16 == 0)
        c->predict_off = false;
    c->predict_tries = c->predict_misses = 0;
    return HS_OK;
}

static int new_band(hs_census *c, uint32_t kind, uint32_t *band)
{
    if (c->nbands >= UINT32_MAX - 1 ||
        !hs_grow(c->alloc, (void **)&c->bands, &c->cap_bands, c->nbands + 1,
                 sizeof *c->bands) ||
        !hs_grow(c->alloc, (void **)&c->last, &c->cap_last, c->nbands + 1,
                 sizeof *c->last) ||
        !hs_grow(c->alloc, (void **)&c->next, &c->cap_next, c->nbands + 2,
                 sizeof *c->next))
        return hs__census_nomem(c);
    struct band *b = &c->bands[c->nbands];
    memset(b, 0, sizeof *b);
    b->kind = kind;
    c->last[c->nbands] = (struct band_last){SIZE_MAX, 0, 0, 0, 0, 0, NULL};
    if (!c->nbands)
        c->next[0] = 0;
    c->next[c->nbands + 1] = 0;
    *band = (uint32_t)c->nbands++;
    return HS_OK;
}

/*
 * A guess that saves the hash lookup: the band that came after the open
 * sample's latest band the last time that band was seen (or the band that
 * opened the last sample). Censuses of a settled heap list their bands in
 * the same order, and one band more or less in a sample costs a miss or
 * two, not the rest of the sample; when the order changes every census,
 * the guess costs one length compare. Returns the band, or UINT32_MAX.
 */
static ALWAYS_INLINE uint32_t predict(hs_census *c, const hs_intern *tab,
                               uint32_t kind, const void *key, size_t len)
{
    if (!c->open || c->predict_off)
        return UINT32_MAX;
    uint32_t b = c->next ? c->next[c->open_prev] : 0;
    if (!b--)
        return UINT32_MAX;
    c->predict_tries++;
    if (c->bands[b].kind == kind) {
        const struct hs_intern_key *stored = &tab->keys[c->last[b].key];
        if (stored->len == len && hs_bytes_equal(stored->ptr, key, len))
            return b;
    }
    c->predict_misses++;
    return UINT32_MAX;
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
        return hs__census_nomem(c);
    if (!added) {
        *band = c->ccs_band[k];
        return HS_OK;
    }
    if (!hs_grow(c->alloc, (void **)&c->ccs_band, &c->cap_ccs_band, (size_t)k + 1,
                 sizeof *c->ccs_band))
        return hs__census_nomem(c);
    int st = new_band(c, BAND_CCS, band);
    if (st)
        return st;
    struct band *b = &c->bands[*band];
    b->depth = depth;
    b->stack = hs__census_stack_ids(c, be, depth);
    if (!b->stack)
        return hs__census_nomem(c);
    if ((st = hs__census_name_ccs_band(c, b)))
        return st;
    c->ccs_band[k] = *band;
    c->last[*band].key = k;
    return HS_OK;
}

/* A label seen for the first time: its band. Out of line, so that the
 * lookup in str_band stays small enough to inline. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int new_str_band(hs_census *c, const char *label, size_t len,
                        uint32_t *band)
{
    uint32_t k;
    bool added;
    if (!hs_intern_put(&c->str_tab, label, len, &k, &added))
        return hs__census_nomem(c);
    if (!hs_grow(c->alloc, (void **)&c->str_band, &c->cap_str_band, (size_t)k + 1,
                 sizeof *c->str_band))
        return hs__census_nomem(c);
    int st = new_band(c, BAND_STRING, band);
    if (st)
        return st;
    /* the interned key is NUL-terminated and never moves */
    bool failed = false;
    const char *safe = hs__census_safe_name(c, label, len, &failed);
    if (failed)
        return hs__census_nomem(c);
    c->bands[*band].name = safe ? safe : c->str_tab.keys[k].ptr;
    c->str_band[k] = *band;
    c->last[*band].key = k;
    hs__label_set(&c->last[*band], &c->str_tab.keys[k]);
    return HS_OK;
}

/* The band of a label predict() did not guess: the hash lookup. */
static ALWAYS_INLINE int str_band_lookup(hs_census *c, const char *label,
                                         size_t len, uint32_t *band)
{
    uint32_t k = hs_intern_find_hashed(&c->str_tab, label, len,
                                       hs_hash_bytes(label, len));
    if (k == UINT32_MAX)
        return new_str_band(c, label, len, band);
    *band = c->str_band[k];
    return HS_OK;
}

/* The band of a label: inlined into the string sample events' path. */
static ALWAYS_INLINE int str_band(hs_census *c, const char *label, size_t len,
                           uint32_t *band)
{
    if ((*band = predict(c, &c->str_tab, BAND_STRING, label, len)) !=
        UINT32_MAX)
        return HS_OK;
    return str_band_lookup(c, label, len, band);
}

/* Adds bytes to band bi in the open sample, which has room for one more
 * entry: no call, so that the per-line path needs no stack frame. */
static ALWAYS_INLINE void put_entry(hs_census *c, uint32_t bi, uint64_t bytes)
{
    /* what predict() guesses next time after the band before this one */
    c->next[c->open_prev] = bi + 1;
    c->open_prev = bi + 1;
    struct band_last *b = &c->last[bi];
    size_t si = c->nsamples - 1;
    struct sample *s = &c->samples[si];
    s->total = hs_add_sat(s->total, bytes);
    if (b->sample == si) {
        hs_census_entry *e = &c->entries[b->pos];
        e->bytes = hs_add_sat(e->bytes, bytes);
        return;
    }
    c->entries[c->nentries] = (hs_census_entry){bi, bytes};
    b->sample = si;
    b->pos = c->nentries++;
    s->count++;
}

/* Adds bytes to band bi in the open sample (opening one if needed). */
static inline int add_entry(hs_census *c, uint64_t offset, uint64_t time,
                     uint32_t bi, uint64_t bytes)
{
    if (!c->open) {
        /* A sample event with no SAMPLE_BEGIN before it: keep the data in
         * a sample of its own rather than drop it. */
        if (!c->warned_orphan) {
            hs__census_warnf(c, "a heap sample event at byte %llu comes outside any "
                  "sample; a sample is started at its time",
                  (unsigned long long)offset);
            c->warned_orphan = true;
        }
        int st = hs__census_open_sample(c, time);
        if (st)
            return st;
    }
    if (c->nentries == c->cap_entries &&
        c->last[bi].sample != c->nsamples - 1 &&
        !hs_grow(c->alloc, (void **)&c->entries, &c->cap_entries, c->nentries + 1,
                 sizeof *c->entries))
        return hs__census_nomem(c);
    put_entry(c, bi, bytes);
    return HS_OK;
}

/* A decoded stack (host order) as the log's big-endian bytes in keybuf. */
const uint8_t *hs__census_to_be(hs_census *c, const uint32_t *ids,
                                uint32_t n)
{
    if (!hs_grow(c->alloc, (void **)&c->keybuf, &c->cap_keybuf, (size_t)n * 4 + 1, 1))
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

/* A .hp line that string_entry could not take without a call: its
 * band not guessed, or the entries full. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int string_entry_slow(hs_census *c, const char *name, size_t len,
                             uint64_t bytes, uint32_t bi)
{
    if (bi == UINT32_MAX) {
        int st = str_band_lookup(c, name, len, &bi);
        if (st)
            return st;
    }
    return add_entry(c, 0, 0, bi, bytes);
}

/* Each line of a .hp: a guessed band in an open sample with room is
 * added without a call (the usual line), anything else out of line. */
int hs__census_string_entry(hs_census *c, const char *name, size_t len,
                            uint64_t bytes)
{
    uint32_t bi = predict(c, &c->str_tab, BAND_STRING, name, len);
    if (bi != UINT32_MAX && c->nentries < c->cap_entries) {
        put_entry(c, bi, bytes);
        return HS_OK;
    }
    return string_entry_slow(c, name, len, bytes, bi);
}

/*
 * From lines[*k] on, the lines whose band predict() guesses (told by the
 * label copied beside the band's figures, hs__label_matches), while the
 * entries have room: put_entry() with the open sample's figures in
 * locals (no store of them can move another). A hit leaves the guess it
 * came from as it was. Stops at the first line it cannot take.
 */
static void guessed_entries(hs_census *c, const hs_hp_band *l, size_t n,
                            size_t *k)
{
    if (!c->open || c->predict_off || !c->next)
        return;
    struct band_last *last = c->last;
    const uint32_t *next = c->next;
    hs_census_entry *entries = c->entries;
    size_t i = *k, ne = c->nentries, cap = c->cap_entries;
    size_t si = c->nsamples - 1;
    struct sample *s = &c->samples[si];
    uint64_t total = s->total;
    size_t count = s->count, from = i;
    uint32_t prev = c->open_prev;
    for (; i < n && ne < cap; i++) {
        uint32_t b = next[prev];
        if (!b--)
            break;
        struct band_last *bl = &last[b];
        if (bl->len1 != l[i].len + 1 ||
            !hs__label_matches(bl, l[i].name, l[i].len))
            break;
        prev = b + 1;
        total = hs_add_sat(total, l[i].bytes);
        if (bl->sample == si) {
            entries[bl->pos].bytes =
                hs_add_sat(entries[bl->pos].bytes, l[i].bytes);
            continue;
        }
        entries[ne] = (hs_census_entry){b, l[i].bytes};
        bl->sample = si;
        bl->pos = ne++;
        count++;
    }
    c->open_prev = prev;
    c->nentries = ne;
    s->total = total;
    s->count = count;
    c->predict_tries += i - from;
    *k = i;
}

int hs__census_string_entries(hs_census *c, const hs_hp_band *lines,
                              size_t n, size_t *done)
{
    size_t k = 0;
    while (k < n) {
        guessed_entries(c, lines, n, &k);
        if (k == n)
            break;
        int st = hs__census_string_entry(c, lines[k].name, lines[k].len,
                                         lines[k].bytes);
        if (st) {
            *done = k;
            return st;
        }
        k++;
    }
    *done = n;
    return HS_OK;
}

static int heap_prof_begin(hs_census *c, const hs_event *ev)
{
    uint32_t bd = ev->u.heap_prof_begin.breakdown;
    if (!c->info.breakdown) {
        c->info.breakdown = bd ? bd : UINT32_MAX;
        c->info.sample_period_ns = ev->u.heap_prof_begin.period;
    } else if (c->info.breakdown != bd) {
        hs__census_warnf(c, "a second heap profile (-%s) begins at byte %llu after "
              "-%s; its samples join the same table",
              hs_breakdown_flag(bd), (unsigned long long)ev->offset,
              hs_breakdown_flag(c->info.breakdown));
    }
    return HS_OK;
}


/* Tags the census reads; everything else costs one table lookup. */
static const bool census_tags[256] = {
    [HS_EV_RTS_IDENTIFIER] = true, [HS_EV_PROGRAM_ARGS] = true,
    [HS_EV_WALL_CLOCK_TIME] = true, [HS_EV_HEAP_SIZE] = true,
    [HS_EV_HEAP_LIVE] = true, [HS_EV_BLOCKS_SIZE] = true,
    [HS_EV_USER_MARKER] = true, [HS_EV_USER_MSG] = true,
    [HS_EV_HEAP_PROF_BEGIN] = true,
    [HS_EV_HEAP_PROF_COST_CENTRE] = true,
    [HS_EV_HEAP_PROF_SAMPLE_BEGIN] = true,
    [HS_EV_HEAP_PROF_SAMPLE_COST_CENTRE] = true,
    [HS_EV_HEAP_PROF_SAMPLE_STRING] = true,
    [HS_EV_HEAP_PROF_SAMPLE_END] = true,
    [HS_EV_HEAP_BIO_PROF_SAMPLE_BEGIN] = true,
    [HS_EV_PROF_SAMPLE_COST_CENTRE] = true, [HS_EV_PROF_BEGIN] = true,
    [HS_EV_IPE] = true, [HS_EV_TICKY_COUNTER_DEF] = true,
    [HS_EV_TICKY_COUNTER_SAMPLE] = true,
    [HS_EV_TICKY_COUNTER_BEGIN_SAMPLE] = true,
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
        if (!be && !(be = hs__census_to_be(c, ev->u.ccs_sample.stack,
                                ev->u.ccs_sample.depth)))
            return hs__census_nomem(c);
        return add_ccs_sample(c, ev, be, ev->u.ccs_sample.depth,
                              ev->u.ccs_sample.bytes);
    }
    case HS_EV_HEAP_PROF_SAMPLE_STRING:
        return add_string_sample(c, ev, ev->u.string_sample.label,
                                 ev->u.string_sample.bytes);
    default: { /* PROF_SAMPLE_COST_CENTRE */
        const uint8_t *be = ev->u.prof_sample.stack_raw;
        if (!be && !(be = hs__census_to_be(c, ev->u.prof_sample.stack,
                                ev->u.prof_sample.depth)))
            return hs__census_nomem(c);
        return hs__census_add_prof_sample(c, ev->time, be,
                                          ev->u.prof_sample.depth,
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

void hs__census_tally(hs_census *c, const hs__tally *t)
{
    uint64_t end = t->max_time > t->marker_max_time ? t->max_time
                                                    : t->marker_max_time;
    hs__census_skipped(c, t->events, end, t->max_cap);
    if (t->events > t->markers)
        hs__census_note_tag(c, t->last_tag);
}

int hs_census_add_event(hs_census *c, const hs_event *ev)
{
    if (c->error)
        return c->error;
    if (c->finished)
        return HS_ERR_MISUSE;
    hs__census_skipped(c, 1, ev->time, ev->cap);
    hs__census_note_tag(c, ev->tag);
    if (!wanted(ev->tag))
        return HS_OK;
    return hs__census_add_wanted(c, ev);
}

static int add_wanted(hs_census *c, const hs_event *ev);
static int add_other(hs_census *c, const hs_event *ev);

/* The heap-size line of tag, or HS_LINE_COUNT for none. */
static inline unsigned line_of(uint16_t tag)
{
    switch (tag) {
    case HS_EV_HEAP_SIZE:
        return HS_LINE_HEAP_SIZE;
    case HS_EV_HEAP_LIVE:
        return HS_LINE_HEAP_LIVE;
    case HS_EV_BLOCKS_SIZE:
        return HS_LINE_BLOCKS_SIZE;
    default:
        return HS_LINE_COUNT;
    }
}

int hs__census_add_wanted(hs_census *c, const hs_event *ev)
{
    if (c->error)
        return c->error;
    /* Most of the census's events in a real log: a point of a line, whose
     * only failure (out of memory) notes the event's place itself. */
    unsigned line = line_of(ev->tag);
    if (line < HS_LINE_COUNT)
        return ev->known ? hs__census_add_line_point(c, line, ev) : HS_OK;
    return add_other(c, ev);
}

/* hs__census_add_wanted() of any event but a line's point. */
static HS_NOINLINE int add_other(hs_census *c, const hs_event *ev)
{
    int st = add_wanted(c, ev);
    /* Out of memory is recorded deep in the model, which does not know
     * the event: give the record the offset and index hs_census_error()
     * promises. */
    if (st == HS_ERR_NOMEM && c->err.code == HS_ERR_NOMEM &&
        c->err.event_index == UINT64_MAX) {
        c->err.offset = ev->offset;
        c->err.event_index = ev->index;
    }
    return st;
}

static int add_wanted(hs_census *c, const hs_event *ev)
{
    /* Not decoded: a layout older than any the reader knows (too short
     * for its fields), which the census ignores as the reader does. */
    if (!ev->known)
        return HS_OK;
    c->cur_offset = ev->offset;
    c->cur_index = ev->index;
    if (ev->tag == HS_EV_HEAP_PROF_SAMPLE_COST_CENTRE ||
        ev->tag == HS_EV_HEAP_PROF_SAMPLE_STRING ||
        ev->tag == HS_EV_PROF_SAMPLE_COST_CENTRE)
        return add_sample_event(c, ev);
    switch (ev->tag) {
    case HS_EV_HEAP_PROF_SAMPLE_BEGIN:
        return hs__census_open_sample(c, ev->time);
    case HS_EV_HEAP_BIO_PROF_SAMPLE_BEGIN:
        /* Biographical censuses are all written at exit; the time the
         * census was taken is in the event, not in its timestamp. The
         * runtimes that write these also close every sample. */
        c->seen_bio = true;
        return hs__census_open_sample(c, ev->u.bio_sample.time);
    case HS_EV_HEAP_PROF_SAMPLE_END:
        c->open = false;
        c->seen_sample_end = true;
        return HS_OK;
    case HS_EV_HEAP_PROF_BEGIN:
        return heap_prof_begin(c, ev);
    case HS_EV_HEAP_PROF_COST_CENTRE:
        return hs__census_add_cost_centre(c, ev);
    case HS_EV_PROF_BEGIN:
        if (!c->info.tick_interval_ns)
            c->info.tick_interval_ns = ev->u.prof_begin.tick_interval;
        return HS_OK;
    case HS_EV_IPE:
        return hs__census_add_ipe(c, ev);
    case HS_EV_TICKY_COUNTER_DEF:
    case HS_EV_TICKY_COUNTER_SAMPLE:
    case HS_EV_TICKY_COUNTER_BEGIN_SAMPLE:
        return hs__census_add_ticky(c, ev);
    case HS_EV_USER_MARKER:
        return hs__census_add_mark(c, CENSUS_MARKERS, ev->time, ev->u.msg.text);
    case HS_EV_USER_MSG:
        return hs__census_add_mark(c, CENSUS_MESSAGES, ev->time, ev->u.msg.text);
    case HS_EV_RTS_IDENTIFIER:
        if (!c->info.rts_identifier) {
            c->info.rts_identifier = hs__census_dup(c, ev->u.rts_identifier.text);
            if (!c->info.rts_identifier)
                return hs__census_nomem(c);
        }
        return HS_OK;
    case HS_EV_PROGRAM_ARGS:
        return hs__census_set_program(c, ev);
    case HS_EV_WALL_CLOCK_TIME:
        if (!c->info.has_wall_clock) {
            c->info.has_wall_clock = true;
            c->info.wall_clock_sec = ev->u.wall_clock.sec;
            c->info.wall_clock_nsec = ev->u.wall_clock.nsec;
        }
        return HS_OK;
    default:
        return HS_OK;
    }
}

