// The ipcc command-line tool.
//
//   ipcc run SCENE [-o DIR] [--steps N] [--threads N] [--set K=V]... [--strict] [--quiet | --verbose]
//   ipcc convert SCENE -o OUT.json [--strict]
//   ipcc check SCENE [--strict]
//   ipcc info MESH
//   ipcc --help | --version
//
// SCENE is native JSON, or an original IPC script (.txt / .ipc).
//
// Exit codes: 0 success; 1 bad usage or bad input (scene, mesh, output
// directory); 2 the solver failed (the frames written so far stay valid);
// 3 the run finished but some steps hit newton.max_iterations.
// Everything is validated (scene, meshes, materials, initial state) before
// the output directory is touched, so a bad run never clobbers earlier output.
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "ipcc/ipcc.h"

#include "commands.h"

enum { EXIT_USAGE = 1, EXIT_SOLVER = 2, EXIT_UNCONVERGED = 3 };

static int verbosity = 1; // 0 quiet, 1 normal, 2 verbose

static void print_usage(FILE *f) {
    fputs("usage: ipcc run SCENE [-o DIR] [--steps N] [--threads N] [--set K=V]... [--strict] [-q | -v]\n"
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
          "  convert SCENE  write SCENE (JSON or IPC script) as an equivalent native JSON scene\n"
          "  check SCENE    validate SCENE without simulating (scene, meshes, materials, initial\n"
          "                 intersections) and print a summary: bodies, vertices, tets, surface\n"
          "                 triangles, L, d-hat, kappa\n"
          "  info MESH      mesh statistics and quality (dihedral angles, aspect ratio), bad tets\n"
          "\n"
          "run options:\n"
          "  -o, --output DIR   output directory (default: the scene's output.directory, or \"out\";\n"
          "                     output/<script name> for IPC scripts)\n"
          "  --steps N          stop after N steps (default: duration / time_step; IPC scripts:\n"
          "                     ceil(T / h) as IPC)\n"
          "  --strict           IPC scripts: an unknown keyword is an error, not a warning\n"
          "  --set K=V          JSON scenes: set key path K (contact.friction, bodies[0].friction,\n"
          "                     materials.rubber.youngs_modulus) to the JSON value V before\n"
          "                     validation; repeatable (also for check and convert)\n"
          "  --threads N        worker threads (default: OMP_NUM_THREADS, else all cores);\n"
          "                     results are bit-identical for any N\n"
          "  -q, --quiet        print only warnings, errors and the summary\n"
          "  -v, --verbose      also print the library's debug messages (for IPC scripts: every\n"
          "                     viewer-only or ignored keyword, with its line)\n"
          "\n"
          "output: DIR/frame_NNNNNN.vtu (one per frame), DIR/frames.pvd (open in ParaView),\n"
          "        DIR/stats.csv (one row per step)\n"
          "exit codes: 0 ok, 1 bad usage or input, 2 solver failure, 3 unconverged steps\n",
          f);
}

static void log_to_stderr(ipcc_log_level level, const char *message, void *user) {
    (void)user;
    static const char *names[] = {"error", "warning", "info", "debug"};
    // quiet: errors and warnings; normal: + info (reoriented tets, selected
    // Dirichlet vertices); verbose: + debug.
    if ((int)level > verbosity + 1) return;
    fprintf(stderr, "ipcc: %s: %s\n", names[level], message);
}

static int fail(int code, const char *what) {
    fprintf(stderr, "ipcc: error: %s%s%s\n", what, *ipcc_last_error() ? ": " : "", ipcc_last_error());
    return code;
}

static int parse_int(const char *s, long *out) {
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
static int take_common(int argc, char **argv, int *i, ipcc_scene_options *opt, const char **scene_path) {
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
        verbosity = 0;
    } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
        verbosity = 2;
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
// surfaces and the initial intersection check. Returns 0, or EXIT_USAGE
// after printing the error (nothing is left allocated).
static int load_world(const char *path, const ipcc_scene_options *opt, bool start, ipcc_scene **scene,
                      ipcc_world **world) {
    *scene = NULL;
    *world = NULL;
    if (ipcc_scene_load_with_options(path, opt, scene) != IPCC_OK)
        return fail(EXIT_USAGE, "cannot load scene");
    if (ipcc_scene_create_world(*scene, world) != IPCC_OK) {
        ipcc_scene_destroy(*scene);
        *scene = NULL;
        return fail(EXIT_USAGE, "invalid scene");
    }
    if (start && ipcc_world_start(*world) != IPCC_OK) {
        ipcc_world_destroy(*world);
        ipcc_scene_destroy(*scene);
        *world = NULL;
        *scene = NULL;
        return fail(EXIT_USAGE, path);
    }
    return 0;
}

static int cmd_convert(int argc, char **argv) {
    const char *scene_path = NULL, *out_path = NULL;
    ipcc_scene_options opt = {.strict = false};
    for (int i = 0; i < argc; ++i) {
        const char *a = argv[i];
        if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
            if (++i >= argc) return fprintf(stderr, "ipcc: error: %s needs a file name\n", a), EXIT_USAGE;
            out_path = argv[i];
        } else if (take_common(argc, argv, &i, &opt, &scene_path) < 0) {
            return EXIT_USAGE;
        }
    }
    if (!scene_path || !out_path) {
        fprintf(stderr, "ipcc: error: convert needs a scene and -o OUT.json\n");
        return EXIT_USAGE;
    }
    // The scene must also make a valid world (materials, selections, transforms).
    ipcc_scene *scene;
    ipcc_world *world;
    if (load_world(scene_path, &opt, false, &scene, &world) != 0) return EXIT_USAGE;
    ipcc_world_destroy(world);
    int code = 0;
    if (ipcc_scene_write_json(scene, out_path) != IPCC_OK)
        code = fail(EXIT_USAGE, "cannot write the JSON scene");
    else if (verbosity >= 1)
        printf("ipcc: wrote %s (%d bodies, %d obstacles, %d half-spaces)\n", out_path, scene->num_bodies,
               scene->num_obstacles, scene->num_half_spaces);
    ipcc_scene_destroy(scene);
    return code;
}

