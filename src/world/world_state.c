// Setting a world's state between steps (ipcc_world_set_state): a caller's
// positions and velocities replace the world's only when the new state is
// one the world could have reached itself.
//
// The guarantee every step keeps (intersection- and inversion-free, every
// distance positive: the induction hypothesis of contact_ccd.c) must hold at
// the state a step starts from, so a new state is checked as the initial
// state is (world_start.c, ipcc_world_start), plus the tets' orientation, and
// refused as a whole: the world is unchanged unless every check passes.
// In order:
//   1. every value finite, and no velocity that overflows the next step's
//      prediction x + h v + h^2 g (as at the start);
//   2. vertices whose motion is prescribed (mesh obstacles, segment-set
//      features of shapes, vertices of a Dirichlet condition active at the
//      current time) keep their position and velocity bit for bit: their
//      motion belongs to the scene;
//   3. every tet keeps a positive signed volume (6V > 0, the inversion
//      filter's invariant, inversion_filter.c);
//   4. the contact checks of the initial state (contact_initial_check.c),
//      at the new positions with the shapes at their current poses, but
//      with a face allowed as deep into a sampled curved shape as the CCD
//      lets a step leave it (0.5 d̂, contact_samples.h).
// Nothing else needs refreshing: the library keeps no state between steps
// but positions, velocities, accelerations, the clock, kappa and the
// prescribed motions' progress (checkpoint.h), and each step rebuilds its
// caches. Under Newmark the accelerations of the free vertices are those
// of the new state, a = g + load - grad(elastic) / m, as at t = 0
// (integrator.h), when the positions change; the other integrators keep
// none. A state equal to the current one bit for bit changes nothing.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact_initial_check.h"
#include "base/core.h"
#include "fem/inversion_filter.h"
#include "world/world.h"
#include "world/incremental_potential.h"
#include "world/boundary_conditions.h"

static const char *const WHAT = "new state";

// Per vertex: 1 if its motion is prescribed at the current time (into p, n).
static void mark_prescribed(const ipcc_world *w, unsigned char *p) {
    memset(p, 0, (size_t)w->n);
    for (int b = 0; b < w->num_bodies; ++b)
        if (w->bodies[b].kinematic)
            memset(p + w->bodies[b].first_vertex, 1, (size_t)w->bodies[b].num_vertices);
    for (int c = 0; c < w->num_dirichlet; ++c) {
        const ipcc_dirichlet *bc = &w->dirichlet[c];
        if (!ipcc_dirichlet_prescribes(bc, w->time)) continue;
        for (int j = 0; j < bc->num_vertices; ++j)
            p[bc->vertices[j]] = 1;
    }
}

// Checks 1 and 2 for one array (x or v, 3n; NULL: kept). The body is
// looked up only for a message.
static ipcc_status check_values(const ipcc_world *w, const unsigned char *prescribed, const double *x,
                                const double *v) {
    for (int i = 0; i < w->n; ++i)
        for (int k = 0; k < 3; ++k) {
            const double xi = x ? x[3 * i + k] : w->x[3 * i + k], vi = v ? v[3 * i + k] : w->v[3 * i + k];
            const bool finite = isfinite(xi) && isfinite(vi),
                       changed = prescribed[i] && (xi != w->x[3 * i + k] || vi != w->v[3 * i + k]);
            if (finite && !changed && !ipcc_world_motion_overflows(w, i, k, xi, vi)) continue;
            const ipcc_body *b = &w->bodies[ipcc_world_body_of_vertex(w, i)];
            const int local = i - b->first_vertex;
            if (!finite)
                return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s: body \"%s\": vertex %d: %s %s is not finite",
                                 WHAT, b->name, local, isfinite(xi) ? "velocity" : "position",
                                 (const char *[]){"x", "y", "z"}[k]);
            if (changed)
                return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                                 "%s: body \"%s\": vertex %d: its motion is prescribed (%s), so its %s "
                                 "cannot be set",
                                 WHAT, b->name, local, b->kinematic ? "an obstacle" : "a Dirichlet condition",
                                 xi != w->x[3 * i + k] ? "position" : "velocity");
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                             "%s: body \"%s\": vertex %d: the velocity (%g m/s) overflows the next step",
                             WHAT, b->name, local, vi);
        }
    return IPCC_OK;
}

