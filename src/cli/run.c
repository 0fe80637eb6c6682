// ipcc run and ipcc resume: the simulation loop, its output and its
// checkpoints.
//
//   ipcc run SCENE [-o DIR] [--overwrite] [--steps N] [--threads N] [--checkpoint-every N]
//            [--set K=V]... [--strict] [--profile] [-q|-v]
//   ipcc resume DIR [--steps N] [--threads N] [--checkpoint-every N] [--profile] [-q|-v]
//
// run validates the scene and its world first, then looks at DIR: a folder
// holding another run's files is refused unless --overwrite is given, which
// removes exactly those files (run_folder.c, which also says in what order
// and why), then the run writes. resume continues the run in DIR as it is.
//
// A run folder holds, besides the frames and stats.csv (docs/output.md):
//   scene.json      the scene as run (overrides applied, IPC scripts
//                   converted), written before the first step: what resume
//                   rebuilds the world from, and a record of the run;
//   checkpoint.bin  the world's state (checkpoint.h) plus this loop's state
//                   (below), written atomically at the start, every
//                   checkpoint_every steps, and at exit.
// A checkpoint is written only after every output of its step (stats row,
// frame, .pvd) is in place, so the folder is always consistent with it:
// resume cuts stats.csv and frames.pvd back to the checkpoint and redoes the
// steps after it, rewriting the same frames bit for bit (ipcc's results do
// not depend on anything but the state and the scene, for any thread count).
// After a failed write (disk full, EFBIG, an unwritable folder) no further
// checkpoint is written, so the last good checkpoint and frames stay; the
// message says how to continue.
//
// SIGINT and SIGTERM set a flag: the step in progress finishes, its output
// and a checkpoint are written, and the run exits with IPCC_EXIT_INTERRUPTED
// and the resume command. A second signal terminates at once (the default
// action), which is as safe as SIGKILL: everything on disk is atomic.
//
// The loop's state in the checkpoint's user data (native byte order, like
// the rest of the checkpoint), version 3:
//   i64 version, total steps, next frame (the fps counter), unconverged
//   steps, Newton iterations, stats rows, frames; f64 wall seconds; f64 the
//   worst velocity error; i64 split steps; then f64 times[frames].
//   Versions 1 (no velocity error, no split steps) and 2 (no split steps)
//   are still read.
#include "cli/run.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <omp.h>

#include "cli/common.h"
#include "cli/profile.h"
#include "cli/progress.h"
#include "cli/run_folder.h"
#include "cli/usage.h"

#define RUN_STATE_VERSION 3
#define SCENE_FILE "scene.json"
#define CHECKPOINT_FILE "checkpoint.bin"

/// What the loop carries across steps, besides the world and the output.
typedef struct run_state {
    long total_steps;
    long next_frame; ///< with fps > 0: the next frame is due at t >= next_frame / fps
    long unconverged;
    long newton_total;
    double wall;
    double worst_velocity_error; ///< the largest step's velocity_error, m/s
    long split;                  ///< steps solved in parts (newton.max_splits)
} run_state;

/// One run in progress.
typedef struct run {
    const char *dir;
    char *scene_path;      ///< DIR/scene.json
    char *checkpoint_path; ///< DIR/checkpoint.bin
    ipcc_scene *scene;
    ipcc_world *world;
    ipcc_output *output;
    run_state state;
    int checkpoint_every;
    long last_checkpoint; ///< step of the last checkpoint written (-1: none)
    bool profile;         ///< --profile: print the timers' table at the end
    ipcc_profile totals;  ///< this invocation's steps, for --profile
    unsigned char *user;  ///< scratch for the checkpoint's user data
    size_t user_cap;
} run;

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig) {
    if (stop_signal) { // a second one: stop now
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    stop_signal = sig;
    static const char msg[] = "\nipcc: interrupted: finishing the current step, then writing a checkpoint "
                              "(interrupt again to stop at once)\n";
    ssize_t ignored = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)ignored;
}

static void install_signals(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    // A file-size limit (ulimit -f) makes writes fail with EFBIG instead of killing us.
    signal(SIGXFSZ, SIG_IGN);
}

static void run_free(run *r) {
    ipcc_output_destroy(r->output);
    ipcc_world_destroy(r->world);
    ipcc_scene_destroy(r->scene);
    free(r->scene_path);
    free(r->checkpoint_path);
    free(r->user);
}

