// Height-field terrain in scenes, through the public API at default solver
// settings (the shape itself: test_height_field.c):
//   - a block sliding down a ramp given as a height field (a linear grid)
//     keeps the speed of the same scene with the ramp as a half-space, within
//     1 %; after every step no body vertex is on or below the terrain (its
//     exact distance) and no tet is inverted;
//   - a soft ball rolling down the same ramp keeps the half-space's speed
//     within 1 % (and rolls: near (5/7) g sin(theta) t);
//   - a flat height field rising at 1 m/s carries a block up with it;
//   - on a bumpy downhill (bumps of 2 cm over cells of 0.1 m, everywhere
//     downhill along x) a frictionless block crosses many cell borders without
//     catching: its speed along the slope never drops by more than 1 %;
//   - "face_samples": true keeps a coarse block's faces out of bumps its
//     vertices alone let them dip into;
//   - scene errors name the key path, the file and the row: ragged rows, a
//     non-numeric cell, too few samples, a raw file of the wrong size, a
//     missing file; and a CSV grid, an inline grid and a raw grid of the same
//     numbers give the same shape; convert writes it back bit for bit.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shape/shape.h"
#include "shape_checks.h"
#include "support.h"
#include "world_checks.h"
#include "world/world_shapes.h"

#define PI 3.14159265358979323846

// Inline heights of a rows x cols grid (spacing sp, centre at the middle) of f(x, y).
static void grid_json(char *out, size_t len, int rows, int cols, double sp, double (*f)(double, double)) {
    size_t n = (size_t)snprintf(out, len, "[");
    for (int r = 0; r < rows; ++r) {
        n += (size_t)snprintf(out + n, len - n, "%s[", r ? ", " : "");
        for (int c = 0; c < cols; ++c) {
            double x = (c - (cols - 1) / 2.0) * sp, y = (r - (rows - 1) / 2.0) * sp;
            n += (size_t)snprintf(out + n, len - n, "%s%.17g", c ? ", " : "", f(x, y));
        }
        n += (size_t)snprintf(out + n, len - n, "]");
    }
    snprintf(out + n, len - n, "]");
}

static double ramp(double x, double y) {
    (void)y;
    return -0.5 * x;
}
static double bumps(double x, double y) {
    return -0.5 * x + 0.02 * sin(2 * PI * x / 0.3) * cos(2 * PI * y / 0.4);
}

// A 0.1 m block (2 x 2 x 2 cells) `gap` above the plane z = -0.5 x at x = x0, turned to lie on it.
static ipcc_world *slope_scene(const char *ground, double mu, double x0, double gap, ipcc_scene **scene) {
    const double L = 0.1, theta = atan(0.5), nn = sqrt(1.25);
    double n[3] = {0.5 / nn, 0, 1 / nn}, c[3] = {x0, 0, -0.5 * x0};
    for (int k = 0; k < 3; ++k)
        c[k] += (L / 2 + gap) * n[k];
    static char text[1 << 20];
    snprintf(
        text, sizeof text,
        "{\"time_step\": 0.01, \"duration\": 1, \"gravity\": [0, 0, -9.81], \"contact\": {\"friction\": %g},"
        " \"materials\": {\"m\": {\"model\": \"neo_hookean\", \"density\": 1000, \"youngs_modulus\": 1e6,"
        " \"poisson_ratio\": 0.3}},"
        " \"bodies\": [{\"name\": \"block\", \"mesh\": {\"box\": {\"size\": [0.1, 0.1, 0.1], \"cells\": [2, "
        "2, 2]}},"
        " \"material\": \"m\", \"rotation\": [0, %.17g, 0], \"translation\": [%.17g, %.17g, %.17g]}],"
        " \"obstacles\": [%s]}",
        mu, theta * 180 / PI, c[0] - L / 2, c[1] - L / 2, c[2] - L / 2, ground);
    ipcc_world *w = NULL;
    if (ipcc_scene_parse(text, "slope.json", NULL, scene) != IPCC_OK ||
        ipcc_scene_create_world(*scene, &w) != IPCC_OK || ipcc_world_start(w) != IPCC_OK)
        fail_msg("scene: %s", ipcc_last_error());
    return w;
}

