/*
 * The page renderer's pieces (render_page.c writes the HTML around the
 * data that render_page_data.c writes). Not part of the public surface.
 */
#ifndef HEAPSCOPE_PAGE_INTERNAL_H
#define HEAPSCOPE_PAGE_INTERNAL_H

#include "heapscope/page.h"
#include "common/internal.h"
#include "render/band_look.h"


/* One encoded integer column being written (page_column.c). */
typedef struct column {
    char *buf;
    size_t len, cap;
    uint64_t prev;   /* last value written */
    uint64_t zrun;   /* zero deltas not yet written */
    size_t next;     /* index of the next value */
} column;

/* Appends the value v at index `at` (>= k->next); the values between are
 * 0. A column's missing tail repeats its last value. false: out of memory. */
bool hs__page_col_put(const hs_allocator *a, column *k, size_t at, uint64_t v);
/* Ends a column of n values: a zero tail must be written when the last
 * value is not 0 (a missing tail repeats the last value). */
bool hs__page_col_end(const hs_allocator *a, column *k, size_t n);

/* A band's look, as the SVG chart draws it. */
typedef struct hs_page_style {
    uint32_t colour;   /* 0xrrggbb */
    bool hatched;
} hs_page_style;

/*
 * The looks of every band of c, as hs_render_chart() gives them with the
 * page's starting state: the bands the include/exclude lists keep claim
 * styles largest first (so the drawn ones match the chart), then the rest.
 * out has hs_census_band_count(c) entries; excluded[b] (may be NULL) is set
 * for the bands the lists drop. HS_OK or HS_ERR_NOMEM.
 */
int hs__page_styles(const hs_census *c, const hs_page_options *opt,
                    hs_page_style *out, bool *excluded);

/*
 * Writes the data document of hs_render_page_data() to `out`, which must
 * already escape for a <script> element (hs__page_script_sink). styles:
 * NULL for the census's own (hs__page_styles), else one per band.
 */
int hs__page_data(const hs_census *c, const hs_page_options *opt,
                  const hs_page_style *styles, hs_sink *out);

/* Writes the page data's member "ticky": null, or the census's ticky
 * counters with their points per sample (render_ticky.c), then ",\n";
 * at most HS__PAGE_TICKY_POINTS points in all, the largest counters'. */
#define HS__PAGE_TICKY_POINTS 250000u
void hs__page_ticky(const hs_census *c, hs_outbuf *o);

/*
 * Writes the two data documents of a compare page, `before` then
 * `,"after":` and `after`, each band coloured by its name across both.
 */
int hs__page_compare_data(const hs_census *before, const hs_census *after,
                          const hs_page_options *opt, hs_sink *out);

/*
 * A sink that makes JSON safe inside <script>: '<', '>' and '&' become
 * \u003c, \u003e, \u0026, and U+2028/U+2029 \u2028/\u2029 (JSON holds
 * them only inside strings, where the escapes mean the same).
 */
typedef struct hs_page_script_sink {
    hs_sink *out;
    unsigned char held[2]; /* a possible U+2028/9 cut between writes */
    size_t nheld;
} hs_page_script_sink;
hs_sink hs__page_script_sink(hs_page_script_sink *s, hs_sink *out);
/* Writes what is still held; HS_OK or HS_ERR_IO. */
int hs__page_script_flush(hs_page_script_sink *s);

/* Nanoseconds as the page's microseconds, rounded. */
static inline uint64_t hs__page_us(uint64_t ns)
{
    return ns / 1000 + (ns % 1000 >= 500 ? 1 : 0);
}

/* The page's bound on user messages: how many it carries (past this,
 * every k-th), and the bytes of each text (page_marks.c, page.h). */
#define HS_PAGE_MAX_MESSAGES 10000u
#define HS_PAGE_MESSAGE_BYTES 240u

/* Writes `"markers":[...],\n"msgs":{...},\n` for c (page_marks.c). */
void hs__page_marks(hs_outbuf *o, const hs_census *c);

/* The length of s[0..len) cut to at most max bytes, never inside a
 * UTF-8 character. */
size_t hs__page_text_cut(const char *s, size_t len, size_t max);

/* The page's title: opt->title, else the run's .hp JOB text. Allocated
 * with the census's allocator; NULL when out of memory. */
char *hs__page_title(const hs_census *c, const hs_page_options *opt);

/* The line under the title as plain UTF-8 text (the HTML and the data
 * document both carry it: a live page updates it). Allocated as the
 * title; NULL when out of memory. */
char *hs__page_subtitle(const hs_census *c, const hs_page_options *opt);

/* The page data's small writers (page_writers.c): a number as %.7g (0
 * when not finite), "key":, a C string (NULL: ""), a NULL-ended list of
 * strings and n strings as JSON arrays. */
void hs__page_out_double(hs_outbuf *o, double v);
void hs__page_out_key(hs_outbuf *o, const char *key);
void hs__page_out_cstr(hs_outbuf *o, const char *s);
void hs__page_out_strlist(hs_outbuf *o, const char *const *l);
void hs__page_out_strarray(hs_outbuf *o, const char *const *f, size_t n);

#endif
