/*
 * libFuzzer target for the .mlpd reader and its census.
 *
 * Input: one mode byte, then the bytes of a (possibly hostile) .mlpd. With
 * mode bit 6 the bytes are first gzip-compressed here, so that mutations
 * reach the gzip path as valid streams of odd content (bytes that are a
 * gzip stream already are left so: their compressed bytes mutate, and a
 * corrupt symbol sends ISA-L's call back to be replayed a byte at a time,
 * which the chunked passes below must agree with). The file is decoded
 * whole, in fixed chunks of 1 to 16 bytes (x64 for inputs over 16 KiB)
 * and (bit 4) in pseudo-random
 * chunks with empty feeds; every chunk sits at the end of its allocation,
 * so AddressSanitizer catches a read past it. The passes must agree on
 * every event (all fields, pointers followed) and on the final status,
 * and so must the whole pass through the general decoder alone
 * (hs__mlpd_general_only: the ALLOC fast path off). Counting from a memfd
 * (hs_mlpd_read_fd_count(), its BMI2 walker and its portable one) gives
 * what hs_mlpd_read_fd() gives: counts, status, error, skipped buffers.
 * Then (bit 5) a census of allocation intervals loaded with the runs of
 * ALLOCs the reader hands the loader (their backtraces matched by their
 * bytes where they recur) equals the one loaded from the general
 * decoder's events one by one (status, hp, sites with their frames,
 * figures), and
 * the bytes load into a census by class and by assembly,
 * heap shots and allocation intervals, and every renderer draws it: the
 * folded stacks of each census (their weights adding up to the census's
 * sums; allocation sites by objects and by bytes in turn), the CSV in
 * both layouts over the three censuses (bit 7 says which census gets
 * which layout); the GC summary
 * (its JSON checked as JSON) and the report page of one census (bit 7:
 * by class or by namespace), that census against itself, and the two
 * heap-shot censuses against each other (fuzz_report.c).
 *
 * Build: CC=clang meson setup build-fuzz -Dfuzz=true
 *        -Db_sanitize=address,undefined -Db_lundef=false
 * Seeds: a Mono sample's first 60 KB, prefixed with a mode byte:
 *   mkdir -p /tmp/mseeds && for f in samples/mono/[a-z]*.mlpd; do
 *     { printf '\065'; head -c 60000 "$f"; } >/tmp/mseeds/$(basename "$f"); done
 *   build-fuzz/tests/fuzz/fuzz_mlpd -dict=tests/fuzz/mlpd.dict \
 *       -max_len=70000 /tmp/mcorpus /tmp/mseeds
 */
#include "fuzz_common.h"
#include "fuzz_report.h"
#include "../mlpdhash.h"
#include "../evhash.h"
#include "../mlpd_counted.h"
#include "read/read_mlpd.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct outcome {
    uint64_t n, hash;
    int status, err_code;
    uint64_t err_offset, skipped;
} outcome;

#define SCRATCH 4096

static size_t next_chunk(int how, uint32_t *state, size_t fixed, size_t left)
{
    size_t n = left;
    if (how == 1) {
        n = fixed;
    } else if (how == 2) {
        *state ^= *state << 13;
        *state ^= *state >> 17;
        *state ^= *state << 5;
        n = (*state & 7) == 0 ? 0 : 1 + (*state >> 4) % SCRATCH;
    }
    return n < left ? n : left;
}

