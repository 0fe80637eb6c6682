// Contact scenes end to end (the example scenes, loaded from examples/):
// every frame is checked for exact intersection-freedom (exact predicates,
// tests/support/exact_intersection.c), inversion, and a positive minimum
// distance; then each scene's own physics.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "support.h"
#include "world_checks.h"

typedef struct run_result {
    int steps;
    int max_contacts;
    double min_distance; ///< over all steps
    double max_ccd_share;
} run_result;

// Load a scene (from examples/ or from text), run `steps` steps (all of the
// duration if <= 0), checking the invariants after every step.
static ipcc_world *run_scene(const char *path, const char *text, int steps, run_result *rr,
                             void (*per_step)(ipcc_world *w, int step, void *ctx), void *ctx) {
    ipcc_scene *scene = NULL;
    ipcc_status st;
    if (path) {
        char full[1024];
        snprintf(full, sizeof full, "%s/%s", IPCC_SOURCE_DIR, path);
        st = ipcc_scene_load(full, &scene);
    } else {
        st = ipcc_scene_parse(text, "<test>", IPCC_SOURCE_DIR "/examples", &scene);
    }
    if (st != IPCC_OK) fail_msg("scene: %s", ipcc_last_error());
    ipcc_world *w = NULL;
    st = ipcc_scene_create_world(scene, &w);
    if (st != IPCC_OK) fail_msg("world: %s", ipcc_last_error());
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    if (steps <= 0) steps = (int)lround(scene->duration / scene->world.time_step);
    ipcc_scene_destroy(scene);
    memset(rr, 0, sizeof *rr);
    rr->min_distance = INFINITY;
    char label[64];
    for (int s = 0; s < steps; ++s) {
        ipcc_step_stats stats;
        st = ipcc_world_step(w, &stats);
        if (st < 0) fail_msg("step %d: %s", s + 1, ipcc_last_error());
        snprintf(label, sizeof label, "%s step %d", path ? path : "scene", s + 1);
        ipcc_test_assert_intersection_free(w, label);
        ipcc_test_assert_no_inversion(w);
        assert_true(stats.min_distance > 0);
        rr->min_distance = fmin(rr->min_distance, stats.min_distance);
        if (stats.num_contacts > rr->max_contacts) rr->max_contacts = stats.num_contacts;
        rr->steps++;
        if (per_step) per_step(w, s + 1, ctx);
    }
    return w;
}

static void body_centroid(const ipcc_world *w, int b, double c[3]) {
    int first, count;
    ipcc_world_body_vertices(w, b, &first, &count);
    const double *x = ipcc_world_positions(w);
    c[0] = c[1] = c[2] = 0;
    for (int i = first; i < first + count; ++i)
        for (int k = 0; k < 3; ++k)
            c[k] += x[3 * i + k] / count;
}

static double max_speed(const ipcc_world *w) {
    const double *v = ipcc_world_velocities(w);
    double m = 0;
    for (int i = 0; i < ipcc_world_num_deformable_vertices(w); ++i)
        m = fmax(m, sqrt(v[3 * i] * v[3 * i] + v[3 * i + 1] * v[3 * i + 1] + v[3 * i + 2] * v[3 * i + 2]));
    return m;
}

// 1. Two cubes fall on the ground and on each other and come to rest.
static void test_cubes_come_to_rest(void **state) {
    (void)state;
    run_result rr;
    ipcc_world *w = run_scene("examples/contact_cubes.json", NULL, 0, &rr, NULL, NULL);
    assert_true(rr.max_contacts > 0);
    double lower[3], upper[3];
    body_centroid(w, 0, lower);
    body_centroid(w, 1, upper);
    print_message("cubes: lower centre (%.4f %.4f %.4f), upper centre (%.4f %.4f %.4f)\n", lower[0], lower[1],
                  lower[2], upper[0], upper[1], upper[2]);
    // Resting: the lower cube on the ground, the upper one on it (without
    // friction the impact leaves a small lateral drift: the meshes are not
    // symmetric).
    assert_true(lower[1] > 0.09 && lower[1] < 0.11);
    assert_true(upper[1] > lower[1] + 0.13 && upper[1] < lower[1] + 0.16 &&
                fabs(upper[0] - lower[0]) < 0.08 && fabs(upper[2] - lower[2]) < 0.08);
    print_message("cubes: max speed at rest %.3g m/s, min distance %.3g m, max contacts %d\n", max_speed(w),
                  rr.min_distance, rr.max_contacts);
    assert_true(max_speed(w) < 1e-3);
    ipcc_world_destroy(w);
}

