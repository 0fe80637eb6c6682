// The fixed order of an edge pair (constraint_set.c's edge-edge keys,
// contact_multiplicity.c's terms of the 1-skeletons).
//
// ipcc_edge_edge_distance_type_of (distance.c) classifies the closest
// features of two edges in the order it is given them; where the closest
// points are not unique (parallel, overlapping edges: aligned grids) the
// two orders may name different features, and a term would land on one key
// in the constraint set and on another in the multiplicities. So every
// caller classifies a pair here, always with the edge of the lower vertex
// first, and swaps the type back when it named the edges the other way
// round. Likewise whether the pair is nearly parallel (keyed on its own,
// parallel_edges.c). No arithmetic of its own: the classification is
// distance.c's, the angle parallel_edges.c's.
#include "collision/edge_pair.h"

#include "collision/parallel_edges.h"
#include "fem/local_to_global.h"

// The type of edge-edge pair (b, a) as a type of (a, b).
static ipcc_edge_edge_distance_type swap_edge_pair_type(ipcc_edge_edge_distance_type t) {
    switch (t) {
    case IPCC_EE_EA0_EB1: return IPCC_EE_EA1_EB0;
    case IPCC_EE_EA1_EB0: return IPCC_EE_EA0_EB1;
    case IPCC_EE_EA_EB0: return IPCC_EE_EA0_EB;
    case IPCC_EE_EA_EB1: return IPCC_EE_EA1_EB;
    case IPCC_EE_EA0_EB: return IPCC_EE_EA_EB0;
    case IPCC_EE_EA1_EB: return IPCC_EE_EA_EB1;
    default: return t; // EA0_EB0, EA1_EB1, EA_EB
    }
}

ipcc_edge_edge_distance_type ipcc_edge_pair_type(const double *xc, const int a[2], const int b[2]) {
    if (ipcc_edge_pair_first(a, b))
        return ipcc_edge_edge_distance_type_of(xc + 3 * a[0], xc + 3 * a[1], xc + 3 * b[0], xc + 3 * b[1]);
    return swap_edge_pair_type(
        ipcc_edge_edge_distance_type_of(xc + 3 * b[0], xc + 3 * b[1], xc + 3 * a[0], xc + 3 * a[1]));
}

bool ipcc_edge_pair_parallel(const double *xc, const int a[2], const int b[2]) {
    if (!ipcc_edge_pair_first(a, b)) {
        const int *t = a;
        a = b;
        b = t;
    }
    const int v[4] = {a[0], a[1], b[0], b[1]};
    double x[12];
    ipcc_local_gather(xc, 4, v, x);
    return ipcc_parallel_edges(x);
}
