/// Continuous collision detection against analytic shapes (shape_ccd.c):
/// conservative times of impact of a point, an edge or a triangle moving
/// linearly against a shape in screw motion (shape.h), by conservative
/// advancement on the shape's 1-Lipschitz signed distance; shape_ccd.c has
/// the method and its bounds. Private to the library.
#ifndef IPCC_SHAPE_CCD_H
#define IPCC_SHAPE_CCD_H

#include "shape/shape.h"

/// Conservative time of impact t in [0, 1] of a point moving linearly
/// x0 -> x1 against a shape moving from pose(s0) to pose(s1) (pose(s) =
/// ipcc_shape_moved(start, vh, wh, s), s linear in t): the shape and the
/// point stay at a positive distance on [0, t]; 1 if they never meet. 0 if
/// the point starts on or inside the shape.
double ipcc_shape_ccd(const ipcc_shape *start, const double vh[3], const double wh[3], double s0, double s1,
                      const double x0[3], const double x1[3]);

/// ipcc_shape_ccd for a primitive of n = 2 (edge) or 3 (triangle) vertices
/// moving linearly x0 -> x1 (3 n coordinates each), its distance the least
/// over its points (shape_primitive.h). The same guarantee: the primitive
/// and the shape stay apart on [0, t].
double ipcc_shape_primitive_ccd(const ipcc_shape *start, const double vh[3], const double wh[3], double s0,
                                double s1, int n, const double *x0, const double *x1);

/// The earliest of: ipcc_shape_primitive_ccd of the primitive against the
/// shape inset by `depth` (ipcc_shape_inset; none when depth is 0 or the
/// shape is a height field), and ipcc_shape_ccd of m points on it, point k
/// at barycentric weights w[n k .. n k + n - 1]. Nothing is advanced when
/// the primitive's least distance at the start exceeds what its points can
/// move.
double ipcc_shape_primitive_points_ccd(const ipcc_shape *start, double depth, const double vh[3],
                                       const double wh[3], double s0, double s1, int n, const double *x0,
                                       const double *x1, int m, const double *w);

#endif
