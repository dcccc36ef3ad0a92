/* heapscope chart: placeholder until its issue lands. */
#include "cli.h"

int cmd_chart(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_errorf("chart: not implemented yet");
    return EXIT_INTERNAL;
}
