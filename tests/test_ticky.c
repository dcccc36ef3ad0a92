/*
 * Ticky-ticky counters (heapscope/ticky.h, hs_render_ticky): the corpus's
 * ticky logs against ghc-events' dumps of them, and logs written here:
 * definitions after the samples, many samples, logs without BEGIN_SAMPLE,
 * names with odd bytes, and a log cut at every byte of its ticky events.
 */
#include "evwriter.h"
#include "testutil.h"
#include <heapscope/heapscope.h>

#include <CUnit/Basic.h>

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- helpers ------------------------------------------------------- */

/* A census of data[0 .. len), finished as complete when the reader got to
 * the end of data. */
static hs_census *census_of_bytes(const uint8_t *data, size_t len)
{
    hs_census *c = hs_census_new();
    hs_reader *r = hs_reader_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    hs_reader_feed(r, data, len);
    hs_event ev;
    int st;
    while ((st = hs_reader_next(r, &ev)) == HS_EVENT)
        CU_ASSERT_EQUAL(hs_census_add_event(c, &ev), HS_OK);
    st = hs_reader_finish(r);
    CU_ASSERT_EQUAL(hs_census_finish(c, st == HS_DONE), HS_OK);
    hs_reader_free(r);
    return c;
}

static const hs_ticky_counter *by_id(const hs_census *c, uint64_t id,
                                     size_t *index)
{
    for (size_t i = 0; i < hs_census_ticky_count(c); i++)
        if (hs_census_ticky_at(c, i)->id == id) {
            if (index)
                *index = i;
            return hs_census_ticky_at(c, i);
        }
    return NULL;
}

static void start_log(evw *w)
{
    evw_init(w);
    evw_header_begin(w);
    evw_declare_ghc92(w);
    evw_declare_tag(w, HS_EV_TICKY_COUNTER_DEF);
    evw_declare_tag(w, HS_EV_TICKY_COUNTER_SAMPLE);
    evw_declare_tag(w, HS_EV_TICKY_COUNTER_BEGIN_SAMPLE);
    evw_header_end(w);
}

static size_t begin_sample(evw *w, uint64_t t)
{
    hs_event ev = {0};
    ev.tag = HS_EV_TICKY_COUNTER_BEGIN_SAMPLE;
    return evw_write(w, t, &ev);
}

static size_t sample(evw *w, uint64_t t, uint64_t id, uint64_t e, uint64_t a,
                     uint64_t d)
{
    hs_event ev = {0};
    ev.tag = HS_EV_TICKY_COUNTER_SAMPLE;
    ev.u.ticky_sample.id = id;
    ev.u.ticky_sample.entries = e;
    ev.u.ticky_sample.allocs = a;
    ev.u.ticky_sample.allocd = d;
    return evw_write(w, t, &ev);
}

static size_t define(evw *w, uint64_t t, uint64_t id, uint16_t arity,
                     const char *kinds, const char *name, uint64_t itbl)
{
    hs_event ev = {0};
    ev.tag = HS_EV_TICKY_COUNTER_DEF;
    ev.u.ticky_def.id = id;
    ev.u.ticky_def.arity = arity;
    ev.u.ticky_def.kinds = (hs_str){kinds, strlen(kinds)};
    ev.u.ticky_def.name = (hs_str){name, strlen(name)};
    ev.u.ticky_def.info_table = itbl;
    ev.u.ticky_def.has_info_table = true;
    ev.u.ticky_def.json = (hs_str){"", 0};
    return evw_write(w, t, &ev);
}

static char *render(const hs_census *c, hs_ticky_format f, size_t *len)
{
    hs_membuf m = {0};
    hs_sink sink = hs_membuf_sink(&m);
    hs_ticky_options o;
    hs_ticky_options_init(&o);
    o.format = f;
    CU_ASSERT_EQUAL(hs_render_ticky(c, &sink, &o), HS_OK);
    char *s = malloc(m.len + 1);
    memcpy(s, m.data ? m.data : "", m.len);
    s[m.len] = 0;
    *len = m.len;
    hs_membuf_free(&m);
    return s;
}

