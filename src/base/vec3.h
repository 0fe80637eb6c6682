/// Small 3-vector helpers shared by the geometry kernels (inline; no state).
/// The expressions are fixed: ccd.c's rounding-error bounds assume exactly
/// these operation orders.
#ifndef IPCC_VEC3_H
#define IPCC_VEC3_H

#include <math.h>
#include <stdbool.h>

/// a . b, summed left to right.
static inline double dot3(const double a[3], const double b[3]) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/// |a|.
static inline double norm3(const double a[3]) { return sqrt(dot3(a, a)); }

/// Every component of a is finite (no NaN, no inf).
static inline bool finite3(const double a[3]) { return isfinite(a[0]) && isfinite(a[1]) && isfinite(a[2]); }

/// c = a - b.
static inline void sub3(const double a[3], const double b[3], double c[3]) {
    c[0] = a[0] - b[0];
    c[1] = a[1] - b[1];
    c[2] = a[2] - b[2];
}

/// c = a x b.
static inline void cross3(const double a[3], const double b[3], double c[3]) {
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/// det A of a row-major 3x3 matrix, by cofactors of the first row.
static inline double det3x3(const double A[9]) {
    return A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6]) +
           A[2] * (A[3] * A[7] - A[4] * A[6]);
}

/// Two unit tangents T[0..2], T[3..5] orthogonal to the unit vector n, with
/// (T0, T1, n) right-handed: n crossed with the axis it is least aligned
/// with, normalized, then n x T0.
static inline void tangent_basis3(const double n[3], double T[6]) {
    double a[3] = {0, 0, 0}, t1[3];
    a[fabs(n[0]) <= fabs(n[1]) && fabs(n[0]) <= fabs(n[2]) ? 0 : (fabs(n[1]) <= fabs(n[2]) ? 1 : 2)] = 1;
    cross3(n, a, t1);
    double l = sqrt(dot3(t1, t1));
    for (int i = 0; i < 3; ++i)
        T[i] = t1[i] / l;
    cross3(n, T, T + 3);
}

#endif
