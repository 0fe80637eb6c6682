// The world: its lifecycle (create, start, destroy), the time step, and
// the read-only views of its state.
//
// All bodies share flat arrays: positions x (3n), velocities, masses, tets
// with global vertex indices. A body is a contiguous vertex range and a
// contiguous tet range, placed there by world_bodies.c (bodies, mesh
// obstacles, half-spaces) and world_shapes.c (analytic shapes). Defs are
// copied; the world never keeps caller pointers. Their defaults live in
// types.c.
//
// A step (ipcc_world_step):
//   1. Dirichlet: active conditions for [t, t + h), targets of prescribed
//      vertices, the dof map of unknowns (boundary_conditions.c).
//   2. Predictor x_hat (integrator.c).
//   3. Initial guess: every vertex at x_n, which is feasible (intersection-
//      and inversion-free). Prescribed vertices move to their targets inside
//      Newton, through CCD- and inversion-filtered steps (newton.c,
//      "Prescribed motion"), so neither a clamp nor an obstacle can jump
//      through a barrier or invert a tet.
//   4. Newton on the incremental potential (newton.c).
//   5. Velocity (and acceleration) update, t += h.
// A failing step (negative status) restores the state of the step start.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "contact/contact.h"
#include "base/core.h"
#include "contact/friction.h"
#include "base/vec3.h"
#include "world/world_internal.h"

ipcc_status ipcc_world_create(const ipcc_world_def *def, ipcc_world **out) {
    IPCC_ASSERT(def && out);
    IPCC_CHECK_DEF(def, "ipcc_world_def: initialise it with ipcc_default_world_def()");
    *out = NULL;
    if (!(def->time_step > 0) || !isfinite(def->time_step))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "time_step must be > 0 (got %g)", def->time_step);
    if (!finite3(def->gravity)) return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "gravity must be finite");
    if (def->integrator < IPCC_IMPLICIT_EULER || def->integrator > IPCC_STATIC)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "unknown integrator %d", (int)def->integrator);
    if (!(def->newton_tolerance > 0) || !isfinite(def->newton_tolerance))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "newton tolerance must be > 0 (got %g)",
                         def->newton_tolerance);
    if (def->newton_max_iterations < 1)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "newton max_iterations must be >= 1 (got %d)",
                         def->newton_max_iterations);
    if (!(def->contact.dhat >= 0) || !isfinite(def->contact.dhat))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "contact dhat must be >= 0 metres (got %g)",
                         def->contact.dhat);
    if (!isfinite(def->contact.friction))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "contact friction must be finite (got %g)",
                         def->contact.friction);
    if (!(def->contact.friction_epsv >= 0) || !isfinite(def->contact.friction_epsv))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "contact friction_epsv must be >= 0 m/s (got %g)",
                         def->contact.friction_epsv);
    if (def->contact.friction_iterations < 1 && def->contact.friction_iterations != -1)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "contact friction_iterations must be >= 1 or -1 (got %d)",
                         def->contact.friction_iterations);
    if (!(def->contact.kappa >= 0) || !isfinite(def->contact.kappa))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "contact kappa must be >= 0 (got %g)",
                         def->contact.kappa);
    if (!(def->contact.friction_smoothing_time >= 0) || !isfinite(def->contact.friction_smoothing_time))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "contact friction_smoothing_time must be >= 0 s (got %g)",
                         def->contact.friction_smoothing_time);
    if (!(def->length_scale >= 0) || !isfinite(def->length_scale))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "length_scale must be >= 0 metres (got %g)",
                         def->length_scale);
    if (!(def->damping >= 0) || !isfinite(def->damping))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "damping must be >= 0 s (got %g)", def->damping);
    if (!(def->newmark_beta > 0 && def->newmark_beta <= 0.5))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "newmark beta must be in (0, 0.5] (got %g)",
                         def->newmark_beta);
    if (!(def->newmark_gamma >= 0.5 && def->newmark_gamma <= 1))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "newmark gamma must be in [0.5, 1] (got %g)",
                         def->newmark_gamma);
    if (def->num_tolerances < 0 || (def->num_tolerances > 0 && !def->tolerances))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "bad tolerance schedule");
    for (int i = 0; i < def->num_tolerances; ++i)
        if (!(def->tolerances[i] > 0) || !isfinite(def->tolerances[i]))
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "newton tolerance %d must be > 0 (got %g)", i,
                             def->tolerances[i]);
    ipcc_world *w = calloc(1, sizeof *w);
    if (!w) return ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory creating the world");
    w->def = *def;
    if (def->num_tolerances > 0) {
        w->tolerances = malloc(sizeof(double) * (size_t)def->num_tolerances);
        if (!w->tolerances) {
            free(w);
            return ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory creating the world");
        }
        memcpy(w->tolerances, def->tolerances, sizeof(double) * (size_t)def->num_tolerances);
        w->def.tolerances = w->tolerances;
    }
    w->dof_version = 1; // the slot offsets (version 0) start stale
    w->newton = ipcc_newton_create();
    if (!w->newton) {
        free(w->tolerances);
        free(w);
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "could not start the linear solver (CHOLMOD)");
    }
    *out = w;
    return IPCC_OK;
}

