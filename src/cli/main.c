/*
 * heapscope: turns GHC eventlogs and heap profiles into reports.
 */
#include "cli.h"

#include <string.h>

static const char usage[] =
    "usage: heapscope COMMAND [OPTIONS] FILE\n"
    "\n"
    "Reads a GHC eventlog (from +RTS -l -h... or -p -l) or a runtime .hp file\n"
    "and writes the reports people act on. FILE may be - for standard input.\n"
    "\n"
    "commands:\n"
    "  report   chart (SVG, PDF), .hp, CSV and folded stacks side by side\n"
    "  chart    a stacked-area chart as SVG, PDF or PNG\n"
    "  hp       a .hp file as the runtime writes it (hp2ps reads it)\n"
    "  csv      census tables as CSV\n"
    "  folded   folded stacks for flamegraph.pl, inferno and speedscope\n"
    "  summary  garbage-collector statistics as +RTS -s prints them\n"
    "  info     what a log holds: program, profile, samples, completeness\n"
    "  events   every event, one line each (--count: events per type)\n"
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
} commands[] = {
    {"events", cmd_events}, {"info", cmd_info},       {"hp", cmd_hp},
    {"csv", cmd_csv},       {"folded", cmd_folded},   {"chart", cmd_chart},
    {"report", cmd_report}, {"summary", cmd_summary},
};

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage, stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 ||
        strcmp(cmd, "help") == 0) {
        fputs(usage, stdout);
        return EXIT_OK;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("heapscope %s\n", HS_VERSION_STRING);
        return EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(cmd, commands[i].name) == 0)
            return commands[i].fn(argc - 1, argv + 1);
    cli_errorf("unknown command '%s' (run 'heapscope --help')", cmd);
    return EXIT_USAGE;
}
