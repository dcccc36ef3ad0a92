/*
 * The .mlpd reader and census on files built byte by byte (a small writer
 * below): 32-bit pointer differences, a vtable address described again,
 * allocated bytes near 2^64, LEB128 values of every length at every place
 * in a buffer, a claimed 16 MiB buffer fed a few bytes at a time.
 */
#include "mlpdwriter.h"
#include "testutil.h"

#include <heapscope/heapscope.h>

#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void w_buffer(struct wr *w, uint64_t ptr_base, const uint8_t *p,
                     size_t n)
{
    w_buffer_at(w, ptr_base, 1000, p, n);
}

/* Loads a constructed file into a new census (caller frees). */
static hs_census *load_bytes(const struct wr *file)
{
    FILE *f = tmpfile();
    CU_ASSERT_FATAL(f != NULL);
    fwrite(file->b, 1, file->n, f);
    fflush(f);
    rewind(f);
    hs_census *c = hs_census_new();
    hs_error err;
    CU_ASSERT_EQUAL(hs_census_load_fd(c, fileno(f), &err), HS_OK);
    fclose(f);
    return c;
}

/* Allocated bytes per class name, in a census's allocation sites. */
static uint64_t alloc_bytes_of(const hs_census *c, const char *cls)
{
    uint64_t sum = 0, b;
    for (size_t i = 0; i < hs_census_alloc_site_count(c); i++) {
        const char *name = hs_census_alloc_site(c, i, NULL, NULL, &b, NULL);
        if (!strcmp(name, cls))
            sum += b;
    }
    return sum;
}

/* A 32-bit profiler writes pointer differences as 32-bit unsigned values
 * zero-extended: vtable 0x10 against a buffer whose pointers start at
 * 0x80000010 is +0x80000000. Its name comes from the other buffer. */
static void test_32bit_pointers(void)
{
    struct wr meta = {0}, use = {0}, file = {0};
    /* class 0x20 named Thing in image 0x30, vtable 0x10 of it */
    w_bytes(&meta, "\x22\x00\x01", 3);
    w_sleb(&meta, 0x20 - 0x10);
    w_sleb(&meta, 0x30 - 0x10);
    w_bytes(&meta, "Thing", 6);
    w_bytes(&meta, "\x22\x00\x07", 3);
    w_sleb(&meta, 0);
    w_sleb(&meta, 0x40 - 0x10);
    w_sleb(&meta, 0x20 - 0x10);
    /* an image at 0x80000010 first, then an allocation of vtable 0x10 */
    w_bytes(&use, "\x22\x00\x02", 3);
    w_sleb(&use, 0);
    w_bytes(&use, "a.dll\0", 7);
    w_bytes(&use, "\x00\x00", 2);
    w_sleb(&use, (int64_t)(uint32_t)(0x10u - 0x80000010u));
    w_sleb(&use, 0);
    w_uleb(&use, 24);
    w_header(&file, 4);
    w_buffer(&file, 0x80000010u, use.b, use.n);
    w_buffer(&file, 0x10, meta.b, meta.n);
    hs_census *c = load_bytes(&file);
    CU_ASSERT_EQUAL(hs_census_alloc_site_count(c), 1);
    uint64_t bytes = 0;
    const char *cls = hs_census_alloc_site(c, 0, NULL, NULL, &bytes, NULL);
    CU_ASSERT_STRING_EQUAL(cls ? cls : "", "Thing");
    CU_ASSERT_EQUAL(bytes, 24);
    hs_census_free(c);
}

/* Class k (0x20 + k) named name[k], with vtable 0x10 of it, at the
 * buffer's time plus dt. */
static void w_vtable_of(struct wr *w, int k, uint64_t dt)
{
    static const char *const names[] = {"A", "B", "C"};
    w_bytes(w, "\x22", 1);
    w_uleb(w, dt);
    w_bytes(w, "\x01", 1);
    w_sleb(w, 0x20 + k - 0x10);
    w_sleb(w, 0x30 - 0x10);
    w_bytes(w, names[k], 2);
    w_bytes(w, "\x22\x00\x07", 3);
    w_sleb(w, 0);
    w_sleb(w, 0x40 - 0x10);
    w_sleb(w, 0x20 + k - 0x10);
}

static void w_alloc(struct wr *w, uint64_t dt, uint64_t size)
{
    w_bytes(w, "\x00", 1);
    w_uleb(w, dt);
    w_sleb(w, 0);   /* vtable 0x10 */
    w_sleb(w, 0);
    w_uleb(w, size);
}

/* A vtable address described three times (AppDomains unloaded and their
 * memory reused): each allocation takes the description in force at its
 * time, in whichever buffer and order the descriptions come. */
