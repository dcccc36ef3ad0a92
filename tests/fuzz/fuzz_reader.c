/*
 * libFuzzer target for the streaming eventlog reader.
 *
 * Input: one mode byte, then the bytes of a (possibly hostile) eventlog.
 * The log is decoded several times: in one chunk, in fixed chunks of 1 to
 * 16 bytes, in pseudo-random chunk sizes (with empty feeds), and framed
 * only (decoding off). Every chunk is copied into its own allocation of
 * exactly its size, so AddressSanitizer catches any read past a chunk's
 * end; every decoded string and stack is read in full. The passes must
 * agree on every event and on the final status, or the target aborts:
 * the reader's output may not depend on how its input was cut.
 *
 * Build: CC=clang meson setup build-fuzz -Dfuzz=true
 *        -Db_sanitize=address,undefined -Db_lundef=false
 * Seeds: small real eventlogs, each prefixed with one mode byte (see
 * tests/fuzz/meson.build); reader.dict holds the format's magic numbers.
 */
#include <heapscope/heapscope.h>

#include "../evhash.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond) do { if (!(cond)) __builtin_trap(); } while (0)

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/asan_interface.h>
#define HAVE_ASAN 1
#endif
#endif
#ifndef HAVE_ASAN
#define ASAN_POISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
#define ASAN_UNPOISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
#endif

static uint64_t frame_hash(const hs_event *e)
{
    uint64_t h = EVH_SEED;
    evh_mixu(&h, e->tag);
    evh_mixu(&h, e->time);
    evh_mixu(&h, (uint64_t)(int64_t)e->cap);
    evh_mixu(&h, e->offset);
    evh_mixu(&h, e->index);
    return h;
}

/* Everything the reader says about one event: where it is, its payload,
 * and with `fields` every decoded field, every pointer followed. The
 * hashing lives in tests/evhash.c, built without coverage instrumentation:
 * the harness's own loops teach the fuzzer nothing about the reader. */
static uint64_t event_hash(const hs_event *e, bool fields)
{
    if (fields)
        return evh_fields(e) ^ frame_hash(e);
    uint64_t h = frame_hash(e);
    evh_mixu(&h, e->payload_len);
    evh_mix(&h, e->payload, e->payload_len);
    return h;
}

typedef struct outcome {
    uint64_t n;          /* events */
    uint64_t hash;       /* of all events, in order */
    int status;          /* hs_reader_finish() */
    int err_code;
    uint64_t err_offset, err_index;
    bool warned;         /* hs_reader_warning(): a block marker skipped */
} outcome;

enum chunking { WHOLE, FIXED, RANDOM };

/* Chunks other than WHOLE are at most this long. */
#define SCRATCH 4096

/* The size of the next chunk. */
static size_t next_chunk(enum chunking how, uint32_t *state, size_t fixed,
                         size_t left)
{
    size_t n;
    if (how == WHOLE) {
        n = left;
    } else if (how == FIXED) {
        n = fixed;
    } else {
        *state ^= *state << 13;
        *state ^= *state >> 17;
        *state ^= *state << 5;
        uint32_t r = *state;
        n = (r & 7) == 0 ? 0 : (r & 8) ? 1 + (r >> 4) % 8
                                       : 1 + (r >> 4) % SCRATCH;
    }
    return n < left ? n : left;
}

/* The reader's end: its status and error against the events counted,
 * into *o; the event-type table asked about any tag. */
static void finish(hs_reader *r, outcome *o, const uint8_t *data,
                   size_t size)
{
    o->status = hs_reader_finish(r);
    CHECK(hs_reader_finish(r) == o->status);
    const hs_error *e = hs_reader_error(r);
    o->err_code = e->code;
    o->err_offset = e->offset;
    o->err_index = e->event_index;
    /* Only a block marker at byte 0 is skipped, and only once. */
    o->warned = hs_reader_warning(r) != NULL;
    if (o->warned)
        CHECK(size >= 24 && data[0] == 0 && data[1] == 18 &&
              (o->err_code == HS_OK || o->err_offset >= 24));
    CHECK(o->status == HS_DONE || o->status == HS_TRUNCATED || o->status < 0);
    if (o->status < 0 || o->status == HS_TRUNCATED) {
        CHECK(e->code == o->status);
        CHECK(e->message[0] != 0);
        CHECK(memchr(e->message, 0, sizeof e->message) != NULL);
        CHECK(e->offset <= size);
    }
    if (o->status == HS_TRUNCATED) {
        CHECK(e->offset == size);
        CHECK(e->event_index == o->n);
    }
    if (o->status == HS_ERR_TRUNCATED_HEADER)
        CHECK(e->offset == size && o->n == 0);
    if (o->status == HS_DONE)
        CHECK(hs_reader_offset(r) <= size && e->code == HS_OK);
    if (o->status < 0 && o->status != HS_ERR_TRUNCATED_HEADER &&
        e->event_index != UINT64_MAX)
        CHECK(e->event_index == o->n);
    /* The event-type table answers for any tag without harm. */
    for (unsigned t = 0; t < 200; t += 7) {
        int sz;
        hs_str desc;
        if (hs_reader_event_type(r, (uint16_t)t, &sz, &desc)) {
            CHECK(sz >= -1 && sz < 65535);
            evh_mix(&o->hash, desc.ptr, desc.len);
        }
        (void)hs_event_name((uint16_t)t);
    }
}

