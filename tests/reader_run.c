/*
 * The reader tests' runs (test_reader.c, test_reader_errors.c): a log
 * decoded in chunks of any size, the events kept as numbers, compared, and
 * a hand-built log expected to fail with one code at one offset.
 */
#include "reader_run.h"

#include <CUnit/Basic.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void run_free(run *r)
{
    free(r->ev);
    memset(r, 0, sizeof *r);
}

void run_add(run *r, const hs_event *ev)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 256;
        r->ev = realloc(r->ev, r->cap * sizeof *r->ev);
        if (!r->ev)
            abort();
    }
    r->ev[r->n++] = (rec){ev->tag, ev->cap, ev->time, ev->offset, ev->index,
                          evh_fields(ev)};
}

/*
 * Decodes data[0..len) fed in chunks of `chunk` bytes (0 = all at once),
 * then finishes. Returns the events and the final status.
 */
run decode_chunked(const uint8_t *data, size_t len, size_t chunk,
                          bool decode)
{
    run out = {0};
    hs_reader *r = hs_reader_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    hs_reader_set_decode(r, decode);
    if (!chunk)
        chunk = len ? len : 1;
    size_t pos = 0;
    int st = HS_NEED_INPUT;
    bool protocol_ok = true; /* one assertion per run, not per chunk */
    while (pos < len) {
        size_t n = len - pos < chunk ? len - pos : chunk;
        if (hs_reader_feed(r, data + pos, n) != HS_OK)
            protocol_ok = false;
        pos += n;
        hs_event ev;
        while ((st = hs_reader_next(r, &ev)) == HS_EVENT)
            run_add(&out, &ev);
        if (st < 0 || st == HS_DONE)
            break;
        if (st != HS_NEED_INPUT)
            protocol_ok = false;
    }
    CU_ASSERT(protocol_ok);
    out.status = hs_reader_finish(r);
    out.err = *hs_reader_error(r);
    out.end_offset = hs_reader_offset(r);
    hs_reader_free(r);
    return out;
}

/* The first differing event index, or SIZE_MAX when a and b agree. */
size_t first_difference(const run *a, const run *b)
{
    size_t n = a->n < b->n ? a->n : b->n;
    for (size_t i = 0; i < n; i++) {
        const rec *x = &a->ev[i], *y = &b->ev[i];
        if (x->tag != y->tag || x->cap != y->cap || x->time != y->time ||
            x->offset != y->offset || x->index != y->index ||
            x->hash != y->hash)
            return i;
    }
    return a->n == b->n ? SIZE_MAX : n;
}

run decode_all(const uint8_t *data, size_t len)
{
    return decode_chunked(data, len, 0, true);
}

/* Decodes a hand-built log and expects exactly status `code` with the
 * error at `offset` / `index`. */
void expect_error(const evw *w, int code, uint64_t offset,
                         uint64_t index, size_t events_before)
{
    for (size_t chunk = 0; chunk <= 3; chunk++) {
        run r = decode_chunked(w->data, w->len, chunk, true);
        CU_ASSERT_EQUAL(r.status, code);
        CU_ASSERT_EQUAL(r.err.code, code);
        CU_ASSERT_EQUAL(r.err.offset, offset);
        CU_ASSERT_EQUAL(r.err.event_index, index);
        CU_ASSERT_EQUAL(r.n, events_before);
        CU_ASSERT(r.err.message[0] != 0);
        if (r.status != code || r.err.offset != offset ||
            r.err.event_index != index)
            fprintf(stderr, "\n  chunk %zu: got status %d offset %llu index "
                    "%llu (%s)\n", chunk, r.status,
                    (unsigned long long)r.err.offset,
                    (unsigned long long)r.err.event_index, r.err.message);
        run_free(&r);
    }
}
