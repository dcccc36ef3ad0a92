/*
 * Tests of the chart renderer: every sample in every format (SVG areas,
 * titles and searchable labels; one PDF page; PNG size), band selection,
 * filters and stacking orders, colours that follow band names, peaks kept
 * through the per-column reduction of 100,000 samples, labels that are
 * long or Japanese, a lone sample, no samples, failing sinks and bad
 * options; the heap lines' own panel (bands fill their panel's height,
 * read back from the PNG's pixels) and the memory a 10 MB band name costs.
 */
#include <heapscope/heapscope.h>

#include "chart_png.h"
#include "evwriter.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- helpers ------------------------------------------------------- */

static hs_census *census_hp_text(const char *text)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    hs_census *c = hs_census_new();
    hs_error err;
    int st = hs_census_load_hp(c, f, &err);
    fclose(f);
    CU_ASSERT_EQUAL(st, HS_OK);
    if (st != HS_OK)
        fprintf(stderr, "line %llu: %s\n", (unsigned long long)err.line,
                err.message);
    return c;
}

/* A census from a file under the source tree, or NULL (with a note) when
 * the file is not there. */
static hs_census *census_file(const char *rel)
{
    const char *root = getenv("HEAPSCOPE_SOURCE_DIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", root ? root : ".", rel);
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        printf("\n  note: %s not present, skipped\n", rel);
        return NULL;
    }
    hs_census *c = hs_census_new();
    hs_error err;
    int st = hs_census_load_fd(c, fd, &err);
    close(fd);
    CU_ASSERT(st == HS_OK || st == HS_TRUNCATED);
    return c;
}

/* A .hp text with `n` bands named by fmt % i, band i holding (i+1)*unit
 * bytes in each of `samples` samples. The caller frees it. */
static char *hp_bands(size_t n, size_t samples, const char *fmt,
                      unsigned long unit)
{
    hs_membuf m = {0};
    hs_sink s = hs_membuf_sink(&m);
    hs_sink_printf(&s, "JOB \"prog +RTS -hy\"\nDATE \"Sun Nov 22 00:00 2026\"\n"
                       "SAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n");
    for (size_t k = 0; k < samples; k++) {
        hs_sink_printf(&s, "BEGIN_SAMPLE %.3f\n", 0.1 * (double)(k + 1));
        for (size_t i = 0; i < n; i++) {
            char name[256];
            snprintf(name, sizeof name, fmt, (int)i);
            hs_sink_printf(&s, "%s\t%lu\n", name, (unsigned long)(i + 1) * unit);
        }
        hs_sink_printf(&s, "END_SAMPLE %.3f\n", 0.1 * (double)(k + 1));
    }
    return m.data;
}

static int render(const hs_census *c, const hs_chart_options *o,
                  hs_membuf *m)
{
    memset(m, 0, sizeof *m);
    hs_sink s = hs_membuf_sink(m);
    return hs_render_chart(c, &s, o);
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p++)
        n++;
    return n;
}

/* The band areas' titles in stacking order (bottom first), peaks cut off.
 * Returns their number; names[] are malloc'd. */
static size_t area_titles(const char *svg, char **names, size_t max)
{
    size_t n = 0;
    for (const char *p = svg; (p = strstr(p, "fill-rule:evenodd")) != NULL;
         p++) {
        const char *t = strstr(p, "<title>"), *close = strstr(p, "/>");
        if (!t || (close && close < t))
            continue;
        t += 7;
        const char *e = strstr(t, " (peak ");
        if (!e)
            continue;
        if (n < max)
            names[n] = strndup(t, (size_t)(e - t));
        n++;
    }
    return n;
}

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
}

/* Whether the SVG's text layer holds `text` (already XML-escaped). */
static bool has_text(const char *svg, const char *text)
{
    const char *layer = strstr(svg, "id=\"heapscope-text\"");
    if (!layer)
        return false;
    size_t n = strlen(text) + 16;
    char *needle = malloc(n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(needle);
    snprintf(needle, n, ">%s</text>", text);
    bool ok = strstr(layer, needle) != NULL;
    free(needle);
    return ok;
}

/* The style (data-colour and hatching) of the area titled `name`, or "" */
static void area_fill(const char *svg, const char *name, char *out, size_t n)
{
    out[0] = 0;
    char want[512];
    snprintf(want, sizeof want, "<title>%s (peak ", name);
    const char *t = strstr(svg, want);
    if (!t)
        return;
    const char *p = t;
    while (p > svg && strncmp(p, "<path", 5) != 0)
        p--;
    const char *f = strstr(p, "data-colour=");
    const char *e = f ? strstr(f, " style=") : NULL;
    if (f && e && e < t)
        snprintf(out, n, "%.*s", (int)(e - f), f);
}

static unsigned png_u32(const unsigned char *p)
{
    return (unsigned)p[0] << 24 | (unsigned)p[1] << 16 |
           (unsigned)p[2] << 8 | p[3];
}

static size_t pdf_pages(const char *pdf, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i + 11 < len; i++)
        if (memcmp(pdf + i, "/Type /Page", 11) == 0 && pdf[i + 11] != 's')
            n++;
    return n;
}

