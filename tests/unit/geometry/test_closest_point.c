// Closest points between contact primitives (closest_point.c): analytic
// cases, the orthogonality that defines each (the residual is orthogonal to
// the feature's directions), degenerate features, and accuracy on nearly
// degenerate input.
//
// Accuracy. The reference is exact: the normal equations on the Gram matrix
// solved in rational arithmetic (GMP mpq; every double is an exact
// rational), so rounding is the only difference. With theta the angle
// between the two spanning directions (of length >= len) and dist the
// point's distance to the plane (the lines' distance), the problem itself
// is conditioned as
//   eps / sin(theta) + eps dist / (len sin^2(theta))
// (rounding the directions by eps tilts the plane by eps / sin, and moves
// the foot of a point dist away by dist times that, across a sliver
// len sin wide). closest_point.c's cross-product forms stay within 16 times
// that (times max(1, |b|)). The Gram form d00 d11 - d01^2 in doubles loses
// eps / sin^2 even for points in the plane: on the near-plane cases (dist
// <= 1e-6) it exceeds the bound, which the test checks, so the bound is
// one the Gram form fails.
//
// The clamped segment-segment points are checked against dense sampling
// and a nested ternary search (the squared distance is convex).
#include <float.h>
#include <gmp.h>
#include <math.h>

#include "geometry/closest_point.h"
#include "support.h"
#include "base/vec3.h"

// --- Exact reference: argmin over (x, y) of |r - x u - y v|^2, solved by
// Cramer's rule on the Gram matrix in rationals, with u = u1 - u0,
// v = v1 - v0 and r = r1 - r0 formed exactly from the doubles given.

static void mpq_vec_diff(mpq_t out[3], const double *a, const double *b) {
    mpq_t t;
    mpq_init(t);
    for (int k = 0; k < 3; ++k) {
        mpq_set_d(out[k], a[k]);
        mpq_set_d(t, b[k]);
        mpq_sub(out[k], out[k], t);
    }
    mpq_clear(t);
}

static void mpq_dot(mpq_t out, mpq_t a[3], mpq_t b[3]) {
    mpq_t t;
    mpq_init(t);
    mpq_set_ui(out, 0, 1);
    for (int k = 0; k < 3; ++k) {
        mpq_mul(t, a[k], b[k]);
        mpq_add(out, out, t);
    }
    mpq_clear(t);
}

static void exact_least_squares(const double *u1, const double *u0, const double *v1, const double *v0,
                                const double *r1, const double *r0, double xy[2]) {
    mpq_t u[3], v[3], r[3], uu, uv, vv, ru, rv, det, num, t;
    for (int k = 0; k < 3; ++k) {
        mpq_init(u[k]);
        mpq_init(v[k]);
        mpq_init(r[k]);
    }
    mpq_inits(uu, uv, vv, ru, rv, det, num, t, NULL);
    mpq_vec_diff(u, u1, u0);
    mpq_vec_diff(v, v1, v0);
    mpq_vec_diff(r, r1, r0);
    mpq_dot(uu, u, u);
    mpq_dot(uv, u, v);
    mpq_dot(vv, v, v);
    mpq_dot(ru, r, u);
    mpq_dot(rv, r, v);
    // [uu uv; uv vv] (x, y) = (ru, rv)
    mpq_mul(det, uu, vv);
    mpq_mul(t, uv, uv);
    mpq_sub(det, det, t);
    assert_true(mpq_sgn(det) != 0);
    mpq_mul(num, vv, ru);
    mpq_mul(t, uv, rv);
    mpq_sub(num, num, t);
    mpq_div(num, num, det);
    xy[0] = mpq_get_d(num);
    mpq_mul(num, uu, rv);
    mpq_mul(t, uv, ru);
    mpq_sub(num, num, t);
    mpq_div(num, num, det);
    xy[1] = mpq_get_d(num);
    for (int k = 0; k < 3; ++k) {
        mpq_clear(u[k]);
        mpq_clear(v[k]);
        mpq_clear(r[k]);
    }
    mpq_clears(uu, uv, vv, ru, rv, det, num, t, NULL);
}

