/*
 * The legend label rule in C (src/render/short_label.c) against the test
 * vectors the page's rule is tested with (tests/page/short_labels.txt,
 * tests/page/format.test.mjs): one rule for the chart and the page.
 */
#include "render/short_label.h"
#include "testutil.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 16

/* One group's names and expected labels checked; returns the next line. */
static char *check_group(char *p, size_t max, int *groups)
{
    const char *names[MAXN], *want[MAXN];
    size_t n = 0;
    while (p && *p && *p != '\n' && n < MAXN) {
        char *end = strchr(p, '\n'), *tab = strchr(p, '\t');
        if (end)
            *end = 0;
        CU_ASSERT_FATAL(tab != NULL);
        *tab = 0;
        names[n] = p;
        want[n++] = tab + 1;
        p = end ? end + 1 : NULL;
    }
    char **got = hs__short_labels(NULL, names, n, max);
    CU_ASSERT_FATAL(got != NULL);
    for (size_t k = 0; k < n; k++) {
        if (strcmp(got[k], want[k]) != 0)
            printf("\nmax %zu: %s -> %s, want %s", max, names[k], got[k],
                   want[k]);
        CU_ASSERT_STRING_EQUAL(got[k], want[k]);
    }
    hs__short_labels_free(NULL, got, n);
    (*groups)++;
    return p;
}

static void test_vectors(void)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/page/short_labels.txt",
             tu_source_dir());
    size_t len;
    char *text = tu_slurp(path, &len);
    CU_ASSERT_FATAL(text != NULL);
    int groups = 0;
    for (char *p = text; p && *p;) {
        char *end = strchr(p, '\n');
        size_t max;
        if (sscanf(p, "max %zu", &max) == 1 && end) {
            p = check_group(end + 1, max, &groups);
            continue;
        }
        p = end ? end + 1 : NULL;
    }
    CU_ASSERT(groups >= 8);
    free(text);
}

/* Out of memory at each allocation: NULL, nothing leaked. */
static void test_nomem(void)
{
    const char *names[] = {"abcXYZdef", "abcWYZdef", "other"};
    char **got = NULL;
    for (long k = 0; !got && k < 100; k++) {
        tu_failing f = {k, 0, 0};
        hs_allocator a = tu_failing_allocator(&f);
        got = hs__short_labels(&a, names, 3, 4);
        if (got)
            hs__short_labels_free(&a, got, 3);
        CU_ASSERT_EQUAL(f.live, 0);
    }
    CU_ASSERT(got != NULL);
}

int main(void)
{
    static const tu_test tests[] = {
        {"the shared test vectors", test_vectors},
        {"out of memory", test_nomem},
        {NULL, NULL},
    };
    return tu_main("labels", NULL, NULL, tests);
}
