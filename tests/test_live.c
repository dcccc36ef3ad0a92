/*
 * Tests of the live part of the library (include/heapscope/live.h): a
 * stream fed in chunks of any size gives the census and summary the batch
 * loader gives, snapshots before the end agree with the finished figures,
 * compaction keeps each band's maximum and bounds the census, the
 * Prometheus text escapes label values, names that are not UTF-8 give
 * valid UTF-8 in JSON and Prometheus text, and the census request's bytes;
 * the live state's one pass against the general path, event by event, in
 * live_paths.c.
 */
#include <heapscope/heapscope.h>

#include "evwriter.h"
#include "live_paths.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- helpers ------------------------------------------------------- */

char *render_csv(const hs_census *c)
{
    hs_membuf m = {0};
    hs_sink s = hs_membuf_sink(&m);
    CU_ASSERT_EQUAL(hs_render_csv(c, &s, HS_CSV_LONG), HS_OK);
    return m.data ? m.data : strdup("");
}

char *render_summary(const hs_summary *sm)
{
    hs_membuf m = {0};
    hs_sink s = hs_membuf_sink(&m);
    CU_ASSERT_EQUAL(hs_summary_render_json(sm, &s), HS_OK);
    return m.data ? m.data : strdup("");
}

/* Feeds data in chunks of `chunk` bytes; returns hs_live_finish()'s. */
static int feed_all(hs_live *l, const uint8_t *data, size_t len, size_t chunk)
{
    for (size_t off = 0; off < len; off += chunk) {
        size_t n = len - off < chunk ? len - off : chunk;
        int st = hs_live_feed(l, data + off, n);
        if (st != HS_OK)
            break;
    }
    return hs_live_finish(l);
}

/* ---- a stream gives what the batch loader gives ---------------------- */

static void test_chunks_equal_batch(void)
{
    size_t len;
    uint8_t *data = tu_slurp_sample("leak-hc.eventlog", &len);
    if (!data)
        return;
    hs_census *batch = hs_census_new();
    char path[4096];
    snprintf(path, sizeof path, "%s/leak-hc.eventlog", tu_samples_dir());
    int fd = open(path, O_RDONLY);
    hs_error err;
    CU_ASSERT_EQUAL(hs_census_load_fd(batch, fd, &err), HS_OK);
    close(fd);
    char *want = render_csv(batch);
    static const size_t chunks[] = {1, 2, 3, 5, 7, 4096, 1 << 20};
    for (size_t i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
        hs_live *l = hs_live_new();
        CU_ASSERT_EQUAL(feed_all(l, data, len, chunks[i]), HS_DONE);
        char *got = render_csv(hs_live_census(l));
        CU_ASSERT_STRING_EQUAL(got, want);
        free(got);
        hs_live_free(l);
    }
    free(want);
    hs_census_free(batch);
    free(data);
}

/* A summary snapshot after the last event equals the finished summary,
 * and snapshots along the way never disturb the final figures. */
static void test_snapshot_equals_finish(void)
{
    size_t len;
    uint8_t *data = tu_slurp_sample("markers-hc.eventlog", &len);
    if (!data)
        return;
    hs_live *quiet = hs_live_new(), *busy = hs_live_new();
    CU_ASSERT_EQUAL(feed_all(quiet, data, len, 1 << 20), HS_DONE);
    hs_live_metrics m;
    uint32_t prev_gc = 0;
    for (size_t off = 0; off < len; off += 10000) {
        size_t n = len - off < 10000 ? len - off : 10000;
        hs_live_feed(busy, data + off, n);
        CU_ASSERT_EQUAL(hs_live_get_metrics(busy, &m), HS_OK);
        CU_ASSERT(m.n_gens == 0 || m.collections[0] >= prev_gc);
        prev_gc = m.n_gens ? m.collections[0] : 0;
    }
    char *snap = render_summary(hs_live_summary(busy));
    CU_ASSERT_EQUAL(hs_live_finish(busy), HS_DONE);
    char *a = render_summary(hs_live_summary(quiet));
    char *b = render_summary(hs_live_summary(busy));
    CU_ASSERT_STRING_EQUAL(a, b);
    CU_ASSERT_STRING_EQUAL(snap, b);
    free(snap);
    free(a);
    free(b);
    hs_live_free(quiet);
    hs_live_free(busy);
    free(data);
}

