/// The adaptive barrier stiffness kappa of IPC (Li et al. 2020,
/// supplemental, "adaptive barrier stiffness") as pure functions: its
/// bounds, its value at a step's start, and its update within a step
/// (barrier_stiffness.c). The anchor is ipc-toolkit's
/// barrier/adaptive_stiffness. Private to the library.
#ifndef IPCC_BARRIER_STIFFNESS_H
#define IPCC_BARRIER_STIFFNESS_H

#include <stdbool.h>

/// The bounds [kappa_min, kappa_max] for vertices of average mass
/// `average_mass` (kg), a scene of bounding-box diagonal L (m) and
/// d̂² = dhat2 (m²).
void ipcc_barrier_stiffness_bounds(double average_mass, double bbox_diagonal, double dhat2, double *kappa_min,
                                   double *kappa_max);

/// kappa at a step's start: the least-squares balance -g_E . g_B / |g_B|^2
/// of the barrier gradient g_B (kappa = 1) against the gradient g_E of the
/// rest of the potential, over the dofs d with dof_map[d] >= 0 of the m
/// given, clamped to [kappa_min, kappa_max], never below `kappa`. Without
/// constraints (g_B NULL): kappa_min if kappa is still 0, else kappa.
double ipcc_barrier_stiffness_initial(double kappa, double kappa_min, double kappa_max, int m,
                                      const int *dof_map, const double *g_rest, const double *g_barrier);

/// kappa within a step: doubled (up to kappa_max) when the smallest squared
/// distance min_d2 is still decreasing from the previous evaluation's
/// prev_min_d2 and either both are below (1e-8 L)^2 (IPC's rule) or
/// prev_min_d2 is below (d̂/10)^2 = dhat2/100 and the step filter's CCD cut
/// the direction that led here (ccd_cut: the locking rule,
/// barrier_stiffness.c); else unchanged.
double ipcc_barrier_stiffness_update(double kappa, double kappa_max, double prev_min_d2, double min_d2,
                                     double bbox_diagonal, double dhat2, bool ccd_cut);

#endif