/* ---- the corpus against ghc-events' dumps --------------------------- */

#define MAXC 64
typedef struct ref {
    size_t n, begins, samples;
    struct { uint64_t id, e, a, d; int arity; char name[256]; } c[MAXC];
} ref;

static size_t ref_slot(ref *r, uint64_t id)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->c[i].id == id)
            return i;
    CU_ASSERT_FATAL(r->n < MAXC);
    memset(&r->c[r->n], 0, sizeof r->c[0]);
    r->c[r->n].id = id;
    r->c[r->n].arity = -1;
    return r->n++;
}

/* Sums and definitions from the dump's lines, as ghc-events prints them:
 * "T: ticky counter sample ID: entry count: E, A allocs, D allocd" and
 * "T: ticky counter definition ID, arity: N, def kinds: K, name: NAME,
 * itbl: X". */
static void read_ref(const char *text, ref *r)
{
    memset(r, 0, sizeof *r);
    char l[4096];
    for (const char *at = text; *at;) {
        size_t len = strcspn(at, "\n");
        snprintf(l, sizeof l, "%.*s", (int)len, at);
        at += len + (at[len] == '\n');
        uint64_t id, e, a, d;
        int arity;
        const char *p;
        if ((p = strstr(l, ": ticky counter sample ")) &&
            sscanf(p, ": ticky counter sample %" SCNu64 ": entry count: %"
                   SCNu64 ", %" SCNu64 " allocs, %" SCNu64 " allocd",
                   &id, &e, &a, &d) == 4) {
            size_t k = ref_slot(r, id);
            r->c[k].e += e;
            r->c[k].a += a;
            r->c[k].d += d;
            r->samples++;
        } else if ((p = strstr(l, ": ticky counter definition ")) &&
                   sscanf(p, ": ticky counter definition %" SCNu64
                          ", arity: %d", &id, &arity) == 2) {
            size_t k = ref_slot(r, id);
            r->c[k].arity = arity;
            const char *nm = strstr(p, ", name: ") + 8;
            const char *end = strstr(nm, ", itbl: ");
            CU_ASSERT_FATAL(end != NULL);
            snprintf(r->c[k].name, sizeof r->c[k].name, "%.*s",
                     (int)(end - nm), nm);
        } else if (strstr(l, ": ticky begin counter sample")) {
            r->begins++;
        }
    }
}

static void check_corpus_log(const char *dir, const char *name)
{
    char path[1024], refpath[1100];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(refpath, sizeof refpath, "%s.reference", path);
    char *text = tu_slurp(refpath, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    ref *r = calloc(1, sizeof *r);
    read_ref(text, r);
    free(text);
    hs_census *c = hs_census_new();
    hs_error err;
    int fd = open(path, O_RDONLY);
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT(hs_census_load_fd(c, fd, &err) >= 0);
    close(fd);
    CU_ASSERT(hs_census_has_ticky(c));
    CU_ASSERT_EQUAL(hs_census_ticky_count(c), r->n);
    for (size_t k = 0; k < r->n; k++) {
        size_t i;
        const hs_ticky_counter *t = by_id(c, r->c[k].id, &i);
        CU_ASSERT_PTR_NOT_NULL_FATAL(t);
        CU_ASSERT_EQUAL(t->entries, r->c[k].e);
        CU_ASSERT_EQUAL(t->allocs, r->c[k].a);
        CU_ASSERT_EQUAL(t->allocd, r->c[k].d);
        CU_ASSERT_EQUAL(t->defined, r->c[k].arity >= 0);
        if (r->c[k].arity >= 0) {
            CU_ASSERT_EQUAL(t->arity, r->c[k].arity);
            CU_ASSERT_STRING_EQUAL(t->name, r->c[k].name);
        }
        /* the points add up to the sums */
        const hs_ticky_point *p;
        size_t np = hs_census_ticky_points(c, i, &p);
        uint64_t e = 0;
        for (size_t j = 0; j < np; j++)
            e += p[j].entries;
        CU_ASSERT_EQUAL(e, t->entries);
    }
    /* a sample per BEGIN_SAMPLE; a log without them, one per run */
    size_t want = r->begins ? r->begins : r->samples ? 1 : 0;
    CU_ASSERT_EQUAL(hs_census_ticky_sample_count(c), want);
    printf("  %s: %zu counters, %zu samples\n", name, r->n,
           hs_census_ticky_sample_count(c));
    hs_census_free(c);
    free(r);
}

static void test_corpus(void)
{
    const char *dir = tu_corpus_dir();
    if (!dir) {
        tu_skip("no corpus at $HEAPSCOPE_SHARED_DIR/corpus/ghc-events");
        return;
    }
    static const char *const logs[] = {
        "ticky-begin-sample.eventlog", "ticky-json.eventlog",
        "ticky-new.eventlog", "ticky-ticky.eventlog"};
    for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++)
        check_corpus_log(dir, logs[i]);
}

