/// Barrier contact over a simulation: the contact state a world holds, built
/// from a description of its bodies (ipcc_contact_setup, contact_setup.h),
/// that gives the incremental potential its barrier terms and friction its
/// active constraints (contact.c: lifecycle and a step's evaluations; the
/// CCD step bound is contact_ccd.h, the check of a state set between steps
/// contact_initial_check.h). It receives what it needs of each step as an
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
#include "contact/contact_setup.h"

/// Build the collision mesh and check the initial state: any intersection
/// or touching pair fails with IPCC_ERR_INFEASIBLE naming the two bodies
/// and primitives (or the body and the half-space or shape).
ipcc_status ipcc_contact_create(const ipcc_contact_setup *def, ipcc_contact **out);
void ipcc_contact_destroy(ipcc_contact *c);

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
