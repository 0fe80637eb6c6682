/// Barrier contact: the collision mesh, the constraint set, the barrier
/// potential and the CCD step bound (contact.c). Private to the library.
#ifndef IPCC_CONTACT_H
#define IPCC_CONTACT_H

#include <stdbool.h>

#include "ipcc/world.h"
#include "sparse.h"

typedef struct ipcc_contact ipcc_contact;

/// Constraint kinds, named by their closest features.
typedef enum ipcc_contact_kind {
    IPCC_CONTACT_PP, ///< point-point      [a, b]
    IPCC_CONTACT_PE, ///< point-edge       [p, e0, e1] (to the edge's line)
    IPCC_CONTACT_PT, ///< point-triangle   [p, t0, t1, t2] (to its plane)
    IPCC_CONTACT_EE, ///< edge-edge        [ea0, ea1, eb0, eb1], measured with an ipcc_edge_edge_distance_type
    IPCC_CONTACT_PH, ///< point-half-space [p], plane = (point, unit normal)
    IPCC_CONTACT_PS, ///< point-shape      [p], an analytic obstacle (shape.h) at its current pose
    IPCC_CONTACT_ST, ///< sphere-triangle  [t0, t1, t2]: a sphere shape's centre to the triangle's interior
    IPCC_CONTACT_SE, ///< sphere-edge      [e0, e1]: a sphere shape's centre to the edge's interior
} ipcc_contact_kind;

/// Vertices of a constraint of this kind (1 to 4).
int ipcc_contact_kind_vertices(ipcc_contact_kind kind);

/// Squared distance of one constraint over its local positions x
/// (3 * vertices, in the order above); with g/H (may be NULL) also its
/// gradient and Hessian. `ee_type` is used by EE; `obstacle` by PH (6
/// doubles: point, unit normal), PS, ST and SE (an ipcc_shape; a sphere for
/// ST and SE, whose distance is (sqrt(d) - r)^2 with d the squared distance
/// from its centre to the triangle's plane or the edge's line).
double ipcc_contact_distance(ipcc_contact_kind kind, int ee_type, const double *x, const void *obstacle,
                             double *g, double *H);

/// One constraint's barrier m(x) b(d(x), dhat2), m the edge-edge mollifier
/// when kind is EE and eps_x > 0 (else 1); with g/H (may be NULL) its
/// gradient and Hessian, projected to PSD when `project`. +inf at d <= 0.
double ipcc_contact_barrier(ipcc_contact_kind kind, int ee_type, double eps_x, const double *x,
                            const void *obstacle, double dhat2, double *g, double *H, bool project);

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
    int obstacle;        ///< PH: the half-space's index; PS: the shape's index; else -1
    double point[3];     ///< the closest point on the second primitive (for PS, on the shape's surface)
    double distance;     ///< unsigned distance, m
} ipcc_contact_info;

/// The active constraints at x (a static candidate search), as friction
/// needs them. Returns their number (*out valid until the next call into
/// the contact state), or -1 when out of memory.
int ipcc_contact_active(ipcc_contact *c, const ipcc_world *w, const double *x, const ipcc_contact_info **out);

/// d̂ (metres) and the current kappa.
double ipcc_contact_dhat(const ipcc_contact *c);
double ipcc_contact_kappa(const ipcc_contact *c);
/// Restore the stiffness saved by a checkpoint (the adaptive state between
/// steps is kappa alone; ipcc_contact_begin_step resets the rest).
void ipcc_contact_set_kappa(ipcc_contact *c, double kappa);
/// [kappa_min, kappa_max] of the adaptive stiffness (both the value when fixed).
void ipcc_contact_kappa_bounds(const ipcc_contact *c, double *kappa_min, double *kappa_max);

#endif
