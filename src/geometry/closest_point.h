/// Closest points between contact primitives, as parameters on their
/// features (closest_point.c): one home for the contact weights of friction
/// (contact.c), the geometry of contact reports (world_contact_report.c)
/// and the separating directions of CCD (ccd.c). The anchor is
/// ipc-toolkit's tangent/closest_point. Private to the library.
#ifndef IPCC_CLOSEST_POINT_H
#define IPCC_CLOSEST_POINT_H

/// a such that e0 + a (e1 - e0) is the point of the LINE through e0, e1
/// nearest p (not clamped to the edge); 0 for a zero-length edge.
double ipcc_point_edge_closest_point(const double p[3], const double e0[3], const double e1[3]);

/// (b1, b2) such that t0 + b1 (t1 - t0) + b2 (t2 - t0) is p's projection on
/// the PLANE of the triangle (not clamped to it); (0, 0) for a degenerate
/// triangle (zero normal).
void ipcc_point_triangle_closest_point(const double p[3], const double t0[3], const double t1[3],
                                       const double t2[3], double b[2]);

/// (s, t) such that ea0 + s (ea1 - ea0) and eb0 + t (eb1 - eb0) are the
/// closest points of the two LINES (not clamped); (0, 0) for parallel lines.
void ipcc_edge_edge_closest_point(const double ea0[3], const double ea1[3], const double eb0[3],
                                  const double eb1[3], double st[2]);

/// (s, t) in [0, 1]^2 such that p0 + s (p1 - p0) and q0 + t (q1 - q0) are
/// closest points of two SEGMENTS (clamped; zero-length segments included).
void ipcc_segment_segment_closest_parameters(const double p0[3], const double p1[3], const double q0[3],
                                             const double q1[3], double st[2]);

/// The closest points a on [p0, p1] and b on [q0, q1] of two SEGMENTS
/// (ipcc_segment_segment_closest_parameters).
void ipcc_segment_segment_closest_points(const double p0[3], const double p1[3], const double q0[3],
                                         const double q1[3], double a[3], double b[3]);

#endif
