// The friction potential of one contact with lambda, T and the weights
// fixed: f0/f1, gradient and Hessian by central differences over tables of
// slips (zero, below and above eps, at eps), PSD Hessians, and the Coulomb
// force magnitude mu lambda when sliding.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contact/friction.h"
#include "support.h"
#include "world/world.h"
#include "world_checks.h"

typedef struct fctx {
    int nv;
    double w[4], T[6], ml, eps;
} fctx;

static double f_energy(const double *dx, void *ctx) {
    fctx *c = ctx;
    return ipcc_friction_potential(c->nv, c->w, c->T, c->ml, c->eps, dx, NULL, NULL, NULL);
}

static void f_grad(const double *dx, void *ctx, double *g) {
    fctx *c = ctx;
    ipcc_friction_potential(c->nv, c->w, c->T, c->ml, c->eps, dx, g, NULL, NULL);
}

static void test_mollifier(void **state) {
    (void)state;
    double eps = 1e-4;
    assert_true(ipcc_friction_f1(0, eps) == 0);
    assert_true(ipcc_friction_f1(eps, eps) == 1);
    assert_true(ipcc_friction_f1(2 * eps, eps) == 1);
    // f0' = f1 (central differences) and C1 at eps.
    for (int k = 1; k < 40; ++k) {
        double y = 2.5 * eps * k / 40, h = 1e-9;
        double d = (ipcc_friction_f0(y + h, eps) - ipcc_friction_f0(y - h, eps)) / (2 * h);
        assert_near(d, ipcc_friction_f1(y, eps), 1e-6, 0);
    }
    assert_near(ipcc_friction_f0(eps * (1 - 1e-12), eps), eps, 1e-15, 0);
    double d1 = (ipcc_friction_f1(eps, eps) - ipcc_friction_f1(eps * (1 - 1e-7), eps)) / (1e-7 * eps);
    assert_true(fabs(d1) < 1e-3 / eps); // f1'(eps-) = 0
}

static void random_contact(fctx *c, int nv) {
    c->nv = nv;
    double n[3] = {ipcc_test_random(-1, 1), ipcc_test_random(-1, 1), ipcc_test_random(-1, 1)};
    double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int k = 0; k < 3; ++k)
        n[k] /= l;
    // tangents: orthonormal to n
    double a[3] = {1, 0, 0};
    if (fabs(n[0]) > 0.8) a[0] = 0, a[1] = 1;
    double t1[3] = {n[1] * a[2] - n[2] * a[1], n[2] * a[0] - n[0] * a[2], n[0] * a[1] - n[1] * a[0]};
    l = sqrt(t1[0] * t1[0] + t1[1] * t1[1] + t1[2] * t1[2]);
    for (int k = 0; k < 3; ++k)
        t1[k] /= l;
    double t2[3] = {n[1] * t1[2] - n[2] * t1[1], n[2] * t1[0] - n[0] * t1[2], n[0] * t1[1] - n[1] * t1[0]};
    memcpy(c->T, t1, sizeof t1);
    memcpy(c->T + 3, t2, sizeof t2);
    // weights: 1 on the first vertex, minus a partition of unity on the rest
    c->w[0] = 1;
    double rest = 0, r[4];
    for (int i = 1; i < nv; ++i)
        rest += (r[i] = ipcc_test_random(0.1, 1));
    for (int i = 1; i < nv; ++i)
        c->w[i] = -r[i] / rest;
    c->ml = ipcc_test_random(0.1, 10);
    c->eps = 1e-3;
}

// n displacements of length `length` in a random direction: |u| about
// `length` (u is a projection, so roughly).
static void random_slip(int n, double length, double *dx) {
    double dl = 0;
    for (int i = 0; i < n; ++i) {
        dx[i] = ipcc_test_random(-1, 1);
        dl += dx[i] * dx[i];
    }
    for (int i = 0; i < n; ++i)
        dx[i] *= length / sqrt(dl);
}

