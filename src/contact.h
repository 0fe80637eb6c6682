/// Barrier contact: the collision mesh, the constraint set, the barrier
/// potential and the CCD step bound (contact.c). Private to the library.
#ifndef IPCC_CONTACT_H
#define IPCC_CONTACT_H

#include "ipcc/world.h"
#include "sparse.h"

typedef struct ipcc_contact ipcc_contact;

/// Build the collision mesh of the world (all bodies' surfaces, obstacles,
/// half-spaces) and check the initial state: any intersection or touching
/// pair fails with IPCC_ERR_INFEASIBLE naming the two bodies and primitives.
ipcc_status ipcc_contact_create(ipcc_world *w, ipcc_contact **out);
void ipcc_contact_destroy(ipcc_contact *c);

/// Start a step: the next evaluation (re)balances kappa (when adaptive).
void ipcc_contact_begin_step(ipcc_contact *c);

/// kappa * B(x) over the candidates of the last evaluate/max_step (valid on
/// the segment max_step certified); +INFINITY if a distance is <= 0.
double ipcc_contact_energy(ipcc_contact *c, const ipcc_world *w, const double *x);

/// Barrier energy, gradient (added into g, 3n) and projected Hessian
/// triplets (appended, unknown indices) at x; with `lift`, adds H lift to g.
/// On entry g holds the gradient of the rest of the potential (used to
/// balance kappa). Returns NAN on allocation failure.
double ipcc_contact_evaluate(ipcc_contact *c, ipcc_world *w, const double *x, const double *lift, double *g,
                             ipcc_triplets *T);

/// Largest alpha <= alpha_max such that x + [0, alpha] p is intersection-free
/// (CCD), times IPC's safety factor; alpha_max when no contact is reachable.
double ipcc_contact_max_step(ipcc_contact *c, const ipcc_world *w, const double *x, const double *p,
                             double alpha_max);

/// End of step: per-vertex contact forces (3n, N) and the contact fields of
/// the stats at x.
void ipcc_contact_end_step(ipcc_contact *c, const ipcc_world *w, const double *x, double *force,
                           ipcc_step_stats *stats);

/// d̂ (metres) and the current kappa.
double ipcc_contact_dhat(const ipcc_contact *c);
double ipcc_contact_kappa(const ipcc_contact *c);

#endif