// ---------------------------------------------------------------------------
// Checkpoints with the loop's state

static void put_i64(unsigned char **at, long v) {
    int64_t x = v;
    memcpy(*at, &x, 8);
    *at += 8;
}

static long get_i64(const unsigned char **at) {
    int64_t x;
    memcpy(&x, *at, 8);
    *at += 8;
    return (long)x;
}

static int write_checkpoint(run *r) {
    int frames = ipcc_output_frame_count(r->output);
    size_t need = 10 * 8 + 8 * (size_t)frames;
    if (need > r->user_cap) {
        unsigned char *p = realloc(r->user, need);
        if (!p) {
            fprintf(stderr, "ipcc: error: out of memory writing the checkpoint\n");
            return -1;
        }
        r->user = p;
        r->user_cap = need;
    }
    unsigned char *at = r->user;
    put_i64(&at, RUN_STATE_VERSION);
    put_i64(&at, r->state.total_steps);
    put_i64(&at, r->state.next_frame);
    put_i64(&at, r->state.unconverged);
    put_i64(&at, r->state.newton_total);
    put_i64(&at, ipcc_output_stats_row_count(r->output));
    put_i64(&at, frames);
    memcpy(at, &r->state.wall, 8);
    at += 8;
    memcpy(at, &r->state.worst_velocity_error, 8);
    at += 8;
    put_i64(&at, r->state.split);
    if (frames > 0) memcpy(at, ipcc_output_frame_times(r->output), 8 * (size_t)frames);
    if (ipcc_checkpoint_write(r->checkpoint_path, r->world, r->user, need) != IPCC_OK) {
        ipcc_cli_fail(IPCC_EXIT_USAGE, "cannot write the checkpoint");
        return -1;
    }
    r->last_checkpoint = ipcc_world_step_count(r->world);
    return 0;
}

/// Parse the loop's state; returns the frame times inside `user` (or NULL on a malformed blob).
static const unsigned char *read_run_state(const unsigned char *user, size_t size, run_state *s,
                                           long *stats_rows, int *frames) {
    if (size < 64) return NULL;
    const unsigned char *at = user;
    long version = get_i64(&at);
    if (version < 1 || version > RUN_STATE_VERSION) return NULL;
    s->total_steps = get_i64(&at);
    s->next_frame = get_i64(&at);
    s->unconverged = get_i64(&at);
    s->newton_total = get_i64(&at);
    *stats_rows = get_i64(&at);
    long nf = get_i64(&at);
    memcpy(&s->wall, at, 8);
    at += 8;
    size_t head = version == 1 ? 64 : version == 2 ? 72 : 80;
    s->worst_velocity_error = 0;
    s->split = 0;
    if (version >= 2 && size >= 72) {
        memcpy(&s->worst_velocity_error, at, 8);
        at += 8;
    }
    if (version >= 3 && size >= 80) s->split = get_i64(&at);
    if (nf < 0 || nf > INT32_MAX || size != head + 8 * (size_t)nf || *stats_rows < 0 || s->total_steps < 0)
        return NULL;
    *frames = (int)nf;
    return at;
}

// ---------------------------------------------------------------------------
// The loop

static void print_resume_hint(const run *r) {
    if (r->last_checkpoint >= 0)
        fprintf(stderr, "ipcc: the checkpoint in %s/ is at step %ld; continue with: ipcc resume %s\n", r->dir,
                r->last_checkpoint, r->dir);
}

