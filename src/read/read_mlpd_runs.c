/*
 * Runs of ALLOCs (read/mlpd_allocs.h) decoded by the fast path of
 * read_mlpd_events.c, into compact records, with the backtraces they met
 * lately kept and matched again by their bytes (mlpd_bt, read_mlpd.h).
 */
#include "read/read_mlpd.h"
#include "read/read_mlpd_alloc.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define BT_TRY 256
uint32_t hs__mlpd_bt_rest = 8192;

/*
 * The slot of a backtrace of n frames whose first is at running value
 * first, its later frames' bytes at p, for an ALLOC of vtable pointer
 * vt: from those and the bytes surely the backtrace's (each later frame
 * has one at least). The vtable only picks the slot (a backtrace allocating
 * two classes is kept twice): the first frames are the outermost (the
 * runtime's invoke wrapper, Main, ...), the same for many sites, and
 * where they share their depth too the bytes surely theirs often end
 * before the frames that tell them apart.
 */
static MLPD_INLINE size_t bt_slot(uint64_t first, uint64_t n, uint64_t vt,
                                  const uint8_t *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    if (n - 1 < 8)
        w &= ((uint64_t)1 << (8 * (n - 1))) - 1;
    uint64_t h = (first + vt) * 0x9e3779b97f4a7c15ull ^
                 (w + n) * 0xff51afd7ed558ccdull;
    return (size_t)(h >> 55) & (MLPD_BT_SLOTS - 1);
}

/* The MLPD_BT_BYTES bytes at p begin with e's. */
static MLPD_INLINE bool bt_same(const uint8_t *p, const mlpd_bt *e)
{
#if defined(__SSE2__)
    __m128i a0 = _mm_loadu_si128((const __m128i *)p);
    __m128i a1 = _mm_loadu_si128((const __m128i *)(p + 16));
    __m128i b0 = _mm_loadu_si128((const __m128i *)e->bytes);
    __m128i b1 = _mm_loadu_si128((const __m128i *)(e->bytes + 16));
    uint32_t eq = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a0, b0)) |
                  (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a1, b1)) << 16;
    uint32_t want = (uint32_t)(((uint64_t)1 << e->len) - 1);
    return (~eq & want) == 0;
#else
    return memcmp(p, e->bytes, e->len) == 0;
#endif
}

bool hs__mlpd_decoder_runs(mlpd_decoder *d)
{
    if (!d->bt)
        d->bt = hs_calloc(d->alloc, 1, sizeof *d->bt);
    return d->bt != NULL;
}

/*
 * A backtrace run_frames() did not find: its n frames decoded into f from
 * the first's running value and the bytes at p (the later frames), *m
 * set past them; a slot of its pair (s, s ^ 1), in turn, takes it and
 * *id is its new id (0 when it is not kept). The end of the frames, or
 * NULL (*m unchanged).
 */
static HS_NOINLINE const uint8_t *bt_new(mlpd_decoder *d, size_t s,
                                         const uint8_t *p, size_t n,
                                         uint64_t *f, uint64_t first,
                                         uint64_t *m, uint32_t *id)
{
    uint64_t last = first;
    f[0] = first & d->mask;
    const uint8_t *r = frames_at(d->mask, p, n - 1, f + 1, &last);
    if (!r)
        return NULL;
    *m = last;
    d->bt->missed++;
    size_t len = (size_t)(r - p);
    if (len > MLPD_BT_BYTES || d->bt->next == UINT32_MAX)
        return r;
    mlpd_bts *b = d->bt;
    s = (s & ~(size_t)1) | b->turn[s / 2];
    b->turn[s / 2] ^= 1;
    mlpd_bt *e = &b->slot[s];
    e->first = first;
    e->last = last;
    e->n = (uint8_t)n;
    e->len = (uint8_t)len;
    *id = e->id = ++b->next;
    memcpy(e->bytes, p, MLPD_BT_BYTES);
    memcpy(b->frames[s], f, n * sizeof *f);
    return r;
}

/*
 * The n frames (n >= 1, at most cap) of a run's ALLOC at p, as
 * frames_at(), through the backtraces met lately: a known one is copied,
 * not decoded (use: false decodes every frame). *id: the backtrace's id,
 * 0 when it is not kept.
 */
static MLPD_INLINE const uint8_t *run_frames(mlpd_decoder *d, bool use,
                                             const uint8_t *p,
                                             const uint8_t *end, size_t n,
                                             uint64_t vt, size_t cap,
                                             uint64_t *f,
                                             uint64_t *m, uint32_t *id)
{
    *id = 0;
    if (!use || n > MLPD_BT_FRAMES || cap < MLPD_BT_FRAMES ||
        end - p < LEB_UNCHECKED_MAX + MLPD_BT_BYTES)
        return frames_at(d->mask, p, n, f, m);
    uint64_t delta;
    const uint8_t *q = p;
    if (!sleb_at(&q, &delta))
        return NULL;
    uint64_t first = *m + delta;
    /* Two ways: the sites of one method at one depth called from two
     * places would take turns in one slot. An empty slot's n is 0. */
    size_t s = bt_slot(first, n, vt, q);
    const mlpd_bt *e = &d->bt->slot[s];
    if (!(e->first == first && e->n == n && bt_same(q, e))) {
        e = &d->bt->slot[s ^= 1];
        if (!(e->first == first && e->n == n && bt_same(q, e)))
            return bt_new(d, s, q, n, f, first, m, id);
    }
    memcpy(f, d->bt->frames[s], MLPD_BT_FRAMES * sizeof *f);
    *m = e->last;
    *id = e->id;
    return q + e->len;
}

size_t hs__mlpd_decode_allocs(mlpd_decoder *d, mlpd_cursor *c,
                              hs__mlpd_allocs *run)
{
    const uint8_t *p = c->p;
    uint64_t m = d->method, t = d->time;
    size_t k = 0, used = 0;
    /* A file whose backtraces seldom recur (thousands of sites) would pay
     * for slots filled and never used: after BT_TRY ALLOCs of which more
     * than a quarter missed, the next hs__mlpd_bt_rest decode every
     * frame. */
    mlpd_bts *b = d->bt;
    bool use = b->rest == 0;
    while (k < HS__MLPD_RUN) {
        struct alloc_vals a;
        uint32_t id = 0;
        size_t cap = HS__MLPD_RUN_FRAMES - used;
        const uint8_t *q = alloc_head(p, c->end, cap, &a);
        /* the pointer, not its delta: buffers of other threads have
         * other bases */
        uint64_t vt = q ? (d->ptr_base + a.vt) & d->mask : 0;
        if (q && a.n)
            q = run_frames(d, use, q, c->end, a.n, vt, cap,
                           run->frames + used, &m, &id);
        if (!q)
            break;
        t += a.dt;
        run->a[k++] = (hs__mlpd_alloc){vt, a.size, t, (uint32_t)used,
                                       (uint32_t)a.n, id, a.byte == 0x10};
        used += a.n;
        p = q;
    }
    if (!use) {
        b->rest -= k < b->rest ? (uint32_t)k : b->rest;
    } else if ((b->tried += (uint32_t)k) >= BT_TRY) {
        b->rest = b->missed * 4 > b->tried ? hs__mlpd_bt_rest : 0;
        b->tried = b->missed = 0;
    }
    d->method = m;
    d->time = t;
    c->p = p;
    run->n = k;
    return k;
}
