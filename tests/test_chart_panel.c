/*
 * Tests of the chart's internal panel API (src/render/chart_internal.h),
 * which other renderers (the diff's two profiles) compose charts from:
 * one selection bound to two censuses by band name, two panels on one y
 * scale with the same band colours, time in seconds or normalised to each
 * run, a signed axis for a change panel, label cleaning, and the column
 * cursor the heap lines are reduced with. The drawn
 * PNG is read back with cairo and measured.
 */
#include "render/chart_internal.h"

#include "chart_png.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static hs_census *census_hp_text(const char *text)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    hs_census *c = hs_census_new();
    hs_error err;
    CU_ASSERT_EQUAL(hs_census_load_hp(c, f, &err), HS_OK);
    fclose(f);
    return c;
}

/* Run A: 1 s, Double 1000 B throughout. Run B: 2 s, Double 2000 B
 * throughout, and bands A does not have. (Double's style is plain, so its
 * pixels are its colour.) */
static const char run_a[] =
    "JOB \"a\"\nDATE \"x\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n"
    "BEGIN_SAMPLE 0.25\nDouble\t1000\nChar\t10\nonlyA\t5\nEND_SAMPLE 0.25\n"
    "BEGIN_SAMPLE 0.5\nDouble\t1000\nChar\t10\nonlyA\t5\nEND_SAMPLE 0.5\n"
    "BEGIN_SAMPLE 0.75\nDouble\t1000\nChar\t10\nonlyA\t5\nEND_SAMPLE 0.75\n"
    "BEGIN_SAMPLE 1.0\nDouble\t1000\nChar\t10\nonlyA\t5\nEND_SAMPLE 1.0\n";
static const char run_b[] =
    "JOB \"b\"\nDATE \"x\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n"
    "BEGIN_SAMPLE 0.5\nonlyB\t7\nDouble\t2000\nEND_SAMPLE 0.5\n"
    "BEGIN_SAMPLE 1.0\nonlyB\t7\nDouble\t2000\nChar\t20\nEND_SAMPLE 1.0\n"
    "BEGIN_SAMPLE 1.5\nonlyB\t7\nDouble\t2000\nEND_SAMPLE 1.5\n"
    "BEGIN_SAMPLE 2.0\nonlyB\t7\nDouble\t2000\nEND_SAMPLE 2.0\n";

