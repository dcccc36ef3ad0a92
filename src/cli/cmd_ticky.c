/*
 * heapscope ticky: the ticky-ticky counters of a log, as a table, CSV or
 * JSON.
 */
#include "cli.h"

static const char head[] =
    "usage: heapscope ticky [OPTIONS] FILE\n"
    "\n"
    "Writes the ticky-ticky counters of FILE (an eventlog of a program built\n"
    "with -ticky and run with +RTS -lT; GHC 9.4 or later): per counter its\n"
    "entries, the bytes its code allocated (allocs) and the bytes of its\n"
    "closures allocated (allocd), summed over the log's samples (the runtime\n"
    "resets the counters at each sample), its arity, argument kinds and\n"
    "name, and the closure's source location when the log has IPE records.\n"
    "Most bytes allocated first, then most entries.\n"
    "\n"
    "options:\n";

static const char tail[] =
    "\n"
    "Exit codes: see 'heapscope --help' (4: the log has no ticky counters).\n";

typedef struct ticky_args {
    cli_census_args base;
    hs_ticky_options to;
} ticky_args;

static const cli_optdef opt_csv = {
    "csv", 0, CLI_FLAG, NULL, 0, 0, NULL, HS_TICKY_CSV, false,
    "CSV instead of text: id, name, arity,\n"
    "arg_kinds, entries, allocs, allocd, samples,\n"
    "closure_desc, type, label, module, srcloc"};
static const cli_optdef opt_json = {
    "json", 0, CLI_FLAG, NULL, 0, 0, NULL, HS_TICKY_JSON, false,
    "{\"counters\": [...]} instead of text: id, name,\n"
    "arity, arg_kinds, entries, allocs, allocd,\n"
    "samples, defined, info_table and the\n"
    "closure's IPE fields (null when unknown)"};

/* -L and --by mean nothing here: names are not cut, and a Mono file has
 * no ticky counters. */
static const cli_optref opts[] = {
    CLI_OPT(cli_opt_output, cli_census_args, output),
    CLI_OPT(cli_opt_quiet, cli_census_args, quiet),
    CLI_OPT(opt_csv, ticky_args, to.format),
    CLI_OPT(opt_json, ticky_args, to.format),
    CLI_OPT_END,
};

const cli_command cli_cmd_ticky = {"ticky", head, opts, tail};

static int check(void *arg, const cli_parsed *p)
{
    (void)arg;
    if (cli_given(p, &opt_csv) && cli_given(p, &opt_json)) {
        cli_errorf("ticky: --csv and --json exclude each other");
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

static int render_ticky(const hs_census *c, hs_sink *out, const void *arg)
{
    const ticky_args *a = arg;
    return hs_render_ticky(c, out, &a->to);
}

static const char *no_data(const void *arg)
{
    (void)arg;
    return "no ticky-ticky counters in this log (build the program with "
           "-ticky and run it with +RTS -lT)";
}

int cmd_ticky(int argc, char **argv)
{
    static const cli_census_cmd cmd = {&cli_cmd_ticky, check, render_ticky,
                                       no_data};
    ticky_args a = {{0}, {0}};
    hs_ticky_options_init(&a.to);
    return cli_census_command(&cmd, &a, argc, argv);
}
