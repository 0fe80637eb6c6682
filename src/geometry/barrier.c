// The clamped log barrier of IPC (Li et al. 2020, Sec. 4.1, eq. 6).
//
// Conventions: both arguments are SQUARED quantities, as in IPC's own code:
// d = dist^2 and dhat = d̂^2. So the activation region is dist < d̂, and the
// barrier's derivatives are with respect to the squared distance; contact.c
// applies the chain rule through the squared-distance kernels of distance.c.
//
//   b(d)   = -(d - dhat)^2 ln(d / dhat)                         0 < d < dhat
//   b'(d)  = (dhat - d) (2 ln(d / dhat) - dhat / d + 1)
//   b''(d) = -2 ln(d / dhat) - 4 (d - dhat) / d + (d - dhat)^2 / d^2
//
// b, b' and b'' vanish at d = dhat (so the barrier is C2 there) and b -> +inf
// as d -> 0. Failure modes: d <= 0 (touching or crossed) returns +inf from
// the value, which the line search treats as infeasible; callers never
// differentiate there.
#include "geometry/barrier.h"

#include <math.h>

double ipcc_barrier(double d, double dhat) {
    if (d <= 0) return INFINITY;
    if (d >= dhat) return 0;
    double t = d - dhat;
    return -t * t * log(d / dhat);
}

double ipcc_barrier_first_derivative(double d, double dhat) {
    if (d <= 0) return -INFINITY;
    if (d >= dhat) return 0;
    // d/dd [-(d - dhat)^2 ln(d/dhat)] = -2 (d - dhat) ln(d/dhat) - (d - dhat)^2 / d
    return (dhat - d) * (2 * log(d / dhat) - dhat / d + 1);
}

double ipcc_barrier_second_derivative(double d, double dhat) {
    if (d <= 0) return INFINITY;
    if (d >= dhat) return 0;
    double t = d - dhat;
    return -2 * log(d / dhat) - 4 * t / d + t * t / (d * d);
}
