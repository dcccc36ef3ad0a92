/*
 * Tests that the .hp reader is exact whatever comes (issues 12 and 14):
 * the same census in chunks of any size, messages with control bytes
 * escaped, sample times going back read and said, out of memory never
 * taken for a parse error, names kept byte for byte, the largest time,
 * eventlog names through .hp and back.
 */
#include "evwriter.h"
#include "hp_load.h"
#include "hp_paths.h"
#include "testutil.h"
#include <heapscope/heapscope.h>

#include <CUnit/Basic.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- chunks, messages, order, names (issues 12 and 14) -------------- */

static void test_chunks(void)
{
    /* every chunk size from 1 to 16, and the whole file, give the same
     * census (its .hp rendering, warnings included) for real .hp files
     * and a hand-made one with MARKs and CRLF lines */
    static const char *const names[] = {"leak-hc.hp", "leak-hb.hp",
                                        "markers-hT.hp"};
    static const char crlf[] =
        "JOB \"p +RTS -hT\"\r\nMARK 0.5\r\nBEGIN_SAMPLE 1\r\nA b\t3\r\n"
        "END_SAMPLE 1\r\nBEGIN_SAMPLE 0.5\r\nEND_SAMPLE 0.5\r\n"
        "BEGIN_SAMPLE 2\r\nC\t4\r\nEND_SAMPLE 2\r\n";
    const char *dir = tu_samples_dir();
    for (size_t f = 0; f <= 3; f++) {
        char *data;
        size_t len;
        if (f < 3) {
            if (!dir)
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", dir, names[f]);
            data = tu_slurp(path, &len);
            CU_ASSERT_PTR_NOT_NULL_FATAL(data);
        } else {
            data = strdup(crlf);
            len = strlen(crlf);
        }
        int st;
        hs_census *whole = load_chunked(data, len, 0, &st);
        CU_ASSERT_EQUAL(st, HS_OK);
        char *want = render_hp(whole);
        for (size_t chunk = 1; chunk <= 16; chunk++) {
            hs_census *c = load_chunked(data, len, chunk, &st);
            CU_ASSERT_EQUAL(st, HS_OK);
            char *got = render_hp(c);
            CU_ASSERT_TRUE(got && want && strcmp(got, want) == 0);
            CU_ASSERT_EQUAL(hs_census_warning_count(c),
                            hs_census_warning_count(whole));
            free(got);
            hs_census_free(c);
        }
        free(want);
        hs_census_free(whole);
        free(data);
    }
}

static void test_messages_escaped(void)
{
    /* hp-error-echoes-control-bytes.hp: the message quotes the bad line
     * with its control bytes escaped, never raw */
    int st;
    hs_error err;
    hs_census *c = load_text("JOB \"x\"\n\033]0;pwned\a\033[31mRED\n", &st,
                             &err);
    CU_ASSERT_EQUAL(st, HS_ERR_PARSE);
    CU_ASSERT_EQUAL(err.line, 2);
    CU_ASSERT_EQUAL(err.offset, 8);
    for (const char *p = err.message; *p; p++)
        CU_ASSERT_TRUE((unsigned char)*p >= 0x20 && *p != 0x7f);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "'\\x1b]0;pwned\\x07"
                                               "\\x1b[31mRED'"));
    hs_census_free(c);
    c = load_text("BEGIN_SAMPLE 1\nA\t\0011\n", &st, &err);
    CU_ASSERT_EQUAL(st, HS_ERR_PARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "'\\x011'"));
    hs_census_free(c);
}

static bool has_warning(const hs_census *c, const char *part)
{
    for (size_t i = 0; i < hs_census_warning_count(c); i++)
        if (strstr(hs_census_warning(c, i), part))
            return true;
    return false;
}

