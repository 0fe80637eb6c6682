// The ipcc command-line tool: dispatch, the shared helpers (commands.h),
// and the small subcommands (convert, info). run and resume live in
// run.c, compare in compare.c, check in check.c; docs/cli.md documents them all.
//
// clang-format off
//   ipcc run SCENE [-o DIR] [--steps N] [--threads N] [--checkpoint-every N] [--set K=V]... [--strict]
//            [--profile] [-q|-v]
//   ipcc resume DIR [--steps N] [--threads N] [--checkpoint-every N] [--profile] [-q|-v]
//   ipcc compare DIR_A DIR_B [--tol X] [--length L] [-q]
//   ipcc convert SCENE -o OUT.json [--set K=V]... [--strict]
//   ipcc check SCENE [--set K=V]... [--strict]
//   ipcc info MESH
//   ipcc --help | --version
// clang-format on
//
// SCENE is native JSON, or an original IPC script (.txt / .ipc). Exit codes
// are in commands.h. Everything is validated (scene, meshes, materials,
// initial state) before the output directory is touched, so a bad run never
// clobbers earlier output.
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "ipcc/ipcc.h"

#include "commands.h"
#include "progress.h"

int ipcc_cli_verbosity = 1;

void ipcc_cli_usage(FILE *f) {
    fputs("usage: ipcc run SCENE [-o DIR] [--steps N] [--threads N] [--checkpoint-every N] [--set K=V]...\n"
          "                [--strict] [--profile] [-q | -v]\n"
          "       ipcc resume DIR [--steps N] [--threads N] [--checkpoint-every N] [--profile] [-q | -v]\n"
          "       ipcc compare DIR_A DIR_B [--tol X] [--length L] [-q]\n"
          "       ipcc convert SCENE -o OUT.json [--set K=V]... [--strict]\n"
          "       ipcc check SCENE [--set K=V]... [--strict]\n"
          "       ipcc info MESH\n"
          "       ipcc --help | --version\n"
          "\n"
          "Simulate soft bodies with Incremental Potential Contact.\n"
          "\n"
          "commands:\n"
          "  run SCENE      simulate a scene and write VTK frames. SCENE is a JSON scene\n"
          "                 (docs/scene-format.md) or an original IPC script, .txt or .ipc\n"
          "                 (docs/ipc-compatibility.md)\n"
          "  resume DIR     continue the run in DIR from its last checkpoint; the frames come\n"
          "                 out bit-identical to an uninterrupted run\n"
          "  compare A B    compare two output folders frame by frame (max vertex distance / L)\n"
          "  convert SCENE  write SCENE (JSON or IPC script) as an equivalent native JSON scene\n"
          "  check SCENE    validate SCENE without simulating (scene, meshes, materials, initial\n"
          "                 intersections) and print a summary: bodies, vertices, tets, surface\n"
          "                 triangles, L, d-hat, kappa\n"
          "  info MESH      mesh statistics and quality (dihedral angles, aspect ratio), bad tets\n"
          "\n"
          "run and resume options:\n"
          "  -o, --output DIR   output directory (default: the scene's output.directory, or \"out\";\n"
          "                     output/<script name> for IPC scripts)\n"
          "  --steps N          stop after N steps in total (default: duration / time_step; IPC\n"
          "                     scripts: ceil(T / h) as IPC); resume: run on to step N\n"
          "  --checkpoint-every N  write DIR/checkpoint.bin every N steps (default: the scene's\n"
          "                     output.checkpoint_every, 10); 0 = only at the start and at exit\n"
          "  --strict           IPC scripts: an unknown keyword is an error, not a warning\n"
          "  --set K=V          JSON scenes: set key path K (contact.friction, bodies[0].friction,\n"
          "                     materials.rubber.youngs_modulus) to the JSON value V before\n"
          "                     validation; repeatable (also for check and convert)\n"
          "  --threads N        worker threads (default: OMP_NUM_THREADS, else all cores);\n"
          "                     results are bit-identical for any N\n"
          "  --profile          after the summary, print where the time went: assembly, symbolic\n"
          "                     and numeric factorization, solve, line search, trial energies,\n"
          "                     CCD, broad phase, constraint search, and the peak memory\n"
          "  -q, --quiet        print only warnings, errors and the summary\n"
          "  -v, --verbose      one line per step even on a terminal, and the library's debug\n"
          "                     messages (for IPC scripts: every ignored keyword, with its line)\n"
          "\n"
          "output: DIR/frame_NNNNNN.vtu (one per frame), DIR/frames.pvd (open in ParaView),\n"
          "        DIR/stats.csv (one row per step), DIR/scene.json (the scene as run),\n"
          "        DIR/checkpoint.bin (for resume). On a terminal run shows a progress bar,\n"
          "        elsewhere one line per step. Ctrl-C (SIGINT) or SIGTERM finishes the step,\n"
          "        writes a checkpoint and exits with code 4.\n"
          "exit codes: 0 ok, 1 bad usage, input or output, 2 solver failure, 3 unconverged steps,\n"
          "            4 interrupted (resume it), 5 compare: the outputs differ\n",
          f);
}

