/*
 * The pass over an eventlog in two threads (load/load_par.c) against the
 * pass in one, for test_onepass.c: same status, error (message, byte
 * offset, event), census, warnings and summary.
 */
#ifndef HEAPSCOPE_TESTS_ONEPASS_PAR_H
#define HEAPSCOPE_TESTS_ONEPASS_PAR_H

/* The file at path loaded both ways, read from the file and from a pipe
 * in odd pieces. */
void par_same_file(const char *path);

/* A small log cut at every byte, fed in odd chunks. */
void test_par_cut(void);
/* The same log with every other byte in turn corrupt. */
void test_par_corrupt(void);
/* Each allocation of the summary's allocator failed in turn (the same
 * failure and offset both ways), then the census's (which the readers
 * share: a failure or the whole result, nothing leaked). */
void test_par_nomem(void);

#endif
