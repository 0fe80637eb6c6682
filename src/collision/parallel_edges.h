/// Nearly parallel edge pairs: their barrier term made C1 where the
/// segment distance has a kink (parallel_edges.c). The constraint set keys
/// such a pair on its own (IPCC_CONTACT_EP) instead of on the closest
/// features it reaches. Private to the library.
#ifndef IPCC_PARALLEL_EDGES_H
#define IPCC_PARALLEL_EDGES_H

#include <stdbool.h>

/// Below this sin^2 of the angle between two edges the pair is nearly
/// parallel (IPC's eps_x = 1e-3 |a|^2 |b|^2, Li et al. 2020, Sec. 4.3, on
/// the current lengths).
#define IPCC_PARALLEL_EDGES_SIN2 1e-3

/// The relative band of the smooth maximum over the ends' barriers: two
/// values within this fraction of their sum are blended, farther apart the
/// larger is taken exactly (at most 1 + band / 2 times the larger).
#define IPCC_PARALLEL_EDGES_BAND 0.1

/// sin^2 of the angle between edges [x0, x1] and [x2, x3] (x: 12 doubles):
/// |a x b|^2 / (|a|^2 |b|^2); 0 if an edge has zero length.
double ipcc_parallel_edges_sin2(const double x[12]);

/// Edges [x0, x1] and [x2, x3] are nearly parallel: sin^2 below
/// IPCC_PARALLEL_EDGES_SIN2.
bool ipcc_parallel_edges(const double x[12]);

/// The term T(x) of a nearly parallel pair (parallel_edges.c, (*)) over
/// [a0, a1, b0, b1] = x, with d̂² = dhat2; with g / H (may be NULL) its
/// gradient (12) and Hessian (144, row-major, not projected). +INFINITY
/// when the edges touch. Equal to b(d) of the segment distance d, value
/// and gradient, where sin^2 reaches IPCC_PARALLEL_EDGES_SIN2.
double ipcc_parallel_edges_barrier(const double x[12], double dhat2, double *g, double *H);

#endif