/// Steps to state.total_steps. Returns the exit code.
static int simulate(run *r) {
    const double h = ipcc_world_time_step(r->world), fps = r->scene->output_fps;
    const long first = ipcc_world_step_count(r->world), total = r->state.total_steps;
    ipcc_progress progress;
    ipcc_progress_begin(&progress, ipcc_cli_verbosity, first, total, h);
    int code = IPCC_EXIT_OK;
    bool outputs_ok = true;
    for (long s = first; s < total; ++s) {
        ipcc_step_stats st;
        ipcc_status status = ipcc_world_step(r->world, &st);
        if (status < 0) {
            ipcc_progress_clear(&progress);
            code = ipcc_cli_fail(IPCC_EXIT_SOLVER, "simulation failed");
            break;
        }
        r->state.newton_total += st.newton_iterations;
        ipcc_profile_add(&r->totals, &st);
        r->state.wall += st.time_total;
        if (st.velocity_error > r->state.worst_velocity_error || isnan(st.velocity_error))
            r->state.worst_velocity_error = st.velocity_error;
        r->state.split += st.substeps > 1;
        if (!st.converged) {
            r->state.unconverged++;
            ipcc_progress_clear(&progress);
            fprintf(stderr,
                    "ipcc: warning: step %d (t = %.6g s) did not converge in %d Newton iterations "
                    "(|p|_inf = %.3g m, velocity error %.3g m/s)\n",
                    st.step, st.time, st.newton_iterations, st.residual, st.velocity_error);
        }
        ipcc_progress_step(&progress, &st);
        if (ipcc_output_write_stats(r->output, r->world, &st) != IPCC_OK) {
            ipcc_progress_clear(&progress);
            code = ipcc_cli_fail(IPCC_EXIT_USAGE, "cannot write stats");
            outputs_ok = false;
            break;
        }
        // A frame every step, or whenever t passes the next multiple of 1/fps.
        bool frame = fps <= 0 || s + 1 == total;
        while (fps > 0 && st.time >= r->state.next_frame / fps - 1e-9 * h) {
            frame = true;
            r->state.next_frame++;
        }
        if (frame && ipcc_output_write_frame(r->output, r->world) != IPCC_OK) {
            ipcc_progress_clear(&progress);
            code = ipcc_cli_fail(IPCC_EXIT_USAGE, "cannot write frame");
            outputs_ok = false;
            break;
        }
        bool due = r->checkpoint_every > 0 && st.step % r->checkpoint_every == 0;
        if ((due || stop_signal) && s + 1 < total && write_checkpoint(r) != 0) {
            ipcc_progress_clear(&progress);
            outputs_ok = false;
            code = IPCC_EXIT_USAGE;
            break;
        }
        if (stop_signal) break;
    }
    ipcc_progress_end(&progress);
    // At exit: a checkpoint of the state the outputs describe (also after a
    // solver failure, which leaves the state at the last good step).
    if (outputs_ok && r->last_checkpoint != ipcc_world_step_count(r->world) && write_checkpoint(r) != 0) {
        outputs_ok = false;
        if (code == IPCC_EXIT_OK) code = IPCC_EXIT_USAGE;
    }
    long done = ipcc_world_step_count(r->world);
    printf(
        "summary: %ld steps, %.6g s simulated, %d frames, %.3f s wall (%.4f s/step), %.2f Newton "
        "iterations/step, %ld unconverged steps, %ld split, worst velocity error %.3g m/s (tolerance %.3g); "
        "output in %s/\n",
        done, ipcc_world_time(r->world), ipcc_output_frame_count(r->output), r->state.wall,
        done ? r->state.wall / done : 0.0, done ? (double)r->state.newton_total / done : 0.0,
        r->state.unconverged, r->state.split, r->state.worst_velocity_error,
        ipcc_world_velocity_tolerance(r->world), r->dir);
    if (r->profile) ipcc_profile_print(&r->totals, stdout);
    fflush(stdout);
    if (!outputs_ok) {
        print_resume_hint(r);
    } else if (stop_signal && done < total) {
        fprintf(stderr,
                "ipcc: interrupted by %s at step %ld of %ld (t = %.6g s); checkpoint written.\n"
                "ipcc: continue with: ipcc resume %s\n",
                stop_signal == SIGINT ? "SIGINT" : "SIGTERM", done, total, ipcc_world_time(r->world), r->dir);
        if (code == IPCC_EXIT_OK || code == IPCC_EXIT_UNCONVERGED) code = IPCC_EXIT_INTERRUPTED;
    } else if (code == IPCC_EXIT_SOLVER) {
        print_resume_hint(r);
    }
    if (code == IPCC_EXIT_OK && r->state.unconverged > 0) code = IPCC_EXIT_UNCONVERGED;
    return code;
}

// ---------------------------------------------------------------------------
// Options

typedef struct run_options {
    const char *scene_path, *dir;
    long max_steps;        ///< -1: the scene's
    long checkpoint_every; ///< -1: the scene's
    bool profile;          ///< --profile
    bool overwrite;        ///< --overwrite (run only): replace an earlier run in the folder
    ipcc_scene_options scene;
} run_options;