/* ---- logs written here --------------------------------------------- */

#define NCTR 40
#define NSAMP 300

/* Counter k's figures in sample s; 0 0 0 (not written, as the runtime
 * skips a counter that did not move) for some. */
static uint64_t fig(size_t k, size_t s, int which)
{
    if ((k + s) % 7 == 3)
        return 0;
    return (k + 1) * (which + 1) + s * (k % 5) + (which == 2 ? k * 1000 : 0);
}

static const char *const odd_names[] = {
    "Main.go{v s1bK} (fun)", "bad \xff\xfe utf-8", "ctl\x01\x1b[31m",
    "=cmd|' /C calc'!A0", "quote \" and, comma", "line\nbreak",
    "\xe2\x82\xac euro", ""};

static void write_big(evw *w, bool begins)
{
    start_log(w);
    uint64_t t = 1000;
    for (size_t s = 0; s < NSAMP; s++) {
        if (begins)
            begin_sample(w, t++);
        for (size_t k = 0; k < NCTR; k++) {
            uint64_t e = fig(k, s, 0), a = fig(k, s, 1), d = fig(k, s, 2);
            if (e || a || d)
                sample(w, t++, 0x4000 + 16 * k, e, a, d);
        }
    }
    /* definitions at exit; the last counter never defined, one more
     * defined and never sampled */
    for (size_t k = 0; k + 1 < NCTR; k++)
        define(w, t++, 0x4000 + 16 * k, (uint16_t)(k % 4), k % 2 ? "M" : "",
               odd_names[k % 8], 0);
    define(w, t++, 0x9999, 2, "pp", "never sampled", 0);
    evw_data_end(w);
}

