/// `ipcc check` (check.c): validate a scene and summarise its world.
#ifndef IPCC_CLI_CHECK_H
#define IPCC_CLI_CHECK_H

/// ipcc check SCENE [--set K=V]... [--strict]; the exit code (common.h).
int ipcc_cli_check(int argc, char **argv);

#endif