/* ---- tests ----------------------------------------------------------- */

static void test_defaults(void)
{
    hs_chart_options o;
    memset(&o, 0xff, sizeof o);
    hs_chart_options_init(&o);
    CU_ASSERT_EQUAL(o.format, HS_CHART_SVG);
    CU_ASSERT_EQUAL(o.kind, HS_CHART_AREA);
    CU_ASSERT_EQUAL(o.sort, HS_SORT_SIZE);
    CU_ASSERT_EQUAL(o.bands, 15);
    CU_ASSERT_PTR_NULL(o.include);
    CU_ASSERT_PTR_NULL(o.title);
    CU_ASSERT_FALSE(o.no_heap_lines);
    CU_ASSERT_TRUE(hs_chart_available());
}

static void check_svg_areas_and_labels(const char *svg, size_t want)
{
    char *names[64];
    size_t n = area_titles(svg, names, 64);
    CU_ASSERT_EQUAL(n, want);
    CU_ASSERT_EQUAL(count(svg, "fill-rule:evenodd"), want);
    for (size_t i = 0; i < n && i < 64; i++) {
        /* Every area has its legend label among the texts (titles and
         * texts are escaped alike). */
        if (!has_text(svg, names[i])) {
            printf("\n  label missing from the text layer: %s\n", names[i]);
            CU_FAIL("legend label not in the text layer");
        }
    }
    free_names(names, n < 64 ? n : 64);
}

static void test_samples_every_format(void)
{
    static const char *const files[] = {
        "samples/leak-hc.eventlog", "samples/leak-hd.eventlog",
        "samples/leak-hy.eventlog", "samples/leak-hT.eventlog",
        "samples/markers-hc.eventlog", "samples/manycc-hc.eventlog",
        "samples/leak-hc.hp", "samples/manycc-hc.hp", "samples/markers-hc.hp",
    };
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        hs_census *c = census_file(files[f]);
        if (!c)
            continue;
        size_t nb = hs_census_band_count(c);
        size_t want = nb > 15 ? 16 : nb;
        hs_chart_options o;
        hs_chart_options_init(&o);
        hs_membuf m;
        CU_ASSERT_EQUAL_FATAL(render(c, &o, &m), HS_OK);
        CU_ASSERT(strncmp(m.data, "<?xml", 5) == 0);
        CU_ASSERT(strstr(m.data, "</svg>") != NULL);
        check_svg_areas_and_labels(m.data, want);
        if (nb > 15)
            CU_ASSERT(count(m.data, "&gt;OTHER (") == 0 &&
                      strstr(m.data, "<title>OTHER (") != NULL);
        hs_membuf_free(&m);

        o.format = HS_CHART_PDF;
        CU_ASSERT_EQUAL(render(c, &o, &m), HS_OK);
        CU_ASSERT(m.len > 1000 && memcmp(m.data, "%PDF-", 5) == 0);
        CU_ASSERT_EQUAL(pdf_pages(m.data, m.len), 1);
        hs_membuf_free(&m);

        o.format = HS_CHART_PNG;
        o.width = 640;
        o.height = 400;
        CU_ASSERT_EQUAL(render(c, &o, &m), HS_OK);
        CU_ASSERT(m.len > 24 && memcmp(m.data, "\x89PNG", 4) == 0);
        CU_ASSERT_EQUAL(png_u32((unsigned char *)m.data + 16), 640);
        CU_ASSERT_EQUAL(png_u32((unsigned char *)m.data + 20), 400);
        hs_membuf_free(&m);
        hs_census_free(c);
    }
}

static void test_markers_text(void)
{
    hs_census *c = census_file("samples/markers-hc.eventlog");
    if (!c)
        return;
    hs_chart_options o;
    hs_chart_options_init(&o);
    hs_membuf m;
    CU_ASSERT_EQUAL(render(c, &o, &m), HS_OK);
    CU_ASSERT(has_text(m.data, "phase 2 start"));
    /* an eventlog's title is its command line, as the runtime's JOB */
    CU_ASSERT(strstr(m.data, "<title>markers +RTS -hc -N2 ") != NULL);
    /* the rotated labels of markers */
    CU_ASSERT(count(m.data, "rotate(-90") >= 2);
    hs_membuf_free(&m);
    hs_census_free(c);
}