/// The options run and resume share (--steps, --threads, --checkpoint-every,
/// --profile). 1 when consumed, 0 if not one of them, -1 after an error.
static int take_run_option(int argc, char **argv, int *i, run_options *o) {
    const char *a = argv[*i];
    long v;
    if (!strcmp(a, "--steps")) {
        if (++*i >= argc || ipcc_cli_parse_int(argv[*i], &v) != 0 || v < 0)
            return fprintf(stderr, "ipcc: error: --steps needs a non-negative integer\n"), -1;
        o->max_steps = v;
    } else if (!strcmp(a, "--checkpoint-every")) {
        if (++*i >= argc || ipcc_cli_parse_int(argv[*i], &v) != 0 || v < 0 || v > INT32_MAX)
            return fprintf(stderr, "ipcc: error: --checkpoint-every needs a non-negative integer\n"), -1;
        o->checkpoint_every = v;
    } else if (!strcmp(a, "--profile")) {
        o->profile = true;
    } else if (!strcmp(a, "--threads")) {
        if (++*i >= argc || ipcc_cli_parse_int(argv[*i], &v) != 0 || v < 1 || v > 1024)
            return fprintf(stderr, "ipcc: error: --threads needs an integer from 1 to 1024\n"), -1;
        omp_set_num_threads((int)v);
    } else {
        return 0;
    }
    return 1;
}

static void print_header(const run *r, const char *what, long from) {
    if (ipcc_cli_verbosity < 1) return;
    printf("ipcc %s: %s: %d bodies, %d vertices, %d tets, h = %g s, steps %ld to %ld, %d threads -> %s/\n",
           ipcc_version(), what, ipcc_world_num_bodies(r->world), ipcc_world_num_vertices(r->world),
           ipcc_world_num_tets(r->world), ipcc_world_time_step(r->world), from, r->state.total_steps,
           omp_get_max_threads(), r->dir);
    fflush(stdout);
}

/// Open the folder and start at step 0. In this order, so that a kill at
/// any point leaves a folder resume can continue (never a checkpoint of an
/// older run beside this run's scene): the old checkpoint goes, the scene is
/// recorded (`record`; resume reuses the recorded one), frame 0 and the
/// first checkpoint are written.
static int start_fresh(run *r, bool record) {
    if (ipcc_output_create(r->dir, &r->output) != IPCC_OK ||
        ipcc_output_set_contacts(r->output, r->scene->output_contacts) != IPCC_OK ||
        ipcc_output_set_compress(r->output, !r->scene->output_uncompressed) != IPCC_OK)
        return ipcc_cli_fail(IPCC_EXIT_USAGE, "cannot start the run");
    if (remove(r->checkpoint_path) != 0 && errno != ENOENT) {
        fprintf(stderr, "ipcc: error: cannot remove the old checkpoint '%s': %s\n", r->checkpoint_path,
                strerror(errno));
        return IPCC_EXIT_USAGE;
    }
    if (record && ipcc_scene_write_json(r->scene, r->scene_path) != IPCC_OK)
        return ipcc_cli_fail(IPCC_EXIT_USAGE, "cannot record the scene in the output folder");
    if (ipcc_output_write_frame(r->output, r->world) != IPCC_OK)
        return ipcc_cli_fail(IPCC_EXIT_USAGE, "cannot start the run");
    if (write_checkpoint(r) != 0) return IPCC_EXIT_USAGE;
    return IPCC_EXIT_OK;
}

/// After validation, before anything is written: refuse a folder that holds
/// another run, or with `overwrite` remove that run's files (only those).
static int clear_folder(const char *dir, bool overwrite) {
    ipcc_run_folder found;
    if (ipcc_run_folder_scan(dir, &found) != 0) return IPCC_EXIT_USAGE;
    if (found.files == 0) return IPCC_EXIT_OK;
    char what[96];
    if (found.step >= 0)
        snprintf(what, sizeof what, "%d frames, step %ld", found.frames, found.step);
    else
        snprintf(what, sizeof what, "%d frames", found.frames);
    if (!overwrite) {
        fprintf(stderr,
                "ipcc: error: output folder '%s' holds an earlier run (%s); nothing was written.\n"
                "ipcc: pass --overwrite to replace it, choose another folder with -o, or continue it with: "
                "ipcc resume %s\n",
                dir, what, dir);
        return IPCC_EXIT_USAGE;
    }
    int removed = ipcc_run_folder_remove(dir);
    if (removed < 0) return IPCC_EXIT_USAGE;
    if (ipcc_cli_verbosity >= 1)
        fprintf(stderr, "ipcc: --overwrite: removed the earlier run in '%s' (%s; %d files)\n", dir, what,
                removed);
    return IPCC_EXIT_OK;
}

