// Hyperelastic energy kernels for linear tetrahedra: energy density Psi(F),
// first Piola-Kirchhoff stress P = dPsi/dF, its derivative dP/dF (projected
// to PSD in closed form on request), and the per-tet chain rule.
//
// Conventions. 3x3 matrices are row-major, F[3*i + j] = F_ij; a 3x3 matrix
// "vectorized" is the same 9 numbers, so dP/dF is the 9x9 row-major matrix
// dPdF[9*(3i+j) + (3k+l)] = dP_ij/dF_kl. Per-tet vectors are [x0 y0 z0 x1 ...]
// (12) and per-tet Hessians are 12x12 row-major. F = Ds Dm^-1 with
// Ds = [x1-x0, x2-x0, x3-x0] as columns, so F is linear in x:
//   F_ij = sum_a x_{a,i} G_aj,  G = [-(1^T Dm^-1); Dm^-1]   (4x3)
// which is the constant 9x12 matrix B = dF/dx applied implicitly: the
// gradient is g_{a,i} = V sum_j P_ij G_aj, and the Hessian is
// H = V B^T (dP/dF) B, done in two passes over G (about 750 multiplies)
// without forming B. Every function writes (=) its outputs.
//
// Models (mu, lambda are the Lame parameters, J = det F, I_C = F:F):
//   Neo-Hookean (the form used by IPC, Li et al. 2020, and its code):
//     Psi = mu/2 (I_C - 3) - mu ln J + lambda/2 (ln J)^2, +INFINITY for J <= 0
//   fixed corotated (Stomakhin et al. 2012, "Energetically consistent
//     invertible elasticity"):  Psi = mu |F - R|^2 + lambda/2 (J - 1)^2
//   StVK:   Psi = mu E:E + lambda/2 tr(E)^2, E = (F^T F - I)/2
//   linear: Psi = mu eps:eps + lambda/2 tr(eps)^2, eps = (F + F^T)/2 - I
//
// Fixed corotated needs R from the polar decomposition F = R S with
// det R = +1. We take the rotation-variant SVD F = U Sigma V^T of svd3.c
// (det U = det V = +1, any reflection moved into the smallest singular value,
// Irving et al. 2004 / Stomakhin et al. 2012); then R = U V^T and Sigma may
// have a negative last entry for inverted elements. Its derivative is
// derived below (dR/dF = sum_{i<j} t_ij t_ij^T / (s_i + s_j), the "twist"
// eigen-system of Kim & Eberle, "Dynamic Deformables", SIGGRAPH course 2022).
// The formula does not involve U or V individually, only the pair subspaces,
// so repeated singular values (F a rotation, F = cI) are harmless: any valid
// SVD gives the same dR/dF. It is singular only where s_i + s_j = 0, i.e. an
// inverted element with s_2 = -s_3, where R itself jumps; there the
// denominator is clamped to 1e-12 * max(s_1, 1) so the result stays finite.
// A singular F (s_3 = 0) is fine as long as s_2 > 0.
//
// PSD projection. ipcc_elastic_stress_derivative(..., project_psd) clamps
// the negative eigenvalues of the 9x9 dP/dF, and the tet Hessian is then
// V B^T (dP/dF)_+ B, PSD by construction (a congruence of a PSD matrix) and
// 12x12 eigen-work avoided: the per-element projection of Teran et al. 2005,
// "Robust quasistatic finite elements and flesh simulation". For the three
// nonlinear models the eigen-system is known in closed form (Teran et al.
// 2005 Sec. 5; Smith, De Goes & Kim 2019, "Analytic eigensystems for
// isotropic distortion energies", TOG 38(1), Sec. 4-5). Write the energy in
// signed singular values, Psi(s_1, s_2, s_3), with psi_i = dPsi/ds_i. Then
// dP/dF has nine eigenpairs, with eigenvectors vec(U D V^T) for
//   scaling (3): D = diag(a), a an eigenvector of A_ij = d2Psi/(ds_i ds_j);
//   flip (per pair i<j): D = (e_i e_j^T + e_j e_i^T)/sqrt2,
//                        eigenvalue (psi_i - psi_j)/(s_i - s_j);
//   twist (per pair i<j): D = (e_i e_j^T - e_j e_i^T)/sqrt2,
//                         eigenvalue (psi_i + psi_j)/(s_i + s_j).
// (In U^T dF V coordinates the (ij, ji) block of the Hessian is
// [a b; b a] with a = (s_i psi_i - s_j psi_j)/(s_i^2 - s_j^2) and
// b = (s_j psi_i - s_i psi_j)/(s_i^2 - s_j^2), so a + b and a - b are the two
// quotients above, on (1, 1) and (1, -1).) Each model's quotients are
// written below in a closed form without the removable 0/0 at s_i = s_j, so
// repeated singular values need no special case. Negative eigenvalues are
// clamped to zero and dP/dF_+ = sum_k max(lambda_k, 0) d_k d_k^T. This costs
// one 3x3 SVD and one 3x3 symmetric eigen-solve (svd3.c, no LAPACK). The
// linear model's dP/dF is constant and PSD (for mu, lambda >= 0), so it is
// never projected.
//
// The numerical projection ipcc_project_psd (LAPACK dsyev, psd_projection.c)
// is the reference the analytic path is tested against and the fallback for
// Neo-Hookean when det F > 0 but the SVD's s_3 rounds to <= 0 (det F below
// roundoff of |F|^3). No heap allocation anywhere in this file.
//
// ipcc_elastic_tet_evaluate computes F once and (for fixed corotated, or any
// nonlinear model with projection) the SVD once, then the energy, P, and
// dP/dF from them; it returns exactly what the three separate calls return.
//
// Failure modes. Neo-Hookean is undefined for J <= 0: the energy is
// +INFINITY and the stress and its derivative are filled with NaN (a caller
// that evaluates derivatives at an infeasible state has a bug; the line
// search must reject such states from the energy). Non-finite F gives
// non-finite results. ipcc_tet_rest_data rejects tets with
// 6V <= 1e-14 * (longest edge)^3 (the mesh module's criterion) or a
// non-finite coordinate with IPCC_ERR_MESH.
#include "ipcc/elastic.h"

