/// The fixed order of two edges, the closest-feature type of their distance
/// in that order and whether they are nearly parallel (edge_pair.c): what
/// every place that keys an edge-edge term shares (the constraint set's edge-edge keys,
/// constraint_set.c, and the multiplicities, contact_multiplicity.c).
/// Private to the library.
#ifndef IPCC_EDGE_PAIR_H
#define IPCC_EDGE_PAIR_H

#include <stdbool.h>

#include "geometry/distance.h"

/// Edge a (collision vertices [a0, a1]) comes before edge b in
/// ipcc_edge_pair_type's fixed order: the one with the lower vertex first,
/// then the lower other vertex (an edge comes before itself). Inline: the
/// constraint set's build asks it for every edge-edge candidate.
static inline bool ipcc_edge_pair_first(const int a[2], const int b[2]) {
    int a_lo = a[0] < a[1] ? a[0] : a[1], b_lo = b[0] < b[1] ? b[0] : b[1];
    int a_hi = a[0] + a[1] - a_lo, b_hi = b[0] + b[1] - b_lo;
    return a_lo != b_lo ? a_lo < b_lo : a_hi <= b_hi;
}

/// The closest-feature type of edges a and b (collision vertices [a0, a1]
/// and [b0, b1] at xc), in the order a, b, computed in a fixed order of
/// the two edges (ipcc_edge_pair_first): every place that keys an
/// edge-edge term sees the same type for a pair, whichever edge it names
/// first, so ties (parallel edges, whose closest points are not unique)
/// land the term on one key and the energy is continuous across them.
ipcc_edge_edge_distance_type ipcc_edge_pair_type(const double *xc, const int a[2], const int b[2]);

/// Edges a and b are nearly parallel (parallel_edges.h), tested in the
/// fixed order: the pair is then keyed on its own (IPCC_CONTACT_EP) and
/// its term lands on no closest-feature key.
bool ipcc_edge_pair_parallel(const double *xc, const int a[2], const int b[2]);

#endif