static void test_reused_vtable_address(void)
{
    struct wr b1 = {0}, b2 = {0}, file = {0};
    /* thread 7: A at 1000, alloc 24 at 1100, B at 1300, alloc 40 at 1400 */
    w_vtable_of(&b1, 0, 0);
    w_alloc(&b1, 100, 24);
    w_vtable_of(&b1, 1, 200);
    w_alloc(&b1, 100, 40);
    /* another buffer: an allocation of 56 at 1600, after C (1550), whose
     * buffer came first in the file, though it begins later than b1 */
    w_alloc(&b2, 0, 56);
    struct wr b3 = {0};
    w_vtable_of(&b3, 2, 0);
    w_header(&file, 8);
    w_buffer_at(&file, 0x10, 1550, b3.b, b3.n);
    w_buffer_at(&file, 0x10, 1000, b1.b, b1.n);
    w_buffer_at(&file, 0x10, 1600, b2.b, b2.n);
    hs_census *c = load_bytes(&file);
    CU_ASSERT_EQUAL(alloc_bytes_of(c, "A"), 24);
    CU_ASSERT_EQUAL(alloc_bytes_of(c, "B"), 40);
    CU_ASSERT_EQUAL(alloc_bytes_of(c, "C"), 56);
    hs_census_free(c);
}

/* Allocated bytes near 2^64 saturate, per site and in all, as the GHC
 * census's sums do, rather than wrapping to a small figure. */
static void test_saturated_alloc_bytes(void)
{
    struct wr b = {0}, file = {0};
    w_vtable_of(&b, 0, 0);
    w_alloc(&b, 100, UINT64_MAX - 9);
    w_alloc(&b, 100, 100);
    w_header(&file, 8);
    w_buffer(&file, 0x10, b.b, b.n);
    hs_census *c = load_bytes(&file);
    CU_ASSERT_EQUAL(alloc_bytes_of(c, "A"), UINT64_MAX);
    const hs_mlpd_gc_stats *st = hs_census_mlpd_stats(c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    CU_ASSERT_EQUAL(st->alloc_bytes, UINT64_MAX);
    CU_ASSERT_EQUAL(st->alloc_count, 2);
    hs_census_free(c);
}

/*
 * LEB128 values of every length, in the middle of a buffer (ten or more
 * bytes follow: the reader's unchecked path) and as its last bytes (the
 * checked path): the same values, and the same refusal of an eleven-byte
 * value and of a tenth byte with more than bit 63.
 */
struct leb_case { uint64_t v; bool at_end; };

/* The buffer p[0 .. n), then the first event of kind `kind` and the
 * events and status of the whole file. */
static size_t leb_read(const uint8_t *p, size_t n, int kind,
                       hs_mlpd_event *first, int *st)
{
    struct wr file = {0};
    w_header(&file, 8);
    w_buffer(&file, 0x10, p, n);
    hs_mlpd_reader *r = hs_mlpd_reader_new();
    CU_ASSERT_FATAL(r != NULL);
    hs_mlpd_reader_feed(r, file.b, file.n);
    hs_mlpd_event ev;
    size_t found = 0;
    while ((*st = hs_mlpd_reader_next(r, &ev)) == HS_EVENT)
        if ((int)ev.kind == kind && found++ == 0)
            *first = ev;
    *st = hs_mlpd_reader_finish(r);
    hs_mlpd_reader_free(r);
    return found;
}

/* k GC_RESIZE events of heap size 1, three bytes each */
static void w_resizes(struct wr *b, int k)
{
    while (k-- > 0)
        w_bytes(b, "\x21\x00\x01", 3);
}

static void test_leb_values(void)
{
    static const uint64_t values[] = {
        0, 1, 63, 64, 127, 128, 16383, 16384, (1ull << 35) - 1,
        1ull << 49, (1ull << 56) - 1, 1ull << 56, (1ull << 63) - 1,
        1ull << 63, UINT64_MAX};
    for (int at_end = 0; at_end < 2; at_end++) {
        for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
            /* GC_RESIZE: event byte, time delta, heap size (uleb) */
            struct wr b = {0};
            if (at_end)
                w_resizes(&b, 4);
            w_bytes(&b, "\x21\x00", 2);
            w_uleb(&b, values[i]);
            if (!at_end)
                w_resizes(&b, 6);
            hs_mlpd_event ev = {0};
            int st;
            size_t n = leb_read(b.b, b.n, HS_MLPD_GC_RESIZE, &ev, &st);
            CU_ASSERT_EQUAL(st, HS_DONE);
            CU_ASSERT_EQUAL(n, 5 + 2 * !at_end);
            CU_ASSERT_EQUAL(ev.u.resize.heap_size, at_end ? 1 : values[i]);
            if (ev.u.resize.heap_size != (at_end ? 1 : values[i]))
                fprintf(stderr, "\n  uleb %llu: read %llu\n",
                        (unsigned long long)values[i],
                        (unsigned long long)ev.u.resize.heap_size);
            if (at_end) {
                /* the value itself is the buffer's last: read it back from
                 * a buffer holding only it */
                struct wr one = {0};
                w_bytes(&one, "\x21\x00", 2);
                w_uleb(&one, values[i]);
                n = leb_read(one.b, one.n, HS_MLPD_GC_RESIZE, &ev, &st);
                CU_ASSERT(n == 1 && st == HS_DONE &&
                          ev.u.resize.heap_size == values[i]);
            }

            /* ALLOC without backtrace: vtable and object as signed
             * deltas from the buffer's bases (0x10 and 0x1000) */
            /* the value and its negation as two's complement bits
             * (-INT64_MIN is not an int64_t) */
            uint64_t uneg = 0 - values[i];
            int64_t d, neg;
            memcpy(&d, &values[i], sizeof d);
            memcpy(&neg, &uneg, sizeof neg);
            struct wr a = {0};
            w_bytes(&a, "\x00\x00", 2);
            w_sleb(&a, d);
            w_sleb(&a, neg);
            w_uleb(&a, 24);
            if (!at_end)
                w_resizes(&a, 6);
            n = leb_read(a.b, a.n, HS_MLPD_ALLOC, &ev, &st);
            CU_ASSERT(n == 1 && st == HS_DONE);
            CU_ASSERT_EQUAL(ev.u.alloc.vtable, 0x10 + (uint64_t)d);
            CU_ASSERT_EQUAL(ev.u.alloc.object,
                            (0x1000 + (uint64_t)neg) << 3);
            CU_ASSERT_EQUAL(ev.u.alloc.size, 24);
        }
        /* eleven bytes, and a tenth byte beyond bit 63: the rest of the
         * buffer is skipped with a warning, nothing is made up */
        static const uint8_t eleven[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
                                         0x80, 0x80, 0x80, 0x80, 0x00};
        static const uint8_t wide[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                       0xff, 0xff, 0xff, 0x03};
        const uint8_t *bad[] = {eleven, wide};
        const size_t badlen[] = {sizeof eleven, sizeof wide};
        for (int k = 0; k < 2; k++) {
            struct wr b = {0};
            w_bytes(&b, "\x21\x00", 2);
            w_bytes(&b, bad[k], badlen[k]);
            if (!at_end)
                w_resizes(&b, 6);
            hs_mlpd_event ev = {0};
            int st;
            size_t n = leb_read(b.b, b.n, HS_MLPD_GC_RESIZE, &ev, &st);
            CU_ASSERT_EQUAL(n, 0);
            CU_ASSERT(st == HS_DONE || st == HS_TRUNCATED || st < 0);
        }
    }
}

