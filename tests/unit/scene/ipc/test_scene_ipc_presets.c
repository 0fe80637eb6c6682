// IPC script presets that no scene of tests/ipc_scenes uses, on small
// synthetic scripts (docs/ipc-script-format.md section 6, cited as "F§6.n"):
// each prescribed motion, stop and initial condition is checked against its
// definition. Also the loader's errors on small scripts (an unsupported
// preset, a bad body after an obstacle, d̂ and eps_v not positive).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support.h"
#include "world_checks.h"

static char dir[64];

// Write a script into the temporary dataset root (which holds input/).
static void write_script(const char *name, const char *text) {
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    ipcc_test_write_text(path, text);
}

static ipcc_world *load_world(const char *name, ipcc_scene **scene_out) {
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    ipcc_scene *scene = NULL;
    ipcc_scene_options opt = {.strict = true};
    if (ipcc_scene_load_with_options(path, &opt, &scene) != IPCC_OK) fail_msg("%s", ipcc_last_error());
    ipcc_world *w = NULL;
    if (ipcc_scene_create_world(scene, &w) != IPCC_OK) fail_msg("%s", ipcc_last_error());
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("%s", ipcc_last_error());
    if (scene_out)
        *scene_out = scene;
    else
        ipcc_scene_destroy(scene);
    return w;
}

static void step_checked(ipcc_world *w, int n) {
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    for (int s = 0; s < n; ++s) {
        assert_true(ipcc_world_step(w, NULL) >= 0);
        ipcc_test_assert_intersection_free(w, "preset");
        ipcc_test_assert_no_inversion(w);
    }
}

static int setup(void **state) {
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/ipcc_presets_XXXXXX");
    if (!mkdtemp(dir)) return -1;
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "mkdir -p %s/input && cp -r %s/tests/ipc_scenes/input/tetMeshes %s/input/ && cp -r "
             "%s/tests/ipc_scenes/input/triMeshes %s/input/",
             dir, IPCC_SOURCE_DIR, dir, IPCC_SOURCE_DIR, dir);
    return system(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

// stretchAndPause (F§6.10): the 1 % ends of a rod move apart at 1 m/s until
// the tracker (the highest-indexed left-handle vertex) passes x < -0.28,
// then both ends hold. The rod spans x in [0.003, 1.003] after placement,
// so the tracker moves 29 steps of 0.01 (from 0.003 to -0.287).
static void stretch_and_pause(void **state) {
    (void)state;
    write_script("stretch.txt", "shapes input 1\n"
                                "input/tetMeshes/rod.msh 0.503 0 0  0 0 0  1 1 1\n"
                                "script stretchAndPause\nturnOffGravity\ntime 1 0.01\n");
    ipcc_world *w = load_world("stretch.txt", NULL);
    const double *x = ipcc_world_positions(w), *X = ipcc_world_rest_positions(w);
    int n = ipcc_world_num_vertices(w), left = -1, right = -1;
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < n; ++i) {
        lo = fmin(lo, X[3 * i]);
        hi = fmax(hi, X[3 * i]);
    }
    for (int i = 0; i < n; ++i) {
        if (X[3 * i] < lo + 0.01 * (hi - lo)) left = i;
        if (right < 0 && X[3 * i] > hi - 0.01 * (hi - lo)) right = i;
    }
    assert_true(left >= 0 && right >= 0);
    double x0 = X[3 * left];
    // Steps until the tracker is below -0.28 at a step start.
    int moving = (int)ceil((x0 + 0.28) / 0.01 + 1e-9);
    step_checked(w, moving + 5);
    double expect = x0 - 0.01 * moving; // it moved `moving` steps, then held
    printf("  tracker from x = %.4f: held at %.4f after %d moving steps\n", x0, x[3 * left], moving);
    assert_near(x[3 * left], expect, 1e-9, 1e-9);
    assert_near(x[3 * right] - X[3 * right], 0.01 * moving, 1e-9, 1e-9);
    assert_true(ipcc_world_vertex_is_prescribed(w, left));
    ipcc_world_destroy(w);
}