int ipcc_cli_run(int argc, char **argv) {
    run_options o = {.max_steps = -1, .checkpoint_every = -1};
    for (int i = 0; i < argc; ++i) {
        const char *a = argv[i];
        int k;
        if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
            if (++i >= argc)
                return fprintf(stderr, "ipcc: error: %s needs a directory\n", a), IPCC_EXIT_USAGE;
            o.dir = argv[i];
        } else if (!strcmp(a, "--overwrite")) {
            o.overwrite = true;
        } else if ((k = take_run_option(argc, argv, &i, &o)) != 0) {
            if (k < 0) return IPCC_EXIT_USAGE;
        } else if (ipcc_cli_take_common(argc, argv, &i, &o.scene, &o.scene_path) < 0) {
            return IPCC_EXIT_USAGE;
        }
    }
    if (!o.scene_path) {
        fprintf(stderr, "ipcc: error: run needs a scene file\n");
        ipcc_cli_command_usage("run", stderr);
        return IPCC_EXIT_USAGE;
    }

    // Validate everything (scene, meshes, the initial intersection check)
    // before touching the output directory.
    run r = {.last_checkpoint = -1, .profile = o.profile};
    if (ipcc_cli_load_world(o.scene_path, &o.scene, true, &r.scene, &r.world) != 0) return IPCC_EXIT_USAGE;
    const ipcc_scene *sc = r.scene;
    double h = sc->world.time_step;
    long steps = sc->world.integrator == IPCC_STATIC && sc->duration <= h
                     ? 1
                     : (long)fmin(ceil(sc->duration / h - 1e-9), 1e15);
    if (sc->num_steps > 0) steps = sc->num_steps;
    if (o.max_steps >= 0 && o.max_steps < steps) steps = o.max_steps;
    r.state.total_steps = steps;
    r.state.next_frame = 1;
    r.checkpoint_every = o.checkpoint_every >= 0 ? (int)o.checkpoint_every : sc->checkpoint_every;
    r.dir = o.dir ? o.dir : sc->output_directory ? sc->output_directory : "out";
    int code = IPCC_EXIT_OK;
    if (!(r.scene_path = ipcc_cli_path_join(r.dir, SCENE_FILE)) ||
        !(r.checkpoint_path = ipcc_cli_path_join(r.dir, CHECKPOINT_FILE))) {
        code = IPCC_EXIT_USAGE;
        fprintf(stderr, "ipcc: error: out of memory\n");
        goto done;
    }
    r.scene->num_steps = (int)steps; // the recorded scene says how far this run goes
    code = clear_folder(r.dir, o.overwrite);
    if (code != IPCC_EXIT_OK) goto done;
    code = start_fresh(&r, true);
    if (code != IPCC_EXIT_OK) goto done;
    print_header(&r, o.scene_path, 0);
    install_signals();
    code = simulate(&r);
done:
    run_free(&r);
    return code;
}

