/*
 * The Mono event table of heapscope/mlpd_events.h made into data: one
 * hs_mlpd_event_desc per event byte (and one for BUFFER) with field
 * offsets into hs_mlpd_event, for the `events` printer and any caller that
 * walks an event's fields; and the names of kinds and metadata kinds.
 */
#include "heapscope/mlpd.h"

#include <stddef.h>

#define HS__CAT(a, b) HS__CAT2(a, b)
#define HS__CAT2(a, b) a##b
#define HS__FIRST(a, b) a
#define HS__SECOND(a, b) b

/* Names of values, from the names lists. */
#define NAME_AT(v, NAME, s) [v] = s,
static const char *const names_HS_MLPD_META_TABLE[] = {
    HS_MLPD_META_TABLE(NAME_AT)};
static const char *const names_HS_MLPD_ACTION_TABLE[] = {
    HS_MLPD_ACTION_TABLE(NAME_AT)};
#define NAMES_OF(list) HS__CAT(names_, list), \
    (uint8_t)(sizeof HS__CAT(names_, list) / sizeof HS__CAT(names_, list)[0])

/* Kinds in groups that lay out a descriptor alike. */
#define GROUP_ULEB SCALAR
#define GROUP_U8 SCALAR
#define GROUP_PTR SCALAR
#define GROUP_OBJ SCALAR
#define GROUP_METHOD SCALAR
#define GROUP_STR SCALAR
#define GROUP_FIXED SCALAR
#define GROUP_FIXED_PTR SCALAR
#define GROUP_ULEB_SUM SCALAR
#define GROUP_COUNTER SCALAR
#define GROUP_CONST CONST
#define GROUP_SELECT SELECT
#define GROUP_BT LIST
#define GROUP_FRAMES LIST
#define GROUP_COLUMNS COLS
#define GROUP_PAIRS COLS
#define GROUP_RECORDS RECS
#define GROUP_RECORDS_0 RECS

#define EV_OFF(m, cn) (uint16_t)offsetof(hs_mlpd_event, u.m.cn)
#define EV_SIZE(m, cn) (uint8_t)sizeof(((hs_mlpd_event *)0)->u.m.cn)
#define WHEN_OF(m, wf, W, wv) \
    HS_MLPD_WHEN_##W, EV_SIZE(m, wf), EV_OFF(m, wf), wv

/* Descriptor fields in hs_mlpd_field_desc's order:
 * kind, flags, when, when_size, nelems, offset, aux, when_offset,
 * elem_size, when_value, name, names, nnames, elems. */
#define D_SCALAR(m, K, cn, p, a, wf, W, wv) \
    {HS_MLPD_FIELD_##K, a, HS_MLPD_WHEN_##W, EV_SIZE(m, wf), 0, \
     EV_OFF(m, cn), 0, EV_OFF(m, wf), 0, wv, p, NULL, 0, NULL},
#define D_CONST(m, K, cn, p, a, wf, W, wv) \
    {HS_MLPD_FIELD_##K, 0, HS_MLPD_WHEN_##W, EV_SIZE(m, wf), 0, \
     EV_OFF(m, cn), 0, EV_OFF(m, wf), 0, wv, p, NAMES_OF(HS__SECOND a), NULL},
#define D_SELECT(m, K, cn, p, a, wf, W, wv) \
    {HS_MLPD_FIELD_##K, 0, HS_MLPD_WHEN_##W, EV_SIZE(m, wf), 0, \
     EV_OFF(m, cn), 0, EV_OFF(m, wf), 0, wv, p, NAMES_OF(HS__FIRST a), NULL},
#define D_LIST(m, K, cn, p, a, wf, W, wv) \
    {HS_MLPD_FIELD_##K, 0, 0, 0, 0, \
     (uint16_t)offsetof(hs_mlpd_event, frames), \
     (uint16_t)offsetof(hs_mlpd_event, nframes), 0, 0, 0, p, NULL, 0, NULL},
