/*
 * heapscope chart: a heap chart as SVG, PDF or PNG.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char head[] =
    "usage: heapscope chart [OPTIONS] FILE [-o OUT.svg|OUT.pdf|OUT.png]\n"
    "\n"
    "Draws the heap profile of an eventlog or a runtime .hp file: the largest\n"
    "bands by byte-seconds, the rest summed as OTHER, with user markers, and\n"
    "the heap size, live bytes and blocks size lines, when the log has them,\n"
    "in a panel of their own under the bands, on their own scale.\n"
    "The format comes from OUT's extension or --format. Without -o, or with\n"
    "-o -, the chart goes to standard output, as SVG unless --format says.\n"
    "\n"
    "options:\n";

static const char tail[] =
    "\n"
    "Exit codes: see 'heapscope --help'; 4 when the input has no heap\n"
    "samples, its samples hold no bands, or no band matches the filters.\n";

/* What the command line asks for. */
typedef struct chart_args {
    cli_census_args base;     /* -o, -L, --by */
    hs_chart_options o;
    cli_list inc, exc;
} chart_args;

static const cli_choice formats[] = {
    {"svg", HS_CHART_SVG, false},
    {"pdf", HS_CHART_PDF, false},
    {"png", HS_CHART_PNG, false},
    {NULL, 0, false}};

static const cli_optdef opt_format = {
    "format", 'f', CLI_CHOICE, "FMT", 0, 0, formats, 0, true,
    "svg, pdf or png (default: from OUT's name, else %D)"};
static const cli_optdef opt_title = {
    "title", 't', CLI_TEXT, "TEXT", 0, 0, NULL, 0, false,
    "the title (default: the program's command line)"};
static const cli_optdef opt_width = {
    "width", 'W', CLI_NUMBER, "N", 160, 20000, NULL, 0, false,
    "width (SVG: CSS pixels, default 1200; PDF: points,\n"
    "default 842, A4 landscape; PNG: pixels)"};
static const cli_optdef opt_height = {
    "height", 'H', CLI_NUMBER, "N", 160, 20000, NULL, 0, false,
    "height (default 720, PDF 595)"};
static const cli_optdef opt_dpi = {
    "dpi", 0, CLI_NUMBER, "N", 24, 1200, NULL, 0, false,
    "PNG resolution, scaling text and lines (default 96)"};
static const cli_optdef opt_no_lines = {
    "no-heap-lines", 0, CLI_FLAG, NULL, 0, 0, NULL, true, false,
    "leave out the panel of heap size / live / blocks"};

static const cli_optref opts[] = {
    CLI_OPT(cli_opt_output, chart_args, base.output),
    CLI_OPT(opt_format, chart_args, o.format),
    CLI_OPT(cli_opt_kind, chart_args, o.kind),
    CLI_OPT(cli_opt_bands, chart_args, o.bands),
    CLI_OPT(cli_opt_sort, chart_args, o.sort),
    CLI_OPT(cli_opt_include, chart_args, inc),
    CLI_OPT(cli_opt_exclude, chart_args, exc),
    CLI_OPT(opt_title, chart_args, o.title),
    CLI_OPT(opt_width, chart_args, o.width),
    CLI_OPT(opt_height, chart_args, o.height),
    CLI_OPT(opt_dpi, chart_args, o.dpi),
    CLI_OPT(opt_no_lines, chart_args, o.no_heap_lines),
    CLI_OPT(cli_opt_name_limit, chart_args, base.name_limit),
    CLI_OPT(cli_opt_mlpd_by, chart_args, base.mlpd.by),
    CLI_OPT(cli_opt_mlpd_source, chart_args, base.mlpd.samples),
    CLI_OPT(cli_opt_quiet, chart_args, base.quiet),
    CLI_OPT_END,
};

const cli_command cli_cmd_chart = {"chart", head, opts, tail};

static bool format_from_name(const char *s, hs_chart_format *f)
{
    for (const cli_choice *c = formats; c->name; c++)
        if (strcasecmp(s, c->name) == 0) {
            *f = (hs_chart_format)c->value;
            return true;
        }
    return false;
}

static int render_chart(const hs_census *c, hs_sink *out, const void *arg)
{
    return hs_render_chart(c, out, arg);
}

/* The format from the output's name, unless --format gave it or the
 * chart goes to standard output (SVG unless --format says). */
static bool format_from_output(chart_args *a, bool have_format)
{
    const char *out = a->base.output;
    if (have_format || !out || strcmp(out, "-") == 0)
        return true;
    const char *dot = strrchr(out, '.');
    const char *slash = strrchr(out, '/');
    if (!dot || (slash && dot < slash) ||
        !format_from_name(dot + 1, &a->o.format)) {
        cli_errorf("chart: cannot tell the format of '%s': name it .svg, "
                   ".pdf or .png, or give --format", out);
        return false;
    }
    return true;
}

/* Loads the input and writes the chart; an exit code. */
static int draw(const char *in, chart_args *a)
{
    hs_census *c;
    int st = cli_load_census(in, a->base.name_limit, &c);
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
    const char *out = a->base.output;
    cli_guard_watch(out && strcmp(out, "-") != 0);
    cli_guard_output(out);
    if (st == EXIT_OK)
        st = cli_write_output("chart", c, out, render_chart, &a->o, in,
                              nothing);
    cli_guard_output(NULL);
    cli_guard_watch(false);
    hs_census_free(c);
    return st;
}

int cmd_chart(int argc, char **argv)
{
    chart_args a;
    memset(&a, 0, sizeof a);
    hs_chart_options_init(&a.o);
    cli_parsed p;
    int st = cli_parse(&cli_cmd_chart, argc, argv, &a, &p);
    if (st)
        return st < 0 ? EXIT_OK : st;
    cli_use_mlpd(&p, &a.base.mlpd);
    a.o.include = a.inc.item;
    a.o.exclude = a.exc.item;
    if (p.npos != 1) {
        cli_errorf("chart: %s (run 'heapscope chart --help')",
                   p.npos ? "one input file, please" : "no input file given");
        return EXIT_USAGE;
    }
    if (!format_from_output(&a, cli_given(&p, &opt_format)))
        return EXIT_USAGE;
    if (!hs_chart_available()) {
        cli_errorf("chart: this heapscope was built without cairo and pango, "
                   "so it cannot draw charts");
        return EXIT_INTERNAL;
    }
    return draw(p.pos[0], &a);
}