// pushRightMost1 (F§6.11): the lowest-indexed vertex with x > x_max - 1e-3
// dx moves at (-0.15, 0, 0) m/s forever; nothing else is prescribed.
static void push_right_most(void **state) {
    (void)state;
    write_script("push.txt", "shapes input 1\n"
                             "input/tetMeshes/cube.msh 0 0 0  0 0 0  1 1 1\n"
                             "script pushRightMost1\nturnOffGravity\ntime 1 0.02\n");
    ipcc_world *w = load_world("push.txt", NULL);
    const double *X = ipcc_world_rest_positions(w);
    int n = ipcc_world_num_vertices(w), v = -1, count = 0;
    for (int i = 0; i < n; ++i)
        if (X[3 * i] > 1 - 1e-3) {
            if (v < 0) v = i;
            count++;
        }
    assert_true(count == 4 && v >= 0);
    step_checked(w, 10);
    assert_near(ipcc_world_positions(w)[3 * v], X[3 * v] - 0.15 * 10 * 0.02, 1e-9, 1e-9);
    int prescribed = 0;
    for (int i = 0; i < n; ++i)
        prescribed += ipcc_world_vertex_is_prescribed(w, i);
    assert_int_equal(prescribed, 1);
    ipcc_world_destroy(w);
}

// fixLowerHalf (F§6.12): vertices with y < y_min + dy / 2 never move, under gravity.
static void fix_lower_half(void **state) {
    (void)state;
    write_script("lower.txt", "shapes input 1\n"
                              "input/tetMeshes/rod.msh 0 0 0  0 0 90  1 1 1\n"
                              "script fixLowerHalf\ntime 1 0.02\n");
    ipcc_world *w = load_world("lower.txt", NULL);
    step_checked(w, 10);
    const double *x = ipcc_world_positions(w), *X = ipcc_world_rest_positions(w);
    int n = ipcc_world_num_vertices(w), fixed = 0;
    double lo = INFINITY, hi = -INFINITY, moved_top = 0;
    for (int i = 0; i < n; ++i) {
        lo = fmin(lo, X[3 * i + 1]);
        hi = fmax(hi, X[3 * i + 1]);
    }
    for (int i = 0; i < n; ++i) {
        if (X[3 * i + 1] < lo + 0.5 * (hi - lo)) {
            fixed++;
            for (int k = 0; k < 3; ++k)
                assert_true(x[3 * i + k] == X[3 * i + k]);
        } else {
            moved_top = fmax(moved_top, fabs(x[3 * i + 1] - X[3 * i + 1]));
        }
    }
    assert_true(fixed > 0 && fixed < n);
    assert_true(moved_top > 1e-6); // the free half sags under gravity
    ipcc_world_destroy(w);
}

// DCOBallHitWall (F§6.9): every tet-shape vertex starts at (p1, 0, 0) m/s,
// kinematic shapes fixed; fallNoShift (F§6.4): no shift, nothing prescribed.
static void ball_hit_wall_and_fall_no_shift(void **state) {
    (void)state;
    write_script("wall.txt", "shapes input 2\n"
                             "input/tetMeshes/cube.msh 0 0 0  0 0 0  0.2 0.2 0.2\n"
                             "input/triMeshes/plane.obj 2 0 0  0 0 90  1 1 1\n"
                             "script DCOBallHitWall 1 67\nturnOffGravity\ntime 1 0.01\n");
    ipcc_world *w = load_world("wall.txt", NULL);
    int first, count;
    ipcc_world_body_vertices(w, 0, &first, &count);
    for (int i = first; i < first + count; ++i)
        assert_true(ipcc_world_velocities(w)[3 * i] == 67);
    ipcc_world_body_vertices(w, 1, &first, &count);
    assert_true(ipcc_world_body_is_obstacle(w, 1) && ipcc_world_vertex_is_prescribed(w, first) == false);
    step_checked(w, 1);
    assert_true(ipcc_world_vertex_is_prescribed(w, first)); // the plane is prescribed (fixed)
    ipcc_world_destroy(w);

    write_script("noshift.txt", "shapes input 1\ninput/tetMeshes/cube.msh 0 0.5 0  0 0 0  1 1 1\n"
                                "script fallNoShift\n");
    w = load_world("noshift.txt", NULL);
    const double *X = ipcc_world_rest_positions(w);
    double lo = INFINITY;
    for (int i = 0; i < ipcc_world_num_vertices(w); ++i)
        lo = fmin(lo, X[3 * i + 1]);
    assert_true(lo == 0.5); // no fall shift
    ipcc_world_destroy(w);
}

