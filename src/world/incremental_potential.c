// The incremental potential of a step as a Newton objective.
//
//   E(x) = 1/2 sum_i m_i |x_i - xhat_i|^2 + s * ( sum_e V_e Psi(F_e(x)) - sum_i m_i (g + a_i) . x_i )
//          + s beta / h * 1/2 sum_e dx_e^T K_e dx_e,     dx = x - x_n
//
// a_i is the external acceleration of the active Neumann conditions
// (boundary_conditions.c). The last term is stiffness-proportional (Rayleigh) damping
// with coefficient beta (world def "damping"): the damping force
// -beta K v with v = dx / h, K_e the PSD-projected elastic Hessian of tet e
// at the step start x_n, held fixed over the step ("lagged", as IPC's
// dampingStiff, docs/ipc-script-format.md 8.7: IPC's k / h = beta h for implicit Euler).
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
// through inversion. max_step applies the inversion filter (inversion_filter.c).
//
// Stages. One evaluation (evaluate) runs, in this order:
//   1. the smooth terms (inertia, elasticity, gravity, loads, damping, and
//      a blocked prescribed motion's penalty, dirichlet_penalty.c): E_s,
//      its gradient g_s and Hessian;
//   2. contact: the constraint set at x (contact.c);
//   3. "stiffness balance", at the step's first evaluation only
//      (w->balance_stiffness, set by world_step.c at each step's start): kappa
//      from g_s, the gradient of the rest of the potential, which g holds at
//      this point and only here (barrier_stiffness.c), so it must come
//      before any contact or friction term is added;
//   4. kappa's in-step update, then the barrier's terms;
//   5. "friction lag", at a lagging pass's first evaluation only
//      (w->lag_friction, set by world_step.c at each pass's start): the friction
//      contacts frozen at x with the kappa of 3-4 (friction.c); in the
//      step's first pass of a fixed number of passes at x_n instead
//      (w->lag_at_start, world_step.c);
//   6. the friction terms.
// energy() sums the same terms in the same order (both end in
// smooth_energy), so a line search compares like with like.
//
// Accuracy. Newton's step test (|p|_inf <= tol L h, IPC's) alone passes
// states far from balanced wherever a term's Hessian is huge: a vertex a
// hair from a barrier (b'' ~ 1/d^2), or a block in static friction's stiff
// creep region (mu lambda / (eps_v h)). There the step H^-1 g is tiny
// while the unbalanced force g is not: a block that should slide never
// starts, a cube that should rebound lies still, a "contact" pulls. So a
// state is converged only if its force residual is small too: with s the
// potential scale (h^2, beta h^2, or 1 static) the unbalanced force on
// vertex i is g_i / s (newtons: g includes inertia, so for dynamics it is
// the error in m_i a_i = f_i), and over one step it would change the
// vertex's velocity by
//   r_i = h |g_i| / (s m_i)                      (m/s; h = 1 for static)
// The step is converged when max_i r_i <= tol L as well, the velocity that
// IPC's step test allows (tol L h per step of length h: IPC's tol is a
// velocity in units of L per second). Both tests share the user's one
// tolerance (world def newton_check_forces turns the second off). Where
// Newton stops converging quadratically the step test decides alone
// (newton.c, "Convergence"); docs/design.md, "When a step is converged".
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

#include "contact/contact.h"
#include "base/parallel.h"
#include "contact/contact_ccd.h"
#include "base/core.h"
#include "contact/friction.h"
#include "fem/inertia.h"
#include "fem/integrator.h"
#include "fem/inversion_filter.h"
#include "fem/local_to_global.h"
#include "world/world.h"
#include "world/incremental_potential.h"
#include "world/dirichlet_penalty.h"

static void gather_tet(const ipcc_world *w, int e, const double *x, double xe[12]) {
    ipcc_local_gather(x, 4, w->tets + 4 * e, xe);
}