#define D_COLS(m, K, cn, p, a, wf, W, wv) \
    {HS_MLPD_FIELD_##K, 0, 0, 0, NELEMS(a), EV_OFF(m, cn), 0, 0, 0, 0, p, \
     NULL, 0, elems_##a},
#define D_RECS(m, K, cn, p, a, wf, W, wv) \
    {HS_MLPD_FIELD_##K, 0, 0, 0, NELEMS(a), EV_OFF(m, cn), EV_OFF(m, n), 0, \
     (uint16_t)sizeof *((hs_mlpd_event *)0)->u.m.cn, 0, p, NULL, 0, \
     elems_##a},
#define DESC(m, K, cn, p, a, wf, W, wv) \
    HS__CAT(D_, GROUP_##K)(m, K, cn, p, a, wf, W, wv)

/* Element fields of records: offsets into the element struct T. */
#define R_DESC(T, K, cn, p, a, wf, W, wv) \
    {HS_MLPD_FIELD_##K, a, HS_MLPD_WHEN_##W, \
     (uint8_t)sizeof(((T *)0)->wf), 0, (uint16_t)offsetof(T, cn), 0, \
     (uint16_t)offsetof(T, wf), 0, wv, p, NULL, 0, NULL},

/* The element lists of the array fields, declared before the rows. */
#define E_SCALAR(m, a)
#define E_CONST(m, a)
#define E_SELECT(m, a)
#define E_LIST(m, a)
#define D_COLUMN(m, K, cn, p, a, wf, W, wv) \
    D_SCALAR(m, K, cn, p, (a) | HS_MLPD_FLAG_COLUMN, wf, W, wv)
#define E_COLS(m, a) \
    static const hs_mlpd_field_desc elems_##a[] = {a(D_COLUMN, m)};
#define E_RECS(m, a) \
    static const hs_mlpd_field_desc elems_##a[] = {a(R_DESC, T)};
#define ELEMS(m, K, cn, p, a, wf, W, wv) HS__CAT(E_, GROUP_##K)(m, a)
#define NELEMS(a) (uint8_t)(sizeof elems_##a / sizeof elems_##a[0])

#define ROW_ELEMS(byte, KIND, m, FIELDS) FIELDS(ELEMS, m)
HS_MLPD_EVENT_TABLE(ROW_ELEMS)

/* One array of fields per row, ended by a zeroed sentinel so that a row
 * without fields still has one. */
#define ROW_FIELDS(byte, KIND, m, FIELDS) \
    static const hs_mlpd_field_desc fields_##byte[] = {FIELDS(DESC, m){0}};
HS_MLPD_EVENT_TABLE(ROW_FIELDS)
static const hs_mlpd_field_desc fields_buffer[] = {
    HS_MLPD_F_BUFFER(DESC, buffer){0}};

#define NFIELDS(arr) (uint8_t)(sizeof arr / sizeof arr[0] - 1)
#define ROW_DESC(byte, KIND, m, FIELDS) \
    [byte] = {byte, HS_MLPD_##KIND, NFIELDS(fields_##byte), #KIND, \
              fields_##byte},
static const hs_mlpd_event_desc rows[256] = {HS_MLPD_EVENT_TABLE(ROW_DESC)};
static const hs_mlpd_event_desc buffer_row = {
    0, HS_MLPD_BUFFER, NFIELDS(fields_buffer), "BUFFER", fields_buffer};

const hs_mlpd_event_desc *hs_mlpd_event_get_desc(const hs_mlpd_event *ev)
{
    if (ev->kind == HS_MLPD_BUFFER)
        return &buffer_row;
    const hs_mlpd_event_desc *d = &rows[ev->byte];
    return d->name && d->kind == ev->kind ? d : NULL;
}

const hs_mlpd_event_desc *hs_mlpd_byte_desc(uint8_t byte)
{
    return rows[byte].name ? &rows[byte] : NULL;
}

const char *hs_mlpd_kind_name(hs_mlpd_kind kind)
{
#define KIND_NAME(K) #K,
    static const char *const names[HS_MLPD_KIND_COUNT] = {
        HS_MLPD_KIND_TABLE(KIND_NAME)};
    return (unsigned)kind < HS_MLPD_KIND_COUNT ? names[kind] : "?";
}

const char *hs_mlpd_meta_name(uint8_t kind)
{
    const char *const *n = names_HS_MLPD_META_TABLE;
    size_t count = sizeof names_HS_MLPD_META_TABLE / sizeof *n;
    return kind < count && n[kind] ? n[kind] : "?";
}

static const void *at(const void *base, uint16_t offset)
{
    return (const char *)base + offset;
}

/* An unsigned value of `size` bytes (1 or 8) at p. */
static uint64_t value_at(const void *p, uint8_t size)
{
    return size == 1 ? *(const uint8_t *)p : *(const uint64_t *)p;
}

uint64_t hs_mlpd_field_uint(const void *base, const hs_mlpd_field_desc *f)
{
    if (f->flags & HS_MLPD_FLAG_COLUMN)
        return 0;
    switch (f->kind) {
    case HS_MLPD_FIELD_U8: case HS_MLPD_FIELD_CONST: case HS_MLPD_FIELD_SELECT:
        return *(const uint8_t *)at(base, f->offset);
    case HS_MLPD_FIELD_ULEB: case HS_MLPD_FIELD_PTR: case HS_MLPD_FIELD_OBJ:
    case HS_MLPD_FIELD_METHOD: case HS_MLPD_FIELD_FIXED:
    case HS_MLPD_FIELD_FIXED_PTR:
        return *(const uint64_t *)at(base, f->offset);
    default:
        return 0;
    }
}

const char *hs_mlpd_field_str(const void *base, const hs_mlpd_field_desc *f)
{
    if (f->kind != HS_MLPD_FIELD_STR)
        return NULL;
    return *(const char *const *)at(base, f->offset);
}

const char *hs_mlpd_field_value_name(const void *base,
                                     const hs_mlpd_field_desc *f)
{
    if (!f->names)
        return NULL;
    uint64_t v = hs_mlpd_field_uint(base, f);
    return v < f->nnames && f->names[v] ? f->names[v] : "?";
}

bool hs_mlpd_field_present(const void *base, const hs_mlpd_field_desc *f)
{
    if (f->when == HS_MLPD_WHEN_ALL)
        return true;
    uint64_t v = value_at(at(base, f->when_offset), f->when_size);
    if (f->when == HS_MLPD_WHEN_EQ)
        return v == f->when_value;
    return v < 64 && (f->when_value >> v & 1);
}

size_t hs_mlpd_field_count(const void *base, const hs_mlpd_field_desc *f)
{
    switch (f->kind) {
    case HS_MLPD_FIELD_COLUMNS: case HS_MLPD_FIELD_PAIRS:
        return *(const size_t *)at(base, f->offset);
    case HS_MLPD_FIELD_BT: case HS_MLPD_FIELD_FRAMES:
    case HS_MLPD_FIELD_RECORDS: case HS_MLPD_FIELD_RECORDS_0:
        return *(const size_t *)at(base, f->aux);
    default:
        return 0;
    }
}

const uint64_t *hs_mlpd_field_column(const void *base,
                                     const hs_mlpd_field_desc *f)
{
    if (f->kind == HS_MLPD_FIELD_BT || f->kind == HS_MLPD_FIELD_FRAMES ||
        f->flags & HS_MLPD_FLAG_COLUMN)
        return *(const uint64_t *const *)at(base, f->offset);
    return NULL;
}

const void *hs_mlpd_field_record(const void *base,
                                 const hs_mlpd_field_desc *f, size_t i)
{
    if ((f->kind != HS_MLPD_FIELD_RECORDS &&
         f->kind != HS_MLPD_FIELD_RECORDS_0) ||
        i >= hs_mlpd_field_count(base, f))
        return NULL;
    const char *p = *(const char *const *)at(base, f->offset);
    return p + i * f->elem_size;
}

const hs_mlpd_counter_value *hs_mlpd_field_counter(
    const void *base, const hs_mlpd_field_desc *f)
{
    return f->kind == HS_MLPD_FIELD_COUNTER
               ? (const hs_mlpd_counter_value *)base : NULL;
}
