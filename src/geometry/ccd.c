// Continuous collision detection: conservative advancement along certified
// separating planes.
//
// Problem. Two primitives, side A (a triangle, an edge or a point: vertices
// a_j) and side B (a point or an edge: vertices b_i), move linearly,
// x(t) = (1 - t) x^0 + t x^1. D(t) is the Euclidean distance between them
// (between the convex hulls conv A(t) and conv B(t)). Given
// xi = min_distance >= 0 and tmax in (0, 1], find toi <= the first t in
// [0, tmax] with D(t) <= xi, or prove D(t) > xi on all of [0, tmax]. Sides:
//   point-triangle A = {t0, t1, t2}, B = {p};   edge-edge A = {ea0, ea1}, B = {eb0, eb1};
//   point-edge     A = {e0, e1},     B = {p};   point-point A = {p0}, B = {p1}.
//
// Method. Additive CCD (ACCD; Li, Kaufman, Jiang 2021, "Codimensional
// Incremental Potential Contact", ACM TOG 40(4), Algorithm 1) is conservative
// advancement (Mirtich 1996; Zhang, Lee, Kim 2006): from a time t at which
// the primitives are known to be apart, advance by a step over which they
// provably stay apart, and repeat. This file keeps that loop and changes what
// certifies a step:
//   1. ACCD bounds the closing speed by l_p, the sum of the largest relative
//      displacements of the two sides. Here the bound is directional (Zhang
//      et al. 2006) and, for linear trajectories, exact: for a direction n,
//        f_ij(s) = n . (b_i(s) - a_j(s)) = (1 - s) f_ij(0) + s f_ij(1)
//      is linear in s, so the plane with normal n separates the sides exactly
//      as long as min_ij f_ij stays positive. With n the closest direction at
//      t, min_ij f_ij(t) = D(t) and each f_ij falls at most at rate l_p, so the
//      step is never shorter than ACCD's (D - xi) / l_p; a translation is
//      resolved in one step.
//   2. A plane that turns: n(s) interpolates linearly between the closest
//      direction at t and the one at a later trial time t1 (a Newton guess of
//      the contact time, or a trust region of 4 steps). Then f_ij(s) is
//      quadratic in s and bounded below by its Bernstein coefficients. This
//      follows rotating primitives, which a fixed plane only certifies in
//      short steps (ACCD's weakness on the "Adversarial ACCD" and rotating
//      benchmark cases).
//   3. ACCD compares a floating-point distance d(x(t)) with xi; a rounding
//      error there is an unguarded false negative. Here no distance is
//      trusted: closest points only *propose* directions, and the
//      certificates are evaluated from the input coordinates with explicit
//      rounding-error bounds.
//
// Proof sketch (conservativeness). For any vector n != 0 and any a in
// conv A(s), b in conv B(s), with convex weights a = sum_j mu_j a_j(s),
// b = sum_i lambda_i b_i(s):
//   |n| |b - a| >= n . (b - a) = sum_ij lambda_i mu_j f_ij(s) >= min_ij f_ij(s),
// so D(s) > xi whenever min_ij f_ij(s) > c >= xi |n|. (Cauchy-Schwarz and
// convexity: the separating-plane lower bound of the distance.)
// - Fixed plane: doubles L_ij^k <= f_ij(k) for k = 0, 1 (rounding below) give
//   h_ij(s) = (1 - s) L^0 + s L^1 <= f_ij(s) on [0, 1]. Each pair's set
//   {h_ij > c} is an interval bounded by r = (L^0 - c) / (L^0 - L^1); r is
//   computed and moved inward by a relative 2^-49 plus DBL_MIN (the division
//   chain errs by <= 3u relative, u = 2^-53). The certified interval is the
//   intersection, [t, T] with T < every exact upper root.
// - Turning plane on [t, t1]: with n(s) = ((t1 - s) na + (s - t) nb) / (t1 - t),
//   f_ij(s) = n(s) . w_ij(s) is quadratic with Bernstein coefficients
//   na . w(t), (na . w(t1) + nb . w(t)) / 2, nb . w(t1), and
//   |n(s)| <= max(|na|, |nb|) (the norm is convex). Lower bounds l_k of the
//   coefficients give, on [t, t + s (t1 - t)], the de Casteljau coefficients
//   l_0, (1 - s) l_0 + s l_1 and the value at s, all computed as rigorous lower
//   bounds and required > c; by the convex hull property the quadratic, hence
//   every f_ij, stays > c there. The end time t + s (t1 - t) is rounded down by
//   a relative 2^-50 (it is computed with <= 3u error).
// - The loop keeps the invariant "D > xi on [0, t]". Each iteration asks the
//   proposed directions for a certificate starting at t (which requires
//   min_ij f_ij(t) > c: strict at t) and advances t to the latest certified
//   T. If T >= tmax it returns false: D > xi on all of [0, tmax]. Whenever it
//   stops otherwise (no certificate at t, the stopping tolerance, the
//   iteration cap) it returns true with toi = t. By the invariant (empty
//   while t = 0), every s with D(s) <= xi satisfies s >= toi, and toi = 0 or
//   D > xi on all of [0, toi]. Nothing here depends on the
//   accuracy of the proposed directions, of the rounded positions x(t) used to
//   propose them, or of the approximate distance used to stop: a poor
//   direction only shortens a step (or certifies nothing, which stops early).
//
// Rounding (Higham 2002, "Accuracy and Stability of Numerical Algorithms",
// Sec. 3.1: a sum or dot product of m terms errs by <= gamma_m sum |terms|,
// gamma_m = m u / (1 - m u)). The differences w = fl(b_i - a_j) of the input
// coordinates at t = 0 and t = 1 are formed once (relative error u per
// component). Then f~ = fl(n . w) is within gamma_3 S + u S / (1 - u)
// <= 4.01 u S of the exact n . (b_i - a_j), S = sum_k |n_k w_k|, and
// L = fl(f~ - (2^-50 fl(S) + DBL_MIN)) is a lower bound: 8u S covers that,
// plus the final subtraction's rounding u (|f~| + 8u S) and fl(S) >= (1 -
// gamma_3) S; DBL_MIN covers gradual underflow (each product off by at most
// 2^-1075). For the turning plane, w(t) = w0 + t (w1 - w0) is recomputed with
// error <= 5.1 u (|w0| + |w1|) per component, so each Bernstein coefficient
// errs by <= 10.3 u S', S' = sum_k |w0_k| + |w1_k|, and 16 u S' is
// subtracted. xi |n| is bounded above through fl(sqrt(fl(n . n))) (relative
// error <= 2.5 u) times 1 + 2^-49, times 1 + 2^-50, plus DBL_MIN. Each bound
// holds in any evaluation order and with or without fused multiply-adds (an
// FMA rounds once). The file must not be compiled with -ffast-math (it
// reassociates the bounds away and assumes there is no NaN).
//
// Stopping. Each step is a Newton step on the separation along a plane, so
// near a genuine contact t converges quadratically (linearly, but fast, at a
// tangential double root). The loop reports a contact once the approximate
// separation above xi is <= the larger of IPCC_CCD_TOLERANCE (1e-9) times its
// value at t = 0 and 1e-12 times the query's length scale (coordinate
// magnitudes and vertex-pair spans), below which directions are rounding
// noise. Relative to the start, primitives 1e-9 m apart (barrier contact in
// IPC) still get a useful toi. Near misses closer than that are the false
// positives: on the Wang et al. 2021 handcrafted set, 209 of the 221 pass
// within 1e-15 of contact (at the resolution of the double input), the other
// 12 within 5e-11.
//
// Directions. At each t the plane normal (triangle normal or the edges'
// common normal, oriented towards B) is tried first: it settles most
// separated queries alone. Then the closest features of the rounded
// positions propose b* - a* and, when a closest feature is an edge interior,
// b* - a* re-orthogonalized against that edge (one Gram-Schmidt step). Plane
// normals and the re-orthogonalized direction keep the certificate alive down
// to separations near u |x|, where the raw b* - a* would tilt by u |x| / d
// radians and lose the certificate already at d ~ sqrt(u |x| L).
//
// Failure modes (all conservative: true with an early toi, never a miss).
// - A separation above xi below the rounding resolution (about 1e-15 of the
//   coordinates' magnitude; more for nearly parallel edges) cannot be
//   certified: true, possibly with toi = 0.
// - Grazing, turning configurations advance in short steps; after
//   IPCC_CCD_MAX_ITERATIONS the current time is returned (not reached on the
//   benchmark data: at most 21 iterations there, 92 on the random exact
//   contacts of tests/unit/geometry/test_ccd.c).
// - Non-finite input, differences that overflow, or squared lengths that
//   overflow or underflow (coordinates beyond ~1e150 or spans below ~1e-150):
//   no certificate, true with toi = 0.
// - Near misses within the tolerance: true (false positive).
#include "geometry/ccd.h"

