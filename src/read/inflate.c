/*
 * Gzip inflation for the .mlpd reader: ISA-L's isal_inflate when the build
 * has it (HS_HAVE_ISAL), zlib's inflate otherwise. Both take a gzip member
 * with its header and checked trailer, keep no more than their window, and
 * allocate through the reader's allocator (ISA-L's state is one block).
 */
#include "read/inflate.h"

#include <string.h>

#if HS_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#else
#include <zlib.h>
#endif

struct hs_inflater {
    const hs_allocator *alloc;
    uint64_t total_in;
#if HS_HAVE_ISAL
    struct inflate_state s;
    struct inflate_state before; /* s as the current call found it */
#else
    z_stream s;
#endif
};

uint64_t hs__inflater_total_in(const hs_inflater *z)
{
    return z->total_in;
}

#if HS_HAVE_ISAL

const char *hs__inflater_engine(void)
{
    return "isa-l";
}

hs_inflater *hs__inflater_new(const hs_allocator *alloc)
{
    hs_inflater *z = hs_malloc(alloc, sizeof *z);
    if (!z)
        return NULL;
    z->alloc = alloc;
    z->total_in = 0;
    isal_inflate_init(&z->s);
    z->s.crc_flag = ISAL_GZIP;
    return z;
}

void hs__inflater_free(hs_inflater *z)
{
    if (z)
        hs_free(z->alloc, z);
}

bool hs__inflater_next_member(hs_inflater *z)
{
    isal_inflate_reset(&z->s);
    z->s.crc_flag = ISAL_GZIP;
    return true;
}

/* ISA-L's errors in zlib's words, which the reader's messages used first. */
static const char *isal_message(int rc)
{
    switch (rc) {
    case ISAL_INVALID_BLOCK: return "invalid block type";
    case ISAL_INVALID_SYMBOL: return "invalid code";
    case ISAL_INVALID_LOOKBACK: return "invalid distance too far back";
    case ISAL_INVALID_WRAPPER: return "incorrect header check";
    case ISAL_UNSUPPORTED_METHOD: return "unknown compression method";
    case ISAL_INCORRECT_CHECKSUM: return "incorrect data check";
    default: return "inflate failed";
    }
}

/* One isal_inflate call; its return code. */
static int isal_step(hs_inflater *z, const uint8_t *in, uint32_t avail,
                     uint8_t *out, uint32_t room, size_t *in_used,
                     size_t *out_got)
{
    z->s.next_in = (uint8_t *)in;
    z->s.avail_in = avail;
    z->s.next_out = out;
    z->s.avail_out = room;
    int rc = isal_inflate(&z->s);
    *in_used = avail - z->s.avail_in;
    *out_got = room - z->s.avail_out;
    return rc;
}

/*
 * ISA-L's fast loop may write a few bytes past the symbol it then finds
 * corrupt (bytes zlib never gives, and which differ with how the input
 * was cut). Given its input a byte at a time it stops at the bad symbol,
 * as zlib does. So a call with a few bytes of input goes a byte at a
 * time; a larger one runs whole from a saved state (the state holds no
 * pointer into itself) and, on an error, is taken back and its input
 * given again a byte at a time: what comes before a corruption is then
 * the same however the stream arrives.
 */
#define BYTEWISE_BELOW 64 /* ~64 small calls cost one copy of the state */

static int bytewise(hs_inflater *z, const uint8_t *in, size_t avail,
                    size_t *in_used, uint8_t *out, size_t room,
                    size_t *out_got, const char **msg)
{
    size_t used = 0, got = 0;
    int rc = ISAL_DECOMP_OK;
    while (used < avail && got < room &&
           z->s.block_state != ISAL_BLOCK_FINISH) {
        size_t u, g;
        rc = isal_step(z, in + used, 1, out + got, (uint32_t)(room - got),
                       &u, &g);
        used += u;
        got += g;
        if (rc < 0 || (!u && !g))
            break;
    }
    /* with no input left, output the state holds back still comes */
    if (rc >= 0 && used == avail && got < room &&
        z->s.block_state != ISAL_BLOCK_FINISH) {
        size_t u, g;
        rc = isal_step(z, in + used, 0, out + got, (uint32_t)(room - got),
                       &u, &g);
        got += g;
    }
    *in_used = used;
    *out_got = got;
    z->total_in += used;
    if (rc < 0) {
        *msg = isal_message(rc);
        return HS_INF_CORRUPT;
    }
    return z->s.block_state == ISAL_BLOCK_FINISH ? HS_INF_END : HS_INF_OK;
}

