// The incremental potential of a step as a Newton objective.
//
//   E(x) = 1/2 sum_i m_i |x_i - xhat_i|^2 + s * ( sum_e V_e Psi(F_e(x)) - sum_i m_i (g + a_i) . x_i )
//          + s beta / h * 1/2 sum_e dx_e^T K_e dx_e,     dx = x - x_n
//
// a_i is the external acceleration of the active Neumann conditions
// (dirichlet.c). The last term is stiffness-proportional (Rayleigh) damping
// with coefficient beta (world def "damping"): the damping force
// -beta K v with v = dx / h, K_e the PSD-projected elastic Hessian of tet e
// at the step start x_n, held fixed over the step ("lagged", as IPC's
// dampingStiff, FORMAT.md 8.7: IPC's k / h = beta h for implicit Euler).
// Its potential 1/2 beta / h dx^T K dx has the gradient beta K v, and enters
// with the factor s like every force potential.
//
// (IPC paper, Li et al. 2020, eq. 2, plus the barrier kappa B(x) of contact.c
// and the lagged friction potential of friction.c;
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
//
// Parallelism and determinism: the element loops run under OpenMP, and every
// tet writes only its own slots: its energy, its 12 gradient entries and a
// fixed range of Hessian triplets whose offsets come from a prefix sum over
// the dof map (recomputed only when the dof map changes). Energies and
// gradients are then reduced serially in tet order. The result is therefore
// bit-identical for any number of threads; the only parallel reduction is
// the inversion filter's minimum, which is order-independent.
#include <math.h>
#include <string.h>

#include "contact.h"
#include "core.h"
#include "friction.h"
#include "inertia.h"
#include "inversion.h"
#include "world_internal.h"

static void gather_tet(const ipcc_world *w, int e, const double *x, double xe[12]) {
    for (int k = 0; k < 4; ++k)
        memcpy(xe + 3 * k, x + 3 * w->tets[4 * e + k], 3 * sizeof(double));
}

// Unknown index of each of the tet's 12 dofs (-1 if prescribed).
static void tet_dofs(const ipcc_world *w, int e, int dofs[12]) {
    for (int k = 0; k < 4; ++k)
        for (int i = 0; i < 3; ++i)
            dofs[3 * k + i] = w->dof_map[3 * w->tets[4 * e + k] + i];
}

// Grow the per-tet scratch; recompute the triplet offsets if the dof map changed.
static int prepare_scratch(ipcc_world *w) {
    if (w->nt > w->cap_scratch) {
        double *en = realloc(w->tet_energy, sizeof(double) * (size_t)w->nt);
        if (!en) return -1;
        w->tet_energy = en;
        double *gr = realloc(w->tet_grad, sizeof(double) * 12 * (size_t)w->nt);
        if (!gr) return -1;
        w->tet_grad = gr;
        int *sl = realloc(w->tet_slot, sizeof(int) * ((size_t)w->nt + 1));
        if (!sl) return -1;
        w->tet_slot = sl;
        w->cap_scratch = w->nt;
        w->slots_version = 0;
    }
    if (w->slots_version != w->dof_version) {
        // Tet e owns the triplets (a, c) with both dofs unknown and dofs[c] >= dofs[a].
        w->tet_slot[0] = 0;
        for (int e = 0; e < w->nt; ++e) {
            int dofs[12];
            tet_dofs(w, e, dofs);
            int count = ipcc_block_triplet_count(12, dofs);
            if (w->tet_slot[e] > (1 << 30) - count) return -1; // int triplet indices
            w->tet_slot[e + 1] = w->tet_slot[e] + count;
        }
        w->slots_version = w->dof_version;
    }
    return 0;
}

// Energy of every tet into tet_energy (+inf for a non-positive volume);
// returns their sum in tet order.
static double elastic_energies(const ipcc_world *w, const double *x) {
#pragma omp parallel for schedule(static)
    for (int e = 0; e < w->nt; ++e) {
        double xe[12];
        gather_tet(w, e, x, xe);
        const ipcc_body *b = &w->bodies[w->tet_body[e]];
        w->tet_energy[e] = ipcc_tet_signed_volume6(xe) > 0
                               ? ipcc_elastic_tet_energy(b->material.model, b->mu, b->lambda, w->volume[e],
                                                         w->Dm_inv + 9 * e, xe)
                               : INFINITY;
    }
    double sum = 0;
    for (int e = 0; e < w->nt; ++e)
        sum += w->tet_energy[e];
    return sum;
}

