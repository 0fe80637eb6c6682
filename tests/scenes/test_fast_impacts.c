// Fast impacts finish their steps (issue 18, item 3): a soft ball at 20 m/s
// onto a mesh box obstacle, an analytic sphere and an analytic cylinder
// (issue 33), and a stiff cube at 40 m/s into a soft slab pinned at two
// edges, every setting at its default.
//
// What can fail. Each impact step needs one to three hundred Newton
// iterations: the contact patch grows by about a ring of vertices per
// iteration while CCD cuts each direction (docs/design.md, "When a step is
// converged"). Before issue 18's second part these steps ended at the
// 100-iteration cap, or were accepted by the step test alone with a force
// residual of 160 to 1500 m/s of velocity error, and the trajectories
// strayed by 1.5 %, 44 % and 9 % of L from a run at a 100x tighter
// tolerance (measured over the full 0.3-0.4 s). Asserted here, at the
// default tolerance and at 1e-4, every step: converged, no intersection
// (decided exactly), no inverted tet; the default run's states within
// 0.5 % of L of the tight run's, vertex by vertex; the ball leaves the
// obstacle upwards.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "world_checks.h"

// The ball: IPC's sphere1K (radius 0.5) scaled to r = 0.1 m, E = 1e5 Pa,
// dropped at 20 m/s from 0.15 m above the obstacle's top at y = 0.
#define BALL                                                                                                 \
    "{\"name\": \"ball\", \"mesh\": \"tests/ipc_scenes/input/tetMeshes/sphere1K.msh\","                      \
    " \"scale\": [0.2, 0.2, 0.2], \"translation\": [0, 0.35, 0], \"velocity\": [0, -20, 0],"                 \
    " \"material\": {\"model\": \"neo_hookean\", \"density\": 1000, \"youngs_modulus\": 1e5,"                \
    " \"poisson_ratio\": 0.4}}"

typedef struct impact_run {
    int iterations, worst_iterations;
    double worst_velocity_error, final_vy; ///< final_vy: the mean vertical velocity of body 0 at the end
    double *x;                             ///< the positions after each step, steps x 3n
    int n, L_set;
    double L;
} impact_run;

// Run `steps` steps of the scene (JSON text, with `tolerance` spliced in as
// newton.tolerance), asserting at every step: converged, intersection-free
// (decided exactly), no inverted tet. Keeps every state for the comparison.
static void run_impact(const char *name, const char *text, double tolerance, int steps, impact_run *out) {
    char *scene = malloc(strlen(text) + 96);
    assert_non_null(scene);
    // text starts with '{': insert the newton object as the first key.
    sprintf(scene, "{\"newton\": {\"tolerance\": %.17g}, %s", tolerance, text + 1);
    ipcc_world *w = ipcc_test_world_from_json(scene, IPCC_SOURCE_DIR);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    free(scene);
    int n3 = 3 * ipcc_world_num_vertices(w);
    *out = (impact_run){.n = n3, .L = ipcc_world_velocity_tolerance(w) / tolerance};
    out->x = malloc(sizeof(double) * (size_t)(n3 * steps));
    assert_non_null(out->x);
    char label[96];
    for (int s = 1; s <= steps; ++s) {
        ipcc_step_stats st;
        if (ipcc_world_step(w, &st) < 0) fail_msg("%s: step %d: %s", name, s, ipcc_last_error());
        snprintf(label, sizeof label, "%s (tol %g), step %d", name, tolerance, s);
        if (!st.converged)
            fail_msg("%s: not converged after %d iterations (velocity error %g m/s)", label,
                     st.newton_iterations, st.velocity_error);
        ipcc_test_assert_intersection_free(w, label);
        ipcc_test_assert_no_inversion(w);
        memcpy(out->x + (size_t)n3 * (size_t)(s - 1), ipcc_world_positions(w), sizeof(double) * (size_t)n3);
        out->iterations += st.newton_iterations;
        if (st.newton_iterations > out->worst_iterations) out->worst_iterations = st.newton_iterations;
        out->worst_velocity_error = fmax(out->worst_velocity_error, st.velocity_error);
    }
    int first, n;
    ipcc_world_body_vertices(w, 0, &first, &n);
    const double *v = ipcc_world_velocities(w);
    double vy = 0;
    for (int i = 0; i < n; ++i)
        vy += v[3 * (first + i) + 1] / n;
    out->final_vy = vy;
    printf(
        "  %-17s tol %-6g %d steps, %5.1f Newton iterations/step (worst %3d), worst velocity error %.3g m/s, "
        "final vy %.3f m/s\n",
        name, tolerance, steps, (double)out->iterations / steps, out->worst_iterations,
        out->worst_velocity_error, vy);
    ipcc_world_destroy(w);
}

// The scene at the default tolerance and at 100x tighter (issue 18's
// definition of converged: the outcome is the one a 100x tighter tolerance
// gives): every state of the default run within `bound` L of the tight
// run's, vertex by vertex. Returns the default run's final body-0 vy.
static double impact_vs_tight(const char *name, const char *text, int steps, double bound) {
    impact_run a, b;
    run_impact(name, text, 1e-2, steps, &a);
    run_impact(name, text, 1e-4, steps, &b);
    double worst = 0;
    for (size_t d = 0; d < (size_t)a.n * (size_t)steps; ++d)
        worst = fmax(worst, fabs(a.x[d] - b.x[d]));
    printf("  %-17s max |x(1e-2) - x(1e-4)| / L over %d steps = %.3g (bound %g)\n", name, steps, worst / a.L,
           bound);
    assert_true(worst <= bound * a.L);
    free(a.x);
    free(b.x);
    return a.final_vy;
}

