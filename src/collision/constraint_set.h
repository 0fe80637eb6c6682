/// The constraint set of barrier contact: the active pairs of a state keyed
/// by their closest features, with the multiplicity of each key
/// (constraint_set.c, contact_multiplicity.c). Private to the library.
#ifndef IPCC_CONSTRAINT_SET_H
#define IPCC_CONSTRAINT_SET_H

#include <stdbool.h>
#include <stdint.h>

#include "broad_phase/broad_phase.h"
#include "collision/collision_mesh.h"
#include "geometry/distance.h"
#include "shape/shape.h"

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
} ipcc_contact_kind;

/// Whether a constraint of this kind is against an analytic shape (PS, ST,
/// SE, QE, QT), whose index follows its vertices in v.
static inline bool ipcc_contact_kind_on_shape(int kind) {
    return kind == IPCC_CONTACT_PS || kind == IPCC_CONTACT_ST || kind == IPCC_CONTACT_SE ||
           kind == IPCC_CONTACT_QE || kind == IPCC_CONTACT_QT;
}

/// Vertices of a constraint of this kind (1 to 4).
int ipcc_contact_kind_vertices(ipcc_contact_kind kind);

/// One constraint: a key (kind and vertices) and what its barrier needs.
typedef struct ipcc_contact_pair {
    int kind;   ///< an ipcc_contact_kind, or -1 for "no constraint"; EE keys are always interior-interior
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

/// The obstacles that are no mesh: half-spaces and analytic shapes, the
/// shapes at the pose of the state the set is built at.
typedef struct ipcc_contact_obstacles {
    int num_planes;
    const double *planes; ///< 6 per half-space: point, unit normal
    int num_shapes;
    const ipcc_shape *pose; ///< per shape, at the state in use
    const double *radius;   ///< per shape: its bounding radius
    int num_spheres;        ///< shapes that are spheres (ST / SE constraints against bodies' faces)
    /// Per shape, the subdivisions of every collision edge (ne each) and
    /// face (nf each) for its sample points (QE / QT constraints,
    /// contact_samples.h), fixed at the rest state; 1 or less: none. NULL
    /// when no shape has samples.
    const unsigned char *edge_divisions, *face_divisions;
} ipcc_contact_obstacles;

/// Signed distance of x to a half-space's plane (point, unit normal).
static inline double ipcc_contact_plane_signed(const double *plane, const double *x) {
    return (x[0] - plane[0]) * plane[3] + (x[1] - plane[1]) * plane[4] + (x[2] - plane[2]) * plane[5];
}

/// The set and its grow-only buffers.
typedef struct ipcc_constraint_set {
    int np;                   ///< constraints
    ipcc_contact_pair *pairs; ///< sorted by key
    int cap_pairs;
    ipcc_contact_pair *scratch; ///< one per candidate, then the extra keys
    int cap_scratch;
    unsigned char *vf_extra; ///< per vertex-face candidate: its edges' (bits 0-2) and vertices' (3-5) keys
    int cap_vf_extra;
    unsigned char *ee_extra; ///< per edge-edge candidate: vertex-edge (bits 0-3) and vertex-vertex (4-7) keys
    int cap_ee_extra;
    unsigned char *sphere_extra; ///< per sphere and face: its edges' sphere-edge keys (bits 0-2)
    int cap_sphere_extra;
    uint64_t *face_samples; ///< per shape and face: its samples within d̂ (contact_samples.h)
    int cap_face_samples;
    uint16_t *edge_samples; ///< per shape and edge: likewise
    int cap_edge_samples;
} ipcc_constraint_set;

/// The constraint set at collision positions xc (3 nc) from the broad
/// phase's vertex-face and edge-edge candidates, the half-spaces and the
/// shapes: every pair within d̂, keyed, sorted, deduplicated, with its
/// multiplicity (keys of multiplicity 0 dropped). 0, or -1 when out of memory.
int ipcc_constraint_set_build(ipcc_constraint_set *s, const ipcc_collision_mesh *m,
                              const ipcc_contact_obstacles *o, const ipcc_candidates *cand, const double *xc,
                              double dhat);
void ipcc_constraint_set_free(ipcc_constraint_set *s);

/// The closest-feature type of edges a and b (collision vertices [a0, a1]
/// and [b0, b1] at xc), in the order a, b, computed in a fixed order of
/// the two edges (the one with the lower vertex first): every place that
/// keys an edge-edge term (the constraint set's edge-edge keys, the
/// multiplicities of contact_multiplicity.c) sees the same type for a pair,
/// whichever edge it names first, so ties (parallel edges, whose closest
/// points are not unique) land the term on one key and the energy is
/// continuous across them.
ipcc_edge_edge_distance_type ipcc_edge_pair_type(const double *xc, const int a[2], const int b[2]);

/// How many terms of the inclusion-exclusion barrier key p stands for at xc
/// (contact_multiplicity.c); 0 drops it. `pose` gives the spheres' centres.
int ipcc_contact_multiplicity(const ipcc_collision_mesh *m, const ipcc_shape *pose, const double *xc,
                              const ipcc_contact_pair *p);

#endif
