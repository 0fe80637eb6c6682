/// The simulation world: bodies, materials, boundary conditions and the step.
///
/// Usage: fill an ipcc_world_def from ipcc_default_world_def(), create the
/// world, add bodies (each an ipcc_body_def from ipcc_default_body_def()),
/// then call ipcc_world_step() repeatedly. Defs are copied, never kept.
///
/// Every def starts from its ipcc_default_*() function, which also sets its
/// `internal_value`: a function taking a def asserts it (IPCC_ASSERT, see
/// ipcc_set_assert()), so a zeroed or uninitialised def is caught, naming
/// the default function, instead of failing on (or silently using) fields
/// the caller never set.
#ifndef IPCC_WORLD_H
#define IPCC_WORLD_H

#include <stdbool.h>

#include "ipcc/base.h"
#include "ipcc/elastic.h"
#include "ipcc/mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Time integrators.
typedef enum ipcc_integrator {
    IPCC_IMPLICIT_EULER = 0, ///< backward Euler (dissipative, very stable)
    IPCC_NEWMARK = 1,        ///< implicit Newmark, beta = 1/4, gamma = 1/2 (energy-preserving)
    IPCC_STATIC = 2,         ///< no inertia: each step solves for static equilibrium
} ipcc_integrator;

/// Material parameters, part of a body def (ipcc_default_material()).
typedef struct ipcc_material {
    ipcc_material_model model; ///< constitutive model (IPCC_NEO_HOOKEAN)
    double density;            ///< kg/m^3, > 0 (1000)
    double youngs_modulus;     ///< Pa, > 0 (1e5)
    double poisson_ratio;      ///< in [0, 0.5) (0.4)
} ipcc_material;

/// A scripted stop for a prescribed motion: at the start of each step the
/// measure (the min or max of one coordinate over a range of world
/// vertices) is compared with a value; once it fires, the motion stops for
/// good (held in place, or released). Used for IPC's stateful script presets
/// (docs/ipc-compatibility.md); axis = -1 (the default) never fires.
typedef struct ipcc_stop_trigger {
    int axis;         ///< -1 = never; 0, 1, 2 = the x, y or z coordinate is measured
    int first_vertex; ///< world vertex range measured: [first_vertex, first_vertex + num_vertices)
    int num_vertices; ///< >= 1 when axis >= 0
    bool measure_max; ///< measure the max of the coordinate over the range (else the min)
    bool above;       ///< fire when measure > value (else when measure < value)
    double value;     ///< m
    bool release;     ///< on firing: the vertices become free (else they are held where they are)
} ipcc_stop_trigger;

/// Dirichlet (prescribed-motion) condition on a body's vertices.
/// Initialise with ipcc_default_dirichlet_def().
typedef struct ipcc_dirichlet_def {
    double box_min[3];          ///< selection box, min corner, in normalized body bbox coordinates (0..1)
    double box_max[3];          ///< selection box, max corner (inclusive)
    int num_vertices;           ///< > 0: select these body-local vertex indices instead of the box
    const int *vertices;        ///< num_vertices body-local indices (copied)
    double velocity[3];         ///< prescribed linear velocity, m/s
    double angular_velocity[3]; ///< prescribed angular velocity, rad/s, about the pivot
    bool has_pivot;             ///< rotate about `pivot` (else about the selected vertices' centroid)
    double
        pivot[3]; ///< m, the rotation centre at t = 0; it moves with `velocity` while the condition is active
    double start; ///< s, condition active for start <= t < end
    double end;   ///< s; afterwards the vertices are free (1e30 = forever)
    ipcc_stop_trigger stop; ///< optional scripted stop (axis = -1: none)
    int internal_value;     ///< internal: set by ipcc_default_dirichlet_def(), do not set
} ipcc_dirichlet_def;

