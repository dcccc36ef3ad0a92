/*
 * The eventlog header: magic numbers and the event-type table, whose
 * declared sizes frame every event that follows.
 */
#include "read/eventlog_internal.h"

#include <stdlib.h>

/*
 * GHC 6.12's runtime wrote thread ids as 64 bits (CREATE_THREAD declared 8
 * bytes; 4 from GHC 7.0 on) and declared STARTUP as 0 bytes although every
 * STARTUP event it wrote carries a u16 capability count. Framed by the
 * declared size, the first event after 'datb' would leave those two bytes
 * behind to be read as the next event's tag. ghc-events tells such a log by
 * the same sign (its ghc6 parsers); here the STARTUP size is corrected and
 * the decoder told to read 64-bit thread ids.
 */
static void ghc612_quirks(hs_reader *r)
{
    uint32_t create = hs__type_info(r, HS_EV_CREATE_THREAD) & TI_SIZE;
    r->wide_tid = create == 8 + 1;
    uint32_t startup = hs__type_info(r, HS_EV_STARTUP);
    if (r->wide_tid && (startup & TI_SIZE) == 0 + 1)
        r->type_info[HS_EV_STARTUP] = (startup & ~TI_SIZE) | (2 + 1);
    hs__reader_apply_flags(r); /* TI_HOT of the sizes and ids as read */
}

static int by_tag(const void *a, const void *b)
{
    const struct hs_type_desc *x = a, *y = b;
    return (x->tag > y->tag) - (x->tag < y->tag);
}

const char *hs__type_desc(const hs_reader *r, uint16_t tag)
{
    if (!r->header_done) { /* still in declaration order */
        for (size_t i = 0; i < r->ndesc; i++)
            if (r->descs[i].tag == tag)
                return r->descs[i].text;
        return NULL;
    }
    struct hs_type_desc key = {tag, NULL};
    const struct hs_type_desc *d =
        r->ndesc ? bsearch(&key, r->descs, r->ndesc, sizeof *r->descs, by_tag)
                 : NULL;
    return d ? d->text : NULL;
}

static int expect_magic(hs_reader *r, uint32_t magic, const char *what,
                        enum state next)
{
    const uint8_t *p = hs__need(r, 4);
    if (!p)
        return HS_NEED_INPUT;
    uint32_t got = hs_be32(p);
    if (got != magic) {
        if (magic == MAGIC_HDRB && r->lead_marker)
            return hs__reader_fail(
                r, HS_ERR_BAD_MAGIC, r->item_off,
                "not a GHC eventlog: the block marker at byte 0 is not "
                "followed by the header magic 'hdrb' (found 0x%08x)",
                got);
        if (magic == MAGIC_HDRB)
            return hs__reader_fail(
                r, HS_ERR_BAD_MAGIC, r->item_off,
                "not a GHC eventlog: it does not start with the "
                "header magic 'hdrb' (found 0x%08x)",
                got);
        return hs__reader_fail(
            r, HS_ERR_BAD_HEADER, r->item_off,
            "malformed eventlog header: expected %s, found 0x%08x", what, got);
    }
    hs__consume(r, 4);
    r->state = next;
    if (next == ST_EVENTS) {
        r->header_done = true;
        ghc612_quirks(r);
        /* once, so that the lookups of `events` are logarithmic; tags
         * are unique, so there are no ties to break */
        if (r->ndesc > 1)
            qsort(r->descs, r->ndesc, sizeof *r->descs, by_tag);
    }
    return HS_OK;
}

/*
 * The start of the stream: 'hdrb', or one block marker and then 'hdrb'.
 * GHC 9.0's endEventLogging leaves an EVENT_BLOCK_MARKER in the global
 * buffer, and startEventLogging sends it ahead of the header; the
 * eventlog-socket library restarts logging for every client but the
 * first, so those streams begin with the marker's 24 bytes (GHC later
 * reset the buffer in postHeaderEvents). Only such a marker at byte 0 is
 * skipped, with a warning (hs_reader_warning); the header must follow it.
 */
static int stream_start(hs_reader *r)
{
    const uint8_t *p = hs__need(r, 4);
    if (!p)
        return HS_NEED_INPUT;
    if (r->item_off == 0 && hs_be16(p) == HS_EV_BLOCK_MARKER) {
        if (!hs__need(r, BLOCK_MARKER_LEN))
            return HS_NEED_INPUT;
        hs__consume(r, BLOCK_MARKER_LEN);
        r->lead_marker = true;
        return HS_OK;
    }
    return expect_magic(r, MAGIC_HDRB, "'hdrb'", ST_HETB);
}

const char *hs_reader_warning(const hs_reader *r)
{
    return r->lead_marker
               ? "bytes 0-23 are a block marker (event type 18) ahead of "
                 "the header, as GHC 9.0 sends it to every eventlog-socket "
                 "client but the first: skipped"
               : NULL;
}

/* Skips (and for descriptions keeps the start of) a header field whose
 * length was read before. */
