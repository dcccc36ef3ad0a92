/*
 * The one pass over an eventlog (load/load_eventlog.c): the summary fed
 * by hs_summary_load_fd(), and the census and summary both by
 * hs_census_load_summary_fd(), give what the event-by-event way gives
 * (every event decoded, hs_summary_add_event() and hs_census_load_fd()), for
 * every sample and corpus log, read from a file and from a pipe whose
 * chunks end anywhere in an event; and read ahead in a second thread
 * (hs_load_options.threads), as in one, also cut, corrupt and short of
 * memory.
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

/* A census and summary loaded from the file at path, in `threads`
 * threads, with the outcome; c's allocator a (NULL: the C library's). */
typedef struct loaded {
    hs_census *c;
    hs_summary *s;
    int st;
    hs_error err;
} loaded;

static loaded load_path(const char *path, unsigned threads,
                        const hs_allocator *a)
{
    loaded l = {hs_census_new_with(a), hs_summary_new(), 0, {0}};
    FILE *f = fopen(path, "rb");
    CU_ASSERT_FATAL(f && l.s);
    if (!l.c) { /* as the library says it */
        l.st = HS_ERR_NOMEM;
        snprintf(l.err.message, sizeof l.err.message, "out of memory");
        fclose(f);
        return l;
    }
    hs_load_options o;
    hs_load_options_init(&o);
    o.threads = threads;
    l.st = hs_census_load_summary_fd_opt(l.c, l.s, fileno(f), &o, &l.err);
    hs_summary_finish(l.s);
    fclose(f);
    return l;
}

static void loaded_free(loaded *l)
{
    hs_census_free(l->c);
    hs_summary_free(l->s);
}

/* Two loads of the same bytes came to the same: outcome, error (code,
 * offset, message), census and summary. */
static void same_load(const loaded *a, const loaded *b, const char *name)
{
    CU_ASSERT_EQUAL(a->st, b->st);
    if (a->st != HS_OK) {
        CU_ASSERT_EQUAL(a->err.code, b->err.code);
        CU_ASSERT_EQUAL(a->err.offset, b->err.offset);
        CU_ASSERT_STRING_EQUAL(a->err.message, b->err.message);
    }
    if (a->st < 0 || b->st < 0)
        return;
    same_summary(a->s, b->s, name);
    char *ca = csv_of(a->c), *cb = csv_of(b->c);
    if (strcmp(ca, cb) != 0)
        printf("\n  %s: the census read ahead differs\n", name);
    CU_ASSERT_STRING_EQUAL(ca, cb);
    free(ca);
    free(cb);
    CU_ASSERT_EQUAL(hs_census_get_info(a->c)->events,
                    hs_census_get_info(b->c)->events);
    CU_ASSERT_EQUAL(hs_census_get_info(a->c)->cut_offset,
                    hs_census_get_info(b->c)->cut_offset);
}

