/// Analytic collision shapes: exact signed distance, closest surface point
/// and outward normal (shape.c). Issue 8's kinematic obstacles act on these
/// distances, not on a tessellation.
#ifndef IPCC_SHAPE_H
#define IPCC_SHAPE_H

#include <stdbool.h>

#include "shape/height_field.h"
#include "ipcc/world.h"

typedef struct ipcc_shape {
    ipcc_shape_kind kind;
    double center[3];   ///< world position of the local origin
    double rotation[9]; ///< row-major; its columns are the local axes in world coordinates
    double size[3];     ///< see ipcc_shape_kind (all > 0)
    const ipcc_height_field
        *field; ///< IPCC_SHAPE_HEIGHT_FIELD: the grid (shared, the world owns it); else NULL
} ipcc_shape;

/// The kind's name as the scene format spells it ("sphere", "box",
/// "cylinder", "ellipsoid", "torus", "height_field"; a plane is "moving
/// half-space", a "half_space" entry with a velocity); NULL for a value
/// that is no kind.
const char *ipcc_shape_kind_name(ipcc_shape_kind kind);

/// Local coordinates q = R^T (x - c) of the world point x.
void ipcc_shape_to_local(const ipcc_shape *s, const double x[3], double q[3]);
/// The world point x = c + R q of local coordinates q.
void ipcc_shape_to_world(const ipcc_shape *s, const double q[3], double x[3]);
/// Velocity v + w x (x - c) of the point x of a rigid body whose centre c
/// moves at v and which turns at w (rad/s) about it.
void ipcc_shape_point_velocity(const double v[3], const double w[3], const double c[3], const double x[3],
                               double out[3]);

/// Signed distance from x to the shape's surface (negative inside), the
/// closest surface point and the outward unit normal there (either may be
/// NULL). |x - closest| equals |distance| up to rounding.
double ipcc_shape_distance(const ipcc_shape *s, const double x[3], double closest[3], double normal[3]);

/// ipcc_shape_distance when it is below r, else some value >= r (and no
/// larger than the distance): for culls, cheap where the shape allows (a
/// height field's far cells are not searched).
double ipcc_shape_distance_bounded(const ipcc_shape *s, const double x[3], double r);

/// Hessian (3x3, row-major) of max(distance, 0)^2 at x, for x outside the
/// shape (its gradient is 2 distance normal). Exact per region of the
/// closest feature; see shape.c for the formulas.
void ipcc_shape_distance2_hessian(const ipcc_shape *s, const double x[3], double H[9]);

/// Whether the solid is convex, so its signed distance is convex (and C^1
/// outside): every kind but the torus and the height field.
bool ipcc_shape_convex(ipcc_shape_kind kind);

/// Least radius of curvature of the smooth curved part that meets body
/// vertices and the sample points of body edges and faces (constraint_set.h):
/// a cylinder's radius, a torus' tube radius, an ellipsoid's c^2 / a (c its
/// shortest semi-axis, a its longest), a height field's estimate
/// (height_field.h). 0 for the kinds that are exact against whole body
/// triangles (sphere, box) or flat (plane).
double ipcc_shape_least_radius(const ipcc_shape *s);

/// Shrinks a cylinder, ellipsoid or torus in place by `depth` (its radius and
/// half-height, its semi-axes, its tube radius; depth below half its least
/// size) so that it holds every point at least `depth` inside the original
/// (shape.c); a point outside the result is at most `depth` inside s, and
/// every point of s's surface is within depth of the result (depth sqrt 2
/// at a cylinder's rims; shape_ccd.c).
void ipcc_shape_inset(ipcc_shape *s, double depth);

/// Radius of a sphere about the centre that holds the shape.
double ipcc_shape_bounding_radius(const ipcc_shape *s);

/// The pose `start` moved rigidly by s in [0, 1] of a step's motion: centre
/// + s vh, rotation exp(s [wh]x) R (vh, wh: the step's translation and
/// rotation vector).
void ipcc_shape_moved(const ipcc_shape *start, const double vh[3], const double wh[3], double s,
                      ipcc_shape *out);

/// A shape's motion over one time step (world_shapes.c keeps one per shape;
/// the contact and friction layers receive them in the step context,
/// step_context.h): its pose at the step's start, its constant velocity and
/// angular velocity, and the step's translation and rotation vector.
typedef struct ipcc_shape_motion {
    ipcc_shape start;           ///< pose at the step's start
    double velocity[3];         ///< of the centre, m/s
    double angular_velocity[3]; ///< about the centre, rad/s
    double vh[3];               ///< the step's translation h velocity, m
    double wh[3];               ///< the step's rotation vector h angular_velocity, rad
} ipcc_shape_motion;

/// The pose at progress s in [0, 1] of the step (ipcc_shape_moved of the
/// start pose by vh, wh).
void ipcc_shape_motion_at(const ipcc_shape_motion *m, double s, ipcc_shape *out);

#endif
