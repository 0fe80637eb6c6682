// Setting a world's state between steps (world_state.c): the new state
// takes effect with the physics it implies (a kicked block decelerates as
// Coulomb says, a lifted one falls as implicit Euler's discrete free fall,
// Newmark's accelerations are those of the new state, checked against
// finite differences of the elastic energy), and every state a step could
// not start from is refused whole, with a message naming the body, leaving
// the world bit-identical to a twin that was never asked.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipcc/ipcc.h"
#include "support.h"
#include "world_checks.h"
#include "world/world.h"

// A 0.2 m cube of 2 x 2 x 2 cells resting on a half-space (mu = 0.3), a
// second one beside it, and a third clamped at its top; defaults otherwise.
static const char *scene_text =
    "{\"time_step\": 0.01, \"duration\": 2,\n"
    " \"contact\": {\"friction\": 0.3},\n"
    " \"bodies\": [\n"
    "  {\"name\": \"block\", \"mesh\": {\"box\": {\"size\": [0.2, 0.2, 0.2], \"cells\": [2, 2, 2]}},\n"
    "   \"material\": {\"density\": 1000, \"youngs_modulus\": 1e6}, \"translation\": [0, 0.0005, 0]},\n"
    "  {\"name\": \"other\", \"mesh\": {\"box\": {\"size\": [0.2, 0.2, 0.2], \"cells\": [2, 2, 2]}},\n"
    "   \"material\": {\"density\": 1000, \"youngs_modulus\": 1e6}, \"translation\": [-0.5, 0.0005, 0]},\n"
    "  {\"name\": \"hung\", \"mesh\": {\"box\": {\"size\": [0.2, 0.2, 0.2], \"cells\": [2, 2, 2]}},\n"
    "   \"material\": {\"density\": 1000, \"youngs_modulus\": 1e6}, \"translation\": [0.6, 0.5, 0],\n"
    "   \"dirichlet\": [{\"min\": [0, 0.9, 0], \"max\": [1, 1, 1]}]}\n"
    " ],\n"
    " \"obstacles\": [{\"type\": \"half_space\", \"name\": \"ground\", \"point\": [0, 0, 0], \"normal\": [0, "
    "1, "
    "0]}]\n"
    "}\n";

static ipcc_world *make_world(void) {
    ipcc_world *w = ipcc_test_world_from_json(scene_text, IPCC_SOURCE_DIR);
    assert_non_null(w);
    return w;
}

static int body_index(const ipcc_world *w, const char *name) {
    for (int b = 0; b < ipcc_world_num_bodies(w); ++b)
        if (strcmp(ipcc_world_body_name(w, b), name) == 0) return b;
    fail_msg("no body %s", name);
    return -1;
}

static double *copy_of(const double *a, int n) {
    double *c = malloc(sizeof(double) * (size_t)n);
    assert_non_null(c);
    memcpy(c, a, sizeof(double) * (size_t)n);
    return c;
}

// The mean of component k of a (3n) over body b's vertices.
static double body_mean(const ipcc_world *w, int b, const double *a, int k) {
    int first, count;
    ipcc_world_body_vertices(w, b, &first, &count);
    double s = 0;
    for (int i = first; i < first + count; ++i)
        s += a[3 * i + k];
    return s / count;
}

static void step_n(ipcc_world *w, int n) {
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    for (int s = 0; s < n; ++s) {
        ipcc_step_stats st;
        assert_int_equal(ipcc_world_step(w, &st), IPCC_OK);
        ipcc_test_assert_no_inversion(w);
        ipcc_test_assert_intersection_free(w, "set_state");
    }
}

