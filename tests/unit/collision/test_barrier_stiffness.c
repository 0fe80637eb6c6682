// The adaptive barrier stiffness (barrier_stiffness.c) as the pure functions
// it is: the bounds against b''(d) derived here again (in long double, and
// checked by a central difference of b), the step-start balance over the
// unknown dofs only (its value, the residual property that makes it a
// least-squares balance, both clamps, monotonicity, no constraints) and the
// in-step doubling (only when both distances are below (1e-8 L)^2 and
// decreasing, capped at kappa_max).
#include <math.h>

#include "geometry/barrier.h"
#include "collision/barrier_stiffness.h"
#include "support.h"

// b(d) = -(d - dh)^2 ln(d / dh) on squared distances (barrier.h), and its
// second derivative, derived independently of barrier.c:
//   b'(d)  = -2 (d - dh) ln(d/dh) - (d - dh)^2 / d
//   b''(d) = -2 ln(d/dh) - 4 (d - dh) / d + (d - dh)^2 / d^2
static long double ref_b(long double d, long double dh) { return -(d - dh) * (d - dh) * logl(d / dh); }
static long double ref_b2(long double d, long double dh) {
    long double t = d - dh;
    return -2 * logl(d / dh) - 4 * t / d + t * t / (d * d);
}

// kappa_min = 1e11 m_avg / (4 d0 b''(d0)), kappa_max = 100 kappa_min.
static long double ref_kappa_min(double mass, double d0, double dhat2) {
    return 1e11L * mass / (4 * (long double)d0 * ref_b2(d0, dhat2));
}

static void test_reference_second_derivative(void **state) {
    (void)state;
    // The reference b'' is the second central difference of the reference b
    // (O(h^2) with h = 1e-4 dh), at points across the barrier's support.
    const long double dh = 1e-6L, h = 1e-4L * dh;
    for (int k = 1; k <= 9; ++k) {
        long double d = dh * k / 10;
        long double fd = (ref_b(d + h, dh) - 2 * ref_b(d, dh) + ref_b(d - h, dh)) / (h * h);
        assert_near((double)ref_b2(d, dh), (double)fd, 0, 1e-6);
        // barrier.c's value agrees with the reference.
        assert_near(ipcc_barrier_second_derivative((double)d, (double)dh), (double)ref_b2(d, dh), 0, 1e-13);
    }
}

static void test_bounds(void **state) {
    (void)state;
    // d̂ = 1e-3 L (the default): d0 = (1e-8 L)^2.
    const double L = 2.0, mass = 0.3, dhat2 = (1e-3 * L) * (1e-3 * L);
    double kmin = NAN, kmax = NAN;
    ipcc_barrier_stiffness_bounds(mass, L, dhat2, &kmin, &kmax);
    const double d0 = (1e-8 * L) * (1e-8 * L);
    assert_near(kmin, (double)ref_kappa_min(mass, d0, dhat2), 0, 1e-12);
    assert_near(kmax, 100 * kmin, 0, 1e-15);
    assert_true(kmin > 0 && isfinite(kmax));
    // Linear in the mass; the same d0 for any d̂ above 1e-8 L.
    double kmin2, kmax2;
    ipcc_barrier_stiffness_bounds(2 * mass, L, dhat2, &kmin2, &kmax2);
    assert_near(kmin2, 2 * kmin, 0, 1e-14);
    ipcc_barrier_stiffness_bounds(mass, L, 4 * dhat2, &kmin2, &kmax2);
    assert_near(kmin2, (double)ref_kappa_min(mass, d0, 4 * dhat2), 0, 1e-12);
    assert_true(kmin2 != kmin); // b''(d0) depends on d̂

    // d̂ below 1e-8 L: d0 = d̂²/2, inside the barrier's support.
    const double dhat_small = 5e-9, dhat2_small = dhat_small * dhat_small; // L = 1: d̂ < 1e-8 L
    ipcc_barrier_stiffness_bounds(mass, 1.0, dhat2_small, &kmin, &kmax);
    assert_near(kmin, (double)ref_kappa_min(mass, 0.5 * dhat2_small, dhat2_small), 0, 1e-12);
    assert_near(kmax, 100 * kmin, 0, 1e-15);
    // d̂ = 1e-8 L exactly: d0 = (1e-8 L)^2 would be d̂², where b'' = 0; it
    // takes d̂²/2 too, so the bounds stay finite.
    ipcc_barrier_stiffness_bounds(mass, 1.0, 1e-16, &kmin, &kmax);
    assert_true(isfinite(kmin) && kmin > 0);
    assert_near(kmin, (double)ref_kappa_min(mass, 0.5e-16, 1e-16), 0, 1e-12);
}

