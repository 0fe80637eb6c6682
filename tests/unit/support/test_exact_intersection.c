// Tests for tests/support/exact_intersection.c: exact predicates against a
// GMP rational reference (including inputs where plain double evaluation gets
// the sign wrong, and 1e-300 / 1e300 scales), hand-built contact cases
// (crossing, touching, coplanar, 1e-15 separations, degenerate triangles), an
// independent separating-axis reference on random small-integer triangles
// (full of coplanar, collinear and coincident cases), and the mesh searches.
#include "support.h"

#include <gmp.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "exact_intersection.h"

// ---------------------------------------------------------------------------
// References.

// orient3d in rationals: every double converts exactly (mpq_set_d).
static int orient3d_rational(const double *a, const double *b, const double *c, const double *d) {
    mpq_t q[9], t, s, det;
    for (int i = 0; i < 9; i++)
        mpq_init(q[i]);
    mpq_inits(t, s, det, NULL);
    const double *p[3] = {b, c, d};
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++) {
            mpq_set_d(t, a[k]);
            mpq_set_d(q[3 * r + k], p[r][k]);
            mpq_sub(q[3 * r + k], q[3 * r + k], t);
        }
    // Cofactor expansion along the first row.
    for (int k = 0; k < 3; k++) {
        int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
        mpq_mul(t, q[3 + k1], q[6 + k2]);
        mpq_mul(s, q[3 + k2], q[6 + k1]);
        mpq_sub(t, t, s);
        mpq_mul(t, t, q[k]);
        mpq_add(det, det, t);
    }
    int sign = mpq_sgn(det);
    for (int i = 0; i < 9; i++)
        mpq_clear(q[i]);
    mpq_clears(t, s, det, NULL);
    return sign;
}

// The textbook double evaluation; volatile keeps every rounding.
static double orient3d_naive(const double *a, const double *b, const double *c, const double *d) {
    volatile double u[3], v[3], w[3];
    for (int k = 0; k < 3; k++) {
        u[k] = b[k] - a[k];
        v[k] = c[k] - a[k];
        w[k] = d[k] - a[k];
    }
    volatile double p1 = v[1] * w[2], q1 = v[2] * w[1], p2 = v[2] * w[0], q2 = v[0] * w[2];
    volatile double p3 = v[0] * w[1], q3 = v[1] * w[0];
    volatile double m1 = p1 - q1, m2 = p2 - q2, m3 = p3 - q3;
    volatile double t1 = u[0] * m1, t2 = u[1] * m2, t3 = u[2] * m3;
    volatile double s = t1 + t2;
    return s + t3;
}

static int sgn(double v) { return (v > 0) - (v < 0); }

// Separating-axis reference for triangles with small integer coordinates,
// exact in long long. Two disjoint compact convex sets are strictly separated
// along the direction between their closest points, and for triangles (or
// their degenerate segments and points) that direction is a point difference
// d, a cross product d1 x d2, or d1 x (d2 x d1), with d the differences of the
// six vertices. They intersect iff no such axis separates them.
typedef struct ivec {
    long long v[3];
} ivec;

static ivec icross(ivec a, ivec b) {
    ivec r = {{a.v[1] * b.v[2] - a.v[2] * b.v[1], a.v[2] * b.v[0] - a.v[0] * b.v[2],
               a.v[0] * b.v[1] - a.v[1] * b.v[0]}};
    return r;
}

static long long idot(ivec a, ivec b) { return a.v[0] * b.v[0] + a.v[1] * b.v[1] + a.v[2] * b.v[2]; }

static bool separates(ivec axis, const ivec *p) {
    long long lo[2] = {LLONG_MAX, LLONG_MAX}, hi[2] = {LLONG_MIN, LLONG_MIN};
    for (int i = 0; i < 6; i++) {
        long long t = idot(axis, p[i]);
        int s = i / 3;
        lo[s] = t < lo[s] ? t : lo[s];
        hi[s] = t > hi[s] ? t : hi[s];
    }
    return hi[0] < lo[1] || hi[1] < lo[0];
}

static bool triangles_intersect_sat(const int t[18]) {
    ivec p[6], d[15];
    for (int i = 0; i < 6; i++)
        for (int k = 0; k < 3; k++)
            p[i].v[k] = t[3 * i + k];
    int nd = 0;
    for (int i = 0; i < 6; i++)
        for (int j = i + 1; j < 6; j++, nd++)
            for (int k = 0; k < 3; k++)
                d[nd].v[k] = p[j].v[k] - p[i].v[k];
    for (int i = 0; i < nd; i++) {
        if (separates(d[i], p)) return false;
        for (int j = i + 1; j < nd; j++) {
            ivec c = icross(d[i], d[j]);
            if (separates(c, p) || separates(icross(c, d[i]), p) || separates(icross(c, d[j]), p))
                return false;
        }
    }
    return true;
}

