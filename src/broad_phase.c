// Broad phase: candidate vertex-face, edge-edge and edge-face pairs from
// bounding-volume hierarchies over primitive boxes.
//
// Method. Two BVHs, one over face boxes and one over edge boxes, live in the
// ipcc_broad_phase object from one query to the next. A query recomputes the
// boxes of the primitives the requested kinds need, brings each tree it uses
// up to date (refit, or build from scratch: see Refit and Policy), then walks
// every query primitive's box down a tree: vertex boxes against the face tree
// (VF), edge boxes against the edge tree keeping b > a (EE), edge boxes
// against the face tree (EF). Boxes follow the contract in broad_phase.h: the vertices at
// x0 (and x1), enlarged by r = inflation / 2 and a margin 4 eps (|bound| + r).
// Rounding is monotone, so for finite coordinates boxes enlarged by exactly r
// already overlap whenever two primitives are within `inflation` in exact
// arithmetic (min_A - max_B <= 2 r gives fl(min_A - r) <= fl(max_B + r)). The
// margin keeps lo <= min - r exactly and adds slack of a few ulps of the
// coordinates, for a narrow phase whose rounded distance of a pair slightly
// beyond dhat comes out <= dhat.
//
// Tree. Top-down object-median split: a node over m primitives is a leaf when
// m <= LEAF_SIZE; otherwise the primitives are partitioned by quickselect on
// their box centres along the longest axis of the centres' bounds, the left
// child taking ceil(k/2) full leaves' worth (k = ceil(m / LEAF_SIZE)). So a
// subtree over m primitives has exactly 2 ceil(m / LEAF_SIZE) - 1 nodes,
// stored in pre-order: the left child follows its parent and the right
// child's index is known before the left subtree is built. Subtrees are
// therefore built as independent OpenMP tasks writing disjoint node and item
// ranges, and the tree is identical for any thread count. Centres are compared
// as (lo + hi, id), a strict total order, so ties (degenerate or coincident
// primitives) split deterministically too. The depth is <= ceil(log2 k) + 1.
// Each node also keeps the largest primitive id below it, so EE (b > a only)
// skips subtrees of smaller ids.
//
// Refit. The contact code queries the same collision topology once or twice
// per Newton iteration (static at x0, swept x0 -> x1, alternating), so a tree
// is built once and then refit: its structure (which primitives under which
// node) is kept, the primitive boxes are recomputed for the new positions,
// motion and inflation, and node boxes are recomputed bottom-up. In pre-order
// a subtree is a contiguous run of nodes and children follow their parent, so
// walking a run from its last node to its first meets both children of a node
// before it. A plan made at each build splits the tree into parts of fewer
// than REFIT_PART_ITEMS primitives, refit in parallel (disjoint node ranges, an
// omp for, no tasks: libgomp mallocs every deferred task), and the split nodes
// above them, refit after; min and max are exact and the sums are added in
// plan order, so nothing depends on the schedule. A refit tree is a valid BVH for any boxes (every
// node bounds its subtree's boxes) and the traversal tests the primitives' own
// boxes and sorts each run, so the candidates are exactly those of a fresh
// tree: only the time to find them differs. A refit costs a fifth to an
// eighth of a build (no partitioning: O(n), one streaming pass).
//
// Same primitives. A tree is refit only when the query's primitive count equals
// the tree's and the primitives' fingerprint equals the one at the tree's last
// build: the sum modulo 2^64 of a 64-bit mix (MurmurHash3's finalizer) of each
// primitive's id and vertex ids, accumulated while the boxes are recomputed
// (four multiplies per primitive, no extra pass). A topology changed in
// place (same arrays, same counts) is caught; pointers are not compared (equal
// pointers do not mean equal contents, nor different ones different contents).
// A fingerprint collision (2^-64) would only cost time, not correctness (see
// above). A point-tet query, which builds its tree over tets in the face
// tree's storage, marks the face tree for a build.
//
// Policy. A refit keeps the tree's structure while the primitives move, so it
// can get loose: a node's primitives drift apart and its box, which every walk
// that overlaps it must enter, grows. Quality is measured by the area ratio:
// the sum of the half surface areas of all node boxes over the sum of those of
// the primitive boxes (the surface-area heuristic's node term, normalized by
// the primitives' own size), taken on the primitives' geometry at x0 without
// inflation (static mode: every box shrunk by the inflation; sweep mode:
// separate boxes at x0, kept per node in geom), so that neither the inflation
// nor the motion of a sweep (which stretches small boxes more than large ones)
// moves it. It is recorded right after each build; a refit is kept while its
// ratio is at most IPCC_BROAD_PHASE_REFIT_LIMIT = 1.15 times that, otherwise
// the tree is rebuilt at once (the refit's work is lost). The sums are taken
// in an order fixed by the tree (the refit plan depends on subtree sizes
// only) on areas scaled by a power of two fixed at the build (exact), so the
// decision depends on the data only, never on the thread count; a ratio that
// over- or underflows (coordinates beyond 1e+-150 of the build's scale) fails
// the test: rebuild, as before refitting. There is no cap on the number of
// refits: in 2_matKnives and mat_twist the ratio stays between 0.85 and 1 for
// hundreds of refits, and a cap would rebuild trees as good as new.
// Calibration (bench/broad_phase.c section 3, 102400 triangles, one thread):
// the traversal of a refit tree is slower than a fresh tree's on the same
// boxes by about 0.85 (ratio - 1): +5 to +12 % at 1.14, +25 % at 1.29, +47
// to +50 % at 1.68 (layers rotated against each other), +4 to +5 % at 1.06,
// +22 % at 1.27, +43 to +46 % at 1.52 (twist; two runs, +-6 % noise). A build costs 55 ms more than a refit
// (64 vs 8.5 ms), 0.24 of a 225 ms traversal. A tree drifting by d per query and rebuilt at ratio 1 + q costs
// 0.24 d / q + 0.85 q / 2 traversals per query on average, least at q = 0.03, 0.08, 0.17 for d = 0.002, 0.01,
// 0.05; q = 0.15 is within 0.04 traversals of the least for all three, and clear of the ratio's noise (a
// jitter of one to three inflations moves it by 0.01 to 0.04). A blind spot:
// every vertex jittered by 10 inflations leaves the ratio at 1.00 but slows
// the traversal by 17 %.
//
// Why a BVH: primitive sizes vary by orders of magnitude between bodies and
// obstacles (and swept boxes stretch along the motion), which a uniform hash
// grid handles badly (one cell size for all); the median-split tree adapts,
// needs no scale parameter and is unaffected by huge or tiny coordinates. A
// median split rather than SAH keeps the build cheap; builds are rare since
// trees persist, but the first query, a changed topology and the policy still
// build. (No hash grid was benchmarked against it.) bench/broad_phase.c,
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
// Complexity. Build O(n log n) (a linear-time partition per level); refit
// O(n); query O(log n + k) per primitive for k reported overlaps, in practice;
// memory O(n + pairs). Nothing is O(n^2) unless the output is.
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
// whether a tree was refit or built (see Refit), and which one happens
// depends on the data only (see Policy): the work is deterministic too.
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
#include "broad_phase.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "core.h"

