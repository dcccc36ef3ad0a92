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
#define HS_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define HS_PRINTF(fmt, args)
#define HS_NOINLINE
#define HS_ALWAYS_INLINE inline
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

/* a + b, or UINT64_MAX when that overflows: byte and count sums saturate
 * (a hostile file can hold values near 2^64), so that a sum is never
 * smaller than one of its parts. */
static inline uint64_t hs_add_sat(uint64_t a, uint64_t b)
{
    return a + b < a ? UINT64_MAX : a + b;
}

/* --- util.c: memory helpers shared by the census and the renderers --- */

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "heapscope/common.h"

/* --- options.c: options structs that grow ------------------------------ */

/*
 * Fills the caller's options struct dst of `size` bytes (the size its
 * header knew) from this build's defaults def (def_size bytes): the fields
 * both know, zero past them, and the struct's leading size_t set to size.
 * Does nothing when size is too small to hold that size_t.
 */
void hs__options_fill(void *dst, size_t size, const void *def,
                      size_t def_size);

/*
 * Takes the caller's options src (NULL: keeps dst) into dst, which holds
 * this build's defaults and is dst_size bytes long: copies the fields both
 * know, and sets dst's size to dst_size. HS_ERR_INVALID when src's size
 * was never set (below a size_t: not from hs_NOUN_options_init) or when
 * src, from a newer header, sets a field past those this build knows.
 */
int hs__options_take(void *dst, size_t dst_size, const void *src);

/* --- error.c: the one setter of an hs_error ----------------------------- */

#include <stdarg.h>

/* hs_error.event_index of an error at no event. */
#define HS_NO_EVENT UINT64_MAX

/* Where an error happened: byte offset, event index (HS_NO_EVENT: none)
 * and line (0: none), as hs_error has them. */
typedef struct hs_error_at {
    uint64_t offset, event_index, line;
} hs_error_at;

/*
 * Records code, where (at; NULL: offset 0, no event, no line) and the
 * message in *e, keeping the first-error contract: a record that holds an
 * error already keeps it (so out of memory, once recorded, stays); one
 * that holds HS_OK or a warning (code > 0) takes the new record. e may
 * be NULL. Returns
 * code, for `return hs__error_set(...)`.
 */
int hs__error_set(hs_error *e, int code, const hs_error_at *at,
                  const char *fmt, ...) HS_PRINTF(4, 5);
int hs__error_vset(hs_error *e, int code, const hs_error_at *at,
                   const char *fmt, va_list ap) HS_PRINTF(4, 0);

/* Empties *e (when not NULL): objects start so, and a call that reports
 * into its caller's hs_error empties it first. */
void hs__error_clear(hs_error *e);

/*
 * The library's only ways to allocate: through the object's allocator, or
 * the C library's when it is NULL. An object keeps a copy of the allocator
 * it was made with (hs_alloc_copy) and hands a pointer to that copy to
 * every helper below.
 */
static inline void *hs_malloc(const hs_allocator *a, size_t n)
{
    return a ? a->malloc_fn(a->user, n ? n : 1) : malloc(n ? n : 1);
}

static inline void *hs_realloc(const hs_allocator *a, void *p, size_t n)
{
    return a ? a->realloc_fn(a->user, p, n ? n : 1) : realloc(p, n ? n : 1);
}

static inline void hs_free(const hs_allocator *a, void *p)
{
    if (!p)
        return;
    if (a)
        a->free_fn(a->user, p);
    else
        free(p);
}

/* n * size zeroed bytes, or NULL when out of memory or on overflow. */
void *hs_calloc(const hs_allocator *a, size_t n, size_t size);
/* A NUL-terminated copy of len bytes of s, or NULL. */
char *hs_strndup(const hs_allocator *a, const char *s, size_t len);
/*
 * Copies *from into *store and returns store, or returns NULL (the C
 * library) when from is NULL: what `..._new_with` calls keep.
 */
const hs_allocator *hs_alloc_copy(hs_allocator *store,
                                  const hs_allocator *from);