#include <float.h>
#include <math.h>

#include "geometry/closest_point.h"
#include "base/core.h"
#include "base/vec3.h"

/// Separations below this fraction of the query's length scale are rounding
/// noise: the iteration stops there instead of crawling through it.
#define CCD_NOISE_FLOOR 1e-12

/// At most 4 (vertex of B, vertex of A) pairs: 3 x 1, 2 x 2, 2 x 1, 1 x 1.
#define CCD_MAX_PAIRS 4

typedef enum ccd_kind { CCD_POINT_TRIANGLE, CCD_EDGE_EDGE, CCD_POINT_EDGE, CCD_POINT_POINT } ccd_kind;

typedef struct ccd_query {
    ccd_kind kind;
    int na, nb;                  // vertex counts of sides A and B
    const double *a0[3], *a1[3]; // side A at t = 0 and t = 1
    const double *b0[2], *b1[2]; // side B at t = 0 and t = 1
    double w0[CCD_MAX_PAIRS][3]; // fl(b_i - a_j) at t = 0, pair i * na + j
    double w1[CCD_MAX_PAIRS][3]; // same at t = 1
    double xi, tmax;
} ccd_query;

/// Rounded positions at one time (pointers to the input at t = 0).
typedef struct ccd_positions {
    const double *a[3], *b[2];
    double buf[5][3];
} ccd_positions;