// DCOSegBedSquash (F§6.8): with C = 3 components (a cube and two planes),
// components >= 2 (the upper plane) move down at 1 m/s until their min y is
// within 0.1 of the lower plane's max y, then stay.
static void seg_bed_squash(void **state) {
    (void)state;
    write_script("squash.txt", "shapes input 3\n"
                               "input/tetMeshes/cube.msh 0 0.05 0  0 0 0  0.1 0.1 0.1\n"
                               "input/triMeshes/plane.obj 0 0 0  0 0 0  1 1 1\n"
                               "input/triMeshes/plane.obj 0 0.5 0  0 0 0  1 1 1\n"
                               "script DCOSegBedSquash\nturnOffGravity\ntime 1 0.02\n");
    ipcc_world *w = load_world("squash.txt", NULL);
    int first, count;
    ipcc_world_body_vertices(w, 2, &first, &count); // the upper plane
    const double *x = ipcc_world_positions(w);
    double y0 = x[3 * first + 1];
    // Gap 0.5 > 0.1: it moves 0.02 per step while the gap at a step start is > 0.1:
    // starts at gaps 0.5, 0.48, ..., 0.12 (20 steps), then 0.1 stops it.
    step_checked(w, 25);
    printf("  upper plane from y = %.4f to %.4f\n", y0, x[3 * first + 1]);
    assert_near(x[3 * first + 1], y0 - 20 * 0.02, 1e-9, 1e-9);
    ipcc_world_destroy(w);
}

// dragright (F§6.5): after the fall shift, vertices with x > x_max - 0.04 dx
// move at 0.5 m/s until min x of all shapes passes the meshCO's max x; then
// they are released for good.
static void drag_right(void **state) {
    (void)state;
    write_script("drag.txt", "shapes input 1\n"
                             "input/tetMeshes/cube.msh 0 0 0  0 0 0  0.1 0.1 0.1\n"
                             "meshCO input/triMeshes/cube.obj -0.1 5 0  0.05  50  0\n"
                             "script dragright\nturnOffGravity\ntime 1 0.02\n");
    ipcc_world *w = load_world("drag.txt", NULL);
    const double *x = ipcc_world_positions(w), *X = ipcc_world_rest_positions(w);
    int right = -1;
    for (int i = 0; i < 8; ++i)
        if (X[3 * i] > 0.09) right = i;
    assert_true(right >= 0);
    // The meshCO's max x is -0.075; the cube's min x (0) is already past it,
    // so the trigger releases the handle at the first step start: IPC's own
    // rule (F§6.5 quirk, "release at the first step" when nothing is to the right).
    step_checked(w, 3);
    assert_false(ipcc_world_vertex_is_prescribed(w, right));
    ipcc_world_destroy(w);

    write_script("drag2.txt", "shapes input 1\n"
                              "input/tetMeshes/cube.msh 0 0 0  0 0 0  0.1 0.1 0.1\n"
                              "meshCO input/triMeshes/cube.obj 0.1 5 0  0.05  50  0\n"
                              "script dragright\nturnOffGravity\ntime 1 0.02\n");
    w = load_world("drag2.txt", NULL);
    x = ipcc_world_positions(w);
    X = ipcc_world_rest_positions(w);
    // meshCO max x = 0.125: the cube's min x (0) passes it after 13 steps of 0.01.
    step_checked(w, 5);
    assert_true(ipcc_world_vertex_is_prescribed(w, right));
    assert_near(x[3 * right] - X[3 * right], 5 * 0.01, 1e-9, 1e-9);
    step_checked(w, 20);
    assert_false(ipcc_world_vertex_is_prescribed(w, right)); // released
    ipcc_world_destroy(w);
}

