/*
 * Tests of how the census takes its input: hs_census_load_fd on a pipe,
 * decoding only the census's tags, running out of memory, and the corpus
 * logs when they are present.
 */
#include "census_build.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* The same log through a pipe written a byte at a time. */
static void test_load_fd_pipe(void)
{
    evw w;
    build_hc(&w);
    int fds[2];
    CU_ASSERT_EQUAL_FATAL(pipe(fds), 0);
    pid_t pid = fork();
    CU_ASSERT_TRUE_FATAL(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        for (size_t i = 0; i < w.len; i++)
            if (write(fds[1], w.data + i, 1) != 1)
                _exit(1);
        _exit(0);
    }
    close(fds[1]);
    hs_census *c = hs_census_new();
    hs_error err;
    CU_ASSERT_EQUAL(hs_census_load_fd(c, fds[0], &err), HS_OK);
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    CU_ASSERT_EQUAL(hs_census_sample_count(c), 2);
    CU_ASSERT_EQUAL(bytes_in(c, 0, "go/main/Main.CAF"), 200);
    CU_ASSERT_EQUAL(hs_census_get_info(c)->source, HS_SOURCE_EVENTLOG);
    hs_census_free(c);

    /* a truncated log: everything before the cut, and HS_TRUNCATED */
    char path[] = "/tmp/heapscope-census-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_TRUE_FATAL(fd >= 0);
    unlink(path);
    CU_ASSERT_EQUAL((size_t)write(fd, w.data, w.len - 30), w.len - 30);
    lseek(fd, 0, SEEK_SET);
    c = hs_census_new();
    CU_ASSERT_EQUAL(hs_census_load_fd(c, fd, &err), HS_TRUNCATED);
    CU_ASSERT_EQUAL(err.code, HS_TRUNCATED);
    /* the cut falls inside the last sample, before its SAMPLE_END: that
     * sample is a fraction of a census and is left out, and the
     * truncation warning says so (issue 14) */
    CU_ASSERT_EQUAL(hs_census_sample_count(c), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "the last heap sample, at "
                                  "0.0000 s, was cut and is left out"));
    CU_ASSERT_EQUAL(hs_census_warning_count(c), 0);
    CU_ASSERT_FALSE(hs_census_get_info(c)->complete);
    hs_census_free(c);
    close(fd);

    /* not an eventlog at all */
    strcpy(path, "/tmp/heapscope-census-XXXXXX");
    fd = mkstemp(path);
    unlink(path);
    CU_ASSERT_EQUAL(write(fd, "\x01\x02\x03\x04\x05", 5), 5);
    lseek(fd, 0, SEEK_SET);
    c = hs_census_new();
    CU_ASSERT_EQUAL(hs_census_load_fd(c, fd, &err), HS_ERR_BAD_MAGIC);
    CU_ASSERT_EQUAL(err.code, HS_ERR_BAD_MAGIC);
    hs_census_free(c);
    close(fd);
    evw_free(&w);
}

/* Decoding only the census's tags (as hs_census_load_fd reads) gives the
 * same census as decoding everything; a stack that runs past its event is
 * reported with the event's offset and index. */
static void test_decode_only_census_tags(void)
{
    evw w;
    build_hc(&w);
    hs_reader *r = hs_reader_new();
    uint16_t tags[64];
    size_t ntags = hs_census_event_tags(tags, 64);
    CU_ASSERT_FATAL(ntags > 10 && ntags <= 64);
    for (size_t i = 0; i < ntags; i++) /* the tags the census needs */
        CU_ASSERT(tags[i] >= HS_EV_RTS_IDENTIFIER ||
                  tags[i] == HS_EV_USER_MSG);
    hs_reader_decode_only(r, tags, ntags);
    hs_census *c = hs_census_new();
    hs_reader_feed(r, w.data, w.len);
    hs_event ev;
    while (hs_reader_next(r, &ev) == HS_EVENT)
        CU_ASSERT_EQUAL(hs_census_add_event(c, &ev), HS_OK);
    CU_ASSERT_EQUAL(hs_census_finish(c, true), HS_OK);
    /* the same census as from decoded events */
    hs_census *d = census_of(&w);
    CU_ASSERT_EQUAL(hs_census_band_count(c), hs_census_band_count(d));
    CU_ASSERT_EQUAL(hs_census_sample_count(c), hs_census_sample_count(d));
    for (size_t b = 0; b < hs_census_band_count(d); b++)
        CU_ASSERT_STRING_EQUAL(hs_census_band_name(c, b),
                               hs_census_band_name(d, b));
    for (size_t i = 0; i < hs_census_sample_count(d); i++)
        CU_ASSERT_EQUAL(hs_census_sample_total(c, i),
                        hs_census_sample_total(d, i));
    char jc[128], jd[128];
    hs_render_hp_job(c, jc, sizeof jc);
    hs_render_hp_job(d, jd, sizeof jd);
    CU_ASSERT_STRING_EQUAL(jc, jd);
    CU_ASSERT_EQUAL(hs_census_marker_count(c), 1);
    CU_ASSERT_EQUAL(hs_census_error(c)->code, HS_OK);
    hs_census_free(c);
    hs_census_free(d);
    hs_reader_free(r);
    evw_free(&w);

    /* depth 5 but room for one id */
    evw_start_ghc92(&w);
    evw_heap_prof_begin(&w, 1, 1000, 1);
    evw_sample_begin(&w, 2, 0);
    size_t at = evw_event(&w, 163, 3, 1);
    evw_u8(&w, 0);
    evw_u64(&w, 8);
    evw_u8(&w, 5);
    evw_u32(&w, 1);
    evw_event_end(&w, at);
    evw_data_end(&w);
    char path[] = "/tmp/heapscope-framed-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_TRUE_FATAL(fd >= 0);
    unlink(path);
    CU_ASSERT_EQUAL((size_t)write(fd, w.data, w.len), w.len);
    lseek(fd, 0, SEEK_SET);
    c = hs_census_new();
    hs_error err;
    CU_ASSERT_EQUAL(hs_census_load_fd(c, fd, &err), HS_ERR_MALFORMED_EVENT);
    CU_ASSERT_EQUAL(err.code, HS_ERR_MALFORMED_EVENT);
    CU_ASSERT_EQUAL(err.offset, at);
    CU_ASSERT_EQUAL(err.event_index, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "HEAP_PROF_SAMPLE_COST_CENTRE"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "stack of depth 5"));
    hs_census_free(c);
    close(fd);
    evw_free(&w);
}

