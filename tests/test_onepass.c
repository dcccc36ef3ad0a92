/*
 * The one pass over an eventlog (load/load_eventlog.c): the summary fed
 * by hs_summary_load_fd(), and the census and summary both by
 * hs_census_load_summary_fd(), give what the event-by-event way gives
 * (every event decoded, hs_summary_add_event() and hs_census_load_fd()), for
 * every sample and corpus log, read from a file and from a pipe whose
 * chunks end anywhere in an event; and the census's heap lines are the
 * log's points in a stable sort by time.
 */
#include <heapscope/heapscope.h>

#include "evwriter.h"
#include "lanes_check.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* A point of a heap line as the log gives it, and its place there. */
typedef struct line_pt {
    uint64_t time, bytes;
    size_t index;
} line_pt;

static int cmp_line_pt(const void *x, const void *y)
{
    const line_pt *a = x, *b = y;
    if (a->time != b->time)
        return a->time < b->time ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* The log's points of each heap line, in file order. */
typedef struct line_pts {
    line_pt *v;
    size_t n, cap;
} line_pts;

/* Notes ev in want[] when it is a point of a heap line. */
static void note_point(line_pts want[HS_LINE_COUNT], const hs_event *ev)
{
    int line = ev->tag == HS_EV_HEAP_SIZE     ? HS_LINE_HEAP_SIZE
               : ev->tag == HS_EV_HEAP_LIVE   ? HS_LINE_HEAP_LIVE
               : ev->tag == HS_EV_BLOCKS_SIZE ? HS_LINE_BLOCKS_SIZE
                                              : -1;
    if (line < 0 || !ev->known)
        return;
    line_pts *w = &want[line];
    if (w->n == w->cap) {
        w->cap = w->cap ? 2 * w->cap : 64;
        w->v = realloc(w->v, w->cap * sizeof *w->v);
        CU_ASSERT_FATAL(w->v != NULL);
    }
    w->v[w->n] = (line_pt){ev->time, ev->u.heap.bytes, w->n};
    w->n++;
}

/* The summary of every event, one by one, fully decoded; the points of
 * the heap lines in points[], in file order. */
static hs_summary *by_event(const uint8_t *log, size_t len,
                            line_pts points[HS_LINE_COUNT])
{
    hs_summary *s = hs_summary_new();
    hs_reader *r = hs_reader_new();
    CU_ASSERT_FATAL(s && r);
    hs_reader_feed(r, log, len);
    hs_event ev;
    while (hs_reader_next(r, &ev) == HS_EVENT) {
        CU_ASSERT_EQUAL(hs_summary_add_event(s, &ev), HS_OK);
        note_point(points, &ev);
    }
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

static void same_summary(const hs_summary *want, const hs_summary *got,
                         const char *name)
{
    for (int json = 0; json < 2; json++) {
        char *a = onepass_text(want, json), *b = onepass_text(got, json);
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

/* The census's heap lines against the log's HEAP_SIZE, HEAP_LIVE and
 * BLOCKS_SIZE events in a stable sort by time (qsort by time and place):
 * the points appended inline (census_impl.h) and sorted run by run in
 * place (census_sort.c). */
static void check_lines(line_pts want[HS_LINE_COUNT], const hs_census *c,
                        const char *name)
{
    for (int line = 0; line < HS_LINE_COUNT; line++) {
        line_pts *w = &want[line];
        if (w->n)
            qsort(w->v, w->n, sizeof *w->v, cmp_line_pt);
        const hs_census_point *got;
        size_t k = hs_census_heap_line(c, (hs_heap_line)line, &got);
        CU_ASSERT_EQUAL(k, w->n);
        size_t wrong = 0;
        for (size_t i = 0; i < k && i < w->n; i++)
            wrong += got[i].time_ns != w->v[i].time ||
                     got[i].bytes != w->v[i].bytes;
        if (wrong || k != w->n)
            printf("\n  %s: line %d: %zu of %zu points differ\n", name,
                   line, wrong, w->n);
        CU_ASSERT_EQUAL(wrong, 0);
        free(w->v);
    }
}

/* The census of hs_census_load_fd() and the summary of every event
 * against both from hs_census_load_summary_fd() on the file at path. */
static void check_census_pass(const char *path,
                              line_pts points[HS_LINE_COUNT],
                              const hs_summary *want)
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
    char *ca = onepass_csv(a), *cb = onepass_csv(b);
    CU_ASSERT_STRING_EQUAL(ca, cb);
    check_lines(points, b, path);
    free(ca);
    free(cb);
    hs_summary_free(s);
    hs_census_free(a);
    hs_census_free(b);
    fclose(f1);
    fclose(f2);
}

/* How many of the logs check_log() read the lanes took, for the summary
 * and for the census. */
static int lanes_run, lanes_census;

static void check_log(const char *path)
{
    size_t len;
    uint8_t *log = tu_slurp(path, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    line_pts points[HS_LINE_COUNT] = {{0}};
    hs_summary *want = by_event(log, len, points);
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
    check_census_pass(path, points, want);
    lanes_run += lanes_compare(path, NULL) > 0;
    lanes_census += lanes_census_compare(path) > 0;
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

/* ---- the summary's capabilities fed in any interleaving ---------------
 * The summary keeps the last event's capability state at hand
 * (summary_event.c); the figures must not depend on it. Each state gets a
 * made-up run of collections (two layouts, a clock that goes back, three
 * generations, parallel ones); the events are handed over state by state,
 * one state at a time in turn, and shuffled, each state's own order and
 * the states' first appearances kept. Capabilities -1 and -7 are both
 * "none" and share one state; 1000 is far past the others. */

enum { N_STATES = 5, PER_STATE = 120 };
static const int32_t state_caps[N_STATES][2] = {
    {0, 0}, {1, 1}, {-1, -7}, {1000, 1000}, {3, 3}};

static uint64_t lcg(uint64_t *x)
{
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    return *x >> 33;
}

static size_t cap_run(hs_event *out, int k, uint64_t *seed)
{
    size_t n = 0;
    uint64_t t = 1000 + (uint64_t)k * 37, alloc = 0, sparks = 0;
    while (n + 6 <= PER_STATE) {
        hs_event e[6];
        memset(e, 0, sizeof e);
        bool late_stats = lcg(seed) % 4 == 0; /* GHC < 8.4: after GC_END */
        uint64_t start = t += 100 + lcg(seed) % 500;
        e[0].tag = HS_EV_GC_START;
        e[0].time = start;
        e[1].tag = HS_EV_HEAP_ALLOCATED;
        e[1].time = start + 5;
        e[1].u.heap.bytes = alloc += lcg(seed) % 100000;
        e[2].tag = HS_EV_GC_STATS_GHC;
        e[2].u.gc_stats.gen = (uint16_t)(lcg(seed) % 3);
        e[2].u.gc_stats.copied = lcg(seed) % 5000;
        e[2].u.gc_stats.slop = lcg(seed) % 300;
        e[2].u.gc_stats.par_threads = 1 + (uint32_t)(lcg(seed) % 3);
        e[2].u.gc_stats.par_max_copied = lcg(seed) % 2000;
        e[2].u.gc_stats.par_tot_copied = lcg(seed) % 4000;
        e[2].u.gc_stats.par_balanced_copied = lcg(seed) % 1000;
        e[2].u.gc_stats.has_balanced = lcg(seed) % 8 != 0;
        e[3].tag = HS_EV_GC_END;
        /* now and then a clock that went back */
        e[3].time = lcg(seed) % 16 ? start + 20 + lcg(seed) % 400 : start - 3;
        e[2].time = late_stats ? e[3].time + 2 : e[3].time - 1;
        e[4].tag = HS_EV_HEAP_SIZE;
        e[4].time = e[3].time + 4;
        e[4].u.heap.bytes = (1 + lcg(seed) % 64) << 20;
        e[5].tag = HS_EV_SPARK_COUNTERS;
        e[5].time = e[3].time + 6;
        sparks += lcg(seed) % 10;
        e[5].u.spark_counters = (__typeof__(e[5].u.spark_counters)){
            sparks, sparks / 2, sparks / 3, sparks / 4, sparks / 5,
            sparks / 6, 0};
        if (late_stats) {
            hs_event st = e[2];
            e[2] = e[3];
            e[3] = st;
        }
        for (int i = 0; i < 6; i++) {
            e[i].known = true;
            e[i].cap = state_caps[k][(n + (size_t)i) % 2];
            out[n++] = e[i];
        }
        t = e[3].time > t ? e[3].time : t;
    }
    return n;
}

/* The summary of the states' runs handed over in `how` order: 0 state by
 * state, 1 one event of each state in turn, 2 shuffled. */
static char *interleaved(hs_event runs[N_STATES][PER_STATE], size_t len,
                         int how, const hs_summary_window *w)
{
    hs_summary *s = hs_summary_new();
    CU_ASSERT_FATAL(s != NULL);
    if (w)
        CU_ASSERT_EQUAL(hs_summary_set_window(s, w), HS_OK);
    size_t next[N_STATES] = {0};
    uint64_t seed = 99;
    for (int k = 0; k < N_STATES; k++) /* first appearances in order */
        CU_ASSERT_EQUAL(hs_summary_add_event(s, &runs[k][next[k]++]), HS_OK);
    for (size_t left = N_STATES * (len - 1), turn = 0; left; turn++) {
        int k = how == 0 ? 0 : how == 1 ? (int)(turn % N_STATES)
                                        : (int)(lcg(&seed) % N_STATES);
        while (how == 0 && next[k] == len)
            k++;
        if (next[k] == len)
            continue;
        CU_ASSERT_EQUAL(hs_summary_add_event(s, &runs[k][next[k]++]), HS_OK);
        left--;
    }
    CU_ASSERT_EQUAL(hs_summary_finish(s), HS_OK);
    char *both = onepass_join(onepass_text(s, false), onepass_text(s, true));
    hs_summary_free(s);
    return both;
}

static void test_cap_interleaving(void)
{
    static hs_event runs[N_STATES][PER_STATE];
    uint64_t seed = 7;
    size_t len = 0;
    for (int k = 0; k < N_STATES; k++)
        len = cap_run(runs[k], k, &seed);
    hs_summary_window win;
    hs_summary_window_init(&win);
    win.from_ns = 2500;
    win.to_ns = 6000;
    for (int windowed = 0; windowed < 2; windowed++) {
        const hs_summary_window *w = windowed ? &win : NULL;
        char *want = interleaved(runs, len, 0, w);
        CU_ASSERT_PTR_NOT_NULL(strstr(want, "\"cap\": 1000"));
        for (int how = 1; how < 3; how++) {
            char *got = interleaved(runs, len, how, w);
            if (strcmp(want, got) != 0)
                printf("\n  order %d%s differs:\n%s\n--- against ---\n%s\n",
                       how, windowed ? " (windowed)" : "", got, want);
            CU_ASSERT_STRING_EQUAL(got, want);
            free(got);
        }
        free(want);
    }
}

static void test_samples(void)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/samples", tu_source_dir());
    lanes_run = lanes_census = 0;
    int n = check_dir(dir);
    CU_ASSERT(n >= 10);
    CU_ASSERT(lanes_run >= 3 && lanes_census == lanes_run);
    printf("\n  %d sample logs, %d of them in two lanes\n", n, lanes_run);
}

static void test_corpus(void)
{
    const char *dir = tu_corpus_dir();
    if (!dir) {
        tu_skip("no corpus at $HEAPSCOPE_SHARED_DIR/corpus/ghc-events");
        return;
    }
    lanes_run = lanes_census = 0;
    int n = check_dir(dir);
    CU_ASSERT(lanes_census == lanes_run);
    printf("\n  %d corpus logs, %d of them in two lanes\n", n, lanes_run);
}

int main(void)
{
    static const tu_test tests[] = {
        {"sample logs: one pass as event by event", test_samples},
        {"corpus logs: one pass as event by event", test_corpus},
        {"events after a block's end", test_after_block_end},
        {"capabilities in any interleaving", test_cap_interleaving},
        {"two lanes as one pass, on logs made to break them",
         test_lanes_built},
        {NULL, NULL},
    };
    return tu_main("onepass", NULL, NULL, tests);
}
