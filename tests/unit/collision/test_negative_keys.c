// The fold of negative keys' Hessians (collision/negative_keys.c): which
// positive keys take a negative key, with which share, and what stays.
#include <string.h>

#include "collision/negative_keys.h"
#include "support.h"

static ipcc_contact_pair key(int kind, int a, int b, int c, int d, int mult) {
    return (ipcc_contact_pair){.kind = kind, .v = {a, b, c, d}, .mult = mult};
}

static ipcc_constraint_set set_of(ipcc_contact_pair *pairs, int np) {
    ipcc_constraint_set s;
    memset(&s, 0, sizeof s);
    s.np = np;
    s.pairs = pairs;
    return s;
}

// The negative keys folded into key k, as (key, share) in order.
static void expect_folds(const ipcc_negative_keys *nk, int k, int n, const int *keys, const double *shares) {
    assert_int_equal(nk->fold_start[k + 1] - nk->fold_start[k], n);
    for (int t = 0; t < n; ++t) {
        assert_int_equal(nk->fold_key[nk->fold_start[k] + t], keys[t]);
        assert_true(nk->fold_mult[nk->fold_start[k] + t] == shares[t]);
    }
}

// A point 0 in a concave valley between triangles (1, 2, 3) and (2, 3, 4):
// their edge (2, 3) counts -1 and is split between the two triangle keys.
// A point-point key (5, 6) of multiplicity -2 is taken by the point-edge
// key (5, 6, 7) and the edge-edge key (5, 8, 6, 9) that hold both its
// vertices, not by the edge-edge key (5, 8, 9, 10) that lacks vertex 6.
// A negative key with no partner (point-edge (11, 12, 13)) keeps its block;
// a sphere-edge key on shape 0 is not taken by a sphere-triangle key on
// shape 1, nor by a mesh key.
static void test_partners_and_shares(void **state) {
    (void)state;
    ipcc_contact_pair pairs[] = {
        key(IPCC_CONTACT_PP, 5, 6, 0, 0, -2),    // 0
        key(IPCC_CONTACT_PE, 0, 2, 3, 0, -1),    // 1
        key(IPCC_CONTACT_PE, 5, 6, 7, 0, 1),     // 2
        key(IPCC_CONTACT_PE, 11, 12, 13, 0, -1), // 3
        key(IPCC_CONTACT_PT, 0, 1, 2, 3, 1),     // 4
        key(IPCC_CONTACT_PT, 0, 2, 3, 4, 1),     // 5
        key(IPCC_CONTACT_EE, 5, 8, 6, 9, 1),     // 6
        key(IPCC_CONTACT_EE, 5, 8, 9, 10, 1),    // 7
        key(IPCC_CONTACT_ST, 14, 15, 16, 1, 1),  // 8: triangle (14, 15, 16), shape 1
        key(IPCC_CONTACT_SE, 14, 15, 0, 0, -1),  // 9: edge (14, 15), shape 0
        key(IPCC_CONTACT_PT, 17, 14, 15, 16, 1), // 10
    };
    int np = (int)(sizeof pairs / sizeof pairs[0]);
    ipcc_constraint_set s = set_of(pairs, np);
    ipcc_negative_keys nk;
    memset(&nk, 0, sizeof nk);
    for (int round = 0; round < 2; ++round) { // the second build reuses the buffers
        assert_int_equal(ipcc_negative_keys_build(&nk, &s, 18), IPCC_OK);
        assert_int_equal(nk.any, 2);
        assert_int_equal(nk.partners[0], 2);
        assert_int_equal(nk.partners[1], 2);
        assert_int_equal(nk.partners[3], 0);
        assert_int_equal(nk.partners[9], 0);
        expect_folds(&nk, 2, 1, (int[]){0}, (double[]){-1.0});
        expect_folds(&nk, 4, 1, (int[]){1}, (double[]){-0.5});
        expect_folds(&nk, 5, 1, (int[]){1}, (double[]){-0.5});
        expect_folds(&nk, 6, 1, (int[]){0}, (double[]){-1.0});
        for (int k = 0; k < np; ++k)
            if (k != 2 && k != 4 && k != 5 && k != 6) expect_folds(&nk, k, 0, NULL, NULL);
    }
    // The same sphere-edge key on shape 1 is taken by the sphere-triangle key.
    pairs[9] = key(IPCC_CONTACT_SE, 14, 15, 1, 0, -1);
    assert_int_equal(ipcc_negative_keys_build(&nk, &s, 18), IPCC_OK);
    assert_int_equal(nk.partners[9], 1);
    expect_folds(&nk, 8, 1, (int[]){9}, (double[]){-1.0});
    ipcc_negative_keys_free(&nk);
}

// Without negative keys nothing is folded (and nothing allocated).
static void test_no_negative_keys(void **state) {
    (void)state;
    ipcc_contact_pair pairs[] = {key(IPCC_CONTACT_PE, 0, 2, 3, 0, 1), key(IPCC_CONTACT_PT, 0, 1, 2, 3, 1)};
    ipcc_constraint_set s = set_of(pairs, 2);
    ipcc_negative_keys nk;
    memset(&nk, 0, sizeof nk);
    assert_int_equal(ipcc_negative_keys_build(&nk, &s, 4), IPCC_OK);
    assert_int_equal(nk.any, 0);
    assert_null(nk.partners);
    ipcc_negative_keys_free(&nk);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_partners_and_shares),
        cmocka_unit_test(test_no_negative_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