void ipcc_world_destroy(ipcc_world *w) {
    if (!w) return;
    for (int b = 0; b < w->num_bodies; ++b)
        free(w->bodies[b].name);
    for (int c = 0; c < w->num_dirichlet; ++c)
        free(w->dirichlet[c].vertices);
    for (int c = 0; c < w->num_neumann; ++c)
        free(w->neumann[c].vertices);
    free(w->neumann);
    free(w->load);
    free(w->tolerances);
    free(w->damp_H);
    free(w->bodies);
    free(w->dirichlet);
    free(w->x);
    free(w->v);
    free(w->a);
    free(w->x_rest);
    free(w->mass);
    free(w->x_start);
    free(w->x_hat);
    free(w->x_target);
    free(w->warm);
    free(w->prescribed);
    free(w->dof_map);
    free(w->penalty_lambda);
    free(w->penalty_saved_map);
    free(w->tets);
    free(w->tet_body);
    free(w->tet_material);
    free(w->tet_region);
    free(w->materials);
    free(w->Dm_inv);
    free(w->volume);
    free(w->tet_energy);
    free(w->tet_grad);
    free(w->tet_slot);
    free(w->faces);
    free(w->edges);
    free(w->half_spaces);
    free(w->contact_force);
    free(w->friction_force);
    free(w->half_space_friction);
    for (int h = 0; h < w->num_half_spaces; h++)
        free(w->half_space_names[h]);
    free(w->half_space_names);
    ipcc_world_shapes_free(w);
    ipcc_friction_destroy(w->friction);
    ipcc_contact_destroy(w->contact);
    ipcc_newton_destroy(w->newton);
    free(w);
}

