/*
 * User markers, user messages (traceEvent) and heap-size lines (HEAP_SIZE, HEAP_LIVE, BLOCKS_SIZE).
 */
#include "heapscope/reader.h"
#include "census/census_impl.h"

#include <string.h>

int hs__census_grow_line(hs_census *c, hs_heap_line line,
                         const hs_event *ev)
{
    if (hs_grow(c->alloc, (void **)&c->lines[line], &c->cap_lines[line],
                c->nlines[line] + 1, sizeof(hs_census_point)))
        return hs__census_add_line_point(c, line, ev);
    /* the per-event path leaves the event's place unset: set it for the
     * error (hs__census_nomem) */
    c->cur_offset = ev->offset;
    c->cur_index = ev->index;
    return hs__census_nomem(c);
}

int hs__census_add_mark(hs_census *c, int list, uint64_t time, hs_str text_in)
{
    struct census_marks *m = &c->marks[list];
    if (!hs_grow(c->alloc, (void **)&m->v, &m->cap, m->n + 1, sizeof *m->v))
        return hs__census_nomem(c);
    const char *text = hs__census_dup(c, text_in);
    if (!text)
        return hs__census_nomem(c);
    if (m->n && time < m->v[m->n - 1].time_ns)
        m->unsorted = true;
    m->v[m->n++] = (hs_census_marker){time, text};
    return HS_OK;
}

size_t hs_census_marker_count(const hs_census *c)
{
    return c->marks[CENSUS_MARKERS].n;
}

const hs_census_marker *hs_census_marker_at(const hs_census *c, size_t i)
{
    const struct census_marks *m = &c->marks[CENSUS_MARKERS];
    return i < m->n ? &m->v[i] : NULL;
}

size_t hs_census_message_count(const hs_census *c)
{
    return c->marks[CENSUS_MESSAGES].n;
}

const hs_census_marker *hs_census_message_at(const hs_census *c, size_t i)
{
    const struct census_marks *m = &c->marks[CENSUS_MESSAGES];
    return i < m->n ? &m->v[i] : NULL;
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