/* A buffer header may claim up to 16 MiB. Fed a few bytes at a time, the
 * reader stages the buffer as it arrives: a short file that claims the
 * most costs about what it holds, not 16 MiB. */
static void test_claimed_buffer_costs_what_arrives(void)
{
    static struct wr file; /* 512 bytes */
    memset(&file, 0, sizeof file);
    w_header(&file, 8);
    struct wr body = {0};
    w_resizes(&body, 100);
    w_buffer(&file, 0, body.b, body.n);
    /* the buffer's length field: the most a buffer may claim */
    size_t len_at = file.n - body.n - 44;
    for (int i = 0; i < 4; i++)
        file.b[len_at + i] = (uint8_t)(HS_MLPD_MAX_BUFFER >> (8 * i));
    for (size_t chunk = 1; chunk <= 64; chunk *= 4) {
        tu_failing mem = {-1, 0, 0};
        hs_allocator a = tu_failing_allocator(&mem);
        hs_mlpd_reader *r = hs_mlpd_reader_new_with(&a);
        CU_ASSERT_FATAL(r != NULL);
        size_t resizes = 0;
        for (size_t pos = 0; pos < file.n; pos += chunk) {
            size_t k = file.n - pos < chunk ? file.n - pos : chunk;
            hs_mlpd_reader_feed(r, file.b + pos, k);
            hs_mlpd_event ev;
            while (hs_mlpd_reader_next(r, &ev) == HS_EVENT)
                resizes += ev.kind == HS_MLPD_GC_RESIZE;
        }
        CU_ASSERT_EQUAL(hs_mlpd_reader_finish(r), HS_TRUNCATED);
        CU_ASSERT_EQUAL(resizes, 100);
        CU_ASSERT(mem.most < 64 * 1024);
        hs_mlpd_reader_free(r);
        CU_ASSERT_EQUAL(mem.live, 0);
    }
}

int main(void)
{
    static const tu_test tests[] = {
        {"allocated bytes near 2^64 saturate", test_saturated_alloc_bytes},
        {"32-bit files: pointer differences modulo 2^32", test_32bit_pointers},
        {"a reused vtable address: the description of its time",
         test_reused_vtable_address},
        {"LEB128 values of every length, mid-buffer and at its end",
         test_leb_values},
        {"a claimed 16 MiB buffer costs what arrives",
         test_claimed_buffer_costs_what_arrives},
        {NULL, NULL},
    };
    return tu_main("mlpd_built", NULL, NULL, tests);
}
