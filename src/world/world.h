/// The world's private state (struct ipcc_world) and what world.c does with
/// it: storage, the contact layer's view, small inline reads. Shared by the
/// world layer (the files that build, start, step, report and save it) and
/// read by the output layer above it. The layers below (contact, friction,
/// barrier, distance, CCD, integrator) never include it: they receive what
/// they need as arguments (step_context.h). Not part of the public API.
#ifndef IPCC_WORLD_WORLD_H
#define IPCC_WORLD_WORLD_H

#include <math.h>
#include <stdbool.h>

#include "contact/contact.h"
#include "fem/integrator.h"
#include "ipcc/world.h"
#include "solver/newton.h"
#include "shape/shape.h"
#include "collision/step_context.h"

typedef struct ipcc_world_span ipcc_world_span; // world_span.c

/// A material as the element loop uses it: the def's values and their Lame
/// parameters (world_bodies.c fills it).
typedef struct ipcc_world_material {
    ipcc_material material; ///< model, density, Young's modulus, Poisson's ratio
    double mu, lambda;      ///< Lame parameters, Pa
} ipcc_world_material;

typedef struct ipcc_body {
    char *name;
    int first_vertex, num_vertices;
    int first_tet, num_tets;
    ipcc_material material; ///< its default material (ipcc_body_def.material)
    double mu, lambda;      ///< Lame parameters of `material`, Pa
    int first_material,
        num_materials;         ///< its slots in the world's materials: the default, then def.materials
    double friction;           ///< Coulomb coefficient of its surface
    bool kinematic;            ///< a mesh obstacle: no tets, zero mass, every vertex prescribed
    int first_face, num_faces; ///< its boundary triangles in the world's surface list
    int first_edge, num_edges; ///< its boundary edges (or segments) in the world's edge list
    int shape;                 ///< the box whose edges this obstacle is (world_shapes.c), else -1
} ipcc_body;

struct ipcc_contact;  // contact.c
struct ipcc_friction; // friction.c

/// One Dirichlet condition with the vertices it selected at creation.
typedef struct ipcc_dirichlet {
    ipcc_dirichlet_def def;
    int body;
    int num_vertices;
    int *vertices;        ///< global vertex indices, ascending
    double centre_end[3]; ///< centre of the group at the end of the current step
    double pivot_now[3];  ///< def.has_pivot: the rotation centre at the current time
    bool stopped;         ///< its stop trigger has fired (for good)
} ipcc_dirichlet;

/// One Neumann condition with the vertices it selected at creation.
typedef struct ipcc_neumann {
    ipcc_neumann_def def;
    int num_vertices;
    int *vertices; ///< global vertex indices, ascending
} ipcc_neumann;

struct ipcc_world {
    ipcc_world_def def;
    int num_bodies, cap_bodies;
    ipcc_body *bodies;
    int num_dirichlet, cap_dirichlet;
    ipcc_dirichlet *dirichlet;
    int num_neumann, cap_neumann;
    ipcc_neumann *neumann;
    double *load;       ///< 3n: per-vertex external acceleration of the active Neumann conditions
    bool has_load;      ///< some entry of load is non-zero this step
    double *tolerances; ///< def.tolerances, owned copy
    double *damp_H;     ///< 144 nt: PSD elastic Hessians at the step start (damping > 0), else NULL
    double *tet_damp;   ///< nt: per-tet damping energy scratch

    int n, cap_n;     ///< vertices
    double *x;        ///< positions (3n)
    double *v;        ///< velocities (3n)
    double *a;        ///< accelerations (3n, Newmark)
    double *x_rest;   ///< positions at t = 0 (3n)
    double *mass;     ///< lumped mass per vertex (n)
    double *x_start;  ///< positions at the start of the step (3n)
    double *x_hat;    ///< inertial target of the step (3n)
    double *warm;     ///< scratch: the warm start's direction (3n)
    double *x_pass;   ///< the last friction lagging pass's solution (3n, world_step.c)
    double *x_target; ///< end-of-step positions of prescribed vertices (3n)
    int *prescribed;  ///< per vertex: index of the active Dirichlet condition, or -1
    int *dof_map;     ///< per dof: unknown index or -1 (3n)
    int num_unknowns;
    long dof_version; ///< incremented whenever dof_map changes