static int skip_field(hs_reader *r, bool keep, enum state next)
{
    while (r->field_left) {
        size_t avail = r->in_len - r->in_pos;
        if (!avail)
            return HS_NEED_INPUT;
        size_t take = avail < r->field_left ? avail : (size_t)r->field_left;
        if (keep && r->desc_len < DESC_KEEP) {
            size_t room = DESC_KEEP - r->desc_len;
            size_t k = take < room ? take : room;
            memcpy(r->desc_buf + r->desc_len, r->in + r->in_pos, k);
            r->desc_len += k;
        }
        r->in_pos += take;
        r->item_off += take;
        r->field_left -= take;
    }
    r->state = next;
    return HS_OK;
}

/* 'etb' starts an event type, 'hete' ends the table. */
static int type_or_table_end(hs_reader *r)
{
    const uint8_t *p;
    if (!(p = hs__need(r, 4)))
        return HS_NEED_INPUT;
    uint32_t m = hs_be32(p);
    if (m == MAGIC_HETE) {
        hs__consume(r, 4);
        r->state = ST_HDRE;
        return HS_OK;
    }
    if (m != MAGIC_ETB)
        return hs__reader_fail(
            r, HS_ERR_BAD_HEADER, r->item_off,
            "malformed eventlog header: expected an event type "
            "('etb') or the end of the table ('hete'), found "
            "0x%08x",
            m);
    hs__consume(r, 4);
    r->state = ST_ET_FIXED;
    return HS_OK;
}

/* An event type's tag, size and description length. */
static int type_fixed(hs_reader *r)
{
    const uint8_t *p;
    if (!(p = hs__need(r, 8)))
        return HS_NEED_INPUT;
    uint16_t tag = hs_be16(p);
    uint16_t size = hs_be16(p + 2);
    uint32_t dlen = hs_be32(p + 4);
    if (tag == DATA_END_TAG)
        return hs__reader_fail(
            r, HS_ERR_BAD_HEADER, r->item_off,
            "the header declares event type 65535, which is "
            "reserved for the data-end marker");
    if (hs__type_info(r, tag))
        return hs__reader_fail(r, HS_ERR_BAD_HEADER, r->item_off,
                               "the header declares event type %u twice", tag);
    if (dlen > HEADER_FIELD_MAX)
        return hs__reader_fail(r, HS_ERR_BAD_SIZE, r->item_off + 4,
                               "event type %u has a description of %u bytes, "
                               "more than any real eventlog",
                               tag, dlen);
    if (!hs_grow_zeroed(r->alloc, (void **)&r->type_info, &r->type_ntags,
                        (size_t)tag + 1, sizeof *r->type_info))
        return hs__reader_fail(r, HS_ERR_NOMEM, r->item_off, "out of memory");
    r->type_info[tag] = ((uint32_t)size + 1) |
                        hs__type_flags(r, tag, (uint32_t)size + 1);
    r->et_tag = tag;
    r->field_left = dlen;
    r->desc_len = 0;
    hs__consume(r, 8);
    r->state = ST_ET_DESC;
    return HS_OK;
}

/* The description, of which the first DESC_KEEP bytes are kept. */
static int type_desc(hs_reader *r)
{
    int st = skip_field(r, true, ST_ET_EXTRA_LEN);
    if (st == HS_OK) {
        if (!hs_grow(r->alloc, (void **)&r->descs, &r->desc_cap,
                     r->ndesc + 1, sizeof *r->descs))
            return hs__reader_fail(r, HS_ERR_NOMEM, r->item_off,
                                   "out of memory");
        char *d = hs_malloc(r->alloc, r->desc_len + 1);
        if (!d)
            return hs__reader_fail(r, HS_ERR_NOMEM, r->item_off,
                                   "out of memory");
        memcpy(d, r->desc_buf, r->desc_len);
        d[r->desc_len] = 0;
        r->descs[r->ndesc++] = (struct hs_type_desc){r->et_tag, d};
    }
    return st;
}

int hs__reader_header_step(hs_reader *r)
{
    const uint8_t *p;
    switch (r->state) {
    case ST_HDRB:
        return stream_start(r);
    case ST_HETB:
        return expect_magic(r, MAGIC_HETB, "'hetb' (event types begin)",
                            ST_ET_OR_HETE);
    case ST_ET_OR_HETE:
        return type_or_table_end(r);
    case ST_ET_FIXED:
        return type_fixed(r);
    case ST_ET_DESC:
        return type_desc(r);
    case ST_ET_EXTRA_LEN: {
        if (!(p = hs__need(r, 4)))
            return HS_NEED_INPUT;
        uint32_t xlen = hs_be32(p);
        if (xlen > HEADER_FIELD_MAX)
            return hs__reader_fail(
                r, HS_ERR_BAD_SIZE, r->item_off,
                "event type %u has %u bytes of extra information, "
                "more than any real eventlog",
                r->et_tag, xlen);
        r->field_left = xlen;
        hs__consume(r, 4);
        r->state = ST_ET_EXTRA;
        return HS_OK;
    }
    case ST_ET_EXTRA:
        return skip_field(r, false, ST_ET_END);
    case ST_ET_END:
        return expect_magic(r, MAGIC_ETE, "'ete' (end of an event type)",
                            ST_ET_OR_HETE);
    case ST_HDRE:
        return expect_magic(r, MAGIC_HDRE, "'hdre' (header end)", ST_DATB);
    case ST_DATB:
        return expect_magic(r, MAGIC_DATB, "'datb' (data begin)", ST_EVENTS);
    default:
        return HS_OK;
    }
}

