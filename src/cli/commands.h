/// The ipcc command's internal interface: its subcommands, one file each
/// (run.c, compare.c, check.c; the small ones live in main.c), the helpers
/// they share (main.c) and the usage texts (usage.c). Each subcommand takes the arguments after its name and
/// returns the process exit code.
#ifndef IPCC_CLI_COMMANDS_H
#define IPCC_CLI_COMMANDS_H

#include <stdbool.h>
#include <stdio.h>

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

/// Print "ipcc: error: WHAT: <ipcc_last_error()>" and return `code`.
int ipcc_cli_fail(int code, const char *what);
/// Parse a whole decimal integer; 0, or -1 if `s` is not one.
int ipcc_cli_parse_int(const char *s, long *out);
/// The overview: every command's synopsis and summary, every option (usage.c).
void ipcc_cli_usage(FILE *f);
/// `ipcc NAME --help`: one command's synopsis, options and details (usage.c).
/// 0, or -1 if NAME is not a command (nothing printed).
int ipcc_cli_command_usage(const char *name, FILE *f);
/// True if -h or --help is among command NAME's arguments (not as the value
/// of an option that takes one, like -o). False for an unknown NAME.
bool ipcc_cli_wants_help(const char *name, int argc, char **argv);
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

/// dir + "/" + name, malloc'ed (NULL when out of memory).
char *ipcc_cli_path_join(const char *dir, const char *name);

/// ipcc run SCENE ... (run.c).
int ipcc_cli_run(int argc, char **argv);
/// ipcc resume DIR ... (run.c).
int ipcc_cli_resume(int argc, char **argv);
/// ipcc compare DIR_A DIR_B [--tol X] (compare.c).
int ipcc_cli_compare(int argc, char **argv);
/// ipcc check SCENE ... (check.c).
int ipcc_cli_check(int argc, char **argv);

#endif
