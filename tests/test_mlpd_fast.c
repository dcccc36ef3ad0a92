/*
 * The fast path of ALLOC events (read_mlpd_events.c) against the general
 * decoder (hs__mlpd_general_only): the same events, census and renders
 * (hp, csv, folded, the figures and facts `info` prints) on every .mlpd
 * of samples/mono/, on gen_mlpd's files and on constructed ones, read from
 * a file, a pipe and chunks of odd sizes; and the same message, offset
 * and status for a file cut or corrupted at every byte of a window.
 */
#include "mlpdhash.h"
#include "mlpdwriter.h"
#include "testutil.h"
#include "read/read_mlpd.h"

#include <heapscope/heapscope.h>

#include <CUnit/Basic.h>
#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum from { FROM_PREFIX, FROM_FILE, FROM_PIPE };

static void put_renders(hs_sink *s, hs_census *c)
{
    hs_render_hp(c, s);
    hs_render_csv(c, s, HS_CSV_LONG);
    hs_render_csv(c, s, HS_CSV_WIDE);
    for (int src = HS_FOLDED_HEAP; src <= HS_FOLDED_ALLOC; src++) {
        hs_folded_options fo;
        hs_folded_options_init(&fo);
        fo.source = (hs_folded_source)src;
        hs_render_folded(c, s, &fo);
    }
}

/* What `info` prints of a census: its facts and figures. */
static void put_info(hs_sink *s, hs_census *c)
{
    const hs_census_info *i = hs_census_get_info(c);
    hs_sink_printf(s, "events %" PRIu64 " complete %d cut %" PRIu64
                   " end %" PRIu64 " samples %zu\n", i->events, i->complete,
                   i->cut_offset, i->end_time_ns, hs_census_sample_count(c));
    const hs_mlpd_gc_stats *g = hs_census_mlpd_stats(c);
    if (g)
        for (size_t k = 0; k < sizeof *g; k++)
            hs_sink_printf(s, "%02x", ((const uint8_t *)g)[k]);
    for (size_t k = 0; k < hs_census_alloc_site_count(c); k++) {
        const char *const *fr;
        size_t n;
        uint64_t bytes, count;
        hs_sink_printf(s, "\n%s", hs_census_alloc_site(c, k, &fr, &n, &bytes,
                                                        &count));
        for (size_t j = 0; j < n; j++)
            hs_sink_printf(s, ";%s", fr[j]);
        hs_sink_printf(s, " %" PRIu64 " %" PRIu64, bytes, count);
    }
}

/* Everything the census of data[0 .. len) gives, as text (caller frees);
 * from the bytes as a loaded prefix, a file or a pipe in odd pieces. From
 * a file the census's samples are allocations per 50 us (the loader's
 * intervals, by each ALLOC's time), else heap shots. */
static char *census_text(const uint8_t *data, size_t len, enum from from)
{
    hs_census *c = hs_census_new();
    CU_ASSERT_FATAL(c != NULL);
    if (from == FROM_FILE)
        CU_ASSERT_EQUAL_FATAL(hs_census_set_mlpd_options(
                                  c, HS_MLPD_BY_ASSEMBLY,
                                  HS_MLPD_SAMPLES_ALLOC, 50000), HS_OK);
    hs_error err;
    memset(&err, 0, sizeof err);
    int st, fd;
    pid_t pid = -1;
    FILE *f = NULL;
    if (from == FROM_PREFIX) {
        fd = open("/dev/null", O_RDONLY);
        st = hs_census_load_mlpd_fd(c, fd, data, len, &err);
    } else if (from == FROM_FILE) {
        f = tmpfile();
        CU_ASSERT_FATAL(f != NULL);
        fwrite(data, 1, len, f);
        fflush(f);
        rewind(f);
        fd = dup(fileno(f));
        st = hs_census_load_fd(c, fd, &err);
    } else {
        fd = tu_pipe_from(data, len, 7, 4093, &pid);
        st = hs_census_load_fd(c, fd, &err);
    }
    close(fd);
    if (f)
        fclose(f);
    if (pid > 0)
        waitpid(pid, NULL, 0);
    hs_membuf m;
    memset(&m, 0, sizeof m);
    hs_sink s = hs_membuf_sink(&m);
    hs_sink_printf(&s, "status %d: %d at %" PRIu64 " event %" PRIu64 ": %s\n",
                   st, err.code, err.offset, err.event_index, err.message);
    if (st >= 0 || st == HS_TRUNCATED) {
        put_info(&s, c);
        put_renders(&s, c);
    }
    hs_census_free(c);
    return m.data ? m.data : strdup("");
}

