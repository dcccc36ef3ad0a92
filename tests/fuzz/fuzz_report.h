/*
 * The report page and the diff of two runs, as the fuzz targets that build
 * censuses (pipeline, mlpd) check them. Each check traps (CHECK) when a
 * property does not hold; see fuzz_report.c.
 */
#ifndef HEAPSCOPE_FUZZ_REPORT_H
#define HEAPSCOPE_FUZZ_REPORT_H

#include "fuzz_common.h"

/* Flags of check_page(): bits 0-1 the band limit (15, all, 1, 3), bits
 * 2-3 the sort, bit 4 the kind, PAGE_CHART the inline SVG chart and
 * PAGE_LIVE a live page (one that fetches its data from a URL, itself
 * markup, as `watch --serve` serves it). */
#define PAGE_CHART 0x20u
#define PAGE_LIVE 0x40u

/*
 * The page's data document (hs_render_page_data) and the page
 * (hs_render_page) of c, with gc_json (NULL: none) as its GC tab. The
 * document is JSON without '<', '>' or '&'; the page embeds it as it is,
 * starts and ends as the template does, and has the template's script,
 * style, title and noscript elements and no other, whatever names the
 * census holds; both answer "no data" together (but for a GC tab alone).
 * A live page names its URL, escaped, in its one live meta element.
 */
void check_page(const hs_census *c, const char *gc_json, unsigned flags);

/* Flags of the diffs: bit 0 normalize, bit 1 order by peak, bit 2 a window
 * over the middle half of each run (with bit 0 as well: between the first
 * and the last of the before run's user markers, when both runs have
 * them), DIFF_CHART the diff's SVG chart. */
#define DIFF_CHART 0x08u

/*
 * c against itself, with gc (NULL: none) as both runs' GC figures: every
 * band in both runs with equal figures, the two runs' figures equal,
 * nothing matched by normalising alone; then every diff renderer (text,
 * JSON checked as JSON, folded, the chart with DIFF_CHART).
 */
void check_self_diff(const hs_census *c, const hs_summary_stats *gc,
                     unsigned flags);

/*
 * before against after, two censuses of possibly different runs, with
 * gc[0] and gc[1] (gc or either NULL: none) as their GC figures: a band is
 * new, gone or in both as its members say, the bands come in the order of
 * the options, the runs carry GC figures exactly when both were given,
 * and every renderer answers from its documented set; then the compare
 * page of the two.
 */
void check_diff(const hs_census *before, const hs_census *after,
                const hs_summary_stats *const gc[2], unsigned flags);

/*
 * A GC summary written as text (text_len bytes, status text_st) and as
 * JSON (json, status json_st): both succeed or both have no data and
 * write nothing, and the JSON is JSON.
 */
void check_summary_pair(int text_st, size_t text_len, int json_st,
                        const hs_membuf *json);

#endif
