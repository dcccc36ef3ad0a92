/*
 * The one pass over an eventlog (load/load_eventlog.c): the summary fed
 * by hs_summary_load_fd(), and the census and summary both by
 * hs_census_load_summary_fd(), give what the event-by-event way gives
 * (every event decoded, hs_summary_add_event() and hs_census_load_fd()), for
 * every sample and corpus log, read from a file and from a pipe whose
 * chunks end anywhere in an event.
 */
#include <heapscope/heapscope.h>

#include "evwriter.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The summary of every event, one by one, fully decoded. */
static hs_summary *by_event(const uint8_t *log, size_t len)
{
    hs_summary *s = hs_summary_new();
    hs_reader *r = hs_reader_new();
    CU_ASSERT_FATAL(s && r);
    hs_reader_feed(r, log, len);
    hs_event ev;
    while (hs_reader_next(r, &ev) == HS_EVENT)
        CU_ASSERT_EQUAL(hs_summary_add_event(s, &ev), HS_OK);
    hs_reader_free(r);
    hs_summary_finish(s);
    return s;
}

/* A pipe's read end, written by a child in pieces of `piece` bytes. */
static int piped(const uint8_t *log, size_t len, size_t piece, pid_t *pid)
{
    int p[2];
    CU_ASSERT_FATAL(pipe(p) == 0);
    *pid = fork();
    CU_ASSERT_FATAL(*pid >= 0);
    if (*pid == 0) {
        close(p[0]);
        for (size_t off = 0; off < len;) {
            size_t n = len - off < piece ? len - off : piece;
            ssize_t w = write(p[1], log + off, n);
            if (w <= 0)
                _exit(1);
            off += (size_t)w;
        }
        _exit(0);
    }
    close(p[1]);
    return p[0];
}

static void reap(int fd, pid_t pid)
{
    close(fd);
    int status;
    waitpid(pid, &status, 0);
}

static char *text_of(const hs_summary *s, bool json)
{
    hs_membuf m = {0};
    hs_sink k = hs_membuf_sink(&m);
    if (json)
        hs_summary_render_json(s, &k);
    else
        hs_summary_render_text(s, &k);
    char *t = strdup(m.data ? m.data : "");
    hs_membuf_free(&m);
    return t;
}

static void same_summary(const hs_summary *want, const hs_summary *got,
                         const char *name)
{
    for (int json = 0; json < 2; json++) {
        char *a = text_of(want, json), *b = text_of(got, json);
        if (strcmp(a, b) != 0)
            printf("\n  %s: the one pass's %s differs\n", name,
                   json ? "JSON" : "text");
        CU_ASSERT_STRING_EQUAL(a, b);
        free(a);
        free(b);
    }
    CU_ASSERT_EQUAL(hs_summary_get_stats(want)->events,
                    hs_summary_get_stats(got)->events);
}

static char *csv_of(const hs_census *c)
{
    hs_membuf m = {0};
    hs_sink k = hs_membuf_sink(&m);
    hs_render_csv(c, &k, HS_CSV_LONG);
    char *t = strdup(m.data ? m.data : "");
    hs_membuf_free(&m);
    return t;
}

/* The census of hs_census_load_fd() and the summary of every event
 * against both from hs_census_load_summary_fd() on the file at path. */
static void check_census_pass(const char *path, const hs_summary *want)
{
    FILE *f1 = fopen(path, "rb"), *f2 = fopen(path, "rb");
    CU_ASSERT_FATAL(f1 && f2);
    hs_census *a = hs_census_new(), *b = hs_census_new();
    hs_summary *s = hs_summary_new();
    hs_error e1, e2;
    int st1 = hs_census_load_fd(a, fileno(f1), &e1);
    int st2 = hs_census_load_summary_fd(b, s, fileno(f2), &e2);
    CU_ASSERT_EQUAL(st1, st2);
    hs_summary_finish(s);
    same_summary(want, s, path);
    const hs_census_info *ia = hs_census_get_info(a);
    const hs_census_info *ib = hs_census_get_info(b);
    CU_ASSERT_EQUAL(ia->events, ib->events);
    CU_ASSERT_EQUAL(ia->end_time_ns, ib->end_time_ns);
    CU_ASSERT_EQUAL(ia->capabilities, ib->capabilities);
    CU_ASSERT_EQUAL(ia->complete, ib->complete);
    char *ca = csv_of(a), *cb = csv_of(b);
    CU_ASSERT_STRING_EQUAL(ca, cb);
    free(ca);
    free(cb);
    hs_summary_free(s);
    hs_census_free(a);
    hs_census_free(b);
    fclose(f1);
    fclose(f2);
}

