/*
 * The event layouts of Mono's log profiler, data version 17 (Mono 6.x),
 * as shared/spec/MLPD-NOTES.md records them from real files.
 *
 * Every event is: the event byte (low nibble type, high nibble subtype),
 * a uleb128 time delta, then its fields. Decoding is all-or-nothing: an
 * event is decoded into locals and the buffer's running time and method
 * are committed only when the whole event lay inside the available bytes,
 * so an event cut by a chunk edge is simply decoded again once its bytes
 * have arrived.
 */
#include "read/read_mlpd.h"
#include "read/read_mlpd_cursor.h"

#include <string.h>

static uint64_t get_ptr(mlpd_decoder *d, mlpd_cursor *c)
{
    return (d->ptr_base + (uint64_t)get_sleb(c)) & d->mask;
}

static uint64_t get_obj(mlpd_decoder *d, mlpd_cursor *c)
{
    return ((d->obj_base + (uint64_t)get_sleb(c)) & d->mask) << 3;
}

/* The next method: the buffer's running value plus a signed delta. */
static uint64_t get_method(mlpd_decoder *d, mlpd_cursor *c, uint64_t *m)
{
    *m += (uint64_t)get_sleb(c);
    return *m & d->mask;
}

static bool grow_u64(mlpd_decoder *d, uint64_t **arr, size_t *cap, size_t n)
{
    return hs_grow(d->alloc, (void **)arr, cap, n ? n : 1, sizeof **arr);
}

/* A backtrace: uleb count, then running method deltas. *m is the running
 * method value, advanced as frames are read. */
static int get_bt(mlpd_decoder *d, mlpd_cursor *c, hs_mlpd_event *ev,
                  uint64_t *m)
{
    size_t n = get_count(c);
    if (!grow_u64(d, &d->a, &d->acap, n))
        return -1;
    for (size_t i = 0; i < n && c->status == CUR_OK; i++)
        d->a[i] = get_method(d, c, m);
    ev->has_bt = true;
    ev->frames = d->a;
    ev->nframes = n;
    return 0;
}

static int dec_alloc(mlpd_decoder *d, mlpd_cursor *c, hs_mlpd_event *ev,
                     uint64_t *m)
{
    ev->kind = HS_MLPD_ALLOC;
    ev->u.alloc.vtable = get_ptr(d, c);
    ev->u.alloc.object = get_obj(d, c);
    ev->u.alloc.size = get_uleb(c);
    if (ev->byte == 0x10)
        return get_bt(d, c, ev, m);
    if (ev->byte != 0x00)
        bad(c, "an unknown ALLOC subtype");
    return 0;
}

static int dec_gc(mlpd_decoder *d, mlpd_cursor *c, hs_mlpd_event *ev,
                  uint64_t *m)
{
    switch (ev->byte) {
    case 0x11:
        ev->kind = HS_MLPD_GC_EVENT;
        ev->u.gc.type = get_byte(c);
        ev->u.gc.generation = get_byte(c);
        return 0;
    case 0x21:
        ev->kind = HS_MLPD_GC_RESIZE;
        ev->u.resize.heap_size = get_uleb(c);
        return 0;
    case 0x31: {
        ev->kind = HS_MLPD_GC_MOVE;
        size_t n = get_count(c);
        if (!grow_u64(d, &d->a, &d->acap, n))
            return -1;
        for (size_t i = 0; i < n && c->status == CUR_OK; i++)
            d->a[i] = get_obj(d, c);
        ev->u.move.objects = d->a;
        ev->u.move.n = n;
        return 0;
    }
    case 0x41: case 0x61:
        ev->kind = HS_MLPD_GC_HANDLE_CREATED;
        ev->u.handle.type = get_uleb(c);
        ev->u.handle.handle = get_uleb(c);
        ev->u.handle.object = get_obj(d, c);
        return ev->byte == 0x61 ? get_bt(d, c, ev, m) : 0;
    case 0x51: case 0x71:
        ev->kind = HS_MLPD_GC_HANDLE_DESTROYED;
        ev->u.handle.type = get_uleb(c);
        ev->u.handle.handle = get_uleb(c);
        return ev->byte == 0x71 ? get_bt(d, c, ev, m) : 0;
    case 0x81: ev->kind = HS_MLPD_GC_FINALIZE_START; return 0;
    case 0x91: ev->kind = HS_MLPD_GC_FINALIZE_END; return 0;
    case 0xa1: case 0xb1:
        ev->kind = ev->byte == 0xa1 ? HS_MLPD_GC_FINALIZE_OBJECT_START
                                    : HS_MLPD_GC_FINALIZE_OBJECT_END;
        ev->u.object.object = get_obj(d, c);
        return 0;
    default:
        bad(c, "an unknown GC subtype");
        return 0;
    }
}