static void log_to_stderr(ipcc_log_level level, const char *message, void *user) {
    (void)user;
    static const char *names[] = {"error", "warning", "info", "debug"};
    // quiet: errors and warnings; normal: + info (reoriented tets, selected
    // Dirichlet vertices); verbose: + debug.
    if ((int)level > ipcc_cli_verbosity + 1) return;
    ipcc_progress_clear(ipcc_progress_active()); // a progress bar would garble the message
    fprintf(stderr, "ipcc: %s: %s\n", names[level], message);
}

int ipcc_cli_fail(int code, const char *what) {
    fprintf(stderr, "ipcc: error: %s%s%s\n", what, *ipcc_last_error() ? ": " : "", ipcc_last_error());
    return code;
}

int ipcc_cli_parse_int(const char *s, long *out) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end) return -1;
    *out = v;
    return 0;
}

enum { MAX_OVERRIDES = 256 };
static const char *overrides[MAX_OVERRIDES];

// The arguments every scene command shares, at argv[*i]: --set KEY=VALUE,
// --strict, -q, -v, an unknown option, and the scene path. Returns 1 when
// consumed, -1 after printing a usage error.
int ipcc_cli_take_common(int argc, char **argv, int *i, ipcc_scene_options *opt, const char **scene_path) {
    const char *a = argv[*i];
    if (!strcmp(a, "--set")) {
        if (++*i >= argc || !strchr(argv[*i], '='))
            return fprintf(stderr, "ipcc: error: --set needs key.path=value\n"), -1;
        if (opt->num_overrides >= MAX_OVERRIDES)
            return fprintf(stderr, "ipcc: error: too many --set (at most %d)\n", MAX_OVERRIDES), -1;
        overrides[opt->num_overrides++] = argv[*i];
        opt->overrides = overrides;
    } else if (!strcmp(a, "--strict")) {
        opt->strict = true;
    } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
        ipcc_cli_verbosity = 0;
    } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
        ipcc_cli_verbosity = 2;
    } else if (a[0] == '-' && a[1]) {
        return fprintf(stderr, "ipcc: error: unknown option '%s' (see ipcc --help)\n", a), -1;
    } else if (!*scene_path) {
        *scene_path = a;
    } else {
        return fprintf(stderr, "ipcc: error: unexpected argument '%s'\n", a), -1;
    }
    return 1;
}

// Load the scene and build its world; with `start`, also the contact
// surfaces and the initial intersection check. Returns 0, or IPCC_EXIT_USAGE
// after printing the error (nothing is left allocated).
int ipcc_cli_load_world(const char *path, const ipcc_scene_options *opt, bool start, ipcc_scene **scene,
                        ipcc_world **world) {
    *scene = NULL;
    *world = NULL;
    if (ipcc_scene_load_with_options(path, opt, scene) != IPCC_OK)
        return ipcc_cli_fail(IPCC_EXIT_USAGE, "cannot load scene");
    if (ipcc_scene_create_world(*scene, world) != IPCC_OK) {
        ipcc_scene_destroy(*scene);
        *scene = NULL;
        return ipcc_cli_fail(IPCC_EXIT_USAGE, "invalid scene");
    }
    if (start && ipcc_world_start(*world) != IPCC_OK) {
        ipcc_world_destroy(*world);
        ipcc_scene_destroy(*scene);
        *world = NULL;
        *scene = NULL;
        return ipcc_cli_fail(IPCC_EXIT_USAGE, path);
    }
    return 0;
}

