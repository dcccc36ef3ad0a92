/*
 * The census's inside, shared by the files of src/census/. Not part of
 * the public surface.
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
#ifndef HEAPSCOPE_CENSUS_IMPL_H
#define HEAPSCOPE_CENSUS_IMPL_H

#include "heapscope/census.h"
#include "heapscope/mlpd_census.h"
#include "heapscope/ticky.h"
#include "heapscope/reader.h"
#include "common/internal.h"
#include "census/census_build.h"

#define MAX_WARNINGS 200

enum band_kind { BAND_CCS = 1, BAND_STRING = 2 };

struct band {
    const char *name;       /* as shown: -hc names cut by name_limit */
    const char *full;       /* -hc: the whole name (name, when uncut) */
    const uint32_t *stack;  /* innermost first, into the intern arena */
    uint32_t depth;
    uint32_t kind;
    bool unresolved;        /* named with "<cc N>" for an undefined id */
    uint32_t ipe;           /* -hi: its IPE record's index + 1, or 0 */
};

struct band_last {
    size_t sample;
    size_t pos;
    uint32_t key;           /* index in ccs_tab or str_tab */
    /* A label's band: the label beside the figures above, so that the
     * record a .hp line's guess loads tells it (guessed_entries). */
    uint32_t len1;          /* the label's length + 1; 0: not a label */
    uint64_t head, tail;    /* its bytes [0, 8) and [len - 8, len) when
                               len >= 8, else 0 */
    const char *label;      /* the label (interned, never moves) */
};

/* Band b's label k copied beside its figures (struct band_last). */
static inline void hs__label_set(struct band_last *b,
                                 const struct hs_intern_key *k)
{
    if (k->len >= UINT32_MAX)
        return;
    b->len1 = (uint32_t)k->len + 1;
    b->label = k->ptr;
    if (k->len >= 8) {
        memcpy(&b->head, k->ptr, 8);
        memcpy(&b->tail, k->ptr + k->len - 8, 8);
    }
}

/* Whether name[0 .. len) is band b's label (len + 1 == b->len1): its
 * first and last 8 bytes against the copies in b, which the line's guess
 * loads anyway; the middle of a label over 16 bytes, and a label under
 * 8, from the label itself. */
static inline bool hs__label_matches(const struct band_last *b,
                                     const char *name, size_t len)
{
    if (len < 8)
        return hs_bytes_equal(b->label, name, len);
    uint64_t h, t;
    memcpy(&h, name, 8);
    memcpy(&t, name + len - 8, 8);
    if (h != b->head || t != b->tail)
        return false;
    return len <= 16 || hs_bytes_equal(b->label + 8, name + 8, len - 16);
}

struct sample {
    uint64_t time;
    size_t first;
    size_t count;
    uint64_t total;
    size_t seq;             /* arrival order, to keep sorting stable */
};


/* A ticky counter: its public record, where its last sample's figures
 * are, and (finished) where its points are in tpoints. */
struct ticky_ctr {
    hs_ticky_counter pub;
    size_t last_sample;      /* SIZE_MAX: none yet */
    size_t last_pt;          /* its point in that sample, in tpts */
    size_t first;            /* finished: its points, tpoints[first ..] */
};

/* A ticky sample's figures of one counter, in arrival order. */
struct ticky_pt {
    uint32_t ctr;
    hs_ticky_point pt;
};

struct tstack {
    const uint32_t *ids;
    uint32_t depth;
    uint64_t ticks;
};

/* One time-profile sample: its time first (sorted by census_finish.c's
 * stable sort by time), its stack (tstack_tab index) and capability. A
 * live census's old samples are merged (census_tcompact.c): the first
 * ntmerged records are then (bucket start, stack, cap) with their ticks
 * in tweights[], every later one is one tick. */
struct tsample {
    uint64_t time;
    uint32_t stack;
    uint32_t cap;
};

struct hs_census {
    hs_census_info info;
    int error;
    bool finished;
    unsigned name_limit;
    hs_arena arena;
    hs_allocator alloc_store;     /* the allocator it was made with */
    const hs_allocator *alloc;    /* &alloc_store, or NULL: libc */

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
    uint32_t *next;          /* predict()'s guess: next[0] the band + 1
                                that opened the last sample, next[b + 1]
                                the band + 1 that came after band b the
                                last time; 0 = none yet (apart: the chain
                                of guesses stays in a few cache lines) */
    size_t cap_next;