/* A status tick before the first GC event (eventlog-socket's stream: the
 * header first, GC events seconds later) is no error: the summary's first
 * error stays clear, and the finished figures are those of the batch
 * summary of the same bytes. */
static void test_snapshot_before_first_gc(void)
{
    size_t len;
    uint8_t *data = tu_slurp_sample("leak-hc.eventlog", &len);
    if (!data)
        return;
    hs_live *quiet = hs_live_new(), *early = hs_live_new();
    CU_ASSERT_EQUAL(feed_all(quiet, data, len, 1 << 20), HS_DONE);
    hs_live_metrics m;
    CU_ASSERT_EQUAL(hs_live_feed(early, data, 200), HS_OK); /* the header */
    CU_ASSERT_EQUAL(hs_live_get_metrics(early, &m), HS_OK);
    CU_ASSERT_EQUAL(m.n_gens, 0);
    CU_ASSERT_EQUAL(hs_summary_error(hs_live_summary(early))->code, HS_OK);
    CU_ASSERT_EQUAL(feed_all(early, data + 200, len - 200, 1 << 20), HS_DONE);
    CU_ASSERT_EQUAL(hs_summary_error(hs_live_summary(early))->code, HS_OK);
    CU_ASSERT(hs_summary_get_stats(hs_live_summary(early))->has_gc);
    char *a = render_summary(hs_live_summary(quiet));
    char *b = render_summary(hs_live_summary(early));
    CU_ASSERT_STRING_EQUAL(a, b);
    free(a);
    free(b);
    hs_live_free(quiet);
    hs_live_free(early);
    free(data);
}

/* The end of the event before the first heap census of data. */
static size_t first_census_offset(const uint8_t *data, size_t len)
{
    hs_reader *r = hs_reader_new();
    hs_event ev;
    size_t before = 0, at = 0;
    hs_reader_feed(r, data, len);
    while (!at && hs_reader_next(r, &ev) == HS_EVENT) {
        if (ev.tag == HS_EV_HEAP_PROF_SAMPLE_BEGIN)
            at = before;
        before = (size_t)hs_reader_offset(r);
    }
    hs_reader_free(r);
    return at;
}

/* The live page of a stream with GC events and no census yet (GHC 9.0's
 * leak-hc holds back its censuses to the end of its first buffer): the
 * library renders it, with the heap lines, the program's name in the
 * subtitle and the notice; hs_live_census_hint() says why in words with
 * "flush", and has nothing to say once the census came. */
static void test_page_before_first_census(void)
{
    size_t len;
    uint8_t *data = tu_slurp_sample("leak-hc.eventlog", &len);
    if (!data)
        return;
    size_t cut = first_census_offset(data, len);
    CU_ASSERT(cut > 0);
    hs_live *l = hs_live_new();
    CU_ASSERT_EQUAL(hs_live_feed(l, data, cut), HS_OK);
    hs_live_metrics m;
    CU_ASSERT_EQUAL(hs_live_get_metrics(l, &m), HS_OK);
    const char *hint = hs_live_census_hint(&m, HS_LIVE_STREAM);
    CU_ASSERT_PTR_NOT_NULL_FATAL(hint);
    CU_ASSERT_PTR_NOT_NULL(strstr(hint, "flush"));
    CU_ASSERT_PTR_NULL(strstr(hint, "eventlog-socket"));
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_live_census_hint(&m, HS_LIVE_UNIX),
                                  "--census-every"));
    hs_page_options po;
    hs_page_options_init(&po);
    po.live_url = "/data.json";
    po.input = "fifo";
    po.notice = hint;
    hs_membuf page = {0}, doc = {0};
    hs_sink ps = hs_membuf_sink(&page), ds = hs_membuf_sink(&doc);
    CU_ASSERT_EQUAL(hs_render_page(hs_live_census(l), &ps, &po), HS_OK);
    CU_ASSERT_EQUAL(hs_render_page_data(hs_live_census(l), &ds, &po), HS_OK);
    CU_ASSERT_PTR_NOT_NULL(page.data && strstr(page.data, "<p class=\"sub\">leak \xc2\xb7 live"));
    CU_ASSERT_PTR_NOT_NULL(doc.data && strstr(doc.data, "\"points\":0,"));
    CU_ASSERT_PTR_NOT_NULL(doc.data && strstr(doc.data, "\"lines\":{\"heap\":["));
    CU_ASSERT_PTR_NOT_NULL(doc.data && strstr(doc.data, "\"live\":["));
    CU_ASSERT_PTR_NOT_NULL(doc.data && strstr(doc.data, "eventlog-flush-interval"));
    /* without live_url the census is still nothing to show */
    po.live_url = NULL;
    CU_ASSERT_EQUAL(hs_render_page_data(hs_live_census(l), &ds, &po), HS_ERR_NO_DATA);
    CU_ASSERT_EQUAL(feed_all(l, data + cut, len - cut, 1 << 16), HS_DONE);
    CU_ASSERT_EQUAL(hs_live_get_metrics(l, &m), HS_OK);
    CU_ASSERT_PTR_NULL(hs_live_census_hint(&m, HS_LIVE_STREAM));
    hs_membuf_free(&page);
    hs_membuf_free(&doc);
    hs_live_free(l);
    free(data);
}