// ---------------------------------------------------------------------------
// Predicates.

static void test_orient3d_simple_and_scaled(void **state) {
    (void)state;
    const double a[3] = {0, 0, 0}, b[3] = {1, 0, 0}, c[3] = {0, 1, 0}, d[3] = {0, 0, 1},
                 e[3] = {0.5, 0.25, 0};
    assert_int_equal(ipcc_test_orient3d(a, b, c, d), 1);
    assert_int_equal(ipcc_test_orient3d(a, c, b, d), -1);
    assert_int_equal(ipcc_test_orient3d(a, b, c, e), 0);
    assert_int_equal(ipcc_test_orient3d(a, a, c, d), 0);
    // Products of 1e-300 underflow to 0 and of 1e300 overflow to inf in
    // doubles; the sign must not change.
    const double scales[] = {1e-300, 0x1p-1060, 1e300, 0x1p+330};
    for (size_t i = 0; i < sizeof scales / sizeof *scales; i++) {
        double s = scales[i], bs[3] = {s, 0, 0}, cs[3] = {0, s, 0}, ds[3] = {0, 0, s}, dm[3] = {0, 0, -s};
        assert_int_equal(ipcc_test_orient3d(a, bs, cs, ds), 1);
        assert_int_equal(ipcc_test_orient3d(a, bs, cs, dm), -1);
        double es[3] = {0.5 * s, 0.25 * s, 0};
        assert_int_equal(ipcc_test_orient3d(a, bs, cs, es), 0);
    }
}

// A hand-built case where the double evaluation has the wrong sign.
//   a = 0, u = b = (1, 0, 2^-105), v = c = (1, 1 + e, 1), w = d = (0, 1, 1 - e),
//   e = 2^-52. det = 1 (vy wz - vz wy) + 0 + 2^-105 (vx wy - vy wx)
//                  = ((1 + e)(1 - e) - 1) + 2^-105 = -2^-104 + 2^-105 = -2^-105.
// In doubles (1 + e)(1 - e) = 1 - 2^-104 rounds to 1, the first term vanishes
// and the result is +2^-105.
static void test_orient3d_naive_sign_wrong(void **state) {
    (void)state;
    const double e = 0x1p-52;
    const double a[3] = {0, 0, 0}, b[3] = {1, 0, 0x1p-105}, c[3] = {1, 1 + e, 1}, d[3] = {0, 1, 1 - e};
    assert_true(orient3d_naive(a, b, c, d) == 0x1p-105);
    assert_int_equal(ipcc_test_orient3d(a, b, c, d), -1);
    assert_int_equal(orient3d_rational(a, b, c, d), -1);
    // The rational value is exactly -2^-105.
    mpq_t det, want;
    mpq_inits(det, want, NULL);
    mpq_set_d(want, -0x1p-105);
    mpq_t u[3], v[3], w[3], t;
    mpq_init(t);
    for (int k = 0; k < 3; k++) {
        mpq_inits(u[k], v[k], w[k], NULL);
        mpq_set_d(u[k], b[k]);
        mpq_set_d(v[k], c[k]);
        mpq_set_d(w[k], d[k]);
    }
    for (int k = 0; k < 3; k++) {
        int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
        mpq_mul(t, v[k1], w[k2]);
        mpq_t s;
        mpq_init(s);
        mpq_mul(s, v[k2], w[k1]);
        mpq_sub(t, t, s);
        mpq_mul(t, t, u[k]);
        mpq_add(det, det, t);
        mpq_clear(s);
    }
    assert_true(mpq_equal(det, want));
    for (int k = 0; k < 3; k++)
        mpq_clears(u[k], v[k], w[k], NULL);
    mpq_clears(det, want, t, NULL);
    // The same configuration translated (differences stay exact) and scaled by
    // powers of two keeps its sign.
    const double shifts[] = {0x1p-600, 0x1p+600};
    for (int i = 0; i < 2; i++) {
        double s = shifts[i], as[3], bs[3], cs[3], ds[3];
        for (int k = 0; k < 3; k++)
            as[k] = a[k] * s, bs[k] = b[k] * s, cs[k] = c[k] * s, ds[k] = d[k] * s;
        assert_int_equal(ipcc_test_orient3d(as, bs, cs, ds), -1);
    }
}