// The Gram (Cramer) form in doubles, the one closest_point.c avoids: the
// same solution as above, with its determinant d00 d11 - d01^2 rounded.
static void gram_least_squares(const double u[3], const double v[3], const double r[3], double xy[2]) {
    double d00 = dot3(u, u), d01 = dot3(u, v), d11 = dot3(v, v), ru = dot3(r, u), rv = dot3(r, v);
    double det = d00 * d11 - d01 * d01;
    xy[0] = (d11 * ru - d01 * rv) / det;
    xy[1] = (d00 * rv - d01 * ru) / det;
}

// The accuracy bound of the preamble.
static double accuracy_bound(double sin_theta, double dist, double len, double scale) {
    return 16 * DBL_EPSILON * scale * (1 / sin_theta + dist / (len * sin_theta * sin_theta));
}

static double sin_angle(const double u[3], const double v[3]) {
    double n[3];
    cross3(u, v, n);
    return sqrt(dot3(n, n) / (dot3(u, u) * dot3(v, v)));
}

static void random_point(double lo, double hi, double p[3]) {
    for (int k = 0; k < 3; ++k)
        p[k] = ipcc_test_random(lo, hi);
}

// --- Point-edge.

static void test_point_edge(void **state) {
    (void)state;
    const double e0[3] = {1, 1, 1}, e1[3] = {3, 1, 1};
    assert_near(ipcc_point_edge_closest_point((double[3]){4, 2, 0}, e0, e1), 1.5, 0, 1e-15); // past e1
    assert_near(ipcc_point_edge_closest_point((double[3]){1.5, -7, 3}, e0, e1), 0.25, 0, 1e-15);
    assert_near(ipcc_point_edge_closest_point((double[3]){0, 0, 0}, e0, e1), -0.5, 0, 1e-15); // before e0
    // A zero-length edge: 0.
    assert_true(ipcc_point_edge_closest_point((double[3]){4, 2, 0}, e0, e0) == 0.0);
    // Random: the residual p - (e0 + a (e1 - e0)) is orthogonal to the edge.
    ipcc_test_seed(11);
    for (int it = 0; it < 500; ++it) {
        double p[3], a0[3], a1[3], e[3], foot[3], res[3];
        random_point(-2, 2, p);
        random_point(-2, 2, a0);
        random_point(-2, 2, a1);
        if (it % 5 == 0) // short edges too
            for (int k = 0; k < 3; ++k)
                a1[k] = a0[k] + 1e-6 * (a1[k] - a0[k]);
        double a = ipcc_point_edge_closest_point(p, a0, a1);
        sub3(a1, a0, e);
        for (int k = 0; k < 3; ++k) {
            foot[k] = a0[k] + a * e[k];
            res[k] = p[k] - foot[k];
        }
        // |res . e| is rounding of p - e0 (size |p - e0|) against |e|.
        double pr[3];
        sub3(p, a0, pr);
        assert_true(fabs(dot3(res, e)) <= 8 * DBL_EPSILON * norm3(e) * (norm3(pr) + fabs(a) * norm3(e)));
    }
}

// --- Point-triangle.