// 2. A ball at 30 m/s hits a thin pinned mat: it must not tunnel through.
// After every step, every ball vertex must lie over the mat's upper surface
// (its boundary triangles whose vertices were all at the top at rest) and
// above it: above the highest of those triangles that the vertex's vertical
// line crosses. The ball must also come within d-hat of that surface and
// push the mat down, so the check ran at contact.
typedef struct ball_ctx {
    int num_top;       ///< the mat's upper faces
    int top[3 * 2000]; ///< their vertices
    double min_gap;    ///< over all steps and ball vertices: vertex y - upper surface y below it
    double ball_min_y; ///< lowest ball centroid
    double mat_min_y;  ///< lowest mat vertex
} ball_ctx;

// Height of the mat's upper surface at (px, pz): the highest upper face
// whose x-z projection contains the point; -inf if none does.
static double mat_top_height(const ball_ctx *b, const double *x, double px, double pz) {
    double best = -INFINITY;
    for (int f = 0; f < b->num_top; ++f) {
        const double *p0 = x + 3 * b->top[3 * f], *p1 = x + 3 * b->top[3 * f + 1],
                     *p2 = x + 3 * b->top[3 * f + 2];
        double det = (p1[2] - p2[2]) * (p0[0] - p2[0]) + (p2[0] - p1[0]) * (p0[2] - p2[2]);
        if (det == 0) continue; // seen edge-on from above
        double l0 = ((p1[2] - p2[2]) * (px - p2[0]) + (p2[0] - p1[0]) * (pz - p2[2])) / det;
        double l1 = ((p2[2] - p0[2]) * (px - p2[0]) + (p0[0] - p2[0]) * (pz - p2[2])) / det;
        double l2 = 1 - l0 - l1, tol = -1e-12;
        if (l0 >= tol && l1 >= tol && l2 >= tol) best = fmax(best, l0 * p0[1] + l1 * p1[1] + l2 * p2[1]);
    }
    return best;
}

static void ball_step(ipcc_world *w, int step, void *ctx) {
    ball_ctx *b = ctx;
    const double *x = ipcc_world_positions(w);
    int mf, mc, bf, bc;
    ipcc_world_body_vertices(w, 0, &mf, &mc);
    ipcc_world_body_vertices(w, 1, &bf, &bc);
    for (int i = bf; i < bf + bc; ++i) {
        double top = mat_top_height(b, x, x[3 * i], x[3 * i + 2]);
        if (top == -INFINITY)
            fail_msg("step %d: ball vertex %d at x = %g, z = %g is not over the mat", step, i - bf, x[3 * i],
                     x[3 * i + 2]);
        double gap = x[3 * i + 1] - top;
        if (!(gap > 0))
            fail_msg(
                "step %d: ball vertex %d is %.3g m below the mat's upper surface (y = %g, surface y = %g)",
                step, i - bf, -gap, x[3 * i + 1], top);
        b->min_gap = fmin(b->min_gap, gap);
    }
    for (int j = mf; j < mf + mc; ++j)
        b->mat_min_y = fmin(b->mat_min_y, x[3 * j + 1]);
    double c[3];
    body_centroid(w, 1, c);
    b->ball_min_y = fmin(b->ball_min_y, c[1]);
}