static void test_backwards(void)
{
    /* sample times that go back are read, sorted, and said (issue 12) */
    int st;
    hs_error err;
    hs_census *c = load_text("JOB \"x\"\nBEGIN_SAMPLE 2\nA\t1\nEND_SAMPLE 2\n"
                             "BEGIN_SAMPLE 1\nA\t2\nEND_SAMPLE 1\n"
                             "BEGIN_SAMPLE 0.5\nA\t3\nEND_SAMPLE 0.5\n",
                             &st, &err);
    CU_ASSERT_EQUAL(st, HS_OK);
    CU_ASSERT_EQUAL_FATAL(hs_census_sample_count(c), 3);
    CU_ASSERT_EQUAL(hs_census_sample_time(c, 0), 500000000);
    CU_ASSERT_EQUAL(hs_census_sample_total(c, 0), 3);
    CU_ASSERT_EQUAL(hs_census_sample_time(c, 2), 2000000000);
    CU_ASSERT_EQUAL(hs_census_warning_count(c), 1); /* once, not per sample */
    CU_ASSERT_TRUE(has_warning(c, "the sample at line 5 goes back in time "
                                  "(before the one at 2.000000 s)"));
    hs_census_free(c);
    /* in order: no warning */
    c = load_text(good_hp, &st, &err);
    CU_ASSERT_EQUAL(hs_census_warning_count(c), 0);
    hs_census_free(c);
}

/* An allocator failing its n-th call, to tell out of memory apart from a
 * parse error. */
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

static void test_nomem_is_nomem(void)
{
    /* every allocation failing in turn while reading a .hp gives
     * HS_ERR_NOMEM, never a parse error such as "expected a quoted string
     * after JOB" (issue 12) */
    bool done = false;
    for (unsigned long n = 1; !done && n < 10000; n++) {
        struct failing f = {0, n};
        hs_allocator a = {f_malloc, f_realloc, f_free, &f};
        hs_census *c = hs_census_new_with(&a);
        if (!c)
            continue;
        FILE *in = fmemopen((void *)good_hp, strlen(good_hp), "r");
        hs_error err;
        int st = hs_census_load_hp(c, in, &err);
        fclose(in);
        if (f.calls < n) {
            CU_ASSERT_EQUAL(st, HS_OK);
            done = true;
        } else {
            CU_ASSERT_TRUE(st == HS_OK || st == HS_ERR_NOMEM);
            if (st == HS_ERR_NOMEM)
                CU_ASSERT_EQUAL(err.code, HS_ERR_NOMEM);
            if (st != HS_OK && st != HS_ERR_NOMEM)
                printf("\n  allocation %lu: %d '%s'", n, st, err.message);
        }
        hs_census_free(c);
    }
    CU_ASSERT_TRUE(done);
}

/* The .hp renderer's output read back and written again: the same text
 * (the property issue 14 asks of whatever hp writes). */
static void assert_hp_fixed_point(const char *first)
{
    int st;
    hs_error err;
    hs_census *c = load_text(first, &st, &err);
    CU_ASSERT_EQUAL(st, HS_OK);
    if (st != HS_OK)
        printf("\n  reading back: %s", err.message);
    char *again = render_hp(c);
    CU_ASSERT_TRUE(again && strcmp(again, first) == 0);
    free(again);
    hs_census_free(c);
}

