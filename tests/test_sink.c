/*
 * Tests of the sinks: an output file is created with the umask's mode
 * (without the library changing the umask), keeps the mode of the file it
 * replaces, leaves an existing file whole until the commit, reports out of
 * memory as HS_ERR_NOMEM (not as an I/O error), and allocates only through
 * its allocator; membufs likewise.
 */
#include <heapscope/heapscope.h>

#include "testutil.h"

#include <CUnit/Basic.h>

#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/test_sink.XXXXXX";

static int setup(void)
{
    return mkdtemp(dir) ? 0 : -1;
}

static int cleanup(void)
{
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void path_of(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/%s", dir, name);
}

static int write_file(const char *path, const char *text)
{
    hs_error err;
    hs_output *o = hs_output_open(path, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o);
    hs_sink *k = hs_output_sink(o);
    CU_ASSERT_EQUAL(hs_sink_printf(k, "%s", text), HS_OK);
    return hs_output_commit(o, &err);
}

static mode_t mode_of(const char *path)
{
    struct stat sb;
    CU_ASSERT_EQUAL_FATAL(stat(path, &sb), 0);
    return sb.st_mode & 07777;
}

/* Counts the files in dir, so a left-over temporary shows. */
static int files_in_dir(void)
{
    char cmd[96];
    snprintf(cmd, sizeof cmd, "exit $(ls -A '%s' | wc -l)", dir);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_modes(void)
{
    char p[256];
    path_of(p, sizeof p, "new.txt");
    mode_t old = umask(077);
    CU_ASSERT_EQUAL(write_file(p, "a"), HS_OK);
    CU_ASSERT_EQUAL(umask(old), 077); /* the library left it alone */
    CU_ASSERT_EQUAL(mode_of(p), 0600);
    unlink(p);
    old = umask(022);
    CU_ASSERT_EQUAL(write_file(p, "a"), HS_OK);
    umask(old);
    CU_ASSERT_EQUAL(mode_of(p), 0644);
    /* a replaced file keeps its mode */
    CU_ASSERT_EQUAL(chmod(p, 0640), 0);
    CU_ASSERT_EQUAL(write_file(p, "b"), HS_OK);
    CU_ASSERT_EQUAL(mode_of(p), 0640);
    size_t len;
    char *got = tu_slurp(p, &len);
    CU_ASSERT(got && len == 1 && got[0] == 'b');
    free(got);
    unlink(p);
    CU_ASSERT_EQUAL(files_in_dir(), 0);
}

static void test_abort_keeps_old(void)
{
    char p[256];
    path_of(p, sizeof p, "keep.txt");
    CU_ASSERT_EQUAL(write_file(p, "old"), HS_OK);
    hs_output *o = hs_output_open(p, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o);
    /* more than the output's buffer, so part of it reaches the disk */
    static char big[200000];
    memset(big, 'x', sizeof big);
    CU_ASSERT_EQUAL(hs_sink_write(hs_output_sink(o), big, sizeof big), HS_OK);
    hs_output_abort(o);
    size_t len;
    char *got = tu_slurp(p, &len);
    CU_ASSERT(got && len == 3 && memcmp(got, "old", 3) == 0);
    free(got);
    unlink(p);
    CU_ASSERT_EQUAL(files_in_dir(), 0);
    hs_output_abort(NULL);
}

/* A failed write's cause is kept: hs_output_fail names it, as the
 * command line does ("No space left on device", not an I/O error). */
static void test_fail_names_cause(void)
{
    if (access("/dev/full", W_OK) != 0)
        return; /* no full device here */
    hs_output *o = hs_output_open("/dev/full", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o);
    static char big[200000];
    memset(big, 'x', sizeof big);
    int st = hs_sink_write(hs_output_sink(o), big, sizeof big);
    CU_ASSERT_EQUAL(st, HS_ERR_IO);
    errno = 0; /* the cause must not depend on errno surviving */
    hs_error err;
    CU_ASSERT_EQUAL(hs_output_fail(o, st, &err), HS_ERR_IO);
    CU_ASSERT_EQUAL(err.code, HS_ERR_IO);
    CU_ASSERT_STRING_EQUAL(err.message,
                           "cannot write /dev/full: No space left on device");
    /* another failure is named by its status */
    path_of(big, sizeof big, "fail.txt");
    o = hs_output_open(big, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o);
    CU_ASSERT_EQUAL(hs_output_fail(o, HS_ERR_NO_DATA, &err), HS_ERR_NO_DATA);
    CU_ASSERT_EQUAL(err.code, HS_ERR_NO_DATA);
    CU_ASSERT(strstr(err.message, hs_strerror(HS_ERR_NO_DATA)) != NULL);
    CU_ASSERT_EQUAL(files_in_dir(), 0);
}

static void test_large_write(void)
{
    char p[256];
    path_of(p, sizeof p, "big.txt");
    hs_output *o = hs_output_open(p, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o);
    hs_sink *k = hs_output_sink(o);
    static char big[300001];
    for (size_t i = 0; i < sizeof big; i++)
        big[i] = (char)('a' + i % 26);
    CU_ASSERT_EQUAL(hs_sink_write(k, "<", 1), HS_OK);
    CU_ASSERT_EQUAL(hs_sink_write(k, big, sizeof big), HS_OK);
    CU_ASSERT_EQUAL(hs_sink_printf(k, "%s>", "end"), HS_OK);
    CU_ASSERT_EQUAL(hs_output_commit(o, NULL), HS_OK);
    size_t len;
    char *got = tu_slurp(p, &len);
    CU_ASSERT_FATAL(got && len == sizeof big + 5);
    CU_ASSERT(got[0] == '<' && memcmp(got + 1, big, sizeof big) == 0 &&
              memcmp(got + 1 + sizeof big, "end>", 4) == 0);
    free(got);
    unlink(p);
}

/* Issue 12: out of memory while opening an output is HS_ERR_NOMEM (the
 * command exits 5), not an I/O error; nothing is left on disk. */
static void test_nomem(void)
{
    char p[256];
    path_of(p, sizeof p, "nomem.txt");
    bool opened = false;
    for (long n = 0; n < 20 && !opened; n++) {
        tu_failing f = {n, 0, 0};
        hs_allocator a = tu_failing_allocator(&f);
        hs_error err;
        hs_output *o = hs_output_open_with(p, &a, &err);
        if (!o) {
            CU_ASSERT_EQUAL(err.code, HS_ERR_NOMEM);
            CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "nomem.txt"));
            CU_ASSERT_EQUAL(f.live, 0);
            CU_ASSERT_EQUAL(files_in_dir(), 0);
            continue;
        }
        opened = true;
        f.left = -1;
        hs_sink *k = hs_output_sink(o);
        char line[2000];
        memset(line, 'y', sizeof line - 1);
        line[sizeof line - 1] = 0;
        f.left = 0; /* a long printf line now has no buffer to borrow */
        CU_ASSERT_EQUAL(hs_sink_printf(k, "%s", line), HS_ERR_NOMEM);
        CU_ASSERT_EQUAL(hs_sink_printf(k, "%s", "short"), HS_OK);
        CU_ASSERT_EQUAL(hs_output_commit(o, &err), HS_OK);
        CU_ASSERT_EQUAL(f.live, 0);
    }
    CU_ASSERT_TRUE(opened);
    unlink(p);

    /* a membuf with an allocator */
    tu_failing f = {3, 0, 0};
    hs_allocator a = tu_failing_allocator(&f);
    hs_membuf m;
    hs_membuf_init(&m, &a);
    hs_sink k = hs_membuf_sink(&m);
    int st = HS_OK;
    for (int i = 0; i < 100000 && st == HS_OK; i++)
        st = hs_sink_write(&k, "0123456789", 10);
    CU_ASSERT_EQUAL(st, HS_ERR_IO);
    CU_ASSERT(m.len > 0 && m.data[m.len] == 0);
    hs_membuf_free(&m);
    CU_ASSERT_EQUAL(f.live, 0);
}

