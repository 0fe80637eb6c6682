/// Broad phase: candidate primitive pairs for contact (vertex-face, edge-edge)
/// and for intersection tests (edge-face, point-tet) from bounding-volume
/// hierarchies.
///
/// Box convention (the exact contract; tests reproduce it): a primitive's box
/// spans its vertices at x0 (and at x1 in sweep mode), and every bound is
/// pushed outwards by r = inflation / 2 plus a rounding margin:
///   lo = min - (r + 4 eps (|min| + r)),   hi = max + (r + 4 eps (|max| + r)),
/// eps = DBL_EPSILON, evaluated in this order in double precision. Two boxes
/// are candidates when they overlap as closed intervals on all three axes, so
/// any two primitives within `inflation` of each other (at some time of the
/// linear motion, in sweep mode) are reported; the margin also covers rounding
/// of that size in a narrow phase's distances.
///
/// Filters: a primitive's group is the group of its first vertex (primitives
/// do not span groups). A pair is dropped when the primitives share a vertex,
/// when both groups are kinematic (this includes two primitives of the same
/// kinematic group), or when both are in one group without self-collision.
#ifndef IPCC_BROAD_PHASE_H
#define IPCC_BROAD_PHASE_H

#include <stddef.h>

#include "ipcc/base.h"

/// Collision-mesh topology (not owned; arrays must outlive the call).
typedef struct ipcc_collision_topology {
    int num_vertices;
    const int *vertex_group; ///< per vertex: group (body/obstacle) id in [0, num_groups)
    int num_edges;
    const int *edges; ///< 2 * num_edges vertex ids
    int num_faces;
    const int *faces; ///< 3 * num_faces vertex ids
    int num_groups;
    /// per group: nonzero = pairs inside the group are allowed (NULL = no group self-collides)
    const unsigned char *group_self_collision;
    /// per group: nonzero = kinematic; kinematic-kinematic pairs are skipped (NULL = none is kinematic)
    const unsigned char *group_kinematic;
} ipcc_collision_topology;

/// Candidate pairs, sorted ascending (by first then second id), no duplicates. Grow-only storage.
typedef struct ipcc_candidates {
    int num_vf, cap_vf;
    int *vf; ///< 2 * num_vf: (vertex, face)
    int num_ee, cap_ee;
    int *ee; ///< 2 * num_ee: (edge a, edge b) with a < b
    int num_ef, cap_ef;
    int *ef; ///< 2 * num_ef: (edge, face), used for intersection tests
} ipcc_candidates;

/// Free the arrays and zero the struct (NULL ok).
void ipcc_candidates_free(ipcc_candidates *c);

/// Kinds of pairs to search for (bit mask).
enum { IPCC_CANDIDATES_VF = 1, IPCC_CANDIDATES_EE = 2, IPCC_CANDIDATES_EF = 4 };

/// Reusable broad-phase state: trees and per-thread buffers, grow-only. The trees persist between queries
/// and are refit (node bounds recomputed bottom-up) instead of rebuilt while the primitives are the same and
/// a refit keeps the tree's quality (the policy is in bvh.c's preamble); the result never depends
/// on which path ran.
typedef struct ipcc_broad_phase ipcc_broad_phase;

/// A new broad phase with empty buffers, or NULL when out of memory.
ipcc_broad_phase *ipcc_broad_phase_create(void);
/// Free everything (NULL ok).
void ipcc_broad_phase_destroy(ipcc_broad_phase *bp);
/// The rebuild policy's default quality limit: a refit tree is kept while its area ratio (see bvh.c)
/// is at most this factor times the ratio right after its last build.
#define IPCC_BROAD_PHASE_REFIT_LIMIT 1.15

/// For benchmarks and tests: the rebuild policy's quality limit (default IPCC_BROAD_PHASE_REFIT_LIMIT).
/// INFINITY = refit whenever the primitives are the same; <= 0 = build on every query (no refit: the
/// behaviour before trees persisted). The candidates do not depend on it; only the time does.
void ipcc_broad_phase_set_refit_limit(ipcc_broad_phase *bp, double limit);

