/*
 * A run of ALLOC events handed from the .mlpd reader to whoever counts
 * them (the figures, mlpd_figures.c, then the census loader) as compact
 * records, without an hs_mlpd_event each: nearly every event of a file
 * written with `alloc` is one. The reader fills a run only with ALLOCs its
 * fast path decodes (read_mlpd_events.c), all from one buffer, in file
 * order; any other event, and any ALLOC the fast path leaves alone, comes
 * one at a time from hs_mlpd_reader_next(), so messages, offsets and
 * indices are the general path's. Not part of the public surface.
 */
#ifndef HEAPSCOPE_READ_MLPD_ALLOCS_H
#define HEAPSCOPE_READ_MLPD_ALLOCS_H

#include "heapscope/mlpd.h"

#include <stdbool.h>
#include <stdint.h>

/* The most ALLOCs, and frames, of one run. */
#define HS__MLPD_RUN 128
#define HS__MLPD_RUN_FRAMES 2048

typedef struct hs__mlpd_alloc {
    uint64_t vtable;    /* the pointer, as ev->u.alloc.vtable */
    uint64_t size, time;
    uint32_t frame0;    /* its frames: run->frames[frame0 .. + nframes) */
    uint32_t nframes;
    uint32_t bt;        /* 0, or an id the reader gives these frames: the
                           same id, the same frames, in the whole file */
    bool has_bt;        /* the event byte was 0x10 */
} hs__mlpd_alloc;

typedef struct hs__mlpd_allocs {
    size_t n;                           /* records in a[] */
    uint64_t thread;                    /* the buffer's thread */
    uint32_t vid[HS__MLPD_RUN];         /* per record: its vtable id, set
                                           by hs__mlpd_figures_allocs() */
    hs__mlpd_alloc a[HS__MLPD_RUN];
    uint64_t frames[HS__MLPD_RUN_FRAMES];
} hs__mlpd_allocs;

/* The status of hs__mlpd_reader_next_allocs() for a run in *run. */
#define HS__MLPD_ALLOCS 100

/*
 * As hs_mlpd_reader_next(), except that where the next events are ALLOCs
 * the fast path takes, it may give a run of them (at least one) in *run
 * and return HS__MLPD_ALLOCS. With hs__mlpd_general_only set it never
 * does.
 */
int hs__mlpd_reader_next_allocs(hs_mlpd_reader *r, hs_mlpd_event *ev,
                                hs__mlpd_allocs *run);

#endif
