/*
 * A fingerprint of a decoded .mlpd event, so that the tests and the fuzz
 * target can check that two ways of feeding the reader (chunk sizes, a cut
 * file, gzip or plain) give the same events.
 */
#ifndef HEAPSCOPE_TEST_MLPDHASH_H
#define HEAPSCOPE_TEST_MLPDHASH_H

#include <heapscope/mlpd.h>

/* A hash of every field of the event, following its pointers (strings,
 * frames, references) rather than hashing them. */
uint64_t mlpd_hash(const hs_mlpd_event *e);

#endif
