/*
 * The diff model: two censuses of the same breakdown, bands matched by
 * name, figures per band and per run over each run's window.
 *
 * Bands of a run whose names map to the same matched name (after the
 * "(ccs id)" prefix is dropped, or after normalising) are summed sample by
 * sample, so a matched band's peak is the peak of the sum, not the sum of
 * peaks. The figures (peak, its time, byte-seconds) are the census's
 * (hs__census_window_stats, census/census_stats.h): the diff only says
 * which bands sum into which matched name.
 */
#include "heapscope/diff.h"
#include "common/internal.h"
#include "diff/diff_internal.h"
#include "census/census_stats.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Bits of struct hs_diff.seen: present in the before / after window. */
enum { SEEN_BEFORE = 1, SEEN_AFTER = 2 };

struct hs_diff {
    hs_allocator alloc_store;
    const hs_allocator *alloc;
    const hs_census *census[2];
    hs_diff_run run[2];
    char *input[2];
    char *from_marker, *to_marker;
    uint32_t breakdown;
    bool normalize;
    hs_diff_order order;
    hs_intern keys;          /* matched names; key i is bands[i] until sorted */
    hs_diff_band *bands;
    size_t nbands, cap_bands;
    unsigned char *seen;     /* SEEN_* per key */
    bool *exact;             /* a raw name of before equals one of after */
    size_t normalized_matches;
    uint32_t *key_of_band[2]; /* per run: census band -> key */
    size_t *rank_of_key;     /* key -> index in bands once sorted, or
                                SIZE_MAX for a key in neither window */
    size_t nkeys;
    char *name_buf;          /* scratch for a band's matched name */
    size_t name_cap;
};

void hs_diff_options_init_size(hs_diff_options *o, size_t size)
{
    const hs_diff_options def = {.size = sizeof def,
                                 .to_ns = {UINT64_MAX, UINT64_MAX}};
    hs__options_fill(o, size, &def, sizeof def);
}

void hs_diff_chart_options_init_size(hs_diff_chart_options *o, size_t size)
{
    const hs_diff_chart_options def = {.size = sizeof def};
    hs__options_fill(o, size, &def, sizeof def);
}

/* --- names -------------------------------------------------------------- */

/* "(123)main/Main.CAF" from a runtime -hc .hp: the id is the build's
 * (a .hp whose JOB names no -h option is -hc, GHC's old default) */
bool hs__diff_drops_ccs_id(const hs_census *c)
{
    const hs_census_info *info = hs_census_get_info(c);
    return info->source == HS_SOURCE_HP &&
           (info->breakdown == HS_BREAKDOWN_COST_CENTRE || !info->breakdown);
}

size_t hs__diff_ccs_id_len(const char *name, size_t len)
{
    if (len <= 2 || name[0] != '(')
        return 0;
    size_t k = 1;
    while (k < len && name[k] >= '0' && name[k] <= '9')
        k++;
    return k > 1 && k < len && name[k] == ')' ? k + 1 : 0;
}

/*
 * The matched name of band b of census c in d->name_buf (raw: without
 * normalising). Returns its length, or SIZE_MAX when out of memory.
 */
static size_t match_name(hs_diff *d, const hs_census *c, size_t b, bool raw)
{
    const char *name = hs_census_band_name(c, b);
    name = name ? name : "";
    size_t len = strlen(name);
    if (hs__diff_drops_ccs_id(c)) {
        size_t k = hs__diff_ccs_id_len(name, len);
        name += k;
        len -= k;
    }
    if (!hs_grow(d->alloc, (void **)&d->name_buf, &d->name_cap, len + 1, 1))
        return SIZE_MAX;
    if (raw || !d->normalize) {
        memcpy(d->name_buf, name, len);
        d->name_buf[len] = 0;
        return len;
    }
    return hs_diff_normalize_name(name, len, d->name_buf, d->name_cap);
}

