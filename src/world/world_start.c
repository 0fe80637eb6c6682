// Starting a world (ipcc_world_start): everything that happens once,
// after the last body, obstacle and condition is added and before the
// first step, so that the step itself (world_step.c) only steps.
//
//   1. Refuse an initial state no step can start from: absurd velocities
//      (finite, but overflowing the first step), a d-hat out of range, a
//      stop trigger measuring vertices that do not exist.
//   2. Damping's matrices, when damping is on.
//   3. Analytic shapes: the sharp features of boxes and cylinders become
//      segment-set obstacles, and a moving shape gets its clock
//      (world_shapes.c).
//   4. Contact: the collision mesh, d-hat, kappa's bounds and the initial
//      intersection check (contact.c); friction when any surface has a
//      coefficient (friction.c).
//   5. Room for the saved starts of split steps (world_span.c).
//   6. The loads at t = 0, and Newmark's initial acceleration from them,
//      gravity and the elastic forces.
// A failure leaves the world unstarted; it can then only be destroyed (a
// feature obstacle may already have been added).
#include <math.h>
#include <string.h>

#include "base/core.h"
#include "contact/contact.h"
#include "contact/friction.h"
#include "fem/integrator.h"
#include "world/boundary_conditions.h"
#include "world/incremental_potential.h"
#include "world/world.h"
#include "world/world_shapes.h"
#include "world/world_span.h"

// The friction coefficients of every surface (friction.h).
static ipcc_status create_friction(ipcc_world *w) {
    int nb = w->num_bodies, ns = w->num_shapes;
    double *body_mu = malloc(sizeof(double) * (size_t)(nb + 1)),
           *shape_mu = malloc(sizeof(double) * (size_t)(ns + 1));
    int *body_shape = malloc(sizeof(int) * (size_t)(nb + 1));
    ipcc_status st = IPCC_OK;
    if (body_mu && shape_mu && body_shape) {
        for (int b = 0; b < nb; ++b) {
            body_mu[b] = w->bodies[b].friction;
            body_shape[b] = w->bodies[b].shape;
        }
        for (int i = 0; i < ns; ++i)
            shape_mu[i] = w->shapes[i].friction;
        const ipcc_contact_def *cs = &w->def.contact;
        ipcc_friction_def def = {.mu = cs->friction,
                                 .eps_v = cs->friction_epsv > 0 ? cs->friction_epsv : 1e-4 * w->bbox_diagonal,
                                 .smoothing_time = cs->friction_smoothing_time,
                                 .num_bodies = nb,
                                 .body_mu = body_mu,
                                 .body_shape = body_shape,
                                 .num_half_spaces = w->num_half_spaces,
                                 .half_space_mu = w->half_space_friction,
                                 .num_shapes = ns,
                                 .shape_mu = shape_mu};
        st = ipcc_friction_create(&def, &w->friction);
    } else {
        st = ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory creating the friction state");
    }
    free(body_mu);
    free(body_shape);
    free(shape_mu);
    return st;
}

// Contact starts with the first step: the collision mesh, d̂, kappa, and the
// initial intersection check.
static ipcc_status start_contact(ipcc_world *w) {
    if (!w->def.contact.enabled || (w->num_faces == 0 && w->num_half_spaces == 0 && w->num_shapes == 0))
        return IPCC_OK;
    ipcc_status st = ipcc_world_create_contact(w, &w->contact);
    if (st != IPCC_OK) return st;
    w->dhat = ipcc_contact_dhat(w->contact);
    // Friction when any coefficient can be positive.
    bool any = w->def.contact.friction > 0;
    for (int b = 0; b < w->num_bodies && w->def.contact.friction < 0; ++b)
        any |= w->bodies[b].friction > 0;
    for (int h = 0; h < w->num_half_spaces; ++h)
        any |= w->half_space_friction[h] > 0;
    for (int i = 0; i < w->num_shapes; ++i)
        any |= w->shapes[i].friction > 0;
    if (!any) return IPCC_OK;
    return create_friction(w);
}

ipcc_status ipcc_world_start(ipcc_world *w) {
    IPCC_ASSERT(w);
    if (w->started) return IPCC_OK;
    if (w->n == 0) return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "the world has no bodies");
    // Finite but absurd values (a velocity of 1e308 m/s) overflow the first
    // step's prediction x + h v + h^2 g or its inertia energy m |h v + h^2 g|^2:
    // refuse them here, before any output.
    for (int b = 0; b < w->num_bodies; ++b)
        for (int i = w->bodies[b].first_vertex; i < w->bodies[b].first_vertex + w->bodies[b].num_vertices;
             ++i)
            for (int k = 0; k < 3; ++k) {
                if (ipcc_world_motion_overflows(w, i, k, w->x[3 * i + k], w->v[3 * i + k]))
                    return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                                     "body \"%s\": vertex %d: the initial velocity (%g m/s) or gravity (%g "
                                     "m/s^2) overflows the first step",
                                     w->bodies[b].name, i - w->bodies[b].first_vertex, w->v[3 * i + k],
                                     w->def.gravity[k]);
            }
    if (w->def.contact.enabled && !isfinite(w->def.contact.dhat * w->def.contact.dhat))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "contact dhat %g m is out of range", w->def.contact.dhat);
    for (int c = 0; c < w->num_dirichlet; ++c) {
        const ipcc_stop_trigger *t = &w->dirichlet[c].def.stop;
        if (t->axis >= 0 && t->first_vertex + t->num_vertices > w->n)
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                             "body \"%s\": a stop trigger measures vertices [%d, %d) but the world has %d",
                             w->bodies[w->dirichlet[c].body].name, t->first_vertex,
                             t->first_vertex + t->num_vertices, w->n);
    }
    if (w->def.damping > 0 && w->def.integrator != IPCC_STATIC && w->nt > 0 &&
        !(w->damp_H = malloc(sizeof(double) * 144 * (size_t)w->nt)))
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory for the damping matrices");
    ipcc_status st = ipcc_world_shapes_start(w);
    if (st != IPCC_OK) return st;
    // The shapes' clock is one more (prescribed) vertex slot after the n
    // vertices: at 0 until each step sets it (ipcc_world_shapes_prepare_step).
    if (w->has_clock && ipcc_world_reserve_clock(w) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory for the shapes' clock");
    st = start_contact(w);
    if (st != IPCC_OK) return st;
    if ((st = ipcc_world_span_reserve(w)) != IPCC_OK) return st;
    // The loads at t = 0 (Newmark's initial acceleration includes them).
    ipcc_neumann_prepare(w);
    memset(w->a, 0, sizeof(double) * 3 * (size_t)w->n);
    if (w->def.integrator == IPCC_NEWMARK) ipcc_elastic_gradient_total(w, w->x, w->a);
    ipcc_integrator_initial_acceleration(&w->def, w->n, w->mass, w->has_load ? w->load : NULL, w->a);
    w->started = true;
    return IPCC_OK;
}
