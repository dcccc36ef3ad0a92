/*
 * The options several commands take, each defined once: its name, letter,
 * range or names, and help. Defaults are not here: a command fills its
 * arguments from the library's _init (hs_chart_options_init gives
 * --bands, --sort and --kind theirs) and --help shows them.
 */
#include "cli.h"

const cli_optdef cli_opt_output = {
    "output", 'o', CLI_TEXT, "OUT", 0, 0, NULL, 0, false,
    "write OUT (through a temporary file, renamed at\n"
    "the end); - or no -o: standard output"};

const cli_optdef cli_opt_quiet = {
    "quiet", 'q', CLI_FLAG, NULL, 0, 0, NULL, true, false,
    "no progress line: on a terminal, a read that\n"
    "lasts over 2 s shows on stderr how far it is\n"
    "(bytes, percent of the file, rate)"};

const cli_optdef cli_opt_name_limit = {
    "name-limit", 'L', CLI_UINT, "N", 0, 100000, NULL, 0, false,
    "cut -hc names to N characters as +RTS -L N does\n"
    "(default %D: no cut; the runtime's is 25)"};

const cli_optdef cli_opt_bands = {
    "bands", 'b', CLI_UINT, "N", 0, 1000000, NULL, 0, false,
    "the N largest bands (by byte-seconds) drawn,\n"
    "the rest as OTHER (default %D; 0 = every band)"};

const cli_optdef cli_opt_include = {
    "include", 'i', CLI_LIST, "PAT", 0, 0, NULL, 0, false,
    "keep only bands whose name contains PAT, or matches\n"
    "it as a glob when it has * ? or [ (repeatable)"};

const cli_optdef cli_opt_exclude = {
    "exclude", 'x', CLI_LIST, "PAT", 0, 0, NULL, 0, false,
    "drop bands matching PAT in the same way (repeatable);\n"
    "dropped bands are not drawn, not even in OTHER"};

static const cli_choice sorts[] = {
    {"size", HS_SORT_SIZE, false},
    {"name", HS_SORT_NAME, false},
    {"stddev", HS_SORT_STDDEV, false},
    {NULL, 0, false}};

const cli_optdef cli_opt_sort = {
    "sort", 's', CLI_CHOICE, "ORDER", 0, 0, sorts, 0, false,
    "stacking order: size (largest at the bottom),\n"
    "name, or stddev (steadiest at the bottom); default %D"};

static const cli_choice kinds[] = {
    {"area", HS_CHART_AREA, false},
    {"normalized", HS_CHART_NORMALIZED, false},
    {"normalised", HS_CHART_NORMALIZED, true},
    {"line", HS_CHART_LINE, false},
    {NULL, 0, false}};

const cli_optdef cli_opt_kind = {
    "kind", 'k', CLI_CHOICE, "KIND", 0, 0, kinds, 0, false,
    "area (stacked), normalized (each sample as\n"
    "100%), or line (one line per band); default %D"};

static const cli_choice groups[] = {
    {"class", HS_MLPD_BY_CLASS, false},
    {"namespace", HS_MLPD_BY_NAMESPACE, false},
    {"assembly", HS_MLPD_BY_ASSEMBLY, false},
    {NULL, 0, false}};

const cli_optdef cli_opt_mlpd_by = {
    "by", 0, CLI_CHOICE, NULL, 0, 0, groups, 0, false,
    ".mlpd: one band per class, namespace or assembly\n"
    "(default %D)"};

static const cli_choice samples[] = {
    {"heap", HS_MLPD_SAMPLES_HEAP, false},
    {"alloc", HS_MLPD_SAMPLES_ALLOC, false},
    {NULL, 0, false}};

const cli_optdef cli_opt_mlpd_source = {
    "source", 0, CLI_CHOICE, NULL, 0, 0, samples, 0, false,
    ".mlpd: heap shots, or bytes allocated per 10 ms\n"
    "interval (default %D)"};

const cli_optdef cli_opt_from = {
    "from", 0, CLI_NUMBER, "SECONDS", 0, 1e15, NULL, 0, false,
    "start of a window, seconds since program start"};

const cli_optdef cli_opt_to = {
    "to", 0, CLI_NUMBER, "SECONDS", 0, 1e15, NULL, 0, false,
    "end of a window"};

const cli_optdef cli_opt_between = {
    "between", 0, CLI_PAIR, "A B", 0, 0, NULL, 0, false,
    "the window from the first user marker named A\n"
    "(exact name, from traceMarker) to the first marker\n"
    "named B after it; A and B may be equal. Cannot be\n"
    "combined with --from/--to."};