#include <math.h>
#include <string.h>

#include "base/core.h"
#include "fem/svd3.h"
#include "base/vec3.h"

void ipcc_lame_parameters(double youngs_modulus, double poisson_ratio, double *mu, double *lambda) {
    IPCC_ASSERT(mu && lambda && poisson_ratio < 0.5 && poisson_ratio > -1.0);
    // mu = E / (2 (1 + nu)), lambda = E nu / ((1 + nu)(1 - 2 nu))
    *mu = youngs_modulus / (2.0 * (1.0 + poisson_ratio));
    *lambda = youngs_modulus * poisson_ratio / ((1.0 + poisson_ratio) * (1.0 - 2.0 * poisson_ratio));
}

// ---------------------------------------------------------------------------
// 3x3 helpers

// Cofactor matrix: cof(F) = dJ/dF = J F^-T, polynomial so defined for all F.
static void cofactor3(const double F[9], double C[9]) {
    C[0] = F[4] * F[8] - F[5] * F[7];
    C[1] = F[5] * F[6] - F[3] * F[8];
    C[2] = F[3] * F[7] - F[4] * F[6];
    C[3] = F[2] * F[7] - F[1] * F[8];
    C[4] = F[0] * F[8] - F[2] * F[6];
    C[5] = F[1] * F[6] - F[0] * F[7];
    C[6] = F[1] * F[5] - F[2] * F[4];
    C[7] = F[2] * F[3] - F[0] * F[5];
    C[8] = F[0] * F[4] - F[1] * F[3];
}

static double ddot9(const double a[9], const double b[9]) {
    double s = 0;
    for (int i = 0; i < 9; ++i)
        s += a[i] * b[i];
    return s;
}

static void fill_nan(int n, double *a) {
    for (int i = 0; i < n; ++i)
        a[i] = NAN;
}

// A += c * a a^T (9x9).
static void add_outer9(double c, const double a[9], double A[81]) {
    for (int r = 0; r < 9; ++r) {
        double cr = c * a[r];
        for (int s = 0; s < 9; ++s)
            A[9 * r + s] += cr * a[s];
    }
}

// A += c * d cof(F)/dF, the Hessian of J:
//   cof_ij = 1/2 e_imn e_jpq F_mp F_nq  =>  d cof_ij / dF_kl = e_ikn e_jlq F_nq
// nonzero only for i != k and j != l, with n, q the remaining indices.
static void add_det_hessian(double c, const double F[9], double A[81]) {
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) {
            if (i == k) continue;
            int n = 3 - i - k;
            double sik = ((k - i + 3) % 3 == 1) ? 1.0 : -1.0; // e_ikn
            for (int j = 0; j < 3; ++j)
                for (int l = 0; l < 3; ++l) {
                    if (j == l) continue;
                    int q = 3 - j - l;
                    double sjl = ((l - j + 3) % 3 == 1) ? 1.0 : -1.0; // e_jlq
                    A[9 * (3 * i + j) + 3 * k + l] += c * sik * sjl * F[3 * n + q];
                }
        }
}

// R = U V^T
static void rotation_from_svd(const double U[9], const double V[9], double R[9]) {
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            R[3 * i + j] = U[3 * i] * V[3 * j] + U[3 * i + 1] * V[3 * j + 1] + U[3 * i + 2] * V[3 * j + 2];
}

// ---------------------------------------------------------------------------
// Neo-Hookean (IPC form)

static double nh_energy(double mu, double lambda, const double F[9]) {
    double J = det3x3(F);
    if (!(J > 0)) return INFINITY;
    double lnJ = log(J);
    // Psi = mu/2 (F:F - 3) - mu ln J + lambda/2 (ln J)^2
    return 0.5 * mu * (ddot9(F, F) - 3.0) - mu * lnJ + 0.5 * lambda * lnJ * lnJ;
}

