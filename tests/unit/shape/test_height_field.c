// Height-field terrain (src/shape/height_field.c, dispatched by src/shape/shape.c):
// - a linear grid a x + b y + c gives that plane exactly, so a ramp as a
//   height field has the distance of a half-space (inside its rectangle);
// - the bicubic surface interpolates the samples and is C^1 across cells;
// - the exact distance against brute force: for points above cell
//   interiors, cell borders, grid corners and beyond the grid, the closest
//   point is on the surface, |q - c| = |d|, and no point of a dense sampling
//   of the surface (patches and the continuation) is closer than |d|;
// - the normal is the distance's gradient, and the Hessian of phi^2 that of
//   central differences, on a grid of sin x cos y samples, in a rotated and
//   translated pose (shape.c's dispatch), also near the border creases;
// - bad grids are refused with clear messages (world_shapes.c).
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shape/height_field.h"
#include "ipcc/ipcc.h"
#include "shape/shape.h"
#include "support.h"

#define ROWS 9
#define COLS 11

// sin x cos y on a 11 x 9 grid with spacing 0.35 x 0.3 (a non-trivial terrain).
static ipcc_height_field *wavy(void) {
    static double h[ROWS * COLS];
    const double sp[2] = {0.35, 0.3};
    for (int r = 0; r < ROWS; ++r)
        for (int c = 0; c < COLS; ++c) {
            double x = (c - (COLS - 1) / 2.0) * sp[0], y = (r - (ROWS - 1) / 2.0) * sp[1];
            h[r * COLS + c] = 0.4 * sin(2 * x) * cos(1.5 * y);
        }
    ipcc_height_field *hf = NULL;
    assert_int_equal(ipcc_height_field_create(ROWS, COLS, h, sp, &hf), IPCC_OK);
    return hf;
}

static void test_linear_grid_is_exact(void **state) {
    (void)state;
    double h[6 * 5];
    const double sp[2] = {0.2, 0.25}, a = 0.3, b = -0.7, c0 = 0.1;
    for (int r = 0; r < 6; ++r)
        for (int c = 0; c < 5; ++c)
            h[r * 5 + c] = a * (c - 2) * sp[0] + b * (r - 2.5) * sp[1] + c0;
    ipcc_height_field *hf = NULL;
    assert_int_equal(ipcc_height_field_create(6, 5, h, sp, &hf), IPCC_OK);
    double nrm = sqrt(1 + a * a + b * b), n_plane[3] = {-a / nrm, -b / nrm, 1 / nrm};
    ipcc_test_seed(7);
    for (int k = 0; k < 500; ++k) {
        double x = ipcc_test_random(-0.4, 0.4), y = ipcc_test_random(-0.62, 0.62), g[2], H[3];
        double z = ipcc_height_field_height(hf, x, y, g, H);
        assert_near(z, a * x + b * y + c0, 1e-14, 0);
        assert_near(g[0], a, 1e-13, 0);
        assert_near(g[1], b, 1e-13, 0);
        assert_near(H[0], 0, 1e-11, 0);
        assert_near(H[1], 0, 1e-11, 0);
        assert_near(H[2], 0, 1e-11, 0);
        // A point whose closest plane point is inside the rectangle: the half-space's distance.
        double off = ipcc_test_random(-0.05, 0.05);
        double q[3] = {x * 0.8 + off * n_plane[0], y * 0.8 + off * n_plane[1],
                       a * x * 0.8 + b * y * 0.8 + c0};
        q[2] += off * n_plane[2];
        double cp[3], n[3], d = ipcc_height_field_distance(hf, q, cp, n);
        (void)d;
        assert_near(d, off, 1e-13, 0);
        for (int i = 0; i < 3; ++i)
            assert_near(n[i], n_plane[i], 1e-9, 0);
    }
    ipcc_height_field_destroy(hf);
}

