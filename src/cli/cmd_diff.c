/*
 * heapscope diff: two runs compared, band by band ("did memory go down
 * after the fix, and where?").
 */
#include "cli.h"
#include "report_dir.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static const char head[] =
    "usage: heapscope diff [OPTIONS] BEFORE AFTER\n"
    "\n"
    "Compares two heap profiles of the same breakdown (eventlogs or runtime\n"
    ".hp files, in any mix, or two Mono .mlpd heap-shot logs): both runs'\n"
    "peak heap, time of peak, byte-seconds and duration (and allocation and\n"
    "GC figures when both are eventlogs with GC events), then every band\n"
    "ordered by the absolute change of its byte-seconds: before, after,\n"
    "change, ratio, and bands only in one run marked new or gone. Bands\n"
    "match by name.\n"
    "\n"
    "options:\n";

static const char tail[] =
    "\n"
    "Exit codes: 0 success; 1 malformed input, or a --fail-if threshold\n"
    "crossed (each crossed one said on stderr as 'heapscope: fail-if EXPR:\n"
    "...', after the output was written); 2 usage, including two profiles\n"
    "of different breakdowns (-hc against -hy) and a malformed --fail-if;\n"
    "3 I/O; 4 an input without a heap profile, or a --between marker\n"
    "missing from a run; 5 internal. See 'heapscope --help'.\n";

typedef enum { OUT_TEXT, OUT_JSON, OUT_FOLDED, OUT_CHART, OUT_PAGE } out_kind;

typedef struct diff_args {
    const char *path[2];
    const char *output;
    const char *dir;
    const char *between[2];
    int kind;                 /* out_kind */
    hs_folded_options folded;
    hs_diff_chart_options chart;
    hs_chart_options chart_look; /* chart.chart points here */
    hs_diff_options d;
    double window[2];         /* --window-from, --window-to, seconds */
    bool has_window;
    bool quiet;               /* --quiet */
    cli_list fail_if;         /* --fail-if expressions */
    hs_diff_limit limit[CLI_LIST_MAX];   /* ... parsed */
} diff_args;

static const cli_choice orders[] = {
    {"byte-seconds", HS_DIFF_BY_BYTE_SECONDS, false},
    {"peak", HS_DIFF_BY_PEAK, false},
    {NULL, 0, false}};
static const cli_choice weights[] = {
    {"peak", HS_WEIGHT_PEAK, false},
    {"integral", HS_WEIGHT_INTEGRAL, false},
    {"last", HS_WEIGHT_LAST, false},
    {NULL, 0, false}};
static const cli_choice times[] = {
    {"relative", false, false},
    {"absolute", true, false},
    {NULL, 0, false}};

static const cli_optdef opt_by = {
    "by", 0, CLI_CHOICE, NULL, 0, 0, orders, 0, false,
    "order bands by the change of their\n"
    "byte-seconds or of their peak (default %D)"};
static const cli_optdef opt_normalize = {
    "normalize", 0, CLI_FLAG, NULL, 0, 0, NULL, true, false,
    "drop the unique suffixes GHC generates for\n"
    "local names in -hd closure descriptions\n"
    "(<Main.sat_s2cM> -> <Main.sat>) before\n"
    "matching; the text counts the bands that\n"
    "matched only so"};
static const cli_optdef opt_from = {
    "window-from", 0, CLI_NUMBER, "SECONDS", 0, 1e15, NULL, 0, false,
    "compare only from this time of each run"};
static const cli_optdef opt_to = {
    "window-to", 0, CLI_NUMBER, "SECONDS", 0, 1e15, NULL, 0, false,
    "... up to this time"};
static const cli_optdef opt_between = {
    "between", 0, CLI_PAIR, "A B", 0, 0, NULL, 0, false,
    "compare the span from the first user marker\n"
    "named A to the next one named B, found in\n"
    "each run (the same phase of both runs)"};
static const cli_optdef opt_json = {
    "json", 0, CLI_FLAG, NULL, 0, 0, NULL, OUT_JSON, false,
    "one JSON object instead of text: before and\n"
    "after (input, peak_bytes, peak_time_s,\n"
    "byte_seconds, duration_s, samples, bands, gc)\n"
    "and bands[] (band, status both|new|gone,\n"
    "normalized_only, before_/after_peak_bytes,\n"
    "before_/after_byte_seconds, change_*, ratio)"};
