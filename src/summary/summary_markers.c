/*
 * The summary's user markers: every time each distinct USER_MARKER name
 * occurs, so that a window can be given by marker names (--between) and
 * the log's markers listed when a name is missing. Names are interned
 * once (common's hs_intern); memory is O(marker events).
 */
#include "summary/summary_internal.h"

#include <stdarg.h>
#include <stdio.h>

int summary_marker_add(hs_summary *s, hs_str name, uint64_t t)
{
    uint32_t index;
    bool added;
    /* Make room in markers[] first so that a failure leaves the intern
     * table and the array the same length. */
    if (!hs_grow(s->alloc, (void **)&s->markers, &s->markers_cap,
                 s->marker_names.count + 1, sizeof *s->markers) ||
        !hs_intern_put(&s->marker_names, name.ptr, name.len, &index, &added))
        return summary_nomem(s);
    marker *m = &s->markers[index];
    if (added) {
        memset(m, 0, sizeof *m);
        m->first = t;
    }
    if (!hs_grow(s->alloc, (void **)&m->times, &m->cap, m->ntimes + 1,
                 sizeof *m->times))
        return summary_nomem(s);
    m->times[m->ntimes++] = t;
    if (t < m->first)
        m->first = t;
    return HS_OK;
}

static int by_first_time(const void *a, const void *b)
{
    const marker_ref *x = a, *y = b;
    if (x->first != y->first)
        return x->first < y->first ? -1 : 1;
    /* equal times: first seen first, so the order is stable */
    return x->index < y->index ? -1 : x->index > y->index;
}

int summary_markers_finish(hs_summary *s)
{
    size_t n = s->marker_names.count;
    if (!n)
        return HS_OK;
    hs_free(s->alloc, s->marker_order); /* an earlier snapshot's */
    s->marker_order = hs_calloc(s->alloc, n, sizeof *s->marker_order);
    if (!s->marker_order)
        return HS_ERR_NOMEM;
    for (size_t i = 0; i < n; i++)
        s->marker_order[i] = (marker_ref){s->markers[i].first, (uint32_t)i};
    qsort(s->marker_order, n, sizeof *s->marker_order, by_first_time);
    return HS_OK;
}

size_t hs_summary_marker_count(const hs_summary *s)
{
    return s->marker_names.count;
}

hs_str hs_summary_marker(const hs_summary *s, size_t i, uint64_t *count,
                         uint64_t *first_ns)
{
    if (i >= s->marker_names.count)
        return (hs_str){NULL, 0};
    size_t k = s->marker_order ? s->marker_order[i].index : i;
    const marker *m = &s->markers[k];
    if (count)
        *count = m->ntimes;
    if (first_ns)
        *first_ns = m->first;
    const struct hs_intern_key *key = &s->marker_names.keys[k];
    return (hs_str){key->ptr, key->len};
}

static const marker *find(const hs_summary *s, hs_str name)
{
    uint32_t k = hs_intern_find(&s->marker_names, name.ptr, name.len);
    return k == UINT32_MAX ? NULL : &s->markers[k];
}

int hs_summary_marker_window(const hs_summary *s, hs_str from, hs_str to,
                             uint64_t *from_ns, uint64_t *to_ns,
                             hs_error *err)
{
    hs__error_clear(err);
    if (!s->finished) {
        return hs__error_set(err, HS_ERR_MISUSE, NULL,
                             "hs_summary_marker_window() before "
                             "hs_summary_finish()");
    }
    const marker *a = find(s, from), *b = find(s, to);
    if (!a || !b) {
        const hs_str miss = !a ? from : to;
        return hs__error_set(err, HS_ERR_NO_DATA, NULL,
                             "the log has no user marker named \"%.*s\"",
                             miss.len > 200 ? 200 : (int)miss.len, miss.ptr);
    }
    const uint64_t t0 = a->first;
    bool found = false;
    uint64_t t1 = 0;
    for (size_t i = 0; i < b->ntimes; i++)
        if (b->times[i] > t0 && (!found || b->times[i] < t1)) {
            t1 = b->times[i];
            found = true;
        }
    if (!found) {
        return hs__error_set(err, HS_ERR_NO_DATA, NULL,
                             "user marker \"%.*s\" does not occur after "
                             "\"%.*s\" (first at %.6f s)",
                             to.len > 100 ? 100 : (int)to.len, to.ptr,
                             from.len > 100 ? 100 : (int)from.len, from.ptr,
                             (double)t0 / 1e9);
    }
    *from_ns = t0;
    *to_ns = t1;
    return HS_OK;
}