static int cmd_check(int argc, char **argv) {
    const char *scene_path = NULL;
    ipcc_scene_options opt = {.strict = false};
    for (int i = 0; i < argc; ++i)
        if (take_common(argc, argv, &i, &opt, &scene_path) < 0) return EXIT_USAGE;
    if (!scene_path) return fprintf(stderr, "ipcc: error: check needs a scene file\n"), EXIT_USAGE;
    ipcc_scene *scene;
    ipcc_world *world;
    if (load_world(scene_path, &opt, true, &scene, &world) != 0) return EXIT_USAGE;
    printf("%s: ok (%s scene)\n", scene_path, scene->format ? scene->format : "json");
    int nb = ipcc_world_num_bodies(world), total_faces = 0;
    const int *tet_body = ipcc_world_tet_bodies(world);
    for (int b = 0; b < nb; ++b) {
        int first, count, nf;
        ipcc_world_body_vertices(world, b, &first, &count);
        ipcc_world_body_surface(world, b, &nf, NULL);
        int tets = 0;
        for (int t = 0; t < ipcc_world_num_tets(world); ++t)
            tets += tet_body[t] == b;
        total_faces += nf;
        printf("  %-9s %-24s %8d vertices %8d tets %8d surface triangles\n",
               ipcc_world_body_is_obstacle(world, b) ? "obstacle" : "body", ipcc_world_body_name(world, b),
               count, tets, nf);
    }
    printf("  total: %d bodies, %d vertices, %d tets, %d surface triangles, %d half-spaces\n", nb,
           ipcc_world_num_vertices(world), ipcc_world_num_tets(world), total_faces,
           ipcc_world_num_half_spaces(world));
    double kmin, kmax, h = ipcc_world_time_step(world);
    printf("  L = %.6g m, d-hat = %.6g m, h = %g s", ipcc_world_bbox_diagonal(world), ipcc_world_dhat(world),
           h);
    if (ipcc_world_kappa_bounds(world, &kmin, &kmax))
        printf(kmin == kmax ? ", kappa = %.6g (fixed)\n" : ", kappa in [%.6g, %.6g] (adaptive)\n", kmin,
               kmax);
    else
        printf(", no contact\n");
    ipcc_world_destroy(world);
    ipcc_scene_destroy(scene);
    return 0;
}

