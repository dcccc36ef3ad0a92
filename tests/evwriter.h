/*
 * A tiny eventlog writer for tests: builds headers and events byte by byte
 * so tests can make any log, including malformed ones, in the layout of any
 * GHC version.
 */
#ifndef HEAPSCOPE_TEST_EVWRITER_H
#define HEAPSCOPE_TEST_EVWRITER_H

#include <stddef.h>
#include <stdint.h>

typedef struct evw {
    uint8_t *data;
    size_t len, cap;
} evw;

#define EVW_VAR 0xffff

void evw_init(evw *w);
void evw_free(evw *w);
void evw_u8(evw *w, uint8_t v);
void evw_u16(evw *w, uint16_t v);
void evw_u32(evw *w, uint32_t v);
void evw_u64(evw *w, uint64_t v);
void evw_bytes(evw *w, const void *p, size_t n);
/* A string with its NUL. */
void evw_cstr(evw *w, const char *s);

/* Header: begin, declare types (size EVW_VAR for variable), end. */
void evw_header_begin(evw *w);
void evw_declare(evw *w, uint16_t tag, uint16_t size, const char *desc);
void evw_header_end(evw *w); /* 'hete', 'hdre', 'datb' */

/* Declares tag with the size and description of the event table. */
void evw_declare_tag(evw *w, uint16_t tag);

/* Declares the event types GHC 9.2 writes for heap profiling, GC
 * statistics, markers and threads, with their real sizes. */
void evw_declare_ghc92(evw *w);

/* evw_init, then a whole header declaring the GHC 9.2 types above. */
void evw_start_ghc92(evw *w);

/* evw_init, then the header GHC 6.12 wrote: thread ids of 8 bytes and
 * STARTUP declared 0 bytes (its events carry 2; see read_header.c). */
void evw_start_ghc612(evw *w);

/* Starts an event; for a variable event the length is patched by
 * evw_event_end(). Returns the offset of the event. */
size_t evw_event(evw *w, uint16_t tag, uint64_t time, int variable);
void evw_event_end(evw *w, size_t start);

/* A block marker for cap (0xffff = global) whose size is patched by
 * evw_block_end(). */
size_t evw_block(evw *w, uint64_t time, uint16_t cap);
void evw_block_end(evw *w, size_t start, uint64_t end_time);

void evw_data_end(evw *w);

/*
 * Writes ev (tag and the fields of its union member, as the event table
 * lays them out) stamped with time; a variable event gets its length. A
 * U64_OPT field is written when present; a STACK from `stack`, or from
 * `stack_raw` when stack is NULL. Returns the event's offset.
 */
struct hs_event;
size_t evw_write(evw *w, uint64_t time, const struct hs_event *ev);

/* Convenience events, through evw_write. */
void evw_heap_prof_begin(evw *w, uint64_t t, uint64_t period, uint32_t bd);
void evw_cost_centre(evw *w, uint64_t t, uint32_t id, const char *label,
                     const char *module, const char *srcloc, int caf);
void evw_sample_begin(evw *w, uint64_t t, uint64_t era);
void evw_sample_end(evw *w, uint64_t t, uint64_t era);
void evw_bio_sample_begin(evw *w, uint64_t t, uint64_t era, uint64_t time);
void evw_sample_ccs(evw *w, uint64_t t, uint64_t bytes, int depth,
                    const uint32_t *stack);
void evw_sample_string(evw *w, uint64_t t, uint64_t bytes, const char *label);
void evw_prof_begin(evw *w, uint64_t t, uint64_t tick_ns);
void evw_prof_sample(evw *w, uint64_t t, uint32_t cap, uint64_t tick,
                     int depth, const uint32_t *stack);
void evw_ipe(evw *w, uint64_t t, uint64_t addr, const char *name,
             const char *closure, const char *type, const char *label,
             const char *module, const char *srcloc);
/* An IPE event as the postIPE that builds "file:span" writes it (GHC 9.10
 * era): its declared length one byte more than its fields (see
 * read_eventlog.c). */
void evw_ipe_ghc910(evw *w, uint64_t t, uint64_t addr, const char *name,
                    const char *closure, const char *type, const char *label,
                    const char *module, const char *srcloc);
void evw_string_event(evw *w, uint16_t tag, uint64_t t, const char *s);

#endif