static void test_names_kept(void)
{
    /* names are byte-exact where a .hp can carry them: TABs inside or at
     * the end, spaces at either end (hp-tab-in-name-unstable,
     * hp-trailing-tab-name-merges) */
    static const char text[] =
        "JOB \"x +RTS -hT\"\nBEGIN_SAMPLE 1\nBuffer\t\t40\nBuffer\t128\n"
        "a\tb\tc\t5\n  lead\t6\ntrail  \t7\nEND_SAMPLE 1\n";
    int st;
    hs_error err;
    hs_census *c = load_text(text, &st, &err);
    CU_ASSERT_EQUAL(st, HS_OK);
    static const char *const want[] = {"Buffer\t", "Buffer", "a\tb\tc",
                                       "  lead", "trail  "};
    CU_ASSERT_EQUAL_FATAL(hs_census_band_count(c), 5);
    for (size_t b = 0; b < 5; b++)
        CU_ASSERT_STRING_EQUAL(hs_census_band_name(c, b), want[b]);
    char *out = render_hp(c);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nBuffer\t\t40\nBuffer\t128\n"));
    assert_hp_fixed_point(out);
    free(out);
    hs_census_free(c);

    /* NULs: three bands stay three, the NUL shown as \x00, with a
     * warning (hp-nul-names-merge, hp-nul-name-empty-key) */
    static const char nul[] = "JOB \"x\"\nBEGIN_SAMPLE 1\nA\0x\t1\nA\0y\t2\n"
                              "A\t4\n\0X\t24\nEND_SAMPLE 1\n";
    FILE *f = fmemopen((void *)nul, sizeof nul - 1, "r");
    c = hs_census_new();
    CU_ASSERT_EQUAL(hs_census_load_hp(c, f, &err), HS_OK);
    fclose(f);
    CU_ASSERT_EQUAL_FATAL(hs_census_band_count(c), 4);
    CU_ASSERT_STRING_EQUAL(hs_census_band_name(c, 0), "A\\x00x");
    CU_ASSERT_STRING_EQUAL(hs_census_band_name(c, 1), "A\\x00y");
    CU_ASSERT_STRING_EQUAL(hs_census_band_name(c, 2), "A");
    CU_ASSERT_STRING_EQUAL(hs_census_band_name(c, 3), "\\x00X");
    CU_ASSERT_TRUE(has_warning(c, "holds a NUL byte"));
    out = render_hp(c);
    assert_hp_fixed_point(out);
    free(out);
    hs_census_free(c);
}

static void test_huge_time(void)
{
    /* the largest time the writer prints (UINT64_MAX ns) reads back;
     * one second more does not fit and is refused */
    int st;
    hs_error err;
    hs_census *c = load_text("JOB \"x\"\nBEGIN_SAMPLE 18446744073.709552\n"
                             "A\t1\nEND_SAMPLE 18446744073.709552\n",
                             &st, &err);
    CU_ASSERT_EQUAL(st, HS_OK);
    CU_ASSERT_EQUAL(hs_census_sample_time(c, 0), UINT64_MAX);
    char *out = render_hp(c);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "BEGIN_SAMPLE 18446744073.709552\n"));
    assert_hp_fixed_point(out);
    free(out);
    hs_census_free(c);
    c = load_text("BEGIN_SAMPLE 18446744074\n", &st, &err);
    CU_ASSERT_EQUAL(st, HS_ERR_PARSE);
    hs_census_free(c);
}

/* Every length of byte count, 1 to 20 digits and more with leading 0s,
 * LF and CRLF lines, at every chunk edge: the band line's fast path (up
 * to 19 digits, LF, a TAB) and the general one read the same numbers. */
static void test_byte_counts(void)
{
    static const char *const digits = "1234567890123456789";
    char text[8192];
    size_t len = (size_t)snprintf(text, sizeof text,
                                  "JOB \"x +RTS -hT\"\nBEGIN_SAMPLE 1\n");
    char want[2 * 19 * 2][32];
    size_t nwant = 0;
    for (int crlf = 0; crlf < 2; crlf++) {
        for (int d = 1; d <= 19; d++) {
            char nines[24];
            memset(nines, '9', (size_t)d);
            nines[d] = 0;
            const char *v[2] = {nines, NULL};
            char part[24];
            snprintf(part, sizeof part, "%.*s", d, digits);
            v[1] = part;
            for (int k = 0; k < 2; k++) {
                len += (size_t)snprintf(text + len, sizeof text - len,
                                        "b%zu\t%s%s\n", nwant, v[k],
                                        crlf ? "\r" : "");
                snprintf(want[nwant], sizeof want[nwant], "\nb%zu\t%llu\n",
                         nwant, strtoull(v[k], NULL, 10));
                nwant++;
            }
        }
    }
    len += (size_t)snprintf(text + len, sizeof text - len,
                            "max\t18446744073709551615\nzeros\t"
                            "00000000000000000000042\nEND_SAMPLE 1\n");
    CU_ASSERT_FATAL(len < sizeof text);
    int st;
    hs_census *whole = load_chunked(text, len, 0, &st);
    CU_ASSERT_EQUAL(st, HS_OK);
    char *out = render_hp(whole);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    for (size_t i = 0; i < nwant; i++)
        if (!strstr(out, want[i])) {
            CU_FAIL("a byte count read wrong");
            printf("\n  missing '%s'", want[i] + 1);
        }
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nmax\t18446744073709551615\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nzeros\t42\n"));
    for (size_t chunk = 1; chunk <= 16; chunk++) {
        hs_census *c = load_chunked(text, len, chunk, &st);
        CU_ASSERT_EQUAL(st, HS_OK);
        char *got = render_hp(c);
        CU_ASSERT_TRUE(got && strcmp(got, out) == 0);
        free(got);
        hs_census_free(c);
    }
    free(out);
    hs_census_free(whole);
}

