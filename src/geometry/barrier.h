/// The IPC log barrier on squared distances (Li et al. 2020, eq. 6).
///
/// d is a squared distance and dhat the squared activation distance d̂², as
/// in IPC's implementation: b(d) = -(d - dhat)^2 ln(d / dhat) for
/// 0 < d < dhat, 0 for d >= dhat. The barrier is C2 at d = dhat and tends to
/// +inf as d -> 0; d <= 0 returns +INFINITY (value) so any touching state is
/// infeasible.
#ifndef IPCC_BARRIER_H
#define IPCC_BARRIER_H

/// b(d); +INFINITY for d <= 0, 0 for d >= dhat.
double ipcc_barrier(double d, double dhat);
/// b'(d) (0 for d >= dhat; -INFINITY for d <= 0).
double ipcc_barrier_first_derivative(double d, double dhat);
/// b''(d) (0 for d >= dhat; +INFINITY for d <= 0).
double ipcc_barrier_second_derivative(double d, double dhat);

#endif
