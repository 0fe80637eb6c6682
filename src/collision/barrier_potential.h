/// The barrier potential of barrier contact: each constraint's squared
/// distance and barrier with derivatives, and their sums over a constraint
/// set, with the PSD-projected Hessian as triplets (barrier_potential.c).
/// Private to the library.
#ifndef IPCC_BARRIER_POTENTIAL_H
#define IPCC_BARRIER_POTENTIAL_H

#include <stdbool.h>

#include "collision/constraint_set.h"
#include "collision/negative_keys.h"
#include "solver/sparse.h"
#include "collision/step_context.h"

/// Squared distance of one constraint over its local positions x
/// (3 * vertices, in the order of ipcc_contact_kind); with g/H (may be NULL)
/// also its gradient and Hessian. EE is the distance between the edges'
/// lines (EE keys are interior-interior, constraint_set.c), EP the segments'; `obstacle` is used by PH
/// (6 doubles: point, unit normal), PS, ST and SE (an ipcc_shape; a sphere
/// for ST and SE, whose distance is (sqrt(d) - r)^2 with d the squared
/// distance from its centre to the triangle's plane or the edge's line).
double ipcc_contact_distance(ipcc_contact_kind kind, const double *x, const void *obstacle, double *g,
                             double *H);

/// The PSD projection of a symmetric 3k x 3k Hessian (row-major) over k = 2
/// to 4 points that maps every common translation of the points to 0 (a
/// distance between them): through a 3(k - 1) eigenproblem, exact (the same
/// as ipcc_project_psd on H, to rounding). Used for the mesh kinds (ipcc_contact_kind_mesh).
void ipcc_project_psd_translation_free(int k, double *H);

/// One constraint's barrier b(d(x), dhat2) (for EP the term of
/// parallel_edges.c); with g/H (may be NULL) its gradient and Hessian,
/// projected to PSD when `project`. +inf at d <= 0.
double ipcc_contact_barrier(ipcc_contact_kind kind, const double *x, const void *obstacle, double dhat2,
                            double *g, double *H, bool project);

/// The local positions of pair p's vertices at collision positions xc
/// (3 ipcc_contact_kind_vertices doubles).
void ipcc_contact_pair_positions(const ipcc_contact_pair *p, const double *xc, double x[12]);
/// The obstacle of pair p for ipcc_contact_distance: a half-space's plane,
/// a shape's pose, or NULL for a mesh pair.
const void *ipcc_contact_pair_obstacle(const ipcc_contact_obstacles *o, const ipcc_contact_pair *p);
/// Squared distance of pair p at collision positions xc.
double ipcc_contact_pair_distance(const ipcc_contact_obstacles *o, const ipcc_contact_pair *p,
                                  const double *xc);
/// Barrier energy (kappa = 1) of pair p times its multiplicity; with g, H
/// also its gradient and PSD-projected Hessian (3 ipcc_contact_kind_vertices).
double ipcc_contact_pair_barrier(const ipcc_contact_obstacles *o, const ipcc_contact_pair *p,
                                 const double *xc, double dhat2, double *g, double *H);

/// Per-pair scratch of the sums (grow-only).
typedef struct ipcc_barrier_potential {
    double *pair_energy;         ///< per pair
    double *pair_grad;           ///< 12 per pair
    int *pair_slot;              ///< triplet offsets (prefix sum), pairs + 1
    int cap;                     ///< pairs the arrays hold
    ipcc_negative_keys negative; ///< the fold of the negative keys' Hessians (negative_keys.h)
} ipcc_barrier_potential;

void ipcc_barrier_potential_free(ipcc_barrier_potential *bp);

/// B(x) = sum_k n_k b(d_k) (kappa = 1) over the set at xc: +INFINITY if
/// a distance is <= 0, NAN when out of memory.
double ipcc_barrier_potential_energy(ipcc_barrier_potential *bp, const ipcc_constraint_set *s,
                                     const ipcc_contact_obstacles *o, const double *xc, double dhat2);

/// grad B (kappa = 1) added into g (world dofs, 3n) through the mesh's
/// collision-to-world map.
void ipcc_barrier_potential_gradient(const ipcc_constraint_set *s, const ipcc_collision_mesh *m,
                                     const ipcc_contact_obstacles *o, const double *xc, double dhat2,
                                     double *g);

/// The smallest squared distance over the set at xc (INFINITY when empty).
double ipcc_barrier_potential_min_distance2(const ipcc_constraint_set *s, const ipcc_contact_obstacles *o,
                                            const double *xc);

/// kappa B at xc into *energy (+INFINITY at a zero distance), kappa grad B
/// added into g (3n) and kappa times the projected Hessian blocks appended
/// to T (unknown indices through sc->dof_map); with `lift` (newton.c,
/// "Prescribed motion"), H lift is added to g, a shape's remaining motion
/// entering through the clock (sc). IPCC_ERR_NO_MEMORY on failure.
ipcc_status ipcc_barrier_potential_assemble(ipcc_barrier_potential *bp, const ipcc_constraint_set *s,
                                            const ipcc_collision_mesh *m, const ipcc_contact_obstacles *o,
                                            const double *xc, double dhat2, double kappa,
                                            const ipcc_step_context *sc, const double *lift, double *g,
                                            ipcc_triplets *T, double *energy);

#endif