static void test_band_selection(void)
{
    char *text = hp_bands(20, 5, "band%02d", 1000);
    hs_census *c = census_hp_text(text);
    free(text);
    hs_chart_options o;
    hs_chart_options_init(&o);
    hs_membuf m;
    char *names[64];

    /* top 5 by byte-seconds, largest at the bottom, OTHER on top */
    o.bands = 5;
    CU_ASSERT_EQUAL(render(c, &o, &m), HS_OK);
    size_t n = area_titles(m.data, names, 64);
    CU_ASSERT_EQUAL_FATAL(n, 6);
    CU_ASSERT_STRING_EQUAL(names[0], "band19");
    CU_ASSERT_STRING_EQUAL(names[4], "band15");
    CU_ASSERT_STRING_EQUAL(names[5], "OTHER (15 bands)");
    CU_ASSERT(has_text(m.data, "OTHER (15 bands)"));
    free_names(names, n);
    hs_membuf_free(&m);

    /* by name */
    o.sort = HS_SORT_NAME;
    CU_ASSERT_EQUAL(render(c, &o, &m), HS_OK);
    n = area_titles(m.data, names, 64);
    CU_ASSERT_EQUAL_FATAL(n, 6);
    CU_ASSERT_STRING_EQUAL(names[0], "band15");
    CU_ASSERT_STRING_EQUAL(names[4], "band19");
    free_names(names, n);
    hs_membuf_free(&m);

    /* every band, no OTHER */
    o.bands = 0;
    CU_ASSERT_EQUAL(render(c, &o, &m), HS_OK);
    n = area_titles(m.data, names, 64);
    CU_ASSERT_EQUAL(n, 20);
    CU_ASSERT(strstr(m.data, "OTHER") == NULL);
    free_names(names, n < 64 ? n : 64);
    hs_membuf_free(&m);

    /* a glob, a substring, an exclusion */
    const char *inc_glob[] = {"band1?", NULL};
    const char *inc_sub[] = {"d0", NULL};
    const char *exc[] = {"band0[0-7]", NULL};
    o.include = inc_glob;
    CU_ASSERT_EQUAL(render(c, &o, &m), HS_OK);
    CU_ASSERT_EQUAL(area_titles(m.data, names, 0), 10);
    hs_membuf_free(&m);
    o.include = inc_sub;
    o.exclude = exc;
    CU_ASSERT_EQUAL(render(c, &o, &m), HS_OK);
    n = area_titles(m.data, names, 64);
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_STRING_EQUAL(names[0], "band08");
    CU_ASSERT_STRING_EQUAL(names[1], "band09");
    free_names(names, n);
    hs_membuf_free(&m);

    /* nothing left: no data, nothing written */
    const char *none[] = {"zzz", NULL};
    o.include = none;
    o.exclude = NULL;
    CU_ASSERT_EQUAL(render(c, &o, &m), HS_ERR_NO_DATA);
    CU_ASSERT_EQUAL(m.len, 0);
    hs_membuf_free(&m);
    hs_census_free(c);
}

static void test_stddev_order(void)
{
    /* "steady" never moves, "jumpy" swings; both have the same mean. */
    const char *text =
        "JOB \"p\"\nDATE \"x\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n"
        "BEGIN_SAMPLE 0.1\nsteady\t500\njumpy\t100\nEND_SAMPLE 0.1\n"
        "BEGIN_SAMPLE 0.2\nsteady\t500\njumpy\t900\nEND_SAMPLE 0.2\n"
        "BEGIN_SAMPLE 0.3\nsteady\t500\njumpy\t100\nEND_SAMPLE 0.3\n"
        "BEGIN_SAMPLE 0.4\nsteady\t500\njumpy\t900\nEND_SAMPLE 0.4\n";
    hs_census *c = census_hp_text(text);
    hs_chart_options o;
    hs_chart_options_init(&o);
    o.sort = HS_SORT_STDDEV;
    hs_membuf m;
    char *names[4];
    CU_ASSERT_EQUAL(render(c, &o, &m), HS_OK);
    size_t n = area_titles(m.data, names, 4);
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_STRING_EQUAL(names[0], "steady");
    CU_ASSERT_STRING_EQUAL(names[1], "jumpy");
    free_names(names, n);
    hs_membuf_free(&m);
    hs_census_free(c);
}

