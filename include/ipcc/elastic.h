/// Hyperelastic energy kernels for linear tetrahedra.
///
/// Conventions: a 3x3 matrix is row-major, F[3*i + j] = F_ij. dP/dF is the
/// 9x9 row-major matrix dPdF[9*(3i+j) + (3k+l)] = dP_ij / dF_kl. Per-tet
/// vectors are ordered [x0 y0 z0 x1 y1 z1 x2 ... z3] (12 entries) and per-tet
/// Hessians are 12x12 row-major. F = Ds * Dm^-1 with Ds = [x1-x0, x2-x0, x3-x0]
/// (columns). Energies are in joules, densities in J/m^3.
#ifndef IPCC_ELASTIC_H
#define IPCC_ELASTIC_H

#include <stdbool.h>

#include "ipcc/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Constitutive models.
typedef enum ipcc_material_model {
    IPCC_NEO_HOOKEAN = 0, ///< IPC's form: mu/2 (tr FtF - 3) - mu ln J + lambda/2 (ln J)^2; +inf for J <= 0
    IPCC_FIXED_COROTATED = 1, ///< mu |F - R|^2 + lambda/2 (J - 1)^2 (Stomakhin et al. 2012)
    IPCC_STVK = 2,            ///< mu E:E + lambda/2 tr(E)^2, E = (FtF - I)/2
    IPCC_LINEAR = 3,          ///< mu eps:eps + lambda/2 tr(eps)^2, eps = (F + Ft)/2 - I
} ipcc_material_model;

/// Lame parameters from Young's modulus E (Pa) and Poisson's ratio nu (< 0.5).
IPCC_API void ipcc_lame_parameters(double youngs_modulus, double poisson_ratio, double *mu, double *lambda);

/// Strain energy density Psi(F). Neo-Hookean returns +INFINITY when det F <= 0.
IPCC_API double ipcc_elastic_energy_density(ipcc_material_model model, double mu, double lambda,
                                            const double F[9]);

/// First Piola-Kirchhoff stress P = dPsi/dF.
IPCC_API void ipcc_elastic_stress(ipcc_material_model model, double mu, double lambda, const double F[9],
                                  double P[9]);

/// dP/dF (9x9). With project_psd, negative eigenvalues are clamped to zero.
IPCC_API void ipcc_elastic_stress_derivative(ipcc_material_model model, double mu, double lambda,
                                             const double F[9], bool project_psd, double dPdF[81]);

/// Rest data of a tet: Dm^-1 and the (positive) rest volume. Returns
/// IPCC_ERR_MESH if the tet is degenerate or negatively oriented.
IPCC_API ipcc_status ipcc_tet_rest_data(const double X[12], double Dm_inv[9], double *volume);

/// F = Ds(x) Dm^-1.
IPCC_API void ipcc_tet_deformation_gradient(const double x[12], const double Dm_inv[9], double F[9]);

/// The state of one tet at x: its deformation gradient F = Ds Dm^-1, first
/// Piola-Kirchhoff stress P = dPsi/dF (Pa) and energy density Psi(F) (J per
/// m^3 of rest volume), which it returns. The Cauchy stress is
/// sigma = P F^T / det F. Neo-Hookean with det F <= 0: +INFINITY and P NaN.
IPCC_API double ipcc_elastic_tet_stress(ipcc_material_model model, double mu, double lambda,
                                        const double Dm_inv[9], const double x[12], double F[9], double P[9]);

/// Elastic energy of one tet: volume * Psi(F).
IPCC_API double ipcc_elastic_tet_energy(ipcc_material_model model, double mu, double lambda, double volume,
                                        const double Dm_inv[9], const double x[12]);

/// Gradient (12) of ipcc_elastic_tet_energy with respect to x.
IPCC_API void ipcc_elastic_tet_gradient(ipcc_material_model model, double mu, double lambda, double volume,
                                        const double Dm_inv[9], const double x[12], double g[12]);

/// Hessian (12x12). With project_psd the F-space Hessian is projected to PSD
/// per element before the chain rule, so the result is PSD.
IPCC_API void ipcc_elastic_tet_hessian(ipcc_material_model model, double mu, double lambda, double volume,
                                       const double Dm_inv[9], const double x[12], bool project_psd,
                                       double H[144]);

/// Energy, gradient (12) and Hessian (144) of one tet in one pass (one F,
/// one SVD): the same values as the three calls above. Returns the energy
/// (+INFINITY for Neo-Hookean with J <= 0; g and H are then unspecified).
IPCC_API double ipcc_elastic_tet_evaluate(ipcc_material_model model, double mu, double lambda, double volume,
                                          const double Dm_inv[9], const double x[12], bool project_psd,
                                          double g[12], double H[144]);

/// Project a symmetric n x n row-major matrix (n <= 12) to the nearest PSD
/// matrix in the Frobenius norm (negative eigenvalues set to zero), in place.
/// Uses LAPACKE dsyev with stack workspace; no heap allocation.
IPCC_API void ipcc_project_psd(int n, double *A);

#ifdef __cplusplus
}
#endif
#endif