static outcome decode(const uint8_t *data, size_t size, int how, size_t fixed)
{
    outcome o = {0, EVH_SEED, 0, 0, 0, 0};
    hs_mlpd_reader *r = hs_mlpd_reader_new();
    CHECK(r != NULL);
    size_t cap = how == 0 ? (size ? size : 1) : SCRATCH;
    uint8_t *buf = malloc(cap);
    CHECK(buf != NULL);
    uint32_t state = (uint32_t)size | 1;
    size_t pos = 0;
    int st = HS_NEED_INPUT;
    uint64_t last_off = 0;
    while (pos < size) {
        size_t n = next_chunk(how, &state, fixed, size - pos);
        uint8_t *chunk = buf + cap - n;
        memcpy(chunk, data + pos, n);
        CHECK(hs_mlpd_reader_feed(r, n ? chunk : NULL, n) <= HS_OK);
        pos += n;
        hs_mlpd_event ev;
        while ((st = hs_mlpd_reader_next(r, &ev)) == HS_EVENT) {
            CHECK(o.n == 0 || ev.offset >= last_off);
            last_off = ev.offset;
            evh_mixu(&o.hash, mlpd_hash(&ev));
            o.n++;
        }
        CHECK(st == HS_NEED_INPUT || st < 0);
        if (st < 0)
            break;
    }
    free(buf);
    o.status = hs_mlpd_reader_finish(r);
    CHECK(hs_mlpd_reader_finish(r) == o.status);
    const hs_error *e = hs_mlpd_reader_error(r);
    o.err_code = e->code;
    o.err_offset = e->offset;
    o.skipped = hs_mlpd_reader_skipped(r);
    CHECK(o.status == HS_DONE || o.status == HS_TRUNCATED || o.status < 0);
    if (o.status != HS_DONE)
        CHECK(e->code == o.status && e->message[0] &&
              memchr(e->message, 0, sizeof e->message));
    if (o.skipped)
        CHECK(hs_mlpd_reader_skip_warning(r) != NULL);
    hs_mlpd_reader_free(r);
    return o;
}

static void same(const outcome *a, const outcome *b)
{
    CHECK(a->n == b->n && a->hash == b->hash && a->status == b->status);
    CHECK(a->err_code == b->err_code && a->err_offset == b->err_offset);
    CHECK(a->skipped == b->skipped);
}

/* Reads data from a memfd: walker 0 event by event, 1 by counting (BMI2
 * where the processor has it), 2 by counting the portable way. False when
 * no memfd could be made. */
static bool count_fd(const uint8_t *data, size_t size, int walker,
                     mlpd_counted *o)
{
    int fd = mem_fd(data, size);
    if (fd < 0)
        return false;
    hs__mlpd_count_portable = walker == 2;
    mlpd_counted_read(fd, walker != 0, o);
    hs__mlpd_count_portable = false;
    close(fd);
    return true;
}

/* The counting walkers (both ways) give what the events give. */
static void check_counting(const uint8_t *data, size_t size)
{
    static mlpd_counted want, got;
    if (!count_fd(data, size, 0, &want))
        return;
    for (int walker = 1; walker <= 2; walker++)
        if (count_fd(data, size, walker, &got))
            CHECK(mlpd_counted_same(&want, &got));
}

/* data gzip-compressed into a new allocation (*out_len bytes). */
static uint8_t *gzip(const uint8_t *data, size_t size, size_t *out_len)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    CHECK(deflateInit2(&z, 1, Z_DEFLATED, 16 + MAX_WBITS, 8,
                       Z_DEFAULT_STRATEGY) == Z_OK);
    size_t cap = deflateBound(&z, size) + 32;
    uint8_t *out = malloc(cap);
    CHECK(out != NULL);
    z.next_in = (Bytef *)data;
    z.avail_in = (uInt)size;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    CHECK(deflate(&z, Z_FINISH) == Z_STREAM_END);
    *out_len = cap - z.avail_out;
    deflateEnd(&z);
    return out;
}

/* The GC summary as text (counted) and JSON (checked as JSON), the
 * report page with that JSON as its GC tab, and c against itself. */
static void report(const hs_census *c, unsigned flags)
{
    size_t counted = 0;
    hs_sink cs = {count_write, &counted};
    int st = hs_mlpd_summary_text(c, &cs);
    hs_membuf gc;
    memset(&gc, 0, sizeof gc);
    hs_sink s = hs_membuf_sink(&gc);
    int js = hs_mlpd_summary_json(c, "fuzz\"</script>", &s);
    check_summary_pair(st, counted, js, &gc);
    check_page(c, js == HS_OK ? gc.data : NULL, flags & 0x1f);
    hs_membuf_free(&gc);
    check_self_diff(c, NULL, flags & 7);
}

