/// Small 3-vector helpers shared by the geometry kernels (inline; no state).
/// The expressions are fixed: ccd.c's rounding-error bounds assume exactly
/// these operation orders.
#ifndef IPCC_VEC3_H
#define IPCC_VEC3_H

/// a . b, summed left to right.
static inline double dot3(const double a[3], const double b[3]) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

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

#endif