static void check_log(const char *path)
{
    size_t len;
    uint8_t *log = tu_slurp(path, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    hs_summary *want = by_event(log, len);
    static const size_t pieces[] = {0, 997, 7};
    for (size_t i = 0; i < sizeof pieces / sizeof pieces[0]; i++) {
        if (pieces[i] == 7 && len > (4u << 20))
            continue; /* a byte at a time is for the small logs */
        pid_t pid = 0;
        FILE *f = pieces[i] ? NULL : fopen(path, "rb");
        int fd = pieces[i] ? piped(log, len, pieces[i], &pid) : fileno(f);
        hs_summary *s = hs_summary_new();
        hs_reader *r = hs_reader_new();
        int st = hs_summary_load_fd(s, r, fd);
        CU_ASSERT(st == HS_DONE || st == HS_TRUNCATED);
        hs_summary_finish(s);
        same_summary(want, s, path);
        hs_reader_free(r);
        hs_summary_free(s);
        if (f)
            fclose(f);
        else
            reap(fd, pid);
    }
    check_census_pass(path, want);
    hs_summary_free(want);
    free(log);
}

/* Every *.eventlog under dir; returns their number. */
static int check_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len > 9 && strcmp(e->d_name + len - 9, ".eventlog") == 0) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            check_log(path);
            n++;
        }
    }
    closedir(d);
    return n;
}

/* Events after a block's end, before the next block marker, are in no
 * capability's block: the one pass's fast loop gives them no capability
 * either, whether the block it starts in ended or not. */
static void test_after_block_end(void)
{
    evw w;
    evw_start_ghc92(&w);
    uint64_t t = 1000;
    for (int round = 0; round < 200; round++) {
        for (uint16_t cap = 0; cap < 2; cap++) {
            size_t b = evw_block(&w, t, cap);
            for (int i = 0; i < 3 + round % 5; i++) {
                evw_write(&w, t += 10, &(hs_event){.tag = HS_EV_GC_START});
                evw_write(&w, t += 90 + cap * 7,
                          &(hs_event){.tag = HS_EV_GC_END});
            }
            evw_block_end(&w, b, t);
        }
        for (int i = 0; i < round % 3; i++) { /* outside any block */
            evw_write(&w, t += 10, &(hs_event){.tag = HS_EV_GC_START});
            evw_write(&w, t += 50, &(hs_event){.tag = HS_EV_GC_END});
        }
    }
    evw_data_end(&w);
    char path[] = "/tmp/heapscope-onepass-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT_FATAL(write(fd, w.data, w.len) == (ssize_t)w.len);
    close(fd);
    check_log(path);
    unlink(path);
    evw_free(&w);
}

static void test_samples(void)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/samples", tu_source_dir());
    int n = check_dir(dir);
    CU_ASSERT(n >= 10);
    printf("\n  %d sample logs\n", n);
}

static void test_corpus(void)
{
    const char *dir = tu_corpus_dir();
    if (!dir) {
        tu_skip("no corpus at $HEAPSCOPE_SHARED_DIR/corpus/ghc-events");
        return;
    }
    printf("\n  %d corpus logs\n", check_dir(dir));
}

int main(void)
{
    static const tu_test tests[] = {
        {"sample logs: one pass as event by event", test_samples},
        {"corpus logs: one pass as event by event", test_corpus},
        {"events after a block's end", test_after_block_end},
        {NULL, NULL},
    };
    return tu_main("onepass", NULL, NULL, tests);
}
