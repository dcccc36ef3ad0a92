/*
 * hs_mlpd_read_fd_count(): the events of an .mlpd counted per event byte,
 * without decoding them. The reader frames the file as it always does
 * (header, buffer headers, staging, gzip); inside a buffer's payload a
 * walker steps over every event it can vouch for: a row of the event table
 * (heapscope/mlpd_events.h) whose fields are all LEB128 values, bytes,
 * strings or arrays of LEB128 values, each value at most nine bytes, lying
 * whole in the bytes at hand. Such an event is one the decoder reads
 * without a problem and at the same length, so it is counted and passed.
 * At anything else (an unknown byte, a field that depends on another's
 * value, a ten-byte value, an event running past the bytes at hand) the
 * walker stops and hs_mlpd_reader_next() takes that event, so that
 * staging, warnings, skipped buffers, messages and offsets are the
 * general path's own; the walker then goes on after it.
 *
 * Whether an event is readable and how long it is depend on its bytes
 * alone, never on the buffer's running time or method, which is what lets
 * the general path take over at any event. Those running values are not
 * kept by the walker: counting is for the whole input.
 */
#include "read/read_mlpd.h"

#include <stdbool.h>
#include <string.h>

#if defined(__GNUC__)
#define MLPD_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define MLPD_ALWAYS_INLINE inline
#endif

/* What a field takes: the table's kinds reduced to the steps of a walk.
 * 0 (a row that is not in the table, or a field the walker does not
 * take) stops the walk at the event. */
enum {
    OP_STOP = 0,
    OP_END,   /* the event ends after the LEB128 values pending */
    OP_LEB,   /* one LEB128 value */
    OP_U8,    /* one byte */
    OP_STR,   /* NUL-terminated */
    OP_ARR1,  /* a count, then count values (BT, FRAMES, one column) */
    OP_ARR2   /* a count, then count pairs of values */
};

#define OP_ULEB OP_LEB,
#define OP_PTR OP_LEB,
#define OP_OBJ OP_LEB,
#define OP_METHOD OP_LEB,
#define OP_U8_ OP_U8,
#define OP_STR_ OP_STR,
#define OP_CONST
#define OP_SELECT OP_STOP, /* its value must be checked */
#define OP_BT OP_ARR1,
#define OP_FRAMES OP_ARR1,
#define COL_ONE(m, K, cn, p, a, wf, W, wv) +1
#define OP_COLS(a) OP_ARR1 - 1 + (0 a(COL_ONE, m)),
#define OP_RECS OP_STOP,

#define OPK_ULEB(a) OP_ULEB
#define OPK_PTR(a) OP_PTR
#define OPK_OBJ(a) OP_OBJ
#define OPK_METHOD(a) OP_METHOD
#define OPK_U8(a) OP_U8_
#define OPK_STR(a) OP_STR_
#define OPK_CONST(a) OP_CONST
#define OPK_SELECT(a) OP_SELECT
#define OPK_BT(a) OP_BT
#define OPK_FRAMES(a) OP_FRAMES
#define OPK_COLUMNS(a) OP_COLS(a)
#define OPK_PAIRS(a) OP_COLS(a)
#define OPK_RECORDS(a) OP_RECS
#define OPK_RECORDS_0(a) OP_RECS

/* A field present only by another field's value stops the walk. */
#define OPW_ALL(x) x
#define OPW_IN(x) OP_STOP,
#define OPW_EQ(x) OP_STOP,
#define OP_FIELD(m, K, cn, p, a, wf, W, wv) OPW_##W(OPK_##K(a))

#define MAX_OPS 12
#define ROW_OPS(byte, KIND, m, FIELDS) [byte] = {FIELDS(OP_FIELD, m) OP_END},
static const uint8_t ops[256][MAX_OPS] = {HS_MLPD_EVENT_TABLE(ROW_OPS)};

#define HIGH_BITS 0x8080808080808080ull

