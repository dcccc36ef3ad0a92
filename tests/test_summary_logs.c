/*
 * Tests of the +RTS -s summary on real logs: the samples against the
 * runtime's own +RTS -s (every figure), a threaded run, the corpus logs,
 * a GHC 6.12 log without statistics; and the API's refusals of misuse.
 */
#include <heapscope/heapscope.h>

#include "evwriter.h"
#include "summary_run.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_misuse(void)
{
    hs_summary *s = hs_summary_new();
    hs_summary_window bad;
    hs_summary_window_init(&bad);
    bad.from_ns = 10;
    bad.to_ns = 5;
    bad.from_marker = NULL;
    bad.to_marker = NULL;
    CU_ASSERT_EQUAL(hs_summary_set_window(s, &bad), HS_ERR_INVALID);
    hs_event ev;
    memset(&ev, 0, sizeof ev);
    ev.tag = HS_EV_HEAP_SIZE; /* a GC_START alone is no data (GHC 6.12) */
    ev.known = true;
    ev.u.heap.bytes = 1 << 20;
    CU_ASSERT_EQUAL(hs_summary_add_event(s, &ev), HS_OK);
    hs_summary_window ok;
    hs_summary_window_init(&ok);
    ok.from_ns = 0;
    ok.to_ns = 5;
    ok.from_marker = NULL;
    ok.to_marker = NULL;
    CU_ASSERT_EQUAL(hs_summary_set_window(s, &ok), HS_ERR_MISUSE);
    hs_membuf m = {0};
    hs_sink k = hs_membuf_sink(&m);
    CU_ASSERT_EQUAL(hs_summary_render_text(s, &k), HS_ERR_MISUSE);
    CU_ASSERT_EQUAL(hs_summary_finish(s), HS_OK);
    CU_ASSERT_EQUAL(hs_summary_add_event(s, &ev), HS_ERR_MISUSE);
    /* the first error is kept: the bad window, not the later misuses */
    CU_ASSERT_EQUAL(hs_summary_error(s)->code, HS_ERR_INVALID);
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_summary_error(s)->message,
                                  "ends before it starts"));
    hs_membuf_free(&m);
    hs_summary_free(s);
    hs_summary_free(NULL);
}

/* GHC 6.12's layout: collections marked by GC_START and GC_END only, no
 * statistics events. Nothing of +RTS -s can be computed, and the reason
 * given is the old runtime, not a missing event class. */
static void test_ghc612_no_statistics(void)
{
    evw w;
    evw_start_ghc612(&w);
    evw_event(&w, HS_EV_STARTUP, 100, 0);
    evw_u16(&w, 1);
    size_t b = evw_block(&w, 200, 0);
    evw_event(&w, HS_EV_CREATE_THREAD, 300, 0);
    evw_u64(&w, 1);
    evw_event(&w, HS_EV_GC_START, 400, 0);
    evw_event(&w, HS_EV_GC_END, 500, 0);
    evw_block_end(&w, b, 500);
    evw_data_end(&w);
    int fin;
    hs_summary *s = summarise(w.data, w.len, 7, NULL, &fin);
    CU_ASSERT_EQUAL(fin, HS_ERR_NO_DATA);
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_summary_error(s)->message,
                                  "no GC statistics"));
    CU_ASSERT_PTR_NULL(strstr(hs_summary_error(s)->message, "event class"));
    char *text = summary_render(s, false);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "older runtimes"));
    CU_ASSERT_PTR_NULL(strstr(text, "recorded without"));
    CU_ASSERT_EQUAL(hs_summary_get_stats(s)->total_ns, 500);
    free(text);
    hs_summary_free(s);
    evw_free(&w);
}

/* ---- real samples against +RTS -s -------------------------------------- */

static uint64_t num_before(const char *text, const char *what, bool *found)
{
    const char *p = strstr(text, what);
    *found = p != NULL;
    if (!p)
        return 0;
    const char *line = p;
    while (line > text && line[-1] != '\n')
        line--;
    uint64_t v = 0;
    for (const char *q = line; q < p; q++)
        if (*q >= '0' && *q <= '9')
            v = v * 10 + (uint64_t)(*q - '0');
    return v;
}

/* Each generation's line of +RTS -s against the summary's; the number
 * of differences. */