static void check_big(bool begins)
{
    evw w;
    write_big(&w, begins);
    hs_census *c = census_of_bytes(w.data, w.len);
    CU_ASSERT_EQUAL(hs_census_ticky_count(c), NCTR + 1);
    /* A log without BEGIN_SAMPLE: a counter seen again opens the next
     * sample; counter 0 moves in all but a seventh of them. */
    if (begins)
        CU_ASSERT_EQUAL(hs_census_ticky_sample_count(c), NSAMP);
    for (size_t k = 0; k < NCTR; k++) {
        uint64_t e = 0, a = 0, d = 0, n = 0;
        for (size_t s = 0; s < NSAMP; s++) {
            e += fig(k, s, 0);
            a += fig(k, s, 1);
            d += fig(k, s, 2);
            n += fig(k, s, 0) != 0;
        }
        size_t i;
        const hs_ticky_counter *t = by_id(c, 0x4000 + 16 * k, &i);
        CU_ASSERT_PTR_NOT_NULL_FATAL(t);
        CU_ASSERT_EQUAL(t->entries, e);
        CU_ASSERT_EQUAL(t->allocs, a);
        CU_ASSERT_EQUAL(t->allocd, d);
        CU_ASSERT_EQUAL(t->samples, n);
        CU_ASSERT_EQUAL(t->defined, k + 1 < NCTR);
        if (k + 1 < NCTR)
            CU_ASSERT_STRING_EQUAL(t->name, odd_names[k % 8]);
        const hs_ticky_point *p;
        CU_ASSERT_EQUAL(hs_census_ticky_points(c, i, &p), n);
        for (size_t j = 1; j < n; j++)
            CU_ASSERT(p[j].sample > p[j - 1].sample);
    }
    const hs_ticky_counter *never = by_id(c, 0x9999, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(never);
    CU_ASSERT(never->defined && never->samples == 0 && never->entries == 0);
    /* most allocd first, then most entries */
    for (size_t i = 1; i < hs_census_ticky_count(c); i++) {
        const hs_ticky_counter *x = hs_census_ticky_at(c, i - 1),
                               *y = hs_census_ticky_at(c, i);
        CU_ASSERT(x->allocd > y->allocd ||
                  (x->allocd == y->allocd && x->entries >= y->entries));
    }
    hs_census_free(c);
    evw_free(&w);
}

static void test_late_definitions(void) { check_big(true); }

static void test_no_begin_sample(void)
{
    check_big(false);
    /* runs: counters 1 2 | 1 | 2 1 */
    evw w;
    start_log(&w);
    sample(&w, 10, 1, 1, 0, 0);
    sample(&w, 11, 2, 1, 0, 0);
    sample(&w, 20, 1, 1, 0, 0);
    sample(&w, 30, 2, 1, 0, 0);
    sample(&w, 31, 1, 1, 0, 0);
    evw_data_end(&w);
    hs_census *c = census_of_bytes(w.data, w.len);
    CU_ASSERT_EQUAL(hs_census_ticky_sample_count(c), 3);
    CU_ASSERT_EQUAL(hs_census_ticky_sample_time(c, 1), 20);
    CU_ASSERT_EQUAL(by_id(c, 1, NULL)->entries, 3);
    CU_ASSERT_EQUAL(by_id(c, 1, NULL)->defined, false);
    hs_census_free(c);
    evw_free(&w);
}

static void test_odd_names_out(void)
{
    evw w;
    write_big(&w, true);
    hs_census *c = census_of_bytes(w.data, w.len);
    size_t n;
    char *json = render(c, HS_TICKY_JSON, &n);
    CU_ASSERT(strncmp(json, "{\"counters\": [", 14) == 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(json, "bad \\ufffd\\ufffd utf-8"));
    CU_ASSERT_PTR_NOT_NULL(strstr(json, "ctl\\u0001\\u001b[31m"));
    CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"id\":39321,\"name\":\"never sampled\""));
    CU_ASSERT_PTR_NULL(memchr(json, 0xff, n));
    free(json);
    char *text = render(c, HS_TICKY_TEXT, &n);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "ctl\\x01\\x1b[31m"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "line\\x0abreak"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "(no definition: counter 0x4270)"));
    free(text);
    char *csv = render(c, HS_TICKY_CSV, &n);
    CU_ASSERT_PTR_NOT_NULL(strstr(csv, ",\"'=cmd|' /C calc'!A0\","));
    CU_ASSERT_PTR_NOT_NULL(strstr(csv, ",\"quote \"\" and, comma\","));
    free(csv);
    hs_census_free(c);
    evw_free(&w);
    /* no ticky events: nothing written */
    evw_start_ghc92(&w);
    evw_data_end(&w);
    c = census_of_bytes(w.data, w.len);
    hs_membuf m = {0};
    hs_sink sink = hs_membuf_sink(&m);
    CU_ASSERT_EQUAL(hs_render_ticky(c, &sink, NULL), HS_ERR_NO_DATA);
    CU_ASSERT_EQUAL(m.len, 0);
    hs_membuf_free(&m);
    hs_census_free(c);
    evw_free(&w);
}