static inline uint64_t load_le64(const uint8_t *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

/*
 * Past k LEB128 values from p, NULL when they do not all end before `end`
 * or one is ten bytes or longer (nine continuation bytes in a row: the
 * decoder may take it, the walker leaves it to the decoder). `run` is the
 * continuation bytes of the value at p already passed. Eight bytes at a
 * time: a value ends at a byte whose high bit is clear.
 */
static const uint8_t *skip_lebs(const uint8_t *p, const uint8_t *end,
                                size_t k)
{
    unsigned run = 0;
    while (k && end - p >= 8) {
        uint64_t m = ~load_le64(p) & HIGH_BITS; /* the values' last bytes */
        if (!m) {
            if ((run += 8) >= 9)
                return NULL;
            p += 8;
            continue;
        }
        if (run + ((unsigned)__builtin_ctzll(m) >> 3) >= 9)
            return NULL;
        /* the ends in this word: one bit per byte, summed by a multiply */
        size_t ends = (size_t)(((m >> 7) * 0x0101010101010101ull) >> 56);
        if (ends >= k) {
            while (--k)
                m &= m - 1;
            return p + ((unsigned)__builtin_ctzll(m) >> 3) + 1;
        }
        k -= ends;
        run = (unsigned)__builtin_clzll(m) >> 3;
        p += 8;
    }
    for (; k; p++) {
        if (p >= end)
            return NULL;
        if (!(*p & 0x80)) {
            run = 0;
            k--;
        } else if (++run >= 9) {
            return NULL;
        }
    }
    return p;
}

/* A count (a uleb128 of at most nine bytes) at *pp, moved past it;
 * SIZE_MAX when it is longer or does not end before `end`. */
static size_t get_count(const uint8_t **pp, const uint8_t *end)
{
    const uint8_t *p = *pp;
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 63 && p < end; shift += 7) {
        uint8_t b = *p++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *pp = p;
            /* more elements than bytes left: the decoder's to judge */
            return v <= (uint64_t)(end - p) ? (size_t)v : SIZE_MAX;
        }
    }
    return SIZE_MAX;
}

/* Past the event at p (its byte, the time delta, its fields), or NULL when
 * the walker does not vouch for it. */
static const uint8_t *skip_event(const uint8_t *p, const uint8_t *end)
{
    const uint8_t *op = ops[*p++];
    size_t k = 1; /* LEB128 values pending: the time delta */
    for (;; op++) {
        switch (*op) {
        case OP_LEB:
            k++;
            continue;
        case OP_END:
            return skip_lebs(p, end, k);
        case OP_STOP:
            return NULL;
        default:
            break;
        }
        if (!(p = skip_lebs(p, end, k)))
            return NULL;
        k = 0;
        if (*op == OP_U8) {
            if (p == end)
                return NULL;
            p++;
        } else if (*op == OP_STR) {
            const uint8_t *nul = p < end ? memchr(p, 0, (size_t)(end - p))
                                         : NULL;
            if (!nul)
                return NULL;
            p = nul + 1;
        } else {
            size_t n = get_count(&p, end);
            if (n == SIZE_MAX)
                return NULL;
            k = *op == OP_ARR2 ? 2 * n : n;
        }
    }
}

/*
 * The rows that are LEB128 values alone, the last of them perhaps a count
 * of values that follow (ALLOC with its backtrace: nearly every event of
 * an allocation profile), by their event byte: `units` values up to the
 * count or the end, the event byte below 0x80 counted as one, and `cols`
 * values per element of the count (0: no count). units 0: not such a row.
 */
typedef struct shape { uint8_t units, cols; } shape;

typedef struct count_ctx {
    uint64_t *counts;
    bool fast;          /* the processor has BMI2 */
    shape shapes[256];
} count_ctx;

