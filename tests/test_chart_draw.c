/*
 * Tests of what the chart draws and what drawing costs: the heap lines'
 * own panel (bands fill their panel's height, read back from the PNG's
 * pixels), the memory a 10 MB band name costs, charts drawn at once in
 * several threads alike, the page given the chart its caller drew, and
 * the fonts loaded ahead in one thread for another (hs_chart_prepare).
 */
#include <heapscope/heapscope.h>

#include "chart_png.h"
#include "chart_svg.h"
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

#include <dlfcn.h>
#include <errno.h>
#include <glob.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

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

#define HUGE_NAME (10u << 20)

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
#if !UNDER_ASAN /* its quarantine holds freed memory */
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

/* ---- fonts loaded ahead ------------------------------------------------ */

/* Pango's font maps made: this program's pango_cairo_font_map_new stands
 * in for pango's (the library calls it through its PLT), counts and calls
 * pango's. */
static int maps_made;
void *pango_cairo_font_map_new(void);
void *pango_cairo_font_map_new(void)
{
    static void *(*real)(void);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "pango_cairo_font_map_new");
    __atomic_add_fetch(&maps_made, 1, __ATOMIC_SEQ_CST);
    return real();
}

static void *prepare(void *arg)
{
    hs_chart_options svg, pdf;
    hs_chart_options_init(&svg);
    hs_chart_options_init(&pdf);
    pdf.format = HS_CHART_PDF;
    const hs_chart_options *opts[] = {&svg, &pdf};
    *(int *)arg = hs_chart_prepare(opts, 2, NULL);
    return NULL;
}

/* Runs fn(arg) in a thread of its own, to its end. */
static void in_thread(void *(*fn)(void *), void *arg)
{
    pthread_t t;
    CU_ASSERT_EQUAL_FATAL(pthread_create(&t, NULL, fn, arg), 0);
    pthread_join(t, NULL);
}

/* hs_chart_prepare's font map, loaded in one thread, is the one the next
 * thread to draw takes over: one map made for both, the same drawing as a
 * thread that loads its own; preparing twice makes one map; bad
 * arguments are refused. */
static void test_prepared_fonts(void)
{
    hs_census *c = census_file("samples/leak-hc.eventlog");
    if (!c)
        return;
    struct drawn cold = {c, HS_CHART_SVG, {0}, -1};
    in_thread(draw, &cold);
    for (int twice = 0; twice < 2; twice++) {
        int made = maps_made, st[2] = {-1, -1};
        for (int k = 0; k <= twice; k++)
            in_thread(prepare, &st[k]);
        struct drawn d = {c, HS_CHART_SVG, {0}, -1};
        in_thread(draw, &d);
        CU_ASSERT(st[0] == HS_OK && (!twice || st[1] == HS_OK));
        CU_ASSERT_EQUAL(d.st, HS_OK);
        CU_ASSERT_EQUAL(maps_made - made, 1); /* the second takes it over */
        CU_ASSERT(same_drawing(&d.m, &cold.m));
        hs_membuf_free(&d.m);
    }
    int made = maps_made; /* none left over: the next thread makes one */
    struct drawn d = {c, HS_CHART_SVG, {0}, -1};
    in_thread(draw, &d);
    CU_ASSERT_EQUAL(maps_made - made, 1);
    hs_membuf_free(&d.m);
    hs_membuf_free(&cold.m);
    hs_error err;
    hs_chart_options bad;
    hs_chart_options_init(&bad);
    bad.width = 1;
    const hs_chart_options *opts[] = {&bad};
    CU_ASSERT_EQUAL(hs_chart_prepare(opts, 1, &err), HS_ERR_INVALID);
    CU_ASSERT_EQUAL(err.code, HS_ERR_INVALID);
    CU_ASSERT_EQUAL(hs_chart_prepare(NULL, 1, NULL), HS_ERR_MISUSE);
    CU_ASSERT_EQUAL(hs_chart_prepare(NULL, 0, NULL), HS_OK);
    hs_census_free(c);
}

/* hs_render_page into *m (emptied first). */
static int page(const hs_census *c, const hs_page_options *o, hs_membuf *m)
{
    hs_membuf_free(m);
    hs_sink s = hs_membuf_sink(m);
    return hs_render_page(c, &s, o);
}

/* The page given chart_svg is the page drawing its own (but for cairo's
 * surface number), titled by the run's command line and, when `titled`,
 * with a title of its own too. */