/* Cut at every byte from the first ticky event on: the census has the
 * figures of the sample events wholly before the cut, never more. */
static void test_cut_everywhere(void)
{
    evw w;
    start_log(&w);
    size_t first = w.len, off[64];
    uint64_t e[64] = {0};
    size_t n = 0;
    for (size_t s = 0; s < 3; s++) {
        off[n] = begin_sample(&w, 100 * s + 1);
        e[n++] = 0;
        for (uint64_t k = 1; k <= 4; k++) {
            off[n] = sample(&w, 100 * s + 2 + k, k, k * 10 + s, k, 1);
            e[n++] = k * 10 + s;
        }
    }
    for (uint64_t k = 1; k <= 4; k++) {
        off[n] = define(&w, 1000 + k, k, 1, "M", "name\xff", 0);
        e[n++] = 0;
    }
    off[n] = w.len; /* where the data-end marker begins */
    evw_data_end(&w);
    for (size_t cut = first; cut <= w.len; cut++) {
        uint64_t want = 0, defs = 0;
        for (size_t i = 0; i < n; i++)
            if (off[i + 1] <= cut) { /* event i is whole */
                want += e[i];
                defs += i >= n - 4;
            }
        hs_census *c = census_of_bytes(w.data, cut);
        uint64_t got = 0, got_defs = 0;
        for (size_t i = 0; i < hs_census_ticky_count(c); i++) {
            got += hs_census_ticky_at(c, i)->entries;
            got_defs += hs_census_ticky_at(c, i)->defined;
        }
        CU_ASSERT_EQUAL(got, want);
        CU_ASSERT_EQUAL(got_defs, defs);
        if (got != want || got_defs != defs)
            printf("  cut at byte %zu: %" PRIu64 " entries, want %" PRIu64
                   "\n", cut, got, want);
        hs_census_free(c);
    }
    evw_free(&w);
}

/* The closure of a counter: the IPE record of its definition's info
 * table, whichever comes first; none without a record or a table. */
static void test_closure_from_ipe(void)
{
    evw w;
    start_log(&w);
    sample(&w, 10, 1, 1, 8, 0);
    sample(&w, 11, 2, 2, 16, 0);
    sample(&w, 12, 3, 3, 24, 0);
    define(&w, 20, 1, 1, "M", "go (fun)", 0x5000);
    define(&w, 21, 2, 0, "", "other (fun)", 0x6000);
    define(&w, 22, 3, 0, "", "none (fun)", 0);
    evw_ipe(&w, 30, 0x5000, "go_info", "FUN", "Int -> Int", "go", "Main",
            "Main.hs:3:1-9");
    evw_ipe(&w, 31, 0x7000, "x", "THUNK", "", "", "Other", "Other.hs:1:1");
    evw_data_end(&w);
    hs_census *c = census_of_bytes(w.data, w.len);
    const hs_ticky_counter *go = by_id(c, 1, NULL), *other = by_id(c, 2, NULL),
                           *none = by_id(c, 3, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(go);
    CU_ASSERT_PTR_NOT_NULL_FATAL(other);
    CU_ASSERT_PTR_NOT_NULL_FATAL(none);
    CU_ASSERT(go->has_info_table && go->info_table == 0x5000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(go->closure_desc);
    CU_ASSERT_STRING_EQUAL(go->closure_desc, "FUN");
    CU_ASSERT_STRING_EQUAL(go->type_desc, "Int -> Int");
    CU_ASSERT_STRING_EQUAL(go->module, "Main");
    CU_ASSERT_STRING_EQUAL(go->srcloc, "Main.hs:3:1-9");
    CU_ASSERT_PTR_NULL(other->srcloc);
    CU_ASSERT_PTR_NULL(none->module);
    size_t n;
    char *json = render(c, HS_TICKY_JSON, &n);
    CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"info_table\":20480,\"closure_desc\":"
                                        "\"FUN\",\"type\":\"Int -> Int\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"srcloc\":\"Main.hs:3:1-9\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"module\":null"));
    free(json);
    char *text = render(c, HS_TICKY_TEXT, &n);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "go (fun) at Main.hs:3:1-9\n"));
    free(text);
    hs_census_free(c);
    evw_free(&w);
}

