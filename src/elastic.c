// Hyperelastic energy kernels for linear tetrahedra: energy density Psi(F),
// first Piola-Kirchhoff stress P = dPsi/dF, its derivative dP/dF, the
// per-tet chain rule, and PSD projection.
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
// det R = +1. We take the SVD F = U Sigma V^T (LAPACK dgesvd, column-major,
// stack workspace) and fix signs so det U = det V = +1, moving any reflection
// into the smallest singular value (the "rotation-variant SVD" of Irving et
// al. 2004 / Stomakhin et al. 2012); then R = U V^T and Sigma may have a
// negative last entry for inverted elements. Its derivative is derived below
// (dR/dF = sum_{i<j} t_ij t_ij^T / (s_i + s_j), the "twist" eigen-system of
// Kim & Eberle, "Dynamic Deformables", SIGGRAPH course 2022). The
// formula does not involve U or V individually, only the pair subspaces, so
// repeated singular values (F a rotation, F = cI) are harmless: any valid SVD
// gives the same dR/dF. It is singular only where s_i + s_j = 0, i.e. an
// inverted element with s_2 = -s_3, where R itself jumps; there the
// denominator is clamped to 1e-12 * max(s_1, 1) so the result stays finite.
// A singular F (s_3 = 0) is fine as long as s_2 > 0.
//
// PSD projection. ipcc_elastic_stress_derivative(..., project_psd) clamps
// the negative eigenvalues of the 9x9 dP/dF, and the tet Hessian is then
// V B^T (dP/dF)_+ B, PSD by construction (a congruence of a PSD matrix) and
// 12x12 eigen-work avoided. This is the per-element projection of Teran et
// al. 2005 and of the IPC reference code, done numerically rather than with
// the analytic eigen-systems of Smith et al. 2019 / Kim & Eberle 2022 so one
// routine serves every model. Eigen-decomposition uses LAPACKE_dsyev_work in
// COLUMN-major layout (the matrix is symmetric so the storage is the same;
// the row-major LAPACKE path would malloc a transposed copy) with a fixed
// workspace of 64 n doubles on the stack (enough for the blocked tridiagonal
// reduction at n <= 12): no heap allocation anywhere in this file. dsyev
// measured ~20% faster than dsyevd at n = 9; both cost several microseconds,
// mostly LAPACK call overhead, so the eigen-solve dominates a projected
// Hessian. Before it, a Cholesky factorization of A + delta I,
// delta = 1e-12 * max diag, is attempted; if it succeeds, A has no eigenvalue
// below -delta (roundoff level) and is returned unchanged. That fast path
// catches the rest state, where elastic Hessians are PSD but singular (rigid
// rotations are in the null space) so a plain Cholesky would fail. Note that
// Neo-Hookean, StVK and fixed corotated are all indefinite under compression
// even for small strains, so away from rest roughly half the elements need
// the full eigen-solve. The linear model's dP/dF is constant and PSD (for
// mu, lambda >= 0), so it is never projected.
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

#include <lapacke.h>

#include "core.h"

void ipcc_lame_parameters(double youngs_modulus, double poisson_ratio, double *mu, double *lambda) {
    IPCC_ASSERT(mu && lambda && poisson_ratio < 0.5 && poisson_ratio > -1.0);
    // mu = E / (2 (1 + nu)), lambda = E nu / ((1 + nu)(1 - 2 nu))
    *mu = youngs_modulus / (2.0 * (1.0 + poisson_ratio));
    *lambda = youngs_modulus * poisson_ratio / ((1.0 + poisson_ratio) * (1.0 - 2.0 * poisson_ratio));
}

// ---------------------------------------------------------------------------
// 3x3 helpers

static double det3(const double A[9]) {
    return A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6]) +
           A[2] * (A[3] * A[7] - A[4] * A[6]);
}

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

