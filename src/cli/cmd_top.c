/*
 * heapscope top: the cost-centre table of a time profile (or of a -hc
 * heap profile with --by), as text, CSV or JSON.
 */
#include "cli.h"

#include <string.h>

static const char head[] =
    "usage: heapscope top [OPTIONS] FILE\n"
    "\n"
    "The cost-centre table GHC's .prof file begins with, from an eventlog's\n"
    "time profile (+RTS -p -l): per cost centre its module, source location,\n"
    "self ticks (samples whose innermost cost centre it is) and inherited\n"
    "ticks (samples whose stack holds it, counted once even when it recurs),\n"
    "with percentages, largest self first. Unlike the .prof file it can be\n"
    "cut to one capability or a window of the run. Samples with an empty\n"
    "stack are the row MAIN. The log also counts the ticks of GC, SYSTEM and\n"
    "IDLE, which .prof leaves out of its total: its %time is self over the\n"
    "other rows' ticks.\n"
    "\n"
    "With --by, or for a log without a time profile, the same table of a -hc\n"
    "heap profile: bytes at the window's peak sample, or byte-seconds.\n"
    "\n"
    "options:\n";

static const char tail[] =
    "\n"
    "Exit codes: 0 success (a truncated log is tabled up to the cut, with a\n"
    "warning); 1 malformed input; 2 usage; 3 I/O; 4 the log has no time\n"
    "profile (nor -hc heap profile), --by and no -hc heap profile, no\n"
    "sample in the window or on the capability, or a --between marker is\n"
    "not in the log (the message lists its markers); 5 internal. See\n"
    "'heapscope --help'.\n";

enum { OUT_TEXT, OUT_CSV, OUT_JSON };

typedef struct top_args {
    cli_census_args base;
    int kind;
    unsigned cap;
    double from, to;
    const char *between[2];
    int by;                    /* HS_TOP_HEAP_*, or -1: not given */
} top_args;

static const cli_choice bys[] = {
    {"peak", HS_TOP_HEAP_PEAK, false},
    {"byte-seconds", HS_TOP_HEAP_BYTE_SECONDS, false},
    {NULL, 0, false}};

static const cli_optdef opt_csv = {
    "csv", 0, CLI_FLAG, NULL, 0, 0, NULL, OUT_CSV, false,
    "CSV: name,module,srcloc,self_ticks,self_percent,\n"
    "inherited_ticks,inherited_percent (bytes or\n"
    "byte_seconds for a heap profile)"};
static const cli_optdef opt_json = {
    "json", 0, CLI_FLAG, NULL, 0, 0, NULL, OUT_JSON, false,
    "one JSON object: total_ticks, tick_s,\n"
    "cost_centres[] (name, module, srcloc,\n"
    "self_ticks, inherited_ticks); self_ticks add\n"
    "up to total_ticks (heap: _bytes or\n"
    "_byte_seconds, no tick_s)"};
static const cli_optdef opt_cap = {
    "cap", 0, CLI_UINT, "N", 0, 65535, NULL, 0, false,
    "only the samples of capability N"};
static const cli_optdef opt_by = {
    "by", 0, CLI_CHOICE, NULL, 0, 0, bys, 0, false,
    "a -hc heap profile instead: bytes at the peak\n"
    "sample or byte-seconds (the default when the\n"
    "log has no time profile)"};

static const cli_optref opts[] = {
    CLI_OPT(opt_csv, top_args, kind),
    CLI_OPT(opt_json, top_args, kind),
    CLI_OPT(opt_cap, top_args, cap),
    CLI_OPT(cli_opt_from, top_args, from),
    CLI_OPT(cli_opt_to, top_args, to),
    CLI_OPT(cli_opt_between, top_args, between),
    CLI_OPT(opt_by, top_args, by),
    CLI_OPT(cli_opt_output, top_args, base.output),
    CLI_OPT(cli_opt_quiet, top_args, base.quiet),
    CLI_OPT_END,
};

const cli_command cli_cmd_top = {"top", head, opts, tail};

