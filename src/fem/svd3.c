// 3x3 SVD and symmetric eigen-solver, without LAPACK (whose per-call
// overhead, ~1-2 us for dgesvd on a 3x3, dominated the elastic Hessian).
//
// SVD. One-sided (Hestenes) Jacobi on the columns of F, then a Givens QR,
// the structure of McAdams, Selle, Tamstorf, Irving, Teran and Sifakis 2011,
// "Computing the singular value decomposition of 3x3 matrices with minimal
// branching and elementary floating point operations" (UW-Madison TR1690),
// Sec. 2, but iterated to convergence in double precision instead of a fixed
// number of quaternion sweeps:
//   1. Scale F by 1 / max |F_ij| (scale-free below; restores at the end).
//   2. B = F, V = I. For each column pair (i, j): a = |b_i|^2, b = |b_j|^2,
//      g = b_i . b_j; the plane rotation [b_i b_j] <- [b_i b_j] [c s; -s c]
//      zeroes b_i . b_j when (c^2 - s^2)/(cs) = (b - a)/g, i.e. t = s/c is
//      the smaller root of t^2 + 2 z t - 1 = 0, z = (b - a)/(2 g):
//        t = sign(z) / (|z| + sqrt(1 + z^2)),  c = 1/sqrt(1 + t^2),  s = c t
//      (Golub & Van Loan, Matrix Computations, 4th ed., Alg. 8.5.1). V gets the
//      same rotation, so B = F V holds throughout and V stays a rotation.
//      Sweeps stop when every |g| <= 1e-15 sqrt(a b): the columns are then
//      orthogonal to working precision *relative to their own lengths* (one-
//      sided Jacobi keeps small singular values accurate, Demmel & Veselic
//      1992, unlike an eigen-solve of F^T F, which squares the conditioning).
//   3. Sort the columns of B (and V) by length, descending; each swap negates
//      one column so V stays a rotation.
//   4. B = Q R by three Givens rotations (rows (0,1), (0,2) on column 0, then
//      (1,2) on column 1), each with c = a/r, s = b/r, r = sqrt(a^2 + b^2) >= 0
//      (identity when r = 0). U = Q is a product of rotations, R_00, R_11 >= 0,
//      and R_22 = det F / (R_00 R_11 det V) carries the sign of det F: this is
//      the rotation-variant SVD of Irving, Teran and Fedkiw 2004 with the
//      reflection on the smallest singular value. s = diag R; the dropped
//      off-diagonal of R is roundoff-sized because B's columns are orthogonal.
// Rank deficiency needs no special case: a zero column is never rotated
// (g = 0) and the Givens QR completes U from the non-zero columns. Repeated
// singular values make U, V non-unique; any rotation pair is returned.
//
// Symmetric eigen-solver: cyclic two-sided Jacobi (Golub & Van Loan
// Alg. 8.5.2), A <- J^T A J with the rotation from the same t formula
// (z = (a_qq - a_pp)/(2 a_pq)), until every |a_pq| <= 1e-16 |A|_F.
//
// Both loops are capped (20 sweeps; 3x3 Jacobi converges quadratically and
// takes 3-5 sweeps in double precision); non-finite input is reported by
// ipcc_svd3 and yields NaN from ipcc_sym3_eigen.
#include "fem/svd3.h"

#include <math.h>

enum { MAX_SWEEPS = 20 };

// Smaller-magnitude root t of t^2 + 2 z t - 1 = 0 (tan of the Jacobi angle);
// for huge |z|, t = 1/(2z) avoids overflowing z^2.
static double jacobi_tangent(double z) {
    if (fabs(z) > 1e150) return 0.5 / z;
    // t = sign(z) / (|z| + sqrt(1 + z^2))
    double t = 1.0 / (fabs(z) + sqrt(1.0 + z * z));
    return z < 0 ? -t : t;
}

// Columns i, j of the row-major 3x3 M <- [m_i m_j] [c s; -s c].
static void rotate_columns(double M[9], int i, int j, double c, double s) {
    for (int k = 0; k < 3; ++k) {
        double mi = M[3 * k + i], mj = M[3 * k + j];
        M[3 * k + i] = c * mi - s * mj;
        M[3 * k + j] = s * mi + c * mj;
    }
}

// Swap columns i and j and negate the new column j: a rotation by 90 degrees.
static void swap_columns(double M[9], int i, int j) {
    for (int k = 0; k < 3; ++k) {
        double t = M[3 * k + i];
        M[3 * k + i] = M[3 * k + j];
        M[3 * k + j] = -t;
    }
}

static double column_norm2(const double M[9], int i) {
    return M[i] * M[i] + M[3 + i] * M[3 + i] + M[6 + i] * M[6 + i];
}