// Nearly coplanar random points at several scales: filter plus exact stage
// must agree with the rational reference every time.
static void test_orient3d_matches_rational_reference(void **state) {
    (void)state;
    ipcc_test_seed(12345);
    const double scales[] = {1.0, 1e-300, 1e300, 1e-160, 1e160};
    int wrong_naive = 0;
    for (int trial = 0; trial < 4000; trial++) {
        double s = scales[trial % 5], p[4][3];
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++)
                p[i][k] = ipcc_test_random(-1, 1);
        double u = ipcc_test_random(-1, 2), v = ipcc_test_random(-1, 2);
        for (int k = 0; k < 3; k++) {
            p[3][k] = p[0][k] + u * (p[1][k] - p[0][k]) + v * (p[2][k] - p[0][k]);
            if (trial % 3 == 0) p[3][k] = nextafter(p[3][k], trial % 2 ? 2.0 : -2.0);
        }
        if (trial % 7 == 0) // a far translation: differences are rounded
            for (int i = 0; i < 4; i++)
                p[i][0] += 1024.0;
        for (int i = 0; i < 4; i++)
            for (int k = 0; k < 3; k++)
                p[i][k] *= s;
        int exact = orient3d_rational(p[0], p[1], p[2], p[3]);
        assert_int_equal(ipcc_test_orient3d(p[0], p[1], p[2], p[3]), exact);
        assert_int_equal(ipcc_test_orient3d(p[1], p[0], p[2], p[3]), -exact);
        assert_int_equal(ipcc_test_orient3d(p[3], p[1], p[2], p[0]), -exact);
        if (sgn(orient3d_naive(p[0], p[1], p[2], p[3])) != exact) wrong_naive++;
    }
    assert_true(wrong_naive > 0); // the inputs really are hard
}

static void test_orient2d(void **state) {
    (void)state;
    const double a[2] = {0, 0}, b[2] = {1, 0}, c[2] = {0, 1}, m[2] = {0.5, 0};
    assert_int_equal(ipcc_test_orient2d(a, b, c), 1);
    assert_int_equal(ipcc_test_orient2d(a, c, b), -1);
    assert_int_equal(ipcc_test_orient2d(a, b, m), 0);
    // (1 + e)(1 - e) - 1 = -e^2 rounds to 0 in doubles.
    const double e = 0x1p-52, p[2] = {1 + e, 1}, q[2] = {1, 1 - e};
    double naive = p[0] * q[1] - p[1] * q[0];
    assert_true(naive == 0.0);
    assert_int_equal(ipcc_test_orient2d(a, p, q), -1);
    const double tiny_b[2] = {1e-300, 0}, tiny_c[2] = {0, 1e-300};
    assert_int_equal(ipcc_test_orient2d(a, tiny_b, tiny_c), 1);
}

static void test_halfspace_side(void **state) {
    (void)state;
    const double point[3] = {0.1, 0.2, 0.3}, normal[3] = {1, 1, 1};
    assert_int_equal(ipcc_test_halfspace_side(point, point, normal), 0);
    const double up[3] = {0.1, 0.2, nextafter(0.3, 1)}, down[3] = {nextafter(0.1, 0), 0.2, 0.3};
    assert_int_equal(ipcc_test_halfspace_side(up, point, normal), 1);
    assert_int_equal(ipcc_test_halfspace_side(down, point, normal), -1);
    // On the plane x + y = 0.3 only exactly: 0.1 + 0.2 != 0.3 in doubles, yet
    // the point (0.1, 0.2) against plane point (0.3, 0) and normal (1, 1, 0)
    // has the exact sign of fl(0.1) + fl(0.2) - fl(0.3) > 0.
    const double p2[3] = {0.3, 0, 0}, n2[3] = {1, 1, 0}, x2[3] = {0.1, 0.2, 7};
    assert_int_equal(ipcc_test_halfspace_side(x2, p2, n2), 1);
    // The double dot product (1 + e)(1 - e) - 1 = -e^2 rounds to 0.
    const double e = 0x1p-52, origin[3] = {0, 0, 0}, n3[3] = {1 + e, -1, 0}, x3[3] = {1 - e, 1, 0};
    volatile double naive = x3[0] * n3[0];
    naive = naive + x3[1] * n3[1];
    assert_true(naive == 0.0);
    assert_int_equal(ipcc_test_halfspace_side(x3, origin, n3), -1);
    // Scales where products underflow or overflow.
    const double scales[] = {1e-300, 1e300};
    for (int i = 0; i < 2; i++) {
        double s = scales[i], x[3] = {0, 0, s}, xm[3] = {0, 0, -s}, n[3] = {0, 0, s};
        assert_int_equal(ipcc_test_halfspace_side(x, origin, n), 1);
        assert_int_equal(ipcc_test_halfspace_side(xm, origin, n), -1);
    }
}