static void test_colour_follows_name(void)
{
    const char *a =
        "JOB \"p\"\nDATE \"x\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n"
        "BEGIN_SAMPLE 0.1\nInt\t500\nDouble\t100\nEND_SAMPLE 0.1\n"
        "BEGIN_SAMPLE 0.2\nInt\t600\nDouble\t900\nEND_SAMPLE 0.2\n";
    const char *b =
        "JOB \"q\"\nDATE \"y\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n"
        "BEGIN_SAMPLE 1\nChar\t5000\nInt\t1\n[]\t70\nEND_SAMPLE 1\n"
        "BEGIN_SAMPLE 2\nChar\t6000\nInt\t2\n[]\t90\nEND_SAMPLE 2\n";
    hs_census *ca = census_hp_text(a), *cb = census_hp_text(b);
    hs_chart_options o;
    hs_chart_options_init(&o);
    hs_membuf ma, mb;
    CU_ASSERT_EQUAL(render(ca, &o, &ma), HS_OK);
    o.sort = HS_SORT_NAME;
    CU_ASSERT_EQUAL(render(cb, &o, &mb), HS_OK);
    char fa[128], fb[128];
    area_fill(ma.data, "Int", fa, sizeof fa);
    area_fill(mb.data, "Int", fb, sizeof fb);
    CU_ASSERT(fa[0] != 0);
    CU_ASSERT_STRING_EQUAL(fa, fb);
    hs_membuf_free(&ma);
    hs_membuf_free(&mb);
    hs_census_free(ca);
    hs_census_free(cb);
}

/* With no more shown bands than styles, no two bands look alike: twenty
 * names, which by their hashes alone would share styles, get twenty. */
static void test_shown_styles_distinct(void)
{
    hs_membuf t = {0};
    hs_sink s = hs_membuf_sink(&t);
    hs_sink_printf(&s, "JOB \"p\"\nDATE \"x\"\nSAMPLE_UNIT \"seconds\"\n"
                       "VALUE_UNIT \"bytes\"\nBEGIN_SAMPLE 1\n");
    for (int i = 0; i < 20; i++)
        hs_sink_printf(&s, "band%d\t%d\n", i, 1000 * (i + 1));
    hs_sink_printf(&s, "END_SAMPLE 1\n");
    hs_census *c = census_hp_text(t.data);
    hs_chart_options o;
    hs_chart_options_init(&o);
    o.bands = 0;
    hs_membuf m;
    CU_ASSERT_EQUAL_FATAL(render(c, &o, &m), HS_OK);
    char fills[20][128];
    for (int i = 0; i < 20; i++) {
        char name[16];
        snprintf(name, sizeof name, "band%d", i);
        area_fill(m.data, name, fills[i], sizeof fills[i]);
        CU_ASSERT(fills[i][0] != 0);
        for (int j = 0; j < i; j++)
            CU_ASSERT_STRING_NOT_EQUAL(fills[i], fills[j]);
    }
    hs_membuf_free(&m);
    hs_membuf_free(&t);
    hs_census_free(c);
}

/* 100,000 samples of about 1 MiB with one spike of 100 MiB: the axis must
 * reach the spike, and the output stays small. */
static void test_many_samples_keep_peak(void)
{
    hs_membuf t = {0};
    hs_sink s = hs_membuf_sink(&t);
    hs_sink_printf(&s, "JOB \"many\"\nDATE \"x\"\nSAMPLE_UNIT \"seconds\"\n"
                       "VALUE_UNIT \"bytes\"\n");
    for (int i = 1; i <= 100000; i++) {
        unsigned long v = i == 61234 ? 100ul << 20 : (1ul << 20) + (i % 7) * 1000;
        hs_sink_printf(&s, "BEGIN_SAMPLE %d.%04d\nlist\t%lu\nrest\t%d\n"
                           "END_SAMPLE %d.%04d\n",
                       i / 10000, i % 10000, v, 4096 + i % 13, i / 10000,
                       i % 10000);
    }
    hs_census *c = census_hp_text(t.data);
    hs_membuf_free(&t);
    CU_ASSERT_EQUAL_FATAL(hs_census_sample_count(c), 100000);
    static const hs_chart_kind kinds[] = {HS_CHART_AREA, HS_CHART_LINE};
    for (size_t k = 0; k < 2; k++) {
        hs_chart_options o;
        hs_chart_options_init(&o);
        o.kind = kinds[k];
        hs_membuf m;
        CU_ASSERT_EQUAL(render(c, &o, &m), HS_OK);
        CU_ASSERT(has_text(m.data, "100 MiB"));
        CU_ASSERT(m.len < 1500000);
        /* at most about one vertex per pixel column per edge */
        CU_ASSERT(count(m.data, " L ") < 2 * 4 * 1200);
        hs_membuf_free(&m);
        o.format = HS_CHART_PNG;
        CU_ASSERT_EQUAL(render(c, &o, &m), HS_OK);
        hs_membuf_free(&m);
    }
    hs_census_free(c);
}

