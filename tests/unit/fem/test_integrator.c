// Time integrators on plain arrays (integrator.c) against their closed
// forms: the potential scale (h^2, beta h^2, 1), the predictor x_hat, the
// velocity and acceleration update, Newmark's round trip (an acceleration
// put into x comes back out of the update), exact trajectories under a
// constant acceleration (Newmark's average-acceleration rule integrates
// x0 + v0 t + a t^2 / 2 exactly; implicit Euler lags it by the known
// h^2 n (n + 1) / 2 sum), and the initial acceleration g + load - grad / m.
// Every comparison is to a few ulps of the quantities involved: the
// formulas are a handful of flops, so any wrong coefficient (beta for
// 1/2 - beta, gamma for 1 - gamma, a missing h) is caught at full size.
#include <float.h>
#include <math.h>
#include <string.h>

#include "fem/integrator.h"
#include "support.h"
#include "world_checks.h"

#define M 30 // dofs of the array tests

// |a - b| <= ulps * eps * scale: rounding of a short formula whose terms are
// of size `scale`.
#define assert_ulps(a, b, scale, ulps) assert_near((a), (b), (ulps)*DBL_EPSILON *(scale), 0)

static ipcc_world_def def_for(ipcc_integrator integrator, double h) {
    ipcc_world_def def = ipcc_default_world_def();
    def.integrator = integrator;
    def.time_step = h;
    return def;
}

static void random_array(int n, double lo, double hi, double *out) {
    for (int i = 0; i < n; ++i)
        out[i] = ipcc_test_random(lo, hi);
}

// s = h^2, beta h^2, 1; beta is read from the def (not the default 1/4).
static void test_potential_scale(void **state) {
    (void)state;
    ipcc_world_def def = def_for(IPCC_IMPLICIT_EULER, 0.01);
    assert_true(ipcc_integrator_potential_scale(&def, def.time_step) == 0.01 * 0.01);
    def.time_step = 0.003;
    assert_true(ipcc_integrator_potential_scale(&def, def.time_step) == 0.003 * 0.003);
    def.integrator = IPCC_NEWMARK;
    assert_true(ipcc_integrator_potential_scale(&def, def.time_step) ==
                0.25 * 0.003 * 0.003); // the default beta
    def.newmark_beta = 0.3;
    assert_true(ipcc_integrator_potential_scale(&def, def.time_step) == 0.3 * 0.003 * 0.003);
    def.integrator = IPCC_STATIC;
    assert_true(ipcc_integrator_potential_scale(&def, def.time_step) == 1.0);
}

// x_hat = x + h v (implicit Euler), x + h v + (1/2 - beta) h^2 a (Newmark),
// x (static); the predictor reads neither v nor a when it should not.
static void test_predict(void **state) {
    (void)state;
    ipcc_test_seed(11);
    double x[M], v[M], a[M], x_hat[M];
    random_array(M, -2, 2, x);
    random_array(M, -3, 3, v);
    random_array(M, -20, 20, a);
    const double h = 0.02;

    ipcc_world_def def = def_for(IPCC_IMPLICIT_EULER, h);
    ipcc_integrator_predict(&def, def.time_step, M, x, v, a, x_hat);
    for (int d = 0; d < M; ++d)
        assert_ulps(x_hat[d], x[d] + h * v[d], 4.0, 2);

    def = def_for(IPCC_NEWMARK, h);
    def.newmark_beta = 0.3; // 1/2 - beta = 0.2, distinct from beta
    ipcc_integrator_predict(&def, def.time_step, M, x, v, a, x_hat);
    for (int d = 0; d < M; ++d)
        assert_ulps(x_hat[d], x[d] + h * v[d] + 0.2 * h * h * a[d], 4.0, 4);

    // beta = 1/2: the acceleration drops out of the predictor.
    def.newmark_beta = 0.5;
    ipcc_integrator_predict(&def, def.time_step, M, x, v, a, x_hat);
    for (int d = 0; d < M; ++d)
        assert_ulps(x_hat[d], x[d] + h * v[d], 4.0, 2);

    def = def_for(IPCC_STATIC, h);
    ipcc_integrator_predict(&def, def.time_step, M, x, v, a, x_hat);
    assert_memory_equal(x_hat, x, sizeof x);
}