static void test_interpolates_and_is_c1(void **state) {
    (void)state;
    ipcc_height_field *hf = wavy();
    const double *h = ipcc_height_field_heights(hf);
    double lo[3], hi[3];
    ipcc_height_field_bounds(hf, lo, hi);
    for (int r = 0; r < ROWS; ++r)
        for (int c = 0; c < COLS; ++c)
            assert_near(ipcc_height_field_height(hf, lo[0] + c * 0.35, lo[1] + r * 0.3, NULL, NULL),
                        h[r * COLS + c], 1e-13, 0);
    // Across a cell border x = lo + 4 dx: value and gradient match from both sides.
    for (int k = 0; k < 20; ++k) {
        double y = lo[1] + 0.1 + 0.1 * k, xb = lo[0] + 4 * 0.35, e = 1e-9, gl[2], gr[2];
        double zl = ipcc_height_field_height(hf, xb - e, y, gl, NULL),
               zr = ipcc_height_field_height(hf, xb + e, y, gr, NULL);
        assert_near(zl, zr, 1e-8, 0);
        assert_near(gl[0], gr[0], 1e-7, 0);
        assert_near(gl[1], gr[1], 1e-7, 0);
    }
    ipcc_height_field_destroy(hf);
}

// The continued surface's height at (x, y) (what the brute force samples).
static void surface_point(const ipcc_height_field *hf, double x, double y, double p[3]) {
    p[0] = x, p[1] = y, p[2] = ipcc_height_field_height(hf, x, y, NULL, NULL);
}

// Brute-force: the smallest distance from q to samples of the surface over
// [q - R, q + R] horizontally, at spacing s.
static double brute_distance(const ipcc_height_field *hf, const double q[3], double R, int m) {
    double best = INFINITY;
    for (int i = 0; i <= m; ++i)
        for (int j = 0; j <= m; ++j) {
            double p[3];
            surface_point(hf, q[0] - R + 2 * R * i / m, q[1] - R + 2 * R * j / m, p);
            double d = sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) +
                            (p[2] - q[2]) * (p[2] - q[2]));
            if (d < best) best = d;
        }
    return best;
}

// Query points: above interiors, borders, corners, beyond the grid, near and far, above and below.
static void query_point(const ipcc_height_field *hf, int k, double q[3]) {
    double lo[3], hi[3];
    ipcc_height_field_bounds(hf, lo, hi);
    double x = ipcc_test_random(lo[0] - 0.5, hi[0] + 0.5), y = ipcc_test_random(lo[1] - 0.5, hi[1] + 0.5);
    switch (k % 5) {
    case 1: x = lo[0] + 0.35 * (int)ipcc_test_random(0, COLS - 1); break; // a cell border
    case 2:                                                               // a grid corner
        x = k % 2 ? lo[0] : hi[0];
        y = k % 3 ? lo[1] : hi[1];
        break;
    default: break;
    }
    double offs[] = {0.001, -0.002, 0.05, 0.3, -0.2, 1e-7};
    q[0] = x, q[1] = y;
    q[2] = ipcc_height_field_height(hf, x, y, NULL, NULL) + offs[k % 6];
}

static void test_distance_against_brute_force(void **state) {
    (void)state;
    ipcc_height_field *hf = wavy();
    ipcc_test_seed(11);
    for (int k = 0; k < 120; ++k) {
        double q[3], c[3], n[3];
        query_point(hf, k, q);
        double d = ipcc_height_field_distance(hf, q, c, n);
        // The closest point is on the surface and |d| away; the normal is unit.
        assert_near(c[2], ipcc_height_field_height(hf, c[0], c[1], NULL, NULL), 1e-12, 0);
        double len = sqrt((q[0] - c[0]) * (q[0] - c[0]) + (q[1] - c[1]) * (q[1] - c[1]) +
                          (q[2] - c[2]) * (q[2] - c[2]));
        assert_near(len, fabs(d), 1e-12, 0);
        assert_near(sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]), 1, 1e-12, 0);
        // Sign: below the surface is negative.
        double above = q[2] - ipcc_height_field_height(hf, q[0], q[1], NULL, NULL);
        assert_true(above >= 0 ? d >= 0 : d <= 0);
        // Minimality against dense sampling within |d| (+ the sampling's resolution).
        double R = fabs(d) + 0.01;
        int m = 400;
        double bf = brute_distance(hf, q, R, m);
        // Nothing sampled is closer, and the nearest sample is within the sampling's resolution.
        assert_true(bf >= fabs(d) - 1e-12);
        assert_true(bf <= fabs(d) + 2 * (2 * R / m) + 1e-12);
    }
    ipcc_height_field_destroy(hf);
}

// Pose: rotated and translated, via shape.c.
static ipcc_shape posed(const ipcc_height_field *hf) {
    ipcc_shape s = {.kind = IPCC_SHAPE_HEIGHT_FIELD, .center = {0.3, -0.2, 0.5}, .field = hf};
    double Q[9];
    ipcc_test_seed(3);
    ipcc_test_random_rotation(Q);
    memcpy(s.rotation, Q, sizeof Q);
    return s;
}