static void test_bind_by_name(void)
{
    hs_census *a = census_hp_text(run_a), *b = census_hp_text(run_b);
    hs_chart_options o;
    hs_chart_options_init(&o);
    o.bands = 2;
    hs_chart_selection sel;
    CU_ASSERT_EQUAL_FATAL(hs_chart_select(&sel, a, &o, NULL), HS_OK);
    CU_ASSERT_EQUAL_FATAL(sel.nser, 3);
    CU_ASSERT_STRING_EQUAL(sel.ser[0].label, "Double");
    CU_ASSERT_STRING_EQUAL(sel.ser[1].label, "Char");
    CU_ASSERT(sel.has_other && sel.ser[2].other);
    CU_ASSERT_STRING_EQUAL(sel.ser[2].label, "OTHER (1 band)");

    hs_chart_binding ba, bb;
    CU_ASSERT_EQUAL_FATAL(hs_chart_bind(&ba, &sel, a, &o), HS_OK);
    CU_ASSERT_DOUBLE_EQUAL(ba.peak[0], 1000, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(ba.peak[2], 5, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(ba.max_total, 1015, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(ba.t_end, 1.0, 1e-9);
    CU_ASSERT_EQUAL_FATAL(hs_chart_bind(&bb, &sel, b, &o), HS_OK);
    /* B's bands are found by name, whatever its own band order */
    CU_ASSERT_DOUBLE_EQUAL(bb.peak[0], 2000, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(bb.peak[1], 20, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(bb.peak[2], 7, 1e-9); /* onlyB in OTHER */
    CU_ASSERT_DOUBLE_EQUAL(bb.max_total, 2027, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(bb.t_end, 2.0, 1e-9);
    /* the series keep the peaks of the census bound last */
    CU_ASSERT_DOUBLE_EQUAL(sel.ser[0].peak, 2000, 1e-9);
    hs_chart_binding_free(&bb);

    /* a filter drops B's extra band instead of putting it in OTHER */
    const char *exc[] = {"onlyB", NULL};
    o.exclude = exc;
    CU_ASSERT_EQUAL_FATAL(hs_chart_bind(&bb, &sel, b, &o), HS_OK);
    CU_ASSERT_DOUBLE_EQUAL(bb.peak[2], 0, 1e-9);
    hs_chart_binding_free(&bb);
    hs_chart_binding_free(&ba);
    hs_chart_selection_free(&sel);
    hs_census_free(a);
    hs_census_free(b);
}

/* Rows of panel p (in column x) drawn in colour rgb. */
static int rows_of(const png_image *im, const hs_chart_panel *p, int x,
                   uint32_t rgb)
{
    int n = 0;
    for (int y = (int)p->y0; y < (int)p->y1; y++)
        n += png_px(im, x, y) == rgb;
    return n;
}

/* The rightmost column of panel p, on row y, drawn in colour rgb. */
static int right_edge(const png_image *im, const hs_chart_panel *p, int y,
                      uint32_t rgb)
{
    int last = -1;
    for (int x = (int)p->x0; x < (int)p->x1; x++)
        if (png_px(im, x, y) == rgb)
            last = x;
    return last;
}

/* Draws runs A and B one above the other with one selection and one y
 * scale, time absolute (one t_span) or normalised (each run's own end),
 * as the diff renderer does, and returns the PNG. */
static void draw_two(hs_census *a, hs_census *b, bool normalised,
                     hs_membuf *m, hs_chart_panel pan[2], uint32_t *int_rgb)
{
    hs_chart_options o;
    hs_chart_options_init(&o);
    o.format = HS_CHART_PNG;
    o.width = 600;
    o.height = 400;
    o.bands = 0;
    hs_chart_selection sel;
    hs_chart_binding bind[2];
    CU_ASSERT_EQUAL_FATAL(hs_chart_select(&sel, a, &o, NULL), HS_OK);
    CU_ASSERT_EQUAL_FATAL(hs_chart_bind(&bind[0], &sel, a, &o), HS_OK);
    CU_ASSERT_EQUAL_FATAL(hs_chart_bind(&bind[1], &sel, b, &o), HS_OK);
    *int_rgb = sel.ser[0].colour;
    CU_ASSERT_FALSE(sel.ser[0].hatched && "Double is plain");

    memset(m, 0, sizeof *m);
    hs_sink sink = hs_membuf_sink(m);
    hs_chart_doc doc;
    CU_ASSERT_EQUAL_FATAL(hs_chart_doc_open(&doc, &o, &sink, "two", NULL),
                          HS_OK);
    hs_chart_axis vax;
    double vmax = fmax(bind[0].max_total, bind[1].max_total);
    hs_chart_value_axis(&vax, vmax, 150, doc.cv.font, false);
    double t_abs = fmax(bind[0].t_end, bind[1].t_end);
    for (int k = 0; k < 2; k++) {
        pan[k] = (hs_chart_panel){100, 20 + 190 * k, 500, 190 + 190 * k,
                                  normalised ? bind[k].t_end : t_abs,
                                  hs_chart_axis_end(&vax), 0};
        hs_chart_draw_value_axis(&doc.cv, &pan[k], &vax);
        hs_chart_points pts;
        CU_ASSERT_EQUAL_FATAL(
            hs_chart_reduce(&pts, &bind[k], sel.nser, sel.has_other,
                            HS_CHART_AREA, pan[k].t_span,
                            hs_chart_panel_columns(&doc.cv, &pan[k])),
            HS_OK);
        hs_chart_draw_bands(&doc.cv, &pan[k], &sel, &pts, HS_CHART_AREA,
                            bind[k].peak);
        hs_chart_points_free(&pts);
    }
    CU_ASSERT_EQUAL(hs_chart_doc_close(&doc), HS_OK);
    hs_chart_binding_free(&bind[0]);
    hs_chart_binding_free(&bind[1]);
    hs_chart_selection_free(&sel);
}

static void test_two_panels_one_scale(void)
{
    hs_census *a = census_hp_text(run_a), *b = census_hp_text(run_b);
    for (int norm = 0; norm < 2; norm++) {
        hs_membuf m;
        hs_chart_panel pan[2];
        uint32_t rgb;
        draw_two(a, b, norm, &m, pan, &rgb);
        png_image im;
        CU_ASSERT_FATAL(png_image_load(&im, &m));
        /* same scale: B's Double (2000 B) twice as tall as A's (1000 B),
         * measured at x = 250, inside both runs in both time mappings */
        int ha = rows_of(&im, &pan[0], 250, rgb);
        int hb = rows_of(&im, &pan[1], 250, rgb);
        CU_ASSERT(ha > 20);
        CU_ASSERT(fabs((double)hb / ha - 2.0) < 0.1);
        /* time: normalised, both runs reach the right edge; absolute,
         * A (1 s of 2) stops halfway */
        int ya = (int)pan[0].y1 - 3, yb = (int)pan[1].y1 - 3;
        int ea = right_edge(&im, &pan[0], ya, rgb);
        int eb = right_edge(&im, &pan[1], yb, rgb);
        CU_ASSERT(eb >= (int)pan[1].x1 - 3);
        if (norm) {
            CU_ASSERT(ea >= (int)pan[0].x1 - 3);
        } else {
            CU_ASSERT(abs(ea - (int)(pan[0].x0 + pan[0].x1) / 2) <= 3);
        }
        png_image_free(&im);
        hs_membuf_free(&m);
    }
    hs_census_free(a);
    hs_census_free(b);
}

static void test_signed_axis(void)
{
    hs_chart_axis ax;
    hs_chart_value_axis_signed(&ax, -1500.0 * 1024, 3000.0 * 1024, 300, 12);
    CU_ASSERT_STRING_EQUAL(ax.unit_name, "MiB");
    CU_ASSERT(hs_chart_axis_start(&ax) <= -1500.0 * 1024);
    CU_ASSERT(hs_chart_axis_end(&ax) >= 3000.0 * 1024);
    /* both ends on ticks */
    CU_ASSERT(fabs(fmod(ax.bottom / ax.step, 1)) < 1e-9);
    CU_ASSERT(fabs(fmod(ax.top / ax.step, 1)) < 1e-9);
    hs_chart_canvas cv = {0};
    cv.scale = 1;
    hs_chart_panel p = {0, 100, 100, 400, 1, hs_chart_axis_end(&ax),
                        hs_chart_axis_start(&ax)};
    double y0 = hs_chart_ypos(&cv, &p, 0);
    double frac = (p.y1 - y0) / (p.y1 - p.y0);
    CU_ASSERT(fabs(frac - (-ax.bottom) / (ax.top - ax.bottom)) < 0.01);
    CU_ASSERT_DOUBLE_EQUAL(hs_chart_ypos(&cv, &p, p.ytop), p.y0, 0.2);
    CU_ASSERT_DOUBLE_EQUAL(hs_chart_ypos(&cv, &p, p.ybottom), p.y1, 0.2);
    /* an unsigned axis starts at 0 */
    hs_chart_value_axis(&ax, 5000, 300, 12, false);
    CU_ASSERT_DOUBLE_EQUAL(hs_chart_axis_start(&ax), 0, 0);
    /* a round top above the largest value, not on it (5000 B falls on a
     * tick of 1000): a band reaching it does not run along the edge */
    CU_ASSERT(hs_chart_axis_end(&ax) >= 5000 * 1.04);
    CU_ASSERT(fabs(fmod(ax.top / ax.step, 1)) < 1e-9);
    hs_chart_value_axis_signed(&ax, -1000, 3000, 300, 12);
    CU_ASSERT(hs_chart_axis_end(&ax) >= 3000 * 1.04);
}

static void test_clean_text(void)
{
    char *t = hs_chart_clean_text(NULL, "a\tb\x01" "c\xff", 100);
    CU_ASSERT_STRING_EQUAL(t, "a b c\xef\xbf\xbd");
    hs_free(NULL, t);
    /* cut at a character boundary: 日本 is 6 bytes, cap 4 keeps 日 */
    t = hs_chart_clean_text(NULL, "\xe6\x97\xa5\xe6\x9c\xac", 4);
    CU_ASSERT_STRING_EQUAL(t, "\xe6\x97\xa5\xe2\x80\xa6");
    hs_free(NULL, t);
    t = hs_chart_clean_text(NULL, NULL, 4);
    CU_ASSERT_STRING_EQUAL(t, "");
    hs_free(NULL, t);
}

/* n times through a cursor against hs_chart_column_of of each. */
static size_t cursor_mismatches(double t_span, size_t ncols,
                                const uint64_t *ns, size_t n)
{
    hs_chart_col_cursor k;
    hs_chart_col_cursor_init(&k, t_span, ncols);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        if (hs_chart_col_cursor_at(&k, ns[i]) !=
            hs_chart_column_of(ns[i] / 1e9, t_span, ncols))
            bad++;
    return bad;
}

/* The column cursor gives hs_chart_column_of's column for every time: in
 * order and out of it, every time near each column's edges (where the
 * division rounds), 0 and the largest, spans that are not fractions of
 * a second, empty or not a number, and one column or none. */
static void test_column_cursor(void)
{
    static const double spans[] = {30.0, 1e-9, 1e-3, 0.1 + 0.2, 7.0 / 3,
                                   1e10, 0, -1, NAN};
    static const size_t cols[] = {1000, 1, 3, 997, 0};
    enum { N = 20000 };
    uint64_t *ns = malloc(N * sizeof *ns);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ns);
    uint64_t seed = 88172645463325252u;
    for (size_t s = 0; s < sizeof spans / sizeof spans[0]; s++)
        for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++) {
            double span_ns = spans[s] > 0 ? spans[s] * 1e9 : 1e9;
            size_t n = 0;
            ns[n++] = 0;
            /* around each column's edge, by the inverse: +-3 ns */
            for (size_t e = 0; e <= cols[c] && n + 7 < N / 2; e++) {
                double g = (double)e * span_ns / (cols[c] ? cols[c] : 1);
                for (int d = -3; d <= 3; d++)
                    if (g + d >= 0 && g + d < 1.8e19)
                        ns[n++] = (uint64_t)(g + d);
            }
            while (n < N - 2) { /* in order, steps of up to a column */
                seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
                double step = span_ns / (cols[c] ? cols[c] : 1) *
                              (double)(seed % 1000) / 700;
                ns[n] = ns[n - 1] + (uint64_t)step;
                n++;
            }
            ns[n++] = UINT64_MAX;
            ns[n++] = UINT64_MAX - 1;
            CU_ASSERT_EQUAL(cursor_mismatches(spans[s], cols[c], ns, n), 0);
            for (size_t i = n - 1; i > 0; i--) { /* out of order */
                seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
                size_t j = seed % (i + 1);
                uint64_t t = ns[i];
                ns[i] = ns[j];
                ns[j] = t;
            }
            CU_ASSERT_EQUAL(cursor_mismatches(spans[s], cols[c], ns, n), 0);
        }
    free(ns);
}

int main(void)
{
    static const tu_test tests[] = {
        {"one selection bound to two censuses by name", test_bind_by_name},
        {"two panels, one y scale, two time mappings",
         test_two_panels_one_scale},
        {"signed axis for a change panel", test_signed_axis},
        {"labels cleaned and capped", test_clean_text},
        {"the column cursor is hs_chart_column_of", test_column_cursor},
        {NULL, NULL},
    };
    return tu_main("chart_panel", NULL, NULL, tests);
}
