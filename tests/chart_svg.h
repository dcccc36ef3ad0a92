/*
 * The chart tests' helpers (chart_svg.c).
 */
#ifndef HEAPSCOPE_TEST_CHART_SVG_H
#define HEAPSCOPE_TEST_CHART_SVG_H

#include <heapscope/heapscope.h>

#include <stdbool.h>
#include <stddef.h>

/* The census of a .hp text, asserted to load. */
hs_census *census_hp_text(const char *text);
/* A census from a file under the source tree, or NULL (with a note) when
 * the file is not there. */
hs_census *census_file(const char *rel);
/* A .hp text with `n` bands named by fmt % i, band i holding (i+1)*unit
 * bytes in each of `samples` samples. The caller frees it. */
char *hp_bands(size_t n, size_t samples, const char *fmt, unsigned long unit);
/* hs_render_chart into *m (emptied first). */
int render(const hs_census *c, const hs_chart_options *o, hs_membuf *m);
/* How often `needle` occurs in `hay`. */
size_t count(const char *hay, const char *needle);
/* The band areas' titles in stacking order (bottom first), peaks cut off.
 * Returns their number; names[] are malloc'd. */
size_t area_titles(const char *svg, char **names, size_t max);
void free_names(char **names, size_t n);
/* Whether the SVG's text layer holds `text` (already XML-escaped). */
bool has_text(const char *svg, const char *text);
/* The style (data-colour and hatching) of the area titled `name`, or "" */
void area_fill(const char *svg, const char *name, char *out, size_t n);
/* The big-endian 32-bit number at p (a PNG header's width, height). */
unsigned png_u32(const unsigned char *p);
/* The number of pages of a PDF. */
size_t pdf_pages(const char *pdf, size_t len);

#endif
