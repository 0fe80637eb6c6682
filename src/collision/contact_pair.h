/// One constraint of barrier contact as the constraint set keys it: its
/// kind (named by its closest features), its vertices and sample, and its
/// multiplicity, with what the kind tells (vertex count, whether it is
/// against an analytic shape). Types and inline helpers only: the set that
/// builds the pairs is constraint_set.h, their multiplicities
/// contact_multiplicity.h. Private to the library.
#ifndef IPCC_CONTACT_PAIR_H
#define IPCC_CONTACT_PAIR_H

#include <stdbool.h>

#include "collision/collision_mesh.h"

/// Constraint kinds, named by their closest features.
typedef enum ipcc_contact_kind {
    IPCC_CONTACT_PP, ///< point-point      [a, b]
    IPCC_CONTACT_PE, ///< point-edge       [p, e0, e1] (to the edge's line)
    IPCC_CONTACT_PT, ///< point-triangle   [p, t0, t1, t2] (to its plane)
    IPCC_CONTACT_EE, ///< edge-edge        [ea0, ea1, eb0, eb1], measured with an ipcc_edge_edge_distance_type
    IPCC_CONTACT_PH, ///< point-half-space [p], plane = (point, unit normal)
    IPCC_CONTACT_PS, ///< point-shape      [p], an analytic obstacle (shape.h) at its current pose
    IPCC_CONTACT_ST, ///< sphere-triangle  [t0, t1, t2]: a sphere shape's centre to the triangle's interior
    IPCC_CONTACT_SE, ///< sphere-edge      [e0, e1]: a sphere shape's centre to the edge's interior
    IPCC_CONTACT_QE, ///< edge sample-shape [e0, e1]: a fixed point of the edge (pair.sample) to a curved
                     ///< shape
    IPCC_CONTACT_QT, ///< face sample-shape [t0, t1, t2]: a fixed point inside the face (pair.sample) likewise
    IPCC_CONTACT_EP, ///< nearly parallel edge-edge [ea0, ea1, eb0, eb1]: the segments' distance, the term of
                     ///< parallel_edges.c
} ipcc_contact_kind;

/// Whether a constraint of this kind is between two edges (EE, EP), whose
/// second primitive starts at v[2].
static inline bool ipcc_contact_kind_edge_edge(int kind) {
    return kind == IPCC_CONTACT_EE || kind == IPCC_CONTACT_EP;
}

/// Whether a constraint of this kind is between two body surfaces (PP, PE,
/// PT, EE, EP): a distance between points of the meshes, so translation
/// free, and the keys the inclusion-exclusion weighs (contact_multiplicity.c).
static inline bool ipcc_contact_kind_mesh(int kind) {
    return kind == IPCC_CONTACT_PP || kind == IPCC_CONTACT_PE || kind == IPCC_CONTACT_PT ||
           ipcc_contact_kind_edge_edge(kind);
}
/// Whether a constraint of this kind is against an analytic shape (PS, ST,
/// SE, QE, QT), whose index follows its vertices in v.
static inline bool ipcc_contact_kind_on_shape(int kind) {
    return kind == IPCC_CONTACT_PS || kind == IPCC_CONTACT_ST || kind == IPCC_CONTACT_SE ||
           kind == IPCC_CONTACT_QE || kind == IPCC_CONTACT_QT;
}

/// Vertices of a constraint of this kind (1 to 4).
static inline int ipcc_contact_kind_vertices(ipcc_contact_kind kind) {
    switch (kind) {
    case IPCC_CONTACT_PP: return 2;
    case IPCC_CONTACT_PE: return 3;
    case IPCC_CONTACT_PH:
    case IPCC_CONTACT_PS: return 1;
    case IPCC_CONTACT_SE:
    case IPCC_CONTACT_QE: return 2;
    case IPCC_CONTACT_ST:
    case IPCC_CONTACT_QT: return 3;
    default: return 4;
    }
}

/// One constraint: a key (kind and vertices) and what its barrier needs.
typedef struct ipcc_contact_pair {
    int kind;   ///< an ipcc_contact_kind, or -1 for "no constraint"; EE keys are always interior-interior,
                ///< EP keys nearly parallel pairs
    int v[4];   ///< collision vertices; PH / PS: v[0] vertex, v[1] half-space / shape; ST / SE / QT / QE:
                ///< the triangle's or edge's vertices, then the shape's index
    int sample; ///< QE / QT: the sample's code (contact_samples.h), part of the key; else 0
    int mult;   ///< multiplicity: how many terms of the barrier this key stands for (contact_multiplicity.c)
} ipcc_contact_pair;

/// Pair p's world vertex indices (the mesh's cvert of its collision
/// vertices) into vertices; returns their number.
static inline int ipcc_contact_pair_world_vertices(const ipcc_collision_mesh *m, const ipcc_contact_pair *p,
                                                   int vertices[4]) {
    int nv = ipcc_contact_kind_vertices((ipcc_contact_kind)p->kind);
    for (int a = 0; a < nv; ++a)
        vertices[a] = m->cvert[p->v[a]];
    return nv;
}

#endif
