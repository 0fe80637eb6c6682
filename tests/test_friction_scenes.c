// Friction against analytic physics (Coulomb): a block on an incline sticks
// or slides with g (sin t - mu cos t), a sliding block stops after
// v0^2 / (2 mu g), a cube on a moving cube follows it or not; at h = 0.01
// and h = 0.04. Every step is checked for exact intersection-freedom.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "barrier.h"
#include "support.h"
#include "world_checks.h"

static const double g0 = 9.81;

typedef struct block_run {
    double c0[3], c1[3]; ///< block centroid at t = 0 and at the end
    double v1[3];        ///< block mean velocity at the end
    double dissipation;  ///< friction work summed over the steps, J
    int friction_passes;
} block_run;

static void centroid(const ipcc_world *w, int body, double c[3], double v[3]) {
    int first, count;
    ipcc_world_body_vertices(w, body, &first, &count);
    const double *x = ipcc_world_positions(w), *vel = ipcc_world_velocities(w);
    for (int k = 0; k < 3; ++k)
        c[k] = v[k] = 0;
    for (int i = first; i < first + count; ++i)
        for (int k = 0; k < 3; ++k) {
            c[k] += x[3 * i + k] / count;
            v[k] += vel[3 * i + k] / count;
        }
}

// Run a scene given as JSON text for `steps` steps (all if <= 0), checking
// intersections every step; report body `body`'s motion.
static void run_text(const char *text, int body, int steps, block_run *out) {
    ipcc_scene *scene = NULL;
    if (ipcc_scene_parse(text, "<friction test>", NULL, &scene) != IPCC_OK) fail_msg("%s", ipcc_last_error());
    ipcc_world *w = NULL;
    if (ipcc_scene_create_world(scene, &w) != IPCC_OK) fail_msg("%s", ipcc_last_error());
    if (steps <= 0) steps = (int)lround(scene->duration / scene->world.time_step);
    ipcc_scene_destroy(scene);
    double v[3];
    centroid(w, body, out->c0, v);
    out->dissipation = 0;
    out->friction_passes = 0;
    char label[48];
    for (int s = 1; s <= steps; ++s) {
        ipcc_step_stats st;
        if (ipcc_world_step(w, &st) < 0) fail_msg("step %d: %s", s, ipcc_last_error());
        snprintf(label, sizeof label, "step %d", s);
        ipcc_test_assert_intersection_free(w, label);
        out->dissipation += st.friction_dissipation;
        out->friction_passes += st.friction_iterations;
    }
    centroid(w, body, out->c1, out->v1);
    ipcc_world_destroy(w);
}

// A 0.1 m stiff block (1 kg) resting on the half-space through the origin
// with slope atan(0.5) (downhill is -x). It must start AT REST IN CONTACT:
// a block released above the plane falls, and slides while it falls (no
// normal force, no friction), which is physics, not a sticking failure. So
// kappa is fixed and the gap is the barrier's equilibrium: the 9 bottom
// vertices each carry a ninth of the weight's normal part,
//   9 kappa |b'(d0^2)| 2 d0 / h^2 = m g cos(theta)   (barrier.c, friction.c),
// solved here for kappa at d0 = 0.2 d̂.
static void incline_scene(char *buf, size_t size, double mu, double h, double duration) {
    double th = atan(0.5), n[3] = {-sin(th), cos(th), 0}, half = 0.05, dhat = 1e-4, gap = 0.2 * dhat;
    double kappa = 1.0 * g0 * cos(th) * h * h /
                   (9 * fabs(ipcc_barrier_first_derivative(gap * gap, dhat * dhat)) * 2 * gap);
    double c[3] = {n[0] * (half + gap), n[1] * (half + gap), 0};
    snprintf(
        buf, size,
        "{\"time_step\": %.17g, \"duration\": %.17g, \"gravity\": [0, -9.81, 0],"
        " \"newton\": {\"tolerance\": 1e-5},"
        " \"contact\": {\"dhat\": %.17g, \"kappa\": %.17g, \"friction_epsv\": 1e-5, \"friction_iterations\": "
        "-1},"
        " \"bodies\": [{\"name\": \"block\", \"mesh\": {\"box\": {\"size\": [0.1, 0.1, 0.1], \"cells\": [2, "
        "2, "
        "2]}},"
        "  \"material\": {\"model\": \"neo_hookean\", \"density\": 1000, \"youngs_modulus\": 1e8, "
        "\"poisson_ratio\": 0.3},"
        "  \"rotation\": [0, 0, %.17g], \"translation\": [%.17g, %.17g, %.17g], \"friction\": %.17g}],"
        " \"obstacles\": [{\"type\": \"half_space\", \"point\": [0, 0, 0], \"normal\": [%.17g, %.17g, 0],"
        " \"friction\": %.17g}]}",
        h, duration, dhat, kappa, th * 180 / 3.14159265358979323846, c[0] - half, c[1] - half, -half, mu,
        n[0], n[1], mu);
}

