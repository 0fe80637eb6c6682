// Triplet assembly against a dense reference: duplicates, ignored lower
// entries, the cached scatter path, pattern rebuilds and bad indices.
#include "support.h"

#include <stdlib.h>
#include <string.h>

#include "ipcc/base.h"
#include "solver/sparse.h"

static int random_int(int n) {
    int k = (int)ipcc_test_random(0.0, (double)n);
    return k < n ? k : n - 1;
}

// Random triplets, about a third lower-triangle, many duplicates.
static void random_triplets(ipcc_triplets *T, int n, int count) {
    ipcc_triplets_clear(T);
    for (int k = 0; k < count; k++) {
        int r = random_int(n), c = random_int(n);
        if (k > 0 && ipcc_test_random(0.0, 1.0) < 0.3) { // repeat an earlier index pair
            int e = random_int(k);
            r = T->row[e];
            c = T->col[e];
        }
        ipcc_triplets_add(T, r, c, ipcc_test_random(-1.0, 1.0));
    }
}

// Dense upper triangle of T (row-major n x n) and its pattern.
static void dense_reference(const ipcc_triplets *T, int n, double *D, char *P) {
    memset(D, 0, (size_t)n * n * sizeof *D);
    memset(P, 0, (size_t)n * n);
    for (int k = 0; k < T->count; k++) {
        if (T->row[k] > T->col[k]) continue;
        D[T->row[k] * n + T->col[k]] += T->val[k];
        P[T->row[k] * n + T->col[k]] = 1;
    }
}

// A is well formed, has exactly pattern P and values D.
static void check_against_dense(const ipcc_csc *A, int n, const double *D, const char *P) {
    assert_int_equal(A->n, n);
    assert_int_equal(A->colptr[0], 0);
    int expected_nnz = 0;
    for (int i = 0; i < n * n; i++)
        expected_nnz += P[i];
    assert_int_equal(A->nnz, expected_nnz);
    assert_int_equal(A->colptr[n], A->nnz);
    for (int j = 0; j < n; j++) {
        assert_true(A->colptr[j] <= A->colptr[j + 1]);
        for (int p = A->colptr[j]; p < A->colptr[j + 1]; p++) {
            int i = A->rowind[p];
            assert_true(i >= 0 && i <= j);
            if (p > A->colptr[j]) assert_true(A->rowind[p - 1] < i);
            assert_true(P[i * n + j]);
            assert_near(A->val[p], D[i * n + j], 1e-13, 1e-13);
        }
    }
}

static void test_assemble_matches_dense(void **state) {
    (void)state;
    ipcc_test_seed(11);
    ipcc_triplets T = {0};
    ipcc_csc A = {0};
    for (int trial = 0; trial < 40; trial++) {
        int n = 1 + random_int(50);
        int count = random_int(4 * n * n + 1);
        random_triplets(&T, n, count);
        double *D = malloc((size_t)n * n * sizeof *D);
        char *P = malloc((size_t)n * n);
        dense_reference(&T, n, D, P);
        assert_int_equal(ipcc_csc_assemble(&A, &T, n), 0);
        check_against_dense(&A, n, D, P);
        free(D);
        free(P);
    }
    ipcc_triplets_free(&T);
    ipcc_csc_free(&A);
}

static void test_cached_map_path(void **state) {
    (void)state;
    ipcc_test_seed(12);
    const int n = 30;
    ipcc_triplets T = {0};
    ipcc_csc A = {0};
    double *D = malloc((size_t)n * n * sizeof *D);
    char *P = malloc((size_t)n * n);

    random_triplets(&T, n, 2000);
    assert_int_equal(ipcc_csc_assemble(&A, &T, n), 0);
    long version = A.pattern_version;
    assert_true(version > 0);

    // Same (row, col) sequence, new values: scatter only.
    for (int round = 0; round < 3; round++) {
        for (int k = 0; k < T.count; k++)
            T.val[k] = ipcc_test_random(-5.0, 5.0);
        assert_int_equal(ipcc_csc_assemble(&A, &T, n), 0);
        assert_int_equal(A.pattern_version, version);
        dense_reference(&T, n, D, P);
        check_against_dense(&A, n, D, P);
    }

    // One index changed: rebuild.
    T.row[17] = (T.row[17] + 1) % n;
    assert_int_equal(ipcc_csc_assemble(&A, &T, n), 0);
    assert_true(A.pattern_version > version);
    version = A.pattern_version;
    dense_reference(&T, n, D, P);
    check_against_dense(&A, n, D, P);

    // One entry fewer: rebuild.
    T.count--;
    assert_int_equal(ipcc_csc_assemble(&A, &T, n), 0);
    assert_true(A.pattern_version > version);
    version = A.pattern_version;
    dense_reference(&T, n, D, P);
    check_against_dense(&A, n, D, P);

    // Same sequence, larger dimension: rebuild.
    assert_int_equal(ipcc_csc_assemble(&A, &T, n + 3), 0);
    assert_true(A.pattern_version > version);
    assert_int_equal(A.n, n + 3);

    free(D);
    free(P);
    ipcc_triplets_free(&T);
    ipcc_csc_free(&A);
}

