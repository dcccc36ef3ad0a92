/*
 * Memory helpers for the census and the renderers: growable arrays, an
 * arena whose allocations never move, and an interning hash table.
 *
 * The interning table is what keeps the census linear: every sample event
 * is matched to its band by one hash and (almost always) one comparison,
 * never by a scan over the bands seen so far.
 */
#include "common/internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

void *hs_calloc(const hs_allocator *a, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    /* The C library's calloc skips the clearing when its memory comes
     * fresh from the kernel, as large blocks do: they then cost only the
     * pages that are touched. */
    if (!a)
        return calloc(n, size);
    void *p = hs_malloc(a, n * size);
    if (p)
        memset(p, 0, n * size);
    return p;
}

char *hs_strndup(const hs_allocator *a, const char *s, size_t len)
{
    if (len == SIZE_MAX)
        return NULL;
    char *p = hs_malloc(a, len + 1);
    if (!p)
        return NULL;
    if (len)
        memcpy(p, s, len);
    p[len] = 0;
    return p;
}

const hs_allocator *hs_alloc_copy(hs_allocator *store,
                                  const hs_allocator *from)
{
    if (!from)
        return NULL;
    *store = *from;
    return store;
}

/*
 * A large array from the C library's malloc (an mmap of its own) asked
 * to be backed by transparent huge pages where the kernel grants them on
 * request (THP "madvise" mode, Debian's default): each 2 MiB of it then
 * costs one page fault instead of 512. A .hp's census entries (120 MB for
 * 10 M band lines) spent about a third of the load in those faults. The
 * advice names every page of the array, not only its whole 2 MiB pages:
 * advice on a part would split the array's mapping, which mremap (glibc's
 * realloc of a large block) cannot move, so every later growth would copy.
 * A kernel without THP refuses it, which changes nothing.
 */