/* An empty census (a live page before the stream's first byte) renders
 * as a page that waits. */
static void test_page_from_first_byte(void)
{
    hs_live *l = hs_live_new();
    hs_page_options po;
    hs_page_options_init(&po);
    po.live_url = "/data.json";
    hs_membuf page = {0};
    hs_sink ps = hs_membuf_sink(&page);
    CU_ASSERT_EQUAL(hs_render_page(hs_live_census(l), &ps, &po), HS_OK);
    CU_ASSERT_PTR_NOT_NULL(page.data && strstr(page.data, "waiting for the program's first GC events"));
    hs_live_metrics m;
    CU_ASSERT_EQUAL(hs_live_get_metrics(l, &m), HS_OK);
    CU_ASSERT_PTR_NULL(hs_live_census_hint(&m, HS_LIVE_STREAM));
    hs_membuf_free(&page);
    hs_live_free(l);
}

static void test_truncated_and_malformed(void)
{
    size_t len;
    uint8_t *data = tu_slurp_sample("leak-hc.eventlog", &len);
    if (!data)
        return;
    hs_live *l = hs_live_new();
    CU_ASSERT_EQUAL(feed_all(l, data, len - 1000, 333), HS_TRUNCATED);
    CU_ASSERT_EQUAL(hs_live_error(l)->code, HS_TRUNCATED);
    hs_live_free(l);
    /* zeros end the event cut at 100000, then text where tags should be */
    memset(data + 100000, 0, 13);
    memset(data + 100013, 'x', 187);
    l = hs_live_new();
    int st = HS_OK;
    for (size_t off = 0; off < len && st == HS_OK; off += 4096)
        st = hs_live_feed(l, data + off, len - off < 4096 ? len - off : 4096);
    CU_ASSERT(st < 0);
    CU_ASSERT_EQUAL(hs_live_error(l)->code, HS_ERR_UNDECLARED_TAG);
    CU_ASSERT(hs_live_error(l)->offset >= 100000);
    CU_ASSERT(hs_live_feed(l, data, 1) < 0); /* sticky */
    hs_live_free(l);
    free(data);
}

/* ---- compaction ------------------------------------------------------ */

/* n samples of 3 bands; band b of sample i has bytes(i, b). */
static uint64_t bytes_of(size_t i, unsigned b)
{
    return 1000 * (b + 1) + (i * 37 + b * 11) % 97;
}

/* Band b's largest bytes over samples 0 .. n-1. */
static uint64_t peak_of(size_t n, unsigned b)
{
    uint64_t peak = 0;
    for (size_t i = 0; i < n; i++)
        if (bytes_of(i, b) > peak)
            peak = bytes_of(i, b);
    return peak;
}

