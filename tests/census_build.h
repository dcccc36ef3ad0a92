/*
 * The census tests' helpers (census_build.c).
 */
#ifndef HEAPSCOPE_TEST_CENSUS_BUILD_H
#define HEAPSCOPE_TEST_CENSUS_BUILD_H

#include <heapscope/heapscope.h>

#include "evwriter.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Builds a census from bytes, fed in chunks of `chunk` bytes (0: all). */
hs_census *census_from(const uint8_t *data, size_t len, size_t chunk,
                       unsigned limit, int *status);
/* census_from(w->data, w->len, 0, 0, NULL). */
hs_census *census_of(evw *w);
/* The index of the band named `name`, or -1. */
long band_named(const hs_census *c, const char *name);
/* Bytes of band `name` in sample i (0 when absent; -1 when no band). */
long long bytes_in(const hs_census *c, size_t i, const char *name);
/* Whether a warning of c contains `needle`. */
bool has_warning(const hs_census *c, const char *needle);
/* A program-arguments event (tag 30) at time t. */
void args_event(evw *w, uint64_t t, const char *const *argv, int n);
/* A GHC 9.x -hc log: cost centres, two samples, markers. */
void build_hc(evw *w);
/* Loads bytes with hs_census_load_fd from a temporary file. */
hs_census *census_load_bytes(const uint8_t *data, size_t len, int *st,
                             hs_error *err);

#endif