static int cmd_info(int argc, char **argv) {
    if (argc != 1 || argv[0][0] == '-')
        return fprintf(stderr, "ipcc: error: info needs exactly one mesh file\n"), EXIT_USAGE;
    const char *path = argv[0];
    ipcc_mesh *mesh = NULL;
    if (ipcc_mesh_read(path, &mesh) != IPCC_OK) return fail(EXIT_USAGE, "cannot read mesh");
    ipcc_mesh_quality q;
    int bad[10];
    ipcc_mesh_quality_of(mesh, &q, 10, bad);
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

static int cmd_run(int argc, char **argv) {
    const char *scene_path = NULL, *out_dir = NULL;
    long max_steps = -1;
    ipcc_scene_options opt = {.strict = false};
    for (int i = 0; i < argc; ++i) {
        const char *a = argv[i];
        if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
            if (++i >= argc) return fprintf(stderr, "ipcc: error: %s needs a directory\n", a), EXIT_USAGE;
            out_dir = argv[i];
        } else if (!strcmp(a, "--steps")) {
            if (++i >= argc || parse_int(argv[i], &max_steps) != 0 || max_steps < 0)
                return fprintf(stderr, "ipcc: error: --steps needs a non-negative integer\n"), EXIT_USAGE;
        } else if (!strcmp(a, "--threads")) {
            long threads;
            if (++i >= argc || parse_int(argv[i], &threads) != 0 || threads < 1 || threads > 1024)
                return fprintf(stderr, "ipcc: error: --threads needs an integer from 1 to 1024\n"),
                       EXIT_USAGE;
            omp_set_num_threads((int)threads);
        } else if (take_common(argc, argv, &i, &opt, &scene_path) < 0) {
            return EXIT_USAGE;
        }
    }
    if (!scene_path) {
        fprintf(stderr, "ipcc: error: run needs a scene file\n");
        print_usage(stderr);
        return EXIT_USAGE;
    }

    // Validate everything (scene, meshes, the initial intersection check)
    // before touching the output directory.
    ipcc_scene *scene;
    ipcc_world *world;
    if (load_world(scene_path, &opt, true, &scene, &world) != 0) return EXIT_USAGE;
    double h = scene->world.time_step;
    long steps = scene->world.integrator == IPCC_STATIC && scene->duration <= h
                     ? 1
                     : (long)ceil(scene->duration / h - 1e-9);
    if (scene->num_steps > 0) steps = scene->num_steps;
    if (max_steps >= 0 && max_steps < steps) steps = max_steps;
    if (!out_dir) out_dir = scene->output_directory ? scene->output_directory : "out";
    double fps = scene->output_fps;

    ipcc_output *output = NULL;
    int code = 0;
    if (ipcc_output_open(out_dir, &output) != IPCC_OK || ipcc_output_write_frame(output, world) != IPCC_OK) {
        code = fail(EXIT_USAGE, "cannot write output");
        goto done;
    }
    if (verbosity >= 1)
        printf("ipcc %s: %s: %d bodies, %d vertices, %d tets, h = %g s, %ld steps, %d threads -> %s/\n",
               ipcc_version(), scene_path, ipcc_world_num_bodies(world), ipcc_world_num_vertices(world),
               ipcc_world_num_tets(world), h, steps, omp_get_max_threads(), out_dir);

    long unconverged = 0, newton_total = 0;
    double wall = 0;
    int next_frame = 1;
    for (long s = 0; s < steps; ++s) {
        ipcc_step_stats st;
        ipcc_status status = ipcc_world_step(world, &st);
        if (status < 0) {
            code = fail(EXIT_SOLVER, "simulation failed");
            break;
        }
        newton_total += st.newton_iterations;
        wall += st.time_total;
        if (!st.converged) {
            unconverged++;
            fprintf(stderr,
                    "ipcc: warning: step %d (t = %.6g s) did not converge in %d Newton iterations "
                    "(|p|_inf = %.3g m)\n",
                    st.step, st.time, st.newton_iterations, st.residual);
        }
        if (verbosity >= 1)
            printf("step %6d  t %10.5f s  newton %3d  line-search %3d  contacts %5d  dmin %9.3g m  wall "
                   "%8.4f s%s\n",
                   st.step, st.time, st.newton_iterations, st.line_search_steps, st.num_contacts,
                   st.min_distance, st.time_total, st.converged ? "" : "  UNCONVERGED");
        if (ipcc_output_write_stats(output, &st) != IPCC_OK) {
            code = fail(EXIT_USAGE, "cannot write stats");
            break;
        }
        // A frame every step, or whenever t passes the next multiple of 1/fps.
        bool frame = fps <= 0 || s + 1 == steps;
        while (fps > 0 && st.time >= next_frame / fps - 1e-9 * h) {
            frame = true;
            next_frame++;
        }
        if (frame && ipcc_output_write_frame(output, world) != IPCC_OK) {
            code = fail(EXIT_USAGE, "cannot write frame");
            break;
        }
        fflush(stdout);
    }
    long done_steps = ipcc_world_step_count(world);
    printf("summary: %ld steps, %.6g s simulated, %d frames, %.3f s wall (%.4f s/step), %.2f Newton "
           "iterations/step, %ld unconverged steps; output in %s/\n",
           done_steps, ipcc_world_time(world), ipcc_output_frame_count(output), wall,
           done_steps ? wall / done_steps : 0.0, done_steps ? (double)newton_total / done_steps : 0.0,
           unconverged, out_dir);
    if (code == 0 && unconverged > 0) code = EXIT_UNCONVERGED;
done:
    ipcc_output_close(output);
    ipcc_world_destroy(world);
    ipcc_scene_destroy(scene);
    return code;
}

int main(int argc, char **argv) {
    ipcc_set_log(log_to_stderr, NULL);
    if (argc < 2) {
        print_usage(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        print_usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
        printf("ipcc %s\n", ipcc_version());
        return 0;
    }
    if (!strcmp(cmd, "run")) return cmd_run(argc - 2, argv + 2);
    if (!strcmp(cmd, "convert")) return cmd_convert(argc - 2, argv + 2);
    if (!strcmp(cmd, "check")) return cmd_check(argc - 2, argv + 2);
    if (!strcmp(cmd, "info")) return cmd_info(argc - 2, argv + 2);
    if (!strcmp(cmd, "compare")) return ipcc_cli_compare(argc - 2, argv + 2);
    fprintf(stderr, "ipcc: error: unknown command '%s' (see ipcc --help)\n", cmd);
    return EXIT_USAGE;
}