/* The allocation sites' folded lines (objects, or bytes with by_bytes)
 * add up to the sites' own sums where doubles are exact. */
static void check_alloc_folded(const hs_census *c, bool by_bytes)
{
    hs_folded_options fo;
    hs_folded_options_init(&fo);
    fo.source = HS_FOLDED_ALLOC;
    fo.weight = by_bytes ? HS_WEIGHT_BYTES : HS_WEIGHT_COUNT;
    fo.per_capability = false;
    hs_membuf m;
    if (render(c, (render_fn)hs_render_folded, &fo, &m) == HS_OK) {
        size_t nlines, n = hs_census_alloc_site_count(c);
        uint64_t sum = folded_sum(&m, &nlines), want = 0;
        for (size_t i = 0; i < n; i++) {
            const char *const *frames;
            size_t nframes;
            uint64_t bytes, objs;
            hs_census_alloc_site(c, i, &frames, &nframes, &bytes, &objs);
            want = add_sat(want, by_bytes ? bytes : objs);
        }
        CHECK(nlines <= n);
        if (want < (uint64_t)1 << 53)
            CHECK(sum == want);
    }
    hs_membuf_free(&m);
}

/* What a census of allocations per interval holds, as text (caller
 * frees): its status, hp, allocation sites (folded, and each with its
 * frames) and figures. */
static hs_membuf alloc_census_text(const uint8_t *data, size_t size)
{
    hs_census *c = hs_census_new();
    CHECK(c != NULL);
    CHECK(hs_census_set_mlpd_options(c, HS_MLPD_BY_ASSEMBLY,
                                     HS_MLPD_SAMPLES_ALLOC, 0) == 0);
    hs_membuf t;
    memset(&t, 0, sizeof t);
    hs_sink s = hs_membuf_sink(&t);
    int fd = mem_fd(data, size);
    hs_error err;
    int st = fd < 0 ? HS_ERR_IO : hs_census_load_fd(c, fd, &err);
    if (fd >= 0)
        close(fd);
    hs_sink_printf(&s, "%d %d %llu %s\n", st, st < 0 ? err.code : 0,
                   st < 0 ? (unsigned long long)err.offset : 0ull,
                   st < 0 ? err.message : "");
    if (st >= 0) {
        hs_folded_options fo;
        hs_folded_options_init(&fo);
        fo.source = HS_FOLDED_ALLOC;
        hs_render_hp(c, &s);
        hs_render_folded(c, &s, &fo);
        const hs_mlpd_gc_stats *g = hs_census_mlpd_stats(c);
        if (g)
            hs_sink_write(&s, g, sizeof *g);
        hs_sink_printf(&s, "%llu", (unsigned long long)
                       hs_census_get_info(c)->events);
        /* each site's frames: the reader's kept backtraces are copied */
        for (size_t i = 0; i < hs_census_alloc_site_count(c); i++) {
            const char *const *frames;
            size_t nframes;
            uint64_t bytes, objs;
            const char *name = hs_census_alloc_site(c, i, &frames, &nframes,
                                                    &bytes, &objs);
            hs_sink_printf(&s, "\n%s %llu %llu", name,
                           (unsigned long long)bytes, (unsigned long long)objs);
            while (nframes--)
                hs_sink_printf(&s, " %s", frames[nframes]);
        }
    }
    hs_census_free(c);
    return t;
}

/* The runs of ALLOCs the loader takes from the reader against the
 * general decoder's events one by one: the same census. */
