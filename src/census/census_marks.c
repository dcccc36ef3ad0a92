/*
 * User markers and heap-size lines (HEAP_SIZE, HEAP_LIVE, BLOCKS_SIZE).
 */
#include "heapscope/reader.h"
#include "census/census_impl.h"

#include <string.h>

int hs__census_add_line_point(hs_census *c, hs_heap_line line,
                              const hs_event *ev)
{
    if (!hs_grow(c->alloc, (void **)&c->lines[line], &c->cap_lines[line],
                 c->nlines[line] + 1, sizeof(hs_census_point)))
        return hs__census_nomem(c);
    size_t n = c->nlines[line];
    if (n && ev->time < c->lines[line][n - 1].time_ns)
        c->lines_unsorted[line] = true;
    c->lines[line][n] = (hs_census_point){ev->time, ev->u.heap.bytes};
    c->nlines[line]++;
    return HS_OK;
}

int hs__census_add_marker(hs_census *c, uint64_t time, hs_str text_in)
{
    if (!hs_grow(c->alloc, (void **)&c->markers, &c->cap_markers, c->nmarkers + 1,
                 sizeof *c->markers))
        return hs__census_nomem(c);
    const char *text = hs__census_dup(c, text_in);
    if (!text)
        return hs__census_nomem(c);
    if (c->nmarkers && time < c->markers[c->nmarkers - 1].time_ns)
        c->markers_unsorted = true;
    c->markers[c->nmarkers++] = (hs_census_marker){time, text};
    return HS_OK;
}

size_t hs_census_marker_count(const hs_census *c) { return c->nmarkers; }

const hs_census_marker *hs_census_marker_at(const hs_census *c, size_t i)
{
    return i < c->nmarkers ? &c->markers[i] : NULL;
}

size_t hs_census_heap_line(const hs_census *c, hs_heap_line line,
                           const hs_census_point **points)
{
    if ((unsigned)line >= HS_LINE_COUNT) {
        *points = NULL;
        return 0;
    }
    *points = c->lines[line];
    return c->nlines[line];
}
