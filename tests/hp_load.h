/*
 * The .hp tests' helpers (hp_load.c).
 */
#ifndef HEAPSCOPE_TEST_HP_LOAD_H
#define HEAPSCOPE_TEST_HP_LOAD_H

#include <heapscope/heapscope.h>

/* The census of the file at path (hs_census_load_fd), NULL when it cannot
 * be opened; *status is the load's status. */
hs_census *load_path(const char *path, int *status);
/* The census of .hp text (hs_census_load_hp). */
hs_census *load_text(const char *text, int *status, hs_error *err);
/* The census rendered as .hp, asserted HS_OK; malloc'd. */
char *render_hp(const hs_census *c);

/* A small .hp file that reads and renders back byte for byte. */
extern const char good_hp[];

#endif
