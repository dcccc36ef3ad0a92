#include "evwriter.h"

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
    if (w->len + n > w->cap) {
        size_t cap = w->cap ? w->cap : 1024;
        while (cap < w->len + n)
            cap *= 2;
        w->data = realloc(w->data, cap);
        if (!w->data)
            abort();
        w->cap = cap;
    }
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

void evw_declare_ghc92(evw *w)
{
    static const struct { uint16_t tag, size; const char *desc; } t[] = {
        {0, 4, "Create thread"}, {1, 4, "Run thread"},
        {2, 10, "Stop thread"}, {3, 4, "Thread runnable"},
        {4, 6, "Migrate thread"}, {8, 6, "Wakeup thread"},
        {9, 0, "Starting GC"}, {10, 0, "Finished GC"},
        {11, 0, "Request sequential GC"}, {12, 0, "Request parallel GC"},
        {18, 14, "Block marker"}, {19, EVW_VAR, "User message"},
        {29, EVW_VAR, "RTS name and version"},
        {30, EVW_VAR, "Program arguments"}, {43, 16, "Wall clock time"},
        {49, 12, "Total heap mem ever allocated"},
        {50, 12, "Current heap size"}, {51, 12, "Current heap live data"},
        {52, 38, "Heap static parameters"}, {53, 58, "GC statistics"},
        {54, 0, "Synchronise stop-the-world GC"},
        {58, EVW_VAR, "User marker"}, {91, 12, "Current heap size by blocks"},
        {160, EVW_VAR, "Start of heap profile"},
        {161, EVW_VAR, "Cost center definition"},
        {162, 8, "Start of heap profile sample"},
        {163, EVW_VAR, "Heap profile cost-centre sample"},
        {164, EVW_VAR, "Heap profile string sample"},
        {165, 8, "End of heap profile sample"},
        {166, 16, "Start of heap profile (biographical) sample"},
        {167, EVW_VAR, "Time profile cost-centre stack"},
        {168, 8, "Start of a time profile"},
        {169, EVW_VAR, "An IPE entry"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        evw_declare(w, t[i].tag, t[i].size, t[i].desc);
}

void evw_start_ghc92(evw *w)
{
    evw_init(w);
    evw_header_begin(w);
    evw_declare_ghc92(w);
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
    size_t start = evw_event(w, 18, time, 0);
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

void evw_heap_prof_begin(evw *w, uint64_t t, uint64_t period, uint32_t bd)
{
    size_t s = evw_event(w, 160, t, 1);
    evw_u8(w, 0);
    evw_u64(w, period);
    evw_u32(w, bd);
    for (int i = 0; i < 7; i++)
        evw_cstr(w, "");
    evw_event_end(w, s);
}

void evw_cost_centre(evw *w, uint64_t t, uint32_t id, const char *label,
                     const char *module, const char *srcloc, int caf)
{
    size_t s = evw_event(w, 161, t, 1);
    evw_u32(w, id);
    evw_cstr(w, label);
    evw_cstr(w, module);
    evw_cstr(w, srcloc);
    evw_u8(w, caf ? 1 : 0);
    evw_event_end(w, s);
}

void evw_sample_begin(evw *w, uint64_t t, uint64_t era)
{
    evw_event(w, 162, t, 0);
    evw_u64(w, era);
}

void evw_sample_end(evw *w, uint64_t t, uint64_t era)
{
    evw_event(w, 165, t, 0);
    evw_u64(w, era);
}

void evw_bio_sample_begin(evw *w, uint64_t t, uint64_t era, uint64_t time)
{
    evw_event(w, 166, t, 0);
    evw_u64(w, era);
    evw_u64(w, time);
}

void evw_sample_ccs(evw *w, uint64_t t, uint64_t bytes, int depth,
                    const uint32_t *stack)
{
    size_t s = evw_event(w, 163, t, 1);
    evw_u8(w, 0);
    evw_u64(w, bytes);
    evw_u8(w, (uint8_t)depth);
    for (int i = 0; i < depth; i++)
        evw_u32(w, stack[i]);
    evw_event_end(w, s);
}

void evw_sample_string(evw *w, uint64_t t, uint64_t bytes, const char *label)
{
    size_t s = evw_event(w, 164, t, 1);
    evw_u8(w, 0);
    evw_u64(w, bytes);
    evw_cstr(w, label);
    evw_event_end(w, s);
}

void evw_ipe(evw *w, uint64_t t, uint64_t addr, const char *name,
             const char *closure, const char *type, const char *label,
             const char *module, const char *srcloc)
{
    size_t s = evw_event(w, 169, t, 1);
    evw_u64(w, addr);
    evw_cstr(w, name);
    evw_cstr(w, closure);
    evw_cstr(w, type);
    evw_cstr(w, label);
    evw_cstr(w, module);
    evw_cstr(w, srcloc);
    evw_event_end(w, s);
}

void evw_string_event(evw *w, uint16_t tag, uint64_t t, const char *s)
{
    size_t st = evw_event(w, tag, t, 1);
    evw_bytes(w, s, strlen(s));
    evw_event_end(w, st);
}
