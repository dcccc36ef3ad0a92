/* heapscope folded: placeholder until its issue lands. */
#include "cli.h"

int cmd_folded(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_errorf("folded: not implemented yet");
    return EXIT_INTERNAL;
}