/* The key of matched name d->name_buf[0..len), added when new. */
static bool key_of(hs_diff *d, size_t len, uint32_t *key)
{
    bool added;
    if (!hs_intern_put(&d->keys, d->name_buf, len, key, &added))
        return false;
    if (!added)
        return true;
    if (!hs_grow(d->alloc, (void **)&d->bands, &d->cap_bands, *key + 1,
                 sizeof *d->bands))
        return false;
    unsigned char *seen = hs_realloc(d->alloc, d->seen, d->cap_bands);
    if (!seen)
        return false;
    d->seen = seen;
    bool *exact = hs_realloc(d->alloc, d->exact,
                             d->cap_bands * sizeof *d->exact);
    if (!exact)
        return false;
    d->exact = exact;
    hs_diff_band *nb = &d->bands[*key];
    memset(nb, 0, sizeof *nb);
    nb->name = d->keys.keys[*key].ptr;
    d->seen[*key] = 0;
    d->exact[*key] = false;
    d->nbands = *key + 1u;
    return true;
}

/* --- figures -------------------------------------------------------------- */

/* The window's figures of each key (the census's bands summed by matched
 * name, hs__census_window_stats's rule) and of the run's totals. */
static int window_figures(hs_diff *d, int which, const uint32_t *key_of_band,
                          uint64_t from, uint64_t to)
{
    size_t nk = d->nbands;
    hs_band_stats *st = hs_calloc(d->alloc, nk ? nk : 1, sizeof *st);
    bool *present = hs_calloc(d->alloc, nk ? nk : 1, sizeof *present);
    hs_band_stats total;
    hs_window_stats w = {.from_ns = from, .to_ns = to,
                         .group_of_band = key_of_band, .ngroups = nk,
                         .out = st, .present = present, .total = &total};
    int rc = st && present ? hs__census_window_stats(d->census[which], &w)
                           : HS_ERR_NOMEM;
    unsigned char bit = which == HS_DIFF_BEFORE ? SEEN_BEFORE : SEEN_AFTER;
    for (size_t k = 0; k < nk && rc == HS_OK; k++) {
        if (!present[k])
            continue;
        hs_diff_band *b = &d->bands[k];
        b->peak_bytes[which] = st[k].peak_bytes;
        b->peak_time_ns[which] = st[k].peak_time_ns;
        b->byte_seconds[which] = st[k].byte_seconds;
        d->seen[k] |= bit;
    }
    if (rc == HS_OK) {
        hs_diff_run *run = &d->run[which];
        run->samples = w.samples;
        run->peak_bytes = total.peak_bytes;
        run->peak_time_ns = total.peak_time_ns;
        run->byte_seconds = total.byte_seconds;
    }
    hs_free(d->alloc, st);
    hs_free(d->alloc, present);
    return rc;
}

/* Maps census `which`'s bands to keys and sums its window's samples. */
static int run_figures(hs_diff *d, int which, uint64_t from, uint64_t to)
{
    const hs_census *c = d->census[which];
    size_t nb = hs_census_band_count(c);
    uint32_t *key_of_band = hs_calloc(d->alloc, nb ? nb : 1,
                                      sizeof *key_of_band);
    int st = key_of_band ? HS_OK : HS_ERR_NOMEM;
    for (size_t b = 0; b < nb && st == HS_OK; b++) {
        size_t len = match_name(d, c, b, false);
        if (len == SIZE_MAX || !key_of(d, len, &key_of_band[b]))
            st = HS_ERR_NOMEM;
        else
            d->bands[key_of_band[b]].members[which]++;
    }
    if (st == HS_OK)
        st = window_figures(d, which, key_of_band, from, to);
    if (st == HS_OK) {
        hs_diff_run *run = &d->run[which];
        const hs_census_info *info = hs_census_get_info(c);
        size_t n = hs_census_sample_count(c);
        uint64_t end = info->end_time_ns;
        if (n && hs_census_sample_time(c, n - 1) > end)
            end = hs_census_sample_time(c, n - 1);
        run->windowed = from != 0 || to != UINT64_MAX;
        run->from_ns = from < end ? from : end;
        run->to_ns = to < end ? to : end;
        run->duration_ns = run->to_ns - run->from_ns;
    }
    d->key_of_band[which] = key_of_band; /* the chart maps bands by it */
    return st;
}

/* Marks keys whose raw name occurs in both runs; the rest of the bands in
 * both matched only after normalising. */
