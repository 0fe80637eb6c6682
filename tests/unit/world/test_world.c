// World-level physics against analytic answers: free fall, momentum
// conservation, exact prescribed motion, Newmark energy behaviour, the
// inversion filter under violent prescribed motion, and input validation.
#include <math.h>
#include <string.h>

#include "support.h"
#include "world_checks.h"

static ipcc_world *make_world(ipcc_world_def def, const ipcc_body_def *body) {
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&def, &w), IPCC_OK);
    assert_int_equal(ipcc_world_add_body(w, body, NULL), IPCC_OK);
    return w;
}

// Implicit Euler free fall from rest: y_n = y_0 - g h^2 n (n + 1) / 2 exactly.
static void test_free_fall_closed_form(void **state) {
    (void)state;
    ipcc_mesh *mesh = ipcc_test_box_mesh(2, 2, 2, 0.1, 0.1, 0.1);
    ipcc_body_def body = ipcc_default_body_def();
    body.mesh = mesh;
    body.translation[1] = 1.0;
    ipcc_world_def def = ipcc_default_world_def();
    ipcc_world *w = make_world(def, &body);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    int n = ipcc_world_num_vertices(w);
    const double *X = ipcc_world_rest_positions(w);
    double tol = def.newton_tolerance * ipcc_world_bbox_diagonal(w) * def.time_step, h = def.time_step;
    for (int s = 1; s <= 50; ++s) {
        ipcc_step_stats st;
        assert_int_equal(ipcc_world_step(w, &st), IPCC_OK);
        const double *x = ipcc_world_positions(w);
        double drop = 9.81 * h * h * s * (s + 1) / 2.0;
        for (int i = 0; i < n; ++i) {
            assert_near(x[3 * i + 1], X[3 * i + 1] - drop, tol, 0);
            assert_near(x[3 * i + 1], X[3 * i + 1] - drop, 1e-9, 0); // exact for this quadratic problem
            assert_near(x[3 * i], X[3 * i], 1e-12, 0);
            assert_near(x[3 * i + 2], X[3 * i + 2], 1e-12, 0);
        }
    }
    ipcc_world_destroy(w);
    ipcc_mesh_destroy(mesh);
}

// A free, spinning, deforming body without gravity keeps its linear momentum.
static void check_momentum(ipcc_integrator integrator, ipcc_material_model model) {
    ipcc_mesh *mesh = ipcc_test_box_mesh(3, 3, 3, 0.2, 0.3, 0.25);
    ipcc_body_def body = ipcc_default_body_def();
    body.mesh = mesh;
    body.material.model = model;
    body.material.youngs_modulus = 1e5;
    body.material.poisson_ratio = 0.3;
    double v0[3] = {1.0, 0.5, -0.2}, om[3] = {2.0, 5.0, 1.0};
    memcpy(body.velocity, v0, sizeof v0);
    memcpy(body.angular_velocity, om, sizeof om);
    ipcc_world_def def = ipcc_default_world_def();
    def.gravity[1] = 0;
    def.integrator = integrator;
    ipcc_world *w = make_world(def, &body);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    double p0[3], p[3];
    ipcc_test_momentum(w, p0);
    double scale = sqrt(p0[0] * p0[0] + p0[1] * p0[1] + p0[2] * p0[2]);
    double e_el_max = 0;
    for (int s = 0; s < 100; ++s) {
        assert_true(ipcc_world_step(w, NULL) >= 0);
        ipcc_test_momentum(w, p);
        for (int k = 0; k < 3; ++k)
            assert_near(p[k], p0[k], 1e-10 * scale, 0);
        ipcc_test_assert_no_inversion(w);
        ipcc_test_assert_intersection_free(w, __func__);
        e_el_max = fmax(e_el_max, ipcc_world_elastic_energy(w));
    }
    assert_true(e_el_max > 1e-6); // the body really deformed
    ipcc_world_destroy(w);
    ipcc_mesh_destroy(mesh);
}