static void test_eventlog_names_round_trip(void)
{
    /* labels a .hp line cannot hold as they are (line breaks, empty)
     * come out escaped, read back, and stay as many bands as they were */
    static const char *const labels[] = {"two\nlines", "", "cr\rhere",
                                         "tabs\tin\t", "plain"};
    evw w;
    evw_start_ghc92(&w);
    evw_heap_prof_begin(&w, 1, 1000, 7);
    evw_sample_begin(&w, 1000, 0);
    for (size_t k = 0; k < 5; k++)
        evw_sample_string(&w, 1001, k + 1, labels[k]);
    evw_sample_end(&w, 1002, 0);
    evw_data_end(&w);
    int st;
    hs_error err;
    hs_census *c = hs_census_new();
    char path[] = "/tmp/heapscope-hpfile-XXXXXX";
    int tfd = mkstemp(path);
    CU_ASSERT_TRUE_FATAL(tfd >= 0);
    unlink(path);
    CU_ASSERT_EQUAL((size_t)write(tfd, w.data, w.len), w.len);
    lseek(tfd, 0, SEEK_SET);
    st = hs_census_load_fd(c, tfd, &err);
    close(tfd);
    CU_ASSERT_EQUAL(st, HS_OK);
    CU_ASSERT_EQUAL(hs_census_band_count(c), 5);
    char *first = render_hp(c);
    CU_ASSERT_PTR_NOT_NULL(strstr(first, "\ntwo\\x0alines\t1\n\"\"\t2\n"
                                         "cr\\x0dhere\t3\ntabs\tin\t\t4\n"));
    hs_census *c2 = load_text(first, &st, &err);
    CU_ASSERT_EQUAL(st, HS_OK);
    CU_ASSERT_EQUAL(hs_census_band_count(c2), 5);
    CU_ASSERT_STRING_EQUAL(hs_census_band_name(c2, 3), "tabs\tin\t");
    assert_hp_fixed_point(first);
    free(first);
    hs_census_free(c2);
    hs_census_free(c);
    evw_free(&w);
}

int main(void)
{
    static const tu_test tests[] = {
        {".hp in chunks of 1 to 16 bytes", test_chunks},
        {"messages escape control bytes", test_messages_escaped},
        {"sample times going back: read, said", test_backwards},
        {"out of memory is never a parse error", test_nomem_is_nomem},
        {"names kept byte-exact, never merged", test_names_kept},
        {"the largest time reads back", test_huge_time},
        {"byte counts of every length", test_byte_counts},
        {"eventlog names through .hp and back", test_eventlog_names_round_trip},
        {"every .hp file: fast and general paths agree", test_paths_files},
        {"cut at every byte: fast and general paths agree", test_paths_cuts},
        {"a corrupt byte anywhere: the paths agree", test_paths_corrupt},
        {"lines almost like band lines", test_paths_odd_lines},
        {"band orders changing under the guess", test_paths_orders},
        {"labels differing in one byte under the guess", test_paths_labels},
        {"a line refused in the middle of a run", test_paths_refused},
        {NULL, NULL},
    };
    return tu_main("hpfile_exact", NULL, NULL, tests);
}