enum {
    LEAF_SIZE = 4,           ///< primitives per leaf (at most)
    BLOCK_QUERIES = 256,     ///< query primitives per scheduling block
    TASK_MIN_ITEMS = 16384,  ///< subtrees at least this big are built as separate tasks
    PARALLEL_MIN = 2048,     ///< fewer primitives than this: no parallel region
    STACK_SIZE = 64,         ///< traversal stack; the depth is at most 32
    REFIT_PART_ITEMS = 4096, ///< the refit plan splits subtrees at least this big into parts
};

typedef struct bp_box {
    double lo[3], hi[3];
} bp_box;

/// A primitive in a tree: its box and id. Items are reordered by the build, so
/// a leaf's primitives are the contiguous items [first, first + count).
typedef struct bp_item {
    bp_box box;
    int id;
} bp_item;

/// Pre-order node: the left child is the next node; count > 0 marks a leaf.
typedef struct bp_node {
    bp_box box;
    int right, first, count;
    int max_id; ///< largest primitive id in the subtree (prunes EE's b > a)
} bp_node;

typedef struct bp_tree {
    bp_item *items;
    int num_items, cap_items;
    bp_node *nodes;
    int num_nodes, cap_nodes;
    bp_box *geom; ///< sweep mode: per node, its primitives' box at x0, not inflated (the policy's input)
    int cap_geom;
    bool valid;           ///< a tree over the primitives with `fingerprint`: it may be refit
    uint64_t fingerprint; ///< of the primitives' ids and vertex ids at the last build
    double scale;         ///< power of two bringing the root box near unit size at the last build
    double build_ratio;   ///< area ratio (node areas / primitive areas) right after the last build
    double quality;       ///< area ratio at the last update relative to build_ratio (1 after a build)
    long builds, refits, rejected; ///< counters (see ipcc_broad_phase_stats)
    int *split;                    ///< refit plan: (node, items) of the subtrees split, pre-order
    int *part;                     ///< refit plan: (node, items) of the parts refit in parallel
    struct bp_sums *part_sums;     ///< one per part
    int num_split, num_part, cap_split, cap_part, cap_part_sums;
} bp_tree;

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
    bp_box *edge_box; ///< per edge id (query boxes for EE and EF)
    int cap_edge_box;
    bp_tree face_tree, edge_tree;
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
    double r;           ///< inflation / 2
    const bp_box *qbox; ///< query boxes by id, or NULL for vertex queries (computed on the fly)
    const int *qverts;  ///< query primitives' vertices (NULL for vertices)
    int qn;             ///< vertices per query primitive (1 or 2)
    const bp_tree *tree;
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