static void test_derivatives_table(void **state) {
    (void)state;
    ipcc_test_seed(3);
    // slip magnitudes relative to eps: zero, tiny, below, at, above
    double rel[] = {0, 1e-12, 1e-6, 0.3, 0.999, 1.0, 1.001, 3, 100};
    int checked = 0;
    for (int nv = 1; nv <= 4; ++nv)
        for (size_t r = 0; r < sizeof rel / sizeof *rel; ++r)
            for (int trial = 0; trial < 20; ++trial) {
                fctx c;
                random_contact(&c, nv);
                int n = 3 * nv;
                double dx[12];
                random_slip(n, rel[r] * c.eps, dx);
                double g[12], H[144], g_fd[12], H_fd[144];
                ipcc_friction_potential(nv, c.w, c.T, c.ml, c.eps, dx, g, H, NULL);
                // Skip exact kinks only: |u| = eps within FD reach.
                double h = 1e-6 * c.eps;
                ipcc_test_fd_gradient(n, dx, f_energy, &c, h, g_fd);
                for (int i = 0; i < n; ++i)
                    assert_near(g[i], g_fd[i], 1e-6 * c.ml, 1e-5);
                if (rel[r] != 0 && rel[r] >= 1e-6 && fabs(rel[r] - 1) > 0.01) {
                    ipcc_test_fd_hessian(n, dx, f_grad, &c, h, H_fd);
                    double Hs = 0;
                    for (int i = 0; i < n * n; ++i)
                        Hs = fmax(Hs, fabs(H[i]));
                    for (int i = 0; i < n * n; ++i)
                        assert_near(H[i], H_fd[i], 1e-4 * Hs, 0);
                }
                // PSD by construction
                for (int k = 0; k < 4; ++k) {
                    double v[12], q = 0;
                    for (int i = 0; i < n; ++i)
                        v[i] = ipcc_test_random(-1, 1);
                    for (int i = 0; i < n; ++i)
                        for (int j = 0; j < n; ++j)
                            q += v[i] * H[n * i + j] * v[j];
                    assert_true(q >= -1e-12 * c.ml / c.eps);
                }
                checked++;
            }
    print_message("friction potential: %d configurations checked\n", checked);
}

// Sliding (|u| >= eps): the force on the first vertex is mu lambda in
// magnitude, opposite to the slip, and tangential.
static void test_coulomb_magnitude(void **state) {
    (void)state;
    fctx c;
    ipcc_test_seed(9);
    random_contact(&c, 1);
    double n[3] = {c.T[1] * c.T[5] - c.T[2] * c.T[4], c.T[2] * c.T[3] - c.T[0] * c.T[5],
                   c.T[0] * c.T[4] - c.T[1] * c.T[3]};
    double dx[3] = {0.02 + n[0], -0.01 + n[1], 0.005 + n[2]}, g[3];
    ipcc_friction_potential(1, c.w, c.T, c.ml, c.eps, dx, g, NULL, NULL);
    double gn = g[0] * n[0] + g[1] * n[1] + g[2] * n[2], gl = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
    assert_near(gl, c.ml, 0, 1e-12);
    assert_true(fabs(gn) < 1e-12 * c.ml);
    // opposite to the tangential slip: g . dx > 0 (the force -g opposes it)
    assert_true(g[0] * dx[0] + g[1] * dx[1] + g[2] * dx[2] > 0);
}

// ipcc_friction_within_bound (Newton's contraction test): a 0.1 m cube (one
// cell) resting on the ground with mu = 0.5, eps = eps_v h = 1e-5 m, after a
// step that lags its four bottom contacts in their creep region. A sideways
// direction p moving the bottom by dy changes the model force's magnitude
// by mu lambda f1'(y) dy ~ mu lambda 2 dy / eps: within the bound for
// dy = 0.1 eps, past it for dy = 0.8 eps (and for a slip already near eps).
static void test_within_bound(void **state) {
    (void)state;
    const char *text =
        "{\"time_step\": 0.01, \"steps\": 3, \"gravity\": [0, -9.81, 0],"
        " \"contact\": {\"friction\": 0.5, \"friction_epsv\": 1e-3, \"dhat\": 1e-4},"
        " \"bodies\": [{\"name\": \"cube\", \"mesh\": {\"box\": {\"size\": [0.1, 0.1, 0.1],"
        " \"cells\": [1, 1, 1]}}, \"translation\": [0, 5e-5, 0],"
        " \"material\": {\"model\": \"neo_hookean\", \"youngs_modulus\": 1e6}}],"
        " \"obstacles\": [{\"type\": \"half_space\", \"point\": [0, 0, 0], \"normal\": [0, 1, 0]}]}";
    ipcc_world *w = ipcc_test_world_from_json(text, NULL);
    assert_int_equal(ipcc_world_start(w), IPCC_OK);
    for (int s = 0; s < 3; ++s) {
        ipcc_step_stats st;
        assert_true(ipcc_world_step(w, &st) >= 0);
    }
    assert_int_equal(ipcc_friction_count(w->friction), 4);
    const ipcc_step_context sc = ipcc_world_step_context(w);
    int n = ipcc_world_num_vertices(w);
    double *p = calloc(3 * (size_t)n, sizeof(double));
    assert_non_null(p);
    const double eps = 1e-3 * 0.01;
    assert_true(ipcc_friction_within_bound(w->friction, &sc, w->x, p)); // no motion
    for (int i = 0; i < n; ++i)
        p[3 * i] = 0.1 * eps; // the whole cube sideways: its bottom slips by 0.1 eps
    assert_true(ipcc_friction_within_bound(w->friction, &sc, w->x, p));
    for (int i = 0; i < n; ++i)
        p[3 * i] = 0.8 * eps;
    assert_false(ipcc_friction_within_bound(w->friction, &sc, w->x, p));
    for (int i = 0; i < n; ++i)
        p[3 * i] = -0.8 * eps; // either way
    assert_false(ipcc_friction_within_bound(w->friction, &sc, w->x, p));
    free(p);
    ipcc_world_destroy(w);
}

