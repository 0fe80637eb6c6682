// Tests for src/fem/svd3.c: the rotation-variant 3x3 SVD and the symmetric 3x3
// eigen-solver over a table of hard cases (rank 0/1/2, repeated and nearly
// repeated singular values, inverted, near-identity, rotations, permutations,
// extreme scales, tiny singular values), checked for orthogonality,
// det U = det V = +1, reconstruction, ordering and sign, and against LAPACK.
#include "support.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include <lapacke.h>

#include "fem/svd3.h"

static double det3(const double A[9]) {
    return A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6]) +
           A[2] * (A[3] * A[7] - A[4] * A[6]);
}

// |Q^T Q - I|_max
static double orthogonality_error(const double Q[9]) {
    double e = 0;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double d = Q[i] * Q[j] + Q[3 + i] * Q[3 + j] + Q[6 + i] * Q[6 + j] - (i == j ? 1.0 : 0.0);
            e = fmax(e, fabs(d));
        }
    return e;
}

// Checks every property of F = U diag(s) V^T; `exact` (may be NULL) are the
// true signed singular values in the convention's order.
static void check_svd(const double F[9], const double *exact, const char *name) {
    double U[9], s[3], V[9];
    assert_true(ipcc_svd3(F, U, s, V));
    double nF = ipcc_test_norm(9, F), eps = DBL_EPSILON;
    bool ok = true;
    // orthogonality and proper rotations
    ok = ok && orthogonality_error(U) <= 1e-12 && orthogonality_error(V) <= 1e-12;
    ok = ok && fabs(det3(U) - 1) <= 1e-12 && fabs(det3(V) - 1) <= 1e-12;
    // reconstruction: |F - U S V^T|_F <= 1e-13 |F|_F
    double R[9];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            R[3 * i + j] = F[3 * i + j] - (U[3 * i] * s[0] * V[3 * j] + U[3 * i + 1] * s[1] * V[3 * j + 1] +
                                           U[3 * i + 2] * s[2] * V[3 * j + 2]);
    double rec = ipcc_test_norm(9, R);
    ok = ok && rec <= 1e-13 * nF;
    // order and sign convention: s0 >= s1 >= |s2|, s0, s1 >= 0, sign s2 = sign det F
    double tol = 8 * eps * s[0];
    ok = ok && s[1] >= 0 && s[0] >= s[1] - tol && s[1] >= fabs(s[2]) - tol;
    double J = det3(F);
    if (fabs(J) > 1e-10 * nF * nF * nF) ok = ok && (J > 0) == (s[2] > 0);
    // the singular values' magnitudes against LAPACK, and against the exact ones
    double a[9], sl[3], u[9], vt[9], superb[2];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            a[i + 3 * j] = F[3 * i + j];
    assert_int_equal(LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'N', 'N', 3, 3, a, 3, sl, u, 3, vt, 3, superb), 0);
    for (int i = 0; i < 3; ++i) {
        ok = ok && fabs(fabs(s[i]) - sl[i]) <= 1e-13 * sl[0];
        if (exact) ok = ok && fabs(s[i] - exact[i]) <= 1e-13 * fabs(exact[0]);
    }
    if (!ok) {
        print_error("svd3 case '%s': s = (%.17g %.17g %.17g), |UtU-I| %.3g %.3g, det %.17g %.17g, "
                    "reconstruction %.3g (|F| %.3g), LAPACK (%.17g %.17g %.17g)\n",
                    name, s[0], s[1], s[2], orthogonality_error(U), orthogonality_error(V), det3(U), det3(V),
                    rec, nF, sl[0], sl[1], sl[2]);
        fail();
    }
}

typedef struct svd_case {
    const char *name;
    double s[3]; // signed, in the convention's order
    bool rotate;
} svd_case;