// Speed along the slope (downhill positive) of the block's mean velocity.
static double downhill_speed(const double v[3]) {
    double th = atan(0.5);
    return -(v[0] * cos(th) + v[1] * sin(th));
}

static void check_incline(double h) {
    char text[2048];
    double th = atan(0.5);
    block_run r;
    // mu = 0.6 > tan(theta): sticks.
    incline_scene(text, sizeof text, 0.6, h, 1.0);
    run_text(text, 0, 0, &r);
    // Slip is motion along the slope (the normal part is the block settling
    // by its elastic compression and the barrier's equilibrium).
    double d[3] = {r.c1[0] - r.c0[0], r.c1[1] - r.c0[1], r.c1[2] - r.c0[2]};
    double slip = -(d[0] * cos(th) + d[1] * sin(th)), settle = -(-d[0] * sin(th) + d[1] * cos(th));
    print_message(
        "incline h=%.2f mu=0.6: slid %.3g m down the slope in 1 s (%.3g of the size; settled %.3g m "
        "onto the plane)\n",
        h, slip, slip / 0.1, settle);
    assert_true(fabs(slip) < 1e-3 * 0.1 && fabs(d[2]) < 1e-3 * 0.1);
    // mu = 0.3: slides with a = g (sin - mu cos). Euler's velocity after
    // constant acceleration is exact: v(1 s) = a * 1 s.
    incline_scene(text, sizeof text, 0.3, h, 1.0);
    run_text(text, 0, 0, &r);
    double a = downhill_speed(r.v1) / 1.0, a_ref = g0 * (sin(th) - 0.3 * cos(th));
    print_message("incline h=%.2f mu=0.3: a = %.5f m/s^2 (Coulomb %.5f, error %.2f %%)\n", h, a, a_ref,
                  100 * (a - a_ref) / a_ref);
    assert_near(a, a_ref, 0, 0.02);
    // mu = 0: a = g sin.
    incline_scene(text, sizeof text, 0.0, h, 1.0);
    run_text(text, 0, 0, &r);
    a = downhill_speed(r.v1);
    a_ref = g0 * sin(th);
    print_message("incline h=%.2f mu=0: a = %.5f m/s^2 (g sin %.5f, error %.2f %%)\n", h, a, a_ref,
                  100 * (a - a_ref) / a_ref);
    assert_near(a, a_ref, 0, 0.01);
}

static void test_incline_h001(void **state) {
    (void)state;
    check_incline(0.01);
}
static void test_incline_h004(void **state) {
    (void)state;
    check_incline(0.04);
}

