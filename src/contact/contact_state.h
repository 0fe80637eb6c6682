/// The contact state's fields and the operations on them that every part
/// of the contact layer runs (contact_state.c): the shapes' poses at a
/// state, the broad-phase query and the constraint set's build, each timed.
/// Below contact.c (lifecycle, the potential's terms, friction's view),
/// contact_ccd.c (the CCD step bound) and contact_initial_check.c (the
/// state checks), which alone include it. Private to those files.
#ifndef IPCC_CONTACT_STATE_H
#define IPCC_CONTACT_STATE_H

#include <stdbool.h>

#include "broad_phase/broad_phase.h"
#include "broad_phase/candidate_cache.h"
#include "collision/barrier_potential.h"
#include "collision/collision_mesh.h"
#include "collision/constraint_set.h"
#include "collision/step_context.h"
#include "contact/contact_setup.h"

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
    bool ccd_cut;       ///< the last ipcc_contact_max_step cut the direction (t < 1)
    double time_ccd, time_broad_phase, time_constraint_search;

    ipcc_broad_phase *bp;
    ipcc_candidate_cache cache; ///< the contact queries' superset (skin d̂; candidate_cache.c)
    ipcc_candidates cand;
    bool cand_valid; ///< cand covers every pair within d̂ of the next updated state (contact.c)

    ipcc_constraint_set set;          ///< at the state last updated
    ipcc_barrier_potential potential; ///< the sums' per-pair scratch
    double *xc, *xc1;                 ///< 3 nc gathered positions (x, and x + alpha p in max_step)
    double *gb;                       ///< 3 n, barrier gradient for balancing kappa
    int cap_gb;
    double *toi; ///< per candidate
    int cap_toi;
    struct ipcc_contact_info *info; ///< ipcc_contact_active's output (contact.h)
    int cap_info;
};

/// The shapes' poses at state x (their clock, sc) into c->pose.
void ipcc_contact_shapes_at(ipcc_contact *c, const ipcc_step_context *sc, const double *x);

/// Broad-phase candidates of the given kinds (IPCC_CANDIDATES_*) for the
/// motion x0 -> x1 (collision positions; x1 NULL: static at x0), boxes
/// inflated by `inflation` (m), into c->cand; the time is added to
/// c->time_broad_phase. The contact queries (vertex-face and edge-edge) go
/// through c->cache with a skin of d̂: the same list, from a superset while
/// the vertices stay within d̂ / 2 of where it was taken. Out of memory
/// fails as the broad phase does.
ipcc_status ipcc_contact_query(ipcc_contact *c, const double *x0, const double *x1, double inflation,
                               int kinds);

/// The constraint set at collision positions xc from c->cand into c->set;
/// the time is added to c->time_constraint_search. IPCC_ERR_NO_MEMORY
/// ("contact: out of memory") when out of memory.
ipcc_status ipcc_contact_build_set(ipcc_contact *c, const double *xc);

#endif
