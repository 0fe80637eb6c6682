// The usage texts of the ipcc command, in one place: `ipcc --help` (the
// overview) and `ipcc COMMAND --help` (one command's usage and options) are
// both printed from the tables below, so they never disagree. docs/cli.md
// documents the same options at length.
//
// Each option is written once (`options`); each command lists the options it
// takes by name (`commands[].options`). The overview prints every command's
// synopsis and summary, then every option once, each with the commands that
// take it. ipcc_cli_wants_help() finds -h / --help among a command's
// arguments, skipping the values of options that take one (so `-o -h` is a
// folder named "-h", not a request for help).
#include "cli/usage.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/// One option: its spellings, its argument (NULL: a flag) and its help.
typedef struct usage_option {
    const char *key;   ///< name used by the commands' lists
    const char *names; ///< as printed: "-o, --output DIR"
    const char *alias; ///< the short spelling, or NULL
    const char *name;  ///< the long spelling
    bool has_value;    ///< the next argument is the option's value
    const char *help;  ///< lines after the first are indented by the printer
} usage_option;

// clang-format off
static const usage_option options[] = {
    {"output", "-o, --output DIR", "-o", "--output", true,
     "output folder, created with its parents (default: the\n"
     "scene's output.directory, else \"out\"; output/<script\n"
     "name> for IPC scripts). convert: the JSON file to write"},
    {"overwrite", "--overwrite", NULL, "--overwrite", false,
     "DIR may hold an earlier run: remove that run's files\n"
     "(frames, frames.pvd, stats.csv, scene.json,\n"
     "checkpoint.bin) first. Without it, such a DIR is refused"},
    {"steps", "--steps N", NULL, "--steps", true,
     "stop after N steps in total (default: the scene's steps,\n"
     "else duration / time_step; IPC scripts: ceil(T / h));\n"
     "resume: run on to step N, also past the run's end"},
    {"threads", "--threads N", NULL, "--threads", true,
     "worker threads, 1 to 1024 (default: OMP_NUM_THREADS,\n"
     "else all cores); results are bit-identical for any N.\n"
     "On a shared machine, give only the free cores"},
    {"checkpoint_every", "--checkpoint-every N", NULL, "--checkpoint-every", true,
     "write DIR/checkpoint.bin every N steps (default: the\n"
     "scene's output.checkpoint_every, 10); 0 = only at the\n"
     "start and at exit"},
    {"set", "--set K=V", NULL, "--set", true,
     "JSON scenes: set key path K (contact.friction,\n"
     "bodies[0].friction, materials.rubber.youngs_modulus) to\n"
     "the JSON value V before validation; text after the\n"
     "value is an error. Repeatable"},
    {"strict", "--strict", NULL, "--strict", false,
     "IPC scripts: an unknown keyword is an error, not a\n"
     "warning"},
    {"profile", "--profile", NULL, "--profile", false,
     "after the summary, print where the time went (assembly,\n"
     "factorization, solve, line search, CCD, broad phase,\n"
     "constraint search) and the peak memory"},
    {"tol", "--tol X", NULL, "--tol", true,
     "tolerance on max |x_A - x_B| / L (default 1e-6)"},
    {"length", "--length L", NULL, "--length", true,
     "L in metres (default: the length_scale field of DIR_A's\n"
     "frame 0, else the diagonal of its points' bounding box)"},
    {"quiet", "-q, --quiet", "-q", "--quiet", false,
     "print only warnings, errors and the summary"},
    {"verbose", "-v, --verbose", "-v", "--verbose", false,
     "one line per step even on a terminal, and the library's\n"
     "debug messages (IPC scripts: every ignored keyword)"},
    {"help", "-h, --help", "-h", "--help", false,
     "print this command's usage and options"},
};

/// One command: its synopsis, a one-line summary for the overview, a longer
/// description for its own help, and its options (keys into `options`).
typedef struct usage_command {
    const char *name;
    const char *synopsis; ///< after "ipcc "
    const char *summary;  ///< the overview's line(s)
    const char *details;  ///< printed after the options by `ipcc NAME --help`, or NULL
    const char *exits;    ///< its own exit codes, or NULL: the common ones
    const char *options[12];
} usage_command;

