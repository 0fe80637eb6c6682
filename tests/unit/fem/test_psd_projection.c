// Tests for src/fem/psd_projection.c (ipcc_project_psd): known projections
// (2x2, diagonal, a 12x12 with a random orthogonal eigenbasis), a PSD matrix
// left unchanged to the bit, the roundoff shortcut (an eigenvalue above
// -1e-12 * max diagonal is not projected, one below is) and n = 1.
#include "support.h"

#include <math.h>
#include <string.h>

#include "ipcc/elastic.h"

static void test_project_psd_known(void **state) {
    (void)state;
    // [[1 2] [2 1]] = 3 e e^T - f f^T with e = (1,1)/sqrt2, f = (1,-1)/sqrt2
    double A2[4] = {1, 2, 2, 1};
    ipcc_project_psd(2, A2);
    for (int i = 0; i < 4; ++i)
        assert_near(A2[i], 1.5, 1e-14, 0);

    // A diagonal matrix: negative entries become zero.
    double D[9] = {2, 0, 0, 0, -3, 0, 0, 0, 0.5};
    ipcc_project_psd(3, D);
    const double Dexp[9] = {2, 0, 0, 0, 0, 0, 0, 0, 0.5};
    assert_true(ipcc_test_rel_error(9, D, Dexp, 1) <= 1e-15);

    // 12x12: Q diag(w) Q^T with Q a random orthogonal (block rotations).
    ipcc_test_seed(9);
    double Q[144] = {0}, w[12], A[144], E[144];
    for (int b = 0; b < 4; ++b) {
        double R[9];
        ipcc_test_random_rotation(R);
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                Q[12 * (3 * b + i) + 3 * b + j] = R[3 * i + j];
    }
    // mix the blocks with a Householder reflection I - 2 u u^T
    double u[12], un = 0;
    for (int i = 0; i < 12; ++i) {
        u[i] = ipcc_test_random(-1, 1);
        un += u[i] * u[i];
    }
    double Qh[144];
    for (int i = 0; i < 12; ++i)
        for (int j = 0; j < 12; ++j) {
            double s = 0;
            for (int k = 0; k < 12; ++k)
                s += Q[12 * i + k] * ((k == j) - 2 * u[k] * u[j] / un);
            Qh[12 * i + j] = s;
        }
    for (int k = 0; k < 12; ++k)
        w[k] = (k % 3 == 0) ? -(k + 1.0) : (k + 1.0);
    for (int i = 0; i < 12; ++i)
        for (int j = 0; j < 12; ++j) {
            double a = 0, e = 0;
            for (int k = 0; k < 12; ++k) {
                a += Qh[12 * i + k] * w[k] * Qh[12 * j + k];
                e += Qh[12 * i + k] * fmax(w[k], 0) * Qh[12 * j + k];
            }
            A[12 * i + j] = a;
            E[12 * i + j] = e;
        }
    ipcc_project_psd(12, A);
    assert_true(ipcc_test_rel_error(144, A, E, 1) <= 1e-12);

    // A positive definite matrix is left unchanged.
    double P[9] = {4, 1, 0, 1, 3, 1, 0, 1, 2}, P0[9];
    memcpy(P0, P, sizeof P);
    ipcc_project_psd(3, P);
    assert_memory_equal(P, P0, sizeof P);
}

static void test_project_psd_roundoff_and_edges(void **state) {
    (void)state;
    // n = 1: a negative number becomes 0, a positive one stays.
    double a = -2;
    ipcc_project_psd(1, &a);
    assert_true(a == 0);
    a = 3;
    ipcc_project_psd(1, &a);
    assert_true(a == 3);
    // An eigenvalue of -1e-14 (above -1e-12 * max diagonal) is roundoff: the
    // matrix is returned unchanged, to the bit.
    double R[4] = {1, 0, 0, -1e-14}, R0[4];
    memcpy(R0, R, sizeof R);
    ipcc_project_psd(2, R);
    assert_memory_equal(R, R0, sizeof R);
    // -1e-11 is below it and clamped.
    double C[4] = {1, 0, 0, -1e-11};
    ipcc_project_psd(2, C);
    assert_true(C[0] == 1 && C[1] == 0 && C[2] == 0);
    assert_near(C[3], 0, 1e-26, 0);
    // A zero matrix (no positive diagonal) stays zero.
    double Z[9] = {0};
    ipcc_project_psd(3, Z);
    for (int i = 0; i < 9; ++i)
        assert_true(Z[i] == 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_project_psd_known),
        cmocka_unit_test(test_project_psd_roundoff_and_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
