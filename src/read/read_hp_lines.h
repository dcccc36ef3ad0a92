/*
 * The scanners of the .hp parser's fast path (read_hp.c's fast_bands):
 * the runtime's band lines, "name<TAB>digits\n", read in place, a word
 * or 64 bytes at a time. Each says 0 for a line it does not take, which
 * the general path then reads the same way (tests/hp_paths.c holds them
 * to it). Inline: they run once a line.
 */
#ifndef HEAPSCOPE_READ_HP_LINES_H
#define HEAPSCOPE_READ_HP_LINES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A line longer than this is not a heap profile. */
#define LINE_MAX_BYTES (16u << 20)

/*
 * The index of the first byte below 0x0b in s[0 .. n) (a TAB, a line break
 * or another control byte), or n: eight bytes at a time where words are
 * little-endian (the lowest flagged byte of the test is always a true one).
 */
static inline size_t first_control(const char *s, size_t n)
{
    size_t i = 0;
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        uint64_t m = (w - 0x0b0b0b0b0b0b0b0bull) & ~w & 0x8080808080808080ull;
        if (m)
            return i + (size_t)(__builtin_ctzll(m) >> 3);
    }
#endif
    for (; i < n; i++)
        if ((unsigned char)s[i] < 0x0b)
            break;
    return i;
}

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define WORD_DIGITS 1
/* The value of the k (1 to 8) decimal digits that begin s (8 bytes
 * readable), eight at a time. */
static inline uint64_t digits_value(const char *s, unsigned k)
{
    uint64_t x;
    memcpy(&x, s, 8);
    x -= 0x3030303030303030ull;
    /* the digits to the top bytes: the bytes below them are leading 0s */
    x <<= 8 * (8 - k);
    x = x * 10 + (x >> 8);
    return ((x & 0x000000ff000000ffull) * (100 + (1000000ull << 32)) +
            ((x >> 16) & 0x000000ff000000ffull) * (1 + (10000ull << 32))) >>
           32;
}

/*
 * The decimal digits that begin s[0 .. 8) (8 bytes readable): their number
 * in *k, 0 to 8, and their value. The lowest byte the test flags is
 * always a true non-digit (a borrow or carry moves upwards only, from a
 * byte that is not a digit).
 */
static inline uint64_t word_digits(const char *s, unsigned *k)
{
    uint64_t w;
    memcpy(&w, s, 8);
    uint64_t x = w - 0x3030303030303030ull;
    uint64_t bad = (x | (x + 0x7676767676767676ull)) & 0x8080808080808080ull;
    *k = bad ? (unsigned)__builtin_ctzll(bad) >> 3 : 8;
    return *k ? digits_value(s, *k) : 0;
}
#endif

/*
 * The runtime's band line, "name<TAB>digits\n" whole in s[0 .. n): the
 * bytes it takes (its line break included) with the name's length in *t
 * and the count in *v, or 0 for any other line (a CR, spaces, a 20-digit
 * count, a cut ...), which the general path then takes and reads the same
 * way.
 */
static inline size_t fast_band(const char *s, size_t n, size_t *tab,
                               uint64_t *val)
{
    size_t t = first_control(s, n);
    if (t == 0 || t >= n || s[t] != '\t' || t > LINE_MAX_BYTES - 21)
        return 0;
    uint64_t v = 0;
    size_t j = t + 1, end = n - j > 20 ? j + 20 : n;
#ifdef WORD_DIGITS
    if (end - j >= 8) {
        unsigned k;
        v = word_digits(s + j, &k);
        j += k;
        if (k < 8)
            end = j;
    }
#endif
    for (; j < end; j++) {
        unsigned d = (unsigned char)s[j] - (unsigned)'0';
        if (d > 9)
            break;
        v = v * 10 + d;
    }
    /* at most 19 digits: 10^19 - 1 fits in 64 bits */
    if (j == t + 1 || j - (t + 1) > 19 || j >= n || s[j] != '\n')
        return 0;
    *tab = t;
    *val = v;
    return j + 1;
}

#if defined(__SSE2__) && defined(WORD_DIGITS)
#include <emmintrin.h>
#define WINDOW 1
/* Bit i set where byte i of the 16 at s is below 0x0b. */
static inline unsigned controls16(const char *s)
{
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)s);
    return (unsigned)_mm_movemask_epi8(
        _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(0x0a)), x));
}

/* Bit i set where byte i of the 16 at s is not a decimal digit. */
static inline unsigned non_digits16(const char *s)
{
    __m128i x = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(const void *)s),
                             _mm_set1_epi8('0'));
    return 0xffffu & ~(unsigned)_mm_movemask_epi8(
                         _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(9)), x));
}

/* The 64 bytes from s[at] as bit masks: the control bytes (below 0x0b)
 * and the bytes that are not digits. A line's TAB and line break are
 * found from them, so finding the next line does not wait for the
 * parse of this one. */
struct window {
    size_t at;
    uint64_t ctrl, nondigit;
};

static inline void window_at(struct window *w, const char *s, size_t at)
{
    /* written out: a loop is left rolled, its shifts by a register */
    const char *b = s + at;
    w->at = at;
    w->ctrl = (uint64_t)controls16(b) | (uint64_t)controls16(b + 16) << 16 |
              (uint64_t)controls16(b + 32) << 32 |
              (uint64_t)controls16(b + 48) << 48;
    w->nondigit = (uint64_t)non_digits16(b) |
                  (uint64_t)non_digits16(b + 16) << 16 |
                  (uint64_t)non_digits16(b + 32) << 32 |
                  (uint64_t)non_digits16(b + 48) << 48;
}

/*
 * fast_band() of the line at s[pos] from the window's masks (moved to pos
 * when the line does not end in it), or 0 where they cannot tell: fewer
 * than 80 bytes left, a line longer than 64 bytes, more than 16 digits,
 * any other line. fast_band() then has the last word.
 */
static inline size_t window_band(struct window *w, const char *s, size_t n,
                                 size_t pos, size_t *tab, uint64_t *val)
{
    if (n - pos < 80)
        return 0;
    size_t off = pos - w->at;
    uint64_t c = off < 64 ? w->ctrl >> off : 0;
    if (!(c & (c - 1))) {
        window_at(w, s, pos);
        off = 0;
        c = w->ctrl;
        if (!(c & (c - 1)))
            return 0;
    }
    /* the line's first two control bytes: its TAB and its line break */
    size_t t = (size_t)__builtin_ctzll(c);
    size_t e = (size_t)__builtin_ctzll(c & (c - 1));
    size_t d = e - t - 1;
    const char *l = s + pos;
    if (t == 0 || l[t] != '\t' || l[e] != '\n' || d == 0 || d > 16 ||
        (w->nondigit >> (off + t + 1) & ((1ull << d) - 1)))
        return 0;
    *tab = t;
    *val = d <= 8 ? digits_value(l + t + 1, (unsigned)d)
                  : digits_value(l + t + 1, (unsigned)d - 8) * 100000000u +
                        digits_value(l + e - 8, 8);
    return e + 1;
}
#endif

#endif
