/*
 * Band names shortened for legends: the one rule the SVG/PDF/PNG chart's
 * legend and the page's (templates/page/format.mjs, shortLabels) follow,
 * held by one file of test vectors both test (tests/page/short_labels.txt).
 * Internal to render.
 */
#ifndef HEAPSCOPE_SHORT_LABEL_H
#define HEAPSCOPE_SHORT_LABEL_H

#include "common/internal.h"

/*
 * Labels of at most `max` characters (code points) for n distinct names,
 * all distinct: each name too long is cut in the middle, its first
 * ceil((max - 1) * 0.45) characters, "…" and its last ones kept; names
 * whose cuts meet lose the prefix they share instead (but its last three
 * characters), "…" and the rest cut again to max - 1; where even that
 * meets, the whole name. Returns n strings (free with
 * hs__short_labels_free), or NULL when out of memory.
 */
char **hs__short_labels(const hs_allocator *a, const char *const *names,
                        size_t n, size_t max);
void hs__short_labels_free(const hs_allocator *a, char **labels, size_t n);

#endif
