// The fixed order of an edge pair (edge_pair.c): the order is a total
// order on edges whatever way round each edge is stored, and the
// closest-feature type of a pair names the same features whichever edge
// comes first, also where raw classification depends on the order (ties
// between parallel, overlapping edges).
#include <stdbool.h>
#include <stdio.h>

#include "collision/edge_pair.h"
#include "support.h"

// ipcc_edge_pair_first: lower vertex first, then the lower other vertex;
// an edge comes before itself, however either edge is stored; of two
// different edges exactly one comes first.
static void test_edge_pair_first_is_an_order(void **state) {
    (void)state;
    static const int cases[][5] = {
        // a0, a1, b0, b1, a first
        {0, 1, 2, 3, 1}, {2, 3, 0, 1, 0}, {0, 3, 1, 2, 1}, {1, 2, 0, 3, 0}, {0, 1, 0, 2, 1},
        {0, 2, 0, 1, 0}, {3, 1, 2, 1, 0}, {1, 2, 3, 1, 1}, {0, 1, 0, 1, 1}, {5, 4, 4, 5, 1},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        const int *c = cases[k];
        for (int flip = 0; flip < 4; ++flip) { // each edge stored either way round
            const int a[2] = {flip & 1 ? c[1] : c[0], flip & 1 ? c[0] : c[1]};
            const int b[2] = {flip & 2 ? c[3] : c[2], flip & 2 ? c[2] : c[3]};
            assert_int_equal(ipcc_edge_pair_first(a, b), c[4]);
            bool same = (a[0] == b[0] && a[1] == b[1]) || (a[0] == b[1] && a[1] == b[0]);
            if (!same) assert_int_equal(ipcc_edge_pair_first(b, a), !c[4]);
        }
    }
}

// The closest features of two edges do not depend on which edge is named
// first, also where they are not unique (parallel, overlapping edges on a
// grid: every overlap point is closest), so an edge-edge term lands on one
// key in the constraint set and in the multiplicities.
static void ends_of(ipcc_edge_edge_distance_type t, const int a[2], const int b[2], int out[2]) {
    static const int ea[9] = {0, 0, 1, 1, -1, -1, 0, 1, -1}, eb[9] = {0, 1, 0, 1, 0, 1, -1, -1, -1};
    out[0] = ea[t] < 0 ? -1 : a[ea[t]];
    out[1] = eb[t] < 0 ? -1 : b[eb[t]];
}

static void test_edge_pair_type_is_symmetric(void **state) {
    (void)state;
    ipcc_test_seed(11);
    const int a[2] = {0, 1}, b[2] = {2, 3};
    int ties = 0;
    for (int k = 0; k < 2000; ++k) {
        // Grid coordinates (exact in binary): parallel along x, or random.
        double xc[12];
        for (int i = 0; i < 12; ++i)
            xc[i] = 0.125 * (int)ipcc_test_random(-8, 8);
        if (k % 2 == 0) xc[4] = xc[1], xc[5] = xc[2], xc[10] = xc[7], xc[11] = xc[8]; // both along x
        if (xc[0] == xc[3] && xc[1] == xc[4] && xc[2] == xc[5]) continue;             // a degenerate
        if (xc[6] == xc[9] && xc[7] == xc[10] && xc[8] == xc[11]) continue;
        int ab[2], ba[2];
        ends_of(ipcc_edge_pair_type(xc, a, b), a, b, ab);
        ends_of(ipcc_edge_pair_type(xc, b, a), b, a, ba);
        assert_int_equal(ab[0], ba[1]);
        assert_int_equal(ab[1], ba[0]);
        // How often the raw classification disagrees with itself swapped (ties).
        ipcc_edge_edge_distance_type raw = ipcc_edge_edge_distance_type_of(xc, xc + 3, xc + 6, xc + 9),
                                     raw_swapped =
                                         ipcc_edge_edge_distance_type_of(xc + 6, xc + 9, xc, xc + 3);
        ends_of(raw, a, b, ab);
        ends_of(raw_swapped, b, a, ba);
        ties += ab[0] != ba[1] || ab[1] != ba[0];
    }
    print_message("edge pairs whose raw closest features depend on the order: %d of 2000\n", ties);
    assert_true(ties > 0); // the configurations do exercise ties
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edge_pair_first_is_an_order),
        cmocka_unit_test(test_edge_pair_type_is_symmetric),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
