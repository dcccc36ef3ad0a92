/*
 * The .hp reader's fast paths against its general ones (hp_paths.c), run
 * by test_hpfile_exact.c.
 */
#ifndef HEAPSCOPE_TEST_HP_PATHS_H
#define HEAPSCOPE_TEST_HP_PATHS_H

/* Every .hp in samples/ and tests/, whole and in odd chunk sizes. */
void test_paths_files(void);
/* A small .hp cut after every byte. */
void test_paths_cuts(void);
/* A small .hp with a corrupt byte at every place. */
void test_paths_corrupt(void);
/* Lines almost like the runtime's band lines, between good ones. */
void test_paths_odd_lines(void);
/* Band orders that change from sample to sample, against the census
 * the test works out itself. */
void test_paths_orders(void);
/* Labels guessed after the same band that differ in one byte: each
 * length from 1 to 40 and each place. */
void test_paths_labels(void);
/* A band line refused by the census in the middle of a run. */
void test_paths_refused(void);

#endif