/// Directions proposed at one time (unit length, oriented from A to B), the
/// approximate distance of the rounded positions, and the barycentric weights
/// of the closest points on A (mu) and B (lambda).
typedef struct ccd_directions {
    int count;
    double n[3][3];
    double distance;
    double mu[3], lambda[2];
} ccd_directions;

// x(t) = x^0 + t (x^1 - x^0). Only proposes directions.
static void lerp3(const double x0[3], const double x1[3], double t, double out[3]) {
    for (int k = 0; k < 3; ++k)
        out[k] = x0[k] + t * (x1[k] - x0[k]);
}

static void positions_at(const ccd_query *q, double t, ccd_positions *x) {
    for (int j = 0; j < q->na; ++j) {
        if (t == 0) {
            x->a[j] = q->a0[j];
        } else {
            lerp3(q->a0[j], q->a1[j], t, x->buf[j]);
            x->a[j] = x->buf[j];
        }
    }
    for (int i = 0; i < q->nb; ++i) {
        if (t == 0) {
            x->b[i] = q->b0[i];
        } else {
            lerp3(q->b0[i], q->b1[i], t, x->buf[3 + i]);
            x->b[i] = x->buf[3 + i];
        }
    }
}

// Write sign * v / |v| to n; false when v is not a usable direction.
static bool normalize(const double v[3], double sign, double n[3]) {
    double len = sqrt(dot3(v, v));
    if (!(len > 0) || !isfinite(len)) return false;
    double s = sign / len;
    n[0] = s * v[0];
    n[1] = s * v[1];
    n[2] = s * v[2];
    return true;
}

static void add_direction(ccd_directions *dirs, const double v[3]) {
    if (dirs->count < 3 && normalize(v, 1.0, dirs->n[dirs->count])) dirs->count++;
}

// The plane normal of the configuration, oriented from A to B: the triangle's
// normal (point-triangle) or the edges' common normal (edge-edge). False for
// the other kinds and for degenerate (zero) normals.
static bool plane_direction(const ccd_query *q, const ccd_positions *x, double n[3]) {
    double e0[3], e1[3], r[3], nrm[3];
    if (q->kind == CCD_POINT_TRIANGLE) {
        sub3(x->a[1], x->a[0], e0);
        sub3(x->a[2], x->a[0], e1);
    } else if (q->kind == CCD_EDGE_EDGE) {
        sub3(x->a[1], x->a[0], e0);
        sub3(x->b[1], x->b[0], e1);
    } else {
        return false;
    }
    cross3(e0, e1, nrm);
    sub3(x->b[0], x->a[0], r);
    return normalize(nrm, dot3(r, nrm) >= 0 ? 1.0 : -1.0, n);
}

// Closest point c = a + s (b - a) of segment [a, b] to p; returns s in [0, 1]
// (0 for a zero-length segment): the line's parameter
// s = (p - a) . (b - a) / |b - a|^2 (closest_point.c), clamped to the segment.
static double closest_on_segment(const double p[3], const double a[3], const double b[3], double c[3]) {
    double s = ipcc_point_edge_closest_point(p, a, b);
    s = s > 0 ? (s < 1 ? s : 1) : 0; // also maps NaN to 0
    lerp3(a, b, s, c);
    return s;
}

