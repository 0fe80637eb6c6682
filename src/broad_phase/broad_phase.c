// Broad phase: candidate vertex-face, edge-edge and edge-face pairs, and
// point-tet pairs, from bounding-volume hierarchies over primitive boxes. The
// trees themselves (build, refit, the rebuild policy) are bvh.c's; this file
// computes the query boxes, walks the trees and merges the pairs.
//
// Method. Two BVHs, one over face boxes and one over edge boxes, live in the
// ipcc_broad_phase object from one query to the next. A query recomputes the
// boxes of the primitives the requested kinds need, brings each tree it uses
// up to date (refit, or build from scratch: see bvh.c, Refit and Policy), then walks
// every query primitive's box down a tree: vertex boxes against the face tree
// (VF), edge boxes against the edge tree keeping b > a (EE), edge boxes
// against the face tree (EF). Boxes follow the contract in broad_phase.h: the vertices at
// x0 (and x1), enlarged by r = inflation / 2 and a margin 4 eps (|bound| + r).
// Rounding is monotone, so for finite coordinates boxes enlarged by exactly r
// already overlap whenever two primitives are within `inflation` in exact
// arithmetic (min_A - max_B <= 2 r gives fl(min_A - r) <= fl(max_B + r)). The
// margin keeps lo <= min - r exactly and adds slack of a few ulps of the
// coordinates, for a narrow phase whose rounded distance of a pair slightly
// beyond dhat comes out <= dhat. A point-tet query builds a one-off tree over
// the tets' boxes (in the face tree's storage) and walks each point down it.
//
// Why a BVH: primitive sizes vary by orders of magnitude between bodies and
// obstacles (and swept boxes stretch along the motion), which a uniform hash
// grid handles badly (one cell size for all); the median-split tree adapts,
// needs no scale parameter and is unaffected by huge or tiny coordinates (why
// a median split: bvh.c). (No hash grid was benchmarked against it.) bench/broad_phase.c,
// 2-vCPU AMD EPYC VM, medians: 102400 triangles in five layers 0.75
// inflation apart, 2.17 M VF+EE candidates, take 63 ms to build the trees,
// 8.5 ms to refit them and 225 ms to traverse on one thread, 35, 6.3 and
// 122 ms on two (a sweep: build 67, refit 12.6 ms); EF (3.7 M pairs) 220 ms
// to traverse on one thread. Over a 20-frame twisting sequence (section 2: 40
// queries, 4 trees built, 76 refit) the persistent object takes 13.5 s
// instead of 15.3 s on one thread, 5.9 s instead of 6.7 s on two. From 6.4k to 410k triangles the time per
// triangle grows 1.45x while the candidates per triangle grow 1.3x (130 to 140 ns per candidate):
// near-linear.
//
// Complexity. Trees: build O(n log n), refit O(n) (bvh.c); query O(log n + k)
// per primitive for k reported overlaps, in practice; memory O(n + pairs).
// Nothing is O(n^2) unless the output is.
//
// Determinism. Queries run in blocks of BLOCK_QUERIES consecutive primitive
// ids, scheduled dynamically. A block is traversed into its thread's scratch:
// pairs in traversal order, then each query primitive's run sorted by second
// id, so a block's output is a pure function of the input. The block is then
// appended to a shared stage (under a critical section, in completion order)
// and its position recorded; finally the blocks are copied from the stage into
// `out` in block order: sorted by (first, second), duplicate-free (each pair is
// met once: one leaf per primitive, and EE keeps only b > a), and
// bit-identical for any number of threads. The list does not depend on
// whether a tree was refit or built (see bvh.c, Refit), and which one happens
// depends on the data only (see bvh.c, Policy): the work is deterministic too.
//
// Memory. Boxes, trees (with their geometry boxes for sweeps), stage, block
// table and thread scratch live in the ipcc_broad_phase object and only grow;
// `out` grows too. A refit allocates nothing (a build's OpenMP tasks are
// allocated by libgomp). After each pass every
// thread's scratch is grown to the largest block, and the stage holds all
// pairs, so the sizes depend on the scene and not on the schedule: a query
// whose sizes (primitives, pairs per block and in all) do not exceed an
// earlier one's at the same thread count allocates nothing
// (ipcc_broad_phase_get_stats counts growths).
//
// Failure modes. Out of memory while growing any buffer, or a list that would
// exceed INT_MAX / 2 pairs: IPCC_ERR_NO_MEMORY via ipcc_fail, `out` left
// empty. Non-finite coordinates, out-of-range vertex or group ids and a
// negative inflation are programmer errors (IPCC_ASSERT). Degenerate
// primitives (zero-length edges, flat or coincident faces) are fine. A box
// bound may round to +-inf for coordinates near DBL_MAX: still a superset.
#include "broad_phase/broad_phase.h"
#include "base/parallel.h"