static const cli_optdef opt_folded = {
    "folded", 0, CLI_FLAG, NULL, 0, 0, NULL, OUT_FOLDED, false,
    "'stack before after' lines, as difffolded.pl\n"
    "writes them, for differential flame graphs\n"
    "(frames as 'heapscope folded' writes them)"};
static const cli_optdef opt_weight = {
    "weight", 0, CLI_CHOICE, NULL, 0, 0, weights, 0, false,
    "--folded: bytes at each run's peak sample,\n"
    "byte-seconds, or the last sample (default %D)"};
static const cli_optdef opt_output = {
    "output", 'o', CLI_TEXT, "OUT", 0, 0, NULL, 0, false,
    "write OUT (through a temporary file, renamed\n"
    "at the end); - or no -o: standard output.\n"
    "OUT.svg, OUT.pdf or OUT.png (without --json or\n"
    "--folded): a chart of both runs one above the\n"
    "other on one y scale, bands in the same\n"
    "colours, and a panel of each band's change;\n"
    "OUT.html: the page -d writes, alone"};
static const cli_optdef opt_dir = {
    "dir", 'd', CLI_TEXT, "DIR", 1, 0, NULL, 0, false,
    "write DIR/diff.html (both runs on one page:\n"
    "hover shows both, isolating a band isolates\n"
    "it in both), with diff.txt, diff.json and\n"
    "diff.svg beside it, written as one set as\n"
    "report -d does; DIR is made (with parents)\n"
    "if missing"};
static const cli_optdef opt_time = {
    "time", 0, CLI_CHOICE, NULL, 0, 0, times, 0, false,
    "chart: each run's time normalised to its\n"
    "length, or both in seconds (default %D)"};
static const cli_optdef opt_fail_if = {
    "fail-if", 0, CLI_LIST, "EXPR", 0, 0, NULL, 0, false,
    "a memory regression gate: exit 1 when the\n"
    "change from BEFORE to AFTER crosses EXPR,\n"
    "saying which on stderr (the output is still\n"
    "written): peak>+10%, peak>+5MiB,\n"
    "byte-seconds>+10%, byte-seconds>+1GiB*s,\n"
    "band:NAME>+1MiB (that band's peak, NAME\n"
    "matched as bands are; absent from BEFORE\n"
    "counts from 0); sizes in B, KiB, MiB, GiB,\n"
    "TiB, kB, MB, GB, TB; repeatable, every\n"
    "crossed one is reported"};

static const cli_optref opts[] = {
    CLI_OPT(opt_by, diff_args, d.order),
    CLI_OPT(opt_normalize, diff_args, d.normalize),
    CLI_OPT(opt_from, diff_args, window[0]),
    CLI_OPT(opt_to, diff_args, window[1]),
    CLI_OPT(opt_between, diff_args, between),
    CLI_OPT(opt_json, diff_args, kind),
    CLI_OPT(opt_folded, diff_args, kind),
    CLI_OPT(opt_weight, diff_args, folded.weight),
    CLI_OPT(opt_output, diff_args, output),
    CLI_OPT(opt_dir, diff_args, dir),
    CLI_OPT(opt_time, diff_args, chart.absolute_time),
    CLI_OPT(cli_opt_bands, diff_args, chart_look.bands),
    CLI_OPT(opt_fail_if, diff_args, fail_if),
    CLI_OPT(cli_opt_quiet, diff_args, quiet),
    CLI_OPT_END,
};

const cli_command cli_cmd_diff = {"diff", head, opts, tail};

/* Whether path names a chart by its extension, and which format. */
static bool chart_format(const char *path, hs_chart_format *f)
{
    static const struct { const char *ext; hs_chart_format f; } ext[] = {
        {".svg", HS_CHART_SVG}, {".pdf", HS_CHART_PDF}, {".png", HS_CHART_PNG}};
    size_t n = path ? strlen(path) : 0;
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++)
        if (n > 4 && strcasecmp(path + n - 4, ext[i].ext) == 0) {
            *f = ext[i].f;
            return true;
        }
    return false;
}

