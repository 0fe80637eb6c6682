// Exact triangle intersection checks for tests.
//
// Predicates. orient3d, orient2d and the half-space side are polynomials in
// the input coordinates, and only their sign matters. Each is decided in two
// stages (the structure of Shewchuk, "Adaptive Precision Floating-Point
// Arithmetic and Fast Robust Geometric Predicates", DCG 18, 1997, sec. 4):
//
//  1. Filter. Evaluate in doubles and bound the forward rounding error by
//     C * eps * P, with eps = 2^-53 and P the "permanent": the same expression
//     with every product replaced by its absolute value (computed in doubles).
//     If |value| > bound the rounded sign is the exact sign. Constants:
//       orient3d  det = ux (vy wz - vz wy) + uy (vz wx - vx wz) + uz (vx wy - vy wx),
//                 u = b - a, v = c - a, w = d - a. Shewchuk proves
//                 (7 + 56 eps) eps for this evaluation order; a plain count of
//                 the roundings each monomial sees (3 differences, 2 products,
//                 1 subtraction, 2 sums) gives gamma_8 ~ 8 eps. We use 16 eps.
//       orient2d  (bx-ax)(cy-ay) - (by-ay)(cx-ax): Shewchuk (3 + 16 eps) eps,
//                 count gamma_4. We use 8 eps.
//       half-space (x-p).n: 1 difference, 1 product, 2 sums, gamma_4. 8 eps.
//     These models assume no underflow. A product that underflows is off by at
//     most 2^-1075 absolute; in orient3d such a 2x2 minor is then multiplied by
//     a |u_i| <= mu (the largest |u_i|), so an absolute term (mu + 1) 2^-1066
//     (orient3d) or 2^-1066 (others) is added, far above the few 2^-1075 it
//     covers. Overflow makes the bound inf or NaN, the test fails, and stage 2
//     runs. So the filter never answers wrongly; it only declines.
//  2. Exact. Every double is m 2^e with m an integer below 2^53 in magnitude.
//     With emin the smallest e among the inputs, each coordinate becomes the
//     integer m 2^(e - emin) (GMP mpz, up to ~2100 bits). The predicates are
//     homogeneous, so this positive scaling keeps the sign; the polynomial is
//     then evaluated exactly, in per-thread GMP integers that are allocated
//     once and reused. Cheap exact shortcuts come first: a repeated
//     point, or a coordinate equal in all points (an axis-aligned plane or
//     line: a zero column), gives 0.
//
// Intersection. Two closed convex sets that meet have a common point on the
// boundary of one of them (the endpoints of the intersection segment, or the
// vertices of the coplanar overlap polygon). So two closed triangles meet iff
// an edge of one meets the other: six segment-triangle tests, after exact
// rejections (bounding boxes compared exactly, all vertices of one strictly on
// one side of the other's plane). Segment against triangle:
//  - degenerate triangle (collinear vertices): it is the union of its edges,
//    so three segment-segment tests;
//  - both endpoints strictly on one side: no;
//  - both on the plane: project along a coordinate axis the triangle's plane
//    is not parallel to (one whose projected orient2d is non-zero; the
//    projection is then a bijection of the plane) and test in 2D;
//  - otherwise the line crosses the plane once, on the segment, at X:
//    orient3d(p, q, a, b) = 2 ((q - p).n) area(X, a, b), so X is in the closed
//    triangle iff the three orient3d(p, q, edge) signs are not mixed.
// Segment against segment in 3D: they must be coplanar (orient3d = 0); a
// plane through them projects bijectively along some axis, and projections
// of intersecting sets intersect, so they meet iff all three coordinate
// projections meet in 2D. The 2D tests use orient2d; collinear segments are
// compared as intervals in both coordinates. Degenerate segments (points) go
// through the same code.
//
// Broad phase. Bounding boxes (exact min/max, then enlarged by 2^-40 times
// the largest coordinate magnitude; the exact test rejects again) are
// inserted in a uniform grid whose cell is the mean box size, with at most
// ~4 cells per box overall. A pair is tested only in the cell holding the
// lower corner of its box overlap, so once. Cell coordinates come from a
// monotone rounding of (p - lo) / h, which is all that correctness needs.
#include "exact_intersection.h"

#include <limits.h>
#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

// ---------------------------------------------------------------------------
// Exact integer evaluation.

