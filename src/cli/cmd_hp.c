/*
 * heapscope hp: a heap profile as the runtime writes its .hp file.
 */
#include "cli.h"

static const char head[] =
    "usage: heapscope hp [OPTIONS] FILE\n"
    "\n"
    "Writes the heap profile of FILE (an eventlog from +RTS -h... -l, or a\n"
    ".hp file) as a .hp file, the text the runtime writes and hp2ps reads:\n"
    "JOB, DATE, one BEGIN_SAMPLE/END_SAMPLE block per census with a\n"
    "'band<TAB>bytes' line per band, and user markers as hp2ps MARK lines.\n"
    "Times are seconds since the program started (the runtime's own .hp\n"
    "counts mutator CPU seconds instead). -hc bands are named as the runtime\n"
    "names them, without its '(ccs id)' prefix, which the eventlog lacks.\n"
    "\n"
    "options:\n";

static const char tail[] =
    "\n"
    "Exit codes: see 'heapscope --help' (4: the log has no heap profile).\n";

static const cli_optref opts[] = {
    CLI_CENSUS_OPTS,
    CLI_OPT_END,
};

const cli_command cli_cmd_hp = {"hp", head, opts, tail};

static int render_hp(const hs_census *c, hs_sink *out, const void *arg)
{
    (void)arg;
    return hs_render_hp(c, out);
}

static const char *no_data(const void *arg)
{
    (void)arg;
    return "no heap profile in this log (run the program with +RTS -hc -l, "
           "or another -h option)";
}

int cmd_hp(int argc, char **argv)
{
    static const cli_census_cmd cmd = {&cli_cmd_hp, NULL, render_hp,
                                       no_data};
    cli_census_args a = {0};
    return cli_census_command(&cmd, &a, argc, argv);
}
