/*
 * The library's error contract across its objects: out of memory at any
 * point of building a census or a summary is HS_ERR_NOMEM, kept as the
 * first error, with the offset and index of the event being added (the
 * census used to clear them); later calls return the same error and
 * change nothing; informational codes are not errors.
 */
#include <heapscope/heapscope.h>

#include "testutil.h"

#include <CUnit/Basic.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint8_t *sample(size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/samples/leak-hc.eventlog",
             tu_source_dir());
    uint8_t *log = tu_slurp(path, len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    return log;
}

/* Fails the census's allocations at every n up to the first that builds
 * the whole sample, sampling n sparsely past the first few hundred. */
static void test_census_nomem_where(void)
{
    size_t len;
    uint8_t *log = sample(&len);
    bool built = false;
    int located = 0;
    for (long n = 0; !built && n < 200000; n += n < 300 ? 1 : n / 8) {
        tu_failing f = {n, 0, 0};
        hs_allocator a = tu_failing_allocator(&f);
        hs_census *c = hs_census_new_with(&a);
        if (!c)
            continue;
        hs_reader *r = hs_reader_new();
        hs_reader_feed(r, log, len);
        hs_event ev, bad = {0};
        int st = HS_OK;
        while (st == HS_OK && hs_reader_next(r, &ev) == HS_EVENT)
            if ((st = hs_census_add_event(c, &ev)) != HS_OK)
                bad = ev;
        if (st == HS_OK)
            st = hs_census_finish(c, true);
        if (st == HS_OK) {
            built = true;
        } else {
            const hs_error *e = hs_census_error(c);
            CU_ASSERT_EQUAL(st, HS_ERR_NOMEM);
            CU_ASSERT_EQUAL(e->code, HS_ERR_NOMEM);
            if (bad.tag || bad.offset) {
                /* failed while adding an event: that event is named */
                CU_ASSERT_EQUAL(e->offset, bad.offset);
                CU_ASSERT_EQUAL(e->event_index, bad.index);
                located++;
            }
            /* sticky: the next event changes nothing */
            CU_ASSERT_EQUAL(hs_census_add_event(c, &ev), HS_ERR_NOMEM);
            CU_ASSERT_EQUAL(e->event_index, bad.tag || bad.offset
                                                ? bad.index : e->event_index);
        }
        hs_reader_free(r);
        hs_census_free(c);
        CU_ASSERT_EQUAL(f.live, 0);
    }
    CU_ASSERT_TRUE(built);
    CU_ASSERT_TRUE(located > 10);
    free(log);
}

/* An hs_error holding a stale error, as a caller's reused variable may. */
static hs_error stale(void)
{
    hs_error e;
    memset(&e, 0x5a, sizeof e);
    e.code = HS_ERR_MALFORMED_EVENT;
    e.message[sizeof e.message - 1] = 0;
    return e;
}

static hs_census *load_sample(const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/samples/%s", tu_source_dir(), name);
    FILE *f = fopen(path, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    hs_census *c = hs_census_new();
    CU_ASSERT_EQUAL_FATAL(hs_census_load_fd(c, fileno(f), NULL), HS_OK);
    fclose(f);
    return c;
}

/* Every call that reports into its caller's hs_error takes NULL (live
 * sources and the server wrote through it unchecked) and fills the
 * record whole, with no stale field of what the caller passed. */
static void test_error_param_null(void)
{
    CU_ASSERT_PTR_NULL(hs_live_source_open("tcp:nocolon", NULL, NULL));
    CU_ASSERT_PTR_NULL(hs_live_source_open("/nonexistent/heapscope", NULL,
                                           NULL));
    hs_live_server *srv = hs_live_server_start("not an address", 0, 0, NULL);
    CU_ASSERT_PTR_NULL(srv);
    hs_live_server_stop(srv);
    CU_ASSERT_PTR_NULL(hs_output_open("/nonexistent/dir/out", NULL));
    hs_error e = stale();
    CU_ASSERT_PTR_NULL(hs_live_source_open("tcp:nocolon", NULL, &e));
    CU_ASSERT_EQUAL(e.code, HS_ERR_INVALID);
    CU_ASSERT_STRING_EQUAL(e.message, "tcp:nocolon: expected tcp:HOST:PORT");
    CU_ASSERT_EQUAL(e.offset, 0);
    CU_ASSERT_EQUAL(e.line, 0);
    CU_ASSERT_EQUAL(e.event_index, UINT64_MAX);
    e = stale();
    CU_ASSERT_PTR_NULL(hs_output_open("/nonexistent/dir/out", &e));
    CU_ASSERT_EQUAL(e.code, HS_ERR_IO);
    CU_ASSERT_STRING_EQUAL(e.message, "cannot create a file beside "
                           "/nonexistent/dir/out: No such file or directory");
    CU_ASSERT_EQUAL(e.line, 0);
}

/* A call that succeeds leaves its caller's hs_error empty: a stale error
 * from an earlier call is not reported again. */
static void test_error_param_cleared(void)
{
    char path[] = "/tmp/hs_contract_XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    hs_error e = stale();
    hs_output *o = hs_output_open(path, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o);
    CU_ASSERT_EQUAL(e.code, HS_OK);
    e = stale();
    CU_ASSERT_EQUAL(hs_output_commit(o, &e), HS_OK);
    CU_ASSERT_EQUAL(e.code, HS_OK);
    CU_ASSERT_STRING_EQUAL(e.message, "");
    e = stale();
    hs_live_source *src = hs_live_source_open(path, NULL, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(src);
    char buf[16];
    size_t got;
    e = stale();
    int st = hs_live_source_read(src, buf, sizeof buf, 0, &got, &e);
    CU_ASSERT(st >= 0);
    CU_ASSERT_EQUAL(e.code, HS_OK);
    hs_live_source_close(src);
    unlink(path);

    hs_census *a = load_sample("leak-hc.hp"), *b = load_sample("leak-hc.hp");
    hs_diff *d = NULL;
    e = stale();
    CU_ASSERT_EQUAL(hs_diff_new(a, b, NULL, NULL, &d, &e), HS_OK);
    CU_ASSERT_EQUAL(e.code, HS_OK);
    hs_diff_free(d);
    hs_census_free(a);
    hs_census_free(b);
}

static void test_codes(void)
{
    const int info[] = {HS_OK, HS_NEED_INPUT, HS_EVENT, HS_DONE,
                        HS_TRUNCATED};
    for (size_t i = 0; i < sizeof info / sizeof *info; i++)
        CU_ASSERT_FALSE(HS_IS_ERROR(info[i]));
    for (int code = HS_ERR_INVALID; code <= HS_ERR_BAD_MAGIC; code++) {
        CU_ASSERT_TRUE(HS_IS_ERROR(code));
        CU_ASSERT_PTR_NOT_NULL(hs_strerror(code));
    }
}

int main(void)
{
    static const tu_test tests[] = {
        {"census out of memory names the event", test_census_nomem_where},
        {"informational codes are not errors", test_codes},
        {"error parameters may be NULL and are filled whole",
         test_error_param_null},
        {"a call that succeeds empties its error parameter",
         test_error_param_cleared},
        {NULL, NULL},
    };
    return tu_main("contract", NULL, NULL, tests);
}
