/// Contact reports: every contact of a world's current state as a record
/// (where, between what, how close, with which normal and friction force),
/// and the total contact force on every body and obstacle. See
/// docs/output.md ("Contact reports") for the file the CLI writes from them.
///
/// Objects. A contact's two sides are named by unified object ids, one per
/// thing of the scene:
///   b                         body b (deformable bodies and mesh obstacles:
///                             the nb bodies that are no shape's features),
///   nb + h                    half-space h,
///   nb + num_half_spaces + s  analytic shape s, its sharp features included.
/// A box's edges and a cylinder's rims are a segment-set body the world adds
/// at start (ipcc_world_body_shape()); they are not objects of their own:
/// their contacts name the shape and their forces count as the shape's, so
/// a box is one object with one name and one force. The
/// ipcc_world_contact_object_of_*() functions map bodies, half-spaces and
/// shapes to their ids; ipcc_world_contact_object_name() names each.
#ifndef IPCC_CONTACT_REPORT_H
#define IPCC_CONTACT_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "ipcc/base.h"
#include "ipcc/world.h"

#ifdef __cplusplus
extern "C" {
#endif

/// What touches what, by the closest features of the two primitives.
typedef enum ipcc_contact_type {
    IPCC_CONTACT_POINT_TRIANGLE = 0,   ///< a vertex and a triangle's interior: [p, t0, t1, t2]
    IPCC_CONTACT_EDGE_EDGE = 1,        ///< two edges: [ea0, ea1, eb0, eb1]
    IPCC_CONTACT_POINT_EDGE = 2,       ///< a vertex and an edge's interior: [p, e0, e1]
    IPCC_CONTACT_POINT_POINT = 3,      ///< two vertices: [p, q]
    IPCC_CONTACT_POINT_HALF_SPACE = 4, ///< a vertex and a half-space: [p]
    IPCC_CONTACT_POINT_SHAPE = 5,      ///< a vertex and an analytic shape: [p]
    IPCC_CONTACT_TRIANGLE_SHAPE = 6,   ///< a triangle's interior and a shape: [t0, t1, t2] (a sphere's
                                       ///< nearest point, or a sample point against a cylinder,
                                       ///< ellipsoid or torus: point_a)
    IPCC_CONTACT_EDGE_SHAPE = 7,       ///< an edge's interior and a shape: [e0, e1] (likewise)
} ipcc_contact_type;

/// Number of contact types (for tables indexed by ipcc_contact_type).
#define IPCC_CONTACT_TYPE_COUNT 8

/// One contact. The first primitive ("a") is the vertex, or edge a; the
/// second ("b") the triangle, edge, vertex or obstacle it is near.
typedef struct ipcc_contact_record {
    ipcc_contact_type type; ///< what touches what (the closest features)
    int object_a, object_b; ///< unified object ids of the two sides (see the header's preamble)
    int vertices[4];        ///< world vertex indices, a's first (as listed in ipcc_contact_type); -1 unused
    double point_a[3];      ///< closest point on the first primitive, m
    double point_b[3];      ///< closest point on the second primitive (on a shape's exact surface), m
    double position[3];     ///< midpoint of point_a and point_b, m
    double normal[3];       ///< unit, from the second primitive towards the first: (point_a - point_b) /
                            ///< distance, but for a nearly parallel edge pair (within 1.8 degrees) the
                            ///< direction of its barrier force, which blends its ends' normals and need
                            ///< not be exactly along point_a - point_b (docs/design.md, "Nearly parallel
                            ///< edges")
    double distance;        ///< |point_a - point_b|, m
    double normal_force;    ///< barrier force, N: a is pushed along +normal, b along -normal (< 0 only for a
                            ///< key counting -1, in a concave valley: docs/design.md, "Multiplicities")
    double friction_force[3]; ///< friction force on a over the last step, N (b receives the opposite); 0
                              ///< without friction
    bool active; ///< within the barrier's reach (d̂) now; false for a friction contact of the last step
                 ///< that has since moved out of it (normal_force 0, its friction force still reported)
} ipcc_contact_record;

/// A reusable buffer of records. Create/destroy pair; destroy accepts NULL.
typedef struct ipcc_contact_report ipcc_contact_report;
/// A new, empty report into *out; IPCC_ERR_NO_MEMORY (and *out NULL) when
/// out of memory.
IPCC_API ipcc_status ipcc_contact_report_create(ipcc_contact_report **out);
IPCC_API void ipcc_contact_report_destroy(ipcc_contact_report *report);

/// The contacts of w's current state into `report`: every active barrier
/// constraint (within d̂, found by a fresh candidate search) with its
/// barrier force at the current stiffness, and every friction contact of
/// the last step with its friction force at the current state (matched to
/// its constraint by type, vertices, obstacle and sample point; one no longer active is
/// still listed, see `active`). *count (may be NULL) receives the number of
/// records and *records (may be NULL) points at them, valid until the next
/// call with this report or its destruction. IPCC_OK, or IPCC_ERR_NO_MEMORY
/// (with no records) when out of memory. Before ipcc_world_start()
/// or without contact there are none; before the first step the stiffness
/// may still be 0 (normal forces 0). The sum of normal_force * normal over
/// the records of a body equals its barrier force (ipcc_world_contact_forces
/// summed over its vertices), nearly parallel edge-edge pairs included
/// (whose force is along their normal by its definition above).
IPCC_API ipcc_status ipcc_world_contacts(const ipcc_world *world, ipcc_contact_report *report,
                                         const ipcc_contact_record **records, int *count);

/// Objects a contact can name: bodies (without the shapes' feature bodies)
/// + half-spaces + shapes. The same before and after ipcc_world_start().
IPCC_API int ipcc_world_num_contact_objects(const ipcc_world *world);

/// The object id of body b (0 <= b < ipcc_world_num_bodies()): b itself,
/// or, for an analytic shape's feature body (ipcc_world_body_shape() >= 0),
/// the shape's id.
IPCC_API int ipcc_world_contact_object_of_body(const ipcc_world *world, int body);
/// The object id of half-space h.
IPCC_API int ipcc_world_contact_object_of_half_space(const ipcc_world *world, int half_space);
/// The object id of analytic shape s.
IPCC_API int ipcc_world_contact_object_of_shape(const ipcc_world *world, int shape);

/// The name of object `id` into buf (snprintf's rules: truncated to size - 1
/// bytes and NUL-terminated; buf may be NULL when size is 0): a body's name,
/// a half-space's name (ipcc_half_space_def.name; "half-space <h>" for an
/// unnamed half-space h), a shape's name (a box's, never "<box> (edges)").
/// Returns the length of the full name.
IPCC_API int ipcc_world_contact_object_name(const ipcc_world *world, int id, char *buf, size_t size);

/// "point-triangle", "edge-edge", "point-edge", "point-point",
/// "point-half-space", "point-shape", "triangle-shape", "edge-shape" (one per
/// ipcc_contact_type, IPCC_CONTACT_TYPE_COUNT in all); "unknown" for
/// anything else.
IPCC_API const char *ipcc_contact_type_name(ipcc_contact_type type);

/// Total contact force (barrier + friction, N) on every object of w, 3 per
/// object (ipcc_world_num_contact_objects() of them, xyz): for a body the
/// sum of ipcc_world_contact_forces() and ipcc_world_friction_forces() over
/// its vertices; for a half-space the opposite of the forces its contacts in
/// `report` exert on the bodies; for a shape the same, plus the per-vertex
/// forces on its feature body (a box's edges, a cylinder's rims). `report` must hold
/// ipcc_world_contacts() of the current state (it is not read when the world
/// has no half-space and no shape). Over all objects the forces sum to zero
/// (every contact force has its reaction), up to rounding.
IPCC_API void ipcc_contact_report_object_forces(const ipcc_contact_report *report, const ipcc_world *world,
                                                double *forces);

#ifdef __cplusplus
}
#endif
#endif
