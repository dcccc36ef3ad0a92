/*
 * Typed decoding of event payloads, driven by the event table: each tag's
 * field list says what to read, in order, and where it lands in hs_event.
 */
#include "read/eventlog_internal.h"

static void *at(hs_event *ev, uint16_t offset)
{
    return (char *)ev + offset;
}

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

/* A depth-prefixed stack of cost-centre ids at c: checked against the
 * payload, converted to r->stack unless the caller reads the raw bytes. */
static int take_stack(hs_reader *r, hs_event *ev, const hs_event_desc *d,
                      const hs_field_desc *f, struct cursor *c)
{
    uint8_t depth = *c->p++;
    size_t bytes = (size_t)depth * 4;
    if ((size_t)(c->end - c->p) < bytes)
        return hs__reader_fail(
            r, HS_ERR_MALFORMED_EVENT, ev->offset,
            "%s declares a stack of depth %u (%zu bytes) but only "
            "%zu bytes remain in the event",
            d->name, depth, bytes, (size_t)(c->end - c->p));
    *(uint8_t *)at(ev, f->offset) = depth;
    *(const uint8_t **)at(ev, f->aux2) = c->p;
    *(const uint32_t **)at(ev, f->aux) = r->raw_stacks ? NULL : r->stack;
    if (!r->raw_stacks)
        for (unsigned i = 0; i < depth; i++)
            r->stack[i] = hs_be32(c->p + 4 * i);
    c->p += bytes;
    return HS_OK;
}

/* Reads one field at c into ev. The table's minimum size guarantees the
 * fixed fields; optional and string fields check what is left. */
static int take_field(hs_reader *r, hs_event *ev, const hs_event_desc *d,
                      const hs_field_desc *f, struct cursor *c)
{
    void *dst = at(ev, f->offset);
    size_t left = (size_t)(c->end - c->p);
    switch (f->kind) {
    case HS_FIELD_U8:
        *(uint8_t *)dst = *c->p++;
        break;
    case HS_FIELD_U16:
        *(uint16_t *)dst = hs_be16(c->p);
        c->p += 2;
        break;
    case HS_FIELD_U32: case HS_FIELD_BREAKDOWN:
        *(uint32_t *)dst = hs_be32(c->p);
        c->p += 4;
        break;
    case HS_FIELD_U64: case HS_FIELD_U64_HEX:
        *(uint64_t *)dst = hs_be64(c->p);
        c->p += 8;
        break;
    case HS_FIELD_U32_OPT:
        *(uint32_t *)dst = left >= 4 ? hs_be32(c->p) : 0;
        c->p += left >= 4 ? 4 : 0;
        break;
    case HS_FIELD_U64_OPT:
        *(bool *)at(ev, f->aux) = left >= 8;
        *(uint64_t *)dst = left >= 8 ? hs_be64(c->p) : 0;
        c->p += left >= 8 ? 8 : 0;
        break;
    case HS_FIELD_CC_FLAGS:
        *(uint8_t *)dst = left ? *c->p++ : 0;
        break;
    case HS_FIELD_BINARY:
        *(hs_str *)dst = (hs_str){(const char *)c->p, left};
        c->p = c->end;
        break;
    case HS_FIELD_TEXT: case HS_FIELD_ARGS: {
        hs_str s = rest_str(c->p, c->end);
        *(hs_str *)dst = s;
        c->p = c->end;
        if (f->kind == HS_FIELD_ARGS) {
            uint32_t n = s.len ? 1 : 0;
            for (size_t i = 0; i < s.len; i++)
                n += s.ptr[i] == 0;
            *(uint32_t *)at(ev, f->aux) = n;
        }
        break;
    }
    case HS_FIELD_CSTR: case HS_FIELD_FILTER:
        *(hs_str *)dst = (hs_str){"", 0};
        if (left)
            take_cstr(c, dst, true);
        break;
    case HS_FIELD_CSTR_REQ:
        if (!take_cstr(c, dst, false))
            return hs__reader_fail(
                r, HS_ERR_MALFORMED_EVENT, ev->offset,
                "%s: its %s is not a NUL-terminated string within "
                "the event's %zu bytes",
                d->name, f->name, ev->payload_len);
        break;
    case HS_FIELD_STACK:
        return take_stack(r, ev, d, f, c);
    }
    return HS_OK;
}

