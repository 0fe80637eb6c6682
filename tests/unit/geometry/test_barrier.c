// The clamped log barrier: values, C2 continuity at dhat, derivatives by
// central differences, and the infeasible region.
#include <math.h>

#include "geometry/barrier.h"
#include "support.h"

static double b_fn(const double *x, void *ctx) { return ipcc_barrier(x[0], *(double *)ctx); }
static void db_fn(const double *x, void *ctx, double *g) {
    g[0] = ipcc_barrier_first_derivative(x[0], *(double *)ctx);
}

static void test_values(void **state) {
    (void)state;
    double dhat = 1e-6;
    assert_true(ipcc_barrier(0.0, dhat) == INFINITY);
    assert_true(ipcc_barrier(-1e-20, dhat) == INFINITY);
    assert_true(ipcc_barrier(dhat, dhat) == 0.0);
    assert_true(ipcc_barrier(2 * dhat, dhat) == 0.0);
    // b(dhat/2) = -(dhat/2)^2 ln(1/2)
    assert_near(ipcc_barrier(0.5 * dhat, dhat), 0.25 * dhat * dhat * log(2.0), 0, 1e-14);
    // Monotone decreasing and positive inside (0, dhat).
    double prev = INFINITY;
    for (int k = 1; k < 100; ++k) {
        double v = ipcc_barrier(dhat * k / 100.0, dhat);
        assert_true(v > 0 && v < prev);
        assert_true(ipcc_barrier_first_derivative(dhat * k / 100.0, dhat) < 0);
        assert_true(ipcc_barrier_second_derivative(dhat * k / 100.0, dhat) > 0);
        prev = v;
    }
}

static void test_c2_at_dhat(void **state) {
    (void)state;
    double dhat = 3e-4, below = dhat * (1 - 1e-9);
    assert_true(fabs(ipcc_barrier(below, dhat)) < 1e-24);
    assert_true(fabs(ipcc_barrier_first_derivative(below, dhat)) < 1e-15);
    assert_true(fabs(ipcc_barrier_second_derivative(below, dhat)) < 1e-7);
}

static void test_finite_differences(void **state) {
    (void)state;
    double dhats[] = {1e-8, 1e-4, 1.0, 25.0};
    for (size_t j = 0; j < sizeof dhats / sizeof *dhats; ++j) {
        double dhat = dhats[j];
        for (int k = 1; k < 20; ++k) {
            double x = dhat * k / 20.0, g, g_fd, H, H_fd, h = 1e-6 * x;
            db_fn(&x, &dhat, &g);
            ipcc_test_fd_gradient(1, &x, b_fn, &dhat, h, &g_fd);
            assert_near(g, g_fd, 1e-9 * fabs(dhat), 1e-6);
            H = ipcc_barrier_second_derivative(x, dhat);
            ipcc_test_fd_hessian(1, &x, db_fn, &dhat, h, &H_fd);
            assert_near(H, H_fd, 1e-9, 1e-6);
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_c2_at_dhat),
        cmocka_unit_test(test_finite_differences),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
