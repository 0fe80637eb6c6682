// Inversion step filter: the first time a tet's volume vanishes along a step.
#include <math.h>

#include "fem/inversion_filter.h"
#include "support.h"

static const double unit_tet[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};

// Vertex 3 moves straight through the opposite face: collapse at alpha = 1/d.
static void test_collapse_time_exact(void **state) {
    (void)state;
    double ds[] = {0.5, 1.0, 2.0, 10.0, 1e6};
    for (size_t k = 0; k < sizeof ds / sizeof *ds; ++k) {
        double p[12] = {0};
        p[11] = -ds[k];
        assert_near(ipcc_tet_inversion_time(unit_tet, p), 1.0 / ds[k], 0, 1e-10);
    }
}

static void test_no_collapse(void **state) {
    (void)state;
    double p[12] = {0};
    assert_true(isinf(ipcc_tet_inversion_time(unit_tet, p))); // zero motion
    for (int i = 0; i < 12; ++i)
        p[i] = 0.3 * unit_tet[i]; // uniform growth
    assert_true(isinf(ipcc_tet_inversion_time(unit_tet, p)));
    double q[12] = {0};
    for (int k = 0; k < 4; ++k)
        q[3 * k] = 5.0; // translation
    assert_true(isinf(ipcc_tet_inversion_time(unit_tet, q)));
}

// A unit tet with its vertices moved by up to 0.2 per coordinate into x,
// and a direction p of coordinates uniform in [-amplitude, amplitude];
// false when the moved tet is not positive.
static bool random_step(double x[12], double p[12], double amplitude) {
    for (int i = 0; i < 12; ++i)
        x[i] = unit_tet[i] + ipcc_test_random(-0.2, 0.2);
    if (ipcc_tet_signed_volume6(x) <= 0) return false;
    for (int i = 0; i < 12; ++i)
        p[i] = ipcc_test_random(-amplitude, amplitude);
    return true;
}

// Random steps: compare with dense sampling of the volume along the step.
static void test_random_against_sampling(void **state) {
    (void)state;
    ipcc_test_seed(7);
    int checked = 0;
    for (int trial = 0; trial < 2000; ++trial) {
        double x[12], p[12];
        if (!random_step(x, p, 2)) continue;
        double t = ipcc_tet_inversion_time(x, p);
        // Sample [0, min(t, 4)] densely: the volume must stay positive before t.
        double end = fmin(t, 4.0);
        for (int s = 0; s < 400; ++s) {
            double a = end * s / 400.0, xa[12];
            for (int i = 0; i < 12; ++i)
                xa[i] = x[i] + a * p[i];
            assert_true(ipcc_tet_signed_volume6(xa) > 0);
        }
        if (isfinite(t)) {
            double xa[12];
            for (int i = 0; i < 12; ++i)
                xa[i] = x[i] + t * (1 + 1e-8) * p[i];
            assert_true(ipcc_tet_signed_volume6(xa) <= 1e-12);
            checked++;
        }
    }
    assert_true(checked > 100);
}

static void test_max_step_is_scaled_minimum(void **state) {
    (void)state;
    double x[24], p[24] = {0};
    for (int i = 0; i < 12; ++i)
        x[i] = x[12 + i] = unit_tet[i];
    for (int k = 0; k < 4; ++k)
        x[12 + 3 * k] += 3.0; // second tet shifted
    p[11] = -4.0;             // first tet collapses at 0.25
    p[12 + 11] = -0.5;        // second at 2
    int tets[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    assert_near(ipcc_inversion_max_step(2, tets, x, p), 0.9 * 0.25, 0, 1e-10);
    p[11] = 0;
    assert_near(ipcc_inversion_max_step(2, tets, x, p), 1.0, 0, 0);
}

// The bounded search (what the filter runs, limit 2): the unbounded root,
// bit for bit, when that is below the limit, else INFINITY; over random tets
// and directions from tiny (Newton's tail: roots far out) to large, and
// limits around the roots.
static void test_bounded_search_is_the_same_below_its_limit(void **state) {
    (void)state;
    int below = 0, beyond = 0;
    for (int trial = 0; trial < 20000; ++trial) {
        double x[12], p[12];
        if (!random_step(x, p, pow(10, ipcc_test_random(-6, 1)))) continue;
        double t = ipcc_tet_inversion_time(x, p);
        double limits[3] = {2.0, isfinite(t) ? t * (1 + ipcc_test_random(-1e-3, 1e-3)) : 1.0, 0.5};
        for (int k = 0; k < 3; ++k) {
            double b = ipcc_tet_inversion_time_below(x, p, limits[k]);
            if (t < limits[k]) {
                assert_memory_equal(&b, &t, sizeof b);
                below++;
            } else {
                assert_true(isinf(b));
                beyond++;
            }
        }
    }
    assert_true(below > 1000 && beyond > 1000);
    // The filter's step: the same as from the unbounded roots.
    for (int trial = 0; trial < 2000; ++trial) {
        double x[12], p[12];
        if (!random_step(x, p, 3)) continue;
        int tet[4] = {0, 1, 2, 3};
        double want = fmin(1.0, 0.9 * ipcc_tet_inversion_time(x, p)),
               got = ipcc_inversion_max_step(1, tet, x, p);
        assert_memory_equal(&got, &want, sizeof got);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_collapse_time_exact),
        cmocka_unit_test(test_no_collapse),
        cmocka_unit_test(test_random_against_sampling),
        cmocka_unit_test(test_max_step_is_scaled_minimum),
        cmocka_unit_test(test_bounded_search_is_the_same_below_its_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