static void shapes_init(shape *shapes)
{
    for (unsigned b = 0; b < 256; b++) {
        const uint8_t *op = ops[b];
        unsigned units = 2; /* the event byte and the time delta */
        while (*op == OP_LEB)
            op++, units++;
        uint8_t cols = *op == OP_ARR1 ? 1 : *op == OP_ARR2 ? 2 : 0;
        if (cols)
            op++;
        bool ok = b < 0x80 && *op == OP_END;
        shapes[b] = (shape){ok ? (uint8_t)units : 0, cols};
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define FAST_WALK 1
#define FAST_TARGET __attribute__((target("bmi2")))

/*
 * Past the event at p when it has a shape and lies whole in the 64 bytes
 * from p (the caller sees that they are there), else NULL. A bit per byte
 * that ends a value; the j-th value ends at the j-th set bit (pdep).
 */
static FAST_TARGET inline const uint8_t *fast_event(const uint8_t *p,
                                                    shape s)
{
    if (!s.units)
        return NULL;
    uint64_t cont = 0; /* the bytes whose high bit is set */
    for (unsigned i = 0; i < 4; i++)
        cont |= (uint64_t)(uint16_t)_mm_movemask_epi8(
                    _mm_loadu_si128((const __m128i *)(p + 16 * i))) << 16 * i;
    uint64_t ends = ~cont;
    unsigned need = s.units;
    if (s.cols) {
        uint64_t at = _pdep_u64(1ull << (need - 1), ends);
        if (!at || at >> 63)
            return NULL; /* the count is not in the 64 bytes */
        uint8_t n = p[__builtin_ctzll(at) + 1];
        if (n & 0x80)
            return NULL;
        need += 1 + n * s.cols;
        if (need > 64)
            return NULL;
    }
    uint64_t last = _pdep_u64(1ull << (need - 1), ends);
    if (!last)
        return NULL;
    /* nine continuation bytes in a row: a value of ten bytes or more */
    uint64_t run = cont & cont >> 1;
    run &= run >> 2;
    run &= run >> 4;
    run &= cont >> 8;
    if (run & ((last << 1) - 1))
        return NULL;
    return p + __builtin_ctzll(last) + 1;
}
#endif

/* Counts the events at the reader's place in its buffer that the walker
 * vouches for and moves the reader past them, as hs_mlpd_reader_next()
 * would have. */
static MLPD_ALWAYS_INLINE void walk_with(hs_mlpd_reader *r, count_ctx *cx,
                                         bool fast)
{
    const uint8_t *start = r->pay + r->pay_pos, *p = start;
    const uint8_t *end = r->pay + r->pay_avail;
    uint64_t n = 0, *counts = cx->counts;
    while (p < end) {
        const uint8_t *next = NULL;
#ifdef FAST_WALK
        if (fast && end - p >= 64)
            next = fast_event(p, cx->shapes[*p]);
#else
        (void)fast;
#endif
        if (!next && !(next = skip_event(p, end)))
            break;
        counts[*p]++;
        n++;
        p = next;
    }
    r->pay_pos += (size_t)(p - start);
    r->index += n;
}

static HS_NOINLINE void walk(hs_mlpd_reader *r, count_ctx *cx)
{
    walk_with(r, cx, false);
}

#ifdef FAST_WALK
static HS_NOINLINE FAST_TARGET void walk_fast(hs_mlpd_reader *r,
                                              count_ctx *cx)
{
    walk_with(r, cx, true);
}
#endif

/* Counts every event of the chunk fed. Returns HS_NEED_INPUT to go on or
 * an error. */
static int count_chunk(hs_mlpd_reader *r, void *user)
{
    count_ctx *cx = user;
    for (;;) {
        /* (a staged event over 64 KiB waits for its bytes to double) */
        if (r->state == ST_PAYLOAD && r->pay_avail >= r->pay_want) {
#ifdef FAST_WALK
            if (cx->fast)
                walk_fast(r, cx);
            else
#endif
                walk(r, cx);
        }
        hs_mlpd_event ev;
        int st = hs_mlpd_reader_next(r, &ev);
        if (st != HS_EVENT)
            return st;
        if (ev.kind != HS_MLPD_BUFFER)
            cx->counts[ev.byte]++;
    }
}

bool hs__mlpd_count_portable;

int hs_mlpd_read_fd_count(hs_mlpd_reader *r, int fd, uint64_t *counts)
{
    count_ctx *cx = hs_malloc(r->alloc, sizeof *cx);
    if (!cx)
        return hs__mlpd_fail(r, HS_ERR_NOMEM, r->consumed, "out of memory");
    cx->counts = counts;
#ifdef FAST_WALK
    cx->fast = !hs__mlpd_count_portable && __builtin_cpu_supports("bmi2");
#else
    cx->fast = false;
#endif
    shapes_init(cx->shapes);
    int st = hs__mlpd_read_fd_with(r, fd, count_chunk, cx);
    hs_free(r->alloc, cx);
    return st;
}
