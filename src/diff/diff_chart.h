/*
 * The diff chart's state, shared by its preparation (diff_chart.c) and
 * its drawing (diff_chart_draw.c); not part of the public surface.
 */
#ifndef HEAPSCOPE_DIFF_CHART_H
#define HEAPSCOPE_DIFF_CHART_H

#include "render/chart_internal.h"
#include "diff/diff_internal.h"

typedef struct hs__dchart {
    const hs_diff *d;
    hs_chart_options chart;     /* the caller's chart options, taken */
    bool absolute_time;
    const hs_allocator *alloc;
    hs_chart_selection sel;     /* one look per drawn band, in both runs */
    size_t *series_band;        /* series -> diff band, SIZE_MAX for OTHER */
    hs_chart_binding bind[2];   /* each run's census onto sel */
    hs_chart_points pts[2];
    double *peaks;              /* per series: the larger of both runs */
    double *change;             /* per series: after - before */
} hs__dchart;

/* Lays out and draws the prepared chart into a document on out. */
int hs__diff_chart_draw(hs__dchart *ch, hs_sink *out);

#endif
