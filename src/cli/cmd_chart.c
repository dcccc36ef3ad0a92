/*
 * heapscope chart: a heap chart as SVG, PDF or PNG.
 */
#include "cli.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char help[] =
    "usage: heapscope chart [OPTIONS] FILE -o OUT.svg|OUT.pdf|OUT.png\n"
    "\n"
    "Draws the heap profile of an eventlog or a runtime .hp file: the largest\n"
    "bands by byte-seconds, the rest summed as OTHER, with user markers and the\n"
    "heap size, live bytes and blocks size lines when the log has them.\n"
    "The format comes from OUT's extension or --format; OUT - with --format\n"
    "writes to standard output.\n"
    "\n"
    "options:\n"
    "  -o, --output FILE     where to write the chart\n"
    "  -f, --format FMT      svg, pdf or png\n"
    "  -k, --kind KIND       area (stacked, the default), normalized (each\n"
    "                        sample as 100%), or line (one line per band)\n"
    "  -b, --bands N         show the N largest bands, the rest as OTHER\n"
    "                        (default 15; 0 = every band)\n"
    "  -s, --sort ORDER      stacking order: size (largest at the bottom, the\n"
    "                        default), name, or stddev (steadiest at the bottom)\n"
    "  -i, --include PAT     keep only bands whose name contains PAT, or matches\n"
    "                        it as a glob when it has * ? or [ (repeatable)\n"
    "  -x, --exclude PAT     drop bands matching PAT in the same way (repeatable);\n"
    "                        dropped bands are not drawn, not even in OTHER\n"
    "  -t, --title TEXT      the title (default: the program's command line)\n"
    "  -W, --width N         width (SVG: CSS pixels, default 1200; PDF: points,\n"
    "                        default 842, A4 landscape; PNG: pixels)\n"
    "  -H, --height N        height (default 720, PDF 595)\n"
    "      --dpi N           PNG resolution, scaling text and lines (default 96)\n"
    "      --no-heap-lines   leave out the heap size / live / blocks lines\n"
    "                        (drawn in area charts only: in a line chart the\n"
    "                        heap's totals would flatten the bands' lines, and\n"
    "                        a normalized chart has no byte axis)\n"
    "  -L, --name-limit N    cut -hc names to N characters as +RTS -L does\n"
    "  -h, --help            this text\n"
    "\n"
    "Exit codes: see 'heapscope --help'; 4 when the input has no heap samples\n"
    "or no band matches the filters.\n";

enum {
    OPT_OUTPUT = 1, OPT_FORMAT, OPT_KIND, OPT_BANDS, OPT_SORT, OPT_INCLUDE,
    OPT_EXCLUDE, OPT_TITLE, OPT_WIDTH, OPT_HEIGHT, OPT_DPI, OPT_NO_LINES,
    OPT_NAME_LIMIT
};

static const cli_opt opts[] = {
    {"output", 'o', 1, OPT_OUTPUT},
    {"format", 'f', 1, OPT_FORMAT},
    {"kind", 'k', 1, OPT_KIND},
    {"bands", 'b', 1, OPT_BANDS},
    {"sort", 's', 1, OPT_SORT},
    {"include", 'i', 1, OPT_INCLUDE},
    {"exclude", 'x', 1, OPT_EXCLUDE},
    {"title", 't', 1, OPT_TITLE},
    {"width", 'W', 1, OPT_WIDTH},
    {"height", 'H', 1, OPT_HEIGHT},
    {"dpi", 0, 1, OPT_DPI},
    {"no-heap-lines", 0, 0, OPT_NO_LINES},
    {"name-limit", 'L', 1, OPT_NAME_LIMIT},
    {0, 0, 0, 0},
};

static bool format_from_name(const char *s, hs_chart_format *f)
{
    if (strcasecmp(s, "svg") == 0)
        *f = HS_CHART_SVG;
    else if (strcasecmp(s, "pdf") == 0)
        *f = HS_CHART_PDF;
    else if (strcasecmp(s, "png") == 0)
        *f = HS_CHART_PNG;
    else
        return false;
    return true;
}

/* The same rule as the renderer's: a glob when the pattern has a glob
 * character, a substring otherwise. */
static bool matches(const char *pat, const char *name)
{
    if (strpbrk(pat, "*?["))
        return fnmatch(pat, name, 0) == 0;
    return strstr(name, pat) != NULL;
}

static bool any_band_kept(const hs_census *c, const char *const *inc,
                          const char *const *exc)
{
    size_t n = hs_census_band_count(c);
    for (size_t b = 0; b < n; b++) {
        const char *name = hs_census_band_name(c, b);
        bool keep = !inc[0];
        for (size_t i = 0; inc[i] && !keep; i++)
            keep = matches(inc[i], name);
        for (size_t i = 0; exc[i] && keep; i++)
            keep = !matches(exc[i], name);
        if (keep)
            return true;
    }
    return false;
}

static int render_chart(const hs_census *c, hs_sink *out, const void *arg)
{
    return hs_render_chart(c, out, arg);
}

