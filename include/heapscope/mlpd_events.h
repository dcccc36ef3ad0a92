/*
 * heapscope/mlpd_events.h: the one table of Mono log-profiler events
 * (.mlpd, log format 3.0, data version 17; shared/spec/MLPD-NOTES.md).
 *
 * HS_MLPD_EVENT_TABLE is an X-macro, as HS_EVENT_TABLE is for eventlogs:
 * every event byte heapscope decodes, once, with the hs_mlpd_kind it
 * yields, the hs_mlpd_event union member its fields land in and its field
 * list in file order (after the event byte and the uleb128 time delta).
 * From it come the reader's decoding (read_mlpd_events.c), the field
 * descriptors of hs_mlpd_event_get_desc() (mlpd.h) and through them the
 * `heapscope events` printer, so a layout is written in one place.
 *
 *   X(byte, KIND, member, FIELDS)
 *
 * FIELDS is a field-list macro HS_MLPD_F_x(F, m) expanding to one
 *
 *   F(m, KIND, cname, "printed name", arg, when_field, WHEN, when_value)
 *
 * per field: KIND an hs_mlpd_field_kind without HS_MLPD_FIELD_, cname the
 * member of hs_mlpd_event's u.m, arg what the kind takes (CONST: (value,
 * NAMES), SELECT: (NAMES, "the message when no name fits"), NAMES a list
 * X(value, NAME, "name"); arrays: their element list; else the field's
 * HS_MLPD_FLAG_* bits), and the field is in the file only when the
 * earlier field when_field satisfies WHEN (ALL: always; IN: its value is a
 * bit of when_value; EQ: it equals when_value).
 *
 * Arrays name an element list as their arg: COLUMNS and PAIRS a list
 * HS_MLPD_C_x(F, m) of uint64_t columns (cname of each: the column's
 * pointer member; the array's own cname: the count member), RECORDS and
 * RECORDS_0 a list HS_MLPD_R_x(F, T) of members of the element struct T
 * (the array's cname: its pointer member, the count being the member n).
 */
#ifndef HEAPSCOPE_MLPD_EVENTS_H
#define HEAPSCOPE_MLPD_EVENTS_H

/* Self-contained like events.h: the tables need nothing else. */
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Event kinds, one per distinct layout, in hs_mlpd_kind's order (BUFFER
 * is a pseudo-event for each buffer header): X(KIND). */
#define HS_MLPD_KIND_TABLE(X) \
    X(BUFFER) X(ALLOC) X(GC_EVENT) X(GC_RESIZE) X(GC_MOVE) \
    X(GC_HANDLE_CREATED) X(GC_HANDLE_DESTROYED) X(GC_FINALIZE_START) \
    X(GC_FINALIZE_END) X(GC_FINALIZE_OBJECT_START) \
    X(GC_FINALIZE_OBJECT_END) X(METADATA) X(METHOD_LEAVE) X(METHOD_ENTER) \
    X(METHOD_EXC_LEAVE) X(METHOD_JIT) X(EXCEPTION_THROW) \
    X(EXCEPTION_CLAUSE) X(MONITOR) X(HEAP_START) X(HEAP_END) \
    X(HEAP_OBJECT) X(HEAP_ROOT) X(HEAP_ROOT_REGISTER) \
    X(HEAP_ROOT_UNREGISTER) X(SAMPLE_HIT) X(SAMPLE_USYM) \
    X(SAMPLE_COUNTERS_DESC) X(SAMPLE_COUNTERS) X(JITHELPER) X(SYNC_POINT) \
    X(AOT_ID)

/* Event types (the event byte's low nibble) for the reader's message on
 * an unknown byte, "an unknown NAME subtype": X(type, NAME, fallback),
 * fallback the byte whose fields an unknown subtype is read with before
 * it is refused, or -1. Types from 8 on are "an unknown event byte". */