// Writes in[i] = m 2^e as the integer m 2^(e - emin), emin the least e.
static void to_integers(int n, const double *in, mpz_t *out) {
    int emin = INT_MAX;
    for (int i = 0; i < n; i++) {
        if (in[i] == 0.0) continue;
        int e;
        frexp(in[i], &e);
        if (e - 53 < emin) emin = e - 53;
    }
    for (int i = 0; i < n; i++) {
        if (in[i] == 0.0) {
            mpz_set_ui(out[i], 0);
            continue;
        }
        int e;
        double f = frexp(in[i], &e); // in[i] = f 2^e, 0.5 <= |f| < 1: f 2^53 is an integer
        mpz_set_d(out[i], ldexp(f, 53));
        mpz_mul_2exp(out[i], out[i], (mp_bitcnt_t)(e - 53 - emin));
    }
}

// GMP integers for the exact stage, allocated once per thread and reused, so
// that the exact stage costs no allocation once their limbs have grown.
typedef struct exact_scratch {
    bool ready;
    mpz_t z[12], t, det;
} exact_scratch;

static _Thread_local exact_scratch scratch;

static exact_scratch *get_scratch(void) {
    if (!scratch.ready) {
        for (int i = 0; i < 12; i++)
            mpz_init(scratch.z[i]);
        mpz_inits(scratch.t, scratch.det, NULL);
        scratch.ready = true;
    }
    return &scratch;
}

static int orient3d_exact(const double *a, const double *b, const double *c, const double *d) {
    double in[12];
    memcpy(in, a, 3 * sizeof *in);
    memcpy(in + 3, b, 3 * sizeof *in);
    memcpy(in + 6, c, 3 * sizeof *in);
    memcpy(in + 9, d, 3 * sizeof *in);
    exact_scratch *e = get_scratch();
    mpz_t *z = e->z, *u = z + 3, *v = z + 6, *w = z + 9;
    to_integers(12, in, z);
    for (int i = 3; i < 12; i++) // u = b - a, v = c - a, w = d - a
        mpz_sub(z[i], z[i], z[i % 3]);
    // det = ux (vy wz - vz wy) + uy (vz wx - vx wz) + uz (vx wy - vy wx)
    mpz_mul(e->t, v[1], w[2]);
    mpz_submul(e->t, v[2], w[1]);
    mpz_mul(e->det, u[0], e->t);
    mpz_mul(e->t, v[2], w[0]);
    mpz_submul(e->t, v[0], w[2]);
    mpz_addmul(e->det, u[1], e->t);
    mpz_mul(e->t, v[0], w[1]);
    mpz_submul(e->t, v[1], w[0]);
    mpz_addmul(e->det, u[2], e->t);
    return mpz_sgn(e->det);
}

static int orient2d_exact(const double *a, const double *b, const double *c) {
    double in[6] = {a[0], a[1], b[0], b[1], c[0], c[1]};
    exact_scratch *e = get_scratch();
    mpz_t *z = e->z;
    to_integers(6, in, z);
    for (int i = 2; i < 6; i++) // b - a, c - a
        mpz_sub(z[i], z[i], z[i % 2]);
    // det = (bx - ax)(cy - ay) - (by - ay)(cx - ax)
    mpz_mul(e->det, z[2], z[5]);
    mpz_submul(e->det, z[3], z[4]);
    return mpz_sgn(e->det);
}

static int halfspace_exact(const double *x, const double *p, const double *n) {
    double in[9] = {x[0], x[1], x[2], p[0], p[1], p[2], n[0], n[1], n[2]};
    exact_scratch *e = get_scratch();
    mpz_t *z = e->z;
    to_integers(9, in, z);
    mpz_set_ui(e->det, 0);
    for (int i = 0; i < 3; i++) { // dot = sum (x_i - p_i) n_i
        mpz_sub(z[i], z[i], z[3 + i]);
        mpz_addmul(e->det, z[i], z[6 + i]);
    }
    return mpz_sgn(e->det);
}

// ---------------------------------------------------------------------------
// Filtered predicates.

static int sign_of(double v) { return (v > 0) - (v < 0); }

static int same3(const double *a, const double *b) { return a[0] == b[0] && a[1] == b[1] && a[2] == b[2]; }

