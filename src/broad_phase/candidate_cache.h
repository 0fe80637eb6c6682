/// A broad-phase query that reuses the candidates of an earlier, wider one
/// while the vertices stay close to where it was made (candidate_cache.c).
/// The result is ipcc_broad_phase_query's, in its order, less pairs whose
/// primitives are farther apart than the inflation all through the query.
#ifndef IPCC_CANDIDATE_CACHE_H
#define IPCC_CANDIDATE_CACHE_H

#include <stdbool.h>

#include "broad_phase/broad_phase.h"
#include "broad_phase/bvh.h"

/// The superset and where it was taken. Zero-initialize; grow-only.
typedef struct ipcc_candidate_cache {
    ipcc_candidates superset; ///< every pair within inflation + 2 skin at x_ref (boxes and distance)
    double *x_ref;            ///< 3 * num_vertices: the positions it was taken at
    int cap_x;                ///< doubles x_ref holds
    int num_vertices, kinds;  ///< of the queries it serves
    double inflation, skin;
    bool valid;
    ipcc_bvh_box *box; ///< scratch: the query's primitive boxes (vertices, edges, faces)
    int cap_box;
    unsigned char *keep; ///< scratch: per superset pair, within reach (candidate_cache.c, "Near pairs")
    int cap_keep;
    long hits, misses; ///< queries answered from the superset, and the others
} ipcc_candidate_cache;

/// Free the arrays and zero the struct (NULL ok).
void ipcc_candidate_cache_free(ipcc_candidate_cache *cc);

/// ipcc_broad_phase_query(bp, topo, x0, x1, inflation, kinds, out), less
/// pairs out of reach (candidate_cache.c, "Near pairs"): from the superset
/// when every vertex of x0 (and x1) is within
/// skin / 2 of x_ref, per axis; else from bp, and then, when x0 -> x1
/// moves no vertex by more than skin / 2, a new superset is taken at x0
/// with inflation + 2 skin. skin > 0 (metres). Errors as the query's.
ipcc_status ipcc_candidate_cache_query(ipcc_candidate_cache *cc, ipcc_broad_phase *bp,
                                       const ipcc_collision_topology *topo, const double *x0,
                                       const double *x1, double inflation, int kinds, double skin,
                                       ipcc_candidates *out);

#endif
