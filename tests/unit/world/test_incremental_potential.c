// The assembled incremental potential of a whole world against finite
// differences: energy -> gradient on the unknowns, gradient -> the assembled
// sparse Hessian (expanded to dense), for every integrator and material, with
// a Dirichlet group removing some dofs, a Neumann load, and (dynamic
// integrators) stiffness-proportional damping and a non-default Newmark
// beta. This checks the scaling by h^2, the dof map, the triplet scatter and
// the inertia, gravity, load and damping terms together. At every state
// evaluated, evaluate's returned energy must equal energy()'s (the line
// search compares one with the other), also with contact and friction.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"
#include "contact/friction.h"
#include "support.h"
#include "world_checks.h"
#include "world/world.h"
#include "world/world_shapes.h"
#include "world/incremental_potential.h"
#include "world/boundary_conditions.h"

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

// evaluate's energy `ev` against energy() at the same state x: both end in
// one sum (incremental_potential.c, smooth_energy: tet energies with their
// damping in tet order, then s (tets + gravity), s load, inertia, barrier,
// friction), so they must be bit-identical, damping included.
static void assert_energy_agrees(ipcc_world *w, double ev, const double *x) {
    ipcc_objective obj = ipcc_incremental_potential(w);
    double en = NAN;
    assert_int_equal(obj.energy(obj.ctx, x, &en), IPCC_OK);
    if (!(ev == en || (isnan(ev) && isnan(en))))
        fail_msg("evaluate's energy %.17g != energy() %.17g (relative %.3g, must be bit-identical)", ev, en,
                 fabs(ev - en) / fabs(en));
}

static void gradient_of_unknowns(const double *u, void *ctx, double *gu) {
    fd_ctx *c = ctx;
    scatter_unknowns(c, u);
    ipcc_triplets_clear(&c->T);
    double ev = NAN;
    assert_int_equal(c->obj.evaluate(c->obj.ctx, c->x, NULL, c->g, &c->T, &ev), IPCC_OK);
    assert_true(isfinite(ev));
    assert_energy_agrees(c->w, ev, c->x);
    for (int d = 0; d < 3 * c->w->n; ++d)
        if (c->w->dof_map[d] >= 0) gu[c->w->dof_map[d]] = c->g[d];
}

static void check_world(ipcc_integrator integrator, ipcc_material_model model, double damping) {
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
    def.damping = damping;
    def.newmark_beta = 0.3;
    def.newmark_gamma = 0.6;
    def.project_hessian = false; // compare the exact Hessian
    def.time_step = 0.05;
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&def, &w), IPCC_OK);
    assert_int_equal(ipcc_world_add_body(w, &body, NULL), IPCC_OK);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    assert_true(ipcc_world_step(w, NULL) >= 0); // a non-trivial x_n, v_n, a_n
    // Set up the next step as ipcc_world_step does.
    memcpy(w->x_start, w->x, sizeof(double) * 3 * (size_t)w->n);
    ipcc_dirichlet_prepare_step(w);
    ipcc_integrator_predict(&w->def, w->h, 3 * w->n, w->x, w->v, w->a, w->x_hat);
    assert_true(w->has_load);
    assert_true((w->damp_H != NULL) == (integrator != IPCC_STATIC && damping > 0));
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

    // The step's start, then the deformed state (and, below, the 2 nu states
    // of the finite-difference Hessian: gradient_of_unknowns checks each).
    ipcc_triplets_clear(&c.T);
    double ev = NAN;
    assert_int_equal(c.obj.evaluate(c.obj.ctx, w->x, NULL, c.g, &c.T, &ev), IPCC_OK);
    assert_energy_agrees(w, ev, w->x);
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
        for (int k = 0; k < 4; ++k) {
            check_world(integrators[i], models[k], 0.02);
            if (integrators[i] != IPCC_STATIC) check_world(integrators[i], models[k], 0.0);
        }
}

// The world's objective with every evaluation checked: evaluate's energy
// against energy() at the same state, then passed on to Newton unchanged.
// Counts the evaluations at which the barrier and friction were active.
typedef struct checked_objective {
    ipcc_world *w;
    ipcc_objective inner;
    int evaluations, with_contact, with_friction;
} checked_objective;

static ipcc_status checked_energy(void *ctx, const double *x, double *e) {
    checked_objective *c = ctx;
    return c->inner.energy(c->inner.ctx, x, e);
}

