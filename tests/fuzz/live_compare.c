/*
 * The live state's one pass against the event-by-event path on fuzzed
 * input (live_compare.h; the checks tests/live_paths.c makes on samples).
 */
#include "live_compare.h"

#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

void live_compare_feed(live_general *g, hs_live *l, int live_st,
                       const uint8_t *data, size_t len)
{
    if (!g->r)
        return;
    CHECK(live_general_feed(g, data, len) == live_st);
    CHECK(live_general_same_state(g, l));
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

void live_compare_finish(live_general *g, hs_live *l, int fin)
{
    if (!g->r)
        return;
    const hs_error *eb;
    int st = live_general_finish(g, &eb);
    CHECK(st == fin);
    const hs_error *ea = hs_live_error(l);
    if (st < 0 || st == HS_TRUNCATED) {
        /* a cut inside a sample says so after the reader's words */
        CHECK(ea->offset == eb->offset);
        CHECK(!strncmp(ea->message, eb->message, strlen(eb->message)));
    }
    if (st >= 0) {
        CHECK(live_general_same_state(g, l));
        CHECK(hs_summary_get_stats(hs_live_summary(l))->events ==
              hs_summary_get_stats(g->s)->events);
        char *a = as_csv(hs_live_census(l)), *b = as_csv(g->c);
        CHECK((a == NULL) == (b == NULL) && (!a || !strcmp(a, b)));
        free(a);
        free(b);
    }
}