    struct sample *samples;
    size_t nsamples, cap_samples;
    hs_census_entry *entries;
    size_t nentries, cap_entries;
    bool open;               /* the last sample still takes entries */
    size_t open_nbands;      /* bands that existed when it opened */
    bool predict_off;        /* predict() missed most of a sample: off */
    uint32_t open_prev;      /* band + 1 of the open sample's latest
                                entry, 0 before its first */
    uint32_t predict_tries, predict_misses;  /* in the open sample */
    bool seen_sample_end;    /* the log closes its samples (SAMPLE_END) */
    bool seen_bio;           /* a -hb sample (its runtime closes them) */
    bool sample_tail;        /* the latest event (block markers aside)
                                was part of a heap sample */
    bool cut;                /* an unclosed last sample was left out */
    uint64_t cut_time;       /* its time */
    size_t cut_warning;      /* the warning saying so, or SIZE_MAX */
    bool samples_unsorted;
    bool warned_orphan;

    hs_intern cc_tab;        /* key: u32 id, host order */
    hs_cost_centre **ccs;
    size_t cap_ccs;

    hs_intern ipe_tab;       /* key: u64 address, host order */
    hs_census_ipe *ipes;
    size_t cap_ipes;

    /* user markers and user messages (traceEvent), each in its list */
    struct census_marks {
        hs_census_marker *v;
        size_t n, cap;
        bool unsorted;
    } marks[2];

    hs_census_point *lines[HS_LINE_COUNT];
    size_t nlines[HS_LINE_COUNT], cap_lines[HS_LINE_COUNT];
    bool lines_unsorted[HS_LINE_COUNT];

    hs_intern tstack_tab;    /* key: stack ids, big-endian as in the log */
    struct tstack *tstacks;
    size_t cap_tstacks;
    hs_intern tcap_tab;      /* key: {u32 stack index, u32 cap} */
    uint64_t *tcap_ticks;
    size_t cap_tcap;
    struct tsample *tsamples;  /* every sample, in time order once
                                  finished */
    size_t ntsamples, cap_tsamples;
    bool tsamples_unsorted;
    uint64_t *tweights;      /* ticks of the merged records [0, ntmerged) */
    size_t ntmerged, cap_tweights;
    uint64_t tbucket_ns;     /* their bucket's width; 0: none merged */
    uint64_t tuntil_ns;      /* samples before it are merged */

    hs_intern undef_tab;     /* undefined cost-centre ids already warned */

    /* ticky-ticky counters (census_ticky.c) */
    hs_intern ticky_tab;     /* key: u64 counter id, host order */
    struct ticky_ctr *tickies;
    size_t cap_tickies;
    struct ticky_pt *tpts;   /* every sample event, in arrival order */
    size_t ntpts, cap_tpts;
    hs_ticky_point *tpoints; /* finished: the same, grouped by counter */
    uint64_t *ttimes;        /* each ticky sample's time */
    size_t nttimes, cap_ttimes;
    size_t *ticky_order;     /* finished: counters in the getters' order */
    bool ticky_seen;         /* any ticky event */
    bool ticky_begins;       /* BEGIN_SAMPLE events mark the samples */

    char **warnings;
    size_t nwarnings, cap_warnings;
    uint64_t warnings_dropped;

    char *scratch;           /* name building */
    size_t cap_scratch;
    uint8_t *keybuf;         /* big-endian stack of a decoded event */
    size_t cap_keybuf;
    hs_error err;            /* the first error */
    uint64_t cur_offset;     /* the event being added, for err */
    uint64_t cur_index;      /* (UINT64_MAX: none) */

    uint64_t *counts;        /* objects per entry, parallel to entries, or
                                NULL (census_counts.c) */
    size_t cap_counts;
    /* What a loader keeps with the census (census_build.h): freed with
     * the census through ext_free; the model does not look inside. */
    void *ext;
    hs_census_ext_free_fn ext_free;
    char label[96];          /* the profile's label a loader gave, or "" */
    const hs_mlpd_gc_stats *mlpd_stats; /* an .mlpd's GC figures, owned
                                           by the extension, or NULL */
    hs_census_site *sites;   /* the allocation profile (census_counts.c) */
    size_t nsites;
};


/* The ticks time-profile record i stands for (census_tcompact.c). */
static inline uint64_t hs__tsample_weight(const hs_census *c, size_t i)
{
    return i < c->ntmerged ? c->tweights[i] : 1;
}

/* --- census.c ---------------------------------------------------------- */

/* Records out of memory as the census's sticky error; returns it. */
int hs__census_nomem(hs_census *c);
/* Adds a warning sentence (at most MAX_WARNINGS are kept). */
void hs__census_warnf(hs_census *c, const char *fmt, ...) HS_PRINTF(2, 3);
/* A NUL-terminated copy of s in the arena, or NULL. */
const char *hs__census_dup(hs_census *c, hs_str s);

/* Host-order ids of a big-endian stack, in the arena (they never move). */
uint32_t *hs__census_stack_ids(hs_census *c, const uint8_t *be,
                               uint32_t depth);