// After a step: every vertex strictly above the terrain (shape 0, if any), no inverted tet.
static void check_state(const ipcc_world *w, int step) {
    if (ipcc_world_num_shapes(w) > 0) {
        ipcc_shape s = {.kind = IPCC_SHAPE_HEIGHT_FIELD, .field = ipcc_world_shape_field(w, 0)};
        ipcc_world_shape_pose(w, 0, s.center, s.rotation);
        const double *x = ipcc_world_positions(w);
        for (int v = 0; v < ipcc_world_num_deformable_vertices(w); ++v) {
            double d = ipcc_shape_distance(&s, x + 3 * v, NULL, NULL);
            if (!(d > 0)) fail_msg("step %d: vertex %d is %g m below the terrain", step, v, -d);
        }
    }
    ipcc_test_assert_no_inversion(w);
}

// Speed along the slope after n steps.
static double slide(ipcc_world *w, int n, bool monotone) {
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    double t[3] = {2 / sqrt(5), 0, -1 / sqrt(5)}, prev = 0;
    for (int s = 1; s <= n; ++s) {
        ipcc_step_stats st;
        if (ipcc_world_step(w, &st) < 0) fail_msg("step %d: %s", s, ipcc_last_error());
        check_state(w, s);
        double v[3];
        ipcc_test_mean_velocity(w, v);
        double along = v[0] * t[0] + v[1] * t[1] + v[2] * t[2];
        if (monotone && s > 5 && along < prev * 0.99)
            fail_msg("step %d: the speed along the slope dropped from %g to %g m/s (caught on a bump?)", s,
                     prev, along);
        prev = along;
    }
    return prev;
}

// The ramp z = -0.5 x as a height field (8 x 8 samples at 0.2 m) or as a half-space.
static const char *ramp_ground(bool height_field) {
    static char ground[1 << 16], heights[1 << 15];
    grid_json(heights, sizeof heights, 8, 8, 0.2, ramp);
    if (height_field)
        snprintf(ground, sizeof ground,
                 "{\"type\": \"height_field\", \"name\": \"ramp\", \"spacing\": 0.2, \"heights\": %s}",
                 heights);
    else
        snprintf(ground, sizeof ground,
                 "{\"type\": \"half_space\", \"point\": [0, 0, 0], \"normal\": [0.5, 0, 1]}");
    return ground;
}

static void test_ramp_height_field_matches_half_space(void **state) {
    (void)state;
    double speed[2];
    for (int k = 0; k < 2; ++k) {
        const char *ground = ramp_ground(k == 0);
        ipcc_scene *scene;
        ipcc_world *w = slope_scene(ground, 0.3, -0.3, 1e-3, &scene);
        speed[k] = slide(w, 40, false);
        ipcc_world_destroy(w);
        ipcc_scene_destroy(scene);
    }
    // a = g (sin - mu cos) = 1.755 m/s^2: about 0.70 m/s after 0.4 s.
    print_message("speed: height field %.6f m/s, half-space %.6f m/s\n", speed[0], speed[1]);
    assert_true(speed[1] > 0.6);
    assert_true(fabs(speed[0] - speed[1]) <= 0.01 * speed[1]);
}

// A soft ball (meshes/ball.msh, radius 0.1 m) resting on the plane z =
// -0.5 x, 1 mm above it, with friction 0.5 (rolling without slipping needs
// (2/7) tan = 0.14).
static ipcc_world *ball_scene(const char *ground, ipcc_scene **scene) {
    const double r = 0.1, nn = sqrt(1.25), x0 = -0.3, n[3] = {0.5 / nn, 0, 1 / nn};
    double c[3] = {x0, 0, -0.5 * x0};
    for (int k = 0; k < 3; ++k)
        c[k] += (r + 1e-3) * n[k];
    static char text[1 << 20];
    snprintf(
        text, sizeof text,
        "{\"time_step\": 0.01, \"duration\": 1, \"gravity\": [0, 0, -9.81], \"contact\": {\"friction\": 0.5},"
        " \"materials\": {\"m\": {\"model\": \"neo_hookean\", \"density\": 1000, \"youngs_modulus\": 1e6,"
        " \"poisson_ratio\": 0.4}},"
        " \"bodies\": [{\"name\": \"ball\", \"mesh\": \"%s/meshes/ball.msh\", \"material\": \"m\","
        " \"translation\": [%.17g, %.17g, %.17g]}], \"obstacles\": [%s]}",
        IPCC_SOURCE_DIR, c[0], c[1], c[2], ground);
    ipcc_world *w = NULL;
    if (ipcc_scene_parse(text, "ball.json", NULL, scene) != IPCC_OK ||
        ipcc_scene_create_world(*scene, &w) != IPCC_OK || ipcc_world_start(w) != IPCC_OK)
        fail_msg("scene: %s", ipcc_last_error());
    return w;
}

