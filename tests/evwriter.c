#include "evwriter.h"

#include <heapscope/reader.h>

#include <stdlib.h>
#include <string.h>

void evw_init(evw *w) { memset(w, 0, sizeof *w); }

void evw_free(evw *w)
{
    free(w->data);
    memset(w, 0, sizeof *w);
}

void evw_bytes(evw *w, const void *p, size_t n)
{
    if (!n)
        return; /* p may be NULL (an empty stack): no memcpy of NULL */
    if (w->len + n > w->cap) {
        size_t cap = w->cap ? w->cap : 1024;
        while (cap < w->len + n)
            cap *= 2;
        w->data = realloc(w->data, cap);
        if (!w->data)
            abort();
        w->cap = cap;
    }
    if (n) /* p may be NULL for an empty field */
        memcpy(w->data + w->len, p, n);
    w->len += n;
}

void evw_u8(evw *w, uint8_t v) { evw_bytes(w, &v, 1); }

void evw_u16(evw *w, uint16_t v)
{
    uint8_t b[2] = {(uint8_t)(v >> 8), (uint8_t)v};
    evw_bytes(w, b, 2);
}

void evw_u32(evw *w, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16),
                    (uint8_t)(v >> 8), (uint8_t)v};
    evw_bytes(w, b, 4);
}

void evw_u64(evw *w, uint64_t v)
{
    evw_u32(w, (uint32_t)(v >> 32));
    evw_u32(w, (uint32_t)v);
}

void evw_cstr(evw *w, const char *s) { evw_bytes(w, s, strlen(s) + 1); }

static void patch16(evw *w, size_t at, uint16_t v)
{
    w->data[at] = (uint8_t)(v >> 8);
    w->data[at + 1] = (uint8_t)v;
}

static void patch32(evw *w, size_t at, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        w->data[at + i] = (uint8_t)(v >> (24 - 8 * i));
}

static void patch64(evw *w, size_t at, uint64_t v)
{
    patch32(w, at, (uint32_t)(v >> 32));
    patch32(w, at + 4, (uint32_t)v);
}

void evw_header_begin(evw *w)
{
    evw_u32(w, 0x68647262);
    evw_u32(w, 0x68657462);
}

void evw_declare(evw *w, uint16_t tag, uint16_t size, const char *desc)
{
    evw_u32(w, 0x65746200);
    evw_u16(w, tag);
    evw_u16(w, size);
    evw_u32(w, (uint32_t)strlen(desc));
    evw_bytes(w, desc, strlen(desc));
    evw_u32(w, 0);
    evw_u32(w, 0x65746500);
}

void evw_header_end(evw *w)
{
    evw_u32(w, 0x68657465);
    evw_u32(w, 0x68647265);
    evw_u32(w, 0x64617462);
}

void evw_declare_tag(evw *w, uint16_t tag)
{
    const hs_event_desc *d = hs_event_get_desc(tag);
    if (!d || d->size == HS_EVSIZE_UNKNOWN)
        abort(); /* a test bug: the table has no size for it */
    evw_declare(w, tag, (uint16_t)d->size, d->description);
}

