/*
 * Helpers shared by the library's source files; not part of the public
 * surface.
 */
#ifndef HEAPSCOPE_INTERNAL_H
#define HEAPSCOPE_INTERNAL_H

#include <stdint.h>

#if defined(__GNUC__)
#define HS_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#define HS_NOINLINE __attribute__((noinline))
#else
#define HS_PRINTF(fmt, args)
#define HS_NOINLINE
#endif

/* Big-endian loads: the eventlog's byte order on every machine. */
static inline uint16_t hs_be16(const uint8_t *p)
{
    return (uint16_t)((unsigned)p[0] << 8 | p[1]);
}

static inline uint32_t hs_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
           (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t hs_be64(const uint8_t *p)
{
    return (uint64_t)hs_be32(p) << 32 | hs_be32(p + 4);
}

/* --- util.c: memory helpers shared by the census and the renderers --- */

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/*
 * Makes room for `need` elements of `size` bytes in *ptr (capacity *cap,
 * in elements), doubling so appends are amortised O(1). Returns false
 * (nothing changed) when out of memory or when the size would overflow.
 */
bool hs_grow(void **ptr, size_t *cap, size_t need, size_t size);

/*
 * An arena: allocations that never move and are all freed together, so
 * pointers into it (names, stacks) stay valid for the owner's lifetime.
 */
typedef struct hs_arena hs_arena;
void hs_arena_init(hs_arena **a);
void hs_arena_free(hs_arena **a);
/* 8-byte aligned; NULL when out of memory. */
void *hs_arena_alloc(hs_arena **a, size_t size);
/* A NUL-terminated copy of len bytes; NULL when out of memory. */
char *hs_arena_strndup(hs_arena **a, const char *s, size_t len);

/* A fast, well-mixed 64-bit hash of a byte string. */
uint64_t hs_hash_bytes(const void *data, size_t len);

/*
 * An interning table: maps byte strings to dense indices 0, 1, 2, ... in
 * the order they were first seen. Keys are copied into an arena,
 * NUL-terminated and 8-byte aligned, so a key stays valid (and may be used
 * as a C string when it holds no NUL) until the table is freed.
 */
typedef struct hs_intern {
    hs_arena *arena;
    uint64_t *slots;      /* hash tag | index + 1, 0 = empty; 2^n of them */
    size_t nslots;
    struct hs_intern_key {
        const char *ptr;
        size_t len;
        uint64_t hash;
    } *keys;
    size_t count, cap;
} hs_intern;

void hs_intern_init(hs_intern *t);
void hs_intern_free(hs_intern *t);
/*
 * Finds or adds key; *index receives its index and *added whether it is
 * new. Returns false when out of memory (the table is unchanged).
 */
bool hs_intern_put(hs_intern *t, const void *key, size_t len,
                   uint32_t *index, bool *added);
/* The index of key, or UINT32_MAX when absent. */
uint32_t hs_intern_find(const hs_intern *t, const void *key, size_t len);

/* --- census.c: the entry points the .hp reader (census_hp.c) uses ----- */

struct hs_census;
/* Starts a sample at time ns; HS_OK or HS_ERR_NOMEM. */
int hs__census_hp_sample(struct hs_census *c, uint64_t time);
/* Adds bytes to band `name` (len bytes) in the open sample. */
int hs__census_hp_entry(struct hs_census *c, const char *name, size_t len,
                        uint64_t bytes);
void hs__census_hp_end_sample(struct hs_census *c);
/* A marker with empty text (an hp2ps MARK line). */
int hs__census_hp_marker(struct hs_census *c, uint64_t time);
/* Drops the last sample when it is empty (the .hp's closing sample). */
void hs__census_hp_drop_last(struct hs_census *c);
/* Sets the run's metadata from the .hp header (NULLs are left unset). */
int hs__census_hp_set(struct hs_census *c, const char *job, const char *date,
                      uint32_t breakdown, uint64_t end_ns);

/* The loader's fast path (census_load.c): hs_census_add_event without the
 * exported symbol's indirection, the table of tags the census reads, and
 * the bookkeeping of events it skipped without a call (their number, the
 * latest time and the highest capability among them). */
struct hs_event;
/* Adds an event whose tag the census reads, without the per-event
 * bookkeeping (the caller reports every event to hs__census_skipped). */
int hs__census_add_wanted(struct hs_census *c, const struct hs_event *ev);
void hs__census_skipped(struct hs_census *c, uint64_t events,
                        uint64_t max_time, int32_t max_cap);

/* --- util.c: buffered writing to a sink, for the text renderers ------- */

struct hs_sink;
/* Collects small writes and hands the sink 64 KiB at a time. The first
 * failure is kept in `status` and later writes are dropped. */
typedef struct hs_outbuf {
    struct hs_sink *sink;
    int status;
    size_t len;
    char buf[1u << 16];
} hs_outbuf;

void hs_outbuf_init(hs_outbuf *o, struct hs_sink *sink);
/* The slow path of hs_outbuf_write: drains the buffer first. */
void hs_outbuf_write_slow(hs_outbuf *o, const void *data, size_t len);
void hs_outbuf_puts(hs_outbuf *o, const char *s);
void hs_outbuf_u64(hs_outbuf *o, uint64_t v);

/* Inline so that a renderer's many small writes cost a copy each. */
static inline void hs_outbuf_write(hs_outbuf *o, const void *data,
                                   size_t len)
{
    if (len <= sizeof o->buf - o->len) {
        memcpy(o->buf + o->len, data, len);
        o->len += len;
    } else {
        hs_outbuf_write_slow(o, data, len);
    }
}

static inline void hs_outbuf_putc(hs_outbuf *o, char ch)
{
    if (o->len < sizeof o->buf)
        o->buf[o->len++] = ch;
    else
        hs_outbuf_write_slow(o, &ch, 1);
}
/* Nanoseconds as seconds with six decimals ("%f" without the locale). */
void hs_outbuf_seconds(hs_outbuf *o, uint64_t ns);
/* Flushes; returns the status (HS_OK or HS_ERR_IO). */
int hs_outbuf_flush(hs_outbuf *o);

/* --- census_hp.c: the push-fed .hp parser census_load.c drives -------- */

struct hs_error;
typedef struct hs_hp_parser hs_hp_parser;
hs_hp_parser *hs__hp_parser_new(struct hs_census *c);
void hs__hp_parser_free(hs_hp_parser *p);
/* HS_OK or a sticky error (HS_ERR_PARSE with err->line, HS_ERR_NOMEM). */
int hs__hp_parser_feed(hs_hp_parser *p, const void *data, size_t len,
                       struct hs_error *err);
/* Ends the input and finishes the census: HS_OK, HS_TRUNCATED (ends
 * inside a sample; *err holds the warning) or an error. */
int hs__hp_parser_finish(hs_hp_parser *p, struct hs_error *err);

#endif