int ipcc_test_orient3d(const double a[3], const double b[3], const double c[3], const double d[3]) {
    double ux = b[0] - a[0], uy = b[1] - a[1], uz = b[2] - a[2];
    double vx = c[0] - a[0], vy = c[1] - a[1], vz = c[2] - a[2];
    double wx = d[0] - a[0], wy = d[1] - a[1], wz = d[2] - a[2];
    double p1 = vy * wz, q1 = vz * wy, p2 = vz * wx, q2 = vx * wz, p3 = vx * wy, q3 = vy * wx;
    double det = ux * (p1 - q1) + uy * (p2 - q2) + uz * (p3 - q3);
    double perm = fabs(ux) * (fabs(p1) + fabs(q1)) + fabs(uy) * (fabs(p2) + fabs(q2)) +
                  fabs(uz) * (fabs(p3) + fabs(q3));
    double mu = fmax(fabs(ux), fmax(fabs(uy), fabs(uz)));
    double bound = 0x1p-49 * perm + (mu + 1.0) * 0x1p-1066;
    if (fabs(det) > bound) return sign_of(det);
    for (int k = 0; k < 3; k++)
        if (a[k] == b[k] && a[k] == c[k] && a[k] == d[k]) return 0;
    if (same3(a, b) || same3(a, c) || same3(a, d) || same3(b, c) || same3(b, d) || same3(c, d)) return 0;
    return orient3d_exact(a, b, c, d);
}

int ipcc_test_orient2d(const double a[2], const double b[2], const double c[2]) {
    double p = (b[0] - a[0]) * (c[1] - a[1]), q = (b[1] - a[1]) * (c[0] - a[0]);
    double det = p - q, bound = 0x1p-50 * (fabs(p) + fabs(q)) + 0x1p-1066;
    if (fabs(det) > bound) return sign_of(det);
    for (int k = 0; k < 2; k++)
        if (a[k] == b[k] && a[k] == c[k]) return 0;
    if ((a[0] == b[0] && a[1] == b[1]) || (a[0] == c[0] && a[1] == c[1]) || (b[0] == c[0] && b[1] == c[1]))
        return 0;
    return orient2d_exact(a, b, c);
}

int ipcc_test_halfspace_side(const double x[3], const double point[3], const double normal[3]) {
    double t0 = (x[0] - point[0]) * normal[0], t1 = (x[1] - point[1]) * normal[1];
    double t2 = (x[2] - point[2]) * normal[2];
    double dot = t0 + t1 + t2, bound = 0x1p-50 * (fabs(t0) + fabs(t1) + fabs(t2)) + 0x1p-1066;
    if (fabs(dot) > bound) return sign_of(dot);
    if (same3(x, point) || (normal[0] == 0 && normal[1] == 0 && normal[2] == 0)) return 0;
    return halfspace_exact(x, point, normal);
}

// ---------------------------------------------------------------------------
// 2D tests.

// p's coordinates other than `drop` (a coordinate projection).
static void project(const double *p, int drop, double out[2]) {
    out[0] = p[drop == 0 ? 1 : 0];
    out[1] = p[drop == 2 ? 1 : 2];
}

// Closed intervals [min(a,b), max(a,b)] and [min(c,d), max(c,d)] overlap.
static bool intervals_overlap(double a, double b, double c, double d) {
    return fmax(a, b) >= fmin(c, d) && fmax(c, d) >= fmin(a, b);
}

// Closed 2D segments pq and rs intersect (either may be a point).
static bool segments_intersect_2d(const double *p, const double *q, const double *r, const double *s) {
    int o1 = ipcc_test_orient2d(p, q, r), o2 = ipcc_test_orient2d(p, q, s);
    if (o1 * o2 > 0) return false;
    int o3 = ipcc_test_orient2d(r, s, p), o4 = ipcc_test_orient2d(r, s, q);
    if (o3 * o4 > 0) return false;
    if (o1 || o2 || o3 || o4) return true;
    // All four points on one line: overlap in both coordinates.
    return intervals_overlap(p[0], q[0], r[0], s[0]) && intervals_overlap(p[1], q[1], r[1], s[1]);
}

// p in the closed 2D triangle abc of orientation `orient` (non-zero).
static bool point_in_triangle_2d(const double *p, const double *a, const double *b, const double *c,
                                 int orient) {
    return ipcc_test_orient2d(a, b, p) * orient >= 0 && ipcc_test_orient2d(b, c, p) * orient >= 0 &&
           ipcc_test_orient2d(c, a, p) * orient >= 0;
}

// Closed segment pq against the closed non-degenerate 2D triangle abc.
static bool segment_triangle_2d(const double *p, const double *q, const double *a, const double *b,
                                const double *c, int orient) {
    return point_in_triangle_2d(p, a, b, c, orient) || point_in_triangle_2d(q, a, b, c, orient) ||
           segments_intersect_2d(p, q, a, b) || segments_intersect_2d(p, q, b, c) ||
           segments_intersect_2d(p, q, c, a);
}

