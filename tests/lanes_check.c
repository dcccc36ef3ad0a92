/*
 * The summary's pass in two lanes against the one pass (lanes_check.h):
 * a lent thread of the test's own, and logs made to meet every way the
 * lanes could go wrong: capabilities' state across blocks, the events the
 * calling thread takes from the other lane's blocks, corrupt events and
 * block sizes, and cuts.
 */
#include "lanes_check.h"
#include "lanes_same.h"
#include "evwriter.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The log at byte skip of the file at path, read by pass through loan
 * (NULL: the one pass). */
static void outcome_at(const char *path, off_t skip,
                       const hs_summary_window *w, const hs_thread_loan *loan,
                       lanes_path pass, lanes_outcome *o)
{
    FILE *f = fopen(path, "rb");
    CU_ASSERT_FATAL(f != NULL);
    CU_ASSERT_FATAL(lseek(fileno(f), skip, SEEK_SET) == skip);
    lanes_path_outcome(fileno(f), pass, w, loan, o);
    fclose(f);
}

/* The log both ways, everything compared; how many times the lanes
 * started their thread. */
static int compare_both(const char *path, off_t skip,
                        const hs_summary_window *w, lanes_path pass)
{
    static const char *const name[] = {"summary's", "census's",
                                       "census's (alone)"};
    lanes_loan tl;
    lanes_loan_init(&tl);
    lanes_outcome one, two;
    outcome_at(path, skip, w, NULL, pass, &one);
    outcome_at(path, skip, w, &tl.loan, pass, &two);
    bool same = lanes_same_outcome(&one, &two);
    if (!same)
        printf("\n  %s: the %s lanes differ (%d, %s)\n--- one pass: %d, %s\n"
               "%s--- lanes:\n%s\n", path, name[pass],
               two.st, two.rerr.message, one.st, one.rerr.message, one.text,
               two.text);
    CU_ASSERT(same);
    lanes_outcome_free(&one);
    lanes_outcome_free(&two);
    return tl.starts;
}

static int compare_at(const char *path, off_t skip,
                      const hs_summary_window *w)
{
    return compare_both(path, skip, w, LANES_SUMMARY);
}

int lanes_compare(const char *path, const hs_summary_window *w)
{
    return compare_at(path, 0, w);
}

/* The census's pass with a summary and alone: the lanes start (or not)
 * for both alike. */
static int census_compare_at(const char *path, off_t skip)
{
    int with = compare_both(path, skip, NULL, LANES_CENSUS);
    CU_ASSERT_EQUAL(compare_both(path, skip, NULL, LANES_CENSUS_ALONE), with);
    return with;
}

int lanes_census_compare(const char *path)
{
    return census_compare_at(path, 0);
}

/* --- a -N3 log -------------------------------------------------------- */

enum { LANE_CAPS = 3, ROUNDS = 12, MAX_BLOCKS = ROUNDS * (LANE_CAPS + 1),
       MAX_NOTED = 64 };

typedef struct built {
    evw w;
    uint64_t t;
    bool open[LANE_CAPS];
    uint64_t alloc[LANE_CAPS], sparks[LANE_CAPS];
    size_t block[MAX_BLOCKS];
    size_t nblocks;
    size_t noted[MAX_NOTED]; /* the middle round's capability events */
    bool noted_var[MAX_NOTED];
    uint16_t noted_cap[MAX_NOTED];
    size_t nnoted;
    bool noting;
    uint16_t cap;            /* the block's being written */
    uint64_t cap_bytes[LANE_CAPS];
    int only;                /* >= 0: the one capability with figures */
} built;

static void put(built *b, hs_event ev, uint64_t dt)
{
    ev.known = true;
    size_t at = evw_write(&b->w, b->t += dt, &ev);
    if (b->noting && b->nnoted < MAX_NOTED) {
        b->noted_var[b->nnoted] = ev.tag == HS_EV_USER_MARKER;
        b->noted_cap[b->nnoted] = b->cap;
        b->noted[b->nnoted++] = at;
    }
}

static hs_event heap_ev(uint16_t tag, uint64_t bytes)
{
    hs_event ev = {.tag = tag};
    ev.u.heap.bytes = bytes;
    return ev;
}

