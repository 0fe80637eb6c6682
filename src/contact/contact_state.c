// The contact state's shared operations: what the lifecycle and the
// evaluations of a step (contact.c), the CCD step bound (contact_ccd.c) and
// the state checks (contact_initial_check.c) all run on the state, so that
// those files call down into this one and never into each other.
//
// Each operation fills one part of the state: the shapes' poses at a state
// (from their motion over the step and its clock, step_context.h), the
// broad phase's candidates (broad_phase.c) and the constraint set built
// from them (constraint_set.c). The query and the build are timed into the
// step's stats. Failures: out of memory returns IPCC_ERR_NO_MEMORY with a
// message (the broad phase's, or "contact: out of memory" for the set).
#include "contact/contact_state.h"

#include "base/core.h"

void ipcc_contact_shapes_at(ipcc_contact *c, const ipcc_step_context *sc, const double *x) {
    double s = ipcc_step_shape_progress(sc, x);
    for (int i = 0; i < c->obstacles.num_shapes; ++i)
        ipcc_shape_motion_at(&sc->shapes[i], s, &c->pose[i]);
}

ipcc_status ipcc_contact_query(ipcc_contact *c, const double *x0, const double *x1, double inflation,
                               int kinds) {
    double t0 = ipcc_now();
    ipcc_status st = kinds == (IPCC_CANDIDATES_VF | IPCC_CANDIDATES_EE)
                         ? ipcc_candidate_cache_query(&c->cache, c->bp, &c->mesh.topo, x0, x1, inflation,
                                                      kinds, c->dhat, &c->cand)
                         : ipcc_broad_phase_query(c->bp, &c->mesh.topo, x0, x1, inflation, kinds, &c->cand);
    c->time_broad_phase += ipcc_now() - t0;
    return st;
}

ipcc_status ipcc_contact_build_set(ipcc_contact *c, const double *xc) {
    double t0 = ipcc_now();
    int rc = ipcc_constraint_set_build(&c->set, &c->mesh, &c->obstacles, &c->cand, xc, c->dhat);
    c->time_constraint_search += ipcc_now() - t0;
    return rc == 0 ? IPCC_OK : ipcc_fail(IPCC_ERR_NO_MEMORY, "contact: out of memory");
}
