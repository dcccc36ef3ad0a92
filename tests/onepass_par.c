/*
 * The two-thread pass against the one-thread pass (see onepass_par.h).
 * Chunks are made by a SOCK_SEQPACKET socket: each read() returns one
 * message, so the ring of load_par.c turns over many times even on a log
 * of two kilobytes.
 */
#include <heapscope/heapscope.h>

#include "evwriter.h"
#include "onepass_par.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

/* What one load gave. */
typedef struct outcome {
    int st;
    hs_error err;
    char *csv, *text, *warnings; /* NULL after a failure (unspecified) */
} outcome;

/* The read end of a socket holding data in messages of odd sizes (1 to
 * 300 bytes); step 0: one message. */
static int chunked(const uint8_t *data, size_t len, unsigned step)
{
    int sv[2];
    CU_ASSERT_FATAL(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) == 0);
    size_t n = step ? 1 : len;
    for (size_t at = 0; at < len; at += n) {
        if (step)
            n = (n * step) % 301 + 1;
        if (n > len - at)
            n = len - at;
        CU_ASSERT_FATAL(write(sv[1], data + at, n) == (ssize_t)n);
    }
    close(sv[1]);
    return sv[0];
}

static char *rendered(int (*fn)(const void *, hs_sink *), const void *x)
{
    hs_membuf m = {0};
    hs_sink k = hs_membuf_sink(&m);
    int st = fn(x, &k);
    char *t = malloc(32 + m.len);
    CU_ASSERT_FATAL(t != NULL);
    snprintf(t, 32 + m.len, "%d:%s", st, m.data ? m.data : "");
    hs_membuf_free(&m);
    return t;
}

static int csv_long(const void *c, hs_sink *k)
{
    return hs_render_csv(c, k, HS_CSV_LONG);
}

static int sum_text(const void *s, hs_sink *k)
{
    return hs_summary_render_text(s, k);
}

static char *warnings_of(const hs_census *c)
{
    size_t n = 1;
    for (size_t i = 0; i < hs_census_warning_count(c); i++)
        n += strlen(hs_census_warning(c, i)) + 1;
    char *w = calloc(1, n);
    CU_ASSERT_FATAL(w != NULL);
    for (size_t i = 0; i < hs_census_warning_count(c); i++)
        strcat(strcat(w, hs_census_warning(c, i)), "\n");
    return w;
}

/* fd loaded with `threads`, the census and summary of ca and sa. */
static void load(int fd, unsigned threads, const hs_allocator *ca,
                 const hs_allocator *sa, outcome *o)
{
    memset(o, 0, sizeof *o);
    hs_census *c = hs_census_new_with(ca);
    hs_summary *s = hs_summary_new_with(sa);
    if (!c || !s) {
        o->st = HS_ERR_NOMEM;
        snprintf(o->err.message, sizeof o->err.message, "new");
    } else {
        hs_load_options opt;
        hs_load_options_init(&opt);
        opt.threads = threads;
        o->st = hs_census_load_summary_with(c, s, fd, &opt, &o->err);
    }
    if (o->st >= 0) {
        o->csv = rendered(csv_long, c);
        o->warnings = warnings_of(c);
        hs_summary_finish(s);
        o->text = rendered(sum_text, s);
    }
    hs_summary_free(s);
    hs_census_free(c);
}

static void outcome_free(outcome *o)
{
    free(o->csv);
    free(o->text);
    free(o->warnings);
}

static bool same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* a and b the same; else says which differs, of what (at: a cut or a
 * corrupt byte, a failing allocation). */
static bool same_outcome(const outcome *a, const outcome *b, const char *what,
                         size_t at)
{
    bool same = a->st == b->st && a->err.code == b->err.code &&
                (a->st == HS_OK || a->st == HS_DONE ||
                 (a->err.offset == b->err.offset &&
                  a->err.event_index == b->err.event_index &&
                  strcmp(a->err.message, b->err.message) == 0)) &&
                same_str(a->csv, b->csv) && same_str(a->text, b->text) &&
                same_str(a->warnings, b->warnings);
    if (!same)
        printf("\n  %s %zu: one thread %d at %llu \"%s\", two %d at %llu "
               "\"%s\"%s%s%s\n", what, at, a->st,
               (unsigned long long)a->err.offset, a->err.message, b->st,
               (unsigned long long)b->err.offset, b->err.message,
               same_str(a->csv, b->csv) ? "" : "; the census differs",
               same_str(a->text, b->text) ? "" : "; the summary differs",
               same_str(a->warnings, b->warnings) ? "" : "; warnings differ");
    CU_ASSERT(same);
    return same;
}