int hs__inflater_run(hs_inflater *z, const uint8_t *in, size_t in_len,
                     size_t *in_used, uint8_t *out, size_t out_cap,
                     size_t *out_got, const char **msg)
{
    uint32_t avail = in_len > UINT32_MAX ? UINT32_MAX : (uint32_t)in_len;
    uint32_t room = out_cap > UINT32_MAX ? UINT32_MAX : (uint32_t)out_cap;
    if (avail < BYTEWISE_BELOW)
        return bytewise(z, in, avail, in_used, out, room, out_got, msg);
    memcpy(&z->before, &z->s, sizeof z->s);
    int rc = isal_step(z, in, avail, out, room, in_used, out_got);
    if (rc < 0) {
        memcpy(&z->s, &z->before, sizeof z->s);
        return bytewise(z, in, avail, in_used, out, room, out_got, msg);
    }
    z->total_in += *in_used;
    return z->s.block_state == ISAL_BLOCK_FINISH ? HS_INF_END : HS_INF_OK;
}

#else /* zlib */

const char *hs__inflater_engine(void)
{
    return "zlib";
}

/* zlib allocates through the reader's allocator too. */
static voidpf z_alloc(voidpf opaque, uInt items, uInt size)
{
    return hs_calloc(opaque, items, size);
}

static void z_free(voidpf opaque, voidpf p)
{
    hs_free(opaque, p);
}

hs_inflater *hs__inflater_new(const hs_allocator *alloc)
{
    hs_inflater *z = hs_malloc(alloc, sizeof *z);
    if (!z)
        return NULL;
    memset(z, 0, sizeof *z);
    z->alloc = alloc;
    /* hs_calloc takes a NULL allocator for the C library's. */
    z->s.zalloc = z_alloc;
    z->s.zfree = z_free;
    z->s.opaque = (voidpf)alloc;
    if (inflateInit2(&z->s, 16 + MAX_WBITS) != Z_OK) {
        hs_free(alloc, z);
        return NULL;
    }
    return z;
}

void hs__inflater_free(hs_inflater *z)
{
    if (!z)
        return;
    inflateEnd(&z->s);
    hs_free(z->alloc, z);
}

bool hs__inflater_next_member(hs_inflater *z)
{
    return inflateReset(&z->s) == Z_OK;
}

int hs__inflater_run(hs_inflater *z, const uint8_t *in, size_t in_len,
                     size_t *in_used, uint8_t *out, size_t out_cap,
                     size_t *out_got, const char **msg)
{
    uInt avail = in_len > UINT32_MAX ? UINT32_MAX : (uInt)in_len;
    uInt room = out_cap > UINT32_MAX ? UINT32_MAX : (uInt)out_cap;
    z->s.next_in = (Bytef *)in;
    z->s.avail_in = avail;
    z->s.next_out = out;
    z->s.avail_out = room;
    int zs = inflate(&z->s, Z_NO_FLUSH);
    *in_used = avail - z->s.avail_in;
    *out_got = room - z->s.avail_out;
    z->total_in += *in_used;
    switch (zs) {
    case Z_STREAM_END:
        return HS_INF_END;
    case Z_OK:
    case Z_BUF_ERROR: /* no progress possible: input or room wanted */
        return HS_INF_OK;
    case Z_MEM_ERROR:
        return HS_INF_NOMEM;
    default:
        *msg = z->s.msg ? z->s.msg : "inflate failed";
        return HS_INF_CORRUPT;
    }
}

#endif
