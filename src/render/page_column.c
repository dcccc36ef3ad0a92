/*
 * The page's integer columns (page.h documents the encoding): zigzag
 * deltas in a base-32 varint, runs of equal values as one token, so a
 * band that changes little costs little whatever the number of samples.
 */
#include "render/page_internal.h"

static const char last_digit[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef";
static const char more_digit[] = "ghijklmnopqrstuvwxyz0123456789-_";

static inline bool col_varint(const hs_allocator *a, column *k, uint64_t v)
{
    /* room for the longest token, grown only when short of it (a call
     * per value was a fifth of the page's time on the heap lines) */
    if (k->len + 14 > k->cap &&
        !hs_grow(a, (void **)&k->buf, &k->cap, k->len + 14, 1))
        return false;
    while (v >= 32) {
        k->buf[k->len++] = more_digit[v & 31];
        v >>= 5;
    }
    k->buf[k->len++] = last_digit[v];
    return true;
}

static bool col_flush_zeros(const hs_allocator *a, column *k)
{
    bool ok = true;
    if (k->zrun == 1)
        ok = col_varint(a, k, 0);
    else if (k->zrun > 1)
        ok = col_varint(a, k, 2 * k->zrun + 1);
    k->zrun = 0;
    return ok;
}

bool hs__page_col_put(const hs_allocator *a, column *k, size_t at, uint64_t v)
{
    if (at > k->next) {
        if (k->prev != 0) {
            if (!col_flush_zeros(a, k))
                return false;
            int64_t d = (int64_t)(0 - k->prev);
            if (!col_varint(a, k, 2 * (((uint64_t)d << 1) ^ (uint64_t)(d >> 63))))
                return false;
            k->prev = 0;
            k->zrun = at - k->next - 1;
        } else {
            k->zrun += at - k->next;
        }
    }
    k->next = at + 1;
    if (v == k->prev) {
        k->zrun++;
        return true;
    }
    int64_t d = (int64_t)(v - k->prev);
    k->prev = v;
    return col_flush_zeros(a, k) &&
           col_varint(a, k, 2 * (((uint64_t)d << 1) ^ (uint64_t)(d >> 63)));
}

bool hs__page_col_end(const hs_allocator *a, column *k, size_t n)
{
    if (n > k->next && k->prev != 0 && !hs__page_col_put(a, k, n - 1, 0))
        return false;
    k->zrun = 0; /* a trailing run of equal values is implied */
    return true;
}