static const usage_command commands[] = {
    {"run",
     "run SCENE [-o DIR] [--overwrite] [--steps N] [--threads N]\n"
     "    [--checkpoint-every N] [--set K=V]... [--strict] [--profile]\n"
     "    [-q | -v]",
     "simulate a scene and write VTK frames. SCENE is a JSON scene\n"
     "(docs/scene-format.md) or an original IPC script, .txt or .ipc\n"
     "(docs/ipc-compatibility.md)",
     "The scene, its meshes and the initial state are checked before DIR is\n"
     "touched. A DIR that holds an earlier run (frame_NNNNNN.vtu, frames.pvd,\n"
     "stats.csv, scene.json, checkpoint.bin) is refused unless --overwrite is given;\n"
     "other files in DIR are never removed. An empty or missing DIR is fine.\n"
     "\n"
     "output: DIR/frame_NNNNNN.vtu (one per frame), DIR/frames.pvd (open in\n"
     "ParaView), DIR/stats.csv (one row per step), DIR/scene.json (the scene as\n"
     "run), DIR/checkpoint.bin (for resume). On a terminal a progress bar,\n"
     "elsewhere one line per step. Ctrl-C (SIGINT) or SIGTERM finishes the step,\n"
     "writes a checkpoint and exits with code 4: continue with ipcc resume DIR.",
     NULL,
     {"output", "overwrite", "steps", "threads", "checkpoint_every", "set", "strict", "profile", "quiet",
      "verbose", "help"}},
    {"resume",
     "resume DIR [--steps N] [--threads N] [--checkpoint-every N]\n"
     "       [--profile] [-q | -v]",
     "continue the run in DIR from its last checkpoint; the frames come out\n"
     "bit-identical to an uninterrupted run",
     "The world is rebuilt from DIR/scene.json and DIR/checkpoint.bin; stats.csv and\n"
     "frames.pvd are cut back to the checkpoint. A finished run says so and exits 0\n"
     "(--steps N runs it further).",
     NULL,
     {"steps", "threads", "checkpoint_every", "profile", "quiet", "verbose", "help"}},
    {"compare",
     "compare DIR_A DIR_B [--tol X] [--length L] [-q]",
     "compare two output folders frame by frame (max vertex distance / L)",
     "For each frame: the largest vertex position difference |x_A - x_B|\n"
     "relative to L, and the vertex where it occurs (obstacles separately).",
     "exit codes: 0 within tolerance; 5 the outputs differ (over tolerance,\n"
     "            different frame or vertex counts, different frame times);\n"
     "            1 bad usage or unreadable input\n",
     {"tol", "length", "quiet", "help"}},
    {"convert",
     "convert SCENE -o OUT.json [--set K=V]... [--strict]",
     "write SCENE (JSON or IPC script) as an equivalent native JSON scene",
     "The scene is validated first (it must make a valid world); OUT.json is written\n"
     "atomically and loads to a bit-identical world.",
     NULL,
     {"output", "set", "strict", "quiet", "verbose", "help"}},
    {"check",
     "check SCENE [--set K=V]... [--strict]",
     "validate SCENE without simulating (scene, meshes, materials, initial\n"
     "intersections) and print a summary: bodies, vertices, tets, surface\n"
     "triangles, L, d-hat, kappa",
     "Nothing is written.",
     NULL,
     {"set", "strict", "quiet", "verbose", "help"}},
    {"info",
     "info MESH",
     "mesh statistics and quality (dihedral angles, aspect ratio), bad tets",
     "MESH is a Gmsh .msh or a TetGen .node/.ele. Bad tets: a dihedral angle\n"
     "below 5 or above 170 degrees, or an aspect ratio above 10.",
     NULL,
     {"help"}},
};

static const char exit_codes[] =
    "exit codes: 0 ok, 1 bad usage, input or output, 2 solver failure,\n"
    "            3 unconverged steps, 4 interrupted (resume it),\n"
    "            5 compare: the outputs differ\n";