#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "broad_phase/bvh.h"
#include "base/core.h"

enum {
    BLOCK_QUERIES = 256, ///< query primitives per scheduling block
};

/// One thread's scratch for the block it is working on: count pairs in
/// pairs[2 * count]; cap counts ints.
typedef struct bp_thread {
    int *pairs;
    int count, cap;
    bool failed;
    long allocations; ///< growths of pairs
} bp_thread;

/// Where a block of queries put its pairs in the stage, and where they go in
/// the merged list.
typedef struct bp_block {
    int start, count, dest;
} bp_block;

struct ipcc_broad_phase {
    ipcc_bvh_box *edge_box; ///< per edge id (query boxes for EE and EF)
    int cap_edge_box;
    ipcc_bvh face_tree, edge_tree;
    bp_thread *threads;
    int cap_threads;
    bp_block *blocks;
    int cap_blocks;
    int *stage; ///< the blocks' pairs in completion order
    int cap_stage;
    double build_seconds, query_seconds;
    long allocations;   ///< buffer growths by queries (thread scratch counted in bp_thread)
    double refit_limit; ///< the policy's quality limit (IPCC_BROAD_PHASE_REFIT_LIMIT unless set)
};

/// What one traversal pass needs.
typedef struct bp_pass {
    const ipcc_collision_topology *topo;
    const double *x0, *x1;
    double r;                 ///< inflation / 2
    const ipcc_bvh_box *qbox; ///< query boxes by id, or NULL for vertex queries (computed on the fly)
    const int *qverts;        ///< query primitives' vertices (NULL for vertices)
    int qn;                   ///< vertices per query primitive (1 or 2)
    const ipcc_bvh *tree;
    const int *tverts; ///< tree primitives' vertices
    int tn;            ///< vertices per tree primitive (2 or 3)
    bool only_greater; ///< EE: keep tree ids > query id only
} bp_pass;

