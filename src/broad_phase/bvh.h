/// Bounding-volume hierarchy over primitive boxes (bvh.c): the tree that the
/// broad phase (broad_phase.c) keeps from one query to the next, its build,
/// its refit under the rebuild policy, and the box helpers both files use.
/// Private to those two files and their tests.
///
/// Layout (bvh.c's preamble gives the design). Items are the primitives'
/// boxes and ids, reordered by the build so that a leaf's primitives are the
/// contiguous items [first, first + count), count <= IPCC_BVH_LEAF_SIZE.
/// Nodes are in pre-order: the left child of node i is node i + 1, its right
/// child is node `right`; count > 0 marks a leaf. A subtree over m primitives
/// is exactly 2 ceil(m / IPCC_BVH_LEAF_SIZE) - 1 consecutive nodes, and every
/// node's box contains its children's (a leaf's: its items'). A walk reads
/// nodes and items directly.
#ifndef IPCC_BVH_H
#define IPCC_BVH_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/core.h"

enum {
    IPCC_BVH_LEAF_SIZE = 4,   ///< primitives per leaf (at most)
    IPCC_BVH_STACK_SIZE = 64, ///< a walk's stack of pending nodes; the depth is at most 32
};

/// An axis-aligned box, closed: lo[k] <= hi[k].
typedef struct ipcc_bvh_box {
    double lo[3], hi[3];
} ipcc_bvh_box;

// lo = m - (r + 4 eps (|m| + r)), hi = m + (r + 4 eps (|m| + r)): see broad_phase.h.
static inline double ipcc_bvh_lower_bound(double m, double r) {
    return m - (r + 4 * DBL_EPSILON * (fabs(m) + r));
}
static inline double ipcc_bvh_upper_bound(double m, double r) {
    return m + (r + 4 * DBL_EPSILON * (fabs(m) + r));
}

/// Box of the nv >= 1 vertices v at x0 (and at x1 if not NULL), enlarged by r
/// plus the rounding margin: the box contract of broad_phase.h (broad_phase.c's
/// preamble says why it gives a superset). Asserts that the vertex ids are in
/// [0, num_vertices) and the coordinates finite. A bound may round to +-inf for
/// coordinates near DBL_MAX: still a superset.
static inline void ipcc_bvh_primitive_box(const int *v, int nv, int num_vertices, const double *x0,
                                          const double *x1, double r, ipcc_bvh_box *b) {
    double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}; // set by the first vertex (nv >= 1)
    bool finite = true;
    for (int i = 0; i < nv; ++i) {
        IPCC_ASSERT(v[i] >= 0 && v[i] < num_vertices);
        for (int s = 0; s < (x1 ? 2 : 1); ++s) {
            const double *p = (s ? x1 : x0) + 3 * (size_t)v[i];
            for (int k = 0; k < 3; ++k) {
                finite = finite && isfinite(p[k]);
                if (i == 0 && s == 0) {
                    lo[k] = hi[k] = p[k];
                } else {
                    lo[k] = p[k] < lo[k] ? p[k] : lo[k];
                    hi[k] = p[k] > hi[k] ? p[k] : hi[k];
                }
            }
        }
    }
    IPCC_ASSERT(finite);
    for (int k = 0; k < 3; ++k) {
        b->lo[k] = ipcc_bvh_lower_bound(lo[k], r);
        b->hi[k] = ipcc_bvh_upper_bound(hi[k], r);
    }
}

/// Whether two closed boxes overlap on all three axes.
static inline bool ipcc_bvh_overlap(const ipcc_bvh_box *a, const ipcc_bvh_box *b) {
    return a->lo[0] <= b->hi[0] && b->lo[0] <= a->hi[0] && a->lo[1] <= b->hi[1] && b->lo[1] <= a->hi[1] &&
           a->lo[2] <= b->hi[2] && b->lo[2] <= a->hi[2];
}

// MurmurHash3's 64-bit finalizer: a bijection that mixes every input bit.
static inline uint64_t ipcc_bvh_mix64(uint64_t z) {
    z = (z ^ (z >> 33)) * 0xff51afd7ed558ccdULL;
    z = (z ^ (z >> 33)) * 0xc4ceb9fe1a85ec53ULL;
    return z ^ (z >> 33);
}

/// A primitive's term in its tree's fingerprint (the sum of the terms modulo
/// 2^64): a mix of its id and its first three (at most) vertex ids.
static inline uint64_t ipcc_bvh_primitive_hash(int id, const int *v, int nv) {
    uint64_t h = ipcc_bvh_mix64(((uint64_t)(uint32_t)id << 32) | (uint32_t)v[0]);
    uint64_t rest = ((uint64_t)(uint32_t)(nv > 1 ? v[1] : -1) << 32) | (uint32_t)(nv > 2 ? v[2] : -1);
    return ipcc_bvh_mix64(h ^ rest);
}