// lo = m - (r + 4 eps (|m| + r)), hi = m + (r + 4 eps (|m| + r)): see broad_phase.h.
static inline double lower_bound(double m, double r) { return m - (r + 4 * DBL_EPSILON * (fabs(m) + r)); }
static inline double upper_bound(double m, double r) { return m + (r + 4 * DBL_EPSILON * (fabs(m) + r)); }

// Enlarged box of the nv vertices v at x0 (and x1 if not NULL).
static void primitive_box(const int *v, int nv, int num_vertices, const double *x0, const double *x1,
                          double r, bp_box *b) {
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
        b->lo[k] = lower_bound(lo[k], r);
        b->hi[k] = upper_bound(hi[k], r);
    }
}

static inline bool overlap(const bp_box *a, const bp_box *b) {
    return a->lo[0] <= b->hi[0] && b->lo[0] <= a->hi[0] && a->lo[1] <= b->hi[1] && b->lo[1] <= a->hi[1] &&
           a->lo[2] <= b->hi[2] && b->lo[2] <= a->hi[2];
}

// ipcc_reserve that counts actual growths in *counter.
static int reserve(void **buf, int *cap, int count, size_t size, long *counter) {
    if (count <= *cap) return 0;
    ++*counter;
    return ipcc_reserve(buf, cap, count, size);
}

// ---------------------------------------------------------------------------
// Tree build

// Strict total order of items along `axis`: centre (as lo + hi), then id.
static inline bool item_less(const bp_item *a, const bp_item *b, int axis) {
    double ka = a->box.lo[axis] + a->box.hi[axis], kb = b->box.lo[axis] + b->box.hi[axis];
    return ka < kb || (ka == kb && a->id < b->id);
}

static inline void swap_items(bp_item *a, bp_item *b) {
    bp_item t = *a;
    *a = *b;
    *b = t;
}

// Reorder a[begin, end) so that a[begin, nth) precede a[nth, end) in
// item_less order (quickselect, median-of-three pivot, Hoare partition).
static void select_nth(bp_item *a, int begin, int end, int nth, int axis) {
    while (end - begin > 16) {
        int mid = begin + (end - begin) / 2;
        // Median of three: a pivot that is neither the minimum nor the maximum
        // keeps both sides of the partition non-empty.
        if (item_less(&a[mid], &a[begin], axis)) swap_items(&a[mid], &a[begin]);
        if (item_less(&a[end - 1], &a[begin], axis)) swap_items(&a[end - 1], &a[begin]);
        if (item_less(&a[end - 1], &a[mid], axis)) swap_items(&a[end - 1], &a[mid]);
        bp_item pivot = a[mid];
        int i = begin - 1, j = end;
        for (;;) {
            do
                ++i;
            while (item_less(&a[i], &pivot, axis));
            do
                --j;
            while (item_less(&pivot, &a[j], axis));
            if (i >= j) break;
            swap_items(&a[i], &a[j]);
        }
        // a[begin, j] <= pivot <= a[j + 1, end)
        if (nth <= j)
            end = j + 1;
        else
            begin = j + 1;
    }
    for (int i = begin + 1; i < end; ++i) // insertion sort of the small remainder
        for (int j = i; j > begin && item_less(&a[j], &a[j - 1], axis); --j)
            swap_items(&a[j], &a[j - 1]);
}

// Build the subtree over items[begin, end) at nodes[node ...].
static void build_node(bp_tree *t, int node, int begin, int end) {
    bp_node *nd = &t->nodes[node];
    const bp_item *it = t->items;
    double clo[3], chi[3]; // bounds of the centres (as lo + hi)
    nd->box = it[begin].box;
    nd->max_id = it[begin].id;
    for (int k = 0; k < 3; ++k)
        clo[k] = chi[k] = it[begin].box.lo[k] + it[begin].box.hi[k];
    for (int i = begin + 1; i < end; ++i) {
        nd->max_id = it[i].id > nd->max_id ? it[i].id : nd->max_id;
        for (int k = 0; k < 3; ++k) {
            const bp_box *b = &it[i].box;
            nd->box.lo[k] = b->lo[k] < nd->box.lo[k] ? b->lo[k] : nd->box.lo[k];
            nd->box.hi[k] = b->hi[k] > nd->box.hi[k] ? b->hi[k] : nd->box.hi[k];
            double c = b->lo[k] + b->hi[k];
            clo[k] = c < clo[k] ? c : clo[k];
            chi[k] = c > chi[k] ? c : chi[k];
        }
    }
    int m = end - begin;
    nd->first = begin;
    if (m <= LEAF_SIZE) {
        nd->count = m;
        nd->right = -1;
        return;
    }
    int k = (m + LEAF_SIZE - 1) / LEAF_SIZE, kl = (k + 1) / 2, mid = begin + kl * LEAF_SIZE;
    int axis = 0;
    for (int a = 1; a < 3; ++a)
        if (chi[a] - clo[a] > chi[axis] - clo[axis]) axis = a;
    select_nth(t->items, begin, end, mid, axis);
    nd->count = 0;
    nd->right = node + 2 * kl; // the left subtree holds 2 kl - 1 nodes
    int right = nd->right;
    if (m >= TASK_MIN_ITEMS) {
#pragma omp task default(none) firstprivate(t, node, begin, mid)
        build_node(t, node + 1, begin, mid);
    } else {
        build_node(t, node + 1, begin, mid);
    }
    build_node(t, right, mid, end);
}

