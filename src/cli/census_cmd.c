/*
 * What every command that renders one census to one output shares:
 * parsing (-o, -L and --by in cli_census_args), the one FILE, loading the
 * census with its warnings, writing the output atomically, and the exit
 * code. A command is a table (cli_census_cmd) and a few callbacks; see
 * cmd_hp.c, the smallest.
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

int cli_census_command(const cli_census_cmd *cmd, void *args, int argc,
                       char **argv)
{
    cli_parsed p;
    const char *name = cmd->cli->name;
    int rc = cli_parse(cmd->cli, argc, argv, args, &p);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    const cli_census_args *a = args;
    cli_use_mlpd(&p, &a->mlpd);
    if (cmd->check && (rc = cmd->check(args, &p)) != 0)
        return rc;
    const char *path = cli_one_file(name, &p);
    if (!path)
        return EXIT_USAGE;
    hs_census *c;
    rc = cli_load_census(path, a->name_limit, &c);
    if (rc)
        return rc;
    rc = cli_write_output(name, c, a->output, cmd->render, args, path,
                          cmd->no_data(args));
    hs_census_free(c);
    return rc;
}
