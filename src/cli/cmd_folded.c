/*
 * heapscope folded: folded stacks for flamegraph.pl, inferno, speedscope.
 */
#include "cli.h"

#include <string.h>

static const char help[] =
    "usage: heapscope folded [OPTIONS] FILE\n"
    "\n"
    "Writes 'frame;frame;frame N' lines, outermost frame first, for\n"
    "flamegraph.pl, inferno and speedscope. Frames read Module.label.\n"
    "\n"
    "  --source heap (default)  -hc: one line per cost-centre stack; other\n"
    "                           breakdowns: one frame per band. N is bytes,\n"
    "                           or byte-seconds with --weight integral.\n"
    "  --source time            a time profile (+RTS -p -l): N is ticks.\n"
    "\n"
    "options:\n"
    "  -o, --output OUT         write OUT (through a temporary file, renamed\n"
    "                           at the end); - or no -o: standard output\n"
    "  --source heap|time       which profile (default heap)\n"
    "  --weight peak|integral|last\n"
    "                           heap: bytes at the sample with the largest\n"
    "                           total (peak, the default), byte-seconds over\n"
    "                           the run (integral), bytes at the last sample\n"
    "  --per-capability         time: the capability as the root frame\n"
    "  -L, --name-limit N       cut band names of -hc .hp output as -L does\n"
    "                           (accepted for symmetry; frames are not cut)\n"
    "  -h, --help               this text\n"
    "\n"
    "Characters that would break a line (';', line breaks, a frame ending in\n"
    "a number) are replaced so every line parses.\n"
    "\n"
    "Exit codes: see 'heapscope --help' (4: the log has no such profile).\n";

enum { OPT_OUTPUT = 1, OPT_SOURCE, OPT_WEIGHT, OPT_PER_CAP, OPT_LIMIT };

static const cli_opt opts[] = {
    {"output", 'o', 1, OPT_OUTPUT},
    {"source", 0, 1, OPT_SOURCE},
    {"weight", 0, 1, OPT_WEIGHT},
    {"per-capability", 0, 0, OPT_PER_CAP},
    {"name-limit", 'L', 1, OPT_LIMIT},
    {0, 0, 0, 0},
};

static int render_folded(const hs_census *c, hs_sink *out, const void *arg)
{
    return hs_render_folded(c, out, arg);
}

int cmd_folded(int argc, char **argv)
{
    cli_parsed p;
    int rc = cli_parse("folded", argc, argv, opts, help, &p);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    const char *output = NULL;
    unsigned long long limit = 0;
    hs_folded_options fo = {HS_FOLDED_HEAP, HS_WEIGHT_PEAK, false};
    bool weight_given = false;
    for (int i = 0; i < p.nopts; i++) {
        const char *v = p.opts[i].value;
        switch (p.opts[i].id) {
        case OPT_OUTPUT:
            output = v;
            break;
        case OPT_SOURCE:
            if (strcmp(v, "heap") == 0) {
                fo.source = HS_FOLDED_HEAP;
            } else if (strcmp(v, "time") == 0) {
                fo.source = HS_FOLDED_TIME;
            } else {
                cli_errorf("folded: --source takes heap or time, not '%s'",
                           v);
                return EXIT_USAGE;
            }
            break;
        case OPT_WEIGHT:
            weight_given = true;
            if (strcmp(v, "peak") == 0) {
                fo.weight = HS_WEIGHT_PEAK;
            } else if (strcmp(v, "integral") == 0) {
                fo.weight = HS_WEIGHT_INTEGRAL;
            } else if (strcmp(v, "last") == 0) {
                fo.weight = HS_WEIGHT_LAST;
            } else {
                cli_errorf("folded: --weight takes peak, integral or last, "
                           "not '%s'", v);
                return EXIT_USAGE;
            }
            break;
        case OPT_PER_CAP:
            fo.per_capability = true;
            break;
        case OPT_LIMIT:
            if (!cli_parse_uint("folded", "--name-limit", v, 1u << 20,
                                &limit))
                return EXIT_USAGE;
            break;
        }
    }
    if (fo.source == HS_FOLDED_TIME && weight_given) {
        cli_errorf("folded: --weight is for --source heap; a time profile "
                   "is weighted by ticks");
        return EXIT_USAGE;
    }
    if (fo.source == HS_FOLDED_HEAP && fo.per_capability) {
        cli_errorf("folded: --per-capability is for --source time; heap "
                   "censuses are not per capability");
        return EXIT_USAGE;
    }
    if (p.npos != 1) {
        cli_errorf("folded: expected one FILE (run 'heapscope folded "
                   "--help')");
        return EXIT_USAGE;
    }
    const char *path = p.pos[0];
    hs_census *c;
    rc = cli_load_census(path, (unsigned)limit, &c);
    if (rc)
        return rc;
    rc = cli_write_output(
        "folded", c, output, render_folded, &fo, path,
        fo.source == HS_FOLDED_TIME
            ? "no time profile in this log (run the program with +RTS -p -l)"
            : "no heap profile in this log (run the program with +RTS -hc "
              "-l, or use --source time for a time profile)");
    hs_census_free(c);
    return rc;
}