// A block slides on flat ground at v0 = 8 m/s with mu = 0.4: it stops after
// v0^2 / (2 mu g) = 8.155 m. Implicit Euler's velocity is exact under a
// constant deceleration a = mu g, but its positions sum the end-of-step
// velocities, so the discrete stop comes h v0 / 2 early: a relative error of
// h a / v0 (0.5 % at h = 0.01, 2 % at h = 0.04 with this v0; 16 % at
// h = 0.04 if v0 were 1 m/s). The friction force itself is checked exactly
// in the stats (mu times the normal force).
static void check_slide_to_stop(double h) {
    char text[2048];
    snprintf(text, sizeof text,
             "{\"time_step\": %.17g, \"duration\": 2.2, \"gravity\": [0, -9.81, 0],"
             " \"newton\": {\"tolerance\": 1e-5}, \"contact\": {\"dhat\": 1e-3, \"friction_epsv\": 1e-5, "
             "\"friction_iterations\": -1},"
             " \"bodies\": [{\"name\": \"block\", \"mesh\": {\"box\": {\"size\": [0.1, 0.1, 0.1], \"cells\": "
             "[2, 2, "
             "2]}},"
             "  \"material\": {\"model\": \"neo_hookean\", \"density\": 1000, \"youngs_modulus\": 1e8, "
             "\"poisson_ratio\": 0.3},"
             "  \"translation\": [0, 1e-4, 0], \"velocity\": [8, 0, 0], \"friction\": 0.4}],"
             " \"obstacles\": [{\"type\": \"half_space\", \"point\": [0, 0, 0], \"normal\": [0, 1, 0], "
             "\"friction\": 0.4}]}",
             h);
    block_run r;
    run_text(text, 0, 0, &r);
    double dist = r.c1[0] - r.c0[0], ref = 64.0 / (2 * 0.4 * g0);
    print_message(
        "slide h=%.2f: stopped after %.5f m (v0^2/(2 mu g) = %.5f, error %.2f %%), final speed %.2e m/s,"
        " friction work %.4f J (kinetic energy 32 J)\n",
        h, dist, ref, 100 * (dist - ref) / ref, fabs(r.v1[0]), r.dissipation);
    assert_near(dist, ref, 0, 0.03);
    assert_true(fabs(r.v1[0]) < 1e-2);
}

static void test_slide_to_stop_h001(void **state) {
    (void)state;
    check_slide_to_stop(0.01);
}
static void test_slide_to_stop_h004(void **state) {
    (void)state;
    check_slide_to_stop(0.04);
}

// A small cube on a large box that a Dirichlet condition moves sideways at
// 0.5 m/s (prescribed whole). The box's top face is one cell (its triangles'
// edges cross the cube's instead of passing under parallel ones: without
// friction, nearly parallel edges sliding past each other within d̂ exchange
// small sideways barrier impulses), and long enough to stay under the cube.
static void body_on_body(double mu, block_run *r) {
    char text[2048];
    snprintf(text, sizeof text,
             "{\"time_step\": 0.01, \"duration\": 1.0, \"gravity\": [0, -9.81, 0],"
             " \"newton\": {\"tolerance\": 1e-5}, \"contact\": {\"dhat\": 1e-3, \"friction\": %.17g},"
             " \"bodies\": ["
             "  {\"name\": \"base\", \"mesh\": {\"box\": {\"size\": [1.4, 0.1, 0.4], \"cells\": [1, 1, 1]}},"
             "   \"material\": {\"model\": \"neo_hookean\", \"density\": 1000, \"youngs_modulus\": 1e7, "
             "\"poisson_ratio\": 0.3},"
             "   \"translation\": [-1.0, 0, 0], \"dirichlet\": [{\"velocity\": [0.5, 0, 0]}]},"
             "  {\"name\": \"top\", \"mesh\": {\"box\": {\"size\": [0.1, 0.1, 0.1], \"cells\": [1, 1, 1]}},"
             "   \"material\": {\"model\": \"neo_hookean\", \"density\": 1000, \"youngs_modulus\": 1e7, "
             "\"poisson_ratio\": 0.3},"
             "   \"translation\": [0.15, 0.1005, 0.15]}]}",
             mu);
    run_text(text, 1, 0, r);
}

static void test_body_on_body(void **state) {
    (void)state;
    block_run hi, none;
    body_on_body(0.8, &hi);
    body_on_body(0.0, &none);
    double follow = hi.c1[0] - hi.c0[0], stay = none.c1[0] - none.c0[0];
    print_message("body on body: base moves 0.5 m; top moves %.4f m with mu = 0.8, %.4f m with mu = 0\n",
                  follow, stay);
    // mu g = 7.8 m/s^2 catches up with 0.5 m/s within 0.07 s: at most 2 cm behind.
    assert_true(follow > 0.48 && follow < 0.5 + 1e-3);
    assert_true(fabs(stay) < 0.01);
}

