// Numerical PSD projection of a small symmetric matrix (declared in
// include/ipcc/elastic.h): A_+ = the nearest PSD matrix in the Frobenius
// norm, negative eigenvalues set to zero.
//
// Callers: the elastic kernels (elastic.c) use it as the fallback for
// Neo-Hookean when det F > 0 but the SVD's s_3 rounds to <= 0, and tests hold
// the closed-form projection against it; the collision layer projects its
// n x n barrier blocks (n up to 12) with it.
//
// Design. A Cholesky factorization of A + delta I, delta = 1e-12 * max diag,
// is attempted first; if it succeeds, A has no eigenvalue below -delta
// (roundoff level) and is returned unchanged: most blocks are PSD already and
// skip the eigen-solve. Otherwise LAPACKE_dsyev_work runs in COLUMN-major
// layout (the matrix is symmetric so the storage is the same; the row-major
// LAPACKE path would malloc a transposed copy) with a fixed workspace of
// 64 n doubles on the stack. No heap allocation anywhere in this file.
//
// Failure modes. n outside [1, 12] or A NULL is a programmer error
// (IPCC_ASSERT). dsyev fails only for non-finite input, which is left as it
// is; a matrix with no positive diagonal entry always takes the eigen-solve.
#include "ipcc/elastic.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include <lapacke.h>

#include "base/core.h"

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