    // The augmented Lagrangian of a blocked prescribed motion (dirichlet_penalty.c).
    bool penalty_active;        ///< the Dirichlet vertices are unknowns with the penalty terms
    double penalty_rho;         ///< its stiffness, relative to the inertia term
    double *penalty_lambda;     ///< 3n multipliers
    int *penalty_saved_map;     ///< 3n (+ the clock): the dof map while the phase runs
    int penalty_saved_unknowns; ///< num_unknowns while the phase runs
    bool penalty_warned;        ///< the last step's motion was blocked (warn once per blocked spell)

    // Per-tet scratch of the parallel element loop (incremental_potential.c):
    // every tet writes only its own slots, so results do not depend on the
    // number of threads.
    double *tet_energy; ///< nt
    double *tet_grad;   ///< 12 * nt
    int *tet_slot;      ///< nt + 1: first Hessian triplet of each tet (prefix sum)
    int tet_triplets;   ///< the index of the tets' first triplet in the last evaluate's list
    long slots_version; ///< dof_version the tet_slot offsets were computed for
    int cap_scratch;    ///< tets the scratch arrays hold

    int nt, cap_nt;    ///< tets
    int *tets;         ///< 4 * nt global vertex indices
    int *tet_body;     ///< body of each tet
    int *tet_material; ///< material slot of each tet (an index into materials): ipcc_world_tet_law()
    int *tet_region;   ///< mesh region (physical group, TetGen attribute) of each tet, 0 = none
    int num_materials, cap_materials;
    ipcc_world_material *materials; ///< every body's slots, body by body
    double *Dm_inv;                 ///< 9 * nt rest shape inverses
    double *volume;                 ///< nt rest volumes

    // Contact surfaces: boundary triangles and edges of every body (global
    // vertex indices), body by body; half-spaces as (point, unit normal).
    int num_faces, cap_faces;
    int *faces; ///< 3 * num_faces
    int num_edges, cap_edges;
    int *edges; ///< 2 * num_edges
    int num_half_spaces, cap_half_spaces;
    double *half_spaces;         ///< 6 * num_half_spaces
    double *half_space_friction; ///< num_half_spaces Coulomb coefficients
    int cap_half_space_friction;
    char **half_space_names; ///< num_half_spaces names (owned; NULL: unnamed, "half-space <i>")
    int cap_half_space_names;
    int n_deformable;               ///< vertices of deformable bodies, [0, n_deformable)
    struct ipcc_contact *contact;   ///< barrier contact state (contact.c), from the first step
    double *contact_force;          ///< 3n, N, at the end of the last step
    struct ipcc_friction *friction; ///< lagged friction (friction.c), when any coefficient is > 0
    double *friction_force;         ///< 3n, N, over the last step
    double dhat, kappa;             ///< in use (copies of the contact state, for accessors)

    // Analytic obstacles (world_shapes.c).
    int num_shapes, cap_shapes;
    ipcc_shape_def *shapes;          ///< as added, names owned
    ipcc_shape *shape_pose;          ///< num_shapes: current poses
    ipcc_shape_motion *shape_motion; ///< num_shapes: the current step's motion (from its start pose)
    int cap_shape_pose, cap_shape_motion;
    int *shape_feature_body_of; ///< per shape: the segment-set body of a box's edges, else -1
    int cap_shape_features;
    bool has_clock;      ///< some shape moves: x[3n] is the shapes' progress (world_shapes.c)
    double clock_length; ///< the clock's target over a whole step, metres (ipcc_world_clock_length)

    double bbox_diagonal; ///< L, at t = 0
    /// The length of the step being solved: def.time_step, or 1 / 2^k of it
    /// while a step that did not converge is redone in parts (world_step.c).
    /// Everything a step reads of its length reads it here; def.time_step
    /// stays the user's (reports, fingerprint, checkpoints). Between steps,
    /// the last part's: the contact forces and energies reported there are
    /// that part's (kappa B / s with its s).
    double h;
    ipcc_world_span *spans; ///< saved starts of a split step's parts (world_span.c); NULL without splits
    double time;
    int step;
    bool started; ///< ipcc_world_start ran: bodies can no longer be added, steps can run
    ipcc_newton *newton;

