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
    char path[4096];
    snprintf(path, sizeof path, "%s/mono/%s", tu_samples_dir(), name);
    size_t len;
    uint8_t *data = tu_slurp(path, &len);
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

int main(void)
{
    static const tu_test tests[] = {
        {"sites-alloc-zip spoiled reads alike in any pieces",
         test_sites_alloc},
        {"churn-killed-zip spoiled reads alike in any pieces",
         test_churn_killed},
        {NULL, NULL},
    };
    return tu_main("mlpd_gzip", NULL, NULL, tests);
}
