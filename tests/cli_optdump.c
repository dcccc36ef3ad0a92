/*
 * Prints every command's option table (src/cli, cli.h) for cli_options.sh:
 * one line per option, "COMMAND LONG SHORT KIND", SHORT '-' for none,
 * then the values that option must refuse, each as a tab-separated field
 * (<empty> for the empty value). The script checks --help and the refusals
 * against the real program, so a table row that --help leaves out, or a
 * range the parser does not hold, fails there.
 */
#include "cli.h"

#include <stdio.h>

static const char *const kind_names[] = {
    "flag", "text", "list", "pair", "uint", "number", "choice"};

/* The values a row must refuse, tab-separated. */
static void bad_values(const cli_optdef *d)
{
    switch (d->kind) {
    case CLI_UINT:
        printf("\tx\t-1\t1.5");
        if (d->min > 0)
            printf("\t%.0f", d->min - 1);
        printf("\t%.0f", d->max + 1);
        break;
    case CLI_NUMBER:
        printf("\tx\tnan\t%.17g\t%.17g", d->min > 0 ? d->min / 2 : -1.0,
               d->max * 2);
        break;
    case CLI_CHOICE:
        printf("\tno-such-%s", d->name);
        break;
    case CLI_TEXT:
        if (d->min > 0)
            printf("\t<empty>");
        break;
    default:
        break;
    }
}

static void dump(const cli_command *cmd)
{
    for (const cli_optref *r = cmd->opts; r->def; r++) {
        const cli_optdef *d = r->def;
        printf("%s\t%s\t%c\t%s", cmd->name, d->name,
               d->short_name ? d->short_name : '-', kind_names[d->kind]);
        bad_values(d);
        putchar('\n');
    }
}

int main(void)
{
#define DUMP(name, line) dump(&cli_cmd_##name);
    HS_CLI_COMMANDS(DUMP)
#undef DUMP
    return fflush(stdout) == 0 ? 0 : 1;
}