static void test_point_triangle(void **state) {
    (void)state;
    const double t0[3] = {0, 0, 0}, t1[3] = {2, 0, 0}, t2[3] = {0, 4, 0};
    double b[2];
    ipcc_point_triangle_closest_point((double[3]){0.5, 1, 7}, t0, t1, t2, b);
    assert_near(b[0], 0.25, 0, 1e-15);
    assert_near(b[1], 0.25, 0, 1e-15);
    ipcc_point_triangle_closest_point((double[3]){3, 5, -1}, t0, t1, t2, b); // outside: not clamped
    assert_near(b[0], 1.5, 0, 1e-15);
    assert_near(b[1], 1.25, 0, 1e-15);
    // Degenerate triangles (zero normal): (0, 0).
    const double c1[3] = {1, 1, 1}, c2[3] = {2, 2, 2};
    b[0] = b[1] = 7;
    ipcc_point_triangle_closest_point((double[3]){0, 1, 0}, t0, c1, c2, b); // collinear
    assert_true(b[0] == 0 && b[1] == 0);
    b[0] = b[1] = 7;
    ipcc_point_triangle_closest_point((double[3]){0, 1, 0}, t1, t1, t2, b); // coincident vertices
    assert_true(b[0] == 0 && b[1] == 0);

    // Random: p - foot is orthogonal to both edges, and the foot is p's
    // projection on the plane, p - ((p - t0) . n) n / |n|^2.
    ipcc_test_seed(12);
    for (int it = 0; it < 500; ++it) {
        double p[3], q0[3], q1[3], q2[3], a[3], c[3], n[3], r[3], foot[3], res[3], proj[3];
        random_point(-2, 2, p);
        random_point(-2, 2, q0);
        random_point(-2, 2, q1);
        random_point(-2, 2, q2);
        ipcc_point_triangle_closest_point(p, q0, q1, q2, b);
        sub3(q1, q0, a);
        sub3(q2, q0, c);
        sub3(p, q0, r);
        cross3(a, c, n);
        double h = dot3(r, n) / dot3(n, n);
        for (int k = 0; k < 3; ++k) {
            foot[k] = q0[k] + b[0] * a[k] + b[1] * c[k];
            res[k] = p[k] - foot[k];
            proj[k] = p[k] - h * n[k];
        }
        double s = sin_angle(a, c), scale = norm3(r) + fabs(b[0]) * norm3(a) + fabs(b[1]) * norm3(c);
        double tol = 16 * DBL_EPSILON / s * scale;
        assert_true(fabs(dot3(res, a)) <= tol * norm3(a));
        assert_true(fabs(dot3(res, c)) <= tol * norm3(c));
        for (int k = 0; k < 3; ++k)
            assert_near(foot[k], proj[k], tol, 0);
    }
}

// Nearly degenerate (sliver) triangles: t2 - t0 = f (t1 - t0) + eps w,
// eps from 1e-2 down to 1e-8, p over the triangle or near it, within 1e-6
// of its plane or up to 0.5 away. The error against the exact parameters
// must stay below the preamble's bound; the Gram form in doubles exceeds it
// on most of the near-plane cases.
static void test_point_triangle_slivers(void **state) {
    (void)state;
    ipcc_test_seed(13);
    int near_cases = 0, gram_fails = 0;
    double worst = 0; // largest error / bound of closest_point.c
    for (int it = 0; it < 140; ++it) {
        double eps = pow(10.0, -2.0 - (it % 7)); // 1e-2 .. 1e-8
        bool near = (it / 7) % 2 == 0;
        double q0[3], a[3], w[3], q1[3], q2[3], p[3], c[3], n[3], r[3];
        random_point(-1, 1, q0);
        random_point(-1, 1, a);
        random_point(-1, 1, w);
        double f = ipcc_test_random(0.3, 2.0), x = ipcc_test_random(-0.2, 1.2),
               y = ipcc_test_random(-0.2, 1.2), h = ipcc_test_random(-0.5, 0.5) * (near ? 2e-6 : 1);
        for (int k = 0; k < 3; ++k) {
            q1[k] = q0[k] + a[k];
            q2[k] = q0[k] + f * a[k] + eps * w[k];
        }
        sub3(q1, q0, a);
        sub3(q2, q0, c);
        cross3(a, c, n);
        double nn = norm3(n);
        for (int k = 0; k < 3; ++k)
            p[k] = q0[k] + x * a[k] + y * c[k] + h * n[k] / nn;
        double exact[2], b[2], g[2];
        exact_least_squares(q1, q0, q2, q0, p, q0, exact);
        ipcc_point_triangle_closest_point(p, q0, q1, q2, b);
        sub3(p, q0, r);
        gram_least_squares(a, c, r, g);
        double scale = fmax(1.0, fmax(fabs(exact[0]), fabs(exact[1])));
        double dist = fabs(dot3(r, n)) / nn;
        double bound = accuracy_bound(sin_angle(a, c), dist, fmin(norm3(a), norm3(c)), scale);
        double err = fmax(fabs(b[0] - exact[0]), fabs(b[1] - exact[1]));
        double gerr = fmax(fabs(g[0] - exact[0]), fabs(g[1] - exact[1]));
        if (!(err <= bound))
            fail_msg("sliver %d (sin %.1e): error %.3e > bound %.3e (b = %.17g, %.17g; exact %.17g, %.17g)",
                     it, sin_angle(a, c), err, bound, b[0], b[1], exact[0], exact[1]);
        worst = fmax(worst, err / bound);
        near_cases += near;
        gram_fails += near && !(gerr <= bound);
    }
    print_message("slivers: worst error %.3f of the bound; the Gram form exceeds it on %d of %d near-plane "
                  "cases\n",
                  worst, gram_fails, near_cases);
    assert_true(gram_fails >= near_cases / 2); // the bound is one the Gram form fails
}

