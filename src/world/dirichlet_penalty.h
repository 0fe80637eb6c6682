/// Prescribed motion that contact blocks (dirichlet_penalty.c): the
/// augmented Lagrangian of IPC that finishes a step whose Dirichlet
/// vertices cannot reach their targets, and its terms in the incremental
/// potential.
#ifndef IPCC_DIRICHLET_PENALTY_H
#define IPCC_DIRICHLET_PENALTY_H

#include <stdbool.h>

#include "solver/newton.h"
#include "world/world.h"

/// The augmented Lagrangian of a blocked prescribed motion
/// (dirichlet_penalty.c). Blocked: some Dirichlet vertex (with mass) is more
/// than `tolerance` metres from its target.
bool ipcc_dirichlet_blocked(const ipcc_world *w, double tolerance);
/// Solve the rest of the step with the Dirichlet vertices as penalized
/// unknowns; the figures of its solves into *out, the largest remaining
/// distance of a Dirichlet vertex from its target into *shortfall, and that
/// vertex's condition (an index into w->dirichlet) into *condition.
ipcc_status ipcc_dirichlet_penalty_solve(ipcc_world *w, const ipcc_objective *obj,
                                         const ipcc_newton_params *params, ipcc_newton_result *out,
                                         double *shortfall, int *condition);
/// The penalty terms at x, for incremental_potential.c (to be called only
/// while w->penalty_active): energy, gradient (added to g) and vertex i's
/// (i < n) diagonal Hessian entry rho m_i (0 for a vertex that takes no part).
double ipcc_dirichlet_penalty_energy(const ipcc_world *w, const double *x);
void ipcc_dirichlet_penalty_gradient(const ipcc_world *w, const double *x, double *g);
double ipcc_dirichlet_penalty_stiffness(const ipcc_world *w, int i);

#endif
