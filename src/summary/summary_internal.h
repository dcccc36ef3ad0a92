/*
 * The summary's state, shared by its files: summary.c (the object, event
 * dispatch, finish), summary_caps.c (per-capability and per-generation
 * state), summary_markers.c (user markers and windows by marker),
 * summary_text.c and summary_json.c (the two writers). Not part of the
 * public surface.
 */
#ifndef HEAPSCOPE_SUMMARY_INTERNAL_H
#define HEAPSCOPE_SUMMARY_INTERNAL_H

#include "heapscope/summary.h"
#include "common/internal.h"

/* The slot of events outside any capability's block. */
#define GLOBAL_SLOT 65536u

enum { N_SPARK = 6 }; /* created dud overflowed converted gcd fizzled */

/* At most this many warnings are kept; they are about figures, not events,
 * so a handful is all there can be. */
enum { MAX_WARNINGS = 8 };

/* A monotonic counter's values at the window's edges. */
typedef struct edge {
    bool has_base, has_end;
    uint64_t base_t, end_t;
    uint64_t base[N_SPARK], end[N_SPARK];
} edge;

typedef struct capstate {
    uint32_t order;           /* index in s->order */
    uint64_t first_off;       /* the offset of its first event (lanes.c) */
    bool in_gc;               /* between its GC_START and GC_END */
    uint64_t gc_start;
    bool led_pending;         /* GC_STATS_GHC seen inside this GC */
    uint16_t led_gen;
    bool led_in_window;
    bool last_closed;         /* last_start..last_end is a finished GC */
    uint64_t last_start, last_end;
    edge alloc, sparks;
    bool has_alloc;
    hs_summary_cap out;
} capstate;

/* One distinct user marker; its name is key `index` of s->marker_names. */
typedef struct marker {
    uint64_t *times;
    size_t ntimes, cap;
    uint64_t first;
} marker;

/* A marker's place in the listing, by its first time. */
typedef struct marker_ref {
    uint64_t first;
    uint32_t index;
} marker_ref;

struct hs_summary {
    hs_allocator alloc_store;
    const hs_allocator *alloc;  /* NULL: the C library's */
    hs_error err;             /* the first error */
    bool sticky;              /* err stops all work (out of memory) */
    bool finished;
    bool has_stats;           /* stats computed by finish or a snapshot */
    int finish_status;        /* what hs_summary_finish() returned */
    uint64_t events;

    bool windowed;
    uint64_t from, to;
    char *from_marker, *to_marker;
    char *input;              /* the input's name, for the JSON */

    capstate **caps;          /* indexed by slot, allocated on first use */
    size_t ncaps_alloc;
    uint32_t *order;          /* slots in order of first appearance */
    size_t norder, order_cap;
    int32_t last_cap;         /* the capability of the last GC or heap */
    capstate *last_state;     /* event and its state (NULL: none yet) */

    hs_summary_gen *gens;
    size_t ngens_alloc;
    uint32_t max_gen_seen;
    bool any_gen;
    uint16_t info_gens;       /* HEAP_INFO_GHC, 0 = not seen */

    bool any_gc_stats, any_live, any_heap_size, any_alloc, any_sparks;
    bool any_blocks_size, any_gc_start;
    /* nonmoving collector: the open sync (the runtime posts CONC_SYNC_BEGIN
     * twice, the second beside its own clock reading, and CONC_SYNC_END
     * twice: a sync runs from the latest begin to the first end) */
    bool any_conc, sync_open;
    uint64_t sync_begin, sync_ns, sync_max_ns;
    uint32_t syncs;
    uint64_t copied, max_live, max_heap_size;
    uint64_t par_copied, par_balanced, par_max, par_tot;
    uint32_t par_threads_max;
    bool par_any, par_all_balanced;
    uint64_t last_time;
    bool any_time;

    bool threaded, heap_profiled;
    char *rts_id;
    char *args;               /* PROGRAM_ARGS raw bytes, NUL-separated */
    size_t args_len;

    hs_intern marker_names;   /* index = position in markers[] */
    marker *markers;
    size_t markers_cap;
    marker_ref *marker_order; /* after finish: by first time */

    char warnings[MAX_WARNINGS][160];
    size_t nwarnings;

    hs_summary_cap *caps_out;
    hs_summary_stats stats;
};

/* summary.c: records err as the first error (a later one is dropped) and
 * returns code; nomem also stops all further work. */
int summary_fail(hs_summary *s, int code, const char *fmt, ...)
    HS_PRINTF(3, 4);
int summary_nomem(hs_summary *s);
/* A warning about a figure (kept up to MAX_WARNINGS). */
void summary_warn(hs_summary *s, const char *fmt, ...) HS_PRINTF(2, 3);

/* summary_caps.c */
static inline bool summary_in_window(const hs_summary *s, uint64_t t)
{
    return t >= s->from && t <= s->to;
}
/* The state of capability cap (< 0: the global slot), made on first use;
 * NULL when out of memory. summary_event.c asks when an event's
 * capability is not the last event's. */
capstate *summary_cap_new(hs_summary *s, int32_t cap, uint64_t off);
/* The slot of s->caps that holds capability cap's state. */
static inline size_t summary_slot(int32_t cap)
{
    return cap < 0 ? GLOBAL_SLOT : (size_t)cap;
}
/* The state of cap, or NULL when none was made. */
static inline capstate *summary_cap_find(const hs_summary *s, int32_t cap)
{
    size_t slot = summary_slot(cap);
    return slot < s->ncaps_alloc ? s->caps[slot] : NULL;
}
/* The state of cap, made on first use by an event at offset off. */
static inline capstate *summary_cap_of(hs_summary *s, int32_t cap,
                                       uint64_t off)
{
    capstate *c = summary_cap_find(s, cap);
    return c ? c : summary_cap_new(s, cap, off);
}
/* Fills the generation, capability, allocation and spark figures of
 * s->stats; HS_OK or HS_ERR_NOMEM. */
int summary_finish_caps(hs_summary *s);

/* summary.c: the events that set a figure of the whole log (every one
 * but the GC and heap events summary_event.c feeds to a capability). */
int summary_on_global(hs_summary *s, const hs_event *ev);

/* summary_markers.c */
int summary_marker_add(hs_summary *s, hs_str name, uint64_t t);
/* Orders the markers by first time for listing; HS_OK or HS_ERR_NOMEM. */
int summary_markers_finish(hs_summary *s);

/* summary_text.c: the sentences both writers give. */
typedef struct textlist {
    const char *items[24];
    int n;
} textlist;
/* Figures of +RTS -s this log cannot give. */
void summary_unavailable(const hs_summary *s, textlist *l);
/* How figures differ from +RTS -s by construction. */
void summary_notes(const hs_summary *s, textlist *l);
/* The average pause of a generation as the runtime computes it. */
uint64_t summary_avg_pause(const hs_summary_gen *g);
/* The program's name: the first PROGRAM_ARGS word, or NULL. */
const char *summary_program(const hs_summary *s);

#define TRY(x) do { int st_ = (x); if (st_) return st_; } while (0)

/* summary_text.c: 1234567 as "1,234,567" into buf (also for .mlpd). */
void hs__summary_commas(uint64_t v, char *buf, size_t size);

#endif
