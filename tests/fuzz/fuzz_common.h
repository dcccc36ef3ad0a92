/*
 * What the libFuzzer targets share: loading bytes through a memory file,
 * comparing two censuses, rendering into memory, and the .hp round trip.
 * Each check traps, so that a violated property is a finding.
 */
#ifndef HEAPSCOPE_FUZZ_COMMON_H
#define HEAPSCOPE_FUZZ_COMMON_H

#include <heapscope/heapscope.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CHECK(cond) do { if (!(cond)) __builtin_trap(); } while (0)

/* a + b, or UINT64_MAX when that overflows: the sums the checks compare
 * saturate as the library's do (its hs_add_sat is internal). */
static inline uint64_t add_sat(uint64_t a, uint64_t b)
{
    return a + b < a ? UINT64_MAX : a + b;
}

/* Renders c with options opt into a sink. */
typedef int (*render_fn)(const hs_census *c, hs_sink *out, const void *opt);

/* A regular file in memory (a memfd, else unlinked in /dev/shm or
 * $TMPDIR) holding len bytes, at offset 0; -1 when refused. */
int mem_fd(const void *data, size_t len);
/* Loads bytes as the command line does (hs_census_load_fd); NULL and
 * *status < 0 when the load failed, after checking the error record. */
hs_census *load_bytes(const void *data, size_t len, int *status);
/* Traps unless a and b hold the same samples, times, totals and bands. */
void same_census(const hs_census *a, const hs_census *b);
/* Renders into m (initialised here; the caller frees it), or with m NULL
 * into a sink that only counts, and checks the status is one a renderer
 * may return and that "no data" wrote nothing; returns it. */
int render(const hs_census *c, render_fn fn, const void *opt, hs_membuf *m);
/* A sink's write that only adds len to the size_t at ctx. */
int count_write(void *ctx, const void *data, size_t len);
/* hp(load(hp(c))) == hp(c). */
void hp_round_trip(const hs_census *c);
/* Traps unless m holds folded lines as hs_render_folded() promises:
 * "frame;frame N\n" with no NUL, TAB or CR, no empty frame, the frames
 * not ending in a space and digits, N a decimal above 0 without leading
 * zeros, and no two lines with the same frames. Returns the sum of N
 * (saturated) and the number of lines in *nlines. */
uint64_t folded_sum(const hs_membuf *m, size_t *nlines);
/* The CSV in one layout; every folded weight of heap and time, whose
 * lines must add up to the census's figures where doubles are exact. */
void render_csv_layout(const hs_census *c, hs_csv_layout layout);
void render_folded_all(const hs_census *c);
/* Every CSV layout, every folded weight and source. */
void render_all(const hs_census *c);
/* An SVG chart of width x height points (160 to 20,000 each). */
void render_small_chart(const hs_census *c, unsigned width,
                        unsigned height);

#endif
