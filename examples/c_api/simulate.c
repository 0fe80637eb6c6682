// simulate: run a scene file through the installed ipcc library and report
// what the state arrays say about every body, step by step.
//
//   simulate SCENE [--steps N] [-o DIR]
//
// SCENE is a JSON scene or an original IPC script (the extension decides).
// Each step prints the time, Newton iterations, active contacts, the smallest
// contact distance and the kinetic and elastic energy; the end prints every
// deformable body's centre of mass and its velocity. With -o, frames (.vtu,
// .vtp, frames.pvd) and stats.csv go to DIR, at the scene's output rate.
//
// It uses only the public API (<ipcc/ipcc.h>) and checks every status, the
// way an application embedding ipcc would: negative = failed (the object is
// unchanged, ipcc_last_error() says why), positive = done with a caveat
// (a step that did not converge). Exit codes as the ipcc command: 0 success,
// 1 bad usage or input, 2 the solver failed, 3 some steps did not converge.
// Build: see README.md in this folder (CMake find_package or pkg-config).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ipcc/ipcc.h>

enum { EXIT_USAGE = 1, EXIT_SOLVER = 2, EXIT_UNCONVERGED = 3 };

// Library messages (warnings, e.g. reoriented tets) go to stderr; the library
// itself never prints.
static void log_to_stderr(ipcc_log_level level, const char *message, void *user) {
    (void)user;
    if (level <= IPCC_LOG_WARNING)
        fprintf(stderr, "simulate: %s: %s\n", level == IPCC_LOG_ERROR ? "error" : "warning", message);
}

static int fail(int code, const char *what, ipcc_status status) {
    fprintf(stderr, "simulate: %s: %s: %s\n", what, ipcc_status_name(status), ipcc_last_error());
    return code;
}

// Mass-weighted centre and velocity of vertices [first, first + count).
static double centre_of_mass(const ipcc_world *world, int first, int count, double com[3], double vel[3]) {
    const double *x = ipcc_world_positions(world), *v = ipcc_world_velocities(world);
    const double *m = ipcc_world_masses(world);
    double mass = 0;
    for (int k = 0; k < 3; ++k)
        com[k] = vel[k] = 0;
    for (int i = first; i < first + count; ++i) {
        mass += m[i];
        for (int k = 0; k < 3; ++k) {
            com[k] += m[i] * x[3 * i + k];
            vel[k] += m[i] * v[3 * i + k];
        }
    }
    for (int k = 0; k < 3 && mass > 0; ++k) {
        com[k] /= mass;
        vel[k] /= mass;
    }
    return mass;
}

static double kinetic_energy(const ipcc_world *world) {
    const double *v = ipcc_world_velocities(world), *m = ipcc_world_masses(world);
    double e = 0;
    for (int i = 0; i < ipcc_world_num_deformable_vertices(world); ++i)
        e += 0.5 * m[i] * (v[3 * i] * v[3 * i] + v[3 * i + 1] * v[3 * i + 1] + v[3 * i + 2] * v[3 * i + 2]);
    return e;
}

