// CHOLMOD wrapper: residuals on SPD matrices, indefinite detection and the
// shift, reuse of the symbolic analysis, and many factorize/solve cycles
// (run under ASan/valgrind to catch leaks).
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solver/linear_solver.h"

// 7-point Laplacian of an m^3 grid plus `diag` on the diagonal, both triangles
// added (the lower ones are ignored by assembly). Values of the off-diagonal
// entries are scaled by (1 + jitter * random) to vary them between calls.
static void grid_laplacian(ipcc_triplets *T, int m, double diag, double jitter) {
    ipcc_triplets_clear(T);
    for (int z = 0; z < m; z++)
        for (int y = 0; y < m; y++)
            for (int x = 0; x < m; x++) {
                int i = (z * m + y) * m + x;
                ipcc_triplets_add(T, i, i, diag);
                const int nb[3][3] = {{x + 1, y, z}, {x, y + 1, z}, {x, y, z + 1}};
                for (int d = 0; d < 3; d++) {
                    if (nb[d][0] >= m || nb[d][1] >= m || nb[d][2] >= m) continue;
                    int j = (nb[d][2] * m + nb[d][1]) * m + nb[d][0];
                    double w = 1.0 + jitter * ipcc_test_random(0.0, 1.0);
                    ipcc_triplets_add(T, i, j, -w);
                    ipcc_triplets_add(T, j, i, -w);
                    ipcc_triplets_add(T, i, i, w);
                    ipcc_triplets_add(T, j, j, w);
                }
            }
}

// ||(A + shift I) x - b|| / ||b||.
static double residual(const ipcc_csc *A, double shift, const double *x, const double *b) {
    int n = A->n;
    double *r = malloc((size_t)n * sizeof *r);
    ipcc_csc_multiply(A, x, r);
    double num = 0.0, den = 0.0;
    for (int i = 0; i < n; i++) {
        double e = r[i] + shift * x[i] - b[i];
        num += e * e;
        den += b[i] * b[i];
    }
    free(r);
    return sqrt(num / den);
}

static double *random_vector(int n) {
    double *v = malloc((size_t)n * sizeof *v);
    for (int i = 0; i < n; i++)
        v[i] = ipcc_test_random(-1.0, 1.0);
    return v;
}

