/// 3x3 singular value and symmetric eigen decompositions (internal).
#ifndef IPCC_SVD3_H
#define IPCC_SVD3_H

#include <stdbool.h>

/// Rotation-variant SVD F = U diag(s) V^T, all row-major: det U = det V = +1,
/// s_0 >= s_1 >= |s_2| (up to roundoff), s_0, s_1 >= 0, sign(s_2) = sign(det F).
/// Returns false (U = V = I, s = NaN) if F has a non-finite entry.
bool ipcc_svd3(const double F[9], double U[9], double s[3], double V[9]);

/// Eigen-decomposition of a symmetric 3x3 A (row-major; only the upper
/// triangle is read): A = Q diag(w) Q^T, Q orthogonal with the eigenvectors
/// as columns, w unordered.
void ipcc_sym3_eigen(const double A[9], double w[3], double Q[9]);

#endif
