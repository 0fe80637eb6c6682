// Prescribed motion that contact blocks: the augmented Lagrangian of IPC
// (Li et al. 2020, Sec. 5, "Augmented Lagrangian for boundary conditions").
//
// Normally a Dirichlet vertex is no unknown: Newton moves it to its target
// along CCD- and inversion-filtered directions (newton.c, "Prescribed
// motion"). When contact makes the target unreachable (a body squeezed
// between a clamp and a wall) that lift cannot complete, and the solve ends
// stalled or at the iteration cap, every step. Then this phase takes over
// for the rest of the step: the Dirichlet vertices (of bodies, with mass)
// become unknowns, and the incremental potential gains, for each of them,
//   E_AL = rho/2 m_i |x_i - xhat_i|^2 - sqrt(m_i) lambda_i . (x_i - xhat_i)
// (xhat_i its target; the paper's eq., in the units of the inertia term
// 1/2 m |x - x~|^2; incremental_potential.c adds it). Newton minimizes
// this like any energy, so every iterate stays intersection- and
// inversion-free, and each solve converges by the usual test. Between
// solves, as IPC:
//   - the targets are met when every Dirichlet vertex is within the step
//     tolerance tol L h of its target: the phase ends, the vertices are
//     prescribed again, and one ordinary solve places them exactly;
//   - otherwise, while the vertices are less than 99 % of the way from where
//     the phase started to their targets and rho < 1e8, rho doubles (from
//     1e6); else the multipliers take the first-order update
//     lambda_i <- lambda_i - rho sqrt(m_i) (x_i - xhat_i).
// A solve that leaves the vertices more than 90 % as far from their targets
// as the one before (or PENALTY_MAX_ROUNDS solves) means the motion is
// blocked for good: the step ends at the last solve's state, converged as
// that solve was, with the clamp pressing on the body with the penalty's
// force and its vertices short of their targets (reported). The
// prescription is then met "where contact allows": in the direction the
// contact leaves free, the penalty pulls the vertices onto their targets.
// The next step's targets start from where the vertices are
// (boundary_conditions.c: a group moves rigidly from its current pose), so
// the shortfall does not accumulate.
//
// Not covered: kinematic mesh obstacles and analytic shapes (no mass: a
// blocked obstacle still ends its step "not converged").
//
// Memory: the multipliers and the saved dof map live in the world's
// per-vertex arrays (world.c, ipcc_world_reserve_state), so the phase
// allocates nothing. Results do not depend on the thread count (serial
// loops over vertices).
#include <math.h>
#include <string.h>

#include "base/core.h"
#include "world/world.h"
#include "world/dirichlet_penalty.h"

#define PENALTY_RHO_START 1e6
#define PENALTY_RHO_MAX 1e8
#define PENALTY_MAX_ROUNDS 24

// Vertex i takes part: prescribed by a Dirichlet condition, with mass.
static bool penalized(const ipcc_world *w, int i) { return w->prescribed[i] >= 0 && w->mass[i] > 0; }

// Largest |x_i - xhat_i| over the penalized vertices; its vertex into
// *vertex (may be NULL; -1 without any).
static double shortfall_at(const ipcc_world *w, int *vertex) {
    double worst = 0;
    if (vertex) *vertex = -1;
    for (int i = 0; i < w->n; ++i)
        if (penalized(w, i)) {
            const double *x = w->x + 3 * i, *t = w->x_target + 3 * i;
            double d[3] = {x[0] - t[0], x[1] - t[1], x[2] - t[2]},
                   r = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            if (r > worst) {
                worst = r;
                if (vertex) *vertex = i;
            }
        }
    return worst;
}

static double shortfall(const ipcc_world *w) { return shortfall_at(w, NULL); }

bool ipcc_dirichlet_blocked(const ipcc_world *w, double tolerance) { return shortfall(w) > tolerance; }

