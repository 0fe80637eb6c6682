// The incremental potential of a step as a Newton objective.
//
//   E(x) = 1/2 sum_i m_i |x_i - xhat_i|^2 + s * ( sum_e V_e Psi(F_e(x)) - sum_i m_i g . x_i )
//
// (IPC paper, Li et al. 2020, eq. 2 without the contact and friction terms;
// s = h^2 for implicit Euler, beta h^2 for Newmark, 1 for static, where the
// inertia term is dropped.) The Hessian is emitted as triplets in unknown
// indices: prescribed dofs are skipped, and every unknown gets a diagonal
// entry (the mass, or 0 for static) so the pattern always has a diagonal.
// Element Hessians are projected to PSD per tet when def.project_hessian.
//
// Feasibility: any tet with non-positive signed volume makes E = +inf, for
// every material model, so the line search can never accept an inverted
// state even for models (StVK, linear, corotated) whose energy stays finite
// through inversion. max_step applies the inversion filter (inversion.c).
#include <math.h>
#include <string.h>

#include "core.h"
#include "inertia.h"
#include "inversion.h"
#include "world_internal.h"

static void gather_tet(const ipcc_world *w, int e, const double *x, double xe[12]) {
    for (int k = 0; k < 4; ++k)
        memcpy(xe + 3 * k, x + 3 * w->tets[4 * e + k], 3 * sizeof(double));
}

double ipcc_elastic_energy_total(const ipcc_world *w, const double *x) {
    double sum = 0;
    for (int e = 0; e < w->nt; ++e) {
        double xe[12];
        gather_tet(w, e, x, xe);
        if (!(ipcc_tet_signed_volume6(xe) > 0)) return INFINITY;
        const ipcc_body *b = &w->bodies[w->tet_body[e]];
        sum +=
            ipcc_elastic_tet_energy(b->material.model, b->mu, b->lambda, w->volume[e], w->Dm_inv + 9 * e, xe);
    }
    return sum;
}

void ipcc_elastic_gradient_total(const ipcc_world *w, const double *x, double *g) {
    for (int e = 0; e < w->nt; ++e) {
        double xe[12], ge[12];
        gather_tet(w, e, x, xe);
        const ipcc_body *b = &w->bodies[w->tet_body[e]];
        ipcc_elastic_tet_gradient(b->material.model, b->mu, b->lambda, w->volume[e], w->Dm_inv + 9 * e, xe,
                                  ge);
        for (int k = 0; k < 4; ++k)
            for (int i = 0; i < 3; ++i)
                g[3 * w->tets[4 * e + k] + i] += ge[3 * k + i];
    }
}

static double energy(void *ctx, const double *x) {
    const ipcc_world *w = ctx;
    double el = ipcc_elastic_energy_total(w, x);
    if (!isfinite(el)) return INFINITY;
    double s = ipcc_integrator_potential_scale(w);
    double e = s * (el + ipcc_gravity_energy(w->n, w->mass, w->def.gravity, x));
    if (w->def.integrator != IPCC_STATIC) e += ipcc_inertia_energy(w->n, w->mass, x, w->x_hat);
    return e;
}

static double evaluate(void *ctx, const double *x, double *g, ipcc_triplets *T) {
    const ipcc_world *w = ctx;
    double s = ipcc_integrator_potential_scale(w);
    bool dynamic = w->def.integrator != IPCC_STATIC;
    const int *map = w->dof_map;
    int m = 3 * w->n;
    double el = ipcc_elastic_energy_total(w, x);
    if (!isfinite(el)) return INFINITY;
    if (ipcc_triplets_reserve(T, w->num_unknowns + 78 * w->nt) != 0) return NAN;

    // Inertia: gradient m (x - xhat), Hessian diag(m); gravity: gradient -m g.
    memset(g, 0, sizeof(double) * (size_t)m);
    if (dynamic) ipcc_inertia_gradient(w->n, w->mass, x, w->x_hat, g);
    double gs[3] = {s * w->def.gravity[0], s * w->def.gravity[1], s * w->def.gravity[2]};
    ipcc_gravity_gradient(w->n, w->mass, gs, g);
    for (int d = 0; d < m; ++d)
        if (map[d] >= 0) ipcc_triplets_add(T, map[d], map[d], dynamic ? w->mass[d / 3] : 0.0);

    // Elasticity, scaled by s.
    for (int e = 0; e < w->nt; ++e) {
        double xe[12], ge[12], He[144];
        gather_tet(w, e, x, xe);
        const ipcc_body *b = &w->bodies[w->tet_body[e]];
        const double *Dm = w->Dm_inv + 9 * e;
        ipcc_elastic_tet_gradient(b->material.model, b->mu, b->lambda, w->volume[e], Dm, xe, ge);
        ipcc_elastic_tet_hessian(b->material.model, b->mu, b->lambda, w->volume[e], Dm, xe,
                                 w->def.project_hessian, He);
        int dofs[12];
        for (int k = 0; k < 4; ++k)
            for (int i = 0; i < 3; ++i) {
                int d = 3 * w->tets[4 * e + k] + i;
                g[d] += s * ge[3 * k + i];
                dofs[3 * k + i] = map[d];
            }
        for (int a = 0; a < 12; ++a) {
            if (dofs[a] < 0) continue;
            for (int c = 0; c < 12; ++c)
                if (dofs[c] >= dofs[a]) ipcc_triplets_add(T, dofs[a], dofs[c], s * He[12 * a + c]);
        }
    }
    double e = s * (el + ipcc_gravity_energy(w->n, w->mass, w->def.gravity, x));
    if (dynamic) e += ipcc_inertia_energy(w->n, w->mass, x, w->x_hat);
    return T->failed ? NAN : e;
}

static double max_step(void *ctx, const double *x, const double *p) {
    const ipcc_world *w = ctx;
    return ipcc_inversion_max_step(w->nt, w->tets, x, p);
}

ipcc_objective ipcc_incremental_potential(ipcc_world *w) {
    ipcc_objective obj = {.ctx = w, .energy = energy, .evaluate = evaluate, .max_step = max_step};
    return obj;
}
