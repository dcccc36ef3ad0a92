/*
 * What every command that renders one census to one output shares:
 * parsing (with -o and -L handled here), the one FILE, loading the census
 * with its warnings, writing the output atomically, and the exit code. A
 * command is a table (cli_census_cmd) and a few callbacks for its own
 * options; see cmd_hp.c, the smallest.
 */
#include "cli.h"

#include <string.h>

const char *cli_one_file(const char *cmd, const cli_parsed *p)
{
    if (p->npos == 1)
        return p->pos[0];
    cli_errorf("%s: expected one FILE (run 'heapscope %s --help')", cmd, cmd);
    return NULL;
}

int cli_census_command(const cli_census_cmd *cmd, void *opt, int argc,
                       char **argv)
{
    cli_parsed p;
    int rc = cli_parse(cmd->name, argc, argv, cmd->opts, cmd->help, &p);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    const char *output = NULL;
    unsigned long long limit = 0;
    for (int i = 0; i < p.nopts; i++) {
        const int id = p.opts[i].id;
        const char *v = p.opts[i].value;
        if (id == CLI_OPT_OUTPUT)
            output = v;
        else if (id == CLI_OPT_LIMIT) {
            if (!cli_parse_uint(cmd->name, "--name-limit", v, 1u << 20,
                                &limit))
                return EXIT_USAGE;
        } else if ((rc = cli_mlpd_option(cmd->name, id, v)) != 0) {
            if (rc < 0) /* --by, --source of an .mlpd (load.c) */
                return EXIT_USAGE;
        } else if (cmd->option && (rc = cmd->option(opt, id, v)) != 0)
            return rc;
    }
    if (cmd->check && (rc = cmd->check(opt)) != 0)
        return rc;
    const char *path = cli_one_file(cmd->name, &p);
    if (!path)
        return EXIT_USAGE;
    hs_census *c;
    rc = cli_load_census(path, (unsigned)limit, &c);
    if (rc)
        return rc;
    rc = cli_write_output(cmd->name, c, output, cmd->render, opt, path,
                          cmd->no_data(opt));
    hs_census_free(c);
    return rc;
}