static void test_momentum_conserved(void **state) {
    (void)state;
    check_momentum(IPCC_IMPLICIT_EULER, IPCC_NEO_HOOKEAN);
    check_momentum(IPCC_NEWMARK, IPCC_NEO_HOOKEAN);
    check_momentum(IPCC_IMPLICIT_EULER, IPCC_FIXED_COROTATED);
    check_momentum(IPCC_IMPLICIT_EULER, IPCC_STVK);
}

// Both ends of a bar rotate in opposite senses; prescribed vertices follow
// the exact rigid rotation, and become free after `end`.
static void test_dirichlet_exact_rotation(void **state) {
    (void)state;
    ipcc_mesh *mesh = ipcc_test_box_mesh(10, 2, 2, 1.0, 0.2, 0.2);
    ipcc_dirichlet_def bc[2];
    ipcc_test_twist_ends(3.0, 0.2, bc);
    bc[1].velocity[0] = 0.1;
    ipcc_body_def body = ipcc_default_body_def();
    body.mesh = mesh;
    body.num_dirichlet = 2;
    body.dirichlet = bc;
    ipcc_world_def def = ipcc_default_world_def();
    def.gravity[1] = 0;
    ipcc_world *w = make_world(def, &body);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    const double *X = ipcc_world_rest_positions(w);
    int n = ipcc_world_num_vertices(w);
    for (int s = 1; s <= 20; ++s) {
        assert_true(ipcc_world_step(w, NULL) >= 0);
        ipcc_test_assert_no_inversion(w);
        ipcc_test_assert_intersection_free(w, __func__);
        const double *x = ipcc_world_positions(w);
        double t = ipcc_world_time(w);
        for (int i = 0; i < n; ++i) {
            double X0 = X[3 * i], Y = X[3 * i + 1] - 0.1, Z = X[3 * i + 2] - 0.1;
            double sign, shift;
            if (X0 < 0.01) {
                sign = 1, shift = 0;
            } else if (X0 > 0.99) {
                sign = -1, shift = 0.1 * t;
            } else {
                continue;
            }
            double th = 3.0 * sign * t;
            assert_near(x[3 * i], X0 + shift, 1e-10, 0);
            assert_near(x[3 * i + 1], 0.1 + cos(th) * Y - sin(th) * Z, 1e-10, 0);
            assert_near(x[3 * i + 2], 0.1 + sin(th) * Y + cos(th) * Z, 1e-10, 0);
        }
    }
    // t = 0.2: the conditions have ended.
    assert_near(ipcc_world_time(w), 0.2, 1e-12, 0);
    assert_true(ipcc_world_step(w, NULL) >= 0);
    for (int i = 0; i < n; ++i)
        assert_false(ipcc_world_vertex_is_prescribed(w, i));
    ipcc_world_destroy(w);
    ipcc_mesh_destroy(mesh);
}

// Twist a bar, release it, and watch its total energy: Newmark keeps it,
// implicit Euler dissipates it. Newmark's energy is measured to 1 %, so its
// Newton tolerance is 1e-7 (|p| <= 4e-10 m here). Implicit Euler needs no
// such precision, and as its bar comes to rest that tolerance sits at the
// incremental potential's rounding floor: the energy decrease of a step of
// 4e-10 m (1/2 m |p|^2, ~3e-20 J per 0.4 kg vertex) is of the order of the
// rounding of E itself, the line search can no longer tell which way is
// down, and a step can end
// unconverged at the iteration cap, or not, depending on the last bits of
// CHOLMOD's factorization, i.e. on the BLAS kernels the CPU selects
// (README, Limits). 1e-6 keeps it well above that floor.
static double energy_after_release(ipcc_integrator integrator, double tolerance, double *e_release) {
    ipcc_mesh *mesh = ipcc_test_box_mesh(8, 2, 2, 0.8, 0.2, 0.2);
    ipcc_dirichlet_def bc[2];
    ipcc_test_twist_ends(4.0, 0.1, bc);
    ipcc_body_def body = ipcc_default_body_def();
    body.mesh = mesh;
    body.num_dirichlet = 2;
    body.dirichlet = bc;
    body.material.youngs_modulus = 1e5;
    ipcc_world_def def = ipcc_default_world_def();
    def.gravity[1] = 0;
    def.integrator = integrator;
    def.newton_tolerance = tolerance;
    def.time_step = 0.005;
    ipcc_world *w = make_world(def, &body);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    double e = 0;
    *e_release = -1;
    for (int s = 0; s < 220; ++s) {
        assert_int_equal(ipcc_world_step(w, NULL), IPCC_OK);
        ipcc_test_assert_no_inversion(w);
        ipcc_test_assert_intersection_free(w, __func__);
        e = ipcc_test_kinetic_energy(w) + ipcc_world_elastic_energy(w);
        if (s == 20) *e_release = e; // first state fully after release at t = 0.1
    }
    ipcc_world_destroy(w);
    ipcc_mesh_destroy(mesh);
    return e;
}