static void test_version(void)
{
    CU_ASSERT_STRING_EQUAL(hs_version(), HS_VERSION_STRING);
    char v[32];
    snprintf(v, sizeof v, "%d.%d.%d", HS_VERSION_MAJOR, HS_VERSION_MINOR,
             HS_VERSION_PATCH);
    CU_ASSERT_STRING_EQUAL(v, HS_VERSION_STRING);
    CU_ASSERT_EQUAL(HS_VERSION_NUMBER, HS_VERSION_MAJOR * 10000 +
                    HS_VERSION_MINOR * 100 + HS_VERSION_PATCH);
}

static void test_text(void)
{
    CU_ASSERT_EQUAL(hs_utf8_char_len("a", 1), 1);
    CU_ASSERT_EQUAL(hs_utf8_char_len("", 0), 0);
    CU_ASSERT_EQUAL(hs_utf8_char_len("\xc3\xa9", 2), 2);
    CU_ASSERT_EQUAL(hs_utf8_char_len("\xc3\xa9", 1), 0);      /* cut */
    CU_ASSERT_EQUAL(hs_utf8_char_len("\xe2\x82\xac", 3), 3);
    CU_ASSERT_EQUAL(hs_utf8_char_len("\xf0\x9f\x98\x80", 4), 4);
    CU_ASSERT_EQUAL(hs_utf8_char_len("\x80", 1), 0);          /* stray */
    CU_ASSERT_EQUAL(hs_utf8_char_len("\xc0\xaf", 2), 0);      /* overlong */
    CU_ASSERT_EQUAL(hs_utf8_char_len("\xe0\x80\xaf", 3), 0);  /* overlong */
    CU_ASSERT_EQUAL(hs_utf8_char_len("\xed\xa0\x80", 3), 0);  /* surrogate */
    CU_ASSERT_EQUAL(hs_utf8_char_len("\xf4\x90\x80\x80", 4), 0);
    CU_ASSERT_EQUAL(hs_utf8_char_len("\xff", 1), 0);
    char b[16];
    CU_ASSERT_STRING_EQUAL(hs_format_bytes(b, sizeof b, 812), "812 B");
    CU_ASSERT_STRING_EQUAL(hs_format_bytes(b, sizeof b, 9759), "9.53 KiB");
    CU_ASSERT_STRING_EQUAL(hs_format_bytes(b, sizeof b, 13002342.4),
                           "12.4 MiB");
    CU_ASSERT_STRING_EQUAL(hs_format_bytes(b, sizeof b, 124.0 * (1 << 30)),
                           "124 GiB");
    CU_ASSERT_STRING_EQUAL(hs_format_bytes(b, sizeof b, 0), "0 B");
    CU_ASSERT_STRING_EQUAL(hs_format_bytes(b, 4, 13002342.4), "12.");
}

int main(void)
{
    static const tu_test tests[] = {
        {"modes without touching the umask", test_modes},
        {"abort keeps the old file", test_abort_keeps_old},
        {"large writes", test_large_write},
        {"a failed write names its cause", test_fail_names_cause},
        {"out of memory", test_nomem},
        {"version", test_version},
        {"utf-8 and bytes", test_text},
        {NULL, NULL},
    };
    return tu_main("sink", setup, cleanup, tests);
}