static void test_grid_laplacian_solve(void **state) {
    (void)state;
    ipcc_test_seed(21);
    const int m = 15; // n = 3375
    ipcc_triplets T = {0};
    ipcc_csc A = {0};
    grid_laplacian(&T, m, 0.1, 0.5);
    assert_int_equal(ipcc_csc_assemble(&A, &T, m * m * m), 0);
    ipcc_linear_solver *s = ipcc_linear_solver_create();
    assert_non_null(s);
    ipcc_linear_solver_stats st = ipcc_linear_solver_get_stats(s);
    assert_true(st.analyses == 0 && st.factorizations == 0 && st.analysed_nnz == 0);
    assert_true(st.time_analyze == 0.0 && st.time_factor == 0.0 && st.time_solve == 0.0);

    // A known solution: b = A x_true, so the solve must return x_true (the
    // eigenvalues of A lie in [0.1, 18.1]: condition number below 200).
    double *x_true = random_vector(A.n), *b = malloc((size_t)A.n * sizeof *b);
    double *x = malloc((size_t)A.n * sizeof *x);
    ipcc_csc_multiply(&A, x_true, b);
    assert_int_equal(ipcc_linear_solver_factorize(s, &A, 0.0), 0);
    ipcc_linear_solver_stats f1 = ipcc_linear_solver_get_stats(s);
    assert_int_equal(ipcc_linear_solver_solve(s, b, x), 0);
    assert_true(residual(&A, 0.0, x, b) < 1e-12);
    for (int i = 0; i < A.n; i++)
        assert_near(x[i], x_true[i], 1e-11, 0.0);

    // One analysis of exactly A's pattern and one factorization, each timed
    // (a clock that is read, not left at zero); the factorization does not
    // touch the solve time, the solve does not touch the others.
    st = ipcc_linear_solver_get_stats(s);
    assert_int_equal(st.analyses, 1);
    assert_int_equal(st.factorizations, 1);
    assert_int_equal(st.superset_factorizations, 0);
    assert_int_equal(st.analysed_nnz, A.nnz);
    assert_true(f1.time_analyze > 0.0 && f1.time_factor > 0.0 && f1.time_solve == 0.0);
    assert_true(st.time_analyze == f1.time_analyze && st.time_factor == f1.time_factor);
    assert_true(st.time_solve > 0.0);

    // x and b may alias.
    double *xb = malloc((size_t)A.n * sizeof *xb);
    memcpy(xb, b, (size_t)A.n * sizeof *xb);
    assert_int_equal(ipcc_linear_solver_solve(s, xb, xb), 0);
    for (int i = 0; i < A.n; i++)
        assert_near(xb[i], x[i], 1e-14, 1e-12);
    ipcc_linear_solver_stats s2 = ipcc_linear_solver_get_stats(s);
    assert_true(s2.factorizations == 1 && s2.time_factor == st.time_factor && s2.time_solve > st.time_solve);

    // New values in the same pattern: a second factorization in the same
    // analysis (its time unchanged), and the new matrix solved.
    grid_laplacian(&T, m, 0.3, 0.8);
    assert_int_equal(ipcc_csc_assemble(&A, &T, m * m * m), 0);
    assert_int_equal(ipcc_linear_solver_factorize(s, &A, 0.0), 0);
    assert_int_equal(ipcc_linear_solver_solve(s, b, x), 0);
    assert_true(residual(&A, 0.0, x, b) < 1e-12);
    st = ipcc_linear_solver_get_stats(s);
    assert_int_equal(st.analyses, 1);
    assert_int_equal(st.factorizations, 2);
    assert_int_equal(st.superset_factorizations, 0);
    assert_int_equal(st.analysed_nnz, A.nnz);
    assert_true(st.time_analyze == f1.time_analyze);
    assert_true(st.time_factor > s2.time_factor && st.time_solve > s2.time_solve);
    free(x_true);
    free(b);
    free(x);
    free(xb);
    ipcc_linear_solver_destroy(s);
    ipcc_triplets_free(&T);
    ipcc_csc_free(&A);
}

static void test_dense_spd_solve(void **state) {
    (void)state;
    ipcc_test_seed(22);
    const int n = 40;
    double *B = random_vector(n * n);
    ipcc_triplets T = {0};
    ipcc_csc A = {0};
    // A = B^T B + I, upper triangle only; some entries split into duplicates.
    for (int j = 0; j < n; j++)
        for (int i = 0; i <= j; i++) {
            double a = i == j ? 1.0 : 0.0;
            for (int k = 0; k < n; k++)
                a += B[k * n + i] * B[k * n + j];
            if ((i + j) % 3 == 0) {
                ipcc_triplets_add(&T, i, j, 0.25 * a);
                ipcc_triplets_add(&T, i, j, 0.75 * a);
            } else {
                ipcc_triplets_add(&T, i, j, a);
            }
        }
    assert_int_equal(ipcc_csc_assemble(&A, &T, n), 0);
    assert_int_equal(A.nnz, n * (n + 1) / 2);
    ipcc_linear_solver *s = ipcc_linear_solver_create();
    assert_int_equal(ipcc_linear_solver_factorize(s, &A, 0.0), 0);
    double *b = random_vector(n), x[40];
    assert_int_equal(ipcc_linear_solver_solve(s, b, x), 0);
    assert_true(residual(&A, 0.0, x, b) < 1e-10);
    free(B);
    free(b);
    ipcc_linear_solver_destroy(s);
    ipcc_triplets_free(&T);
    ipcc_csc_free(&A);
}

