/*
 * The .mlpd reader and census on the Mono samples (samples/mono/): event
 * counts, sizes and bytes per event type equal mprof-report's
 * --reports=stats; chunk sizes 1 to 16 give the same events; a file cut at
 * any byte gives a prefix of the events and never fails; a buffer with a
 * bad value is skipped and the next one read; every allocation failure is
 * reported, not crashed on.
 */
#include "testutil.h"
#include "mlpdhash.h"

#include <heapscope/heapscope.h>

#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const samples[] = {
    "leak-ondemand.mlpd", "leak-ondemand-zip.mlpd.gz", "sites-alloc.mlpd",
    "sites-alloc-zip.mlpd.gz", "sites-legacy.mlpd",
    "threads-alloc-heapshot.mlpd", "churn-100ms-sample.mlpd", "excmon.mlpd",
    "deep-calls-alloc.mlpd", "deep-alloc-mf8.mlpd", "deep-gcalloc-mf0.mlpd",
    "workers-legacy-zip.mlpd.gz", "churn-killed.mlpd",
    "domains-gcalloc-zip.mlpd.gz",
    /* cut inside a buffer: a killed zip run, partial copies */
    "churn-killed-zip.mlpd.gz", "excmon-cut.mlpd",
    "workers-legacy-cut.mlpd.gz", NULL};

static void *sample(const char *name, size_t *len)
{
    char rel[256];
    snprintf(rel, sizeof rel, "mono/%s", name);
    return tu_slurp_sample(rel, len);
}

/* Every event of data fed in chunks of `chunk` bytes: fingerprints into
 * *out (caller frees), their number returned; *final gets finish()'s
 * status. BUFFER pseudo-events are included. */
static size_t read_events_ix(const uint8_t *data, size_t len, size_t chunk,
                             uint64_t **out, int *final, bool index)
{
    hs_mlpd_reader *r = hs_mlpd_reader_new();
    size_t n = 0, cap = 1024;
    uint64_t *h = malloc(cap * sizeof *h);
    int st = HS_NEED_INPUT;
    for (size_t pos = 0; pos < len && st >= 0;) {
        size_t k = len - pos < chunk ? len - pos : chunk;
        hs_mlpd_reader_feed(r, data + pos, k);
        pos += k;
        hs_mlpd_event ev;
        while ((st = hs_mlpd_reader_next(r, &ev)) == HS_EVENT) {
            if (n == cap)
                h = realloc(h, (cap *= 2) * sizeof *h);
            if (!index)
                ev.index = 0;
            h[n++] = mlpd_hash(&ev);
        }
    }
    *final = st < 0 ? st : hs_mlpd_reader_finish(r);
    hs_mlpd_reader_free(r);
    *out = h;
    return n;
}

static size_t read_events(const uint8_t *data, size_t len, size_t chunk,
                          uint64_t **out, int *final)
{
    return read_events_ix(data, len, chunk, out, final, true);
}

/* mprof-report's stats lines for a TYPE name: count, min, max, bytes. */
struct stat_row { const char *name; uint8_t byte; };
static const struct stat_row stat_names[] = {
    {"TYPE_ALLOC_NO_BT", 0x00}, {"TYPE_ALLOC_BT", 0x10},
    {"TYPE_GC_EVENT", 0x11}, {"TYPE_GC_RESIZE", 0x21}, {"TYPE_GC_MOVE", 0x31},
    {"TYPE_GC_HANDLE_CREATED", 0x41}, {"TYPE_GC_HANDLE_CREATED_BT", 0x61},
    {"TYPE_GC_HANDLE_DESTROYED", 0x51}, {"TYPE_GC_HANDLE_DESTROYED_BT", 0x71},
    {"TYPE_GC_FINALIZE_START", 0x81}, {"TYPE_GC_FINALIZE_END", 0x91},
    {"TYPE_GC_FINALIZE_OBJECT_START", 0xa1},
    {"TYPE_GC_FINALIZE_OBJECT_END", 0xb1},
    {"TYPE_END_LOAD", 0x22}, {"TYPE_END_UNLOAD", 0x42},
    {"TYPE_LEAVE", 0x13}, {"TYPE_ENTER", 0x23}, {"TYPE_EXC_LEAVE", 0x33},
    {"TYPE_JIT", 0x43}, {"TYPE_THROW_BT", 0x84}, {"TYPE_THROW_NO_BT", 0x04},
    {"TYPE_CLAUSE", 0x14}, {"TYPE_MONITOR_NO_BT", 0x05},
    {"TYPE_MONITOR_BT", 0x85}, {"TYPE_HEAP_START", 0x06},
    {"TYPE_HEAP_END", 0x16}, {"TYPE_HEAP_OBJECT", 0x26},
    {"TYPE_HEAP_ROOT", 0x36}, {"TYPE_SAMPLE_HIT", 0x07},
    {"TYPE_SAMPLE_USYM", 0x17}, {"TYPE_SAMPLE_COUNTERS_DESC", 0x37},
    {"TYPE_SAMPLE_COUNTERS", 0x47}, {"TYPE_JITHELPER", 0x18},
    {"TYPE_SYNC_POINT", 0x0a}, {"TYPE_AOT_ID", 0x1a}, {NULL, 0}};