/*
 * Makes room for `need` elements of `size` bytes in *ptr (capacity *cap,
 * in elements), doubling so appends are amortised O(1). Returns false
 * (nothing changed) when out of memory or when the size would overflow.
 */
bool hs_grow(const hs_allocator *a, void **ptr, size_t *cap, size_t need,
             size_t size);
/* Arrays from hs_grow() of at least this many bytes are hinted for huge
 * pages (hs__hint_huge()). */
#define HS_HUGE_MIN ((size_t)4 << 20)
/* Asks the kernel to back [p, p + bytes), memory of the C library's
 * malloc, with huge pages (the advice covers every page the array
 * touches); below HS_HUGE_MIN bytes, or where the system has no such
 * request, does nothing. */
void hs__hint_huge(void *p, size_t bytes);
/* hs_grow(), with the elements it adds set to zero bytes. */
bool hs_grow_zeroed(const hs_allocator *a, void **ptr, size_t *cap,
                    size_t need, size_t size);

/*
 * An arena: allocations that never move and are all freed together, so
 * pointers into it (names, stacks) stay valid for the owner's lifetime.
 */
typedef struct hs_arena {
    struct hs_arena_chunk *head;  /* newest first */
    const hs_allocator *alloc;
} hs_arena;
void hs_arena_init(hs_arena *a, const hs_allocator *alloc);
void hs_arena_free(hs_arena *a);
/* 8-byte aligned; NULL when out of memory. */
void *hs_arena_alloc(hs_arena *a, size_t size);
/* A NUL-terminated copy of len bytes; NULL when out of memory. */
char *hs_arena_strndup(hs_arena *a, const char *s, size_t len);

/* The pieces of hs_hash_bytes, which hs_intern_put_words (util.c) uses
 * too: a key put as words must hash as its bytes do. */
#define HS_HASH_SEED 0x9e3779b97f4a7c15ull

/* One 8-byte word into a running hash. */
static inline uint64_t hs_hash_word(uint64_t h, uint64_t w)
{
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    return h ^ h >> 29;
}

/* The final mix of a running hash. */
static inline uint64_t hs_hash_mix(uint64_t x)
{
    x ^= x >> 32;
    x *= 0xd6e8feb86659fd93ull;
    x ^= x >> 32;
    x *= 0xd6e8feb86659fd93ull;
    x ^= x >> 32;
    return x;
}

/* A fast, well-mixed 64-bit hash of a byte string; inline, since the
 * census hashes a key per sample line or event. */
static inline uint64_t hs_hash_bytes(const void *data, size_t len)
{
    /* One multiply per 8 bytes and a full mix at the end: keys are short
     * (stacks of a few ids, labels). */
    const unsigned char *p = data;
    uint64_t h = HS_HASH_SEED ^ (uint64_t)len;
    bool word = len >= 8;
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = hs_hash_word(h, w);
        p += 8;
        len -= 8;
    }
    if (len) {
        /* Stacks are whole 4-byte ids: take that case without a
         * variable-length copy. */
        uint64_t w = 0;
        if (len == 4) {
            uint32_t v;
            memcpy(&v, p, 4);
            w = v;
        } else {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            /* the same value without a variable-length copy: the word
             * that ends with the key, shifted down */
            if (word) {
                memcpy(&w, p + len - 8, 8);
                w >>= 8 * (8 - len);
            } else
#endif
                memcpy(&w, p, len);
        }
        h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
    }
    return hs_hash_mix(h);
}

/* Whether a[0 .. n) equals b[0 .. n): keys are short, so 8 bytes at a
 * time inline rather than a call to memcmp. */
static inline bool hs_bytes_equal(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t u, v;
        memcpy(&u, x + i, 8);
        memcpy(&v, y + i, 8);
        if (u != v)
            return false;
    }
    if (i < n && n >= 8) {
        /* the rest: the last 8 bytes, overlapping those compared */
        uint64_t u, v;
        memcpy(&u, x + n - 8, 8);
        memcpy(&v, y + n - 8, 8);
        return u == v;
    }
    if (i + 4 <= n) {
        uint32_t u, v;
        memcpy(&u, x + i, 4);
        memcpy(&v, y + i, 4);
        if (u != v)
            return false;
        i += 4;
    }
    for (; i < n; i++)
        if (x[i] != y[i])
            return false;
    return true;
}

