// ipcc's supernodal factorization (supernodal.c, through linear_solver.c):
// on matrices whose supernodes are big enough for the tiles (3D grids, a
// vector grid, a dense block) and on forests (disconnected blocks), the
// solution matches CHOLMOD's own factorization to rounding and has a small
// residual; it is bit-identical on 1, 2 and 3 threads, also when a plan
// made for 3 threads runs on fewer; an indefinite matrix is refused at the
// same pivot on any thread count, and the shift repairs it.
#include "support.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include <cholmod.h>

#include "ipcc/base.h"
#include "solver/linear_solver.h"
#include "solver/supernodal.h"

// Test matrices, upper triangles assembled from triplets.
typedef struct matrix {
    ipcc_triplets T;
    ipcc_csc A;
} matrix;

// m^3 grid, `dofs` unknowns per node coupled by a fixed SPD 3x3 pattern
// (dofs = 1: the 7-point Laplacian), jittered weights, `diag` added; `copies`
// disconnected grids of sizes m, m - 2, m - 4, ... (a forest).
static void grid(matrix *M, int m, int dofs, int copies, double diag) {
    ipcc_triplets_clear(&M->T);
    int base = 0;
    for (int c = 0; c < copies; ++c) {
        int mm = m - 2 * c;
        for (int z = 0; z < mm; z++)
            for (int y = 0; y < mm; y++)
                for (int x = 0; x < mm; x++) {
                    int i = base + dofs * ((z * mm + y) * mm + x);
                    for (int a = 0; a < dofs; ++a)
                        for (int b = 0; b < dofs; ++b)
                            ipcc_triplets_add(&M->T, i + a, i + b, a == b ? diag : 0.1 * diag);
                    const int nb[3][3] = {{x + 1, y, z}, {x, y + 1, z}, {x, y, z + 1}};
                    for (int d = 0; d < 3; d++) {
                        if (nb[d][0] >= mm || nb[d][1] >= mm || nb[d][2] >= mm) continue;
                        int j = base + dofs * ((nb[d][2] * mm + nb[d][1]) * mm + nb[d][0]);
                        double w = 1.0 + 0.5 * ipcc_test_random(0.0, 1.0);
                        for (int a = 0; a < dofs; ++a) {
                            ipcc_triplets_add(&M->T, i + a, j + a, -w);
                            ipcc_triplets_add(&M->T, i + a, i + a, w);
                            ipcc_triplets_add(&M->T, j + a, j + a, w);
                        }
                    }
                }
        base += dofs * mm * mm * mm;
    }
    assert_int_equal(ipcc_csc_assemble(&M->A, &M->T, base), 0);
}

// A dense SPD matrix B B^T + n I.
static void dense(matrix *M, int n) {
    ipcc_triplets_clear(&M->T);
    double *B = malloc(sizeof(double) * (size_t)n * 8);
    for (int k = 0; k < n * 8; ++k)
        B[k] = ipcc_test_random(-1, 1);
    for (int i = 0; i < n; ++i)
        for (int j = i; j < n; ++j) {
            double v = i == j ? n : 0;
            for (int k = 0; k < 8; ++k)
                v += B[8 * i + k] * B[8 * j + k];
            ipcc_triplets_add(&M->T, i, j, v);
        }
    free(B);
    assert_int_equal(ipcc_csc_assemble(&M->A, &M->T, n), 0);
}

static double *ones(int n) {
    double *b = malloc(sizeof(double) * (size_t)n);
    for (int i = 0; i < n; ++i)
        b[i] = 1.0 + 0.001 * i;
    return b;
}

// x = (A + shift I)^-1 b through linear_solver on `threads` threads; the
// return code of the factorization (and *message its error when 1).
static int solve_with(const ipcc_csc *A, double shift, int threads, double *x, char *message, size_t size) {
    omp_set_num_threads(threads);
    ipcc_linear_solver *s = ipcc_linear_solver_create();
    assert_non_null(s);
    int rc = ipcc_linear_solver_factorize(s, A, shift);
    if (rc == 0) {
        double *b = ones(A->n);
        assert_int_equal(ipcc_linear_solver_solve(s, b, x), 0);
        free(b);
    } else if (message) {
        snprintf(message, size, "%s", ipcc_last_error());
    }
    ipcc_linear_solver_destroy(s);
    omp_set_num_threads(1);
    return rc;
}

