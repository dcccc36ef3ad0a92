/*
 * Figures over a census: the peak sample and per-band statistics over a
 * window of samples (census_stats.h gives the rule), which every figure
 * of a band's size (the renderers', the diff's, the page's) comes from.
 */
#include "census/census_impl.h"
#include "census/census_stats.h"

#include <math.h>
#include <string.h>

size_t hs_census_peak_sample(const hs_census *c)
{
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < c->nsamples; i++)
        if (best == SIZE_MAX || c->samples[i].total > c->samples[best].total)
            best = i;
    return best;
}

/* Per group: its sum in the current sample and the list of groups the
 * sample touched (each once: in_sample says which). */
typedef struct scratch {
    uint64_t *cur;
    bool *in_sample;
    uint32_t *touched;
    double *sumsq;
    double *sumtv;           /* with w->slope: sum of t * bytes */
    size_t ntouched;
    double total_sumsq;
    double sumt, sumtt;      /* with w->slope: t in s from the first sample */
    double tlast;            /* the last sample's t */
    uint64_t t0;
} scratch;

/* Samples [*i0, *i1) of c within [from, to]. */
static void window_samples(const hs_census *c, uint64_t from, uint64_t to,
                           size_t *i0, size_t *i1)
{
    size_t a = 0;
    while (a < c->nsamples && c->samples[a].time < from)
        a++;
    size_t b = a;
    while (b < c->nsamples && c->samples[b].time <= to)
        b++;
    *i0 = a;
    *i1 = b;
}

/* The trapezoid weight in seconds of sample i within [i0, i1). */
static double sample_weight(const hs_census *c, size_t i, size_t i0,
                            size_t i1)
{
    if (i1 - i0 == 1)
        return 1.0;
    uint64_t lo = c->samples[i > i0 ? i - 1 : i].time;
    uint64_t hi = c->samples[i + 1 < i1 ? i + 1 : i].time;
    return (double)(hi - lo) / 2e9;
}

/* One sample's bytes v at time t into figures s, weighing w seconds. */
static void add_value(hs_band_stats *s, double *sumsq, uint64_t v,
                      uint64_t t, double w)
{
    double x = (double)v;
    if (v > s->peak_bytes) {
        s->peak_bytes = v;
        s->peak_time_ns = t;
    }
    s->byte_seconds += x * w;
    s->mean_bytes += x;
    *sumsq += x * x;
}

static void add_sample(const hs_census *c, hs_window_stats *w, scratch *s,
                       size_t i, double wt, bool last)
{
    const struct sample *smp = &c->samples[i];
    const hs_census_entry *e = smp->count ? c->entries + smp->first : NULL;
    uint64_t total = 0;
    s->ntouched = 0;
    for (size_t k = 0; k < smp->count; k++) {
        uint32_t g = w->group_of_band ? w->group_of_band[e[k].band]
                                      : e[k].band;
        if (!s->in_sample[g]) {
            s->in_sample[g] = true;
            s->cur[g] = 0;
            s->touched[s->ntouched++] = g;
        }
        s->cur[g] = hs_add_sat(s->cur[g], e[k].bytes);
        total = hs_add_sat(total, e[k].bytes);
    }
    double t = (double)(smp->time - s->t0) / 1e9;
    s->sumt += t;
    s->sumtt += t * t;
    s->tlast = t;
    for (size_t k = 0; k < s->ntouched; k++) {
        uint32_t g = s->touched[k];
        add_value(&w->out[g], &s->sumsq[g], s->cur[g], smp->time, wt);
        if (s->sumtv)
            s->sumtv[g] += t * (double)s->cur[g];
        if (w->last && last)
            w->last[g] = s->cur[g];
        if (w->present)
            w->present[g] = true;
        s->in_sample[g] = false;
    }
    if (w->total)
        add_value(w->total, &s->total_sumsq, total, smp->time, wt);
}

/* Sums to means and standard deviations over n samples. */
static void spread(hs_band_stats *s, double sumsq, size_t n)
{
    if (!n)
        return;
    double mean = s->mean_bytes / (double)n;
    double var = sumsq / (double)n - mean * mean;
    s->mean_bytes = mean;
    s->stddev_bytes = var > 0 ? sqrt(var) : 0;
}

/* The least-squares slopes from the sums (before spread() turns them
 * into means); a slope that makes less than half a byte over the window
 * is rounding (a constant band's), 0. */
static void slopes(hs_window_stats *w, const scratch *s, size_t ng)
{
    double n = (double)w->samples;
    double den = n * s->sumtt - s->sumt * s->sumt;
    for (size_t g = 0; g < ng; g++) {
        double k = w->samples >= 2 && den > 0
                       ? (n * s->sumtv[g] - s->sumt * w->out[g].mean_bytes) /
                             den
                       : 0;
        w->slope[g] = fabs(k * s->tlast) < 0.5 ? 0 : k;
    }
}