#define HS_MLPD_TYPE_TABLE(X) \
    X(0, ALLOC, 0x00) X(1, GC, -1) X(2, METADATA, -1) X(3, METHOD, -1) \
    X(4, EXCEPTION, -1) X(5, MONITOR, 0x05) X(6, HEAP, -1) X(7, SAMPLE, -1)

/* METADATA kinds (the byte after the time delta): X(value, NAME, "name"). */
#define HS_MLPD_META_TABLE(X) \
    X(1, CLASS, "class") X(2, IMAGE, "image") X(3, ASSEMBLY, "assembly") \
    X(4, DOMAIN, "domain") X(5, THREAD, "thread") X(6, CONTEXT, "context") \
    X(7, VTABLE, "vtable")

/* METADATA actions (the event byte's high nibble, halved). */
#define HS_MLPD_ACTION_TABLE(X) \
    X(0, NAME, "name") X(1, LOAD, "load") X(2, UNLOAD, "unload")

/* Field flags (the arg of a scalar field). */
#define HS_MLPD_FLAG_HIDDEN 1u /* not printed (the line shows it, or it
                                  only types another field) */
#define HS_MLPD_FLAG_KEY 2u    /* a record's key, printed first */
#define HS_MLPD_FLAG_COLUMN 4u /* set by the library on the element fields
                                  of COLUMNS and PAIRS */

#define HS__MF(F, m, K, c, p) F(m, K, c, p, 0, c, ALL, 0)
#define HS__MFF(F, m, K, c, p, fl) F(m, K, c, p, fl, c, ALL, 0)
#define HS__MBT(F, m) F(m, BT, frames, "bt", 0, frames, ALL, 0)
#define HS__META_BIT(v) ((uint64_t)1 << (v))

/* BUFFER: the header's values (read by the framing, not by this table). */
#define HS_MLPD_F_BUFFER(F, m) HS__MF(F, m, FIXED, len, "len") \
    HS__MFF(F, m, FIXED, time_base, "time_base", HS_MLPD_FLAG_HIDDEN) \
    HS__MF(F, m, FIXED_PTR, ptr_base, "ptr_base") \
    HS__MF(F, m, FIXED_PTR, obj_base, "obj_base") \
    HS__MF(F, m, FIXED_PTR, method_base, "method_base")

#define HS_MLPD_F_NONE(F, m)
#define HS_MLPD_F_ALLOC(F, m) HS__MF(F, m, PTR, vtable, "vtable") \
    HS__MF(F, m, OBJ, object, "object") HS__MF(F, m, ULEB, size, "size")
#define HS_MLPD_F_ALLOC_BT(F, m) HS_MLPD_F_ALLOC(F, m) HS__MBT(F, m)
#define HS_MLPD_F_GC(F, m) HS__MF(F, m, U8, type, "type") \
    HS__MF(F, m, U8, generation, "gen")
#define HS_MLPD_F_RESIZE(F, m) HS__MF(F, m, ULEB, heap_size, "heap_size")
#define HS_MLPD_C_MOVE(F, m) HS__MF(F, m, OBJ, objects, "old_new")
#define HS_MLPD_F_MOVE(F, m) F(m, COLUMNS, n, "", HS_MLPD_C_MOVE, n, ALL, 0)
#define HS_MLPD_F_HANDLE_DESTROYED(F, m) HS__MF(F, m, ULEB, type, "type") \
    HS__MF(F, m, ULEB, handle, "handle")
#define HS_MLPD_F_HANDLE_DESTROYED_BT(F, m) \
    HS_MLPD_F_HANDLE_DESTROYED(F, m) HS__MBT(F, m)
#define HS_MLPD_F_HANDLE_CREATED(F, m) HS_MLPD_F_HANDLE_DESTROYED(F, m) \
    HS__MF(F, m, OBJ, object, "object")
#define HS_MLPD_F_HANDLE_CREATED_BT(F, m) \
    HS_MLPD_F_HANDLE_CREATED(F, m) HS__MBT(F, m)
