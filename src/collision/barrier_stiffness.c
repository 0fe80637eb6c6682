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
// barrier is too soft to stop the approach (IPC's rule). ipcc doubles it
// also when the smallest distance is below d̂/10 and still decreasing after
// the CCD step bound cut the direction that led there (the locking rule).
// That is TOI locking (Zheng, Luo, Li 2026, arXiv 2512.12151, Sec. 1): near
// zero gap the squared-distance barrier pushes back with about
// 2 kappa d̂^4 / d, far less than the momentum a fast impact brings, so each
// Newton direction drives the closest points many times their gap into the
// obstacle, CCD allows a few percent of it, and the gap never gets below
// IPC's 1e-8 L (a 20 m/s ball on a cylinder: gaps near 1e-3 d̂, alpha about
// 0.03, 1000 iterations). Doubling kappa there makes the barrier carry the
// load within a few iterations; the step converged in 363. Without the cut
// condition kappa's history depended on the tolerance (2_matKnives at
// tolerance 1e-4 ended 5.4e-4 L from its 1e-5 run; with it, every
// tolerance sees nearly the same kappa). bench/results/
// 2026-11-29-issue33-kappa.md has the measurements of both variants.
//
// The incremental potential (incremental_potential.c) calls these at their
// places: the balance once per step, at its first evaluation, after the rest
// of the potential's gradient and before the barrier's terms; the update at
// every evaluation.
#include "collision/barrier_stiffness.h"

#include <math.h>

#include "geometry/barrier.h"

/// The locking rule's distance, relative to d̂ (the preamble).
#define IPCC_KAPPA_GAP 0.1

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
                                     double bbox_diagonal, double dhat2, bool ccd_cut) {
    if (!(min_d2 < prev_min_d2)) return kappa;
    double eps2 = 1e-16 * bbox_diagonal * bbox_diagonal;
    bool tiny = prev_min_d2 < eps2 && min_d2 < eps2;
    bool locked = ccd_cut && prev_min_d2 < IPCC_KAPPA_GAP * IPCC_KAPPA_GAP * dhat2;
    return tiny || locked ? fmin(kappa_max, 2 * kappa) : kappa;
}
