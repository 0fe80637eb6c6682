/// The state checks of barrier contact (contact_initial_check.c): a state
/// the simulation starts from, or is set to between steps, must be
/// intersection-free with every distance positive. The first violation
/// fails with IPCC_ERR_INFEASIBLE and a message naming the two bodies and
/// primitives (or the body and the half-space or shape). Private to the
/// library.
#ifndef IPCC_CONTACT_INITIAL_CHECK_H
#define IPCC_CONTACT_INITIAL_CHECK_H

#include <stdbool.h>

#include "contact/contact_setup.h"

/// The state checks: IPCC_ERR_INFEASIBLE naming the bodies and primitives
/// (or body and shape) of the first violation, the message starting with
/// `what`, at def->positions (gathered into c->xc) with the shapes at
/// def->shape_poses (into c->pose); leaves the vertex-face and edge-edge
/// candidates within d̂ of that state in c's candidates. `between_steps`: a
/// state set between steps, whose faces may lie within the CCD's depth
/// budget of a sampled curved shape as a step leaves them
/// (contact_samples.h). ipcc_contact_create runs it on the initial state.
ipcc_status ipcc_contact_check_state(ipcc_contact *c, const ipcc_contact_setup *def, const char *what,
                                     bool between_steps);

/// Check another state as the initial one is (a state set between steps,
/// ipcc_world_set_state): def->positions (3n) with the shapes at
/// def->shape_poses, for the bodies c was created for; a face may lie
/// within the CCD's depth budget of a sampled curved shape, as steps leave
/// them (contact_samples.h). The first violation fails with
/// IPCC_ERR_INFEASIBLE, its message starting with `what`. The next
/// evaluation searches its candidates afresh.
ipcc_status ipcc_contact_check(ipcc_contact *c, const ipcc_contact_setup *def, const char *what);

#endif