static void dec_metadata(mlpd_decoder *d, mlpd_cursor *c, hs_mlpd_event *ev)
{
    ev->kind = HS_MLPD_METADATA;
    uint8_t sub = ev->byte >> 4;
    if (sub != 0 && sub != 2 && sub != 4) {
        bad(c, "an unknown METADATA subtype");
        return;
    }
    uint8_t action = sub / 2;
    ev->u.meta.action = action;
    ev->u.meta.kind = get_byte(c);
    ev->u.meta.pointer = get_ptr(d, c);
    switch (ev->u.meta.kind) {
    case HS_MLPD_META_CLASS:
    case HS_MLPD_META_ASSEMBLY:
        ev->u.meta.image = get_ptr(d, c);
        if (ev->u.meta.kind == HS_MLPD_META_ASSEMBLY ||
            action == HS_MLPD_META_LOAD)
            ev->u.meta.name = get_str(c);
        break;
    case HS_MLPD_META_IMAGE:
        ev->u.meta.name = get_str(c);
        if (action == HS_MLPD_META_LOAD)
            ev->u.meta.mvid = get_str(c);
        break;
    case HS_MLPD_META_DOMAIN:
    case HS_MLPD_META_THREAD:
        if (action == HS_MLPD_META_NAME)
            ev->u.meta.name = get_str(c);
        break;
    case HS_MLPD_META_CONTEXT:
        ev->u.meta.domain = get_ptr(d, c);
        break;
    case HS_MLPD_META_VTABLE:
        ev->u.meta.domain = get_ptr(d, c);
        ev->u.meta.klass = get_ptr(d, c);
        break;
    default:
        bad(c, "an unknown METADATA kind");
    }
}

static void dec_method(mlpd_decoder *d, mlpd_cursor *c, hs_mlpd_event *ev,
                       uint64_t *m)
{
    static const hs_mlpd_kind kinds[] = {
        HS_MLPD_KIND_COUNT, HS_MLPD_METHOD_LEAVE, HS_MLPD_METHOD_ENTER,
        HS_MLPD_METHOD_EXC_LEAVE, HS_MLPD_METHOD_JIT};
    uint8_t sub = ev->byte >> 4;
    if (sub == 0 || sub > 4) {
        bad(c, "an unknown METHOD subtype");
        return;
    }
    ev->kind = kinds[sub];
    uint64_t method = get_method(d, c, m);
    if (sub != 4) {
        ev->u.method.method = method;
        return;
    }
    ev->u.jit.method = method;
    ev->u.jit.code = get_ptr(d, c);
    ev->u.jit.code_size = get_uleb(c);
    ev->u.jit.name = get_str(c);
}

static int dec_exception(mlpd_decoder *d, mlpd_cursor *c, hs_mlpd_event *ev,
                         uint64_t *m)
{
    if (ev->byte == 0x04 || ev->byte == 0x84) {
        ev->kind = HS_MLPD_EXCEPTION_THROW;
        ev->u.object.object = get_obj(d, c);
        return ev->byte == 0x84 ? get_bt(d, c, ev, m) : 0;
    }
    if (ev->byte != 0x14) {
        bad(c, "an unknown EXCEPTION subtype");
        return 0;
    }
    ev->kind = HS_MLPD_EXCEPTION_CLAUSE;
    ev->u.clause.type = get_byte(c);
    ev->u.clause.index = get_uleb(c);
    ev->u.clause.method = get_method(d, c, m);
    ev->u.clause.object = get_obj(d, c);
    return 0;
}