double ipcc_dirichlet_penalty_energy(const ipcc_world *w, const double *x) {
    double e = 0;
    for (int i = 0; i < w->n; ++i) {
        if (!penalized(w, i)) continue;
        double m = w->mass[i], sm = sqrt(m);
        for (int k = 0; k < 3; ++k) {
            double d = x[3 * i + k] - w->x_target[3 * i + k];
            e += 0.5 * w->penalty_rho * m * d * d - sm * w->penalty_lambda[3 * i + k] * d;
        }
    }
    return e;
}

void ipcc_dirichlet_penalty_gradient(const ipcc_world *w, const double *x, double *g) {
    for (int i = 0; i < w->n; ++i) {
        if (!penalized(w, i)) continue;
        double m = w->mass[i], sm = sqrt(m);
        for (int k = 0; k < 3; ++k)
            g[3 * i + k] += w->penalty_rho * m * (x[3 * i + k] - w->x_target[3 * i + k]) -
                            sm * w->penalty_lambda[3 * i + k];
    }
}

double ipcc_dirichlet_penalty_stiffness(const ipcc_world *w, int i) {
    return penalized(w, i) ? w->penalty_rho * w->mass[i] : 0.0;
}

// Make the penalized vertices' dofs unknowns (on = true), or restore the
// saved map (on = false).
static void switch_dofs(ipcc_world *w, bool on) {
    int m = ipcc_world_num_dofs(w);
    if (on) {
        memcpy(w->penalty_saved_map, w->dof_map, sizeof(int) * (size_t)m);
        w->penalty_saved_unknowns = w->num_unknowns;
        int u = 0;
        for (int d = 0; d < m; ++d)
            w->dof_map[d] = w->dof_map[d] >= 0 || (d < 3 * w->n && penalized(w, d / 3)) ? u++ : -1;
        w->num_unknowns = u;
    } else {
        memcpy(w->dof_map, w->penalty_saved_map, sizeof(int) * (size_t)m);
        w->num_unknowns = w->penalty_saved_unknowns;
    }
    w->penalty_active = on;
    w->dof_version++;
}

ipcc_status ipcc_dirichlet_penalty_solve(ipcc_world *w, const ipcc_objective *obj,
                                         const ipcc_newton_params *params, ipcc_newton_result *out,
                                         double *short_out, int *condition) {
    int m = ipcc_world_num_dofs(w);
    memset(w->penalty_lambda, 0, sizeof(double) * 3 * (size_t)w->n);
    w->penalty_rho = PENALTY_RHO_START;
    double start = shortfall(w), prev = start;
    switch_dofs(w, true);
    ipcc_newton_result total = {0};
    ipcc_status st = IPCC_OK;
    bool met = false;
    for (int round = 0; round < PENALTY_MAX_ROUNDS; ++round) {
        ipcc_newton_result r;
        st = ipcc_newton_solve(w->newton, obj, params, m, w->dof_map, w->num_unknowns, w->x_target, w->x, &r);
        ipcc_newton_result_add(&total, &r, round == 0);
        if (st < 0) break;
        double now = shortfall(w);
        if (now <= params->tolerance) {
            met = true;
            break;
        }
        if (round > 0 && now > 0.9 * prev) break; // blocked for good
        prev = now;
        if (now > 0.01 * start && w->penalty_rho < PENALTY_RHO_MAX) {
            w->penalty_rho *= 2;
        } else {
            for (int i = 0; i < w->n; ++i)
                if (penalized(w, i))
                    for (int k = 0; k < 3; ++k)
                        w->penalty_lambda[3 * i + k] -=
                            w->penalty_rho * sqrt(w->mass[i]) * (w->x[3 * i + k] - w->x_target[3 * i + k]);
        }
    }
    switch_dofs(w, false);
    if (st >= 0 && met) { // prescribed again: one ordinary solve places them exactly
        ipcc_newton_result r;
        st = ipcc_newton_solve(w->newton, obj, params, m, w->dof_map, w->num_unknowns, w->x_target, w->x, &r);
        ipcc_newton_result_add(&total, &r, false);
    }
    *out = total;
    int v;
    *short_out = shortfall_at(w, &v);
    if (condition) *condition = v >= 0 ? w->prescribed[v] : -1;
    return st;
}
