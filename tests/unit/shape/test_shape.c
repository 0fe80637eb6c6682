// Analytic shape distances (src/shape/shape.c) against brute force: for random
// shapes (random centre, rotation and sizes) and points inside, on, near and
// far from the surface, and on the degenerate loci (centre, axis, symmetry
// planes), the returned closest point lies on the surface, is |d| away, has
// the right side, its normal points along x - closest, and no point of a
// dense parametric sampling of the surface is closer than |d| (minimality),
// while the nearest sample is within the sampling's resolution of it.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "random_shape.h"
#include "support.h"

#define M 160 // samples per surface parameter

static void to_local(const ipcc_shape *s, const double x[3], double q[3]) {
    double p[3] = {x[0] - s->center[0], x[1] - s->center[1], x[2] - s->center[2]};
    for (int i = 0; i < 3; ++i)
        q[i] = s->rotation[i] * p[0] + s->rotation[3 + i] * p[1] + s->rotation[6 + i] * p[2];
}

// Implicit "signed" residual in local coordinates: 0 on the surface, < 0 inside.
static double implicit(const ipcc_shape *s, const double q[3]) {
    const double *e = s->size;
    double rho = hypot(q[0], q[1]);
    switch (s->kind) {
    case IPCC_SHAPE_SPHERE: return sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]) - e[0];
    case IPCC_SHAPE_BOX: return fmax(fabs(q[0]) - e[0], fmax(fabs(q[1]) - e[1], fabs(q[2]) - e[2]));
    case IPCC_SHAPE_CYLINDER: return fmax(rho - e[0], fabs(q[2]) - e[1]);
    case IPCC_SHAPE_TORUS: return hypot(rho - e[0], q[2]) - e[1];
    default:
        return sqrt((q[0] / e[0]) * (q[0] / e[0]) + (q[1] / e[1]) * (q[1] / e[1]) +
                    (q[2] / e[2]) * (q[2] / e[2])) -
               1;
    }
}

// Local surface point for parameters (u, v) in [0, 1]^2 of patch k (faces of a
// box, side and caps of a cylinder); returns false when patch k does not exist.
static bool surface_point(const ipcc_shape *s, int k, double u, double v, double p[3]) {
    const double *e = s->size, pi = acos(-1.0);
    switch (s->kind) {
    case IPCC_SHAPE_BOX: {
        if (k >= 6) return false;
        int a = k / 2, b = (a + 1) % 3, c = (a + 2) % 3;
        p[a] = k % 2 ? e[a] : -e[a];
        p[b] = (2 * u - 1) * e[b];
        p[c] = (2 * v - 1) * e[c];
        return true;
    }
    case IPCC_SHAPE_CYLINDER:
        if (k == 0) {
            p[0] = e[0] * cos(2 * pi * u), p[1] = e[0] * sin(2 * pi * u), p[2] = (2 * v - 1) * e[1];
        } else if (k <= 2) {
            p[0] = v * e[0] * cos(2 * pi * u), p[1] = v * e[0] * sin(2 * pi * u),
            p[2] = k == 1 ? e[1] : -e[1];
        } else {
            return false;
        }
        return true;
    case IPCC_SHAPE_TORUS: {
        if (k > 0) return false;
        double rr = e[0] + e[1] * cos(2 * pi * v);
        p[0] = rr * cos(2 * pi * u), p[1] = rr * sin(2 * pi * u), p[2] = e[1] * sin(2 * pi * v);
        return true;
    }
    default: { // sphere and ellipsoid
        if (k > 0) return false;
        bool sphere = s->kind == IPCC_SHAPE_SPHERE; // a sphere's radius is size[0] alone
        double th = pi * v, ph = 2 * pi * u, a = e[0], b = sphere ? e[0] : e[1], c = sphere ? e[0] : e[2];
        p[0] = a * sin(th) * cos(ph), p[1] = b * sin(th) * sin(ph), p[2] = c * cos(th);
        return true;
    }
    }
}

// Nearest sample of the surface to local point q, and the sampling's resolution.
static double brute_force(const ipcc_shape *s, const double q[3], double *resolution) {
    double best = INFINITY, extent = fmax(s->size[0], fmax(s->size[1], s->size[2]));
    if (s->kind == IPCC_SHAPE_TORUS) extent = s->size[0] + s->size[1];
    *resolution = 2 * acos(-1.0) * extent * 2 / M;
    for (int k = 0;; ++k) {
        double p[3];
        if (!surface_point(s, k, 0, 0, p)) break;
        for (int i = 0; i <= M; ++i)
            for (int j = 0; j <= M; ++j) {
                surface_point(s, k, (double)i / M, (double)j / M, p);
                double d = sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) +
                                (p[2] - q[2]) * (p[2] - q[2]));
                best = fmin(best, d);
            }
    }
    return best;
}