// F^-T = cof(F) / J; returns false if J <= 0.
static bool inverse_transpose(const double F[9], double FinvT[9], double *J) {
    cofactor3(F, FinvT);
    *J = FinvT[0] * F[0] + FinvT[1] * F[1] + FinvT[2] * F[2];
    if (!(*J > 0)) return false;
    double inv = 1.0 / *J;
    for (int i = 0; i < 9; ++i)
        FinvT[i] *= inv;
    return true;
}

static void nh_stress(double mu, double lambda, const double F[9], double P[9]) {
    double FinvT[9], J;
    if (!inverse_transpose(F, FinvT, &J)) {
        fill_nan(9, P);
        return;
    }
    // P = mu F + (lambda ln J - mu) F^-T     (d ln J / dF = F^-T)
    double c = lambda * log(J) - mu;
    for (int i = 0; i < 9; ++i)
        P[i] = mu * F[i] + c * FinvT[i];
}

static void nh_stress_derivative(double mu, double lambda, const double F[9], double A[81]) {
    double FinvT[9], J;
    if (!inverse_transpose(F, FinvT, &J)) {
        fill_nan(81, A);
        return;
    }
    // d(F^-1)_ab / dF_kl = -F^-1_ak F^-1_lb, so d(F^-T)_ij / dF_kl = -F^-T_kj F^-T_il, and
    // dP_ij/dF_kl = mu d_ik d_jl + (mu - lambda ln J) F^-T_il F^-T_kj + lambda F^-T_ij F^-T_kl
    double c = mu - lambda * log(J);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double *row = A + 9 * (3 * i + j);
            double lij = lambda * FinvT[3 * i + j];
            for (int k = 0; k < 3; ++k)
                for (int l = 0; l < 3; ++l)
                    row[3 * k + l] = c * FinvT[3 * i + l] * FinvT[3 * k + j] + lij * FinvT[3 * k + l];
            row[3 * i + j] += mu;
        }
}

// ---------------------------------------------------------------------------
// Fixed corotated (Stomakhin et al. 2012)

// Psi from the SVD (s signed) and J = det F.
static double fc_energy_svd(double mu, double lambda, const double s[3], double J) {
    // |F - R|^2 = |U (Sigma - I) V^T|^2 = sum_i (s_i - 1)^2 with signed s
    double d0 = s[0] - 1, d1 = s[1] - 1, d2 = s[2] - 1;
    return mu * (d0 * d0 + d1 * d1 + d2 * d2) + 0.5 * lambda * (J - 1) * (J - 1);
}

static double fc_energy(double mu, double lambda, const double F[9]) {
    double U[9], s[3], V[9];
    ipcc_svd3(F, U, s, V);
    return fc_energy_svd(mu, lambda, s, det3x3(F));
}

static void fc_stress_svd(double mu, double lambda, const double F[9], const double U[9], const double V[9],
                          double P[9]) {
    double R[9], C[9];
    rotation_from_svd(U, V, R);
    cofactor3(F, C);
    double J = C[0] * F[0] + C[1] * F[1] + C[2] * F[2];
    // P = 2 mu (F - R) + lambda (J - 1) cof(F)   (d|F-R|^2/dF = 2(F - R) since R^T dR is skew)
    for (int i = 0; i < 9; ++i)
        P[i] = 2 * mu * (F[i] - R[i]) + lambda * (J - 1) * C[i];
}

static void fc_stress(double mu, double lambda, const double F[9], double P[9]) {
    double U[9], s[3], V[9];
    ipcc_svd3(F, U, s, V);
    fc_stress_svd(mu, lambda, F, U, V, P);
}

// dR/dF. With S = R^T F symmetric, dF = dR S + R dS and W = R^T dR skew:
//   R^T dF - dF^T R = W S + S W.
// In the V basis (S = V Sigma V^T), W' = V^T W V and G = U^T dF V:
//   G - G^T = W' Sigma + Sigma W'  =>  W'_ij = (G_ij - G_ji) / (s_i + s_j),
// and dR = R V W' V^T = U W' V^T = sum_{i<j} W'_ij (u_i v_j^T - u_j v_i^T).
// With t_ij = u_i v_j^T - u_j v_i^T, G_ij - G_ji = <t_ij, dF>, so
//   dR/dF = sum_{i<j} t_ij t_ij^T / (s_i + s_j).
// Here A += c * dR/dF.
static void add_rotation_derivative(double c, const double U[9], const double s[3], const double V[9],
                                    double A[81]) {
    static const int pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    double floor = 1e-12 * fmax(fabs(s[0]), 1.0);
    for (int p = 0; p < 3; ++p) {
        int i = pairs[p][0], j = pairs[p][1];
        double t[9];
        for (int a = 0; a < 3; ++a)
            for (int b = 0; b < 3; ++b)
                t[3 * a + b] = U[3 * a + i] * V[3 * b + j] - U[3 * a + j] * V[3 * b + i];
        add_outer9(c / fmax(s[i] + s[j], floor), t, A);
    }
}