static void test_long_and_japanese_labels(void)
{
    char long_name[301];
    memset(long_name, 'Q', 300);
    long_name[300] = 0;
    long_name[0] = 'L';
    const char *ja = "\xe6\x96\x87\xe5\xad\x97\xe5\x88\x97"; /* 文字列 */
    char text[2048];
    snprintf(text, sizeof text,
             "JOB \"\xe6\x97\xa5\xe6\x9c\xac prog\"\nDATE \"x\"\n"
             "SAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n"
             "BEGIN_SAMPLE 0.1\n%s\t5000\n%s\t300\nEND_SAMPLE 0.1\n"
             "BEGIN_SAMPLE 0.2\n%s\t6000\n%s\t900\nEND_SAMPLE 0.2\n",
             long_name, ja, long_name, ja);
    hs_census *c = census_hp_text(text);
    for (int f = HS_CHART_SVG; f <= HS_CHART_PNG; f++) {
        hs_chart_options o;
        hs_chart_options_init(&o);
        o.format = (hs_chart_format)f;
        hs_membuf m;
        CU_ASSERT_EQUAL(render(c, &o, &m), HS_OK);
        if (f == HS_CHART_SVG) {
            /* the full names are searchable even where drawn ellipsized */
            CU_ASSERT(has_text(m.data, long_name));
            CU_ASSERT(has_text(m.data, ja));
            CU_ASSERT(strstr(m.data, "<title>\xe6\x97\xa5\xe6\x9c\xac prog"
                                     "</title>") != NULL);
        }
        hs_membuf_free(&m);
    }
    hs_census_free(c);
}

static void test_single_sample_and_escaping(void)
{
    const char *text =
        "JOB \"a <b> & \"\"c\"\"\"\nDATE \"x\"\nSAMPLE_UNIT \"seconds\"\n"
        "VALUE_UNIT \"bytes\"\n"
        "BEGIN_SAMPLE 0.5\n<x&y>\t1000\nInt\t300\nEND_SAMPLE 0.5\n";
    hs_census *c = census_hp_text(text);
    CU_ASSERT_EQUAL(hs_census_sample_count(c), 1);
    hs_chart_options o;
    hs_chart_options_init(&o);
    hs_membuf m;
    CU_ASSERT_EQUAL(render(c, &o, &m), HS_OK);
    check_svg_areas_and_labels(m.data, 2);
    CU_ASSERT(has_text(m.data, "&lt;x&amp;y&gt;"));
    CU_ASSERT(strstr(m.data, "<x&y>") == NULL);
    hs_membuf_free(&m);
    o.kind = HS_CHART_NORMALIZED;
    CU_ASSERT_EQUAL(render(c, &o, &m), HS_OK);
    CU_ASSERT(has_text(m.data, "100 %"));
    hs_membuf_free(&m);
    hs_census_free(c);
}

static void test_no_samples(void)
{
    evw w;
    evw_start_ghc92(&w);
    evw_data_end(&w);
    hs_census *c = hs_census_new();
    hs_reader *r = hs_reader_new();
    hs_reader_feed(r, w.data, w.len);
    hs_event ev;
    int st;
    while ((st = hs_reader_next(r, &ev)) == HS_EVENT)
        hs_census_add_event(c, &ev);
    hs_census_finish(c, true);
    for (int f = HS_CHART_SVG; f <= HS_CHART_PNG; f++) {
        hs_chart_options o;
        hs_chart_options_init(&o);
        o.format = (hs_chart_format)f;
        hs_membuf m;
        CU_ASSERT_EQUAL(render(c, &o, &m), HS_ERR_NO_DATA);
        CU_ASSERT_EQUAL(m.len, 0);
        hs_membuf_free(&m);
    }
    hs_reader_free(r);
    hs_census_free(c);
    evw_free(&w);
}

/* A sink that fails once `left` bytes have been written. */
static int failing_write(void *ctx, const void *data, size_t len)
{
    size_t *left = ctx;
    (void)data;
    if (len > *left) {
        errno = ENOSPC;
        return -1;
    }
    *left -= len;
    return 0;
}