// Room for a tree over n primitives. Returns 0 or -1 (out of memory).
// A tree over a different number of primitives can no longer be refit.
static int tree_reserve(bp_tree *t, int n, long *counter) {
    int leaves = (n + LEAF_SIZE - 1) / LEAF_SIZE;
    t->valid = t->valid && t->num_items == n;
    t->num_items = n;
    t->num_nodes = n > 0 ? 2 * leaves - 1 : 0;
    if (reserve((void **)&t->items, &t->cap_items, n, sizeof(bp_item), counter) != 0) return -1;
    return reserve((void **)&t->nodes, &t->cap_nodes, t->num_nodes, sizeof(bp_node), counter);
}

static void tree_free(bp_tree *t) {
    IPCC_FREE(t->items);
    IPCC_FREE(t->nodes);
    IPCC_FREE(t->geom);
    IPCC_FREE(t->split);
    IPCC_FREE(t->part);
    IPCC_FREE(t->part_sums);
    t->cap_split = t->cap_part = t->cap_part_sums = t->num_split = t->num_part = 0;
    t->cap_items = t->cap_nodes = t->cap_geom = t->num_items = t->num_nodes = 0;
}

// ---------------------------------------------------------------------------
// Tree refit and the rebuild policy

/// Where a tree's primitive boxes come from: each primitive's vertices, or a
/// box per primitive id already computed (the edge tree reuses the edge boxes).
typedef struct bp_source {
    const int *verts;    ///< vertices of primitive id at verts[nvp * id]
    int nvp;             ///< vertices per primitive
    const bp_box *boxes; ///< boxes by primitive id, or NULL: from the vertices
    int num_vertices;
    const double *x0, *x1;
    double r;
    bool measure_only; ///< keep the items' boxes (just built): node boxes and sums only
} bp_source;

/// Sums over a subtree: box areas of its nodes and of its primitives (both in
/// units of the tree's scale) and the fingerprint of the primitives it
/// recomputed (a sum modulo 2^64: independent of the order).
typedef struct bp_sums {
    double node_area, item_area;
    uint64_t hash;
} bp_sums;

// MurmurHash3's 64-bit finalizer: a bijection that mixes every input bit.
static inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 33)) * 0xff51afd7ed558ccdULL;
    z = (z ^ (z >> 33)) * 0xc4ceb9fe1a85ec53ULL;
    return z ^ (z >> 33);
}

// A primitive's contribution to its tree's fingerprint: its id and its
// (up to three) vertex ids.
static inline uint64_t primitive_hash(int id, const int *v, int nv) {
    uint64_t h = mix64(((uint64_t)(uint32_t)id << 32) | (uint32_t)v[0]);
    uint64_t rest = ((uint64_t)(uint32_t)(nv > 1 ? v[1] : -1) << 32) | (uint32_t)(nv > 2 ? v[2] : -1);
    return mix64(h ^ rest);
}

// Half the surface area of box b scaled by s (a power of two, so exact) and
// shrunk by pad: extents (hi - lo) s - pad, clamped at 0. With pad = 2 r s an
// inflated box gives the area of the box it was inflated from (up to the
// rounding margin).
static inline double box_area(const bp_box *b, double s, double pad) {
    double e[3];
    for (int k = 0; k < 3; ++k) {
        e[k] = (b->hi[k] * s - b->lo[k] * s) - pad;
        e[k] = e[k] > 0 ? e[k] : 0;
    }
    return e[0] * e[1] + e[1] * e[2] + e[2] * e[0];
}

static inline void box_union(const bp_box *a, const bp_box *b, bp_box *u) {
    for (int k = 0; k < 3; ++k) {
        u->lo[k] = a->lo[k] < b->lo[k] ? a->lo[k] : b->lo[k];
        u->hi[k] = a->hi[k] > b->hi[k] ? a->hi[k] : b->hi[k];
    }
}