static void fc_stress_derivative_svd(double mu, double lambda, const double F[9], const double U[9],
                                     const double s[3], const double V[9], double A[81]) {
    double C[9];
    cofactor3(F, C);
    double J = C[0] * F[0] + C[1] * F[1] + C[2] * F[2];
    // dP/dF = 2 mu (I - dR/dF) + lambda cof cof^T + lambda (J - 1) d cof/dF
    memset(A, 0, 81 * sizeof(double));
    for (int r = 0; r < 9; ++r)
        A[10 * r] = 2 * mu;
    add_rotation_derivative(-2 * mu, U, s, V, A);
    add_outer9(lambda, C, A);
    add_det_hessian(lambda * (J - 1), F, A);
}

static void fc_stress_derivative(double mu, double lambda, const double F[9], double A[81]) {
    double U[9], s[3], V[9];
    ipcc_svd3(F, U, s, V);
    fc_stress_derivative_svd(mu, lambda, F, U, s, V, A);
}

// ---------------------------------------------------------------------------
// StVK

// E = (F^T F - I)/2 and S = 2 mu E + lambda tr(E) I (second Piola-Kirchhoff).
static void stvk_strain(double mu, double lambda, const double F[9], double E[9], double S[9]) {
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            E[3 * i + j] =
                0.5 * (F[i] * F[j] + F[3 + i] * F[3 + j] + F[6 + i] * F[6 + j] - (i == j ? 1.0 : 0.0));
    double trE = E[0] + E[4] + E[8];
    for (int i = 0; i < 9; ++i)
        S[i] = 2 * mu * E[i];
    S[0] += lambda * trE;
    S[4] += lambda * trE;
    S[8] += lambda * trE;
}

static double stvk_energy(double mu, double lambda, const double F[9]) {
    double E[9], S[9];
    stvk_strain(mu, lambda, F, E, S);
    double trE = E[0] + E[4] + E[8];
    return mu * ddot9(E, E) + 0.5 * lambda * trE * trE;
}

static void stvk_stress(double mu, double lambda, const double F[9], double P[9]) {
    double E[9], S[9];
    stvk_strain(mu, lambda, F, E, S);
    // P = F S
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            P[3 * i + j] = F[3 * i] * S[j] + F[3 * i + 1] * S[3 + j] + F[3 * i + 2] * S[6 + j];
}

static void stvk_stress_derivative(double mu, double lambda, const double F[9], double A[81]) {
    double E[9], S[9], FFt[9];
    stvk_strain(mu, lambda, F, E, S);
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k)
            FFt[3 * i + k] = F[3 * i] * F[3 * k] + F[3 * i + 1] * F[3 * k + 1] + F[3 * i + 2] * F[3 * k + 2];
    // dP = dF S + F dS, dS = mu (dF^T F + F^T dF) + lambda (F:dF) I:
    // dP_ij/dF_kl = d_ik S_lj + mu F_il F_kj + mu (F F^T)_ik d_jl + lambda F_ij F_kl
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double *row = A + 9 * (3 * i + j);
            double lij = lambda * F[3 * i + j];
            for (int k = 0; k < 3; ++k)
                for (int l = 0; l < 3; ++l) {
                    double v = mu * F[3 * i + l] * F[3 * k + j] + lij * F[3 * k + l];
                    if (i == k) v += S[3 * l + j];
                    if (j == l) v += mu * FFt[3 * i + k];
                    row[3 * k + l] = v;
                }
        }
}

// ---------------------------------------------------------------------------
// Linear (small strain)

static double linear_energy(double mu, double lambda, const double F[9]) {
    double e2 = 0, tr = F[0] + F[4] + F[8] - 3.0;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double e = 0.5 * (F[3 * i + j] + F[3 * j + i]) - (i == j ? 1.0 : 0.0);
            e2 += e * e;
        }
    return mu * e2 + 0.5 * lambda * tr * tr;
}

static void linear_stress(double mu, double lambda, const double F[9], double P[9]) {
    // P = 2 mu eps + lambda tr(eps) I
    double tr = F[0] + F[4] + F[8] - 3.0;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            P[3 * i + j] = mu * (F[3 * i + j] + F[3 * j + i]) + (i == j ? lambda * tr - 2 * mu : 0.0);
}

static void linear_stress_derivative(double mu, double lambda, double A[81]) {
    // dP_ij/dF_kl = mu (d_ik d_jl + d_il d_jk) + lambda d_ij d_kl
    memset(A, 0, 81 * sizeof(double));
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            A[9 * (3 * i + j) + 3 * i + j] += mu;
            A[9 * (3 * i + j) + 3 * j + i] += mu;
        }
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k)
            A[9 * (4 * i) + 4 * k] += lambda;
}

// ---------------------------------------------------------------------------
// Analytic eigen-system of dP/dF (see the preamble): per model, the 3x3
// A = d2Psi/ds2 and, for the pairs (0,1), (0,2), (1,2), the flip eigenvalue
// (psi_i - psi_j)/(s_i - s_j) and the twist eigenvalue (psi_i + psi_j)/(s_i + s_j).
// k denotes the third index of a pair.

static const int sv_pairs[3][3] = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0}}; // i, j, k