// CHOLMOD's own supernodal factorization and solve, the reference.
static void cholmod_reference(const ipcc_csc *A, double *x) {
    cholmod_common c;
    cholmod_start(&c);
    c.print = 0;
    c.supernodal = CHOLMOD_SUPERNODAL;
    cholmod_sparse S = {.nrow = (size_t)A->n,
                        .ncol = (size_t)A->n,
                        .nzmax = (size_t)A->nnz,
                        .p = A->colptr,
                        .i = A->rowind,
                        .x = A->val,
                        .stype = 1,
                        .itype = CHOLMOD_INT,
                        .xtype = CHOLMOD_REAL,
                        .dtype = CHOLMOD_DOUBLE,
                        .sorted = 1,
                        .packed = 1};
    cholmod_factor *L = cholmod_analyze(&S, &c);
    assert_non_null(L);
    assert_true(cholmod_factorize(&S, L, &c));
    assert_int_equal(c.status, CHOLMOD_OK);
    cholmod_dense *B = cholmod_zeros((size_t)A->n, 1, CHOLMOD_REAL, &c);
    double *b = ones(A->n);
    memcpy(B->x, b, sizeof(double) * (size_t)A->n);
    cholmod_dense *X = cholmod_solve(CHOLMOD_A, L, B, &c);
    memcpy(x, X->x, sizeof(double) * (size_t)A->n);
    free(b);
    cholmod_free_dense(&X, &c);
    cholmod_free_dense(&B, &c);
    cholmod_free_factor(&L, &c);
    cholmod_finish(&c);
}

// The factorization and solve sizes of A's analysis.
static ipcc_linear_solver_stats sizes_of(const ipcc_csc *A) {
    ipcc_linear_solver *s = ipcc_linear_solver_create();
    assert_int_equal(ipcc_linear_solver_factorize(s, A, 0), 0);
    ipcc_linear_solver_stats st = ipcc_linear_solver_get_stats(s);
    ipcc_linear_solver_destroy(s);
    return st;
}

// The properties of the preamble for one matrix; `parallel`: it is big
// enough for the factorization and the solves to run on the team
// (supernodal.h's thresholds), so the thread counts do differ.
static void check_matrix(const char *label, const ipcc_csc *A, bool parallel) {
    ipcc_linear_solver_stats st = sizes_of(A);
    print_message("%s: %.3g flops, %ld factor entries\n", label, st.factor_flops, st.factor_entries);
    if (parallel) {
        assert_true(st.factor_flops >= IPCC_SUPERNODAL_PARALLEL_FLOPS);
        assert_true(st.factor_entries >= IPCC_SUPERNODAL_PARALLEL_ENTRIES);
    }
    const int n = A->n;
    double *x1 = malloc(sizeof(double) * (size_t)n), *x = malloc(sizeof(double) * (size_t)n),
           *ref = malloc(sizeof(double) * (size_t)n), *r = malloc(sizeof(double) * (size_t)n);
    assert_int_equal(solve_with(A, 0, 1, x1, NULL, 0), 0);
    for (int t = 2; t <= 3; ++t) {
        assert_int_equal(solve_with(A, 0, t, x, NULL, 0), 0);
        if (memcmp(x, x1, sizeof(double) * (size_t)n) != 0)
            fail_msg("%s: %d threads differ from 1", label, t);
    }
    cholmod_reference(A, ref);
    double diff = 0, norm = 0;
    for (int i = 0; i < n; ++i) {
        diff = fmax(diff, fabs(x1[i] - ref[i]));
        norm = fmax(norm, fabs(ref[i]));
    }
    ipcc_csc_multiply(A, x1, r);
    double res = 0, bn = 0, *b = ones(n);
    for (int i = 0; i < n; ++i) {
        res += (r[i] - b[i]) * (r[i] - b[i]);
        bn += b[i] * b[i];
    }
    print_message("%s: n = %d, |x - x_cholmod| / |x| = %.3g, residual %.3g\n", label, n, diff / norm,
                  sqrt(res / bn));
    assert_true(diff <= 1e-10 * norm);
    assert_true(sqrt(res / bn) < 1e-12);
    free(b);
    free(x1);
    free(x);
    free(ref);
    free(r);
}