static hs_census *load_corpus(const char *name)
{
    const char *dir = tu_corpus_dir();
    if (!dir)
        return NULL;
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return NULL;
    hs_census *c = hs_census_new();
    hs_error err;
    int st = hs_census_load_fd(c, fd, &err);
    close(fd);
    CU_ASSERT_TRUE(st == HS_OK || st == HS_TRUNCATED);
    return c;
}

/* Counts events with `tag` in a corpus log. */
static uint64_t count_tag(const char *name, uint16_t tag)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", tu_corpus_dir(), name);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    hs_reader *r = hs_reader_new();
    uint8_t buf[65536];
    ssize_t n;
    uint64_t count = 0;
    while ((n = read(fd, buf, sizeof buf)) > 0) {
        hs_reader_feed(r, buf, (size_t)n);
        hs_event ev;
        int st;
        while ((st = hs_reader_next(r, &ev)) == HS_EVENT)
            count += ev.tag == tag;
        if (st < 0 || st == HS_DONE)
            break;
    }
    hs_reader_free(r);
    close(fd);
    return count;
}

static void test_corpus(void)
{
    if (!tu_corpus_dir()) {
        tu_skip("no corpus (HEAPSCOPE_SHARED_DIR)");
        return;
    }
    /* GHC 8.2/8.4 logs with no SAMPLE_END */
    static const char *const sleep[] = {"sleep.h.eventlog",
                                        "sleep.hd.eventlog",
                                        "sleep.hm.eventlog",
                                        "sleep.hy.eventlog"};
    for (size_t i = 0; i < 4; i++) {
        hs_census *c = load_corpus(sleep[i]);
        if (!c)
            continue;
        uint64_t begins = count_tag(sleep[i], 162);
        uint64_t strings = count_tag(sleep[i], 164) + count_tag(sleep[i], 163);
        CU_ASSERT_EQUAL(hs_census_sample_count(c), begins);
        CU_ASSERT_TRUE(hs_census_get_info(c)->breakdown != 0);
        size_t entries = 0;
        for (size_t s = 0; s < hs_census_sample_count(c); s++) {
            const hs_census_entry *e;
            entries += hs_census_sample_entries(c, s, &e);
        }
        CU_ASSERT_TRUE(entries <= strings && entries > 0);
        hs_census_free(c);
    }
    /* biographical samples: placed by their own time, ascending */
    hs_census *c = load_corpus("biographical-samples.eventlog");
    if (c) {
        size_t n = hs_census_sample_count(c);
        CU_ASSERT_EQUAL(n, 6);
        CU_ASSERT_EQUAL(hs_census_sample_time(c, 0), 866544061);
        CU_ASSERT_EQUAL(hs_census_sample_time(c, n - 1), 4512086494);
        for (size_t i = 1; i < n; i++)
            CU_ASSERT_TRUE(hs_census_sample_time(c, i - 1) <
                           hs_census_sample_time(c, i));
        CU_ASSERT_EQUAL(hs_census_get_info(c)->breakdown,
                        HS_BREAKDOWN_BIOGRAPHY);
        hs_census_free(c);
    }
    /* the time profile: one tick per PROF_SAMPLE_COST_CENTRE */
    c = load_corpus("time-prof.eventlog");
    if (c) {
        uint64_t total = 0, ticks;
        const uint32_t *ids;
        for (size_t i = 0; i < hs_census_tprof_count(c); i++) {
            hs_census_tprof_stack(c, i, -1, &ids, &ticks);
            total += ticks;
        }
        CU_ASSERT_EQUAL(total, count_tag("time-prof.eventlog", 167));
        CU_ASSERT_EQUAL(hs_census_get_info(c)->time_samples, total);
        CU_ASSERT_EQUAL(hs_census_get_info(c)->tick_interval_ns, 1000000);
        hs_census_free(c);
    }
    c = load_corpus("stop.hT.eventlog");
    if (c) {
        CU_ASSERT_EQUAL(hs_census_sample_count(c), 14);
        CU_ASSERT_EQUAL(hs_census_get_info(c)->breakdown,
                        HS_BREAKDOWN_CLOSURE_TYPE);
        hs_census_free(c);
    }
    c = load_corpus("ghc-9.2-events.eventlog");
    if (c) {
        CU_ASSERT_EQUAL(hs_census_get_info(c)->ipe_records, 4);
        hs_census_free(c);
    }
}

