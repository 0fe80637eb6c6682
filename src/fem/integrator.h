/// Time integrators as incremental potentials (integrator.c): the scale of
/// the force potentials, the predictor x_hat, and the velocity and
/// acceleration update, on plain arrays. Private to the library. `h` is the
/// length of the step being solved: def->time_step, or a part of it when the
/// world splits a step (world_step.c).
#ifndef IPCC_INTEGRATOR_H
#define IPCC_INTEGRATOR_H

#include "ipcc/world.h"

/// Energy scale s in E(x) = inertia + s * (elastic + external + ...): h^2
/// (implicit Euler), beta h^2 (Newmark), 1 (static).
double ipcc_integrator_potential_scale(const ipcc_world_def *def, double h);

/// The time the convergence tolerances are measured over (s): h, or 1 s for
/// a static solve (docs/scene-format.md, newton.tolerance).
double ipcc_integrator_tolerance_time(const ipcc_world_def *def, double h);

/// x_hat (m dofs) for the step starting at x with velocity v and
/// acceleration a.
void ipcc_integrator_predict(const ipcc_world_def *def, double h, int m, const double *x, const double *v,
                             const double *a, double *x_hat);

/// v (and, Newmark, a) of every one of the m dofs after the step from
/// x_start to x with predictor x_hat. Prescribed vertices under Newmark take
/// their exact rigid kinematics instead: the caller overwrites them
/// (ipcc_dirichlet_kinematics).
void ipcc_integrator_update(const ipcc_world_def *def, double h, int m, const double *x_start,
                            const double *x, const double *x_hat, double *v, double *a);

/// Newmark's accelerations at t = 0, a = g + load - grad(elastic) / m per
/// vertex with mass (0 without): on entry a (3n) holds the elastic
/// gradient; load (3n, may be NULL) the external accelerations. Other
/// integrators: a = 0.
void ipcc_integrator_initial_acceleration(const ipcc_world_def *def, int n, const double *mass,
                                          const double *load, double *a);

#endif