// A preset ipcc lacks is an error naming the script's line and the preset.
static void unsupported_preset(void **state) {
    (void)state;
    write_script("hang.txt", "shapes input 1\n"
                             "input/tetMeshes/cube.msh 0 0 0  0 0 0  1 1 1\n"
                             "\n"
                             "script hang\n");
    char path[256];
    snprintf(path, sizeof path, "%s/hang.txt", dir);
    ipcc_scene *scene = NULL;
    assert_int_equal(ipcc_scene_load(path, &scene), IPCC_ERR_INVALID_ARGUMENT);
    assert_null(scene);
    char expect[300];
    snprintf(expect, sizeof expect, "%s:4: script \"hang\" is not supported", path);
    if (!strstr(ipcc_last_error(), expect)) fail_msg("'%s' lacks '%s'", ipcc_last_error(), expect);
}

// A body that fails validation after a kinematic shape was moved into the
// scene: an error naming the shape, and (checked by sanitizer builds and
// fuzz_replay_ipc) nothing leaked. Found by fuzz_ipc.
static void error_after_an_obstacle(void **state) {
    (void)state;
    write_script("bad_body.txt", "stiffness 1e4 0.8\n"
                                 "shapes input 2\n"
                                 "input/triMeshes/triangle.obj 0 -1 0  0 0 0  2 2 2\n"
                                 "input/tetMeshes/tet.msh 0 0 0  0 0 0  1 1 1\n");
    char path[256];
    snprintf(path, sizeof path, "%s/bad_body.txt", dir);
    ipcc_scene *scene = NULL;
    assert_int_equal(ipcc_scene_load(path, &scene), IPCC_ERR_INVALID_ARGUMENT);
    assert_null(scene);
    char expect[400];
    snprintf(expect, sizeof expect,
             "%s:4: shape \"input/tetMeshes/tet.msh\": Poisson's ratio must be in [0, 0.5) (got 0.8)", path);
    if (!strstr(ipcc_last_error(), expect)) fail_msg("'%s' lacks '%s'", ipcc_last_error(), expect);
}

// d̂ and eps_v must be > 0: IPC has no "0 = default" (ipcc's world def has,
// and a -0 would convert to a JSON scene that does not load). Found by fuzz_ipc.
static void dhat_epsv_not_positive(void **state) {
    (void)state;
    static const struct {
        const char *line, *message;
    } cases[] = {
        {"dHat -0", "dHat/tuning: d̂ must be > 0 (got -0)"},
        {"dHat 0", "dHat/tuning: d̂ must be > 0 (got 0)"},
        {"dHat -1e-3", "dHat/tuning: d̂ must be > 0 (got -0.001)"},
        {"tuning 3\n0 1e-3 -0", "dHat/tuning: d̂ must be > 0 (got -0)"},
        {"epsv 0", "epsv/tuning: eps_v must be > 0 (got 0)"},
        {"tuning 6\n0 1e-3 1e-3 1e-9 1e-3 -0", "epsv/tuning: eps_v must be > 0 (got -0)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
        char text[256], path[256], expect[400];
        snprintf(text, sizeof text, "shapes input 1\ninput/tetMeshes/cube.msh 0 0 0  0 0 0  1 1 1\n%s\n",
                 cases[i].line);
        write_script("tuning.txt", text);
        snprintf(path, sizeof path, "%s/tuning.txt", dir);
        ipcc_scene *scene = NULL;
        assert_int_equal(ipcc_scene_load(path, &scene), IPCC_ERR_INVALID_ARGUMENT);
        assert_null(scene);
        snprintf(expect, sizeof expect, "%s: %s", path, cases[i].message);
        if (strcmp(ipcc_last_error(), expect) != 0) fail_msg("'%s' is not '%s'", ipcc_last_error(), expect);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unsupported_preset),
        cmocka_unit_test(error_after_an_obstacle),
        cmocka_unit_test(dhat_epsv_not_positive),
        cmocka_unit_test(stretch_and_pause),
        cmocka_unit_test(push_right_most),
        cmocka_unit_test(fix_lower_half),
        cmocka_unit_test(ball_hit_wall_and_fall_no_shift),
        cmocka_unit_test(seg_bed_squash),
        cmocka_unit_test(drag_right),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