static ipcc_status checked_evaluate(void *ctx, const double *x, const double *lift, double *g,
                                    ipcc_triplets *T, double *e) {
    checked_objective *c = ctx;
    double ev = NAN;
    assert_int_equal(c->inner.evaluate(c->inner.ctx, x, lift, g, T, &ev), IPCC_OK);
    assert_true(isfinite(ev)); // Newton evaluates feasible states only
    assert_energy_agrees(c->w, ev, x);
    c->evaluations++;
    const ipcc_step_context sc = ipcc_world_step_context(c->w);
    double ec = 0;
    assert_int_equal(ipcc_contact_energy(c->w->contact, &sc, x, &ec), IPCC_OK);
    c->with_contact += ec > 0;
    c->with_friction +=
        ipcc_friction_count(c->w->friction) > 0 && ipcc_friction_energy(c->w->friction, &sc, x) > 0;
    *e = ev;
    return IPCC_OK;
}

static ipcc_status checked_max_step(void *ctx, const double *x, const double *p, double *alpha) {
    checked_objective *c = ctx;
    return c->inner.max_step(c->inner.ctx, x, p, alpha);
}

static double checked_residual(void *ctx, const double *g) {
    checked_objective *c = ctx;
    return c->inner.residual(c->inner.ctx, g);
}

// One step as ipcc_world_step solves it (two friction lagging passes), with
// the checked objective; then x goes back to the step's start.
static void checked_step(ipcc_world *w, ipcc_newton *nw, checked_objective *c) {
    int m = 3 * w->n;
    ipcc_contact_begin_step(w->contact);
    memcpy(w->x_start, w->x, sizeof(double) * (size_t)m);
    ipcc_dirichlet_prepare_step(w);
    ipcc_world_shapes_prepare_step(w);
    ipcc_integrator_predict(&w->def, w->h, m, w->x, w->v, w->a, w->x_hat);
    if (w->damp_H) ipcc_damping_prepare(w);
    w->balance_stiffness = true;
    ipcc_objective obj = {.ctx = c,
                          .energy = checked_energy,
                          .evaluate = checked_evaluate,
                          .max_step = checked_max_step,
                          .residual = checked_residual};
    ipcc_newton_params params = {.tolerance = w->def.newton_tolerance * w->bbox_diagonal * w->def.time_step,
                                 .residual_tolerance = w->def.newton_tolerance * w->bbox_diagonal,
                                 .max_iterations = w->def.newton_max_iterations};
    for (int pass = 0; pass < 2; ++pass) {
        w->lag_friction = true;
        ipcc_newton_result r;
        assert_true(ipcc_newton_solve(nw, &obj, &params, ipcc_world_num_dofs(w), w->dof_map, w->num_unknowns,
                                      w->x_target, w->x, &r) >= 0);
    }
    memcpy(w->x, w->x_start, sizeof(double) * (size_t)m);
}

