// Moving half-spaces (issue 20, item 3): a "half_space" with a velocity or
// an angular velocity is an analytic shape of kind IPCC_SHAPE_PLANE (its
// normal the local z axis), so it moves through the same clock, CCD
// (shape_ccd.c), friction and checkpoint paths as the other shapes.
//
// Every scene is parsed from JSON (the user's path: scene_obstacles.c routes
// the entry) and stepped at default solver settings. After every step, every
// body vertex must be strictly on the free side of the plane at the pose
// the plane has at that time, computed here from its definition (c0 + v t,
// exp(t [w]x) R0), not read back from the world; and no tet may be inverted.
// The physics:
//   - a block on a belt moving at 0.5 m/s with mu = 0.8 is carried at the
//     belt's speed (within 1 %); with mu = 0 it stays where it is;
//   - a floor rising at 1 m/s lifts a block resting on it to 1 m/s;
//   - a floor at 20 m/s (0.2 m per step, twice the block) hits a block
//     floating without gravity and throws it at the floor's speed or more;
//   - a ramp tilting at 0.5 rad/s about a horizontal axis keeps a block on
//     its free side, and its normal turns as exp(t [w]x) says;
//   - ipcc convert writes a moving half-space back as one, bit for bit.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/rotation.h"
#include "support.h"
#include "world_checks.h"

// A 0.1 m block of 2 x 2 x 2 cells resting 0.5 mm above y = 0, and one
// half-space entry `plane` (JSON).
static ipcc_world *block_scene(const char *plane, double mu, double gravity, ipcc_scene **scene) {
    char text[2048];
    snprintf(
        text, sizeof text,
        "{\"time_step\": 0.01, \"duration\": 1, \"gravity\": [0, %g, 0], \"contact\": {\"friction\": %g},"
        " \"materials\": {\"m\": {\"model\": \"neo_hookean\", \"density\": 1000, \"youngs_modulus\": 1e6,"
        " \"poisson_ratio\": 0.3}},"
        " \"bodies\": [{\"name\": \"block\", \"mesh\": {\"box\": {\"size\": [0.1, 0.1, 0.1], \"cells\": [2, "
        "2, 2]}},"
        " \"material\": \"m\", \"translation\": [-0.05, 0.0005, -0.05]}],"
        " \"obstacles\": [%s]}",
        gravity, mu, plane);
    ipcc_world *w = NULL;
    if (ipcc_scene_parse(text, "moving.json", NULL, scene) != IPCC_OK ||
        ipcc_scene_create_world(*scene, &w) != IPCC_OK || ipcc_world_start(w) != IPCC_OK)
        fail_msg("scene: %s", ipcc_last_error());
    assert_int_equal(ipcc_world_num_shapes(w), 1);
    assert_int_equal(ipcc_world_num_half_spaces(w), 0);
    assert_int_equal(ipcc_world_shape_def(w, 0)->kind, IPCC_SHAPE_PLANE);
    return w;
}

// The plane's point and normal at time t, from its definition.
static void plane_at(const ipcc_shape_def *d, double t, double point[3], double normal[3]) {
    double wt[3] = {d->angular_velocity[0] * t, d->angular_velocity[1] * t, d->angular_velocity[2] * t}, E[9],
           R[9];
    ipcc_rotation_vector(wt, E);
    ipcc_mat3_mul(E, d->rotation, R);
    for (int k = 0; k < 3; ++k) {
        point[k] = d->center[k] + d->velocity[k] * t;
        normal[k] = R[3 * k + 2];
    }
}

// Step n times; after each step every vertex strictly on the plane's free
// side and no inverted tet. Returns the smallest vertex distance seen.
static double run(ipcc_world *w, int n, const char *what) {
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    const ipcc_shape_def *d = ipcc_world_shape_def(w, 0);
    double dmin = INFINITY;
    for (int s = 0; s < n; ++s) {
        ipcc_step_stats st;
        if (ipcc_world_step(w, &st) < 0) fail_msg("%s: step %d: %s", what, s + 1, ipcc_last_error());
        if (!st.converged) fail_msg("%s: step %d did not converge", what, s + 1);
        double p[3], nn[3];
        plane_at(d, ipcc_world_time(w), p, nn);
        const double *x = ipcc_world_positions(w);
        for (int v = 0; v < ipcc_world_num_deformable_vertices(w); ++v) {
            double dist =
                (x[3 * v] - p[0]) * nn[0] + (x[3 * v + 1] - p[1]) * nn[1] + (x[3 * v + 2] - p[2]) * nn[2];
            if (!(dist > 0))
                fail_msg("%s: step %d: vertex %d is %g m behind the plane", what, s + 1, v, -dist);
            dmin = fmin(dmin, dist);
        }
        ipcc_test_assert_no_inversion(w);
    }
    return dmin;
}

static void test_belt_carries_or_leaves_a_block(void **state) {
    (void)state;
    const char *belt =
        "{\"type\": \"half_space\", \"name\": \"belt\", \"point\": [0, 0, 0], \"normal\": [0, 1, 0],"
        " \"velocity\": [0.5, 0, 0]}";
    for (int k = 0; k < 2; ++k) {
        const double mu = k == 0 ? 0.8 : 0.0;
        ipcc_scene *scene;
        ipcc_world *w = block_scene(belt, mu, -9.81, &scene);
        double dmin = run(w, 50, mu > 0 ? "belt, mu 0.8" : "belt, mu 0");
        double v[3];
        ipcc_test_mean_velocity(w, v);
        print_message("belt, mu = %g: block velocity (%.5f, %.5f, %.5f) m/s after 0.5 s; closest %.3g m\n",
                      mu, v[0], v[1], v[2], dmin);
        if (mu > 0)
            assert_true(fabs(v[0] - 0.5) < 0.005); // carried at the belt's speed, within 1 %
        else
            assert_true(fabs(v[0]) < 1e-6); // frictionless: the belt slides under it
        assert_true(fabs(v[1]) < 1e-3);
        ipcc_world_destroy(w);
        ipcc_scene_destroy(scene);
    }
}

