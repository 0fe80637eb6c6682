/// Barrier contact over a simulation: the contact state a world holds, built
/// from a description of its bodies (ipcc_contact_setup), that gives the
/// incremental potential its barrier terms, Newton its CCD step bound and
/// friction its active constraints (contact.c, contact_ccd.c,
/// contact_initial_check.c). It receives what it needs of each step as an
/// ipcc_step_context and never reads the world. Private to the library.
#ifndef IPCC_CONTACT_H
#define IPCC_CONTACT_H

#include <stdbool.h>

#include "collision/barrier_potential.h"
#include "collision/collision_mesh.h"
#include "collision/constraint_set.h"
#include "ipcc/world.h"
#include "solver/sparse.h"
#include "collision/step_context.h"

typedef struct ipcc_contact ipcc_contact;

/// What the contact state is built from (borrowed for the create call; the
/// half-spaces are copied).
typedef struct ipcc_contact_setup {
    ipcc_collision_mesh_def mesh;        ///< the bodies' surfaces
    const double *positions;             ///< 3n: the initial state, checked for intersections
    const double *masses;                ///< n lumped masses, kg (0 for obstacles): kappa's bounds
    int num_tets;                        ///< the bodies' tets, for the check that no point lies inside a body
    const int *tets;                     ///< 4 per tet, world vertex indices
    const int *tet_body;                 ///< per tet: its body
    int num_half_spaces;                 ///< static half-spaces
    const double *half_spaces;           ///< 6 per half-space: point, unit normal
    const char *const *half_space_names; ///< per half-space: its name, or NULL (messages)
    int num_shapes;                      ///< analytic shapes
    const ipcc_shape *shape_poses;       ///< per shape: its current pose
    const ipcc_shape_def *shape_defs;    ///< per shape: its definition (names in messages)
    double bbox_diagonal;                ///< L, m
    double dhat;                         ///< d̂, m; 0 = 1e-3 L
    double kappa;                        ///< barrier stiffness; 0 = adaptive
} ipcc_contact_setup;

/// Build the collision mesh and check the initial state: any intersection
/// or touching pair fails with IPCC_ERR_INFEASIBLE naming the two bodies
/// and primitives (or the body and the half-space or shape).
ipcc_status ipcc_contact_create(const ipcc_contact_setup *def, ipcc_contact **out);
void ipcc_contact_destroy(ipcc_contact *c);

/// Check another state as the initial one is (a state set between steps,
/// ipcc_world_set_state): def->positions (3n) with the shapes at
/// def->shape_poses, for the bodies c was created for; a face may lie
/// within the CCD's depth budget of a sampled curved shape, as steps leave
/// them (contact_samples.h). The first violation fails with
/// IPCC_ERR_INFEASIBLE, its message starting with `what`.
ipcc_status ipcc_contact_check(ipcc_contact *c, const ipcc_contact_setup *def, const char *what);

/// Start a step: the next constraint set is searched afresh, the in-step
/// stiffness update restarts and the step's timings are reset.
void ipcc_contact_begin_step(ipcc_contact *c);

/// The constraint set at state x: the candidates of the last
/// ipcc_contact_max_step when they cover x (Newton only evaluates points it
/// accepted on that segment), else a fresh search. Later calls
/// (balance, update, assemble) work at this x.
ipcc_status ipcc_contact_update(ipcc_contact *c, const ipcc_step_context *sc, const double *x);

/// kappa at a step's start (barrier_stiffness.c), at the state of the last
/// ipcc_contact_update, balanced against g_rest (3n), the gradient of the
/// rest of the incremental potential there. No-op when kappa is fixed.
ipcc_status ipcc_contact_balance_stiffness(ipcc_contact *c, const ipcc_step_context *sc,
                                           const double *g_rest);

/// kappa's in-step update at the state of the last ipcc_contact_update
/// (doubles while the smallest distance is below 1e-8 L and shrinking).
/// No-op when kappa is fixed.
void ipcc_contact_update_stiffness(ipcc_contact *c);

