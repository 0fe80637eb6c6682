// Local blocks to global dofs (local_to_global.h/.c): the dof, value and
// scatter helpers against arrays worked out by hand; the block triplets are
// exactly the upper-triangle entries with both dofs unknown, in row-major
// local order, scaled, and they reassemble P^T H P for a symmetric H; the
// block product skips an all-zero vector (even when H holds NaN) and is H v
// otherwise.
#include <math.h>
#include <string.h>

#include "fem/local_to_global.h"
#include "support.h"

static void test_dofs_gather_scatter(void **state) {
    (void)state;
    // Five vertices; vertex 1 fully prescribed, vertex 4 partly (its y).
    const int dof_map[15] = {0, 1, 2, -1, -1, -1, 3, 4, 5, 6, 7, 8, 9, -1, 10};
    const int vertices[3] = {3, 0, 4};
    int dofs[9];
    ipcc_local_dofs(dof_map, 3, vertices, dofs);
    const int want_dofs[9] = {6, 7, 8, 0, 1, 2, 9, -1, 10};
    assert_memory_equal(dofs, want_dofs, sizeof want_dofs);
    const int prescribed[2] = {1, 1};
    ipcc_local_dofs(dof_map, 2, prescribed, dofs);
    for (int k = 0; k < 6; ++k)
        assert_int_equal(dofs[k], -1);

    double v[15], out[9];
    for (int k = 0; k < 15; ++k)
        v[k] = 1.5 * k - 2;
    ipcc_local_gather(v, 3, vertices, out);
    const double want_out[9] = {11.5, 13, 14.5, -2, -0.5, 1, 16, 17.5, 19};
    assert_memory_equal(out, want_out, sizeof want_out);

    double g[15];
    for (int k = 0; k < 15; ++k)
        g[k] = 100 + k;
    const double local[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    ipcc_local_scatter_add(g, 3, vertices, -2.0, local);
    const double want_g[15] = {92, 91, 90, 103, 104, 105, 106, 107, 108, 107, 106, 105, 98, 97, 96};
    assert_memory_equal(g, want_g, sizeof want_g);
    // A vertex twice in a block adds both.
    const int twice[2] = {2, 2};
    ipcc_local_scatter_add(g, 2, twice, 1.0, local);
    assert_true(g[6] == 106 + 1 + 4 && g[7] == 107 + 2 + 5 && g[8] == 108 + 3 + 6);
}

static void test_block_triplets(void **state) {
    (void)state;
    enum { N = 6 };
    const int dofs[N] = {5, -1, 2, 7, -1, 3};
    double H[N * N];
    for (int k = 0; k < N * N; ++k)
        H[k] = k + 1; // not symmetric: the entries' origin shows
    // Rows in local order a = 0, 2, 3, 5 (unknown), each with the b (local
    // order) whose dof is >= its own: (5: 5, 7), (2: 5, 2, 7, 3), (7: 7),
    // (3: 5, 7, 3).
    const int want_rows[10] = {5, 5, 2, 2, 2, 2, 7, 3, 3, 3};
    const int want_cols[10] = {5, 7, 5, 2, 7, 3, 7, 5, 7, 3};
    const int want_ab[10][2] = {{0, 0}, {0, 3}, {2, 0}, {2, 2}, {2, 3},
                                {2, 5}, {3, 3}, {5, 0}, {5, 3}, {5, 5}};
    assert_int_equal(ipcc_block_triplet_count(N, dofs), 10);
    int rows[16], cols[16];
    double vals[16];
    for (int k = 0; k < 16; ++k) {
        rows[k] = cols[k] = -99;
        vals[k] = NAN;
    }
    assert_int_equal(ipcc_block_triplets_write(N, dofs, H, 0.5, rows, cols, vals), 10);
    for (int k = 0; k < 10; ++k) {
        assert_int_equal(rows[k], want_rows[k]);
        assert_int_equal(cols[k], want_cols[k]);
        assert_true(vals[k] == 0.5 * H[N * want_ab[k][0] + want_ab[k][1]]);
    }
    assert_int_equal(rows[10], -99); // nothing past its slots
    assert_true(isnan(vals[10]));
    // Every dof prescribed: no entry.
    const int none[3] = {-1, -1, -1};
    assert_int_equal(ipcc_block_triplet_count(3, none), 0);
    assert_int_equal(ipcc_block_triplets_write(3, none, H, 1.0, rows, cols, vals), 0);
}

// For a symmetric H, the upper triangle U the triplets assemble gives the
// projected block K = P^T H P (K[dofs[a]][dofs[b]] += H[a][b] over unknown
// a, b) as U + U^T - diag(U), also when two local dofs share a global one.
static void test_block_triplets_reassemble(void **state) {
    (void)state;
    enum { N = 9, M = 6 };
    const int dofs[N] = {4, -1, 0, 2, 2, -1, 5, 1, 3}; // local 3 and 4 share dof 2
    double H[N * N];
    ipcc_test_seed(31);
    for (int a = 0; a < N; ++a)
        for (int b = a; b < N; ++b)
            H[N * a + b] = H[N * b + a] = ipcc_test_random(-1, 1);
    int count = ipcc_block_triplet_count(N, dofs), rows[N * N], cols[N * N];
    double vals[N * N], U[M][M] = {{0}}, K[M][M] = {{0}};
    assert_int_equal(ipcc_block_triplets_write(N, dofs, H, 3.0, rows, cols, vals), count);
    for (int k = 0; k < count; ++k) {
        assert_true(rows[k] >= 0 && rows[k] <= cols[k] && cols[k] < M);
        U[rows[k]][cols[k]] += vals[k];
    }
    for (int a = 0; a < N; ++a)
        for (int b = 0; b < N; ++b)
            if (dofs[a] >= 0 && dofs[b] >= 0) K[dofs[a]][dofs[b]] += 3.0 * H[N * a + b];
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < M; ++j) {
            double full = i <= j ? U[i][j] : U[j][i];
            assert_near(full, K[i][j], 1e-14, 1e-14);
        }
}