// --- Edge-edge, lines.

static void test_edge_edge_lines(void **state) {
    (void)state;
    double st[2];
    const double ea0[3] = {0, 0, 0}, ea1[3] = {2, 0, 0};
    ipcc_edge_edge_closest_point(ea0, ea1, (double[3]){1, -1, 1}, (double[3]){1, 3, 1}, st);
    assert_near(st[0], 0.5, 0, 1e-15);
    assert_near(st[1], 0.25, 0, 1e-15);
    ipcc_edge_edge_closest_point(ea0, ea1, (double[3]){5, 2, -1}, (double[3]){5, 2, 3}, st); // beyond both
    assert_near(st[0], 2.5, 0, 1e-15);
    assert_near(st[1], 0.25, 0, 1e-15);
    // Parallel, antiparallel and collinear lines, and a zero-length edge: (0, 0).
    const double *others[][2] = {{(double[3]){0, 1, 0}, (double[3]){3, 1, 0}},
                                 {(double[3]){3, 1, 1}, (double[3]){-1, 1, 1}},
                                 {(double[3]){4, 0, 0}, (double[3]){7, 0, 0}},
                                 {(double[3]){1, 1, 1}, (double[3]){1, 1, 1}}};
    for (int i = 0; i < 4; ++i) {
        st[0] = st[1] = 7;
        ipcc_edge_edge_closest_point(ea0, ea1, others[i][0], others[i][1], st);
        assert_true(st[0] == 0 && st[1] == 0);
    }
    // Random: the residual (ea0 + s a) - (eb0 + t b) is orthogonal to a and b.
    ipcc_test_seed(14);
    for (int it = 0; it < 500; ++it) {
        double p0[3], p1[3], q0[3], q1[3], a[3], b[3], res[3];
        random_point(-2, 2, p0);
        random_point(-2, 2, p1);
        random_point(-2, 2, q0);
        random_point(-2, 2, q1);
        ipcc_edge_edge_closest_point(p0, p1, q0, q1, st);
        sub3(p1, p0, a);
        sub3(q1, q0, b);
        for (int k = 0; k < 3; ++k)
            res[k] = (p0[k] + st[0] * a[k]) - (q0[k] + st[1] * b[k]);
        double r[3];
        sub3(p0, q0, r);
        double scale = norm3(r) + fabs(st[0]) * norm3(a) + fabs(st[1]) * norm3(b);
        double tol = 16 * DBL_EPSILON / sin_angle(a, b) * scale;
        assert_true(fabs(dot3(res, a)) <= tol * norm3(a));
        assert_true(fabs(dot3(res, b)) <= tol * norm3(b));
    }
}