static void test_newmark_conserves_energy(void **state) {
    (void)state;
    double e0, e1;
    e1 = energy_after_release(IPCC_NEWMARK, 1e-7, &e0);
    print_message("newmark: energy at release %.6g J, 1 s later %.6g J (%.3f%%)\n", e0, e1,
                  100 * (e1 - e0) / e0);
    assert_true(e0 > 0);
    assert_near(e1, e0, 0, 0.01);
    e1 = energy_after_release(IPCC_IMPLICIT_EULER, 1e-6, &e0);
    print_message("implicit Euler: energy at release %.6g J, 1 s later %.6g J\n", e0, e1);
    assert_true(e1 < 0.8 * e0);
}

// A stiffness-free model (StVK has no barrier against inversion) yanked at
// 50 m/s with a huge time step: the step filter alone keeps every tet positive.
static void test_violent_motion_stays_inversion_free(void **state) {
    (void)state;
    ipcc_material_model models[] = {IPCC_STVK, IPCC_LINEAR, IPCC_FIXED_COROTATED, IPCC_NEO_HOOKEAN};
    for (size_t k = 0; k < sizeof models / sizeof *models; ++k) {
        ipcc_mesh *mesh = ipcc_test_box_mesh(6, 2, 2, 0.6, 0.2, 0.2);
        ipcc_dirichlet_def bc = ipcc_default_dirichlet_def();
        bc.box_min[0] = 0.99;
        bc.velocity[0] = -50.0; // crush the bar into itself
        bc.end = 0.01;
        ipcc_dirichlet_def fix = ipcc_default_dirichlet_def();
        fix.box_max[0] = 0.01;
        ipcc_dirichlet_def both[2] = {fix, bc};
        ipcc_body_def body = ipcc_default_body_def();
        body.mesh = mesh;
        body.material.model = models[k];
        body.num_dirichlet = 2;
        body.dirichlet = both;
        ipcc_world_def def = ipcc_default_world_def();
        def.time_step = 0.002;
        ipcc_world *w = make_world(def, &body);
        if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
        for (int s = 0; s < 10; ++s) {
            ipcc_status st = ipcc_world_step(w, NULL);
            assert_true(st == IPCC_OK || st == IPCC_WARN_NOT_CONVERGED);
            ipcc_test_assert_no_inversion(w);
            ipcc_test_assert_intersection_free(w, __func__);
        }
        ipcc_world_destroy(w);
        ipcc_mesh_destroy(mesh);
    }
}

// A prescribed motion of 1 m in one step (2.5 bar lengths, through the whole
// bar) is carried out by filtered Newton steps: no tet ever inverts, and a
// converged step leaves the prescribed vertices exactly on their targets.
static void test_large_prescribed_motion(void **state) {
    (void)state;
    ipcc_mesh *mesh = ipcc_test_box_mesh(4, 1, 1, 0.4, 0.1, 0.1);
    ipcc_dirichlet_def bc = ipcc_default_dirichlet_def();
    bc.box_min[0] = 0.99;
    bc.velocity[0] = -100.0;
    ipcc_body_def body = ipcc_default_body_def();
    body.mesh = mesh;
    body.num_dirichlet = 1;
    body.dirichlet = &bc;
    ipcc_world_def def = ipcc_default_world_def();
    ipcc_world *w = make_world(def, &body);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    int n = ipcc_world_num_vertices(w);
    double before[3 * 64];
    assert_true(n <= 64);
    memcpy(before, ipcc_world_positions(w), sizeof(double) * 3 * (size_t)n);
    ipcc_step_stats st;
    ipcc_status rc = ipcc_world_step(w, &st);
    assert_true(rc == IPCC_OK || rc == IPCC_WARN_NOT_CONVERGED);
    ipcc_test_assert_no_inversion(w);
    ipcc_test_assert_intersection_free(w, __func__);
    const double *x = ipcc_world_positions(w);
    int moved = 0;
    for (int i = 0; i < n; ++i)
        if (before[3 * i] >= 0.4 * 0.99 - 1e-12 && rc == IPCC_OK) {
            assert_true(x[3 * i] == before[3 * i] - 1.0);
            moved++;
        }
    assert_true(rc != IPCC_OK || moved == 4);
    ipcc_world_destroy(w);
    ipcc_mesh_destroy(mesh);
}

