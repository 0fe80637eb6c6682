/// The public types of ipcc in one place (as Box2D's types.h): the
/// integrators, materials, the defs a world and its bodies, conditions,
/// obstacles and shapes are made from, with their defaults, and the value
/// types a world fills in (step statistics, energies). The functions that
/// take them are declared with their objects (world.h, scene.h, ...).
///
/// Every def starts from its ipcc_default_*() function (src/base/types.c),
/// which also sets its `internal_value`: a function taking a def asserts it
/// (IPCC_ASSERT, see ipcc_set_assert()), so a zeroed or uninitialised def
/// is caught, naming the default function, instead of failing on (or
/// silently using) fields the caller never set.
#ifndef IPCC_TYPES_H
#define IPCC_TYPES_H

#include <stdbool.h>
#include <stddef.h>

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

/// The most times a step can be halved (ipcc_world_def.newton_max_splits).
#define IPCC_MAX_SPLITS 10

/// World parameters. Initialise with ipcc_default_world_def().
typedef struct ipcc_world_def {
    double time_step;           ///< h, seconds (0.01)
    double gravity[3];          ///< m/s^2 ({0, -9.81, 0})
    ipcc_integrator integrator; ///< IPCC_IMPLICIT_EULER
    double newton_tolerance; ///< converged when |p|_inf <= tol * L * h; L = bbox diagonal, h = 1 s for static
                             ///< (1e-2, as IPC)
    int newton_max_iterations; ///< a step that needs more returns IPCC_WARN_NOT_CONVERGED (1000)
    /// A step (or part of one) that Newton does not converge within
    /// newton_max_iterations is redone as two halves of its length, each
    /// split again when it does not converge, down to 1 / 2^max_splits of
    /// the time step; the state is still reported once per time step. 0:
    /// never split. In [0, 10] (3)
    int newton_max_splits;
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
/// exact distance to it (docs/analytic-obstacles.md).
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
    /// that faces do not sink into it between their vertices
    /// (docs/analytic-obstacles.md): -1 the kind's default, on for a cylinder,
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
    int substeps; ///< parts the step was solved in: 1, or more when it was split (newton_max_splits)
} ipcc_step_stats;

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

/// The size in bytes of public struct `name` ("ipcc_step_stats",
/// "ipcc_energies", "ipcc_contact_record"), 0 for any other name: bindings
/// in other languages check their mirrors of the structs against it
/// (python/ipcc/_lib.py).
IPCC_API size_t ipcc_struct_size(const char *name);

#ifdef __cplusplus
}
#endif
#endif
