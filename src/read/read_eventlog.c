/*
 * The streaming eventlog decoder.
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
#include "heapscope/reader.h"
#include "internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
struct hs_reader {
    enum state state;
    bool decode;
    bool decode_some;       /* only the tags in decode_mask */
    bool raw_stacks;        /* sample stacks as stack_raw only */
    bool header_done;

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

    uint32_t *type_info;  /* 65536 entries */
    char **type_desc;     /* 65536 entries, lazily set */
    /* The tags whose type_desc is set, so that freeing a reader costs the
     * number of declared types, not 65,536 calls to free(). */
    uint16_t *desc_tags;
    size_t ndesc, desc_cap;

    uint32_t stack[256];
    uint64_t decode_mask[65536 / 64];

    hs_error err;
};

static const char *const event_names[] = {
    [0] = "CREATE_THREAD", [1] = "RUN_THREAD", [2] = "STOP_THREAD",
    [3] = "THREAD_RUNNABLE", [4] = "MIGRATE_THREAD", [5] = "RUN_SPARK",
    [6] = "STEAL_SPARK", [7] = "SHUTDOWN", [8] = "THREAD_WAKEUP",
    [9] = "GC_START", [10] = "GC_END", [11] = "REQUEST_SEQ_GC",
    [12] = "REQUEST_PAR_GC", [13] = "CREATE_SPARK", [14] = "SPARK_TO_THREAD",
    [15] = "CREATE_SPARK_THREAD", [16] = "LOG_MSG", [17] = "STARTUP",
    [18] = "BLOCK_MARKER", [19] = "USER_MSG", [20] = "GC_IDLE",
    [21] = "GC_WORK", [22] = "GC_DONE", [23] = "VERSION",
    [24] = "PROGRAM_INVOCATION", [25] = "CAPSET_CREATE",
    [26] = "CAPSET_DELETE", [27] = "CAPSET_ASSIGN_CAP",
    [28] = "CAPSET_REMOVE_CAP", [29] = "RTS_IDENTIFIER",
    [30] = "PROGRAM_ARGS", [31] = "PROGRAM_ENV", [32] = "OSPROCESS_PID",
    [33] = "OSPROCESS_PPID", [34] = "SPARK_COUNTERS", [35] = "SPARK_CREATE",
    [36] = "SPARK_DUD", [37] = "SPARK_OVERFLOW", [38] = "SPARK_RUN",
    [39] = "SPARK_STEAL", [40] = "SPARK_FIZZLE", [41] = "SPARK_GC",
    [42] = "INTERN_STRING", [43] = "WALL_CLOCK_TIME", [44] = "THREAD_LABEL",
    [45] = "CAP_CREATE", [46] = "CAP_DELETE", [47] = "CAP_DISABLE",
    [48] = "CAP_ENABLE", [49] = "HEAP_ALLOCATED", [50] = "HEAP_SIZE",
    [51] = "HEAP_LIVE", [52] = "HEAP_INFO_GHC", [53] = "GC_STATS_GHC",
    [54] = "GC_GLOBAL_SYNC", [55] = "TASK_CREATE", [56] = "TASK_MIGRATE",
    [57] = "TASK_DELETE", [58] = "USER_MARKER", [59] = "HACK_BUG_T9003",
    [90] = "MEM_RETURN", [91] = "BLOCKS_SIZE",
    [100] = "MER_START_PAR_CONJUNCTION", [101] = "MER_STOP_PAR_CONJUNCTION",
    [102] = "MER_CREATE_SPARK", [103] = "MER_FUT_CREATE",
    [104] = "MER_FUT_WAIT_NOSUSPEND", [105] = "MER_FUT_WAIT_SUSPENDED",
    [106] = "MER_FUT_SIGNAL", [107] = "MER_LOOKING_FOR_GLOBAL_CONTEXT",
    [108] = "MER_WORK_STEALING", [109] = "MER_LOOKING_FOR_LOCAL_SPARK",
    [110] = "MER_RELEASE_CONTEXT", [111] = "MER_ENGINE_SLEEPING",
    [112] = "MER_CALLING_MAIN", [140] = "PERF_NAME",
    [141] = "PERF_COUNTER", [142] = "PERF_TRACEPOINT",
    [160] = "HEAP_PROF_BEGIN", [161] = "HEAP_PROF_COST_CENTRE",
    [162] = "HEAP_PROF_SAMPLE_BEGIN", [163] = "HEAP_PROF_SAMPLE_COST_CENTRE",
    [164] = "HEAP_PROF_SAMPLE_STRING", [165] = "HEAP_PROF_SAMPLE_END",
    [166] = "HEAP_BIO_PROF_SAMPLE_BEGIN", [167] = "PROF_SAMPLE_COST_CENTRE",
    [168] = "PROF_BEGIN", [169] = "IPE", [181] = "USER_BINARY_MSG",
    [200] = "CONC_MARK_BEGIN", [201] = "CONC_MARK_END",
    [202] = "CONC_SYNC_BEGIN", [203] = "CONC_SYNC_END",
    [204] = "CONC_SWEEP_BEGIN", [205] = "CONC_SWEEP_END",
    [206] = "CONC_UPD_REM_SET_FLUSH", [207] = "NONMOVING_HEAP_CENSUS",
    [208] = "NONMOVING_PRUNED_SEGMENTS", [209] = "NONMOVING_PRUNED_SEGMENTS2",
    [210] = "TICKY_COUNTER_DEF", [211] = "TICKY_COUNTER_SAMPLE",
    [212] = "TICKY_COUNTER_BEGIN_SAMPLE",
};