// Under ASan the two ball scenes (about 20 s each in Release) take over 8
// minutes each: the sanitizer suite runs the slab scene only.
#if defined(__SANITIZE_ADDRESS__)
#define SKIP_UNDER_SANITIZERS() skip()
#else
#define SKIP_UNDER_SANITIZERS() ((void)0)
#endif

// IPC's meshCO box (cube.obj, the unit cube) scaled to 0.2 m about its
// centre, then placed with its top face at y = 0.
static void test_ball_onto_mesh_box(void **state) {
    (void)state;
    SKIP_UNDER_SANITIZERS();
    const char *text = "{\"time_step\": 0.01, \"duration\": 0.12, \"bodies\": [" BALL "],"
                       " \"obstacles\": [{\"type\": \"mesh\", \"name\": \"box\","
                       " \"path\": \"tests/ipc_scenes/input/triMeshes/cube.obj\","
                       " \"scale\": [0.2, 0.2, 0.2], \"translation\": [-0.5, -0.6, -0.5]}]}";
    assert_true(impact_vs_tight("ball onto box", text, 12, 5e-3) > 0); // and it bounced
}

static void test_ball_onto_sphere(void **state) {
    (void)state;
    SKIP_UNDER_SANITIZERS();
    const char *text = "{\"time_step\": 0.01, \"duration\": 0.12, \"bodies\": [" BALL "],"
                       " \"obstacles\": [{\"type\": \"sphere\", \"center\": [0, -0.1, 0], \"radius\": 0.1}]}";
    assert_true(impact_vs_tight("ball onto sphere", text, 12, 5e-3) > 0);
}

// The issue 33 cylinder impact (bench/scenes/impact_ball_cylinder.json) at
// a step the bounce can be resolved in: a ball of half the size
// (r = 0.05 m) at 20 m/s onto an analytic cylinder (r = 0.08 m) lying along
// x, whose curved surface the ball's face and edge samples feel, at
// h = 0.005 (one ball diameter per step). Six steps: the impact and the
// rebound. At h = 0.01 the ball travels more than the cylinder's diameter
// in one step, and the first step converges to the far side (README,
// Limits).
static void test_ball_onto_cylinder(void **state) {
    (void)state;
    SKIP_UNDER_SANITIZERS();
    const char *text =
        "{\"time_step\": 0.005, \"duration\": 0.03, \"gravity\": [0, -9.81, 0], \"bodies\": ["
        "{\"name\": \"ball\", \"mesh\": \"tests/ipc_scenes/input/tetMeshes/sphere1K.msh\","
        " \"scale\": 0.1, \"translation\": [0, 0.1806, 0], \"velocity\": [0, -20, 0],"
        " \"material\": {\"model\": \"neo_hookean\", \"density\": 1000, \"youngs_modulus\": 1e5,"
        " \"poisson_ratio\": 0.4}}],"
        " \"obstacles\": [{\"type\": \"cylinder\", \"center\": [0, 0, 0], \"axis\": [1, 0, 0],"
        " \"radius\": 0.08, \"half_length\": 0.2}]}";
    assert_true(impact_vs_tight("ball onto cylinder", text, 6, 5e-3) > 0);
}

// A 0.1 m cube (E = 1e7) at 40 m/s into a 0.5 m x 2 cm slab (E = 1e6)
// pinned along its two x edges, h = 0.02 s.
static void test_cube_into_slab(void **state) {
    (void)state;
    const char *text =
        "{\"time_step\": 0.02, \"duration\": 0.4, \"gravity\": [0, -9.81, 0], \"bodies\": ["
        "{\"name\": \"cube\", \"mesh\": {\"box\": {\"size\": [0.1, 0.1, 0.1], \"cells\": [2, 2, 2]}},"
        " \"translation\": [-0.05, 0.2, -0.05], \"velocity\": [0, -40, 0],"
        " \"material\": {\"model\": \"neo_hookean\", \"density\": 1000, \"youngs_modulus\": 1e7, "
        "\"poisson_ratio\": "
        "0.4}},"
        "{\"name\": \"slab\", \"mesh\": {\"box\": {\"size\": [0.5, 0.02, 0.5], \"cells\": [10, 1, 10]}},"
        " \"translation\": [-0.25, 0, -0.25],"
        " \"material\": {\"model\": \"neo_hookean\", \"density\": 1000, \"youngs_modulus\": 1e6, "
        "\"poisson_ratio\": "
        "0.4},"
        " \"dirichlet\": [{\"min\": [-0.01, -0.01, -0.01], \"max\": [0.01, 1.01, 1.01]},"
        " {\"min\": [0.99, -0.01, -0.01], \"max\": [1.01, 1.01, 1.01]}]}]}";
    impact_vs_tight("cube into slab", text, 20, 5e-3);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ball_onto_mesh_box),
        cmocka_unit_test(test_ball_onto_sphere),
        cmocka_unit_test(test_ball_onto_cylinder),
        cmocka_unit_test(test_cube_into_slab),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
