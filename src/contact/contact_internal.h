/// The contact state shared by contact.c (lifecycle, candidates, the
/// potential's sums, friction's view), contact_ccd.c (the CCD step bound)
/// and contact_initial_check.c (the initial state). Private to those files.
#ifndef IPCC_CONTACT_INTERNAL_H
#define IPCC_CONTACT_INTERNAL_H

#include "collision/barrier_potential.h"
#include "broad_phase/broad_phase.h"
#include "collision/collision_mesh.h"
#include "collision/constraint_set.h"
#include "contact/contact.h"

/// CCD safety factor: the step stops at 0.8 of the conservative time of
/// impact (IPC's value).
#define CCD_SAFETY 0.8

struct ipcc_contact {
    ipcc_collision_mesh mesh;
    ipcc_contact_obstacles obstacles; ///< views of the arrays below
    double *planes;                   ///< 6 per half-space (a copy)
    ipcc_shape *pose;                 ///< per shape: its pose at the state last gathered
    double *shape_radius;             ///< per shape: its bounding radius
    bool *shape_sampled;              ///< per shape: its samples are on (contact_samples.h)
    unsigned char *edge_divisions;    ///< per shape and edge: its sample subdivisions (contact_samples.h)
    unsigned char *face_divisions;    ///< per shape and face: likewise

    double dhat, dhat2, L;
    double kappa, kappa_min, kappa_max;
    bool kappa_fixed;
    double prev_min_d2; ///< smallest squared distance at the previous evaluation of this step
    double time_ccd, time_broad_phase, time_constraint_search;

    ipcc_broad_phase *bp;
    ipcc_candidates cand;
    bool cand_valid; ///< cand covers every pair within d̂ of the next updated state (contact.c)

    ipcc_constraint_set set;          ///< at the state last updated
    ipcc_barrier_potential potential; ///< the sums' per-pair scratch
    double *xc, *xc1;                 ///< 3 nc gathered positions (x, and x + alpha p in max_step)
    double *gb;                       ///< 3 n, barrier gradient for balancing kappa
    int cap_gb;
    double *toi; ///< per candidate
    int cap_toi;
    ipcc_contact_info *info; ///< ipcc_contact_active's output
    int cap_info;
};

/// The shapes' poses at state x (their clock, sc) into c->pose.
void ipcc_contact_shapes_at(ipcc_contact *c, const ipcc_step_context *sc, const double *x);
/// Broad-phase candidates into c->cand (timed).
ipcc_status ipcc_contact_query(ipcc_contact *c, const double *x0, const double *x1, double inflation,
                               int kinds);
/// The constraint set at xc from c->cand into c->set (timed).
ipcc_status ipcc_contact_build_set(ipcc_contact *c, const double *xc);

/// The state checks (contact_initial_check.c): IPCC_ERR_INFEASIBLE naming
/// the bodies and primitives (or body and shape) of the first violation,
/// the message starting with `what`, at def->positions (gathered into
/// c->xc) with the shapes at def->shape_poses (into c->pose). `between_steps`: a state set
/// between steps, whose faces may lie within the CCD's depth budget of a
/// sampled curved shape as a step leaves them (contact_samples.h).
ipcc_status ipcc_contact_check_state(ipcc_contact *c, const ipcc_contact_setup *def, const char *what,
                                     bool between_steps);

#endif
