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
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

// How long waiting OpenMP threads spin in `ipcc run` and `ipcc resume`:
// GOMP_SPINCOUNT=1000 (about a microsecond), unless the user chose a policy
// (docs/design.md, "Threads on a busy machine"). A thread that spins at a
// barrier for libgomp's default 300,000 spins uses up its share of a core
// that another process also wants, and the scheduler then lets that process
// run first when the next parallel region needs the thread: every region
// waits a time slice (milliseconds) for it. A thread that soon sleeps is
// woken ahead of the busy process (the scheduler favours sleepers); a
// microsecond of spinning still catches the next region of a Newton
// iteration when the machine is idle (OMP_WAIT_POLICY=passive, no spinning,
// cost 8 % on a 20k-tet mat there). The regions' team sizes
// (base/parallel.c) do the rest.
//
// When neither OMP_WAIT_POLICY nor GOMP_SPINCOUNT is set and more than one
// thread may run, sets GOMP_SPINCOUNT and re-executes this program with the
// same arguments (libgomp reads it once, when it is loaded, before main).
// Returns only when no re-execution was needed or it failed (the run then
// keeps libgomp's default).
static void short_spin(char **argv) {
    if (getenv("OMP_WAIT_POLICY") || getenv("GOMP_SPINCOUNT")) return; // the user's choice
    const char *n = getenv("OMP_NUM_THREADS");
    if ((n && strcmp(n, "1") == 0) || sysconf(_SC_NPROCESSORS_ONLN) <= 1) return; // no team, no waiting
    if (setenv("GOMP_SPINCOUNT", "1000", 1) != 0) return;
    execv("/proc/self/exe", argv);
    // execv failed (no /proc): go on with the default, as before.
    unsetenv("GOMP_SPINCOUNT");
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
    if (!strcmp(cmd, "run") || !strcmp(cmd, "resume")) short_spin(argv);
    if (!strcmp(cmd, "run")) return ipcc_cli_run(argc - 2, argv + 2);
    if (!strcmp(cmd, "resume")) return ipcc_cli_resume(argc - 2, argv + 2);
    if (!strcmp(cmd, "convert")) return ipcc_cli_convert(argc - 2, argv + 2);
    if (!strcmp(cmd, "check")) return ipcc_cli_check(argc - 2, argv + 2);
    if (!strcmp(cmd, "info")) return ipcc_cli_info(argc - 2, argv + 2);
    if (!strcmp(cmd, "compare")) return ipcc_cli_compare(argc - 2, argv + 2);
    fprintf(stderr, "ipcc: error: unknown command '%s' (see ipcc --help)\n", cmd);
    return IPCC_EXIT_USAGE;
}
