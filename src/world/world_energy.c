// Energies and momenta of the world's current state (ipcc_world_energies),
// for stats.csv and for tests of the integrators' energy behaviour.
//
// Every term is a sum over the deformable bodies' vertices [0, n_deformable)
// with their lumped masses (world_bodies.c): mesh obstacles (and the
// shapes' feature bodies) have zero mass and prescribed motion, half-spaces
// and shapes have no vertices; they take part only through the barrier.
//
//   kinetic        T   = 1/2 sum_i m_i |v_i|^2
//   elastic        Psi = sum_e W(F_e) V_e        (ipcc_elastic_energy_total)
//   gravitational  U_g = -sum_i m_i g . x_i      (zero at the origin)
//   barrier        B   = kappa sum_k b(d_k) / s  (IPC, Li et al. 2020, eq. 6)
//   momenta        p   = sum_i m_i v_i,  L = sum_i x_i x m_i v_i (about the origin)
//
// The barrier's kappa is in the incremental potential's units (IPC scales
// the whole potential by h^2, integrator.c), so dividing by the potential
// scale s gives joules, and its gradient is the per-vertex contact force
// in newtons (contact.c, ipcc_contact_end_step). The constraint set is
// searched afresh at the current state within d̂ (ipcc_contact_active, as
// the contact report does), and its energy summed in constraint order
// (ipcc_contact_energy); the next step starts with its own search
// (ipcc_contact_begin_step), so reading energies changes no result.
//
// Neumann loads (time-dependent) and Rayleigh damping have no potential
// here: their work shows as a change of the total.
//
// Determinism: every sum runs in a fixed order (vertices, tets,
// constraints), so the values are the same for any thread count.
#include <math.h>
#include <string.h>

#include "contact/contact.h"
#include "base/core.h"
#include "world/world.h"
#include "world/incremental_potential.h"

ipcc_status ipcc_world_energies(const ipcc_world *w, ipcc_energies *out) {
    IPCC_ASSERT(w && out);
    memset(out, 0, sizeof *out);
    const double *g = w->def.gravity;
    for (int i = 0; i < w->n_deformable; ++i) {
        const double m = w->mass[i], *x = w->x + 3 * i, *v = w->v + 3 * i;
        // T += 1/2 m |v|^2, U_g -= m g . x, p += m v, L += x x m v
        out->kinetic += 0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        out->gravitational -= m * (g[0] * x[0] + g[1] * x[1] + g[2] * x[2]);
        for (int k = 0; k < 3; ++k)
            out->linear_momentum[k] += m * v[k];
        out->angular_momentum[0] += m * (x[1] * v[2] - x[2] * v[1]);
        out->angular_momentum[1] += m * (x[2] * v[0] - x[0] * v[2]);
        out->angular_momentum[2] += m * (x[0] * v[1] - x[1] * v[0]);
    }
    out->elastic = w->nt > 0 ? ipcc_elastic_energy_total(w, w->x) : 0;
    if (isnan(out->elastic)) {
        out->barrier = NAN;
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "energies: out of memory");
    }
    if (!w->contact) return IPCC_OK;
    const ipcc_step_context sc = ipcc_world_step_context(w);
    const ipcc_contact_info *info;
    int count = 0;
    double b = 0;
    ipcc_status st = ipcc_contact_active(w->contact, &sc, w->x, &info, &count);
    if (st == IPCC_OK && count > 0) st = ipcc_contact_energy(w->contact, &sc, w->x, &b);
    if (st != IPCC_OK) {
        out->barrier = NAN;
        return st;
    }
    out->barrier = b / sc.potential_scale;
    return IPCC_OK;
}

double ipcc_world_elastic_energy(const ipcc_world *w) { return ipcc_elastic_energy_total(w, w->x); }
