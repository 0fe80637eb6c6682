// Split steps (world_step.c, "Split steps"; world_span.c): a step Newton
// does not converge within newton.max_iterations is redone as two halves,
// each split again while splits are left.
//
// The property: a step split into two halves is exactly two steps of h / 2,
// bit for bit (positions, velocities, contact forces, kappa, the time), so
// a split changes nothing but the step's length and every piece of state
// the failed try changed is restored: kappa (the impact raises it), a
// Dirichlet condition's pivot and end centre (a clamped bar turning about
// a moving pivot), a moving shape's pose and clock (a sphere). The impact
// of a cube thrown onto the ground takes more Newton iterations at h than
// at h / 2; the test measures that first (the premise), then caps Newton
// between the two.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipcc/ipcc.h"
#include "support.h"
#include "world_checks.h"

// A cube of Young's modulus E thrown down at speed v from height y onto
// the ground; a sphere moving and a clamped bar turning, both apart.
static ipcc_world *make_world(double h, int max_iterations, int max_splits, double y, double v, double E) {
    char text[2048];
    snprintf(
        text, sizeof text,
        "{\"time_step\": %.17g, \"duration\": 1,\n"
        " \"newton\": {\"max_iterations\": %d, \"max_splits\": %d},\n"
        " \"bodies\": [\n"
        "  {\"name\": \"cube\", \"mesh\": {\"box\": {\"size\": [0.1, 0.1, 0.1], \"cells\": [3, 3, 3]}},\n"
        "   \"material\": {\"youngs_modulus\": %.17g}, \"translation\": [0, %.17g, 0],\n"
        "   \"velocity\": [0, %.17g, 0]},\n"
        "  {\"name\": \"bar\", \"mesh\": {\"box\": {\"size\": [0.3, 0.04, 0.04], \"cells\": [6, 1, 1]}},\n"
        "   \"material\": {\"youngs_modulus\": 1e6}, \"translation\": [0, 0.5, 0],\n"
        "   \"dirichlet\": [{\"min\": [0, 0, 0], \"max\": [0.1, 1, 1], \"velocity\": [0.5, 0, 0], \"pivot\": "
        "[0, 0.5, 0],\n"
        "                  \"angular_velocity\": [0, 0, 3]}]}\n"
        " ],\n"
        " \"obstacles\": [{\"type\": \"half_space\", \"name\": \"ground\"},\n"
        "   {\"type\": \"sphere\", \"name\": \"ball\", \"center\": [0.0915, 0.04, 0], \"radius\": 0.04,\n"
        "    \"velocity\": [-0.2, 0, 0]}]\n"
        "}\n",
        h, max_iterations, max_splits, E, y, -v);
    ipcc_world *w = ipcc_test_world_from_json(text, IPCC_SOURCE_DIR);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    return w;
}

static void assert_same_state(const ipcc_world *a, const ipcc_world *b) {
    int m = 3 * ipcc_world_num_vertices(a);
    assert_int_equal(m, 3 * ipcc_world_num_vertices(b));
    assert_memory_equal(ipcc_world_positions(a), ipcc_world_positions(b), sizeof(double) * (size_t)m);
    assert_memory_equal(ipcc_world_velocities(a), ipcc_world_velocities(b), sizeof(double) * (size_t)m);
    assert_memory_equal(ipcc_world_contact_forces(a), ipcc_world_contact_forces(b),
                        sizeof(double) * (size_t)m);
    assert_true(ipcc_world_kappa(a) == ipcc_world_kappa(b));
}

// The most Newton iterations of the next `steps` steps of w (each must
// converge).
static int most_iterations(ipcc_world *w, int steps) {
    ipcc_step_stats st;
    int most = 0;
    for (int k = 0; k < steps; ++k) {
        assert_int_equal(ipcc_world_step(w, &st), IPCC_OK);
        most = st.newton_iterations > most ? st.newton_iterations : most;
    }
    return most;
}

static void test_split_step_is_two_half_steps(void **state) {
    (void)state;
    const double h = 0.01, y = 0.1, v = 30, E = 1e4;
    ipcc_step_stats st;

    // The premise: the impact takes more iterations at h than either half.
    ipcc_world *whole = make_world(h, 1000, 0, y, v, E);
    int n_whole = most_iterations(whole, 1);
    ipcc_world *halves = make_world(h / 2, 1000, 0, y, v, E);
    int n1 = most_iterations(halves, 1), n2 = most_iterations(halves, 1);
    int cap = n1 > n2 ? n1 : n2;
    print_message("iterations: whole step %d, halves %d and %d\n", n_whole, n1, n2);
    assert_true(n_whole > cap);

    // Capped between them without splits: unconverged, as before.
    ipcc_world *capped = make_world(h, cap, 0, y, v, E);
    assert_int_equal(ipcc_world_step(capped, &st), IPCC_WARN_NOT_CONVERGED);
    assert_false(st.converged);
    assert_int_equal(st.substeps, 1);
    assert_int_equal(st.newton_iterations, cap);

    // With one split: converged, in two parts equal to the two half steps.
    ipcc_world *split = make_world(h, cap, 1, y, v, E);
    assert_int_equal(ipcc_world_step(split, &st), IPCC_OK);
    assert_true(st.converged);
    assert_int_equal(st.substeps, 2);
    assert_int_equal(st.step, 1);
    assert_int_equal(st.newton_iterations, cap + n1 + n2); // the failed try's work counts
    assert_true(ipcc_world_time(split) == h);
    assert_same_state(split, halves);
    ipcc_test_assert_no_inversion(split);
    ipcc_test_assert_intersection_free(split, "split step");

    // The next steps go on as usual: one part each, the time advancing by h.
    for (int k = 2; k <= 3; ++k) {
        assert_true(ipcc_world_step(split, &st) >= 0);
        assert_int_equal(st.step, k);
        assert_true(ipcc_world_time(split) == k * h);
        ipcc_test_assert_intersection_free(split, "after the split step");
    }
    ipcc_world_destroy(whole);
    ipcc_world_destroy(halves);
    ipcc_world_destroy(capped);
    ipcc_world_destroy(split);
}

// Nested: capped so that the first half fails as well, the step ends as
// two quarters and a half (3 parts), converged, at time h, free of
// inversions and intersections.
static void test_nested_splits(void **state) {
    (void)state;
    const double h = 0.01, y = 0.1, v = 60, E = 1e5;
    ipcc_step_stats st;
    ipcc_world *whole = make_world(h, 1000, 0, y, v, E);
    int n_whole = most_iterations(whole, 1);
    ipcc_world *halves = make_world(h / 2, 1000, 0, y, v, E);
    int n1 = most_iterations(halves, 1);
    ipcc_world *quarters = make_world(h / 4, 1000, 0, y, v, E);
    int nq = most_iterations(quarters, 2);
    print_message("iterations: whole %d, first half %d, its quarters at most %d\n", n_whole, n1, nq);
    assert_true(n_whole > nq && n1 > nq); // the premise

    ipcc_world *split = make_world(h, nq, 2, y, v, E);
    assert_true(ipcc_world_step(split, &st) >= 0);
    assert_true(st.converged);
    assert_int_equal(st.substeps, 3);
    assert_true(ipcc_world_time(split) == h);
    ipcc_test_assert_no_inversion(split);
    ipcc_test_assert_intersection_free(split, "nested split");
    ipcc_world_destroy(whole);
    ipcc_world_destroy(halves);
    ipcc_world_destroy(quarters);
    ipcc_world_destroy(split);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split_step_is_two_half_steps),
        cmocka_unit_test(test_nested_splits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