#define HS_MLPD_F_OBJECT(F, m) HS__MF(F, m, OBJ, object, "object")
#define HS_MLPD_F_OBJECT_BT(F, m) HS_MLPD_F_OBJECT(F, m) HS__MBT(F, m)

/* METADATA: the tail after the pointer depends on the kind, and on the
 * action (the row): which kinds carry a name and an mvid. */
#define HS__META_IN(a, b) (HS__META_BIT(HS_MLPD_META_##a) | \
                           HS__META_BIT(HS_MLPD_META_##b))
#define HS__MLPD_F_META(F, m, act, name_in, mvid_in) \
    F(m, CONST, action, "action", (act, HS_MLPD_ACTION_TABLE), \
      action, ALL, 0) \
    F(m, SELECT, kind, "kind", \
      (HS_MLPD_META_TABLE, "an unknown METADATA kind"), kind, ALL, 0) \
    HS__MF(F, m, PTR, pointer, "ptr") \
    F(m, PTR, image, "image", 0, kind, IN, HS__META_IN(CLASS, ASSEMBLY)) \
    F(m, PTR, domain, "domain", 0, kind, IN, HS__META_IN(CONTEXT, VTABLE)) \
    F(m, PTR, klass, "class", 0, kind, IN, HS__META_BIT(HS_MLPD_META_VTABLE)) \
    F(m, STR, name, "name", 0, kind, IN, name_in) \
    F(m, STR, mvid, "mvid", 0, kind, IN, mvid_in)
#define HS_MLPD_F_META_NAME(F, m) HS__MLPD_F_META(F, m, 0, \
    HS__META_IN(IMAGE, ASSEMBLY) | HS__META_IN(DOMAIN, THREAD), 0)
#define HS_MLPD_F_META_LOAD(F, m) HS__MLPD_F_META(F, m, 1, \
    HS__META_IN(CLASS, IMAGE) | HS__META_BIT(HS_MLPD_META_ASSEMBLY), \
    HS__META_BIT(HS_MLPD_META_IMAGE))
#define HS_MLPD_F_META_UNLOAD(F, m) HS__MLPD_F_META(F, m, 2, \
    HS__META_IN(IMAGE, ASSEMBLY), 0)

#define HS_MLPD_F_METHOD(F, m) HS__MF(F, m, METHOD, method, "method")
#define HS_MLPD_F_JIT(F, m) HS__MF(F, m, METHOD, method, "method") \
    HS__MF(F, m, PTR, code, "code") HS__MF(F, m, ULEB, code_size, "code_size") \
    HS__MF(F, m, STR, name, "name")
#define HS_MLPD_F_CLAUSE(F, m) HS__MF(F, m, U8, type, "type") \
    HS__MF(F, m, ULEB, index, "index") HS__MF(F, m, METHOD, method, "method") \
    HS__MF(F, m, OBJ, object, "object")
#define HS_MLPD_F_MONITOR(F, m) HS__MF(F, m, U8, type, "type") \
    HS__MF(F, m, OBJ, object, "object")
#define HS_MLPD_F_MONITOR_BT(F, m) HS_MLPD_F_MONITOR(F, m) HS__MBT(F, m)

/* HEAP_OBJECT references: offsets into the object (each a uleb128 delta
 * from the previous one) and the objects referenced. */
#define HS_MLPD_C_REFS(F, m) HS__MF(F, m, ULEB_SUM, ref_offsets, "offset") \
    HS__MF(F, m, OBJ, refs, "object")
#define HS_MLPD_F_HEAP_OBJECT(F, m) HS__MF(F, m, OBJ, object, "object") \
    HS__MF(F, m, PTR, vtable, "vtable") HS__MF(F, m, ULEB, size, "size") \
    HS__MF(F, m, U8, generation, "gen") \
    F(m, PAIRS, nrefs, "refs", HS_MLPD_C_REFS, nrefs, ALL, 0)