static uint8_t *synthetic(size_t n, const char *label2, size_t *len)
{
    evw w;
    evw_start_ghc92(&w);
    evw_heap_prof_begin(&w, 0, 1000000, HS_BREAKDOWN_CLOSURE_TYPE);
    const char *labels[3] = {"a", "b", label2};
    for (size_t i = 0; i < n; i++) {
        uint64_t t = (i + 1) * 1000000;
        evw_sample_begin(&w, t, i);
        for (unsigned b = 0; b < 3; b++)
            evw_sample_string(&w, t, bytes_of(i, b), labels[b]);
        evw_sample_end(&w, t, i);
    }
    evw_data_end(&w);
    *len = w.len;
    return w.data;
}

static void test_compaction_keeps_maxima(void)
{
    size_t len, n = 1000;
    uint8_t *data = synthetic(n, "c", &len);
    hs_live *l = hs_live_new();
    hs_live_set_compaction(l, 64, 16);
    CU_ASSERT_EQUAL(feed_all(l, data, len, 4096), HS_DONE);
    const hs_census *c = hs_live_census(l);
    size_t ns = hs_census_sample_count(c);
    CU_ASSERT(ns <= 64);
    CU_ASSERT(ns >= 16);
    hs_live_metrics m;
    hs_live_get_metrics(l, &m);
    CU_ASSERT(m.compacted);
    /* Every bucket holds each band's maximum over the raw samples from
     * its time to the next bucket's; the latest samples are raw. */
    for (size_t k = 0; k < ns; k++) {
        uint64_t t0 = hs_census_sample_time(c, k);
        uint64_t t1 = k + 1 < ns ? hs_census_sample_time(c, k + 1) : UINT64_MAX;
        const hs_census_entry *e;
        size_t ne = hs_census_sample_entries(c, k, &e);
        CU_ASSERT_EQUAL(ne, 3);
        for (size_t j = 0; j < ne; j++) {
            uint64_t want = 0;
            for (size_t i = t0 / 1000000 - 1; i < n && (i + 1) * 1000000 < t1; i++)
                if (bytes_of(i, e[j].band) > want)
                    want = bytes_of(i, e[j].band);
            CU_ASSERT_EQUAL(e[j].bytes, want);
        }
    }
    CU_ASSERT_EQUAL(hs_census_sample_time(c, ns - 1), n * 1000000);
    CU_ASSERT(m.compacted_until_ns <= (n - 16 + 1) * 1000000);
    /* The peaks survive. */
    hs_band_stats st[3];
    CU_ASSERT_EQUAL(hs_census_band_stats(c, st), HS_OK);
    for (unsigned b = 0; b < 3; b++)
        CU_ASSERT_EQUAL(st[b].peak_bytes, peak_of(n, b));
    hs_live_free(l);
    free(data);
}

/* A biographical profile (-hb): every census written at exit, each
 * sample at its own time; with SAMPLE_END or, as the fuzzer found,
 * without. Either way --max-samples bounds the census at every chunk. */
static void test_compaction_bounds_biographical(void)
{
    for (int ends = 0; ends < 2; ends++) {
        evw w;
        evw_start_ghc92(&w);
        evw_heap_prof_begin(&w, 0, 1000000, HS_BREAKDOWN_BIOGRAPHY);
        const size_t n = 200;
        const uint64_t exit_t = (n + 1) * 1000000;
        for (size_t i = 0; i < n; i++) {
            evw_bio_sample_begin(&w, exit_t, i, (i + 1) * 1000000);
            evw_sample_string(&w, exit_t, bytes_of(i, 0), "lag");
            evw_sample_string(&w, exit_t, bytes_of(i, 1), "use");
            if (ends)
                evw_sample_end(&w, exit_t, i);
        }
        evw_data_end(&w);
        hs_live *l = hs_live_new();
        hs_live_set_compaction(l, 8, 2);
        size_t most = 0;
        int st = HS_OK;
        for (size_t off = 0; off < w.len && st == HS_OK; off += 13) {
            size_t k = w.len - off < 13 ? w.len - off : 13;
            st = hs_live_feed(l, w.data + off, k);
            size_t ns = hs_census_sample_count(hs_live_census(l));
            if (ns > most)
                most = ns;
        }
        CU_ASSERT_EQUAL(st, HS_DONE);
        CU_ASSERT(most <= 8 + 1); /* the bound, and the sample open */
        CU_ASSERT_EQUAL(hs_live_finish(l), HS_DONE);
        hs_band_stats bs[2];
        CU_ASSERT_EQUAL(hs_census_band_stats(hs_live_census(l), bs), HS_OK);
        for (unsigned b = 0; b < 2; b++)
            CU_ASSERT_EQUAL(bs[b].peak_bytes, peak_of(n, b));
        hs_live_free(l);
        free(w.data);
    }
}