// A block at rest on the ground, kicked to 2 m/s along x: it slides with
// Coulomb's deceleration mu g (implicit Euler: v_k = v_0 - mu g k h while
// sliding), and stops after v_0 / (mu g) = 0.68 s, as far as that
// sum says.
static void test_kick_slides_as_coulomb(void **state) {
    (void)state;
    ipcc_world *w = make_world();
    step_n(w, 5);
    const int n = ipcc_world_num_vertices(w), b = body_index(w, "block");
    int first, count;
    ipcc_world_body_vertices(w, b, &first, &count);
    double *v = copy_of(ipcc_world_velocities(w), 3 * n);
    for (int i = first; i < first + count; ++i)
        v[3 * i] += 2.0;
    assert_int_equal(ipcc_world_set_state(w, NULL, v), IPCC_OK);
    assert_memory_equal(ipcc_world_velocities(w), v, sizeof(double) * 3 * (size_t)n);
    const double g = 9.81, mu = 0.3, x0 = body_mean(w, b, ipcc_world_positions(w), 0);
    step_n(w, 30);
    double vx = body_mean(w, b, ipcc_world_velocities(w), 0), expect = 2.0 - mu * g * 0.30;
    print_message("kicked block after 0.3 s: %.5f m/s (Coulomb %.5f)\n", vx, expect);
    assert_true(fabs(vx - expect) < 0.01 * 2.0);
    step_n(w, 50);
    // Implicit Euler moves by h v_k, v_k = v_0 - mu g h k: h sum v_k = v_0^2 / (2 mu g) - v_0 h / 2.
    double slid = body_mean(w, b, ipcc_world_positions(w), 0) - x0,
           stop = 4.0 / (2 * mu * g) - 2.0 * 0.01 / 2;
    print_message("kicked block slid %.4f m (Coulomb %.4f), now at %.2e m/s\n", slid, stop,
                  body_mean(w, b, ipcc_world_velocities(w), 0));
    assert_true(fabs(slid - stop) < 0.005 * stop);
    assert_true(fabs(body_mean(w, b, ipcc_world_velocities(w), 0)) < 1e-2);
    free(v);
    ipcc_world_destroy(w);
}

// The centre of mass of body b along axis k.
static double body_centre(const ipcc_world *w, int b, int k) {
    int first, count;
    ipcc_world_body_vertices(w, b, &first, &count);
    const double *x = ipcc_world_positions(w), *m = ipcc_world_masses(w);
    double s = 0, M = 0;
    for (int i = first; i < first + count; ++i) {
        s += m[i] * x[3 * i + k];
        M += m[i];
    }
    return s / M;
}

// A block lifted 0.5 m by its positions, at rest, falls freely: its centre
// of mass follows implicit Euler's discrete free fall from rest,
// y_k = y_0 - g h^2 k (k + 1) / 2 (the internal forces sum to zero).
static void test_lift_falls_freely(void **state) {
    (void)state;
    ipcc_world *w = make_world();
    step_n(w, 3);
    const int n = ipcc_world_num_vertices(w), b = body_index(w, "other");
    int first, count;
    ipcc_world_body_vertices(w, b, &first, &count);
    double *x = copy_of(ipcc_world_positions(w), 3 * n), *v = copy_of(ipcc_world_velocities(w), 3 * n);
    for (int i = first; i < first + count; ++i) {
        x[3 * i + 1] += 0.5;
        v[3 * i] = v[3 * i + 1] = v[3 * i + 2] = 0;
    }
    assert_int_equal(ipcc_world_set_state(w, x, v), IPCC_OK);
    const double y0 = body_centre(w, b, 1), h = 0.01, g = 9.81;
    for (int k = 1; k <= 20; ++k) {
        step_n(w, 1);
        double y = body_centre(w, b, 1), expect = y0 - g * h * h * k * (k + 1) / 2;
        if (fabs(y - expect) > 1e-9)
            fail_msg("step %d after the lift: y = %.9f, free fall %.9f", k, y, expect);
    }
    free(x);
    free(v);
    ipcc_world_destroy(w);
}