// ---------------------------------------------------------------------------
// 3D tests.

// A triangle with its exact classification.
typedef struct triangle {
    const double *v[3];
    int drop;   // coordinate to drop for a bijective 2D projection of its plane; -1 if degenerate
    int orient; // orient2d of the projected triangle (non-zero unless degenerate)
} triangle;

static triangle make_triangle(const double *a, const double *b, const double *c) {
    triangle t = {{a, b, c}, -1, 0};
    for (int k = 0; k < 3 && t.drop < 0; k++) {
        double pa[2], pb[2], pc[2];
        project(a, k, pa);
        project(b, k, pb);
        project(c, k, pc);
        int o = ipcc_test_orient2d(pa, pb, pc);
        if (o != 0) t.drop = k, t.orient = o;
    }
    return t;
}

// Closed 3D segments pq and rs intersect (either may be a point).
static bool segments_intersect_3d(const double *p, const double *q, const double *r, const double *s) {
    if (ipcc_test_orient3d(p, q, r, s) != 0) return false;
    for (int k = 0; k < 3; k++) {
        double pp[2], pq[2], pr[2], ps[2];
        project(p, k, pp);
        project(q, k, pq);
        project(r, k, pr);
        project(s, k, ps);
        if (!segments_intersect_2d(pp, pq, pr, ps)) return false;
    }
    return true;
}

// Closed segment pq against triangle t; sp, sq = orient3d(t, p), orient3d(t, q).
static bool segment_triangle(const double *p, const double *q, int sp, int sq, const triangle *t) {
    const double *a = t->v[0], *b = t->v[1], *c = t->v[2];
    if (t->drop < 0)
        return segments_intersect_3d(p, q, a, b) || segments_intersect_3d(p, q, b, c) ||
               segments_intersect_3d(p, q, c, a);
    if (sp * sq > 0) return false;
    if (sp == 0 && sq == 0) {
        double pp[2], pq[2], pa[2], pb[2], pc[2];
        project(p, t->drop, pp);
        project(q, t->drop, pq);
        project(a, t->drop, pa);
        project(b, t->drop, pb);
        project(c, t->drop, pc);
        return segment_triangle_2d(pp, pq, pa, pb, pc, t->orient);
    }
    int s1 = ipcc_test_orient3d(p, q, a, b), s2 = ipcc_test_orient3d(p, q, b, c);
    int s3 = ipcc_test_orient3d(p, q, c, a);
    bool pos = s1 > 0 || s2 > 0 || s3 > 0, neg = s1 < 0 || s2 < 0 || s3 < 0;
    return !(pos && neg);
}

bool ipcc_test_segment_triangle_intersect(const double p[3], const double q[3], const double a[3],
                                          const double b[3], const double c[3]) {
    triangle t = make_triangle(a, b, c);
    int sp = 0, sq = 0;
    if (t.drop >= 0) {
        sp = ipcc_test_orient3d(a, b, c, p);
        sq = ipcc_test_orient3d(a, b, c, q);
    }
    return segment_triangle(p, q, sp, sq, &t);
}

// Exact bounding boxes of triangles a and b are disjoint.
static bool boxes_disjoint(const double *const a[3], const double *const b[3]) {
    for (int k = 0; k < 3; k++) {
        double alo = fmin(a[0][k], fmin(a[1][k], a[2][k])), ahi = fmax(a[0][k], fmax(a[1][k], a[2][k]));
        double blo = fmin(b[0][k], fmin(b[1][k], b[2][k])), bhi = fmax(b[0][k], fmax(b[1][k], b[2][k]));
        if (ahi < blo || bhi < alo) return true;
    }
    return false;
}

// Signs of the vertices of `of` against the plane of t (zeros if t is degenerate).
static bool plane_separates(const triangle *t, const triangle *of, int s[3]) {
    for (int i = 0; i < 3; i++)
        s[i] = t->drop < 0 ? 0 : ipcc_test_orient3d(t->v[0], t->v[1], t->v[2], of->v[i]);
    return (s[0] > 0 && s[1] > 0 && s[2] > 0) || (s[0] < 0 && s[1] < 0 && s[2] < 0);
}