static void test_no_compaction_by_default(void)
{
    size_t len;
    uint8_t *data = synthetic(300, "c", &len);
    hs_live *l = hs_live_new();
    CU_ASSERT_EQUAL(feed_all(l, data, len, 100), HS_DONE);
    CU_ASSERT_EQUAL(hs_census_sample_count(hs_live_census(l)), 300);
    hs_live_free(l);
    free(data);
}

/* ---- text for machines ------------------------------------------------ */

/* A live stream fed n synthetic samples whole, its figures in *m. */
static hs_live *fed_synthetic(size_t n, const char *label2, size_t chunk,
                              hs_live_metrics *m)
{
    size_t len;
    uint8_t *data = synthetic(n, label2, &len);
    hs_live *l = hs_live_new();
    CU_ASSERT_EQUAL(feed_all(l, data, len, chunk), HS_DONE);
    CU_ASSERT_EQUAL(hs_live_get_metrics(l, m), HS_OK);
    free(data);
    return l;
}

static void test_prometheus_escapes_labels(void)
{
    hs_live_metrics m;
    hs_live *l = fed_synthetic(5, "we\"ird\\na\nme", 7, &m);
    CU_ASSERT_EQUAL(m.samples, 5);
    CU_ASSERT_EQUAL(m.n_top, 3);
    CU_ASSERT(m.top_bytes[0] >= m.top_bytes[1]);
    CU_ASSERT(m.top_bytes[1] >= m.top_bytes[2]);
    hs_membuf out = {0};
    hs_sink s = hs_membuf_sink(&out);
    CU_ASSERT_EQUAL(hs_live_render_prometheus(l, &m, &s, 2), HS_OK);
    char want[128];
    snprintf(want, sizeof want,
             "heapscope_census_band_bytes{band=\"we\\\"ird\\\\na\\nme\"} %llu\n",
             (unsigned long long)bytes_of(4, 2));
    CU_ASSERT_PTR_NOT_NULL(strstr(out.data, want));
    CU_ASSERT_PTR_NULL(strstr(out.data, "{band=\"a\"}")); /* top 2 only */
    CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "heapscope_census_samples 5\n"));
    hs_membuf_free(&out);
    s = hs_membuf_sink(&out);
    CU_ASSERT_EQUAL(hs_live_render_json(l, &m, &s, "done"), HS_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "\"band\":\"we\\\"ird\\\\na\\u000ame\""));
    CU_ASSERT_EQUAL(strchr(out.data, '\n'), out.data + out.len - 1);
    hs_membuf_free(&out);
    hs_live_free(l);
}

/* A name that is not UTF-8 (a stray continuation byte, a lead byte cut
 * short, an encoded surrogate, an overlong '/') beside valid UTF-8. */
#define BAD_NAME "x\x80y\xc3(\xed\xa0\x80\xc0\xaf\xc3\xa9\""

static void test_names_not_utf8(void)
{
    hs_live_metrics m;
    hs_live *l = fed_synthetic(5, BAD_NAME, 7, &m);
    hs_membuf out = {0};
    hs_sink s = hs_membuf_sink(&out);
    CU_ASSERT_EQUAL(hs_live_render_prometheus(l, &m, &s, 3), HS_OK);
    /* U+FFFD for each byte that does not begin a valid character */
#define FFFD "\xef\xbf\xbd"
    CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "{band=\"x" FFFD "y" FFFD "("
                                  FFFD FFFD FFFD FFFD FFFD
                                  "\xc3\xa9\\\"\"} "));