/* The file at path loaded in one thread and read ahead in a second. */
static void check_read_ahead(const char *path)
{
    loaded one = load_path(path, 1, NULL), two = load_path(path, 2, NULL);
    same_load(&one, &two, path);
    loaded_free(&one);
    loaded_free(&two);
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
    check_read_ahead(path);
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

/* Writes n bytes of log into a new temporary file, its name in path
 * (room for 40). */
static void write_temp(char *path, const uint8_t *log, size_t n)
{
    strcpy(path, "/tmp/heapscope-ahead-XXXXXX");
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT_FATAL(write(fd, log, n) == (ssize_t)n);
    close(fd);
}

/* A log of a dozen read-ahead chunks (128 KiB): two capabilities' blocks
 * of GC and heap events, a heap sample now and then, each value its own,
 * so that a chunk lost or out of place changes the figures. */
static void big_log(evw *w)
{
    evw_start_ghc92(w);
    evw_heap_prof_begin(w, 1, 1000, 4);
    uint64_t t = 1000;
    for (uint64_t round = 0; round < 6000; round++) {
        for (uint16_t cap = 0; cap < 2; cap++) {
            size_t b = evw_block(w, t, cap);
            hs_event ev = {.tag = HS_EV_GC_START};
            evw_write(w, t += 10, &ev);
            ev = (hs_event){.tag = HS_EV_HEAP_ALLOCATED};
            ev.u.heap.bytes = round * 4096 + cap * 7;
            evw_write(w, t += 10, &ev);
            ev = (hs_event){.tag = HS_EV_GC_STATS_GHC};
            ev.u.gc_stats.gen = (uint16_t)(round % 2);
            ev.u.gc_stats.copied = round * 3 + cap;
            ev.u.gc_stats.par_threads = 2;
            ev.u.gc_stats.has_balanced = true;
            evw_write(w, t += 10, &ev);
            ev = (hs_event){.tag = HS_EV_HEAP_SIZE};
            ev.u.heap.bytes = (1 + round % 97) << 20;
            evw_write(w, t += 10, &ev);
            evw_write(w, t += 50 + round % 13,
                      &(hs_event){.tag = HS_EV_GC_END});
            evw_block_end(w, b, t);
        }
        if (round % 50 == 0) {
            evw_sample_begin(w, t += 5, round / 50);
            evw_sample_string(w, t += 5, 100 + round, "A");
            evw_sample_string(w, t += 5, 7 * round, "B");
            evw_sample_end(w, t += 5, round / 50);
        }
    }
    evw_data_end(w);
}

/* big_log() cut at and around chunk ends and inside events, and with a
 * corrupt byte here and there: read ahead, the same outcome, error,
 * offset, census and summary as in one thread. */
static void test_ahead_cut(void)
{
    evw w;
    big_log(&w);
    const size_t k = 131072, len = w.len;
    CU_ASSERT_FATAL(len > 10 * k);
    const size_t cuts[] = {k + 1, 2 * k - 1, 2 * k, 2 * k + 1, 3 * k + 17,
                           5 * k + 4099, 9 * k - 3, len - 1, len};
    char path[40];
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        write_temp(path, w.data, cuts[i]);
        check_read_ahead(path);
        unlink(path);
    }
    for (size_t at = k + 5; at < len; at += 3 * k + 1011) {
        uint8_t was = w.data[at];
        w.data[at] ^= 0xa5;
        write_temp(path, w.data, len);
        check_read_ahead(path);
        unlink(path);
        w.data[at] = was;
    }
    evw_free(&w);
}

/* Read ahead with the read buffers refused from the k-th on: the input's
 * buffer (out of memory, said so) or a read-ahead buffer (no thread: the
 * file read in this one, as with one thread); all freed either way. A
 * read buffer is 128 KiB and 63 bytes to start it on a cache line
 * (read/input.c), an odd size no array of the census or summary has. */
static void test_ahead_nomem(void)
{
    evw w;
    big_log(&w);
    char path[40];
    write_temp(path, w.data, w.len);
    evw_free(&w);
    loaded want = load_path(path, 1, NULL);
    CU_ASSERT_FATAL(want.st == HS_OK);
    for (long k = 0; k < 10; k++) {
        tu_failing_sized f = {{k, 0, 0}, 131072 + 63};
        hs_allocator a = tu_failing_sized_allocator(&f);
        loaded got = load_path(path, 2, &a);
        if (k == 0) {
            CU_ASSERT_EQUAL(got.st, HS_ERR_NOMEM);
            CU_ASSERT_STRING_EQUAL(got.err.message, "out of memory");
        } else {
            same_load(&want, &got, path);
        }
        loaded_free(&got);
        CU_ASSERT_EQUAL(f.f.live, 0);
    }
    loaded_free(&want);
    unlink(path);
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
        {"read ahead: cut and corrupt logs", test_ahead_cut},
        {"read ahead: short of memory", test_ahead_nomem},
        {NULL, NULL},
    };
    return tu_main("onepass", NULL, NULL, tests);
}
