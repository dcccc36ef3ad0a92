/*
 * The live state's one pass against the event-by-event path on fuzzed
 * input (see live_general.h and tests/live_paths.c).
 */
#include "live_general.h"

#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

void live_general_init(live_general *g, long name_limit)
{
    uint16_t tags[512];
    size_t n = hs_census_event_tags(tags, 256);
    n += hs_summary_event_tags(tags + n, 256);
    g->r = hs_reader_new();
    g->c = hs_census_new();
    g->s = hs_summary_new();
    g->status = HS_OK;
    CHECK(g->r && g->c && g->s);
    hs_reader_decode_only(g->r, tags, n);
    if (name_limit >= 0)
        hs_census_set_name_limit(g->c, (unsigned)name_limit);
}

void live_general_free(live_general *g)
{
    hs_reader_free(g->r);
    hs_census_free(g->c);
    hs_summary_free(g->s);
    memset(g, 0, sizeof *g);
}

static int general_feed(live_general *g, const uint8_t *data, size_t len)
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

static void same_state(const live_general *g, hs_live *l)
{
    const hs_census_info *a = hs_census_get_info(hs_live_census(l));
    const hs_census_info *b = hs_census_get_info(g->c);
    CHECK(a->events == b->events && a->end_time_ns == b->end_time_ns);
    CHECK(a->capabilities == b->capabilities && a->source == b->source);
    CHECK(hs_census_sample_count(hs_live_census(l)) ==
          hs_census_sample_count(g->c));
}

void live_general_feed(live_general *g, hs_live *l, int live_st,
                       const uint8_t *data, size_t len)
{
    if (!g->r)
        return;
    CHECK(general_feed(g, data, len) == live_st);
    same_state(g, l);
}

static char *as_csv(const hs_census *c)
{
    hs_membuf m;
    memset(&m, 0, sizeof m);
    hs_sink s = hs_membuf_sink(&m);
    int st = hs_render_csv(c, &s, HS_CSV_WIDE);
    if (st == HS_OK)
        st = hs_sink_write(&s, "", 1);
    if (st != HS_OK) {
        hs_membuf_free(&m);
        return NULL;
    }
    return m.data;
}

void live_general_finish(live_general *g, hs_live *l, int fin)
{
    if (!g->r)
        return;
    int st = g->status < 0 ? g->status : hs_reader_finish(g->r);
    if (st >= 0) {
        hs_census_finish(g->c, st == HS_DONE);
        hs_summary_finish(g->s);
    }
    CHECK(st == fin);
    const hs_error *ea = hs_live_error(l), *eb = hs_reader_error(g->r);
    if (st < 0 && st == g->status && st != eb->code)
        eb = st == hs_census_error(g->c)->code ? hs_census_error(g->c)
                                               : hs_summary_error(g->s);
    if (st < 0 || st == HS_TRUNCATED) {
        /* a cut inside a sample says so after the reader's words */
        CHECK(ea->offset == eb->offset);
        CHECK(!strncmp(ea->message, eb->message, strlen(eb->message)));
    }
    if (st >= 0) {
        same_state(g, l);
        CHECK(hs_summary_get_stats(hs_live_summary(l))->events ==
              hs_summary_get_stats(g->s)->events);
        char *a = as_csv(hs_live_census(l)), *b = as_csv(g->c);
        CHECK((a == NULL) == (b == NULL) && (!a || !strcmp(a, b)));
        free(a);
        free(b);
    }
}
