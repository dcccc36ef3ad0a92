/*
 * The time profile over time: the log's time cut into intervals, and per
 * interval each cost centre's self and inherited ticks, from every sample
 * the census kept (census_tprof.c). Internal: the page's data document
 * carries it (render_page_data.c).
 */
#ifndef HEAPSCOPE_CENSUS_TPROF_TIME_H
#define HEAPSCOPE_CENSUS_TPROF_TIME_H

#include "heapscope/census.h"

#include <stdbool.h>

/*
 * What hs__census_tprof_series() fills. Interval k holds the samples at
 * times in [k * width_ns, (k + 1) * width_ns) from the log's start; the
 * last one holds the log's end. A sample is one tick: its stack's
 * innermost cost centre gets a self tick, and every cost centre in the
 * stack one inherited tick, however often it recurs there.
 *
 * The columns are the cost centres seen in a sample, most self ticks
 * first (then most inherited, then lowest id), as many as the cell limit
 * allows; then, when a sample's stack is empty, a column "root" for those
 * samples (GHC's MAIN, as folded stacks name it), self and inherited;
 * then, when some cost centres are left out, a column "other" with their
 * self ticks and, as inherited, the samples whose stack holds any of them.
 * Column j's value in interval k is at [j * nintervals + k].
 */
typedef struct hs_tprof_series {
    size_t nintervals;       /* >= 1 when there are samples */
    uint64_t width_ns;       /* a whole number of ticks when known */
    size_t ncc;              /* named columns */
    uint32_t *cc;            /* [ncc] their cost-centre ids */
    bool root;               /* a column after them: empty stacks */
    bool other;              /* a last column for the rest */
    uint64_t *self;          /* [(ncc + other) * nintervals] */
    uint64_t *inherited;     /* same shape */
    uint64_t samples;        /* every sample (self ticks add up to it) */
} hs_tprof_series;

/*
 * Fills *s (zeroed first) for census c: at most max_intervals intervals
 * and (ncc + root + other) * nintervals <= max_cells when max_cells allows
 * one named column, "root" and "other" (at least that many otherwise). With no
 * samples, every count is 0 and nothing is allocated. HS_OK or
 * HS_ERR_NOMEM (then nothing is held). Free with
 * hs__census_tprof_series_free().
 */
int hs__census_tprof_series(const hs_census *c, size_t max_intervals,
                            size_t max_cells, hs_tprof_series *s);

void hs__census_tprof_series_free(const hs_census *c, hs_tprof_series *s);

#endif