/* --- census_names.c ---------------------------------------------------- */

int hs__census_add_cost_centre(hs_census *c, const hs_event *ev);
void hs__census_note_undefined(hs_census *c, uint32_t id, const char *what);
/* The .hp name of a stack into c->scratch; false when out of memory. */
bool hs__census_ccs_name(hs_census *c, const uint32_t *ids, uint32_t depth,
                         size_t *out_len, bool *unresolved);
/* --- census_group.c ---------------------------------------------------- */

/* The runtime's -L rule, the one place names are cut: `full` when it fits
 * c->name_limit (or there is none), else an arena copy of its first
 * limit-4 bytes and "..."; NULL when out of memory. */
const char *hs__census_cut_name(hs_census *c, const char *full);

/* Names -hc band b from its stack (the .hp name, made safe, then cut). */
int hs__census_name_ccs_band(hs_census *c, struct band *b);
int hs__census_add_ipe(hs_census *c, const hs_event *ev);
int hs__census_resolve_ipe(hs_census *c);
int hs__census_resolve_cost_centres(hs_census *c);

/* --- census_sample.c --------------------------------------------------- */

int hs__census_open_sample(hs_census *c, uint64_t time);
/* Notes an event of any tag in file order, for the cut-sample rule of logs
 * without SAMPLE_END (census_finish.c). */
void hs__census_note_tag(hs_census *c, uint16_t tag);
/* A band name that is a C string: NULL when s[0 .. len) holds no NUL,
 * else an arena copy with each NUL as \x00 (and a warning); *failed
 * when out of memory. */
const char *hs__census_safe_name(hs_census *c, const char *s, size_t len,
                                 bool *failed);
/* Adds bytes to the band labelled name[0 .. len) in the open sample. */
int hs__census_string_entry(hs_census *c, const char *name, size_t len,
                            uint64_t bytes);
/* hs__census_string_entry for each of lines[0 .. n) (read_hp.h), in turn:
 * on an error, *done is the number of lines added before it. */
struct hs_hp_band;
int hs__census_string_entries(hs_census *c, const struct hs_hp_band *lines,
                              size_t n, size_t *done);

/* --- census_finish.c -------------------------------------------------- */

/* census_sort.c: a stable sort by time of n elements of `size` bytes,
 * each starting with its u64 time; false when out of memory. */
bool hs__census_sort_by_time(const hs_allocator *alloc, void *base, size_t n,
                             size_t size);

/* Moves the warning about a cut last sample, if any, to the end of the
 * truncation message err->message (what the user reads as one warning). */
void hs__census_fold_cut(hs_census *c, hs_error *err);

/* --- census_ticky.c ---------------------------------------------------- */

/* The three ticky events. */
int hs__census_add_ticky(hs_census *c, const hs_event *ev);
/* Orders the counters, groups their points, names their closures. */
int hs__census_finish_ticky(hs_census *c);

/* --- census_run.c, census_marks.c, census_tprof.c ----------------------- */

int hs__census_set_program(hs_census *c, const hs_event *ev);
/* The two lists of timed texts: USER_MARKER and USER_MSG. */
enum { CENSUS_MARKERS, CENSUS_MESSAGES };
int hs__census_add_mark(hs_census *c, int list, uint64_t time, hs_str text);
/* Appends ev's point to a line that has no room left: grows it first;
 * HS_OK or out of memory (recorded at ev). */
int hs__census_grow_line(hs_census *c, hs_heap_line line,
                         const hs_event *ev);
/* Appends ev's point to the line. Inline: HEAP_SIZE is nearly all of the
 * census's events in a real log (920 k of the 14.8 M events of a -N2 -hT
 * run), and a point with room costs two stores and no call (the growing
 * is a jump, so the way here saves no registers). */
static inline int hs__census_add_line_point(hs_census *c, hs_heap_line line,
                                            const hs_event *ev)
{
    size_t n = c->nlines[line];
    if (n == c->cap_lines[line])
        return hs__census_grow_line(c, line, ev);
    hs_census_point *pts = c->lines[line];
    if (n && ev->time < pts[n - 1].time_ns)
        c->lines_unsorted[line] = true;
    pts[n] = (hs_census_point){ev->time, ev->u.heap.bytes};
    c->nlines[line] = n + 1;
    return HS_OK;
}
/* A stack of host-order ids as the log's big-endian bytes, in keybuf
 * (census_sample.c); NULL when out of memory. */
const uint8_t *hs__census_to_be(hs_census *c, const uint32_t *ids,
                                uint32_t n);
int hs__census_add_prof_sample(hs_census *c, uint64_t time,
                               const uint8_t *be, uint32_t depth,
                               uint32_t cap);

#endif