/* data loaded both ways in the chunks of step. */
static bool same_both_ways(const uint8_t *data, size_t len, unsigned step,
                           const char *what, size_t at)
{
    outcome one, two;
    int fd = chunked(data, len, step);
    load(fd, 1, NULL, NULL, &one);
    close(fd);
    fd = chunked(data, len, step);
    load(fd, 2, NULL, NULL, &two);
    close(fd);
    bool same = same_outcome(&one, &two, what, at);
    outcome_free(&one);
    outcome_free(&two);
    return same;
}

void par_same_file(const char *path)
{
    outcome one, two;
    FILE *f = fopen(path, "rb");
    CU_ASSERT_FATAL(f != NULL);
    load(fileno(f), 1, NULL, NULL, &one);
    rewind(f);
    lseek(fileno(f), 0, SEEK_SET);
    load(fileno(f), 2, NULL, NULL, &two);
    same_outcome(&one, &two, path, 0);
    outcome_free(&two);
    fclose(f);
    size_t len;
    uint8_t *log = tu_slurp(path, &len);
    CU_ASSERT_FATAL(log != NULL);
    pid_t pid;
    int fd = tu_pipe_from(log, len, 7, 4093, &pid);
    load(fd, 2, NULL, NULL, &two);
    close(fd);
    waitpid(pid, NULL, 0);
    same_outcome(&one, &two, path, 1);
    outcome_free(&one);
    outcome_free(&two);
    free(log);
}

/* A small log with what both the census and the summary read: heap
 * samples, collections and heap figures in two capabilities' blocks. */
static void small_log(evw *w)
{
    static const uint16_t tags[] = {
        HS_EV_BLOCK_MARKER, HS_EV_GC_START, HS_EV_GC_END, HS_EV_HEAP_SIZE,
        HS_EV_HEAP_ALLOCATED, HS_EV_GC_STATS_GHC, HS_EV_HEAP_PROF_BEGIN,
        HS_EV_HEAP_PROF_COST_CENTRE, HS_EV_HEAP_PROF_SAMPLE_BEGIN,
        HS_EV_HEAP_PROF_SAMPLE_COST_CENTRE, HS_EV_HEAP_PROF_SAMPLE_END};
    evw_init(w);
    evw_header_begin(w);
    for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++)
        evw_declare_tag(w, tags[i]);
    evw_header_end(w);
    evw_heap_prof_begin(w, 1, 1000, 1);
    evw_cost_centre(w, 2, 1, "main", "Main", "a.hs:1:1", 0);
    evw_cost_centre(w, 3, 2, "go", "Main", "a.hs:2:1", 0);
    static const uint32_t stack[] = {2, 1};
    uint64_t t = 1000;
    for (int round = 0; round < 2; round++) {
        for (uint16_t cap = 0; cap < 2; cap++) {
            size_t b = evw_block(w, t, cap);
            evw_write(w, t += 10, &(hs_event){.tag = HS_EV_GC_START});
            hs_event h = {.tag = HS_EV_HEAP_SIZE};
            h.u.heap.bytes = 1u << (20 + round);
            evw_write(w, t += 5, &h);
            h.tag = HS_EV_HEAP_ALLOCATED;
            h.u.heap.bytes = 4096u * (round + 1) * (cap + 1);
            evw_write(w, t += 5, &h);
            hs_event g = {.tag = HS_EV_GC_STATS_GHC};
            g.u.gc_stats.copied = 100u * round;
            g.u.gc_stats.par_threads = 1;
            evw_write(w, t += 5, &g);
            evw_write(w, t += 90, &(hs_event){.tag = HS_EV_GC_END});
            evw_block_end(w, b, t);
        }
        evw_sample_begin(w, t += 10, (uint64_t)round);
        evw_sample_ccs(w, t += 1, 100u * (round + 1), 1, stack);
        evw_sample_ccs(w, t += 1, 50u * round, 2, stack);
        evw_sample_end(w, t += 1, (uint64_t)round);
    }
    evw_data_end(w);
}

