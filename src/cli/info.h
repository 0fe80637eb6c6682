/// `ipcc info` (info.c): a mesh file's contents and quality.
#ifndef IPCC_CLI_INFO_H
#define IPCC_CLI_INFO_H

/// ipcc info MESH; the exit code.
int ipcc_cli_info(int argc, char **argv);

#endif
