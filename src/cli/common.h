/// What every subcommand of the ipcc command shares (common.c): the exit
/// codes, the verbosity, the name of the command being run, the error
/// printer, number and path helpers, the options of every scene command and
/// the loading of a scene's world. Each subcommand has its own header
/// (run.h, check.h, compare.h, convert.h, info.h), takes the arguments after
/// its name and returns the process exit code; main.c dispatches.
#ifndef IPCC_CLI_COMMON_H
#define IPCC_CLI_COMMON_H

#include <stdbool.h>

#include "ipcc/ipcc.h"

/// Exit codes of every subcommand (docs/cli.md).
enum {
    IPCC_EXIT_OK = 0,
    IPCC_EXIT_USAGE = 1,       ///< bad usage, bad input, or an output that cannot be written
    IPCC_EXIT_SOLVER = 2,      ///< the solver failed (frames and checkpoint up to the last good step stay)
    IPCC_EXIT_UNCONVERGED = 3, ///< the run finished but some steps did not converge
    IPCC_EXIT_INTERRUPTED = 4, ///< SIGINT/SIGTERM: stopped after a step with a checkpoint; ipcc resume DIR
    IPCC_EXIT_DIFFERENT = 5,   ///< ipcc compare: the outputs differ beyond the tolerance
};

/// 0 quiet, 1 normal, 2 verbose (-q / -v).
extern int ipcc_cli_verbosity;

/// The subcommand being run (main.c sets it), for messages ("see ipcc run --help").
extern const char *ipcc_cli_command;

/// Print "ipcc: error: WHAT: <ipcc_last_error()>" and return `code`.
int ipcc_cli_fail(int code, const char *what);
/// Parse a whole decimal integer; 0, or -1 if `s` is not one.
int ipcc_cli_parse_int(const char *s, long *out);
/// dir + "/" + name, malloc'ed (NULL when out of memory).
char *ipcc_cli_path_join(const char *dir, const char *name);
/// The options every scene command shares, at argv[*i] (--set, --strict,
/// -q, -v, an unknown option, the scene path). Help (-h, --help) is handled
/// before the command runs (ipcc_cli_wants_help). 1 when consumed, -1 after
/// printing a usage error.
int ipcc_cli_take_common(int argc, char **argv, int *i, ipcc_scene_options *opt, const char **scene_path);
/// Load a scene and build its world (with `start`, also the contact
/// surfaces and the initial intersection check). 0, or IPCC_EXIT_USAGE after
/// printing the error (nothing is left allocated).
int ipcc_cli_load_world(const char *path, const ipcc_scene_options *opt, bool start, ipcc_scene **scene,
                        ipcc_world **world);

#endif
