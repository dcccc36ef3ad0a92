/*
 * The event table of heapscope/events.h made into data: one hs_event_desc
 * per tag, with field offsets into hs_event, for the reader's decoder, the
 * `events` printer, the tests' fingerprint and the test writer.
 */
#include "heapscope/reader.h"
#include "read/event_table.h"

#include <stddef.h>

/* The C size each kind of field has in hs_event, so that a field list that
 * names a member of the wrong type fails to compile. */
#define KSZ_U8 1
#define KSZ_U16 2
#define KSZ_U32 4
#define KSZ_U64 8
#define KSZ_U64_HEX 8
#define KSZ_BREAKDOWN 4
#define KSZ_U32_OPT 4
#define KSZ_U64_OPT 8
#define KSZ_CC_FLAGS 1
#define KSZ_TEXT sizeof(hs_str)
#define KSZ_BINARY sizeof(hs_str)
#define KSZ_ARGS sizeof(hs_str)
#define KSZ_CSTR sizeof(hs_str)
#define KSZ_FILTER sizeof(hs_str)
#define KSZ_CSTR_REQ sizeof(hs_str)
#define KSZ_STACK 1

/* The second and third members a kind fills, by the kind's convention. */
#define AUX_U8(m, a) 0
#define AUX_U16(m, a) 0
#define AUX_U32(m, a) 0
#define AUX_U64(m, a) 0
#define AUX_U64_HEX(m, a) 0
#define AUX_BREAKDOWN(m, a) 0
#define AUX_U32_OPT(m, a) 0
#define AUX_U64_OPT(m, a) offsetof(hs_event, u.m.a)
#define AUX_CC_FLAGS(m, a) 0
#define AUX_TEXT(m, a) 0
#define AUX_BINARY(m, a) 0
#define AUX_ARGS(m, a) offsetof(hs_event, u.m.a)
#define AUX_CSTR(m, a) 0
#define AUX_FILTER(m, a) 0
#define AUX_CSTR_REQ(m, a) 0
#define AUX_STACK(m, a) offsetof(hs_event, u.m.stack)
#define AUX2_STACK(m) offsetof(hs_event, u.m.stack_raw)
#define AUX2_U8(m) 0
#define AUX2_U16(m) 0
#define AUX2_U32(m) 0
#define AUX2_U64(m) 0
#define AUX2_U64_HEX(m) 0
#define AUX2_BREAKDOWN(m) 0
#define AUX2_U32_OPT(m) 0
#define AUX2_U64_OPT(m) 0
#define AUX2_CC_FLAGS(m) 0
#define AUX2_TEXT(m) 0
#define AUX2_BINARY(m) 0
#define AUX2_ARGS(m) 0
#define AUX2_CSTR(m) 0
#define AUX2_FILTER(m) 0
#define AUX2_CSTR_REQ(m) 0

#define FIELD(m, kind, cname, pname, aux) \
    {HS_FIELD_##kind, offsetof(hs_event, u.m.cname), AUX_##kind(m, aux), \
     AUX2_##kind(m), pname},

#define CHECK_FIELD(m, kind, cname, pname, aux) \
    _Static_assert(sizeof(((hs_event *)0)->u.m.cname) == KSZ_##kind, \
                   "field " #m "." #cname " is not of kind " #kind);

/* One array of fields per tag, ended by a zeroed sentinel so that a tag
 * without fields still has a (one-element) array. */
#define FIELDS_OF(tag, NAME, size, min, m, FIELDS, desc) \
    FIELDS(CHECK_FIELD, m) \
    static const hs_field_desc fields_##NAME[] = { FIELDS(FIELD, m) {0} };
HS_EVENT_TABLE(FIELDS_OF)

#define NFIELDS(NAME) \
    (uint8_t)(sizeof fields_##NAME / sizeof fields_##NAME[0] - 1)

#define ENTRY(tag, NAME, size, min, m, FIELDS, desc) \
    [tag] = {tag, size, min, NFIELDS(NAME), #NAME, desc, fields_##NAME},
const hs_event_desc hs__event_table[HS__EVENT_TAGS] = {HS_EVENT_TABLE(ENTRY)};

#define CHECK_TAG(tag, NAME, size, min, m, FIELDS, desc) \
    _Static_assert(tag < HS__EVENT_TAGS, #NAME " is beyond the table");
HS_EVENT_TABLE(CHECK_TAG)

const hs_event_desc *hs_event_get_desc(uint16_t tag)
{
    if (tag >= HS__EVENT_TAGS || !hs__event_table[tag].name)
        return NULL;
    return &hs__event_table[tag];
}

const char *hs_event_name(uint16_t tag)
{
    return tag < HS__EVENT_TAGS ? hs__event_table[tag].name : NULL;
}

static const void *at(const hs_event *ev, uint16_t offset)
{
    return (const char *)ev + offset;
}

uint64_t hs_event_field_uint(const hs_event *ev, const hs_field_desc *f)
{
    const void *p = at(ev, f->offset);
    switch (f->kind) {
    case HS_FIELD_U8: case HS_FIELD_CC_FLAGS: case HS_FIELD_STACK:
        return *(const uint8_t *)p;
    case HS_FIELD_U16:
        return *(const uint16_t *)p;
    case HS_FIELD_U32: case HS_FIELD_U32_OPT: case HS_FIELD_BREAKDOWN:
        return *(const uint32_t *)p;
    case HS_FIELD_U64: case HS_FIELD_U64_OPT: case HS_FIELD_U64_HEX:
        return *(const uint64_t *)p;
    case HS_FIELD_ARGS:
        return *(const uint32_t *)at(ev, f->aux);
    default:
        return 0;
    }
}

hs_str hs_event_field_str(const hs_event *ev, const hs_field_desc *f)
{
    switch (f->kind) {
    case HS_FIELD_TEXT: case HS_FIELD_BINARY: case HS_FIELD_ARGS:
    case HS_FIELD_CSTR: case HS_FIELD_FILTER: case HS_FIELD_CSTR_REQ:
        return *(const hs_str *)at(ev, f->offset);
    default:
        return (hs_str){"", 0};
    }
}

bool hs_event_field_present(const hs_event *ev, const hs_field_desc *f)
{
    if (f->kind == HS_FIELD_U64_OPT)
        return *(const bool *)at(ev, f->aux);
    return true;
}

const uint32_t *hs_event_field_stack(const hs_event *ev,
                                     const hs_field_desc *f)
{
    if (f->kind != HS_FIELD_STACK)
        return NULL;
    return *(const uint32_t *const *)at(ev, f->aux);
}

const uint8_t *hs_event_field_stack_raw(const hs_event *ev,
                                        const hs_field_desc *f)
{
    if (f->kind != HS_FIELD_STACK)
        return NULL;
    return *(const uint8_t *const *)at(ev, f->aux2);
}