static void test_rising_floor_lifts_a_block(void **state) {
    (void)state;
    ipcc_scene *scene;
    ipcc_world *w = block_scene("{\"type\": \"half_space\", \"point\": [0, 0, 0], \"velocity\": [0, 1, 0]}",
                                0.5, -9.81, &scene);
    double dmin = run(w, 40, "rising floor");
    double v[3];
    ipcc_test_mean_velocity(w, v);
    print_message("rising floor: block velocity (%.5f, %.5f, %.5f) m/s after 0.4 s; closest %.3g m\n", v[0],
                  v[1], v[2], dmin);
    assert_true(fabs(v[1] - 1) < 0.01);
    const double *x = ipcc_world_positions(w);
    double ymin = INFINITY;
    for (int i = 0; i < ipcc_world_num_deformable_vertices(w); ++i)
        ymin = fmin(ymin, x[3 * i + 1]);
    assert_true(ymin > 0.4 && ymin < 0.4 + 0.01); // resting on the floor, now at y = 0.4
    ipcc_world_destroy(w);
    ipcc_scene_destroy(scene);
}

static void test_fast_floor_throws_a_block(void **state) {
    (void)state;
    ipcc_scene *scene;
    // The floor starts 0.1 m below the block and covers 0.2 m per step.
    ipcc_world *w = block_scene(
        "{\"type\": \"half_space\", \"point\": [0, -0.1, 0], \"velocity\": [0, 20, 0]}", 0, 0, &scene);
    double dmin = run(w, 6, "floor at 20 m/s");
    double v[3];
    ipcc_test_mean_velocity(w, v);
    print_message("floor at 20 m/s: block velocity (%.4f, %.4f, %.4f) m/s; closest %.3g m\n", v[0], v[1],
                  v[2], dmin);
    assert_true(v[1] >= 20 * (1 - 1e-3)); // it moves with the floor, or faster (elastic rebound)
    ipcc_world_destroy(w);
    ipcc_scene_destroy(scene);
}

static void test_tilting_ramp(void **state) {
    (void)state;
    ipcc_scene *scene;
    ipcc_world *w =
        block_scene("{\"type\": \"half_space\", \"name\": \"ramp\", \"point\": [0, 0, 0], \"normal\":"
                    " [0, 1, 0], \"angular_velocity\": [0, 0, 0.5]}",
                    0.8, -9.81, &scene);
    run(w, 60, "tilting ramp");
    // The world's pose agrees with the definition's: normal (-sin 0.3, cos 0.3, 0) at t = 0.6 s.
    double c[3], R[9];
    ipcc_world_shape_pose(w, 0, c, R);
    assert_true(fabs(R[2] + sin(0.3)) < 1e-12 && fabs(R[5] - cos(0.3)) < 1e-12 && fabs(R[8]) < 1e-12);
    ipcc_world_destroy(w);
    ipcc_scene_destroy(scene);
}

static void test_convert_round_trip(void **state) {
    (void)state;
    ipcc_scene *scene, *again;
    ipcc_world *w =
        block_scene("{\"type\": \"half_space\", \"name\": \"belt\", \"point\": [0.1, -0.2, 0.2], \"normal\":"
                    " [0.1, 1, 0.3], \"velocity\": [0.5, 0, 0], \"angular_velocity\": [0, 0.1, 0],"
                    " \"friction\": 0.4}",
                    0.5, -9.81, &scene);
    char path[64];
    snprintf(path, sizeof path, "/tmp/ipcc_moving_half_space_%ld.json", (long)getpid());
    assert_int_equal(ipcc_scene_write_json(scene, path), IPCC_OK);
    assert_int_equal(ipcc_scene_load(path, &again), IPCC_OK);
    remove(path);
    assert_int_equal(again->num_shapes, 1);
    assert_int_equal(again->num_half_spaces, 0);
    const ipcc_shape_def *a = &scene->shapes[0], *b = &again->shapes[0];
    assert_int_equal(b->kind, IPCC_SHAPE_PLANE);
    assert_string_equal(b->name, "belt");
    assert_memory_equal(a->center, b->center, sizeof a->center);
    assert_memory_equal(a->rotation, b->rotation, sizeof a->rotation);
    assert_memory_equal(a->velocity, b->velocity, sizeof a->velocity);
    assert_memory_equal(a->angular_velocity, b->angular_velocity, sizeof a->angular_velocity);
    assert_true(b->friction == 0.4);
    ipcc_scene_destroy(again);
    ipcc_world_destroy(w);
    ipcc_scene_destroy(scene);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_belt_carries_or_leaves_a_block),
        cmocka_unit_test(test_rising_floor_lifts_a_block),
        cmocka_unit_test(test_fast_floor_throws_a_block),
        cmocka_unit_test(test_tilting_ramp),
        cmocka_unit_test(test_convert_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
