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
    "  --source alloc           a Mono .mlpd's allocations: the backtrace,\n"
    "                           outermost first, then the allocated class;\n"
    "                           N is bytes, or objects with --weight count.\n"
    "\n"
    "options:\n"
    "  -o, --output OUT         write OUT (through a temporary file, renamed\n"
    "                           at the end); - or no -o: standard output\n"
    "  --source heap|time|alloc which profile (default heap)\n"
    "  --weight peak|integral|last|bytes|count\n"
    "                           heap: bytes at the sample with the largest\n"
    "                           total (peak, the default), byte-seconds over\n"
    "                           the run (integral), bytes at the last sample;\n"
    "                           alloc: bytes (the default) or count\n"
    CLI_HELP_BY
    "  --per-capability         time: the capability as the root frame\n"
    "  -L, --name-limit N       cut band names of -hc .hp output as -L does\n"
    "                           (accepted for symmetry; frames are not cut)\n"
    "  -h, --help               this text\n"
    "\n"
    "Characters that would break a line (';', line breaks, a frame ending in\n"
    "a number) are replaced so every line parses.\n"
    "\n"
    "Exit codes: see 'heapscope --help' (4: the log has no such profile).\n";

enum { OPT_SOURCE = 1, OPT_WEIGHT, OPT_PER_CAP };

static const cli_opt opts[] = {
    CLI_OPT_OUTPUT_ROW,
    {"source", 0, 1, OPT_SOURCE},
    {"weight", 0, 1, OPT_WEIGHT},
    {"per-capability", 0, 0, OPT_PER_CAP},
    CLI_OPT_LIMIT_ROW,
    CLI_OPT_BY_ENTRY,
    {0, 0, 0, 0},
};

/* The renderer's options and whether --weight was given. */
typedef struct folded_args {
    hs_folded_options fo;
    bool weight_given;
} folded_args;

static int option(void *arg, int id, const char *v)
{
    folded_args *a = arg;
    switch (id) {
    case OPT_SOURCE:
        if (strcmp(v, "heap") == 0) {
            a->fo.source = HS_FOLDED_HEAP;
        } else if (strcmp(v, "time") == 0) {
            a->fo.source = HS_FOLDED_TIME;
        } else if (strcmp(v, "alloc") == 0) {
            a->fo.source = HS_FOLDED_ALLOC;
        } else {
            cli_errorf("folded: --source takes heap, time or alloc, not "
                       "'%s'", v);
            return EXIT_USAGE;
        }
        break;
    case OPT_WEIGHT:
        a->weight_given = true;
        if (strcmp(v, "peak") == 0) {
            a->fo.weight = HS_WEIGHT_PEAK;
        } else if (strcmp(v, "integral") == 0) {
            a->fo.weight = HS_WEIGHT_INTEGRAL;
        } else if (strcmp(v, "last") == 0) {
            a->fo.weight = HS_WEIGHT_LAST;
        } else if (strcmp(v, "bytes") == 0) {
            a->fo.weight = HS_WEIGHT_BYTES;
        } else if (strcmp(v, "count") == 0) {
            a->fo.weight = HS_WEIGHT_COUNT;
        } else {
            cli_errorf("folded: --weight takes peak, integral, last, bytes "
                       "or count, "
                       "not '%s'", v);
            return EXIT_USAGE;
        }
        break;
    case OPT_PER_CAP:
        a->fo.per_capability = true;
        break;
    }
    return EXIT_OK;
}

static int check(const void *arg)
{
    folded_args *a = (folded_args *)arg;
    bool alloc_weight = a->fo.weight == HS_WEIGHT_BYTES ||
                        a->fo.weight == HS_WEIGHT_COUNT;
    if (a->fo.source == HS_FOLDED_ALLOC && !a->weight_given)
        a->fo.weight = HS_WEIGHT_BYTES;
    else if (a->weight_given && a->fo.source != HS_FOLDED_TIME &&
             (a->fo.source == HS_FOLDED_ALLOC) != alloc_weight) {
        cli_errorf("folded: --weight bytes|count is for --source alloc, "
                   "peak|integral|last for --source heap");
        return EXIT_USAGE;
    }
    if (a->fo.source == HS_FOLDED_TIME && a->weight_given) {
        cli_errorf("folded: --weight is for --source heap; a time profile "
                   "is weighted by ticks");
        return EXIT_USAGE;
    }
    if (a->fo.source != HS_FOLDED_TIME && a->fo.per_capability) {
        cli_errorf("folded: --per-capability is for --source time; heap "
                   "censuses are not per capability");
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

static int render_folded(const hs_census *c, hs_sink *out, const void *arg)
{
    const folded_args *a = arg;
    return hs_render_folded(c, out, &a->fo);
}

static const char *no_data(const void *arg)
{
    const folded_args *a = arg;
    return a->fo.source == HS_FOLDED_TIME
        ? "no time profile in this log (run the program with +RTS -p -l)"
        : a->fo.source == HS_FOLDED_ALLOC
        ? "no allocations in this file (run mono with --profile=log:alloc)"
        : "no heap profile in this log (run the program with +RTS -hc -l, "
          "or use --source time for a time profile)";
}

int cmd_folded(int argc, char **argv)
{
    static const cli_census_cmd cmd = {"folded", help, opts, option, check,
                                       render_folded, no_data};
    folded_args a = {{0}, false};
    hs_folded_options_init(&a.fo);
    return cli_census_command(&cmd, &a, argc, argv);
}