double ipcc_elastic_energy_total(const ipcc_world *w, const double *x) {
    if (prepare_scratch((ipcc_world *)w) != 0) return NAN;
    return elastic_energies(w, x);
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

// -sum_i m_i a_i . x_i over the Neumann loads.
static double load_energy(const ipcc_world *w, const double *x) {
    double e = 0;
    for (int i = 0; i < w->n; ++i)
        e -= w->mass[i] * (w->load[3 * i] * x[3 * i] + w->load[3 * i + 1] * x[3 * i + 1] +
                           w->load[3 * i + 2] * x[3 * i + 2]);
    return e;
}

void ipcc_damping_prepare(ipcc_world *w) {
#pragma omp parallel for schedule(static)
    for (int e = 0; e < w->nt; ++e) {
        double xe[12];
        gather_tet(w, e, w->x_start, xe);
        const ipcc_body *b = &w->bodies[w->tet_body[e]];
        ipcc_elastic_tet_hessian(b->material.model, b->mu, b->lambda, w->volume[e], w->Dm_inv + 9 * e, xe,
                                 true, w->damp_H + 144 * e);
    }
}

// Displacement of tet e since the step start.
static void tet_displacement(const ipcc_world *w, int e, const double *x, double dx[12]) {
    for (int k = 0; k < 4; ++k)
        for (int i = 0; i < 3; ++i) {
            int d = 3 * w->tets[4 * e + k] + i;
            dx[3 * k + i] = x[d] - w->x_start[d];
        }
}

// 1/2 sum_e dx_e^T K_e dx_e (tet order reduction).
static double damping_energy(const ipcc_world *w, const double *x) {
#pragma omp parallel for schedule(static)
    for (int e = 0; e < w->nt; ++e) {
        double dx[12], Kdx[12] = {0};
        tet_displacement(w, e, x, dx);
        ipcc_block_add_product(12, w->damp_H + 144 * e, dx, Kdx);
        double q = 0;
        for (int k = 0; k < 12; ++k)
            q += dx[k] * Kdx[k];
        w->tet_damp[e] = 0.5 * q;
    }
    double sum = 0;
    for (int e = 0; e < w->nt; ++e)
        sum += w->tet_damp[e];
    return sum;
}

// beta / h: the damping term is s * damping_factor * damping_energy.
static double damping_factor(const ipcc_world *w) { return w->def.damping / w->def.time_step; }

static double energy(void *ctx, const double *x) {
    ipcc_world *w = ctx;
    double el = ipcc_elastic_energy_total(w, x);
    if (!isfinite(el)) return INFINITY;
    double s = ipcc_integrator_potential_scale(w);
    double e = s * (el + ipcc_gravity_energy(w->n, w->mass, w->def.gravity, x));
    if (w->has_load) e += s * load_energy(w, x);
    if (w->damp_H) e += s * damping_factor(w) * damping_energy(w, x);
    if (w->def.integrator != IPCC_STATIC) e += ipcc_inertia_energy(w->n, w->mass, x, w->x_hat);
    if (w->contact) e += ipcc_contact_energy(w->contact, w, x);
    if (w->friction) e += ipcc_friction_energy(w->friction, w, x);
    return e;
}

static double evaluate(void *ctx, const double *x, const double *lift, double *g, ipcc_triplets *T) {
    ipcc_world *w = ctx;
    double s = ipcc_integrator_potential_scale(w);
    bool dynamic = w->def.integrator != IPCC_STATIC, project = w->def.project_hessian;
    const int *map = w->dof_map;
    int m = 3 * w->n;
    if (prepare_scratch(w) != 0 || ipcc_triplets_reserve(T, w->num_unknowns + w->tet_slot[w->nt]) != 0)
        return NAN;

    // Inertia: gradient m (x - xhat), Hessian diag(m); gravity: gradient -s m g.
    memset(g, 0, sizeof(double) * (size_t)m);
    if (dynamic) ipcc_inertia_gradient(w->n, w->mass, x, w->x_hat, g);
    double gs[3] = {s * w->def.gravity[0], s * w->def.gravity[1], s * w->def.gravity[2]};
    ipcc_gravity_gradient(w->n, w->mass, gs, g);
    if (w->has_load)
        for (int d = 0; d < m; ++d)
            g[d] -= s * w->mass[d / 3] * w->load[d];
    double cd = w->damp_H ? damping_factor(w) : 0; // damping, relative to the elastic scale s
    for (int d = 0; d < m; ++d)
        if (map[d] >= 0) ipcc_triplets_add(T, map[d], map[d], dynamic ? w->mass[d / 3] : 0.0);

    // Elasticity, scaled by s: each tet fills its own slots.
    int base = T->count;
    int *rows = T->row + base, *cols = T->col + base;
    double *vals = T->val + base;
#pragma omp parallel for schedule(static)
    for (int e = 0; e < w->nt; ++e) {
        double xe[12], He[144];
        int dofs[12];
        gather_tet(w, e, x, xe);
        tet_dofs(w, e, dofs);
        const ipcc_body *b = &w->bodies[w->tet_body[e]];
        double *ge = w->tet_grad + 12 * e;
        if (!(ipcc_tet_signed_volume6(xe) > 0)) {
            w->tet_energy[e] = INFINITY;
            continue;
        }
        w->tet_energy[e] = ipcc_elastic_tet_evaluate(b->material.model, b->mu, b->lambda, w->volume[e],
                                                     w->Dm_inv + 9 * e, xe, project, ge, He);
        if (cd > 0) {
            // Damping: energy cd/2 dx^T K dx, gradient cd K dx, Hessian cd K (all later times s).
            const double *Ke = w->damp_H + 144 * e;
            double dx[12], Kdx[12] = {0}, q = 0;
            tet_displacement(w, e, x, dx);
            ipcc_block_add_product(12, Ke, dx, Kdx);
            for (int k = 0; k < 12; ++k) {
                q += dx[k] * Kdx[k];
                ge[k] += cd * Kdx[k];
            }
            w->tet_energy[e] += 0.5 * cd * q;
            for (int k = 0; k < 144; ++k)
                He[k] += cd * Ke[k];
        }
        if (lift) {
            // Pending prescribed motion: g += He lift_e (newton.c, "Prescribed motion").
            double le[12];
            gather_tet(w, e, lift, le);
            ipcc_block_add_product(12, He, le, ge);
        }
        int k = w->tet_slot[e];
        ipcc_block_triplets_write(12, dofs, He, s, rows + k, cols + k, vals + k);
    }
    T->count = base + w->tet_slot[w->nt];

    // Serial reductions in tet order.
    double el = 0;
    for (int e = 0; e < w->nt; ++e)
        el += w->tet_energy[e];
    if (!isfinite(el)) return INFINITY;
    for (int e = 0; e < w->nt; ++e) {
        const double *ge = w->tet_grad + 12 * e;
        for (int k = 0; k < 4; ++k)
            for (int i = 0; i < 3; ++i)
                g[3 * w->tets[4 * e + k] + i] += s * ge[3 * k + i];
    }
    double e = s * (el + ipcc_gravity_energy(w->n, w->mass, w->def.gravity, x));
    if (w->has_load) e += s * load_energy(w, x);
    if (dynamic) e += ipcc_inertia_energy(w->n, w->mass, x, w->x_hat);
    if (T->failed) return NAN;
    // Barrier contact: adds its gradient and triplets; g so far balances kappa.
    if (w->contact) e += ipcc_contact_evaluate(w->contact, w, x, lift, g, T);
    if (w->friction && isfinite(e)) e += ipcc_friction_evaluate(w->friction, w, x, lift, g, T);
    return e;
}

static double max_step(void *ctx, const double *x, const double *p) {
    const ipcc_world *w = ctx;
    double alpha = fmin(1.0, ipcc_inversion_max_step(w->nt, w->tets, x, p));
    if (w->contact) alpha = ipcc_contact_max_step(w->contact, w, x, p, alpha);
    return alpha;
}

static bool converged(void *ctx, const double *x, const double *p) {
    const ipcc_world *w = ctx;
    return !w->friction || !w->def.contact.friction_slip_test || ipcc_friction_settled(w->friction, w, x, p);
}

ipcc_objective ipcc_incremental_potential(ipcc_world *w) {
    ipcc_objective obj = {
        .ctx = w, .energy = energy, .evaluate = evaluate, .max_step = max_step, .converged = converged};
    return obj;
}
