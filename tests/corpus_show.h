/*
 * The corpus test's printer (corpus_show.c).
 */
#ifndef HEAPSCOPE_TEST_CORPUS_SHOW_H
#define HEAPSCOPE_TEST_CORPUS_SHOW_H

#include <heapscope/heapscope.h>

#include <stdbool.h>
#include <stddef.h>

typedef struct sbuf {
    char *s;
    size_t len, cap;
} sbuf;

/*
 * The event described as `ghc-events show` describes it, for the tags this
 * test checks field by field; false for other tags. Every number and
 * string of the description comes from the reader's decoded fields.
 */
bool describe(const hs_event *e, sbuf *b);

#endif