// ---------------------------------------------------------------------------
// Triangle pairs.

typedef struct tri_pair {
    const char *name;
    double a[3][3], b[3][3];
    bool intersect;
} tri_pair;

// Checks the pair in every vertex order and both argument orders.
static void check_pair(const char *name, const double a[3][3], const double b[3][3], bool want) {
    static const int perms[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
    for (int i = 0; i < 6; i++) {
        const int *pa = perms[i], *pb = perms[(i + 2) % 6];
        bool ab = ipcc_test_triangles_intersect(a[pa[0]], a[pa[1]], a[pa[2]], b[pb[0]], b[pb[1]], b[pb[2]]);
        bool ba = ipcc_test_triangles_intersect(b[pb[0]], b[pb[1]], b[pb[2]], a[pa[0]], a[pa[1]], a[pa[2]]);
        if (ab != want || ba != want)
            fail_msg("%s: permutation %d: got %d/%d, want %d", name, i, ab, ba, want);
    }
}

static void scale_pair(const tri_pair *p, double s, double a[3][3], double b[3][3]) {
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            a[i][k] = p->a[i][k] * s, b[i][k] = p->b[i][k] * s;
}

static void test_triangle_pairs(void **state) {
    (void)state;
    const double sep = 1e-15;
    const tri_pair cases[] = {
        {"crossing", {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}}, {{0.5, 0.5, -1}, {0.5, 0.5, 1}, {1, 0.25, 1}}, true},
        {"piercing edge",
         {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}},
         {{-1, 0.5, 0.5}, {1, 0.5, 0.5}, {0.5, 0.5, -1}},
         true},
        {"apart", {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}}, {{0, 0, 1}, {1, 0, 1}, {0, 1, 2}}, false},
        {"vertex on face", {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}}, {{0.5, 0.5, 0}, {1, 1, 1}, {0, 1, 1}}, true},
        {"vertex on vertex", {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}}, {{2, 0, 0}, {3, 0, 1}, {3, 1, 1}}, true},
        {"vertex on edge", {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}}, {{1, 0, 0}, {1, -1, 1}, {1, -1, -1}}, true},
        {"shared edge, other plane",
         {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}},
         {{0, 0, 0}, {2, 0, 0}, {1, -1, 1}},
         true},
        {"edge on edge crossing",
         {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}},
         {{1, -1, 0}, {1, 1, 0}, {1, 0, 5}},
         true},
        {"above by 1e-15", {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}}, {{0.5, 0.5, sep}, {1, 1, 1}, {0, 1, 1}}, false},
        {"below by 1e-15", {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}}, {{0.5, 0.5, -sep}, {1, 1, 1}, {0, 1, 1}}, true},
        {"beside edge by 1e-15",
         {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}},
         {{1, -sep, 0}, {1, -1, 1}, {1, -1, -1}},
         false},
        {"coplanar star", {{0, 0, 0}, {3, 0, 0}, {1.5, 3, 0}}, {{0, 2, 0}, {3, 2, 0}, {1.5, -1, 0}}, true},
        {"coplanar nested",
         {{0, 0, 0}, {4, 0, 0}, {0, 4, 0}},
         {{0.5, 0.5, 0}, {1, 0.5, 0}, {0.5, 1, 0}},
         true},
        {"coplanar disjoint", {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {{1, 1, 0}, {2, 1, 0}, {1, 2, 0}}, false},
        {"coplanar gap 1e-15",
         {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}},
         {{1 + sep, 0, 0}, {2, 0, 0}, {2, 1, 0}},
         false},
        {"coplanar vertex touch", {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {{1, 0, 0}, {2, 0, 0}, {2, 1, 0}}, true},
        {"coplanar vertex on edge",
         {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}},
         {{1, 1, 0}, {2, 2, 0}, {3, 1, 0}},
         true},
        {"coplanar, tilted", {{0, 0, 0}, {2, 2, 2}, {0, 2, 2}}, {{1, 1.5, 1.5}, {3, 1, 1}, {3, 2, 2}}, true},
        {"segment through face",
         {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}},
         {{0.5, 0.5, -1}, {0.5, 0.5, 1}, {0.5, 0.5, 0.3}},
         true},
        {"segment beside", {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}}, {{3, 3, -1}, {3, 3, 1}, {3, 3, 0}}, false},
        {"point on face",
         {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}},
         {{0.5, 0.5, 0}, {0.5, 0.5, 0}, {0.5, 0.5, 0}},
         true},
        {"point above",
         {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}},
         {{0.5, 0.5, sep}, {0.5, 0.5, sep}, {0.5, 0.5, sep}},
         false},
        {"collinear segments overlap",
         {{0, 0, 0}, {1, 1, 1}, {2, 2, 2}},
         {{1.5, 1.5, 1.5}, {3, 3, 3}, {4, 4, 4}},
         true},
        {"collinear segments apart",
         {{0, 0, 0}, {1, 1, 1}, {2, 2, 2}},
         {{2.5, 2.5, 2.5}, {3, 3, 3}, {4, 4, 4}},
         false},
    };
    const double scales[] = {1.0, 1e-300, 0x1p-1000, 1e300, 0x1p+1000};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        for (size_t j = 0; j < sizeof scales / sizeof *scales; j++) {
            // Non-power-of-two scales round the coordinates: the 1e-15 cases
            // are only exact at powers of two.
            bool pow2 = scales[j] == 1.0 || scales[j] == 0x1p-1000 || scales[j] == 0x1p+1000;
            if (!pow2 && strstr(cases[i].name, "1e-15")) continue;
            double a[3][3], b[3][3];
            scale_pair(&cases[i], scales[j], a, b);
            char name[128];
            snprintf(name, sizeof name, "%s x %g", cases[i].name, scales[j]);
            check_pair(name, (const double(*)[3])a, (const double(*)[3])b, cases[i].intersect);
        }
}

