// Continuous collision detection of a moving point against a moving
// analytic shape, by conservative advancement (Mirtich 1996; the scheme of
// Zhang et al. 2006, "Continuous collision detection for articulated models
// using Taylor models and temporal culling", reduced to one point).
//
// The motion. The point is p(t) = x0 + t (x1 - x0); the shape's pose at t
// is pose(s(t)), s(t) = s0 + t (s1 - s0), a screw motion (shape.h): centre
// c(t) = c(s0) + t ds vh, rotation R(t) = exp(t ds [wh]x) R(s0), ds = s1 -
// s0. In the shape's frame the point is q(t) = R(t)^T (p(t) - c(t)), and
// the signed distance is phi(q(t)), phi the shape's local signed distance,
// which is 1-Lipschitz in q. So |d/dt phi| <= |dq/dt| = |u(t)| with
//   u(t) = (x1 - x0) - ds vh - ds wh x r(t),   r(t) = p(t) - c(t),
// the point's velocity relative to the shape's material point under it.
// r(t) is linear in t, so u(t) is too, and its norm (convex) is largest at
// an end: V = max(|u(0)|, |u(1)|) bounds the speed of phi over the whole
// interval, and is 0 for a point carried along with the shape.
//
// Advancement. From t = 0 with phi(0) = phi0 > 0: at t_k, if phi(t_k) <=
// xi phi0 stop (xi = 0.1, the gap the step keeps, as IPC's additive CCD);
// else t_{k+1} = t_k + (phi(t_k) - g) / V with g = xi phi0 / 2, which keeps
// phi >= g > 0 on [t_k, t_{k+1}] by the Lipschitz bound. Reaching t = 1
// means no contact. The returned t is the last t_k: phi > 0 on all of
// [0, t]. Steps shrink as phi nears g, so the loop also stops after 256
// advancements (still conservative: [0, t_k] is certified).
//
// Edges and triangles (ipcc_shape_primitive_ccd). The distance of the
// primitive is d(t) = min over its points p(w, t) = sum_i w_i x_i(t) of
// phi (shape_primitive.c). Each point's relative velocity u(w, t) is
// affine in w for fixed t, so |u| (convex) is largest at a vertex, and for
// a vertex it is largest at t = 0 or 1 as above: V = max over the vertices
// and both ends bounds |d'| (a minimum of V-Lipschitz functions is
// V-Lipschitz), and the advancement is the point's with d for phi.
//
// Sliding (edges and triangles; points keep the bound above). V counts
// tangential motion, so a primitive sliding along the surface at a tiny
// distance would advance by tiny steps (a Newton iteration in resting
// contact would stall). A convex phi (every kind but the torus and the height field, shape.h) lies above
// its tangent planes: with q the primitive's point
// nearest the shape at t_k and n = grad phi(q),
//   d(t) >= phi(q) + min_i [n . (x_i(t_k) - q) + (t - t_k) n . r_i],
// r_i vertex i's motion relative to the shape (linear while the shape only
// translates), because the bound is linear over the primitive. It
// certifies [t_k, t_k + tau] up to the gap, tau from the vertices that
// approach along n; each step takes the larger of the two certified ones.
// Tangential motion costs nothing under it.
#include "shape/shape_ccd.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "shape/shape.h"
#include "shape/shape_primitive.h"
#include "base/vec3.h"

#define SHAPE_CCD_GAP 0.1
#define SHAPE_CCD_MAX_ITERATIONS 256

// |u| at the point r from the centre (see the preamble).
static double relative_speed(const double dx[3], double ds, const double vh[3], const double wh[3],
                             const double r[3]) {
    double u[3] = {dx[0] - ds * (vh[0] + wh[1] * r[2] - wh[2] * r[1]),
                   dx[1] - ds * (vh[1] + wh[2] * r[0] - wh[0] * r[2]),
                   dx[2] - ds * (vh[2] + wh[0] * r[1] - wh[1] * r[0])};
    return norm3(u);
}

// The distance of the primitive of n vertices x (3 n) to shape s: the
// point's phi (n = 1) or shape_primitive.c's; its nearest point q and the
// gradient of phi there (the unit normal) into q and nq.
static double primitive_distance(const ipcc_shape *s, int n, const double *x, double q[3], double nq[3]) {
    double w[3] = {1, 0, 0}, phi;
    if (n == 1) {
        memcpy(q, x, 3 * sizeof(double));
        return ipcc_shape_distance(s, q, NULL, nq);
    }
    if (n == 2) {
        double t;
        ipcc_shape_edge_closest(s, x, x + 3, &t, &phi);
        w[0] = 1 - t, w[1] = t;
    } else {
        ipcc_shape_triangle_closest(s, x, x + 3, x + 6, w, &phi);
    }
    for (int k = 0; k < 3; ++k)
        q[k] = w[0] * x[k] + w[1] * x[3 + k] + (n == 3 ? w[2] * x[6 + k] : 0);
    ipcc_shape_distance(s, q, NULL, nq);
    return phi;
}

