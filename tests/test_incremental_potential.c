// The assembled incremental potential of a whole world against finite
// differences: energy -> gradient on the unknowns, gradient -> the assembled
// sparse Hessian (expanded to dense), for every integrator and material, with
// a Dirichlet group removing some dofs, a Neumann load, and (dynamic
// integrators) stiffness-proportional damping and a non-default Newmark
// beta. This checks the scaling by h^2, the dof map, the triplet scatter and
// the inertia, gravity, load and damping terms together.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "world_checks.h"
#include "world_internal.h"

typedef struct fd_ctx {
    ipcc_world *w;
    ipcc_objective obj;
    double *x;       // full state used for the prescribed dofs
    double *g;       // gradient scratch (3n)
    ipcc_triplets T; // Hessian scratch
} fd_ctx;

// Energy as a function of the unknowns only.
static void scatter_unknowns(const fd_ctx *c, const double *u) {
    for (int d = 0; d < 3 * c->w->n; ++d)
        if (c->w->dof_map[d] >= 0) c->x[d] = u[c->w->dof_map[d]];
}

static double energy_of_unknowns(const double *u, void *ctx) {
    fd_ctx *c = ctx;
    scatter_unknowns(c, u);
    double e = NAN;
    assert_int_equal(c->obj.energy(c->obj.ctx, c->x, &e), IPCC_OK);
    return e;
}

static void gradient_of_unknowns(const double *u, void *ctx, double *gu) {
    fd_ctx *c = ctx;
    scatter_unknowns(c, u);
    ipcc_triplets_clear(&c->T);
    double e = NAN;
    assert_int_equal(c->obj.evaluate(c->obj.ctx, c->x, NULL, c->g, &c->T, &e), IPCC_OK);
    for (int d = 0; d < 3 * c->w->n; ++d)
        if (c->w->dof_map[d] >= 0) gu[c->w->dof_map[d]] = c->g[d];
}

static void check_world(ipcc_integrator integrator, ipcc_material_model model) {
    ipcc_mesh *mesh = ipcc_test_box_mesh(2, 1, 1, 0.2, 0.1, 0.1);
    ipcc_dirichlet_def bc = ipcc_default_dirichlet_def();
    bc.box_max[0] = 0.01;
    bc.angular_velocity[0] = 2.0;
    ipcc_body_def body = ipcc_default_body_def();
    body.mesh = mesh;
    body.material.model = model;
    body.material.youngs_modulus = 1e4;
    body.velocity[1] = 0.3;
    body.num_dirichlet = 1;
    body.dirichlet = &bc;
    ipcc_neumann_def load = ipcc_default_neumann_def(); // for ever
    load.box_min[0] = 0.5;
    load.acceleration[0] = 1, load.acceleration[1] = -2, load.acceleration[2] = 3;
    body.num_neumann = 1;
    body.neumann = &load;
    ipcc_world_def def = ipcc_default_world_def();
    def.integrator = integrator;
    def.damping = 0.02;
    def.newmark_beta = 0.3;
    def.newmark_gamma = 0.6;
    def.project_hessian = false; // compare the exact Hessian
    def.time_step = 0.05;
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&def, &w), IPCC_OK);
    assert_int_equal(ipcc_world_add_body(w, &body, NULL), IPCC_OK);
    assert_true(ipcc_world_step(w, NULL) >= 0); // a non-trivial x_n, v_n, a_n
    // Set up the next step as ipcc_world_step does.
    memcpy(w->x_start, w->x, sizeof(double) * 3 * (size_t)w->n);
    ipcc_dirichlet_prepare_step(w);
    ipcc_integrator_predict(&w->def, 3 * w->n, w->x, w->v, w->a, w->x_hat);
    assert_true(w->has_load);
    assert_true((w->damp_H != NULL) == (integrator != IPCC_STATIC));
    if (w->damp_H) ipcc_damping_prepare(w);

    int m = 3 * w->n, nu = w->num_unknowns;
    assert_true(nu > 0 && nu < m); // some dofs are prescribed
    fd_ctx c = {.w = w, .obj = ipcc_incremental_potential(w)};
    c.x = malloc(sizeof(double) * (size_t)m);
    c.g = malloc(sizeof(double) * (size_t)m);
    memcpy(c.x, w->x, sizeof(double) * (size_t)m);
    double *u = malloc(sizeof(double) * (size_t)nu), *g_an = malloc(sizeof(double) * (size_t)nu);
    double *g_fd = malloc(sizeof(double) * (size_t)nu), *H_fd = malloc(sizeof(double) * (size_t)nu * nu);
    double *H_an = calloc((size_t)nu * nu, sizeof(double));
    ipcc_test_seed(11);
    for (int d = 0; d < m; ++d) // a deformed, still valid state
        if (w->dof_map[d] >= 0) u[w->dof_map[d]] = w->x[d] + ipcc_test_random(-0.004, 0.004);

    ipcc_test_fd_gradient(nu, u, energy_of_unknowns, &c, 1e-7, g_fd);
    gradient_of_unknowns(u, &c, g_an);
    assert_true(ipcc_test_rel_error(nu, g_an, g_fd, 1e-8) < 1e-5);

    // Assembled Hessian (upper CSC) expanded to dense.
    ipcc_csc A = {0};
    assert_int_equal(ipcc_csc_assemble(&A, &c.T, nu), 0);
    for (int j = 0; j < nu; ++j)
        for (int k = A.colptr[j]; k < A.colptr[j + 1]; ++k) {
            H_an[A.rowind[k] * nu + j] = A.val[k];
            H_an[j * nu + A.rowind[k]] = A.val[k];
        }
    ipcc_test_fd_hessian(nu, u, gradient_of_unknowns, &c, 1e-7, H_fd);
    double err = ipcc_test_rel_error(nu * nu, H_an, H_fd, 1e-8);
    if (!(err < 1e-5)) fail_msg("integrator %d model %d: Hessian relative error %g", integrator, model, err);

    ipcc_csc_free(&A);
    ipcc_triplets_free(&c.T);
    free(c.x);
    free(c.g);
    free(u);
    free(g_an);
    free(g_fd);
    free(H_fd);
    free(H_an);
    ipcc_world_destroy(w);
    ipcc_mesh_destroy(mesh);
}