static int dec_roots(mlpd_decoder *d, mlpd_cursor *c, hs_mlpd_event *ev)
{
    ev->kind = HS_MLPD_HEAP_ROOT;
    size_t n = get_count(c);
    if (!grow_u64(d, &d->a, &d->acap, n) || !grow_u64(d, &d->b, &d->bcap, n))
        return -1;
    for (size_t i = 0; i < n && c->status == CUR_OK; i++) {
        d->a[i] = get_ptr(d, c);
        d->b[i] = get_obj(d, c);
    }
    ev->u.roots.addresses = d->a;
    ev->u.roots.objects = d->b;
    ev->u.roots.n = n;
    return 0;
}

static int dec_heap_object(mlpd_decoder *d, mlpd_cursor *c, hs_mlpd_event *ev)
{
    ev->kind = HS_MLPD_HEAP_OBJECT;
    ev->u.heap_object.object = get_obj(d, c);
    ev->u.heap_object.vtable = get_ptr(d, c);
    ev->u.heap_object.size = get_uleb(c);
    ev->u.heap_object.generation = get_byte(c);
    size_t n = get_count(c);
    if (!grow_u64(d, &d->b, &d->bcap, n) || !grow_u64(d, &d->c, &d->ccap, n))
        return -1;
    uint64_t off = 0;
    for (size_t i = 0; i < n && c->status == CUR_OK; i++) {
        off += get_uleb(c); /* offsets are deltas from the previous one */
        d->b[i] = off;
        d->c[i] = get_obj(d, c);
    }
    ev->u.heap_object.ref_offsets = d->b;
    ev->u.heap_object.refs = d->c;
    ev->u.heap_object.nrefs = n;
    return 0;
}

static int dec_heap(mlpd_decoder *d, mlpd_cursor *c, hs_mlpd_event *ev)
{
    switch (ev->byte) {
    case 0x06: ev->kind = HS_MLPD_HEAP_START; return 0;
    case 0x16: ev->kind = HS_MLPD_HEAP_END; return 0;
    case 0x26: return dec_heap_object(d, c, ev);
    case 0x36: return dec_roots(d, c, ev);
    case 0x46:
        ev->kind = HS_MLPD_HEAP_ROOT_REGISTER;
        ev->u.root_register.start = get_ptr(d, c);
        ev->u.root_register.size = get_uleb(c);
        ev->u.root_register.source = get_byte(c);
        ev->u.root_register.key = get_ptr(d, c);
        ev->u.root_register.name = get_str(c);
        return 0;
    case 0x56:
        ev->kind = HS_MLPD_HEAP_ROOT_UNREGISTER;
        ev->u.root_unregister.start = get_ptr(d, c);
        return 0;
    default:
        bad(c, "an unknown HEAP subtype");
        return 0;
    }
}

static int dec_counters_desc(mlpd_decoder *d, mlpd_cursor *c,
                             hs_mlpd_event *ev)
{
    ev->kind = HS_MLPD_SAMPLE_COUNTERS_DESC;
    size_t n = get_count(c);
    if (!hs_grow(d->alloc, (void **)&d->descs, &d->dcap, n ? n : 1,
                 sizeof *d->descs))
        return -1;
    for (size_t i = 0; i < n && c->status == CUR_OK; i++) {
        hs_mlpd_counter_desc *k = &d->descs[i];
        k->section = get_uleb(c);
        /* MONO_COUNTER_PERFCOUNTERS sections carry their own name. */
        k->section_name = k->section == (1u << 15) ? get_str(c) : NULL;
        k->name = get_str(c);
        k->type = get_uleb(c);
        k->unit = get_uleb(c);
        k->variance = get_uleb(c);
        k->index = get_uleb(c);
    }
    ev->u.counters_desc.descs = d->descs;
    ev->u.counters_desc.n = n;
    return 0;
}

