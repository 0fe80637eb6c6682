/// The usage texts of the ipcc command (usage.c): the overview, each
/// command's usage, and finding -h / --help among a command's arguments.
#ifndef IPCC_CLI_USAGE_H
#define IPCC_CLI_USAGE_H

#include <stdbool.h>
#include <stdio.h>

/// The overview: every command's synopsis and summary, every option.
void ipcc_cli_usage(FILE *f);
/// `ipcc NAME --help`: one command's synopsis, options and details.
/// 0, or -1 if NAME is not a command (nothing printed).
int ipcc_cli_command_usage(const char *name, FILE *f);
/// True if -h or --help is among command NAME's arguments (not as the value
/// of an option that takes one, like -o). False for an unknown NAME.
bool ipcc_cli_wants_help(const char *name, int argc, char **argv);

#endif