/// Every pair of the requested kinds whose primitives come within `inflation` (metres, >= 0) of each other
/// at positions x0 (3 * num_vertices), or, if x1 != NULL, at any time of the linear motion x0 -> x1
/// (each primitive's box spans its vertices at x0 and x1). A guaranteed superset: boxes are enlarged by
/// inflation/2 plus a small rounding margin (see the top of this header). Pairs are filtered: pairs sharing
/// a vertex are excluded; pairs in the same group are excluded unless group_self_collision[g]; pairs between
/// two kinematic groups are excluded. Coordinates must be finite (asserted). Deterministic: the result does
/// not depend on the number of OpenMP threads, nor on bp's history (a refit tree and a fresh one give the
/// same list); whether a tree is refit or rebuilt depends only on the data. Reusing bp for a sequence of
/// queries on the same topology (same edges and faces, any positions, motion, inflation and kinds) is
/// what makes it cheap; a different topology is detected (counts and a fingerprint of the vertex ids) and
/// rebuilds. No allocation once bp and out have grown to the scene.
/// Returns IPCC_OK or IPCC_ERR_NO_MEMORY (message set via ipcc_fail; also when a list would exceed
/// INT_MAX / 2 pairs). `out` is cleared first (and left empty on failure).
ipcc_status ipcc_broad_phase_query(ipcc_broad_phase *bp, const ipcc_collision_topology *topo,
                                   const double *x0, const double *x1, double inflation, int kinds,
                                   ipcc_candidates *out);

/// Candidates for point-in-volume tests (the initial-state check): every pair (q, t) of a query point q
/// (points[q] is a vertex of x) and a tet t (four vertices of x) such that the point lies in the tet's box
/// at x (the box contract above with inflation 0) and point_group[q] != tet_group[t]. *pairs gets
/// 2 * *num_pairs ints (q, t), sorted by q then t, no duplicates; it only grows (*cap_pairs counts ints).
/// The tree is built over the tets (it reuses bp's face tree, so the next ipcc_broad_phase_query rebuilds
/// that); each point walks it: O(T log T + P log T + pairs). Serial. Returns IPCC_OK or
/// IPCC_ERR_NO_MEMORY (message set; *num_pairs = 0).
ipcc_status ipcc_broad_phase_point_tet_query(ipcc_broad_phase *bp, int num_vertices, const double *x,
                                             int num_points, const int *points, const int *point_group,
                                             int num_tets, const int *tets, const int *tet_group, int **pairs,
                                             int *num_pairs, int *cap_pairs);

/// Counters for benchmarks, step statistics and tests.
typedef struct ipcc_broad_phase_stats {
    double build_seconds; ///< last query: boxes and trees (built or refit), wall clock
    double query_seconds; ///< last query: traversals and merges, wall clock
    long allocations;     ///< buffer growths by all queries so far, in bp and in `out` (unchanged = none)
    size_t bytes;         ///< bytes held by bp's buffers (grow-only)
    long tree_builds;     ///< trees built from scratch by all calls so far (face, edge and tet trees)
    long tree_refits;     ///< trees refit and kept by all queries so far
    /// refits whose tree failed the quality test (or whose primitives changed) and were rebuilt;
    /// each is also counted in tree_builds
    long tree_rejected_refits;
    /// largest area ratio of the face and edge trees at their last update, relative to the value right
    /// after their last build (1 = as built; a refit is kept while it is <= the refit limit)
    double tree_quality;
} ipcc_broad_phase_stats;

/// bp's counters. Buffers grow only when a query needs more room than any before it at the same thread count.
ipcc_broad_phase_stats ipcc_broad_phase_get_stats(const ipcc_broad_phase *bp);

#endif