static void test_indefinite_then_shift(void **state) {
    (void)state;
    ipcc_test_seed(23);
    const int m = 10;
    ipcc_triplets T = {0};
    ipcc_csc A = {0};
    // Laplacian eigenvalues lie in [0, 12); minus 3 on the diagonal is indefinite.
    grid_laplacian(&T, m, -3.0, 0.0);
    assert_int_equal(ipcc_csc_assemble(&A, &T, m * m * m), 0);
    ipcc_linear_solver *s = ipcc_linear_solver_create();
    double *b = random_vector(A.n), *x = malloc((size_t)A.n * sizeof *x);

    // Solve before any factorization is refused.
    assert_int_equal(ipcc_linear_solver_solve(s, b, x), -1);
    assert_int_equal(ipcc_linear_solver_factorize(s, &A, 0.0), 1);
    assert_int_equal(ipcc_linear_solver_solve(s, b, x), -1);
    assert_int_equal(ipcc_linear_solver_factorize(s, &A, 1.0), 1);
    assert_int_equal(ipcc_linear_solver_factorize(s, &A, 4.0), 0);
    assert_int_equal(ipcc_linear_solver_solve(s, b, x), 0);
    assert_true(residual(&A, 4.0, x, b) < 1e-10);
    // Back to indefinite and again to definite, same analysis throughout.
    assert_int_equal(ipcc_linear_solver_factorize(s, &A, 0.5), 1);
    assert_int_equal(ipcc_linear_solver_factorize(s, &A, 10.0), 0);
    assert_int_equal(ipcc_linear_solver_solve(s, b, x), 0);
    assert_true(residual(&A, 10.0, x, b) < 1e-10);
    ipcc_linear_solver_stats st = ipcc_linear_solver_get_stats(s);
    assert_int_equal(st.analyses, 1);
    assert_int_equal(st.factorizations, 5);

    free(b);
    free(x);
    ipcc_linear_solver_destroy(s);
    ipcc_triplets_free(&T);
    ipcc_csc_free(&A);
}