// Propose v (from A's closest point to B's) and, when the closest point lies
// inside the segment [a, b], v minus its component along the segment: one
// Gram-Schmidt step makes the direction perpendicular to the segment to
// working precision, which the raw v (off by u |x| / |v| radians) is not.
static void propose_point_segment(ccd_directions *dirs, const double v[3], double s, const double a[3],
                                  const double b[3]) {
    add_direction(dirs, v);
    if (s > 0 && s < 1) {
        double e[3], w[3];
        sub3(b, a, e);
        // w = v - (v . e / e . e) e
        double k = dot3(v, e) / dot3(e, e);
        for (int i = 0; i < 3; ++i)
            w[i] = v[i] - k * e[i];
        add_direction(dirs, w);
    }
}

// Nearest of the point p and the segments listed (pairs of A's vertices).
static void closest_point_segments(const double p[3], const ccd_positions *x, const int (*segs)[2], int nseg,
                                   ccd_directions *dirs) {
    double best = INFINITY, best_v[3] = {0, 0, 0}, best_s = 0;
    int best_k = 0;
    for (int k = 0; k < nseg; ++k) {
        double c[3], v[3];
        double s = closest_on_segment(p, x->a[segs[k][0]], x->a[segs[k][1]], c);
        sub3(p, c, v);
        double d2 = dot3(v, v);
        if (d2 < best) {
            best = d2;
            best_s = s;
            best_k = k;
            for (int i = 0; i < 3; ++i)
                best_v[i] = v[i];
        }
    }
    dirs->distance = sqrt(best);
    dirs->mu[0] = dirs->mu[1] = dirs->mu[2] = 0;
    dirs->mu[segs[best_k][0]] = 1 - best_s;
    dirs->mu[segs[best_k][1]] = best_s;
    propose_point_segment(dirs, best_v, best_s, x->a[segs[best_k][0]], x->a[segs[best_k][1]]);
}

static void closest_point_triangle(const ccd_positions *x, ccd_directions *dirs) {
    const double *p = x->b[0], *t0 = x->a[0], *t1 = x->a[1], *t2 = x->a[2];
    double e0[3], e1[3], nrm[3], r[3];
    sub3(t1, t0, e0);
    sub3(t2, t0, e1);
    cross3(e0, e1, nrm);
    sub3(p, t0, r);
    double nn = dot3(nrm, nrm);
    if (nn > 0 && isfinite(nn)) {
        // Barycentric coordinates (v, w) of the projection of p (closest_point.c).
        double b[2];
        ipcc_point_triangle_closest_point(p, t0, t1, t2, b);
        double v = b[0], w = b[1];
        if (v >= 0 && w >= 0 && v + w <= 1) { // the plane normal is the closest direction
            dirs->distance = fabs(dot3(r, nrm)) / sqrt(nn);
            dirs->mu[0] = 1 - v - w;
            dirs->mu[1] = v;
            dirs->mu[2] = w;
            return;
        }
    }
    // Outside the face (or a degenerate triangle): the nearest edge.
    static const int edges[3][2] = {{0, 1}, {1, 2}, {2, 0}};
    closest_point_segments(p, x, edges, 3, dirs);
}

