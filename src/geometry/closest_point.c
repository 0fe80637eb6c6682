// Closest points between contact primitives (closest_point.h).
//
// Conventions. The point-edge, point-triangle and edge-edge functions give
// the closest point on the LINE or PLANE of the features the distance type
// already named (distance.c classifies; these do not), as parameters, so
// that a constraint's closest-point weights and its squared distance
// (distance.c) describe the same points. Degenerate features give zero
// parameters (their distance type never names them in a well-shaped mesh;
// the value only has to be finite).
//
// Accuracy. As in distance.c (its preamble, "Accuracy"), the plane and
// line-line parameters are formed with cross products, not as Cramer's rule
// on the Gram matrix (the d00 d11 - d01^2 form), whose determinant loses
// all relative accuracy as the angle between the two spanning vectors
// closes. With n = a x b and Lagrange's identity
// (A x B) . (C x D) = (A . C)(B . D) - (A . D)(B . C), the 2x2 normal
// equations' solution becomes
//   point-triangle (r = p - t0, a = t1 - t0, b = t2 - t0, r = b1 a + b2 b + h n):
//     b1 = ((r x b) . n) / |n|^2,   b2 = ((a x r) . n) / |n|^2,
//   edge-edge (r = ea0 - eb0, a = ea1 - ea0, b = eb1 - eb0, minimizing
//   |r + s a - t b|^2):
//     s = (n . (b x r)) / |n|^2,    t = (n . (a x r)) / |n|^2.
// The segment-segment closest points (clamped, for contact reports of
// contacts whose features changed) follow Ericson, Real-Time Collision
// Detection (2005), Sec. 5.1.9, with the lines' closest point above in
// place of its Gram-determinant form (parallel lines give s = 0).
#include "geometry/closest_point.h"

#include <math.h>

#include "base/vec3.h"

double ipcc_point_edge_closest_point(const double p[3], const double e0[3], const double e1[3]) {
    double e[3], r[3];
    sub3(e1, e0, e);
    sub3(p, e0, r);
    double ee = dot3(e, e);
    return ee > 0 ? dot3(r, e) / ee : 0;
}

void ipcc_point_triangle_closest_point(const double p[3], const double t0[3], const double t1[3],
                                       const double t2[3], double b[2]) {
    double a[3], c[3], n[3], r[3], q[3];
    sub3(t1, t0, a);
    sub3(t2, t0, c);
    cross3(a, c, n);
    sub3(p, t0, r);
    double nn = dot3(n, n);
    if (!(nn > 0)) {
        b[0] = b[1] = 0;
        return;
    }
    cross3(r, c, q); // b1 = ((r x b) . n) / |n|^2
    b[0] = dot3(q, n) / nn;
    cross3(a, r, q); // b2 = ((a x r) . n) / |n|^2
    b[1] = dot3(q, n) / nn;
}

void ipcc_edge_edge_closest_point(const double ea0[3], const double ea1[3], const double eb0[3],
                                  const double eb1[3], double st[2]) {
    double a[3], b[3], r[3], n[3], q[3];
    sub3(ea1, ea0, a);
    sub3(eb1, eb0, b);
    sub3(ea0, eb0, r);
    cross3(a, b, n);
    double nn = dot3(n, n);
    if (!(nn > 0)) {
        st[0] = st[1] = 0;
        return;
    }
    cross3(b, r, q); // s = (n . (b x r)) / |n|^2
    st[0] = dot3(n, q) / nn;
    cross3(a, r, q); // t = (n . (a x r)) / |n|^2
    st[1] = dot3(n, q) / nn;
}

void ipcc_segment_segment_closest_parameters(const double p0[3], const double p1[3], const double q0[3],
                                             const double q1[3], double st_out[2]) {
    double d1[3], d2[3], r[3];
    sub3(p1, p0, d1);
    sub3(q1, q0, d2);
    sub3(p0, q0, r);
    double aa = dot3(d1, d1), ee = dot3(d2, d2), f = dot3(d2, r), s = 0, t = 0;
    if (aa <= 0 && ee <= 0) {
        s = t = 0;
    } else if (aa <= 0) {
        t = fmin(fmax(f / ee, 0.0), 1.0);
    } else {
        double c = dot3(d1, r);
        if (ee <= 0) {
            s = fmin(fmax(-c / aa, 0.0), 1.0);
        } else {
            // The lines' closest point (cross-product form), clamped; then t
            // for that s, and s again for a clamped t.
            double bb = dot3(d1, d2), st[2];
            ipcc_edge_edge_closest_point(p0, p1, q0, q1, st);
            s = fmin(fmax(st[0], 0.0), 1.0);
            t = (bb * s + f) / ee;
            if (t < 0) {
                t = 0;
                s = fmin(fmax(-c / aa, 0.0), 1.0);
            } else if (t > 1) {
                t = 1;
                s = fmin(fmax((bb - c) / aa, 0.0), 1.0);
            }
        }
    }
    st_out[0] = s;
    st_out[1] = t;
}

void ipcc_segment_segment_closest_points(const double p0[3], const double p1[3], const double q0[3],
                                         const double q1[3], double a[3], double b[3]) {
    double st[2];
    ipcc_segment_segment_closest_parameters(p0, p1, q0, q1, st);
    for (int k = 0; k < 3; ++k) {
        a[k] = p0[k] + st[0] * (p1[k] - p0[k]);
        b[k] = q0[k] + st[1] * (q1[k] - q0[k]);
    }
}