const char *hs_event_name(uint16_t tag)
{
    if (tag >= sizeof event_names / sizeof event_names[0])
        return NULL;
    return event_names[tag];
}

const char *hs_breakdown_flag(uint32_t b)
{
    static const char *const flags[] = {"h?", "hc", "hm", "hd", "hy",
                                        "hr", "hb", "hT", "hi", "he"};
    return b < sizeof flags / sizeof flags[0] ? flags[b] : "h?";
}

const char *hs_breakdown_name(uint32_t b)
{
    static const char *const names[] = {
        "unknown breakdown", "cost centre stack", "module",
        "closure description", "type description", "retainer set",
        "biography", "closure type", "info table", "era"};
    return b < sizeof names / sizeof names[0] ? names[b] : names[0];
}

const char *hs_strerror(int code)
{
    switch (code) {
    case HS_OK: return "success";
    case HS_NEED_INPUT: return "more input needed";
    case HS_EVENT: return "event decoded";
    case HS_DONE: return "end of data";
    case HS_TRUNCATED: return "log truncated";
    case HS_ERR_BAD_MAGIC: return "not an eventlog";
    case HS_ERR_BAD_HEADER: return "malformed eventlog header";
    case HS_ERR_UNDECLARED_TAG: return "event type not declared in the header";
    case HS_ERR_BAD_SIZE: return "absurd size";
    case HS_ERR_MALFORMED_EVENT: return "malformed event";
    case HS_ERR_TRUNCATED_HEADER: return "eventlog header incomplete";
    case HS_ERR_NOMEM: return "out of memory";
    case HS_ERR_IO: return "input/output error";
    case HS_ERR_MISUSE: return "API misuse";
    case HS_ERR_PARSE: return "malformed input";
    case HS_ERR_NO_DATA: return "nothing to report";
    case HS_ERR_INVALID: return "invalid argument";
    default: return "unknown status";
    }
}

hs_reader *hs_reader_new(void)
{
    hs_reader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->type_info = calloc(65536, sizeof *r->type_info);
    r->type_desc = calloc(65536, sizeof *r->type_desc);
    r->stage = malloc(STAGE_MAX);
    if (!r->type_info || !r->type_desc || !r->stage) {
        hs_reader_free(r);
        return NULL;
    }
    r->decode = true;
    r->state = ST_HDRB;
    r->block_cap = HS_CAP_NONE;
    r->err.event_index = UINT64_MAX;
    return r;
}

void hs_reader_free(hs_reader *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->ndesc; i++)
        free(r->type_desc[r->desc_tags[i]]);
    free(r->desc_tags);
    free(r->type_desc);
    free(r->type_info);
    free(r->stage);
    free(r);
}

static bool decodes(const hs_reader *r, uint16_t tag)
{
    return r->decode && (!r->decode_some ||
                         (r->decode_mask[tag / 64] >> (tag % 64) & 1));
}

/* Brings TI_DECODE of every declared tag in line with the settings. */
static void apply_decode(hs_reader *r)
{
    for (uint32_t t = 0; t < 65536; t++)
        if (r->type_info[t])
            r->type_info[t] = (r->type_info[t] & TI_SIZE) |
                              (decodes(r, (uint16_t)t) ? TI_DECODE : 0);
}

