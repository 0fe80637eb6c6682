/// Inversion step filter: the largest step along a Newton direction that keeps
/// every tet's signed volume positive (inversion_filter.c).
#ifndef IPCC_INVERSION_FILTER_H
#define IPCC_INVERSION_FILTER_H

/// Smallest alpha > 0 at which det[x1-x0, x2-x0, x3-x0] of x + alpha p
/// vanishes, or INFINITY if it stays positive for all alpha > 0. Requires a
/// positive volume at alpha = 0. x and p hold the tet's 4 vertices (12).
double ipcc_tet_inversion_time(const double x[12], const double p[12]);

/// ipcc_tet_inversion_time when that is below `limit` (the same value, bit
/// for bit), else INFINITY; `limit` may be INFINITY.
double ipcc_tet_inversion_time_below(const double x[12], const double p[12], double limit);

/// min(1, safety * min over tets of ipcc_tet_inversion_time), safety = 0.9.
/// `tets` index vertices of the 3n-long x and p.
double ipcc_inversion_max_step(int num_tets, const int *tets, const double *x, const double *p);

/// Signed volume times 6 of the tet with vertices x (12).
double ipcc_tet_signed_volume6(const double x[12]);

#endif