static void closest_edge_edge(const ccd_positions *x, ccd_directions *dirs) {
    const double *a0 = x->a[0], *a1 = x->a[1], *b0 = x->b[0], *b1 = x->b[1];
    double da[3], db[3], r[3], nrm[3];
    sub3(a1, a0, da);
    sub3(b1, b0, db);
    sub3(b0, a0, r);
    cross3(da, db, nrm);
    double aa = dot3(da, da), bb = dot3(db, db), ab = dot3(da, db), nn = dot3(nrm, nrm);
    // Lines not nearly parallel (sin^2 of their angle > 1e-12): closest points
    // a0 + s da, b0 + u db of the lines from the normal equations
    //   s aa - u ab = r . da,  s ab - u bb = r . db,  determinant -(aa bb - ab^2) = -|nrm|^2.
    // (Only a proposal of a separating direction: the certificate below is
    // rigorous for any direction. closest_point.c's cross-product form gives
    // other roundings, which move CCD's times, hence Newton's path, so this
    // form stays, for results identical to earlier releases.)
    if (nn > 1e-12 * aa * bb) {
        double rda = dot3(r, da), rdb = dot3(r, db);
        double s = (rda * bb - rdb * ab) / nn;
        double u = (rda * ab - rdb * aa) / nn;
        if (s >= 0 && s <= 1 && u >= 0 && u <= 1) { // the plane normal is the closest direction
            dirs->distance = fabs(dot3(r, nrm)) / sqrt(nn);
            dirs->mu[0] = 1 - s;
            dirs->mu[1] = s;
            dirs->lambda[0] = 1 - u;
            dirs->lambda[1] = u;
            return;
        }
    }
    // Otherwise the minimum over the parameter square lies on its boundary:
    // an endpoint (a0, a1, b0, b1) against the other segment.
    const double *pts[4] = {a0, a1, b0, b1};
    double best = INFINITY, best_v[3] = {0, 0, 0}, best_s = 0;
    int best_k = 0;
    for (int k = 0; k < 4; ++k) {
        const double *sa = k < 2 ? b0 : a0, *sb = k < 2 ? b1 : a1;
        double c[3], v[3];
        double s = closest_on_segment(pts[k], sa, sb, c);
        if (k < 2)
            sub3(c, pts[k], v); // endpoint of a (side A) to edge b (side B)
        else
            sub3(pts[k], c, v); // edge a to endpoint of b
        double d2 = dot3(v, v);
        if (d2 < best) {
            best = d2;
            best_s = s;
            best_k = k;
            for (int i = 0; i < 3; ++i)
                best_v[i] = v[i];
        }
    }
    dirs->distance = sqrt(best);
    double *on_point = best_k < 2 ? dirs->mu : dirs->lambda, *on_seg = best_k < 2 ? dirs->lambda : dirs->mu;
    on_point[best_k % 2] = 1;
    on_point[1 - best_k % 2] = 0;
    on_seg[0] = 1 - best_s;
    on_seg[1] = best_s;
    propose_point_segment(dirs, best_v, best_s, best_k < 2 ? b0 : a0, best_k < 2 ? b1 : a1);
}

// Closest features of the rounded positions: append their directions (beyond
// the plane normal) and set the distance and the weights.
static void propose_directions(const ccd_query *q, const ccd_positions *x, ccd_directions *dirs) {
    dirs->distance = NAN;
    dirs->mu[0] = dirs->lambda[0] = 1;
    dirs->mu[1] = dirs->mu[2] = dirs->lambda[1] = 0;
    switch (q->kind) {
    case CCD_POINT_TRIANGLE: closest_point_triangle(x, dirs); break;
    case CCD_EDGE_EDGE: closest_edge_edge(x, dirs); break;
    case CCD_POINT_EDGE: {
        static const int edge[1][2] = {{0, 1}};
        closest_point_segments(x->b[0], x, edge, 1, dirs);
        break;
    }
    case CCD_POINT_POINT: {
        double v[3];
        sub3(x->b[0], x->a[0], v);
        dirs->distance = sqrt(dot3(v, v));
        add_direction(dirs, v);
        break;
    }
    }
}

// Upper bound of xi |n|: |n| through fl(sqrt(fl(n . n))) (relative error
// <= 2.5 u) times 1 + 2^-49, the product rounded up by 1 + 2^-50, plus DBL_MIN
// against underflow.
static double separation_bound(double xi, double norm_sq) {
    if (!(xi > 0)) return 0;
    return xi * (sqrt(norm_sq) * (1 + 0x1p-49)) * (1 + 0x1p-50) + DBL_MIN;
}

// A double <= n . (b - a) for the exact difference b - a whose rounded value
// is w: 2^-50 S = 8u S covers the dot product (gamma_3 S), the rounding of w
// (u S) and of the final subtraction (u S); DBL_MIN covers underflow. A
// non-finite w gives NaN.
static double dot_lower_bound(const double n[3], const double w[3]) {
    double p0 = n[0] * w[0], p1 = n[1] * w[1], p2 = n[2] * w[2];
    double f = p0 + p1 + p2;
    double s = fabs(p0) + fabs(p1) + fabs(p2);
    return f - (0x1p-50 * s + DBL_MIN);
}

// Fixed-plane certificate along n from time t (preamble, "The certificate"):
// returns T > t such that D > xi on [t, T] (T may be +inf), or -1 when n
// certifies nothing at t.
static double certify_fixed(const ccd_query *q, const double n[3], double t) {
    double c = separation_bound(q->xi, dot3(n, n));
    double lo = -1, hi = INFINITY; // certified for lo < s <= hi
    for (int k = 0; k < q->na * q->nb; ++k) {
        double l0 = dot_lower_bound(n, q->w0[k]);
        double l1 = dot_lower_bound(n, q->w1[k]);
        if (l0 > c) {
            if (l1 > c) continue;
            // h(s) = (1 - s) l0 + s l1 falls to c at r = (l0 - c) / (l0 - l1): round down
            double r = (l0 - c) / (l0 - l1) * (1 - 0x1p-49) - DBL_MIN;
            if (!(r >= hi)) hi = r;
        } else if (l1 > c) {
            // h rises above c after r = (c - l0) / (l1 - l0): round up
            double r = (c - l0) / (l1 - l0) * (1 + 0x1p-49) + DBL_MIN;
            if (!(r <= lo)) lo = r;
        } else {
            return -1; // never certified on [0, 1] along n (or NaN)
        }
    }
    if (!(t > lo) || !(hi > t)) return -1;
    return hi;
}

