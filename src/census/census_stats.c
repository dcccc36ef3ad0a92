/*
 * Figures over a whole census: the peak sample and per-band statistics.
 */
#include "census/census_impl.h"

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

int hs_census_band_stats(const hs_census *c, hs_band_stats *out)
{
    size_t ns = c->nsamples, nb = c->nbands;
    double *sumsq = hs_calloc(c->alloc, nb ? nb : 1, sizeof *sumsq);
    if (!sumsq)
        return HS_ERR_NOMEM;
    memset(out, 0, nb * sizeof *out);
    for (size_t i = 0; i < ns; i++) {
        /* Sample i stands for half the time to each neighbour. */
        double w = 1;
        if (ns > 1) {
            uint64_t prev = c->samples[i ? i - 1 : i].time;
            uint64_t next = c->samples[i + 1 < ns ? i + 1 : i].time;
            w = (double)(next - prev) / 2e9;
        }
        if (!c->samples[i].count)
            continue; /* entries may be NULL when no sample has any */
        const hs_census_entry *e = c->entries + c->samples[i].first;
        for (size_t k = 0; k < c->samples[i].count; k++) {
            hs_band_stats *b = &out[e[k].band];
            double v = (double)e[k].bytes;
            b->byte_seconds += v * w;
            b->mean_bytes += v;
            sumsq[e[k].band] += v * v;
            if (e[k].bytes > b->peak_bytes) {
                b->peak_bytes = e[k].bytes;
                b->peak_time_ns = c->samples[i].time;
            }
        }
    }
    for (size_t b = 0; b < nb && ns; b++) {
        double mean = out[b].mean_bytes / (double)ns;
        double var = sumsq[b] / (double)ns - mean * mean;
        out[b].mean_bytes = mean;
        out[b].stddev_bytes = var > 0 ? sqrt(var) : 0;
    }
    hs_free(c->alloc, sumsq);
    return HS_OK;
}