/* Windows from --window-from and --window-to, the same in both runs. */
static void set_window(diff_args *a, const cli_parsed *p)
{
    for (int k = 0; k < 2; k++) {
        if (cli_given(p, &opt_from))
            a->d.from_ns[k] = cli_seconds_to_ns(a->window[0]);
        if (cli_given(p, &opt_to))
            a->d.to_ns[k] = cli_seconds_to_ns(a->window[1]);
    }
    a->has_window = cli_given(p, &opt_from) || cli_given(p, &opt_to);
}

/* Parses every --fail-if: 0, or EXIT_USAGE naming the bad one. */
static int parse_limits(diff_args *a)
{
    for (size_t i = 0; i < a->fail_if.n; i++) {
        hs_error err;
        if (hs_diff_limit_parse(a->fail_if.item[i], &a->limit[i], &err)) {
            cli_errorf("diff: --fail-if '%s': %s", a->fail_if.item[i],
                       err.message);
            return EXIT_USAGE;
        }
    }
    return 0;
}

/* Checks every --fail-if against d, saying each crossed one: EXIT_OK,
 * EXIT_THRESHOLD when one was crossed, EXIT_INTERNAL when out of memory. */
static int check_limits(const diff_args *a, const hs_diff *d)
{
    int rc = EXIT_OK;
    for (size_t i = 0; i < a->fail_if.n; i++) {
        const hs_diff_limit *l = &a->limit[i];
        hs_diff_limit_result r;
        if (hs_diff_limit_check(d, l, &r) != HS_OK) {
            cli_errorf("diff: out of memory");
            return EXIT_INTERNAL;
        }
        char what[512];
        hs_diff_limit_describe(l, &r, what, sizeof what);
        if (!r.found)
            cli_warnf("fail-if %s: no band %.*s in either run",
                      a->fail_if.item[i], (int)l->band_len, l->band);
        else if (r.crossed)
            cli_errorf("fail-if %s: %s", a->fail_if.item[i], what);
        if (r.crossed)
            rc = EXIT_THRESHOLD;
    }
    return rc;
}

static int parse_args(int argc, char **argv, diff_args *a)
{
    memset(a, 0, sizeof *a);
    hs_diff_options_init(&a->d);
    hs_diff_chart_options_init(&a->chart);
    hs_chart_options_init(&a->chart_look);
    a->chart.chart = &a->chart_look;
    hs_folded_options_init(&a->folded);
    cli_parsed p;
    int rc = cli_parse(&cli_cmd_diff, argc, argv, a, &p);
    if (rc)
        return rc;
    set_window(a, &p);
    if ((rc = parse_limits(a)))
        return rc;
    if (p.npos != 2) {
        cli_errorf("diff: expected two files, BEFORE and AFTER (run "
                   "'heapscope diff --help')");
        return EXIT_USAGE;
    }
    a->path[0] = p.pos[0];
    a->path[1] = p.pos[1];
    if (strcmp(a->path[0], "-") == 0 && strcmp(a->path[1], "-") == 0) {
        cli_errorf("diff: only one of BEFORE and AFTER can be standard "
                   "input");
        return EXIT_USAGE;
    }
    if (a->between[0] && a->has_window) {
        cli_errorf("diff: --between cannot be combined with --window-from "
                   "or --window-to");
        return EXIT_USAGE;
    }
    if (a->d.from_ns[0] > a->d.to_ns[0]) {
        cli_errorf("diff: --window-from is after --window-to");
        return EXIT_USAGE;
    }
    if (a->dir && (a->output || a->kind != OUT_TEXT)) {
        cli_errorf("diff: -d writes its own set of files; it cannot be "
                   "combined with -o, --json or --folded");
        return EXIT_USAGE;
    }
    if (a->kind == OUT_TEXT &&
        chart_format(a->output, &a->chart_look.format)) {
        if (!hs_chart_available()) {
            cli_errorf("diff: this heapscope was built without charts "
                       "(cairo and pango)");
            return EXIT_USAGE;
        }
        a->kind = OUT_CHART;
    }
    size_t olen = a->output ? strlen(a->output) : 0;
    if (a->kind == OUT_TEXT && olen > 5 &&
        strcasecmp(a->output + olen - 5, ".html") == 0)
        a->kind = OUT_PAGE;
    if (a->kind == OUT_FOLDED && (a->has_window || a->between[0])) {
        cli_errorf("diff: --folded compares whole runs; it cannot be "
                   "combined with a window");
        return EXIT_USAGE;
    }
    return 0;
}