/* The census text from the fast path equals the general path's. */
static void same_census(const uint8_t *data, size_t len, enum from from,
                        const char *what)
{
    hs__mlpd_general_only = true;
    char *slow = census_text(data, len, from);
    hs__mlpd_general_only = false;
    char *fast = census_text(data, len, from);
    if (strcmp(slow, fast))
        fprintf(stderr, "\n%s (%zu bytes, from %d): the fast path differs\n",
                what, len, (int)from);
    CU_ASSERT_STRING_EQUAL(fast, slow);
    free(slow);
    free(fast);
}

/* A hash of the events the reader gives for data fed `chunk` bytes at a
 * time, and of how the reading ends (status, offset, message). */
static uint64_t events_hash(const uint8_t *data, size_t len, size_t chunk)
{
    hs_mlpd_reader *r = hs_mlpd_reader_new();
    CU_ASSERT_FATAL(r != NULL);
    hs_mlpd_event ev;
    uint64_t h = 0;
    int st = HS_NEED_INPUT;
    for (size_t at = 0; at < len && st == HS_NEED_INPUT; at += chunk) {
        hs_mlpd_reader_feed(r, data + at, len - at < chunk ? len - at : chunk);
        while ((st = hs_mlpd_reader_next(r, &ev)) == HS_EVENT)
            h = (h ^ mlpd_hash(&ev)) * 0x100000001b3ull;
    }
    if (st == HS_NEED_INPUT)
        st = hs_mlpd_reader_finish(r);
    const hs_error *e = hs_mlpd_reader_error(r);
    h = (h ^ (uint64_t)(st + 1000)) * 0x100000001b3ull;
    if (st != HS_DONE) {
        h = (h ^ e->offset ^ (uint64_t)e->code << 40) * 0x100000001b3ull;
        for (const char *p = e->message; *p; p++)
            h = (h ^ (uint8_t)*p) * 0x100000001b3ull;
    }
    hs_mlpd_reader_free(r);
    return h;
}

/* The events of the fast path, fed whole and then (all: true) in odd
 * chunks, equal the general path's fed whole. */
static void same_events(const uint8_t *data, size_t len, const char *what,
                        bool all)
{
    static const size_t chunks[] = {0, 1, 5, 64, 1000, 4093, 65537};
    hs__mlpd_general_only = true;
    uint64_t slow = events_hash(data, len, len ? len : 1);
    hs__mlpd_general_only = false;
    /* gzip input in pieces under 64 bytes is inflated a byte at a time
     * (src/read/inflate.c: under ASan, ISA-L's 32 KiB history move per
     * call made that most of this suite's time); the decoder sees the
     * same inflated bytes as with larger pieces, and test_mlpd and
     * mlpd_gzip read gzip samples in small pieces */
    bool gz = len >= 2 && data[0] == 0x1f && data[1] == 0x8b;
    for (size_t i = 0; i < (all ? sizeof chunks / sizeof *chunks : 1); i++) {
        if ((chunks[i] == 1 && len > 30000) ||
            (gz && chunks[i] && chunks[i] < 64))
            continue;
        uint64_t fast = events_hash(data, len,
                                    chunks[i] ? chunks[i] : len ? len : 1);
        if (fast != slow)
            fprintf(stderr, "\n%s: events differ fed %zu bytes at a time\n",
                    what, chunks[i]);
        CU_ASSERT_EQUAL(fast, slow);
    }
}

static void same_all(const uint8_t *data, size_t len, const char *what)
{
    same_events(data, len, what, true);
    same_census(data, len, FROM_FILE, what);
    same_census(data, len, FROM_PIPE, what);
}

