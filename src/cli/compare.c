// ipcc compare: placeholder until the frame comparison lands.
#include <stdio.h>

#include "commands.h"

int ipcc_cli_compare(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fprintf(stderr, "ipcc: error: compare is not implemented yet\n");
    return 1;
}
