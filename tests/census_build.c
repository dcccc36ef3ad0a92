/*
 * The census tests' helpers (test_census*.c): a census built from bytes in
 * chunks or loaded from a file, a band's bytes in a sample, a warning
 * looked up, and a hand-built GHC 9.x -hc log.
 */
#include "census_build.h"

#include <CUnit/Basic.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Builds a census from bytes, fed in chunks of `chunk` bytes (0: all). */
hs_census *census_from(const uint8_t *data, size_t len, size_t chunk,
                              unsigned limit, int *status)
{
    hs_census *c = hs_census_new();
    hs_reader *r = hs_reader_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    hs_census_set_name_limit(c, limit);
    size_t pos = 0;
    int st = HS_NEED_INPUT;
    while (pos < len) {
        size_t n = chunk && len - pos > chunk ? chunk : len - pos;
        hs_reader_feed(r, data + pos, n);
        pos += n;
        hs_event ev;
        while ((st = hs_reader_next(r, &ev)) == HS_EVENT)
            CU_ASSERT_EQUAL(hs_census_add_event(c, &ev), HS_OK);
        if (st < 0 || st == HS_DONE)
            break;
    }
    st = hs_reader_finish(r);
    CU_ASSERT_EQUAL(hs_census_finish(c, st == HS_DONE), HS_OK);
    if (status)
        *status = st;
    hs_reader_free(r);
    return c;
}

hs_census *census_of(evw *w) { return census_from(w->data, w->len, 0, 0, NULL); }

/* The index of the band named `name`, or -1. */
long band_named(const hs_census *c, const char *name)
{
    for (size_t b = 0; b < hs_census_band_count(c); b++)
        if (strcmp(hs_census_band_name(c, b), name) == 0)
            return (long)b;
    return -1;
}

/* Bytes of band `name` in sample i (0 when absent; -1 when no band). */
long long bytes_in(const hs_census *c, size_t i, const char *name)
{
    long b = band_named(c, name);
    if (b < 0)
        return -1;
    const hs_census_entry *e;
    size_t n = hs_census_sample_entries(c, i, &e);
    for (size_t k = 0; k < n; k++)
        if (e[k].band == (uint32_t)b)
            return (long long)e[k].bytes;
    return 0;
}

bool has_warning(const hs_census *c, const char *needle)
{
    for (size_t i = 0; i < hs_census_warning_count(c); i++)
        if (strstr(hs_census_warning(c, i), needle))
            return true;
    return false;
}

void args_event(evw *w, uint64_t t, const char *const *argv, int n)
{
    size_t s = evw_event(w, 30, t, 1);
    evw_u32(w, 0);
    for (int i = 0; i < n; i++)
        evw_cstr(w, argv[i]);
    evw_event_end(w, s);
}

/* A GHC 9.x -hc log: cost centres, two samples, markers. */
void build_hc(evw *w)
{
    evw_start_ghc92(w);
    {
        size_t s = evw_event(w, 29, 10, 1);
        evw_u32(w, 0);
        evw_bytes(w, "GHC-9.0.2 rts_p", 15);
        evw_event_end(w, s);
    }
    static const char *const argv[] = {"/tmp/x/prog", "a\"b", "+RTS", "-hc",
                                       "-l", "-RTS", "c"};
    args_event(w, 20, argv, 7);
    evw_event(w, 43, 30, 0);
    evw_u32(w, 0);
    evw_u64(w, 1795306888);
    evw_u32(w, 5);
    evw_heap_prof_begin(w, 40, 10000000, 1);
    evw_cost_centre(w, 41, 1, "main", "Main", "a.hs:1:1", 0);
    evw_cost_centre(w, 42, 2, "CAF", "Main", "<entire-module>", 1);
    evw_cost_centre(w, 43, 3, "go", "Lib", "b.hs:2:2", 0);
    evw_cost_centre(w, 44, 4, "PINNED", "SYSTEM", "<built-in>", 0);
    evw_sample_begin(w, 100, 0);
    uint32_t st1[] = {1, 2};      /* main/Main.CAF */
    uint32_t st2[] = {3, 1, 2};   /* go/main/Main.CAF */
    uint32_t st3[] = {4};
    uint32_t st4[] = {2, 3};      /* Main.CAFgo: no '/' after a CAF */
    evw_sample_ccs(w, 101, 100, 2, st1);
    evw_sample_ccs(w, 102, 200, 3, st2);
    evw_sample_ccs(w, 103, 50, 0, NULL);
    evw_sample_ccs(w, 104, 8, 1, st3);
    evw_sample_ccs(w, 105, 7, 2, st4);
    evw_sample_ccs(w, 106, 0, 1, st3);   /* repeated band: summed */
    evw_sample_end(w, 107, 0);
    evw_string_event(w, 58, 150, "phase two");
    evw_sample_begin(w, 200, 0);
    evw_sample_ccs(w, 201, 300, 3, st2);
    evw_sample_ccs(w, 202, 0, 2, st1);   /* zero bytes: kept */
    evw_sample_end(w, 203, 0);
    evw_data_end(w);
}


/* Loads bytes with hs_census_load_fd from a temporary file. */
hs_census *census_load_bytes(const uint8_t *data, size_t len, int *st,
                                    hs_error *err)
{
    char path[] = "/tmp/heapscope-census-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_TRUE_FATAL(fd >= 0);
    unlink(path);
    CU_ASSERT_EQUAL((size_t)write(fd, data, len), len);
    lseek(fd, 0, SEEK_SET);
    hs_census *c = hs_census_new();
    *st = hs_census_load_fd(c, fd, err);
    close(fd);
    return c;
}