static int check_gens(const char *text, const hs_summary_stats *st)
{
    int bad = 0;
    for (uint32_t g = 0; g < st->n_gens; g++) {
        char key[32];
        snprintf(key, sizeof key, "  Gen %2u ", g);
        const char *p = strstr(text, key);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        unsigned colls = 0, par = 0;
        double cpu, el, avg, max;
        CU_ASSERT_EQUAL(sscanf(p + strlen(key), "%u colls, %u par %lfs "
                               "%lfs %lfs %lfs", &colls, &par, &cpu, &el,
                               &avg, &max), 6);
        CU_ASSERT_EQUAL(colls, st->gens[g].collections);
        CU_ASSERT_EQUAL(par, st->gens[g].par_collections);
        /* printed to 3 and 4 decimals from the same nanoseconds */
        CU_ASSERT_DOUBLE_EQUAL(el, st->gens[g].elapsed_ns / 1e9, 0.0005);
        CU_ASSERT_DOUBLE_EQUAL(max, st->gens[g].max_pause_ns / 1e9, 0.00005);
        if (colls != st->gens[g].collections || par !=
            st->gens[g].par_collections)
            bad++;
    }
    return bad;
}

/* The nonmoving collector's syncs (markers-nonmoving) against the
 * summary's; the number of differences. */
static int check_nonmoving_syncs(const char *text,
                                 const hs_summary_stats *st)
{
    int bad = 0;
    const char *p = strstr(text, " syncs, ");
    CU_ASSERT_EQUAL(st->has_nonmoving_syncs, p != NULL);
    if (p) {
        while (p > text && p[-1] != '\n')
            p--;
        unsigned gen = 0, n = 0;
        double el = 0, avg = 0, max = 0;
        CU_ASSERT_EQUAL(sscanf(p, "  Gen %u %u syncs, %lfs %lfs %lfs", &gen,
                               &n, &el, &avg, &max), 5);
        CU_ASSERT_EQUAL(gen + 1, st->n_gens);
        CU_ASSERT_EQUAL(n, st->major_gcs);
        CU_ASSERT_DOUBLE_EQUAL(el, st->nonmoving_sync_ns / 1e9, 0.0005);
        CU_ASSERT_DOUBLE_EQUAL(max, st->nonmoving_sync_max_ns / 1e9, 0.00005);
        if (fabs(el - st->nonmoving_sync_ns / 1e9) > 0.0005)
            bad++;
    }
    return bad;
}

static void check_sample(const char *dir, const char *name)
{
    char path[4096 + 512];
    size_t slen, elen;
    snprintf(path, sizeof path, "%s/%s.stat", dir, name);
    uint8_t *stat = tu_slurp(path, &slen);
    snprintf(path, sizeof path, "%s/%s.eventlog", dir, name);
    uint8_t *log = tu_slurp(path, &elen);
    if (!stat || !log) {
        free(stat);
        free(log);
        return;
    }
    char *text = malloc(slen + 1);
    memcpy(text, stat, slen);
    text[slen] = 0;
    int fin;
    hs_summary *s = summarise(log, elen, 1 << 16, NULL, &fin);
    CU_ASSERT_EQUAL(fin, HS_OK);
    const hs_summary_stats *st = hs_summary_get_stats(s);
    bool f;
    uint64_t v;
    int bad = 0;
#define SAME(what, got) do { v = num_before(text, what, &f); \
        CU_ASSERT_TRUE(f); CU_ASSERT_EQUAL((got), v); \
        if (!f || (got) != v) { bad++; printf("\n%s: %s: %llu, +RTS -s %llu", \
            name, what, (unsigned long long)(got), (unsigned long long)v); } \
    } while (0)
    SAME(" bytes allocated in the heap", st->allocated_bytes);
    SAME(" bytes copied during GC", st->copied_bytes);
    SAME(" bytes maximum residency", st->max_live_bytes);
    SAME(" bytes maximum slop", st->max_slop_bytes);
    SAME(" MiB total memory in use", st->max_mem_in_use_bytes >> 20);
#undef SAME
    const char *p = strstr(text, "bytes maximum residency (");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(strtoull(p + strlen("bytes maximum residency ("), NULL,
                             10), st->major_gcs);
    bad += check_gens(text, st);
    bad += check_nonmoving_syncs(text, st);
    p = strstr(text, "Parallel GC work balance: ");
    if (p) {
        double wb = strtod(p + strlen("Parallel GC work balance: "), NULL);
        CU_ASSERT_TRUE(st->has_work_balance);
        CU_ASSERT_DOUBLE_EQUAL(st->work_balance * 100, wb, 0.005);
    }
    printf("\n  %s: %s", name, bad ? "DIFFERS" : "equal to +RTS -s");
    hs_summary_free(s);
    free(text);
    free(stat);
    free(log);
}

