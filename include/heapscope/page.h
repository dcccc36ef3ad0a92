/*
 * heapscope/page.h: the interactive report page.
 *
 * One self-contained HTML file: the census embedded once as compact
 * columnar JSON, the project's own JavaScript and CSS (templates/, built
 * into the library), a Content-Security-Policy that forbids every network
 * request (except fetching `live_url` when one is given), and, for readers
 * without JavaScript, the SVG chart and the band table inline. It works
 * from file://.
 *
 * The page draws the bands in a <canvas> (stacked area, normalized or
 * lines), with hover read-outs, legend isolation, search, zoom, markers,
 * the user messages (traceEvent) as a track under the chart (merged by
 * pixel with their count, hover lists them, a click zooms in; a checkbox
 * hides it) and in a searchable Messages tab,
 * the heap lines in a panel of their own, a table of every band, the GC
 * figures of a summary (as JSON), and flame views of -hc stacks and -p time
 * profiles. Colours are those hs_render_chart() gives the same bands with
 * the same options.
 *
 * Choosing bands: a click on a cost-centre frame admits every band whose
 * stack starts with the frame's path, over every sample whatever the
 * icicle's weighting; the search admits the bands it matches (a bad
 * /regex/ and no match are said, never an empty chart alone); the legend
 * offers what those two admit, largest first, each entry a checkbox that
 * a choice never takes away (click: that band alone, again: all;
 * ctrl/shift-click or Space: add or take it; Enter: as a click), with an
 * "n of m bands shown" line; a name too long for its entry is cut in the
 * middle, every label distinct (the full name on hover). Past the
 * largest `bands` the rest of what
 * is admitted is drawn as one OTHER band.
 *
 * The Bands table lists every band with where it comes from (a -hc
 * band's innermost cost centre's module and source location; a -hi band's
 * info table, closure type, Haskell type, label, module and source
 * location, each a column), its peak, share and growth over the time shown
 * and over its last third (bytes/s) and whether it is still growing at the
 * end (hs_census_band_growth's rule; a zoomed window's by the same rule);
 * every column sorts, the filter takes words or column:value (module:M,
 * src:S, file:F, type:T, ...), and the rows group by module or by source
 * file. The chart's "growing" quick filter admits only the bands still
 * growing at the end of the time shown. Cost-centre frames and tooltips
 * name the source location too.
 *
 * The page's read-only hook for tests and the curious, window.heapscope:
 *   state        the view's settings (search, visible, ccPath, win, ...)
 *   runs         the decoded runs
 *   drawn        per run, the names of the series drawn (OTHER included)
 *   admitted(k)  the full names of the bands run k's view admits (the
 *                cost-centre subtree, the legend's choice, the search),
 *                largest first, before the cut to the largest N
 *   xOf(t, k), yOf(frac, k), geo(k)   the chart's geometry
 *   linesYmax(k) the top of run k's heap-lines panel in bytes (a compare
 *                page's runs share it)
 *   msgBuckets(k) the user-message track of run k as drawn: [{t0, t1, n,
 *                hits}] (n messages the page carries, hits the Messages
 *                search's matches)
 *   setWindow(t0, t1), redraw(), busy, scriptStart, firstDraw
 * Legend entries carry data-name (the band's full name) and data-peak
 * (its peak in view, bytes); icicle frames carry data-path (the JSON
 * array of frame names from the outermost); the Bands table's header cells
 * carry data-key (the column) and its rows data-band (the band's index)
 * or, for a group's header, data-group.
 *
 * Like every renderer it reads a finished census and writes to a sink;
 * memory comes from the census's allocator.
 */
#ifndef HEAPSCOPE_PAGE_H
#define HEAPSCOPE_PAGE_H

#include "common.h"
#include "census.h"
#include "render.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A link to a sibling output file, shown in the page's file list. */
typedef struct hs_page_link {
    const char *href;   /* relative URL, e.g. "prog.svg" */
    const char *label;  /* NULL: the href */
} hs_page_link;

/*
 * What the page shows and how it starts. Every pointer is borrowed for the
 * duration of the call only; strings are NUL-terminated and may hold any
 * bytes (invalid UTF-8 is shown as U+FFFD).
 */
