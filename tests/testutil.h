/*
 * What every test program needs: where the inputs are, reading a whole
 * file, and a CUnit main that fails when a test fails or none ran.
 */
#ifndef HEAPSCOPE_TEST_TESTUTIL_H
#define HEAPSCOPE_TEST_TESTUTIL_H

#include <stddef.h>

/* The source tree (HEAPSCOPE_SOURCE_DIR, else "."). */
const char *tu_source_dir(void);

/* The source tree's samples/, or NULL when it is not there. */
const char *tu_samples_dir(void);

/* The shared corpus of third-party eventlogs
 * (HEAPSCOPE_SHARED_DIR/corpus/ghc-events), or NULL when it is not there:
 * tests then skip what needs it, with a note. */
const char *tu_corpus_dir(void);

/* The whole file, NUL-terminated (not counted in *len), owned by the
 * caller; NULL when it cannot be read. */
void *tu_slurp(const char *path, size_t *len);

typedef struct tu_test {
    const char *name;
    void (*fn)(void);
} tu_test;

/* Runs one suite of tests (the list ends with a NULL name) verbosely,
 * with the suite's init and cleanup (either may be NULL); returns the exit
 * status: 1 when a test failed or none ran. */
int tu_main(const char *suite, int (*init)(void), int (*cleanup)(void),
            const tu_test *tests);

#endif
