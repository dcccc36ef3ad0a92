/*
 * The diff as a chart: the two profiles one above the other on the same
 * y scale, each band with one look in both (chosen once, from the diff's
 * matched bands, so a normalised band is one colour whatever its census
 * names), time normalised to each run's length or in seconds on one
 * axis, and under them a panel with the change of each drawn band as a
 * bar left (down) or right (up) of zero.
 *
 * Built from the chart renderer's pieces (render/chart_internal.h); the
 * bands of each census are mapped onto the series through the diff
 * (hs__diff_band_of), not by name.
 */
#include "diff/diff_chart.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static double band_weight(const hs_diff *d, const hs_diff_band *b)
{
    bool peak = hs_diff_get_order(d) == HS_DIFF_BY_PEAK;
    double x = peak ? (double)b->peak_bytes[0] : b->byte_seconds[0];
    double y = peak ? (double)b->peak_bytes[1] : b->byte_seconds[1];
    return fmax(x, y);
}

static double band_change(const hs_diff *d, const hs_diff_band *b)
{
    if (hs_diff_get_order(d) == HS_DIFF_BY_PEAK)
        return (double)b->peak_bytes[1] - (double)b->peak_bytes[0];
    return b->byte_seconds[1] - b->byte_seconds[0];
}

/* The weight left to OTHER: every band the filters keep and `taken` does
 * not hold. */
static void rest_of(const hs__dchart *ch, const bool *taken, size_t *rest,
                    double *rest_w)
{
    for (size_t i = 0; i < hs_diff_band_count(ch->d); i++) {
        const hs_diff_band *b = hs_diff_band_at(ch->d, i);
        if (!taken[i] && !hs_chart_band_filtered(&ch->chart, b->name)) {
            (*rest)++;
            *rest_w += band_weight(ch->d, b);
        }
    }
}

/* The drawn bands: the largest (in either run) opt->bands of those the
 * filters keep, the rest as OTHER. */
static int select_bands(hs__dchart *ch)
{
    const hs_diff *d = ch->d;
    const hs_chart_options *co = &ch->chart;
    size_t n = hs_diff_band_count(d), shown = 0, rest = 0;
    double rest_w = 0;
    /* picking the largest left, `limit` times, is enough for the few
     * bands a chart shows; the rest are only summed */
    bool *taken = hs_calloc(ch->alloc, n ? n : 1, sizeof *taken);
    if (!taken)
        return HS_ERR_NOMEM;
    size_t limit = co->bands ? co->bands : n;
    int st = HS_OK;
    while (shown < limit && st == HS_OK) {
        size_t best = SIZE_MAX;
        for (size_t i = 0; i < n; i++) {
            const hs_diff_band *b = hs_diff_band_at(d, i);
            if (taken[i] || hs_chart_band_filtered(co, b->name))
                continue;
            if (best == SIZE_MAX ||
                band_weight(d, b) > band_weight(d, hs_diff_band_at(d, best)))
                best = i;
        }
        if (best == SIZE_MAX)
            break;
        taken[best] = true;
        const hs_diff_band *b = hs_diff_band_at(d, best);
        st = hs_chart_selection_add(&ch->sel, b->name, band_weight(d, b), 0);
        shown++;
    }
    rest_of(ch, taken, &rest, &rest_w);
    hs_free(ch->alloc, taken);
    if (st == HS_OK && shown == 0)
        st = HS_ERR_NO_DATA;
    if (st == HS_OK)
        st = hs_chart_selection_finish(&ch->sel, co->sort, rest, rest_w);
    return st;
}

/* Series -> diff band, by the borrowed name pointers. */
static int map_series(hs__dchart *ch)
{
    const hs_diff *d = ch->d;
    size_t nser = ch->sel.nser;
    ch->series_band = hs_malloc(ch->alloc, nser * sizeof *ch->series_band);
    ch->peaks = hs_calloc(ch->alloc, nser, sizeof *ch->peaks);
    ch->change = hs_calloc(ch->alloc, nser, sizeof *ch->change);
    if (!ch->series_band || !ch->peaks || !ch->change)
        return HS_ERR_NOMEM;
    for (size_t s = 0; s < nser; s++) {
        ch->series_band[s] = SIZE_MAX;
        for (size_t i = 0; i < hs_diff_band_count(d) && ch->sel.ser[s].name;
             i++)
            if (hs_diff_band_at(d, i)->name == ch->sel.ser[s].name)
                ch->series_band[s] = i;
    }
    return HS_OK;
}