// sum over unknown dofs of a[d] b[d]
static double dot_unknown(int m, const int *dof_map, const double *a, const double *b) {
    double s = 0;
    for (int d = 0; d < m; ++d)
        if (dof_map[d] >= 0) s += a[d] * b[d];
    return s;
}

static void test_initial_balance(void **state) {
    (void)state;
    enum { M = 9 };
    // Dofs 2 and 6 are prescribed: their (huge) gradients must not count.
    const int dof_map[M] = {0, 1, -1, 2, 3, 4, -1, 5, 6};
    const double gB[M] = {-2.0, 0.5, 1e6, 1.0, -0.25, 3.0, -4e5, 0.0, 1.5};
    const double gE[M] = {7.0, -1.0, -1e9, -2.0, 0.5, -9.0, 3e8, 4.0, -2.5};
    // Over the unknowns: gE.gB = -14 - 0.5 - 2 - 0.125 - 27 + 0 - 3.75 = -47.375,
    // |gB|^2 = 4 + 0.25 + 1 + 0.0625 + 9 + 0 + 2.25 = 16.5625.
    const double balance = 47.375 / 16.5625;
    assert_near(-dot_unknown(M, dof_map, gE, gB) / dot_unknown(M, dof_map, gB, gB), balance, 0, 1e-15);
    double k = ipcc_barrier_stiffness_initial(0.0, 1e-3, 1e3, M, dof_map, gE, gB);
    assert_near(k, balance, 0, 1e-14);
    // The balance is the least-squares kappa: gE + kappa gB is orthogonal
    // to gB over the unknowns (and to nothing else: kappa +- 1% is not).
    double r[M];
    for (int d = 0; d < M; ++d)
        r[d] = gE[d] + k * gB[d];
    double scale = sqrt(dot_unknown(M, dof_map, gE, gE) * dot_unknown(M, dof_map, gB, gB));
    assert_true(fabs(dot_unknown(M, dof_map, r, gB)) <= 1e-14 * scale);
    for (int d = 0; d < M; ++d)
        r[d] = gE[d] + 1.01 * k * gB[d];
    assert_true(fabs(dot_unknown(M, dof_map, r, gB)) > 1e-3 * scale);
    // With every dof unknown the prescribed gradients would dominate.
    const int all[M] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    double k_all = ipcc_barrier_stiffness_initial(0.0, 1e-3, 1e6, M, all, gE, gB);
    assert_true(fabs(k_all - balance) > 100);

    // Clamped at both ends; never below the current kappa.
    assert_true(ipcc_barrier_stiffness_initial(0.0, 10.0, 1000.0, M, dof_map, gE, gB) == 10.0);
    assert_true(ipcc_barrier_stiffness_initial(0.0, 0.01, 1.0, M, dof_map, gE, gB) == 1.0);
    assert_true(ipcc_barrier_stiffness_initial(5.0, 1e-3, 1e3, M, dof_map, gE, gB) == 5.0);
    assert_near(ipcc_barrier_stiffness_initial(1.0, 1e-3, 1e3, M, dof_map, gE, gB), balance, 0, 1e-14);
    // The current kappa wins even above kappa_max (kappa never decreases).
    assert_true(ipcc_barrier_stiffness_initial(50.0, 0.01, 1.0, M, dof_map, gE, gB) == 50.0);
    // gE along gB (a negative balance: the rest pushes apart): kappa_min.
    double gE_apart[M];
    for (int d = 0; d < M; ++d)
        gE_apart[d] = 3 * gB[d];
    assert_true(ipcc_barrier_stiffness_initial(0.0, 0.5, 50.0, M, dof_map, gE_apart, gB) == 0.5);
    // A barrier gradient that vanishes on every unknown: kappa_min.
    const double gB_prescribed_only[M] = {0, 0, 1.0, 0, 0, 0, 2.0, 0, 0};
    assert_true(ipcc_barrier_stiffness_initial(0.0, 0.5, 50.0, M, dof_map, gE, gB_prescribed_only) == 0.5);
}