static const char *display(const char *path)
{
    return strcmp(path, "-") ? path : "<stdin>";
}

static int event_to_summary(void *user, const hs_event *ev)
{
    return hs_summary_add_event(user, ev) < 0 ? -1 : 0;
}

/*
 * The GC figures of an eventlog over [from, to], read in a second pass;
 * NULL when the input cannot give them (a .hp file, standard input, a log
 * without GC events). They are extras: a failure only leaves them out.
 */
static hs_summary *gc_figures(const char *path, const hs_census *c,
                              uint64_t from, uint64_t to)
{
    if (strcmp(path, "-") == 0 ||
        hs_census_get_info(c)->source != HS_SOURCE_EVENTLOG)
        return NULL;
    int fd = cli_open_input(path);
    if (fd < 0)
        return NULL;
    hs_summary *s = hs_summary_new();
    hs_reader *r = hs_reader_new();
    hs_summary_window w;
    hs_summary_window_init(&w);
    w.from_ns = from;
    w.to_ns = to;
    w.from_marker = NULL;
    w.to_marker = NULL;
    bool ok = s && r &&
              ((from == 0 && to == UINT64_MAX) ||
               hs_summary_set_window(s, &w) == HS_OK);
    if (ok) {
        cli_progress_begin(fd, path);
        int st = hs_read_fd(r, fd, event_to_summary, s);
        cli_progress_end();
        ok = (st == HS_DONE || st == HS_TRUNCATED || st == HS_OK) &&
             hs_summary_finish(s) == HS_OK;
    }
    close(fd);
    hs_reader_free(r);
    if (!ok) {
        hs_summary_free(s);
        return NULL;
    }
    return s;
}

/* Resolves --between in each run into the options' windows. */
static int marker_windows(diff_args *a, hs_census *c[2])
{
    for (int k = 0; k < 2; k++) {
        int rc = cli_marker_window("diff", a->path[k], c[k], a->between,
                                   &a->d.from_ns[k], &a->d.to_ns[k]);
        if (rc)
            return rc;
    }
    a->d.from_marker = a->between[0];
    a->d.to_marker = a->between[1];
    return 0;
}

/* One output (-o, or a file of the -d set): what to write into it. */
typedef struct dir_file {
    const char *name;
    out_kind kind;
    const diff_args *a;
    const hs_diff *d;
    const hs_page_link *links;
    size_t nlinks;
} dir_file;

/* The page: both runs, and the comparison's JSON for its Change tab. */
static int write_page(const dir_file *f, hs_sink *out)
{
    hs_membuf json = {0};
    hs_sink js = hs_membuf_sink(&json);
    int rc = hs_render_diff_json(f->d, &js);
    hs_page_options po;
    hs_page_options_init(&po);
    po.title = "heapscope diff";
    po.diff_json = json.data;
    po.input = hs_diff_get_run(f->d, HS_DIFF_BEFORE)->input;
    po.input_after = hs_diff_get_run(f->d, HS_DIFF_AFTER)->input;
    if (f->a->chart_look.bands)
        po.bands = f->a->chart_look.bands;
    po.links = f->links;
    po.nlinks = f->nlinks;
    if (rc == HS_OK)
        rc = hs_render_page_compare(hs_diff_census(f->d, HS_DIFF_BEFORE),
                                    hs_diff_census(f->d, HS_DIFF_AFTER), out,
                                    &po);
    hs_membuf_free(&json);
    return rc;
}

static int write_dir_file(hs_sink *out, const void *arg)
{
    const dir_file *f = arg;
    if (f->kind == OUT_TEXT)
        return hs_render_diff_text(f->d, out);
    if (f->kind == OUT_JSON)
        return hs_render_diff_json(f->d, out);
    if (f->kind == OUT_FOLDED)
        return hs_render_diff_folded(f->d, out, &f->a->folded);
    if (f->kind == OUT_CHART)
        return hs_render_diff_chart(f->d, out, &f->a->chart);
    return write_page(f, out);
}