// The bound V of the preamble for the primitive of n vertices moving x0 ->
// x1 (3 n each) against the shape at its poses a (progress s0) and b (s1).
static double speed_bound(const ipcc_shape *a, const ipcc_shape *b, const double vh[3], const double wh[3],
                          double ds, int n, const double *x0, const double *x1) {
    double V = 0;
    for (int v = 0; v < n; ++v) {
        const double *p0 = x0 + 3 * v, *p1 = x1 + 3 * v;
        double dx[3] = {p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]};
        double r0[3] = {p0[0] - a->center[0], p0[1] - a->center[1], p0[2] - a->center[2]};
        double r1[3] = {p1[0] - b->center[0], p1[1] - b->center[1], p1[2] - b->center[2]};
        V = fmax(V, fmax(relative_speed(dx, ds, vh, wh, r0), relative_speed(dx, ds, vh, wh, r1)));
    }
    return V;
}

// A primitive's distance at the start of an advancement: phi, its point
// nearest the shape and the normal there (primitive_distance).
typedef struct start_distance {
    double phi, q[3], nq[3];
} start_distance;

// Conservative advancement (preamble) of the primitive of n vertices moving
// x0 -> x1 (3 n each); `known`, when not NULL, is the primitive's distance
// at x0 to the shape at progress s0, already computed.
static double advance(const ipcc_shape *start, const double vh[3], const double wh[3], double s0, double s1,
                      int n, const double *x0, const double *x1, const start_distance *known) {
    ipcc_shape a, b;
    ipcc_shape_moved(start, vh, wh, s0, &a);
    ipcc_shape_moved(start, vh, wh, s1, &b);
    double ds = s1 - s0, dx[9], rel[9];
    for (int i = 0; i < 3 * n; ++i) {
        dx[i] = x1[i] - x0[i];
        rel[i] = dx[i] - ds * vh[i % 3]; // the motion relative to a translating shape
    }
    double V = speed_bound(&a, &b, vh, wh, ds, n, x0, x1);
    // The supporting-plane bound (preamble) needs phi convex and a shape that
    // does not turn; points keep the Lipschitz bound alone (their results
    // are those of earlier versions).
    bool linear =
        n > 1 && ipcc_shape_convex(start->kind) && (ds == 0 || (wh[0] == 0 && wh[1] == 0 && wh[2] == 0));
    // A point farther than V cannot reach the surface within the interval;
    // the bounded query is exact below V and skips a height field's far
    // cells (q and nq serve the primitives' supporting-plane bound only).
    double q[3], nq[3], phi0;
    if (n == 1) {
        phi0 = ipcc_shape_distance_bounded(&a, x0, V);
        if (!(phi0 < V)) return 1.0;
    } else if (known) {
        phi0 = known->phi;
        memcpy(q, known->q, sizeof q);
        memcpy(nq, known->nq, sizeof nq);
    } else {
        phi0 = primitive_distance(&a, n, x0, q, nq);
    }
    if (!(phi0 > 0)) return 0.0;
    if (!(V > 0) || phi0 > V) return 1.0; // cannot reach the surface within the interval
    double gap = 0.5 * SHAPE_CCD_GAP * phi0, t = 0, phi = phi0;
    for (int it = 0; it < SHAPE_CCD_MAX_ITERATIONS; ++it) {
        if (phi <= SHAPE_CCD_GAP * phi0) return t;
        double step = (phi - gap) / V;
        if (linear) {
            // L(t') = phi(q) + min_i [nq . (x_i(t) - q) + (t' - t) nq . rel_i] >= gap until t + tau.
            double c[3], lowest = INFINITY, tau = INFINITY;
            for (int v = 0; v < n; ++v) {
                c[v] = 0;
                for (int k = 0; k < 3; ++k)
                    c[v] += nq[k] * (x0[3 * v + k] + t * dx[3 * v + k] - q[k]);
                lowest = fmin(lowest, c[v]);
            }
            double base = phi; // phi at q
            if (base + lowest > gap) {
                for (int v = 0; v < n; ++v) {
                    double approach = nq[0] * rel[3 * v] + nq[1] * rel[3 * v + 1] + nq[2] * rel[3 * v + 2];
                    if (approach < 0) tau = fmin(tau, (base + c[v] - gap) / -approach);
                }
                step = fmax(step, tau);
            }
        }
        double tn = t + step;
        if (tn >= 1) return 1.0;
        t = tn;
        ipcc_shape_moved(start, vh, wh, s0 + t * (s1 - s0), &a);
        double p[9];
        for (int i = 0; i < 3 * n; ++i)
            p[i] = x0[i] + t * dx[i];
        phi = primitive_distance(&a, n, p, q, nq);
    }
    return t;
}