static int mark_exact(hs_diff *d)
{
    hs_intern raw;
    hs_intern_init(&raw, d->alloc);
    int st = HS_OK;
    const hs_census *c = d->census[HS_DIFF_BEFORE];
    for (size_t b = 0; b < hs_census_band_count(c) && st == HS_OK; b++) {
        size_t len = match_name(d, c, b, true);
        uint32_t idx;
        bool added;
        if (len == SIZE_MAX ||
            !hs_intern_put(&raw, d->name_buf, len, &idx, &added))
            st = HS_ERR_NOMEM;
    }
    c = d->census[HS_DIFF_AFTER];
    for (size_t b = 0; b < hs_census_band_count(c) && st == HS_OK; b++) {
        size_t len = match_name(d, c, b, true);
        if (len == SIZE_MAX) {
            st = HS_ERR_NOMEM;
            break;
        }
        if (hs_intern_find(&raw, d->name_buf, len) == UINT32_MAX)
            continue;
        size_t nlen = match_name(d, c, b, false);
        uint32_t key = nlen == SIZE_MAX
                           ? UINT32_MAX
                           : hs_intern_find(&d->keys, d->name_buf, nlen);
        if (key != UINT32_MAX)
            d->exact[key] = true;
    }
    hs_intern_free(&raw);
    return st;
}

/* --- order ---------------------------------------------------------------- */

struct rank {
    double change;     /* absolute change of the ordering figure */
    const char *name;
    size_t index;
};

static int by_change(const void *pa, const void *pb)
{
    const struct rank *a = pa, *b = pb;
    if (a->change != b->change)
        return a->change > b->change ? -1 : 1;
    return strcmp(a->name, b->name);
}

/*
 * Drops keys present in neither window, sets each band's status and puts
 * the bands in the options' order.
 */
static int finish_bands(hs_diff *d)
{
    struct rank *r = hs_calloc(d->alloc, d->nbands ? d->nbands : 1,
                               sizeof *r);
    hs_diff_band *sorted = hs_calloc(d->alloc, d->nbands ? d->nbands : 1,
                                     sizeof *sorted);
    d->rank_of_key = hs_malloc(d->alloc, (d->nbands ? d->nbands : 1) *
                                             sizeof *d->rank_of_key);
    if (!r || !sorted || !d->rank_of_key) {
        hs_free(d->alloc, r);
        hs_free(d->alloc, sorted);
        return HS_ERR_NOMEM;
    }
    d->nkeys = d->nbands;
    for (size_t k = 0; k < d->nkeys; k++)
        d->rank_of_key[k] = SIZE_MAX;
    size_t n = 0;
    for (size_t k = 0; k < d->nbands; k++) {
        hs_diff_band *b = &d->bands[k];
        unsigned char s = d->seen[k];
        if (!s)
            continue;
        b->status = s == (SEEN_BEFORE | SEEN_AFTER) ? HS_DIFF_BOTH
                    : s == SEEN_AFTER               ? HS_DIFF_NEW
                                                    : HS_DIFF_GONE;
        b->normalized_only = b->status == HS_DIFF_BOTH && !d->exact[k];
        if (b->normalized_only)
            d->normalized_matches++;
        if (s & SEEN_BEFORE)
            d->run[HS_DIFF_BEFORE].bands++;
        if (s & SEEN_AFTER)
            d->run[HS_DIFF_AFTER].bands++;
        r[n].change =
            d->order == HS_DIFF_BY_PEAK
                ? fabs((double)b->peak_bytes[1] - (double)b->peak_bytes[0])
                : fabs(b->byte_seconds[1] - b->byte_seconds[0]);
        r[n].name = b->name;
        r[n].index = k;
        n++;
    }
    qsort(r, n, sizeof *r, by_change);
    for (size_t i = 0; i < n; i++) {
        sorted[i] = d->bands[r[i].index];
        d->rank_of_key[r[i].index] = i;
    }
    hs_free(d->alloc, d->bands);
    hs_free(d->alloc, r);
    d->bands = sorted;
    d->nbands = n;
    return HS_OK;
}

/* --- the object ----------------------------------------------------------- */

