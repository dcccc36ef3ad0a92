#include "testutil.h"

#include <errno.h>

#include <CUnit/Basic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

const char *tu_source_dir(void)
{
    const char *d = getenv("HEAPSCOPE_SOURCE_DIR");
    return d && *d ? d : ".";
}

const char *tu_samples_dir(void)
{
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/samples", tu_source_dir());
    return access(buf, R_OK) == 0 ? buf : NULL;
}

const char *tu_corpus_dir(void)
{
    static char buf[4096];
    const char *d = getenv("HEAPSCOPE_SHARED_DIR");
    if (!d || !*d)
        return NULL;
    snprintf(buf, sizeof buf, "%s/corpus/ghc-events", d);
    return access(buf, R_OK) == 0 ? buf : NULL;
}

void *tu_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap + 1);
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *nb = realloc(buf, (cap *= 2) + 1);
            if (!nb)
                free(buf);
            buf = nb;
        }
    }
    bool bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    if (len)
        *len = n;
    return buf;
}

void *tu_slurp_sample(const char *rel, size_t *len)
{
    const char *dir = tu_samples_dir();
    if (!dir)
        return NULL;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    return tu_slurp(path, len);
}

static const char *skipped;

void tu_skip(const char *why)
{
    printf("\n  SKIP: %s\n", why);
    skipped = why;
}

int tu_main(const char *suite, int (*init)(void), int (*cleanup)(void),
            const tu_test *tests)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite(suite, init, cleanup);
    for (const tu_test *t = tests; s && t->name; t++)
        CU_add_test(s, t->name, t->fn);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures();
    unsigned ran = CU_get_number_of_tests_run();
    CU_cleanup_registry();
    if (failed || ran == 0)
        return 1;
    if (skipped) {
        printf("skipped in part (exit 77): %s\n", skipped);
        return 77;
    }
    return 0;
}

/* --- an allocator that fails on demand ------------------------------- */

static bool may_allocate(tu_failing *f)
{
    if (f->left == 0)
        return false;
    if (f->left > 0)
        f->left--;
    return true;
}

static void *failing_malloc(void *user, size_t n)
{
    tu_failing *f = user;
    if (n > f->most)
        f->most = n;
    void *p = may_allocate(f) ? malloc(n) : NULL;
    f->live += p != NULL;
    return p;
}

static void *failing_realloc(void *user, void *p, size_t n)
{
    tu_failing *f = user;
    if (n > f->most)
        f->most = n;
    void *q = may_allocate(f) ? realloc(p, n) : NULL;
    f->live += q && !p;
    return q;
}

static void failing_free(void *user, void *p)
{
    tu_failing *f = user;
    f->live -= p != NULL;
    free(p);
}

hs_allocator tu_failing_allocator(tu_failing *f)
{
    return (hs_allocator){failing_malloc, failing_realloc, failing_free, f};
}

int tu_pipe_from(const void *data, size_t len, unsigned mul, unsigned mod,
                 pid_t *pid)
{
    int fds[2];
    if (pipe(fds) != 0)
        abort();
    fflush(NULL);
    *pid = fork();
    if (*pid < 0)
        abort();
    if (*pid == 0) {
        const char *p = data;
        close(fds[0]);
        size_t pos = 0, step = 1;
        while (pos < len) {
            size_t n = len - pos < step ? len - pos : step;
            ssize_t w = write(fds[1], p + pos, n);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                _exit(1);
            pos += (size_t)w;
            step = step * mul % mod + 1;
        }
        _exit(0);
    }
    close(fds[1]);
    return fds[0];
}