static void test_samples(void)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/samples", tu_source_dir());
    DIR *d = opendir(dir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len > 5 && strcmp(e->d_name + len - 5, ".stat") == 0) {
            char name[256];
            snprintf(name, sizeof name, "%.*s", (int)(len - 5), e->d_name);
            check_sample(dir, name);
            n++;
        }
    }
    closedir(d);
    CU_ASSERT(n >= 1);
    printf("\n  %d samples checked\n", n);
}

static void test_threaded_sample(void)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/samples/markers-hc.eventlog",
             tu_source_dir());
    size_t len;
    uint8_t *log = tu_slurp(path, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    int fin;
    hs_summary *s = summarise(log, len, 1 << 16, NULL, &fin);
    const hs_summary_stats *st = hs_summary_get_stats(s);
    CU_ASSERT_TRUE(st->threaded);
    CU_ASSERT_TRUE(st->n_caps >= 2);
    CU_ASSERT_TRUE(st->gens[0].par_collections > 0);
    CU_ASSERT_TRUE(st->has_work_balance);
    CU_ASSERT_TRUE(st->work_balance > 0 && st->work_balance <= 1);
    CU_ASSERT_TRUE(st->has_sparks);
    CU_ASSERT_TRUE(hs_summary_marker_count(s) >= 2);
    /* the phases' allocations add up to no more than the run's */
    uint64_t f, t;
    hs_str a = {"phase 1 start", 13}, b = {"phase 2 start", 13};
    CU_ASSERT_EQUAL_FATAL(hs_summary_marker_window(s, a, b, &f, &t, NULL),
                          HS_OK);
    hs_summary_window w;
    hs_summary_window_init(&w);
    w.from_ns = f;
    w.to_ns = t;
    w.from_marker = "phase 1 start";
    w.to_marker = "phase 2 start";
    hs_summary *p = summarise(log, len, 1 << 16, &w, &fin);
    const hs_summary_stats *ps = hs_summary_get_stats(p);
    CU_ASSERT_TRUE(ps->allocated_bytes > 0 &&
                   ps->allocated_bytes < st->allocated_bytes);
    CU_ASSERT_TRUE(ps->gens[0].collections > 0 &&
                   ps->gens[0].collections < st->gens[0].collections);
    CU_ASSERT_EQUAL(ps->total_ns, t - f);
    hs_summary_free(p);
    hs_summary_free(s);
    free(log);
}

static void test_corpus(void)
{
    const char *dir = tu_corpus_dir();
    if (!dir) {
        tu_skip("no corpus at $HEAPSCOPE_SHARED_DIR/corpus/ghc-events");
        return;
    }
    static const char *const names[] = {"parallelTest", "hello-ghc-8.2.2",
                                        "hello-ghc-8.6.5"};
    for (size_t i = 0; i < 3; i++) {
        char path[4096 + 64];
        snprintf(path, sizeof path, "%s/%s.eventlog", dir, names[i]);
        size_t len;
        uint8_t *log = tu_slurp(path, &len);
        if (!log) {
            printf("\n  note: %s missing, skipped", names[i]);
            continue;
        }
        int fin;
        hs_summary *s = summarise(log, len, 4096, NULL, &fin);
        CU_ASSERT_EQUAL(fin, HS_OK);
        const hs_summary_stats *st = hs_summary_get_stats(s);
        CU_ASSERT_TRUE(st->has_gc && st->has_allocated && st->has_pauses);
        char *t = summary_render(s, false);
        CU_ASSERT_PTR_NOT_NULL(strstr(t, "bytes allocated in the heap"));
        free(t);
        hs_summary_free(s);
        free(log);
    }
}

int main(void)
{
    static const tu_test tests[] = {
        {"misuse", test_misuse},
        {"GHC 6.12: no statistics events", test_ghc612_no_statistics},
        {"samples against +RTS -s", test_samples},
        {"threaded sample", test_threaded_sample},
        {"corpus logs", test_corpus},
        {NULL, NULL},
    };
    return tu_main("summary_logs", NULL, NULL, tests);
}