static void test_grids_match_cholmod_on_any_thread_count(void **state) {
    (void)state;
    ipcc_test_seed(22);
    matrix M = {0};
    grid(&M, 22, 1, 1, 0.01); // top separators of ~480 columns: several tiles
    check_matrix("3D Laplacian 22^3", &M.A, true);
    grid(&M, 13, 3, 1, 0.01); // three unknowns per node, as elasticity
    check_matrix("vector grid 13^3 x 3", &M.A, true);
    grid(&M, 21, 1, 4, 0.01); // a forest of four grids
    check_matrix("forest of 4 grids", &M.A, true);
    dense(&M, 1100); // one supernode of 1100 columns: tiles only
    check_matrix("dense 1100", &M.A, true);
    grid(&M, 1, 1, 1, 2.0); // n = 1
    check_matrix("1 x 1", &M.A, false);
    ipcc_triplets_free(&M.T);
    ipcc_csc_free(&M.A);
}

// A plan made for 3 threads (at the analysis) factors on 1 and 2 threads
// with the same bits.
static void test_plan_runs_on_fewer_threads(void **state) {
    (void)state;
    ipcc_test_seed(23);
    matrix M = {0};
    grid(&M, 22, 1, 2, 0.01);
    assert_true(sizes_of(&M.A).factor_flops >= IPCC_SUPERNODAL_PARALLEL_FLOPS);
    const int n = M.A.n;
    double *b = ones(n), *x3 = malloc(sizeof(double) * (size_t)n), *x = malloc(sizeof(double) * (size_t)n);
    omp_set_num_threads(3);
    ipcc_linear_solver *s = ipcc_linear_solver_create();
    assert_int_equal(ipcc_linear_solver_factorize(s, &M.A, 0), 0);
    assert_int_equal(ipcc_linear_solver_solve(s, b, x3), 0);
    for (int t = 1; t <= 2; ++t) {
        omp_set_num_threads(t);
        assert_int_equal(ipcc_linear_solver_factorize(s, &M.A, 0), 0);
        assert_int_equal(ipcc_linear_solver_solve(s, b, x), 0);
        assert_memory_equal(x, x3, sizeof(double) * (size_t)n);
    }
    assert_int_equal(ipcc_linear_solver_get_stats(s).analyses, 1); // one plan served every run
    omp_set_num_threads(1);
    ipcc_linear_solver_destroy(s);
    free(b);
    free(x3);
    free(x);
    ipcc_triplets_free(&M.T);
    ipcc_csc_free(&M.A);
}

// A negative diagonal entry at several places: refused (1) on every thread
// count with the same message (the same first failing pivot), and a shift
// that makes the matrix definite is accepted.
static void test_indefinite_same_pivot_on_any_thread_count(void **state) {
    (void)state;
    ipcc_test_seed(24);
    matrix M = {0};
    grid(&M, 22, 1, 3, 0.01);
    assert_true(sizes_of(&M.A).factor_flops >= IPCC_SUPERNODAL_PARALLEL_FLOPS);
    const int n = M.A.n, places[] = {0, n / 3, n / 2, n - 1};
    double *x = malloc(sizeof(double) * (size_t)n);
    for (size_t k = 0; k < sizeof places / sizeof *places; ++k) {
        int i = places[k];
        for (int q = M.A.colptr[i]; q < M.A.colptr[i + 1]; ++q)
            if (M.A.rowind[q] == i) M.A.val[q] -= 50.0; // a negative eigenvalue near -50 + 6
        char first[256], other[256];
        assert_int_equal(solve_with(&M.A, 0, 1, x, first, sizeof first), 1);
        for (int t = 2; t <= 3; ++t) {
            assert_int_equal(solve_with(&M.A, 0, t, x, other, sizeof other), 1);
            assert_string_equal(first, other);
        }
        print_message("diagonal %d made negative: %s\n", i, first);
        assert_int_equal(solve_with(&M.A, 60.0, 2, x, NULL, 0), 0);
        for (int q = M.A.colptr[i]; q < M.A.colptr[i + 1]; ++q)
            if (M.A.rowind[q] == i) M.A.val[q] += 50.0;
    }
    free(x);
    ipcc_triplets_free(&M.T);
    ipcc_csc_free(&M.A);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grids_match_cholmod_on_any_thread_count),
        cmocka_unit_test(test_plan_runs_on_fewer_threads),
        cmocka_unit_test(test_indefinite_same_pivot_on_any_thread_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