int cmd_chart(int argc, char **argv)
{
    cli_parsed p;
    int st = cli_parse("chart", argc, argv, opts, help, &p);
    if (st)
        return st < 0 ? EXIT_OK : st;

    hs_chart_options o;
    hs_chart_options_init(&o);
    const char *out = NULL;
    bool have_format = false;
    unsigned long long u;
    unsigned name_limit = 0;
    /* At most 64 options in all, so these lists cannot overflow. */
    const char *inc[65] = {0}, *exc[65] = {0};
    size_t ninc = 0, nexc = 0;
    for (int i = 0; i < p.nopts; i++) {
        const char *v = p.opts[i].value;
        switch (p.opts[i].id) {
        case OPT_OUTPUT: out = v; break;
        case OPT_FORMAT:
            if (!format_from_name(v, &o.format)) {
                cli_errorf("chart: --format must be svg, pdf or png, not '%s'",
                           v);
                return EXIT_USAGE;
            }
            have_format = true;
            break;
        case OPT_KIND:
            if (strcmp(v, "area") == 0)
                o.kind = HS_CHART_AREA;
            else if (strcmp(v, "normalized") == 0 ||
                     strcmp(v, "normalised") == 0)
                o.kind = HS_CHART_NORMALIZED;
            else if (strcmp(v, "line") == 0)
                o.kind = HS_CHART_LINE;
            else {
                cli_errorf("chart: --kind must be area, normalized or line, "
                           "not '%s'", v);
                return EXIT_USAGE;
            }
            break;
        case OPT_BANDS:
            if (!cli_parse_uint("chart", "--bands", v, 1000000, &u))
                return EXIT_USAGE;
            o.bands = (unsigned)u;
            break;
        case OPT_SORT:
            if (strcmp(v, "size") == 0)
                o.sort = HS_SORT_SIZE;
            else if (strcmp(v, "name") == 0)
                o.sort = HS_SORT_NAME;
            else if (strcmp(v, "stddev") == 0)
                o.sort = HS_SORT_STDDEV;
            else {
                cli_errorf("chart: --sort must be size, name or stddev, "
                           "not '%s'", v);
                return EXIT_USAGE;
            }
            break;
        case OPT_INCLUDE: inc[ninc++] = v; break;
        case OPT_EXCLUDE: exc[nexc++] = v; break;
        case OPT_TITLE: o.title = v; break;
        case OPT_WIDTH:
        case OPT_HEIGHT: {
            const char *name = p.opts[i].id == OPT_WIDTH ? "--width"
                                                          : "--height";
            double d;
            if (!cli_parse_double("chart", name, v, &d))
                return EXIT_USAGE;
            if (d < 160 || d > 20000) {
                cli_errorf("chart: %s must be from 160 to 20000, not '%s'",
                           name, v);
                return EXIT_USAGE;
            }
            if (p.opts[i].id == OPT_WIDTH)
                o.width = d;
            else
                o.height = d;
            break;
        }
        case OPT_DPI:
            if (!cli_parse_double("chart", "--dpi", v, &o.dpi))
                return EXIT_USAGE;
            if (o.dpi < 24 || o.dpi > 1200) {
                cli_errorf("chart: --dpi must be from 24 to 1200, not '%s'", v);
                return EXIT_USAGE;
            }
            break;
        case OPT_NO_LINES: o.no_heap_lines = true; break;
        case OPT_NAME_LIMIT:
            if (!cli_parse_uint("chart", "-L", v, 100000, &u))
                return EXIT_USAGE;
            name_limit = (unsigned)u;
            break;
        default: break;
        }
    }
    o.include = inc;
    o.exclude = exc;

    if (p.npos != 1) {
        cli_errorf("chart: %s (run 'heapscope chart --help')",
                   p.npos ? "one input file, please" : "no input file given");
        return EXIT_USAGE;
    }
    if (!out) {
        cli_errorf("chart: no output given: -o OUT.svg, OUT.pdf or OUT.png");
        return EXIT_USAGE;
    }
    if (!have_format) {
        const char *dot = strrchr(out, '.');
        const char *slash = strrchr(out, '/');
        if (!dot || (slash && dot < slash) || !format_from_name(dot + 1,
                                                                &o.format)) {
            cli_errorf("chart: cannot tell the format of '%s': name it .svg, "
                       ".pdf or .png, or give --format", out);
            return EXIT_USAGE;
        }
    }
    if (!hs_chart_available()) {
        cli_errorf("chart: this heapscope was built without cairo and pango, "
                   "so it cannot draw charts");
        return EXIT_INTERNAL;
    }

    const char *in = p.pos[0];
    hs_census *c;
    st = cli_load_census(in, name_limit, &c);
    if (st != EXIT_OK)
        return st;
    const char *shown = strcmp(in, "-") ? in : "<stdin>";
    if (!hs_census_sample_count(c)) {
        cli_errorf("%s: no heap samples (run the program with +RTS -h -l, "
                   "or give its .hp file)", shown);
        hs_census_free(c);
        return EXIT_NO_DATA;
    }
    if (!any_band_kept(c, inc, exc)) {
        cli_errorf("%s: no band matches the --include/--exclude filters",
                   shown);
        hs_census_free(c);
        return EXIT_NO_DATA;
    }

    st = cli_write_output("chart", c, out, render_chart, &o, in,
                          "no heap samples (run the program with +RTS -h -l, "
                          "or give its .hp file)");
    hs_census_free(c);
    return st;
}