// Unknown index of each of the tet's 12 dofs (-1 if prescribed).
static void tet_dofs(const ipcc_world *w, int e, int dofs[12]) {
    ipcc_local_dofs(w->dof_map, 4, w->tets + 4 * e, dofs);
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

// beta / h: the damping term is s * damping_factor * 1/2 dx^T K dx.
static double damping_factor(const ipcc_world *w) { return w->def.damping / w->h; }

// Displacement of tet e since the step start.
static void tet_displacement(const ipcc_world *w, int e, const double *x, double dx[12]) {
    for (int k = 0; k < 4; ++k)
        for (int i = 0; i < 3; ++i) {
            int d = 3 * w->tets[4 * e + k] + i;
            dx[3 * k + i] = x[d] - w->x_start[d];
        }
}

// Tet e's damping quadratic form at x: returns dx^T K dx and writes K dx
// into Kdx (K its lagged Hessian, dx its displacement since the step start).
static double tet_damping(const ipcc_world *w, int e, const double *x, double Kdx[12]) {
    double dx[12], q = 0;
    tet_displacement(w, e, x, dx);
    memset(Kdx, 0, 12 * sizeof(double));
    ipcc_block_add_product(12, w->damp_H + 144 * e, dx, Kdx);
    for (int k = 0; k < 12; ++k)
        q += dx[k] * Kdx[k];
    return q;
}

// Energy of every tet into tet_energy: elastic (+inf for a non-positive
// volume), plus cd/2 dx^T K dx of damping when cd > 0; returns their sum in
// tet order.
static double tet_energies(const ipcc_world *w, const double *x, double cd) {
    static ipcc_region region1;
    ipcc_region_run region1_run = ipcc_region_begin(&region1, w->nt);
#pragma omp parallel for num_threads(region1_run.threads) schedule(guided, 64)
    for (int e = 0; e < w->nt; ++e) {
        double xe[12];
        gather_tet(w, e, x, xe);
        if (!(ipcc_tet_signed_volume6(xe) > 0)) {
            w->tet_energy[e] = INFINITY;
            continue;
        }
        ipcc_material_model model;
        double mu, lambda;
        ipcc_world_tet_law(w, e, &model, &mu, &lambda);
        w->tet_energy[e] = ipcc_elastic_tet_energy(model, mu, lambda, w->volume[e], w->Dm_inv + 9 * e, xe);
        if (cd > 0) {
            double Kdx[12];
            w->tet_energy[e] += 0.5 * cd * tet_damping(w, e, x, Kdx);
        }
    }
    ipcc_region_end(&region1_run);
    double sum = 0;
    for (int e = 0; e < w->nt; ++e)
        sum += w->tet_energy[e];
    return sum;
}

double ipcc_elastic_energy_total(const ipcc_world *w, const double *x) {
    if (prepare_scratch((ipcc_world *)w) != 0) return NAN;
    return tet_energies(w, x, 0.0);
}

void ipcc_elastic_gradient_total(const ipcc_world *w, const double *x, double *g) {
    for (int e = 0; e < w->nt; ++e) {
        double xe[12], ge[12];
        gather_tet(w, e, x, xe);
        ipcc_material_model model;
        double mu, lambda;
        ipcc_world_tet_law(w, e, &model, &mu, &lambda);
        ipcc_elastic_tet_gradient(model, mu, lambda, w->volume[e], w->Dm_inv + 9 * e, xe, ge);
        ipcc_local_scatter_add(g, 4, w->tets + 4 * e, 1.0, ge);
    }
}

// -sum_i m_i a_i . (x_i - x_start_i) over the Neumann loads (relative to
// the step's start, as gravity's: inertia.h).
static double load_energy(const ipcc_world *w, const double *x) {
    double e = 0;
    for (int i = 0; i < w->n; ++i)
        for (int k = 0; k < 3; ++k)
            e -= w->mass[i] * w->load[3 * i + k] * (x[3 * i + k] - w->x_start[3 * i + k]);
    return e;
}

void ipcc_damping_prepare(ipcc_world *w) {
    static ipcc_region region2;
    ipcc_region_run region2_run = ipcc_region_begin(&region2, w->nt);
#pragma omp parallel for num_threads(region2_run.threads) schedule(guided, 64)
    for (int e = 0; e < w->nt; ++e) {
        double xe[12];
        gather_tet(w, e, w->x_start, xe);
        ipcc_material_model model;
        double mu, lambda;
        ipcc_world_tet_law(w, e, &model, &mu, &lambda);
        ipcc_elastic_tet_hessian(model, mu, lambda, w->volume[e], w->Dm_inv + 9 * e, xe, true,
                                 w->damp_H + 144 * e);
    }
    ipcc_region_end(&region2_run);
}

// The smooth part of E at x from the tets' sum `tets` (elasticity and
// damping, tet_energies): s (tets + gravity + loads) + inertia. energy()
// and evaluate() both end here, so they add the same terms in the same order.
static double smooth_energy(const ipcc_world *w, double tets, const double *x) {
    double s = ipcc_integrator_potential_scale(&w->def, w->h);
    double e = s * (tets + ipcc_gravity_energy(w->n, w->mass, w->def.gravity, x, w->x_start));
    if (w->has_load) e += s * load_energy(w, x);
    if (w->def.integrator != IPCC_STATIC) e += ipcc_inertia_energy(w->n, w->mass, x, w->x_hat);
    if (w->penalty_active) e += ipcc_dirichlet_penalty_energy(w, x);
    return e;
}

static ipcc_status energy(void *ctx, const double *x, double *out) {
    ipcc_world *w = ctx;
    const ipcc_step_context sc = ipcc_world_step_context(w);
    if (prepare_scratch(w) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory for the element scratch");
    double tets = tet_energies(w, x, w->damp_H ? damping_factor(w) : 0.0);
    *out = INFINITY;
    if (!isfinite(tets)) return IPCC_OK;
    double e = smooth_energy(w, tets, x);
    if (w->contact) {
        double ec;
        ipcc_status st = ipcc_contact_energy(w->contact, &sc, x, &ec);
        if (st != IPCC_OK) return st;
        e += ec;
    }
    if (w->friction && isfinite(e)) e += ipcc_friction_energy(w->friction, &sc, x);
    *out = e;
    return IPCC_OK;
}

// Stage 1 (preamble): the smooth terms' energy, gradient (into g, 3n) and
// Hessian triplets (into T, cleared by Newton), +inf for an inverted tet.
static ipcc_status smooth_terms(ipcc_world *w, const double *x, const double *lift, double *g,
                                ipcc_triplets *T, double *energy_out) {
    double s = ipcc_integrator_potential_scale(&w->def, w->h);
    bool dynamic = w->def.integrator != IPCC_STATIC, project = w->def.project_hessian;
    const int *map = w->dof_map;
    int m = 3 * w->n;
    if (prepare_scratch(w) != 0 || ipcc_triplets_reserve(T, w->num_unknowns + w->tet_slot[w->nt]) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory for %d tets' Hessian entries", w->nt);

    // Inertia: gradient m (x - xhat), Hessian diag(m); gravity: gradient -s m g.
    memset(g, 0, sizeof(double) * (size_t)m);
    if (dynamic) ipcc_inertia_gradient(w->n, w->mass, x, w->x_hat, g);
    double gs[3] = {s * w->def.gravity[0], s * w->def.gravity[1], s * w->def.gravity[2]};
    ipcc_gravity_gradient(w->n, w->mass, gs, g);
    if (w->has_load)
        for (int d = 0; d < m; ++d)
            g[d] -= s * w->mass[d / 3] * w->load[d];
    double cd = w->damp_H ? damping_factor(w) : 0; // damping, relative to the elastic scale s
    bool penalty = w->penalty_active;
    if (penalty) ipcc_dirichlet_penalty_gradient(w, x, g);
    for (int d = 0; d < m; ++d)
        if (map[d] >= 0)
            ipcc_triplets_add(T, map[d], map[d],
                              (dynamic ? w->mass[d / 3] : 0.0) +
                                  (penalty ? ipcc_dirichlet_penalty_stiffness(w, d / 3) : 0.0));

    // Elasticity, scaled by s: each tet fills its own slots (and, when Newton
    // asks and no lift is pending, its unprojected block's: newton.c,
    // "Exact curvature in the tail").
    int base = T->count;
    bool exact = project && T->want_exact && !lift, lazy = exact && T->lazy_projection;
    if (exact && ipcc_triplets_reserve_exact(T, base, base + w->tet_slot[w->nt]) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory for %d tets' Hessian entries", w->nt);
    w->tet_triplets = base;
    T->projection_pending = lazy;
    int *rows = T->row + base, *cols = T->col + base;
    double *vals = T->val + base, *exact_vals = exact ? T->exact + (base - T->exact_begin) : NULL;
    static ipcc_region region3;
    ipcc_region_run region3_run = ipcc_region_begin(&region3, w->nt);
#pragma omp parallel for num_threads(region3_run.threads) schedule(guided, 64)
    for (int e = 0; e < w->nt; ++e) {
        double xe[12], He[144], Hx[144];
        int dofs[12];
        gather_tet(w, e, x, xe);
        tet_dofs(w, e, dofs);
        double *ge = w->tet_grad + 12 * e;
        if (!(ipcc_tet_signed_volume6(xe) > 0)) {
            w->tet_energy[e] = INFINITY;
            continue;
        }
        ipcc_material_model model;
        double mu, lambda;
        ipcc_world_tet_law(w, e, &model, &mu, &lambda);
        // Lazy: the exact block alone, written as both values (the projected
        // ones come from projected_hessian if Newton needs them).
        w->tet_energy[e] = ipcc_elastic_tet_evaluate(model, mu, lambda, w->volume[e], w->Dm_inv + 9 * e, xe,
                                                     project && !lazy, ge, He);
        if (lazy)
            memcpy(Hx, He, sizeof Hx);
        else if (exact_vals) // the unprojected Hessian alone: energy and gradient are the same
            ipcc_elastic_tet_hessian(model, mu, lambda, w->volume[e], w->Dm_inv + 9 * e, xe, false, Hx);
        if (cd > 0) {
            // Damping: energy cd/2 dx^T K dx, gradient cd K dx, Hessian cd K (all later times s).
            const double *Ke = w->damp_H + 144 * e;
            double Kdx[12], q = tet_damping(w, e, x, Kdx);
            for (int k = 0; k < 12; ++k)
                ge[k] += cd * Kdx[k];
            w->tet_energy[e] += 0.5 * cd * q;
            for (int k = 0; k < 144; ++k)
                He[k] += cd * Ke[k];
            for (int k = 0; exact_vals && k < 144; ++k)
                Hx[k] += cd * Ke[k];
        }
        if (lift) {
            // Pending prescribed motion: g += He lift_e (newton.c, "Prescribed motion").
            double le[12];
            gather_tet(w, e, lift, le);
            ipcc_block_add_product(12, He, le, ge);
        }
        int k = w->tet_slot[e];
        ipcc_block_triplets_write(12, dofs, He, s, rows + k, cols + k, vals + k);
        if (exact_vals) ipcc_block_triplets_write(12, dofs, Hx, s, rows + k, cols + k, exact_vals + k);
    }
    ipcc_region_end(&region3_run);
    T->count = base + w->tet_slot[w->nt];
    if (T->failed) return ipcc_fail(IPCC_ERR_NO_MEMORY, "Hessian triplets: out of memory");

    // Serial reductions in tet order.
    double tets = 0;
    for (int e = 0; e < w->nt; ++e)
        tets += w->tet_energy[e];
    *energy_out = INFINITY;
    if (!isfinite(tets)) return IPCC_OK;
    for (int e = 0; e < w->nt; ++e)
        ipcc_local_scatter_add(g, 4, w->tets + 4 * e, s, w->tet_grad + 12 * e);
    *energy_out = smooth_energy(w, tets, x);
    return IPCC_OK;
}

// The projected elastic blocks (with damping) of the last lazy evaluate, at
// the same x, into the exact values of its tets' entries (newton.h).
static ipcc_status projected_hessian(void *ctx, const double *x, ipcc_triplets *T) {
    ipcc_world *w = ctx;
    IPCC_ASSERT(T->projection_pending && T->exact_begin <= w->tet_triplets &&
                w->tet_triplets + w->tet_slot[w->nt] <= T->exact_end);
    double s = ipcc_integrator_potential_scale(&w->def, w->h), cd = w->damp_H ? damping_factor(w) : 0;
    int base = w->tet_triplets;
    int *rows = T->row + base, *cols = T->col + base;
    double *vals = T->exact + (base - T->exact_begin);
    static ipcc_region region4;
    ipcc_region_run region4_run = ipcc_region_begin(&region4, w->nt);
#pragma omp parallel for num_threads(region4_run.threads) schedule(guided, 64)
    for (int e = 0; e < w->nt; ++e) {
        double xe[12], He[144];
        int dofs[12];
        gather_tet(w, e, x, xe);
        tet_dofs(w, e, dofs);
        ipcc_material_model model;
        double mu, lambda;
        ipcc_world_tet_law(w, e, &model, &mu, &lambda);
        ipcc_elastic_tet_hessian(model, mu, lambda, w->volume[e], w->Dm_inv + 9 * e, xe, true, He);
        for (int k = 0; cd > 0 && k < 144; ++k)
            He[k] += cd * w->damp_H[144 * e + k];
        int k = w->tet_slot[e];
        ipcc_block_triplets_write(12, dofs, He, s, rows + k, cols + k, vals + k);
    }
    ipcc_region_end(&region4_run);
    T->projection_pending = false;
    return IPCC_OK;
}

static ipcc_status evaluate(void *ctx, const double *x, const double *lift, double *g, ipcc_triplets *T,
                            double *energy_out) {
    ipcc_world *w = ctx;
    const ipcc_step_context sc = ipcc_world_step_context(w);
    double e = NAN;
    ipcc_status st = smooth_terms(w, x, lift, g, T, &e); // 1.
    if (st != IPCC_OK || !isfinite(e)) {
        *energy_out = e;
        return st;
    }
    if (w->contact) {
        st = ipcc_contact_update(w->contact, &sc, x); // 2.
        if (st == IPCC_OK && w->balance_stiffness) {  // 3. g = the smooth terms' gradient, nothing else
            st = ipcc_contact_balance_stiffness(w->contact, &sc, g);
            w->balance_stiffness = false;
        }
        double ec = 0;
        if (st == IPCC_OK) {
            ipcc_contact_update_stiffness(w->contact); // 4.
            st = ipcc_contact_assemble(w->contact, &sc, lift, g, T, &ec);
        }
        if (st != IPCC_OK) return st;
        e += ec;
    }
    if (w->friction && isfinite(e)) {
        if (w->lag_friction) { // 5.
            w->lag_friction = false;
            st = ipcc_friction_lag(w->friction, w->contact, &sc, w->lag_at_start ? w->x_start : x);
            if (st != IPCC_OK) return st;
        }
        double ef;
        st = ipcc_friction_assemble(w->friction, &sc, x, lift, g, T, &ef); // 6.
        if (st != IPCC_OK) return st;
        e += ef;
    }
    *energy_out = e;
    return IPCC_OK;
}

static ipcc_status max_step(void *ctx, const double *x, const double *p, double *alpha) {
    const ipcc_world *w = ctx;
    *alpha = fmin(1.0, ipcc_inversion_max_step(w->nt, w->tets, x, p));
    if (!w->contact) return IPCC_OK;
    const ipcc_step_context sc = ipcc_world_step_context(w);
    return ipcc_contact_max_step(w->contact, &sc, x, p, *alpha, alpha);
}

static double gap_change(void *ctx, const double *x, const double *p) {
    ipcc_world *w = ctx;
    if (!w->contact) return 0;
    const ipcc_step_context sc = ipcc_world_step_context(w);
    return ipcc_contact_gap_change(w->contact, &sc, x, p);
}

// Newton's contraction test (newton.c): the gaps' change along p, or
// INFINITY when a sticking friction contact's model passes its bound.
static double model_change(void *ctx, const double *x, const double *p) {
    ipcc_world *w = ctx;
    if (w->friction) {
        const ipcc_step_context sc = ipcc_world_step_context(w);
        if (!ipcc_friction_within_bound(w->friction, &sc, x, p)) return INFINITY;
    }
    return gap_change(ctx, x, p);
}

// Newton accepted a point: friction picks its contacts' models (friction.c,
// "Sliding majorant").
static void accepted(void *ctx, bool whole) {
    ipcc_world *w = ctx;
    if (w->friction) ipcc_friction_accepted(w->friction, whole);
}

// Accuracy (see the preamble): the largest velocity error h |g_i| / (s m_i)
// over the free vertices, from the free components of g.
static double residual(void *ctx, const double *g) {
    const ipcc_world *w = ctx;
    double scale =
               ipcc_integrator_tolerance_time(&w->def, w->h) / ipcc_integrator_potential_scale(&w->def, w->h),
           worst = 0;
    for (int i = 0; i < w->n; ++i) {
        double q = 0;
        for (int k = 0; k < 3; ++k)
            if (w->dof_map[3 * i + k] >= 0) q += g[3 * i + k] * g[3 * i + k];
        if (q > 0) worst = fmax(worst, scale * sqrt(q) / w->mass[i]);
    }
    return worst;
}

ipcc_objective ipcc_incremental_potential(ipcc_world *w) {
    ipcc_objective obj = {.ctx = w,
                          .energy = energy,
                          .evaluate = evaluate,
                          .max_step = max_step,
                          .residual = residual,
                          .gap_change = gap_change,
                          .model_change = model_change,
                          .accepted = accepted,
                          .projected_hessian = projected_hessian};
    return obj;
}