static int max_threads(void) {
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

static int thread_num(void) {
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

// ---------------------------------------------------------------------------
// Queries

static inline bool groups_collide(const ipcc_collision_topology *t, int ga, int gb) {
    if (t->group_kinematic && t->group_kinematic[ga] && t->group_kinematic[gb]) return false;
    return ga != gb || (t->group_self_collision && t->group_self_collision[ga]);
}

// Sort the pairs p[0, n) (same first id) by second id: runs are short.
static void sort_run(int *p, int n) {
    for (int i = 1; i < n; ++i) {
        int v = p[2 * i + 1], j = i;
        for (; j > 0 && p[2 * j - 1] > v; --j)
            p[2 * j + 1] = p[2 * j - 1];
        p[2 * j + 1] = v;
    }
}

// Append the pairs of query primitives [qbegin, qend) to the thread buffer.
static void query_range(const bp_pass *ps, int qbegin, int qend, bp_thread *th) {
    const ipcc_collision_topology *topo = ps->topo;
    const ipcc_bvh_node *nodes = ps->tree->nodes;
    const ipcc_bvh_item *items = ps->tree->items;
    int *pairs = th->pairs, count = th->count, cap = th->cap;
    int stack[IPCC_BVH_STACK_SIZE];
    for (int q = qbegin; q < qend && !th->failed; ++q) {
        ipcc_bvh_box vbox;
        const ipcc_bvh_box *box;
        int qv[2] = {q, q}; // a vertex query is its own vertex
        if (ps->qverts) {
            box = &ps->qbox[q];
            for (int i = 0; i < ps->qn; ++i)
                qv[i] = ps->qverts[ps->qn * q + i];
        } else {
            ipcc_bvh_primitive_box(qv, 1, topo->num_vertices, ps->x0, ps->x1, ps->r, &vbox);
            box = &vbox;
        }
        int qgroup = topo->vertex_group[qv[0]], start = count, sp = 0, node = 0;
        int min_id = ps->only_greater ? q + 1 : 0; // subtrees with max_id < min_id hold no candidates
        if (nodes[0].max_id < min_id || !ipcc_bvh_overlap(box, &nodes[0].box)) continue;
        for (;;) {
            const ipcc_bvh_node *nd = &nodes[node];
            if (nd->count > 0) {
                for (int i = nd->first; i < nd->first + nd->count; ++i) {
                    int id = items[i].id;
                    if (id < min_id || !ipcc_bvh_overlap(box, &items[i].box)) continue;
                    const int *tv = ps->tverts + ps->tn * id;
                    bool shared = false;
                    for (int a = 0; a < ps->qn; ++a)
                        for (int b = 0; b < ps->tn; ++b)
                            shared = shared || qv[a] == tv[b];
                    if (shared || !groups_collide(topo, qgroup, topo->vertex_group[tv[0]])) continue;
                    if (2 * count + 2 > cap) {
                        if (count >= INT_MAX / 2 - 1 ||
                            ipcc_reserve_counted((void **)&pairs, &cap, 2 * count + 2, sizeof(int),
                                                 &th->allocations) != 0) {
                            th->failed = true;
                            break;
                        }
                    }
                    pairs[2 * count] = q;
                    pairs[2 * count + 1] = id;
                    ++count;
                }
                if (sp == 0 || th->failed) break;
                node = stack[--sp];
                continue;
            }
            int left = node + 1, right = nd->right;
            bool ol = nodes[left].max_id >= min_id && ipcc_bvh_overlap(box, &nodes[left].box);
            bool orr = nodes[right].max_id >= min_id && ipcc_bvh_overlap(box, &nodes[right].box);
            if (ol) {
                if (orr) stack[sp++] = right;
                node = left;
            } else if (orr) {
                node = right;
            } else {
                if (sp == 0) break;
                node = stack[--sp];
            }
        }
        if (count > start) sort_run(pairs + 2 * start, count - start); // pairs may still be NULL
    }
    th->pairs = pairs;
    th->count = count;
    th->cap = cap;
}

// Make sure there is a (zeroed) scratch per thread; returns 0 or -1.
static int prepare_threads(ipcc_broad_phase *bp) {
    int n = max_threads();
    if (n > bp->cap_threads) {
        ++bp->allocations;
        bp_thread *t = realloc(bp->threads, sizeof(bp_thread) * (size_t)n);
        if (!t) return -1;
        memset(t + bp->cap_threads, 0, sizeof(bp_thread) * (size_t)(n - bp->cap_threads));
        bp->threads = t;
        bp->cap_threads = n;
    }
    for (int i = 0; i < bp->cap_threads; ++i)
        bp->threads[i].failed = false;
    return 0;
}

// Run one pass over query primitives [0, num_queries) and merge the blocks
// into *list (num / cap as in ipcc_candidates). Each block is traversed into
// its thread's scratch, then appended to the shared stage (which grows under
// the critical section); the blocks are finally copied to *list in block
// order. Sizes are then a function of the scene: the stage holds all pairs,
// every scratch the largest block, so an unchanged scene allocates nothing.
static ipcc_status run_pass(ipcc_broad_phase *bp, const bp_pass *ps, int num_queries, int **list, int *num,
                            int *cap, const char *what) {
    *num = 0;
    if (num_queries == 0 || ps->tree->num_items == 0) return IPCC_OK;
    int nblocks = (num_queries + BLOCK_QUERIES - 1) / BLOCK_QUERIES;
    if (prepare_threads(bp) != 0 || ipcc_reserve_counted((void **)&bp->blocks, &bp->cap_blocks, nblocks,
                                                         sizeof(bp_block), &bp->allocations) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "broad phase (%s): out of memory for %d blocks", what, nblocks);
    bp_block *blocks = bp->blocks;
    bp_thread *threads = bp->threads;
    int used = 0; // pairs in the stage
    bool stage_failed = false;
    static ipcc_region region_query;
    ipcc_region_run query_run = ipcc_region_begin(&region_query, num_queries);
#pragma omp parallel num_threads(query_run.threads) default(none)                                            \
    shared(bp, ps, num_queries, nblocks, blocks, threads, used, stage_failed)
    {
        bp_thread *th = &threads[thread_num()];
#pragma omp for schedule(dynamic, 1)
        for (int b = 0; b < nblocks; ++b) {
            int qbegin = b * BLOCK_QUERIES, n = num_queries - qbegin, k, start = -1;
            th->count = 0;
            query_range(ps, qbegin, qbegin + (n < BLOCK_QUERIES ? n : BLOCK_QUERIES), th);
            k = th->count;
#pragma omp critical(ipcc_broad_phase_stage)
            if (!stage_failed) {
                if (used > INT_MAX / 2 - k ||
                    ipcc_reserve_counted((void **)&bp->stage, &bp->cap_stage, 2 * (used + k), sizeof(int),
                                         &bp->allocations) != 0) {
                    stage_failed = true;
                } else {
                    if (k > 0) memcpy(bp->stage + 2 * (size_t)used, th->pairs, sizeof(int) * 2 * (size_t)k);
                    start = used;
                    used += k;
                }
            }
            blocks[b].start = start;
            blocks[b].count = k;
        }
    }
    ipcc_region_end(&query_run);
    for (int i = 0; i < bp->cap_threads; ++i)
        stage_failed = stage_failed || threads[i].failed;
    if (stage_failed)
        return ipcc_fail(IPCC_ERR_NO_MEMORY,
                         "broad phase (%s): out of memory after %d candidate pairs (limit %d)", what, used,
                         INT_MAX / 2);
    int total = 0, largest = 0;
    for (int b = 0; b < nblocks; ++b) {
        blocks[b].dest = total;
        total += blocks[b].count;
        largest = blocks[b].count > largest ? blocks[b].count : largest;
    }
    for (int i = 0; i < bp->cap_threads; ++i)
        if (ipcc_reserve_counted((void **)&threads[i].pairs, &threads[i].cap, 2 * largest, sizeof(int),
                                 &bp->allocations) != 0)
            return ipcc_fail(IPCC_ERR_NO_MEMORY, "broad phase (%s): out of memory for thread scratch", what);
    if (ipcc_reserve_counted((void **)list, cap, 2 * total, sizeof(int), &bp->allocations) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "broad phase (%s): out of memory for %d candidate pairs", what,
                         total);
    int *dst = *list;
    const int *stage = bp->stage;
    static ipcc_region region_copy;
    ipcc_region_run copy_run = ipcc_region_begin(&region_copy, total);
#pragma omp parallel for num_threads(copy_run.threads) schedule(dynamic, 4) default(none)                    \
    shared(nblocks, blocks, stage, dst)
    for (int b = 0; b < nblocks; ++b)
        if (blocks[b].count > 0)
            memcpy(dst + 2 * (size_t)blocks[b].dest, stage + 2 * (size_t)blocks[b].start,
                   sizeof(int) * 2 * (size_t)blocks[b].count);
    ipcc_region_end(&copy_run);
    *num = total;
    return IPCC_OK;
}

// ---------------------------------------------------------------------------
// Public

ipcc_status ipcc_broad_phase_point_tet_query(ipcc_broad_phase *bp, int num_vertices, const double *x,
                                             int num_points, const int *points, const int *point_group,
                                             int num_tets, const int *tets, const int *tet_group, int **pairs,
                                             int *num_pairs, int *cap_pairs) {
    IPCC_ASSERT(bp && pairs && num_pairs && cap_pairs && num_points >= 0 && num_tets >= 0);
    IPCC_ASSERT(num_points == 0 || (points && point_group && x));
    IPCC_ASSERT(num_tets == 0 || (tets && tet_group && x));
    *num_pairs = 0;
    if (num_points == 0 || num_tets == 0) return IPCC_OK;
    // The tree over tets takes the face tree's storage: the next query rebuilds the face tree.
    ipcc_bvh *t = &bp->face_tree;
    ipcc_bvh_source src = {.verts = tets, .nvp = 4, .num_vertices = num_vertices, .x0 = x, .r = 0.0};
    if (ipcc_bvh_build_once(t, &src, num_tets, &bp->allocations) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "broad phase: out of memory for the tree of %d tets", num_tets);
    const ipcc_bvh_node *nodes = t->nodes;
    const ipcc_bvh_item *items = t->items;
    int count = 0, stack[IPCC_BVH_STACK_SIZE];
    for (int q = 0; q < num_points; ++q) {
        IPCC_ASSERT(points[q] >= 0 && points[q] < num_vertices);
        const double *p = x + 3 * (size_t)points[q];
        ipcc_bvh_box box = {{p[0], p[1], p[2]}, {p[0], p[1], p[2]}};
        int start = count, sp = 0, node = 0;
        if (!ipcc_bvh_overlap(&box, &nodes[0].box)) continue;
        for (;;) {
            const ipcc_bvh_node *nd = &nodes[node];
            if (nd->count > 0) {
                for (int i = nd->first; i < nd->first + nd->count; ++i) {
                    int id = items[i].id;
                    if (tet_group[id] == point_group[q] || !ipcc_bvh_overlap(&box, &items[i].box)) continue;
                    if (count >= INT_MAX / 2 - 1 ||
                        ipcc_reserve_counted((void **)pairs, cap_pairs, 2 * count + 2, sizeof(int),
                                             &bp->allocations) != 0) {
                        *num_pairs = 0;
                        return ipcc_fail(IPCC_ERR_NO_MEMORY,
                                         "broad phase (point-tet): out of memory after %d candidate pairs",
                                         count);
                    }
                    (*pairs)[2 * count] = q;
                    (*pairs)[2 * count + 1] = id;
                    ++count;
                }
                if (sp == 0) break;
                node = stack[--sp];
                continue;
            }
            int left = node + 1, right = nd->right;
            bool ol = ipcc_bvh_overlap(&box, &nodes[left].box),
                 orr = ipcc_bvh_overlap(&box, &nodes[right].box);
            if (ol) {
                if (orr) stack[sp++] = right;
                node = left;
            } else if (orr) {
                node = right;
            } else {
                if (sp == 0) break;
                node = stack[--sp];
            }
        }
        if (count > start) sort_run(*pairs + 2 * start, count - start); // *pairs may still be NULL
    }
    *num_pairs = count;
    return IPCC_OK;
}

ipcc_broad_phase *ipcc_broad_phase_create(void) {
    ipcc_broad_phase *bp = calloc(1, sizeof(ipcc_broad_phase));
    if (bp) bp->refit_limit = IPCC_BROAD_PHASE_REFIT_LIMIT;
    return bp;
}

void ipcc_broad_phase_set_refit_limit(ipcc_broad_phase *bp, double limit) {
    IPCC_ASSERT(bp && !isnan(limit));
    bp->refit_limit = limit;
}

void ipcc_broad_phase_destroy(ipcc_broad_phase *bp) {
    if (!bp) return;
    IPCC_FREE(bp->edge_box);
    ipcc_bvh_free(&bp->face_tree);
    ipcc_bvh_free(&bp->edge_tree);
    for (int i = 0; i < bp->cap_threads; ++i)
        IPCC_FREE(bp->threads[i].pairs);
    IPCC_FREE(bp->threads);
    IPCC_FREE(bp->blocks);
    IPCC_FREE(bp->stage);
    free(bp);
}

void ipcc_candidates_free(ipcc_candidates *c) {
    if (!c) return;
    free(c->vf);
    free(c->ee);
    free(c->ef);
    memset(c, 0, sizeof *c);
}

ipcc_broad_phase_stats ipcc_broad_phase_get_stats(const ipcc_broad_phase *bp) {
    IPCC_ASSERT(bp);
    ipcc_broad_phase_stats st = {.build_seconds = bp->build_seconds,
                                 .query_seconds = bp->query_seconds,
                                 .allocations = bp->allocations,
                                 .tree_quality = 1};
    st.bytes = sizeof *bp + sizeof(ipcc_bvh_box) * (size_t)bp->cap_edge_box +
               sizeof(bp_block) * (size_t)bp->cap_blocks + sizeof(int) * (size_t)bp->cap_stage +
               sizeof(bp_thread) * (size_t)bp->cap_threads;
    for (int i = 0; i < bp->cap_threads; ++i) {
        st.allocations += bp->threads[i].allocations;
        st.bytes += sizeof(int) * (size_t)bp->threads[i].cap;
    }
    const ipcc_bvh *trees[2] = {&bp->face_tree, &bp->edge_tree};
    for (int t = 0; t < 2; ++t) {
        st.bytes += ipcc_bvh_bytes(trees[t]);
        st.tree_builds += trees[t]->builds;
        st.tree_refits += trees[t]->refits;
        st.tree_rejected_refits += trees[t]->rejected;
        if (trees[t]->valid && !(trees[t]->quality <= st.tree_quality)) st.tree_quality = trees[t]->quality;
    }
    return st;
}

// The edge boxes, then the face and edge trees refit or built (ipcc_bvh_update),
// one after the other.
static ipcc_status update_trees(ipcc_broad_phase *bp, const ipcc_collision_topology *topo, const double *x0,
                                const double *x1, double r, bool need_faces, bool need_edges,
                                bool need_edge_tree) {
    int nv = topo->num_vertices, nf = need_faces ? topo->num_faces : 0, ne = need_edges ? topo->num_edges : 0;
    int nte = need_edge_tree ? ne : 0;
    // A tree this query does not use is left as it is (it may be refit later);
    // one it uses gets its size, possibly 0 (then run_pass skips it).
    ipcc_bvh *ft = &bp->face_tree, *et = &bp->edge_tree;
    if ((need_faces && ipcc_bvh_reserve(ft, nf, x1 != NULL, &bp->allocations) != 0) ||
        (need_edge_tree && ipcc_bvh_reserve(et, nte, x1 != NULL, &bp->allocations) != 0) ||
        ipcc_reserve_counted((void **)&bp->edge_box, &bp->cap_edge_box, ne, sizeof(ipcc_bvh_box),
                             &bp->allocations) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY,
                         "broad phase: out of memory for the trees of %d faces and %d edges", nf, nte);
    ipcc_bvh_box *ebox = bp->edge_box;
    const int *edges = topo->edges;
    ipcc_bvh_source fsrc = {.verts = topo->faces, .nvp = 3, .num_vertices = nv, .x0 = x0, .x1 = x1, .r = r};
    ipcc_bvh_source esrc = {
        .verts = edges, .nvp = 2, .boxes = ebox, .num_vertices = nv, .x0 = x0, .x1 = x1, .r = r};
    uint64_t ehash = 0; // the edge tree's fingerprint, summed with the edge boxes
    double limit = bp->refit_limit;
    static ipcc_region region1;
    ipcc_region_run region1_run = ipcc_region_begin(&region1, ne);
#pragma omp parallel for num_threads(region1_run.threads) schedule(guided, 64) reduction(+ : ehash) default(none) \
    shared(ebox, edges, nv, ne, nte, x0, x1, r)
    for (int e = 0; e < ne; ++e) {
        ipcc_bvh_primitive_box(edges + 2 * e, 2, nv, x0, x1, r, &ebox[e]);
        if (nte > 0) ehash += ipcc_bvh_primitive_hash(e, edges + 2 * e, 2);
    }
    ipcc_region_end(&region1_run);
    // One tree after the other, each refit in parallel over its plan's parts
    // (no OpenMP task: libgomp mallocs every deferred task, and a query that
    // refits must not allocate; tests/no_allocation.c).
    if ((nf > 0 && ipcc_bvh_update(ft, &fsrc, nf, 0, limit, &bp->allocations) != 0) ||
        (nte > 0 && ipcc_bvh_update(et, &esrc, nte, ehash, limit, &bp->allocations) != 0))
        return ipcc_fail(IPCC_ERR_NO_MEMORY,
                         "broad phase: out of memory for the refit plan of %d faces and %d edges", nf, nte);
    return IPCC_OK;
}

ipcc_status ipcc_broad_phase_query(ipcc_broad_phase *bp, const ipcc_collision_topology *topo,
                                   const double *x0, const double *x1, double inflation, int kinds,
                                   ipcc_candidates *out) {
    IPCC_ASSERT(bp && topo && out);
    IPCC_ASSERT(inflation >= 0 && isfinite(inflation));
    IPCC_ASSERT((kinds & ~(IPCC_CANDIDATES_VF | IPCC_CANDIDATES_EE | IPCC_CANDIDATES_EF)) == 0);
    IPCC_ASSERT(topo->num_vertices >= 0 && topo->num_edges >= 0 && topo->num_faces >= 0);
    IPCC_ASSERT(topo->num_vertices == 0 || (x0 && topo->vertex_group));
    IPCC_ASSERT(topo->num_edges == 0 || topo->edges);
    IPCC_ASSERT(topo->num_faces == 0 || topo->faces);
    for (int v = 0; v < topo->num_vertices; ++v)
        IPCC_ASSERT(topo->vertex_group[v] >= 0 && topo->vertex_group[v] < topo->num_groups);
    out->num_vf = out->num_ee = out->num_ef = 0;
    bp->build_seconds = bp->query_seconds = 0;

    bool vf = kinds & IPCC_CANDIDATES_VF, ee = kinds & IPCC_CANDIDATES_EE, ef = kinds & IPCC_CANDIDATES_EF;
    double r = 0.5 * inflation, t0 = ipcc_now();
    ipcc_status st = update_trees(bp, topo, x0, x1, r, vf || ef, ee || ef, ee);
    double t1 = ipcc_now();
    bp->build_seconds = t1 - t0;
    if (st != IPCC_OK) return st;

    bp_pass ps = {.topo = topo, .x0 = x0, .x1 = x1, .r = r};
    if (vf) {
        ps.qbox = NULL, ps.qverts = NULL, ps.qn = 1;
        ps.tree = &bp->face_tree, ps.tverts = topo->faces, ps.tn = 3, ps.only_greater = false;
        st = run_pass(bp, &ps, topo->num_vertices, &out->vf, &out->num_vf, &out->cap_vf, "vertex-face");
    }
    if (st == IPCC_OK && ee) {
        ps.qbox = bp->edge_box, ps.qverts = topo->edges, ps.qn = 2;
        ps.tree = &bp->edge_tree, ps.tverts = topo->edges, ps.tn = 2, ps.only_greater = true;
        st = run_pass(bp, &ps, topo->num_edges, &out->ee, &out->num_ee, &out->cap_ee, "edge-edge");
    }
    if (st == IPCC_OK && ef) {
        ps.qbox = bp->edge_box, ps.qverts = topo->edges, ps.qn = 2;
        ps.tree = &bp->face_tree, ps.tverts = topo->faces, ps.tn = 3, ps.only_greater = false;
        st = run_pass(bp, &ps, topo->num_edges, &out->ef, &out->num_ef, &out->cap_ef, "edge-face");
    }
    bp->query_seconds = ipcc_now() - t1;
    if (st != IPCC_OK) out->num_vf = out->num_ee = out->num_ef = 0;
    return st;
}
