/*
 * The pieces of the ALLOC fast path (read_mlpd_events.c) that runs of
 * ALLOCs (read_mlpd_runs.c) share: an ALLOC's values read with its room
 * checked once, LEB_UNCHECKED_MAX bytes a value. Internal to the .mlpd
 * reader.
 */
#ifndef HEAPSCOPE_READ_MLPD_ALLOC_H
#define HEAPSCOPE_READ_MLPD_ALLOC_H

#include "read/read_mlpd_cursor.h"

#define ALLOC_HEAD (1 + 5 * LEB_UNCHECKED_MAX) /* byte, time, 3 fields, count */

static MLPD_INLINE bool uleb_at(const uint8_t **p, uint64_t *v)
{
    uint8_t last;
    unsigned bits;
    return leb_unchecked(p, v, &last, &bits);
}

static MLPD_INLINE bool sleb_at(const uint8_t **p, uint64_t *v)
{
    uint8_t last;
    unsigned bits;
    if (!leb_unchecked(p, v, &last, &bits))
        return false;
    *v = leb_sign(*v, last, bits);
    return true;
}

/* An ALLOC's values as the fast path reads them. */
struct alloc_vals { uint64_t dt, vt, obj, size, n; uint8_t byte; };

/*
 * The ALLOC at p, end its bytes at hand, up to its frames: its values into
 * *a (a->n frames, at most cap, each of whose longest encoding is at hand);
 * where its frames begin, or NULL when the fast path leaves it alone.
 */
static MLPD_INLINE const uint8_t *alloc_head(const uint8_t *p,
                                             const uint8_t *end, size_t cap,
                                             struct alloc_vals *a)
{
    /* the room first: the cursor may be at the end of its bytes */
    if (end - p < ALLOC_HEAD)
        return NULL;
    a->byte = *p++;
    a->n = 0;
    if ((a->byte != 0x00 && a->byte != 0x10) || !uleb_at(&p, &a->dt) ||
        !sleb_at(&p, &a->vt) || !sleb_at(&p, &a->obj) ||
        !uleb_at(&p, &a->size))
        return NULL;
    if (a->byte == 0x10 &&
        (!uleb_at(&p, &a->n) || a->n > cap ||
         a->n > (uint64_t)(end - p) / LEB_UNCHECKED_MAX))
        return NULL;
    return p;
}

/* n frames at p, running deltas from *m, into f (masked); *m advanced
 * over them. The end of the frames, or NULL (*m unchanged). */
static MLPD_INLINE const uint8_t *frames_at(uint64_t mask, const uint8_t *p,
                                            uint64_t n, uint64_t *f,
                                            uint64_t *m)
{
    /* In locals: the stores to f could alias *m. */
    uint64_t mm = *m;
    for (size_t i = 0; i < n; i++) {
        uint64_t delta;
        if (!sleb_at(&p, &delta))
            return NULL;
        mm += delta;
        f[i] = mm & mask;
    }
    *m = mm;
    return p;
}

#endif