// A double <= (1 - s)^2 l0 + 2 s (1 - s) l1 + s^2 l2 for the double s in
// [0, 1] (the weights sum to 1 and are <= 1, so 2^-49 (|l0| + |l1| + |l2|)
// covers the ~7 roundings).
static double bernstein2_lower_bound(const double l[3], double s) {
    double r = 1 - s;
    double v = r * r * l[0] + 2 * s * r * l[1] + s * s * l[2];
    return v - (0x1p-49 * (fabs(l[0]) + fabs(l[1]) + fabs(l[2])) + DBL_MIN);
}

// Smallest root in (0, 1] of a0 (1-s)^2 + 2 a1 s (1-s) + a2 s^2 given a0 > 0,
// or 1 when there is none. Approximate: the caller verifies.
static double first_root_bernstein2(double a0, double a1, double a2) {
    if (a1 >= 0 && a2 > 0) return 1; // all Bernstein coefficients positive
    // Power form A s^2 + B s + C, C = a0 > 0
    double A = a0 - 2 * a1 + a2, B = 2 * (a1 - a0), C = a0;
    double root = 1;
    if (A == 0) {
        if (B < 0) root = -C / B;
    } else {
        double disc = B * B - 4 * A * C;
        if (disc >= 0) {
            double qq = -0.5 * (B + copysign(sqrt(disc), B));
            double r1 = qq / A, r2 = qq != 0 ? C / qq : INFINITY;
            if (r1 > 0 && r1 < root) root = r1;
            if (r2 > 0 && r2 < root) root = r2;
        }
    }
    return root;
}

// Rotating-plane certificate on [t, t1]: the plane normal moves linearly,
// n(s) = ((t1 - s) na + (s - t) nb) / (t1 - t), so that a rotating primitive
// stays separated by a plane that turns with it. For each pair,
// f(s) = n(s) . w(s) is quadratic in s; on [t, t1] its Bernstein coefficients
// are na . w(t), (na . w(t1) + nb . w(t)) / 2 and nb . w(t1), and f is >= the
// smallest of them (convex hull property). |n(s)| <= max(|na|, |nb|) by
// convexity of the norm. w(t) = w0 + t (w1 - w0) is recomputed in floating
// point: against the exact difference its error is <= 5.1 u (|w0| + |w1|) per
// component, so each coefficient is off by at most ~10.3 u S,
// S = sum_k |w0_k| + |w1_k|, and 2^-48 S (16 u S) covers it. Returns T in
// (t, t1] with D > xi on [t, T], or -1.
static double certify_rotating(const ccd_query *q, const double na[3], const double nb[3], double t,
                               double t1) {
    double c = separation_bound(q->xi, fmax(dot3(na, na), dot3(nb, nb)));
    double l[CCD_MAX_PAIRS][3];
    double s = 1;
    int np = q->na * q->nb;
    for (int k = 0; k < np; ++k) {
        double wa[3], wb[3], size = 0;
        for (int i = 0; i < 3; ++i) {
            double d = q->w1[k][i] - q->w0[k][i];
            wa[i] = q->w0[k][i] + t * d;
            wb[i] = q->w0[k][i] + t1 * d;
            size += fabs(q->w0[k][i]) + fabs(q->w1[k][i]);
        }
        // 2^-48 (1 + 2^-49) size >= 16 u S: size itself is rounded 6 times.
        double margin = 0x1p-48 * (size * (1 + 0x1p-49)) + DBL_MIN;
        l[k][0] = dot3(na, wa) - margin;
        l[k][1] = 0.5 * (dot3(na, wb) + dot3(nb, wa)) - margin;
        l[k][2] = dot3(nb, wb) - margin;
        if (!(l[k][0] > c)) return -1;
        double a0 = l[k][0] - c, a1 = l[k][1] - c, a2 = l[k][2] - c;
        // The de Casteljau coefficients on [0, s] are l0, (1 - s) l0 + s l1 and
        // f(s); both of the latter must stay above c.
        if (a1 < 0) s = fmin(s, a0 / (a0 - a1));
        s = fmin(s, first_root_bernstein2(a0, a1, a2));
    }
    if (!(s > 0)) return -1;
    // Verify with rounding-aware lower bounds, shrinking s on failure.
    for (int attempt = 0; attempt < 8; ++attempt, s *= 0.5) {
        if (s < 1) s *= 1 - 0x1p-20;
        bool ok = true;
        for (int k = 0; k < np && ok; ++k) {
            double mid = (1 - s) * l[k][0] + s * l[k][1];
            mid -= 0x1p-50 * (fabs(l[k][0]) + fabs(l[k][1])) + DBL_MIN;
            ok = mid > c && bernstein2_lower_bound(l[k], s) > c;
        }
        if (!ok) continue;
        if (s == 1) return t1;
        // T = t + s (t1 - t) rounded, then moved down by 2^-50 T to lie below the exact value.
        double T = (t + s * (t1 - t)) * (1 - 0x1p-50);
        return T > t ? T : -1;
    }
    return -1;
}