// The update after a step from x_start to x: implicit Euler's secant
// velocity, Newmark's a_new = (x - x_hat) / (beta h^2) and
// v += h ((1 - gamma) a + gamma a_new), static's v = 0. Newmark's arrays
// are updated in place (v and a are inputs too).
static void test_update(void **state) {
    (void)state;
    ipcc_test_seed(12);
    double x_start[M], x[M], x_hat[M], v0[M], a0[M], v[M], a[M];
    random_array(M, -1, 1, x_start);
    random_array(M, -1, 1, x);
    random_array(M, -1, 1, x_hat);
    random_array(M, -5, 5, v0);
    random_array(M, -50, 50, a0);
    const double h = 0.01;

    ipcc_world_def def = def_for(IPCC_IMPLICIT_EULER, h);
    memcpy(v, v0, sizeof v);
    memcpy(a, a0, sizeof a);
    ipcc_integrator_update(&def, def.time_step, M, x_start, x, x_hat, v, a);
    for (int d = 0; d < M; ++d)
        assert_ulps(v[d], (x[d] - x_start[d]) / h, 2.0 / h, 4);
    assert_memory_equal(a, a0, sizeof a); // implicit Euler keeps no acceleration

    def = def_for(IPCC_NEWMARK, h);
    def.newmark_beta = 0.3;
    def.newmark_gamma = 0.6; // 1 - gamma = 0.4
    memcpy(v, v0, sizeof v);
    memcpy(a, a0, sizeof a);
    ipcc_integrator_update(&def, def.time_step, M, x_start, x, x_hat, v, a);
    for (int d = 0; d < M; ++d) {
        double a_new = (x[d] - x_hat[d]) / (0.3 * h * h);
        assert_ulps(a[d], a_new, 2.0 / (0.3 * h * h), 4);
        assert_ulps(v[d], v0[d] + h * (0.4 * a0[d] + 0.6 * a_new), 5.0 + h * fabs(a_new) + h * 50, 8);
    }

    def = def_for(IPCC_STATIC, h);
    memcpy(v, v0, sizeof v);
    memcpy(a, a0, sizeof a);
    ipcc_integrator_update(&def, def.time_step, M, x_start, x, x_hat, v, a);
    for (int d = 0; d < M; ++d)
        assert_true(v[d] == 0.0);
    assert_memory_equal(a, a0, sizeof a);
}

// Newmark round trip: predict, put an acceleration a_new into
// x = x_hat + beta h^2 a_new (what the step's minimization gives when the
// force per mass is a_new), update: a_new comes back, to the rounding of
// x - x_hat divided by beta h^2.
static void test_newmark_round_trip(void **state) {
    (void)state;
    ipcc_test_seed(13);
    const double betas[] = {0.25, 0.3, 0.5}, gammas[] = {0.5, 0.6, 1.0}, h = 0.005;
    for (int c = 0; c < 3; ++c) {
        ipcc_world_def def = def_for(IPCC_NEWMARK, h);
        def.newmark_beta = betas[c];
        def.newmark_gamma = gammas[c];
        double x0[M], v[M], a[M], v0[M], a0[M], x_hat[M], x[M], a_new[M];
        random_array(M, -1, 1, x0);
        random_array(M, -2, 2, v0);
        random_array(M, -10, 10, a0);
        random_array(M, -10, 10, a_new);
        memcpy(v, v0, sizeof v);
        memcpy(a, a0, sizeof a);
        ipcc_integrator_predict(&def, def.time_step, M, x0, v, a, x_hat);
        double bh2 = betas[c] * h * h;
        for (int d = 0; d < M; ++d)
            x[d] = x_hat[d] + bh2 * a_new[d];
        ipcc_integrator_update(&def, def.time_step, M, x0, x, x_hat, v, a);
        for (int d = 0; d < M; ++d) {
            // x and x_hat are below 1.1 in size: their rounding, over beta h^2.
            double tol = 4 * DBL_EPSILON * 1.1 / bh2;
            assert_near(a[d], a_new[d], tol, 0);
            assert_near(v[d], v0[d] + h * ((1 - gammas[c]) * a0[d] + gammas[c] * a_new[d]), h * tol + 1e-14,
                        0);
        }
    }
}

