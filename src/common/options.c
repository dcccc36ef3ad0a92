/*
 * Options structs that grow (docs/ARCHITECTURE.md, "The ABI"): each public
 * options struct starts with `size_t size`, the struct's size as the
 * caller's header declared it. hs_NOUN_options_init() is an inline function
 * of the header that passes sizeof to the library's _init_size, so a
 * caller built against an older header has its shorter struct filled and
 * read only as far as it reaches; the library takes its own defaults for
 * the rest.
 */
#include "internal.h"

void hs__options_fill(void *dst, size_t size, const void *def,
                      size_t def_size)
{
    if (!dst || size < sizeof(size_t))
        return;
    size_t n = size < def_size ? size : def_size;
    memcpy(dst, def, n);
    if (size > n)
        memset((char *)dst + n, 0, size - n);
    memcpy(dst, &size, sizeof size);
}

int hs__options_take(void *dst, size_t dst_size, const void *src)
{
    if (!src)
        return HS_OK;
    size_t size;
    memcpy(&size, src, sizeof size);
    if (size < sizeof(size_t))
        return HS_ERR_INVALID; /* not set up by hs_NOUN_options_init */
    const unsigned char *s = src;
    /* Bytes past what this build knows come from a newer header: they
     * must be the defaults (zero) of fields this library cannot honour. */
    for (size_t i = dst_size; i < size; i++)
        if (s[i])
            return HS_ERR_INVALID;
    size_t n = size < dst_size ? size : dst_size;
    memcpy((char *)dst + sizeof size, s + sizeof size, n - sizeof size);
    memcpy(dst, &dst_size, sizeof dst_size);
    return HS_OK;
}