/// kappa B at the state of the last ipcc_contact_update into *energy
/// (+INFINITY at a zero distance), its gradient added into g (3n) and its
/// projected Hessian appended to T; with `lift`, adds H lift to g.
ipcc_status ipcc_contact_assemble(ipcc_contact *c, const ipcc_step_context *sc, const double *lift, double *g,
                                  ipcc_triplets *T, double *energy);

/// kappa B(x) over the candidates of the last ipcc_contact_max_step (valid
/// on the segment it certified) into *energy; +INFINITY at a zero distance.
ipcc_status ipcc_contact_energy(ipcc_contact *c, const ipcc_step_context *sc, const double *x,
                                double *energy);

/// *alpha = the largest step <= alpha_max such that x + [0, alpha] p is
/// intersection-free (CCD), times IPC's safety factor; alpha_max when no
/// contact is reachable (contact_ccd.c).
ipcc_status ipcc_contact_max_step(ipcc_contact *c, const ipcc_step_context *sc, const double *x,
                                  const double *p, double alpha_max, double *alpha);

/// The largest relative change |d(x + p) - d(x)| / d(x) of an active
/// contact's distance along p (the set of the last ipcc_contact_update, at
/// x; the shapes at their poses there); 0 without any. Overwrites the
/// gathered positions, as an update at x leaves them.
double ipcc_contact_gap_change(ipcc_contact *c, const ipcc_step_context *sc, const double *x,
                               const double *p);

/// End of step: per-vertex contact forces (3n, N) and the contact fields of
/// the stats (may be NULL) at x.
ipcc_status ipcc_contact_end_step(ipcc_contact *c, const ipcc_step_context *sc, const double *x,
                                  double *force, ipcc_step_stats *stats);

/// One active constraint as friction sees it, at the state it was taken at.
typedef struct ipcc_contact_info {
    ipcc_contact_kind kind;
    int vertices[4];     ///< world vertex indices (ipcc_contact_kind_vertices(kind) of them)
    double weights[4];   ///< closest points: their difference is sum_i weights[i] x_i (PT: 1, -b0, -b1, -b2)
    double normal[3];    ///< unit normal, from the second primitive towards the first
    double normal_force; ///< lambda_hat = kappa n m |b'(d)| 2 sqrt(d), the normal force in potential units (n
                         ///< the key's multiplicity, so < 0 for a key counting -1) (newtons times the
                         ///< potential scale s; see friction.c)
    int body[2];         ///< the two bodies; PH and PS: body[1] = -1 (see `obstacle`)
    int obstacle;        ///< PH: the half-space's index; PS, ST, SE, QE, QT: the shape's index; else -1
    double point[3];     ///< the closest point on the second primitive (for PS, on the shape's surface)
    double distance;     ///< unsigned distance, m
    int sample;          ///< QE / QT: the sample's code (contact_samples.h); else 0
} ipcc_contact_info;

/// The active constraints at x (a static candidate search), as friction
/// needs them, into *out (valid until the next call into the contact state)
/// and *count.
ipcc_status ipcc_contact_active(ipcc_contact *c, const ipcc_step_context *sc, const double *x,
                                const ipcc_contact_info **out, int *count);

/// d̂ (metres) and the current kappa.
double ipcc_contact_dhat(const ipcc_contact *c);
double ipcc_contact_kappa(const ipcc_contact *c);
/// Restore the stiffness saved by a checkpoint (the adaptive state between
/// steps is kappa alone; ipcc_contact_begin_step resets the rest).
void ipcc_contact_set_kappa(ipcc_contact *c, double kappa);
/// [kappa_min, kappa_max] of the adaptive stiffness (both the value when fixed).
void ipcc_contact_kappa_bounds(const ipcc_contact *c, double *kappa_min, double *kappa_max);

#endif
