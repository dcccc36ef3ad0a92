/*
 * The summary tests' helpers (summary_run.c).
 */
#ifndef HEAPSCOPE_TEST_SUMMARY_RUN_H
#define HEAPSCOPE_TEST_SUMMARY_RUN_H

#include <heapscope/heapscope.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Summarises a log held in memory, fed to the reader in chunks of
 * `chunk` bytes, with an optional window. Returns the finished summary
 * (caller frees) and hs_summary_finish()'s status in *fin.
 */
hs_summary *summarise(const uint8_t *data, size_t len, size_t chunk,
                      const hs_summary_window *w, int *fin);
/* The summary as text or JSON, malloc'd. */
char *summary_render(const hs_summary *s, bool json);

#endif