typedef struct hs_page_options {
    size_t size;  /* sizeof as the caller knew it; set by _init (common.h) */
    const char *title;        /* NULL: the program's command line */
    const char *input;        /* the input's name, shown in the footer */
    const char *input_after;  /* compare pages: the second run's name */

    /* The starting state, as `heapscope chart` takes it. */
    unsigned bands;           /* largest N drawn, the rest as OTHER; 0 = all */
    const char *const *include; /* NULL-terminated substrings/globs, or NULL */
    const char *const *exclude;
    hs_chart_sort sort;
    hs_chart_kind kind;

    /*
     * The GC tab's figures: one JSON object as hs_summary_render_json()
     * (an eventlog) or hs_mlpd_summary_json() (a Mono .mlpd) writes it
     * (the caller runs the summary: renderers do not depend on it), or
     * NULL for none. Embedded as it is, escaped for <script>.
     */
    const char *gc_json;
    /*
     * Compare pages: the comparison as hs_render_diff_json() writes it
     * (the caller runs the diff: renderers do not depend on it), embedded
     * as it is under "diff" for the page's Change tab; NULL for none.
     */
    const char *diff_json;
    const hs_page_link *links;  /* sibling files, nlinks of them */
    size_t nlinks;

    /*
     * Non-NULL: the page fetches this URL (same origin) every
     * live_interval_ms for a fresh hs_render_page_data() document and
     * redraws in place, keeping zoom, selection and toggles.
     */
    const char *live_url;
    unsigned live_interval_ms;  /* 0: 1000 */

    /*
     * A line the page shows above its views, or NULL: a live page says
     * there why it has no heap census yet (hs_live_census_hint()).
     */
    const char *notice;

    bool no_inline_chart;     /* leave out the SVG chart for no-JS readers */

    /*
     * The inline chart already drawn, or NULL: the SVG document
     * hs_render_chart() wrote for the same census with the page's bands,
     * include, exclude, sort and kind, SVG at the default size and no
     * title of its own. A caller that writes that chart anyway (`report`
     * writes NAME.svg) gives it here, and the page embeds it instead of
     * drawing the same chart again, when the chart's title is the page's:
     * without opt->title, for a run that gives its command line. Otherwise
     * the page draws its own. The bytes are the same either way, but for
     * the number in cairo's id="surfaceN", which counts the surfaces the
     * process has made.
     */
    const char *chart_svg;
} hs_page_options;

/* Fills *opt with the defaults: 15 bands, size sort, area, no GC tab. */
HS_API void hs_page_options_init_size(hs_page_options *opt, size_t size);
static inline void hs_page_options_init(hs_page_options *opt)
{
    hs_page_options_init_size(opt, sizeof *opt);
}

/*
 * Writes the whole page. The census may hold heap samples, a time profile,
 * ticky counters (a Ticky tab), any of them, or none when opt->gc_json gives a GC tab to show (a log with GC
 * events alone) or opt->live_url is set: a live page renders a run from
 * its first byte (heap size and live bytes from the first GC event, before
 * any census; an empty census gives a page that waits). Returns HS_OK, HS_ERR_NO_DATA (nothing written) when
 * there is nothing to show, HS_ERR_INVALID for a bad option, HS_ERR_NOMEM,
 * or HS_ERR_IO from the sink (output so far is incomplete: write through
 * hs_output).
 */
HS_API int hs_render_page(const hs_census *c, hs_sink *out,
                          const hs_page_options *opt);