static void same_alloc_census(const uint8_t *data, size_t size)
{
    hs_membuf fast = alloc_census_text(data, size);
    hs__mlpd_general_only = true;
    hs_membuf general = alloc_census_text(data, size);
    hs__mlpd_general_only = false;
    CHECK(fast.len == general.len &&
          memcmp(fast.data, general.data, fast.len) == 0);
    hs_membuf_free(&fast);
    hs_membuf_free(&general);
}

static void load_all(const uint8_t *data, size_t size, unsigned mode)
{
    same_alloc_census(data, size);
    unsigned flip = mode >> 7;
    hs_census *heap[2] = {NULL, NULL}; /* by class, by namespace */
    static const struct { hs_mlpd_group by; hs_mlpd_samples s; } ways[] = {
        {HS_MLPD_BY_CLASS, HS_MLPD_SAMPLES_HEAP},
        {HS_MLPD_BY_ASSEMBLY, HS_MLPD_SAMPLES_ALLOC},
        {HS_MLPD_BY_NAMESPACE, HS_MLPD_SAMPLES_HEAP}};
    for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++) {
        hs_census *c = hs_census_new();
        CHECK(c != NULL);
        CHECK(hs_census_set_mlpd_options(c, ways[w].by, ways[w].s, 0) == 0);
        int fd = mem_fd(data, size);
        if (fd < 0) {
            hs_census_free(c);
            break;
        }
        hs_error err;
        int st = hs_census_load_fd(c, fd, &err);
        close(fd);
        if (st >= 0) {
            const hs_mlpd_gc_stats *ms = hs_census_mlpd_stats(c);
            if (ms && hs_census_sample_count(c) && !w)
                CHECK(ms->heap_shots >= hs_census_sample_count(c));
            check_alloc_folded(c, (w + flip) & 1);
            /* Each layout at least once per input, the two alternating
             * over the censuses (mode bit 7 picks which gets which): the
             * CSV of up to 131,072 intervals in both layouts for all
             * three was half the target's time. */
            render_csv_layout(c, (hs_csv_layout)((w + flip) % 2));
            render_folded_all(c);
            /* the page and the summary of one census per input */
            if (w == 2 * flip)
                report(c, mode);
            if (ways[w].s == HS_MLPD_SAMPLES_HEAP) {
                heap[w / 2] = c;
                continue;
            }
        } else {
            CHECK(err.code == st);
        }
        hs_census_free(c);
    }
    /* the same heap shots grouped two ways: names new and gone */
    if (heap[0] && heap[1])
        check_diff(heap[flip], heap[!flip], NULL, mode & 7);
    hs_census_free(heap[0]);
    hs_census_free(heap[1]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t mode = data[0];
    data++;
    size--;
    uint8_t *zipped = NULL;
    /* bit 6: gzip-compressed here, unless the bytes are a gzip stream
     * already, whose compressed bytes the fuzzer then mutates */
    if ((mode & 0x40) && !(size >= 2 && data[0] == 0x1f && data[1] == 0x8b)) {
        zipped = gzip(data, size, &size);
        data = zipped;
    }
    outcome whole = decode(data, size, 0, 0);
    /* the ALLOC fast path against the general decoder */
    hs__mlpd_general_only = true;
    outcome general = decode(data, size, 0, 0);
    hs__mlpd_general_only = false;
    same(&whole, &general);
    check_counting(data, size);
    /* Chunks of 1 to 16 bytes on small inputs; on large ones (where an
     * event cut by every chunk edge is decoded again each time, quadratic
     * in its size) 64 times that, to keep the fuzzer fast. The unit tests
     * feed whole samples in chunks of 1 to 16. */
    size_t fixed_len = (size_t)(1 + (mode & 15)) * (size < 16384 ? 1 : 64);
    outcome fixed = decode(data, size, 1, fixed_len);
    same(&whole, &fixed);
    if (mode & 0x10) {
        outcome rnd = decode(data, size, 2, 0);
        same(&whole, &rnd);
    }
    if (mode & 0x20)
        load_all(data, size, mode);
    free(zipped);
    return 0;
}