// A constant acceleration g, with the step's minimizer in closed form
// (M (x - x_hat) = s M g, s the potential scale): Newmark's
// average-acceleration rule gives x0 + v0 t + g t^2 / 2 and v0 + g t
// exactly; implicit Euler gives x0 + v0 t + g h^2 n (n + 1) / 2 and
// v0 + g t. (Static has no inertia to balance g: nothing to integrate.)
static void test_constant_acceleration_trajectories(void **state) {
    (void)state;
    const double g[3] = {0.5, -9.81, 2.0}, x0[3] = {0.1, 1.0, -0.3}, v0[3] = {1.0, 2.0, -0.5}, h = 0.01;
    const int steps = 100;
    for (int pass = 0; pass < 2; ++pass) {
        ipcc_integrator integrator = pass == 0 ? IPCC_NEWMARK : IPCC_IMPLICIT_EULER;
        ipcc_world_def def = def_for(integrator, h);
        double x[3], v[3], a[3], x_start[3], x_hat[3];
        memcpy(x, x0, sizeof x);
        memcpy(v, v0, sizeof v);
        memcpy(a, g, sizeof a); // Newmark's initial acceleration: the force per mass
        double s = ipcc_integrator_potential_scale(&def, def.time_step);
        for (int n = 1; n <= steps; ++n) {
            memcpy(x_start, x, sizeof x);
            ipcc_integrator_predict(&def, def.time_step, 3, x, v, a, x_hat);
            for (int k = 0; k < 3; ++k)
                x[k] = x_hat[k] + s * g[k];
            ipcc_integrator_update(&def, def.time_step, 3, x_start, x, x_hat, v, a);
            double t = n * h;
            for (int k = 0; k < 3; ++k) {
                double drift = pass == 0 ? 0.5 * g[k] * t * t : g[k] * h * h * n * (n + 1) / 2.0;
                assert_near(x[k], x0[k] + v0[k] * t + drift, 1e-12, 0);
                assert_near(v[k], v0[k] + g[k] * t, 1e-10, 0);
                if (pass == 0) assert_near(a[k], g[k], 1e-9, 0);
            }
        }
    }
}