static void test_samples(void)
{
    const char *dir = tu_samples_dir();
    CU_ASSERT_FATAL(dir != NULL);
    char path[4096];
    snprintf(path, sizeof path, "%s/mono", dir);
    DIR *d = opendir(path);
    CU_ASSERT_FATAL(d != NULL);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d))) {
        if (!strstr(e->d_name, ".mlpd"))
            continue;
        snprintf(path, sizeof path, "%s/mono/%s", dir, e->d_name);
        size_t len;
        uint8_t *data = tu_slurp(path, &len);
        CU_ASSERT_FATAL(data != NULL);
        same_all(data, len, e->d_name);
        free(data);
        n++;
    }
    closedir(d);
    CU_ASSERT(n >= 10);
}

/* gen_mlpd's output for args (GEN_MLPD), malloc'd; NULL without it. */
static uint8_t *gen_mlpd(const char *args, size_t *len)
{
    const char *gen = getenv("GEN_MLPD");
    if (!gen)
        return NULL;
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "%s %s", gen, args);
    FILE *p = popen(cmd, "r");
    CU_ASSERT_FATAL(p != NULL);
    size_t cap = 1 << 20, n = 0, k;
    uint8_t *b = malloc(cap);
    while (b && (k = fread(b + n, 1, cap - n, p)) > 0)
        if ((n += k) == cap)
            b = realloc(b, cap *= 2);
    CU_ASSERT_EQUAL(pclose(p), 0);
    *len = n;
    return b;
}

static void test_gen_mlpd(void)
{
    static const char *const args[] = {"1", "--every-event"};
    for (size_t i = 0; i < 2; i++) {
        size_t len;
        uint8_t *data = gen_mlpd(args[i], &len);
        if (!data) {
            tu_skip("GEN_MLPD is not set (run under meson test)");
            return;
        }
        same_all(data, len, args[i]);
        free(data);
    }
}

/* A file of ALLOC events the fast path must hand over: ten-byte values
 * (a time stepping back, far pointers, far frames), backtraces longer
 * than any before, a count of 0 with the flag, events without it, 32-bit
 * pointers, events at the buffer's very end; then corrupt and cut ones. */
static void w_alloc(struct wr *w, int64_t dt, int64_t vt, uint64_t size,
                    int nframes, int64_t step)
{
    w_bytes(w, nframes < 0 ? "\x00" : "\x10", 1);
    w_uleb(w, (uint64_t)dt);
    w_sleb(w, vt);
    w_sleb(w, 8);
    w_uleb(w, size);
    if (nframes >= 0)
        w_uleb(w, (uint64_t)nframes);
    for (int i = 0; i < nframes; i++)
        w_sleb(w, i % 3 ? step : -step);
}

static void built(struct wr *file, uint8_t ptr_size)
{
    struct wr b = {0};
    w_bytes(&b, "\x22\x00\x07", 3); /* vtable 0x40 of class 0x20 */
    w_sleb(&b, 0);
    w_sleb(&b, 0x40 - 0x10);
    w_sleb(&b, 0x20 - 0x10);
    w_alloc(&b, 5, 0x30, 24, 2, 0x100);
    w_alloc(&b, -3, 0x30, 24, 1, 0x100);              /* ten-byte time */
    w_alloc(&b, 1, -0x7000000000000000, 40, 3, 8);    /* ten-byte vtable */
    w_alloc(&b, 1, 0x30, 1ull << 62, 40, 0x10000);    /* a longer trace */
    w_alloc(&b, 1, 0x30, 16, 4, -0x4000000000000000); /* far frames */
    w_alloc(&b, 1, 0x30, 16, 0, 0);                   /* flag, no frame */
    w_alloc(&b, 1, 0x30, 16, -1, 0);                  /* no flag */
    for (int i = 0; i < 40; i++)
        w_alloc(&b, i, 0x30, (uint64_t)i * 8, i % 9, 1 << (i % 30));
    w_header(file, ptr_size);
    w_buffer_at(file, 0x10, 1000, b.b, b.n);
    w_buffer_at(file, 0x10, 2000, b.b + 3, b.n - 3); /* events only */
}

