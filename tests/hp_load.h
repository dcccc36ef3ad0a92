/*
 * The .hp tests' helpers (hp_load.c).
 */
#ifndef HEAPSCOPE_TEST_HP_LOAD_H
#define HEAPSCOPE_TEST_HP_LOAD_H

#include <heapscope/heapscope.h>

#include <stddef.h>

/* The census of the file at path (hs_census_load_fd), NULL when it cannot
 * be opened; *status is the load's status. */
hs_census *load_path(const char *path, int *status);
/* The census of .hp text (hs_census_load_hp). */
hs_census *load_text(const char *text, int *status, hs_error *err);
/* Loads `len` bytes through a SOCK_SEQPACKET pair written `chunk` bytes a
 * message by a thread, so hs_census_load_fd's every read() gets exactly
 * one chunk (0: all at once): the parser meets every chunk edge. *st is
 * the load's status, *err (may be NULL) its record. */
hs_census *load_chunked_err(const char *data, size_t len, size_t chunk,
                           int *st, hs_error *err);
/* load_chunked_err into a census that allocates through alloc. */
hs_census *load_chunked_with(const hs_allocator *alloc, const char *data,
                             size_t len, size_t chunk, int *st, hs_error *err);
hs_census *load_chunked(const char *data, size_t len, size_t chunk, int *st);
/* The census rendered as .hp, asserted HS_OK; malloc'd. */
char *render_hp(const hs_census *c);

/* A small .hp file that reads and renders back byte for byte. */
extern const char good_hp[];

#endif
