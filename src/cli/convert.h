/// `ipcc convert` (convert.c): a scene to native JSON.
#ifndef IPCC_CLI_CONVERT_H
#define IPCC_CLI_CONVERT_H

/// ipcc convert SCENE -o OUT.json [--set K=V]... [--strict]; the exit code.
int ipcc_cli_convert(int argc, char **argv);

#endif