/* One collection's end on cap: its statistics (three generations, some
 * parallel) and GC_END. */
static void gc_end(built *b, uint16_t cap, int round, int i)
{
    hs_event st = {.tag = HS_EV_GC_STATS_GHC};
    st.u.gc_stats.gen = (uint16_t)((round + i + cap) % 3);
    st.u.gc_stats.copied = 1000u * (unsigned)round + 7u * cap + (unsigned)i;
    st.u.gc_stats.slop = (uint64_t)(round * 31 + cap * 17) % 400;
    st.u.gc_stats.par_threads = 1 + (uint32_t)((round + cap) % 2);
    st.u.gc_stats.par_max_copied = 300u + (unsigned)round;
    st.u.gc_stats.par_tot_copied = 500u + cap;
    st.u.gc_stats.par_balanced_copied = 200u + (unsigned)i;
    st.u.gc_stats.has_balanced = true;
    if (b->only < 0 || b->only == cap)
        put(b, st, 5);
    put(b, (hs_event){.tag = HS_EV_GC_END},
        20 + (uint64_t)(cap * 13 + round * 7 + i * 29) % 50);
}

/* A block of cap: collections that open in one block and end in a later
 * one, the capability's counters, and the events of the whole log's
 * figures (HEAP_LIVE, USER_MARKER, HEAP_SIZE) among them. */
static void cap_block(built *b, uint16_t cap, int round)
{
    b->block[b->nblocks++] = b->w.len;
    b->cap = cap;
    size_t start = evw_block(&b->w, b->t, cap);
    for (int i = 0; i < 2 + (round + cap) % 3; i++) {
        if (b->open[cap])
            gc_end(b, cap, round, i);
        else
            put(b, (hs_event){.tag = HS_EV_GC_START}, 10);
        b->open[cap] = !b->open[cap];
        b->alloc[cap] += 4096u * (unsigned)(round + 1 + cap);
        if (b->only < 0 || b->only == cap)
            put(b, heap_ev(HS_EV_HEAP_ALLOCATED, b->alloc[cap]), 3);
    }
    if ((round + cap) % 3 == 0)
        put(b, heap_ev(HS_EV_HEAP_LIVE, 10000u + 97u * (unsigned)round *
                                                    (cap + 1u)), 2);
    if ((round + cap) % 4 == 1) {
        hs_event m = {.tag = HS_EV_USER_MARKER};
        char text[32];
        snprintf(text, sizeof text, "mark %d %u", round, cap);
        m.u.msg.text = (hs_str){text, strlen(text)};
        put(b, m, 4);
    }
    if (b->only >= 0 && b->only != cap) {
        evw_block_end(&b->w, start, b->t);
        b->cap_bytes[cap] += b->w.len - start;
        return;
    }
    put(b, heap_ev(HS_EV_HEAP_SIZE, (uint64_t)(1 + (round * cap) % 5) << 20),
        1);
    hs_event sp = {.tag = HS_EV_SPARK_COUNTERS};
    sp.u.spark_counters.created = b->sparks[cap] += (uint64_t)round + cap;
    sp.u.spark_counters.converted = b->sparks[cap] / 2;
    put(b, sp, 6);
    evw_block_end(&b->w, start, b->t);
    b->cap_bytes[cap] += b->w.len - start;
}

/* A block of one event: the log ends with small blocks, to cut at every
 * byte of its last ones. */
static void small_block(built *b, uint16_t cap, hs_event ev)
{
    b->block[b->nblocks++] = b->w.len;
    size_t start = evw_block(&b->w, b->t, cap);
    put(b, ev, 7);
    evw_block_end(&b->w, start, b->t);
}

/* The log; only >= 0 makes that capability the one whose blocks hold
 * the statistics, counters and heap sizes, so that every
 * figure of the whole log comes from one lane or the other. */