// A case built so that the balance is known: gE = -kappa* gB + q with q
// orthogonal to gB over the unknowns (and arbitrary on prescribed dofs).
static void test_initial_recovers_balance(void **state) {
    (void)state;
    enum { M = 30 };
    ipcc_test_seed(7);
    int dof_map[M];
    double gB[M], q[M], gE[M];
    int next = 0;
    for (int d = 0; d < M; ++d) {
        dof_map[d] = d % 4 == 3 ? -1 : next++;
        gB[d] = ipcc_test_random(-1, 1);
        q[d] = ipcc_test_random(-1, 1);
    }
    // q -= (q.gB / gB.gB) gB over the unknowns (Gram-Schmidt).
    double c = dot_unknown(M, dof_map, q, gB) / dot_unknown(M, dof_map, gB, gB);
    for (int d = 0; d < M; ++d)
        if (dof_map[d] >= 0) q[d] -= c * gB[d];
    const double kappa_star = 123.456;
    for (int d = 0; d < M; ++d)
        gE[d] = dof_map[d] >= 0 ? -kappa_star * gB[d] + q[d] : 1e12 * ipcc_test_random(-1, 1);
    double k = ipcc_barrier_stiffness_initial(0.0, 1.0, 1e4, M, dof_map, gE, gB);
    assert_near(k, kappa_star, 0, 1e-12);
}

static void test_initial_without_constraints(void **state) {
    (void)state;
    const int dof_map[3] = {0, 1, 2};
    const double gE[3] = {1, 2, 3};
    assert_true(ipcc_barrier_stiffness_initial(0.0, 2.5, 250.0, 3, dof_map, gE, NULL) == 2.5);
    assert_true(ipcc_barrier_stiffness_initial(7.0, 2.5, 250.0, 3, dof_map, gE, NULL) == 7.0);
    // Unchanged even below kappa_min (a fixed or restored kappa is kept).
    assert_true(ipcc_barrier_stiffness_initial(1.0, 2.5, 250.0, 3, dof_map, gE, NULL) == 1.0);
}

// d̂ = 1e-3: far above the 1e-8 L threshold of IPC's rule at L = 1 or 10,
// so with no CCD cut only IPC's rule acts.
#define DHAT2 1e-6