struct failing { unsigned long calls, fail_at; };

static void *f_malloc(void *u, size_t n)
{
    struct failing *f = u;
    return ++f->calls == f->fail_at ? NULL : malloc(n);
}

static void *f_realloc(void *u, void *p, size_t n)
{
    struct failing *f = u;
    return ++f->calls == f->fail_at ? NULL : realloc(p, n);
}

static void f_free(void *u, void *p)
{
    (void)u;
    free(p);
}

/* Out of memory on any allocation while adding w's events: the error
 * names the event being added (offset and index), and it is the first
 * error that stays. Returns the number of runs that failed. */
static unsigned long nomem_sweep(const evw *w)
{
    unsigned long failures = 0;
    for (unsigned long n = 1; n < 5000; n++) {
        struct failing f = {0, n};
        hs_allocator a = {f_malloc, f_realloc, f_free, &f};
        hs_census *c = hs_census_new_with(&a);
        hs_reader *r = hs_reader_new();
        if (!c) {
            hs_reader_free(r);
            continue;
        }
        hs_reader_feed(r, w->data, w->len);
        hs_event ev;
        int st = HS_OK;
        while (st == HS_OK && hs_reader_next(r, &ev) == HS_EVENT)
            st = hs_census_add_event(c, &ev);
        if (st == HS_ERR_NOMEM) {
            failures++;
            const hs_error *e = hs_census_error(c);
            CU_ASSERT_EQUAL(e->code, HS_ERR_NOMEM);
            CU_ASSERT_EQUAL(e->offset, ev.offset);
            CU_ASSERT_EQUAL(e->event_index, ev.index);
            /* sticky: later calls return it and do not change it */
            CU_ASSERT_EQUAL(hs_census_add_event(c, &ev), HS_ERR_NOMEM);
            CU_ASSERT_EQUAL(hs_census_finish(c, true), HS_ERR_NOMEM);
            CU_ASSERT_EQUAL(hs_census_error(c)->offset, ev.offset);
        } else {
            CU_ASSERT_EQUAL(st, HS_OK);
        }
        hs_census_free(c);
        hs_reader_free(r);
        if (f.calls < n)
            break; /* no allocation left to fail */
    }
    return failures;
}

static void test_nomem_keeps_offset(void)
{
    evw w;
    build_hc(&w);
    CU_ASSERT_TRUE(nomem_sweep(&w) >= 10);
    evw_free(&w);
    /* The heap-size lines grow on their own way (census_marks.c): a
     * failure there names its point's event too, not the event before. */
    evw_start_ghc92(&w);
    size_t b = evw_block(&w, 1, 0);
    evw_string_event(&w, 58, 2, "start");
    for (uint16_t i = 0; i < 40; i++) {
        uint16_t tag = i % 9 == 8 ? 51 : i % 13 == 12 ? 91 : 50;
        evw_event(&w, tag, 10 + i * 7 - (i % 5 == 4) * 20, 0);
        evw_u32(&w, 0);
        evw_u64(&w, 4096u * (i + 1));
    }
    evw_block_end(&w, b, 300);
    evw_data_end(&w);
    CU_ASSERT_TRUE(nomem_sweep(&w) >= 3);
    evw_free(&w);
}

int main(void)
{
    static const tu_test tests[] = {
        {"hs_census_load_fd: pipe, truncation, bad magic", test_load_fd_pipe},
        {"decoding only the census's tags; a malformed stack", test_decode_only_census_tags},
        {"corpus logs", test_corpus},
        {"out of memory keeps the event's offset", test_nomem_keeps_offset},
        {NULL, NULL},
    };
    return tu_main("census_input", NULL, NULL, tests);
}
