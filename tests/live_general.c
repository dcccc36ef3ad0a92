/*
 * The live state's general path (see live_general.h).
 */
#include "live_general.h"

#include <string.h>

bool live_general_init(live_general *g, long name_limit)
{
    uint16_t tags[512];
    size_t n = hs_census_event_tags(tags, 256);
    n += hs_summary_event_tags(tags + n, 256);
    g->r = hs_reader_new();
    g->c = hs_census_new();
    g->s = hs_summary_new();
    g->status = HS_OK;
    if (!g->r || !g->c || !g->s) {
        live_general_free(g);
        return false;
    }
    hs_reader_decode_only(g->r, tags, n);
    if (name_limit >= 0)
        hs_census_set_name_limit(g->c, (unsigned)name_limit);
    return true;
}

void live_general_free(live_general *g)
{
    hs_reader_free(g->r);
    hs_census_free(g->c);
    hs_summary_free(g->s);
    memset(g, 0, sizeof *g);
}

int live_general_feed(live_general *g, const uint8_t *data, size_t len)
{
    if (g->status)
        return g->status;
    int st = hs_reader_feed(g->r, data, len);
    hs_event ev;
    while (st >= 0 && (st = hs_reader_next(g->r, &ev)) == HS_EVENT) {
        if ((st = hs_census_add_event(g->c, &ev)) != HS_OK ||
            (st = hs_summary_add_event(g->s, &ev)) != HS_OK)
            return g->status = st;
    }
    if (st == HS_DONE || st < 0)
        return g->status = st;
    return HS_OK;
}

int live_general_finish(live_general *g, const hs_error **err)
{
    int st = g->status < 0 ? g->status : hs_reader_finish(g->r);
    *err = hs_reader_error(g->r);
    if (st < 0 && st == g->status && st != (*err)->code)
        *err = st == hs_census_error(g->c)->code ? hs_census_error(g->c)
                                                 : hs_summary_error(g->s);
    if (st < 0)
        return st;
    hs_census_finish(g->c, st == HS_DONE);
    hs_summary_finish(g->s);
    return st;
}

bool live_general_same_state(const live_general *g, hs_live *l)
{
    const hs_census_info *a = hs_census_get_info(hs_live_census(l));
    const hs_census_info *b = hs_census_get_info(g->c);
    return a->events == b->events && a->end_time_ns == b->end_time_ns &&
           a->capabilities == b->capabilities && a->source == b->source &&
           hs_census_sample_count(hs_live_census(l)) ==
               hs_census_sample_count(g->c);
}
