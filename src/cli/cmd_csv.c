/*
 * heapscope csv: census tables as CSV.
 */
#include "cli.h"

#include <string.h>

static const char help[] =
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
    "options:\n"
    "  -o, --output OUT      write OUT (through a temporary file, renamed at\n"
    "                        the end); - or no -o: standard output\n"
    "  --layout long|wide    the table's shape (default long)\n"
    "  -L, --name-limit N    cut -hc names to N characters as +RTS -L N does\n"
    "                        (0, the default: no cut)\n"
    "  --bom                 start with a UTF-8 byte-order mark (for\n"
    "                        spreadsheets that misread UTF-8 names without)\n"
    "  --no-formula-guard    names exactly as they are, no ' in front (for\n"
    "                        data frames; unsafe to open in a spreadsheet)\n"
    CLI_HELP_BY
    CLI_HELP_SOURCE
    "  -h, --help            this text\n"
    "\n"
    "Exit codes: see 'heapscope --help' (4: the log has no heap profile).\n";

enum { OPT_LAYOUT = 1, OPT_BOM, OPT_NO_GUARD };

static const cli_opt opts[] = {
    CLI_OPT_OUTPUT_ROW,
    {"layout", 0, 1, OPT_LAYOUT},
    CLI_OPT_LIMIT_ROW,
    {"bom", 0, 0, OPT_BOM},
    {"no-formula-guard", 0, 0, OPT_NO_GUARD},
    CLI_OPT_BY_ENTRY,
    CLI_OPT_SOURCE_ENTRY,
    {0, 0, 0, 0},
};

static int option(void *arg, int id, const char *v)
{
    hs_csv_options *copt = arg;
    switch (id) {
    case OPT_LAYOUT:
        if (strcmp(v, "long") == 0) {
            copt->layout = HS_CSV_LONG;
        } else if (strcmp(v, "wide") == 0) {
            copt->layout = HS_CSV_WIDE;
        } else {
            cli_errorf("csv: --layout takes long or wide, not '%s'", v);
            return EXIT_USAGE;
        }
        break;
    case OPT_BOM:
        copt->bom = true;
        break;
    case OPT_NO_GUARD:
        copt->formula_guard = false;
        break;
    }
    return EXIT_OK;
}

static int render_csv(const hs_census *c, hs_sink *out, const void *arg)
{
    return hs_render_csv_with(c, out, arg);
}

static const char *no_data(const void *arg)
{
    (void)arg;
    return "no heap profile in this log (run the program with +RTS -hc -l, "
           "or another -h option)";
}

int cmd_csv(int argc, char **argv)
{
    static const cli_census_cmd cmd = {"csv", help, opts, option, NULL,
                                       render_csv, no_data};
    hs_csv_options copt;
    hs_csv_options_init(&copt);
    return cli_census_command(&cmd, &copt, argc, argv);
}
