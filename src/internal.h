/*
 * Helpers shared by the library's source files; not part of the public
 * surface.
 */
#ifndef HEAPSCOPE_INTERNAL_H
#define HEAPSCOPE_INTERNAL_H

#include <stdint.h>

#if defined(__GNUC__)
#define HS_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define HS_PRINTF(fmt, args)
#endif

/* Big-endian loads: the eventlog's byte order on every machine. */
static inline uint16_t hs_be16(const uint8_t *p)
{
    return (uint16_t)((unsigned)p[0] << 8 | p[1]);
}

static inline uint32_t hs_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
           (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t hs_be64(const uint8_t *p)
{
    return (uint64_t)hs_be32(p) << 32 | hs_be32(p + 4);
}

#endif
