/* heapscope csv: placeholder until its issue lands. */
#include "cli.h"

int cmd_csv(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_errorf("csv: not implemented yet");
    return EXIT_INTERNAL;
}
