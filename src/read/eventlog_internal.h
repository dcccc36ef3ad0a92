/*
 * The eventlog reader's shared state, internal to src/read/.
 *
 * The stream is a sequence of "items": the header's magic numbers and
 * event-type records, then events. The reader works one item at a time.
 * need(r, n) asks for the first n bytes of the current item: when the
 * caller's chunk holds them they are used in place (no copy); otherwise
 * what the chunk has is appended to `stage` and the call reports that more
 * input is needed. A later need() with the same or larger n continues where
 * the staging stopped, so an item cut by any number of chunk edges is
 * assembled without ever holding more than one item.
 *
 * Invariants:
 *   - stage_len > 0 only while the current item straddles chunks; then
 *     stage[0..stage_len) are the item's first bytes and in_pos has moved
 *     past them.
 *   - item_off is the stream offset of the current item's first byte.
 *   - every length read from the stream is checked before it is used.
 */
#ifndef HEAPSCOPE_READ_EVENTLOG_INTERNAL_H
#define HEAPSCOPE_READ_EVENTLOG_INTERNAL_H

#include "heapscope/reader.h"
#include "common/internal.h"
#include "read/event_table.h"

#include <string.h>

#define MAGIC_HDRB 0x68647262u
#define MAGIC_HETB 0x68657462u
#define MAGIC_HETE 0x68657465u
#define MAGIC_HDRE 0x68647265u
#define MAGIC_DATB 0x64617462u
#define MAGIC_ETB 0x65746200u
#define MAGIC_ETE 0x65746500u

#define DATA_END_TAG 0xffffu
#define VARIABLE_SIZE 0xffffu
/* tag + time + u16 length + the longest payload a u16 can declare */
#define STAGE_MAX (12u + 65535u)
/* Descriptions and extra info longer than this are not a real header. */
#define HEADER_FIELD_MAX (1u << 20)
#define DESC_KEEP 255u
#define READ_BLOCK (1u << 20)
/* A block marker: u16 tag, u64 time, u32 size, u64 end time, u16 cap. */
#define BLOCK_MARKER_LEN (2u + 8u + 4u + 8u + 2u)

enum state {
    ST_HDRB,
    ST_HETB,
    ST_ET_OR_HETE, /* 'etb\0' or 'hete' */
    ST_ET_FIXED,   /* u16 tag, u16 size, u32 desc_len */
    ST_ET_DESC,
    ST_ET_EXTRA_LEN,
    ST_ET_EXTRA,
    ST_ET_END,
    ST_HDRE,
    ST_DATB,
    ST_EVENTS,
    ST_DONE,
    ST_ERROR
};

/* type_info[tag]: 0 = undeclared, otherwise declared size + 1 in the low
 * bits (so a variable size is VARIABLE_SIZE + 1), and TI_DECODE when events
 * of the tag are to be decoded: the entry is loaded for every event anyway,
 * so the choice costs nothing there. */
#define TI_SIZE 0x1ffffu
#define TI_DECODE 0x80000000u
/* Block markers and IPE events, which only the general path frames: with
 * TI_DECODE, one test of ((info - 1) & TI_STOP) sends an undeclared tag
 * (info 0), a decoded one and these off the plain loops. */
#define TI_SPECIAL 0x40000000u
#define TI_STOP (TI_DECODE | TI_SPECIAL)
/* With TI_DECODE: every event of the tag is decoded by its table-made
 * function (hs__hot_decode) with nothing left to check: the tag has one,
 * its declared fixed size holds the fields, and no quirk applies (see
 * hs__decode_hot). Settled once per tag, not once per event. */
#define TI_HOT 0x20000000u
/* With TI_HOT: the tag has no fields (GC_START, GC_END), so nothing to
 * decode and no call to make. */
#define TI_BARE 0x10000000u
struct hs_reader {
    hs_allocator alloc_store;
    const hs_allocator *alloc; /* &alloc_store, or NULL for the C library */
    enum state state;
    bool decode;
    bool decode_some;       /* only the tags in decode_mask */
    bool raw_stacks;        /* sample stacks as stack_raw only */
    bool header_done;
    bool wide_tid;          /* GHC 6.12: u64 thread ids (read_header.c) */
    bool lead_marker;       /* a block marker before 'hdrb' was skipped */

    const uint8_t *in;
    size_t in_len, in_pos;

    uint8_t *stage;
    size_t stage_len;

    uint64_t item_off;
    uint64_t index;

    /* header parsing */
    uint16_t et_tag;
    uint64_t field_left; /* bytes of desc / extra still to skip */
    char desc_buf[DESC_KEEP];
    size_t desc_len;