static void test_assembled_derivatives(void **state) {
    (void)state;
    ipcc_integrator integrators[] = {IPCC_IMPLICIT_EULER, IPCC_NEWMARK, IPCC_STATIC};
    ipcc_material_model models[] = {IPCC_NEO_HOOKEAN, IPCC_FIXED_COROTATED, IPCC_STVK, IPCC_LINEAR};
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 4; ++k)
            check_world(integrators[i], models[k]);
}

// With projection on, the assembled Hessian is positive semi-definite: a
// quick check through x^T H x >= 0 for random x on a compressed state.
static void test_projected_hessian_is_psd(void **state) {
    (void)state;
    ipcc_mesh *mesh = ipcc_test_box_mesh(3, 2, 2, 0.3, 0.2, 0.2);
    ipcc_body_def body = ipcc_default_body_def();
    body.mesh = mesh;
    ipcc_world_def def = ipcc_default_world_def();
    def.integrator = IPCC_STATIC; // no mass term to hide indefiniteness
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&def, &w), IPCC_OK);
    assert_int_equal(ipcc_world_add_body(w, &body, NULL), IPCC_OK);
    ipcc_dirichlet_prepare_step(w);
    ipcc_integrator_predict(&w->def, 3 * w->n, w->x, w->v, w->a, w->x_hat);
    int m = 3 * w->n;
    double *x = malloc(sizeof(double) * (size_t)m), *g = malloc(sizeof(double) * (size_t)m);
    double *v = malloc(sizeof(double) * (size_t)m), *Hv = malloc(sizeof(double) * (size_t)m);
    for (int d = 0; d < m; ++d)
        x[d] = w->x[d] * (d % 3 == 0 ? 0.7 : 1.0); // compress along x
    ipcc_objective obj = ipcc_incremental_potential(w);
    ipcc_triplets T = {0};
    ipcc_csc A = {0};
    double e = NAN;
    assert_int_equal(obj.evaluate(obj.ctx, x, NULL, g, &T, &e), IPCC_OK);
    assert_true(isfinite(e));
    assert_int_equal(ipcc_csc_assemble(&A, &T, w->num_unknowns), 0);
    ipcc_test_seed(5);
    for (int trial = 0; trial < 200; ++trial) {
        for (int d = 0; d < m; ++d)
            v[d] = ipcc_test_random(-1, 1);
        ipcc_csc_multiply(&A, v, Hv);
        double q = 0, scale = 0;
        for (int d = 0; d < m; ++d)
            q += v[d] * Hv[d], scale += fabs(v[d] * Hv[d]);
        assert_true(q >= -1e-10 * scale);
    }
    ipcc_csc_free(&A);
    ipcc_triplets_free(&T);
    free(x);
    free(g);
    free(v);
    free(Hv);
    ipcc_world_destroy(w);
    ipcc_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_assembled_derivatives),
        cmocka_unit_test(test_projected_hessian_is_psd),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
