/*
 * What the .mlpd loader keeps with a census (its extension, census_build.h),
 * shared by load_mlpd.c (reading events), load_mlpd_names.c (naming) and
 * load_mlpd_out.c (samples, the allocation profile).
 *
 * Everything is keyed by pointer while the file is read and named only at
 * the end: a vtable's description can come after its first use, in
 * another thread's buffer that reached the file later.
 */
#ifndef HEAPSCOPE_LOAD_MLPD_H
#define HEAPSCOPE_LOAD_MLPD_H

#include "heapscope/mlpd.h"
#include "heapscope/mlpd_census.h"
#include "common/internal.h"
#include "census/census_build.h"
#include "read/mlpd_figures.h"

/* Classes: a chain of descriptions per pointer, as vtables have
 * (read/mlpd_figures.h, where the vtables are kept). */
struct class_info { uint64_t image, time; const char *name; uint32_t next; };
struct image_info { const char *name, *assembly; };

/* One (vtable id, bytes, count) cell of a heap shot or allocation bucket. */
struct cell { uint64_t vtable, bytes, count; };

struct shot {
    uint64_t time;           /* HEAP_START time, ns since t0 */
    size_t first, n;         /* cells[first .. first + n) */
};

struct hs_census_mlpd {
    hs_mlpd_group by;
    hs_mlpd_samples samples;
    uint64_t interval;
    /* the GC figures (fig.s) and the vtables (fig.vt), counted by read */
    hs__mlpd_figures fig;

    ptr_map classes, images, methods;
    struct chain *cchain;            /* per class pointer */
    size_t cap_cchain;
    struct class_info *cl;
    size_t ncl, cap_cl;
    struct image_info *im;
    size_t cap_im;
    const char **meth;       /* method names */
    size_t cap_meth;
    hs_arena arena;          /* names */

    struct shot *shots;
    size_t nshots, cap_shots;
    struct cell *cells;      /* shot cells, then allocation buckets */
    size_t ncells, cap_cells;
    bool shot_open;
    bool cut_shot;           /* the last of shots[] has no HEAP_END: the
                              * file ends inside it (load_mlpd.c) */
    ptr_map shot_vt;         /* vtable -> cell in the open shot */

    hs_intern sites;         /* key: vtable, then frames (u64 each) */
    uint32_t recent_site[256]; /* site index + 1 by a cheap hash of its
                              * key (load_mlpd.c), 0 = none */
    uint64_t *site_bytes, *site_count;
    size_t cap_site_bytes, cap_site_count;
    hs_intern buckets;       /* key: {bucket, vtable} */
    uint64_t *bucket_bytes, *bucket_count;
    size_t cap_buckets, cap_bucket_count;
};

/* The reading state of a load, shared by load_mlpd.c (the event loop)
 * and load_mlpd_names.c (naming). */
struct loader {
    hs_census *c;
    struct hs_census_mlpd *m;
    const hs_allocator *a;
    uint64_t events;
    /* Per thread, the stack of methods entered and not yet left, from
     * METHOD_ENTER/LEAVE events (the profiler's `calls` mode, whose
     * allocations carry no backtrace). */
    ptr_map threads;
    struct calls { uint64_t *m; size_t n, cap; } *calls;
    size_t cap_calls;
    struct mlpd_cpu *cpu;    /* CPU samples (load_mlpd_sample.c) */
    hs__mlpd_allocs *run;    /* ALLOCs from the reader in runs */
    /* The sites of a run's backtraces by (the reader's backtrace id,
     * vtable id), the id picking the entry (load_mlpd.c); bt 0 is an
     * empty entry. */
    struct bt_site { uint32_t bt, vid, site; } *bt_site;
};

/* load_mlpd_names.c. lookup: the index of pointer p in map m, with its
 * info array (*arr, elements of `size` bytes) grown and zeroed to match.
 * keep: s copied into the extension's arena (NULL: out of memory, or s NULL).
 * on_metadata and on_jit: names from METADATA and METHOD_JIT events. The
 * int ones return HS_OK or HS_ERR_NOMEM. */
int hs__mlpd_lookup(struct loader *l, ptr_map *m, uint64_t p, void **arr,
                    size_t *cap, size_t size, uint32_t *idx, bool *added);
const char *hs__mlpd_keep(struct loader *l, const char *s);
int hs__mlpd_on_metadata(struct loader *l, const hs_mlpd_event *ev);
int hs__mlpd_on_jit(struct loader *l, const hs_mlpd_event *ev);


/* load_mlpd_out.c: turns what was read into samples, lines and the
 * allocation profile; t0 is the first buffer's time. */
int hs__mlpd_build(hs_census *c, struct hs_census_mlpd *m);

/* load_mlpd_out.c: the name of method pointer p ("unknown method 0x..."
 * when the file never named it, as mprof-report says); NULL when out of
 * memory. */
const char *hs__mlpd_method_name(struct hs_census_mlpd *m, uint64_t p);

/* load_mlpd_sample.c: CPU samples. on_code: a METHOD_JIT's code range;
 * on_sample: a SAMPLE_HIT or SAMPLE_USYM; build_cpu: the hits, resolved,
 * into the census's time profile (args: the profiler's options, for the
 * sampling period); cpu_free: the state, after the load. */
int hs__mlpd_on_code(struct loader *l, const hs_mlpd_event *ev);
int hs__mlpd_on_sample(struct loader *l, const hs_mlpd_event *ev);
int hs__mlpd_build_cpu(struct loader *l, const char *args);
void hs__mlpd_cpu_free(struct loader *l);

/* load_mlpd_out.c: gives the census the profile's label m's options make
 * ("Mono heap shots, by class", ...). */
void hs__mlpd_label(hs_census *c, const struct hs_census_mlpd *m);

/* load_mlpd.c: loads an .mlpd (plain or gzip) from pre[0 .. npre), bytes
 * already taken from the input, then from in to its end, and finishes. */
struct hs_input;
int hs__census_load_mlpd(hs_census *c, struct hs_input *in,
                         const uint8_t *pre, size_t npre, hs_error *err);

#endif