// Nearly parallel lines, against the exact solution, as for slivers: their
// closest points at (s0, t0) in [-0.2, 1.2]^2, 1e-6 or up to 0.5 apart.
static void test_edge_edge_nearly_parallel(void **state) {
    (void)state;
    ipcc_test_seed(15);
    int near_cases = 0, gram_fails = 0;
    double worst = 0;
    for (int it = 0; it < 140; ++it) {
        double eps = pow(10.0, -2.0 - (it % 7));
        bool near = (it / 7) % 2 == 0;
        double p0[3], a[3], w[3], p1[3], q0[3], q1[3], b[3], m[3], r[3];
        random_point(-1, 1, p0);
        random_point(-1, 1, a);
        random_point(-1, 1, w);
        double f = ipcc_test_random(-2.0, 2.0), s0 = ipcc_test_random(-0.2, 1.2),
               t0 = ipcc_test_random(-0.2, 1.2), h = ipcc_test_random(-0.5, 0.5) * (near ? 2e-6 : 1);
        if (fabs(f) < 0.3) f = 0.3;
        for (int k = 0; k < 3; ++k) {
            p1[k] = p0[k] + a[k];
            b[k] = f * a[k] + eps * w[k];
        }
        cross3(a, b, m);
        double mm = norm3(m);
        // The lines come closest at s0, t0, h apart along their common normal.
        for (int k = 0; k < 3; ++k) {
            q0[k] = p0[k] + s0 * a[k] - t0 * b[k] + h * m[k] / mm;
            q1[k] = q0[k] + b[k];
        }
        sub3(p1, p0, a);
        sub3(q1, q0, b);
        double exact[2], st[2], g[2], mb[3];
        // r + s a - t b = 0 in least squares: u = a, v = -b, target q0 - p0.
        exact_least_squares(p1, p0, q0, q1, q0, p0, exact);
        ipcc_edge_edge_closest_point(p0, p1, q0, q1, st);
        sub3(q0, p0, r);
        for (int k = 0; k < 3; ++k)
            mb[k] = -b[k];
        gram_least_squares(a, mb, r, g);
        double scale = fmax(1.0, fmax(fabs(exact[0]), fabs(exact[1])));
        cross3(a, b, m);
        double dist = fabs(dot3(r, m)) / norm3(m);
        double bound = accuracy_bound(sin_angle(a, b), dist, fmin(norm3(a), norm3(b)), scale);
        double err = fmax(fabs(st[0] - exact[0]), fabs(st[1] - exact[1]));
        double gerr = fmax(fabs(g[0] - exact[0]), fabs(g[1] - exact[1]));
        if (!(err <= bound))
            fail_msg("lines %d (sin %.1e): error %.3e > bound %.3e (st = %.17g, %.17g; exact %.17g, %.17g)",
                     it, sin_angle(a, b), err, bound, st[0], st[1], exact[0], exact[1]);
        worst = fmax(worst, err / bound);
        near_cases += near;
        gram_fails += near && !(gerr <= bound);
    }
    print_message(
        "nearly parallel lines: worst error %.3f of the bound; the Gram form exceeds it on %d of %d "
        "near cases\n",
        worst, gram_fails, near_cases);
    assert_true(gram_fails >= near_cases / 2);
}

// --- Segment-segment, clamped.

static void seg_point(const double p0[3], const double p1[3], double s, double out[3]) {
    for (int k = 0; k < 3; ++k)
        out[k] = p0[k] + s * (p1[k] - p0[k]);
}

static double dist3(const double a[3], const double b[3]) {
    double d[3];
    sub3(a, b, d);
    return norm3(d);
}

// min over t in [0, 1] of |x - q(t)|: the clamped projection.
static long double point_segment_distance(const long double x[3], const double q0[3], const double q1[3]) {
    long double d[3], r[3], dd = 0, rd = 0;
    for (int k = 0; k < 3; ++k) {
        d[k] = (long double)q1[k] - q0[k];
        r[k] = x[k] - q0[k];
        dd += d[k] * d[k];
        rd += r[k] * d[k];
    }
    long double t = dd > 0 ? rd / dd : 0;
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    long double s2 = 0;
    for (int k = 0; k < 3; ++k) {
        long double e = x[k] - (q0[k] + t * d[k]);
        s2 += e * e;
    }
    return sqrtl(s2);
}

// The segments' distance by ternary search on s of the convex
// f(s) = min_t |p(s) - q(t)| (long double).
static double segment_distance_reference(const double p0[3], const double p1[3], const double q0[3],
                                         const double q1[3]) {
    long double lo = 0, hi = 1;
    for (int i = 0; i < 200; ++i) {
        long double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3, x1[3], x2[3];
        for (int k = 0; k < 3; ++k) {
            x1[k] = p0[k] + m1 * ((long double)p1[k] - p0[k]);
            x2[k] = p0[k] + m2 * ((long double)p1[k] - p0[k]);
        }
        if (point_segment_distance(x1, q0, q1) <= point_segment_distance(x2, q0, q1))
            hi = m2;
        else
            lo = m1;
    }
    long double s = (lo + hi) / 2, x[3];
    for (int k = 0; k < 3; ++k)
        x[k] = p0[k] + s * ((long double)p1[k] - p0[k]);
    return (double)point_segment_distance(x, q0, q1);
}