#define HS_MLPD_C_ROOTS(F, m) HS__MF(F, m, PTR, addresses, "addresses") \
    HS__MF(F, m, OBJ, objects, "objects")
#define HS_MLPD_F_ROOTS(F, m) F(m, COLUMNS, n, "", HS_MLPD_C_ROOTS, n, ALL, 0)
#define HS_MLPD_F_ROOT_REGISTER(F, m) HS__MF(F, m, PTR, start, "start") \
    HS__MF(F, m, ULEB, size, "size") HS__MF(F, m, U8, source, "source") \
    HS__MF(F, m, PTR, key, "key") HS__MF(F, m, STR, name, "name")
#define HS_MLPD_F_ROOT_UNREGISTER(F, m) HS__MF(F, m, PTR, start, "start")

#define HS_MLPD_C_IPS(F, m) HS__MF(F, m, PTR, ips, "ips")
#define HS_MLPD_F_HIT(F, m) HS__MF(F, m, PTR, thread, "thread") \
    F(m, COLUMNS, nips, "", HS_MLPD_C_IPS, nips, ALL, 0) \
    F(m, FRAMES, frames, "frames", 0, frames, ALL, 0)
#define HS_MLPD_F_USYM(F, m) HS__MF(F, m, PTR, address, "address") \
    HS__MF(F, m, ULEB, size, "size") HS__MF(F, m, STR, name, "name")

/* MONO_COUNTER_PERFCOUNTERS sections (1 << 15) carry their own name. */
#define HS_MLPD_R_CDESC(F, T) \
    HS__MF(F, hs_mlpd_counter_desc, ULEB, section, "section") \
    F(hs_mlpd_counter_desc, STR, section_name, "section_name", 0, section, \
      EQ, 1u << 15) \
    HS__MF(F, hs_mlpd_counter_desc, STR, name, "name") \
    HS__MF(F, hs_mlpd_counter_desc, ULEB, type, "type") \
    HS__MF(F, hs_mlpd_counter_desc, ULEB, unit, "unit") \
    HS__MF(F, hs_mlpd_counter_desc, ULEB, variance, "variance") \
    HS__MFF(F, hs_mlpd_counter_desc, ULEB, index, "index", HS_MLPD_FLAG_KEY)
#define HS_MLPD_F_CDESC(F, m) \
    F(m, RECORDS, descs, "", HS_MLPD_R_CDESC, descs, ALL, 0)
/* Values until an index of 0; the value's encoding follows its type. */
#define HS_MLPD_R_CVAL(F, T) \
    HS__MFF(F, hs_mlpd_counter_value, ULEB, index, "index", HS_MLPD_FLAG_KEY) \
    HS__MFF(F, hs_mlpd_counter_value, ULEB, type, "type", \
            HS_MLPD_FLAG_HIDDEN) \
    HS__MF(F, hs_mlpd_counter_value, COUNTER, i, "value")
#define HS_MLPD_F_CVAL(F, m) \
    F(m, RECORDS_0, values, "", HS_MLPD_R_CVAL, values, ALL, 0)

/* MONO_PROFILER_CODE_BUFFER_SPECIFIC_TRAMPOLINE (5) carries a name. */
#define HS_MLPD_F_JITHELPER(F, m) HS__MF(F, m, U8, type, "type") \
    HS__MF(F, m, PTR, address, "address") HS__MF(F, m, ULEB, size, "size") \
    F(m, STR, name, "name", 0, type, EQ, 5)
#define HS_MLPD_F_SYNC(F, m) HS__MF(F, m, U8, type, "type")
#define HS_MLPD_F_AOT(F, m) HS__MF(F, m, STR, id, "id")