/* A thread id that leads an event of a GHC 6.12 log, where thread ids were
 * 64 bits wide (see read_header.c); the id is the low half, as ghc-events
 * reads it. */
static bool wide_thread(const hs_reader *r, const hs_field_desc *f,
                        const struct cursor *c)
{
    return r->wide_tid && f->kind == HS_FIELD_U32 && c->end - c->p >= 8 &&
           strcmp(f->name, "thread") == 0;
}

/* Decodes the payload into the union member the table names for the tag.
 * An event too short for the oldest layout we know stays raw. */
/* NONMOVING_HEAP_CENSUS before GHC 9.8 (issue 23340): 13 bytes, the block
 * size as its base-2 logarithm in one byte. Given as the size, as ghc-events
 * gives it, so both layouts read alike. */
static void nonmoving_census_13(hs_event *ev)
{
    const uint8_t *p = ev->payload;
    ev->known = true;
    ev->u.nonmoving_census.blk_size =
        p[0] < 16 ? (uint16_t)(1u << p[0]) : 0;
    ev->u.nonmoving_census.active_segs = hs_be32(p + 1);
    ev->u.nonmoving_census.filled_segs = hs_be32(p + 5);
    ev->u.nonmoving_census.live_blocks = hs_be32(p + 9);
}

/*
 * The events of fixed numeric fields (GC, capability, heap-size, thread
 * events: most of a real log) decoded by one function per tag, which the
 * compiler makes from the table's field list: each field's kind and place
 * known when compiled, no loop over descriptors, no switch per field. A
 * tag with a string, a stack or a payload-long field has no such function
 * and takes the descriptor loop below. Both read the same list, so they
 * cannot disagree on a layout.
 */
#define PLAIN_U8 1
#define PLAIN_U16 1
#define PLAIN_U32 1
#define PLAIN_U64 1
#define PLAIN_U64_HEX 1
#define PLAIN_BREAKDOWN 1
#define PLAIN_U32_OPT 1
#define PLAIN_U64_OPT 1
#define PLAIN_CC_FLAGS 1
#define PLAIN_TEXT 0
#define PLAIN_BINARY 0
#define PLAIN_ARGS 0
#define PLAIN_CSTR 0
#define PLAIN_FILTER 0
#define PLAIN_CSTR_REQ 0
#define PLAIN_STACK 0

/* what is left of the payload at p */
#define LEFT ((size_t)(ev->payload + ev->payload_len - p))
#define HOT_U8(m, c, a) ev->u.m.c = *p++;
#define HOT_U16(m, c, a) ev->u.m.c = hs_be16(p); p += 2;
#define HOT_U32(m, c, a) ev->u.m.c = hs_be32(p); p += 4;
#define HOT_U64(m, c, a) ev->u.m.c = hs_be64(p); p += 8;
#define HOT_U64_HEX HOT_U64
#define HOT_BREAKDOWN HOT_U32
#define HOT_U32_OPT(m, c, a) \
    { bool has_ = LEFT >= 4; ev->u.m.c = has_ ? hs_be32(p) : 0; \
      p += has_ ? 4 : 0; }
#define HOT_U64_OPT(m, c, a) \
    { bool has_ = LEFT >= 8; ev->u.m.a = has_; \
      ev->u.m.c = has_ ? hs_be64(p) : 0; p += has_ ? 8 : 0; }