typedef struct sv_hessian {
    double A[9];     // d2Psi/(ds_i ds_j), symmetric
    double flip[3];  // per pair
    double twist[3]; // per pair
} sv_hessian;

// Neo-Hookean, J = s_0 s_1 s_2 > 0 (all s_i > 0), ln J given:
//   psi_i = mu s_i + (lambda ln J - mu) / s_i
//   A_ii = mu + (mu - lambda ln J + lambda) / s_i^2,  A_ij = lambda / (s_i s_j)
//   flip:  (psi_i - psi_j)/(s_i - s_j) = mu + (lambda ln J - mu)(1/s_i - 1/s_j)/(s_i - s_j)
//                                      = mu + (mu - lambda ln J) / (s_i s_j)
//   twist: (psi_i + psi_j)/(s_i + s_j) = mu + (lambda ln J - mu)(1/s_i + 1/s_j)/(s_i + s_j)
//                                      = mu - (mu - lambda ln J) / (s_i s_j)
static void nh_singular_hessian(double mu, double lambda, double lnJ, const double s[3], sv_hessian *h) {
    double c = mu - lambda * lnJ;
    for (int i = 0; i < 3; ++i)
        h->A[4 * i] = mu + (c + lambda) / (s[i] * s[i]);
    for (int p = 0; p < 3; ++p) {
        int i = sv_pairs[p][0], j = sv_pairs[p][1];
        double inv = 1.0 / (s[i] * s[j]);
        h->A[3 * i + j] = h->A[3 * j + i] = lambda * inv;
        h->flip[p] = mu + c * inv;
        h->twist[p] = mu - c * inv;
    }
}

// Fixed corotated, signed s, J = s_0 s_1 s_2 (given as det F), J_i = dJ/ds_i = s_j s_k:
//   Psi = mu sum (s_i - 1)^2 + lambda/2 (J - 1)^2
//   psi_i = 2 mu (s_i - 1) + lambda (J - 1) s_j s_k
//   A_ii = 2 mu + lambda (s_j s_k)^2,  A_ij = lambda (J_i J_j + (J - 1) s_k)
//   flip:  J_i - J_j = s_k (s_j - s_i), so (psi_i - psi_j)/(s_i - s_j) = 2 mu - lambda (J - 1) s_k
//   twist: J_i + J_j = s_k (s_i + s_j), so
//          (psi_i + psi_j)/(s_i + s_j) = 2 mu - 4 mu / (s_i + s_j) + lambda (J - 1) s_k
// With the ordering s_0 >= s_1 >= |s_2|, s_i + s_j >= 0 for i < j; it is 0 only
// for an inverted F with s_1 = -s_2, where R jumps and the twist eigenvalue
// tends to -infinity. The denominator is clamped exactly as in
// add_rotation_derivative (the same matrix, so the same eigenvalue); the
// mode is then strongly negative and projected away.
static void fc_singular_hessian(double mu, double lambda, double J, const double s[3], sv_hessian *h) {
    double floor = 1e-12 * fmax(fabs(s[0]), 1.0);
    double Js[3] = {s[1] * s[2], s[0] * s[2], s[0] * s[1]};
    for (int i = 0; i < 3; ++i)
        h->A[4 * i] = 2 * mu + lambda * Js[i] * Js[i];
    for (int p = 0; p < 3; ++p) {
        int i = sv_pairs[p][0], j = sv_pairs[p][1], k = sv_pairs[p][2];
        double c = lambda * (J - 1) * s[k];
        h->A[3 * i + j] = h->A[3 * j + i] = lambda * Js[i] * Js[j] + c;
        h->flip[p] = 2 * mu - c;
        h->twist[p] = 2 * mu + c - 4 * mu / fmax(s[i] + s[j], floor);
    }
}

// StVK, signed s, I = sum s_i^2, c = lambda/2 (I - 3):
//   Psi = mu/4 sum (s_i^2 - 1)^2 + lambda/8 (I - 3)^2   (E has eigenvalues (s_i^2 - 1)/2)
//   psi_i = s_i (mu (s_i^2 - 1) + c)
//   A_ii = mu (3 s_i^2 - 1) + c + lambda s_i^2,  A_ij = lambda s_i s_j
//   flip:  (s_i^3 - s_j^3)/(s_i - s_j) = s_i^2 + s_i s_j + s_j^2, so
//          (psi_i - psi_j)/(s_i - s_j) = mu (s_i^2 + s_i s_j + s_j^2 - 1) + c
//   twist: (s_i^3 + s_j^3)/(s_i + s_j) = s_i^2 - s_i s_j + s_j^2, so
//          (psi_i + psi_j)/(s_i + s_j) = mu (s_i^2 - s_i s_j + s_j^2 - 1) + c
// Both are polynomials: no division, so s_i = s_j and s_i = -s_j are exact.
static void stvk_singular_hessian(double mu, double lambda, const double s[3], sv_hessian *h) {
    double c = 0.5 * lambda * (s[0] * s[0] + s[1] * s[1] + s[2] * s[2] - 3.0);
    for (int i = 0; i < 3; ++i)
        h->A[4 * i] = mu * (3 * s[i] * s[i] - 1) + c + lambda * s[i] * s[i];
    for (int p = 0; p < 3; ++p) {
        int i = sv_pairs[p][0], j = sv_pairs[p][1];
        double q = s[i] * s[i] + s[j] * s[j] - 1, x = s[i] * s[j];
        h->A[3 * i + j] = h->A[3 * j + i] = lambda * x;
        h->flip[p] = mu * (q + x) + c;
        h->twist[p] = mu * (q - x) + c;
    }
}