static void test_pattern_reuse(void **state) {
    (void)state;
    ipcc_test_seed(24);
    const int m = 8, n = m * m * m;
    ipcc_triplets T = {0};
    ipcc_csc A = {0};
    ipcc_linear_solver *s = ipcc_linear_solver_create();
    double *b = random_vector(n), *x = malloc((size_t)(n + 1) * sizeof *x);

    grid_laplacian(&T, m, 0.5, 0.3);
    assert_int_equal(ipcc_csc_assemble(&A, &T, n), 0);
    assert_int_equal(ipcc_linear_solver_factorize(s, &A, 0.0), 0);
    grid_laplacian(&T, m, 0.7, 0.9); // same sequence, new values
    assert_int_equal(ipcc_csc_assemble(&A, &T, n), 0);
    assert_int_equal(ipcc_linear_solver_factorize(s, &A, 0.0), 0);
    assert_int_equal(ipcc_linear_solver_get_stats(s).analyses, 1);
    assert_int_equal(ipcc_linear_solver_solve(s, b, x), 0);
    assert_true(residual(&A, 0.0, x, b) < 1e-10);

    // A new coupling changes the pattern.
    ipcc_triplets_add(&T, 0, n - 1, -0.1);
    ipcc_triplets_add(&T, 0, 0, 0.1);
    ipcc_triplets_add(&T, n - 1, n - 1, 0.1);
    assert_int_equal(ipcc_csc_assemble(&A, &T, n), 0);
    assert_int_equal(ipcc_linear_solver_factorize(s, &A, 0.0), 0);
    assert_int_equal(ipcc_linear_solver_get_stats(s).analyses, 2);
    assert_int_equal(ipcc_linear_solver_get_stats(s).orderings, 1); // within a solve: the ordering is kept
    assert_int_equal(ipcc_linear_solver_solve(s, b, x), 0);
    assert_true(residual(&A, 0.0, x, b) < 1e-10);

    // A different matrix object with the same pattern (its own version): the
    // pattern is checked, not the version, so the analysis is reused.
    ipcc_csc A2 = {0};
    assert_int_equal(ipcc_csc_assemble(&A2, &T, n), 0);
    assert_int_equal(ipcc_linear_solver_factorize(s, &A2, 0.0), 0);
    assert_int_equal(ipcc_linear_solver_get_stats(s).analyses, 2);
    assert_int_equal(ipcc_linear_solver_solve(s, b, x), 0);
    assert_true(residual(&A2, 0.0, x, b) < 1e-10);

    // The coupling goes again: a subset of the analysed pattern, factorized in
    // it (explicit zeros) without a new analysis, and still exact.
    grid_laplacian(&T, m, 0.7, 0.9);
    assert_int_equal(ipcc_csc_assemble(&A, &T, n), 0);
    assert_int_equal(ipcc_linear_solver_factorize(s, &A, 0.0), 0);
    ipcc_linear_solver_stats st = ipcc_linear_solver_get_stats(s);
    assert_int_equal(st.analyses, 2);
    assert_int_equal(st.superset_factorizations, 1);
    assert_int_equal(st.analysed_nnz, A.nnz + 1);
    assert_int_equal(ipcc_linear_solver_solve(s, b, x), 0);
    assert_true(residual(&A, 0.0, x, b) < 1e-10);

    // After a restart, a subset is analysed alone (as a fresh solver would,
    // which is what makes a resumed run bit-identical); the exact pattern of
    // the analysis is reused.
    ipcc_linear_solver_restart_superset(s);
    assert_int_equal(ipcc_linear_solver_factorize(s, &A, 0.0), 0);
    st = ipcc_linear_solver_get_stats(s);
    assert_int_equal(st.analyses, 3);
    assert_int_equal(st.orderings, 2); // at a solve's start: a fresh ordering
    assert_int_equal(st.analysed_nnz, A.nnz);
    ipcc_linear_solver_restart_superset(s);
    assert_int_equal(ipcc_linear_solver_factorize(s, &A, 0.0), 0);
    assert_int_equal(ipcc_linear_solver_get_stats(s).analyses, 3);
    assert_int_equal(ipcc_linear_solver_solve(s, b, x), 0);
    assert_true(residual(&A, 0.0, x, b) < 1e-10);

    // A factor whose ordering was kept within a solve is not reused at the
    // next solve's start, even for exactly its pattern: a fresh solver (a
    // resume) would compute the ordering from that pattern.
    ipcc_triplets_add(&T, 1, n - 2, -0.1);
    ipcc_triplets_add(&T, 1, 1, 0.1);
    ipcc_triplets_add(&T, n - 2, n - 2, 0.1);
    assert_int_equal(ipcc_csc_assemble(&A, &T, n), 0);
    assert_int_equal(ipcc_linear_solver_factorize(s, &A, 0.0), 0); // grows: ordering kept
    st = ipcc_linear_solver_get_stats(s);
    assert_int_equal(st.analyses, 4);
    assert_int_equal(st.orderings, 2);
    ipcc_linear_solver_restart_superset(s);
    assert_int_equal(ipcc_linear_solver_factorize(s, &A, 0.0), 0); // its exact pattern, but a kept ordering
    st = ipcc_linear_solver_get_stats(s);
    assert_int_equal(st.analyses, 5);
    assert_int_equal(st.orderings, 3);
    assert_int_equal(ipcc_linear_solver_solve(s, b, x), 0);
    assert_true(residual(&A, 0.0, x, b) < 1e-10);

    // A larger dimension.
    ipcc_triplets_add(&T, n, n, 2.0);
    assert_int_equal(ipcc_csc_assemble(&A, &T, n + 1), 0);
    assert_int_equal(ipcc_linear_solver_factorize(s, &A, 0.0), 0);
    assert_int_equal(ipcc_linear_solver_get_stats(s).analyses, 6);
    assert_int_equal(ipcc_linear_solver_get_stats(s).analysed_nnz, A.nnz);
    double *b1 = random_vector(n + 1);
    assert_int_equal(ipcc_linear_solver_solve(s, b1, x), 0);
    assert_true(residual(&A, 0.0, x, b1) < 1e-10);

    free(b);
    free(b1);
    free(x);
    ipcc_linear_solver_destroy(s);
    ipcc_triplets_free(&T);
    ipcc_csc_free(&A);
    ipcc_csc_free(&A2);
}