#define HOT_CC_FLAGS(m, c, a) ev->u.m.c = LEFT ? *p++ : 0;
#define HOT_TEXT(m, c, a)
#define HOT_BINARY(m, c, a)
#define HOT_ARGS(m, c, a)
#define HOT_CSTR(m, c, a)
#define HOT_FILTER(m, c, a)
#define HOT_CSTR_REQ(m, c, a)
#define HOT_STACK(m, c, a)
#define HOT_FIELD(m, kind, cname, pname, aux) HOT_##kind(m, cname, aux)
#define PLAIN_FIELD(m, kind, cname, pname, aux) && PLAIN_##kind
#define PLAIN(FIELDS, m) (1 FIELDS(PLAIN_FIELD, m))

#define HOT_FN(tag, NAME, size, min, m, FIELDS, desc) \
    static void hot_##NAME(hs_event *ev) \
    { \
        const uint8_t *p = ev->payload; \
        FIELDS(HOT_FIELD, m) \
        (void)p; \
    }
HS_EVENT_TABLE(HOT_FN)

#define HOT_ENTRY(tag, NAME, size, min, m, FIELDS, desc) \
    [tag] = PLAIN(FIELDS, m) ? hot_##NAME : NULL,
const hs__hot_fn hs__hot_decode[HS__EVENT_TAGS] = {
    HS_EVENT_TABLE(HOT_ENTRY)};

/* What hs__reader_decode() checks of every event, settled for the tag:
 * only when all its events pass the same way is it TI_HOT. */
bool hs__decode_hot(const hs_reader *r, uint16_t tag, uint32_t size1)
{
    if (tag >= HS__EVENT_TAGS || !hs__hot_decode[tag] || r->wide_tid ||
        !size1 || size1 - 1 == VARIABLE_SIZE ||
        tag == HS_EV_NONMOVING_HEAP_CENSUS)
        return false;
    const hs_event_desc *d = &hs__event_table[tag];
    return d->name && d->min >= 0 && size1 - 1 >= (uint32_t)d->min &&
           d->size != HS_EVSIZE_VAR;
}

int hs__reader_decode(hs_reader *r, hs_event *ev)
{
    if (hs__type_info(r, ev->tag) & TI_HOT) {
        ev->known = true;
        hs__hot_decode[ev->tag](ev);
        return HS_OK;
    }
    if (ev->tag >= HS__EVENT_TAGS)
        return HS_OK;
    if (ev->tag == HS_EV_NONMOVING_HEAP_CENSUS && ev->payload_len == 13) {
        nonmoving_census_13(ev);
        return HS_OK;
    }
    const hs_event_desc *d = &hs__event_table[ev->tag];
    if (!d->name || d->min < 0 || ev->payload_len < (size_t)d->min)
        return HS_OK; /* unlisted, raw by choice, or an older layout */
    /* A tag the header declares variable where GHC's is fixed, or the
     * reverse, is another runtime's event under the same number (Mercury's
     * 39 is a variable string mapping, GHC's SPARK_STEAL a fixed u16):
     * left raw, as ghc-events leaves it unknown. */
    bool declared_var = (hs__type_info(r, ev->tag) & TI_SIZE) == VARIABLE_SIZE + 1;
    if (d->size != HS_EVSIZE_UNKNOWN &&
        declared_var != (d->size == HS_EVSIZE_VAR))
        return HS_OK;
    ev->known = true;
    /* GHC 6.12's wide thread ids are the descriptor loop's to narrow */
    if (hs__hot_decode[ev->tag] && !r->wide_tid) {
        hs__hot_decode[ev->tag](ev);
        return HS_OK;
    }
    struct cursor c = {ev->payload, ev->payload + ev->payload_len};
    for (unsigned i = 0; i < d->nfields; i++) {
        if (i == 0 && wide_thread(r, &d->fields[0], &c)) {
            *(uint32_t *)at(ev, d->fields[0].offset) = (uint32_t)hs_be64(c.p);
            c.p += 8;
            continue;
        }
        int st = take_field(r, ev, d, &d->fields[i], &c);
        if (st < 0)
            return st;
    }
    return HS_OK;
}

