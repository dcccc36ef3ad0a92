/* heapscope summary: placeholder until its issue lands. */
#include "cli.h"

int cmd_summary(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_errorf("summary: not implemented yet");
    return EXIT_INTERNAL;
}