/// Neumann condition: a body force on selected vertices, given as an
/// acceleration (each selected vertex i receives m_i * acceleration, as in
/// IPC's NBC), while start <= t < end. Prescribed vertices ignore it.
/// Initialise with ipcc_default_neumann_def().
typedef struct ipcc_neumann_def {
    double box_min[3];      ///< selection box, normalized body bbox coordinates (inclusive) ({0, 0, 0})
    double box_max[3];      ///< max corner ({1, 1, 1}: the whole body)
    int num_vertices;       ///< > 0: select these body-local vertex indices instead of the box
    const int *vertices;    ///< copied
    double acceleration[3]; ///< m/s^2 ({0, 0, 0})
    double start, end;      ///< s, active for start <= t < end (0 and 1e30 = forever)
    int internal_value;     ///< internal: set by ipcc_default_neumann_def(), do not set
} ipcc_neumann_def;

/// A deformable body. Initialise with ipcc_default_body_def().
typedef struct ipcc_body_def {
    const char *name;               ///< used in messages; copied (may be NULL)
    const ipcc_mesh *mesh;          ///< rest mesh; copied, the caller keeps ownership
    ipcc_material material;         ///< material of every tet that `tet_materials` leaves at -1
    int num_materials;              ///< entries in `materials` (0: every tet takes `material`)
    const ipcc_material *materials; ///< per-tet materials (e.g. one per mesh region); copied
    const int *tet_materials;   ///< num_tets indices into `materials`, -1: `material`; copied (NULL: all -1)
    double translation[3];      ///< m, applied last
    double rotation[3];         ///< degrees about x, then y, then z, around the mesh bbox centre
    double scale[3];            ///< per-axis factors about the mesh bbox centre, > 0
    bool use_transform;         ///< place with `transform` instead of scale/rotation/translation
    double transform[12];       ///< 3x4 row-major affine map of the file's coordinates, det > 0
    double velocity[3];         ///< initial velocity, m/s
    double angular_velocity[3]; ///< initial angular velocity, rad/s, about the centre of mass
    bool has_velocity_pivot;    ///< the initial angular velocity turns about velocity_pivot instead
    double velocity_pivot[3];   ///< m
    double friction;            ///< Coulomb friction coefficient of the body's surface (0)
    int num_dirichlet;          ///< number of entries in dirichlet
    const ipcc_dirichlet_def
        *dirichlet;                  ///< copied; a vertex in several conditions takes the first active one
    int num_neumann;                 ///< number of entries in neumann
    const ipcc_neumann_def *neumann; ///< copied; forces of several conditions add up
    int internal_value;              ///< internal: set by ipcc_default_body_def(), do not set
} ipcc_body_def;

/// Contact (IPC barrier) parameters.
typedef struct ipcc_contact_def {
    bool enabled;        ///< barrier contact and CCD on (true)
    double dhat;         ///< activation distance d̂, metres; 0 = 1e-3 * L (L = bbox diagonal of the bodies)
    double kappa;        ///< barrier stiffness; 0 = adaptive (IPC's initial balance + doubling)
    bool self_collision; ///< contact between parts of the same body (true)
    double friction; ///< Coulomb coefficient for every pair, overriding the bodies' own; < 0 = use them (-1)
    double friction_epsv;           ///< friction's velocity threshold eps_v, m/s; 0 = 1e-4 * L per second
    int friction_iterations;        ///< lagging passes: n >= 1 passes, or -1 (default) = until a pass starts
                                    ///< converged with friction lagged at its own start (at most 20)
    double friction_smoothing_time; ///< s: the static-friction smoothing length is eps_v times this;
                                    ///< 0 = the time step h (IPC's intent); IPC's code uses 0.025 s
} ipcc_contact_def;

