// Nearly parallel edge pairs (parallel_edges.c): the term T's gradient and
// Hessian against central differences; T is C1 where the segment
// distance's barrier kinks (the edges turning through parallel) and where
// the band ends (sin^2 = eps, T = b(d) with its gradient); T is never
// below the ends' barriers, is 0 exactly where the segments are d̂ apart,
// and is infinite when they touch.
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "collision/parallel_edges.h"
#include "geometry/barrier.h"
#include "geometry/distance.h"
#include "support.h"

static const double DHAT2 = 1e-2; // d̂ = 0.1 against edges of length ~1

static double t_value(const double *x, void *ctx) {
    (void)ctx;
    return ipcc_parallel_edges_barrier(x, DHAT2, NULL, NULL);
}

static void t_gradient(const double *x, void *ctx, double *g) {
    (void)ctx;
    ipcc_parallel_edges_barrier(x, DHAT2, g, NULL);
}

// b(d) of the segment distance: the term beyond the band.
static double segment_barrier(const double *x, double *g) {
    ipcc_edge_edge_distance_type t = ipcc_edge_edge_distance_type_of(x, x + 3, x + 6, x + 9);
    double d = ipcc_edge_edge_distance(x, x + 3, x + 6, x + 9, t);
    if (g) {
        ipcc_edge_edge_distance_gradient(x, x + 3, x + 6, x + 9, t, g);
        double b1 = ipcc_barrier_first_derivative(d, DHAT2);
        for (int i = 0; i < 12; ++i)
            g[i] *= b1;
    }
    return ipcc_barrier(d, DHAT2);
}

// Edge a along x from -0.5 to 0.5, edge b of length len at angle theta to
// it (turned about an axis at angle phi around x), its start shifted by
// sx along x and by `height` across, in direction psi.
static void pair(double theta, double phi, double sx, double len, double height, double psi, double x[12]) {
    const double a0[3] = {-0.5, 0, 0}, a1[3] = {0.5, 0, 0};
    double dir[3] = {cos(theta), sin(theta) * cos(phi), sin(theta) * sin(phi)};
    double b0[3] = {-0.5 + sx, height * cos(psi), height * sin(psi)};
    memcpy(x, a0, sizeof a0);
    memcpy(x + 3, a1, sizeof a1);
    memcpy(x + 6, b0, sizeof b0);
    for (int k = 0; k < 3; ++k)
        x[9 + k] = b0[k] + len * dir[k];
}

// The derivatives by central differences, over random nearly parallel
// pairs within d̂: inside the smooth maximum's band and out of it, the
// mollifier's polynomial and m = 1 beyond sin^2 = eps.
static void test_derivatives_match_differences(void **state) {
    (void)state;
    ipcc_test_seed(5);
    int checked = 0, banded = 0;
    double worst_g = 0, worst_h = 0;
    for (int k = 0; k < 400; ++k) {
        double s2 = pow(10, ipcc_test_random(-7, -2.7)); // up to 2 eps
        double x[12];
        pair(asin(sqrt(s2)), ipcc_test_random(0, 6.283), ipcc_test_random(-0.8, 0.8),
             ipcc_test_random(0.5, 1.2), ipcc_test_random(0.01, 0.095), ipcc_test_random(0, 6.283), x);
        for (int i = 0; i < 12; ++i) // not exactly along x
            x[i] += ipcc_test_random(-1e-3, 1e-3);
        double g[12], H[144], gfd[12], Hfd[144];
        double T = ipcc_parallel_edges_barrier(x, DHAT2, g, H);
        if (!(T > 0)) continue;
        ipcc_test_fd_gradient(12, x, t_value, NULL, 1e-7, gfd);
        ipcc_test_fd_hessian(12, x, t_gradient, NULL, 1e-7, Hfd);
        double gmax = ipcc_test_norm(12, g), hmax = ipcc_test_norm(144, H);
        double eg = ipcc_test_rel_error(12, g, gfd, 1e-6 * gmax),
               eh = ipcc_test_rel_error(144, H, Hfd, 1e-6 * hmax);
        if (eg > 1e-4 || eh > 1e-4)
            print_message("case %d: sin2 %.3g T %.6g: gradient error %.3g, Hessian error %.3g\n", k, s2, T,
                          eg, eh);
        assert_true(eg <= 1e-4);
        assert_true(eh <= 1e-4);
        for (int i = 0; i < 12; ++i)
            for (int j = 0; j < i; ++j)
                assert_true(fabs(H[12 * i + j] - H[12 * j + i]) <= 1e-12 * hmax);
        worst_g = fmax(worst_g, eg), worst_h = fmax(worst_h, eh);
        checked++;
        banded += ipcc_parallel_edges(x);
    }
    print_message("%d pairs (%d nearly parallel): worst relative error gradient %.2g, Hessian %.2g\n",
                  checked, banded, worst_g, worst_h);
    assert_true(checked >= 200 && banded >= 100 && checked - banded >= 20);
}

// The pair as edge b turns through parallel over a about its start (b
// shorter and overlapping a's middle: on one side its far end is the
// closest point, on the other its start).
static void turn(double theta, double x[12]) { pair(theta, 1.2, 0.3, 0.4, 0.05, 1.2, x); }

// The slope of a term along theta at theta, from its analytic gradient
// (g = NULL: b(d) of the segment distance, else T).
static double slope(double theta, bool parallel_term) {
    const double h = 1e-6;
    double x[12], xp[12], xm[12], g[12], s = 0;
    turn(theta, x);
    turn(theta + h, xp);
    turn(theta - h, xm);
    if (parallel_term)
        ipcc_parallel_edges_barrier(x, DHAT2, g, NULL);
    else
        segment_barrier(x, g);
    for (int i = 0; i < 12; ++i)
        s += g[i] * (xp[i] - xm[i]) / (2 * h);
    return s;
}

