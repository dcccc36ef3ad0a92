/*
 * The .hp reader's fast paths against its general ones (issue 28), for
 * test_hpfile_exact.c. A run of band lines whole in a chunk is read in
 * place (read_hp.c's fast_bands), and the census guesses each line's band
 * from the line before it (census_sample.c's predict); a line cut by a
 * chunk's edge, as every line is in 1-byte chunks, goes the general way,
 * and a wrong guess goes to the hash. Every .hp in samples/ and tests/,
 * cuts at every byte, a corrupt byte at every place and band orders that
 * change under the guess: the same census, warnings, status, message,
 * line and byte offset, or the census the test works out itself.
 */
#include "hp_paths.h"

#include "hp_load.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Everything a load gave, as one string: status, the error or warning
 * record, the census's warnings and the census as .hp. */
static char *outcome(hs_census *c, int st, const hs_error *err)
{
    hs_membuf m = {0};
    hs_sink s = hs_membuf_sink(&m);
    char head[400];
    int n = snprintf(head, sizeof head, "status %d", st);
    if (st != HS_OK)
        n += snprintf(head + n, sizeof head - (size_t)n,
                      " code %d line %llu offset %llu: %s", err->code,
                      (unsigned long long)err->line,
                      (unsigned long long)err->offset, err->message);
    hs_sink_write(&s, head, strlen(head));
    for (size_t i = 0; i < hs_census_warning_count(c); i++) {
        hs_sink_write(&s, "\nwarning: ", 10);
        const char *w = hs_census_warning(c, i);
        hs_sink_write(&s, w, strlen(w));
    }
    hs_sink_write(&s, "\n", 1);
    if (st >= 0) {
        char *hp = render_hp(c);
        if (hp)
            hs_sink_write(&s, hp, strlen(hp));
        free(hp);
    }
    return m.data;
}

static char *load_outcome_with(const hs_allocator *alloc, const char *data,
                               size_t len, size_t chunk)
{
    int st;
    hs_error err;
    memset(&err, 0, sizeof err);
    hs_census *c = load_chunked_with(alloc, data, len, chunk, &st, &err);
    char *o = outcome(c, st, &err);
    hs_census_free(c);
    return o;
}

static char *load_outcome(const char *data, size_t len, size_t chunk)
{
    return load_outcome_with(NULL, data, len, chunk);
}

/* data loaded whole and in each of the chunk sizes: the same outcome.
 * Returns false (after saying where) when one differs. */
static bool same_in_chunks(const char *what, const char *data, size_t len,
                           const size_t *chunks, size_t nchunks)
{
    char *want = load_outcome(data, len, 0);
    bool same = true;
    for (size_t k = 0; k < nchunks && same; k++) {
        char *got = load_outcome(data, len, chunks[k]);
        if (!want || !got || strcmp(want, got) != 0) {
            same = false;
            printf("\n  %s in %zu-byte chunks:\n  whole: %.300s\n  "
                   "chunks: %.300s\n", what, chunks[k], want, got);
        }
        free(got);
    }
    CU_ASSERT_TRUE(same);
    free(want);
    return same;
}

/* Every .hp file in dir, in chunks of 1 (files up to 8 KiB), 7 and 4093
 * bytes and whole. Returns how many were compared. */
static size_t check_dir(const char *dir)
{
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d)
        return 0;
    size_t done = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        size_t nl = strlen(de->d_name);
        if (de->d_name[0] == '.' ||
            (nl < 3 || strcmp(de->d_name + nl - 3, ".hp") != 0))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        size_t len;
        char *data = tu_slurp(path, &len);
        CU_ASSERT_PTR_NOT_NULL_FATAL(data);
        static const size_t all[] = {7, 4093, 1};
        same_in_chunks(path, data, len, all, len <= 8192 ? 3 : 2);
        free(data);
        done++;
    }
    closedir(d);
    return done;
}

void test_paths_files(void)
{
    const char *src = tu_source_dir();
    char regress[4096];
    snprintf(regress, sizeof regress, "%s/tests/fuzz/regress/hp",
             src ? src : ".");
    size_t n = check_dir(tu_samples_dir()) + check_dir(regress);
    CU_ASSERT_TRUE(n >= 16);
}

