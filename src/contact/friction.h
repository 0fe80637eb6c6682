/// Lagged, mollified Coulomb friction (IPC, Li et al. 2020, Sec. 5):
/// contacts, normal forces and tangent bases frozen at a lag state; the
/// dissipative potential, its gradient and Hessian (friction.c). Private.
#ifndef IPCC_FRICTION_H
#define IPCC_FRICTION_H

#include "contact/contact.h"
#include "solver/sparse.h"
#include "collision/step_context.h"

/// f0 and f1 = f0' of the mollified Coulomb law with threshold eps (metres
/// of tangential displacement per step, eps = eps_v h), y = |u| >= 0.
double ipcc_friction_f0(double y, double eps);
double ipcc_friction_f1(double y, double eps);

/// One contact's potential mu_lambda * f0(|u|), u = T^T sum_i w_i dx_i, over
/// its nv vertices' displacements dx (3 nv, x - x_start); T holds the two
/// tangent vectors (T[0..2], T[3..5]). With g/H (may be NULL) the gradient
/// (3 nv) and the Hessian (3 nv x 3 nv, row-major), which is PSD by
/// construction; with H_majorant (may be NULL) the sliding majorant
/// (friction.c, "Sliding majorant"), the Hessian's curvature across the
/// slip also along it from |u| >= eps on.
double ipcc_friction_potential(int nv, const double *weights, const double T[6], double mu_lambda, double eps,
                               const double *dx, double *g, double *H, double *H_majorant);

typedef struct ipcc_friction ipcc_friction;

/// The friction coefficients of every surface and the mollifier's scale
/// (borrowed for the create call; the arrays are copied).
typedef struct ipcc_friction_def {
    double mu;             ///< contact.friction for every pair (>= 0), or < 0 to mix the surfaces' own
    double eps_v;          ///< slip speed below which static friction is smoothed, m/s (> 0)
    double smoothing_time; ///< t_s of eps = eps_v t_s, s; 0 = the time step (IPC's intent)
    int num_bodies;
    const double *body_mu; ///< per body: its surface's coefficient
    const int *body_shape; ///< per body: the shape whose sharp features it is (world_shapes.c), else -1
    int num_half_spaces;
    const double *half_space_mu; ///< per half-space: its own coefficient, < 0 when not set
    int num_shapes;
    const double *shape_mu; ///< per analytic shape: its own coefficient, < 0 when not set
} ipcc_friction_def;

ipcc_status ipcc_friction_create(const ipcc_friction_def *def, ipcc_friction **out);
void ipcc_friction_destroy(ipcc_friction *f);

/// Freeze the friction contacts at x_lag: every active barrier constraint
/// of `contact` with a positive coefficient, its normal force (at the
/// current kappa), tangent basis and closest-point weights. Every contact
/// starts on its exact Hessian (friction.c, "Sliding majorant").
ipcc_status ipcc_friction_lag(ipcc_friction *f, ipcc_contact *contact, const ipcc_step_context *sc,
                              const double *x_lag);

/// Number of frozen contacts.
int ipcc_friction_count(const ipcc_friction *f);

/// Whether, for every contact in its creep region (|u| < eps) at x, the
/// linear model of its friction force's magnitude along p stays within
/// Coulomb's bound mu lambda (friction.c; Newton's contraction test).
bool ipcc_friction_within_bound(const ipcc_friction *f, const ipcc_step_context *sc, const double *x,
                                const double *p);

/// Sum of the contacts' potentials at x (displacements from sc->x_start).
double ipcc_friction_energy(ipcc_friction *f, const ipcc_step_context *sc, const double *x);

/// Newton accepted a point, the whole direction when `whole`: the contacts'
/// models (friction.c, "Sliding majorant").
void ipcc_friction_accepted(ipcc_friction *f, bool whole);

/// Potential at x into *energy, gradient added into g (3n) and Hessian
/// triplets appended (unknown indices through sc->dof_map); with `lift`,
/// adds H lift to g. IPCC_ERR_NO_MEMORY on failure.
ipcc_status ipcc_friction_assemble(ipcc_friction *f, const ipcc_step_context *sc, const double *x,
                                   const double *lift, double *g, ipcc_triplets *T, double *energy);

/// Frozen contact k (0 <= k < ipcc_friction_count): its constraint's kind,
/// world vertices (ipcc_contact_kind_vertices(kind) of them), obstacle and
/// sample (as ipcc_contact_info), and the friction force at x on its first
/// primitive (the vertex of PT, PE, PP, PH and PS, edge a of EE, the whole
/// edge or triangle of ST, SE, QE and QT), N; the second primitive receives
/// the opposite force.
void ipcc_friction_contact_force(const ipcc_friction *f, const ipcc_step_context *sc, const double *x, int k,
                                 int *kind, int vertices[4], int *obstacle, int *sample, double force[3]);
/// Friction force on each vertex at x (3n, N, overwritten) and the energy
/// the step dissipates, J.
void ipcc_friction_forces(ipcc_friction *f, const ipcc_step_context *sc, const double *x, double *force,
                          double *dissipation);

#endif
