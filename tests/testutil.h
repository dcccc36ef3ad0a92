/*
 * What every test program needs: where the inputs are, reading a whole
 * file, and a CUnit main that fails when a test fails or none ran.
 */
#ifndef HEAPSCOPE_TEST_TESTUTIL_H
#define HEAPSCOPE_TEST_TESTUTIL_H

#include <heapscope/common.h>

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
/* tu_slurp() of samples/REL (REL as "mono/sites-alloc.mlpd"); NULL when
 * samples/ or the file is not there. */
void *tu_slurp_sample(const char *rel, size_t *len);

/*
 * The read end of a pipe into which a forked child writes data[0..len) in
 * irregular pieces (sizes step = step * mul % mod + 1, starting at 1, some
 * tiny) and exits 0, or 1 when writing fails (as when the reader stops
 * early). *pid is the child, for waitpid(). Aborts the test run when no
 * pipe or process can be made.
 */
#include <sys/types.h>
int tu_pipe_from(const void *data, size_t len, unsigned mul, unsigned mod,
                 pid_t *pid);

/*
 * An allocator for allocation-failure tests (expat's way): the first
 * `left` allocations succeed and every later one fails (left < 0: none
 * fails); `live` counts the blocks not yet freed, 0 when nothing leaked;
 * `most` is the largest single request, for tests of memory bounds.
 */
typedef struct tu_failing {
    long left;
    long live;
    size_t most;
} tu_failing;
hs_allocator tu_failing_allocator(tu_failing *f);

typedef struct tu_test {
    const char *name;
    void (*fn)(void);
} tu_test;

/*
 * Marks the running test as skipped for want of an input that is not part
 * of the repository (../shared): prints why, and makes tu_main() return
 * 77, which meson reports as SKIP, unless a test failed.
 */
void tu_skip(const char *why);

/* Runs one suite of tests (the list ends with a NULL name) verbosely,
 * with the suite's init and cleanup (either may be NULL); returns the exit
 * status: 1 when a test failed or none ran, 77 when none failed and one
 * called tu_skip(). */
int tu_main(const char *suite, int (*init)(void), int (*cleanup)(void),
            const tu_test *tests);

#endif