// x lies on the segment [s0, s1] (to rounding): on its line, between its ends.
static void assert_on_segment(const double x[3], const double s0[3], const double s1[3]) {
    double d[3], r[3], c[3];
    sub3(s1, s0, d);
    sub3(x, s0, r);
    double dd = dot3(d, d), scale = norm3(s0) + norm3(s1) + 1e-300;
    if (dd == 0) {
        assert_true(norm3(r) <= 4 * DBL_EPSILON * scale);
        return;
    }
    cross3(r, d, c);
    assert_true(norm3(c) <= 8 * DBL_EPSILON * scale * sqrt(dd));
    double t = dot3(r, d) / dd, tol = 8 * DBL_EPSILON * scale / sqrt(dd);
    assert_true(t >= -tol && t <= 1 + tol);
}

// The returned pair is on the segments, no farther apart than a 101 x 101
// sampling of them finds, and as close as the ternary-search reference;
// the parameters (friction's weights) name the same points, in [0, 1].
static void check_segments(const double p0[3], const double p1[3], const double q0[3], const double q1[3]) {
    double a[3], b[3], st[2];
    ipcc_segment_segment_closest_points(p0, p1, q0, q1, a, b);
    ipcc_segment_segment_closest_parameters(p0, p1, q0, q1, st);
    assert_true(st[0] >= 0 && st[0] <= 1 && st[1] >= 0 && st[1] <= 1);
    for (int k = 0; k < 3; ++k) {
        assert_true(a[k] == p0[k] + st[0] * (p1[k] - p0[k]));
        assert_true(b[k] == q0[k] + st[1] * (q1[k] - q0[k]));
    }
    assert_on_segment(a, p0, p1);
    assert_on_segment(b, q0, q1);
    double d = dist3(a, b), sampled = INFINITY;
    for (int i = 0; i <= 100; ++i) {
        double x[3];
        seg_point(p0, p1, i / 100.0, x);
        for (int j = 0; j <= 100; ++j) {
            double y[3];
            seg_point(q0, q1, j / 100.0, y);
            sampled = fmin(sampled, dist3(x, y));
        }
    }
    double scale = norm3(p0) + norm3(p1) + norm3(q0) + norm3(q1);
    double tol = 64 * DBL_EPSILON * scale;
    if (!(d <= sampled + tol)) fail_msg("segment distance %.17g > sampled %.17g", d, sampled);
    double ref = segment_distance_reference(p0, p1, q0, q1);
    if (!(fabs(d - ref) <= 1e-9 * scale)) fail_msg("segment distance %.17g, reference %.17g", d, ref);
}