// Grow every per-vertex and per-tet array to hold n vertices and nt tets.
int ipcc_world_reserve_state(ipcc_world *w, int n, int nt) {
    if (n > w->cap_n) {
        int cap = ipcc_grow_capacity(w->cap_n, 64, n);
        double **vec3[] = {&w->x,
                           &w->v,
                           &w->a,
                           &w->x_rest,
                           &w->x_start,
                           &w->x_hat,
                           &w->x_target,
                           &w->warm,
                           &w->contact_force,
                           &w->friction_force,
                           &w->load,
                           &w->penalty_lambda};
        for (size_t k = 0; k < sizeof vec3 / sizeof *vec3; ++k) {
            double *p = realloc(*vec3[k], sizeof(double) * 3 * (size_t)cap);
            if (!p) return -1;
            *vec3[k] = p;
        }
        double *m = realloc(w->mass, sizeof(double) * (size_t)cap);
        if (!m) return -1;
        w->mass = m;
        int *pr = realloc(w->prescribed, sizeof(int) * (size_t)cap);
        if (!pr) return -1;
        w->prescribed = pr;
        int *dm = realloc(w->dof_map, sizeof(int) * 3 * (size_t)cap);
        if (!dm) return -1;
        w->dof_map = dm;
        int *sm = realloc(w->penalty_saved_map, sizeof(int) * 3 * (size_t)cap);
        if (!sm) return -1;
        w->penalty_saved_map = sm;
        w->cap_n = cap;
    }
    if (nt > w->cap_nt) {
        int cap = ipcc_grow_capacity(w->cap_nt, 64, nt);
        int *t = realloc(w->tets, sizeof(int) * 4 * (size_t)cap);
        if (!t) return -1;
        w->tets = t;
        int *tb = realloc(w->tet_body, sizeof(int) * (size_t)cap);
        if (!tb) return -1;
        w->tet_body = tb;
        int *tm = realloc(w->tet_material, sizeof(int) * (size_t)cap);
        if (!tm) return -1;
        w->tet_material = tm;
        int *tr = realloc(w->tet_region, sizeof(int) * (size_t)cap);
        if (!tr) return -1;
        w->tet_region = tr;
        double *D = realloc(w->Dm_inv, sizeof(double) * 9 * (size_t)cap);
        if (!D) return -1;
        w->Dm_inv = D;
        double *V = realloc(w->volume, sizeof(double) * (size_t)cap);
        if (!V) return -1;
        w->volume = V;
        w->cap_nt = cap;
    }
    return 0;
}

ipcc_contact_setup ipcc_world_contact_setup(const ipcc_world *w, ipcc_collision_body *bodies) {
    for (int b = 0; b < w->num_bodies; ++b) {
        const ipcc_body *body = &w->bodies[b];
        bodies[b] = (ipcc_collision_body){.name = body->name,
                                          .first_vertex = body->first_vertex,
                                          .num_vertices = body->num_vertices,
                                          .first_tet = body->first_tet,
                                          .num_faces = body->num_faces,
                                          .kinematic = body->kinematic};
    }
    return (ipcc_contact_setup){.mesh = {.num_vertices = w->n,
                                         .rest_positions = w->x_rest,
                                         .num_bodies = w->num_bodies,
                                         .bodies = bodies,
                                         .num_faces = w->num_faces,
                                         .faces = w->faces,
                                         .num_edges = w->num_edges,
                                         .edges = w->edges,
                                         .self_collision = w->def.contact.self_collision},
                                .positions = w->x,
                                .masses = w->mass,
                                .num_tets = w->nt,
                                .tets = w->tets,
                                .tet_body = w->tet_body,
                                .num_half_spaces = w->num_half_spaces,
                                .half_spaces = w->half_spaces,
                                .half_space_names = (const char *const *)w->half_space_names,
                                .num_shapes = w->num_shapes,
                                .shape_poses = w->shape_pose,
                                .shape_defs = w->shapes,
                                .bbox_diagonal = w->bbox_diagonal,
                                .dhat = w->def.contact.dhat,
                                .kappa = w->def.contact.kappa};
}