double ipcc_shape_ccd(const ipcc_shape *start, const double vh[3], const double wh[3], double s0, double s1,
                      const double x0[3], const double x1[3]) {
    return advance(start, vh, wh, s0, s1, 1, x0, x1, NULL);
}

double ipcc_shape_primitive_ccd(const ipcc_shape *start, const double vh[3], const double wh[3], double s0,
                                double s1, int n, const double *x0, const double *x1) {
    return advance(start, vh, wh, s0, s1, n, x0, x1, NULL);
}

// ipcc_shape_ccd of the point at barycentric weights w (n) of the primitive
// of n vertices moving x0 -> x1.
static double point_on(const ipcc_shape *start, const double vh[3], const double wh[3], double s0, double s1,
                       int n, const double *x0, const double *x1, const double *w) {
    double p0[3] = {0, 0, 0}, p1[3] = {0, 0, 0};
    for (int v = 0; v < n; ++v)
        for (int d = 0; d < 3; ++d) {
            p0[d] += w[v] * x0[3 * v + d];
            p1[d] += w[v] * x1[3 * v + d];
        }
    return advance(start, vh, wh, s0, s1, 1, p0, p1, NULL);
}

// Every point y of the shape S's surface is within H of the inset S'
// (ipcc_shape_inset): H = depth for the torus (its inset is its inner
// parallel body) and the ellipsoid (y = D u with |u| = 1 has (D - depth) u
// on S', depth |u| away), depth sqrt 2 for the cylinder (at its rims). So
// for any q outside S, phi(q) = |q - y| >= dist(q, S') - H, and the inset
// primitive's distance, computed once, decides both early outs.
double ipcc_shape_primitive_points_ccd(const ipcc_shape *start, double depth, const double vh[3],
                                       const double wh[3], double s0, double s1, int n, const double *x0,
                                       const double *x1, int m, const double *w) {
    // Every point of the primitive moves at most V relative to the shape
    // (preamble), so if its least distance exceeds V nothing of it, the
    // points included, reaches the shape (nor the inset one, inside it).
    ipcc_shape a, b, inset = *start, a_in;
    ipcc_shape_moved(start, vh, wh, s0, &a);
    ipcc_shape_moved(start, vh, wh, s1, &b);
    double V = speed_bound(&a, &b, vh, wh, s1 - s0, n, x0, x1), c[3] = {0, 0, 0}, rad = 0;
    // First the ball about the centroid holding it (phi is 1-Lipschitz):
    // the bounded query is cheap far away (shape.h).
    for (int v = 0; v < n; ++v)
        for (int d = 0; d < 3; ++d)
            c[d] += x0[3 * v + d] / n;
    for (int v = 0; v < n; ++v)
        rad = fmax(rad, sqrt((x0[3 * v] - c[0]) * (x0[3 * v] - c[0]) +
                             (x0[3 * v + 1] - c[1]) * (x0[3 * v + 1] - c[1]) +
                             (x0[3 * v + 2] - c[2]) * (x0[3 * v + 2] - c[2])));
    if (ipcc_shape_distance_bounded(&a, c, V + rad) > V + rad) return 1.0;
    // A height field has no least distance over a face (shape_primitive.c's
    // searches are for the analytic kinds: the terrain's bumps under a large
    // face could hide a minimum from them): its points alone.
    if (start->kind == IPCC_SHAPE_HEIGHT_FIELD) {
        double t = 1.0;
        for (int k = 0; k < m; ++k)
            t = fmin(t, point_on(start, vh, wh, s0, s1, n, x0, x1, w + n * k));
        return t;
    }
    ipcc_shape_inset(&inset, depth);
    ipcc_shape_moved(&inset, vh, wh, s0, &a_in);
    start_distance known;
    known.phi = primitive_distance(&a_in, n, x0, known.q, known.nq);
    double H = start->kind == IPCC_SHAPE_CYLINDER ? sqrt(2.0) * depth : depth;
    if (known.phi - H > V) return 1.0;
    double t = depth > 0 ? advance(&inset, vh, wh, s0, s1, n, x0, x1, &known) : 1.0;
    for (int k = 0; k < m; ++k)
        t = fmin(t, point_on(start, vh, wh, s0, s1, n, x0, x1, w + n * k));
    return t;
}
