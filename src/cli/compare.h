/// `ipcc compare` (compare.c): two output folders, frame by frame.
#ifndef IPCC_CLI_COMPARE_H
#define IPCC_CLI_COMPARE_H

/// ipcc compare DIR_A DIR_B [--tol X] [--length L] [-q]; the exit code
/// (common.h: IPCC_EXIT_DIFFERENT when the outputs differ).
int ipcc_cli_compare(int argc, char **argv);

#endif
