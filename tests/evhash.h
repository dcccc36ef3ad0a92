/*
 * Fingerprints of decoded events, so that tests and the fuzz target can
 * check that two ways of feeding the reader (chunk sizes, decoding modes)
 * yield the same events.
 */
#ifndef HEAPSCOPE_TEST_EVHASH_H
#define HEAPSCOPE_TEST_EVHASH_H

#include <heapscope/reader.h>

#define EVH_SEED 1469598103934665603ull

/* Mixes bytes, an integer (as 8 little-endian bytes) or a string (its
 * length, then its bytes) into *h; FNV-1a. */
void evh_mix(uint64_t *h, const void *p, size_t n);
void evh_mixu(uint64_t *h, uint64_t v);
void evh_mixs(uint64_t *h, hs_str s);

/* A hash of everything decoded from an event: the raw payload and every
 * field of the union member its tag selects (pointers are followed, never
 * hashed, since they differ between chunkings). */
uint64_t evh_fields(const hs_event *e);

/* A hash of the decoded fields alone (EVH_SEED when not `known`), driven
 * by the event table; a stack is hashed by its ids, whether the reader
 * converted them or left them raw. */
uint64_t evh_decoded(const hs_event *e);

#endif