static int write_out(const diff_args *a, const hs_diff *d)
{
    dir_file f = {NULL, a->kind, a, d, NULL, 0};
    int rc = a->kind == OUT_CHART ? cli_check_charts() : EXIT_OK;
    /* not while a reader of standard output may hold the writes back */
    cli_guard_watch(a->kind == OUT_CHART && a->output &&
                    strcmp(a->output, "-") != 0);
    cli_guard_output(a->output);
    if (rc == EXIT_OK)
        rc = cli_write("diff", a->output, write_dir_file, &f, a->path[0],
                       "a run has no heap samples");
    cli_guard_output(NULL);
    cli_guard_watch(false);
    return rc;
}

static int write_set_file(const char *path, const void *arg)
{
    return cli_write("diff", path, write_dir_file, arg,
                     ((const dir_file *)arg)->a->path[0],
                     "a run has no heap samples");
}

/* -d DIR: the page and, beside it, the text, the JSON and the chart,
 * written as one set as `report -d` writes its files (report_dir.h). */
static int write_dir(const diff_args *a, const hs_diff *d)
{
    static const hs_page_link links[] = {
        {"diff.txt", "the comparison as text"},
        {"diff.json", "the comparison as JSON"},
        {"diff.svg", "the chart (SVG)"}};
    bool charts = hs_chart_available();
    dir_file files[] = {
        {"diff.txt", OUT_TEXT, a, d, NULL, 0},
        {"diff.json", OUT_JSON, a, d, NULL, 0},
        {"diff.svg", OUT_CHART, a, d, NULL, 0},
        {"diff.html", OUT_PAGE, a, d, links, charts ? 3 : 2}};
    set_file set[4];
    for (size_t i = 0; i < 4; i++)
        set[i] = (set_file){files[i].name,
                            files[i].kind == OUT_CHART && !charts
                                ? SET_REMOVE
                                : SET_WRITE,
                            write_set_file, &files[i], false};
    int rc = cli_check_charts();
    return rc ? rc : dir_set_write(a->dir, NULL, set, 4, false);
}

static int compare(diff_args *a, hs_census *c[2])
{
    hs_source_kind s0 = hs_census_get_info(c[0])->source;
    hs_source_kind s1 = hs_census_get_info(c[1])->source;
    if ((s0 == HS_SOURCE_EVENTLOG && s1 == HS_SOURCE_HP) ||
        (s0 == HS_SOURCE_HP && s1 == HS_SOURCE_EVENTLOG))
        cli_warnf("diff: one input is an eventlog, the other a .hp file: the "
                  "eventlog's times are elapsed seconds, the .hp's CPU "
                  "seconds, so times and byte-seconds do not compare "
                  "directly");
    int rc = a->between[0] ? marker_windows(a, c) : 0;
    if (rc)
        return rc;
    hs_summary *s[2] = {NULL, NULL};
    if (a->kind == OUT_TEXT || a->kind == OUT_JSON)
        for (int k = 0; k < 2; k++)
            s[k] = gc_figures(a->path[k], c[k], a->d.from_ns[k],
                              a->d.to_ns[k]);
    for (int k = 0; k < 2; k++) {
        a->d.input[k] = display(a->path[k]);
        a->d.gc[k] = s[k] ? hs_summary_get_stats(s[k]) : NULL;
    }
    hs_diff *d = NULL;
    hs_error err;
    int st = hs_diff_new(c[0], c[1], &a->d, NULL, &d, &err);
    if (st == HS_ERR_NO_DATA) {
        cli_errorf("diff: %s: %s", display(a->path[err.line == 2]),
                   err.message);
        rc = EXIT_NO_DATA;
    } else if (st != HS_OK) {
        cli_errorf("diff: %s", err.message);
        rc = cli_exit_code(st);
    } else {
        rc = a->dir ? write_dir(a, d) : write_out(a, d);
        if (rc == EXIT_OK)
            rc = check_limits(a, d);
    }
    hs_diff_free(d);
    hs_summary_free(s[0]);
    hs_summary_free(s[1]);
    return rc;
}

int cmd_diff(int argc, char **argv)
{
    diff_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    hs_census *c[2] = {NULL, NULL};
    rc = cli_load_census(a.path[0], 0, &c[0]);
    if (!rc)
        rc = cli_load_census(a.path[1], 0, &c[1]);
    if (!rc)
        rc = compare(&a, c);
    hs_census_free(c[0]);
    hs_census_free(c[1]);
    return rc;
}
