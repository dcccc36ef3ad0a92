/*
 * Reading the primitive values of an .mlpd buffer at a cursor: LEB128
 * integers, bytes, NUL-terminated strings and element counts. Each sets
 * the cursor's status on its first problem (CUR_SHORT when the bytes ran
 * out, CUR_BAD with c->what for a malformed value) and then returns 0 or
 * NULL, so a decoder reads a whole event and checks once at its end.
 * Internal to the .mlpd reader (read_mlpd_events.c).
 */
#ifndef HEAPSCOPE_READ_MLPD_CURSOR_H
#define HEAPSCOPE_READ_MLPD_CURSOR_H

#include "read/read_mlpd.h"

#include <stdbool.h>
#include <string.h>

/* The fast paths are inlined into every field of the decoder's one large
 * generated function, where the compiler's budget alone would not. */
#if defined(__GNUC__)
#define MLPD_INLINE inline __attribute__((always_inline))
#else
#define MLPD_INLINE inline
#endif

static inline uint64_t get_uleb_slow(mlpd_cursor *c)
{
    uint64_t v = 0;
    for (unsigned shift = 0;; shift += 7) {
        if (c->p >= c->end) {
            if (c->status == CUR_OK)
                c->status = CUR_SHORT;
            return 0;
        }
        uint8_t b = *c->p++;
        /* The tenth byte may only carry bit 63. */
        if (shift == 63 && (b & 0x7e)) {
            c->status = CUR_BAD;
            c->what = "a LEB128 value beyond 64 bits";
            return 0;
        }
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return v;
        if (shift == 63) {
            c->status = CUR_BAD;
            c->what = "a LEB128 value longer than 10 bytes";
            return 0;
        }
    }
}

static inline int64_t get_sleb_slow(mlpd_cursor *c)
{
    uint64_t v = 0;
    unsigned shift = 0;
    uint8_t b;
    do {
        if (c->p >= c->end) {
            if (c->status == CUR_OK)
                c->status = CUR_SHORT;
            return 0;
        }
        if (shift > 63) {
            c->status = CUR_BAD;
            c->what = "a LEB128 value longer than 10 bytes";
            return 0;
        }
        b = *c->p++;
        v |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
    } while (b & 0x80);
    if (shift < 64 && (b & 0x40))
        v |= ~(uint64_t)0 << shift;
    return (int64_t)v;
}

/*
 * LEB128 values are most of an .mlpd's bytes (backtrace frames are one
 * signed delta each). With ten bytes ahead, the longest legal value, a
 * value of up to nine bytes is read without a bounds check per byte;
 * anything else (the buffer's last bytes, a tenth byte, a malformed
 * value) takes the checked path above, which gives the same value or
 * the same error.
 */
/* The longest value read without a check per byte. */
#define LEB_UNCHECKED_MAX 9

/* One byte of leb_unchecked at shift k, written out: constant shifts
 * and no loop counter for the values of up to three bytes that are most
 * of a file (backtrace frames are deltas of two or three bytes). */
#define LEB_BYTE(k) \
    do { \
        uint8_t b_ = p[(k) / 7]; \
        x |= (uint64_t)(b_ & 0x7f) << (k); \
        if (!(b_ & 0x80)) { \
            *pp = p + (k) / 7 + 1; \
            *v = x; \
            *last = b_; \
            *bits = (k) + 7; \
            return true; \
        } \
    } while (0)

/* A value of at most LEB_UNCHECKED_MAX bytes at *pp, which the caller
 * knows are there; false (*pp unmoved) for a longer one. */
static MLPD_INLINE bool leb_unchecked(const uint8_t **pp, uint64_t *v,
                                     uint8_t *last, unsigned *bits)
{
    const uint8_t *p = *pp;
    uint64_t x = 0;
    LEB_BYTE(0);
    LEB_BYTE(7);
    LEB_BYTE(14);
    p += 3;
    for (unsigned shift = 21; shift < 63; shift += 7) {
        uint8_t b = *p++;
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *pp = p;
            *v = x;
            *last = b;
            *bits = shift + 7;
            return true;
        }
    }
    return false;
}

/* The signed value of leb_unchecked's result: the sign fills the bits
 * above the value's (bits <= 63). */
static MLPD_INLINE uint64_t leb_sign(uint64_t v, uint8_t last, unsigned bits)
{
    return last & 0x40 ? v | ~(uint64_t)0 << bits : v;
}

static MLPD_INLINE bool get_leb_fast(mlpd_cursor *c, uint64_t *v, uint8_t *last,
                                unsigned *bits)
{
    if (c->end - c->p < LEB_UNCHECKED_MAX + 1)
        return false;
    return leb_unchecked(&c->p, v, last, bits);
}

static MLPD_INLINE uint64_t get_uleb(mlpd_cursor *c)
{
    uint64_t v;
    uint8_t last;
    unsigned bits;
    return get_leb_fast(c, &v, &last, &bits) ? v : get_uleb_slow(c);
}

static MLPD_INLINE int64_t get_sleb(mlpd_cursor *c)
{
    uint64_t v;
    uint8_t last;
    unsigned bits;
    if (!get_leb_fast(c, &v, &last, &bits))
        return get_sleb_slow(c);
    return (int64_t)leb_sign(v, last, bits);
}

static MLPD_INLINE uint8_t get_byte(mlpd_cursor *c)
{
    if (c->p >= c->end) {
        if (c->status == CUR_OK)
            c->status = CUR_SHORT;
        return 0;
    }
    return *c->p++;
}

/* A NUL-terminated string in place; NULL when it runs past the bytes. */
static inline const char *get_str(mlpd_cursor *c)
{
    const uint8_t *nul = c->p < c->end ? memchr(c->p, 0, (size_t)(c->end - c->p))
                                       : NULL;
    if (!nul) {
        if (c->status == CUR_OK)
            c->status = CUR_SHORT;
        c->p = c->end;
        return NULL;
    }
    const char *s = (const char *)c->p;
    c->p = nul + 1;
    return s;
}

static inline void bad(mlpd_cursor *c, const char *what)
{
    if (c->status == CUR_OK) {
        c->status = CUR_BAD;
        c->what = what;
    }
}

/*
 * A count of elements of at least one byte each: more than the bytes left
 * cannot fit, which is a short read (the rest may still arrive) or, at the
 * buffer's end, a bad value; the caller's status check tells which.
 */
static inline size_t get_count(mlpd_cursor *c)
{
    uint64_t n = get_uleb(c);
    if (c->status != CUR_OK)
        return 0;
    if (n > (uint64_t)(c->end - c->p)) {
        c->status = CUR_SHORT;
        c->p = c->end;
        return 0;
    }
    return (size_t)n;
}

#endif