// Rotating certificate from direction na at t to each direction proposed at
// t1 (oriented like na); the latest certified time, or -1.
static double certify_rotating_best(const ccd_query *q, const double na[3], double t, double t1) {
    ccd_positions x;
    ccd_directions later;
    positions_at(q, t1, &x);
    later.count = 0;
    if (plane_direction(q, &x, later.n[0])) later.count = 1;
    propose_directions(q, &x, &later);
    double best = -1;
    for (int k = 0; k < later.count; ++k) {
        double nb[3], sign = dot3(na, later.n[k]) < 0 ? -1 : 1;
        for (int i = 0; i < 3; ++i)
            nb[i] = sign * later.n[k][i];
        double T = certify_rotating(q, na, nb, t, t1);
        if (T > best) best = T;
    }
    return best;
}

// Largest coordinate magnitude and vertex-pair span: the query's length scale.
static double length_scale(const ccd_query *q) {
    double scale = 0;
    for (int k = 0; k < q->na * q->nb; ++k)
        for (int i = 0; i < 3; ++i) {
            double v = fabs(q->w0[k][i]) + fabs(q->w1[k][i]);
            if (v > scale) scale = v;
        }
    for (int j = 0; j < q->na; ++j)
        for (int i = 0; i < 3; ++i)
            if (fabs(q->a0[j][i]) + fabs(q->a1[j][i]) > scale) scale = fabs(q->a0[j][i]) + fabs(q->a1[j][i]);
    for (int j = 0; j < q->nb; ++j)
        for (int i = 0; i < 3; ++i)
            if (fabs(q->b0[j][i]) + fabs(q->b1[j][i]) > scale) scale = fabs(q->b0[j][i]) + fabs(q->b1[j][i]);
    return scale;
}

static bool ccd_solve(const ccd_query *q, double *toi) {
    double t = 0, gap0 = 0, tolerance = 0;
    for (int it = 0; it < IPCC_CCD_MAX_ITERATIONS; ++it) {
        ccd_positions x;
        ccd_directions dirs;
        positions_at(q, t, &x);
        dirs.count = 0;
        double next = -1;
        int best = -1;
        // The plane normal first: it alone settles most separated queries.
        if (plane_direction(q, &x, dirs.n[0])) {
            dirs.count = 1;
            next = certify_fixed(q, dirs.n[0], t);
            if (next >= q->tmax) {
                *toi = q->tmax;
                return false;
            }
            if (next > t) best = 0;
        }
        int first = dirs.count;
        propose_directions(q, &x, &dirs);
        double gap = dirs.distance - q->xi;
        if (it == 0) {
            gap0 = gap;
        } else {
            if (it == 1) tolerance = fmax(IPCC_CCD_TOLERANCE * gap0, CCD_NOISE_FLOOR * length_scale(q));
            if (gap <= tolerance) {
                *toi = t; // close enough to call it a contact (a near miss is a false positive)
                return true;
            }
        }
        for (int k = first; k < dirs.count; ++k) {
            double T = certify_fixed(q, dirs.n[k], t);
            if (T > next) {
                next = T;
                best = k;
            }
        }
        if (!(next > t)) break; // nothing certifies D > xi at t: possibly within xi already
        if (next < q->tmax) {
            // Newton guess for the contact time from the closing speed of the
            // closest points along the best direction; a rotating plane may
            // certify further than the fixed one.
            const double *na = dirs.n[best];
            double slope = 0;
            for (int i = 0; i < q->nb; ++i)
                for (int j = 0; j < q->na; ++j) {
                    const double *w0 = q->w0[i * q->na + j], *w1 = q->w1[i * q->na + j];
                    slope += dirs.lambda[i] * dirs.mu[j] * (dot3(na, w1) - dot3(na, w0));
                }
            double t1 = q->tmax;
            if (slope < 0 && gap > 0 && t + gap / -slope < t1) t1 = t + gap / -slope;
            // Unless the fixed plane got (nearly) there already, try the Newton
            // guess, then (if that certified only part of it) a trust region of
            // 4 times the best step so far.
            for (int attempt = 0; attempt < 2 && next - t < 0.99 * (t1 - t); ++attempt) {
                double reached = certify_rotating_best(q, na, t, t1);
                if (reached > next) next = reached;
                if (reached >= t1) break;
                t1 = fmin(t1, t + 4 * (next - t));
            }
        }
        if (next >= q->tmax) {
            *toi = q->tmax;
            return false;
        }
        t = next;
    }
    *toi = t; // no certificate at t, or the iteration cap: D > xi on [0, t] if t > 0
    return true;
}

