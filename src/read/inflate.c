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
#endif
#include <zlib.h>

struct hs_inflater {
    const hs_allocator *alloc;
    uint64_t total_in;
#if HS_HAVE_ISAL
    struct inflate_state s;
    struct inflate_state before; /* s as the current call found it */
    /* the member's gzip header, read here (see gzip_header) */
    unsigned hstage, hgot, xlen;
    uint8_t flg, fixed[10];
    uint32_t hcrc;
#else
    z_stream s;
#endif
};

uint64_t hs__inflater_total_in(const hs_inflater *z)
{
    return z->total_in;
}

#if HS_HAVE_ISAL

/*
 * The gzip header (RFC 1952) is read here, a byte at a time, and ISA-L
 * given the deflate data and the trailer alone (ISAL_GZIP_NO_HDR_VER):
 * ISA-L 2.30's own header reader checks a header's CRC (FHCRC) only over
 * the bytes of the call, so a header that arrives in pieces failed, and it
 * reads fields of a header struct it leaves uninitialised (valgrind). The
 * rules and words are zlib's, so both engines refuse the same headers.
 */
enum { H_FIXED, H_XLEN, H_EXTRA, H_NAME, H_COMMENT, H_HCRC, H_DONE };
#define FHCRC 0x02
#define FEXTRA 0x04
#define FNAME 0x08
#define FCOMMENT 0x10

/* The stage after `from`, by the flags. */
static unsigned next_stage(const hs_inflater *z, unsigned from)
{
    static const uint8_t flag[] = {0, FEXTRA, FEXTRA, FNAME, FCOMMENT, FHCRC};
    unsigned st = from + 1;
    if (st == H_EXTRA)
        st = z->xlen ? H_EXTRA : H_NAME;
    while (st < H_DONE && !(z->flg & flag[st]))
        st++;
    return st;
}

/* One header byte; a message when the header is refused. */
static const char *header_byte(hs_inflater *z, uint8_t b)
{
    if (z->hstage != H_HCRC)
        z->hcrc = (uint32_t)crc32(z->hcrc, &b, 1);
    switch (z->hstage) {
    case H_FIXED:
        z->fixed[z->hgot++] = b;
        if ((z->hgot == 1 && b != 0x1f) || (z->hgot == 2 && b != 0x8b))
            return "incorrect header check";
        if (z->hgot == 3 && b != 8)
            return "unknown compression method";
        if (z->hgot == 4 && (b & 0xe0))
            return "unknown header flags set";
        if (z->hgot < 10)
            return NULL;
        z->flg = z->fixed[3];
        z->hgot = 0;
        z->xlen = 0;
        z->hstage = next_stage(z, H_FIXED);
        return NULL;
    case H_XLEN:
        z->xlen |= (unsigned)b << (8 * z->hgot++);
        if (z->hgot == 2) {
            z->hgot = 0;
            z->hstage = next_stage(z, H_XLEN);
        }
        return NULL;
    case H_EXTRA:
        if (++z->hgot == z->xlen) {
            z->hgot = 0;
            z->hstage = next_stage(z, H_EXTRA);
        }
        return NULL;
    case H_NAME:
    case H_COMMENT:
        if (!b)
            z->hstage = next_stage(z, z->hstage);
        return NULL;
    case H_HCRC:
        z->fixed[z->hgot++] = b;
        if (z->hgot < 2)
            return NULL;
        if ((z->fixed[0] | (unsigned)z->fixed[1] << 8) != (z->hcrc & 0xffff))
            return "header crc mismatch";
        z->hstage = H_DONE;
        return NULL;
    }
    return NULL;
}

/* Reads header bytes from in; the bytes taken, *msg set on a refusal. */
static size_t gzip_header(hs_inflater *z, const uint8_t *in, size_t len,
                          const char **msg)
{
    size_t i = 0;
    if (z->hstage == H_FIXED && z->hgot == 0)
        z->hcrc = (uint32_t)crc32(0, NULL, 0);
    while (i < len && z->hstage != H_DONE)
        if ((*msg = header_byte(z, in[i++])) != NULL)
            break;
    return i;
}

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
    hs__inflater_next_member(z);
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
    z->s.crc_flag = ISAL_GZIP_NO_HDR_VER;
    z->hstage = H_FIXED;
    z->hgot = 0;
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

/* hs__inflater_run() past the header. */
static int run_deflate(hs_inflater *z, const uint8_t *in, size_t in_len,
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

int hs__inflater_run(hs_inflater *z, const uint8_t *in, size_t in_len,
                     size_t *in_used, uint8_t *out, size_t out_cap,
                     size_t *out_got, const char **msg)
{
    size_t head = 0;
    if (z->hstage != H_DONE) {
        *msg = NULL;
        head = gzip_header(z, in, in_len, msg);
        z->total_in += head;
        if (*msg || z->hstage != H_DONE) {
            *in_used = head;
            *out_got = 0;
            return *msg ? HS_INF_CORRUPT : HS_INF_OK;
        }
        in += head;
        in_len -= head;
    }
    int st = run_deflate(z, in, in_len, in_used, out, out_cap, out_got, msg);
    *in_used += head;
    return st;
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