// The test: a soft ball rolling down the ramp as a height field keeps
// the speed of the same ball on the ramp as a half-space within 1 %, and
// both are near the rolling solid sphere's (5/7) g sin t.
static void test_ball_rolls_on_height_field_as_on_half_space(void **state) {
    (void)state;
    double speed[2];
    const int steps = 30;
    for (int k = 0; k < 2; ++k) {
        const char *ground = ramp_ground(k == 0);
        ipcc_scene *scene;
        ipcc_world *w = ball_scene(ground, &scene);
        speed[k] = slide(w, steps, false);
        ipcc_world_destroy(w);
        ipcc_scene_destroy(scene);
    }
    double rolling = 5.0 / 7.0 * 9.81 / sqrt(5) * steps * 0.01; // 0.94 m/s
    print_message("ball: height field %.6f m/s, half-space %.6f m/s, rolling solid sphere %.4f m/s\n",
                  speed[0], speed[1], rolling);
    assert_true(fabs(speed[0] - speed[1]) <= 0.01 * speed[1]);
    assert_true(fabs(speed[1] - rolling) <= 0.1 * rolling);
}

// A flat height field rising at 1 m/s under a block (friction 0.5, gravity
// -z) carries it: after 0.3 s the block's lowest vertex is on the terrain at
// z = 0.3, within d̂, and never below it (check_state).
static void test_rising_height_field_lifts_a_block(void **state) {
    (void)state;
    const char *text =
        "{\"time_step\": 0.01, \"duration\": 1, \"gravity\": [0, 0, -9.81], \"contact\": {\"friction\": 0.5},"
        " \"materials\": {\"m\": {\"model\": \"neo_hookean\", \"density\": 1000, \"youngs_modulus\": 1e6,"
        " \"poisson_ratio\": 0.3}},"
        " \"bodies\": [{\"name\": \"block\", \"mesh\": {\"box\": {\"size\": [0.1, 0.1, 0.1], \"cells\": [2, "
        "2, 2]}},"
        " \"material\": \"m\", \"translation\": [-0.05, -0.05, 0.001]}],"
        " \"obstacles\": [{\"type\": \"height_field\", \"name\": \"lift\", \"spacing\": 0.1, \"velocity\": "
        "[0, 0, 1],"
        " \"heights\": [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]}]}";
    ipcc_scene *scene = NULL;
    ipcc_world *w = NULL;
    if (ipcc_scene_parse(text, "rising.json", NULL, &scene) != IPCC_OK ||
        ipcc_scene_create_world(scene, &w) != IPCC_OK || ipcc_world_start(w) != IPCC_OK)
        fail_msg("scene: %s", ipcc_last_error());
    slide(w, 30, false);
    const double *x = ipcc_world_positions(w);
    double low = INFINITY;
    for (int v = 0; v < ipcc_world_num_deformable_vertices(w); ++v)
        low = fmin(low, x[3 * v + 2]);
    print_message("rising terrain: lowest block vertex at z = %.6f after 0.3 s (terrain at 0.3)\n", low);
    assert_true(low > 0.3 && low < 0.3 + ipcc_world_dhat(w));
    ipcc_world_destroy(w);
    ipcc_scene_destroy(scene);
}

static void test_bumpy_downhill_does_not_catch(void **state) {
    (void)state;
    static char ground[1 << 16], heights[1 << 15];
    grid_json(heights, sizeof heights, 12, 16, 0.1, bumps);
    snprintf(ground, sizeof ground,
             "{\"type\": \"height_field\", \"name\": \"bumps\", \"spacing\": 0.1, \"heights\": %s}", heights);
    ipcc_scene *scene;
    ipcc_world *w = slope_scene(ground, 0, -0.55, 0.03, &scene);
    double v = slide(w, 35, true);
    print_message("bumps: %.4f m/s after 0.35 s\n", v);
    assert_true(v > 1.0);
    ipcc_world_destroy(w);
    ipcc_scene_destroy(scene);
}