// Contact and friction: two cubes, the lower one sliding over the ground,
// the upper one landing on it. At every Newton iterate of a step at the
// impact and of one while sliding (the world's own steps in between),
// evaluate's energy equals energy()'s, without and with damping.
static void test_energy_agrees_with_contact_and_friction(void **state) {
    (void)state;
    for (int damped = 0; damped < 2; ++damped) {
        char text[1024];
        snprintf(
            text, sizeof text,
            "{\"time_step\": 0.01, \"duration\": 1, \"gravity\": [0, -9.81, 0], \"damping\": %g,"
            " \"contact\": {\"friction\": 0.5},"
            " \"materials\": {\"r\": {\"model\": \"neo_hookean\", \"density\": 1000, \"youngs_modulus\": 1e5,"
            " \"poisson_ratio\": 0.4}},"
            " \"bodies\": [{\"name\": \"lower\", \"mesh\": {\"box\": {\"size\": [0.2, 0.2, 0.2], \"cells\": "
            "[2, 2, 2]}},"
            "  \"material\": \"r\", \"translation\": [-0.1, 0.01, -0.1], \"velocity\": [1, 0, 0]},"
            " {\"name\": \"upper\", \"mesh\": {\"box\": {\"size\": [0.1, 0.1, 0.1], \"cells\": [1, 1, 1]}},"
            "  \"material\": \"r\", \"translation\": [-0.05, 0.23, -0.05], \"velocity\": [1, 0, 0]}],"
            " \"obstacles\": [{\"type\": \"half_space\", \"point\": [0, 0, 0], \"normal\": [0, 1, 0]}]}",
            damped ? 0.01 : 0.0);
        ipcc_world *w = ipcc_test_world_from_json(text, IPCC_SOURCE_DIR "/examples");
        if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
        ipcc_newton *nw = ipcc_newton_create();
        checked_objective c = {.w = w, .inner = ipcc_incremental_potential(w)};
        int checked_at[2] = {4, 12};
        for (int s = 0, k = 0; k < 2; ++s) {
            if (s == checked_at[k]) {
                assert_true(w->contact && w->friction && (w->damp_H != NULL) == damped);
                checked_step(w, nw, &c);
                k++;
            }
            assert_true(ipcc_world_step(w, NULL) >= 0);
        }
        print_message("damping %d: %d evaluations checked, %d with contact, %d with friction\n", damped,
                      c.evaluations, c.with_contact, c.with_friction);
        assert_true(c.with_contact >= 4 && c.with_friction >= 2);
        ipcc_newton_destroy(nw);
        ipcc_world_destroy(w);
    }
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
    ipcc_integrator_predict(&w->def, w->h, 3 * w->n, w->x, w->v, w->a, w->x_hat);
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

// Lazy projection (newton.c's preamble): an evaluate with lazy_projection
// writes the exact elastic blocks as both values, and projected_hessian
// then writes the projected ones into the exact values: bit for bit the
// values, energy and gradient of an evaluate that computes both at once
// (projected in val, exact in exact), damping included.
static void test_lazy_projection(void **state) {
    (void)state;
    ipcc_mesh *mesh = ipcc_test_box_mesh(3, 2, 2, 0.3, 0.2, 0.2);
    ipcc_body_def body = ipcc_default_body_def();
    body.mesh = mesh;
    ipcc_world_def def = ipcc_default_world_def();
    def.damping = 0.05;
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&def, &w), IPCC_OK);
    assert_int_equal(ipcc_world_add_body(w, &body, NULL), IPCC_OK);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    memcpy(w->x_start, w->x, sizeof(double) * 3 * (size_t)w->n);
    ipcc_dirichlet_prepare_step(w);
    ipcc_integrator_predict(&w->def, w->h, 3 * w->n, w->x, w->v, w->a, w->x_hat);
    assert_non_null(w->damp_H);
    ipcc_damping_prepare(w);
    int m = 3 * w->n;
    double *x = malloc(sizeof(double) * (size_t)m), *g1 = malloc(sizeof(double) * (size_t)m);
    double *g2 = malloc(sizeof(double) * (size_t)m);
    for (int d = 0; d < m; ++d) // compressed along x, sheared in y: negative curvature to project
        x[d] = w->x[d] * (d % 3 == 0 ? 0.6 : 1.0) + (d % 3 == 1 ? 0.2 * w->x[d - 1] : 0.0);
    ipcc_objective obj = ipcc_incremental_potential(w);
    assert_non_null(obj.projected_hessian);
    ipcc_triplets both = {.want_exact = true}, lazy = {.want_exact = true, .lazy_projection = true};
    double e1 = NAN, e2 = NAN;
    assert_int_equal(obj.evaluate(obj.ctx, x, NULL, g1, &both, &e1), IPCC_OK);
    assert_false(both.projection_pending);
    assert_int_equal(obj.evaluate(obj.ctx, x, NULL, g2, &lazy, &e2), IPCC_OK);
    assert_true(lazy.projection_pending);
    assert_true(isfinite(e1) && e1 == e2);
    assert_memory_equal(g1, g2, sizeof(double) * (size_t)m);
    assert_int_equal(both.count, lazy.count);
    assert_int_equal(both.exact_begin, lazy.exact_begin);
    assert_int_equal(both.exact_end, lazy.exact_end);
    assert_true(both.exact_end > both.exact_begin);
    int b = both.exact_begin, n = both.exact_end - b, differ = 0;
    for (int k = 0; k < n; ++k) { // before: the exact values twice
        assert_true(lazy.val[b + k] == both.exact[k] && lazy.exact[k] == both.exact[k]);
        differ += both.val[b + k] != both.exact[k];
    }
    assert_true(differ > 0); // the state has something to project
    assert_int_equal(obj.projected_hessian(obj.ctx, x, &lazy), IPCC_OK);
    assert_false(lazy.projection_pending);
    assert_memory_equal(lazy.exact, both.val + b, sizeof(double) * (size_t)n);
    assert_memory_equal(lazy.row, both.row, sizeof(int) * (size_t)both.count);
    assert_memory_equal(lazy.col, both.col, sizeof(int) * (size_t)both.count);
    print_message("lazy projection: %d exact entries, %d of them projected differently\n", n, differ);
    ipcc_triplets_free(&both);
    ipcc_triplets_free(&lazy);
    free(x);
    free(g1);
    free(g2);
    ipcc_world_destroy(w);
    ipcc_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_assembled_derivatives),
        cmocka_unit_test(test_energy_agrees_with_contact_and_friction),
        cmocka_unit_test(test_projected_hessian_is_psd),
        cmocka_unit_test(test_lazy_projection),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