// A tilted triangle and a point offset from its plane by one unit in the last place.
static void test_near_plane_offsets(void **state) {
    (void)state;
    const double a[3] = {0.1, 0.2, 0.3}, b[3] = {1.3, -0.7, 0.9}, c[3] = {-0.4, 1.1, 0.6};
    double x[3];
    for (int k = 0; k < 3; k++)
        x[k] = (a[k] + b[k] + c[k]) / 3;
    int side = orient3d_rational(a, b, c, x);
    assert_int_equal(ipcc_test_orient3d(a, b, c, x), side);
    // Walk x to the other side of the plane one ulp at a time along z.
    double y[3] = {x[0], x[1], x[2]};
    int steps = 0;
    while (orient3d_rational(a, b, c, y) == side && steps < 1000)
        y[2] = nextafter(y[2], side > 0 ? -1.0 : 1.0), steps++;
    assert_true(steps < 1000);
    assert_int_equal(ipcc_test_orient3d(a, b, c, y), orient3d_rational(a, b, c, y));
    // A vertical segment from x to far beyond must hit the triangle; one that
    // stops at the last point strictly on x's side must not.
    double far[3] = {x[0], x[1], side > 0 ? -5.0 : 5.0}, last[3] = {y[0], y[1], nextafter(y[2], x[2])};
    if (orient3d_rational(a, b, c, y) != 0) {
        assert_int_equal(orient3d_rational(a, b, c, last), side);
        assert_false(ipcc_test_segment_triangle_intersect(x, last, a, b, c));
    }
    assert_true(ipcc_test_segment_triangle_intersect(x, far, a, b, c));
    assert_true(ipcc_test_segment_triangle_intersect(x, y, a, b, c) ==
                (orient3d_rational(a, b, c, y) != side));
}