static const svd_case svd_cases[] = {
    {"identity", {1, 1, 1}, false},
    {"rotation", {1, 1, 1}, true},
    {"reflection", {1, 1, -1}, true},
    {"point inversion", {1, 1, -1}, false},
    {"distinct", {3, 2, 1}, true},
    {"large stretch", {5, 4, 0.3}, true},
    {"compression", {0.2, 0.1, 0.05}, true},
    {"repeated top", {2, 2, 0.5}, true},
    {"repeated bottom", {2, 0.5, 0.5}, true},
    {"repeated all", {0.7, 0.7, 0.7}, true},
    {"repeated inverted", {0.7, 0.7, -0.7}, true},
    {"inverted s1 = -s2", {1, 0.5, -0.5}, true},
    {"inverted", {1.2, 0.8, -0.3}, true},
    {"nearly repeated", {1, 1 + 1e-9, 1 - 1e-9}, true},
    {"nearly repeated 1e-14", {1 + 1e-14, 1, 1 - 1e-14}, true},
    {"rank 2", {1, 0.8, 0}, true},
    {"rank 2 repeated", {1, 1, 0}, true},
    {"rank 1", {3, 0, 0}, true},
    {"rank 0", {0, 0, 0}, false},
    {"J 1e-3", {2, 0.7, 1e-3}, true},
    {"tiny s3", {1, 1, 1e-12}, true},
    {"tiny s2 s3", {1, 1e-10, 1e-12}, true},
    {"huge scale", {3e100, 2e100, 1e100}, true},
    {"tiny scale", {3e-100, 2e-100, -1e-100}, true},
    {"anisotropic 1e8", {1e8, 1, 1e-8}, true},
};

static void test_svd_table(void **state) {
    (void)state;
    ipcc_test_seed(17);
    for (size_t c = 0; c < sizeof svd_cases / sizeof svd_cases[0]; ++c)
        for (int rep = 0; rep < 20; ++rep) {
            double F[9];
            ipcc_test_matrix_from_svd(svd_cases[c].s, svd_cases[c].rotate, F);
            // the exact values hold only to the rounding of F itself
            check_svd(F, svd_cases[c].rotate ? NULL : svd_cases[c].s, svd_cases[c].name);
        }
}

static void test_svd_random(void **state) {
    (void)state;
    ipcc_test_seed(23);
    for (int rep = 0; rep < 20000; ++rep) {
        double F[9];
        double amp = (rep % 4 == 0) ? 1e-6 : (rep % 4 == 1) ? 0.05 : 1.0;
        for (int k = 0; k < 9; ++k)
            F[k] = (rep % 4 < 2 && k % 4 == 0 ? 1.0 : 0.0) + amp * ipcc_test_random(-1, 1);
        check_svd(F, NULL, rep % 4 == 0 ? "random near identity 1e-6" : "random");
    }
}

// Structured matrices: permutations, integer matrices with repeated rows or
// columns, a single non-zero entry, nearly parallel columns.
static void test_svd_structured(void **state) {
    (void)state;
    const double Fs[][9] = {
        {0, 1, 0, 0, 0, 1, 1, 0, 0},         {0, 1, 0, 1, 0, 0, 0, 0, 1},  {0, 0, 0, 0, 0, 0, 0, 0, 5},
        {0, 0, 0, 0, 0, 7, 0, 0, 0},         {1, 1, 1, 1, 1, 1, 1, 1, 1},  {1, 2, 3, 4, 5, 6, 7, 8, 9},
        {1, 1, 0, 1, 1 + 1e-12, 0, 0, 0, 1}, {2, 0, 0, 0, -2, 0, 0, 0, 2}, {-1, 0, 0, 0, -1, 0, 0, 0, -1},
        {0, -1, 0, 1, 0, 0, 0, 0, -1},       {1, 0, 0, 0, 0, 0, 0, 0, -1}, {1e-300, 0, 0, 0, 1, 0, 0, 0, 1},
        {-3, 0, 0, 0, 0, 0, 0, 0, 0},        {1, 0, 0, 0, 1, 0, 0, 0, 0},
    };
    for (size_t k = 0; k < sizeof Fs / sizeof Fs[0]; ++k)
        check_svd(Fs[k], NULL, "structured");
    double U[9], s[3], V[9];
    // exact values for diagonal input
    const double D[9] = {2, 0, 0, 0, -3, 0, 0, 0, 0.5};
    assert_true(ipcc_svd3(D, U, s, V));
    assert_near(s[0], 3, 0, 1e-15);
    assert_near(s[1], 2, 0, 1e-15);
    assert_near(s[2], -0.5, 0, 1e-15);
    // non-finite input is reported
    const double Fn[9] = {1, 0, 0, 0, NAN, 0, 0, 0, 1}, Fi[9] = {1, 0, 0, 0, 1, 0, 0, 0, INFINITY};
    assert_false(ipcc_svd3(Fn, U, s, V));
    assert_true(isnan(s[0]));
    assert_false(ipcc_svd3(Fi, U, s, V));
}