static void build_log(built *b, int only)
{
    memset(b, 0, sizeof *b);
    b->only = only;
    evw_init(&b->w);
    evw_header_begin(&b->w);
    evw_declare_ghc92(&b->w);
    evw_declare_tag(&b->w, HS_EV_SPARK_COUNTERS);
    evw_header_end(&b->w);
    b->t = 1000;
    hs_event id = {.tag = HS_EV_RTS_IDENTIFIER, .known = true};
    id.u.rts_identifier.text = (hs_str){"GHC-9.2.8 rts_thr", 17};
    evw_write(&b->w, b->t, &id);
    for (int round = 0; round < ROUNDS; round++) {
        for (uint16_t cap = 0; cap < LANE_CAPS; cap++) {
            b->noting = round == ROUNDS / 2;
            cap_block(b, (uint16_t)((cap + (unsigned)round) % LANE_CAPS),
                      round);
            b->noting = false;
        }
        if (round % 2) { /* the global buffer: heap figures, no capability */
            b->block[b->nblocks++] = b->w.len;
            size_t g = evw_block(&b->w, b->t, 0xffff);
            put(b, heap_ev(HS_EV_HEAP_LIVE, 5000u + (unsigned)round), 2);
            if (only < 0)
                put(b, heap_ev(HS_EV_HEAP_SIZE, (uint64_t)round << 19), 2);
            evw_block_end(&b->w, g, b->t);
        }
    }
    for (uint16_t cap = 0; cap < LANE_CAPS; cap++)
        small_block(b, cap, (hs_event){.tag = b->open[cap] ? HS_EV_GC_END
                                                           : HS_EV_GC_START});
    small_block(b, 0xffff, heap_ev(HS_EV_HEAP_LIVE, 4242));
    evw_data_end(&b->w);
}

static void write_log(const char *path, const uint8_t *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    CU_ASSERT_FATAL(f != NULL);
    CU_ASSERT_FATAL(fwrite(data, 1, len, f) == len);
    fclose(f);
}

/* The log with the n bytes at `at` set to v's lowest, big-endian, both
 * ways (the census's pass too when `census`). */
static void compare_patched(const char *path, const built *b, size_t at,
                            uint32_t v, int n, bool census)
{
    uint8_t *copy = malloc(b->w.len);
    CU_ASSERT_FATAL(copy != NULL);
    memcpy(copy, b->w.data, b->w.len);
    for (int i = 0; i < n; i++)
        copy[at + (size_t)i] = (uint8_t)(v >> (8 * (n - 1 - i)));
    write_log(path, copy, b->w.len);
    lanes_compare(path, NULL);
    if (census)
        lanes_census_compare(path);
    free(copy);
}

/* The capability with the most bytes: lane 1's first (the log ends with
 * the global buffer's block, so no capability is held in lane 0). */
static uint16_t lane1_cap(const built *b)
{
    uint16_t big = 0;
    for (uint16_t c = 1; c < LANE_CAPS; c++)
        big = b->cap_bytes[c] > b->cap_bytes[big] ? c : big;
    return big;
}

/* Every event of lane 1's middle block made undeclared (the census's
 * pass too), a block marker and (a variable one) longer than its block;
 * the first of the other capabilities' middle blocks made undeclared. */
static void corrupt_events(const char *path, const built *b)
{
    uint16_t big = lane1_cap(b);
    for (size_t i = 0; i < b->nnoted; i++) {
        bool first = i == 0 || b->noted_cap[i - 1] != b->noted_cap[i];
        bool lane1 = b->noted_cap[i] == big;
        if (first || lane1)
            compare_patched(path, b, b->noted[i], 0x7fff, 2, lane1);
        if (!lane1)
            continue;
        compare_patched(path, b, b->noted[i], HS_EV_BLOCK_MARKER, 2, false);
        if (b->noted_var[i])
            compare_patched(path, b, b->noted[i] + 10, 0xfff0, 2, false);
    }
}

/* Block sizes that end inside an event or past the next block's start. */
static void off_sizes(const char *path, const built *b)
{
    static const int by[] = {-1, 3, 24};
    for (size_t k = ROUNDS / 2 * 4; k < ROUNDS / 2 * 4 + 4; k++) {
        const uint8_t *p = b->w.data + b->block[k] + 10;
        uint32_t size = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
                        (uint32_t)p[2] << 8 | p[3];
        for (size_t i = 0; i < sizeof by / sizeof by[0]; i++)
            compare_patched(path, b, b->block[k] + 10,
                            size + (uint32_t)by[i], 4, false);
    }
}

