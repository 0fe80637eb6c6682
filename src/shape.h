/// Analytic collision shapes: exact signed distance, closest surface point
/// and outward normal (shape.c). Issue 8's kinematic obstacles act on these
/// distances, not on a tessellation.
#ifndef IPCC_SHAPE_H
#define IPCC_SHAPE_H

typedef enum ipcc_shape_kind {
    IPCC_SHAPE_SPHERE,    ///< size[0] = radius
    IPCC_SHAPE_BOX,       ///< size = half-extents along the local axes
    IPCC_SHAPE_CYLINDER,  ///< capped, axis = local z: size[0] = radius, size[1] = half-length
    IPCC_SHAPE_ELLIPSOID, ///< size = semi-axes along the local axes
    IPCC_SHAPE_TORUS,     ///< axis = local z: size[0] = major radius R, size[1] = minor radius r < R
} ipcc_shape_kind;

typedef struct ipcc_shape {
    ipcc_shape_kind kind;
    double center[3];   ///< world position of the local origin
    double rotation[9]; ///< row-major; its columns are the local axes in world coordinates
    double size[3];     ///< see ipcc_shape_kind (all > 0)
} ipcc_shape;

/// Signed distance from x to the shape's surface (negative inside), the
/// closest surface point and the outward unit normal there (either may be
/// NULL). |x - closest| equals |distance| up to rounding.
double ipcc_shape_distance(const ipcc_shape *s, const double x[3], double closest[3], double normal[3]);

#endif