    // Stages of the incremental potential that run once, at its first
    // evaluation after they are requested (incremental_potential.c):
    bool balance_stiffness; ///< set at a step's start: kappa is balanced at the step's first state
    bool lag_friction;      ///< set at each lagging pass's start: friction freezes at the pass's first state
    bool lag_at_start;      ///< ... or at the step's start x_n (a fixed pass count's first pass)
};

/// Grow every per-vertex and per-tet array to hold n vertices and nt tets.
/// 0, or -1 when out of memory (the arrays keep their contents).
int ipcc_world_reserve_state(ipcc_world *w, int n, int nt);
/// The shapes' clock: one more slot after the n vertices in every per-vertex
/// array (world_shapes.c), 0 in the 3-vectors and -1 (prescribed) in the
/// dof map. 0, or -1 when out of memory.
int ipcc_world_reserve_clock(ipcc_world *w);

/// The constitutive law of tet e: its model and Lame parameters (Pa). The
/// one place the element loops, stresses and reports read a tet's material.
static inline void ipcc_world_tet_law(const ipcc_world *w, int e, ipcc_material_model *model, double *mu,
                                      double *lambda) {
    const ipcc_world_material *m = &w->materials[w->tet_material[e]];
    *model = m->material.model;
    *mu = m->mu;
    *lambda = m->lambda;
}

/// Whether vertex i at coordinate x (axis k) with velocity v overflows the
/// next step's prediction x + h v + h^2 g or its inertia energy m |h v +
/// h^2 g|^2 (or m v^2): finite but absurd values, refused at the start
/// (world_start.c) and by ipcc_world_set_state (world_state.c).
static inline bool ipcc_world_motion_overflows(const ipcc_world *w, int i, int k, double x, double v) {
    const double h = w->def.time_step, d = h * v + h * h * w->def.gravity[k];
    return !isfinite(x + d) || !isfinite(w->mass[i] * d * d) || !isfinite(w->mass[i] * v * v);
}

/// The body holding world vertex v (bodies are contiguous vertex ranges in
/// order; world.c).
int ipcc_world_body_of_vertex(const ipcc_world *w, int v);

/// Number of dofs Newton works on: 3n, plus 3 for the clock.
static inline int ipcc_world_num_dofs(const ipcc_world *w) { return 3 * w->n + (w->has_clock ? 3 : 0); }

/// A contact state for the world's bodies, half-spaces and shapes at their
/// current state (world.c; also for tests), checked for intersections.
ipcc_status ipcc_world_create_contact(const ipcc_world *w, ipcc_contact **out);

/// The world's description for the contact layer (contact.h) at its
/// current state: the bodies' surfaces, tets and masses, the half-spaces
/// and the shapes. `bodies` is the caller's (num_bodies + 1 entries, filled
/// here); everything else is borrowed from the world.
ipcc_contact_setup ipcc_world_contact_setup(const ipcc_world *w, ipcc_collision_body *bodies);

/// The clock's target over the step being solved: clock_length scaled by
/// its part of the time step (world_step.c, "Split steps"). A part of h / 2^k
/// gets exactly the length a run at time step h / 2^k would (both scale by
/// powers of two).
static inline double ipcc_world_clock_length(const ipcc_world *w) {
    return w->has_clock ? w->clock_length * (w->h / w->def.time_step) : 0.0;
}

/// What the contact and friction layers need of the current step (they
/// never read the world).
static inline ipcc_step_context ipcc_world_step_context(const ipcc_world *w) {
    return (ipcc_step_context){.time_step = w->h,
                               .potential_scale = ipcc_integrator_potential_scale(&w->def, w->h),
                               .num_vertices = w->n,
                               .dof_map = w->dof_map,
                               .x_start = w->x_start,
                               .clock_length = ipcc_world_clock_length(w),
                               .num_shapes = w->num_shapes,
                               .shapes = w->shape_motion};
}

#endif