// The sliding majorant (friction.c, "Sliding majorant"): equal to the exact
// Hessian below eps, PSD, and from eps on a quadratic upper bound of the
// potential about dx for every displacement, reversals of the slip
// included, which the exact Hessian is not (its model along u is linear).
static void test_sliding_majorant(void **state) {
    (void)state;
    ipcc_test_seed(17);
    double rel[] = {0, 0.3, 0.999, 1.0, 1.001, 3, 100};
    int exact_violations = 0, bounds = 0;
    for (int nv = 1; nv <= 4; ++nv)
        for (size_t r = 0; r < sizeof rel / sizeof *rel; ++r)
            for (int trial = 0; trial < 20; ++trial) {
                fctx c;
                random_contact(&c, nv);
                int n = 3 * nv;
                double dx[12];
                random_slip(n, rel[r] * c.eps, dx);
                double g[12], H[144], M[144];
                double e0 = ipcc_friction_potential(nv, c.w, c.T, c.ml, c.eps, dx, g, H, M);
                double gm[12], Hm[144]; // the majorant alone: the same values
                ipcc_friction_potential(nv, c.w, c.T, c.ml, c.eps, dx, gm, NULL, Hm);
                assert_memory_equal(M, Hm, sizeof(double) * (size_t)(n * n));
                assert_memory_equal(g, gm, sizeof(double) * (size_t)n);
                // |u| = |T^T sum_i w_i dx_i|
                double s3[3] = {0, 0, 0};
                for (int i = 0; i < nv; ++i)
                    for (int a = 0; a < 3; ++a)
                        s3[a] += c.w[i] * dx[3 * i + a];
                double u0 = c.T[0] * s3[0] + c.T[1] * s3[1] + c.T[2] * s3[2];
                double u1 = c.T[3] * s3[0] + c.T[4] * s3[1] + c.T[5] * s3[2];
                double y = sqrt(u0 * u0 + u1 * u1);
                if (y < c.eps) // the creep region: the exact Hessian itself
                    for (int i = 0; i < n * n; ++i)
                        assert_true(M[i] == H[i]);
                for (int k = 0; k < 40; ++k) {
                    // a random displacement of up to 3 slips' length,
                    // half of them against the slip
                    double v[12], d[12], qm = 0, qx = 0, lin = 0;
                    for (int i = 0; i < n; ++i)
                        d[i] = (k % 2 ? -ipcc_test_random(0.5, 3) * dx[i] : 0) +
                               ipcc_test_random(-1, 1) * c.eps * (1 + rel[r]);
                    for (int i = 0; i < n; ++i) {
                        v[i] = dx[i] + d[i];
                        lin += g[i] * d[i];
                        for (int j = 0; j < n; ++j) {
                            qm += d[i] * M[n * i + j] * d[j];
                            qx += d[i] * H[n * i + j] * d[j];
                        }
                    }
                    assert_true(qm >= -1e-12 * c.ml / c.eps);
                    double e1 = ipcc_friction_potential(nv, c.w, c.T, c.ml, c.eps, v, NULL, NULL, NULL);
                    if (y >= c.eps) {
                        assert_true(e1 <= e0 + lin + 0.5 * qm + 1e-12 * c.ml * c.eps);
                        bounds++;
                        exact_violations += e1 > e0 + lin + 0.5 * qx + 1e-12 * c.ml * c.eps;
                    }
                }
            }
    print_message("sliding majorant: %d bounds held, the exact Hessian's model broke %d\n", bounds,
                  exact_violations);
    assert_true(exact_violations > bounds / 10);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mollifier),         cmocka_unit_test(test_derivatives_table),
        cmocka_unit_test(test_coulomb_magnitude), cmocka_unit_test(test_sliding_majorant),
        cmocka_unit_test(test_within_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