/* Zeroed figures, each peaking at time t until a sample says otherwise. */
static void start(hs_band_stats *s, size_t n, uint64_t t)
{
    memset(s, 0, n * sizeof *s);
    for (size_t g = 0; g < n; g++)
        s[g].peak_time_ns = t;
}

int hs__census_window_stats(const hs_census *c, hs_window_stats *w)
{
    size_t ng = w->group_of_band ? w->ngroups : c->nbands, i0, i1;
    window_samples(c, w->from_ns, w->to_ns, &i0, &i1);
    w->samples = i1 - i0;
    uint64_t t0 = i0 < i1 ? c->samples[i0].time : 0;
    start(w->out, ng, t0);
    if (w->total)
        start(w->total, 1, t0);
    if (w->present)
        memset(w->present, 0, ng * sizeof *w->present);
    if (w->last)
        memset(w->last, 0, ng * sizeof *w->last);
    const hs_allocator *a = c->alloc;
    size_t n = ng ? ng : 1;
    scratch s = {.cur = hs_malloc(a, n * sizeof *s.cur),
                 .in_sample = hs_calloc(a, n, sizeof *s.in_sample),
                 .touched = hs_malloc(a, n * sizeof *s.touched),
                 .sumsq = hs_calloc(a, n, sizeof *s.sumsq),
                 .sumtv = w->slope ? hs_calloc(a, n, sizeof *s.sumtv) : NULL,
                 .t0 = t0};
    int st = s.cur && s.in_sample && s.touched && s.sumsq &&
                     (s.sumtv || !w->slope)
                 ? HS_OK
                 : HS_ERR_NOMEM;
    for (size_t i = i0; i < i1 && st == HS_OK; i++)
        add_sample(c, w, &s, i, sample_weight(c, i, i0, i1), i + 1 == i1);
    if (w->slope && st == HS_OK)
        slopes(w, &s, ng);
    for (size_t g = 0; g < ng && st == HS_OK; g++)
        spread(&w->out[g], s.sumsq[g], w->samples);
    if (w->total && st == HS_OK)
        spread(w->total, s.total_sumsq, w->samples);
    hs_free(a, s.cur);
    hs_free(a, s.in_sample);
    hs_free(a, s.touched);
    hs_free(a, s.sumsq);
    hs_free(a, s.sumtv);
    return st;
}

int hs_census_band_stats(const hs_census *c, hs_band_stats *out)
{
    hs_window_stats w = {.from_ns = 0, .to_ns = UINT64_MAX, .out = out};
    return hs__census_window_stats(c, &w);
}

/* hs_census_band_growth's figures for n bands into out, with room for
 * their run statistics in st and slopes in slope. */
static int growth_of(const hs_census *c, hs_band_growth *out,
                     hs_band_stats *st, double *slope, uint64_t *last)
{
    size_t n = c->nbands;
    hs_window_stats w = {.from_ns = 0, .to_ns = UINT64_MAX, .out = st,
                         .slope = slope, .last = last};
    int rc = hs__census_window_stats(c, &w);
    for (size_t b = 0; b < n && rc == HS_OK; b++)
        out[b] = (hs_band_growth){slope[b], 0, last[b], false};
    if (rc != HS_OK || c->nsamples < 2)
        return rc;
    uint64_t t0 = c->samples[0].time, t1 = c->samples[c->nsamples - 1].time;
    /* the last third: from t0 + 2/3 of the span, rounded up */
    uint64_t span = t1 - t0;
    uint64_t from = t0 + span / 3 * 2 + (span % 3 * 2 + 2) / 3;
    hs_window_stats late = {.from_ns = from, .to_ns = t1,
                            .out = st + n, .slope = slope};
    rc = hs__census_window_stats(c, &late);
    for (size_t b = 0; b < n && rc == HS_OK; b++) {
        out[b].late_bytes_per_sec = slope[b];
        out[b].growing = slope[b] > 0 && (double)last[b] > st[b].mean_bytes;
    }
    return rc;
}

int hs_census_band_growth(const hs_census *c, hs_band_growth *out)
{
    size_t n = c->nbands ? c->nbands : 1;
    hs_band_stats *st = hs_calloc(c->alloc, 2 * n, sizeof *st);
    double *slope = hs_calloc(c->alloc, n, sizeof *slope);
    uint64_t *last = hs_calloc(c->alloc, n, sizeof *last);
    int rc = st && slope && last ? growth_of(c, out, st, slope, last)
                                 : HS_ERR_NOMEM;
    hs_free(c->alloc, st);
    hs_free(c->alloc, slope);
    hs_free(c->alloc, last);
    return rc;
}