/* A page of many counters and samples: the points stop at 250,000 (the
 * largest counters keep theirs, the rest get null), the figures stay. */
static void test_page_points_budget(void)
{
    enum { NC = 1500, NS = 200 };
    evw w;
    start_log(&w);
    for (uint64_t s = 0; s < NS; s++) {
        begin_sample(&w, 100 * s);
        for (uint64_t k = 0; k < NC; k++)
            sample(&w, 100 * s + 1, k + 1, 1, 1, NC - k);
    }
    evw_data_end(&w);
    hs_census *c = census_of_bytes(w.data, w.len);
    hs_membuf m = {0};
    hs_sink sink = hs_membuf_sink(&m);
    CU_ASSERT_EQUAL_FATAL(hs_render_page_data(c, &sink, NULL), HS_OK);
    size_t nulls = 0, lists = 0;
    for (const char *p = m.data; (p = strstr(p, "\"points\":")); p += 9)
        nulls += p[9] == 'n', lists += p[9] == '[';
    CU_ASSERT_EQUAL(lists, 250000 / NS);
    CU_ASSERT_EQUAL(nulls, NC - 250000 / NS);
    /* the figures of a counter without points are there */
    CU_ASSERT_PTR_NOT_NULL(strstr(m.data, "\"id\":1500,\"name\":\"\",\"arity\":0,"
                                          "\"arg_kinds\":\"\",\"entries\":200,"));
    CU_ASSERT(m.len < 20u << 20);
    hs_membuf_free(&m);
    hs_census_free(c);
    evw_free(&w);
}

/* Every allocation failing in turn: out of memory, nothing leaked. */
static void test_alloc_failures(void)
{
    evw w;
    start_log(&w);
    for (uint64_t s = 0; s < 3; s++) {
        begin_sample(&w, s * 10);
        for (uint64_t k = 1; k <= 3; k++)
            sample(&w, s * 10 + k, k, k, k, k);
    }
    for (uint64_t k = 1; k <= 3; k++)
        define(&w, 100 + k, k, 1, "M", "f", 0);
    evw_data_end(&w);
    for (long left = 0;; left++) {
        tu_failing f = {left, 0, 0};
        hs_allocator a = tu_failing_allocator(&f);
        hs_census *c = hs_census_new_with(&a);
        hs_reader *r = hs_reader_new();
        hs_reader_feed(r, w.data, w.len);
        hs_event ev;
        int st = HS_OK;
        while (st >= 0 && hs_reader_next(r, &ev) == HS_EVENT)
            st = c ? hs_census_add_event(c, &ev) : HS_ERR_NOMEM;
        if (st >= 0 && c)
            st = hs_census_finish(c, true);
        hs_reader_free(r);
        hs_census_free(c);
        CU_ASSERT_EQUAL(f.live, 0);
        if (st >= 0)
            break;
        CU_ASSERT_EQUAL(st, HS_ERR_NOMEM);
    }
    evw_free(&w);
}

int main(void)
{
    static const tu_test tests[] = {
        {"corpus sums equal ghc-events' dumps", test_corpus},
        {"definitions after many samples", test_late_definitions},
        {"samples without BEGIN_SAMPLE", test_no_begin_sample},
        {"odd names in text, CSV and JSON", test_odd_names_out},
        {"cut at every byte of the ticky events", test_cut_everywhere},
        {"closure information from IPE records", test_closure_from_ipe},
        {"the page's points within a budget", test_page_points_budget},
        {"allocation failures", test_alloc_failures},
        {NULL, NULL}};
    return tu_main("ticky", NULL, NULL, tests);
}