static void check_eigen(const double A[9], const char *name) {
    double w[3], Q[9], wl[3], W[9];
    ipcc_sym3_eigen(A, w, Q);
    double nA = ipcc_test_norm(9, A), rec = 0;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double r = A[3 * i + j];
            for (int k = 0; k < 3; ++k)
                r -= Q[3 * i + k] * w[k] * Q[3 * j + k];
            rec = fmax(rec, fabs(r));
        }
    memcpy(W, A, sizeof W);
    assert_int_equal(LAPACKE_dsyev(LAPACK_ROW_MAJOR, 'N', 'U', 3, W, 3, wl), 0);
    double ws[3] = {w[0], w[1], w[2]};
    for (int i = 0; i < 3; ++i) // sort ascending
        for (int j = i + 1; j < 3; ++j)
            if (ws[j] < ws[i]) {
                double t = ws[i];
                ws[i] = ws[j];
                ws[j] = t;
            }
    bool ok = orthogonality_error(Q) <= 1e-13 && rec <= 1e-14 * fmax(nA, 1e-300);
    for (int i = 0; i < 3; ++i)
        ok = ok && fabs(ws[i] - wl[i]) <= 1e-14 * nA;
    if (!ok) {
        print_error("sym3 eigen case '%s': w = (%.17g %.17g %.17g), LAPACK (%.17g %.17g %.17g), "
                    "|QtQ-I| %.3g, reconstruction %.3g\n",
                    name, ws[0], ws[1], ws[2], wl[0], wl[1], wl[2], orthogonality_error(Q), rec);
        fail();
    }
}

static void test_sym3_eigen(void **state) {
    (void)state;
    ipcc_test_seed(29);
    const double As[][9] = {
        {0, 0, 0, 0, 0, 0, 0, 0, 0},      {1, 0, 0, 0, 2, 0, 0, 0, 3},
        {1, 0, 0, 0, 1, 0, 0, 0, 1},      {2, 1, 1, 1, 2, 1, 1, 1, 2},
        {1, 2, 0, 2, 1, 0, 0, 0, -3},     {1, 1e-20, 0, 1e-20, 1, 0, 0, 0, 1},
        {1e6, 1, 0, 1, 1e-6, 0, 0, 0, 0}, {-1, -1, -1, -1, -1, -1, -1, -1, -1},
    };
    for (size_t k = 0; k < sizeof As / sizeof As[0]; ++k)
        check_eigen(As[k], "structured");
    for (int rep = 0; rep < 5000; ++rep) {
        double A[9], Q[9], w[3];
        ipcc_test_random_rotation(Q);
        // eigenvalues random, or with a repeated pair, or all repeated
        for (int i = 0; i < 3; ++i)
            w[i] = ipcc_test_random(-1, 1);
        if (rep % 3 == 1) w[1] = w[0];
        if (rep % 3 == 2) w[2] = w[1] = w[0];
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                A[3 * i + j] = Q[3 * i] * w[0] * Q[3 * j] + Q[3 * i + 1] * w[1] * Q[3 * j + 1] +
                               Q[3 * i + 2] * w[2] * Q[3 * j + 2];
        for (int i = 0; i < 3; ++i) // exact symmetry
            for (int j = 0; j < i; ++j)
                A[3 * i + j] = A[3 * j + i];
        check_eigen(A, "random");
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_svd_table),
        cmocka_unit_test(test_svd_random),
        cmocka_unit_test(test_svd_structured),
        cmocka_unit_test(test_sym3_eigen),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