// A block resting on a kinematic OBJ platform that moves sideways at
// 0.5 m/s: friction acts on the relative motion, so with mu = 0.8 the block
// is carried along; with mu = 0 it stays behind.
static void conveyor(double mu, block_run *r) {
    char text[2048];
    snprintf(text, sizeof text,
             "{\"time_step\": 0.01, \"duration\": 1.0, \"gravity\": [0, -9.81, 0],"
             " \"newton\": {\"tolerance\": 1e-5}, \"contact\": {\"dhat\": 1e-3},"
             " \"bodies\": [{\"name\": \"block\", \"mesh\": {\"box\": {\"size\": [0.1, 0.1, 0.1], \"cells\": "
             "[1, 1, "
             "1]}},"
             "  \"material\": {\"model\": \"neo_hookean\", \"density\": 1000, \"youngs_modulus\": 1e7, "
             "\"poisson_ratio\": 0.3},"
             "  \"translation\": [0, 0.0005, 0], \"friction\": %.17g}],"
             " \"obstacles\": [{\"type\": \"mesh\", \"path\": \"%s/meshes/pusher.obj\", \"scale\": [20, "
             "0.333333333333, "
             "3.333333333333],"
             "  \"translation\": [-0.05, -0.2, -0.15], \"velocity\": [0.5, 0, 0], \"friction\": %.17g}]}",
             mu, IPCC_SOURCE_DIR, mu);
    run_text(text, 0, 0, r);
}

static void test_moving_obstacle_carries_block(void **state) {
    (void)state;
    block_run hi, none;
    conveyor(0.8, &hi);
    conveyor(0.0, &none);
    double carried = hi.c1[0] - hi.c0[0], left = none.c1[0] - none.c0[0];
    print_message("conveyor: platform moves 0.5 m; block moves %.4f m with mu = 0.8, %.4f m with mu = 0\n",
                  carried, left);
    assert_true(carried > 0.48 && carried < 0.5 + 1e-3);
    assert_true(fabs(left) < 0.01);
}

// friction_iterations: 1 pass per step, or passes until the friction forces
// settle (-1), reported in the stats.
static void test_lagging_passes(void **state) {
    (void)state;
    const char *fmt =
        "{\"time_step\": 0.01, \"duration\": 0.2, \"gravity\": [0, -9.81, 0],"
        " \"newton\": {\"tolerance\": 1e-5}, \"contact\": {\"dhat\": 1e-3, \"friction_iterations\": %d},"
        " \"bodies\": [{\"name\": \"block\", \"mesh\": {\"box\": {\"size\": [0.1, 0.1, 0.1], \"cells\": "
        "[1, 1, 1]}},"
        "  \"material\": {\"model\": \"neo_hookean\", \"density\": 1000, \"youngs_modulus\": 1e7, "
        "\"poisson_ratio\": 0.3},"
        "  \"translation\": [0, 2e-4, 0], \"velocity\": [1, 0, 0], \"friction\": 0.5}],"
        " \"obstacles\": [{\"type\": \"half_space\", \"friction\": 0.5}]}";
    char text[2048];
    block_run one, conv;
    snprintf(text, sizeof text, fmt, 1);
    run_text(text, 0, 0, &one);
    snprintf(text, sizeof text, fmt, -1);
    run_text(text, 0, 0, &conv);
    print_message("lagging: %d passes in 20 steps with friction_iterations = 1, %d with -1\n",
                  one.friction_passes, conv.friction_passes);
    assert_int_equal(one.friction_passes, 20);
    assert_true(conv.friction_passes > 20 && conv.friction_passes <= 20 * 20);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_incline_h001),       cmocka_unit_test(test_incline_h004),
        cmocka_unit_test(test_slide_to_stop_h001), cmocka_unit_test(test_slide_to_stop_h004),
        cmocka_unit_test(test_body_on_body),       cmocka_unit_test(test_moving_obstacle_carries_block),
        cmocka_unit_test(test_lagging_passes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
