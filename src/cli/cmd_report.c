/* heapscope report: placeholder until its issue lands. */
#include "cli.h"

int cmd_report(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_errorf("report: not implemented yet");
    return EXIT_INTERNAL;
}