/*
 * An interning table: maps byte strings to dense indices 0, 1, 2, ... in
 * the order they were first seen. Keys are copied into an arena,
 * NUL-terminated and 8-byte aligned, so a key stays valid (and may be used
 * as a C string when it holds no NUL) until the table is freed.
 */
typedef struct hs_intern {
    hs_arena arena;
    uint64_t *slots;      /* hash tag | index + 1, 0 = empty; 2^n of them */
    size_t nslots;
    struct hs_intern_key {
        const char *ptr;
        size_t len;
        uint64_t hash;
    } *keys;
    size_t count, cap;
} hs_intern;

void hs_intern_init(hs_intern *t, const hs_allocator *alloc);
void hs_intern_free(hs_intern *t);
/*
 * Finds or adds key; *index receives its index and *added whether it is
 * new. Returns false when out of memory (the table is unchanged).
 */
bool hs_intern_put(hs_intern *t, const void *key, size_t len,
                   uint32_t *index, bool *added);
/*
 * hs_intern_put for a key of 64-bit words, head then rest[0 .. n), in
 * native byte order: the same key, hash and index as hs_intern_put of those
 * words' bytes, without copying them into one key first.
 */
bool hs_intern_put_words(hs_intern *t, uint64_t head, const uint64_t *rest,
                         size_t n, uint32_t *index, bool *added);
/* Whether key k is the words head, then rest[0 .. n). */
static inline bool hs__intern_key_is_words(const struct hs_intern_key *k,
                                           uint64_t head,
                                           const uint64_t *rest, size_t n)
{
    const uint64_t *kw = (const uint64_t *)(const void *)k->ptr;
    if (k->len != (n + 1) * 8 || kw[0] != head)
        return false;
    for (size_t j = 0; j < n; j++)
        if (kw[1 + j] != rest[j])
            return false;
    return true;
}
/* Whether the key of `index` is those words (head, then rest[0 .. n));
 * inline, for a cache of recent keys in front of the table. */
static inline bool hs_intern_is_words(const hs_intern *t, uint32_t index,
                                      uint64_t head, const uint64_t *rest,
                                      size_t n)
{
    return index < t->count &&
           hs__intern_key_is_words(&t->keys[index], head, rest, n);
}
/* The index of key, or UINT32_MAX when absent. */
uint32_t hs_intern_find(const hs_intern *t, const void *key, size_t len);

/* A slot holds index + 1 in its low 32 bits (0 = empty) and the high
 * half of the key's hash above, so a probe rejects other keys without
 * touching them: on a large log the tables compete with the input for the
 * cache. */
#define HS_SLOT_INDEX(s) ((uint32_t)(s))
#define HS_SLOT_TAG(h) ((h) & 0xffffffff00000000ull)

/* hs_intern_find of a key whose hs_hash_bytes is known, inline for the
 * per-line and per-event paths. */
static inline uint32_t hs_intern_find_hashed(const hs_intern *t,
                                             const void *key, size_t len,
                                             uint64_t hash)
{
    if (!t->nslots)
        return UINT32_MAX;
    size_t mask = t->nslots - 1;
    for (size_t i = (size_t)hash & mask;; i = (i + 1) & mask) {
        uint64_t s = t->slots[i];
        if (!s)
            return UINT32_MAX;
        if (HS_SLOT_TAG(s) != HS_SLOT_TAG(hash))
            continue;
        const struct hs_intern_key *k = &t->keys[HS_SLOT_INDEX(s) - 1];
        if (k->len == len && hs_bytes_equal(k->ptr, key, len))
            return HS_SLOT_INDEX(s) - 1;
    }
}

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

/* A name on one line of a text report: control bytes and backslashes as
 * \xHH, and double quotes too when the name stands between them
 * (`quoted`), so the quoted text ends where the name does. */
int hs_put_escaped(struct hs_sink *out, const char *name, bool quoted);

#endif
