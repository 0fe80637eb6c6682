// The ipcc command-line tool: main() installs the log sink and dispatches
// to the subcommands, one file each: run and resume (run.c), compare
// (compare.c), check (check.c), convert (convert.c), info (info.c); the
// helpers they share are in common.c, the usage texts in usage.c.
// docs/cli.md documents them all.
//
// clang-format off
//   ipcc run SCENE [-o DIR] [--overwrite] [--steps N] [--threads N] [--checkpoint-every N] [--set K=V]...
//            [--strict] [--profile] [-q|-v]
//   ipcc resume DIR [--steps N] [--threads N] [--checkpoint-every N] [--profile] [-q|-v]
//   ipcc compare DIR_A DIR_B [--tol X] [--length L] [-q]
//   ipcc convert SCENE -o OUT.json [--set K=V]... [--strict]
//   ipcc check SCENE [--set K=V]... [--strict]
//   ipcc info MESH
//   ipcc --help | --version | COMMAND --help
// clang-format on
//
// `ipcc COMMAND -h` or `--help` anywhere among the command's arguments prints
// that command's usage to stdout and exits 0.
// SCENE is native JSON, or an original IPC script (.txt / .ipc). Exit codes
// are in common.h. Everything is validated (scene, meshes, materials,
// initial state) before the output directory is touched, so a bad run never
// clobbers earlier output.
#include <stdio.h>
#include <string.h>

#include "ipcc/ipcc.h"

#include "cli/check.h"
#include "cli/common.h"
#include "cli/compare.h"
#include "cli/convert.h"
#include "cli/info.h"
#include "cli/progress.h"
#include "cli/run.h"
#include "cli/usage.h"

static void log_to_stderr(ipcc_log_level level, const char *message, void *user) {
    (void)user;
    static const char *names[] = {"error", "warning", "info", "debug"};
    // quiet: errors and warnings; normal: + info (reoriented tets, selected
    // Dirichlet vertices); verbose: + debug.
    if ((int)level > ipcc_cli_verbosity + 1) return;
    ipcc_progress_clear(ipcc_progress_active()); // a progress bar would garble the message
    fprintf(stderr, "ipcc: %s: %s\n", names[level], message);
}

int main(int argc, char **argv) {
    ipcc_set_log(log_to_stderr, NULL);
    if (argc < 2) {
        ipcc_cli_usage(stderr);
        return IPCC_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        if (argc > 2 && !strcmp(cmd, "help") && ipcc_cli_command_usage(argv[2], stdout) == 0) return 0;
        ipcc_cli_usage(stdout);
        return 0;
    }
    ipcc_cli_command = cmd;
    if (ipcc_cli_wants_help(cmd, argc - 2, argv + 2)) {
        ipcc_cli_command_usage(cmd, stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
        printf("ipcc %s\n", ipcc_version());
        return 0;
    }
    if (!strcmp(cmd, "run")) return ipcc_cli_run(argc - 2, argv + 2);
    if (!strcmp(cmd, "resume")) return ipcc_cli_resume(argc - 2, argv + 2);
    if (!strcmp(cmd, "convert")) return ipcc_cli_convert(argc - 2, argv + 2);
    if (!strcmp(cmd, "check")) return ipcc_cli_check(argc - 2, argv + 2);
    if (!strcmp(cmd, "info")) return ipcc_cli_info(argc - 2, argv + 2);
    if (!strcmp(cmd, "compare")) return ipcc_cli_compare(argc - 2, argv + 2);
    fprintf(stderr, "ipcc: error: unknown command '%s' (see ipcc --help)\n", cmd);
    return IPCC_EXIT_USAGE;
}