// Check 3 at x (3n).
static ipcc_status check_tets(const ipcc_world *w, const double *x) {
    for (int t = 0; t < w->nt; ++t) {
        double X[12];
        for (int a = 0; a < 4; ++a)
            memcpy(X + 3 * a, x + 3 * w->tets[4 * t + a], 3 * sizeof(double));
        double v6 = ipcc_tet_signed_volume6(X);
        if (!(v6 > 0)) {
            const ipcc_body *b = &w->bodies[w->tet_body[t]];
            return ipcc_fail(IPCC_ERR_INFEASIBLE,
                             "%s: body \"%s\": tet %d is %s (6V = %.3g m^3, %.3g at rest)", WHAT, b->name,
                             t - b->first_tet, v6 < 0 ? "inverted" : "flat", v6, 6 * w->volume[t]);
        }
    }
    return IPCC_OK;
}

// Check 4 at x (3n + the clock's 3).
static ipcc_status check_contact(const ipcc_world *w, const double *x) {
    if (!w->contact) return IPCC_OK;
    ipcc_collision_body *bodies = malloc(sizeof *bodies * (size_t)(w->num_bodies + 1));
    if (!bodies) return ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory checking the new state");
    ipcc_contact_setup def = ipcc_world_contact_setup(w, bodies);
    def.positions = x;
    ipcc_status st = ipcc_contact_check(w->contact, &def, WHAT);
    free(bodies);
    return st;
}

// Newmark's accelerations of the free vertices at the new state (see the
// preamble); w->warm is scratch between steps.
static void newmark_accelerations(ipcc_world *w, const unsigned char *prescribed) {
    ipcc_neumann_prepare(w);
    double *g = w->warm;
    memset(g, 0, sizeof(double) * 3 * (size_t)w->n);
    ipcc_elastic_gradient_total(w, w->x, g);
    ipcc_integrator_initial_acceleration(&w->def, w->n, w->mass, w->has_load ? w->load : NULL, g);
    for (int i = 0; i < w->n; ++i)
        if (!prescribed[i] && w->mass[i] > 0) memcpy(w->a + 3 * i, g + 3 * i, 3 * sizeof(double));
}

ipcc_status ipcc_world_set_state(ipcc_world *w, const double *positions, const double *velocities) {
    IPCC_ASSERT(w);
    ipcc_status st = ipcc_world_start(w);
    if (st != IPCC_OK) return st;
    if (!positions && !velocities) return IPCC_OK;
    const int m = ipcc_world_num_dofs(w);
    unsigned char *prescribed = malloc((size_t)w->n + 1);
    double *x = positions ? malloc(sizeof(double) * (size_t)m) : NULL;
    if (!prescribed || (positions && !x)) {
        free(prescribed);
        free(x);
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory checking the new state");
    }
    mark_prescribed(w, prescribed);
    st = check_values(w, prescribed, positions, velocities);
    // Positions equal to the current ones bit for bit change nothing (not
    // even Newmark's a) and need no geometric check: a step left them.
    if (st == IPCC_OK && positions && memcmp(positions, w->x, sizeof(double) * 3 * (size_t)w->n) == 0)
        positions = NULL;
    if (st == IPCC_OK && positions) {
        memcpy(x, w->x, sizeof(double) * (size_t)m); // the clock's slot, after the 3n
        memcpy(x, positions, sizeof(double) * 3 * (size_t)w->n);
        st = check_tets(w, x);
        if (st == IPCC_OK) st = check_contact(w, x);
    }
    if (st == IPCC_OK) {
        if (positions) memcpy(w->x, positions, sizeof(double) * 3 * (size_t)w->n);
        if (velocities) memcpy(w->v, velocities, sizeof(double) * 3 * (size_t)w->n);
        if (positions && w->def.integrator == IPCC_NEWMARK) newmark_accelerations(w, prescribed);
    }
    free(prescribed);
    free(x);
    return st;
}
