/*
 * A CSV field as the CSV renderers write it (render_csv.c). Not part of
 * the public surface.
 */
#ifndef HEAPSCOPE_CSV_INTERNAL_H
#define HEAPSCOPE_CSV_INTERNAL_H

#include "common/internal.h"

/*
 * name as one quoted CSV field (libcsv's csv_write: any byte survives),
 * with a ' in front when `guard` and a spreadsheet would take it for a
 * formula; allocated with a, its length in *out_len; NULL when out of
 * memory.
 */
char *hs__csv_quote(const hs_allocator *a, const char *name, bool guard,
                    size_t *out_len);

#endif