/* A small .hp with every kind of line the general path knows: header,
 * MARK, the runtime's empty opening sample, CRLF, a space separator, names
 * with spaces and TABs, a 20-digit count, a band twice in a sample; and
 * for the fast paths counts of 9, 16 and 17 digits (lines longer than
 * read_hp.c's 64-byte window are in samples/). */
static const char small_hp[] =
    "JOB \"p +RTS -hT\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\n"
    "VALUE_UNIT \"bytes\"\nBEGIN_SAMPLE 0.000000\nEND_SAMPLE 0.000000\n"
    "MARK 0.5\nBEGIN_SAMPLE 1.0\nARR_WORDS\t1024\n9\t123456789\n"
    "c\t9876543210987654\nd\t12345678901234567\nsome name\t77\n"
    "crlf\t5\r\nARR_WORDS\t1\nEND_SAMPLE 1.0\nBEGIN_SAMPLE 2\n"
    "spaced   12\na\tb\t3\nbig\t12345678901234567890\nEND_SAMPLE 2\n";

void test_paths_cuts(void)
{
    /* the file cut after every byte: the same outcome whole and in 1- and
     * 7-byte chunks (the cut line left out, or the error, alike) */
    size_t len = sizeof small_hp - 1;
    static const size_t chunks[] = {1, 7};
    for (size_t cut = 0; cut <= len; cut++) {
        char what[64];
        snprintf(what, sizeof what, "cut at byte %zu", cut);
        if (!same_in_chunks(what, small_hp, cut, chunks, 2))
            break;
    }
}