/// World parameters. Initialise with ipcc_default_world_def().
typedef struct ipcc_world_def {
    double time_step;           ///< h, seconds (0.01)
    double gravity[3];          ///< m/s^2 ({0, -9.81, 0})
    ipcc_integrator integrator; ///< IPCC_IMPLICIT_EULER
    double newton_tolerance; ///< converged when |p|_inf <= tol * L * h; L = bbox diagonal, h = 1 s for static
                             ///< (1e-2, as IPC)
    int newton_max_iterations; ///< a step that needs more returns IPCC_WARN_NOT_CONVERGED (1000)
    /// Converged also needs the force residual (ipcc_step_stats.velocity_error)
    /// within tol L, not only |p|_inf within tol L h (true; false is IPC's
    /// test). See docs/design.md, "When a step is converged".
    bool newton_check_forces;
    bool project_hessian;     ///< project element Hessians to PSD (true)
    ipcc_contact_def contact; ///< barrier contact (enabled, adaptive kappa, d̂ = 1e-3 L)
    int num_tolerances;       ///< > 0: step n (0-based) uses tolerances[min(n, num_tolerances - 1)]
    const double *tolerances; ///< relative Newton tolerances per step, as newton_tolerance (copied)
    double length_scale;      ///< L, metres; 0 = the bbox diagonal of the deformable bodies at t = 0
    double damping;           ///< stiffness-proportional (Rayleigh) damping beta, s: force -beta K(x_n) v (0)
    double newmark_beta;      ///< Newmark beta in (0, 0.5] (0.25)
    double newmark_gamma;     ///< Newmark gamma in [0.5, 1] (0.5)
    int internal_value;       ///< internal: set by ipcc_default_world_def(), do not set
} ipcc_world_def;

typedef struct ipcc_trimesh ipcc_trimesh; // mesh.h

/// A kinematic obstacle: a triangle mesh, or a codimensional set of segments
/// (mesh with edges and no faces) or points (no faces, no edges). It moves
/// by its prescribed rigid motion and pushes bodies through the barrier;
/// nothing pushes it. Segments meet bodies' edges (edge-edge) and points
/// meet bodies' triangles (point-triangle), never other obstacles.
/// Initialise with ipcc_default_obstacle_def().
typedef struct ipcc_obstacle_def {
    const char *name;           ///< used in messages; copied (may be NULL)
    const ipcc_trimesh *mesh;   ///< copied; the caller keeps ownership
    double translation[3];      ///< m, applied last
    double rotation[3];         ///< degrees about x, then y, then z, around the mesh bbox centre
    double scale[3];            ///< per-axis factors about the mesh bbox centre, > 0 ({1, 1, 1})
    bool use_transform;         ///< place with `transform` instead of scale/rotation/translation
    double transform[12];       ///< 3x4 row-major affine map of the file's coordinates
    double velocity[3];         ///< m/s
    double angular_velocity[3]; ///< rad/s, about the pivot
    bool has_pivot;             ///< rotate about `pivot` (else about the centroid of its vertices)
    double pivot[3];            ///< m, the rotation centre at t = 0 (it moves with `velocity`)
    ipcc_stop_trigger stop;     ///< optional scripted stop of the motion (axis = -1: none)
    double friction;            ///< Coulomb friction coefficient of its surface (0)
    int internal_value;         ///< internal: set by ipcc_default_obstacle_def(), do not set
} ipcc_obstacle_def;

/// Analytic obstacle shapes (ipcc_world_add_shape). Each is given in its
/// local frame: centre at the origin, axes the columns of `rotation`.
typedef enum ipcc_shape_kind {
    IPCC_SHAPE_SPHERE,    ///< size[0] = radius
    IPCC_SHAPE_BOX,       ///< size = half-extents along the local axes
    IPCC_SHAPE_CYLINDER,  ///< capped, axis = local z: size[0] = radius, size[1] = half-length
    IPCC_SHAPE_ELLIPSOID, ///< size = semi-axes along the local axes
    IPCC_SHAPE_TORUS,     ///< axis = local z: size[0] = major radius R, size[1] = minor radius r < R
    IPCC_SHAPE_PLANE,     ///< a moving half-space: free space is local z > 0, the normal is local z; no size
    /// Terrain z = h(x, y) in the local frame, free space above: `heights`
    /// (rows x cols, row-major) sampled at x = (c - (cols - 1) / 2) spacing[0],
    /// y = (r - (rows - 1) / 2) spacing[1] (the centre is the grid's middle at
    /// height 0), h between the samples C^1 bicubic (Hermite patches with
    /// finite-difference slopes; a linear grid gives its plane exactly), and
    /// beyond the grid h(clamp x, clamp y): the border extruded outwards. No size.
    IPCC_SHAPE_HEIGHT_FIELD,
} ipcc_shape_kind;