// Rotation-variant SVD F = U diag(s) V^T with det U = det V = +1, |s_0| >=
// |s_1| >= |s_2|, s_0, s_1 >= 0, and sign(s_2) = sign(det F). U, V row-major.
// Returns false (U = V = I, s = NaN) if LAPACK fails, i.e. F is not finite.
static bool svd3_rv(const double F[9], double U[9], double s[3], double V[9]) {
    double a[9], u[9], vt[9], work[64];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            a[i + 3 * j] = F[3 * i + j];
    lapack_int info = LAPACKE_dgesvd_work(LAPACK_COL_MAJOR, 'A', 'A', 3, 3, a, 3, s, u, 3, vt, 3, work, 64);
    if (info != 0) {
        static const double Id[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        memcpy(U, Id, sizeof Id);
        memcpy(V, Id, sizeof Id);
        s[0] = s[1] = s[2] = NAN;
        return false;
    }
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) {
            U[3 * i + k] = u[i + 3 * k];  // u is column-major U
            V[3 * i + k] = vt[k + 3 * i]; // vt is column-major V^T
        }
    // A reflection in U or V moves into the smallest singular value.
    if (det3(U) < 0) {
        for (int i = 0; i < 3; ++i)
            U[3 * i + 2] = -U[3 * i + 2];
        s[2] = -s[2];
    }
    if (det3(V) < 0) {
        for (int i = 0; i < 3; ++i)
            V[3 * i + 2] = -V[3 * i + 2];
        s[2] = -s[2];
    }
    return true;
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
    double J = det3(F);
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

static double fc_energy(double mu, double lambda, const double F[9]) {
    double U[9], s[3], V[9];
    svd3_rv(F, U, s, V);
    // |F - R|^2 = |U (Sigma - I) V^T|^2 = sum_i (s_i - 1)^2 with signed s
    double d0 = s[0] - 1, d1 = s[1] - 1, d2 = s[2] - 1;
    double Jm1 = det3(F) - 1;
    return mu * (d0 * d0 + d1 * d1 + d2 * d2) + 0.5 * lambda * Jm1 * Jm1;
}

static void fc_stress(double mu, double lambda, const double F[9], double P[9]) {
    double U[9], s[3], V[9], R[9], C[9];
    svd3_rv(F, U, s, V);
    rotation_from_svd(U, V, R);
    cofactor3(F, C);
    double J = C[0] * F[0] + C[1] * F[1] + C[2] * F[2];
    // P = 2 mu (F - R) + lambda (J - 1) cof(F)   (d|F-R|^2/dF = 2(F - R) since R^T dR is skew)
    for (int i = 0; i < 9; ++i)
        P[i] = 2 * mu * (F[i] - R[i]) + lambda * (J - 1) * C[i];
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

static void fc_stress_derivative(double mu, double lambda, const double F[9], double A[81]) {
    double U[9], s[3], V[9], C[9];
    svd3_rv(F, U, s, V);
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
    switch (model) {
    case IPCC_NEO_HOOKEAN: nh_stress_derivative(mu, lambda, F, dPdF); break;
    case IPCC_FIXED_COROTATED: fc_stress_derivative(mu, lambda, F, dPdF); break;
    case IPCC_STVK: stvk_stress_derivative(mu, lambda, F, dPdF); break;
    case IPCC_LINEAR: linear_stress_derivative(mu, lambda, dPdF); return; // constant, PSD for mu, lambda >= 0
    default: IPCC_ASSERT(!"unknown material model"); return;
    }
    if (project_psd) ipcc_project_psd(9, dPdF);
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

void ipcc_elastic_tet_gradient(ipcc_material_model model, double mu, double lambda, double volume,
                               const double Dm_inv[9], const double x[12], double g[12]) {
    double F[9], P[9], G[12];
    ipcc_tet_deformation_gradient(x, Dm_inv, F);
    ipcc_elastic_stress(model, mu, lambda, F, P);
    shape_gradients(Dm_inv, G);
    // dE/dx_{a,i} = V sum_j P_ij G_aj
    for (int a = 0; a < 4; ++a)
        for (int i = 0; i < 3; ++i)
            g[3 * a + i] =
                volume * (P[3 * i] * G[3 * a] + P[3 * i + 1] * G[3 * a + 1] + P[3 * i + 2] * G[3 * a + 2]);
}

void ipcc_elastic_tet_hessian(ipcc_material_model model, double mu, double lambda, double volume,
                              const double Dm_inv[9], const double x[12], bool project_psd, double H[144]) {
    double F[9], A[81], G[12], C[108];
    ipcc_tet_deformation_gradient(x, Dm_inv, F);
    ipcc_elastic_stress_derivative(model, mu, lambda, F, project_psd, A);
    shape_gradients(Dm_inv, G);
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

// ---------------------------------------------------------------------------
// PSD projection

// True if A + delta I admits a Cholesky factorization, i.e. every eigenvalue
// of A is >= -delta (up to roundoff), with delta = 1e-12 * max diagonal.
static bool nearly_psd(int n, const double *A) {
    double L[144], dmax = 0;
    for (int i = 0; i < n; ++i)
        dmax = fmax(dmax, A[(n + 1) * i]);
    if (!(dmax > 0)) return false;
    double delta = 1e-12 * dmax;
    for (int j = 0; j < n; ++j) {
        // L_jj^2 = A_jj + delta - sum_k L_jk^2; L_ij = (A_ij - sum_k L_ik L_jk) / L_jj
        double d = A[n * j + j] + delta;
        for (int k = 0; k < j; ++k)
            d -= L[n * j + k] * L[n * j + k];
        if (!(d > 0)) return false;
        double Ljj = sqrt(d), inv = 1.0 / Ljj;
        L[n * j + j] = Ljj;
        for (int i = j + 1; i < n; ++i) {
            double v = A[n * i + j];
            for (int k = 0; k < j; ++k)
                v -= L[n * i + k] * L[n * j + k];
            L[n * i + j] = v * inv;
        }
    }
    return true;
}

double ipcc_elastic_tet_evaluate(ipcc_material_model model, double mu, double lambda, double volume,
                                 const double Dm_inv[9], const double x[12], bool project_psd, double g[12],
                                 double H[144]) {
    double e = ipcc_elastic_tet_energy(model, mu, lambda, volume, Dm_inv, x);
    if (!isfinite(e)) return e;
    ipcc_elastic_tet_gradient(model, mu, lambda, volume, Dm_inv, x, g);
    ipcc_elastic_tet_hessian(model, mu, lambda, volume, Dm_inv, x, project_psd, H);
    return e;
}

void ipcc_project_psd(int n, double *A) {
    enum { NMAX = 12, LWORK = 64 * NMAX };
    IPCC_ASSERT(A && n >= 1 && n <= NMAX);
    if (nearly_psd(n, A)) return;
    double W[NMAX * NMAX], w[NMAX], work[LWORK];
    memcpy(W, A, sizeof(double) * (size_t)(n * n));
    // Column-major on purpose: A is symmetric, and the row-major LAPACKE path
    // would allocate a transposed copy. Eigenvectors come back as columns of W.
    lapack_int info = LAPACKE_dsyev_work(LAPACK_COL_MAJOR, 'V', 'U', n, W, n, w, work, LWORK);
    if (info != 0) return; // only for non-finite input, which stays as it is
    // A_+ = A - sum_{w_k < 0} w_k v_k v_k^T: exact on the positive part, and
    // cheaper than rebuilding from all eigenpairs since few are negative.
    for (int k = 0; k < n; ++k) {
        if (w[k] >= 0) break; // ascending order
        const double *v = W + n * k;
        for (int r = 0; r < n; ++r) {
            double c = -w[k] * v[r];
            for (int s = r; s < n; ++s)
                A[n * r + s] += c * v[s];
        }
    }
    for (int r = 1; r < n; ++r)
        for (int s = 0; s < r; ++s)
            A[n * r + s] = A[n * s + r];
}
