// A prescribed motion that contact makes impossible (issue 18): the
// augmented Lagrangian of IPC (dirichlet_penalty.c) finishes every step.
//
// A soft 0.1 m cube stands on a half-space; its bottom face is clamped and
// prescribed to move at (0.2, -0.2, 0) m/s: down into the floor, which
// contact forbids, and sideways, which contact allows. Every setting is
// the default. Asserted at every step: converged (before the augmented
// Lagrangian, each step ended "not converged" after the lift stalled),
// intersection-free (decided exactly), no inverted tet. At the end: the
// clamped vertices followed the sideways motion to within the step
// tolerance per step (0.2 t), and rest on the floor, above it and within
// d̂ of it (the downward part is blocked; nothing pushed through).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "world_checks.h"

static const char *const scene =
    "{\"time_step\": 0.01, \"duration\": 0.3, \"gravity\": [0, -9.81, 0],"
    " \"bodies\": [{\"name\": \"cube\", \"mesh\": {\"box\": {\"size\": [0.1, 0.1, 0.1], \"cells\": [3, 3, "
    "3]}},"
    " \"translation\": [-0.05, 0.0002, -0.05],"
    " \"material\": {\"model\": \"neo_hookean\", \"density\": 1000, \"youngs_modulus\": 1e5, "
    "\"poisson_ratio\": "
    "0.4},"
    " \"dirichlet\": [{\"min\": [-0.01, -0.01, -0.01], \"max\": [1.01, 0.01, 1.01], \"velocity\": [0.2, "
    "-0.2, "
    "0]}]}],"
    " \"obstacles\": [{\"type\": \"half_space\", \"point\": [0, 0, 0], \"normal\": [0, 1, 0]}]}";

static void test_clamp_pushed_into_floor(void **state) {
    (void)state;
    ipcc_world *w = ipcc_test_world_from_json(scene, IPCC_SOURCE_DIR);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    int n = ipcc_world_num_vertices(w);
    const double *x = ipcc_world_positions(w);
    // The clamped vertices: the bottom face (y = 0.0002 at the start).
    double *x0 = malloc(sizeof(double) * 3 * (size_t)n);
    assert_non_null(x0);
    memcpy(x0, x, sizeof(double) * 3 * (size_t)n);
    int steps = 30, iterations = 0;
    char label[32];
    for (int s = 1; s <= steps; ++s) {
        ipcc_step_stats st;
        if (ipcc_world_step(w, &st) < 0) fail_msg("step %d: %s", s, ipcc_last_error());
        snprintf(label, sizeof label, "step %d", s);
        if (!st.converged) fail_msg("%s: not converged (%d Newton iterations)", label, st.newton_iterations);
        ipcc_test_assert_intersection_free(w, label);
        ipcc_test_assert_no_inversion(w);
        iterations += st.newton_iterations;
    }
    double t = ipcc_world_time(w), L = ipcc_world_bbox_diagonal(w), dhat = 1e-3 * L;
    double tol_step = 1e-2 * L * 0.01; // tol L h at the defaults
    int clamped = 0;
    double worst_dx = 0, lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < n; ++i) {
        if (x0[3 * i + 1] > 0.0003) continue;
        clamped++;
        worst_dx = fmax(worst_dx, fabs(x[3 * i] - x0[3 * i] - 0.2 * t));
        lo = fmin(lo, x[3 * i + 1]);
        hi = fmax(hi, x[3 * i + 1]);
    }
    printf("  %d clamped vertices over %d steps (%.1f Newton iterations/step): sideways error %.3g m "
           "(bound %.3g), heights %.3g to %.3g m (d̂ %.3g m)\n",
           clamped, steps, (double)iterations / steps, worst_dx, steps * tol_step, lo, hi, dhat);
    assert_int_equal(clamped, 16);
    assert_true(worst_dx <= steps * tol_step);
    assert_true(lo > 0 && hi < dhat);
    free(x0);
    ipcc_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clamp_pushed_into_floor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
