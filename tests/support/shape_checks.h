/// Bodies against analytic shapes, for the shape tests (shape_checks.c).
#ifndef IPCC_TEST_SHAPE_CHECKS_H
#define IPCC_TEST_SHAPE_CHECKS_H

#include <stdbool.h>

#include "ipcc/ipcc.h"
#include "shape/shape.h"

/// Shape i of w at its pose now.
ipcc_shape ipcc_test_shape_now(const ipcc_world *w, int i);
/// Whether p lies strictly inside the tet T of positions x (exact orientations).
bool ipcc_test_strictly_inside_tet(const double *x, const int *T, const double p[3]);
/// Distance from p to the nearest surface triangle of w's deformable bodies:
/// for a point inside a body, its depth.
double ipcc_test_surface_distance(const ipcc_world *w, const double p[3]);
/// Least signed distance from the deformable bodies' surface triangles to
/// shape s (shape_primitive.c), for the curved kinds and the sphere.
double ipcc_test_least_face_distance(const ipcc_world *w, const ipcc_shape *s);
/// Least signed distance to shape s (any kind) over the points of a
/// barycentric grid of `grid` subdivisions per edge (vertices and edge
/// points included) on every surface triangle of w's deformable bodies.
double ipcc_test_least_grid_distance(const ipcc_world *w, const ipcc_shape *s, int grid);

#endif