// "face_samples": true on a height field: the 0.1 m block of 5 cm cells
// sliding down the bumps (least radius of curvature about 0.11 m, d̂ =
// 0.17 mm) dips into them between its vertices by the sagitta without
// samples (measured 2 mm, 10 d̂), and no deeper than the samples' sag with
// them (12 subdivisions: at most about 0.3 d̂; measured: the faces stay above
// the terrain; no CCD bound for a height field's whole faces, README Limits).
static void test_face_samples_on_bumps(void **state) {
    (void)state;
    static char ground[1 << 16], heights[1 << 15];
    grid_json(heights, sizeof heights, 12, 16, 0.1, bumps);
    double deepest[2], dhat = 0;
    for (int on = 0; on < 2; ++on) {
        snprintf(ground, sizeof ground,
                 "{\"type\": \"height_field\", \"name\": \"bumps\", \"spacing\": 0.1, \"heights\": %s%s}",
                 heights, on ? ", \"face_samples\": true" : "");
        ipcc_scene *scene;
        ipcc_world *w = slope_scene(ground, 0, -0.55, 0.03, &scene);
        if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
        deepest[on] = -INFINITY;
        for (int s = 1; s <= 35; ++s) {
            ipcc_step_stats st;
            if (ipcc_world_step(w, &st) < 0) fail_msg("step %d: %s", s, ipcc_last_error());
            check_state(w, s);
            ipcc_shape terrain = ipcc_test_shape_now(w, 0);
            deepest[on] = fmax(deepest[on], -ipcc_test_least_grid_distance(w, &terrain, 8));
        }
        print_message("face samples %s: deepest face point %.3g m below the bumps (d̂ = %.3g m)\n",
                      on ? "on" : "off", deepest[on], ipcc_world_dhat(w));
        dhat = ipcc_world_dhat(w);
        ipcc_world_destroy(w);
        ipcc_scene_destroy(scene);
    }
    assert_true(deepest[0] > 3 * dhat);   // vertices only: about 10 d̂ (2 mm)
    assert_true(deepest[1] < 0.5 * dhat); // samples: above the bumps
}

// ------------------------------------------------------------------ scene errors

static char dir[256];

static void write_text(const char *name, const char *text) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    ipcc_test_write_text(path, text);
}

// Parse a scene with one height field entry; returns the status, the message in msg.
static ipcc_status parse_entry(const char *entry, ipcc_scene **out) {
    char text[4096];
    snprintf(text, sizeof text,
             "{\"duration\": 1, \"bodies\": [{\"mesh\": {\"box\": {\"size\": [1, 1, 1]}}, \"material\": {},"
             " \"translation\": [0, 0, 2]}], \"obstacles\": [%s]}",
             entry);
    return ipcc_scene_parse(text, "t.json", dir, out);
}

static void expect_error(const char *entry, const char *a, const char *b) {
    ipcc_scene *s = NULL;
    ipcc_status st = parse_entry(entry, &s);
    ipcc_scene_destroy(s);
    if (st == IPCC_OK) fail_msg("accepted: %s", entry);
    const char *m = ipcc_last_error();
    if (!strstr(m, a) || (b && !strstr(m, b))) fail_msg("message '%s' lacks '%s' / '%s'", m, a, b ? b : "");
}