static void test_out_of_range_rejected(void **state) {
    (void)state;
    const int n = 4;
    ipcc_triplets T = {0};
    ipcc_csc A = {0};
    ipcc_triplets_add(&T, 0, 0, 1.0);
    ipcc_triplets_add(&T, 1, 3, 2.0);
    assert_int_equal(ipcc_csc_assemble(&A, &T, n), 0);
    long version = A.pattern_version;

    const int bad[][2] = {{4, 0}, {0, 4}, {-1, 2}, {2, -1}, {7, 9}};
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        ipcc_triplets_clear(&T);
        ipcc_triplets_add(&T, 0, 0, 1.0);
        ipcc_triplets_add(&T, bad[b][0], bad[b][1], 1.0);
        ipcc_clear_error();
        assert_int_equal(ipcc_csc_assemble(&A, &T, n), -1);
        assert_true(strlen(ipcc_last_error()) > 0);
        // A is untouched by a rejected call.
        assert_int_equal(A.pattern_version, version);
        assert_int_equal(A.nnz, 2);
    }

    // A failed triplet list is rejected too.
    ipcc_triplets_clear(&T);
    ipcc_triplets_add(&T, 0, 0, 1.0);
    T.failed = true;
    assert_int_equal(ipcc_csc_assemble(&A, &T, n), -1);
    ipcc_triplets_clear(&T);
    assert_false(T.failed);

    ipcc_triplets_free(&T);
    ipcc_csc_free(&A);
}

static void test_empty_and_lower_only(void **state) {
    (void)state;
    ipcc_triplets T = {0};
    ipcc_csc A = {0};
    assert_int_equal(ipcc_csc_assemble(&A, &T, 5), 0);
    assert_int_equal(A.nnz, 0);
    assert_int_equal(A.colptr[5], 0);
    ipcc_triplets_add(&T, 3, 1, 1.0); // lower: ignored
    ipcc_triplets_add(&T, 4, 0, 1.0);
    assert_int_equal(ipcc_csc_assemble(&A, &T, 5), 0);
    assert_int_equal(A.nnz, 0);
    assert_int_equal(A.map[0], -1);
    assert_int_equal(A.map[1], -1);
    double x[5] = {1, 2, 3, 4, 5}, y[5];
    ipcc_csc_multiply(&A, x, y);
    for (int i = 0; i < 5; i++)
        assert_near(y[i], 0.0, 0.0, 0.0);
    ipcc_triplets_clear(&T);
    assert_int_equal(ipcc_csc_assemble(&A, &T, 0), 0);
    assert_int_equal(A.n, 0);
    ipcc_triplets_free(&T);
    ipcc_csc_free(&A);
}

static void test_reserve_and_growth(void **state) {
    (void)state;
    ipcc_triplets T = {0};
    assert_int_equal(ipcc_triplets_reserve(&T, 1000), 0);
    assert_true(T.capacity >= 1000);
    for (int k = 0; k < 100000; k++)
        ipcc_triplets_add(&T, k % 97, (k * 7) % 101, 1.0);
    assert_int_equal(T.count, 100000);
    assert_false(T.failed);
    ipcc_csc A = {0};
    assert_int_equal(ipcc_csc_assemble(&A, &T, 101), 0);
    double total = 0.0;
    for (int p = 0; p < A.nnz; p++)
        total += A.val[p];
    int upper = 0;
    for (int k = 0; k < T.count; k++)
        upper += T.row[k] <= T.col[k];
    assert_near(total, (double)upper, 0.0, 1e-14);
    ipcc_triplets_free(&T);
    ipcc_csc_free(&A);
    ipcc_csc_free(NULL);
    ipcc_triplets_free(NULL);
}

static void test_multiply_matches_dense(void **state) {
    (void)state;
    ipcc_test_seed(13);
    ipcc_triplets T = {0};
    ipcc_csc A = {0};
    for (int trial = 0; trial < 20; trial++) {
        int n = 1 + random_int(40);
        random_triplets(&T, n, random_int(3 * n * n + 1));
        assert_int_equal(ipcc_csc_assemble(&A, &T, n), 0);
        double *D = malloc((size_t)n * n * sizeof *D);
        char *P = malloc((size_t)n * n);
        double *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
        double *y_ref = malloc((size_t)n * sizeof *y_ref);
        dense_reference(&T, n, D, P);
        for (int i = 0; i < n; i++)
            x[i] = ipcc_test_random(-1.0, 1.0);
        for (int i = 0; i < n; i++) {
            y_ref[i] = 0.0;
            for (int j = 0; j < n; j++) {
                double a = i <= j ? D[i * n + j] : D[j * n + i]; // symmetric from upper
                y_ref[i] += a * x[j];
            }
        }
        ipcc_csc_multiply(&A, x, y);
        assert_true(ipcc_test_rel_error(n, y, y_ref, 1.0) < 1e-13);
        free(D);
        free(P);
        free(x);
        free(y);
        free(y_ref);
    }
    ipcc_triplets_free(&T);
    ipcc_csc_free(&A);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_assemble_matches_dense), cmocka_unit_test(test_cached_map_path),
        cmocka_unit_test(test_out_of_range_rejected),  cmocka_unit_test(test_empty_and_lower_only),
        cmocka_unit_test(test_reserve_and_growth),     cmocka_unit_test(test_multiply_matches_dense),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