bool ipcc_test_triangles_intersect(const double *a0, const double *a1, const double *a2, const double *b0,
                                   const double *b1, const double *b2) {
    const double *const av[3] = {a0, a1, a2}, *const bv[3] = {b0, b1, b2};
    if (boxes_disjoint(av, bv)) return false;
    triangle ta = make_triangle(a0, a1, a2), tb = make_triangle(b0, b1, b2);
    int sa[3], sb[3]; // sa: vertices of a against b's plane; sb: b against a's plane
    if (plane_separates(&ta, &tb, sb) || plane_separates(&tb, &ta, sa)) return false;
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3;
        if (segment_triangle(av[i], av[j], sa[i], sa[j], &tb)) return true;
        if (segment_triangle(bv[i], bv[j], sb[i], sb[j], &ta)) return true;
    }
    return false;
}

// ---------------------------------------------------------------------------
// Broad phase: uniform grid over enlarged boxes.

typedef struct grid_item {
    const int *face;
    double lo[3], hi[3];
    int c0[3], c1[3]; // cell range, inclusive
    int set;          // 0 or 1 (between-sets search)
} grid_item;

typedef struct grid {
    double lo[3], half_cell; // origin; half the cell size (halved so p - lo can not overflow)
    int dims[3];
} grid;

static int cell_of(const grid *g, int k, double p) {
    double c = floor((0.5 * p - 0.5 * g->lo[k]) / g->half_cell);
    if (!(c >= 0)) return 0; // also NaN
    if (c >= g->dims[k] - 1) return g->dims[k] - 1;
    return (int)c;
}

static bool share_vertex(const int *f, const int *h) {
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (f[i] == h[j]) return true;
    return false;
}

// Sets up boxes, the grid and the cell ranges of n items.
static void build_grid(int num_vertices, const double *x, int n, grid_item *items, grid *g) {
    double scale = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < 3; j++) {
            int v = items[i].face[j];
            assert_in_range(v, 0, num_vertices - 1);
            for (int k = 0; k < 3; k++) {
                assert_true(isfinite(x[3 * v + k]));
                scale = fmax(scale, fabs(x[3 * v + k]));
            }
        }
    double pad = scale * 0x1p-40, mean = 0;
    for (int k = 0; k < 3; k++)
        g->lo[k] = INFINITY;
    double hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < n; i++) {
        grid_item *it = &items[i];
        double size = 0;
        for (int k = 0; k < 3; k++) {
            const int *f = it->face;
            it->lo[k] = fmin(x[3 * f[0] + k], fmin(x[3 * f[1] + k], x[3 * f[2] + k])) - pad;
            it->hi[k] = fmax(x[3 * f[0] + k], fmax(x[3 * f[1] + k], x[3 * f[2] + k])) + pad;
            g->lo[k] = fmin(g->lo[k], it->lo[k]);
            hi[k] = fmax(hi[k], it->hi[k]);
            size = fmax(size, 0.5 * it->hi[k] - 0.5 * it->lo[k]);
        }
        mean += size / n;
    }
    // Cell size: the mean (half) box size, doubled until the grid has at most
    // 4 n + 64 cells.
    g->half_cell = mean;
    double limit = fmin(4.0 * n + 64, 0x1p30);
    for (;;) {
        double cells = 1;
        for (int k = 0; k < 3; k++) {
            double d = (0.5 * hi[k] - 0.5 * g->lo[k]) / g->half_cell;
            g->dims[k] = isfinite(d) && d < limit ? (int)d + 1 : 0;
            cells *= g->dims[k];
        }
        if (!(g->half_cell > 0) || !isfinite(g->half_cell)) {
            g->half_cell = 1; // all points equal (or bad input): one cell
            g->dims[0] = g->dims[1] = g->dims[2] = 1;
            break;
        }
        if (cells >= 1 && cells <= limit) break;
        g->half_cell *= 2;
    }
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 3; k++) {
            items[i].c0[k] = cell_of(g, k, items[i].lo[k]);
            items[i].c1[k] = cell_of(g, k, items[i].hi[k]);
        }
}