// Box of primitive id from the source; adds its fingerprint to *hash when the
// box is computed from the vertices.
static inline void source_box(const bp_source *src, int id, bp_box *b, uint64_t *hash) {
    if (src->boxes) {
        *b = src->boxes[id];
        return;
    }
    const int *v = src->verts + src->nvp * (size_t)id;
    primitive_box(v, src->nvp, src->num_vertices, src->x0, src->x1, src->r, b);
    *hash += primitive_hash(id, v, src->nvp);
}

// Bounds of primitive id's vertices at x0 (sweep mode's geometry box).
static inline void x0_box(const bp_source *src, int id, bp_box *b) {
    const int *v = src->verts + src->nvp * (size_t)id;
    const double *p = src->x0 + 3 * (size_t)v[0];
    for (int k = 0; k < 3; ++k)
        b->lo[k] = b->hi[k] = p[k];
    for (int i = 1; i < src->nvp; ++i) {
        p = src->x0 + 3 * (size_t)v[i];
        for (int k = 0; k < 3; ++k) {
            b->lo[k] = p[k] < b->lo[k] ? p[k] : b->lo[k];
            b->hi[k] = p[k] > b->hi[k] ? p[k] : b->hi[k];
        }
    }
}

// Refit the nodes [begin, end), a whole subtree in pre-order, from last to
// first: children follow their parent, so both are final when it is reached.
// The sums measure the primitives' geometry at x0 without inflation: in
// static mode the node and item boxes shrunk by the inflation; in sweep mode
// boxes at x0, for the nodes kept in t->geom.
static void refit_range(const bp_source *src, bp_tree *t, int begin, int end, double scale, bp_sums *s) {
    bool sweep = src->x1 != NULL;
    double pad = sweep ? 0 : 2 * src->r * scale;
    bp_node *nodes = t->nodes;
    bp_item *items = t->items;
    for (int i = end - 1; i >= begin; --i) {
        bp_node *nd = &nodes[i];
        bp_box *geom = sweep ? &t->geom[i] : &nd->box;
        if (nd->count > 0) {
            for (int j = nd->first; j < nd->first + nd->count; ++j) {
                if (!src->measure_only) source_box(src, items[j].id, &items[j].box, &s->hash);
                if (j == nd->first)
                    nd->box = items[j].box;
                else
                    box_union(&nd->box, &items[j].box, &nd->box);
                if (sweep) {
                    bp_box b;
                    x0_box(src, items[j].id, &b);
                    s->item_area += box_area(&b, scale, 0);
                    if (j == nd->first)
                        *geom = b;
                    else
                        box_union(geom, &b, geom);
                } else {
                    s->item_area += box_area(&items[j].box, scale, pad);
                }
            }
        } else {
            box_union(&nodes[i + 1].box, &nodes[nd->right].box, &nd->box);
            if (sweep) box_union(&t->geom[i + 1], &t->geom[nd->right], geom);
        }
        s->node_area += box_area(geom, scale, pad);
    }
}

// The refit plan of a tree over n items: the subtrees of fewer than
// REFIT_PART_ITEMS items directly below the split nodes ("parts", refit in
// parallel), and the split nodes above them (refit after them, last first).
// Both lists depend on the tree's structure only, so the refit and its sums
// are the same for any thread count. A plan is made once per build: no
// allocation and no OpenMP task in a refit (libgomp mallocs every deferred
// task, and the Newton loop must not allocate).
static int refit_plan(bp_tree *t, int n, long *counter) {
    int cap = 2 * (n / REFIT_PART_ITEMS + 1) + 2;
    if (reserve((void **)&t->split, &t->cap_split, 2 * cap, sizeof(int), counter) != 0 ||
        reserve((void **)&t->part, &t->cap_part, 2 * cap, sizeof(int), counter) != 0 ||
        reserve((void **)&t->part_sums, &t->cap_part_sums, cap, sizeof(bp_sums), counter) != 0)
        return -1;
    t->num_split = t->num_part = 0;
    int stack[2 * 64], top = 0; // (node, items); depth <= 32
    stack[top++] = 0;
    stack[top++] = n;
    while (top > 0) {
        int m = stack[--top], node = stack[--top];
        if (m < REFIT_PART_ITEMS || t->nodes[node].count > 0) {
            t->part[2 * t->num_part] = node;
            t->part[2 * t->num_part++ + 1] = m;
            continue;
        }
        const bp_node *nd = &t->nodes[node];
        int ml = t->nodes[nd->right].first - nd->first;
        t->split[2 * t->num_split] = node;
        t->split[2 * t->num_split++ + 1] = m;
        stack[top++] = nd->right; // the left child is popped first: parts in pre-order
        stack[top++] = m - ml;
        stack[top++] = node + 1;
        stack[top++] = ml;
    }
    return 0;
}