/// An analytic kinematic obstacle: a rigid shape moving with constant linear
/// and angular velocity. Bodies' surface vertices feel a barrier on their
/// exact distance to it (docs/design.md, "Analytic obstacles").
/// Initialise with ipcc_default_shape_def().
typedef struct ipcc_shape_def {
    const char *name;           ///< used in messages; copied (may be NULL: "shape <i>")
    ipcc_shape_kind kind;       ///< IPCC_SHAPE_SPHERE
    double center[3];           ///< m, at t = 0
    double rotation[9];         ///< row-major, orthonormal, det +1; its columns are the local axes (identity)
    double size[3];             ///< m, see ipcc_shape_kind; unused entries ignored ({1, 1, 1})
    double velocity[3];         ///< m/s, of the centre
    double angular_velocity[3]; ///< rad/s, about the centre
    double friction;            ///< Coulomb coefficient; < 0: not set (contact.friction, or 0) (-1)
    /// IPCC_SHAPE_HEIGHT_FIELD only: rows x cols heights (m), row-major, row r
    /// at local y = (r - (rows - 1) / 2) spacing[1]; copied by
    /// ipcc_world_add_shape (at least 4 x 4, finite) (NULL)
    const double *heights;
    int rows, cols;    ///< IPCC_SHAPE_HEIGHT_FIELD: grid size (0, 0)
    double spacing[2]; ///< IPCC_SHAPE_HEIGHT_FIELD: sample spacing along local x and y, m, > 0 ({1, 1})
    /// Sample points of the bodies' edges and faces against this shape, so
    /// that faces do not sink into it between their vertices (docs/design.md,
    /// "Analytic obstacles"): -1 the kind's default, on for a cylinder,
    /// ellipsoid or torus and off for a height field; 0 off (body vertices
    /// only); 1 on. Spheres, boxes and planes are exact against whole faces
    /// and take only -1. (-1)
    int face_samples;
    int internal_value; ///< internal: set by ipcc_default_shape_def(), do not set
} ipcc_shape_def;

/// A static half-space obstacle {x : (x - point) . normal >= 0} is free
/// space; bodies are kept on that side. Initialise with
/// ipcc_default_half_space_def().
typedef struct ipcc_half_space_def {
    double point[3];    ///< m, a point of the boundary plane ({0, 0, 0})
    double normal[3];   ///< towards free space; any non-zero length ({0, 1, 0})
    double friction;    ///< Coulomb coefficient (>= 0): with contact.friction >= 0 it applies to its
                        ///< contacts as is (IPC's rule), else it is mixed with the body's by the
                        ///< geometric mean; < 0: not set (contact.friction, or 0) (-1)
    const char *name;   ///< used in messages, reports and stats.csv; copied (NULL: "half-space <i>")
    int internal_value; ///< internal: set by ipcc_default_half_space_def(), do not set
} ipcc_half_space_def;

