/*
 * gen_live: a long heap-profiled run as a stream, for `heapscope watch`'s
 * memory benchmark and tests: N heap censuses of B bands each (string
 * samples, as -hT writes them), one every period, each after a collection
 * (GC_START, GC_END, GC_STATS_GHC, HEAP_ALLOCATED, HEAP_SIZE, HEAP_LIVE),
 * then the data-end marker. Written in pieces of about 64 KiB, so memory
 * stays small however long the run.
 *
 *   gen_live SAMPLES BANDS [PERIOD_MS] > out.eventlog   (or into a FIFO)
 *
 * With BANDS 0 the run has its collections and no heap profile at all, as
 * a plain +RTS -l run, or a GHC 9.0 stream before its censuses (that
 * runtime sends them only at exit).
 *
 * Band b of sample i holds (b + 1) * 1000 + (i * 7919 + b * 104729) % 4096
 * bytes: every band varies from sample to sample, so merged buckets keep
 * a visible maximum.
 */
#include "../tests/evwriter.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static void flush(evw *w)
{
    if (w->len && fwrite(w->data, 1, w->len, stdout) != w->len) {
        perror("gen_live: write");
        exit(1);
    }
    w->len = 0;
}

static void heap_event(evw *w, uint16_t tag, uint64_t t, uint64_t bytes)
{
    evw_event(w, tag, t, 0);
    evw_u32(w, 0); /* capset */
    evw_u64(w, bytes);
}

static void collection(evw *w, uint64_t t, uint64_t i, uint64_t live)
{
    evw_event(w, 9, t, 0);   /* GC_START */
    evw_event(w, 10, t + 200000, 0); /* GC_END, a 0.2 ms pause */
    evw_event(w, 53, t + 200000, 0); /* GC_STATS_GHC */
    evw_u32(w, 0);
    evw_u16(w, (uint16_t)(i % 10 == 9)); /* every tenth is major */
    evw_u64(w, live / 4);  /* copied */
    evw_u64(w, 1024);      /* slop */
    evw_u64(w, 0);         /* fragmentation */
    evw_u32(w, 1);         /* GC threads */
    evw_u64(w, live / 4);
    evw_u64(w, live / 4);
    evw_u64(w, live / 4);
    heap_event(w, 49, t + 200000, (i + 1) * 1048576); /* HEAP_ALLOCATED */
    heap_event(w, 50, t + 200000, (live * 3 / 1048576 + 1) * 1048576);
                                                      /* HEAP_SIZE */
    heap_event(w, 51, t + 200000, live);              /* HEAP_LIVE */
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: gen_live SAMPLES BANDS [PERIOD_MS]\n");
        return 2;
    }
    uint64_t n = strtoull(argv[1], NULL, 10);
    unsigned bands = (unsigned)strtoul(argv[2], NULL, 10);
    uint64_t period = (argc > 3 ? strtoull(argv[3], NULL, 10) : 100) * 1000000;
    evw w;
    evw_start_ghc92(&w);
    size_t at = evw_event(&w, 30, 0, 1); /* PROGRAM_ARGS */
    evw_u32(&w, 0);
    evw_bytes(&w, bands ? "gen_live\0-hT" : "gen_live\0-l\0", 12);
    evw_event_end(&w, at);
    if (bands)
        evw_heap_prof_begin(&w, 0, period, 7 /* -hT */);
    char label[32];
    for (uint64_t i = 0; i < n; i++) {
        uint64_t t = (i + 1) * period, total = 0;
        for (unsigned b = 0; b < bands; b++)
            total += (b + 1) * 1000u + (i * 7919 + b * 104729) % 4096;
        collection(&w, t - 1000000, i, bands ? total : (i % 50 + 1) * 65536);
        if (bands)
            evw_sample_begin(&w, t, i);
        for (unsigned b = 0; b < bands; b++) {
            snprintf(label, sizeof label, "band-%03u", b);
            evw_sample_string(&w, t, (b + 1) * 1000u +
                              (i * 7919 + b * 104729) % 4096, label);
        }
        if (bands)
            evw_sample_end(&w, t, i);
        if (w.len >= 65536)
            flush(&w);
    }
    evw_data_end(&w);
    flush(&w);
    evw_free(&w);
    return fflush(stdout) ? 1 : 0;
}
