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
    "commas, quotes, line breaks and any other byte survive.\n"
    "\n"
    "options:\n"
    "  -o, --output OUT      write OUT (through a temporary file, renamed at\n"
    "                        the end); - or no -o: standard output\n"
    "  --layout long|wide    the table's shape (default long)\n"
    "  -L, --name-limit N    cut -hc names to N characters as +RTS -L N does\n"
    "                        (0, the default: no cut)\n"
    "  -h, --help            this text\n"
    "\n"
    "Exit codes: see 'heapscope --help' (4: the log has no heap profile).\n";

enum { OPT_OUTPUT = 1, OPT_LAYOUT, OPT_LIMIT };

static const cli_opt opts[] = {
    {"output", 'o', 1, OPT_OUTPUT},
    {"layout", 0, 1, OPT_LAYOUT},
    {"name-limit", 'L', 1, OPT_LIMIT},
    {0, 0, 0, 0},
};

static int render_csv(const hs_census *c, hs_sink *out, const void *arg)
{
    return hs_render_csv(c, out, *(const hs_csv_layout *)arg);
}

int cmd_csv(int argc, char **argv)
{
    cli_parsed p;
    int rc = cli_parse("csv", argc, argv, opts, help, &p);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    const char *output = NULL;
    unsigned long long limit = 0;
    hs_csv_layout layout = HS_CSV_LONG;
    for (int i = 0; i < p.nopts; i++) {
        const char *v = p.opts[i].value;
        switch (p.opts[i].id) {
        case OPT_OUTPUT:
            output = v;
            break;
        case OPT_LAYOUT:
            if (strcmp(v, "long") == 0) {
                layout = HS_CSV_LONG;
            } else if (strcmp(v, "wide") == 0) {
                layout = HS_CSV_WIDE;
            } else {
                cli_errorf("csv: --layout takes long or wide, not '%s'", v);
                return EXIT_USAGE;
            }
            break;
        case OPT_LIMIT:
            if (!cli_parse_uint("csv", "--name-limit", v, 1u << 20, &limit))
                return EXIT_USAGE;
            break;
        }
    }
    if (p.npos != 1) {
        cli_errorf("csv: expected one FILE (run 'heapscope csv --help')");
        return EXIT_USAGE;
    }
    const char *path = p.pos[0];
    hs_census *c;
    rc = cli_load_census(path, (unsigned)limit, &c);
    if (rc)
        return rc;
    rc = cli_write_output("csv", c, output, render_csv, &layout, path,
                          "no heap profile in this log (run the program "
                          "with +RTS -hc -l, or another -h option)");
    hs_census_free(c);
    return rc;
}
