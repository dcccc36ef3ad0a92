/*
 * Loading an input (eventlog or .hp, told apart by content) into a census
 * for the commands, with every warning on stderr.
 */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cli_load_census(const char *path, unsigned name_limit, hs_census **out)
{
    *out = NULL;
    int fd = cli_open_input(path);
    if (fd < 0)
        return EXIT_IO;
    hs_census *c = hs_census_new();
    if (!c) {
        if (fd > 0)
            close(fd);
        cli_errorf("out of memory");
        return EXIT_INTERNAL;
    }
    hs_census_set_name_limit(c, name_limit);
    hs_error err;
    int st = hs_census_load_fd(c, fd, &err);
    if (fd > 0)
        close(fd);
    if (st < 0) {
        int rc = cli_report(path, &err);
        hs_census_free(c);
        return rc ? rc : EXIT_INTERNAL;
    }
    const char *name = strcmp(path, "-") ? path : "<stdin>";
    for (size_t i = 0; i < hs_census_warning_count(c); i++)
        cli_warnf("%s: %s", name, hs_census_warning(c, i));
    if (st == HS_TRUNCATED)
        cli_report(path, &err);
    *out = c;
    return EXIT_OK;
}

int cli_write_output(const char *cmd, const hs_census *c, const char *output,
                     cli_render_fn fn, const void *arg, const char *input,
                     const char *no_data)
{
    hs_error err;
    hs_output *o = hs_output_open(output, &err);
    if (!o) {
        cli_errorf("%s", err.message);
        return EXIT_IO;
    }
    int st = fn(c, hs_output_sink(o), arg);
    if (st != HS_OK) {
        hs_output_abort(o);
        const char *out = output && strcmp(output, "-") ? output
                                                        : "standard output";
        if (st == HS_ERR_NO_DATA)
            cli_errorf("%s: %s", strcmp(input, "-") ? input : "<stdin>",
                       no_data);
        else if (st == HS_ERR_IO)
            cli_errorf("%s: cannot write %s: %s", cmd, out, strerror(errno));
        else
            cli_errorf("%s: cannot write %s: %s", cmd, out, hs_strerror(st));
        return cli_exit_code(st);
    }
    if (hs_output_commit(o, &err) != HS_OK) {
        cli_errorf("%s", err.message);
        return EXIT_IO;
    }
    return EXIT_OK;
}