#undef FFFD
    hs_membuf_free(&out);
    s = hs_membuf_sink(&out);
    CU_ASSERT_EQUAL(hs_live_render_json(l, &m, &s, "done"), HS_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "\"band\":\"x\\ufffdy\\ufffd("
                                  "\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd"
                                  "\xc3\xa9\\\"\""));
    for (size_t i = 0, k; i < out.len; i += k)
        CU_ASSERT_FATAL((k = hs_utf8_char_len(out.data + i, out.len - i)));
    hs_membuf_free(&out);
    hs_live_free(l);
}

/* /status.json's error member: one JSON string by the same rule. */
static void test_status_error_member(void)
{
    hs_live_metrics m;
    hs_live *l = fed_synthetic(2, "c", 100, &m);
    hs_membuf plain = {0}, out = {0};
    hs_sink s = hs_membuf_sink(&plain);
    CU_ASSERT_EQUAL(hs_live_render_status(l, &m, &s, "error", ""), HS_OK);
    s = hs_membuf_sink(&out);
    CU_ASSERT_EQUAL(hs_live_render_status(l, &m, &s,
                                          "error", "byte 9: \"a\\\tb\xff"), HS_OK);
    /* the same object, the error member last */
    static const char member[] = ",\"error\":\"byte 9: \\\"a\\\\\\u0009b"
                                 "\\ufffd\"}\n";
    CU_ASSERT_EQUAL_FATAL(out.len, plain.len - 2 + strlen(member));
    CU_ASSERT_EQUAL(memcmp(out.data, plain.data, plain.len - 2), 0);
    CU_ASSERT_EQUAL(memcmp(out.data + plain.len - 2, member, strlen(member)),
                    0);
    hs_membuf_free(&plain);
    hs_membuf_free(&out);
    hs_live_free(l);
}

static void test_census_request_bytes(void)
{
    const uint8_t *msg;
    size_t n = hs_live_census_request_bytes(&msg);
    static const uint8_t want[] = "\xF0\x9E\x97\x8C\x00\x0F" "eventlog-socket"
                                  "\x05";
    CU_ASSERT_EQUAL(n, 22);
    CU_ASSERT_EQUAL(memcmp(msg, want, 22), 0);
}

static void test_source_specs(void)
{
    hs_error err;
    CU_ASSERT_PTR_NULL(hs_live_source_open("tcp:nohost", NULL, &err));
    CU_ASSERT_EQUAL(err.code, HS_ERR_INVALID);
    CU_ASSERT_PTR_NULL(hs_live_source_open("/nonexistent/x", NULL, &err));
    CU_ASSERT_EQUAL(err.code, HS_ERR_IO);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "/nonexistent/x: cannot open"));
    CU_ASSERT_PTR_NULL(hs_live_source_open("unix:/nonexistent/sock", NULL,
                                           &err));
    CU_ASSERT_EQUAL(err.code, HS_ERR_IO);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "cannot connect"));
}

int main(void)
{
    static const tu_test tests[] = {
        {"chunks of any size give the batch census", test_chunks_equal_batch},
        {"snapshots agree with the finished summary",
         test_snapshot_equals_finish},
        {"a snapshot before the first GC event is no error",
         test_snapshot_before_first_gc},
        {"the page of a stream before its first census",
         test_page_before_first_census},
        {"a live page from the first byte", test_page_from_first_byte},
        {"truncated and malformed streams", test_truncated_and_malformed},
        {"compaction keeps each band's maximum", test_compaction_keeps_maxima},
        {"no compaction unless asked", test_no_compaction_by_default},
        {"compaction bounds a biographical profile",
         test_compaction_bounds_biographical},
        {"Prometheus and JSON escape band names",
         test_prometheus_escapes_labels},
        {"names that are not UTF-8 give valid UTF-8",
         test_names_not_utf8},
        {"the status error member", test_status_error_member},
        {"requestHeapCensus bytes", test_census_request_bytes},
        {"source specs and their errors", test_source_specs},
        {"one pass as event by event: samples in chunks",
         test_live_paths_samples},
        {"one pass as event by event: every cut", test_live_paths_cuts},
        {"one pass as event by event: corrupt bytes",
         test_live_paths_corrupt},
        {NULL, NULL},
    };
    return tu_main("live", NULL, NULL, tests);
}