static void test_failing_sink_and_bad_options(void)
{
    char *text = hp_bands(4, 10, "b%d", 4096);
    hs_census *c = census_hp_text(text);
    free(text);
    for (int f = HS_CHART_SVG; f <= HS_CHART_PNG; f++) {
        static const size_t limits[] = {0, 10, 5000};
        for (size_t k = 0; k < 3; k++) {
            size_t left = limits[k];
            hs_sink s = {failing_write, &left};
            hs_chart_options o;
            hs_chart_options_init(&o);
            o.format = (hs_chart_format)f;
            CU_ASSERT_EQUAL(hs_render_chart(c, &s, &o), HS_ERR_IO);
        }
    }
    hs_chart_options o;
    hs_chart_options_init(&o);
    hs_membuf m;
    o.width = 10;
    CU_ASSERT_EQUAL(render(c, &o, &m), HS_ERR_INVALID);
    hs_membuf_free(&m);
    hs_chart_options_init(&o);
    o.kind = (hs_chart_kind)7;
    CU_ASSERT_EQUAL(render(c, &o, &m), HS_ERR_INVALID);
    hs_membuf_free(&m);
    hs_chart_options_init(&o);
    o.format = HS_CHART_PNG;
    o.dpi = 192;
    o.width = 800;
    o.height = 500;
    CU_ASSERT_EQUAL(render(c, &o, &m), HS_OK);
    CU_ASSERT_EQUAL(png_u32((unsigned char *)m.data + 16), 800);
    CU_ASSERT_EQUAL(png_u32((unsigned char *)m.data + 20), 500);
    hs_membuf_free(&m);
    hs_census_free(c);
}

/* ---- the heap lines' panel ------------------------------------------- */

/* A band's colour: saturated, unlike the white ground, the grey grid and
 * text, and the near-black heap lines. */
static bool saturated(uint32_t rgb)
{
    int r = (int)(rgb >> 16 & 0xff), g = (int)(rgb >> 8 & 0xff),
        b = (int)(rgb & 0xff);
    int hi = r > g ? (r > b ? r : b) : (g > b ? g : b);
    int lo = r < g ? (r < b ? r : b) : (g < b ? g : b);
    return hi - lo > 40;
}

/*
 * In a PNG of an area chart: the top of the value axis (the topmost grid
 * row, 0xe4e4e4 across most of the columns x0..x1), the topmost and
 * bottommost rows holding band colour, and whether near-black heap-line
 * pixels lie under the bands. Returns false when the PNG does not decode.
 */
static bool png_geometry(const hs_membuf *m, int x0, int x1, int *axis_top,
                         int *band_top, int *band_bottom, bool *lines_below)
{
    png_image im;
    if (!png_image_load(&im, m)) {
        png_image_free(&im);
        return false;
    }
    *axis_top = *band_top = *band_bottom = -1;
    *lines_below = false;
    for (int y = 0; y < im.height; y++) {
        int grid = 0, band = 0, dark = 0;
        for (int x = x0; x < x1; x++) {
            uint32_t p = png_px(&im, x, y);
            grid += p == 0xe4e4e4;
            band += saturated(p);
            dark += (p >> 16 & 0xff) < 0x60 && !saturated(p);
        }
        if (*axis_top < 0 && grid > (x1 - x0) / 2)
            *axis_top = y;
        if (band > 2) {
            if (*band_top < 0)
                *band_top = y;
            *band_bottom = y;
        }
        if (*band_bottom >= 0 && y > *band_bottom + 10 && dark > 2)
            *lines_below = true;
    }
    png_image_free(&im);
    return true;
}

/* Heap size runs far above the bands (leak-hc: 74 MiB against 20.6 MiB):
 * on its own panel it no longer sets the bands' axis, so the tallest
 * stack reaches near the top of the bands' panel. */
static void test_heap_panel_bands_fill_height(void)
{
    static const char *const files[] = {"samples/leak-hc.eventlog",
                                        "samples/leak-hy.eventlog"};
    for (size_t f = 0; f < 2; f++) {
        hs_census *c = census_file(files[f]);
        if (!c)
            continue;
        hs_chart_options o;
        hs_chart_options_init(&o);
        o.format = HS_CHART_PNG;
        hs_membuf m;
        CU_ASSERT_EQUAL_FATAL(render(c, &o, &m), HS_OK);
        int top = -1, btop = -1, bbottom = -1;
        bool below = false;
        CU_ASSERT_FATAL(png_geometry(&m, 120, 780, &top, &btop, &bbottom,
                                     &below));
        CU_ASSERT(top >= 0 && btop > top && bbottom > btop);
        double fill = (double)(bbottom - btop) / (double)(bbottom - top);
        if (fill < 0.8)
            printf("\n  %s: bands fill %.2f of their panel\n", files[f], fill);
        CU_ASSERT(fill >= 0.8);
        CU_ASSERT(below); /* the heap lines, in their panel under the bands */
        hs_membuf_free(&m);

        /* the legend names the lines beside their panel, in every kind */
        o.format = HS_CHART_SVG;
        for (int k = HS_CHART_AREA; k <= HS_CHART_LINE; k++) {
            o.kind = (hs_chart_kind)k;
            CU_ASSERT_EQUAL(render(c, &o, &m), HS_OK);
            CU_ASSERT(has_text(m.data, "heap size"));
            CU_ASSERT(has_text(m.data, "heap, on its own scale"));
            hs_membuf_free(&m);
        }
        o.no_heap_lines = true;
        CU_ASSERT_EQUAL(render(c, &o, &m), HS_OK);
        CU_ASSERT(!has_text(m.data, "heap size"));
        hs_membuf_free(&m);
        hs_census_free(c);
    }
}