// Refit the whole tree over n items into *s (refit_plan done): the parts in
// parallel, each into its own sums, then the split nodes from the last to
// the first; the sums are added in plan order.
static void refit_tree(const bp_source *src, bp_tree *t, double scale, bp_sums *s) {
    int np = t->num_part;
#pragma omp parallel for if (np > 1) schedule(dynamic, 1) default(none) shared(src, t, np, scale)
    for (int k = 0; k < np; ++k) {
        int node = t->part[2 * k], m = t->part[2 * k + 1];
        bp_sums *ps = &t->part_sums[k];
        *ps = (bp_sums){0, 0, 0};
        refit_range(src, t, node, node + 2 * ((m + LEAF_SIZE - 1) / LEAF_SIZE) - 1, scale, ps);
    }
    *s = (bp_sums){0, 0, 0};
    for (int k = 0; k < np; ++k) {
        s->node_area += t->part_sums[k].node_area;
        s->item_area += t->part_sums[k].item_area;
        s->hash += t->part_sums[k].hash;
    }
    for (int k = t->num_split - 1; k >= 0; --k) {
        int node = t->split[2 * k];
        bp_node *nd = &t->nodes[node];
        box_union(&t->nodes[node + 1].box, &t->nodes[nd->right].box, &nd->box);
        if (src->x1) {
            box_union(&t->geom[node + 1], &t->geom[nd->right], &t->geom[node]);
            s->node_area += box_area(&t->geom[node], scale, 0);
        } else {
            s->node_area += box_area(&nd->box, scale, 2 * src->r * scale);
        }
    }
}

// Node areas over primitive areas (NaN or inf when the areas overflow or
// underflow, which fails the policy: such a tree is rebuilt every time).
static double area_ratio(const bp_sums *s) {
    if (s->item_area > 0) return s->node_area / s->item_area;
    return s->node_area == 0 ? 1.0 : INFINITY;
}

// Build tree t over primitives [0, n) of src from scratch (items in id order),
// then make its refit plan and record what the policy compares refits with.
// Outside any parallel region (it opens its own); t has room for n items.
// Returns 0, or -1 when the plan runs out of memory.
static int tree_build(const bp_source *src, bp_tree *t, int n, uint64_t hash, long *counter) {
    uint64_t h = 0;
#pragma omp parallel for if (n >= PARALLEL_MIN) schedule(static) reduction(+ : h) default(none) shared(src, t, n)
    for (int i = 0; i < n; ++i) {
        source_box(src, i, &t->items[i].box, &h);
        t->items[i].id = i;
    }
    // Subtrees of TASK_MIN_ITEMS and more are built as tasks (a rebuild may
    // allocate task records in libgomp; a refit never does).
#pragma omp parallel if (n >= TASK_MIN_ITEMS) default(none) shared(t, n)
#pragma omp single
    build_node(t, 0, 0, n);
    if (refit_plan(t, n, counter) != 0) {
        t->valid = false;
        return -1;
    }
    double extent = 0;
    for (int k = 0; k < 3; ++k) {
        double e = t->nodes[0].box.hi[k] - t->nodes[0].box.lo[k];
        extent = e > extent ? e : extent;
    }
    int exponent = extent > 0 && isfinite(extent) ? ilogb(extent) : 0;
    exponent = exponent < -1000 ? -1000 : exponent > 1000 ? 1000 : exponent;
    t->scale = ldexp(1.0, -exponent);
    bp_source measure = *src;
    measure.measure_only = true;
    bp_sums m;
    refit_tree(&measure, t, t->scale, &m);
    t->build_ratio = area_ratio(&m);
    t->fingerprint = src->boxes ? hash : h;
    t->valid = true;
    t->quality = 1;
    ++t->builds;
    return 0;
}