void hs_reader_set_decode(hs_reader *r, bool decode)
{
    r->decode = decode;
    r->decode_some = false;
    apply_decode(r);
}

void hs_reader_set_raw_stacks(hs_reader *r, bool raw_only)
{
    r->raw_stacks = raw_only;
}

void hs_reader_decode_only(hs_reader *r, const uint16_t *tags, size_t n)
{
    memset(r->decode_mask, 0, sizeof r->decode_mask);
    for (size_t i = 0; i < n; i++)
        r->decode_mask[tags[i] / 64] |= (uint64_t)1 << (tags[i] % 64);
    r->decode = true;
    r->decode_some = true;
    apply_decode(r);
}

uint64_t hs_reader_offset(const hs_reader *r)
{
    return r->item_off + r->stage_len;
}

bool hs_reader_header_done(const hs_reader *r) { return r->header_done; }

const hs_error *hs_reader_error(const hs_reader *r) { return &r->err; }

bool hs_reader_event_type(const hs_reader *r, uint16_t tag, int *size,
                          hs_str *desc)
{
    uint32_t info = r->type_info[tag] & TI_SIZE;
    if (!info)
        return false;
    if (size)
        *size = info - 1 == VARIABLE_SIZE ? -1 : (int)(info - 1);
    if (desc) {
        const char *d = r->type_desc[tag];
        desc->ptr = d ? d : "";
        desc->len = d ? strlen(d) : 0;
    }
    return true;
}

static int fail(hs_reader *r, int code, uint64_t offset, const char *fmt, ...)
    HS_PRINTF(4, 5);

static int fail(hs_reader *r, int code, uint64_t offset, const char *fmt, ...)
{
    va_list ap;
    r->err.code = code;
    r->err.offset = offset;
    r->err.event_index = r->state == ST_EVENTS ? r->index : UINT64_MAX;
    va_start(ap, fmt);
    vsnprintf(r->err.message, sizeof r->err.message, fmt, ap);
    va_end(ap);
    r->state = ST_ERROR;
    return code;
}

int hs_reader_feed(hs_reader *r, const void *data, size_t len)
{
    if (r->state == ST_ERROR)
        return r->err.code;
    if (r->in_pos < r->in_len)
        return HS_ERR_MISUSE;
    r->in = data;
    r->in_len = len;
    r->in_pos = 0;
    return HS_OK;
}

/* The first n bytes of the current item, or NULL when the input has run out
 * (whatever it had is staged). See the invariants at the top. */
static inline const uint8_t *need(hs_reader *r, size_t n)
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
static inline void consume(hs_reader *r, size_t n)
{
    if (r->stage_len)
        r->stage_len = 0;
    else
        r->in_pos += n;
    r->item_off += n;
}