void test_paths_corrupt(void)
{
    /* each byte in turn replaced by one of these: the same outcome whole
     * and in 1- and 7-byte chunks, errors at the same line and offset */
    static const char bad[] = {'\t', '\n', '\r', ' ', '0', 'x', '\0', '"',
                               '9', '.'};
    size_t len = sizeof small_hp - 1;
    char *data = malloc(len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(data);
    static const size_t chunks[] = {1, 7};
    for (size_t i = 0; i < len; i++) {
        memcpy(data, small_hp, len);
        data[i] = bad[i % sizeof bad];
        char what[64];
        snprintf(what, sizeof what, "byte %zu as 0x%02x", i,
                 (unsigned)(unsigned char)data[i]);
        if (!same_in_chunks(what, data, len, chunks, 2))
            break;
    }
    free(data);
}

void test_paths_odd_lines(void)
{
    /* lines that look almost like the runtime's band lines, each between
     * good ones with enough after it for the fast paths' wide reads: the
     * same outcome whole as a byte at a time */
    static const char *const odd[] = {
        "\t5\n", "x\t\n", "x\t12a\n", "x\t12 \n", "x\t1\r\n", "x \t1\n",
        "x\t5\001\n", "x\001\t5\n", "x\t\t5\n", "x\t12345678901234567\n",
        "x\t1234567890123456789\n", "x\t12345678901234567890\n",
        "x\t123456789012345678901\n", "x\t00000000000000000000007\n"};
    char text[512];
    for (size_t k = 0; k < sizeof odd / sizeof *odd; k++) {
        int len = snprintf(text, sizeof text,
                           "JOB \"o\"\nBEGIN_SAMPLE 1\na\t1\n%sb\t2\n", odd[k]);
        for (int i = 0; i < 12; i++)
            len += snprintf(text + len, sizeof text - (size_t)len,
                            "f%d\t%d\n", i, i * 7919);
        len += snprintf(text + len, sizeof text - (size_t)len,
                        "END_SAMPLE 1\n");
        char what[64];
        snprintf(what, sizeof what, "odd line %zu", k);
        static const size_t chunks[] = {1};
        if (!same_in_chunks(what, text, (size_t)len, chunks, 1))
            break;
    }
}

/* --- band orders that change under the guess ----------------------------- */

#define NAMES 24
#define SAMPLES 40
#define MAX_LINES 64

/* Sample s's lines as band indexes: orders kept, shifted, reversed,
 * rotated, with a band put in or left out, and a band twice. */
static size_t order_of(int s, int *line)
{
    size_t n = 0;
    int kind = s % 8;
    int base = s < 8 ? 0 : (s / 8) % 3;
    for (int k = 0; k < 16; k++)
        line[n++] = (base + k) % NAMES;
    if (kind == 1) /* one band more at the front */
        memmove(line + 1, line, n++ * sizeof *line), line[0] = 20;
    else if (kind == 2) /* one left out in the middle */
        memmove(line + 5, line + 6, (--n - 5) * sizeof *line);
    else if (kind == 3) /* reversed */
        for (size_t i = 0; i < n / 2; i++) {
            int t = line[i];
            line[i] = line[n - 1 - i];
            line[n - 1 - i] = t;
        }
    else if (kind == 4) /* rotated by 5 */
        for (size_t i = 0; i < n; i++)
            line[i] = (base + (int)((i + 5) % 16)) % NAMES;
    else if (kind == 5) /* a band twice, apart */
        line[n++] = line[3];
    else if (kind == 6) /* the set moves: every band another */
        for (size_t i = 0; i < n; i++)
            line[i] = (line[i] + 8) % NAMES;
    return n;
}

/* Names of one length that differ in one byte, first or last, and one
 * that is another's prefix: a guess taken on the length alone is wrong. */
static void name_of(int b, char *out, size_t cap)
{
    if (b % 3 == 0)
        snprintf(out, cap, "band_%02d", b);
    else if (b % 3 == 1)
        snprintf(out, cap, "%c and_%02d", 'a' + b % 26, b - 1);
    else
        snprintf(out, cap, "band_%02d_", b - 2);
}

/* Whether sample s of c holds exactly the bands and bytes of lines[]. */
static bool sample_is(const hs_census *c, size_t s, const int *line,
                      size_t n, int s_no)
{
    const hs_census_entry *e;
    size_t ne = hs_census_sample_entries(c, s, &e);
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++) {
        bool first = true;
        uint64_t want = 0;
        for (size_t j = 0; j < n; j++)
            if (line[j] == line[i]) {
                first = first && j >= i;
                want += (uint64_t)(100 * s_no + (int)j + 1);
            }
        if (!first)
            continue;
        distinct++;
        char name[32];
        name_of(line[i], name, sizeof name);
        size_t k = 0;
        while (k < ne && strcmp(hs_census_band_name(c, e[k].band), name))
            k++;
        if (k == ne || e[k].bytes != want) {
            printf("\n  sample %d, band '%s': %s", s_no, name,
                   k == ne ? "missing" : "other bytes");
            return false;
        }
    }
    return ne == distinct;
}

void test_paths_orders(void)
{
    char *text = malloc(1u << 16);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    size_t len = (size_t)sprintf(text, "JOB \"o +RTS -hT\"\n");
    int line[SAMPLES][MAX_LINES];
    size_t nl[SAMPLES];
    for (int s = 0; s < SAMPLES; s++) {
        nl[s] = order_of(s, line[s]);
        len += (size_t)sprintf(text + len, "BEGIN_SAMPLE %d\n", s + 1);
        for (size_t j = 0; j < nl[s]; j++) {
            char name[32];
            name_of(line[s][j], name, sizeof name);
            len += (size_t)sprintf(text + len, "%s\t%d\n", name,
                                   100 * s + (int)j + 1);
        }
        len += (size_t)sprintf(text + len, "END_SAMPLE %d\n", s + 1);
    }
    CU_ASSERT_FATAL(len < (1u << 16));
    static const size_t chunks[] = {0, 7, 1};
    for (size_t k = 0; k < 3; k++) {
        int st;
        hs_census *c = load_chunked(text, len, chunks[k], &st);
        CU_ASSERT_EQUAL(st, HS_OK);
        CU_ASSERT_EQUAL_FATAL(hs_census_sample_count(c), SAMPLES);
        CU_ASSERT_TRUE(hs_census_band_count(c) <= NAMES);
        for (int s = 0; s < SAMPLES; s++)
            CU_ASSERT_TRUE(sample_is(c, (size_t)s, line[s], nl[s], s));
        hs_census_free(c);
    }
    free(text);
}

/* --- labels that differ in one byte ---------------------------------------- */