int ipcc_cli_resume(int argc, char **argv) {
    run_options o = {.max_steps = -1, .checkpoint_every = -1};
    for (int i = 0; i < argc; ++i) {
        const char *a = argv[i];
        int k = take_run_option(argc, argv, &i, &o);
        if (k < 0) return IPCC_EXIT_USAGE;
        if (k > 0) continue;
        if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            ipcc_cli_verbosity = 0;
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            ipcc_cli_verbosity = 2;
        } else if (a[0] == '-' && a[1]) {
            return fprintf(stderr, "ipcc: error: unknown option '%s' (see ipcc resume --help)\n", a),
                   IPCC_EXIT_USAGE;
        } else if (!o.dir) {
            o.dir = a;
        } else {
            return fprintf(stderr, "ipcc: error: unexpected argument '%s'\n", a), IPCC_EXIT_USAGE;
        }
    }
    if (!o.dir) return fprintf(stderr, "ipcc: error: resume needs a run folder\n"), IPCC_EXIT_USAGE;
    run r = {.dir = o.dir, .last_checkpoint = -1, .profile = o.profile};
    int code = IPCC_EXIT_OK;
    void *user = NULL;
    size_t user_size = 0;
    struct stat st;
    if (stat(o.dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "ipcc: error: cannot resume '%s': not a folder\n", o.dir);
        return IPCC_EXIT_USAGE;
    }
    if (!(r.scene_path = ipcc_cli_path_join(r.dir, SCENE_FILE)) ||
        !(r.checkpoint_path = ipcc_cli_path_join(r.dir, CHECKPOINT_FILE))) {
        fprintf(stderr, "ipcc: error: out of memory\n");
        code = IPCC_EXIT_USAGE;
        goto done;
    }
    if (access(r.scene_path, F_OK) != 0) {
        fprintf(stderr, "ipcc: error: cannot resume '%s': no %s (not a folder written by ipcc run)\n", o.dir,
                SCENE_FILE);
        code = IPCC_EXIT_USAGE;
        goto done;
    }
    ipcc_scene_options none = {.strict = false};
    if (ipcc_cli_load_world(r.scene_path, &none, true, &r.scene, &r.world) != 0) {
        code = IPCC_EXIT_USAGE;
        goto done;
    }
    r.checkpoint_every = o.checkpoint_every >= 0 ? (int)o.checkpoint_every : r.scene->checkpoint_every;
    long stats_rows = 0;
    int frames = 0;
    const unsigned char *times = NULL;
    if (access(r.checkpoint_path, F_OK) != 0) { // killed before its first checkpoint: start over
        fprintf(stderr, "ipcc: %s: no %s yet; running %s from the start\n", o.dir, CHECKPOINT_FILE,
                r.scene_path);
        r.state.total_steps = o.max_steps >= 0 ? o.max_steps : r.scene->num_steps;
        r.state.next_frame = 1;
        code = start_fresh(&r, false);
        if (code != IPCC_EXIT_OK) goto done;
        print_header(&r, r.scene_path, 0);
        install_signals();
        code = simulate(&r);
        goto done;
    }
    if (ipcc_checkpoint_read(r.checkpoint_path, r.world, &user, &user_size) != IPCC_OK) {
        code = ipcc_cli_fail(IPCC_EXIT_USAGE, "cannot resume");
        goto done;
    }
    if (!(times = read_run_state(user, user_size, &r.state, &stats_rows, &frames))) {
        fprintf(stderr, "ipcc: error: cannot resume: checkpoint '%s' has no valid run state\n",
                r.checkpoint_path);
        code = IPCC_EXIT_USAGE;
        goto done;
    }
    r.last_checkpoint = ipcc_world_step_count(r.world);
    if (o.max_steps >= 0) r.state.total_steps = o.max_steps;
    long at = ipcc_world_step_count(r.world);
    if (at >= r.state.total_steps) {
        printf("ipcc: %s: the run is complete (step %ld of %ld); nothing to do%s\n", o.dir, at,
               r.state.total_steps, o.max_steps < 0 ? " (--steps N runs it further)" : "");
        goto done;
    }
    double *frame_times = malloc(sizeof(double) * (size_t)(frames > 0 ? frames : 1));
    if (!frame_times) {
        fprintf(stderr, "ipcc: error: out of memory\n");
        code = IPCC_EXIT_USAGE;
        goto done;
    }
    if (frames > 0) memcpy(frame_times, times, sizeof(double) * (size_t)frames);
    ipcc_status s = ipcc_output_resume(o.dir, r.world, frames, frame_times, stats_rows, &r.output);
    free(frame_times);
    if (s == IPCC_OK) s = ipcc_output_set_contacts(r.output, r.scene->output_contacts);
    if (s == IPCC_OK) s = ipcc_output_set_compress(r.output, !r.scene->output_uncompressed);
    if (s != IPCC_OK) {
        code = ipcc_cli_fail(IPCC_EXIT_USAGE, "cannot resume");
        goto done;
    }
    char what[64];
    snprintf(what, sizeof what, "resuming at step %ld (t = %.6g s)", at, ipcc_world_time(r.world));
    print_header(&r, what, at);
    install_signals();
    code = simulate(&r);
done:
    free(user);
    run_free(&r);
    return code;
}