/* The file make() writes, with 4- and 8-byte pointers, by both paths. */
static void both_widths(void (*make)(struct wr *, uint8_t), const char *what)
{
    for (uint8_t ptr = 4; ptr <= 8; ptr += 4) {
        struct wr file = {0};
        make(&file, ptr);
        same_all(file.b, file.n, what);
        same_census(file.b, file.n, FROM_PREFIX, what);
    }
}

static void test_built(void)
{
    both_widths(built, "built");
}

/* An ALLOC of vtable 0x10 + vt with the backtrace of the n absolute
 * frames f, written as running deltas from *m (the buffer's running
 * method, moved on). */
static void w_bt_of(struct wr *w, uint64_t *m, const uint64_t *f, int n,
                    int64_t vt)
{
    w_bytes(w, "\x10", 1);
    w_uleb(w, 3);
    w_sleb(w, vt);
    w_sleb(w, 8);
    w_uleb(w, 32);
    w_uleb(w, (uint64_t)n);
    for (int i = 0; i < n; i++) {
        w_sleb(w, (int64_t)(f[i] - *m));
        *m = f[i];
    }
}

static void w_bt(struct wr *w, uint64_t *m, const uint64_t *f, int n)
{
    w_bt_of(w, m, f, n, 0x30);
}

/*
 * Backtraces for the reader's cache of recent ones (keyed by the first
 * frame's running value and the other frames' bytes), each site written
 * many times, interleaved: sites whose later frames are the same shifted
 * (the same bytes after another first frame), sites that differ from
 * another in their last byte only, or in length only; lengths around the
 * cache's 8-byte words and its limits (24 bytes, 16 frames); frames near
 * 2^32 (4-byte pointers: sums taken modulo 2^32) and far apart (ten-byte
 * deltas); a second buffer, whose running method starts again, and
 * in it more sites than the cache has slots whose frames after the first
 * have the same bytes; sites whose backtrace allocates two classes in
 * turn (the loader's sites by backtrace and vtable).
 */
#define BT_SITES 48
#define BT_CLASSES 300

static int bt_site(uint64_t *f, int s)
{
    int n = s % 24;
    uint64_t base = s % 3 == 0 ? 0xffffff00u : s % 3 == 1 ? 0x5000 : 0x40000000;
    for (int i = 0; i < n; i++)
        f[i] = base + (uint64_t)(i * 0x91 + (s / 24) * 0x100);
    if (n && s % 4 == 0)
        f[n - 1] ^= 1;                   /* the last byte differs */
    if (n > 2 && s % 7 == 0)
        f[1] = 0x7000000000000000ull;    /* far frames */
    return n;
}

static void bt_file(struct wr *file, uint8_t ptr_size)
{
    w_header(file, ptr_size);
    for (int round = 0; round < 2; round++) {
        struct wr *b = calloc(1, sizeof *b);
        CU_ASSERT_FATAL(b != NULL);
        w_bytes(b, "\x22\x00\x07", 3); /* vtable 0x40 of class 0x20 */
        w_sleb(b, 0);
        w_sleb(b, 0x40 - 0x10);
        w_sleb(b, 0x20 - 0x10);
        w_bytes(b, "\x22\x00\x07", 3); /* vtable 0x80 of class 0x28 */
        w_sleb(b, 0);
        w_sleb(b, 0x80 - 0x10);
        w_sleb(b, 0x28 - 0x10);
        uint64_t m = 0, f[32];
        for (int k = 0; k < 3 * BT_SITES; k++) {
            int s = (k * 7 + round) % BT_SITES;
            w_bt_of(b, &m, f, bt_site(f, s),
                    s % 5 == 1 && k / BT_SITES == 1 ? 0x70 : 0x30);
        }
        for (int k = 0; round && k < 90; k++) { /* long: a run's frames */
            uint64_t g[30];
            for (int i = 0; i < 30; i++)
                g[i] = 0x6000 + (uint64_t)(k % 5 + i) * 0x30;
            w_bt(b, &m, g, 30);
        }
        for (int k = 0; round && k < 600; k++) { /* the same later bytes */
            uint64_t g[3] = {0x9000 + 0x40 * (uint64_t)k, 0, 0};
            g[1] = g[0] + 0x91;
            g[2] = g[1] + 0x91;
            w_bt(b, &m, g, 3);
        }
        w_buffer_at(file, 0x10, 1000 + 0x100000 * (uint64_t)round, b->b, b->n);
        free(b);
    }
}