// Newmark: after a set of positions, a free vertex's acceleration is
// g - grad_i E / m_i at the new state; the gradient is checked against
// central differences of the elastic energy (ipcc_world_elastic_energy).
static double energy_with(ipcc_world *w, double *x, int dof, double value) {
    double keep = x[dof];
    x[dof] = value;
    memcpy(w->x, x, sizeof(double) * 3 * (size_t)w->n);
    double e = ipcc_world_elastic_energy(w);
    x[dof] = keep;
    return e;
}

static void test_newmark_accelerations_of_new_state(void **state) {
    (void)state;
    char text[4096];
    snprintf(
        text, sizeof text,
        "{\"time_step\": 0.01, \"duration\": 2, \"integrator\": \"newmark\", \"gravity\": [0, -9.81, 0],\n"
        " \"bodies\": [{\"name\": \"free\", \"mesh\": {\"box\": {\"size\": [0.2, 0.2, 0.2], \"cells\": [2, "
        "2, "
        "2]}},\n"
        "   \"material\": {\"density\": 1000, \"youngs_modulus\": 1e5}}]}\n");
    ipcc_world *w = ipcc_test_world_from_json(text, IPCC_SOURCE_DIR);
    assert_non_null(w);
    step_n(w, 2);
    const int n = w->n;
    double *x = copy_of(w->x, 3 * n);
    for (int i = 0; i < n; ++i) // stretch 3 % along x about the body's centre, and shear
        x[3 * i] = 1.03 * x[3 * i] + 0.02 * x[3 * i + 1];
    assert_int_equal(ipcc_world_set_state(w, x, NULL), IPCC_OK);
    double *a = copy_of(w->a, 3 * n), *saved = copy_of(w->x, 3 * n);
    const double eps = 1e-6;
    double worst = 0, scale = 0;
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < 3; ++k) {
            int d = 3 * i + k;
            double dE = (energy_with(w, x, d, x[d] + eps) - energy_with(w, x, d, x[d] - eps)) / (2 * eps);
            double expect = (k == 1 ? -9.81 : 0.0) - dE / w->mass[i];
            worst = fmax(worst, fabs(a[d] - expect));
            scale = fmax(scale, fabs(expect));
        }
    memcpy(w->x, saved, sizeof(double) * 3 * (size_t)n);
    print_message("Newmark a at the new state: worst error %.3g of %.3g m/s^2\n", worst, scale);
    assert_true(scale > 1.0); // the stretch does load the body
    assert_true(worst < 1e-5 * scale);
    free(x);
    free(a);
    free(saved);
    ipcc_world_destroy(w);
}

// Both worlds step on and must stay bit-identical; then both are destroyed.
static void assert_same_continuation(ipcc_world *w, ipcc_world *twin, int steps) {
    const size_t bytes = sizeof(double) * 3 * (size_t)ipcc_world_num_vertices(w);
    step_n(w, steps);
    step_n(twin, steps);
    assert_memory_equal(ipcc_world_positions(w), ipcc_world_positions(twin), bytes);
    assert_memory_equal(ipcc_world_velocities(w), ipcc_world_velocities(twin), bytes);
    ipcc_world_destroy(w);
    ipcc_world_destroy(twin);
}

// A refused state: the status, the message's words, and a world
// bit-identical to a twin never asked, through 5 more steps.
static void expect_refusal(const char *label, ipcc_status want, const char *const *words, int nwords,
                           void (*edit)(const ipcc_world *w, double *x, double *v), bool set_x, bool set_v) {
    ipcc_world *w = make_world(), *twin = make_world();
    step_n(w, 4);
    step_n(twin, 4);
    const int n = ipcc_world_num_vertices(w);
    double *x = copy_of(ipcc_world_positions(w), 3 * n), *v = copy_of(ipcc_world_velocities(w), 3 * n);
    edit(w, x, v);
    ipcc_status st = ipcc_world_set_state(w, set_x ? x : NULL, set_v ? v : NULL);
    print_message("%s: %s\n", label, ipcc_last_error());
    if (st != want) fail_msg("%s: status %d, want %d (%s)", label, st, want, ipcc_last_error());
    for (int k = 0; k < nwords; ++k)
        if (!strstr(ipcc_last_error(), words[k]))
            fail_msg("%s: '%s' is not in the message: %s", label, words[k], ipcc_last_error());
    free(x);
    free(v);
    assert_same_continuation(w, twin, 5);
}