static void test_block_add_product(void **state) {
    (void)state;
    enum { N = 4 };
    double H[N * N];
    for (int k = 0; k < N * N; ++k)
        H[k] = k % 3 == 0 ? NAN : k;
    const double g0[N] = {1, -2, 0.5, -0.0};
    double g[N];
    // All zero (signed zeros too): skipped, g untouched although H holds NaN.
    const double zero[N] = {0, -0.0, 0, -0.0};
    memcpy(g, g0, sizeof g);
    ipcc_block_add_product(N, H, zero, g);
    assert_memory_equal(g, g0, sizeof g);
    // Otherwise g += H v.
    double Hf[N * N];
    for (int k = 0; k < N * N; ++k)
        Hf[k] = 0.5 * k - 3;
    const double v[N] = {0, 2, 0, -1};
    memcpy(g, g0, sizeof g);
    ipcc_block_add_product(N, Hf, v, g);
    // row a: sum_b (0.5 (4 a + b) - 3) v[b] = 2 (2 a - 2.5) - (2 a - 1.5)
    for (int a = 0; a < N; ++a)
        assert_true(g[a] == g0[a] + 2 * (2.0 * a - 2.5) - (2.0 * a - 1.5));
    // A single non-zero entry is not skipped: the NaN of H reaches g.
    const double one[N] = {1, 0, 0, 0};
    memcpy(g, g0, sizeof g);
    ipcc_block_add_product(N, H, one, g);
    assert_true(isnan(g[0]));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dofs_gather_scatter),
        cmocka_unit_test(test_block_triplets),
        cmocka_unit_test(test_block_triplets_reassemble),
        cmocka_unit_test(test_block_add_product),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