ipcc_status ipcc_world_create_contact(const ipcc_world *w, ipcc_contact **out) {
    ipcc_collision_body *bodies = malloc(sizeof *bodies * (size_t)(w->num_bodies + 1));
    if (!bodies) return ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory creating the contact state");
    ipcc_contact_setup def = ipcc_world_contact_setup(w, bodies);
    ipcc_status st = ipcc_contact_create(&def, out);
    free(bodies);
    return st;
}

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
    // The shapes' clock is one more (prescribed) vertex slot after the n vertices.
    if (w->has_clock && ipcc_world_reserve_state(w, w->n + 1, w->nt) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory for the shapes' clock");
    if (w->has_clock) { // at 0, prescribed, until each step sets it (ipcc_world_shapes_prepare_step)
        double *vec3[] = {w->x,     w->v,        w->a,    w->x_rest,        w->x_start,
                          w->x_hat, w->x_target, w->warm, w->contact_force, w->friction_force,
                          w->load};
        for (size_t k = 0; k < sizeof vec3 / sizeof *vec3; ++k)
            memset(vec3[k] + 3 * w->n, 0, 3 * sizeof(double));
        for (int k = 0; k < 3; ++k)
            w->dof_map[3 * w->n + k] = -1;
    }
    st = start_contact(w);
    if (st != IPCC_OK) return st;
    // The loads at t = 0 (Newmark's initial acceleration includes them).
    ipcc_neumann_prepare(w);
    memset(w->a, 0, sizeof(double) * 3 * (size_t)w->n);
    if (w->def.integrator == IPCC_NEWMARK) ipcc_elastic_gradient_total(w, w->x, w->a);
    ipcc_integrator_initial_acceleration(&w->def, w->n, w->mass, w->has_load ? w->load : NULL, w->a);
    w->started = true;
    return IPCC_OK;
}

// Newton's starting point: x_n + h v_n over the free dofs (IPC's
// warmStart 1, docs/ipc-script-format.md 3.6) when that whole motion passes the step filter
// (inversion and CCD, as any Newton step, so the start is as safe as x_n)
// and does not raise the energy; else x_n. Near an impact the motion fails
// the filter or raises the energy (a barrier at a tiny gap), and Newton
// starts where IPC's default would. Starting at x_n resets every contact's
// slip to zero:
// lagged friction measures slip from x_n (friction.c), so a body resting
// under static friction loses its friction force at each step's start and
// Newton must rebuild it through the stiff creep region (3 extra
// iterations per step at rest, measured on a stack of cubes); a body
// sliding or flying starts where it is going. Static solves start at x_n.
static ipcc_status warm_start(ipcc_world *w, const ipcc_objective *obj) {
    if (w->def.integrator == IPCC_STATIC) return IPCC_OK;
    int m = 3 * w->n;
    double *d = w->warm;
    bool any = false;
    for (int k = 0; k < m; ++k) {
        d[k] = w->dof_map[k] >= 0 ? w->def.time_step * w->v[k] : 0.0;
        any |= d[k] != 0;
    }
    if (!any) return IPCC_OK;
    double alpha = 1, e0, e1;
    ipcc_status st = obj->max_step(obj->ctx, w->x, d, &alpha);
    if (st != IPCC_OK || alpha < 1) return st;
    if ((st = obj->energy(obj->ctx, w->x, &e0)) != IPCC_OK) return st;
    for (int k = 0; k < m; ++k)
        d[k] += w->x[k];
    if ((st = obj->energy(obj->ctx, d, &e1)) != IPCC_OK) return st;
    if (e1 <= e0) memcpy(w->x, d, sizeof(double) * (size_t)m);
    return IPCC_OK;
}

// The Newton tolerance (relative, tol) of step index `step` (0-based).
static double newton_tolerance(const ipcc_world *w, int step) {
    if (w->def.num_tolerances == 0) return w->def.newton_tolerance;
    return w->tolerances[step < w->def.num_tolerances ? step : w->def.num_tolerances - 1];
}

double ipcc_world_velocity_tolerance(const ipcc_world *w) {
    return newton_tolerance(w, w->step > 0 ? w->step - 1 : 0) * w->bbox_diagonal;
}