static void test_segment_segment(void **state) {
    (void)state;
    double a[3], b[3];
    // Crossing: both at the crossing point.
    ipcc_segment_segment_closest_points((double[3]){-1, 0, 0}, (double[3]){1, 0, 0}, (double[3]){0, -1, 0},
                                        (double[3]){0, 1, 0}, a, b);
    for (int k = 0; k < 3; ++k)
        assert_true(fabs(a[k]) <= 1e-15 && fabs(b[k]) <= 1e-15);
    // Endpoint to endpoint.
    ipcc_segment_segment_closest_points((double[3]){0, 0, 0}, (double[3]){1, 0, 0}, (double[3]){2, 1, 0},
                                        (double[3]){3, 5, 0}, a, b);
    assert_true(a[0] == 1 && a[1] == 0 && a[2] == 0 && b[0] == 2 && b[1] == 1 && b[2] == 0);
    // Endpoint to interior (a T).
    ipcc_segment_segment_closest_points((double[3]){0, 0, 0}, (double[3]){1, 0, 0}, (double[3]){0.5, 1, 0},
                                        (double[3]){0.5, 3, 0}, a, b);
    assert_near(a[0], 0.5, 1e-15, 0);
    assert_near(b[0], 0.5, 1e-15, 0);
    assert_near(b[1], 1, 1e-15, 0);
    // Skew lines whose closest points lie beyond one segment's end: clamped
    // there, and the other point re-projected.
    ipcc_segment_segment_closest_points((double[3]){0, 0, 0}, (double[3]){1, 0, 0}, (double[3]){3, -1, 1},
                                        (double[3]){3, 1, 1}, a, b);
    assert_near(a[0], 1, 1e-15, 0);
    assert_near(b[0], 3, 1e-15, 0);
    assert_near(b[1], 0, 1e-15, 0);
    // Collinear, apart: the facing endpoints.
    ipcc_segment_segment_closest_points((double[3]){0, 0, 0}, (double[3]){1, 0, 0}, (double[3]){2, 0, 0},
                                        (double[3]){3, 0, 0}, a, b);
    assert_true(a[0] == 1 && b[0] == 2);
    ipcc_segment_segment_closest_points((double[3]){0, 0, 0}, (double[3]){1, 0, 0}, (double[3]){3, 0, 0},
                                        (double[3]){2, 0, 0}, a, b);
    assert_true(a[0] == 1 && b[0] == 2);
    // Parallel, overlapping: some pair at the lines' distance.
    ipcc_segment_segment_closest_points((double[3]){0, 0, 0}, (double[3]){2, 0, 0}, (double[3]){1, 1, 0},
                                        (double[3]){3, 1, 0}, a, b);
    assert_near(dist3(a, b), 1, 1e-15, 0);
    // Degenerate: a point against a segment, a segment against a point, two points.
    ipcc_segment_segment_closest_points((double[3]){0.25, 2, 0}, (double[3]){0.25, 2, 0},
                                        (double[3]){0, 0, 0}, (double[3]){1, 0, 0}, a, b);
    assert_true(a[0] == 0.25 && a[1] == 2 && b[0] == 0.25 && b[1] == 0);
    ipcc_segment_segment_closest_points((double[3]){0, 0, 0}, (double[3]){1, 0, 0}, (double[3]){-3, 1, 0},
                                        (double[3]){-3, 1, 0}, a, b);
    assert_true(a[0] == 0 && a[1] == 0 && b[0] == -3 && b[1] == 1);
    ipcc_segment_segment_closest_points((double[3]){1, 2, 3}, (double[3]){1, 2, 3}, (double[3]){4, 5, 6},
                                        (double[3]){4, 5, 6}, a, b);
    assert_true(a[0] == 1 && a[1] == 2 && a[2] == 3 && b[0] == 4 && b[1] == 5 && b[2] == 6);

    // Random pairs, nearly parallel pairs and the cases above, against sampling.
    const double fixed[][4][3] = {
        {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}},   {{0, 0, 0}, {1, 0, 0}, {2, 1, 0}, {3, 5, 0}},
        {{0, 0, 0}, {1, 0, 0}, {0.5, 1, 0}, {0.5, 3, 0}}, {{0, 0, 0}, {1, 0, 0}, {3, -1, 1}, {3, 1, 1}},
        {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}},     {{0, 0, 0}, {2, 0, 0}, {1, 1, 0}, {3, 1, 0}},
        {{0, 0, 0}, {2, 0, 0}, {3, 1, 0}, {1, 1, 0}},     {{0.25, 2, 0}, {0.25, 2, 0}, {0, 0, 0}, {1, 0, 0}},
        {{0, 0, 0}, {1, 0, 0}, {-3, 1, 0}, {-3, 1, 0}},   {{1, 2, 3}, {1, 2, 3}, {4, 5, 6}, {4, 5, 6}},
    };
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; ++i)
        check_segments(fixed[i][0], fixed[i][1], fixed[i][2], fixed[i][3]);
    ipcc_test_seed(16);
    for (int it = 0; it < 300; ++it) {
        double p0[3], p1[3], q0[3], q1[3];
        random_point(-1, 1, p0);
        random_point(-1, 1, p1);
        random_point(-1, 1, q0);
        random_point(-1, 1, q1);
        if (it % 3 == 1) // nearly parallel
            for (int k = 0; k < 3; ++k)
                q1[k] =
                    q0[k] + ipcc_test_random(-1.5, 1.5) * (p1[k] - p0[k]) + 1e-7 * ipcc_test_random(-1, 1);
        if (it % 10 == 2) // a short segment
            for (int k = 0; k < 3; ++k)
                p1[k] = p0[k] + 1e-9 * (p1[k] - p0[k]);
        check_segments(p0, p1, q0, q1);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_point_edge),
        cmocka_unit_test(test_point_triangle),
        cmocka_unit_test(test_point_triangle_slivers),
        cmocka_unit_test(test_edge_edge_lines),
        cmocka_unit_test(test_edge_edge_nearly_parallel),
        cmocka_unit_test(test_segment_segment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
