/// Triangle meshes of the analytic shapes (shape_mesh.c), for viewing only:
/// the barrier acts on the exact shapes (shape.h), never on these.
#ifndef IPCC_SHAPE_MESH_H
#define IPCC_SHAPE_MESH_H

#include "shape/shape.h"

/// Default resolution of the frames' shape surfaces: segments around a
/// circle (sphere and ellipsoid parallels, cylinder rims, torus' major
/// circle) and along a meridian (sphere and ellipsoid pole to pole, torus'
/// minor circle).
#define IPCC_SHAPE_MESH_AROUND 48
#define IPCC_SHAPE_MESH_ALONG 24

/// Points and triangles of the tessellation of a shape of `kind` at
/// resolution (around >= 3, along >= 2; along is unused by boxes and
/// cylinders, around by boxes).
/// A height field's count depends on its grid (0 here: use ipcc_shape_mesh_count).
void ipcc_shape_mesh_size(ipcc_shape_kind kind, int around, int along, int *num_points, int *num_triangles);
/// ipcc_shape_mesh_size of shape s (any kind, height fields included).
void ipcc_shape_mesh_count(const ipcc_shape *s, int around, int along, int *num_points, int *num_triangles);

/// Tessellate shape s at its pose: `points` (3 * num_points) on the exact
/// surface, `triangles` (3 * num_triangles) counter-clockwise seen from
/// outside, each index plus `offset` (to append to a larger mesh). The mesh
/// is closed and every edge is shared by exactly two triangles in opposite
/// directions. Sphere and ellipsoid: a UV sphere (two poles, along - 1
/// parallels of `around` points); box: its 8 corners, 2 triangles per face;
/// cylinder: the two rims and the caps' centres (fans on the caps, one band
/// of quads on the side); torus: an around x along grid. A plane (a square)
/// and a height field (its grid's rectangle, 3 x 3 quads per cell, seen
/// counter-clockwise from +z) are open.
void ipcc_shape_mesh(const ipcc_shape *s, int around, int along, double *points, int *triangles, int offset);

#endif