// A += c * d d^T on the upper triangle only (9x9).
static void add_outer9_upper(double c, const double d[9], double A[81]) {
    for (int r = 0; r < 9; ++r) {
        double cr = c * d[r];
        for (int q = r; q < 9; ++q)
            A[9 * r + q] += cr * d[q];
    }
}

// dP/dF_+ = sum_k max(lambda_k, 0) d_k d_k^T over the nine modes of h.
static void assemble_projected(const double U[9], const double V[9], const sv_hessian *h, double A[81]) {
    double w[3], Q[9], d[9];
    ipcc_sym3_eigen(h->A, w, Q);
    memset(A, 0, 81 * sizeof(double));
    // scaling modes: d = vec(U diag(q) V^T), d_ab = sum_i U_ai q_i V_bi
    for (int m = 0; m < 3; ++m) {
        if (!(w[m] > 0)) continue;
        double q0 = Q[m], q1 = Q[3 + m], q2 = Q[6 + m];
        for (int a = 0; a < 3; ++a) {
            double u0 = U[3 * a] * q0, u1 = U[3 * a + 1] * q1, u2 = U[3 * a + 2] * q2;
            for (int b = 0; b < 3; ++b)
                d[3 * a + b] = u0 * V[3 * b] + u1 * V[3 * b + 1] + u2 * V[3 * b + 2];
        }
        add_outer9_upper(w[m], d, A);
    }
    // flip / twist modes: d = (u_i v_j^T +- u_j v_i^T)/sqrt2, so lambda d d^T = lambda/2 (m +- n)(m +- n)^T
    for (int p = 0; p < 3; ++p) {
        int i = sv_pairs[p][0], j = sv_pairs[p][1];
        for (int sign = 0; sign < 2; ++sign) {
            double lam = sign == 0 ? h->flip[p] : h->twist[p];
            if (!(lam > 0)) continue;
            double sg = sign == 0 ? 1.0 : -1.0;
            for (int a = 0; a < 3; ++a)
                for (int b = 0; b < 3; ++b)
                    d[3 * a + b] = U[3 * a + i] * V[3 * b + j] + sg * U[3 * a + j] * V[3 * b + i];
            add_outer9_upper(0.5 * lam, d, A);
        }
    }
    for (int r = 1; r < 9; ++r)
        for (int q = 0; q < r; ++q)
            A[9 * r + q] = A[9 * q + r];
}

// Projected dP/dF of a nonlinear model from F and its SVD (ok = SVD succeeded).
static void projected_stress_derivative(ipcc_material_model model, double mu, double lambda,
                                        const double F[9], bool ok, const double U[9], const double s[3],
                                        const double V[9], double A[81]) {
    sv_hessian h;
    if (!ok) {
        fill_nan(81, A);
        return;
    }
    switch (model) {
    case IPCC_NEO_HOOKEAN: {
        double J = det3x3(F);
        if (!(J > 0)) {
            fill_nan(81, A);
            return;
        }
        if (!(s[2] > 0)) { // J > 0 below roundoff of the SVD: numerical projection
            nh_stress_derivative(mu, lambda, F, A);
            ipcc_project_psd(9, A);
            return;
        }
        nh_singular_hessian(mu, lambda, log(J), s, &h);
        break;
    }
    case IPCC_FIXED_COROTATED: fc_singular_hessian(mu, lambda, det3x3(F), s, &h); break;
    case IPCC_STVK: stvk_singular_hessian(mu, lambda, s, &h); break;
    default: IPCC_ASSERT(!"no analytic projection for this model"); return;
    }
    assemble_projected(U, V, &h, A);
}

// ---------------------------------------------------------------------------
// Dispatch

double ipcc_elastic_energy_density(ipcc_material_model model, double mu, double lambda, const double F[9]) {
    switch (model) {
    case IPCC_NEO_HOOKEAN: return nh_energy(mu, lambda, F);
    case IPCC_FIXED_COROTATED: return fc_energy(mu, lambda, F);
    case IPCC_STVK: return stvk_energy(mu, lambda, F);
    case IPCC_LINEAR: return linear_energy(mu, lambda, F);
    }
    IPCC_ASSERT(!"unknown material model");
    return NAN;
}

void ipcc_elastic_stress(ipcc_material_model model, double mu, double lambda, const double F[9],
                         double P[9]) {
    switch (model) {
    case IPCC_NEO_HOOKEAN: nh_stress(mu, lambda, F, P); return;
    case IPCC_FIXED_COROTATED: fc_stress(mu, lambda, F, P); return;
    case IPCC_STVK: stvk_stress(mu, lambda, F, P); return;
    case IPCC_LINEAR: linear_stress(mu, lambda, F, P); return;
    }
    IPCC_ASSERT(!"unknown material model");
}

