/// The simulation world: bodies, obstacles, boundary conditions, its start
/// and its step, and read-only views of its state.
///
/// Usage: fill an ipcc_world_def from ipcc_default_world_def() (the defs
/// and their defaults are in types.h), create the world, add bodies (each
/// an ipcc_body_def from ipcc_default_body_def()), obstacles and
/// conditions, call ipcc_world_start() once, then ipcc_world_step()
/// repeatedly. Defs are copied, never kept.
#ifndef IPCC_WORLD_H
#define IPCC_WORLD_H

#include <stdbool.h>

#include "ipcc/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ipcc_world ipcc_world;

/// Create an empty world. Fails with IPCC_ERR_INVALID_ARGUMENT naming the field.
IPCC_API ipcc_status ipcc_world_create(const ipcc_world_def *def, ipcc_world **out);

/// Add a body before the first step. *body_index (may be NULL) receives its index.
IPCC_API ipcc_status ipcc_world_add_body(ipcc_world *world, const ipcc_body_def *def, int *body_index);

/// Add a kinematic mesh obstacle, after every deformable body and before the
/// first step. It becomes a body whose vertices are all prescribed (zero
/// mass, no tets); *body_index (may be NULL) receives its body index.
IPCC_API ipcc_status ipcc_world_add_obstacle(ipcc_world *world, const ipcc_obstacle_def *def,
                                             int *body_index);

/// Add a static half-space obstacle before the first step; *half_space_index
/// (may be NULL) receives its index. Fails with IPCC_ERR_INVALID_ARGUMENT
/// for a non-finite point, normal or friction, or a zero normal.
IPCC_API ipcc_status ipcc_world_add_half_space(ipcc_world *world, const ipcc_half_space_def *def,
                                               int *half_space_index);

/// Add an analytic obstacle shape before the first step; *shape_index (may
/// be NULL) receives its index. Fails with IPCC_ERR_INVALID_ARGUMENT naming
/// the shape and the field (a non-positive or non-finite size, a torus with
/// r >= R, a rotation that is not a rotation, ...).
IPCC_API ipcc_status ipcc_world_add_shape(ipcc_world *world, const ipcc_shape_def *def, int *shape_index);

/// Finish setting up, once, after the last body, obstacle and shape and
/// before the first step: build the contact surfaces and check the initial
/// state. Bodies that intersect or touch each other or an obstacle fail
/// with IPCC_ERR_INFEASIBLE, naming the two bodies and a pair of
/// primitives; the world can then only be destroyed. A world without bodies
/// fails with IPCC_ERR_INVALID_ARGUMENT. Calling it again does nothing.
IPCC_API ipcc_status ipcc_world_start(ipcc_world *world);

/// Advance one time step of a started world (ipcc_world_start). IPCC_OK,
/// IPCC_WARN_NOT_CONVERGED (the state advanced with the last iterate), or a
/// negative status with the state unchanged: IPCC_ERR_INVALID_ARGUMENT for
/// a world not started. `stats` may be NULL.
IPCC_API ipcc_status ipcc_world_step(ipcc_world *world, ipcc_step_stats *stats);

/// Destroy. NULL is fine.
IPCC_API void ipcc_world_destroy(ipcc_world *world);

/// Replace the positions and/or the velocities of the world's vertices
/// between steps (3 * num_vertices each, xyz; NULL keeps that part; the
/// world is started first if it was not). The new state must be one a step
/// could start from, and is refused as a whole, the world unchanged, if:
/// a value is not finite or a velocity overflows the next step
/// (IPCC_ERR_INVALID_ARGUMENT); a vertex whose motion is prescribed (a
/// mesh obstacle's, or one of a Dirichlet condition active now) changes
/// (IPCC_ERR_INVALID_ARGUMENT); a tet is inverted or flat, or bodies
/// intersect or touch each other, a half-space or a shape, as the initial
/// state is checked (IPCC_ERR_INFEASIBLE; but a body face may lie as deep
/// in a sampled cylinder, ellipsoid or torus as a step may leave it,
/// 0.5 d̂). Messages start with "new state"
/// and name the body and the vertex, tet or primitives. Time, step count,
/// kappa and the last step's reported forces are kept; under Newmark the
/// free vertices' accelerations become those of the new positions, as at
/// t = 0 (unless they equal the current ones bit for bit: setting the
/// current state changes nothing).
IPCC_API ipcc_status ipcc_world_set_state(ipcc_world *world, const double *positions,
                                          const double *velocities);