/* One backtrace allocating more classes than the reader's cache has pairs
 * of slots, twice over: two of them share a pair, whatever picks it, and
 * so a kept backtrace and its id, which the loader's sites tell apart by
 * the vtable id. */
static void classes_file(struct wr *file, uint8_t ptr_size)
{
    struct wr *b = calloc(1, sizeof *b);
    CU_ASSERT_FATAL(b != NULL);
    uint64_t m = 0, g[4] = {0x7000, 0x7091, 0x7122, 0x71b3};
    for (int k = 0; k < 2 * BT_CLASSES; k++)
        w_bt_of(b, &m, g, 4, 0x1000 + 8 * (k % BT_CLASSES));
    w_header(file, ptr_size);
    w_buffer_at(file, 0x10, 1000, b->b, b->n);
    free(b);
}

static void test_bt_cache(void)
{
    /* the cache never resting: its misses here would rest it soon (the
     * rests are met by gen_mlpd's files and the cut below) */
    uint32_t rest = hs__mlpd_bt_rest;
    hs__mlpd_bt_rest = 0;
    both_widths(bt_file, "recurring backtraces");
    struct wr file = {0};
    classes_file(&file, 8);
    same_census(file.b, file.n, FROM_FILE, "one backtrace, many classes");
    hs__mlpd_bt_rest = rest;
}

/* Cut at every byte, and every byte corrupted two ways: the same events,
 * census, message, offset and status by both paths. */
static void sweep(const uint8_t *data, size_t len, size_t from, size_t to,
                  bool census)
{
    uint8_t *copy = malloc(len);
    CU_ASSERT_FATAL(copy != NULL);
    memcpy(copy, data, len);
    for (size_t at = from; at < to && at <= len; at++) {
        same_events(data, at, "cut", false);
        if (census)
            same_census(data, at, FROM_PREFIX, "cut");
        for (int k = 0; k < 2 && at < len; k++) {
            copy[at] ^= k ? 0x80 : 0xff;
            same_events(copy, len, "corrupt", false);
            if (census)
                same_census(copy, len, FROM_PREFIX, "corrupt");
            copy[at] = data[at];
        }
    }
    free(copy);
}

static void test_cut_built(void)
{
    struct wr file = {0};
    built(&file, 8);
    sweep(file.b, file.n, 0, file.n + 1, true);
    struct wr bt = {0};
    bt_file(&bt, 4);
    /* a window of recurring backtraces early in the second buffer */
    sweep(bt.b, bt.n, bt.n / 2 - 700, bt.n / 2 - 600, true);
}

/* A window of a real file, where backtraced ALLOCs run over the cut: in
 * deep-alloc-mf8.mlpd (backtraces of up to 8 frames), ALLOCs fill the
 * buffers from about offset 32000. */
static void test_cut_sample(void)
{
    size_t len;
    uint8_t *data = tu_slurp_sample("mono/deep-alloc-mf8.mlpd", &len);
    CU_ASSERT_FATAL(data != NULL && len > 34600);
    sweep(data, 34600, 34000, 34600, false);
    free(data);
}

int main(void)
{
    static const tu_test tests[] = {
        {"samples/mono: the same events and census by both paths",
         test_samples},
        {"gen_mlpd's files: the same by both paths", test_gen_mlpd},
        {"constructed ALLOCs: long values, long traces, 32-bit pointers",
         test_built},
        {"recurring and colliding backtraces (the reader's cache)",
         test_bt_cache},
        {"a constructed file cut and corrupted at every byte", test_cut_built},
        {"a real file cut and corrupted at every byte of a window",
         test_cut_sample},
        {NULL, NULL},
    };
    return tu_main("mlpd_fast", NULL, NULL, tests);
}
