// The ipcc command-line tool: dispatch, the shared helpers (commands.h),
// and the small subcommands (convert, info). run and resume live in
// run.c, compare in compare.c, check in check.c; docs/cli.md documents them all.
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
// The usage texts (the overview and each command's) live in usage.c;
// `ipcc COMMAND -h` or `--help` anywhere among the command's arguments prints
// that command's usage to stdout and exits 0.
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

#include "cli/commands.h"
#include "cli/progress.h"

int ipcc_cli_verbosity = 1;

/// The subcommand being run, for messages ("see ipcc run --help").
static const char *command = "";

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

char *ipcc_cli_path_join(const char *dir, const char *name) {
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/%s", dir, name);
    return p;
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
        return fprintf(stderr, "ipcc: error: unknown option '%s' (see ipcc %s --help)\n", a, command), -1;
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
    if (mesh->tet_regions) { // each region: its number, name and tet count (0: tets in no region)
        printf("  %d regions:", mesh->num_regions);
        int none = 0;
        for (int t = 0; t < mesh->num_tets; ++t)
            none += mesh->tet_regions[t] == 0;
        for (int r = 0; r < mesh->num_regions; ++r) {
            int count = 0;
            for (int t = 0; t < mesh->num_tets; ++t)
                count += mesh->tet_regions[t] == mesh->region_numbers[r];
            printf("%s %d", r ? "," : "", mesh->region_numbers[r]);
            if (mesh->region_names[r]) printf(" \"%s\"", mesh->region_names[r]);
            printf(" (%d tets)", count);
        }
        if (none) printf(", %d tets in no region", none);
        printf("\n");
    }
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
        if (argc > 2 && !strcmp(cmd, "help") && ipcc_cli_command_usage(argv[2], stdout) == 0) return 0;
        ipcc_cli_usage(stdout);
        return 0;
    }
    command = cmd;
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
    if (!strcmp(cmd, "convert")) return cmd_convert(argc - 2, argv + 2);
    if (!strcmp(cmd, "check")) return ipcc_cli_check(argc - 2, argv + 2);
    if (!strcmp(cmd, "info")) return cmd_info(argc - 2, argv + 2);
    if (!strcmp(cmd, "compare")) return ipcc_cli_compare(argc - 2, argv + 2);
    fprintf(stderr, "ipcc: error: unknown command '%s' (see ipcc --help)\n", cmd);
    return IPCC_EXIT_USAGE;
}