    /* blocks */
    int32_t block_cap;
    uint64_t block_end;
    /* a pass in two lanes (read_lanes.c): a block marker anywhere but at
     * lane_marker stops the framing before it (HS__LANE_STOP) */
    bool lane_check;
    uint64_t lane_marker;

    /* type_ntags entries, zeroed, grown to hold the largest declared tag:
     * read through hs__type_info(), which answers 0 beyond them */
    uint32_t *type_info;
    size_t type_ntags;
    /* The declared types' descriptions in the order declared, sorted by
     * tag when the header ends, so that they cost the number of declared
     * types, not 65,536 slots. */
    struct hs_type_desc {
        uint16_t tag;
        char *text;
    } *descs;
    size_t ndesc, desc_cap;

    uint32_t stack[256];
    uint64_t decode_mask[65536 / 64];

    hs_error err;
};

int hs__reader_fail(hs_reader *r, int code, uint64_t offset,
                    const char *fmt, ...) HS_PRINTF(4, 5);
/* One step of the header: HS_OK (state advanced), HS_NEED_INPUT or an
 * error (read_header.c). */
int hs__reader_header_step(hs_reader *r);
/* The description the header gave the declared type tag, or NULL
 * (read_header.c). */
const char *hs__type_desc(const hs_reader *r, uint16_t tag);
/* Decodes ev's payload into its union member when the table has a layout
 * for it (read_decode.c); HS_OK or HS_ERR_MALFORMED_EVENT. */
int hs__reader_decode(hs_reader *r, hs_event *ev);
/* Whether events of tag, declared with type_info size bits size1, all take
 * the table-made decoder (read_decode.c): then TI_HOT. */
bool hs__decode_hot(const hs_reader *r, uint16_t tag, uint32_t size1);
/* The table-made decoders by tag, NULL where a tag has none: what
 * hs__reader_decode() does for a TI_HOT tag, known set by the caller. */
typedef void (*hs__hot_fn)(hs_event *ev);
extern const hs__hot_fn hs__hot_decode[];
/* Brings the flag bits of every declared tag in line with the settings
 * and the header (read_reader.c). */
void hs__reader_apply_flags(hs_reader *r);

/* Sizes type_info for the tags of real logs (GHC's run below 256), so
 * that only a header declaring larger ones makes it grow. */
#define TYPE_INFO_START 256u

/* type_info[tag], or 0 (undeclared) for a tag beyond the table. The one
 * comparison, well predicted, is what a reader of 1 KiB instead of a
 * 256 KiB table of all 65,536 tags costs per event. */
static inline uint32_t hs__type_info(const hs_reader *r, uint16_t tag)
{
    return tag < r->type_ntags ? r->type_info[tag] : 0;
}

static inline bool hs__decodes(const hs_reader *r, uint16_t tag)
{
    return r->decode && (!r->decode_some ||
                         (r->decode_mask[tag / 64] >> (tag % 64) & 1));
}

/* The flag bits of a declared tag's type_info entry, whose size bits are
 * size1. */
static inline uint32_t hs__type_flags(const hs_reader *r, uint16_t tag,
                                      uint32_t size1)
{
    if (tag == HS_EV_BLOCK_MARKER || tag == HS_EV_IPE)
        return TI_SPECIAL | (hs__decodes(r, tag) ? TI_DECODE : 0);
    if (!hs__decodes(r, tag))
        return 0;
    if (!hs__decode_hot(r, tag, size1))
        return TI_DECODE;
    return TI_DECODE | TI_HOT |
           (hs__event_table[tag].nfields == 0 ? TI_BARE : 0);
}

/* After the input loop ended with st (hs_input_next()'s last return):
 * records an input failure in the reader, else ends the stream with
 * hs_reader_finish(). */
struct hs_input;
int hs__read_end(hs_reader *r, struct hs_input *in, int st);

/* The first n bytes of the current item, or NULL when the input has run out
 * (whatever it had is staged). See the invariants at the top. */
static inline const uint8_t *hs__need(hs_reader *r, size_t n)
{
    size_t avail = r->in_len - r->in_pos;
    if (r->stage_len == 0 && avail >= n)
        return r->in + r->in_pos;
    if (r->stage_len < n) {
        size_t take = n - r->stage_len;
        if (take > avail)
            take = avail;
        if (!take)
            return NULL; /* no input yet, or an empty chunk: `in` may be
                            NULL, where even in + 0 is undefined */
        memcpy(r->stage + r->stage_len, r->in + r->in_pos, take);
        r->stage_len += take;
        r->in_pos += take;
        if (r->stage_len < n)
            return NULL;
    }
    return r->stage;
}

/* Ends the current item, which was n bytes long. */
static inline void hs__consume(hs_reader *r, size_t n)
{
    if (r->stage_len)
        r->stage_len = 0;
    else
        r->in_pos += n;
    r->item_off += n;
}

#endif