/* The log cut at every byte of its last two blocks (a capability's and
 * the global buffer's); the census's pass at every byte of the last. */
static void cuts(const char *path, const built *b)
{
    write_log(path, b->w.data, b->w.len);
    for (size_t len = b->w.len; len > b->block[b->nblocks - 2]; len--) {
        CU_ASSERT_FATAL(truncate(path, (off_t)len - 1) == 0);
        lanes_compare(path, NULL);
        if (len > b->block[b->nblocks - 1]) /* the census: the last block */
            lanes_census_compare(path);
    }
}

static void *al_malloc(void *user, size_t n) { (void)user; return malloc(n); }
static void *al_realloc(void *user, void *p, size_t n)
{
    (void)user;
    return realloc(p, n);
}
static void al_free(void *user, void *p) { (void)user; free(p); }

/* A loan not set up by hs_thread_loan_init is refused; a summary, or a
 * census alone, with an allocator of the caller's is read in one lane
 * (the loan unused). */
static void loan_refused(const char *path)
{
    lanes_loan tl;
    lanes_loan_init(&tl);
    const hs_allocator al = {al_malloc, al_realloc, al_free, NULL};
    for (int k = 0; k < 2; k++) {
        FILE *f = fopen(path, "rb");
        hs_summary *s = k ? hs_summary_new_with(&al) : hs_summary_new();
        hs_reader *r = hs_reader_new();
        CU_ASSERT_FATAL(f && s && r);
        hs_thread_loan loan = tl.loan;
        if (!k) /* not set up by hs_thread_loan_init */
            loan.size = 0;
        int st = hs_summary_load_fd_lent(s, r, fileno(f), &loan);
        CU_ASSERT_EQUAL(st, k ? HS_DONE : HS_ERR_INVALID);
        CU_ASSERT_EQUAL(hs_summary_error(s)->code, k ? HS_OK : HS_ERR_INVALID);
        CU_ASSERT_EQUAL(tl.starts, 0);
        hs_reader_free(r);
        hs_summary_free(s);
        fclose(f);
    }
    FILE *f = fopen(path, "rb");
    hs_census *c = hs_census_new_with(&al);
    CU_ASSERT_FATAL(f && c);
    hs_error err;
    CU_ASSERT_EQUAL(hs_census_load_summary_fd_lent(c, NULL, fileno(f),
                                                   &tl.loan, &err), HS_OK);
    CU_ASSERT(hs_census_get_info(c)->events > 0);
    CU_ASSERT_EQUAL(tl.starts, 0);
    hs_census_free(c);
    fclose(f);
}

void test_lanes_built(void)
{
    built b;
    char path[] = "/tmp/heapscope-lanes-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    for (int only = 0; only < LANE_CAPS; only++) {
        build_log(&b, only);
        write_log(path, b.w.data, b.w.len);
        CU_ASSERT_EQUAL(lanes_compare(path, NULL), 1);
        CU_ASSERT_EQUAL(lanes_census_compare(path), 1);
        evw_free(&b.w);
    }
    build_log(&b, -1);
    write_log(path, b.w.data, b.w.len);
    CU_ASSERT_EQUAL(lanes_compare(path, NULL), 1);
    hs_summary_window win;
    hs_summary_window_init(&win);
    win.from_ns = 1000 + (b.t - 1000) / 4;
    win.to_ns = 1000 + (b.t - 1000) * 3 / 4;
    CU_ASSERT_EQUAL(lanes_compare(path, &win), 1);
    /* read from where the fd stands: the log after 8 other bytes */
    uint8_t *after = malloc(b.w.len + 8);
    CU_ASSERT_FATAL(after != NULL);
    memcpy(after, "8 bytes.", 8);
    memcpy(after + 8, b.w.data, b.w.len);
    write_log(path, after, b.w.len + 8);
    CU_ASSERT_EQUAL(compare_at(path, 8, NULL), 1);
    CU_ASSERT_EQUAL(census_compare_at(path, 8), 1);
    free(after);
    write_log(path, b.w.data, b.w.len);
    loan_refused(path);
    corrupt_events(path, &b);
    off_sizes(path, &b);
    cuts(path, &b);
    unlink(path);
    evw_free(&b.w);
}