/* Binds run k: each census band to the series of its diff band. */
static int bind_run(hs__dchart *ch, int k)
{
    const hs_census *c = hs_diff_census(ch->d, k);
    size_t nb = hs_census_band_count(c), nd = hs_diff_band_count(ch->d);
    int32_t *series_of = hs_malloc(ch->alloc, (nd ? nd : 1) * sizeof(int32_t));
    int32_t *slot = hs_malloc(ch->alloc, (nb ? nb : 1) * sizeof *slot);
    int st = series_of && slot ? HS_OK : HS_ERR_NOMEM;
    if (st == HS_OK) {
        int32_t other = ch->sel.has_other ? (int32_t)ch->sel.nser - 1 : -1;
        for (size_t i = 0; i < nd; i++)
            series_of[i] = hs_chart_band_filtered(
                               &ch->chart, hs_diff_band_at(ch->d, i)->name)
                               ? -1
                               : other;
        for (size_t s = 0; s < ch->sel.nser; s++)
            if (ch->series_band[s] != SIZE_MAX)
                series_of[ch->series_band[s]] = (int32_t)s;
        for (size_t b = 0; b < nb; b++) {
            size_t i = hs__diff_band_of(ch->d, k, b);
            slot[b] = i < nd ? series_of[i] : -1;
        }
        st = hs_chart_bind_map(&ch->bind[k], &ch->sel, c, slot);
    }
    hs_free(ch->alloc, series_of);
    hs_free(ch->alloc, slot);
    return st;
}

static int prepare(hs__dchart *ch)
{
    hs_chart_selection_init(&ch->sel, ch->alloc);
    int st = select_bands(ch);
    if (st == HS_OK)
        st = map_series(ch);
    for (int k = 0; k < 2 && st == HS_OK; k++)
        st = bind_run(ch, k);
    if (st != HS_OK)
        return st;
    for (size_t s = 0; s < ch->sel.nser; s++) {
        ch->peaks[s] = fmax(ch->bind[0].peak[s], ch->bind[1].peak[s]);
        ch->sel.ser[s].peak = ch->peaks[s];
        size_t i = ch->series_band[s];
        if (i != SIZE_MAX)
            ch->change[s] = band_change(ch->d, hs_diff_band_at(ch->d, i));
    }
    return HS_OK;
}

static void dchart_free(hs__dchart *ch)
{
    for (int k = 0; k < 2; k++) {
        hs_chart_points_free(&ch->pts[k]);
        hs_chart_binding_free(&ch->bind[k]);
    }
    hs_chart_selection_free(&ch->sel);
    hs_free(ch->alloc, ch->series_band);
    hs_free(ch->alloc, ch->peaks);
    hs_free(ch->alloc, ch->change);
}

int hs_render_diff_chart(const hs_diff *d, hs_sink *out,
                         const hs_diff_chart_options *opt)
{
    hs_diff_chart_options o;
    hs_diff_chart_options_init(&o);
    hs__dchart ch = {.d = d, .alloc = hs__diff_allocator(d)};
    hs_chart_options_init(&ch.chart);
    int st = hs__options_take(&o, sizeof o, opt);
    if (!st)
        st = hs__options_take(&ch.chart, sizeof ch.chart, o.chart);
    if (!st)
        st = hs_chart_check_options(&ch.chart);
    if (st)
        return st;
    ch.absolute_time = o.absolute_time;
    for (int k = 0; k < 2; k++)
        if (!hs_census_sample_count(hs_diff_census(d, k)))
            return HS_ERR_NO_DATA;
    st = prepare(&ch);
    if (st == HS_OK)
        st = hs__diff_chart_draw(&ch, out);
    dchart_free(&ch);
    return st;
}