/* The table's options from the command line: 0 or EXIT_USAGE. */
static int check(top_args *a, const cli_parsed *p, hs_top_options *o)
{
    hs_top_options_init(o);
    bool from = cli_given(p, &cli_opt_from), to = cli_given(p, &cli_opt_to);
    if (a->between[0] && (from || to)) {
        cli_errorf("top: --between cannot be combined with --from or --to");
        return EXIT_USAGE;
    }
    if (from)
        o->from_ns = cli_seconds_to_ns(a->from);
    if (to)
        o->to_ns = cli_seconds_to_ns(a->to);
    if (o->from_ns > o->to_ns) {
        cli_errorf("top: --from is after --to");
        return EXIT_USAGE;
    }
    if (cli_given(p, &opt_cap) && a->by >= 0) {
        cli_errorf("top: --cap is for a time profile; heap censuses are "
                   "not per capability");
        return EXIT_USAGE;
    }
    if (cli_given(p, &opt_cap))
        o->cap = (int)a->cap;
    if (a->by >= 0)
        o->source = (hs_top_source)a->by;
    return EXIT_OK;
}

/* The window in words, for a message ("" for the whole run). */
static const char *window_words(const hs_top_options *o, char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = 0;
    if (o->cap >= 0)
        k = (size_t)snprintf(buf, n, " on capability %d", o->cap);
    if (k < n && o->to_ns < UINT64_MAX)
        snprintf(buf + k, n - k, " from %.6f s to %.6f s",
                 (double)o->from_ns / 1e9, (double)o->to_ns / 1e9);
    else if (k < n && o->from_ns > 0)
        snprintf(buf + k, n - k, " from %.6f s on", (double)o->from_ns / 1e9);
    return buf;
}

/* The table of census c: EXIT_OK with *out, or an exit code after a
 * message. A log without a time profile falls back to its -hc heap. */
static int compute(const char *path, const hs_census *c, hs_top_options *o,
                   bool by_given, hs_top **out)
{
    int st = hs_top_new(c, o, out);
    if (st == HS_ERR_NO_DATA && !by_given && o->cap < 0) {
        o->source = HS_TOP_HEAP_BYTE_SECONDS;
        st = hs_top_new(c, o, out);
        if (st == HS_ERR_NO_DATA)
            o->source = HS_TOP_TIME;
    }
    if (st == HS_ERR_NO_DATA) {
        char why[320];
        cli_errorf("%s: %s", cli_input_name(path),
                   cli_no_data_reason(c, o->source == HS_TOP_TIME
                       ? "no time profile in this log (run the program "
                         "with +RTS -p -l)"
                       : "no -hc heap profile in this log (run the program "
                         "with +RTS -hc -l)",
                       "a Mono file has no cost centres", why, sizeof why));
        return EXIT_NO_DATA;
    }
    if (st)
        return cli_exit_code(st);
    if (!hs_top_samples(*out)) {
        char w[128];
        cli_errorf("%s: no %s samples%s", cli_input_name(path),
                   o->source == HS_TOP_TIME ? "time-profile" : "heap",
                   window_words(o, w, sizeof w));
        hs_top_free(*out);
        return EXIT_NO_DATA;
    }
    return EXIT_OK;
}

typedef struct top_job {
    const hs_top *t;
    hs_top_format format;
} top_job;

static int write_top(hs_sink *out, const void *arg)
{
    const top_job *j = arg;
    return hs_render_top(j->t, out, j->format);
}

int cmd_top(int argc, char **argv)
{
    top_args a = {{0}, OUT_TEXT, 0, 0, 0, {NULL, NULL}, -1};
    cli_parsed p;
    int rc = cli_parse(&cli_cmd_top, argc, argv, &a, &p);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    hs_top_options o;
    if ((rc = check(&a, &p, &o)))
        return rc;
    const char *path = cli_one_file("top", &p);
    if (!path)
        return EXIT_USAGE;
    hs_census *c;
    if ((rc = cli_load_census(path, 0, &c)))
        return rc;
    hs_top *t = NULL;
    if (a.between[0])
        rc = cli_marker_window("top", path, c, a.between, &o.from_ns,
                               &o.to_ns);
    if (!rc)
        rc = compute(path, c, &o, a.by >= 0, &t);
    if (!rc) {
        top_job job = {t, a.kind == OUT_CSV    ? HS_TOP_CSV
                          : a.kind == OUT_JSON ? HS_TOP_JSON
                                               : HS_TOP_TEXT};
        rc = cli_write("top", a.base.output, write_top, &job, path, "");
        hs_top_free(t);
    }
    hs_census_free(c);
    return rc;
}