/// Statistics of one step.
typedef struct ipcc_step_stats {
    int step;                    ///< index of the step just taken (1-based)
    double time;                 ///< simulated time at the end of the step, s
    int newton_iterations;       ///< Newton iterations used
    int line_search_steps;       ///< total backtracking evaluations
    int factorization_fallbacks; ///< times the Hessian had to be shifted
    double energy;               ///< incremental potential at the solution, J
    double residual;             ///< |p|_inf of the last Newton direction, m
    /// Accuracy: the largest velocity change the state's unbalanced force
    /// would give a free vertex over the step, h |g_i| / (s m_i), m/s
    /// (docs/output.md). A converged step has it <= ipcc_world_velocity_tolerance
    /// (or is at the energy's rounding floor).
    double velocity_error;
    bool converged;       ///< false if the step ended unconverged (max_iterations, a stall, no decrease left)
    double time_assembly; ///< wall seconds spent in energy/gradient/Hessian and assembly
    double time_factorization;     ///< wall seconds in symbolic + numeric factorization (see time_symbolic)
    double time_solve;             ///< wall seconds in triangular solves
    double time_line_search;       ///< wall seconds in the line search (incl. step filters)
    double time_total;             ///< wall seconds of the whole step
    int lift_iterations;           ///< Newton iterations spent moving prescribed vertices to their targets
    int num_contacts;              ///< active barrier constraints at the end of the step
    double min_distance;           ///< smallest contact distance at the end of the step, m (inf if none)
    double kappa;                  ///< barrier stiffness used in the step (0 if no contact yet)
    double time_ccd;               ///< wall seconds in continuous collision detection
    double time_broad_phase;       ///< wall seconds in candidate search (broad phase)
    int friction_iterations;       ///< lagging passes used (0 without friction)
    int friction_contacts;         ///< contacts with friction in the last pass
    double friction_dissipation;   ///< energy dissipated by friction over the step, J
    double time_symbolic;          ///< wall seconds in symbolic analysis (a part of time_factorization)
    double time_constraint_search; ///< wall seconds building constraint sets from candidates
    double time_energy;            ///< wall seconds in the line search's trial energies (part of it)
} ipcc_step_stats;

typedef struct ipcc_world ipcc_world;

/// Defaults (src/base/types.c): the values in parentheses above. Every def must
/// start from its function (see `internal_value`).
IPCC_API ipcc_world_def ipcc_default_world_def(void);
IPCC_API ipcc_material ipcc_default_material(void);
IPCC_API ipcc_body_def ipcc_default_body_def(void);
/// The whole body, from t = 0 for ever, no motion, no stop trigger.
IPCC_API ipcc_dirichlet_def ipcc_default_dirichlet_def(void);
/// The whole body, from t = 0 for ever, zero acceleration.
IPCC_API ipcc_neumann_def ipcc_default_neumann_def(void);
IPCC_API ipcc_obstacle_def ipcc_default_obstacle_def(void);
IPCC_API ipcc_half_space_def ipcc_default_half_space_def(void);
IPCC_API ipcc_shape_def ipcc_default_shape_def(void);

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

/// Finish setting up (done by the first step if not called): build the
/// contact surfaces and check the initial state. Bodies that intersect or
/// touch each other or an obstacle fail with IPCC_ERR_INFEASIBLE, naming the
/// two bodies and a pair of primitives; the world can then only be destroyed.
IPCC_API ipcc_status ipcc_world_start(ipcc_world *world);

/// Advance one time step. IPCC_OK, IPCC_WARN_NOT_CONVERGED (the state advanced
/// with the last iterate), or a negative status with the state unchanged.
/// `stats` may be NULL.
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

/// Energies and momenta of a world's current state (ipcc_world_energies).
/// Sums over the deformable bodies' vertices with their lumped masses m_i,
/// positions x_i and velocities v_i; mesh obstacles, half-spaces and shapes
/// are kinematic (zero mass, prescribed motion) and take no part, except
/// through the barrier. Their sum kinetic + elastic + gravitational +
/// barrier is what an integrator without damping or friction would keep
/// constant (docs/output.md, "stats.csv").
typedef struct ipcc_energies {
    double kinetic;       ///< 1/2 sum_i m_i |v_i|^2, J
    double elastic;       ///< strain energy, as ipcc_world_elastic_energy(), J (+inf if inverted)
    double gravitational; ///< -sum_i m_i g . x_i, J (0 for a body at the origin)
    /// The contact potential kappa sum_k b(d_k) / s over the constraints
    /// within d̂ (s: h^2 for implicit Euler, beta h^2 for Newmark, 1 for
    /// static, so that its gradient is ipcc_world_contact_forces()), J; 0
    /// without contact; > 0 exactly when some constraint is within d̂.
    double barrier;
    double linear_momentum[3];  ///< sum_i m_i v_i, kg m/s
    double angular_momentum[3]; ///< sum_i x_i x m_i v_i, about the origin, kg m^2/s
} ipcc_energies;

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

#ifdef __cplusplus
}
#endif
#endif
