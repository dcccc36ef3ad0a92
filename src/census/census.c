/*
 * The census model: its lifetime, shared helpers and getters. The model
 * is built incrementally from events (census_sample.c) or by another
 * reader through census_build.h.
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
 *     the per-event path touches one small record per band, with a
 *     label's band's label beside, not a whole band.)
 *   - last[b].len1, head, tail and label are band b's label when it is
 *     a label's band (set once, when it is made), len1 0 otherwise.
 */
#include "census/census_impl.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* --- small helpers ------------------------------------------------------ */

int hs__census_nomem(hs_census *c)
{
    if (c->error)
        return c->error; /* the first error stands */
    c->error = HS_ERR_NOMEM;
    /* where it happened: the event being added (none while finishing or
     * building from another format) */
    hs_error_at at = {c->cur_offset, c->cur_index, 0};
    return hs__error_set(&c->err, HS_ERR_NOMEM, &at,
                         "out of memory while building the census");
}

void hs__census_warnf(hs_census *c, const char *fmt, ...) HS_PRINTF(2, 3);

void hs__census_warnf(hs_census *c, const char *fmt, ...)
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
    if (!s || !hs_grow(c->alloc, (void **)&c->warnings, &c->cap_warnings,
                       c->nwarnings + 1, sizeof *c->warnings))
        return; /* a lost warning is not worth failing the census for */
    c->warnings[c->nwarnings++] = s;
}

const char *hs__census_dup(hs_census *c, hs_str s)
{
    return hs_arena_strndup(&c->arena, s.ptr ? s.ptr : "", s.len);
}

/* Host-order ids of a big-endian stack, in the arena (they never move). */
uint32_t *hs__census_stack_ids(hs_census *c, const uint8_t *be,
                               uint32_t depth)
{
    uint32_t *ids = hs_arena_alloc(&c->arena, depth ? depth * 4u : 1u);
    if (ids)
        for (uint32_t k = 0; k < depth; k++)
            ids[k] = hs_be32(be + 4 * k);
    return ids;
}


/* --- lifetime ------------------------------------------------------------ */

hs_census *hs_census_new(void) { return hs_census_new_with(NULL); }

hs_census *hs_census_new_with(const hs_allocator *alloc)
{
    hs_census *c = hs_calloc(alloc, 1, sizeof *c);
    if (!c)
        return NULL;
    c->alloc = hs_alloc_copy(&c->alloc_store, alloc);
    c->cur_index = UINT64_MAX;
    hs_arena_init(&c->arena, c->alloc);
    hs_intern_init(&c->ccs_tab, c->alloc);
    hs_intern_init(&c->str_tab, c->alloc);
    hs_intern_init(&c->cc_tab, c->alloc);
    hs_intern_init(&c->ipe_tab, c->alloc);
    hs_intern_init(&c->tstack_tab, c->alloc);
    hs_intern_init(&c->tcap_tab, c->alloc);
    hs_intern_init(&c->undef_tab, c->alloc);
    hs_intern_init(&c->ticky_tab, c->alloc);
    return c;
}

void hs_census_free(hs_census *c)
{
    if (!c)
        return;
    hs_intern_free(&c->ccs_tab);
    hs_intern_free(&c->str_tab);
    hs_free(c->alloc, c->ccs_band);
    hs_free(c->alloc, c->str_band);
    hs_intern_free(&c->cc_tab);
    hs_intern_free(&c->ipe_tab);
    hs_intern_free(&c->tstack_tab);
    hs_intern_free(&c->tcap_tab);
    hs_intern_free(&c->undef_tab);
    hs_intern_free(&c->ticky_tab);
    hs_free(c->alloc, c->tickies);
    hs_free(c->alloc, c->tpts);
    hs_free(c->alloc, c->tpoints);
    hs_free(c->alloc, c->ttimes);
    hs_free(c->alloc, c->ticky_order);
    hs_free(c->alloc, c->bands);
    hs_free(c->alloc, c->last);
    hs_free(c->alloc, c->next);
    hs_free(c->alloc, c->samples);
    hs_free(c->alloc, c->entries);
    hs_free(c->alloc, c->counts);
    hs_free(c->alloc, c->sites);
    if (c->ext_free)
        c->ext_free(c->ext, c->alloc);
    hs_free(c->alloc, c->ccs);
    hs_free(c->alloc, c->ipes);
    hs_free(c->alloc, c->marks[0].v);
    hs_free(c->alloc, c->marks[1].v);
    for (int i = 0; i < HS_LINE_COUNT; i++)
        hs_free(c->alloc, c->lines[i]);
    hs_free(c->alloc, c->tstacks);
    hs_free(c->alloc, c->tcap_ticks);
    hs_free(c->alloc, c->tsamples);
    hs_free(c->alloc, c->tweights);
    hs_free(c->alloc, c->warnings);
    hs_free(c->alloc, c->scratch);
    hs_free(c->alloc, c->keybuf);
    hs_arena_free(&c->arena);
    hs_free(c->alloc, c);
}

const hs_allocator *hs_census_allocator(const hs_census *c)
{
    return c->alloc;
}

const hs_error *hs_census_error(const hs_census *c) { return &c->err; }

/* --- getters ----------------------------------------------------------------- */

const hs_census_info *hs_census_get_info(const hs_census *c)
{
    return &c->info;
}

bool hs_census_has_heap_profile(const hs_census *c)
{
    /* A .hp file is a heap profile even when empty; an eventlog is one
     * when it said so (HEAP_PROF_BEGIN) or holds samples. */
    return c->info.source == HS_SOURCE_HP || c->info.breakdown ||
           hs_census_sample_count(c) > 0;
}

const char *hs_census_profile_label(const hs_census *c, char *buf, size_t n)
{
    int k = -1;
    if (n)
        buf[0] = 0;
    if (c->label[0]) {
        k = snprintf(buf, n, "%s", c->label);
    } else if (c->info.breakdown) {
        k = snprintf(buf, n, "-%s, by %s", hs_breakdown_flag(c->info.breakdown),
                     hs_breakdown_name(c->info.breakdown));
    }
    return k > 0 && n ? buf : NULL;
}

const hs_allocator *hs__census_allocator(const hs_census *c)
{
    return c->alloc;
}

size_t hs_census_band_count(const hs_census *c) { return c->nbands; }

const char *hs_census_band_name(const hs_census *c, size_t band)
{
    return band < c->nbands ? c->bands[band].name : NULL;
}

size_t hs_census_sample_count(const hs_census *c) { return c->nsamples; }

uint64_t hs_census_sample_time(const hs_census *c, size_t i)
{
    return i < c->nsamples ? c->samples[i].time : 0;
}

size_t hs_census_sample_entries(const hs_census *c, size_t i,
                                const hs_census_entry **entries)
{
    static const hs_census_entry none;
    if (i >= c->nsamples || !c->samples[i].count) {
        /* never NULL + 0: no entries at all leaves the array NULL */
        *entries = i < c->nsamples ? &none : NULL;
        return 0;
    }
    /* samples may all be empty, with no entry array at all */
    *entries = c->entries ? c->entries + c->samples[i].first : NULL;
    return c->samples[i].count;
}

uint64_t hs_census_sample_total(const hs_census *c, size_t i)
{
    return i < c->nsamples ? c->samples[i].total : 0;
}

size_t hs_census_warning_count(const hs_census *c) { return c->nwarnings; }

const char *hs_census_warning(const hs_census *c, size_t i)
{
    return i < c->nwarnings ? c->warnings[i] : NULL;
}
