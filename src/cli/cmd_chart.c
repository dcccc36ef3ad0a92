/*
 * heapscope chart: a heap chart as SVG, PDF or PNG.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char help[] =
    "usage: heapscope chart [OPTIONS] FILE [-o OUT.svg|OUT.pdf|OUT.png]\n"
    "\n"
    "Draws the heap profile of an eventlog or a runtime .hp file: the largest\n"
    "bands by byte-seconds, the rest summed as OTHER, with user markers, and\n"
    "the heap size, live bytes and blocks size lines, when the log has them,\n"
    "in a panel of their own under the bands, on their own scale.\n"
    "The format comes from OUT's extension or --format. Without -o, or with\n"
    "-o -, the chart goes to standard output, as SVG unless --format says.\n"
    "\n"
    "options:\n"
    "  -o, --output FILE     where to write the chart (default: standard output)\n"
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
    "      --no-heap-lines   leave out the panel of heap size / live / blocks\n"
    "  -L, --name-limit N    cut -hc names to N characters as +RTS -L does\n"
    CLI_HELP_BY
    CLI_HELP_SOURCE
    "  -h, --help            this text\n"
    "\n"
    "Exit codes: see 'heapscope --help'; 4 when the input has no heap samples,\n"
    "its samples hold no bands, or no band matches the filters.\n";

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
    CLI_OPT_BY_ENTRY,
    CLI_OPT_SOURCE_ENTRY,
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

static int render_chart(const hs_census *c, hs_sink *out, const void *arg)
{
    return hs_render_chart(c, out, arg);
}

/* What the command line asks for. */
typedef struct chart_args {
    hs_chart_options o;
    const char *out;
    bool have_format;
    unsigned name_limit;
    /* At most 64 options in all, so these lists cannot overflow. */
    const char *inc[65], *exc[65];
    size_t ninc, nexc;
} chart_args;

/* --width/--height/--dpi: a number in [lo, hi]. */
static bool size_value(const char *opt, const char *v, double lo, double hi,
                       double *out)
{
    if (!cli_parse_double("chart", opt, v, out))
        return false;
    if (*out < lo || *out > hi) {
        cli_errorf("chart: %s must be from %g to %g, not '%s'", opt, lo, hi,
                   v);
        return false;
    }
    return true;
}

/* Applies one option; false after a usage error. */
static bool apply_option(chart_args *a, int id, const char *v)
{
    unsigned long long u;
    switch (id) {
    case OPT_OUTPUT: a->out = v; return true;
    case OPT_FORMAT:
        if (!format_from_name(v, &a->o.format)) {
            cli_errorf("chart: --format must be svg, pdf or png, not '%s'", v);
            return false;
        }
        a->have_format = true;
        return true;
    case OPT_KIND: return cli_parse_kind("chart", v, &a->o.kind);
    case OPT_BANDS:
        if (!cli_old_uint("chart", "--bands", v, 1000000, &u))
            return false;
        a->o.bands = (unsigned)u;
        return true;
    case OPT_SORT: return cli_parse_sort("chart", v, &a->o.sort);
    case OPT_INCLUDE: a->inc[a->ninc++] = v; return true;
    case OPT_EXCLUDE: a->exc[a->nexc++] = v; return true;
    case OPT_TITLE: a->o.title = v; return true;
    case OPT_WIDTH: return size_value("--width", v, 160, 20000, &a->o.width);
    case OPT_HEIGHT: return size_value("--height", v, 160, 20000, &a->o.height);
    case OPT_DPI: return size_value("--dpi", v, 24, 1200, &a->o.dpi);
    case OPT_NO_LINES: a->o.no_heap_lines = true; return true;
    case OPT_NAME_LIMIT:
        if (!cli_old_uint("chart", "-L", v, 100000, &u))
            return false;
        a->name_limit = (unsigned)u;
        return true;
    default: return cli_mlpd_option("chart", id, v) >= 0;
    }
}

/* The format from the output's name, unless --format gave it or the
 * chart goes to standard output (SVG unless --format says). */
static bool format_from_output(chart_args *a)
{
    if (a->have_format || !a->out || strcmp(a->out, "-") == 0)
        return true;
    const char *dot = strrchr(a->out, '.');
    const char *slash = strrchr(a->out, '/');
    if (!dot || (slash && dot < slash) ||
        !format_from_name(dot + 1, &a->o.format)) {
        cli_errorf("chart: cannot tell the format of '%s': name it .svg, "
                   ".pdf or .png, or give --format", a->out);
        return false;
    }
    return true;
}

/* Loads the input and writes the chart; an exit code. */
static int draw(const char *in, chart_args *a)
{
    hs_census *c;
    int st = cli_load_census(in, a->name_limit, &c);
    if (st != EXIT_OK)
        return st;
    const char *shown = cli_input_name(in);
    if (!hs_census_sample_count(c)) {
        char why[160];
        cli_errorf("%s: %s", shown, cli_no_samples_reason(c, why, sizeof why));
        hs_census_free(c);
        return EXIT_NO_DATA;
    }
    /* With samples, the renderer finds nothing to draw only when no
     * sample holds a band or the filters drop every band: say which. */
    const char *nothing =
        !hs_census_band_count(c)
            ? "its heap samples hold no bands: nothing to draw"
            : "no band matches the --include/--exclude filters";
    st = cli_check_charts();
    /* not while a reader of standard output may hold the writes back */
    cli_guard_watch(a->out && strcmp(a->out, "-") != 0);
    cli_guard_output(a->out);
    if (st == EXIT_OK)
        st = cli_write_output("chart", c, a->out, render_chart, &a->o, in,
                              nothing);
    cli_guard_output(NULL);
    cli_guard_watch(false);
    hs_census_free(c);
    return st;
}

int cmd_chart(int argc, char **argv)
{
    cli_old_parsed p;
    int st = cli_parse_old("chart", argc, argv, opts, help, &p);
    if (st)
        return st < 0 ? EXIT_OK : st;
    chart_args a;
    memset(&a, 0, sizeof a);
    hs_chart_options_init(&a.o);
    for (int i = 0; i < p.nopts; i++)
        if (!apply_option(&a, p.opts[i].id, p.opts[i].value))
            return EXIT_USAGE;
    a.o.include = a.inc;
    a.o.exclude = a.exc;
    if (p.npos != 1) {
        cli_errorf("chart: %s (run 'heapscope chart --help')",
                   p.npos ? "one input file, please" : "no input file given");
        return EXIT_USAGE;
    }
    if (!format_from_output(&a))
        return EXIT_USAGE;
    if (!hs_chart_available()) {
        cli_errorf("chart: this heapscope was built without cairo and pango, "
                   "so it cannot draw charts");
        return EXIT_INTERNAL;
    }
    return draw(p.pos[0], &a);
}
