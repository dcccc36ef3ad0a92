/*
 * What a Mono .mlpd's events add up to, for whoever reads them: the
 * vtable descriptions in force (which a census needs to name objects and
 * the GC figures need to count late vtables) and the GC figures
 * (hs_mlpd_gc_stats), over the whole file or a window of it. The census
 * loader (load_mlpd*.c) and the summary (summary_mlpd.c) feed it the same
 * events, so both count alike. Not part of the public surface.
 */
#ifndef HEAPSCOPE_READ_MLPD_FIGURES_H
#define HEAPSCOPE_READ_MLPD_FIGURES_H

#include "heapscope/mlpd.h"
#include "common/internal.h"
#include "read/mlpd_allocs.h"

/* A map from 64-bit keys (pointers) to dense indices, with the keys met
 * lately in a small direct-mapped cache in front: an ALLOC looks its
 * vtable up, and a program allocates a few classes over and over. A
 * zeroed cache is empty (each entry holds index + 1). Keys are hashed as
 * their 8 bytes, so hs_intern_find(&m->tab, &key, 8) finds them too. */
#define PTR_MAP_RECENT 64
typedef struct ptr_map {
    hs_intern tab;
    struct { uint64_t key; uint32_t index1; } recent[PTR_MAP_RECENT];
} ptr_map;

bool hs__ptr_map_put(ptr_map *m, uint64_t key, uint32_t *index, bool *added);

/* The slot of the cache where key would be. */
static inline size_t hs__ptr_map_slot(uint64_t key)
{
    /* Pointers are 8-byte aligned: the bits above the third pick. */
    return (size_t)(key >> 3 ^ key >> 9) & (PTR_MAP_RECENT - 1);
}

/* The index of key when the cache holds it, else UINT32_MAX: inline,
 * for the per-event paths. */
static inline uint32_t hs__ptr_map_cached(const ptr_map *m, uint64_t key)
{
    size_t r = hs__ptr_map_slot(key);
    return m->recent[r].key == key ? m->recent[r].index1 - 1 : UINT32_MAX;
}
/* Empties m (its table freed and made anew). */
void hs__ptr_map_clear(ptr_map *m, const hs_allocator *a);
uint32_t hs__ptr_map_find(const ptr_map *m, uint64_t key);

/*
 * What the file said about vtables (and, in the loader, classes). One
 * pointer can be described more than once: a vtable or class freed with
 * its AppDomain leaves its address to another. The descriptions of one
 * pointer form a chain in file order (`next`, UINT32_MAX ending it;
 * `struct chain` per pointer gives its ends). A use of a vtable takes the
 * description in force at the use's time (the latest created before it)
 * or, when none has arrived yet, an undescribed entry at the chain's end
 * that the next description fills: a late vtable. Census cells and
 * allocation sites are keyed by the entry's index (a vtable id), not by
 * the pointer. What this cannot tell: a use whose description comes later
 * in the file while an older description of the same address is already
 * in force takes the older one (it takes address reuse and a late vtable
 * at once).
 */
struct vtable_info {
    uint64_t ptr, klass, time;
    uint32_t next;
    bool described, used_early;
};
struct chain {
    uint32_t head, tail;
    uint64_t latest;    /* the greatest description time in the chain */
};

typedef struct hs__mlpd_vtables {
    ptr_map map;                 /* pointer -> its chain */
    struct chain *chain;
    size_t cap_chain;
    struct vtable_info *vt;      /* by vtable id */
    size_t nvt, cap_vt;
} hs__mlpd_vtables;

/* The chain of pointer p in map (its index in *chains, grown and made
 * empty when p is new); NULL when out of memory. */
struct chain *hs__mlpd_chain_of(const hs_allocator *a, ptr_map *map,
                                struct chain **chains, size_t *cap,
                                uint64_t p);
/* Links entry k at the end of chain c; tail_next is the current tail's
 * `next` field (unused when c is empty). */
void hs__mlpd_chain_push(struct chain *c, uint32_t *tail_next, uint32_t k);

/* The GC figures and the vtables of one reading. */
typedef struct hs__mlpd_figures {
    const hs_allocator *a;
    hs_mlpd_gc_stats s;
    hs__mlpd_vtables vt;
    uint32_t vid;            /* the vtable id of the last ALLOC or sized
                                HEAP_OBJECT */
    uint64_t from, to;       /* the window, ns since t0 (inclusive) */
    bool windowed;
    uint64_t t0, last;       /* the first buffer's time, the latest event's
                                (METHOD_JIT aside: theirs can be early) */
    bool have_t0;
    const char *program;     /* the root domain's name, in arena */
    hs_arena arena;
    /* per collecting thread: when its world stop began */
    struct stop { uint64_t thread, time; } stops[32];
    size_t nstops;
    /* per generation: when its collection began (0: none open), and the
     * world restarts seen by then (one later: it ran concurrently) */
    uint64_t gc_start[2], gc_restarts_at[2];
    uint64_t restarts;       /* POST_START_WORLD events so far */
    uint64_t size_before;    /* windowed: the heap's size when the window
                                opens (the last GC_RESIZE before it) */
    bool shot_open, shot_counted;
    uint64_t shot_total, shot_time; /* shot_time: since t0 */
    uint64_t *vid_count, *vid_bytes; /* allocations per vtable id */
    size_t cap_vid_count, cap_vid_bytes;
} hs__mlpd_figures;

void hs__mlpd_figures_init(hs__mlpd_figures *f, const hs_allocator *a);
void hs__mlpd_figures_free(hs__mlpd_figures *f);
/* Counts only what happens in [from, to] (ns since the first buffer); a
 * heap shot counts when its HEAP_START does, a collection its start, a
 * world stop its pre-stop. */
void hs__mlpd_figures_window(hs__mlpd_figures *f, uint64_t from,
                             uint64_t to);
/* One event, in file order; HS_OK or HS_ERR_NOMEM. */
int hs__mlpd_figures_add(hs__mlpd_figures *f, const hs_mlpd_event *ev);
/* A run of ALLOCs, in file order, as hs__mlpd_figures_add() would count
 * them one by one; their vtable ids into run->vid. */
int hs__mlpd_figures_allocs(hs__mlpd_figures *f, hs__mlpd_allocs *run);
/* The end of the file: a shot still open lost its HEAP_END and counts in
 * no figure (returns true then); sets duration and the late figures. */
bool hs__mlpd_figures_finish(hs__mlpd_figures *f);
/* A file whose reading ended well (HS_DONE) at offset off inside a heap
 * shot: cut between two buffers (a killed run's buffers are each written
 * whole). Sets *err and returns HS_TRUNCATED. */
int hs__mlpd_between_buffers(uint64_t off, hs_error *err);
/* The warning for a file that ended well with no buffer after its
 * header. */
extern const char hs__mlpd_no_buffer[];
/* t relative to the first buffer (0 before it). */
uint64_t hs__mlpd_figures_rel(const hs__mlpd_figures *f, uint64_t t);

#endif
