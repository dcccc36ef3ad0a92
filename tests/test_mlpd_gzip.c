/*
 * A corrupt gzip .mlpd reads the same however its bytes arrive. Real
 * compressed samples with one byte spoiled at positions all through them
 * are read whole, a byte at a time, and in 4 KiB pieces:
 * the events before the corruption (count, last offset, a hash of their
 * kinds and offsets), the status and the error (code, offset, message)
 * must agree. ISA-L's fast loop can write a few bytes past the symbol it
 * then finds corrupt (the reader takes that call back: src/read/inflate.c);
 * zlib stops at the symbol. Either engine must pass.
 */
#include "testutil.h"

#include <heapscope/heapscope.h>

#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

typedef struct {
    uint64_t n, last, hash;
    int status, code;
    uint64_t offset;
    char message[256];
} outcome;

static outcome read_in_pieces(const uint8_t *data, size_t len, size_t piece)
{
    outcome o;
    memset(&o, 0, sizeof o);
    o.hash = 1469598103934665603ull;
    hs_mlpd_reader *r = hs_mlpd_reader_new();
    CU_ASSERT_FATAL(r != NULL);
    int st = HS_NEED_INPUT;
    for (size_t pos = 0; pos < len && st >= 0;) {
        size_t k = len - pos < piece ? len - pos : piece;
        if (hs_mlpd_reader_feed(r, data + pos, k) > HS_OK)
            o.status = 99; /* never: feed takes what next left */
        pos += k;
        hs_mlpd_event ev;
        while ((st = hs_mlpd_reader_next(r, &ev)) == HS_EVENT) {
            o.n++;
            o.last = ev.offset;
            o.hash = (o.hash ^ (ev.offset * 31 + (uint64_t)ev.kind)) *
                     1099511628211ull;
        }
    }
    CU_ASSERT(o.status != 99);
    o.status = hs_mlpd_reader_finish(r);
    const hs_error *e = hs_mlpd_reader_error(r);
    o.code = e->code;
    o.offset = e->offset;
    snprintf(o.message, sizeof o.message, "%s", e->message);
    hs_mlpd_reader_free(r);
    return o;
}

static void same(const outcome *a, const outcome *b, const char *name,
                 size_t at, size_t piece)
{
    bool ok = a->n == b->n && a->last == b->last && a->hash == b->hash &&
              a->status == b->status && a->code == b->code &&
              a->offset == b->offset && !strcmp(a->message, b->message);
    if (!ok)
        fprintf(stderr, "%s spoiled at %zu, pieces of %zu: %llu events, %s "
                "/ whole: %llu events, %s\n", name, at, piece,
                (unsigned long long)b->n, b->message,
                (unsigned long long)a->n, a->message);
    CU_ASSERT(ok);
}

/* One byte spoiled at `spots` positions through the compressed data. */
static void spoil_through(const char *name, unsigned spots)
{
    char rel[256];
    snprintf(rel, sizeof rel, "mono/%s", name);
    size_t len;
    uint8_t *data = tu_slurp_sample(rel, &len);
    CU_ASSERT_FATAL(data != NULL);
    static const size_t pieces[] = {1, 4096};
    unsigned corrupt = 0;
    for (unsigned i = 0; i < spots; i++) {
        size_t at = 10 + (len - 10) / spots * i; /* past the gzip header */
        uint8_t keep = data[at];
        data[at] ^= 0x5a;
        outcome whole = read_in_pieces(data, len, len);
        corrupt += whole.status < 0;
        for (size_t p = 0; p < sizeof pieces / sizeof pieces[0]; p++) {
            outcome o = read_in_pieces(data, len, pieces[p]);
            same(&whole, &o, name, at, pieces[p]);
        }
        data[at] = keep;
    }
    /* most spoiled bytes are found: the test reads corrupt streams */
    CU_ASSERT(corrupt > spots / 2);
    free(data);
}

static void test_sites_alloc(void)
{
    spoil_through("sites-alloc-zip.mlpd.gz", 16);
}

static void test_churn_killed(void)
{
    spoil_through("churn-killed-zip.mlpd.gz", 16);
}

/* The sample's gzip header rebuilt with the flags given: an extra field, a
 * name, a comment, a header CRC (right, or wrong when bad_crc). */
static uint8_t *with_header(const uint8_t *gz, size_t len, uint8_t flags,
                            bool bad_crc, size_t *out_len)
{
    uint8_t *out = malloc(len + 64);
    CU_ASSERT_FATAL(out != NULL);
    size_t n = 0;
    memcpy(out, gz, 10);
    out[3] = flags;
    n = 10;
    if (flags & 0x04) {
        memcpy(out + n, "\x06" "\x00" "abcdef", 8);
        n += 8;
    }
    if (flags & 0x08) {
        memcpy(out + n, "name.mlpd", 10);
        n += 10;
    }
    if (flags & 0x10) {
        memcpy(out + n, "a comment", 10);
        n += 10;
    }
    if (flags & 0x02) {
        uint32_t crc = (uint32_t)crc32(0, out, (unsigned)n) ^ (bad_crc ? 1 : 0);
        out[n++] = (uint8_t)crc;
        out[n++] = (uint8_t)(crc >> 8);
    }
    memcpy(out + n, gz + 10, len - 10);
    *out_len = n + len - 10;
    return out;
}

/* Every optional header field, whole and a byte at a time: read alike and
 * in full; a wrong header CRC and reserved flags refused alike. */
static void test_header_fields(void)
{
    size_t len;
    uint8_t *gz = tu_slurp_sample("mono/churn-killed-zip.mlpd.gz", &len);
    CU_ASSERT_FATAL(gz != NULL && len > 10 && gz[3] == 0);
    outcome plain = read_in_pieces(gz, len, len);
    static const struct { uint8_t flags; bool bad_crc; bool ok; } cases[] = {
        {0x02, false, true}, {0x04, false, true}, {0x08, false, true},
        {0x10, false, true}, {0x1e, false, true}, {0x1e, true, false},
        {0x02, true, false}, {0x20, false, false}, {0xff, false, false}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n;
        uint8_t *d = with_header(gz, len, cases[i].flags, cases[i].bad_crc, &n);
        outcome whole = read_in_pieces(d, n, n);
        outcome bytes = read_in_pieces(d, n, 1);
        same(&whole, &bytes, "header", cases[i].flags, 1);
        if (cases[i].ok) {
            CU_ASSERT(whole.n == plain.n && whole.status == plain.status);
        } else {
            CU_ASSERT(whole.n == 0 && whole.status < 0 &&
                      strstr(whole.message, "gzip stream is corrupt"));
        }
        free(d);
    }
    free(gz);
}

int main(void)
{
    static const tu_test tests[] = {
        {"sites-alloc-zip spoiled reads alike in any pieces",
         test_sites_alloc},
        {"churn-killed-zip spoiled reads alike in any pieces",
         test_churn_killed},
        {"optional gzip header fields, whole and a byte at a time",
         test_header_fields},
        {NULL, NULL},
    };
    return tu_main("mlpd_gzip", NULL, NULL, tests);
}
