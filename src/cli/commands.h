/// The ipcc subcommands that live outside main.c, one file each. Each takes
/// the arguments after its name and returns the process exit code
/// (see main.c for the codes).
#ifndef IPCC_CLI_COMMANDS_H
#define IPCC_CLI_COMMANDS_H

/// ipcc compare DIR_A DIR_B [--tol X] (compare.c).
int ipcc_cli_compare(int argc, char **argv);

#endif
