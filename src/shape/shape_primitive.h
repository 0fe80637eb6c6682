/// Exact distance from a body edge or triangle to an analytic shape's
/// surface (shape_primitive.c): the point of the primitive nearest the
/// shape, its closest feature (a vertex, an edge's interior, the
/// triangle's interior), and the squared distance with gradient and
/// Hessian over the primitive's vertices, for the curved shapes whose
/// distance has no closed form over a primitive (spheres have one,
/// barrier_potential.c; boxes have exact features, world_shapes.c). Used
/// by the CCD of whole primitives (shape_ccd.c, against the shape inset by
/// the depth budget) and the initial check; the barrier against these
/// shapes acts on body vertices and sample points (contact_samples.c).
#ifndef IPCC_SHAPE_PRIMITIVE_H
#define IPCC_SHAPE_PRIMITIVE_H

#include "geometry/distance.h"
#include "shape/shape.h"

/// The point x0 + t (x1 - x0) of the segment with the smallest signed
/// distance phi to shape s, and its closest feature (an end or the
/// interior). The result does not depend on the order of x0 and x1 (t is
/// then 1 - t). Early out: once a point with phi <= 0 is found it is
/// returned (the segment touches or crosses the shape).
ipcc_point_edge_distance_type ipcc_shape_edge_closest(const ipcc_shape *s, const double *x0, const double *x1,
                                                      double *t, double *phi);

/// The point sum_i w_i x_i of the triangle with the smallest signed
/// distance phi to shape s, and its closest feature (a vertex, an edge's
/// interior, the interior; edges as in ipcc_point_triangle_distance_type).
/// Early out at phi <= 0 as ipcc_shape_edge_closest.
ipcc_point_triangle_distance_type ipcc_shape_triangle_closest(const ipcc_shape *s, const double *x0,
                                                              const double *x1, const double *x2, double w[3],
                                                              double *phi);

/// D = max(phi, 0)^2 with phi the distance from the primitive of n = 2 or
/// 3 vertices x to shape s, its gradient g (3 n) and Hessian H (3 n x 3 n,
/// row-major, not projected) over the vertices, either may be NULL.
double ipcc_shape_primitive_distance2(const ipcc_shape *s, int n, const double *x, double *g, double *H);

#endif