// Givens rotation on rows p, q of R that zeroes R_qk, accumulated into
// Q <- Q G^T so that Q R stays invariant.
static void givens_rows(double R[9], double Q[9], int p, int q, int k) {
    double a = R[3 * p + k], b = R[3 * q + k];
    double r = sqrt(a * a + b * b);
    if (!(r > 0)) return;
    // [c s; -s c] [a; b] = [r; 0]
    double c = a / r, s = b / r;
    for (int m = 0; m < 3; ++m) {
        double rp = R[3 * p + m], rq = R[3 * q + m];
        R[3 * p + m] = c * rp + s * rq;
        R[3 * q + m] = -s * rp + c * rq;
    }
    R[3 * q + k] = 0;
    // Q G^T: columns p, q of Q <- [q_p q_q] [c -s; s c]
    rotate_columns(Q, p, q, c, -s);
}

bool ipcc_svd3(const double F[9], double U[9], double s[3], double V[9]) {
    static const double Id[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    double scale = 0;
    bool finite = true;
    for (int k = 0; k < 9; ++k) {
        U[k] = Id[k];
        V[k] = Id[k];
        finite = finite && isfinite(F[k]);
        scale = fmax(scale, fabs(F[k]));
    }
    if (!finite) {
        s[0] = s[1] = s[2] = NAN;
        return false;
    }
    if (scale == 0) {
        s[0] = s[1] = s[2] = 0;
        return true;
    }
    double B[9], inv = 1.0 / scale;
    for (int k = 0; k < 9; ++k)
        B[k] = F[k] * inv;

    static const int pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    for (int sweep = 0; sweep < MAX_SWEEPS; ++sweep) {
        bool rotated = false;
        for (int p = 0; p < 3; ++p) {
            int i = pairs[p][0], j = pairs[p][1];
            double a = column_norm2(B, i), b = column_norm2(B, j);
            double g = B[i] * B[j] + B[3 + i] * B[3 + j] + B[6 + i] * B[6 + j];
            if (!(fabs(g) > 1e-15 * sqrt(a) * sqrt(b))) continue;
            // z = (b - a) / (2g), t = tan(angle)
            double t = jacobi_tangent((b - a) / (2 * g));
            double c = 1.0 / sqrt(1.0 + t * t), sn = c * t;
            rotate_columns(B, i, j, c, sn);
            rotate_columns(V, i, j, c, sn);
            rotated = true;
        }
        if (!rotated) break;
    }

    // Sort columns by length, descending (three compare-swaps).
    double n2[3] = {column_norm2(B, 0), column_norm2(B, 1), column_norm2(B, 2)};
    for (int p = 0; p < 3; ++p) {
        int i = pairs[p][0], j = pairs[p][1];
        if (n2[i] < n2[j]) {
            swap_columns(B, i, j);
            swap_columns(V, i, j);
            double t = n2[i];
            n2[i] = n2[j];
            n2[j] = t;
        }
    }

    // B = U R (Givens QR); R's diagonal is the signed singular values.
    givens_rows(B, U, 0, 1, 0);
    givens_rows(B, U, 0, 2, 0);
    givens_rows(B, U, 1, 2, 1);
    s[0] = B[0] * scale;
    s[1] = B[4] * scale;
    s[2] = B[8] * scale;
    return true;
}

void ipcc_sym3_eigen(const double A[9], double w[3], double Q[9]) {
    static const int pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    double M[9] = {A[0], A[1], A[2], A[1], A[4], A[5], A[2], A[5], A[8]};
    double norm2 = 0;
    for (int k = 0; k < 9; ++k) {
        norm2 += M[k] * M[k];
        Q[k] = (k % 4 == 0) ? 1.0 : 0.0;
    }
    double tol = 1e-16 * sqrt(norm2);
    for (int sweep = 0; sweep < MAX_SWEEPS; ++sweep) {
        bool rotated = false;
        for (int r = 0; r < 3; ++r) {
            int p = pairs[r][0], q = pairs[r][1];
            double apq = M[3 * p + q];
            if (!(fabs(apq) > tol)) continue;
            // z = (a_qq - a_pp) / (2 a_pq); M <- J^T M J, J = [c s; -s c] in (p, q)
            double t = jacobi_tangent((M[4 * q] - M[4 * p]) / (2 * apq));
            double c = 1.0 / sqrt(1.0 + t * t), sn = c * t;
            rotate_columns(M, p, q, c, sn);
            for (int k = 0; k < 3; ++k) { // rows p, q
                double mp = M[3 * p + k], mq = M[3 * q + k];
                M[3 * p + k] = c * mp - sn * mq;
                M[3 * q + k] = sn * mp + c * mq;
            }
            M[3 * p + q] = M[3 * q + p] = 0;
            rotate_columns(Q, p, q, c, sn);
            rotated = true;
        }
        if (!rotated) break;
    }
    w[0] = M[0];
    w[1] = M[4];
    w[2] = M[8];
}