// Hundreds of cycles over changing patterns, values, shifts and sizes.
static void test_many_cycles(void **state) {
    (void)state;
    ipcc_test_seed(25);
    ipcc_triplets T = {0};
    ipcc_csc A = {0};
    ipcc_linear_solver *s = ipcc_linear_solver_create();
    const int max_n = 7 * 7 * 7 + 8;
    double *b = random_vector(max_n), *x = malloc((size_t)max_n * sizeof *x);
    int pattern_changes = 0, max_nnz = 0;
    long last_version = -1;
    for (int cycle = 0; cycle < 300; cycle++) {
        int m = 5 + (cycle / 50) % 3, n = m * m * m;
        bool indefinite = cycle % 7 == 3;
        grid_laplacian(&T, m, indefinite ? -4.0 : 0.2, 0.5);
        int extra = (cycle / 10) % 4; // contact-like couplings that come and go
        for (int e = 0; e < extra; e++) {
            int i = (17 * e + 3) % n, j = (29 * e + 11 + cycle / 10) % n;
            ipcc_triplets_add(&T, i < j ? i : j, i < j ? j : i, -0.05);
            ipcc_triplets_add(&T, i, i, 0.05);
            ipcc_triplets_add(&T, j, j, 0.05);
        }
        assert_int_equal(ipcc_csc_assemble(&A, &T, n), 0);
        if (A.pattern_version != last_version) pattern_changes++;
        last_version = A.pattern_version;
        int rc = ipcc_linear_solver_factorize(s, &A, 0.0);
        // The superset never exceeds SUPERSET_GROWTH (1.25) times the matrix it was analysed with.
        assert_true(ipcc_linear_solver_get_stats(s).analysed_nnz <= 1.25 * A.nnz + 8);
        if (A.nnz > max_nnz) max_nnz = A.nnz;
        double shift = 0.0;
        if (indefinite) {
            assert_int_equal(rc, 1);
            assert_int_equal(ipcc_linear_solver_solve(s, b, x), -1);
            shift = 6.0;
            rc = ipcc_linear_solver_factorize(s, &A, shift);
        }
        assert_int_equal(rc, 0);
        assert_int_equal(ipcc_linear_solver_solve(s, b, x), 0);
        assert_true(residual(&A, shift, x, b) < 1e-10);
    }
    // Couplings that come back, and patterns inside the union, reuse the analysis.
    ipcc_linear_solver_stats st = ipcc_linear_solver_get_stats(s);
    assert_true(pattern_changes > 10 && pattern_changes < 100);
    assert_true(st.analyses >= 3 && st.analyses < pattern_changes);
    assert_true(st.superset_factorizations > 0);
    free(b);
    free(x);
    ipcc_linear_solver_destroy(s);
    ipcc_linear_solver_destroy(NULL);
    ipcc_triplets_free(&T);
    ipcc_csc_free(&A);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grid_laplacian_solve),  cmocka_unit_test(test_dense_spd_solve),
        cmocka_unit_test(test_indefinite_then_shift), cmocka_unit_test(test_pattern_reuse),
        cmocka_unit_test(test_many_cycles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