void evw_declare_ghc92(evw *w)
{
    static const uint16_t t[] = {
        HS_EV_CREATE_THREAD, HS_EV_RUN_THREAD, HS_EV_STOP_THREAD,
        HS_EV_THREAD_RUNNABLE, HS_EV_MIGRATE_THREAD, HS_EV_THREAD_WAKEUP,
        HS_EV_GC_START, HS_EV_GC_END, HS_EV_REQUEST_SEQ_GC,
        HS_EV_REQUEST_PAR_GC, HS_EV_BLOCK_MARKER, HS_EV_USER_MSG,
        HS_EV_RTS_IDENTIFIER, HS_EV_PROGRAM_ARGS, HS_EV_WALL_CLOCK_TIME,
        HS_EV_HEAP_ALLOCATED, HS_EV_HEAP_SIZE, HS_EV_HEAP_LIVE,
        HS_EV_HEAP_INFO_GHC, HS_EV_GC_STATS_GHC, HS_EV_GC_GLOBAL_SYNC,
        HS_EV_USER_MARKER, HS_EV_BLOCKS_SIZE, HS_EV_HEAP_PROF_BEGIN,
        HS_EV_HEAP_PROF_COST_CENTRE, HS_EV_HEAP_PROF_SAMPLE_BEGIN,
        HS_EV_HEAP_PROF_SAMPLE_COST_CENTRE, HS_EV_HEAP_PROF_SAMPLE_STRING,
        HS_EV_HEAP_PROF_SAMPLE_END, HS_EV_HEAP_BIO_PROF_SAMPLE_BEGIN,
        HS_EV_PROF_SAMPLE_COST_CENTRE, HS_EV_PROF_BEGIN, HS_EV_IPE,
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        evw_declare_tag(w, t[i]);
}

void evw_start_ghc92(evw *w)
{
    evw_init(w);
    evw_header_begin(w);
    evw_declare_ghc92(w);
    evw_header_end(w);
}

void evw_start_ghc612(evw *w)
{
    /* The table of ghc-events' queens-ghc-6.12.1.eventlog: 64-bit thread
     * ids, and STARTUP declared empty. */
    static const struct {
        uint16_t tag, size;
        const char *desc;
    } t[] = {
        {0, 8, "Create thread"}, {1, 8, "Run thread"},
        {2, 10, "Stop thread"}, {3, 8, "Thread runnable"},
        {4, 10, "Migrate thread"}, {5, 8, "Run spark"},
        {6, 10, "Steal spark"}, {7, 0, "Shutdown"},
        {8, 10, "Wakeup thread"}, {9, 0, "Starting GC"},
        {10, 0, "Finished GC"}, {11, 0, "Request sequential GC"},
        {12, 0, "Request parallel GC"}, {15, 8, "Create spark thread"},
        {16, EVW_VAR, "Log message"}, {17, 0, "Startup"},
        {18, 14, "Block marker"}, {19, EVW_VAR, "User message"},
    };
    evw_init(w);
    evw_header_begin(w);
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        evw_declare(w, t[i].tag, t[i].size, t[i].desc);
    evw_header_end(w);
}

size_t evw_event(evw *w, uint16_t tag, uint64_t time, int variable)
{
    size_t start = w->len;
    evw_u16(w, tag);
    evw_u64(w, time);
    if (variable)
        evw_u16(w, 0);
    return start;
}

void evw_event_end(evw *w, size_t start)
{
    patch16(w, start + 10, (uint16_t)(w->len - start - 12));
}

size_t evw_block(evw *w, uint64_t time, uint16_t cap)
{
    size_t start = evw_event(w, HS_EV_BLOCK_MARKER, time, 0);
    evw_u32(w, 0);
    evw_u64(w, 0);
    evw_u16(w, cap);
    return start;
}

void evw_block_end(evw *w, size_t start, uint64_t end_time)
{
    patch32(w, start + 10, (uint32_t)(w->len - start));
    patch64(w, start + 14, end_time);
}

void evw_data_end(evw *w) { evw_u16(w, 0xffff); }

/* One field from the event's union member, laid out as its kind says. */
static void put_field(evw *w, const hs_event *ev, const hs_field_desc *f)
{
    uint64_t v = hs_event_field_uint(ev, f);
    hs_str s = hs_event_field_str(ev, f);
    switch (f->kind) {
    case HS_FIELD_U8: case HS_FIELD_CC_FLAGS: evw_u8(w, (uint8_t)v); break;
    case HS_FIELD_U16: evw_u16(w, (uint16_t)v); break;
    case HS_FIELD_U32: case HS_FIELD_U32_OPT: case HS_FIELD_BREAKDOWN:
        evw_u32(w, (uint32_t)v);
        break;
    case HS_FIELD_U64: case HS_FIELD_U64_HEX: evw_u64(w, v); break;
    case HS_FIELD_U64_OPT:
        if (hs_event_field_present(ev, f))
            evw_u64(w, v);
        break;
    case HS_FIELD_TEXT: case HS_FIELD_BINARY: evw_bytes(w, s.ptr, s.len); break;
    case HS_FIELD_ARGS: case HS_FIELD_CSTR: case HS_FIELD_FILTER:
    case HS_FIELD_CSTR_REQ:
        evw_bytes(w, s.ptr, s.len);
        evw_u8(w, 0);
        break;
    case HS_FIELD_STACK: {
        const uint32_t *ids = hs_event_field_stack(ev, f);
        evw_u8(w, (uint8_t)v);
        if (ids)
            for (uint64_t i = 0; i < v; i++)
                evw_u32(w, ids[i]);
        else
            evw_bytes(w, hs_event_field_stack_raw(ev, f), 4 * v);
        break;
    }
    }
}

size_t evw_write(evw *w, uint64_t time, const hs_event *ev)
{
    const hs_event_desc *d = hs_event_get_desc(ev->tag);
    if (!d || d->size == HS_EVSIZE_UNKNOWN)
        abort();
    int variable = d->size == HS_EVSIZE_VAR;
    size_t start = evw_event(w, ev->tag, time, variable);
    for (unsigned i = 0; i < d->nfields; i++)
        put_field(w, ev, &d->fields[i]);
    if (variable)
        evw_event_end(w, start);
    return start;
}

static hs_str str(const char *s) { return (hs_str){s, strlen(s)}; }

void evw_heap_prof_begin(evw *w, uint64_t t, uint64_t period, uint32_t bd)
{
    hs_event ev = {.tag = HS_EV_HEAP_PROF_BEGIN};
    ev.u.heap_prof_begin.period = period;
    ev.u.heap_prof_begin.breakdown = bd;
    for (int i = 0; i < 7; i++)
        ev.u.heap_prof_begin.filters[i] = str("");
    evw_write(w, t, &ev);
}

void evw_cost_centre(evw *w, uint64_t t, uint32_t id, const char *label,
                     const char *module, const char *srcloc, int caf)
{
    hs_event ev = {.tag = HS_EV_HEAP_PROF_COST_CENTRE};
    ev.u.cost_centre.id = id;
    ev.u.cost_centre.label = str(label);
    ev.u.cost_centre.module = str(module);
    ev.u.cost_centre.srcloc = str(srcloc);
    ev.u.cost_centre.flags = caf ? HS_CC_FLAG_CAF : 0;
    evw_write(w, t, &ev);
}

void evw_sample_begin(evw *w, uint64_t t, uint64_t era)
{
    hs_event ev = {.tag = HS_EV_HEAP_PROF_SAMPLE_BEGIN};
    ev.u.sample.era = era;
    evw_write(w, t, &ev);
}

void evw_sample_end(evw *w, uint64_t t, uint64_t era)
{
    hs_event ev = {.tag = HS_EV_HEAP_PROF_SAMPLE_END};
    ev.u.sample.era = era;
    evw_write(w, t, &ev);
}

void evw_bio_sample_begin(evw *w, uint64_t t, uint64_t era, uint64_t time)
{
    hs_event ev = {.tag = HS_EV_HEAP_BIO_PROF_SAMPLE_BEGIN};
    ev.u.bio_sample.era = era;
    ev.u.bio_sample.time = time;
    evw_write(w, t, &ev);
}

void evw_sample_ccs(evw *w, uint64_t t, uint64_t bytes, int depth,
                    const uint32_t *stack)
{
    hs_event ev = {.tag = HS_EV_HEAP_PROF_SAMPLE_COST_CENTRE};
    ev.u.ccs_sample.bytes = bytes;
    ev.u.ccs_sample.depth = (uint8_t)depth;
    ev.u.ccs_sample.stack = stack;
    evw_write(w, t, &ev);
}

void evw_prof_begin(evw *w, uint64_t t, uint64_t tick_ns)
{
    hs_event ev = {.tag = HS_EV_PROF_BEGIN};
    ev.u.prof_begin.tick_interval = tick_ns;
    evw_write(w, t, &ev);
}

void evw_prof_sample(evw *w, uint64_t t, uint32_t cap, uint64_t tick,
                     int depth, const uint32_t *stack)
{
    hs_event ev = {.tag = HS_EV_PROF_SAMPLE_COST_CENTRE};
    ev.u.prof_sample.cap = cap;
    ev.u.prof_sample.tick = tick;
    ev.u.prof_sample.depth = (uint8_t)depth;
    ev.u.prof_sample.stack = stack;
    evw_write(w, t, &ev);
}

void evw_sample_string(evw *w, uint64_t t, uint64_t bytes, const char *label)
{
    hs_event ev = {.tag = HS_EV_HEAP_PROF_SAMPLE_STRING};
    ev.u.string_sample.bytes = bytes;
    ev.u.string_sample.label = str(label);
    evw_write(w, t, &ev);
}

void evw_ipe(evw *w, uint64_t t, uint64_t addr, const char *name,
             const char *closure, const char *type, const char *label,
             const char *module, const char *srcloc)
{
    hs_event ev = {.tag = HS_EV_IPE};
    ev.u.ipe.address = addr;
    ev.u.ipe.table_name = str(name);
    ev.u.ipe.closure_desc = str(closure);
    ev.u.ipe.type_desc = str(type);
    ev.u.ipe.label = str(label);
    ev.u.ipe.module = str(module);
    ev.u.ipe.srcloc = str(srcloc);
    evw_write(w, t, &ev);
}

void evw_ipe_ghc910(evw *w, uint64_t t, uint64_t addr, const char *name,
                    const char *closure, const char *type, const char *label,
                    const char *module, const char *srcloc)
{
    size_t start = w->len;
    evw_ipe(w, t, addr, name, closure, type, label, module, srcloc);
    patch16(w, start + 10, (uint16_t)(w->len - start - 12 + 1));
}

void evw_string_event(evw *w, uint16_t tag, uint64_t t, const char *s)
{
    size_t st = evw_event(w, tag, t, 1);
    evw_bytes(w, s, strlen(s));
    evw_event_end(w, st);
}
