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
#include <math.h>
#include <stddef.h>

#include "shape.h"
#include "vec3.h"

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

double ipcc_shape_ccd(const ipcc_shape *start, const double vh[3], const double wh[3], double s0, double s1,
                      const double x0[3], const double x1[3]) {
    ipcc_shape a, b;
    ipcc_shape_moved(start, vh, wh, s0, &a);
    ipcc_shape_moved(start, vh, wh, s1, &b);
    double dx[3] = {x1[0] - x0[0], x1[1] - x0[1], x1[2] - x0[2]}, ds = s1 - s0;
    double r0[3] = {x0[0] - a.center[0], x0[1] - a.center[1], x0[2] - a.center[2]};
    double r1[3] = {x1[0] - b.center[0], x1[1] - b.center[1], x1[2] - b.center[2]};
    double V = fmax(relative_speed(dx, ds, vh, wh, r0), relative_speed(dx, ds, vh, wh, r1));
    double phi0 = ipcc_shape_distance(&a, x0, NULL, NULL);
    if (!(phi0 > 0)) return 0.0;
    if (!(V > 0) || phi0 > V) return 1.0; // cannot reach the surface within the interval
    double gap = 0.5 * SHAPE_CCD_GAP * phi0, t = 0, phi = phi0;
    for (int it = 0; it < SHAPE_CCD_MAX_ITERATIONS; ++it) {
        if (phi <= SHAPE_CCD_GAP * phi0) return t;
        double tn = t + (phi - gap) / V;
        if (tn >= 1) return 1.0;
        t = tn;
        ipcc_shape pose;
        ipcc_shape_moved(start, vh, wh, s0 + t * (s1 - s0), &pose);
        double p[3] = {x0[0] + t * dx[0], x0[1] + t * dx[1], x0[2] + t * dx[2]};
        phi = ipcc_shape_distance(&pose, p, NULL, NULL);
    }
    return t;
}
