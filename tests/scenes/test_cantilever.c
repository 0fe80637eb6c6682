// Static cantilever under its own weight against Euler-Bernoulli theory, and
// Newton's quadratic convergence on the resulting nonlinear static problem.
//
// Beam: L = 1 m along x, square a x a section (a = 0.1 m), clamped at x = 0
// (Dirichlet, all vertices of that face), gravity -y, nu = 0 (no Poisson
// coupling, as beam theory assumes). Euler-Bernoulli tip deflection under the
// uniform load q = rho g a^2:  delta = q L^4 / (8 E I),  I = a^4 / 12.
// E = 1e9 Pa keeps delta / L ~ 1.5e-3, the small-deflection regime. Shear
// (Timoshenko) adds ~0.8 % for this slenderness. Linear tets lock in bending,
// so coarse meshes are too stiff; the error must fall at second order.
// Finer meshes (80x8x8, 160x16x16) are in bench/cantilever.
#include <math.h>

#include "support.h"
#include "world_checks.h"
#include "world/world.h"

static const double L = 1.0, A = 0.1, RHO = 1000.0, G = 9.81;

static bool project_hessian = true;

static ipcc_world *cantilever(int nx, int ny, double E, ipcc_material_model model, double tol,
                              ipcc_mesh **mesh) {
    *mesh = ipcc_test_box_mesh(nx, ny, ny, L, A, A);
    static ipcc_dirichlet_def clamp;
    clamp = ipcc_default_dirichlet_def();
    clamp.box_max[0] = 1e-9; // the x = 0 face
    ipcc_body_def body = ipcc_default_body_def();
    body.mesh = *mesh;
    body.material.model = model;
    body.material.youngs_modulus = E;
    body.material.poisson_ratio = 0.0;
    body.material.density = RHO;
    body.num_dirichlet = 1;
    body.dirichlet = &clamp;
    ipcc_world_def def = ipcc_default_world_def();
    def.integrator = IPCC_STATIC;
    def.gravity[1] = -G;
    def.newton_tolerance = tol;
    def.project_hessian = project_hessian;
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&def, &w), IPCC_OK);
    assert_int_equal(ipcc_world_add_body(w, &body, NULL), IPCC_OK);
    return w;
}

// Mean downward displacement of the free-end face.
static double tip_deflection(const ipcc_world *w) {
    const double *x = ipcc_world_positions(w), *X = ipcc_world_rest_positions(w);
    double sum = 0;
    int count = 0;
    for (int i = 0; i < ipcc_world_num_vertices(w); ++i)
        if (X[3 * i] > L - 1e-9) {
            sum += X[3 * i + 1] - x[3 * i + 1];
            count++;
        }
    assert_true(count > 0);
    return sum / count;
}

static void test_euler_bernoulli_refinement(void **state) {
    (void)state;
    const double E = 1e9;
    double I = pow(A, 4) / 12, q = RHO * G * A * A, eb = q * pow(L, 4) / (8 * E * I);
    int nx[] = {10, 20, 40};
    double err[3], tip[3];
    for (int k = 0; k < 3; ++k) {
        ipcc_mesh *mesh;
        ipcc_world *w = cantilever(nx[k], nx[k] / 10, E, IPCC_NEO_HOOKEAN, 1e-10, &mesh);
        if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
        ipcc_step_stats st;
        assert_int_equal(ipcc_world_step(w, &st), IPCC_OK);
        ipcc_test_assert_no_inversion(w);
        ipcc_test_assert_intersection_free(w, __func__);
        tip[k] = tip_deflection(w);
        err[k] = fabs(tip[k] - eb) / eb;
        print_message("cantilever %dx%dx%d: tip %.6e m, Euler-Bernoulli %.6e m, ratio %.4f\n", nx[k],
                      nx[k] / 10, nx[k] / 10, tip[k], eb, tip[k] / eb);
        ipcc_world_destroy(w);
        ipcc_mesh_destroy(mesh);
    }
    // Approaches from below (linear tets are too stiff), monotonically, at ~2nd order.
    for (int k = 0; k < 3; ++k)
        assert_true(tip[k] < eb * 1.01);
    // Measured: 1.69 for the coarse, pre-asymptotic pair, 2.63 for the next (4 is the asymptote).
    assert_true(err[1] < err[0] / 1.5);
    assert_true(err[2] < err[1] / 2.3);
    assert_true(err[2] < 0.2);
    // Richardson extrapolation of the two finest (error ~ h^2).
    double extrapolated = tip[2] + (tip[2] - tip[1]) / 3.0;
    print_message("Richardson extrapolation: %.6e m (ratio %.4f)\n", extrapolated, extrapolated / eb);
    assert_near(extrapolated, eb, 0, 0.1);
}

// All four models agree in the small-strain limit.
static void test_models_agree_at_small_strain(void **state) {
    (void)state;
    ipcc_material_model models[] = {IPCC_NEO_HOOKEAN, IPCC_FIXED_COROTATED, IPCC_STVK, IPCC_LINEAR};
    double tips[4];
    for (int k = 0; k < 4; ++k) {
        ipcc_mesh *mesh;
        ipcc_world *w = cantilever(20, 2, 1e9, models[k], 1e-10, &mesh);
        if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
        assert_int_equal(ipcc_world_step(w, NULL), IPCC_OK);
        tips[k] = tip_deflection(w);
        ipcc_world_destroy(w);
        ipcc_mesh_destroy(mesh);
    }
    for (int k = 1; k < 4; ++k)
        assert_near(tips[k], tips[0], 0, 1e-2);
}

// A softer beam (delta ~ 0.15 L, geometrically nonlinear): Newton's steps
// shrink quadratically once close to the solution. Exact Newton is used
// (project_hessian = false): bending compresses the lower fibres, where the
// Neo-Hookean element Hessians are indefinite, so the PSD-projected Hessian
// differs from the true one at the solution and converges only linearly.
static void test_newton_quadratic_on_nonlinear_static(void **state) {
    (void)state;
    ipcc_mesh *mesh;
    project_hessian = false;
    ipcc_world *w = cantilever(20, 2, 1e7, IPCC_NEO_HOOKEAN, 1e-10, &mesh);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    ipcc_step_stats st;
    ipcc_status status = ipcc_world_step(w, &st);
    const double *h = ipcc_newton_residual_history(w->newton);
    int pairs = 0;
    for (int k = 0; k + 1 < st.newton_iterations; ++k) {
        print_message("iteration %d: |p|_inf = %.3e\n", k, h[k]);
        if (h[k] < 1e-3 && h[k + 1] > 1e-9) { // asymptotic range, above the roundoff floor
            assert_true(h[k + 1] <= 50.0 * h[k] * h[k]);
            pairs++;
        }
    }
    assert_int_equal(status, IPCC_OK);
    assert_true(pairs >= 1);
    assert_true(tip_deflection(w) > 0.05);
    ipcc_world_destroy(w);
    ipcc_mesh_destroy(mesh);
    project_hessian = true;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_euler_bernoulli_refinement),
        cmocka_unit_test(test_models_agree_at_small_strain),
        cmocka_unit_test(test_newton_quadratic_on_nonlinear_static),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
