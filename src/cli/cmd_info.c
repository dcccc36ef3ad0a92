/* heapscope info: placeholder until its issue lands. */
#include "cli.h"

int cmd_info(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_errorf("info: not implemented yet");
    return EXIT_INTERNAL;
}