/// Read-only views of the state. Arrays are 3 * num_vertices long (xyz), or
/// 4 * num_tets for tets; valid until the next step or destroy.
IPCC_API int ipcc_world_num_vertices(const ipcc_world *world);
IPCC_API int ipcc_world_num_tets(const ipcc_world *world);
IPCC_API int ipcc_world_num_bodies(const ipcc_world *world);
IPCC_API const double *ipcc_world_positions(const ipcc_world *world);
IPCC_API const double *ipcc_world_velocities(const ipcc_world *world);
IPCC_API const double *ipcc_world_rest_positions(const ipcc_world *world); ///< placed positions at t = 0
IPCC_API const double *ipcc_world_masses(const ipcc_world *world);         ///< lumped mass per vertex, kg
IPCC_API const int *ipcc_world_tets(const ipcc_world *world);
IPCC_API const int *ipcc_world_tet_bodies(const ipcc_world *world); ///< body index of each tet
/// Mesh region of each tet: its Gmsh physical group or TetGen region
/// attribute (ipcc_mesh.tet_regions), 0 = none.
IPCC_API const int *ipcc_world_tet_regions(const ipcc_world *world);
/// First vertex and vertex count of a body in the global arrays.
IPCC_API void ipcc_world_body_vertices(const ipcc_world *world, int body, int *first, int *count);
IPCC_API const char *ipcc_world_body_name(const ipcc_world *world, int body);
IPCC_API double ipcc_world_time(const ipcc_world *world);
IPCC_API int ipcc_world_step_count(const ipcc_world *world);
IPCC_API double ipcc_world_time_step(const ipcc_world *world);
/// L (metres): `length_scale` if set, else the diagonal of the bounding box
/// of the deformable bodies at t = 0.
IPCC_API double ipcc_world_bbox_diagonal(const ipcc_world *world);
/// The velocity error a converged step may leave, tol L (m/s): the Newton
/// tolerance of the last step taken (of the first before any), times L.
IPCC_API double ipcc_world_velocity_tolerance(const ipcc_world *world);
/// Total elastic (strain) energy of the current state, J (+inf if inverted).
IPCC_API double ipcc_world_elastic_energy(const ipcc_world *world);

/// The energies and momenta of the current state into *out. Sums run in
/// vertex (tet, constraint) order: the same for any thread count. The
/// barrier term searches the contacts at the current state afresh (as
/// ipcc_world_contacts() does), which changes no later step. Fails only
/// when out of memory (IPCC_ERR_NO_MEMORY; *out then holds every term but
/// the barrier, which is NaN).
IPCC_API ipcc_status ipcc_world_energies(const ipcc_world *world, ipcc_energies *out);
/// True if body b is a kinematic mesh obstacle (ipcc_world_add_obstacle).
IPCC_API bool ipcc_world_body_is_obstacle(const ipcc_world *world, int body);
/// The analytic shape whose sharp features body b is, else -1. From
/// ipcc_world_start(), each box's 12 edges and each cylinder's two rims are
/// a segment-set obstacle body the world adds after every other body
/// (named "<shape> (edges)" / "<shape> (rims)"); it is part of the shape,
/// not an obstacle of its own (the contact report counts it as the shape).
IPCC_API int ipcc_world_body_shape(const ipcc_world *world, int body);
/// Vertices of the deformable bodies: they come first, [0, count), before
/// every obstacle vertex.
IPCC_API int ipcc_world_num_deformable_vertices(const ipcc_world *world);
/// Boundary triangles of body b (global vertex indices, outward CCW for
/// deformable bodies; as read for obstacles). Valid for the world's life.
IPCC_API void ipcc_world_body_surface(const ipcc_world *world, int body, int *num_faces, const int **faces);
/// Boundary edges of body b (global vertex indices, two per edge; for a
/// segment-set obstacle, its segments). Valid for the world's life.
IPCC_API void ipcc_world_body_edges(const ipcc_world *world, int body, int *num_edges, const int **edges);
/// Number of half-spaces, and the point and unit normal of half-space i.
IPCC_API int ipcc_world_num_half_spaces(const ipcc_world *world);
IPCC_API void ipcc_world_half_space(const ipcc_world *world, int i, double point[3], double normal[3]);
/// Number of analytic shapes, and shape i: its definition (as added; the
/// name is never NULL) and its current pose (centre, row-major rotation whose
/// columns are the local axes). The pose follows the shape's motion; it may
/// lag behind the prescribed one when a body blocks it (like a mesh
/// obstacle's).
IPCC_API int ipcc_world_num_shapes(const ipcc_world *world);
IPCC_API const ipcc_shape_def *ipcc_world_shape_def(const ipcc_world *world, int i);
IPCC_API void ipcc_world_shape_pose(const ipcc_world *world, int i, double center[3], double rotation[9]);
/// Barrier contact force on each vertex at the end of the last step, N
/// (3 * num_vertices; zeros before the first step or without contact).
IPCC_API const double *ipcc_world_contact_forces(const ipcc_world *world);
/// Friction force on each vertex over the last step, N (3 * num_vertices).
IPCC_API const double *ipcc_world_friction_forces(const ipcc_world *world);
/// The activation distance d̂ in use (metres) and the current barrier stiffness.
IPCC_API double ipcc_world_dhat(const ipcc_world *world);
IPCC_API double ipcc_world_kappa(const ipcc_world *world);
/// After ipcc_world_start(): the range the adaptive barrier stiffness moves
/// in (both ends equal when contact.kappa fixes it). False without contact.
IPCC_API bool ipcc_world_kappa_bounds(const ipcc_world *world, double *kappa_min, double *kappa_max);
/// 1 if vertex i is currently prescribed by a Dirichlet condition.
IPCC_API bool ipcc_world_vertex_is_prescribed(const ipcc_world *world, int vertex);

/// A 64-bit fingerprint of the world's setup (vertex, tet and condition
/// counts, rest positions, tets, masses, time step and main parameters): two
/// worlds built from the same scene have the same fingerprint. A checkpoint
/// records it (checkpoint.h) and is restored only into a world that has it.
IPCC_API unsigned long long ipcc_world_fingerprint(const ipcc_world *world);

#ifdef __cplusplus
}
#endif
#endif
