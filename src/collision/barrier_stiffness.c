// The adaptive barrier stiffness of IPC (Li et al. 2020, supplemental,
// "adaptive barrier stiffness"; the formulas are the paper's, the constants
// as in IPC's release).
//
// Bounds. kappa_min = 1e11 m_avg / (4 d0 b''(d0, d̂²)) with d0 = (1e-8 L)^2,
// i.e. the barrier's stiffness at a distance of 1e-8 L matches 1e11 times
// an average vertex mass; kappa_max = 100 kappa_min. (A d̂ below 1e-8 L
// takes d0 = d̂²/2, inside the barrier's support.)
//
// Step start. With active constraints,
//   kappa = max(kappa, clamp(-g_E . g_B / |g_B|^2, kappa_min, kappa_max)),
// g_E the gradient of the rest of the incremental potential and g_B that of
// the barrier sum (kappa = 1), over the unknowns: the least-squares balance
// of the two, so a new contact starts with a force of the order of what
// pushes it. With no constraint yet kappa = kappa_min. kappa never
// decreases.
//
// Within a step. When the smallest distance is below 1e-8 L and still
// decreasing between evaluations, kappa doubles (up to kappa_max): the
// barrier is too soft to stop the approach.
//
// The incremental potential (incremental_potential.c) calls these at their
// places: the balance once per step, at its first evaluation, after the rest
// of the potential's gradient and before the barrier's terms; the update at
// every evaluation.
#include "collision/barrier_stiffness.h"

#include <math.h>

#include "geometry/barrier.h"

void ipcc_barrier_stiffness_bounds(double average_mass, double bbox_diagonal, double dhat2, double *kappa_min,
                                   double *kappa_max) {
    double d0 = 1e-16 * bbox_diagonal * bbox_diagonal;
    if (!(d0 < dhat2)) d0 = 0.5 * dhat2; // a d̂ below 1e-8 L
    *kappa_min = 1e11 * average_mass / (4 * d0 * ipcc_barrier_second_derivative(d0, dhat2));
    *kappa_max = 100 * *kappa_min;
}

double ipcc_barrier_stiffness_initial(double kappa, double kappa_min, double kappa_max, int m,
                                      const int *dof_map, const double *g_rest, const double *g_barrier) {
    if (!g_barrier) return kappa == 0 ? kappa_min : kappa;
    double num = 0, den = 0;
    for (int d = 0; d < m; ++d)
        if (dof_map[d] >= 0) {
            num += g_rest[d] * g_barrier[d];
            den += g_barrier[d] * g_barrier[d];
        }
    double k = den > 0 ? -num / den : kappa_min;
    k = fmin(fmax(k, kappa_min), kappa_max);
    return fmax(kappa, k);
}

double ipcc_barrier_stiffness_update(double kappa, double kappa_max, double prev_min_d2, double min_d2,
                                     double bbox_diagonal) {
    double eps2 = 1e-16 * bbox_diagonal * bbox_diagonal;
    if (prev_min_d2 < eps2 && min_d2 < eps2 && min_d2 < prev_min_d2) return fmin(kappa_max, 2 * kappa);
    return kappa;
}