static void counter_value(mlpd_cursor *c, hs_mlpd_counter_value *v)
{
    switch (v->type) {
    case HS_MLPD_COUNTER_INT: case HS_MLPD_COUNTER_WORD:
    case HS_MLPD_COUNTER_LONG: case HS_MLPD_COUNTER_TIME_INTERVAL:
        v->i = get_sleb(c);
        break;
    case HS_MLPD_COUNTER_UINT: case HS_MLPD_COUNTER_ULONG:
        v->u = get_uleb(c);
        break;
    case HS_MLPD_COUNTER_DOUBLE:
        if (c->end - c->p < 8) {
            if (c->status == CUR_OK)
                c->status = CUR_SHORT;
            c->p = c->end;
            break;
        }
        memcpy(&v->d, c->p, 8); /* the writer's native double */
        c->p += 8;
        break;
    case HS_MLPD_COUNTER_STRING:
        v->s = get_byte(c) ? get_str(c) : NULL;
        break;
    default:
        bad(c, "an unknown counter type");
    }
}

static int dec_counters(mlpd_decoder *d, mlpd_cursor *c, hs_mlpd_event *ev)
{
    ev->kind = HS_MLPD_SAMPLE_COUNTERS;
    size_t n = 0;
    for (;;) {
        uint64_t index = get_uleb(c);
        if (c->status != CUR_OK || index == 0)
            break;
        if (!hs_grow(d->alloc, (void **)&d->vals, &d->vcap, n + 1,
                     sizeof *d->vals))
            return -1;
        hs_mlpd_counter_value *v = &d->vals[n++];
        memset(v, 0, sizeof *v);
        v->index = index;
        v->type = get_uleb(c);
        counter_value(c, v);
    }
    ev->u.counters.values = d->vals;
    ev->u.counters.n = n;
    return 0;
}

static int dec_sample(mlpd_decoder *d, mlpd_cursor *c, hs_mlpd_event *ev,
                      uint64_t *m)
{
    switch (ev->byte) {
    case 0x07: {
        ev->kind = HS_MLPD_SAMPLE_HIT;
        ev->u.hit.thread = get_ptr(d, c);
        size_t n = get_count(c);
        if (!grow_u64(d, &d->b, &d->bcap, n))
            return -1;
        for (size_t i = 0; i < n && c->status == CUR_OK; i++)
            d->b[i] = get_ptr(d, c);
        ev->u.hit.ips = d->b;
        ev->u.hit.nips = n;
        int st = get_bt(d, c, ev, m);
        ev->has_bt = false; /* the managed frames are not a backtrace flag */
        return st;
    }
    case 0x17:
        ev->kind = HS_MLPD_SAMPLE_USYM;
        ev->u.usym.address = get_ptr(d, c);
        ev->u.usym.size = get_uleb(c);
        ev->u.usym.name = get_str(c);
        return 0;
    case 0x37: return dec_counters_desc(d, c, ev);
    case 0x47: return dec_counters(d, c, ev);
    default:
        bad(c, "an unknown SAMPLE subtype");
        return 0;
    }
}

/* Runtime (JIT helper) and meta events. */
static void dec_other(mlpd_decoder *d, mlpd_cursor *c, hs_mlpd_event *ev)
{
    switch (ev->byte) {
    case 0x18:
        ev->kind = HS_MLPD_JITHELPER;
        ev->u.jithelper.type = get_byte(c);
        ev->u.jithelper.address = get_ptr(d, c);
        ev->u.jithelper.size = get_uleb(c);
        /* MONO_PROFILER_CODE_BUFFER_SPECIFIC_TRAMPOLINE carries a name. */
        if (ev->u.jithelper.type == 5)
            ev->u.jithelper.name = get_str(c);
        return;
    case 0x0a:
        ev->kind = HS_MLPD_SYNC_POINT;
        ev->u.sync.type = get_byte(c);
        return;
    case 0x1a:
        ev->kind = HS_MLPD_AOT_ID;
        ev->u.aot.id = get_str(c);
        return;
    default:
        bad(c, "an unknown event byte");
    }
}