struct tally { uint64_t count, min, max, bytes; };

/* The whole file's tally and the current buffer's, kept apart until the
 * buffer is known to be whole: mprof-report drops a buffer cut short. */
struct tallies { struct tally all[256], buf[256]; uint64_t buffers; };

static void merge_buffer(struct tallies *t)
{
    for (int b = 0; b < 256; b++) {
        struct tally *x = &t->all[b];
        const struct tally *y = &t->buf[b];
        if (!y->count)
            continue;
        if (!x->count || y->min < x->min)
            x->min = y->min;
        if (y->max > x->max)
            x->max = y->max;
        x->count += y->count;
        x->bytes += y->bytes;
    }
    memset(t->buf, 0, sizeof t->buf);
}

static int on_tally(void *user, const hs_mlpd_event *ev)
{
    struct tallies *ts = user;
    if (ev->kind == HS_MLPD_BUFFER) {
        merge_buffer(ts);
        ts->buffers++;
        return 0;
    }
    struct tally *t = &ts->buf[ev->byte];
    if (!t->count || ev->size < t->min)
        t->min = ev->size;
    if (ev->size > t->max)
        t->max = ev->size;
    t->count++;
    t->bytes += ev->size;
    return 0;
}

static void test_stats_equal_mprof(void)
{
    for (int s = 0; samples[s]; s++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/mono/%s", tu_samples_dir(), samples[s]);
        static struct tallies ts;
        memset(&ts, 0, sizeof ts);
        hs_mlpd_reader *r = hs_mlpd_reader_new();
        FILE *f = fopen(path, "rb");
        CU_ASSERT_FATAL(f != NULL);
        int st = hs_mlpd_read_fd(r, fileno(f), on_tally, &ts);
        fclose(f);
        /* a file cut inside a buffer: that buffer is not counted */
        bool cut = st == HS_TRUNCATED &&
                   strstr(hs_mlpd_reader_error(r)->message, "-byte buffer");
        bool named_cut = strstr(samples[s], "-cut") ||
                         strstr(samples[s], "killed-zip");
        CU_ASSERT_EQUAL(st, named_cut ? HS_TRUNCATED : HS_DONE);
        CU_ASSERT_EQUAL(cut, named_cut);
        if (!cut)
            merge_buffer(&ts);
        uint64_t buffers = ts.buffers - cut;
        CU_ASSERT_EQUAL(buffers, hs_mlpd_reader_buffers(r) - cut);
        hs_mlpd_reader_free(r);
        const struct tally *t = ts.all;
        /* the .stats file beside the sample */
        char *dot = strstr(path, ".mlpd");
        strcpy(dot, ".stats");
        size_t len;
        char *text = tu_slurp(path, &len);
        CU_ASSERT_FATAL(text != NULL);
        unsigned long long bufs = 0;
        char *b = strstr(text, "Buffer count");
        CU_ASSERT(b && sscanf(b, "Buffer count %llu", &bufs) == 1);
        CU_ASSERT_EQUAL(bufs, buffers);
        int rows = 0;
        for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
            char a[64], name[64];
            unsigned long long n, mn, mx, by;
            if (sscanf(line, " %63s %63s count %llu min %llu max %llu bytes %llu",
                       a, name, &n, &mn, &mx, &by) != 6)
                continue;
            const struct stat_row *sr = stat_names;
            while (sr->name && strcmp(sr->name, name))
                sr++;
            CU_ASSERT_PTR_NOT_NULL(sr->name);
            if (!sr->name)
                continue;
            const struct tally *x = &t[sr->byte];
            CU_ASSERT_EQUAL(x->count, n);
            CU_ASSERT_EQUAL(x->min, mn);
            CU_ASSERT_EQUAL(x->max, mx);
            CU_ASSERT_EQUAL(x->bytes, by);
            rows++;
        }
        CU_ASSERT(rows >= 4);
        free(text);
    }
}