void ipcc_elastic_stress_derivative(ipcc_material_model model, double mu, double lambda, const double F[9],
                                    bool project_psd, double dPdF[81]) {
    if (model == IPCC_LINEAR) { // constant, PSD for mu, lambda >= 0
        linear_stress_derivative(mu, lambda, dPdF);
        return;
    }
    if (project_psd) {
        double U[9], s[3], V[9];
        bool ok = ipcc_svd3(F, U, s, V);
        projected_stress_derivative(model, mu, lambda, F, ok, U, s, V, dPdF);
        return;
    }
    switch (model) {
    case IPCC_NEO_HOOKEAN: nh_stress_derivative(mu, lambda, F, dPdF); return;
    case IPCC_FIXED_COROTATED: fc_stress_derivative(mu, lambda, F, dPdF); return;
    case IPCC_STVK: stvk_stress_derivative(mu, lambda, F, dPdF); return;
    default: IPCC_ASSERT(!"unknown material model"); return;
    }
}

// ---------------------------------------------------------------------------
// Per-tet chain rule

ipcc_status ipcc_tet_rest_data(const double X[12], double Dm_inv[9], double *volume) {
    IPCC_ASSERT(X && Dm_inv && volume);
    double Dm[9], longest2 = 0;
    for (int i = 0; i < 12; ++i)
        if (!isfinite(X[i])) return ipcc_fail(IPCC_ERR_MESH, "tet rest data: non-finite coordinate");
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k)
            Dm[3 * i + k] = X[3 * (k + 1) + i] - X[i];
    // longest edge over all 6 edges, for a scale-free degeneracy test
    for (int a = 0; a < 4; ++a)
        for (int b = a + 1; b < 4; ++b) {
            double d2 = 0;
            for (int i = 0; i < 3; ++i)
                d2 += (X[3 * b + i] - X[3 * a + i]) * (X[3 * b + i] - X[3 * a + i]);
            longest2 = fmax(longest2, d2);
        }
    double C[9];
    cofactor3(Dm, C);
    double det = C[0] * Dm[0] + C[1] * Dm[1] + C[2] * Dm[2];
    // 6V = det Dm; degenerate if 6V <= 1e-14 L^3 (same criterion as ipcc_mesh_create)
    if (!(det > 1e-14 * longest2 * sqrt(longest2)))
        return ipcc_fail(IPCC_ERR_MESH, "tet rest data: %s tet (6V = %.3g, longest edge %.3g)",
                         det < 0 ? "inverted" : "degenerate", det, sqrt(longest2));
    // Dm^-1 = cof(Dm)^T / det
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            Dm_inv[3 * i + j] = C[3 * j + i] / det;
    *volume = det / 6.0;
    return IPCC_OK;
}

// G (4x3): F_ij = sum_a x_{a,i} G_aj
static void shape_gradients(const double Dm_inv[9], double G[12]) {
    for (int j = 0; j < 3; ++j) {
        G[j] = -(Dm_inv[j] + Dm_inv[3 + j] + Dm_inv[6 + j]);
        G[3 + j] = Dm_inv[j];
        G[6 + j] = Dm_inv[3 + j];
        G[9 + j] = Dm_inv[6 + j];
    }
}

void ipcc_tet_deformation_gradient(const double x[12], const double Dm_inv[9], double F[9]) {
    // F_ij = sum_k Ds_ik Dm^-1_kj, Ds_ik = x_{k+1,i} - x_{0,i}
    for (int i = 0; i < 3; ++i) {
        double d0 = x[3 + i] - x[i], d1 = x[6 + i] - x[i], d2 = x[9 + i] - x[i];
        for (int j = 0; j < 3; ++j)
            F[3 * i + j] = d0 * Dm_inv[j] + d1 * Dm_inv[3 + j] + d2 * Dm_inv[6 + j];
    }
}

double ipcc_elastic_tet_energy(ipcc_material_model model, double mu, double lambda, double volume,
                               const double Dm_inv[9], const double x[12]) {
    double F[9];
    ipcc_tet_deformation_gradient(x, Dm_inv, F);
    return volume * ipcc_elastic_energy_density(model, mu, lambda, F);
}

double ipcc_elastic_tet_stress(ipcc_material_model model, double mu, double lambda, const double Dm_inv[9],
                               const double x[12], double F[9], double P[9]) {
    ipcc_tet_deformation_gradient(x, Dm_inv, F);
    ipcc_elastic_stress(model, mu, lambda, F, P);
    return ipcc_elastic_energy_density(model, mu, lambda, F);
}

// g_{a,i} = V sum_j P_ij G_aj
static void tet_gradient_from_stress(double volume, const double G[12], const double P[9], double g[12]) {
    for (int a = 0; a < 4; ++a)
        for (int i = 0; i < 3; ++i)
            g[3 * a + i] =
                volume * (P[3 * i] * G[3 * a] + P[3 * i + 1] * G[3 * a + 1] + P[3 * i + 2] * G[3 * a + 2]);
}

