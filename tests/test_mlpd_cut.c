/*
 * A .mlpd cut inside a heap shot, on a real file (samples/mono/
 * leak-ondemand-zip.mlpd.gz, inflated here, whose last shot spans three
 * buffers): cut at every buffer boundary inside a shot and at events all
 * through each shot, the census holds exactly the whole shots before the
 * cut, with the whole file's figures; the cut shot is in no sample and no
 * figure, the load says the file is cut (HS_TRUNCATED, not complete), and
 * its message names the shot left out. A cut just after a shot's
 * HEAP_END leaves that shot whole.
 */
#include "testutil.h"

#include <heapscope/heapscope.h>

#include <CUnit/Basic.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

static uint8_t *data;
static size_t len;

/* Shot windows: HEAP_START's end, HEAP_END's offset and end. */
static struct win { uint64_t start, end, after; } shots[16];
static size_t nshots;
static uint64_t bufs[512];  /* buffer header offsets */
static size_t nbufs;

static int inflate_sample(void)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/mono/leak-ondemand-zip.mlpd.gz",
             tu_samples_dir());
    gzFile f = gzopen(path, "rb");
    if (!f)
        return -1;
    size_t cap = 1 << 20;
    data = malloc(cap);
    int n;
    while (data && (n = gzread(f, data + len, (unsigned)(cap - len))) > 0)
        if ((len += (size_t)n) == cap)
            data = realloc(data, cap *= 2);
    gzclose(f);
    return data ? 0 : -1;
}

/* Where the shots and buffers are, from the reader's event offsets. */
static int init(void)
{
    if (inflate_sample())
        return -1;
    hs_mlpd_reader *r = hs_mlpd_reader_new();
    hs_mlpd_reader_feed(r, data, len);
    hs_mlpd_event ev;
    while (hs_mlpd_reader_next(r, &ev) == HS_EVENT) {
        if (ev.kind == HS_MLPD_BUFFER && nbufs < 512)
            bufs[nbufs++] = ev.offset;
        if (ev.kind == HS_MLPD_HEAP_START && nshots < 16)
            shots[nshots].start = ev.offset + ev.size;
        if (ev.kind == HS_MLPD_HEAP_END && nshots < 16) {
            shots[nshots].end = ev.offset;
            shots[nshots++].after = ev.offset + ev.size;
        }
    }
    int st = hs_mlpd_reader_finish(r);
    hs_mlpd_reader_free(r);
    return st == HS_DONE ? 0 : -1;
}

static int cleanup(void)
{
    free(data);
    return 0;
}

/* The census of data[0 .. n); *st the load's status, *err its error. */
static hs_census *load(size_t n, int *st, hs_error *err)
{
    hs_census *c = hs_census_new();
    int fd = open("/dev/null", O_RDONLY);
    *st = hs_census_load_mlpd_fd(c, fd, data, n, err);
    close(fd);
    return c;
}

/* The file cut at n, inside shot k (0-based, in file and time order). */
static bool check_cut(const hs_census *whole, size_t n, size_t k)
{
    int st;
    hs_error err;
    hs_census *c = load(n, &st, &err);
    bool ok = st == HS_TRUNCATED && !hs_census_get_info(c)->complete &&
              hs_census_sample_count(c) == k;
    const hs_mlpd_gc_stats *ms = hs_census_mlpd_stats(c);
    uint64_t max = 0;
    for (size_t i = 0; ok && i < k; i++) {
        ok = hs_census_sample_time(c, i) == hs_census_sample_time(whole, i) &&
             hs_census_sample_total(c, i) == hs_census_sample_total(whole, i);
        if (hs_census_sample_total(c, i) > max)
            max = hs_census_sample_total(c, i);
    }
    ok = ok && ms && ms->heap_shots == k && ms->max_live_bytes == max;
    /* the live-bytes line has the whole shots' points only */
    const hs_census_point *pts;
    ok = ok && hs_census_heap_line(c, HS_LINE_HEAP_LIVE, &pts) == k;
    uint64_t t = (hs_census_sample_time(whole, k) + 50000) / 100000;
    char want[96];
    snprintf(want, sizeof want, "the last heap shot, at %llu.%04llu s, was "
             "cut and is left out", (unsigned long long)(t / 10000),
             (unsigned long long)(t % 10000));
    char at[32];
    snprintf(at, sizeof at, "offset %zu", n);
    ok = ok && strstr(err.message, want) && strstr(err.message, at);
    if (!ok)
        printf("\ncut at %zu in shot %zu: status %d, %zu samples: %s\n", n, k,
               st, hs_census_sample_count(c), err.message);
    hs_census_free(c);
    return ok;
}

static void test_cut_inside_shots(void)
{
    CU_ASSERT_FATAL(nshots == 3);
    int st;
    hs_error err;
    hs_census *whole = load(len, &st, &err);
    CU_ASSERT_EQUAL_FATAL(st, HS_OK);
    CU_ASSERT_EQUAL_FATAL(hs_census_sample_count(whole), 3);
    int bad = 0, boundaries = 0, cuts = 0;
    for (size_t k = 0; k < nshots; k++) {
        /* every buffer boundary inside the shot */
        for (size_t b = 0; b < nbufs; b++)
            if (bufs[b] >= shots[k].start && bufs[b] <= shots[k].end) {
                boundaries++;
                bad += !check_cut(whole, (size_t)bufs[b], k);
            }
        /* through its events (and inside them) from the end of its
         * HEAP_START to inside its HEAP_END */
        uint64_t span = shots[k].end - shots[k].start;
        for (uint64_t at = shots[k].start; at <= shots[k].end + 1;
             at += span / 499 + 1) {
            cuts++;
            bad += !check_cut(whole, (size_t)at, k);
        }
        bad += !check_cut(whole, (size_t)shots[k].end, k);
        bad += !check_cut(whole, (size_t)shots[k].end + 1, k);
        /* just after HEAP_END: that shot is whole */
        hs_census *c = load((size_t)shots[k].after, &st, &err);
        CU_ASSERT_EQUAL(hs_census_sample_count(c), k + 1);
        CU_ASSERT(!strstr(err.message, "heap shot"));
        hs_census_free(c);
    }
    /* the last shot spans three buffers: two boundaries inside it */
    CU_ASSERT_EQUAL(boundaries, 2);
    CU_ASSERT(cuts > 1000);
    CU_ASSERT_EQUAL(bad, 0);
    hs_census_free(whole);
}

int main(void)
{
    static const tu_test tests[] = {
        {"a shot cut anywhere is left out and named", test_cut_inside_shots},
        {NULL, NULL},
    };
    return tu_main("mlpd_cut", init, cleanup, tests);
}