static void test_chunk_sizes(void)
{
    for (int s = 0; samples[s]; s++) {
        if (!strstr(samples[s], "leak") && !strstr(samples[s], "sites-alloc"))
            continue;
        size_t len;
        uint8_t *data = sample(samples[s], &len);
        CU_ASSERT_FATAL(data != NULL);
        uint64_t *want;
        int fw;
        size_t nw = read_events(data, len, len, &want, &fw);
        CU_ASSERT_EQUAL(fw, HS_DONE);
        CU_ASSERT(nw > 1000);
        /* gzip: 1, 2, 4, 8 and 16 (each piece under 64 bytes is inflated
         * a byte at a time, and under ASan ISA-L's 32 KiB history move
         * per call made every size from 1 to 16 most of this suite) */
        bool gz = strstr(samples[s], ".gz") != NULL;
        for (size_t chunk = 1; chunk <= 16; chunk += gz ? chunk : 1) {
            uint64_t *got;
            int fg;
            size_t ng = read_events(data, len, chunk, &got, &fg);
            CU_ASSERT_EQUAL(fg, HS_DONE);
            CU_ASSERT_EQUAL(ng, nw);
            CU_ASSERT(ng == nw && memcmp(got, want, nw * sizeof *got) == 0);
            free(got);
        }
        free(want);
        free(data);
    }
}

/* Cut at every byte of the first `upto` bytes: a prefix of the events,
 * never more as the cut moves on, and the cut reported. */