static void check_point(const ipcc_shape *s, const double x[3]) {
    double c[3], n[3], q[3], qc[3];
    double d = ipcc_shape_distance(s, x, c, n);
    double L = fmax(s->size[0], fmax(s->size[1], s->size[2])), tol = 1e-12 * (L + fabs(d));
    // |x - closest| = |d|
    double w[3] = {x[0] - c[0], x[1] - c[1], x[2] - c[2]}, wl = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    assert_true(fabs(wl - fabs(d)) <= 1e-10 * (L + fabs(d)));
    // The closest point is on the surface.
    to_local(s, c, qc);
    double scale = s->kind == IPCC_SHAPE_ELLIPSOID ? 1.0 : L;
    assert_true(fabs(implicit(s, qc)) <= 1e-9 * scale);
    // The side.
    to_local(s, x, q);
    double side = implicit(s, q);
    if (fabs(side) > 1e-9 * scale) assert_true((side < 0) == (d < 0));
    // The normal: unit, along x - closest away from the surface.
    assert_true(fabs(sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) - 1) < 1e-12);
    if (fabs(d) > 1e-6 * L)
        for (int i = 0; i < 3; ++i)
            assert_true(fabs(n[i] - w[i] / d) < 1e-6);
    // Minimality against the sampled surface.
    double resolution, dm = brute_force(s, q, &resolution);
    if (dm < fabs(d) - 1e-9 * L) {
        fprintf(stderr, "shape %d: point (%g %g %g) local (%g %g %g): d = %.17g but a sample is %.17g away\n",
                s->kind, x[0], x[1], x[2], q[0], q[1], q[2], d, dm);
        fail();
    }
    assert_true(dm <= fabs(d) + resolution + tol);
}

static void from_local(const ipcc_shape *s, const double q[3], double x[3]) {
    for (int i = 0; i < 3; ++i)
        x[i] = s->center[i] + s->rotation[3 * i] * q[0] + s->rotation[3 * i + 1] * q[1] +
               s->rotation[3 * i + 2] * q[2];
}

static void check_kind(ipcc_shape_kind kind) {
    for (int trial = 0; trial < 6; ++trial) {
        ipcc_shape s = ipcc_test_random_shape(kind, 0.1, 0.9);
        double L = fmax(s.size[0], fmax(s.size[1], s.size[2])) + (kind == IPCC_SHAPE_TORUS ? s.size[1] : 0);
        for (int k = 0; k < 40; ++k) { // inside, near and far
            double q[3], x[3];
            double reach = k < 20 ? 1.1 : 2.5;
            for (int i = 0; i < 3; ++i)
                q[i] = ipcc_test_random(-reach, reach) * L;
            if (k % 5 == 0) q[k / 5 % 3] = 0; // on a symmetry plane
            if (k % 7 == 0) q[0] = q[1] = 0;  // on the local z axis
            from_local(&s, q, x);
            check_point(&s, x);
        }
        // On and just off the surface.
        for (int k = 0; k < 20; ++k) {
            double q[3], x[3], c[3];
            int patch = kind == IPCC_SHAPE_BOX ? k % 6 : kind == IPCC_SHAPE_CYLINDER ? k % 3 : 0;
            surface_point(&s, patch, ipcc_test_random(0, 1), ipcc_test_random(0, 1), q);
            from_local(&s, q, x);
            double d = ipcc_shape_distance(&s, x, c, NULL);
            assert_true(fabs(d) < 1e-12 * L * 10);
            check_point(&s, x);
        }
        double origin[3] = {0, 0, 0}, x[3];
        from_local(&s, origin, x); // the centre
        check_point(&s, x);
    }
}

static void test_sphere(void **state) {
    (void)state;
    ipcc_test_seed(81);
    check_kind(IPCC_SHAPE_SPHERE);
}
static void test_box(void **state) {
    (void)state;
    ipcc_test_seed(82);
    check_kind(IPCC_SHAPE_BOX);
}
static void test_cylinder(void **state) {
    (void)state;
    ipcc_test_seed(83);
    check_kind(IPCC_SHAPE_CYLINDER);
}
static void test_ellipsoid(void **state) {
    (void)state;
    ipcc_test_seed(84);
    check_kind(IPCC_SHAPE_ELLIPSOID);
}
static void test_torus(void **state) {
    (void)state;
    ipcc_test_seed(85);
    check_kind(IPCC_SHAPE_TORUS);
}

// ipcc_shape_distance_bounded: below r it is the exact distance; otherwise
// some value >= r and no larger than the distance (an ellipsoid's support-
// function bound, shape.c), for every kind and points near and far.
static void test_distance_bounded(void **state) {
    (void)state;
    ipcc_test_seed(86);
    int bounded = 0;
    for (int kind = IPCC_SHAPE_SPHERE; kind <= IPCC_SHAPE_TORUS; ++kind)
        for (int trial = 0; trial < 200; ++trial) {
            ipcc_shape s = ipcc_test_random_shape((ipcc_shape_kind)kind, 0.2, 0.6);
            double L = ipcc_shape_bounding_radius(&s), x[3];
            for (int k = 0; k < 3; ++k)
                x[k] = s.center[k] + ipcc_test_random(-3, 3) * L;
            double d = ipcc_shape_distance(&s, x, NULL, NULL);
            for (int j = 0; j < 4; ++j) {
                double r = L * (j == 0   ? 1e-3
                                : j == 1 ? 0.1
                                : j == 2 ? 1
                                         : 3),
                       b = ipcc_shape_distance_bounded(&s, x, r);
                if (d < r)
                    assert_true(b == d);
                else
                    assert_true(b >= r && b <= d * (1 + 1e-12));
                bounded += b != d;
            }
        }
    print_message("%d bounds below the exact distance\n", bounded);
    assert_true(bounded > 100); // the ellipsoid's bound is used
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sphere),   cmocka_unit_test(test_box),
        cmocka_unit_test(test_cylinder), cmocka_unit_test(test_ellipsoid),
        cmocka_unit_test(test_torus),    cmocka_unit_test(test_distance_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