/* A label of len bytes, all 'n' but byte at, which is c. */
static void label_of(char *out, size_t len, size_t at, char c)
{
    memset(out, 'n', len);
    out[at] = c;
    out[len] = '\0';
}

void test_paths_labels(void)
{
    /* For each length 1 to 40 and each byte of it: a sample with the
     * label X after "a", then one with Y, which differs from X in that
     * byte alone, where the guess after "a" is X (the census compares a
     * guess's label in pieces: the first and last 8 bytes, the middle,
     * a short label whole), then X again, where the guess is Y. Whole,
     * the lines go the fast way; a byte at a time, the general one: the
     * same census. */
    char *text = malloc(1u << 16);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    for (size_t len = 1; len <= 40; len++) {
        size_t n = (size_t)sprintf(text, "JOB \"l +RTS -hT\"\n");
        int s = 0;
        for (size_t at = 0; at < len; at++) {
            /* over 17 bytes: the places at the pieces' edges and one in
             * the middle */
            if (len > 17 && at != 0 && at != 7 && at != 8 && at != len / 2 &&
                at + 9 != len && at + 8 != len && at + 1 != len)
                continue;
            for (int k = 0; k < 3; k++) {
                char label[48];
                label_of(label, len, at, k == 1 ? '2' : '1');
                n += (size_t)sprintf(text + n,
                                     "BEGIN_SAMPLE %d\na\t1\n%s\t%d\n"
                                     "z1\t3\nz2\t4\nEND_SAMPLE %d\n",
                                     s + 1, label, s + 2, s + 1);
                s++;
            }
        }
        char what[64];
        snprintf(what, sizeof what, "labels of %zu bytes", len);
        static const size_t chunks[] = {1};
        if (!same_in_chunks(what, text, n, chunks, 1))
            break;
    }
    free(text);
}

/* --- a band line refused in the middle of a run -------------------------- */

/* The C library's, but a block grown to NO_GROWTH bytes or more is
 * refused: the census's entries when they outgrow 128 (1,536 bytes, then
 * 3,072), and nothing else of these small files. */
#define NO_GROWTH 3072
static void *a_malloc(void *u, size_t n) { (void)u; return malloc(n); }
static void *a_realloc(void *u, void *p, size_t n)
{
    (void)u;
    return p && n >= NO_GROWTH ? NULL : realloc(p, n);
}
static void a_free(void *u, void *p) { (void)u; free(p); }

void test_paths_refused(void)
{
    /* the 129th entry refused at each place in a run of band lines the
     * parser hands over (first, last, between, in the first run or a
     * later one): out of memory at the same line and offset as when every
     * line is read one byte at a time */
    static const hs_allocator refusing = {a_malloc, a_realloc, a_free, NULL};
    static const int before[] = {0, 1, 2, 40, 63, 64, 65, 100, 127};
    char *text = malloc(1u << 14);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    for (size_t k = 0; k < sizeof before / sizeof *before; k++) {
        int len = sprintf(text, "JOB \"r +RTS -hT\"\nBEGIN_SAMPLE 1\n");
        for (int i = 0; i < before[k]; i++)
            len += sprintf(text + len, "first_%d\t%d\n", i, i + 1);
        len += sprintf(text + len, "END_SAMPLE 1\nBEGIN_SAMPLE 2\n");
        for (int i = 0; i < 200; i++)
            len += sprintf(text + len, "band_%d\t%d\n", i % 150, i + 7);
        len += sprintf(text + len, "END_SAMPLE 2\n");
        char *whole = load_outcome_with(&refusing, text, (size_t)len, 0);
        char *bytes = load_outcome_with(&refusing, text, (size_t)len, 1);
        CU_ASSERT_PTR_NOT_NULL_FATAL(whole);
        CU_ASSERT_TRUE(strstr(whole, "out of memory") != NULL);
        if (!bytes || strcmp(whole, bytes) != 0) {
            CU_FAIL("the refused line differs whole and a byte at a time");
            printf("\n  %d lines before: whole: %.200s\n  bytes: %.200s\n",
                   before[k], whole, bytes);
        }
        free(whole);
        free(bytes);
    }
    free(text);
}