static void test_scene_errors_and_sources(void **state) {
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/ipcc_hf_%d", (int)getpid());
    char cmd[300];
    snprintf(cmd, sizeof cmd, "mkdir -p %s", dir);
    assert_int_equal(system(cmd), 0);
    write_text("good.csv", "# a ramp\n0, 0.1, 0.2, 0.3\n0,0.1,0.2,0.3\n\n0 0.1 0.2 0.3\n0, 0.1, 0.2, 0.25\n");
    write_text("ragged.csv", "0,0,0,0\n0,0,0\n0,0,0,0\n0,0,0,0\n");
    write_text("nan.csv", "0,0,0,0\n0,0,0,0\n0,abc,0,0\n0,0,0,0\n");
    write_text("small.csv", "0,0,0,0\n0,0,0,0\n0,0,0,0\n");
    double raw[16] = {0, 0.1, 0.2, 0.3, 0, 0.1, 0.2, 0.3, 0, 0.1, 0.2, 0.3, 0, 0.1, 0.2, 0.25};
    char path[512];
    snprintf(path, sizeof path, "%s/good.f64", dir);
    ipcc_test_write_file(path, raw, sizeof raw); // the test machine is little-endian (x86, arm64)
    expect_error("{\"type\": \"height_field\", \"spacing\": 1, \"path\": \"ragged.csv\"}",
                 "obstacles[0].path", "ragged.csv:2: row 1 has 3 values, the first row has 4");
    expect_error("{\"type\": \"height_field\", \"spacing\": 1, \"path\": \"nan.csv\"}",
                 "nan.csv:3: row 2, column 1", "'abc' is not a finite number");
    expect_error("{\"type\": \"height_field\", \"spacing\": 1, \"path\": \"small.csv\"}", "small.csv",
                 "at least 4 x 4 samples (got 3 rows x 4 columns)");
    expect_error("{\"type\": \"height_field\", \"spacing\": 1, \"path\": \"missing.csv\"}",
                 "obstacles[0].path", "missing.csv: cannot open");
    expect_error("{\"type\": \"height_field\", \"spacing\": 1, \"raw\": {\"path\": \"good.f64\", \"rows\": "
                 "4, \"cols\": 5}}",
                 "obstacles[0].raw", "holds 128 bytes, but 4 rows x 5 columns of float64 need 160");
    expect_error(
        "{\"type\": \"height_field\", \"spacing\": 1, \"heights\": [[0,0,0,0],[0,0,0,0],[0,0,0],[0,0,0,0]]}",
        "obstacles[0].heights[2]", "has 3 values, row 0 has 4");
    expect_error("{\"type\": \"height_field\", \"spacing\": 1, \"heights\": "
                 "[[0,0,0,0],[0,0,0,0],[0,0,\"x\",0],[0,0,0,0]]}",
                 "obstacles[0].heights[2][2]", "must be a number");
    expect_error("{\"type\": \"height_field\", \"spacing\": 0, \"path\": \"good.csv\"}",
                 "obstacles[0].spacing", NULL);
    expect_error("{\"type\": \"height_field\", \"path\": \"good.csv\"}", "obstacles[0].spacing", "missing");
    expect_error("{\"type\": \"height_field\", \"spacing\": 1}", "obstacles[0]", "exactly one of");
    // The same grid three ways.
    const char *ways[3] = {
        "{\"type\": \"height_field\", \"spacing\": [1, 2], \"path\": \"good.csv\", \"center\": [1, 2, 3]}",
        "{\"type\": \"height_field\", \"spacing\": [1, 2], \"raw\": {\"path\": \"good.f64\", \"rows\": 4, "
        "\"cols\": 4},"
        " \"origin\": [1, 2, 3]}",
        "{\"type\": \"height_field\", \"spacing\": [1, 2], \"heights\": [[0, 0.1, 0.2, 0.3], [0, 0.1, 0.2, "
        "0.3], [0, "
        "0.1, 0.2, 0.3], [0, 0.1, 0.2, 0.25]], \"center\": [1, 2, 3]}"};
    for (int k = 0; k < 3; ++k) {
        ipcc_scene *s = NULL;
        if (parse_entry(ways[k], &s) != IPCC_OK) fail_msg("%s", ipcc_last_error());
        assert_int_equal(s->num_shapes, 1);
        const ipcc_shape_def *d = &s->shapes[0];
        assert_int_equal(d->kind, IPCC_SHAPE_HEIGHT_FIELD);
        assert_int_equal(d->rows, 4);
        assert_int_equal(d->cols, 4);
        assert_true(d->spacing[0] == 1 && d->spacing[1] == 2 && d->center[2] == 3);
        assert_memory_equal(d->heights, raw, sizeof raw);
        // Convert: written back (inline) and read again bit for bit.
        char out[600];
        snprintf(out, sizeof out, "%s/round%d.json", dir, k);
        assert_int_equal(ipcc_scene_write_json(s, out), IPCC_OK);
        ipcc_scene *t = NULL;
        if (ipcc_scene_load(out, &t) != IPCC_OK) fail_msg("%s", ipcc_last_error());
        const ipcc_shape_def *e = &t->shapes[0];
        assert_int_equal(e->rows, 4);
        assert_memory_equal(e->heights, raw, sizeof raw);
        assert_memory_equal(e->spacing, d->spacing, sizeof d->spacing);
        assert_memory_equal(e->center, d->center, sizeof d->center);
        ipcc_world *w = NULL;
        if (ipcc_scene_create_world(t, &w) != IPCC_OK) fail_msg("%s", ipcc_last_error());
        ipcc_world_destroy(w);
        ipcc_scene_destroy(t);
        ipcc_scene_destroy(s);
    }
    ipcc_test_remove_tree(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scene_errors_and_sources),
        cmocka_unit_test(test_ramp_height_field_matches_half_space),
        cmocka_unit_test(test_bumpy_downhill_does_not_catch),
        cmocka_unit_test(test_face_samples_on_bumps),
        cmocka_unit_test(test_ball_rolls_on_height_field_as_on_half_space),
        cmocka_unit_test(test_rising_height_field_lifts_a_block),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
