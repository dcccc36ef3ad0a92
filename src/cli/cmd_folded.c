/*
 * heapscope folded: folded stacks for flamegraph.pl, inferno, speedscope.
 */
#include "cli.h"

static const char head[] =
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
    "options:\n";

static const char tail[] =
    "\n"
    "speedscope's format (--format speedscope) is JSON whose $schema is\n"
    "https://www.speedscope.app/file-format-schema.json; speedscope opens it\n"
    "with every capability's timeline in time order.\n"
    "\n"
    "Characters that would break a line (';', line breaks, a frame ending in\n"
    "a number) are replaced so every line parses.\n"
    "\n"
    "Exit codes: see 'heapscope --help' (4: the log has no such profile).\n";

/* The renderer's options after the shared ones. */
typedef struct folded_args {
    cli_census_args base;
    hs_folded_options fo;
    int format;              /* FORMAT_* */
    const char *input;       /* the input's name, for speedscope's "name" */
} folded_args;

enum { FORMAT_FOLDED, FORMAT_SPEEDSCOPE };

static const cli_choice formats[] = {
    {"folded", FORMAT_FOLDED, false},
    {"speedscope", FORMAT_SPEEDSCOPE, false},
    {NULL, 0, false}};

static const cli_choice sources[] = {
    {"heap", HS_FOLDED_HEAP, false},
    {"time", HS_FOLDED_TIME, false},
    {"alloc", HS_FOLDED_ALLOC, false},
    {NULL, 0, false}};

static const cli_choice weights[] = {
    {"peak", HS_WEIGHT_PEAK, false},
    {"integral", HS_WEIGHT_INTEGRAL, false},
    {"last", HS_WEIGHT_LAST, false},
    {"bytes", HS_WEIGHT_BYTES, false},
    {"count", HS_WEIGHT_COUNT, false},
    {NULL, 0, false}};

static const cli_optdef opt_source = {
    "source", 0, CLI_CHOICE, NULL, 0, 0, sources, 0, false,
    "which profile (default %D)"};
static const cli_optdef opt_weight = {
    "weight", 0, CLI_CHOICE, NULL, 0, 0, weights, 0, false,
    "heap: bytes at the sample with the largest\n"
    "total (peak, the default), byte-seconds over\n"
    "the run (integral), bytes at the last sample;\n"
    "alloc: bytes (the default) or count"};
static const cli_optdef opt_format = {
    "format", 0, CLI_CHOICE, NULL, 0, 0, formats, 0, false,
    "folded lines, or (--source time) speedscope's\n"
    "JSON file format: one sampled profile of all\n"
    "capabilities and one per capability, samples in\n"
    "time order weighed in ticks, frames with their\n"
    "file and line (default %D)"};
static const cli_optdef opt_per_cap = {
    "per-capability", 0, CLI_FLAG, NULL, 0, 0, NULL, true, false,
    "time: the capability as the root frame"};

static const cli_optref opts[] = {
    CLI_CENSUS_OPTS,
    CLI_OPT(opt_source, folded_args, fo.source),
    CLI_OPT(opt_weight, folded_args, fo.weight),
    CLI_OPT(opt_per_cap, folded_args, fo.per_capability),
    CLI_OPT(opt_format, folded_args, format),
    CLI_OPT_END,
};

const cli_command cli_cmd_folded = {"folded", head, opts, tail};

static int check(void *arg, const cli_parsed *p)
{
    folded_args *a = arg;
    bool weight_given = cli_given(p, &opt_weight);
    bool alloc_weight = a->fo.weight == HS_WEIGHT_BYTES ||
                        a->fo.weight == HS_WEIGHT_COUNT;
    if (a->fo.source == HS_FOLDED_ALLOC && !weight_given)
        a->fo.weight = HS_WEIGHT_BYTES;
    else if (weight_given && a->fo.source != HS_FOLDED_TIME &&
             (a->fo.source == HS_FOLDED_ALLOC) != alloc_weight) {
        cli_errorf("folded: --weight bytes|count is for --source alloc, "
                   "peak|integral|last for --source heap");
        return EXIT_USAGE;
    }
    if (a->fo.source == HS_FOLDED_TIME && weight_given) {
        cli_errorf("folded: --weight is for --source heap; a time profile "
                   "is weighted by ticks");
        return EXIT_USAGE;
    }
    if (a->format == FORMAT_SPEEDSCOPE &&
        (a->fo.source != HS_FOLDED_TIME || a->fo.per_capability)) {
        cli_errorf("folded: --format speedscope is for --source time, "
                   "without --per-capability (it has a profile per "
                   "capability)");
        return EXIT_USAGE;
    }
    if (p->npos == 1)
        a->input = cli_input_base(p->pos[0]);
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
    if (a->format == FORMAT_SPEEDSCOPE) {
        hs_speedscope_options so;
        hs_speedscope_options_init(&so);
        so.name = a->input;
        return hs_render_speedscope(c, out, &so);
    }
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
    static const cli_census_cmd cmd = {&cli_cmd_folded, check, render_folded,
                                       no_data};
    folded_args a = {{0}, {0}, FORMAT_FOLDED, NULL};
    hs_folded_options_init(&a.fo);
    return cli_census_command(&cmd, &a, argc, argv);
}