void test_par_cut(void)
{
    evw w;
    small_log(&w);
    int bad = 0;
    for (size_t cut = 0; cut <= w.len && bad < 3; cut++)
        bad += !same_both_ways(w.data, cut, 1 + cut % 5, "cut at", cut);
    printf("\n  %zu cuts\n", w.len + 1);
    evw_free(&w);
}

void test_par_corrupt(void)
{
    evw w;
    small_log(&w);
    uint8_t *bad_log = malloc(w.len);
    CU_ASSERT_FATAL(bad_log != NULL);
    int bad = 0;
    for (size_t at = 0; at < w.len && bad < 3; at += 2) {
        memcpy(bad_log, w.data, w.len);
        bad_log[at] ^= (uint8_t)(0x5a + at);
        bad += !same_both_ways(bad_log, w.len, 3, "corrupt byte", at);
    }
    free(bad_log);
    evw_free(&w);
}

/* tu_failing for two threads. */
typedef struct locked {
    pthread_mutex_t mu;
    tu_failing f;
    hs_allocator inner;
} locked;

static void *l_malloc(void *u, size_t n)
{
    locked *l = u;
    pthread_mutex_lock(&l->mu);
    void *p = l->inner.malloc_fn(l->inner.user, n);
    pthread_mutex_unlock(&l->mu);
    return p;
}

static void *l_realloc(void *u, void *p, size_t n)
{
    locked *l = u;
    pthread_mutex_lock(&l->mu);
    void *q = l->inner.realloc_fn(l->inner.user, p, n);
    pthread_mutex_unlock(&l->mu);
    return q;
}

static void l_free(void *u, void *p)
{
    locked *l = u;
    pthread_mutex_lock(&l->mu);
    l->inner.free_fn(l->inner.user, p);
    pthread_mutex_unlock(&l->mu);
}

static hs_allocator locked_failing(locked *l, long left)
{
    pthread_mutex_init(&l->mu, NULL);
    l->f = (tu_failing){left, 0, 0};
    l->inner = tu_failing_allocator(&l->f);
    return (hs_allocator){l_malloc, l_realloc, l_free, l};
}

/* The log loaded with the summary's allocations failing from the n-th
 * (census true: the census's); false once none failed. */
static bool failing_at(const evw *w, long n, bool census, const outcome *ok)
{
    locked l1, l2;
    hs_allocator a1 = locked_failing(&l1, n), a2 = locked_failing(&l2, n);
    const hs_allocator *ca = census ? &a1 : NULL, *sa = census ? NULL : &a1;
    outcome one, two;
    int fd = chunked(w->data, w->len, 2);
    load(fd, 1, ca, sa, &one);
    close(fd);
    fd = chunked(w->data, w->len, 2);
    load(fd, 2, census ? &a2 : NULL, census ? NULL : &a2, &two);
    close(fd);
    if (census) { /* the readers' allocations come in another order */
        CU_ASSERT(two.st == HS_ERR_NOMEM ||
                  same_outcome(ok, &two, "census failing at", (size_t)n));
    } else {
        same_outcome(&one, &two, "summary failing at", (size_t)n);
    }
    CU_ASSERT_EQUAL(l1.f.live, 0);
    CU_ASSERT_EQUAL(l2.f.live, 0);
    bool failed = one.st == HS_ERR_NOMEM || two.st == HS_ERR_NOMEM;
    outcome_free(&one);
    outcome_free(&two);
    pthread_mutex_destroy(&l1.mu);
    pthread_mutex_destroy(&l2.mu);
    return failed;
}

void test_par_nomem(void)
{
    evw w;
    small_log(&w);
    outcome ok;
    int fd = chunked(w.data, w.len, 2);
    load(fd, 1, NULL, NULL, &ok);
    close(fd);
    for (int census = 0; census < 2; census++) {
        long n = 0;
        while (failing_at(&w, n, census, &ok) && n < 100000)
            n++;
        printf("\n  %s: %ld allocations\n", census ? "census" : "summary", n);
        CU_ASSERT(n > 0);
    }
    outcome_free(&ok);
    evw_free(&w);
}
