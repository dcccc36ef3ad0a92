/*
 * Tests of the chart renderer: every sample in every format (SVG areas,
 * titles and searchable labels; one PDF page; PNG size), band selection,
 * filters and stacking orders, colours that follow band names, peaks kept
 * through the per-column reduction of 100,000 samples, labels that are
 * long or Japanese, a lone sample, no samples, failing sinks and bad
 * options. The heap lines' panel, a 10 MB name's memory and threads are
 * in test_chart_draw.c.
 */
#include <heapscope/heapscope.h>

#include "chart_png.h"
#include "evwriter.h"
#include "chart_svg.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

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
        {NULL, NULL},
    };
    return tu_main("chart", NULL, NULL, tests);
}