// clang-format on

enum {
    NUM_OPTIONS = sizeof options / sizeof options[0],
    NUM_COMMANDS = sizeof commands / sizeof commands[0]
};

static const usage_option *find_option(const char *key) {
    for (int i = 0; i < NUM_OPTIONS; i++)
        if (!strcmp(options[i].key, key)) return &options[i];
    return NULL;
}

static const usage_command *find_command(const char *name) {
    for (int i = 0; i < NUM_COMMANDS; i++)
        if (!strcmp(commands[i].name, name)) return &commands[i];
    return NULL;
}

/// `text` with every line after the first indented by `indent` spaces.
static void print_indented(FILE *f, const char *text, int indent) {
    for (const char *at = text; *at;) {
        const char *nl = strchr(at, '\n');
        size_t n = nl ? (size_t)(nl - at) : strlen(at);
        fprintf(f, "%.*s\n", (int)n, at);
        if (!nl) break;
        at = nl + 1;
        fprintf(f, "%*s", indent, "");
    }
}

/// "  NAMES   help", the help starting at column 24 (or on the next line).
static void print_option(FILE *f, const usage_option *o) {
    int n = fprintf(f, "  %s", o->names);
    if (n < 23)
        fprintf(f, "%*s", 24 - n, "");
    else
        fprintf(f, "\n%24s", "");
    print_indented(f, o->help, 24);
}

void ipcc_cli_usage(FILE *f) {
    for (int i = 0; i < NUM_COMMANDS; i++) {
        fputs(i == 0 ? "usage: ipcc " : "       ipcc ", f);
        print_indented(f, commands[i].synopsis, 12);
    }
    fputs("       ipcc --help | --version | COMMAND --help\n"
          "\n"
          "Simulate soft bodies with Incremental Potential Contact.\n"
          "\n"
          "commands (ipcc COMMAND --help prints one command's usage and options):\n",
          f);
    for (int i = 0; i < NUM_COMMANDS; i++) {
        int n = fprintf(f, "  %s", commands[i].name);
        fprintf(f, "%*s", 11 - n, "");
        print_indented(f, commands[i].summary, 11);
    }
    fputs("\noptions (the commands that take each in brackets):\n", f);
    for (int k = 0; k < NUM_OPTIONS; k++) {
        const usage_option *o = &options[k];
        if (!strcmp(o->key, "help")) continue;
        print_option(f, o);
        fprintf(f, "%24s[", "");
        bool first = true;
        for (int i = 0; i < NUM_COMMANDS; i++)
            for (int j = 0; commands[i].options[j]; j++)
                if (!strcmp(commands[i].options[j], o->key)) {
                    fprintf(f, "%s%s", first ? "" : ", ", commands[i].name);
                    first = false;
                }
        fputs("]\n", f);
    }
    fputc('\n', f);
    fputs(exit_codes, f);
}

int ipcc_cli_command_usage(const char *name, FILE *f) {
    const usage_command *c = find_command(name);
    if (!c) return -1;
    fputs("usage: ipcc ", f);
    print_indented(f, c->synopsis, 12);
    fputc('\n', f);
    print_indented(f, c->summary, 0);
    fputs("\noptions:\n", f);
    for (int j = 0; c->options[j]; j++)
        print_option(f, find_option(c->options[j]));
    if (c->details) {
        fputc('\n', f);
        print_indented(f, c->details, 0);
    }
    fputc('\n', f);
    fputs(c->exits ? c->exits : exit_codes, f);
    return 0;
}

bool ipcc_cli_wants_help(const char *name, int argc, char **argv) {
    const usage_command *c = find_command(name);
    if (!c) return false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) return true;
        // Skip the value of an option that takes one.
        for (int j = 0; c->options[j]; j++) {
            const usage_option *o = find_option(c->options[j]);
            if (o->has_value && (!strcmp(a, o->name) || (o->alias && !strcmp(a, o->alias)))) {
                i++;
                break;
            }
        }
    }
    return false;
}