// Bring tree t over primitives [0, n) of src up to date: refit it if it was
// built over the same primitives (count and fingerprint; `hash` is the
// fingerprint when src has boxes), and keep the refit if its area ratio is at
// most `limit` times the ratio after the last build; otherwise build it.
// Either way the tree is valid for the current boxes. Outside any parallel
// region (it opens its own); t has room for n items. Returns 0, or -1 when
// the plan of a new build runs out of memory.
static int tree_update(const bp_source *src, bp_tree *t, int n, uint64_t hash, double limit, long *counter) {
    if (t->valid && t->num_items == n && limit > 0) {
        bp_sums s;
        refit_tree(src, t, t->scale, &s);
        double quality = area_ratio(&s) / t->build_ratio;
        if ((src->boxes ? hash : s.hash) == t->fingerprint && quality <= limit) {
            t->quality = quality;
            ++t->refits;
            return 0;
        }
        ++t->rejected;
    }
    return tree_build(src, t, n, hash, counter);
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
    const bp_node *nodes = ps->tree->nodes;
    const bp_item *items = ps->tree->items;
    int *pairs = th->pairs, count = th->count, cap = th->cap;
    int stack[STACK_SIZE];
    for (int q = qbegin; q < qend && !th->failed; ++q) {
        bp_box vbox;
        const bp_box *box;
        int qv[2] = {q, q}; // a vertex query is its own vertex
        if (ps->qverts) {
            box = &ps->qbox[q];
            for (int i = 0; i < ps->qn; ++i)
                qv[i] = ps->qverts[ps->qn * q + i];
        } else {
            primitive_box(qv, 1, topo->num_vertices, ps->x0, ps->x1, ps->r, &vbox);
            box = &vbox;
        }
        int qgroup = topo->vertex_group[qv[0]], start = count, sp = 0, node = 0;
        int min_id = ps->only_greater ? q + 1 : 0; // subtrees with max_id < min_id hold no candidates
        if (nodes[0].max_id < min_id || !overlap(box, &nodes[0].box)) continue;
        for (;;) {
            const bp_node *nd = &nodes[node];
            if (nd->count > 0) {
                for (int i = nd->first; i < nd->first + nd->count; ++i) {
                    int id = items[i].id;
                    if (id < min_id || !overlap(box, &items[i].box)) continue;
                    const int *tv = ps->tverts + ps->tn * id;
                    bool shared = false;
                    for (int a = 0; a < ps->qn; ++a)
                        for (int b = 0; b < ps->tn; ++b)
                            shared = shared || qv[a] == tv[b];
                    if (shared || !groups_collide(topo, qgroup, topo->vertex_group[tv[0]])) continue;
                    if (2 * count + 2 > cap) {
                        if (count >= INT_MAX / 2 - 1 || reserve((void **)&pairs, &cap, 2 * count + 2,
                                                                sizeof(int), &th->allocations) != 0) {
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
            bool ol = nodes[left].max_id >= min_id && overlap(box, &nodes[left].box);
            bool orr = nodes[right].max_id >= min_id && overlap(box, &nodes[right].box);
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
    if (prepare_threads(bp) != 0 ||
        reserve((void **)&bp->blocks, &bp->cap_blocks, nblocks, sizeof(bp_block), &bp->allocations) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "broad phase (%s): out of memory for %d blocks", what, nblocks);
    bp_block *blocks = bp->blocks;
    bp_thread *threads = bp->threads;
    int used = 0; // pairs in the stage
    bool stage_failed = false;
#pragma omp parallel if (num_queries >= PARALLEL_MIN) default(none)                                          \
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
                if (used > INT_MAX / 2 - k || reserve((void **)&bp->stage, &bp->cap_stage, 2 * (used + k),
                                                      sizeof(int), &bp->allocations) != 0) {
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
        if (reserve((void **)&threads[i].pairs, &threads[i].cap, 2 * largest, sizeof(int),
                    &bp->allocations) != 0)
            return ipcc_fail(IPCC_ERR_NO_MEMORY, "broad phase (%s): out of memory for thread scratch", what);
    if (reserve((void **)list, cap, 2 * total, sizeof(int), &bp->allocations) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "broad phase (%s): out of memory for %d candidate pairs", what,
                         total);
    int *dst = *list;
    const int *stage = bp->stage;
#pragma omp parallel for if (total >= 4 * PARALLEL_MIN) schedule(static) default(none)                       \
    shared(nblocks, blocks, stage, dst)
    for (int b = 0; b < nblocks; ++b)
        if (blocks[b].count > 0)
            memcpy(dst + 2 * (size_t)blocks[b].dest, stage + 2 * (size_t)blocks[b].start,
                   sizeof(int) * 2 * (size_t)blocks[b].count);
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
    bp_tree *t = &bp->face_tree;
    t->valid = false; // it becomes a tree over tets: the next query rebuilds the face tree
    if (tree_reserve(t, num_tets, &bp->allocations) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "broad phase: out of memory for the tree of %d tets", num_tets);
    for (int e = 0; e < num_tets; ++e) {
        primitive_box(tets + 4 * (size_t)e, 4, num_vertices, x, NULL, 0.0, &t->items[e].box);
        t->items[e].id = e;
    }
#pragma omp parallel if (num_tets >= PARALLEL_MIN) default(none) shared(t)
#pragma omp single
    build_node(t, 0, 0, t->num_items);
    ++t->builds;
    const bp_node *nodes = t->nodes;
    const bp_item *items = t->items;
    int count = 0, stack[STACK_SIZE];
    for (int q = 0; q < num_points; ++q) {
        IPCC_ASSERT(points[q] >= 0 && points[q] < num_vertices);
        const double *p = x + 3 * (size_t)points[q];
        bp_box box = {{p[0], p[1], p[2]}, {p[0], p[1], p[2]}};
        int start = count, sp = 0, node = 0;
        if (!overlap(&box, &nodes[0].box)) continue;
        for (;;) {
            const bp_node *nd = &nodes[node];
            if (nd->count > 0) {
                for (int i = nd->first; i < nd->first + nd->count; ++i) {
                    int id = items[i].id;
                    if (tet_group[id] == point_group[q] || !overlap(&box, &items[i].box)) continue;
                    if (count >= INT_MAX / 2 - 1 || reserve((void **)pairs, cap_pairs, 2 * count + 2,
                                                            sizeof(int), &bp->allocations) != 0) {
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
            bool ol = overlap(&box, &nodes[left].box), orr = overlap(&box, &nodes[right].box);
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
    tree_free(&bp->face_tree);
    tree_free(&bp->edge_tree);
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
    st.bytes = sizeof *bp + sizeof(bp_box) * (size_t)bp->cap_edge_box +
               sizeof(bp_block) * (size_t)bp->cap_blocks + sizeof(int) * (size_t)bp->cap_stage +
               sizeof(bp_thread) * (size_t)bp->cap_threads;
    for (int i = 0; i < bp->cap_threads; ++i) {
        st.allocations += bp->threads[i].allocations;
        st.bytes += sizeof(int) * (size_t)bp->threads[i].cap;
    }
    const bp_tree *trees[2] = {&bp->face_tree, &bp->edge_tree};
    for (int t = 0; t < 2; ++t) {
        st.bytes += sizeof(bp_item) * (size_t)trees[t]->cap_items +
                    sizeof(bp_node) * (size_t)trees[t]->cap_nodes +
                    sizeof(bp_box) * (size_t)trees[t]->cap_geom;
        st.tree_builds += trees[t]->builds;
        st.tree_refits += trees[t]->refits;
        st.tree_rejected_refits += trees[t]->rejected;
        if (trees[t]->valid && !(trees[t]->quality <= st.tree_quality)) st.tree_quality = trees[t]->quality;
    }
    return st;
}

// The edge boxes, then the face and edge trees refit or built (tree_update),
// one after the other.
static ipcc_status update_trees(ipcc_broad_phase *bp, const ipcc_collision_topology *topo, const double *x0,
                                const double *x1, double r, bool need_faces, bool need_edges,
                                bool need_edge_tree) {
    int nv = topo->num_vertices, nf = need_faces ? topo->num_faces : 0, ne = need_edges ? topo->num_edges : 0;
    int nte = need_edge_tree ? ne : 0;
    // A tree this query does not use is left as it is (it may be refit later);
    // one it uses gets its size, possibly 0 (then run_pass skips it).
    bp_tree *ft = &bp->face_tree, *et = &bp->edge_tree;
    if ((need_faces && tree_reserve(ft, nf, &bp->allocations) != 0) ||
        (need_edge_tree && tree_reserve(et, nte, &bp->allocations) != 0) ||
        (x1 && nf > 0 &&
         reserve((void **)&ft->geom, &ft->cap_geom, ft->num_nodes, sizeof(bp_box), &bp->allocations) != 0) ||
        (x1 && nte > 0 &&
         reserve((void **)&et->geom, &et->cap_geom, et->num_nodes, sizeof(bp_box), &bp->allocations) != 0) ||
        reserve((void **)&bp->edge_box, &bp->cap_edge_box, ne, sizeof(bp_box), &bp->allocations) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY,
                         "broad phase: out of memory for the trees of %d faces and %d edges", nf, nte);
    bp_box *ebox = bp->edge_box;
    const int *edges = topo->edges;
    bp_source fsrc = {.verts = topo->faces, .nvp = 3, .num_vertices = nv, .x0 = x0, .x1 = x1, .r = r};
    bp_source esrc = {
        .verts = edges, .nvp = 2, .boxes = ebox, .num_vertices = nv, .x0 = x0, .x1 = x1, .r = r};
    uint64_t ehash = 0; // the edge tree's fingerprint, summed with the edge boxes
    double limit = bp->refit_limit;
#pragma omp parallel for if (ne >= PARALLEL_MIN) schedule(static) reduction(+ : ehash) default(none)        \
    shared(ebox, edges, nv, ne, nte, x0, x1, r)
    for (int e = 0; e < ne; ++e) {
        primitive_box(edges + 2 * e, 2, nv, x0, x1, r, &ebox[e]);
        if (nte > 0) ehash += primitive_hash(e, edges + 2 * e, 2);
    }
    // One tree after the other, each refit in parallel over its plan's parts
    // (no OpenMP task: libgomp mallocs every deferred task, and a query that
    // refits must not allocate; tests/no_allocation.c).
    if ((nf > 0 && tree_update(&fsrc, ft, nf, 0, limit, &bp->allocations) != 0) ||
        (nte > 0 && tree_update(&esrc, et, nte, ehash, limit, &bp->allocations) != 0))
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