static void tet_hessian_from_stress_derivative(double volume, const double G[12], const double A[81],
                                               double H[144]) {
    double C[108];
    // H_{(a,i),(b,k)} = V sum_{j,l} G_aj A_{(i,j),(k,l)} G_bl, in two passes:
    // C_{(i,j),(b,k)} = sum_l A_{(i,j),(k,l)} G_bl
    for (int r = 0; r < 9; ++r)
        for (int b = 0; b < 4; ++b)
            for (int k = 0; k < 3; ++k)
                C[12 * r + 3 * b + k] = A[9 * r + 3 * k] * G[3 * b] + A[9 * r + 3 * k + 1] * G[3 * b + 1] +
                                        A[9 * r + 3 * k + 2] * G[3 * b + 2];
    // H_{(a,i),c} = V sum_j G_aj C_{(i,j),c}, upper triangle then mirrored (exact symmetry)
    for (int a = 0; a < 4; ++a)
        for (int i = 0; i < 3; ++i) {
            int row = 3 * a + i;
            const double *c0 = C + 12 * (3 * i), *c1 = c0 + 12, *c2 = c1 + 12;
            double g0 = volume * G[3 * a], g1 = volume * G[3 * a + 1], g2 = volume * G[3 * a + 2];
            for (int col = row; col < 12; ++col)
                H[12 * row + col] = g0 * c0[col] + g1 * c1[col] + g2 * c2[col];
        }
    for (int row = 1; row < 12; ++row)
        for (int col = 0; col < row; ++col)
            H[12 * row + col] = H[12 * col + row];
}

void ipcc_elastic_tet_gradient(ipcc_material_model model, double mu, double lambda, double volume,
                               const double Dm_inv[9], const double x[12], double g[12]) {
    double F[9], P[9], G[12];
    ipcc_tet_deformation_gradient(x, Dm_inv, F);
    ipcc_elastic_stress(model, mu, lambda, F, P);
    shape_gradients(Dm_inv, G);
    tet_gradient_from_stress(volume, G, P, g);
}

void ipcc_elastic_tet_hessian(ipcc_material_model model, double mu, double lambda, double volume,
                              const double Dm_inv[9], const double x[12], bool project_psd, double H[144]) {
    double F[9], A[81], G[12];
    ipcc_tet_deformation_gradient(x, Dm_inv, F);
    ipcc_elastic_stress_derivative(model, mu, lambda, F, project_psd, A);
    shape_gradients(Dm_inv, G);
    tet_hessian_from_stress_derivative(volume, G, A, H);
}

// Psi, P and dP/dF (projected or not) at F with at most one SVD. Returns Psi;
// P and A are unspecified when Psi is not finite.
static double density_stress_derivative(ipcc_material_model model, double mu, double lambda,
                                        const double F[9], bool project_psd, double P[9], double A[81]) {
    double U[9], s[3], V[9], e;
    switch (model) {
    case IPCC_NEO_HOOKEAN:
        e = nh_energy(mu, lambda, F);
        if (!isfinite(e)) return e;
        nh_stress(mu, lambda, F, P);
        if (!project_psd) {
            nh_stress_derivative(mu, lambda, F, A);
            return e;
        }
        break;
    case IPCC_FIXED_COROTATED: {
        bool ok = ipcc_svd3(F, U, s, V);
        e = fc_energy_svd(mu, lambda, s, det3x3(F));
        fc_stress_svd(mu, lambda, F, U, V, P);
        if (project_psd)
            projected_stress_derivative(model, mu, lambda, F, ok, U, s, V, A);
        else
            fc_stress_derivative_svd(mu, lambda, F, U, s, V, A);
        return e;
    }
    case IPCC_STVK:
        e = stvk_energy(mu, lambda, F);
        stvk_stress(mu, lambda, F, P);
        if (!project_psd) {
            stvk_stress_derivative(mu, lambda, F, A);
            return e;
        }
        break;
    case IPCC_LINEAR:
        linear_stress(mu, lambda, F, P);
        linear_stress_derivative(mu, lambda, A);
        return linear_energy(mu, lambda, F);
    default: IPCC_ASSERT(!"unknown material model"); return NAN;
    }
    bool ok = ipcc_svd3(F, U, s, V);
    projected_stress_derivative(model, mu, lambda, F, ok, U, s, V, A);
    return e;
}

double ipcc_elastic_tet_evaluate(ipcc_material_model model, double mu, double lambda, double volume,
                                 const double Dm_inv[9], const double x[12], bool project_psd, double g[12],
                                 double H[144]) {
    double F[9], P[9], A[81], G[12];
    ipcc_tet_deformation_gradient(x, Dm_inv, F);
    double e = volume * density_stress_derivative(model, mu, lambda, F, project_psd, P, A);
    if (!isfinite(e)) return e;
    shape_gradients(Dm_inv, G);
    tet_gradient_from_stress(volume, G, P, g);
    tet_hessian_from_stress_derivative(volume, G, A, H);
    return e;
}