static void test_segment_triangle(void **state) {
    (void)state;
    const double a[3] = {0, 0, 0}, b[3] = {2, 0, 0}, c[3] = {0, 2, 0};
    const struct {
        double p[3], q[3];
        bool hit;
    } cases[] = {
        {{0.5, 0.5, -1}, {0.5, 0.5, 1}, true}, // through the interior
        {{1, 0, -1}, {1, 0, 1}, true},         // through an edge
        {{0, 0, -1}, {0, 0, 1}, true},         // through a vertex
        {{2, 2, -1}, {2, 2, 1}, false},        // past the hypotenuse
        {{0.5, 0.5, 0}, {0.5, 0.5, 1}, true},  // endpoint on the face
        {{0.5, 0.5, 1e-15}, {0.5, 0.5, 1}, false},
        {{-1, 0.5, 0}, {3, 0.5, 0}, true},    // coplanar, crossing
        {{-1, 3, 0}, {3, 3, 0}, false},       // coplanar, outside
        {{1, 1, 0}, {3, 3, 0}, true},         // coplanar, touching the hypotenuse
        {{0.5, 0.5, 0}, {0.5, 0.5, 0}, true}, // a point on the face
        {{0.5, 0.5, 0.5}, {0.5, 0.5, 0.5}, false},
        {{3, 3, 0}, {3, 3, 0}, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        if (ipcc_test_segment_triangle_intersect(cases[i].p, cases[i].q, a, b, c) != cases[i].hit)
            fail_msg("segment case %zu", i);
    // Degenerate triangles: a segment (collinear) and a point.
    const double s0[3] = {0, 0, 0}, s1[3] = {1, 0, 0}, s2[3] = {2, 0, 0};
    const double p[3] = {1.5, -1, 0}, q[3] = {1.5, 1, 0}, r[3] = {1.5, 1, 1}, f[3] = {3, -1, 0},
                 g[3] = {3, 1, 0};
    assert_true(ipcc_test_segment_triangle_intersect(p, q, s0, s2, s1));
    assert_false(ipcc_test_segment_triangle_intersect(p, r, s0, s2, s1)); // skew
    assert_false(ipcc_test_segment_triangle_intersect(f, g, s0, s2, s1));
    assert_true(ipcc_test_segment_triangle_intersect(p, q, s1, s1, s1) == false);
    const double on[3] = {1, -1, 0}, on2[3] = {1, 1, 0};
    assert_true(ipcc_test_segment_triangle_intersect(on, on2, s1, s1, s1));
}

// Random triangles on a 4^3 integer lattice, against the separating-axis
// reference; exact scalings by powers of two must not change the answer.
static void test_random_lattice_against_sat(void **state) {
    (void)state;
    ipcc_test_seed(777);
    int hits = 0, coplanar = 0;
    for (int trial = 0; trial < 10000; trial++) {
        int t[18];
        int range = trial % 2 ? 3 : 2;
        for (int i = 0; i < 18; i++)
            t[i] = (int)floor(ipcc_test_random(0, range + 1));
        if (trial % 5 == 0) // force the second triangle into the first's z plane
            t[11] = t[14] = t[17] = t[2] = t[5] = t[8];
        bool want = triangles_intersect_sat(t);
        double x[18];
        const double scales[] = {1.0, 0x1p-1050, 0x1p+1000};
        for (int s = 0; s < 3; s++) {
            for (int i = 0; i < 18; i++)
                x[i] = t[i] * scales[s];
            bool got = ipcc_test_triangles_intersect(x, x + 3, x + 6, x + 9, x + 12, x + 15);
            if (got != want)
                fail_msg("trial %d scale %d: got %d, want %d: (%d %d %d) (%d %d %d) (%d %d %d) / (%d %d %d) "
                         "(%d %d "
                         "%d) (%d %d %d)",
                         trial, s, got, want, t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9],
                         t[10], t[11], t[12], t[13], t[14], t[15], t[16], t[17]);
            // The same through the segment test: edge (x0, x1) of a against b.
            bool want_seg;
            {
                int u[18];
                memcpy(u, t, sizeof u);
                memcpy(u + 6, t + 3, 3 * sizeof *u); // degenerate first triangle: the segment
                want_seg = triangles_intersect_sat(u);
            }
            if (ipcc_test_segment_triangle_intersect(x, x + 3, x + 9, x + 12, x + 15) != want_seg)
                fail_msg("segment trial %d scale %d", trial, s);
        }
        hits += want;
        coplanar += t[11] == t[14] && t[14] == t[17] && t[2] == t[5] && t[5] == t[8] && t[2] == t[11];
    }
    assert_true(hits > 1000 && hits < 9000);
    assert_true(coplanar > 500);
}

// ---------------------------------------------------------------------------
// Mesh searches.

typedef struct surface {
    int num_vertices, num_faces;
    double *x;
    int *faces;
} surface;

static int lattice(int n, int i, int j, int k) { return (k * (n + 1) + j) * (n + 1) + i; }

// Closed surface of the box [0,1]^3 translated by `shift`: n x n quads per
// side, two triangles each, welded (vertices of a (n+1)^3 lattice, interior
// ones unused). 12 n^2 triangles.
static surface box_surface(int n, const double shift[3]) {
    surface s;
    s.num_vertices = (n + 1) * (n + 1) * (n + 1);
    s.num_faces = 12 * n * n;
    s.x = malloc(3 * (size_t)s.num_vertices * sizeof *s.x);
    s.faces = malloc(3 * (size_t)s.num_faces * sizeof *s.faces);
    assert_non_null(s.x);
    assert_non_null(s.faces);
    for (int k = 0; k <= n; k++)
        for (int j = 0; j <= n; j++)
            for (int i = 0; i <= n; i++) {
                double *p = s.x + 3 * lattice(n, i, j, k);
                p[0] = (double)i / n + shift[0];
                p[1] = (double)j / n + shift[1];
                p[2] = (double)k / n + shift[2];
            }
    int f = 0;
    for (int axis = 0; axis < 3; axis++)
        for (int side = 0; side <= n; side += n)
            for (int a = 0; a < n; a++)
                for (int b = 0; b < n; b++) {
                    int q[4], ij[4][2] = {{a, b}, {a + 1, b}, {a + 1, b + 1}, {a, b + 1}};
                    for (int c = 0; c < 4; c++) {
                        int l[3];
                        l[axis] = side;
                        l[(axis + 1) % 3] = ij[c][0];
                        l[(axis + 2) % 3] = ij[c][1];
                        q[c] = lattice(n, l[0], l[1], l[2]);
                    }
                    // Alternate the diagonal so both directions occur.
                    int d = (a + b) % 2;
                    int t[6] = {q[0], q[1], q[2], q[0], q[2], q[3]};
                    if (d) {
                        int u[6] = {q[0], q[1], q[3], q[1], q[2], q[3]};
                        memcpy(t, u, sizeof t);
                    }
                    memcpy(s.faces + 3 * f, t, sizeof t);
                    f += 2;
                }
    assert_int_equal(f, s.num_faces);
    return s;
}

static void surface_free(surface *s) {
    free(s->x);
    free(s->faces);
}

static void test_closed_box_then_pushed_through(void **state) {
    (void)state;
    const double zero[3] = {0, 0, 0};
    surface s = box_surface(6, zero);
    int fa = 7, fb = 7;
    assert_int_equal(
        ipcc_test_find_triangle_intersections(s.num_vertices, s.x, s.num_faces, s.faces, 10, &fa, &fb), 0);
    assert_int_equal(fa, -1);
    assert_int_equal(fb, -1);
    // Push the centre vertex of side x = 0 through the opposite side x = 1.
    s.x[3 * lattice(6, 0, 3, 3)] = 1.5;
    int found = ipcc_test_find_triangle_intersections(s.num_vertices, s.x, s.num_faces, s.faces, 0, &fa, &fb);
    assert_true(found > 0);
    assert_true(fa >= 0 && fa < fb && fb < s.num_faces);
    const int *f = s.faces + 3 * fa, *g = s.faces + 3 * fb;
    assert_true(ipcc_test_triangles_intersect(s.x + 3 * f[0], s.x + 3 * f[1], s.x + 3 * f[2], s.x + 3 * g[0],
                                              s.x + 3 * g[1], s.x + 3 * g[2]));
    assert_int_equal(
        ipcc_test_find_triangle_intersections(s.num_vertices, s.x, s.num_faces, s.faces, 1, NULL, NULL), 1);
    // Exactly onto the opposite side: touching counts.
    s.x[3 * lattice(6, 0, 3, 3)] = 1.0;
    assert_true(
        ipcc_test_find_triangle_intersections(s.num_vertices, s.x, s.num_faces, s.faces, 0, NULL, NULL) > 0);
    // One ulp short of it: no contact.
    s.x[3 * lattice(6, 0, 3, 3)] = nextafter(1.0, 0.0);
    assert_int_equal(
        ipcc_test_find_triangle_intersections(s.num_vertices, s.x, s.num_faces, s.faces, 0, NULL, NULL), 0);
    surface_free(&s);
}

// Two boxes in one vertex array: apart, touching face to face, overlapping.
static void test_between_sets(void **state) {
    (void)state;
    const double zero[3] = {0, 0, 0};
    const int n = 4;
    surface a = box_surface(n, zero);
    const double offsets[] = {1.0 + 0x1p-40, 1.0, 0.75};
    const bool want[] = {false, true, true};
    for (int o = 0; o < 3; o++) {
        const double shift[3] = {offsets[o], 0.25, 0.25};
        surface b = box_surface(n, shift);
        int nv = a.num_vertices + b.num_vertices;
        double *x = malloc(3 * (size_t)nv * sizeof *x);
        int *fb_faces = malloc(3 * (size_t)b.num_faces * sizeof *fb_faces);
        assert_non_null(x);
        assert_non_null(fb_faces);
        memcpy(x, a.x, 3 * (size_t)a.num_vertices * sizeof *x);
        memcpy(x + 3 * a.num_vertices, b.x, 3 * (size_t)b.num_vertices * sizeof *x);
        for (int i = 0; i < 3 * b.num_faces; i++)
            fb_faces[i] = b.faces[i] + a.num_vertices;
        int fa = -2, fbi = -2;
        int found = ipcc_test_find_triangle_intersections_between(nv, x, a.num_faces, a.faces, b.num_faces,
                                                                  fb_faces, 0, &fa, &fbi);
        assert_true((found > 0) == want[o]);
        if (want[o]) {
            assert_in_range(fa, 0, a.num_faces - 1);
            assert_in_range(fbi, 0, b.num_faces - 1);
            const int *f = a.faces + 3 * fa, *g = fb_faces + 3 * fbi;
            assert_true(ipcc_test_triangles_intersect(x + 3 * f[0], x + 3 * f[1], x + 3 * f[2], x + 3 * g[0],
                                                      x + 3 * g[1], x + 3 * g[2]));
        } else {
            assert_int_equal(fa, -1);
            assert_int_equal(fbi, -1);
        }
        // Each body alone is closed and intersection free.
        assert_int_equal(ipcc_test_find_triangle_intersections(nv, x, b.num_faces, fb_faces, 0, NULL, NULL),
                         0);
        free(x);
        free(fb_faces);
        surface_free(&b);
    }
    surface_free(&a);
}

// A body over a two-triangle ground much larger than its triangles.
static void test_body_against_large_obstacle(void **state) {
    (void)state;
    const double shift[3] = {0, 0, 0x1p-30};
    surface s = box_surface(8, shift);
    int nv = s.num_vertices + 4;
    double *x = malloc(3 * (size_t)nv * sizeof *x);
    assert_non_null(x);
    memcpy(x, s.x, 3 * (size_t)s.num_vertices * sizeof *x);
    const double ground[4][3] = {{-100, -100, 0}, {100, -100, 0}, {100, 100, 0}, {-100, 100, 0}};
    memcpy(x + 3 * s.num_vertices, ground, sizeof ground);
    const int g = s.num_vertices, ground_faces[6] = {g, g + 1, g + 2, g, g + 2, g + 3};
    assert_int_equal(ipcc_test_find_triangle_intersections_between(nv, x, s.num_faces, s.faces, 2,
                                                                   ground_faces, 0, NULL, NULL),
                     0);
    for (int v = 0; v < s.num_vertices; v++)
        x[3 * v + 2] -= 0x1p-30; // the bottom now lies on the ground
    int found = ipcc_test_find_triangle_intersections_between(nv, x, s.num_faces, s.faces, 2, ground_faces, 0,
                                                              NULL, NULL);
    assert_true(found >= 2 * 8 * 8); // every bottom triangle touches (some both ground triangles)
    free(x);
    surface_free(&s);
}

// ~20k triangles: the grid keeps this far from the 2e8 pairs of a brute force.
static void test_large_mesh(void **state) {
    (void)state;
    const double zero[3] = {0, 0, 0};
    const int n = 41;
    surface s = box_surface(n, zero);
    assert_true(s.num_faces > 20000);
    // Bulge the sides so that most pairs are not coplanar.
    for (int v = 0; v < s.num_vertices; v++) {
        double *p = s.x + 3 * v;
        double r = 0.05 * sin(7 * p[0] + 5 * p[1] + 3 * p[2]);
        for (int k = 0; k < 3; k++)
            p[k] += r * (p[k] - 0.5);
    }
    double t0 = ipcc_now();
    assert_int_equal(
        ipcc_test_find_triangle_intersections(s.num_vertices, s.x, s.num_faces, s.faces, 0, NULL, NULL), 0);
    surface flat = box_surface(n, zero);
    assert_int_equal(ipcc_test_find_triangle_intersections(flat.num_vertices, flat.x, flat.num_faces,
                                                           flat.faces, 0, NULL, NULL),
                     0);
    print_message("[ info     ] two searches over %d triangles: %.3f s\n", s.num_faces, ipcc_now() - t0);
    surface_free(&flat);
    surface_free(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_orient3d_simple_and_scaled),
        cmocka_unit_test(test_orient3d_naive_sign_wrong),
        cmocka_unit_test(test_orient3d_matches_rational_reference),
        cmocka_unit_test(test_orient2d),
        cmocka_unit_test(test_halfspace_side),
        cmocka_unit_test(test_triangle_pairs),
        cmocka_unit_test(test_near_plane_offsets),
        cmocka_unit_test(test_segment_triangle),
        cmocka_unit_test(test_random_lattice_against_sat),
        cmocka_unit_test(test_closed_box_then_pushed_through),
        cmocka_unit_test(test_between_sets),
        cmocka_unit_test(test_body_against_large_obstacle),
        cmocka_unit_test(test_large_mesh),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