ipcc_status ipcc_world_step(ipcc_world *w, ipcc_step_stats *stats) {
    IPCC_ASSERT(w);
    double t_begin = ipcc_now();
    if (w->n == 0) return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "the world has no bodies");
    ipcc_status st0 = ipcc_world_start(w);
    if (st0 != IPCC_OK) return st0;
    if (w->contact) ipcc_contact_begin_step(w->contact);
    int m = 3 * w->n;
    memcpy(w->x_start, w->x, sizeof(double) * (size_t)m);
    ipcc_dirichlet_prepare_step(w);
    ipcc_world_shapes_prepare_step(w);
    ipcc_integrator_predict(&w->def, m, w->x, w->v, w->a, w->x_hat);
    if (w->damp_H) ipcc_damping_prepare(w);
    // kappa is balanced at the step's first state (incremental_potential.c, stage 3).
    w->balance_stiffness = w->contact != NULL;
    const ipcc_step_context sc = ipcc_world_step_context(w);

    ipcc_objective obj = ipcc_incremental_potential(w);
    ipcc_status sw = warm_start(w, &obj);
    if (sw != IPCC_OK) return ipcc_fail(sw, "step %d (t = %g): %s", w->step + 1, w->time, ipcc_last_error());
    double h = ipcc_integrator_tolerance_time(&w->def);
    double tol = newton_tolerance(w, w->step);
    ipcc_newton_params params = {.tolerance = tol * w->bbox_diagonal * h,
                                 .residual_tolerance =
                                     w->def.newton_check_forces ? tol * w->bbox_diagonal : INFINITY,
                                 .max_iterations = w->def.newton_max_iterations};
    // Friction lagging passes (friction.c): the first freezes contacts at the
    // step start, each further one at the previous pass's solution (each
    // Newton solve starts there, and its first evaluation does the freeze:
    // incremental_potential.c, stage 5).
    ipcc_newton_result r = {0};
    ipcc_status st = IPCC_OK;
    int passes = 0, max_passes = 1, fcount = 0;
    double dissipation = 0;
    if (w->friction)
        max_passes = w->def.contact.friction_iterations == -1 ? 20 : w->def.contact.friction_iterations;
    for (;;) {
        // At this pass's start state; with a fixed number of passes the
        // first freezes at x_n, "the start of the step", whatever Newton's
        // starting point (warm_start). The fixed point (-1) does not depend
        // on where the first pass froze, and freezing at Newton's start
        // (IPC's order) measured closer to Coulomb on the slope tests.
        w->lag_friction = w->friction != NULL;
        w->lag_at_start = passes == 0 && w->def.contact.friction_iterations != -1;
        ipcc_newton_result rp;
        ipcc_status sp = ipcc_newton_solve(w->newton, &obj, &params, ipcc_world_num_dofs(w), w->dof_map,
                                           w->num_unknowns, w->x_target, w->x, &rp);
        ipcc_newton_result_add(&r, &rp, passes == 0);
        passes++;
        if (sp < 0 || st == IPCC_OK) st = sp; // a warning in any pass stays a warning
        if (sp < 0 || !w->friction) break;
        fcount = ipcc_friction_count(w->friction);
        ipcc_friction_forces(w->friction, &sc, w->x, w->friction_force, &dissipation);
        if (passes >= max_passes) break;
        // The fixed point (friction_iterations -1): a pass whose first state,
        // with friction lagged at itself, already passes the convergence
        // test (IPC's rule, docs/ipc-script-format.md 8.9, with ipcc's test).
        if (passes > 1 && w->def.contact.friction_iterations == -1 && rp.converged && rp.iterations == 1)
            break;
    }
    // A prescribed motion that contact blocked: its augmented Lagrangian
    // (dirichlet_penalty.c) finishes the step.
    bool blocked = false;
    if (st >= 0 && !r.converged && ipcc_dirichlet_blocked(w, params.tolerance)) {
        ipcc_newton_result ra;
        double short_by;
        int c;
        w->lag_friction = false; // friction stays lagged at the last pass's state
        st = ipcc_dirichlet_penalty_solve(w, &obj, &params, &ra, &short_by, &c);
        r.stalled = false;
        ipcc_newton_result_add(&r, &ra, false);
        blocked = short_by > params.tolerance;
        if (blocked && !w->penalty_warned) {
            int b = c >= 0 ? w->dirichlet[c].body : -1, k = 0; // condition c is the body's dirichlet[k]
            for (int j = 0; j < c; ++j)
                k += w->dirichlet[j].body == b;
            ipcc_log(IPCC_LOG_WARNING,
                     "step %d (t = %g): contact blocks body \"%s\"'s dirichlet[%d]: its vertices end up to "
                     "%.3g m short of their targets; the step converged with the augmented Lagrangian "
                     "(docs/design.md). Reported once per blocked spell",
                     w->step + 1, w->time, b >= 0 ? w->bodies[b].name : "?", k, short_by);
        }
        if (st >= 0) st = r.converged ? IPCC_OK : IPCC_WARN_NOT_CONVERGED;
    }
    w->penalty_warned = blocked;
    if (st < 0) {
        memcpy(w->x, w->x_start, sizeof(double) * (size_t)m);
        return ipcc_fail(st, "step %d (t = %g): %s", w->step + 1, w->time, ipcc_last_error());
    }
    if (r.stalled)
        ipcc_log(IPCC_LOG_WARNING,
                 "step %d (t = %g): no progress: CCD or the inversion filter allowed steps below 1e-10 for "
                 "%d Newton iterations (a body squeezed between obstacles?); the state is safe but not "
                 "converged",
                 w->step + 1, w->time, r.iterations);
    ipcc_integrator_update(&w->def, m, w->x_start, w->x, w->x_hat, w->v, w->a);
    if (w->def.integrator == IPCC_NEWMARK && !blocked) // prescribed vertices: their exact rigid kinematics
        for (int i = 0; i < w->n; ++i)
            if (w->prescribed[i] >= 0)
                ipcc_dirichlet_kinematics(w, w->prescribed[i], w->x + 3 * i, w->v + 3 * i, w->a + 3 * i);
    ipcc_world_shapes_end_step(w);
    w->time += w->def.time_step;
    w->step++;
    if (stats) {
        stats->num_contacts = 0;
        stats->min_distance = INFINITY;
        stats->kappa = stats->time_ccd = stats->time_broad_phase = stats->time_constraint_search = 0;
    }
    if (w->contact) {
        ipcc_status se = ipcc_contact_end_step(w->contact, &sc, w->x, w->contact_force, stats);
        if (se != IPCC_OK) return ipcc_fail(se, "step %d (t = %g): %s", w->step, w->time, ipcc_last_error());
        w->kappa = ipcc_contact_kappa(w->contact);
    }
    if (stats) {
        stats->friction_iterations = w->friction ? passes : 0;
        stats->friction_contacts = w->friction ? fcount : 0;
        stats->friction_dissipation = dissipation;
        stats->lift_iterations = r.lift_iterations;
        stats->step = w->step;
        stats->time = w->time;
        stats->newton_iterations = r.iterations;
        stats->line_search_steps = r.line_search_steps;
        stats->factorization_fallbacks = r.fallbacks;
        stats->energy = r.energy;
        stats->residual = r.residual;
        stats->velocity_error = r.accuracy;
        stats->converged = r.converged;
        stats->time_assembly = r.time_assembly;
        stats->time_factorization = r.time_factorization;
        stats->time_solve = r.time_solve;
        stats->time_line_search = r.time_line_search;
        stats->time_symbolic = r.time_symbolic;
        stats->time_energy = r.time_energy;
        stats->time_total = ipcc_now() - t_begin;
    }
    return st;
}