static void test_update(void **state) {
    (void)state;
    const double kmax = 1000.0;
    // L = 1: the threshold is (1e-8)^2 = 1e-16.
    assert_true(ipcc_barrier_stiffness_update(10.0, kmax, 5e-17, 4e-17, 1.0, DHAT2, false) == 20.0);
    assert_true(ipcc_barrier_stiffness_update(600.0, kmax, 5e-17, 4e-17, 1.0, DHAT2, false) ==
                kmax); // capped
    assert_true(ipcc_barrier_stiffness_update(kmax, kmax, 5e-17, 4e-17, 1.0, DHAT2, false) == kmax);
    // Unchanged: equal distances, increasing, either one above the threshold.
    assert_true(ipcc_barrier_stiffness_update(10.0, kmax, 4e-17, 4e-17, 1.0, DHAT2, false) == 10.0);
    assert_true(ipcc_barrier_stiffness_update(10.0, kmax, 4e-17, 5e-17, 1.0, DHAT2, false) == 10.0);
    assert_true(ipcc_barrier_stiffness_update(10.0, kmax, 2e-16, 4e-17, 1.0, DHAT2, false) == 10.0);
    assert_true(ipcc_barrier_stiffness_update(10.0, kmax, 3e-16, 2e-16, 1.0, DHAT2, false) == 10.0);
    assert_true(ipcc_barrier_stiffness_update(10.0, kmax, 1e-16, 0.5e-16, 1.0, DHAT2, false) ==
                10.0); // prev at it
    // No previous evaluation (+inf): no doubling.
    assert_true(ipcc_barrier_stiffness_update(10.0, kmax, INFINITY, 4e-17, 1.0, DHAT2, false) == 10.0);
    // The threshold scales with L^2: L = 10 gives 1e-14.
    assert_true(ipcc_barrier_stiffness_update(10.0, kmax, 5e-15, 4e-15, 10.0, DHAT2, false) == 20.0);
    assert_true(ipcc_barrier_stiffness_update(10.0, kmax, 5e-15, 4e-15, 1.0, DHAT2, false) == 10.0);
    // Repeated doubling reaches kappa_max and stays there.
    double k = 1.0, prev = 9e-17;
    for (int i = 0; i < 20; ++i) {
        double d = prev * 0.9;
        k = ipcc_barrier_stiffness_update(k, kmax, prev, d, 1.0, DHAT2, false);
        prev = d;
    }
    assert_true(k == kmax);
}

// The locking rule: after a CCD cut, a smallest distance below d̂/10 that
// is still shrinking doubles kappa, whatever L (here 1, so IPC's rule is
// out of reach); (d̂/10)^2 = 1e-8 with DHAT2.
static void test_update_after_ccd_cut(void **state) {
    (void)state;
    const double kmax = 1000.0;
    assert_true(ipcc_barrier_stiffness_update(10.0, kmax, 9e-9, 8e-9, 1.0, DHAT2, true) == 20.0);
    assert_true(ipcc_barrier_stiffness_update(600.0, kmax, 9e-9, 8e-9, 1.0, DHAT2, true) == kmax); // capped
    // Unchanged: no cut; the previous distance at or above d̂/10; not shrinking.
    assert_true(ipcc_barrier_stiffness_update(10.0, kmax, 9e-9, 8e-9, 1.0, DHAT2, false) == 10.0);
    assert_true(ipcc_barrier_stiffness_update(10.0, kmax, 1.1e-8, 8e-9, 1.0, DHAT2, true) == 10.0);
    assert_true(ipcc_barrier_stiffness_update(10.0, kmax, 2e-8, 1e-9, 1.0, DHAT2, true) == 10.0);
    assert_true(ipcc_barrier_stiffness_update(10.0, kmax, 8e-9, 8e-9, 1.0, DHAT2, true) == 10.0);
    assert_true(ipcc_barrier_stiffness_update(10.0, kmax, 8e-9, 9e-9, 1.0, DHAT2, true) == 10.0);
    assert_true(ipcc_barrier_stiffness_update(10.0, kmax, INFINITY, 8e-9, 1.0, DHAT2, true) == 10.0);
    // The threshold follows d̂, not L: d̂ = 1e-2 puts 9e-7 below it.
    assert_true(ipcc_barrier_stiffness_update(10.0, kmax, 9e-7, 8e-7, 1.0, 1e-4, true) == 20.0);
    assert_true(ipcc_barrier_stiffness_update(10.0, kmax, 9e-7, 8e-7, 1.0, DHAT2, true) == 10.0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_second_derivative),
        cmocka_unit_test(test_bounds),
        cmocka_unit_test(test_initial_balance),
        cmocka_unit_test(test_initial_recovers_balance),
        cmocka_unit_test(test_initial_without_constraints),
        cmocka_unit_test(test_update),
        cmocka_unit_test(test_update_after_ccd_cut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
