/*
 * CSV fields as every CSV the renderers write quotes them; not part of
 * the public surface.
 */
#ifndef HEAPSCOPE_CSV_INTERNAL_H
#define HEAPSCOPE_CSV_INTERNAL_H

#include "heapscope/common.h"

#include <stdbool.h>
#include <stddef.h>

/*
 * s as one CSV field through libcsv's csv_write (always quoted, so any
 * text survives a CSV reader), with a ' in front when guard is set and a
 * spreadsheet would take s for a formula (it begins with = + - @ TAB or
 * CR). A new string (not NUL-terminated) of *len bytes allocated through
 * alloc, or NULL when out of memory.
 */
char *hs__csv_quote(const hs_allocator *alloc, const char *s, bool guard,
                    size_t *len);

#endif