int ipcc_world_num_vertices(const ipcc_world *w) { return w->n; }
int ipcc_world_num_tets(const ipcc_world *w) { return w->nt; }
int ipcc_world_num_bodies(const ipcc_world *w) { return w->num_bodies; }
const double *ipcc_world_positions(const ipcc_world *w) { return w->x; }
const double *ipcc_world_velocities(const ipcc_world *w) { return w->v; }
const double *ipcc_world_rest_positions(const ipcc_world *w) { return w->x_rest; }
const double *ipcc_world_masses(const ipcc_world *w) { return w->mass; }
const int *ipcc_world_tets(const ipcc_world *w) { return w->tets; }
const int *ipcc_world_tet_bodies(const ipcc_world *w) { return w->tet_body; }
const int *ipcc_world_tet_regions(const ipcc_world *w) { return w->tet_region; }
double ipcc_world_time(const ipcc_world *w) { return w->time; }
int ipcc_world_step_count(const ipcc_world *w) { return w->step; }
double ipcc_world_time_step(const ipcc_world *w) { return w->def.time_step; }
double ipcc_world_bbox_diagonal(const ipcc_world *w) { return w->bbox_diagonal; }

void ipcc_world_body_vertices(const ipcc_world *w, int body, int *first, int *count) {
    IPCC_ASSERT(body >= 0 && body < w->num_bodies);
    if (first) *first = w->bodies[body].first_vertex;
    if (count) *count = w->bodies[body].num_vertices;
}