int main(int argc, char **argv) {
    const char *scene_path = NULL, *out_dir = NULL;
    long max_steps = -1;
    int bad = 0;
    for (int i = 1; i < argc && !bad; ++i) {
        char *end;
        if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            out_dir = argv[++i];
        } else if (!strcmp(argv[i], "--steps") && i + 1 < argc) {
            max_steps = strtol(argv[++i], &end, 10);
            bad = *end != '\0' || end == argv[i] || max_steps < 0;
        } else if (argv[i][0] != '-' && !scene_path) {
            scene_path = argv[i];
        } else {
            bad = 1;
        }
    }
    if (bad || !scene_path) {
        fprintf(stderr, "usage: simulate SCENE [--steps N] [-o DIR]\n");
        return EXIT_USAGE;
    }
    ipcc_set_log(log_to_stderr, NULL);
    // A program built against other headers than the library it loads would
    // misread every struct: compare the two versions.
    printf("ipcc library %s, headers %s\n", ipcc_version(), IPCC_VERSION_STRING);
    if (strcmp(ipcc_version(), IPCC_VERSION_STRING) != 0) {
        fprintf(stderr, "simulate: library and headers differ\n");
        return EXIT_USAGE;
    }

    // Load and check everything before writing any output.
    ipcc_scene *scene = NULL;
    ipcc_world *world = NULL;
    ipcc_output *output = NULL;
    int code = 0;
    ipcc_status st = ipcc_scene_load(scene_path, &scene);
    if (st != IPCC_OK) return fail(EXIT_USAGE, "cannot load the scene", st);
    st = ipcc_scene_create_world(scene, &world);
    if (st != IPCC_OK) {
        code = fail(EXIT_USAGE, "cannot build the world", st);
        goto done;
    }
    st = ipcc_world_start(world); // contact surfaces, initial intersection check
    if (st != IPCC_OK) {
        code = fail(EXIT_USAGE, "bad initial state", st);
        goto done;
    }

    double h = ipcc_world_time_step(world);
    long steps = scene->num_steps > 0 ? scene->num_steps : (long)ceil(scene->duration / h - 1e-9);
    if (max_steps >= 0 && max_steps < steps) steps = max_steps;
    long every = scene->output_fps > 0 ? lround(1.0 / (scene->output_fps * h)) : 1;
    if (every < 1) every = 1;
    printf("%s: %d bodies, %d vertices, %d tets, %d half-spaces, h = %g s, %ld steps\n", scene_path,
           ipcc_world_num_bodies(world), ipcc_world_num_vertices(world), ipcc_world_num_tets(world),
           ipcc_world_num_half_spaces(world), h, steps);
    if (out_dir) {
        st = ipcc_output_create(out_dir, &output);
        if (st == IPCC_OK) st = ipcc_output_set_contacts(output, scene->output_contacts);
        if (st == IPCC_OK) st = ipcc_output_write_frame(output, world);
        if (st != IPCC_OK) {
            code = fail(EXIT_USAGE, "cannot write output", st);
            goto done;
        }
    }

    long unconverged = 0;
    for (long s = 0; s < steps; ++s) {
        ipcc_step_stats stats;
        st = ipcc_world_step(world, &stats);
        if (st < 0) { // the state is still the one before this step
            code = fail(EXIT_SOLVER, "step failed", st);
            break;
        }
        if (st == IPCC_WARN_NOT_CONVERGED) unconverged++; // advanced, with the last Newton iterate
        printf("step %4d  t %8.4f s  newton %3d  contacts %4d  dmin %9.3g m  kinetic %10.4g J  elastic "
               "%10.4g J%s\n",
               stats.step, stats.time, stats.newton_iterations, stats.num_contacts, stats.min_distance,
               kinetic_energy(world), ipcc_world_elastic_energy(world),
               st == IPCC_WARN_NOT_CONVERGED ? "  (not converged)" : "");
        if (output) {
            st = ipcc_output_write_stats(output, world, &stats);
            if (st == IPCC_OK && ((s + 1) % every == 0 || s + 1 == steps))
                st = ipcc_output_write_frame(output, world);
            if (st != IPCC_OK) {
                code = fail(EXIT_USAGE, "cannot write output", st);
                break;
            }
        }
    }

    for (int b = 0; b < ipcc_world_num_bodies(world); ++b) {
        if (ipcc_world_body_is_obstacle(world, b)) continue;
        int first, count;
        double com[3], vel[3];
        ipcc_world_body_vertices(world, b, &first, &count);
        double mass = centre_of_mass(world, first, count, com, vel);
        printf(
            "body %s: %d vertices, %.6g kg, centre of mass %.9g %.9g %.9g m, velocity %.9g %.9g %.9g m/s\n",
            ipcc_world_body_name(world, b), count, mass, com[0], com[1], com[2], vel[0], vel[1], vel[2]);
    }
    printf("done: %d steps, t = %.6g s, %ld not converged", ipcc_world_step_count(world),
           ipcc_world_time(world), unconverged);
    if (output) printf(", %d frames in %s/frames.pvd", ipcc_output_frame_count(output), out_dir);
    printf("\n");
    if (code == 0 && unconverged > 0) code = EXIT_UNCONVERGED;
done:
    ipcc_output_destroy(output);
    ipcc_world_destroy(world);
    ipcc_scene_destroy(scene);
    return code;
}