/* X(byte, KIND, member, FIELDS) */
#define HS_MLPD_EVENT_TABLE(X) \
    X(0x00, ALLOC, alloc, HS_MLPD_F_ALLOC) \
    X(0x10, ALLOC, alloc, HS_MLPD_F_ALLOC_BT) \
    X(0x11, GC_EVENT, gc, HS_MLPD_F_GC) \
    X(0x21, GC_RESIZE, resize, HS_MLPD_F_RESIZE) \
    X(0x31, GC_MOVE, move, HS_MLPD_F_MOVE) \
    X(0x41, GC_HANDLE_CREATED, handle, HS_MLPD_F_HANDLE_CREATED) \
    X(0x61, GC_HANDLE_CREATED, handle, HS_MLPD_F_HANDLE_CREATED_BT) \
    X(0x51, GC_HANDLE_DESTROYED, handle, HS_MLPD_F_HANDLE_DESTROYED) \
    X(0x71, GC_HANDLE_DESTROYED, handle, HS_MLPD_F_HANDLE_DESTROYED_BT) \
    X(0x81, GC_FINALIZE_START, object, HS_MLPD_F_NONE) \
    X(0x91, GC_FINALIZE_END, object, HS_MLPD_F_NONE) \
    X(0xa1, GC_FINALIZE_OBJECT_START, object, HS_MLPD_F_OBJECT) \
    X(0xb1, GC_FINALIZE_OBJECT_END, object, HS_MLPD_F_OBJECT) \
    X(0x02, METADATA, meta, HS_MLPD_F_META_NAME) \
    X(0x22, METADATA, meta, HS_MLPD_F_META_LOAD) \
    X(0x42, METADATA, meta, HS_MLPD_F_META_UNLOAD) \
    X(0x13, METHOD_LEAVE, method, HS_MLPD_F_METHOD) \
    X(0x23, METHOD_ENTER, method, HS_MLPD_F_METHOD) \
    X(0x33, METHOD_EXC_LEAVE, method, HS_MLPD_F_METHOD) \
    X(0x43, METHOD_JIT, jit, HS_MLPD_F_JIT) \
    X(0x04, EXCEPTION_THROW, object, HS_MLPD_F_OBJECT) \
    X(0x84, EXCEPTION_THROW, object, HS_MLPD_F_OBJECT_BT) \
    X(0x14, EXCEPTION_CLAUSE, clause, HS_MLPD_F_CLAUSE) \
    X(0x05, MONITOR, monitor, HS_MLPD_F_MONITOR) \
    X(0x85, MONITOR, monitor, HS_MLPD_F_MONITOR_BT) \
    X(0x06, HEAP_START, object, HS_MLPD_F_NONE) \
    X(0x16, HEAP_END, object, HS_MLPD_F_NONE) \
    X(0x26, HEAP_OBJECT, heap_object, HS_MLPD_F_HEAP_OBJECT) \
    X(0x36, HEAP_ROOT, roots, HS_MLPD_F_ROOTS) \
    X(0x46, HEAP_ROOT_REGISTER, root_register, HS_MLPD_F_ROOT_REGISTER) \
    X(0x56, HEAP_ROOT_UNREGISTER, root_unregister, HS_MLPD_F_ROOT_UNREGISTER) \
    X(0x07, SAMPLE_HIT, hit, HS_MLPD_F_HIT) \
    X(0x17, SAMPLE_USYM, usym, HS_MLPD_F_USYM) \
    X(0x37, SAMPLE_COUNTERS_DESC, counters_desc, HS_MLPD_F_CDESC) \
    X(0x47, SAMPLE_COUNTERS, counters, HS_MLPD_F_CVAL) \
    X(0x18, JITHELPER, jithelper, HS_MLPD_F_JITHELPER) \
    X(0x0a, SYNC_POINT, sync, HS_MLPD_F_SYNC) \
    X(0x1a, AOT_ID, aot, HS_MLPD_F_AOT)