static int expect_magic(hs_reader *r, uint32_t magic, const char *what,
                        enum state next)
{
    const uint8_t *p = need(r, 4);
    if (!p)
        return HS_NEED_INPUT;
    uint32_t got = hs_be32(p);
    if (got != magic) {
        if (magic == MAGIC_HDRB)
            return fail(r, HS_ERR_BAD_MAGIC, r->item_off,
                        "not a GHC eventlog: it does not start with the "
                        "header magic 'hdrb' (found 0x%08x)", got);
        return fail(r, HS_ERR_BAD_HEADER, r->item_off,
                    "malformed eventlog header: expected %s, found 0x%08x",
                    what, got);
    }
    consume(r, 4);
    r->state = next;
    if (next == ST_EVENTS)
        r->header_done = true;
    return HS_OK;
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

static int header_step(hs_reader *r)
{
    const uint8_t *p;
    switch (r->state) {
    case ST_HDRB:
        return expect_magic(r, MAGIC_HDRB, "'hdrb'", ST_HETB);
    case ST_HETB:
        return expect_magic(r, MAGIC_HETB, "'hetb' (event types begin)",
                            ST_ET_OR_HETE);
    case ST_ET_OR_HETE: {
        if (!(p = need(r, 4)))
            return HS_NEED_INPUT;
        uint32_t m = hs_be32(p);
        if (m == MAGIC_HETE) {
            consume(r, 4);
            r->state = ST_HDRE;
            return HS_OK;
        }
        if (m != MAGIC_ETB)
            return fail(r, HS_ERR_BAD_HEADER, r->item_off,
                        "malformed eventlog header: expected an event type "
                        "('etb') or the end of the table ('hete'), found "
                        "0x%08x", m);
        consume(r, 4);
        r->state = ST_ET_FIXED;
        return HS_OK;
    }
    case ST_ET_FIXED: {
        if (!(p = need(r, 8)))
            return HS_NEED_INPUT;
        uint16_t tag = hs_be16(p);
        uint16_t size = hs_be16(p + 2);
        uint32_t dlen = hs_be32(p + 4);
        if (tag == DATA_END_TAG)
            return fail(r, HS_ERR_BAD_HEADER, r->item_off,
                        "the header declares event type 65535, which is "
                        "reserved for the data-end marker");
        if (r->type_info[tag])
            return fail(r, HS_ERR_BAD_HEADER, r->item_off,
                        "the header declares event type %u twice", tag);
        if (dlen > HEADER_FIELD_MAX)
            return fail(r, HS_ERR_BAD_SIZE, r->item_off + 4,
                        "event type %u has a description of %u bytes, "
                        "more than any real eventlog", tag, dlen);
        r->type_info[tag] = ((uint32_t)size + 1) |
                            (decodes(r, tag) ? TI_DECODE : 0);
        r->et_tag = tag;
        r->field_left = dlen;
        r->desc_len = 0;
        consume(r, 8);
        r->state = ST_ET_DESC;
        return HS_OK;
    }
    case ST_ET_DESC: {
        int st = skip_field(r, true, ST_ET_EXTRA_LEN);
        if (st == HS_OK) {
            if (r->ndesc == r->desc_cap) {
                size_t cap = r->desc_cap ? r->desc_cap * 2 : 64;
                uint16_t *t = realloc(r->desc_tags, cap * sizeof *t);
                if (!t)
                    return fail(r, HS_ERR_NOMEM, r->item_off,
                                "out of memory");
                r->desc_tags = t;
                r->desc_cap = cap;
            }
            char *d = malloc(r->desc_len + 1);
            if (!d)
                return fail(r, HS_ERR_NOMEM, r->item_off, "out of memory");
            r->desc_tags[r->ndesc++] = r->et_tag;
            memcpy(d, r->desc_buf, r->desc_len);
            d[r->desc_len] = 0;
            r->type_desc[r->et_tag] = d;
        }
        return st;
    }
    case ST_ET_EXTRA_LEN: {
        if (!(p = need(r, 4)))
            return HS_NEED_INPUT;
        uint32_t xlen = hs_be32(p);
        if (xlen > HEADER_FIELD_MAX)
            return fail(r, HS_ERR_BAD_SIZE, r->item_off,
                        "event type %u has %u bytes of extra information, "
                        "more than any real eventlog", r->et_tag, xlen);
        r->field_left = xlen;
        consume(r, 4);
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

/* ---- payload decoding ---------------------------------------------- */

struct cursor {
    const uint8_t *p, *end;
};

/* A NUL-terminated string; when `lenient` a missing NUL ends the string at
 * the payload's end. Returns false when no string can be taken. */
static bool take_cstr(struct cursor *c, hs_str *out, bool lenient)
{
    const uint8_t *nul = memchr(c->p, 0, (size_t)(c->end - c->p));
    if (!nul) {
        if (!lenient)
            return false;
        nul = c->end;
    }
    out->ptr = (const char *)c->p;
    out->len = (size_t)(nul - c->p);
    c->p = nul < c->end ? nul + 1 : nul;
    return true;
}

/* The rest of the payload as a string, without a trailing NUL. */
static hs_str rest_str(const uint8_t *p, const uint8_t *end)
{
    hs_str s = {(const char *)p, (size_t)(end - p)};
    if (s.len && s.ptr[s.len - 1] == 0)
        s.len--;
    return s;
}

/* Minimum payload bytes for the layouts decoded below; 0 = not decoded. */
static size_t min_payload(uint16_t tag)
{
    switch (tag) {
    case 0: case 1: case 3: case 15: return 4;
    case 2: return 6;
    case 4: case 8: return 6;
    case 18: return 14;
    case 16: case 19: case 58: case 181: return 0 + 1;
    case 25: return 6;
    case 26: return 4;
    case 27: case 28: return 6;
    case 29: case 30: case 31: return 4;
    case 32: case 33: return 8;
    case 34: return 56;
    case 39: return 2;
    case 43: return 16;
    case 44: return 4;
    case 45: case 46: case 47: case 48: return 2;
    case 49: case 50: case 51: case 91: return 12;
    case 52: return 38;
    case 53: return 50;
    case 55: return 18;
    case 56: return 12;
    case 57: return 8;
    case 90: return 16;
    case 160: return 13;
    case 161: return 4;
    case 162: case 165: return 8;
    case 166: return 16;
    case 163: return 10;
    case 164: return 9;
    case 167: return 13;
    case 168: return 8;
    case 169: return 8;
    case 9: case 10: case 11: case 12: case 20: case 21: case 22:
    case 35: case 36: case 37: case 38: case 40: case 41: case 54:
        return 0 + 1; /* no payload: decoded trivially */
    default: return 0;
    }
}

static int read_stack(hs_reader *r, const hs_event *ev, const uint8_t *p,
                      const uint8_t *end, uint8_t depth, const char *what)
{
    if ((size_t)(end - p) < (size_t)depth * 4)
        return fail(r, HS_ERR_MALFORMED_EVENT, ev->offset,
                    "%s declares a stack of depth %u (%u bytes) but only %zu "
                    "bytes remain in the event", what, depth, depth * 4u,
                    (size_t)(end - p));
    if (r->raw_stacks)
        return HS_OK; /* the caller reads stack_raw */
    for (unsigned i = 0; i < depth; i++)
        r->stack[i] = hs_be32(p + 4 * i);
    return HS_OK;
}

static HS_NOINLINE int decode(hs_reader *r, hs_event *ev)
{
    const uint8_t *p = ev->payload;
    const uint8_t *end = p + ev->payload_len;
    size_t len = ev->payload_len;
    size_t min = min_payload(ev->tag);

    /* Tags without fields are "known" with any size; others need the
     * minimum of the oldest layout we decode. */
    if (min == 0)
        return HS_OK;
    if (min > 1 && len < min)
        return HS_OK; /* a layout older than any we know: raw only */
    ev->known = true;

    switch (ev->tag) {
    case 0: case 1: case 3:
        ev->u.thread.thread = hs_be32(p);
        break;
    case 15:
        ev->u.spark_thread.thread = hs_be32(p);
        break;
    case 2:
        ev->u.stop_thread.thread = hs_be32(p);
        ev->u.stop_thread.status = hs_be16(p + 4);
        ev->u.stop_thread.blocked_on = len >= 10 ? hs_be32(p + 6) : 0;
        break;
    case 4: case 8:
        ev->u.thread_cap.thread = hs_be32(p);
        ev->u.thread_cap.cap = hs_be16(p + 4);
        break;
    case 18:
        ev->u.block.size = hs_be32(p);
        ev->u.block.end_time = hs_be64(p + 4);
        ev->u.block.cap = hs_be16(p + 12);
        break;
    case 16: case 19: case 58: case 181:
        ev->u.msg.text = ev->tag == 181
            ? (hs_str){(const char *)p, len} : rest_str(p, end);
        break;
    case 25:
        ev->u.capset_create.capset = hs_be32(p);
        ev->u.capset_create.type = hs_be16(p + 4);
        break;
    case 26:
        ev->u.capset_delete.capset = hs_be32(p);
        break;
    case 27: case 28:
        ev->u.capset_cap.capset = hs_be32(p);
        ev->u.capset_cap.cap = hs_be16(p + 4);
        break;
    case 29:
        ev->u.rts_identifier.capset = hs_be32(p);
        ev->u.rts_identifier.text = rest_str(p + 4, end);
        break;
    case 30: case 31: {
        ev->u.args.capset = hs_be32(p);
        hs_str raw = rest_str(p + 4, end);
        uint32_t n = raw.len ? 1 : 0;
        for (size_t i = 0; i < raw.len; i++)
            n += raw.ptr[i] == 0;
        ev->u.args.raw = raw;
        ev->u.args.count = n;
        break;
    }
    case 32: case 33:
        ev->u.pid.capset = hs_be32(p);
        ev->u.pid.pid = hs_be32(p + 4);
        break;
    case 34:
        ev->u.spark_counters.created = hs_be64(p);
        ev->u.spark_counters.dud = hs_be64(p + 8);
        ev->u.spark_counters.overflowed = hs_be64(p + 16);
        ev->u.spark_counters.converted = hs_be64(p + 24);
        ev->u.spark_counters.gcd = hs_be64(p + 32);
        ev->u.spark_counters.fizzled = hs_be64(p + 40);
        ev->u.spark_counters.remaining = hs_be64(p + 48);
        break;
    case 39:
        ev->u.spark_steal.cap = hs_be16(p);
        break;
    case 43:
        ev->u.wall_clock.capset = hs_be32(p);
        ev->u.wall_clock.sec = hs_be64(p + 4);
        ev->u.wall_clock.nsec = hs_be32(p + 12);
        break;
    case 44:
        ev->u.thread_label.thread = hs_be32(p);
        ev->u.thread_label.label = rest_str(p + 4, end);
        break;
    case 45: case 46: case 47: case 48:
        ev->u.cap.cap = hs_be16(p);
        break;
    case 49: case 50: case 51: case 91:
        ev->u.heap.capset = hs_be32(p);
        ev->u.heap.bytes = hs_be64(p + 4);
        break;
    case 52:
        ev->u.heap_info.capset = hs_be32(p);
        ev->u.heap_info.gens = hs_be16(p + 4);
        ev->u.heap_info.max_heap = hs_be64(p + 6);
        ev->u.heap_info.alloc_area = hs_be64(p + 14);
        ev->u.heap_info.mblock = hs_be64(p + 22);
        ev->u.heap_info.block = hs_be64(p + 30);
        break;
    case 53:
        ev->u.gc_stats.capset = hs_be32(p);
        ev->u.gc_stats.gen = hs_be16(p + 4);
        ev->u.gc_stats.copied = hs_be64(p + 6);
        ev->u.gc_stats.slop = hs_be64(p + 14);
        ev->u.gc_stats.frag = hs_be64(p + 22);
        ev->u.gc_stats.par_threads = hs_be32(p + 30);
        ev->u.gc_stats.par_max_copied = hs_be64(p + 34);
        ev->u.gc_stats.par_tot_copied = hs_be64(p + 42);
        ev->u.gc_stats.has_balanced = len >= 58;
        ev->u.gc_stats.par_balanced_copied = len >= 58 ? hs_be64(p + 50) : 0;
        break;
    case 55:
        ev->u.task_create.task = hs_be64(p);
        ev->u.task_create.cap = hs_be16(p + 8);
        ev->u.task_create.kernel_tid = hs_be64(p + 10);
        break;
    case 56:
        ev->u.task_migrate.task = hs_be64(p);
        ev->u.task_migrate.cap = hs_be16(p + 8);
        ev->u.task_migrate.new_cap = hs_be16(p + 10);
        break;
    case 57:
        ev->u.task_delete.task = hs_be64(p);
        break;
    case 90:
        ev->u.mem_return.capset = hs_be32(p);
        ev->u.mem_return.current = hs_be32(p + 4);
        ev->u.mem_return.needed = hs_be32(p + 8);
        ev->u.mem_return.returned = hs_be32(p + 12);
        break;
    case 160: {
        ev->u.heap_prof_begin.profile = p[0];
        ev->u.heap_prof_begin.period = hs_be64(p + 1);
        ev->u.heap_prof_begin.breakdown = hs_be32(p + 9);
        struct cursor c = {p + 13, end};
        for (int i = 0; i < 7; i++) {
            hs_str *f = &ev->u.heap_prof_begin.filters[i];
            *f = (hs_str){"", 0};
            if (c.p < c.end)
                take_cstr(&c, f, true);
        }
        break;
    }
    case 161: {
        struct cursor c = {p + 4, end};
        ev->u.cost_centre.id = hs_be32(p);
        if (!take_cstr(&c, &ev->u.cost_centre.label, false) ||
            !take_cstr(&c, &ev->u.cost_centre.module, false) ||
            !take_cstr(&c, &ev->u.cost_centre.srcloc, false))
            return fail(r, HS_ERR_MALFORMED_EVENT, ev->offset,
                        "HEAP_PROF_COST_CENTRE %u: its label, module and "
                        "source location are not three NUL-terminated "
                        "strings within the event's %zu bytes",
                        ev->u.cost_centre.id, len);
        ev->u.cost_centre.flags = c.p < c.end ? c.p[0] : 0;
        break;
    }
    case 162: case 165:
        ev->u.sample.era = hs_be64(p);
        break;
    case 166:
        ev->u.bio_sample.era = hs_be64(p);
        ev->u.bio_sample.time = hs_be64(p + 8);
        break;
    case 163:
        ev->u.ccs_sample.profile = p[0];
        ev->u.ccs_sample.bytes = hs_be64(p + 1);
        ev->u.ccs_sample.depth = p[9];
        ev->u.ccs_sample.stack = r->raw_stacks ? NULL : r->stack;
        ev->u.ccs_sample.stack_raw = p + 10;
        return read_stack(r, ev, p + 10, end, p[9],
                          "HEAP_PROF_SAMPLE_COST_CENTRE");
    case 164: {
        struct cursor c = {p + 9, end};
        ev->u.string_sample.profile = p[0];
        ev->u.string_sample.bytes = hs_be64(p + 1);
        ev->u.string_sample.label = (hs_str){"", 0};
        if (c.p < c.end)
            take_cstr(&c, &ev->u.string_sample.label, true);
        break;
    }
    case 167:
        ev->u.prof_sample.cap = hs_be32(p);
        ev->u.prof_sample.tick = hs_be64(p + 4);
        ev->u.prof_sample.depth = p[12];
        ev->u.prof_sample.stack = r->raw_stacks ? NULL : r->stack;
        ev->u.prof_sample.stack_raw = p + 13;
        return read_stack(r, ev, p + 13, end, p[12],
                          "PROF_SAMPLE_COST_CENTRE");
    case 168:
        ev->u.prof_begin.tick_interval = hs_be64(p);
        break;
    case 169: {
        struct cursor c = {p + 8, end};
        hs_str *f[6] = {&ev->u.ipe.table_name, &ev->u.ipe.closure_desc,
                        &ev->u.ipe.type_desc, &ev->u.ipe.label,
                        &ev->u.ipe.module, &ev->u.ipe.srcloc};
        ev->u.ipe.address = hs_be64(p);
        for (int i = 0; i < 6; i++) {
            *f[i] = (hs_str){"", 0};
            if (c.p < c.end)
                take_cstr(&c, f[i], true);
        }
        break;
    }
    default:
        break; /* field-less events */
    }
    return HS_OK;
}

static int event_step(hs_reader *r, hs_event *ev)
{
    const uint8_t *p = need(r, 2);
    if (!p)
        return HS_NEED_INPUT;
    uint16_t tag = hs_be16(p);
    if (tag == DATA_END_TAG) {
        consume(r, 2);
        r->state = ST_DONE;
        return HS_DONE;
    }
    uint32_t info = r->type_info[tag];
    if (!info)
        return fail(r, HS_ERR_UNDECLARED_TAG, r->item_off,
                    "event type %u is not declared in the header (the data "
                    "is corrupt or not an eventlog)", tag);
    size_t head = 10, total;
    uint32_t size1 = info & TI_SIZE;
    if (size1 - 1 == VARIABLE_SIZE) {
        if (!(p = need(r, 12)))
            return HS_NEED_INPUT;
        head = 12;
        total = 12 + (size_t)hs_be16(p + 10);
    } else {
        total = 10 + (size_t)(size1 - 1);
    }
    if (!(p = need(r, total)))
        return HS_NEED_INPUT;

    uint64_t off = r->item_off;
    ev->tag = tag;
    ev->known = false;
    ev->time = hs_be64(p + 2);
    ev->offset = off;
    ev->index = r->index;
    ev->payload = p + head;
    ev->payload_len = total - head;
    if (off >= r->block_end)
        r->block_cap = HS_CAP_NONE;

    if (tag == HS_EV_BLOCK_MARKER && ev->payload_len >= 14) {
        uint32_t bsize = hs_be32(ev->payload);
        uint16_t bcap = hs_be16(ev->payload + 12);
        if (bsize != 0 && bsize < total)
            return fail(r, HS_ERR_BAD_SIZE, off,
                        "a block marker declares a block of %u bytes, less "
                        "than the marker itself (%zu bytes)", bsize, total);
        r->block_end = bsize ? off + bsize : UINT64_MAX;
        r->block_cap = bcap == 0xffff ? HS_CAP_NONE : bcap;
    }
    ev->cap = r->block_cap;

    if (info & TI_DECODE) {
        int st = decode(r, ev);
        if (st < 0)
            return st;
    }
    consume(r, total);
    r->index++;
    return HS_EVENT;
}

/* Every state, every chunk edge: the general path. */
static HS_NOINLINE int next_general(hs_reader *r, hs_event *ev)
{
    for (;;) {
        switch (r->state) {
        case ST_ERROR:
            return r->err.code;
        case ST_DONE:
            return HS_DONE;
        case ST_EVENTS:
            return event_step(r, ev);
        default: {
            int st = header_step(r);
            if (st != HS_OK)
                return st;
        }
        }
    }
}

/*
 * The common case on its own: an ordinary event wholly inside the current
 * chunk, nothing staged. It frames the event in a few loads and leaves
 * everything else (block markers, the data-end marker, undeclared tags,
 * chunk edges, the header) to next_general(), so this function stays small
 * and cheap to enter once per event.
 */
int hs_reader_next(hs_reader *r, hs_event *ev)
{
    size_t avail = r->in_len - r->in_pos;
    if (r->state != ST_EVENTS || r->stage_len || avail < 12)
        return next_general(r, ev);
    const uint8_t *p = r->in + r->in_pos;
    uint16_t tag = hs_be16(p);
    uint32_t info = r->type_info[tag]; /* 0 for 65535 and undeclared */
    uint32_t size1 = info & TI_SIZE;
    if (!info || tag == HS_EV_BLOCK_MARKER)
        return next_general(r, ev);
    size_t head = 10, total = 10 + (size_t)(size1 - 1);
    if (size1 - 1 == VARIABLE_SIZE) {
        head = 12;
        total = 12 + (size_t)hs_be16(p + 10);
    }
    if (avail < total)
        return next_general(r, ev);
    uint64_t off = r->item_off;
    if (off >= r->block_end)
        r->block_cap = HS_CAP_NONE;
    ev->tag = tag;
    ev->known = false;
    ev->cap = r->block_cap;
    ev->time = hs_be64(p + 2);
    ev->offset = off;
    ev->index = r->index;
    ev->payload = p + head;
    ev->payload_len = total - head;
    if (info & TI_DECODE) {
        int st = decode(r, ev);
        if (st < 0)
            return st;
    }
    r->in_pos += total;
    r->item_off += total;
    r->index++;
    return HS_EVENT;
}

int hs_reader_finish(hs_reader *r)
{
    switch (r->state) {
    case ST_ERROR:
        return r->err.code;
    case ST_DONE:
        return HS_DONE;
    case ST_EVENTS: {
        uint64_t end = r->item_off + r->stage_len;
        r->err.code = HS_TRUNCATED;
        r->err.offset = end;
        r->err.event_index = r->index;
        if (r->stage_len)
            snprintf(r->err.message, sizeof r->err.message,
                     "the log is truncated: it stops at byte %llu in the "
                     "middle of event %llu (which starts at byte %llu); "
                     "the %llu events before it were read",
                     (unsigned long long)end, (unsigned long long)r->index,
                     (unsigned long long)r->item_off,
                     (unsigned long long)r->index);
        else
            snprintf(r->err.message, sizeof r->err.message,
                     "the log is truncated: it stops at byte %llu without "
                     "its data-end marker; the %llu events before it were "
                     "read", (unsigned long long)end,
                     (unsigned long long)r->index);
        return HS_TRUNCATED;
    }
    default: {
        uint64_t end = r->item_off + r->stage_len;
        if (end == 0)
            return fail(r, HS_ERR_TRUNCATED_HEADER, 0,
                        "the input is empty: not an eventlog");
        return fail(r, HS_ERR_TRUNCATED_HEADER, end,
                    "the input ends at byte %llu inside the eventlog header, "
                    "before any event", (unsigned long long)end);
    }
    }
}

int hs_read_fd(hs_reader *r, int fd, hs_event_fn fn, void *user)
{
    uint8_t *buf = malloc(READ_BLOCK);
    if (!buf)
        return HS_ERR_NOMEM;
    int st = HS_NEED_INPUT;
    for (;;) {
        ssize_t n = read(fd, buf, READ_BLOCK);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            int saved = errno;
            free(buf);
            r->err.code = HS_ERR_IO;
            r->err.offset = hs_reader_offset(r);
            snprintf(r->err.message, sizeof r->err.message,
                     "reading failed after byte %llu: %s",
                     (unsigned long long)r->err.offset, strerror(saved));
            r->state = ST_ERROR;
            errno = saved;
            return HS_ERR_IO;
        }
        if (n == 0)
            break;
        hs_reader_feed(r, buf, (size_t)n);
        hs_event ev;
        while ((st = hs_reader_next(r, &ev)) == HS_EVENT) {
            int rc = fn(user, &ev);
            if (rc) {
                free(buf);
                return rc;
            }
        }
        if (st < 0 || st == HS_DONE)
            break;
    }
    free(buf);
    return hs_reader_finish(r);
}