/*
 * Writes only the data document the page embeds: one JSON object (UTF-8,
 * every '<', '>', '&', U+2028 and U+2029 escaped so it can stand inside a
 * <script> element). It is what a live server returns at live_url. Keys:
 *   v          format version (1)
 *   title, input, program, rts, breakdown ("hc", ...), breakdown_name,
 *   profile    hs_census_profile_label(), or null
 *   subtitle   the line under the title, as plain text
 *   notice     opt->notice, or null
 *   state      {bands, include[], exclude[], sort, kind}
 *   t          sample times, microseconds, as an encoded integer column
 *   exact      true when every sample is kept; false when the samples
 *              were merged into `t`'s intervals keeping each band's
 *              maximum (then `merged_from` says how many samples)
 *   bands      [{n: name, c: "#rrggbb", h: 0|1 hatched, pk: peak bytes,
 *               pt: peak time us, bs: byte-seconds, sd: stddev (the
 *               whole run's, from every sample even when `t` is merged:
 *               hs_census_band_stats(); the page shows these for the
 *               whole run and computes a zoomed window's by the same rule),
 *               gr: [growth over the run, over its last third (bytes/s),
 *               bytes at the last sample, 1 when still growing at the
 *               end] (hs_census_band_growth(), from every sample),
 *               ip: -hi only, its IPE record [info table, closure type,
 *               Haskell type, label, module, source location]
 *               (hs_census_band_ipe()),
 *               g: the bytes' common divisor, d: the encoded column of
 *               bytes / g, s: -hc stack as frame indices innermost first}]
 *   frames     the cost centres of the stacks: [module, label, source
 *              location ("Leak.hs:6:34-37", or "")]
 *   markers    [[time us, text]]
 *   msgs       the user messages (traceEvent, USER_MSG): {total: how many
 *              the log holds, step: the page carries every step-th
 *              (1 up to 10,000 messages, then the smallest step that keeps
 *              at most 10,000), cut: each text's bound in bytes (240, cut
 *              at a character boundary), list: [[time us, text]]}
 *   lines      {heap, live, blocks}: [times column, bytes column]
 *   tprof      null or {tick_us, bucket_us, merged_until_us: a live
 *               census's ticks before merged_until_us are merged into
 *               buckets of bucket_us (hs_census_tprof_bucket_ns()), so
 *               windows there are that precise; 0 and 0 when none is,
 *               stacks: [[ticks, [frames...]]],
 *               caps: [[stack, cap, ticks]], iv: the profile over time:
 *               {n: intervals, w_ns: their width (interval k starts at
 *               k * w_ns from the log's start), cc: [[frame, srcloc]]
 *               the cost centres with columns, most self ticks first,
 *               root: 1 when a column follows for samples of an empty
 *               stack (folded's MAIN), other: 1 when a last column sums
 *               the rest (its inherited: samples with any), self and inh:
 *               per column an encoded column of n self (inherited) ticks;
 *               a sample is one tick, inherited once per cost centre
 *               however often it recurs in the stack; self ticks add up
 *               to the samples}}
 *   ticky      null or {times_us: [ticky sample times], counters: [{id,
 *               name, arity, arg_kinds, entries, allocs, allocd, samples,
 *               defined, info_table, closure_desc, type, label, module,
 *               srcloc (as hs_render_ticky's JSON), points: [sample,
 *               entries, allocs, allocd, sample, ...] flat, per sample
 *               the counter moved in, or null past 250,000 points in
 *               all}]}, counters by allocd then entries
 *   gc         null or opt->gc_json
 *   links      [[href, label]]
 * An encoded integer column is a string: each value is the zigzag delta
 * from the previous one in a base-32 varint, low digit first, of the
 * characters "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef" (digit values 0..31, the
 * last digit of a varint) and "ghijklmnopqrstuvwxyz0123456789-_" (0..31,
 * more digits to come); a zero delta repeated n >= 2 times is written as
 * the varint of 2n+1 and any other delta d as the varint of 2*zigzag(d);
 * a column shorter than its count repeats its last value (see
 * src/render/page_column.c and templates/page/decode.mjs, decodeColumn()).
 * Returns as hs_render_page().
 */
HS_API int hs_render_page_data(const hs_census *c, hs_sink *out,
                               const hs_page_options *opt);

/*
 * Writes a page with two runs one above the other (what `heapscope diff
 * -d` writes): the same y scale for the bands and for the heap lines, the
 * same colour for a band of the same name, hover showing both runs' values
 * at the same (normalised or absolute) time, isolation applying to both; a
 * subtitle naming both runs; a Bands tab with both runs side by side and,
 * with opt->diff_json, a Change tab (its data document's "diff"). opt
 * applies to both; its gc_json is ignored. Returns as hs_render_page(); HS_ERR_NO_DATA when
 * either census has no heap samples.
 */
HS_API int hs_render_page_compare(const hs_census *before,
                                  const hs_census *after,
                                  hs_sink *out, const hs_page_options *opt);

#ifdef __cplusplus
}
#endif

#endif