// a = g + load - grad / m for every vertex with mass; massless vertices
// (obstacles) get 0 whatever the gradient says; a NULL load is no load;
// the other integrators zero a, whatever it held.
static void test_initial_acceleration(void **state) {
    (void)state;
    enum { N = 4 };
    const double mass[N] = {2.0, 0.0, 0.5, 1e-3};
    const double grad[3 * N] = {4, -2, 1, 7, 7, 7, -0.5, 0.25, 3, 1e-3, 2e-3, -3e-3};
    const double load[3 * N] = {0, 1, 0, 5, 5, 5, -2, 0, 0.5, 0, 0, 10};
    ipcc_world_def def = def_for(IPCC_NEWMARK, 0.01);
    def.gravity[0] = 0.5;
    def.gravity[1] = -9.81;
    def.gravity[2] = 0;
    double a[3 * N];
    for (int with_load = 0; with_load < 2; ++with_load) {
        memcpy(a, grad, sizeof a);
        ipcc_integrator_initial_acceleration(&def, N, mass, with_load ? load : NULL, a);
        for (int i = 0; i < N; ++i)
            for (int k = 0; k < 3; ++k) {
                double expect = mass[i] > 0 ? def.gravity[k] + (with_load ? load[3 * i + k] : 0) -
                                                  grad[3 * i + k] / mass[i]
                                            : 0.0;
                assert_ulps(a[3 * i + k], expect, 20.0, 4);
            }
    }
    // Spot values by hand: vertex 0 without load, vertex 2 and 3 with it.
    memcpy(a, grad, sizeof a);
    ipcc_integrator_initial_acceleration(&def, N, mass, NULL, a);
    assert_ulps(a[0], 0.5 - 2.0, 2.0, 2);
    assert_ulps(a[1], -9.81 + 1.0, 10.0, 2);
    assert_true(a[3] == 0 && a[4] == 0 && a[5] == 0);
    memcpy(a, grad, sizeof a);
    ipcc_integrator_initial_acceleration(&def, N, mass, load, a);
    assert_ulps(a[6], 0.5 - 2 + 1.0, 2.0, 2);
    assert_ulps(a[8], 0.5 - 6.0, 6.0, 2);
    assert_ulps(a[11], 10 + 3.0, 13.0, 2);

    for (int pass = 0; pass < 2; ++pass) {
        def.integrator = pass == 0 ? IPCC_IMPLICIT_EULER : IPCC_STATIC;
        memcpy(a, grad, sizeof a);
        ipcc_integrator_initial_acceleration(&def, N, mass, load, a);
        for (int d = 0; d < 3 * N; ++d)
            assert_true(a[d] == 0.0);
    }
}

// The world wires the initial acceleration in: an unstressed Newmark body in
// free fall follows x0 + v0 t + g t^2 / 2 (its step minimizer is exactly
// x_hat + beta h^2 g, so only Newton's tolerance separates them), which
// needs a_0 = g; a_0 = 0 would lag by g h^2 / 4 at the first step already.
static void test_world_newmark_free_fall(void **state) {
    (void)state;
    ipcc_mesh *mesh = ipcc_test_box_mesh(1, 1, 1, 0.1, 0.1, 0.1);
    ipcc_body_def body = ipcc_default_body_def();
    body.mesh = mesh;
    body.velocity[0] = 0.3;
    body.velocity[1] = 1.0;
    ipcc_world_def def = def_for(IPCC_NEWMARK, 0.01);
    def.newton_tolerance = 1e-9;
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&def, &w), IPCC_OK);
    assert_int_equal(ipcc_world_add_body(w, &body, NULL), IPCC_OK);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    const double *X = ipcc_world_rest_positions(w);
    int n = ipcc_world_num_vertices(w);
    for (int s = 1; s <= 20; ++s) {
        assert_int_equal(ipcc_world_step(w, NULL), IPCC_OK);
        const double *x = ipcc_world_positions(w), *v = ipcc_world_velocities(w);
        double t = s * def.time_step;
        for (int i = 0; i < n; ++i) {
            assert_near(x[3 * i], X[3 * i] + 0.3 * t, 1e-12, 0);
            assert_near(x[3 * i + 1], X[3 * i + 1] + t - 0.5 * 9.81 * t * t, 1e-12, 0);
            assert_near(x[3 * i + 2], X[3 * i + 2], 1e-12, 0);
            assert_near(v[3 * i + 1], 1.0 - 9.81 * t, 1e-9, 0);
        }
    }
    ipcc_world_destroy(w);
    ipcc_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_potential_scale),
        cmocka_unit_test(test_predict),
        cmocka_unit_test(test_update),
        cmocka_unit_test(test_newmark_round_trip),
        cmocka_unit_test(test_constant_acceleration_trajectories),
        cmocka_unit_test(test_initial_acceleration),
        cmocka_unit_test(test_world_newmark_free_fall),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