static void check_given_chart(const hs_census *c, const char *input,
                              const char *svg, unsigned bands,
                              bool titled_too)
{
    hs_membuf own = {0}, given = {0};
    hs_page_options po;
    hs_page_options_init(&po);
    po.input = input;
    po.bands = bands;
    for (int titled = 0; titled < 1 + titled_too; titled++) {
        po.title = titled ? "a title of the page's own" : NULL;
        po.chart_svg = NULL;
        CU_ASSERT_EQUAL(page(c, &po, &own), HS_OK);
        po.chart_svg = svg;
        CU_ASSERT_EQUAL(page(c, &po, &given), HS_OK);
        if (!same_drawing(&own, &given)) {
            CU_FAIL("the page given its chart differs");
            printf("\n  %s (%s title)\n", input, titled ? "own" : "run's");
        }
    }
    hs_membuf_free(&own);
    hs_membuf_free(&given);
}

/* A page given the chart report drew for NAME.svg (hs_page_options.
 * chart_svg) embeds it, and is the page that draws its own, on every
 * sample; a page whose chart is titled otherwise (a title of its own, or
 * a run without its command line, titled by its input's name, where the
 * chart says "heap profile") draws its own. */
static void test_page_given_chart(void)
{
    const char *root = getenv("HEAPSCOPE_SOURCE_DIR");
    char pat[4096];
    glob_t g;
    size_t seen = 0;
    hs_membuf svg = {0};
    hs_chart_options co;
    hs_chart_options_init(&co);
    for (int k = 0; k < 2; k++) {
        static const char *const pats[] = {"samples/*.eventlog",
                                           "samples/*.hp"};
        snprintf(pat, sizeof pat, "%s/%s", root ? root : ".", pats[k]);
        if (glob(pat, 0, NULL, &g) != 0)
            continue;
        /* every eventlog; of the .hp files (the same runs, as the
         * runtime wrote them) three, to stay under a second */
        for (size_t i = 0; i < g.gl_pathc && (k == 0 || i < 3); i++) {
            const char *rel = g.gl_pathv[i] + strlen(pat) - strlen(pats[k]);
            hs_census *c = census_file(rel);
            /* after the first, two bands: cairo's SVG writing is most
             * of the cost */
            co.bands = seen ? 2 : 15;
            hs_membuf_free(&svg); /* render() starts a new one */
            if (c && hs_census_sample_count(c) &&
                render(c, &co, &svg) == HS_OK)
                check_given_chart(c, rel, svg.data, co.bands, seen++ == 0);
            hs_census_free(c);
        }
        globfree(&g);
    }
    CU_ASSERT(seen >= 15 || !seen);
    /* the given chart is the one embedded */
    hs_census *c = census_hp_text("JOB \"prog +RTS -hy\"\n"
                                  "SAMPLE_UNIT \"seconds\"\n"
                                  "VALUE_UNIT \"bytes\"\n"
                                  "BEGIN_SAMPLE 0.1\nInt\t100\n"
                                  "END_SAMPLE 0.1\n");
    hs_membuf m = {0};
    hs_page_options po;
    hs_page_options_init(&po);
    po.chart_svg = "<svg><!-- given --></svg>";
    CU_ASSERT_EQUAL(page(c, &po, &m), HS_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(m.data, po.chart_svg));
    hs_census_free(c);
    /* a run without its command line: the page's chart has the input's
     * name for a title */
    c = census_hp_text("JOB \"\"\nSAMPLE_UNIT \"seconds\"\n"
                       "VALUE_UNIT \"bytes\"\n"
                       "BEGIN_SAMPLE 0.1\nInt\t100\nChar\t40\n"
                       "END_SAMPLE 0.1\nBEGIN_SAMPLE 0.2\nInt\t300\n"
                       "END_SAMPLE 0.2\n");
    hs_membuf_free(&svg);
    CU_ASSERT_EQUAL_FATAL(render(c, &co, &svg), HS_OK);
    check_given_chart(c, "nameless.hp", svg.data, co.bands, true);
    hs_census_free(c);
    hs_membuf_free(&m);
    hs_membuf_free(&svg);
}

int main(void)
{
    static const tu_test tests[] = {
        {"heap lines on their own panel", test_heap_panel_bands_fill_height},
        {"a 10 MB band name", test_huge_label_memory},
        {"threads draw alike, each with its own fonts",
         test_threads_draw_alike},
        {"the page given its chart", test_page_given_chart},
        {"fonts prepared in one thread, drawn with in another",
         test_prepared_fonts},
        {NULL, NULL},
    };
    return tu_main("chart_draw", NULL, NULL, tests);
}