static void test_ball_does_not_tunnel(void **state) {
    (void)state;
    // The mat's upper faces, from a world at rest (the same scene).
    ball_ctx b = {.min_gap = INFINITY, .ball_min_y = INFINITY, .mat_min_y = INFINITY};
    ipcc_scene *scene = NULL;
    assert_int_equal(ipcc_scene_load(IPCC_SOURCE_DIR "/examples/ball_mat.json", &scene), IPCC_OK);
    ipcc_world *w0 = NULL;
    assert_int_equal(ipcc_scene_create_world(scene, &w0), IPCC_OK);
    ipcc_scene_destroy(scene);
    assert_string_equal(ipcc_world_body_name(w0, 0), "mat");
    int mf, mc, nf;
    const int *faces;
    ipcc_world_body_vertices(w0, 0, &mf, &mc);
    ipcc_world_body_surface(w0, 0, &nf, &faces);
    const double *rest = ipcc_world_rest_positions(w0);
    double top_y = -INFINITY;
    for (int j = mf; j < mf + mc; ++j)
        top_y = fmax(top_y, rest[3 * j + 1]);
    for (int f = 0; f < nf; ++f)
        if (rest[3 * faces[3 * f] + 1] == top_y && rest[3 * faces[3 * f + 1] + 1] == top_y &&
            rest[3 * faces[3 * f + 2] + 1] == top_y) {
            assert_true(b.num_top < 2000);
            memcpy(b.top + 3 * b.num_top++, faces + 3 * f, 3 * sizeof(int));
        }
    assert_int_equal(b.num_top, 2 * 20 * 20); // the 20 x 20 cells, two triangles each
    ipcc_world_destroy(w0);

    run_result rr;
    ipcc_world *w = run_scene("examples/ball_mat.json", NULL, 0, &rr, ball_step, &b);
    assert_true(rr.max_contacts > 0);
    print_message("ball: lowest centre %.4f m, lowest mat vertex %.4f m, smallest gap to the mat %.3g m, min "
                  "distance %.3g m, max contacts %d\n",
                  b.ball_min_y, b.mat_min_y, b.min_gap, rr.min_distance, rr.max_contacts);
    // The ball reached the mat (the check above ran at contact) and pushed it down.
    assert_true(b.min_gap < ipcc_world_dhat(w));
    assert_true(b.mat_min_y < top_y - 0.1 && b.ball_min_y < top_y);
    ipcc_world_destroy(w);
}

// 3. A mat twisted until it wraps onto itself (a 16 x 16 version of
// examples/mat_twist.json, so it fits in CI; the 40 x 40 one is labelled slow).
static const char *small_twist =
    "{\"time_step\": 0.04, \"duration\": 2.4, \"gravity\": [0, 0, 0],"
    " \"materials\": {\"r\": {\"model\": \"neo_hookean\", \"density\": 1000, \"youngs_modulus\": 2e4,"
    " \"poisson_ratio\": 0.4}},"
    " \"bodies\": [{\"name\": \"mat\", \"mesh\": {\"box\": {\"size\": [1.0, 0.04, 1.0], \"cells\": [16, 1, "
    "16]}},"
    " \"material\": \"r\", \"dirichlet\": ["
    "  {\"min\": [-0.01, -0.01, -0.01], \"max\": [0.01, 1.01, 1.01], \"angular_velocity\": [2, 0, 0]},"
    "  {\"min\": [0.99, -0.01, -0.01], \"max\": [1.01, 1.01, 1.01], \"angular_velocity\": [-2, 0, 0]}]}]}";

static void test_mat_twist_self_contact(void **state) {
    (void)state;
    run_result rr;
    ipcc_world *w = run_scene(NULL, small_twist, 0, &rr, NULL, NULL);
    print_message("small twist: max contacts %d, min distance %.3g m\n", rr.max_contacts, rr.min_distance);
    assert_true(rr.max_contacts > 50); // the mat is wrapped onto itself
    ipcc_world_destroy(w);
}

// 4. A body pushed by a moving OBJ obstacle.
static void test_obstacle_pushes_cube(void **state) {
    (void)state;
    run_result rr;
    ipcc_world *w = run_scene("examples/obstacle_push.json", NULL, 0, &rr, NULL, NULL);
    assert_true(rr.max_contacts > 0);
    double c[3];
    body_centroid(w, 0, c);
    // The pusher's front face starts at x = -0.05 and moves 0.5 m; the cube
    // (centre x = 0.1 at rest) must have been pushed ahead of it.
    double front = -0.05 + 0.5 * ipcc_world_time(w);
    print_message("push: cube centre x %.4f m, pusher front %.4f m\n", c[0], front);
    assert_true(c[0] > front + 0.1 - 0.01);
    ipcc_world_destroy(w);
}

// 5. A large time step (h = 0.1 s) stays intersection-free.
static void test_large_time_step(void **state) {
    (void)state;
    run_result rr;
    ipcc_world *w = run_scene("examples/large_step.json", NULL, 0, &rr, NULL, NULL);
    assert_true(rr.max_contacts > 0);
    double lower[3], upper[3];
    body_centroid(w, 0, lower);
    body_centroid(w, 1, upper);
    assert_true(upper[1] > lower[1]);
    ipcc_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cubes_come_to_rest),     cmocka_unit_test(test_ball_does_not_tunnel),
        cmocka_unit_test(test_mat_twist_self_contact), cmocka_unit_test(test_obstacle_pushes_cube),
        cmocka_unit_test(test_large_time_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