// Fill the pair differences and run. Non-finite coordinates (or differences
// that overflow) give true with toi 0.
static bool ccd_run(ccd_query *q, double min_distance, double tmax, double *toi) {
    IPCC_ASSERT(toi != NULL);
    IPCC_ASSERT(min_distance >= 0 && isfinite(min_distance));
    IPCC_ASSERT(tmax > 0 && tmax <= 1);
    q->xi = min_distance;
    q->tmax = tmax;
    double probe = 0; // 0 * w is 0, or NaN for an infinite or NaN w
    for (int i = 0; i < q->nb; ++i)
        for (int j = 0; j < q->na; ++j) {
            int k = i * q->na + j;
            sub3(q->b0[i], q->a0[j], q->w0[k]);
            sub3(q->b1[i], q->a1[j], q->w1[k]);
            for (int d = 0; d < 3; ++d)
                probe += 0 * q->w0[k][d] + 0 * q->w1[k][d];
        }
    if (probe != 0) {
        *toi = 0;
        return true;
    }
    return ccd_solve(q, toi);
}

bool ipcc_point_triangle_ccd(const double p_t0[3], const double t0_t0[3], const double t1_t0[3],
                             const double t2_t0[3], const double p_t1[3], const double t0_t1[3],
                             const double t1_t1[3], const double t2_t1[3], double min_distance, double tmax,
                             double *toi) {
    ccd_query q = {.kind = CCD_POINT_TRIANGLE,
                   .na = 3,
                   .nb = 1,
                   .a0 = {t0_t0, t1_t0, t2_t0},
                   .a1 = {t0_t1, t1_t1, t2_t1},
                   .b0 = {p_t0},
                   .b1 = {p_t1}};
    return ccd_run(&q, min_distance, tmax, toi);
}

bool ipcc_edge_edge_ccd(const double ea0_t0[3], const double ea1_t0[3], const double eb0_t0[3],
                        const double eb1_t0[3], const double ea0_t1[3], const double ea1_t1[3],
                        const double eb0_t1[3], const double eb1_t1[3], double min_distance, double tmax,
                        double *toi) {
    ccd_query q = {.kind = CCD_EDGE_EDGE,
                   .na = 2,
                   .nb = 2,
                   .a0 = {ea0_t0, ea1_t0},
                   .a1 = {ea0_t1, ea1_t1},
                   .b0 = {eb0_t0, eb1_t0},
                   .b1 = {eb0_t1, eb1_t1}};
    return ccd_run(&q, min_distance, tmax, toi);
}

bool ipcc_point_edge_ccd(const double p_t0[3], const double e0_t0[3], const double e1_t0[3],
                         const double p_t1[3], const double e0_t1[3], const double e1_t1[3],
                         double min_distance, double tmax, double *toi) {
    ccd_query q = {.kind = CCD_POINT_EDGE,
                   .na = 2,
                   .nb = 1,
                   .a0 = {e0_t0, e1_t0},
                   .a1 = {e0_t1, e1_t1},
                   .b0 = {p_t0},
                   .b1 = {p_t1}};
    return ccd_run(&q, min_distance, tmax, toi);
}

bool ipcc_point_point_ccd(const double p0_t0[3], const double p1_t0[3], const double p0_t1[3],
                          const double p1_t1[3], double min_distance, double tmax, double *toi) {
    ccd_query q = {.kind = CCD_POINT_POINT,
                   .na = 1,
                   .nb = 1,
                   .a0 = {p0_t0},
                   .a1 = {p0_t1},
                   .b0 = {p1_t0},
                   .b1 = {p1_t1}};
    return ccd_run(&q, min_distance, tmax, toi);
}
