/* heapscope hp: placeholder until its issue lands. */
#include "cli.h"

int cmd_hp(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_errorf("hp: not implemented yet");
    return EXIT_INTERNAL;
}