static void vertex_of(const ipcc_world *w, const char *body, int k, int *i) {
    int first, count;
    ipcc_world_body_vertices(w, body_index(w, body), &first, &count);
    *i = first + k;
}

static void edit_nan(const ipcc_world *w, double *x, double *v) {
    (void)v;
    int i;
    vertex_of(w, "other", 3, &i);
    x[3 * i + 1] = NAN;
}
static void edit_huge_velocity(const ipcc_world *w, double *x, double *v) {
    (void)x;
    int i;
    vertex_of(w, "block", 0, &i);
    v[3 * i] = 1e300;
}
static void edit_clamped(const ipcc_world *w, double *x, double *v) {
    (void)v;
    int first, count;
    ipcc_world_body_vertices(w, body_index(w, "hung"), &first, &count);
    for (int i = first; i < first + count; ++i)
        if (ipcc_world_vertex_is_prescribed(w, i)) {
            x[3 * i] += 0.01;
            return;
        }
    fail_msg("no clamped vertex");
}
static void edit_mirror(const ipcc_world *w, double *x, double *v) { // every tet of "other" inverted
    (void)v;
    int first, count;
    ipcc_world_body_vertices(w, body_index(w, "other"), &first, &count);
    double c = body_mean(w, body_index(w, "other"), x, 0);
    for (int i = first; i < first + count; ++i)
        x[3 * i] = 2 * c - x[3 * i];
}
static void edit_sink(const ipcc_world *w, double *x, double *v) {
    (void)v;
    int first, count;
    ipcc_world_body_vertices(w, body_index(w, "block"), &first, &count);
    for (int i = first; i < first + count; ++i)
        x[3 * i + 1] -= 0.05;
}
static void edit_overlap(const ipcc_world *w, double *x, double *v) { // "other" into "block"
    (void)v;
    int first, count;
    ipcc_world_body_vertices(w, body_index(w, "other"), &first, &count);
    for (int i = first; i < first + count; ++i)
        x[3 * i] += 0.45;
}
static void edit_inside(const ipcc_world *w, double *x, double *v) { // "other", shrunk, wholly inside "block"
    (void)v;
    int b = body_index(w, "other"), a = body_index(w, "block"), first, count;
    ipcc_world_body_vertices(w, b, &first, &count);
    double cb[3], ca[3];
    for (int k = 0; k < 3; ++k) {
        cb[k] = body_mean(w, b, x, k);
        ca[k] = body_mean(w, a, x, k);
    }
    for (int i = first; i < first + count; ++i)
        for (int k = 0; k < 3; ++k)
            x[3 * i + k] = ca[k] + 0.2 * (x[3 * i + k] - cb[k]);
}

