/*
 * libFuzzer target for the whole pipeline: bytes -> census -> every
 * renderer into memory, and the GC summary.
 *
 * Input: one mode byte, then the bytes of an eventlog or a .hp file (the
 * census tells them apart by content, as the command line does). The
 * target asserts the properties the integrity issue asks for, so that a
 * violation is a crash the fuzzer keeps:
 *
 *  - one loading path, one answer: hs_census_load_fd() on the bytes and
 *    hs_reader + hs_census_add_event() fed in pieces give the same census
 *    (samples, times, totals, end time, bands), for the whole input and
 *    for the prefix the diff compares it with;
 *  - whatever `hp` writes, `hp` reads back to the same samples: the .hp
 *    rendered from the census loads without error, and rendering that
 *    census again gives the same bytes;
 *  - every renderer returns a status from its documented set and never
 *    writes a partial output without saying so;
 *  - the GC summary's JSON, the page's data document and the diff's JSON
 *    are JSON; the report page embeds its data as it is and keeps every
 *    name out of its markup (fuzz_report.c);
 *  - a run compared with itself changes nothing, and compared with a
 *    prefix of itself (a run cut short) its bands are new, gone or in both
 *    as their members say, in the diff's order; both diffs carry the GC
 *    summaries of their runs (an eventlog's), which their text and JSON
 *    show.
 *
 * Mode bit 0: also render a small SVG chart, bits 5-6 picking its size
 * from the smallest the renderer takes up to 320 x 200 (cairo writing the
 * SVG is most of what a chart costs, and that grows with the width; small
 * sides also try the legend's and the axes' cramped layouts). Bits 1-4:
 * the chunk size (1-16) of the fed path and where the prefix ends. Bits
 * 5-7 pick the page's and the diffs' options; with bits 0 and 7 both set
 * the prefix diff draws its chart, and with bits 5 and 6 set as well the
 * page has its inline chart instead of the small one (charts are most of
 * the target's time: an input draws at most two).
 */
#include "fuzz_common.h"
#include "fuzz_report.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The eventlog through the push-fed reader and hs_census_add_event, in
 * chunks of `chunk` bytes; NULL unless the bytes are an eventlog that
 * decodes to its end or to a truncation. */
static hs_census *feed_events(const uint8_t *data, size_t size, size_t chunk,
                              hs_summary *sum)
{
    hs_reader *r = hs_reader_new();
    hs_census *c = hs_census_new();
    CHECK(r && c);
    int st = HS_NEED_INPUT;
    size_t pos = 0;
    bool failed = false;
    while (!failed && st != HS_DONE) {
        size_t n = size - pos < chunk ? size - pos : chunk;
        if (n == 0)
            break;
        if (hs_reader_feed(r, data + pos, n) < 0)
            failed = true;
        pos += n;
        hs_event ev;
        while ((st = hs_reader_next(r, &ev)) == HS_EVENT) {
            if (hs_census_add_event(c, &ev) < 0 ||
                hs_summary_add_event(sum, &ev) < 0) {
                failed = true;
                break;
            }
        }
        if (st < 0)
            failed = true;
    }
    int fin = failed ? -1 : hs_reader_finish(r);
    hs_reader_free(r);
    if (fin != HS_DONE && fin != HS_TRUNCATED) {
        hs_census_free(c);
        return NULL;
    }
    if (hs_census_finish(c, fin == HS_DONE) < 0) {
        hs_census_free(c);
        return NULL;
    }
    return c;
}

/* The GC summary of an eventlog's bytes fed in chunks of `chunk`, finished;
 * NULL when they do not decode to their end or to a cut. With `same` (the
 * census the same bytes loaded to), they must decode, and the census fed
 * alongside must equal it. */
static hs_summary *summary_of(const uint8_t *data, size_t size, size_t chunk,
                              const hs_census *same)
{
    hs_summary *sum = hs_summary_new();
    CHECK(sum != NULL);
    hs_census *fed = feed_events(data, size, chunk, sum);
    CHECK(fed || !same); /* bytes that load as an eventlog also feed */
    if (fed && same)
        same_census(same, fed);
    bool ok = fed && hs_summary_finish(sum) >= 0;
    hs_census_free(fed);
    if (!ok) {
        hs_summary_free(sum);
        return NULL;
    }
    return sum;
}

/* The summary as text into a sink that only counts (fuzz_common.c says
 * why) and as JSON into json, checked as JSON: each succeeds or has no
 * data, and then writes nothing. Returns whether the JSON was written. */
static bool render_summary(const hs_summary *sum, hs_membuf *json)
{
    size_t counted = 0;
    hs_sink s = {count_write, &counted};
    int st = hs_summary_render_text(sum, &s);
    s = hs_membuf_sink(json);
    int js = hs_summary_render_json(sum, &s);
    check_summary_pair(st, counted, js, json);
    return js == HS_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > (1u << 20))
        return 0;
    const uint8_t mode = data[0];
    data++;
    size--;

    int st;
    hs_census *c = load_bytes(data, size, &st);
    if (!c)
        return 0;
    CHECK(st == HS_OK || st == HS_TRUNCATED);
    render_all(c);
    bool charts = (mode & 0x81) == 0x81;
    /* the inline chart is of the default size, ten times a small one */
    bool inline_chart = (mode & 0xe1) == 0xe1;
    if ((mode & 1) && !inline_chart) {
        static const unsigned sides[4][2] = {
            {320, 200}, {160, 160}, {200, 160}, {160, 320}};
        const unsigned *wh = sides[(mode >> 5) & 3];
        render_small_chart(c, wh[0], wh[1]);
    }
    hp_round_trip(c);

    /* The same bytes fed as events: the same census, and a summary. */
    hs_membuf gc;
    memset(&gc, 0, sizeof gc);
    hs_summary *sum =
        hs_census_get_info(c)->source == HS_SOURCE_EVENTLOG
            ? summary_of(data, size, 1 + ((mode >> 1) & 15), c)
            : NULL;
    bool has_gc = sum && render_summary(sum, &gc);

    /* The report page with the summary as its GC tab, and the diffs. */
    check_page(c, has_gc ? gc.data : NULL,
               ((unsigned)mode >> 3 & 0x1c) | ((mode >> 1) & 3) |
                   (inline_chart ? PAGE_CHART : 0));
    hs_membuf_free(&gc);
    const hs_summary_stats *stats = sum ? hs_summary_get_stats(sum) : NULL;
    check_self_diff(c, stats, (unsigned)mode >> 5);
    size_t cut = size * (1 + ((mode >> 1) & 15)) / 17;
    int pst;
    hs_census *prefix = load_bytes(data, cut, &pst);
    if (prefix) {
        /* the prefix's own summary, when the whole has one; the prefix
         * fed as events must give the census loaded from it */
        hs_summary *psum =
            sum && hs_census_get_info(prefix)->source == HS_SOURCE_EVENTLOG
                ? summary_of(data, cut, cut + 1, prefix)
                : NULL;
        const hs_summary_stats *ps = psum ? hs_summary_get_stats(psum) : NULL;
        unsigned flags = ((unsigned)mode >> 5) | (charts ? DIFF_CHART : 0);
        if (mode & 2) {
            const hs_summary_stats *g[2] = {ps, stats};
            check_diff(prefix, c, g, flags);
        } else {
            const hs_summary_stats *g[2] = {stats, ps};
            check_diff(c, prefix, g, flags);
        }
        hs_summary_free(psum);
        hs_census_free(prefix);
    }
    hs_summary_free(sum);
    hs_census_free(c);
    return 0;
}