int hs__mlpd_decode_event(mlpd_decoder *d, mlpd_cursor *c, hs_mlpd_event *ev)
{
    const uint8_t *start = c->p;
    c->status = CUR_OK;
    c->what = NULL;
    memset(&ev->u, 0, sizeof ev->u);
    ev->has_bt = false;
    ev->frames = NULL;
    ev->nframes = 0;
    ev->byte = get_byte(c);
    /* Deltas are added modulo 2^64: JIT and counter events can step back
     * in time with a 10-byte encoding of a negative delta. */
    uint64_t time = d->time + get_uleb(c);
    uint64_t m = d->method;
    int st = 0;
    if (c->status == CUR_OK) {
        switch (ev->byte & 0x0f) {
        case 0: st = dec_alloc(d, c, ev, &m); break;
        case 1: st = dec_gc(d, c, ev, &m); break;
        case 2: dec_metadata(d, c, ev); break;
        case 3: dec_method(d, c, ev, &m); break;
        case 4: st = dec_exception(d, c, ev, &m); break;
        case 5:
            ev->kind = HS_MLPD_MONITOR;
            ev->u.monitor.type = get_byte(c);
            ev->u.monitor.object = get_obj(d, c);
            if (ev->byte == 0x85)
                st = get_bt(d, c, ev, &m);
            else if (ev->byte != 0x05)
                bad(c, "an unknown MONITOR subtype");
            break;
        case 6: st = dec_heap(d, c, ev); break;
        case 7: st = dec_sample(d, c, ev, &m); break;
        default: dec_other(d, c, ev); break;
        }
    }
    if (st < 0)
        return -1;
    if (c->status != CUR_OK) {
        c->p = start;
        return c->status;
    }
    d->time = time;
    d->method = m;
    ev->time = time;
    ev->size = (uint64_t)(c->p - start);
    return CUR_OK;
}

void hs__mlpd_decoder_free(mlpd_decoder *d)
{
    hs_free(d->alloc, d->a);
    hs_free(d->alloc, d->b);
    hs_free(d->alloc, d->c);
    hs_free(d->alloc, d->descs);
    hs_free(d->alloc, d->vals);
    memset(d, 0, sizeof *d);
}

const char *hs_mlpd_kind_name(hs_mlpd_kind kind)
{
    static const char *const names[HS_MLPD_KIND_COUNT] = {
        "BUFFER", "ALLOC", "GC_EVENT", "GC_RESIZE", "GC_MOVE",
        "GC_HANDLE_CREATED", "GC_HANDLE_DESTROYED", "GC_FINALIZE_START",
        "GC_FINALIZE_END", "GC_FINALIZE_OBJECT_START",
        "GC_FINALIZE_OBJECT_END", "METADATA", "METHOD_LEAVE", "METHOD_ENTER",
        "METHOD_EXC_LEAVE", "METHOD_JIT", "EXCEPTION_THROW",
        "EXCEPTION_CLAUSE", "MONITOR", "HEAP_START", "HEAP_END",
        "HEAP_OBJECT", "HEAP_ROOT", "HEAP_ROOT_REGISTER",
        "HEAP_ROOT_UNREGISTER", "SAMPLE_HIT", "SAMPLE_USYM",
        "SAMPLE_COUNTERS_DESC", "SAMPLE_COUNTERS", "JITHELPER", "SYNC_POINT",
        "AOT_ID"};
    return (unsigned)kind < HS_MLPD_KIND_COUNT ? names[kind] : "?";
}

const char *hs_mlpd_meta_name(uint8_t kind)
{
    static const char *const names[] = {"?", "class", "image", "assembly",
                                        "domain", "thread", "context",
                                        "vtable"};
    return kind < sizeof names / sizeof names[0] ? names[kind] : "?";
}
