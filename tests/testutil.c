#include "testutil.h"

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
    return failed || ran == 0 ? 1 : 0;
}