/* Refuses what cannot be compared; HS_OK when the pair is fine. */
static int check_pair(const hs_census *c[2], const hs_diff_options *o,
                      hs_error *err)
{
    static const char *const which[2] = {"before", "after"};
    for (int k = 0; k < 2; k++) {
        const hs_census_info *in = hs_census_get_info(c[k]);
        if (!hs_census_sample_count(c[k]) && !in->breakdown) {
            /* the cause that holds: a cut, or how this profiler records */
            char why[160];
            if (!in->complete)
                snprintf(why, sizeof why, "before the cut at %s %llu (the "
                         "input is truncated; the part cut off may have held "
                         "it)", in->cut_line ? "line" : "byte",
                         (unsigned long long)(in->cut_line ? in->cut_line
                                                           : in->cut_offset));
            else
                snprintf(why, sizeof why, "%s", in->source == HS_SOURCE_MLPD
                         ? "(no heap shots: run mono with "
                           "--profile=log:heapshot)"
                         : "(run the program with +RTS -hc -l, or another "
                           "-h option)");
            /* line: which run (1 before, 2 after) */
            hs_error_at at = {0, HS_NO_EVENT, (uint64_t)k + 1};
            return hs__error_set(err, HS_ERR_NO_DATA, &at,
                                 "the %s run has no heap profile %s",
                                 which[k], why);
        }
        if (o->from_ns[k] > o->to_ns[k]) {
            return hs__error_set(err, HS_ERR_INVALID, NULL,
                                 "the %s run's window starts after it ends",
                                 which[k]);
        }
    }
    /* a GHC profile (eventlog or .hp) against another profiler's (a Mono
     * .mlpd): no breakdown to compare, nothing to match */
    bool ghc[2];
    for (int k = 0; k < 2; k++) {
        hs_source_kind src = hs_census_get_info(c[k])->source;
        ghc[k] = src == HS_SOURCE_EVENTLOG || src == HS_SOURCE_HP;
    }
    if (ghc[0] != ghc[1]) {
        return hs__error_set(err, HS_ERR_INVALID, NULL,
                             "the runs come from different profilers: %s is "
                             "a GHC eventlog or .hp, %s is not; compare two "
                             "runs of the same kind",
                             ghc[0] ? "before" : "after",
                             ghc[0] ? "after" : "before");
    }
    uint32_t a = hs_census_get_info(c[0])->breakdown;
    uint32_t b = hs_census_get_info(c[1])->breakdown;
    if (a && b && a != b) {
        return hs__error_set(err, HS_ERR_INVALID, NULL,
                             "the runs have different breakdowns: before is "
                             "-%s (%s), after is -%s (%s); compare two runs "
                             "profiled with the same -h option",
                             hs_breakdown_flag(a), hs_breakdown_name(a),
                             hs_breakdown_flag(b), hs_breakdown_name(b));
    }
    return HS_OK;
}

static char *copy_str(const hs_allocator *a, const char *s)
{
    return s ? hs_strndup(a, s, strlen(s)) : NULL;
}

static int init_diff(hs_diff *d, const hs_census *before,
                     const hs_census *after, const hs_diff_options *o)
{
    d->census[0] = before;
    d->census[1] = after;
    d->normalize = o->normalize;
    d->order = o->order;
    uint32_t a = hs_census_get_info(before)->breakdown;
    d->breakdown = a ? a : hs_census_get_info(after)->breakdown;
    hs_intern_init(&d->keys, d->alloc);
    static const char *const names[2] = {"before", "after"};
    for (int k = 0; k < 2; k++) {
        d->input[k] = copy_str(d->alloc, o->input[k] ? o->input[k]
                                                     : names[k]);
        if (!d->input[k])
            return HS_ERR_NOMEM;
        d->run[k].input = d->input[k];
        if (o->gc[k] && o->gc[0] && o->gc[1]) {
            d->run[k].has_gc = true;
            d->run[k].gc = *o->gc[k];
            for (uint32_t g = 0; g < o->gc[k]->n_gens && o->gc[k]->gens; g++)
                d->run[k].collections += o->gc[k]->gens[g].collections;
            d->run[k].gc.gens = NULL;
            d->run[k].gc.caps = NULL;
            d->run[k].gc.rts_identifier = NULL;
        }
    }
    d->from_marker = copy_str(d->alloc, o->from_marker);
    d->to_marker = copy_str(d->alloc, o->to_marker);
    if ((o->from_marker && !d->from_marker) ||
        (o->to_marker && !d->to_marker))
        return HS_ERR_NOMEM;
    return HS_OK;
}