/// A primitive in a tree: its box and id.
typedef struct ipcc_bvh_item {
    ipcc_bvh_box box;
    int id;
} ipcc_bvh_item;

/// Pre-order node: the left child is the next node; count > 0 marks a leaf.
typedef struct ipcc_bvh_node {
    ipcc_bvh_box box;
    int right, first, count;
    int max_id; ///< largest primitive id in the subtree (lets a walk skip ids below a bound)
} ipcc_bvh_node;

/// A tree and everything it keeps to be refit. Zero-initialise; all storage grows only.
typedef struct ipcc_bvh {
    ipcc_bvh_item *items;
    int num_items, cap_items;
    ipcc_bvh_node *nodes;
    int num_nodes, cap_nodes;
    ipcc_bvh_box
        *geom; ///< sweep mode: per node, its primitives' box at x0, not inflated (the policy's input)
    int cap_geom;
    bool valid;           ///< a tree over the primitives with `fingerprint`: it may be refit
    uint64_t fingerprint; ///< of the primitives' ids and vertex ids at the last build
    double scale;         ///< power of two bringing the root box near unit size at the last build
    double build_ratio;   ///< area ratio (node areas / primitive areas) right after the last build
    double quality;       ///< area ratio at the last update relative to build_ratio (1 after a build)
    long builds, refits, rejected;   ///< counters (see ipcc_broad_phase_stats)
    int *split;                      ///< refit plan: (node, items) of the subtrees split, pre-order
    int *part;                       ///< refit plan: (node, items) of the parts refit in parallel
    struct ipcc_bvh_sums *part_sums; ///< one per part
    int num_split, num_part, cap_split, cap_part, cap_part_sums;
} ipcc_bvh;

/// Where a tree's primitive boxes come from: each primitive's vertices, or a
/// box per primitive id already computed (the broad phase's edge tree reuses
/// its edge boxes). The vertices are needed either way (sweep mode measures
/// the geometry at x0).
typedef struct ipcc_bvh_source {
    const int *verts;          ///< vertices of primitive id at verts[nvp * id]
    int nvp;                   ///< vertices per primitive
    const ipcc_bvh_box *boxes; ///< boxes by primitive id, or NULL: from the vertices
    int num_vertices;
    const double *x0, *x1; ///< positions (3 * num_vertices); x1 != NULL: sweep mode, boxes span x0 and x1
    double r;              ///< inflation / 2 of the boxes
} ipcc_bvh_source;

/// Room for a tree over n primitives (with a geometry box per node in sweep
/// mode), each growth counted in *counter. A tree over a different number of
/// primitives can no longer be refit. Returns 0 or -1 (out of memory).
int ipcc_bvh_reserve(ipcc_bvh *t, int n, bool sweep, long *counter);

/// Bring tree t over primitives [0, n) of src up to date: refit it if it was
/// built over the same primitives (count and fingerprint; `hash` is the
/// fingerprint when src has boxes, ignored otherwise) and keep the refit if
/// its area ratio is at most `limit` times the ratio after the last build
/// (limit <= 0: never refit; INFINITY: refit whenever the primitives are the
/// same); otherwise build it. Either way every node then bounds the current
/// boxes. Outside any parallel region (it opens its own); ipcc_bvh_reserve(t,
/// n, src->x1 != NULL) done, n > 0. Returns 0, or -1 when the refit plan of a
/// new build runs out of memory (growths counted in *counter; t then invalid).
int ipcc_bvh_update(ipcc_bvh *t, const ipcc_bvh_source *src, int n, uint64_t hash, double limit,
                    long *counter);

/// Build t over primitives [0, n) of src (static boxes: src->x1 == NULL,
/// src->boxes == NULL) for one walk: no refit plan and no quality, and the
/// tree is marked for a build at the next ipcc_bvh_update. Outside any
/// parallel region. Returns 0 or -1 (out of memory; growths counted in *counter).
int ipcc_bvh_build_once(ipcc_bvh *t, const ipcc_bvh_source *src, int n, long *counter);

/// Bytes of t's items, nodes and geometry boxes.
size_t ipcc_bvh_bytes(const ipcc_bvh *t);

/// Free t's storage and zero its sizes (the counters stay).
void ipcc_bvh_free(ipcc_bvh *t);

#endif