static void test_invalid_definitions(void **state) {
    (void)state;
    ipcc_world *w = NULL;
    ipcc_world_def def = ipcc_default_world_def();
    def.time_step = -1;
    assert_int_equal(ipcc_world_create(&def, &w), IPCC_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ipcc_last_error(), "time_step"));
    assert_null(w);
    def = ipcc_default_world_def();
    def.newton_max_iterations = 0;
    assert_int_equal(ipcc_world_create(&def, &w), IPCC_ERR_INVALID_ARGUMENT);

    def = ipcc_default_world_def();
    assert_int_equal(ipcc_world_create(&def, &w), IPCC_OK);
    ipcc_mesh *mesh = ipcc_test_box_mesh(1, 1, 1, 1, 1, 1);
    ipcc_body_def body = ipcc_default_body_def();
    body.mesh = mesh;
    body.name = "jelly";
    body.material.poisson_ratio = 0.5;
    assert_int_equal(ipcc_world_add_body(w, &body, NULL), IPCC_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ipcc_last_error(), "jelly"));
    assert_non_null(strstr(ipcc_last_error(), "poisson_ratio"));
    body.material = ipcc_default_material();
    body.scale[2] = 0;
    assert_int_equal(ipcc_world_add_body(w, &body, NULL), IPCC_ERR_INVALID_ARGUMENT);
    body.scale[2] = NAN;
    assert_int_equal(ipcc_world_add_body(w, &body, NULL), IPCC_ERR_INVALID_ARGUMENT);
    assert_int_equal(ipcc_world_num_bodies(w), 0);
    // A step before the start, and a start without bodies, are refused.
    assert_int_equal(ipcc_world_step(w, NULL), IPCC_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ipcc_last_error(), "call ipcc_world_start()"));
    assert_int_equal(ipcc_world_start(w), IPCC_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ipcc_last_error(), "no bodies"));
    // With a body, still unstarted: the step is refused and changes nothing.
    assert_int_equal(ipcc_world_add_body(w, &body, NULL), IPCC_ERR_INVALID_ARGUMENT); // scale still NaN
    body.scale[2] = 1;
    assert_int_equal(ipcc_world_add_body(w, &body, NULL), IPCC_OK);
    ipcc_step_stats st = {.step = -7};
    assert_int_equal(ipcc_world_step(w, &st), IPCC_ERR_INVALID_ARGUMENT);
    assert_int_equal(st.step, -7);
    assert_int_equal(ipcc_world_step_count(w), 0);
    assert_true(ipcc_world_time(w) == 0);
    assert_int_equal(ipcc_world_start(w), IPCC_OK);
    assert_int_equal(ipcc_world_step(w, &st), IPCC_OK);
    assert_int_equal(st.step, 1);
    ipcc_world_destroy(w);
    ipcc_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_free_fall_closed_form),
        cmocka_unit_test(test_momentum_conserved),
        cmocka_unit_test(test_dirichlet_exact_rotation),
        cmocka_unit_test(test_newmark_conserves_energy),
        cmocka_unit_test(test_violent_motion_stays_inversion_free),
        cmocka_unit_test(test_large_prescribed_motion),
        cmocka_unit_test(test_invalid_definitions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