const char *ipcc_world_body_name(const ipcc_world *w, int body) {
    IPCC_ASSERT(body >= 0 && body < w->num_bodies);
    return w->bodies[body].name;
}

bool ipcc_world_body_is_obstacle(const ipcc_world *w, int body) {
    IPCC_ASSERT(body >= 0 && body < w->num_bodies);
    return w->bodies[body].kinematic;
}
int ipcc_world_num_deformable_vertices(const ipcc_world *w) { return w->n_deformable; }
void ipcc_world_body_surface(const ipcc_world *w, int body, int *num_faces, const int **faces) {
    IPCC_ASSERT(body >= 0 && body < w->num_bodies);
    if (num_faces) *num_faces = w->bodies[body].num_faces;
    if (faces) *faces = w->faces + 3 * w->bodies[body].first_face;
}
void ipcc_world_body_edges(const ipcc_world *w, int body, int *num_edges, const int **edges) {
    IPCC_ASSERT(body >= 0 && body < w->num_bodies);
    if (num_edges) *num_edges = w->bodies[body].num_edges;
    if (edges) *edges = w->edges + 2 * w->bodies[body].first_edge;
}
int ipcc_world_num_half_spaces(const ipcc_world *w) { return w->num_half_spaces; }
void ipcc_world_half_space(const ipcc_world *w, int i, double point[3], double normal[3]) {
    IPCC_ASSERT(i >= 0 && i < w->num_half_spaces);
    memcpy(point, w->half_spaces + 6 * i, 3 * sizeof(double));
    memcpy(normal, w->half_spaces + 6 * i + 3, 3 * sizeof(double));
}
const double *ipcc_world_contact_forces(const ipcc_world *w) { return w->contact_force; }
const double *ipcc_world_friction_forces(const ipcc_world *w) { return w->friction_force; }
double ipcc_world_dhat(const ipcc_world *w) {
    if (w->contact) return w->dhat;
    return w->def.contact.dhat > 0 ? w->def.contact.dhat : 1e-3 * w->bbox_diagonal;
}
double ipcc_world_kappa(const ipcc_world *w) { return w->kappa; }
bool ipcc_world_kappa_bounds(const ipcc_world *w, double *kappa_min, double *kappa_max) {
    if (!w->contact) return false;
    ipcc_contact_kappa_bounds(w->contact, kappa_min, kappa_max);
    return true;
}

double ipcc_world_elastic_energy(const ipcc_world *w) { return ipcc_elastic_energy_total(w, w->x); }

int ipcc_world_body_of_vertex(const ipcc_world *w, int v) {
    int lo = 0, hi = w->num_bodies - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (w->bodies[mid].first_vertex <= v)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

bool ipcc_world_vertex_is_prescribed(const ipcc_world *w, int vertex) {
    IPCC_ASSERT(vertex >= 0 && vertex < w->n);
    return w->prescribed[vertex] >= 0;
}