/* ---- a 10 MB band name ------------------------------------------------ */

/* An allocator that counts the bytes live and their high-water mark. */
typedef struct counting {
    size_t live, peak;
} counting;

static void *cnt_malloc(void *user, size_t n)
{
    counting *k = user;
    size_t *p = malloc(n + sizeof(size_t) * 2);
    if (!p)
        return NULL;
    p[0] = n;
    k->live += n;
    if (k->live > k->peak)
        k->peak = k->live;
    return p + 2;
}

static void cnt_free(void *user, void *ptr)
{
    counting *k = user;
    if (!ptr)
        return;
    size_t *p = (size_t *)ptr - 2;
    k->live -= p[0];
    free(p);
}

static void *cnt_realloc(void *user, void *ptr, size_t n)
{
    if (!ptr)
        return cnt_malloc(user, n);
    size_t old = ((size_t *)ptr)[-2];
    void *q = cnt_malloc(user, n);
    if (!q)
        return NULL;
    memcpy(q, ptr, old < n ? old : n);
    cnt_free(user, ptr);
    return q;
}

#define HUGE_NAME (10u << 20)

/* A census (through allocator a) of three samples of a band whose name is
 * HUGE_NAME bytes, beside a small band. */
static hs_census *census_huge_name(const hs_allocator *a)
{
    size_t cap = 3 * (HUGE_NAME + 64) + 256;
    char *text = malloc(cap);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    size_t n = (size_t)snprintf(text, cap, "JOB \"long\"\nDATE \"x\"\n"
                                "SAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n");
    for (int i = 1; i <= 3; i++) {
        n += (size_t)snprintf(text + n, cap - n, "BEGIN_SAMPLE %d\nL", i);
        memset(text + n, 'x', HUGE_NAME - 1);
        n += HUGE_NAME - 1;
        n += (size_t)snprintf(text + n, cap - n,
                              "\t%d\nInt\t100\nEND_SAMPLE %d\n", 1000 * i, i);
    }
    FILE *f = fmemopen(text, n, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    hs_census *c = hs_census_new_with(a);
    hs_error err;
    CU_ASSERT_EQUAL(hs_census_load_hp(c, f, &err), HS_OK);
    fclose(f);
    free(text);
    return c;
}

/*
 * Issue 14.8: a 10 MB band name made `chart` take about 1 GB, all of it
 * pango laying out the whole name to ellipsize it. Labels are now cut
 * before pango sees them: the chart's own allocations stay far below the
 * name's size (it is never copied), the SVG holds a capped label, and a
 * child process drawing every format stays within a resident-memory
 * bound a tenth of what it took.
 */
static void test_huge_label_memory(void)
{
    counting k = {0, 0};
    hs_allocator a = {cnt_malloc, cnt_realloc, cnt_free, &k};
    hs_census *c = census_huge_name(&a);
    CU_ASSERT_EQUAL_FATAL(hs_census_band_count(c), 2);
    size_t census_live = k.live;
    for (int f = HS_CHART_SVG; f <= HS_CHART_PNG; f++) {
        hs_chart_options o;
        hs_chart_options_init(&o);
        o.format = (hs_chart_format)f;
        k.peak = k.live;
        hs_membuf m;
        CU_ASSERT_EQUAL(render(c, &o, &m), HS_OK);
        CU_ASSERT_EQUAL(k.live, census_live); /* nothing leaked */
        CU_ASSERT(k.peak - census_live < HUGE_NAME / 10);
        if (f == HS_CHART_SVG) {
            CU_ASSERT(m.len < HUGE_NAME / 10);
            CU_ASSERT(strstr(m.data, "Lxxxx") != NULL);
            CU_ASSERT(strstr(m.data, "xxx\xe2\x80\xa6 (peak ") != NULL);
        }
        hs_membuf_free(&m);
    }
    pid_t pid = fork();
    CU_ASSERT_FATAL(pid >= 0);
    if (pid == 0) {
        for (int f = HS_CHART_SVG; f <= HS_CHART_PNG; f++) {
            hs_chart_options o;
            hs_chart_options_init(&o);
            o.format = (hs_chart_format)f;
            hs_membuf m = {0};
            hs_sink s = hs_membuf_sink(&m);
            if (hs_render_chart(c, &s, &o) != HS_OK)
                _exit(2);
            hs_membuf_free(&m);
        }
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        /* ru_maxrss in KiB; 1 GB before the cap. Under AddressSanitizer
         * (shadow memory, quarantine) resident size says nothing of
         * heapscope's: there the counting allocator's peak above holds
         * the bound. */
        _exit(ru.ru_maxrss < 400 * 1024 || UNDER_ASAN ? 0 : 1);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    hs_census_free(c);
}

/* a and b byte for byte, but for the number in cairo's id="surfaceN",
 * which counts the surfaces the process has made. */
static bool same_drawing(const hs_membuf *a, const hs_membuf *b)
{
    static const char id[] = "id=\"surface";
    size_t i = 0, j = 0, n = sizeof id - 1;
    while (i < a->len && j < b->len) {
        if (a->data[i] != b->data[j])
            return false;
        if (i >= n && !memcmp(a->data + i + 1 - n, id, n)) {
            while (i + 1 < a->len && a->data[i + 1] >= '0' && a->data[i + 1] <= '9')
                i++;
            while (j + 1 < b->len && b->data[j + 1] >= '0' && b->data[j + 1] <= '9')
                j++;
        }
        i++, j++;
    }
    return i == a->len && j == b->len;
}

struct drawn {
    const hs_census *c;
    hs_chart_format format;
    hs_membuf m;
    int st;
};

static void *draw(void *arg)
{
    struct drawn *d = arg;
    hs_chart_options o;
    hs_chart_options_init(&o);
    o.format = d->format;
    d->st = render(d->c, &o, &d->m);
    return NULL;
}

static long max_rss_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* Each thread draws with a font map of its own, kept between its charts
 * and freed when it ends: charts drawn at once in two threads, and twice
 * in the main thread, are the same; 40 threads that draw one chart each
 * and end leave the memory as it was (a map not freed costs 2 MiB). */
static void test_threads_draw_alike(void)
{
    hs_census *c = census_file("samples/leak-hc.eventlog");
    if (!c)
        return;
    for (int f = HS_CHART_SVG; f <= HS_CHART_PNG; f += HS_CHART_PNG) {
        struct drawn d[3];
        pthread_t t[2];
        for (int i = 0; i < 3; i++)
            d[i] = (struct drawn){c, (hs_chart_format)f, {0}, -1};
        for (int i = 0; i < 2; i++)
            CU_ASSERT_EQUAL_FATAL(pthread_create(&t[i], NULL, draw, &d[i]), 0);
        for (int i = 0; i < 2; i++)
            pthread_join(t[i], NULL);
        draw(&d[2]);
        hs_membuf_free(&d[2].m);
        draw(&d[2]); /* the second chart of a thread reuses its map */
        for (int i = 0; i < 3; i++) {
            CU_ASSERT_EQUAL(d[i].st, HS_OK);
            CU_ASSERT(d[i].m.len > 1000);
            CU_ASSERT(same_drawing(&d[i].m, &d[0].m));
        }
        for (int i = 0; i < 3; i++)
            hs_membuf_free(&d[i].m);
    }
#ifndef __SANITIZE_ADDRESS__ /* its quarantine holds freed memory */
    long before = max_rss_kib();
    for (int i = 0; i < 40; i++) {
        struct drawn d = {c, HS_CHART_SVG, {0}, -1};
        pthread_t t;
        CU_ASSERT_EQUAL_FATAL(pthread_create(&t, NULL, draw, &d), 0);
        pthread_join(t, NULL);
        CU_ASSERT_EQUAL(d.st, HS_OK);
        hs_membuf_free(&d.m);
    }
    CU_ASSERT(max_rss_kib() - before < 20 * 1024);
#endif
    hs_census_free(c);
}

int main(void)
{
    static const tu_test tests[] = {
        {"defaults", test_defaults},
        {"samples in every format", test_samples_every_format},
        {"marker labels", test_markers_text},
        {"band selection, order and filters", test_band_selection},
        {"stddev order", test_stddev_order},
        {"colour follows the band name", test_colour_follows_name},
        {"shown bands never share a style", test_shown_styles_distinct},
        {"100,000 samples keep the peak", test_many_samples_keep_peak},
        {"long and Japanese labels", test_long_and_japanese_labels},
        {"single sample, XML escaping, normalized", test_single_sample_and_escaping},
        {"no samples", test_no_samples},
        {"failing sink, bad options", test_failing_sink_and_bad_options},
        {"heap lines on their own panel", test_heap_panel_bands_fill_height},
        {"a 10 MB band name", test_huge_label_memory},
        {"threads draw alike, each with its own fonts",
         test_threads_draw_alike},
        {NULL, NULL},
    };
    return tu_main("chart", NULL, NULL, tests);
}