static double phi_fn(const double *x, void *ctx) { return ipcc_shape_distance(ctx, x, NULL, NULL); }
static void grad_phi2(const double *x, void *ctx, double *g) {
    double n[3], d = fmax(ipcc_shape_distance(ctx, x, NULL, n), 0);
    for (int i = 0; i < 3; ++i)
        g[i] = 2 * d * n[i];
}

static void test_normal_and_hessian_by_differences(void **state) {
    (void)state;
    ipcc_height_field *hf = wavy();
    ipcc_shape s = posed(hf);
    ipcc_test_seed(19);
    int checked = 0;
    for (int k = 0; k < 200; ++k) {
        double q[3], x[3];
        query_point(hf, k, q);
        // Off the lines where the closest feature changes (a cell border, where Hess h jumps, or the
        // border of a corner's region), where the Hessian is discontinuous: near them on either side.
        q[0] += (k % 2 ? 1 : -1) * ipcc_test_random(2e-3, 2e-2);
        q[1] += (k % 3 ? 1 : -1) * ipcc_test_random(2e-3, 2e-2);
        if (q[2] <= ipcc_height_field_height(hf, q[0], q[1], NULL, NULL) + 1e-3) q[2] += 0.02; // outside
        ipcc_shape_to_world(&s, q, x);
        double n[3], d = ipcc_shape_distance(&s, x, NULL, n);
        if (!(d > 1e-3)) continue;
        double g[3];
        ipcc_test_fd_gradient(3, x, phi_fn, &s, 1e-6, g);
        // The distance is C^1 away from the medial axis: skip points near it (a kink in the differences).
        if (ipcc_test_rel_error(3, g, n, 1) > 1e-5) continue;
        double H[9], Hfd[9];
        ipcc_shape_distance2_hessian(&s, x, H);
        ipcc_test_fd_hessian(3, x, grad_phi2, &s, 1e-6, Hfd);
        double err = ipcc_test_rel_error(9, H, Hfd, 1);
        if (err > 1e-4) {
            print_message("k %d q (%.17g, %.17g, %.17g) d %g err %g\n", k, q[0], q[1], q[2], d, err);
            for (int i = 0; i < 9; ++i)
                print_message("  %g %g\n", H[i], Hfd[i]);
        }
        assert_true(err < 1e-4);
        checked++;
    }
    assert_true(checked > 150);
    ipcc_height_field_destroy(hf);
}

static void test_bad_grids_are_refused(void **state) {
    (void)state;
    ipcc_world_def wd = ipcc_default_world_def();
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&wd, &w), IPCC_OK);
    double h[16] = {0};
    ipcc_shape_def d = ipcc_default_shape_def();
    d.kind = IPCC_SHAPE_HEIGHT_FIELD;
    d.name = "ground";
    d.heights = h, d.rows = 4, d.cols = 3;
    assert_int_equal(ipcc_world_add_shape(w, &d, NULL), IPCC_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ipcc_last_error(), "at least 4 x 4 samples (got 4 rows x 3 columns)"));
    d.cols = 4;
    h[6] = NAN;
    assert_int_equal(ipcc_world_add_shape(w, &d, NULL), IPCC_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ipcc_last_error(), "height is not finite at row 1, column 2"));
    h[6] = 0;
    d.spacing[1] = 0;
    assert_int_equal(ipcc_world_add_shape(w, &d, NULL), IPCC_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ipcc_last_error(), "spacing must be > 0"));
    d.spacing[1] = 1;
    d.heights = NULL;
    assert_int_equal(ipcc_world_add_shape(w, &d, NULL), IPCC_ERR_INVALID_ARGUMENT);
    d.heights = h;
    int i = -1;
    assert_int_equal(ipcc_world_add_shape(w, &d, &i), IPCC_OK);
    // The world keeps its own copy.
    h[0] = 5;
    assert_true(ipcc_world_shape_def(w, i)->heights[0] == 0);
    ipcc_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_linear_grid_is_exact),
        cmocka_unit_test(test_interpolates_and_is_c1),
        cmocka_unit_test(test_distance_against_brute_force),
        cmocka_unit_test(test_normal_and_hessian_by_differences),
        cmocka_unit_test(test_bad_grids_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