static void cut_everywhere(const char *name, size_t upto, size_t step)
{
    size_t len;
    uint8_t *data = sample(name, &len);
    CU_ASSERT_FATAL(data != NULL);
    uint64_t *all;
    int fa;
    size_t nall = read_events(data, len, len, &all, &fa);
    CU_ASSERT_EQUAL(fa, HS_DONE);
    size_t prev = 0;
    int bad = 0;
    for (size_t cut = 0; cut <= upto && cut < len; cut += step) {
        uint64_t *got;
        int st;
        size_t n = read_events(data, cut, 4096, &got, &st);
        if (n > nall || memcmp(got, all, n * sizeof *got) != 0 || n < prev ||
            !(st == HS_TRUNCATED || st == HS_DONE ||
              st == HS_ERR_TRUNCATED_HEADER))
            bad++;
        /* a header cut yields nothing; a cut past it says so */
        if (st == HS_ERR_TRUNCATED_HEADER && n != 0)
            bad++;
        prev = n;
        free(got);
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(prev > 10);
    free(all);
    free(data);
}

static void test_cut_every_byte(void)
{
    /* the header and the first buffers byte by byte (which covers cuts
     * in a buffer header, a payload and an event), then the whole file */
    cut_everywhere("sites-alloc.mlpd", 12000, 1);
    cut_everywhere("sites-alloc-zip.mlpd.gz", 3000, 1);
    cut_everywhere("threads-alloc-heapshot.mlpd", SIZE_MAX, 997);
}

/* The offset of the second buffer of a plain .mlpd: past the fixed
 * header, its three strings (args, arch, os) and the first buffer. */
static size_t second_buffer(const uint8_t *data)
{
    size_t off = 38;
    for (int i = 0; i < 3; i++) {
        uint32_t n;
        memcpy(&n, data + off, 4);
        off += 4 + n;
    }
    uint32_t blen;
    memcpy(&blen, data + off + 4, 4);
    return off + 48 + blen;
}

/* An unknown event byte inside the second buffer: the rest of that
 * buffer is skipped with a warning, every later buffer reads as before. */
static void test_bad_value_skips_buffer(void)
{
    size_t len;
    uint8_t *data = sample("sites-alloc.mlpd", &len);
    CU_ASSERT_FATAL(data != NULL);
    size_t second = second_buffer(data);
    uint8_t *bad = malloc(len);
    memcpy(bad, data, len);
    bad[second + 48] = 0x0f; /* no such event */
    uint64_t *want, *got;
    int fw, fg;
    /* event indices differ after the skipped events: not compared */
    size_t nw = read_events_ix(data, len, len, &want, &fw, false);
    size_t ng = read_events_ix(bad, len, 7, &got, &fg, false);
    CU_ASSERT_EQUAL(fg, HS_DONE);
    /* the first buffer and the second's header, then the third buffer on */
    size_t k = 0;
    while (k < ng && got[k] == want[k])
        k++;
    CU_ASSERT(k > 1 && k < ng);
    size_t skipped = nw - ng;
    CU_ASSERT(skipped > 0);
    CU_ASSERT(memcmp(got + k, want + k + skipped,
                     (ng - k) * sizeof *got) == 0);
    hs_mlpd_reader *r = hs_mlpd_reader_new();
    hs_mlpd_reader_feed(r, bad, len);
    hs_mlpd_event ev;
    while (hs_mlpd_reader_next(r, &ev) == HS_EVENT)
        ;
    CU_ASSERT_EQUAL(hs_mlpd_reader_finish(r), HS_DONE);
    CU_ASSERT_EQUAL(hs_mlpd_reader_skipped(r), 1);
    char want_msg[64];
    snprintf(want_msg, sizeof want_msg, "at offset %zu", second + 48);
    CU_ASSERT(strstr(hs_mlpd_reader_skip_warning(r), want_msg) != NULL);
    hs_mlpd_reader_free(r);
    free(bad);
    free(want);
    free(got);
    free(data);
}

/* An allocator that fails the n-th allocation. */
struct failing { long left; long made; };


static void *f_malloc(void *u, size_t n)
{
    struct failing *f = u;
    if (f->left-- == 0)
        return NULL;
    f->made++;
    return malloc(n);
}

static void *f_realloc(void *u, void *p, size_t n)
{
    struct failing *f = u;
    if (f->left-- == 0)
        return NULL;
    return realloc(p, n);
}

static void f_free(void *u, void *p)
{
    (void)u;
    free(p);
}

static int load_as(const char *name, const hs_allocator *a,
                   hs_mlpd_samples mode, hs_census **out)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/mono/%s", tu_samples_dir(), name);
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return HS_ERR_IO;
    hs_census *c = hs_census_new_with(a);
    if (!c) {
        fclose(f);
        return HS_ERR_NOMEM;
    }
    *out = c;
    int st = hs_census_set_mlpd_options(c, HS_MLPD_BY_CLASS, mode, 0);
    if (st < 0) {
        fclose(f);
        return st;
    }
    hs_error err;
    st = hs_census_load_fd(c, fileno(f), &err);
    fclose(f);
    return st;
}

static int load_with(const char *name, const hs_allocator *a,
                     hs_census **out)
{
    return load_as(name, a, HS_MLPD_SAMPLES_HEAP, out);
}

/* Fails every allocation of one load in turn (one in total / 600 + 1):
 * each must end in HS_ERR_NOMEM. */
static void sweep_failures(const char *name, hs_mlpd_samples mode)
{
    /* count the allocations of one load (left never reaches 0) */
    struct failing count = {-1, 0};
    hs_allocator a = {f_malloc, f_realloc, f_free, &count};
    hs_census *c;
    CU_ASSERT_EQUAL(load_as(name, &a, mode, &c), HS_OK);
    if (mode == HS_MLPD_SAMPLES_ALLOC)
        CU_ASSERT(hs_census_sample_count(c) > 1);
    hs_census_free(c);
    long total = -1 - count.left;
    CU_ASSERT(total > 10);
    int wrong = 0;
    long step = total / 600 + 1;
    for (long n = 0; n < total; n += step) {
        struct failing f = {n, 0};
        a.user = &f;
        int st = load_as(name, &a, mode, &c);
        if (st != HS_ERR_NOMEM) {
            wrong++;
            printf("\n%s: allocation %ld failing: status %d\n", name, n, st);
        }
        hs_census_free(c);
    }
    CU_ASSERT_EQUAL(wrong, 0);
}