static int cmd_convert(int argc, char **argv) {
    const char *scene_path = NULL, *out_path = NULL;
    ipcc_scene_options opt = {.strict = false};
    for (int i = 0; i < argc; ++i) {
        const char *a = argv[i];
        if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
            if (++i >= argc)
                return fprintf(stderr, "ipcc: error: %s needs a file name\n", a), IPCC_EXIT_USAGE;
            out_path = argv[i];
        } else if (ipcc_cli_take_common(argc, argv, &i, &opt, &scene_path) < 0) {
            return IPCC_EXIT_USAGE;
        }
    }
    if (!scene_path || !out_path) {
        fprintf(stderr, "ipcc: error: convert needs a scene and -o OUT.json\n");
        return IPCC_EXIT_USAGE;
    }
    // The scene must also make a valid world (materials, selections, transforms).
    ipcc_scene *scene;
    ipcc_world *world;
    if (ipcc_cli_load_world(scene_path, &opt, false, &scene, &world) != 0) return IPCC_EXIT_USAGE;
    ipcc_world_destroy(world);
    int code = 0;
    if (ipcc_scene_write_json(scene, out_path) != IPCC_OK)
        code = ipcc_cli_fail(IPCC_EXIT_USAGE, "cannot write the JSON scene");
    else if (ipcc_cli_verbosity >= 1)
        printf("ipcc: wrote %s (%d bodies, %d mesh obstacles, %d half-spaces, %d shapes)\n", out_path,
               scene->num_bodies, scene->num_obstacles, scene->num_half_spaces, scene->num_shapes);
    ipcc_scene_destroy(scene);
    return code;
}

static int cmd_info(int argc, char **argv) {
    if (argc != 1 || argv[0][0] == '-')
        return fprintf(stderr, "ipcc: error: info needs exactly one mesh file\n"), IPCC_EXIT_USAGE;
    const char *path = argv[0];
    ipcc_mesh *mesh = NULL;
    if (ipcc_mesh_read(path, &mesh) != IPCC_OK) return ipcc_cli_fail(IPCC_EXIT_USAGE, "cannot read mesh");
    ipcc_mesh_quality q;
    int bad[10];
    ipcc_mesh_compute_quality(mesh, &q, 10, bad);
    printf("%s: %d vertices, %d tets, %d boundary triangles, %d boundary edges, %d surface vertices\n", path,
           mesh->num_vertices, mesh->num_tets, mesh->num_faces, mesh->num_edges, mesh->num_surface_vertices);
    if (mesh->num_reoriented || mesh->num_unreferenced)
        printf("  %d tets reoriented, %d unreferenced vertices dropped\n", mesh->num_reoriented,
               mesh->num_unreferenced);
    printf("  bbox [%g, %g] x [%g, %g] x [%g, %g] m, volume %.6g m^3 (smallest tet %.3g)\n", q.bbox_min[0],
           q.bbox_max[0], q.bbox_min[1], q.bbox_max[1], q.bbox_min[2], q.bbox_max[2], q.volume, q.min_volume);
    printf("  edges %.4g to %.4g m; dihedral angles %.2f to %.2f deg (regular tet: 70.53); aspect ratio max "
           "%.3g (tet %d), mean %.3g (regular tet: 1)\n",
           q.min_edge, q.max_edge, q.min_dihedral, q.max_dihedral, q.max_aspect, q.worst_tet, q.mean_aspect);
    printf("  %d bad tets (a dihedral angle < 5 or > 170 deg, or aspect ratio > 10)\n", q.num_bad);
    for (int i = 0; i < q.num_bad && i < 10; ++i) {
        double x[12], lo, hi, aspect;
        for (int k = 0; k < 4; ++k)
            memcpy(x + 3 * k, mesh->vertices + 3 * mesh->tets[4 * bad[i] + k], 3 * sizeof(double));
        ipcc_tet_quality(x, &lo, &hi, &aspect);
        printf("    tet %d (vertices %d %d %d %d): dihedral %.2f to %.2f deg, aspect %.3g\n", bad[i],
               mesh->tets[4 * bad[i]], mesh->tets[4 * bad[i] + 1], mesh->tets[4 * bad[i] + 2],
               mesh->tets[4 * bad[i] + 3], lo, hi, aspect);
    }
    ipcc_mesh_destroy(mesh);
    return 0;
}

int main(int argc, char **argv) {
    ipcc_set_log(log_to_stderr, NULL);
    if (argc < 2) {
        ipcc_cli_usage(stderr);
        return IPCC_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        ipcc_cli_usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
        printf("ipcc %s\n", ipcc_version());
        return 0;
    }
    if (!strcmp(cmd, "run")) return ipcc_cli_run(argc - 2, argv + 2);
    if (!strcmp(cmd, "resume")) return ipcc_cli_resume(argc - 2, argv + 2);
    if (!strcmp(cmd, "convert")) return cmd_convert(argc - 2, argv + 2);
    if (!strcmp(cmd, "check")) return ipcc_cli_check(argc - 2, argv + 2);
    if (!strcmp(cmd, "info")) return cmd_info(argc - 2, argv + 2);
    if (!strcmp(cmd, "compare")) return ipcc_cli_compare(argc - 2, argv + 2);
    fprintf(stderr, "ipcc: error: unknown command '%s' (see ipcc --help)\n", cmd);
    return IPCC_EXIT_USAGE;
}
