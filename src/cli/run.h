/// `ipcc run` and `ipcc resume` (run.c): the simulation loop, its output
/// and its checkpoints.
#ifndef IPCC_CLI_RUN_H
#define IPCC_CLI_RUN_H

/// ipcc run SCENE [-o DIR] [--overwrite] [--steps N] ...; the exit code (common.h).
int ipcc_cli_run(int argc, char **argv);
/// ipcc resume DIR [--steps N] ...; the exit code (common.h).
int ipcc_cli_resume(int argc, char **argv);

#endif