/* How a field is laid out in the file and where it lands. */
typedef enum hs_mlpd_field_kind {
    HS_MLPD_FIELD_ULEB,      /* uleb128, shown in decimal */
    HS_MLPD_FIELD_U8,        /* one byte, decimal */
    HS_MLPD_FIELD_PTR,       /* sleb128 from the buffer's ptr_base, hex */
    HS_MLPD_FIELD_OBJ,       /* sleb128 from obj_base, in 8-byte units */
    HS_MLPD_FIELD_METHOD,    /* sleb128 step of the buffer's running
                                method value, hex */
    HS_MLPD_FIELD_STR,       /* NUL-terminated; NULL when not in the file */
    HS_MLPD_FIELD_CONST,     /* no bytes: the row's value, named by
                                hs_mlpd_field_value_name() */
    HS_MLPD_FIELD_SELECT,    /* a byte naming one of a set (named by
                                hs_mlpd_field_value_name()); another
                                value makes the event unreadable */
    HS_MLPD_FIELD_BT,        /* backtrace: uleb128 count, count METHODs
                                into the event's frames (has_bt set) */
    HS_MLPD_FIELD_FRAMES,    /* the same, has_bt left false */
    HS_MLPD_FIELD_COLUMNS,   /* uleb128 count, count x one value per
                                element field, each into its own array */
    HS_MLPD_FIELD_PAIRS,     /* as COLUMNS, shown NAME=[a:b,...] */
    HS_MLPD_FIELD_ULEB_SUM,  /* in a column: a uleb128 step from the
                                previous element's value */
    HS_MLPD_FIELD_RECORDS,   /* uleb128 count, count x element fields
                                into an array of structs */
    HS_MLPD_FIELD_RECORDS_0, /* records until a key of 0 (not kept) */
    HS_MLPD_FIELD_COUNTER,   /* a counter value (hs_mlpd_counter_value)
                                encoded as its type says */
    HS_MLPD_FIELD_FIXED,     /* BUFFER: a header value, decimal */
    HS_MLPD_FIELD_FIXED_PTR  /* BUFFER: a header value, hex */
} hs_mlpd_field_kind;

/* When a field is in the file, by an earlier field's value. */
enum { HS_MLPD_WHEN_ALL = 0, HS_MLPD_WHEN_IN = 1, HS_MLPD_WHEN_EQ = 2 };

/* One field. Offsets are into the hs_mlpd_event, or for the elements of
 * RECORDS into one element struct; for COLUMNS elements, of the column's
 * pointer. */
typedef struct hs_mlpd_field_desc {
    hs_mlpd_field_kind kind;
    uint8_t flags;           /* HS_MLPD_FLAG_* */
    uint8_t when;            /* HS_MLPD_WHEN_* */
    uint8_t when_size;       /* bytes of the deciding field */
    uint8_t nelems;          /* arrays: element fields */
    uint16_t offset;         /* the value; arrays: the count (COLUMNS,
                                PAIRS) or the pointer (others) */
    uint16_t aux;            /* BT, FRAMES, RECORDS*: the count; else 0 */
    uint16_t when_offset;    /* of the deciding field */
    uint16_t elem_size;      /* RECORDS*: of one element */
    uint64_t when_value;     /* IN: a bit per value; EQ: the value */
    const char *name;        /* as `heapscope events` prints it */
    const char *const *names; /* CONST, SELECT: a name per value */
    uint8_t nnames;
    const struct hs_mlpd_field_desc *elems;
} hs_mlpd_field_desc;

/* One row of the table (or BUFFER). */
typedef struct hs_mlpd_event_desc {
    uint8_t byte;            /* 0 for BUFFER */
    uint8_t kind;            /* hs_mlpd_kind */
    uint8_t nfields;
    const char *name;        /* "HEAP_OBJECT" */
    const hs_mlpd_field_desc *fields;
} hs_mlpd_event_desc;

#ifdef __cplusplus
}
#endif

#endif