static outcome decode(const uint8_t *data, size_t size, enum chunking how,
                      size_t fixed, uint32_t seed, bool fields)
{
    outcome o = {0, 1469598103934665603ull, 0, 0, 0, 0, false};
    hs_reader *r = hs_reader_new();
    if (!r)
        abort();
    hs_reader_set_decode(r, fields);
    size_t pos = 0;
    uint32_t state = seed | 1;
    int st = HS_NEED_INPUT;
    uint64_t last_offset = 0;
    bool stop = false;
    /*
     * Each chunk is copied to the end of an allocation, so a read past its
     * end hits ASan's redzone; the rest of the allocation (earlier chunks'
     * bytes) is poisoned, so a read before its start or of a chunk the
     * reader should have let go of is caught too. One allocation per pass
     * rather than per chunk keeps the fuzzer fast.
     */
    size_t cap = how == WHOLE ? (size ? size : 1) : SCRATCH;
    uint8_t *buf = malloc(cap);
    if (!buf)
        abort();
    while (!stop && (pos < size || how == RANDOM)) {
        size_t n = next_chunk(how, &state, fixed, size - pos);
        if (pos == size && how == RANDOM)
            stop = true; /* one last empty feed */
        uint8_t *chunk = buf + cap - n;
        ASAN_POISON_MEMORY_REGION(buf, cap);
        ASAN_UNPOISON_MEMORY_REGION(chunk, n);
        memcpy(chunk, data + pos, n);
        int fst = hs_reader_feed(r, n ? chunk : NULL, n);
        CHECK(fst == HS_OK || fst < 0);
        pos += n;
        hs_event ev;
        /* zeroed so that union bytes the reader does not set hash the
         * same in every pass */
        while (memset(&ev, 0, sizeof ev),
               (st = hs_reader_next(r, &ev)) == HS_EVENT) {
            CHECK(ev.index == o.n);
            CHECK(o.n == 0 || ev.offset > last_offset);
            CHECK(ev.offset + 10 + ev.payload_len <= pos);
            last_offset = ev.offset;
            uint64_t h = event_hash(&ev, fields);
            evh_mixu(&o.hash, h);
            o.n++;
        }
        CHECK(st == HS_NEED_INPUT || st == HS_DONE || st < 0);
        if (st < 0 || st == HS_DONE)
            break;
    }
    ASAN_UNPOISON_MEMORY_REGION(buf, cap);
    free(buf);
    finish(r, &o, data, size);
    hs_reader_free(r);
    return o;
}

static void same(const outcome *a, const outcome *b)
{
    CHECK(a->n == b->n);
    CHECK(a->hash == b->hash);
    CHECK(a->status == b->status);
    CHECK(a->err_code == b->err_code);
    CHECK(a->err_offset == b->err_offset);
    CHECK(a->err_index == b->err_index);
    CHECK(a->warned == b->warned);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const uint8_t mode = data[0];
    data++;
    size--;

    /* Mode bits 0-3: a fixed chunk size of 1 to 16 bytes, always run;
     * bit 4: also pseudo-random chunk sizes; bit 5: also framing only.
     * Fewer passes per input leave time for more inputs. */
    outcome whole = decode(data, size, WHOLE, 0, 0, true);
    outcome fixed = decode(data, size, FIXED, 1 + (mode & 15), 0, true);
    same(&whole, &fixed);
    if (mode & 0x10) {
        outcome rnd = decode(data, size, RANDOM, 0,
                             0x9e3779b9u * (mode + 1u), true);
        same(&whole, &rnd);
    }

    /* Framing alone: the same events unless decoding found a malformed
     * payload, which framing does not look at. */
    if (mode & 0x20) {
        outcome a = decode(data, size, FIXED, 1 + (mode >> 6) * 5, 0,
                           false);
        if (whole.status != HS_ERR_MALFORMED_EVENT)
            CHECK(a.n == whole.n && a.status == whole.status);
        else
            CHECK(a.n > whole.n || a.status != whole.status);
    }
    return 0;
}