int hs_diff_new(const hs_census *before, const hs_census *after,
                const hs_diff_options *opt, const hs_allocator *alloc,
                hs_diff **out, hs_error *err)
{
    *out = NULL;
    hs__error_clear(err);
    hs_diff_options taken;
    hs_diff_options_init(&taken);
    if (hs__options_take(&taken, sizeof taken, opt))
        return hs__error_set(err, HS_ERR_INVALID, NULL,
                             "diff options not set up by "
                             "hs_diff_options_init");
    opt = &taken;
    const hs_census *c[2] = {before, after};
    int st = check_pair(c, opt, err);
    if (st != HS_OK)
        return st;
    hs_allocator store;
    const hs_allocator *a = hs_alloc_copy(&store, alloc);
    hs_diff *d = hs_calloc(a, 1, sizeof *d);
    if (!d) {
        return hs__error_set(err, HS_ERR_NOMEM, NULL, "out of memory");
    }
    d->alloc = hs_alloc_copy(&d->alloc_store, alloc);
    st = init_diff(d, before, after, opt);
    for (int k = 0; k < 2 && st == HS_OK; k++)
        st = run_figures(d, k, opt->from_ns[k], opt->to_ns[k]);
    if (st == HS_OK && d->normalize)
        st = mark_exact(d);
    if (st == HS_OK && !d->normalize)
        for (size_t k = 0; k < d->nbands; k++)
            d->exact[k] = true;
    if (st == HS_OK)
        st = finish_bands(d);
    if (st != HS_OK) {
        hs__error_set(err, st, NULL, "%s", hs_strerror(st));
        hs_diff_free(d);
        return st;
    }
    *out = d;
    return HS_OK;
}

void hs_diff_free(hs_diff *d)
{
    if (!d)
        return;
    const hs_allocator *a = d->alloc;
    hs_intern_free(&d->keys);
    hs_free(a, d->bands);
    hs_free(a, d->seen);
    hs_free(a, d->exact);
    hs_free(a, d->name_buf);
    hs_free(a, d->key_of_band[0]);
    hs_free(a, d->key_of_band[1]);
    hs_free(a, d->rank_of_key);
    hs_free(a, d->input[0]);
    hs_free(a, d->input[1]);
    hs_free(a, d->from_marker);
    hs_free(a, d->to_marker);
    hs_free(a, d);
}

const hs_diff_run *hs_diff_get_run(const hs_diff *d, int which)
{
    return which == HS_DIFF_AFTER ? &d->run[1] : &d->run[0];
}

size_t hs_diff_band_count(const hs_diff *d) { return d->nbands; }

const hs_diff_band *hs_diff_band_at(const hs_diff *d, size_t i)
{
    return i < d->nbands ? &d->bands[i] : NULL;
}

size_t hs_diff_normalized_matches(const hs_diff *d)
{
    return d->normalized_matches;
}

uint32_t hs_diff_breakdown(const hs_diff *d) { return d->breakdown; }

const hs_census *hs_diff_census(const hs_diff *d, int which)
{
    return d->census[which == HS_DIFF_AFTER];
}

const char *hs__diff_label(const hs_diff *d, char *buf, size_t n)
{
    char other[96];
    const char *a = hs_census_profile_label(d->census[0], buf, n);
    const char *b = hs_census_profile_label(d->census[1], other, sizeof other);
    return a && b && strcmp(a, b) == 0 ? buf : NULL;
}

const char *hs_diff_from_marker(const hs_diff *d) { return d->from_marker; }
const char *hs_diff_to_marker(const hs_diff *d) { return d->to_marker; }

size_t hs__diff_band_of(const hs_diff *d, int which, size_t census_band)
{
    const uint32_t *map = d->key_of_band[which == HS_DIFF_AFTER];
    if (census_band >= hs_census_band_count(d->census[which == HS_DIFF_AFTER]))
        return SIZE_MAX;
    uint32_t key = map[census_band];
    return key < d->nkeys ? d->rank_of_key[key] : SIZE_MAX;
}

const hs_allocator *hs__diff_allocator(const hs_diff *d) { return d->alloc; }

hs_diff_order hs_diff_get_order(const hs_diff *d) { return d->order; }

bool hs_diff_is_normalized(const hs_diff *d) { return d->normalize; }
