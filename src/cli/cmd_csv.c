/*
 * heapscope csv: census tables as CSV.
 */
#include "cli.h"

static const char head[] =
    "usage: heapscope csv [OPTIONS] FILE\n"
    "\n"
    "Writes the heap profile of FILE (an eventlog or a .hp file) as CSV.\n"
    "  long (default)  time_s,band,bytes: one row per band per sample\n"
    "  wide            time_s then one column per band, 0 where absent\n"
    "time_s is seconds since the program started. Band names are quoted, so\n"
    "commas, quotes, line breaks and any other byte survive; a name that\n"
    "starts with =, +, -, @, TAB or CR gets a ' in front, so that a\n"
    "spreadsheet shows it as text instead of running it as a formula.\n"
    "\n"
    "options:\n";

static const char tail[] =
    "\n"
    "Exit codes: see 'heapscope --help' (4: the log has no heap profile).\n";

typedef struct csv_args {
    cli_census_args base;
    hs_csv_options o;
} csv_args;

static const cli_choice layouts[] = {
    {"long", HS_CSV_LONG, false},
    {"wide", HS_CSV_WIDE, false},
    {NULL, 0, false}};

static const cli_optdef opt_layout = {
    "layout", 0, CLI_CHOICE, NULL, 0, 0, layouts, 0, false,
    "the table's shape (default %D)"};
static const cli_optdef opt_bom = {
    "bom", 0, CLI_FLAG, NULL, 0, 0, NULL, true, false,
    "start with a UTF-8 byte-order mark (for\n"
    "spreadsheets that misread UTF-8 names without)"};
static const cli_optdef opt_no_guard = {
    "no-formula-guard", 0, CLI_FLAG, NULL, 0, 0, NULL, false, false,
    "names exactly as they are, no ' in front (for\n"
    "data frames; unsafe to open in a spreadsheet)"};

static const cli_optref opts[] = {
    CLI_CENSUS_OPTS,
    CLI_OPT(opt_layout, csv_args, o.layout),
    CLI_OPT(opt_bom, csv_args, o.bom),
    CLI_OPT(opt_no_guard, csv_args, o.formula_guard),
    CLI_OPT(cli_opt_mlpd_source, csv_args, base.mlpd.samples),
    CLI_OPT_END,
};

const cli_command cli_cmd_csv = {"csv", head, opts, tail};

static int render_csv(const hs_census *c, hs_sink *out, const void *arg)
{
    return hs_render_csv_with(c, out, &((const csv_args *)arg)->o);
}

static const char *no_data(const void *arg)
{
    (void)arg;
    return "no heap profile in this log (run the program with +RTS -hc -l, "
           "or another -h option)";
}

int cmd_csv(int argc, char **argv)
{
    static const cli_census_cmd cmd = {&cli_cmd_csv, NULL, render_csv,
                                       no_data};
    csv_args a = {{0}, {0}};
    hs_csv_options_init(&a.o);
    return cli_census_command(&cmd, &a, argc, argv);
}
