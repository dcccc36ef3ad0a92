/*
 * heapscope: turns GHC eventlogs and heap profiles into reports.
 */
#include "cli.h"

#include <string.h>

static const char usage_head[] =
    "usage: heapscope COMMAND [OPTIONS] FILE\n"
    "\n"
    "Reads a GHC eventlog (from +RTS -l -h... or -p -l), a runtime .hp file or\n"
    "a Mono log-profiler file (.mlpd, plain or gzip), told apart by content,\n"
    "and writes the reports people act on. FILE may be - for standard input.\n"
    "\n"
    "commands:\n";

static const char usage_tail[] =
    "\n"
    "Run 'heapscope COMMAND --help' for a command's options.\n"
    "\n"
    "options:\n"
    "  -h, --help     this text\n"
    "  --version      the version\n"
    "\n"
    "exit codes:\n"
    "  0  success (warnings, e.g. a truncated log, go to stderr)\n"
    "  1  the input is malformed (the message names file, byte offset, event)\n"
    "  2  usage error: unknown command or option, bad option value\n"
    "  3  the input cannot be read or the output cannot be written\n"
    "  4  the input has nothing of what was asked (e.g. no heap profile)\n"
    "  5  out of memory or another internal failure\n";

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *line;
} commands[] = {
#define CLI_ENTRY(name, line) {#name, cmd_##name, line},
    HS_CLI_COMMANDS(CLI_ENTRY)
#undef CLI_ENTRY
};

static void usage(FILE *f)
{
    fputs(usage_head, f);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].line);
    fputs(usage_tail, f);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 ||
        strcmp(cmd, "help") == 0) {
        usage(stdout);
        return cli_stdout_written();
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("heapscope %s\n", hs_version());
        return cli_stdout_written();
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(cmd, commands[i].name) == 0)
            return commands[i].fn(argc - 1, argv + 1);
    cli_errorf("unknown command '%s' (run 'heapscope --help')", cmd);
    return EXIT_USAGE;
}