// Through parallel, b(d) of the segment distance kinks (its slopes on the
// two sides differ: the closest point jumps from one end of b to the
// other); T does not.
static void test_c1_through_parallel(void **state) {
    (void)state;
    const double e = 1e-9;
    double bb = slope(-e, false), bf = slope(e, false), tb = slope(-e, true), tf = slope(e, true);
    print_message("slopes at -1e-9 | +1e-9 rad: b(d) %.6g | %.6g, T %.6g | %.6g\n", bb, bf, tb, tf);
    assert_true(fabs(bb - bf) > 0.1 * fmax(fabs(bb), fabs(bf))); // the kink is there
    assert_true(fabs(tb - tf) <= 1e-6 * fmax(fabs(bb), fabs(bf)));
    double x[12];
    turn(0, x);
    double T = ipcc_parallel_edges_barrier(x, DHAT2, NULL, NULL);
    assert_true(isfinite(T) && T > 0);
}

// At the band's edge (sin^2 = eps) T is b(d) with b(d)'s gradient: the
// pair's term is continuous and C1 where the constraint set moves it from
// its own key to the closest features' key.
static void test_band_edge_matches_segment_barrier(void **state) {
    (void)state;
    const double edge = asin(sqrt(IPCC_PARALLEL_EDGES_SIN2));
    for (int k = 0; k < 3; ++k) {
        double x[12], g[12], gb[12];
        pair(edge * (1 - 1e-9), 0.3 + k, -0.2 + 0.3 * k, 0.7, 0.04, 2.0 * k, x);
        assert_true(ipcc_parallel_edges(x));
        double T = ipcc_parallel_edges_barrier(x, DHAT2, g, NULL), B = segment_barrier(x, gb);
        assert_true(B > 0);
        assert_true(fabs(T - B) <= 1e-6 * B);
        assert_true(ipcc_test_rel_error(12, g, gb, 0) <= 1e-6);
        pair(edge * (1 + 1e-9), 0.3 + k, -0.2 + 0.3 * k, 0.7, 0.04, 2.0 * k, x);
        assert_false(ipcc_parallel_edges(x));
    }
}

// T is never below the largest end barrier b(D_k) (no term of the
// inclusion-exclusion is left uncancelled), exceeds it by at most the
// smooth maximum's (1 + band / 2)^2 where the mollifier is off, is 0
// exactly where the segment distance reaches d̂, and infinite at contact.
static void test_bounds_activity_and_contact(void **state) {
    (void)state;
    ipcc_test_seed(9);
    for (int k = 0; k < 2000; ++k) {
        double x[12];
        pair(asin(sqrt(pow(10, ipcc_test_random(-9, -3)))), ipcc_test_random(0, 6.283),
             ipcc_test_random(-1, 1), ipcc_test_random(0.3, 1.2), ipcc_test_random(0.0, 0.12),
             ipcc_test_random(0, 6.283), x);
        double T = ipcc_parallel_edges_barrier(x, DHAT2, NULL, NULL), bmax = 0;
        for (int e = 0; e < 4; ++e) {
            const double *p = x + 3 * e, *q0 = x + (e < 2 ? 6 : 0), *q1 = q0 + 3;
            double d = ipcc_point_edge_distance(p, q0, q1, ipcc_point_edge_distance_type_of(p, q0, q1));
            bmax = fmax(bmax, ipcc_barrier(d, DHAT2));
        }
        double d = ipcc_edge_edge_distance(x, x + 3, x + 6, x + 9,
                                           ipcc_edge_edge_distance_type_of(x, x + 3, x + 6, x + 9));
        assert_true(T >= bmax * (1 - 1e-14));
        if (d >= DHAT2) assert_true(T == 0);
        if (d < DHAT2 * (1 - 1e-6)) assert_true(T > 0);
        if (ipcc_parallel_edges_sin2(x) < 1e-9 * IPCC_PARALLEL_EDGES_SIN2 && isfinite(bmax))
            assert_true(T <= bmax * (1 + IPCC_PARALLEL_EDGES_BAND / 2) * (1 + IPCC_PARALLEL_EDGES_BAND / 2) *
                                 (1 + 1e-6));
    }
    double x[12], g[12], H[144];
    pair(0, 0, 0.3, 0.0, 0.05, 0, x); // b has zero length, 0.05 over a: a point, finite derivatives
    assert_true(ipcc_parallel_edges(x));
    double T = ipcc_parallel_edges_barrier(x, DHAT2, g, H);
    assert_true(T > 0 && isfinite(T));
    for (int i = 0; i < 144; ++i)
        assert_true(isfinite(H[i]) && (i >= 12 || isfinite(g[i])));
    pair(0, 0, 0.3, 0.4, 0, 0, x); // b lies on a
    assert_true(isinf(ipcc_parallel_edges_barrier(x, DHAT2, NULL, NULL)));
    pair(1e-3, 0.5, 0.2, 0.6, 0, 0, x); // b starts on a
    assert_true(isinf(ipcc_parallel_edges_barrier(x, DHAT2, NULL, NULL)));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_derivatives_match_differences),
        cmocka_unit_test(test_c1_through_parallel),
        cmocka_unit_test(test_band_edge_matches_segment_barrier),
        cmocka_unit_test(test_bounds_activity_and_contact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