static void test_allocation_failures(void)
{
    sweep_failures("leak-ondemand-zip.mlpd.gz", HS_MLPD_SAMPLES_HEAP);
    /* allocation intervals: the samples' array is reserved at once */
    sweep_failures("sites-alloc-zip.mlpd.gz", HS_MLPD_SAMPLES_ALLOC);
}

static void test_census_of_shots(void)
{
    hs_census *c;
    CU_ASSERT_EQUAL(load_with("leak-ondemand.mlpd", NULL, &c), HS_OK);
    const hs_census_info *in = hs_census_get_info(c);
    CU_ASSERT_EQUAL(in->source, HS_SOURCE_MLPD);
    CU_ASSERT(in->complete);
    CU_ASSERT_STRING_EQUAL(in->program, "Leak.exe");
    CU_ASSERT_EQUAL(hs_census_sample_count(c), 3);
    CU_ASSERT(hs_census_has_counts(c));
    /* the leak grows: 150 more orders per shot, each with its payload */
    for (size_t i = 0; i < 3; i++) {
        const hs_census_entry *e;
        const uint64_t *n;
        size_t ne = hs_census_sample_entries(c, i, &e);
        CU_ASSERT_EQUAL(hs_census_sample_counts(c, i, &n), ne);
        uint64_t orders = 0;
        for (size_t k = 0; k < ne; k++)
            if (!strcmp(hs_census_band_name(c, e[k].band),
                        "HeapScope.Samples.Order")) {
                orders = n[k];
                CU_ASSERT_EQUAL(e[k].bytes, n[k] * 40);
            }
        CU_ASSERT_EQUAL(orders, 150 * (i + 1));
    }
    const hs_mlpd_gc_stats *ms = hs_census_mlpd_stats(c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ms);
    CU_ASSERT_EQUAL(ms->heap_shots, 3);
    CU_ASSERT_EQUAL(ms->max_live_bytes, hs_census_sample_total(c, 2));
    CU_ASSERT_EQUAL(hs_census_alloc_site_count(c), 0);
    hs_census_free(c);
}

static void test_alloc_sites(void)
{
    hs_census *c;
    CU_ASSERT_EQUAL(load_with("sites-alloc.mlpd", NULL, &c), HS_OK);
    size_t n = hs_census_alloc_site_count(c);
    CU_ASSERT(n > 50);
    const hs_mlpd_gc_stats *ms = hs_census_mlpd_stats(c);
    uint64_t bytes = 0, objs = 0, prev = UINT64_MAX;
    bool recursed = false;
    for (size_t i = 0; i < n; i++) {
        const char *const *fr;
        size_t nf;
        uint64_t b, k;
        const char *cls = hs_census_alloc_site(c, i, &fr, &nf, &b, &k);
        CU_ASSERT_PTR_NOT_NULL(cls);
        CU_ASSERT(b <= prev); /* largest first */
        prev = b;
        bytes += b;
        objs += k;
        /* Recurse (12) allocates Points at depth 12 below Main */
        size_t depth = 0;
        for (size_t f = 0; f < nf; f++)
            depth += strstr(fr[f], "Sites:Recurse") != NULL;
        if (depth == 13 && !strcmp(cls, "HeapScope.Samples.Point"))
            recursed = true;
    }
    CU_ASSERT(recursed);
    CU_ASSERT_EQUAL(bytes, ms->alloc_bytes);
    CU_ASSERT_EQUAL(objs, ms->alloc_count);
    CU_ASSERT_PTR_NULL(hs_census_alloc_site(c, n, NULL, NULL, NULL, NULL));
    hs_census_free(c);
}

/* calls mode: allocations have no backtrace in the file; their sites are
 * the thread's stack of entered methods, innermost 32 frames. Deep.cs
 * allocates 40 and 10 frames of Down below Main. */
