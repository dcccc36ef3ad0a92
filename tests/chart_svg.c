/*
 * The chart tests' helpers (test_chart*.c): censuses from .hp text and
 * from files, a chart rendered into memory, and what the SVG, PNG and PDF
 * hold (band areas' titles and styles, text, PNG size, PDF pages).
 */
#include "chart_svg.h"

#include <CUnit/Basic.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

hs_census *census_hp_text(const char *text)
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
hs_census *census_file(const char *rel)
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
char *hp_bands(size_t n, size_t samples, const char *fmt,
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

int render(const hs_census *c, const hs_chart_options *o,
                  hs_membuf *m)
{
    memset(m, 0, sizeof *m);
    hs_sink s = hs_membuf_sink(m);
    return hs_render_chart(c, &s, o);
}

size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p++)
        n++;
    return n;
}

/* The band areas' titles in stacking order (bottom first), peaks cut off.
 * Returns their number; names[] are malloc'd. */
size_t area_titles(const char *svg, char **names, size_t max)
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

void free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
}

/* Whether the SVG's text layer holds `text` (already XML-escaped). */
bool has_text(const char *svg, const char *text)
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
void area_fill(const char *svg, const char *name, char *out, size_t n)
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

unsigned png_u32(const unsigned char *p)
{
    return (unsigned)p[0] << 24 | (unsigned)p[1] << 16 |
           (unsigned)p[2] << 8 | p[3];
}

size_t pdf_pages(const char *pdf, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i + 11 < len; i++)
        if (memcmp(pdf + i, "/Type /Page", 11) == 0 && pdf[i + 11] != 's')
            n++;
    return n;
}
