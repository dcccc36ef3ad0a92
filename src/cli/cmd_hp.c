/*
 * heapscope hp: a heap profile as the runtime writes its .hp file.
 */
#include "cli.h"

#include <string.h>

static const char help[] =
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
    "options:\n"
    "  -o, --output OUT      write OUT (through a temporary file, renamed at\n"
    "                        the end); - or no -o: standard output\n"
    "  -L, --name-limit N    cut -hc names to N characters as +RTS -L N does\n"
    "                        (0, the default: no cut; the runtime's is 25)\n"
    "  -h, --help            this text\n"
    "\n"
    "Exit codes: see 'heapscope --help' (4: the log has no heap profile).\n";

enum { OPT_OUTPUT = 1, OPT_LIMIT };

static const cli_opt opts[] = {
    {"output", 'o', 1, OPT_OUTPUT},
    {"name-limit", 'L', 1, OPT_LIMIT},
    {0, 0, 0, 0},
};

static int render_hp(const hs_census *c, hs_sink *out, const void *arg)
{
    (void)arg;
    return hs_render_hp(c, out);
}

int cmd_hp(int argc, char **argv)
{
    cli_parsed p;
    int rc = cli_parse("hp", argc, argv, opts, help, &p);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    const char *output = NULL;
    unsigned long long limit = 0;
    for (int i = 0; i < p.nopts; i++) {
        if (p.opts[i].id == OPT_OUTPUT)
            output = p.opts[i].value;
        else if (p.opts[i].id == OPT_LIMIT &&
                 !cli_parse_uint("hp", "--name-limit", p.opts[i].value,
                                 1u << 20, &limit))
            return EXIT_USAGE;
    }
    if (p.npos != 1) {
        cli_errorf("hp: expected one FILE (run 'heapscope hp --help')");
        return EXIT_USAGE;
    }
    const char *path = p.pos[0];
    hs_census *c;
    rc = cli_load_census(path, (unsigned)limit, &c);
    if (rc)
        return rc;
    rc = cli_write_output("hp", c, output, render_hp, NULL, path,
                          "no heap profile in this log (run the program "
                          "with +RTS -hc -l, or another -h option)");
    hs_census_free(c);
    return rc;
}