static void test_refusals(void **state) {
    (void)state;
    expect_refusal("NaN", IPCC_ERR_INVALID_ARGUMENT,
                   (const char *[]){"new state", "body \"other\"", "vertex 3", "position y is not finite"}, 4,
                   edit_nan, true, false);
    expect_refusal("overflow", IPCC_ERR_INVALID_ARGUMENT,
                   (const char *[]){"new state", "body \"block\"", "vertex 0", "overflows"}, 4,
                   edit_huge_velocity, false, true);
    expect_refusal("clamped", IPCC_ERR_INVALID_ARGUMENT,
                   (const char *[]){"new state", "body \"hung\"", "prescribed", "Dirichlet", "position"}, 5,
                   edit_clamped, true, true);
    expect_refusal("mirrored", IPCC_ERR_INFEASIBLE,
                   (const char *[]){"new state", "body \"other\"", "tet 0 is inverted"}, 3, edit_mirror, true,
                   false);
    expect_refusal("sunk", IPCC_ERR_INFEASIBLE,
                   (const char *[]){"new state", "body \"block\"", "half-space \"ground\""}, 3, edit_sink,
                   true, false);
    expect_refusal("overlap", IPCC_ERR_INFEASIBLE,
                   (const char *[]){"new state", "\"other\"", "\"block\"", "intersect"}, 4, edit_overlap,
                   true, false);
    expect_refusal("inside", IPCC_ERR_INFEASIBLE,
                   (const char *[]){"new state", "body \"other\"", "lies inside body \"block\""}, 3,
                   edit_inside, true, false);
}

// Setting the state it already has changes nothing: the run continues bit
// for bit (also with NULL for both parts, and before the first step).
static void test_same_state_is_identity(void **state) {
    (void)state;
    ipcc_world *w = make_world(), *twin = make_world();
    assert_int_equal(ipcc_world_set_state(w, NULL, NULL), IPCC_OK);
    const int n = ipcc_world_num_vertices(w);
    double *x = copy_of(ipcc_world_positions(w), 3 * n), *v = copy_of(ipcc_world_velocities(w), 3 * n);
    assert_int_equal(ipcc_world_set_state(w, x, v), IPCC_OK);
    step_n(w, 6);
    step_n(twin, 6);
    memcpy(x, ipcc_world_positions(w), sizeof(double) * 3 * (size_t)n);
    memcpy(v, ipcc_world_velocities(w), sizeof(double) * 3 * (size_t)n);
    assert_int_equal(ipcc_world_set_state(w, x, v), IPCC_OK);
    free(x);
    free(v);
    assert_same_continuation(w, twin, 6);
}

// A moving sphere: the check uses its current pose, not its initial one.
static void test_moving_shape_current_pose(void **state) {
    (void)state;
    const char *text = "{\"time_step\": 0.01, \"duration\": 2, \"gravity\": [0, 0, 0],\n"
                       " \"bodies\": [{\"name\": \"cube\", \"mesh\": {\"box\": {\"size\": [0.2, 0.2, 0.2], "
                       "\"cells\": [2, 2, 2]}},\n"
                       "   \"material\": {\"density\": 1000, \"youngs_modulus\": 1e6}}],\n"
                       " \"obstacles\": [{\"type\": \"sphere\", \"name\": \"ball\", \"center\": [1, 0, 0], "
                       "\"radius\": 0.1,\n"
                       "                \"velocity\": [0, 5, 0]}]}\n";
    ipcc_world *w = ipcc_test_world_from_json(text, IPCC_SOURCE_DIR);
    assert_non_null(w);
    step_n(w, 10); // the ball is now at (1, 0.5, 0)
    const int n = ipcc_world_num_vertices(w);
    double *x = copy_of(ipcc_world_positions(w), 3 * n);
    for (int i = 0; i < n; ++i)
        x[3 * i] += 0.9; // the cube where the ball was at t = 0: free now
    assert_int_equal(ipcc_world_set_state(w, x, NULL), IPCC_OK);
    for (int i = 0; i < n; ++i)
        x[3 * i + 1] += 0.4; // onto the ball's current centre
    assert_int_equal(ipcc_world_set_state(w, x, NULL), IPCC_ERR_INFEASIBLE);
    print_message("moving ball: %s\n", ipcc_last_error());
    assert_non_null(strstr(ipcc_last_error(), "sphere \"ball\""));
    free(x);
    ipcc_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kick_slides_as_coulomb),
        cmocka_unit_test(test_lift_falls_freely),
        cmocka_unit_test(test_newmark_accelerations_of_new_state),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_same_state_is_identity),
        cmocka_unit_test(test_moving_shape_current_pose),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