void hs__hint_huge(void *p, size_t bytes)
{
#if defined(MADV_HUGEPAGE)
    const uintptr_t page = 4096;
    if (bytes < HS_HUGE_MIN)
        return;
    uintptr_t lo = (uintptr_t)p & ~(page - 1);
    uintptr_t hi = ((uintptr_t)p + bytes + page - 1) & ~(page - 1);
    (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

bool hs_grow(const hs_allocator *a, void **ptr, size_t *cap, size_t need,
             size_t size)
{
    if (need <= *cap)
        return true;
    size_t ncap = *cap ? *cap : 16;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            return false;
        ncap *= 2;
    }
    if (size && ncap > SIZE_MAX / size)
        return false;
    void *p = hs_realloc(a, *ptr, ncap * size);
    if (!p)
        return false;
    *ptr = p;
    *cap = ncap;
    if (!a)
        hs__hint_huge(p, ncap * size);
    return true;
}

bool hs_grow_zeroed(const hs_allocator *a, void **ptr, size_t *cap,
                    size_t need, size_t size)
{
    size_t old = *cap;
    if (!hs_grow(a, ptr, cap, need, size))
        return false;
    if (*cap > old)
        memset((char *)*ptr + old * size, 0, (*cap - old) * size);
    return true;
}

/* --- arena ------------------------------------------------------------ */

#define ARENA_CHUNK (64u * 1024u)

/* Chunks form a list, newest first; `used` counts bytes of data[], which
 * starts 8-byte aligned (the header is three 8-byte words on every target
 * heapscope builds for; the static assertion keeps it so). */
struct hs_arena_chunk {
    struct hs_arena_chunk *next;
    size_t size, used;
    unsigned char data[];
};
_Static_assert(offsetof(struct hs_arena_chunk, data) % 8 == 0,
               "arena data must be 8-byte aligned");

void hs_arena_init(hs_arena *a, const hs_allocator *alloc)
{
    a->head = NULL;
    a->alloc = alloc;
}

void hs_arena_free(hs_arena *a)
{
    struct hs_arena_chunk *c = a->head;
    while (c) {
        struct hs_arena_chunk *next = c->next;
        hs_free(a->alloc, c);
        c = next;
    }
    a->head = NULL;
}

void *hs_arena_alloc(hs_arena *a, size_t size)
{
    size_t need = (size + 7u) & ~(size_t)7u;
    if (need < size)
        return NULL;
    struct hs_arena_chunk *c = a->head;
    if (c && c->size - c->used >= need) {
        void *p = c->data + c->used;
        c->used += need;
        return p;
    }
    /* A large request gets a chunk of its own, placed behind the current
     * one so the current chunk's free space is not wasted. */
    size_t csize = need > ARENA_CHUNK / 4 ? need : ARENA_CHUNK;
    if (csize > SIZE_MAX - sizeof(struct hs_arena_chunk))
        return NULL;
    struct hs_arena_chunk *n =
        hs_malloc(a->alloc, sizeof(struct hs_arena_chunk) + csize);
    if (!n)
        return NULL;
    n->size = csize;
    n->used = need;
    if (c && csize != ARENA_CHUNK) {
        n->next = c->next;
        c->next = n;
    } else {
        n->next = c;
        a->head = n;
    }
    return n->data;
}

char *hs_arena_strndup(hs_arena *a, const char *s, size_t len)
{
    if (len == SIZE_MAX)
        return NULL;
    char *p = hs_arena_alloc(a, len + 1);
    if (!p)
        return NULL;
    if (len)
        memcpy(p, s, len);
    p[len] = 0;
    return p;
}

/* --- interning ------------------------------------------------------------ */

void hs_intern_init(hs_intern *t, const hs_allocator *alloc)
{
    memset(t, 0, sizeof *t);
    hs_arena_init(&t->arena, alloc);
}

void hs_intern_free(hs_intern *t)
{
    const hs_allocator *alloc = t->arena.alloc;
    hs_arena_free(&t->arena);
    hs_free(alloc, t->slots);
    hs_free(alloc, t->keys);
    memset(t, 0, sizeof *t);
    t->arena.alloc = alloc;
}

/* A slot holds index + 1 in its low 32 bits (0 = empty) and the high
 * half of the key's hash above, so a probe rejects other keys without
 * touching them: on a large log the tables compete with the input for the
 * cache. */
#define SLOT_INDEX(s) ((uint32_t)(s))
#define SLOT_TAG(h) ((h) & 0xffffffff00000000ull)

/* The slot of the key eq(key, ctx) accepts, or the empty slot where it
 * would go. Inlined with eq, so each caller gets its own comparison. */
static HS_ALWAYS_INLINE size_t
probe_with(const hs_intern *t, uint64_t hash, const void *ctx, bool *found,
           bool (*eq)(const struct hs_intern_key *k, const void *ctx))
{
    size_t mask = t->nslots - 1;
    size_t i = (size_t)hash & mask;
    uint64_t tag = SLOT_TAG(hash);
    for (;;) {
        uint64_t s = t->slots[i];
        if (!s) {
            *found = false;
            return i;
        }
        if (SLOT_TAG(s) == tag && eq(&t->keys[SLOT_INDEX(s) - 1], ctx)) {
            *found = true;
            return i;
        }
        i = (i + 1) & mask;
    }
}

struct bytes_key { const void *key; size_t len; };

static inline bool bytes_eq(const struct hs_intern_key *k, const void *ctx)
{
    const struct bytes_key *b = ctx;
    return k->len == b->len &&
           (b->len == 0 || memcmp(k->ptr, b->key, b->len) == 0);
}

static size_t probe(const hs_intern *t, const void *key, size_t len,
                    uint64_t hash, bool *found)
{
    struct bytes_key b = {key, len};
    return probe_with(t, hash, &b, found, bytes_eq);
}

static bool rehash(hs_intern *t, size_t nslots)
{
    uint64_t *slots = hs_calloc(t->arena.alloc, nslots, sizeof *slots);
    if (!slots)
        return false;
    size_t mask = nslots - 1;
    for (size_t k = 0; k < t->count; k++) {
        size_t i = (size_t)t->keys[k].hash & mask;
        while (slots[i])
            i = (i + 1) & mask;
        slots[i] = SLOT_TAG(t->keys[k].hash) | (uint64_t)(k + 1);
    }
    hs_free(t->arena.alloc, t->slots);
    t->slots = slots;
    t->nslots = nslots;
    return true;
}

uint32_t hs_intern_find(const hs_intern *t, const void *key, size_t len)
{
    if (!t->nslots)
        return UINT32_MAX;
    bool found;
    size_t i = probe(t, key, len, hs_hash_bytes(key, len), &found);
    return found ? SLOT_INDEX(t->slots[i]) - 1 : UINT32_MAX;
}

/* Room for one more key; false when out of memory. */
static inline bool intern_room(hs_intern *t)
{
    if (t->count >= UINT32_MAX - 1)
        return false;
    /* Keep the load at most one half so probes stay short. */
    return (t->count + 1) * 2 <= t->nslots ||
           rehash(t, t->nslots ? t->nslots * 2 : 64);
}

/* Adds the key copied at `copy` (len bytes, in the arena) in empty slot i. */
static bool intern_add(hs_intern *t, size_t i, const char *copy, size_t len,
                       uint64_t hash, uint32_t *index, bool *added)
{
    if (!copy || !hs_grow(t->arena.alloc, (void **)&t->keys, &t->cap,
                          t->count + 1, sizeof *t->keys))
        return false;
    t->keys[t->count] = (struct hs_intern_key){copy, len, hash};
    t->slots[i] = SLOT_TAG(hash) | (uint64_t)(t->count + 1);
    *index = (uint32_t)t->count++;
    *added = true;
    return true;
}

bool hs_intern_put(hs_intern *t, const void *key, size_t len,
                   uint32_t *index, bool *added)
{
    if (!intern_room(t))
        return false;
    uint64_t hash = hs_hash_bytes(key, len);
    bool found;
    size_t i = probe(t, key, len, hash, &found);
    if (found) {
        *index = SLOT_INDEX(t->slots[i]) - 1;
        *added = false;
        return true;
    }
    return intern_add(t, i, hs_arena_strndup(&t->arena, key, len), len, hash,
                      index, added);
}

/* A key of words: head, then rest[0 .. n). */
struct words_key { uint64_t head; const uint64_t *rest; size_t n; };

static inline bool words_eq(const struct hs_intern_key *k, const void *ctx)
{
    const struct words_key *w = ctx;
    return hs__intern_key_is_words(k, w->head, w->rest, w->n);
}

bool hs_intern_put_words(hs_intern *t, uint64_t head, const uint64_t *rest,
                         size_t n, uint32_t *index, bool *added)
{
    if (n > (SIZE_MAX - 16) / 8 || !intern_room(t))
        return false;
    size_t len = (n + 1) * 8;
    /* hs_hash_bytes of the key's bytes, a word at a time. */
    uint64_t hash = hs_hash_word(HS_HASH_SEED ^ (uint64_t)len, head);
    for (size_t j = 0; j < n; j++)
        hash = hs_hash_word(hash, rest[j]);
    hash = hs_hash_mix(hash);
    struct words_key w = {head, rest, n};
    bool found;
    size_t i = probe_with(t, hash, &w, &found, words_eq);
    if (found) {
        *index = SLOT_INDEX(t->slots[i]) - 1;
        *added = false;
        return true;
    }
    char *copy = hs_arena_alloc(&t->arena, len + 1);
    if (copy) {
        memcpy(copy, &head, 8);
        if (n)
            memcpy(copy + 8, rest, n * 8);
        copy[len] = 0;
    }
    return intern_add(t, i, copy, len, hash, index, added);
}

/* --- buffered output ------------------------------------------------------- */

#include "heapscope/sink.h"

void hs_outbuf_init(hs_outbuf *o, hs_sink *sink)
{
    o->sink = sink;
    o->status = HS_OK;
    o->len = 0;
}

static void outbuf_drain(hs_outbuf *o)
{
    if (o->len && o->status == HS_OK)
        o->status = hs_sink_write(o->sink, o->buf, o->len);
    o->len = 0;
}

void hs_outbuf_write_slow(hs_outbuf *o, const void *data, size_t len)
{
    if (o->status != HS_OK)
        return;
    if (o->len + len > sizeof o->buf) {
        outbuf_drain(o);
        if (len > sizeof o->buf) {
            if (o->status == HS_OK)
                o->status = hs_sink_write(o->sink, data, len);
            return;
        }
    }
    memcpy(o->buf + o->len, data, len);
    o->len += len;
}

void hs_outbuf_puts(hs_outbuf *o, const char *s)
{
    hs_outbuf_write(o, s, strlen(s));
}

void hs_outbuf_u64(hs_outbuf *o, uint64_t v)
{
    /* two digits per division: byte counts are printed millions of times */
    static const char pairs[] =
        "00010203040506070809101112131415161718192021222324252627282930313233"
        "34353637383940414243444546474849505152535455565758596061626364656667"
        "6869707172737475767778798081828384858687888990919293949596979899";
    char tmp[24];
    size_t i = sizeof tmp;
    while (v >= 100) {
        unsigned d = (unsigned)(v % 100);
        v /= 100;
        tmp[--i] = pairs[2 * d + 1];
        tmp[--i] = pairs[2 * d];
    }
    if (v >= 10) {
        tmp[--i] = pairs[2 * v + 1];
        tmp[--i] = pairs[2 * v];
    } else {
        tmp[--i] = (char)('0' + v);
    }
    hs_outbuf_write(o, tmp + i, sizeof tmp - i);
}

void hs_outbuf_seconds(hs_outbuf *o, uint64_t ns)
{
    uint64_t us = ns / 1000 + (ns % 1000 >= 500 ? 1 : 0);
    hs_outbuf_u64(o, us / 1000000);
    char frac[8];
    uint64_t f = us % 1000000;
    frac[0] = '.';
    for (int i = 6; i >= 1; i--) {
        frac[i] = (char)('0' + f % 10);
        f /= 10;
    }
    hs_outbuf_write(o, frac, 7);
}

int hs_outbuf_flush(hs_outbuf *o)
{
    outbuf_drain(o);
    return o->status;
}

