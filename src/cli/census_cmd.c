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

/* Lists the distinct user markers of census c after a --between miss. */
static void list_markers(const char *path, const hs_census *c)
{
    size_t n = hs_census_marker_count(c);
    if (!n) {
        cli_errorf("%s has no user markers (%s)", cli_input_name(path),
                   hs_census_mlpd_stats(c)
                       ? "the Mono log profiler writes none: give the "
                         "window in seconds"
                       : "traceMarker");
        return;
    }
    cli_errorf("the user markers of %s:", cli_input_name(path));
    for (size_t i = 0; i < n && i < 50; i++) {
        const hs_census_marker *m = hs_census_marker_at(c, i);
        bool dup = false;
        for (size_t j = 0; j < i && !dup; j++)
            dup = strcmp(hs_census_marker_at(c, j)->text, m->text) == 0;
        if (!dup)
            cli_linef("  \"%s\" at %.6f s", m->text,
                      (double)m->time_ns / 1e9);
    }
}

int cli_marker_window(const char *cmd, const char *path, const hs_census *c,
                      const char *const between[2], uint64_t *from_ns,
                      uint64_t *to_ns)
{
    hs_error err;
    if (hs_diff_marker_window(c, between[0], between[1], from_ns, to_ns,
                              &err) == HS_OK)
        return EXIT_OK;
    cli_errorf("%s: %s: %s", cmd, cli_input_name(path), err.message);
    list_markers(path, c);
    return EXIT_NO_DATA;
}