static void test_calls_mode_sites(void)
{
    hs_census *c;
    CU_ASSERT_EQUAL(load_with("deep-calls-alloc.mlpd", NULL, &c), HS_OK);
    size_t n = hs_census_alloc_site_count(c);
    bool deep = false, shallow = false;
    size_t longest = 0;
    for (size_t i = 0; i < n; i++) {
        const char *const *fr;
        size_t nf, downs = 0;
        const char *cls = hs_census_alloc_site(c, i, &fr, &nf, NULL, NULL);
        if (nf > longest)
            longest = nf;
        if (strncmp(cls, "HeapScope.Samples.Leaf<", 23) || !nf)
            continue;
        for (size_t f = 0; f < nf; f++)
            downs += strstr(fr[f], "Deep:Down (int)") != NULL;
        bool main_ = strstr(fr[0], "Deep:Main") || (nf > 1 && strstr(fr[1], "Deep:Main"));
        /* the allocating method is innermost (last) */
        if (downs == 11 && main_)
            shallow = true;
        if (nf == 32 && !main_ && downs > 25)
            deep = true;
    }
    CU_ASSERT(deep);
    CU_ASSERT(shallow);
    CU_ASSERT_EQUAL(longest, 32);
    hs_census_free(c);
}

/* The summary of a file with allocations and no GC event (gcalloc). */
static void test_summary_of_allocations_only(void)
{
    hs_census *c;
    CU_ASSERT_EQUAL(load_with("deep-gcalloc-mf0.mlpd", NULL, &c), HS_OK);
    const hs_mlpd_gc_stats *ms = hs_census_mlpd_stats(c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ms);
    CU_ASSERT_EQUAL(ms->collections[0] + ms->collections[1], 0);
    CU_ASSERT(ms->alloc_count > 1000);
    hs_membuf mb;
    hs_membuf_init(&mb, NULL);
    hs_sink out = hs_membuf_sink(&mb);
    CU_ASSERT_EQUAL(hs_mlpd_summary_text(c, &out), HS_OK);
    CU_ASSERT(mb.len && strstr(mb.data, "bytes allocated in the heap (1,"));
    hs_membuf_free(&mb);
    hs_census_free(c);
}

/* A file cut inside a buffer header: the warning names the header. */
static void test_cut_in_buffer_header(void)
{
    size_t len;
    uint8_t *data = sample("sites-alloc.mlpd", &len);
    CU_ASSERT_FATAL(data != NULL);
    size_t second = second_buffer(data);
    hs_mlpd_reader *r = hs_mlpd_reader_new();
    hs_mlpd_reader_feed(r, data, second + 20);
    hs_mlpd_event ev;
    while (hs_mlpd_reader_next(r, &ev) == HS_EVENT)
        ;
    CU_ASSERT_EQUAL(hs_mlpd_reader_finish(r), HS_TRUNCATED);
    char want[96];
    snprintf(want, sizeof want, "cut at offset %zu, inside the buffer header "
             "at offset %zu", second + 20, second);
    CU_ASSERT(strstr(hs_mlpd_reader_error(r)->message, want) != NULL);
    hs_mlpd_reader_free(r);
    free(data);
}

int main(void)
{
    static const tu_test tests[] = {
        {"event counts, sizes and bytes equal mprof-report's stats",
         test_stats_equal_mprof},
        {"chunk sizes 1 to 16 give the same events", test_chunk_sizes},
        {"a cut at any byte gives a prefix", test_cut_every_byte},
        {"a bad value skips the rest of its buffer only",
         test_bad_value_skips_buffer},
        {"every allocation failure is reported", test_allocation_failures},
        {"heap shots become samples with counts", test_census_of_shots},
        {"allocation sites with their backtraces", test_alloc_sites},
        {"calls mode: sites from entered methods", test_calls_mode_sites},
        {"a summary of allocations without GC events",
         test_summary_of_allocations_only},
        {"a cut inside a buffer header names it", test_cut_in_buffer_header},
        {NULL, NULL},
    };
    return tu_main("mlpd", NULL, NULL, tests);
}