static int find_pairs(int num_vertices, const double *x, int n, grid_item *items, bool between,
                      int max_report, int *fa, int *fb) {
    if (fa) *fa = -1;
    if (fb) *fb = -1;
    if (n == 0) return 0;
    grid g;
    build_grid(num_vertices, x, n, items, &g);
    size_t ncells = (size_t)g.dims[0] * (size_t)g.dims[1] * (size_t)g.dims[2];
    // Counting sort of (cell, item) entries; items enter each cell in order.
    size_t *start = calloc(ncells + 1, sizeof *start);
    assert_non_null(start);
    for (int i = 0; i < n; i++) {
        const grid_item *it = &items[i];
        for (int cz = it->c0[2]; cz <= it->c1[2]; cz++)
            for (int cy = it->c0[1]; cy <= it->c1[1]; cy++)
                for (int cx = it->c0[0]; cx <= it->c1[0]; cx++)
                    start[((size_t)cz * (size_t)g.dims[1] + (size_t)cy) * (size_t)g.dims[0] + (size_t)cx +
                          1]++;
    }
    for (size_t c = 0; c < ncells; c++)
        start[c + 1] += start[c];
    int *entries = malloc((start[ncells] ? start[ncells] : 1) * sizeof *entries);
    size_t *fill = malloc(ncells * sizeof *fill);
    assert_non_null(entries);
    assert_non_null(fill);
    memcpy(fill, start, ncells * sizeof *fill);
    for (int i = 0; i < n; i++) {
        const grid_item *it = &items[i];
        for (int cz = it->c0[2]; cz <= it->c1[2]; cz++)
            for (int cy = it->c0[1]; cy <= it->c1[1]; cy++)
                for (int cx = it->c0[0]; cx <= it->c1[0]; cx++)
                    entries[fill[((size_t)cz * (size_t)g.dims[1] + (size_t)cy) * (size_t)g.dims[0] +
                                 (size_t)cx]++] = i;
    }
    free(fill);

    int found = 0;
    size_t c = 0;
    for (int cz = 0; cz < g.dims[2]; cz++)
        for (int cy = 0; cy < g.dims[1]; cy++)
            for (int cx = 0; cx < g.dims[0]; cx++, c++) {
                const int cell[3] = {cx, cy, cz};
                for (size_t e = start[c]; e < start[c + 1]; e++) {
                    const grid_item *p = &items[entries[e]];
                    for (size_t h = e + 1; h < start[c + 1]; h++) {
                        const grid_item *q = &items[entries[h]];
                        if (between && p->set == q->set) continue;
                        bool skip = false;
                        for (int k = 0; k < 3 && !skip; k++)
                            skip = p->hi[k] < q->lo[k] || q->hi[k] < p->lo[k] ||
                                   (p->c0[k] > q->c0[k] ? p->c0[k] : q->c0[k]) != cell[k];
                        if (skip || share_vertex(p->face, q->face)) continue;
                        const int *f = p->face, *h2 = q->face;
                        if (!ipcc_test_triangles_intersect(x + 3 * f[0], x + 3 * f[1], x + 3 * f[2],
                                                           x + 3 * h2[0], x + 3 * h2[1], x + 3 * h2[2]))
                            continue;
                        if (found == 0) {
                            if (fa) *fa = entries[e];
                            if (fb) *fb = entries[h];
                        }
                        if (found < INT_MAX) found++;
                        if (max_report >= 1 && found >= max_report) goto done;
                    }
                }
            }
done:
    free(entries);
    free(start);
    return found;
}

int ipcc_test_find_triangle_intersections(int num_vertices, const double *x, int num_faces, const int *faces,
                                          int max_report, int *fa, int *fb) {
    assert_true(num_faces >= 0 && num_vertices >= 0);
    grid_item *items = calloc(num_faces ? (size_t)num_faces : 1, sizeof *items);
    assert_non_null(items);
    for (int i = 0; i < num_faces; i++)
        items[i].face = faces + 3 * (size_t)i;
    int found = find_pairs(num_vertices, x, num_faces, items, false, max_report, fa, fb);
    free(items);
    return found;
}

int ipcc_test_find_triangle_intersections_between(int num_vertices, const double *x, int na,
                                                  const int *faces_a, int nb, const int *faces_b,
                                                  int max_report, int *fa, int *fb) {
    assert_true(na >= 0 && nb >= 0 && num_vertices >= 0 && na <= INT_MAX - nb);
    int n = na + nb;
    grid_item *items = calloc(n ? (size_t)n : 1, sizeof *items);
    assert_non_null(items);
    for (int i = 0; i < na; i++)
        items[i].face = faces_a + 3 * (size_t)i;
    for (int i = 0; i < nb; i++) {
        items[na + i].face = faces_b + 3 * (size_t)i;
        items[na + i].set = 1;
    }
    // Items of set a come first, so a found pair (i < j) is (a face, b face).
    int found = find_pairs(num_vertices, x, n, items, true, max_report, fa, fb);
    if (found > 0 && fb) *fb -= na;
    free(items);
    return found;
}
