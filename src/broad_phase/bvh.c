// Bounding-volume hierarchy over primitive boxes: the trees the broad phase
// (broad_phase.c) walks for candidate pairs, built once and then refit while
// a rebuild policy finds them good enough. The types, the layout and the box
// helpers are in bvh.h; the walks are the broad phase's.
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
// node bounds its subtree's boxes) and the traversal (broad_phase.c) tests the
// primitives' own boxes and sorts each run, so the candidates are exactly those
// of a fresh tree: only the time to find them differs. A refit costs a fifth to an
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
// above). A one-off build (ipcc_bvh_build_once: the broad phase's point-tet
// query builds its tree over tets in the face tree's storage) marks the tree
// for a build.
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
// Why a median split: a median split rather than SAH keeps the build cheap;
// builds are rare since trees persist, but the first query, a changed
// topology and the policy still build. (Why a BVH at all: broad_phase.c.)
//
// Complexity. Build O(n log n) (a linear-time partition per level); refit
// O(n); memory O(n).
//
// Memory. Items, nodes, the geometry boxes of sweeps and the refit plan only
// grow, each growth counted in the caller's counter. A refit allocates
// nothing (a build's OpenMP tasks are allocated by libgomp).
//
// Failure modes. Out of memory while growing any buffer: -1, the caller
// reports it (a tree whose plan could not grow is marked for a build).
// Degenerate primitives (zero-length edges, flat or coincident faces) are
// fine; an area ratio that is NaN or infinite rebuilds (see Policy).
#include "broad_phase/bvh.h"
#include "base/parallel.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/core.h"

enum {
    LEAF_SIZE = IPCC_BVH_LEAF_SIZE,
    TASK_MIN_ITEMS = 16384,  ///< subtrees at least this big are built as separate tasks
    REFIT_PART_ITEMS = 4096, ///< the refit plan splits subtrees at least this big into parts
};

// ---------------------------------------------------------------------------
// Build

// Strict total order of items along `axis`: centre (as lo + hi), then id.
static inline bool item_less(const ipcc_bvh_item *a, const ipcc_bvh_item *b, int axis) {
    double ka = a->box.lo[axis] + a->box.hi[axis], kb = b->box.lo[axis] + b->box.hi[axis];
    return ka < kb || (ka == kb && a->id < b->id);
}

static inline void swap_items(ipcc_bvh_item *a, ipcc_bvh_item *b) {
    ipcc_bvh_item t = *a;
    *a = *b;
    *b = t;
}

// Reorder a[begin, end) so that a[begin, nth) precede a[nth, end) in
// item_less order (quickselect, median-of-three pivot, Hoare partition).
static void select_nth(ipcc_bvh_item *a, int begin, int end, int nth, int axis) {
    while (end - begin > 16) {
        int mid = begin + (end - begin) / 2;
        // Median of three: a pivot that is neither the minimum nor the maximum
        // keeps both sides of the partition non-empty.
        if (item_less(&a[mid], &a[begin], axis)) swap_items(&a[mid], &a[begin]);
        if (item_less(&a[end - 1], &a[begin], axis)) swap_items(&a[end - 1], &a[begin]);
        if (item_less(&a[end - 1], &a[mid], axis)) swap_items(&a[end - 1], &a[mid]);
        ipcc_bvh_item pivot = a[mid];
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
static void build_node(ipcc_bvh *t, int node, int begin, int end) {
    ipcc_bvh_node *nd = &t->nodes[node];
    const ipcc_bvh_item *it = t->items;
    double clo[3], chi[3]; // bounds of the centres (as lo + hi)
    nd->box = it[begin].box;
    nd->max_id = it[begin].id;
    for (int k = 0; k < 3; ++k)
        clo[k] = chi[k] = it[begin].box.lo[k] + it[begin].box.hi[k];
    for (int i = begin + 1; i < end; ++i) {
        nd->max_id = it[i].id > nd->max_id ? it[i].id : nd->max_id;
        for (int k = 0; k < 3; ++k) {
            const ipcc_bvh_box *b = &it[i].box;
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

int ipcc_bvh_reserve(ipcc_bvh *t, int n, bool sweep, long *counter) {
    int leaves = (n + LEAF_SIZE - 1) / LEAF_SIZE;
    t->valid = t->valid && t->num_items == n;
    t->num_items = n;
    t->num_nodes = n > 0 ? 2 * leaves - 1 : 0;
    if (ipcc_reserve_counted((void **)&t->items, &t->cap_items, n, sizeof(ipcc_bvh_item), counter) != 0 ||
        ipcc_reserve_counted((void **)&t->nodes, &t->cap_nodes, t->num_nodes, sizeof(ipcc_bvh_node),
                             counter) != 0)
        return -1;
    if (sweep && n > 0)
        return ipcc_reserve_counted((void **)&t->geom, &t->cap_geom, t->num_nodes, sizeof(ipcc_bvh_box),
                                    counter);
    return 0;
}

void ipcc_bvh_free(ipcc_bvh *t) {
    IPCC_FREE(t->items);
    IPCC_FREE(t->nodes);
    IPCC_FREE(t->geom);
    IPCC_FREE(t->split);
    IPCC_FREE(t->part);
    IPCC_FREE(t->part_sums);
    t->cap_split = t->cap_part = t->cap_part_sums = t->num_split = t->num_part = 0;
    t->cap_items = t->cap_nodes = t->cap_geom = t->num_items = t->num_nodes = 0;
    t->valid = false;
}

size_t ipcc_bvh_bytes(const ipcc_bvh *t) {
    return sizeof(ipcc_bvh_item) * (size_t)t->cap_items + sizeof(ipcc_bvh_node) * (size_t)t->cap_nodes +
           sizeof(ipcc_bvh_box) * (size_t)t->cap_geom;
}

// ---------------------------------------------------------------------------
// Refit and the rebuild policy

/// Sums over a subtree: box areas of its nodes and of its primitives (both in
/// units of the tree's scale) and the fingerprint of the primitives it
/// recomputed (a sum modulo 2^64: independent of the order).
typedef struct ipcc_bvh_sums {
    double node_area, item_area;
    uint64_t hash;
} ipcc_bvh_sums;

// Half the surface area of box b scaled by s (a power of two, so exact) and
// shrunk by pad: extents (hi - lo) s - pad, clamped at 0. With pad = 2 r s an
// inflated box gives the area of the box it was inflated from (up to the
// rounding margin).
static inline double box_area(const ipcc_bvh_box *b, double s, double pad) {
    double e[3];
    for (int k = 0; k < 3; ++k) {
        e[k] = (b->hi[k] * s - b->lo[k] * s) - pad;
        e[k] = e[k] > 0 ? e[k] : 0;
    }
    return e[0] * e[1] + e[1] * e[2] + e[2] * e[0];
}

static inline void box_union(const ipcc_bvh_box *a, const ipcc_bvh_box *b, ipcc_bvh_box *u) {
    for (int k = 0; k < 3; ++k) {
        u->lo[k] = a->lo[k] < b->lo[k] ? a->lo[k] : b->lo[k];
        u->hi[k] = a->hi[k] > b->hi[k] ? a->hi[k] : b->hi[k];
    }
}

// Box of primitive id from the source; adds its fingerprint to *hash when the
// box is computed from the vertices.
static inline void source_box(const ipcc_bvh_source *src, int id, ipcc_bvh_box *b, uint64_t *hash) {
    if (src->boxes) {
        *b = src->boxes[id];
        return;
    }
    const int *v = src->verts + src->nvp * (size_t)id;
    ipcc_bvh_primitive_box(v, src->nvp, src->num_vertices, src->x0, src->x1, src->r, b);
    *hash += ipcc_bvh_primitive_hash(id, v, src->nvp);
}

// Bounds of primitive id's vertices at x0 (sweep mode's geometry box).
static inline void x0_box(const ipcc_bvh_source *src, int id, ipcc_bvh_box *b) {
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
// measure_only: keep the items' boxes (just built), recompute node boxes and
// sums only. The sums measure the primitives' geometry at x0 without
// inflation: in static mode the node and item boxes shrunk by the inflation;
// in sweep mode boxes at x0, for the nodes kept in t->geom.
static void refit_range(const ipcc_bvh_source *src, bool measure_only, ipcc_bvh *t, int begin, int end,
                        double scale, ipcc_bvh_sums *s) {
    bool sweep = src->x1 != NULL;
    double pad = sweep ? 0 : 2 * src->r * scale;
    ipcc_bvh_node *nodes = t->nodes;
    ipcc_bvh_item *items = t->items;
    for (int i = end - 1; i >= begin; --i) {
        ipcc_bvh_node *nd = &nodes[i];
        ipcc_bvh_box *geom = sweep ? &t->geom[i] : &nd->box;
        if (nd->count > 0) {
            for (int j = nd->first; j < nd->first + nd->count; ++j) {
                if (!measure_only) source_box(src, items[j].id, &items[j].box, &s->hash);
                if (j == nd->first)
                    nd->box = items[j].box;
                else
                    box_union(&nd->box, &items[j].box, &nd->box);
                if (sweep) {
                    ipcc_bvh_box b;
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
static int refit_plan(ipcc_bvh *t, int n, long *counter) {
    int cap = 2 * (n / REFIT_PART_ITEMS + 1) + 2;
    if (ipcc_reserve_counted((void **)&t->split, &t->cap_split, 2 * cap, sizeof(int), counter) != 0 ||
        ipcc_reserve_counted((void **)&t->part, &t->cap_part, 2 * cap, sizeof(int), counter) != 0 ||
        ipcc_reserve_counted((void **)&t->part_sums, &t->cap_part_sums, cap, sizeof(ipcc_bvh_sums),
                             counter) != 0)
        return -1;
    t->num_split = t->num_part = 0;
    int stack[2 * IPCC_BVH_STACK_SIZE], top = 0; // (node, items)
    stack[top++] = 0;
    stack[top++] = n;
    while (top > 0) {
        int m = stack[--top], node = stack[--top];
        if (m < REFIT_PART_ITEMS || t->nodes[node].count > 0) {
            t->part[2 * t->num_part] = node;
            t->part[2 * t->num_part++ + 1] = m;
            continue;
        }
        const ipcc_bvh_node *nd = &t->nodes[node];
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

// Refit the whole tree into *s (refit_plan done): the parts in parallel, each
// into its own sums, then the split nodes from the last to the first; the
// sums are added in plan order.
static void refit_tree(const ipcc_bvh_source *src, bool measure_only, ipcc_bvh *t, double scale,
                       ipcc_bvh_sums *s) {
    int np = t->num_part;
    static ipcc_region region1;
    ipcc_region_run region1_run = ipcc_region_begin(&region1, np);
#pragma omp parallel for num_threads(region1_run.threads) schedule(dynamic, 1) default(none)                 \
    shared(src, measure_only, t, np, scale)
    for (int k = 0; k < np; ++k) {
        int node = t->part[2 * k], m = t->part[2 * k + 1];
        ipcc_bvh_sums *ps = &t->part_sums[k];
        *ps = (ipcc_bvh_sums){0, 0, 0};
        refit_range(src, measure_only, t, node, node + 2 * ((m + LEAF_SIZE - 1) / LEAF_SIZE) - 1, scale, ps);
    }
    ipcc_region_end(&region1_run);
    *s = (ipcc_bvh_sums){0, 0, 0};
    for (int k = 0; k < np; ++k) {
        s->node_area += t->part_sums[k].node_area;
        s->item_area += t->part_sums[k].item_area;
        s->hash += t->part_sums[k].hash;
    }
    for (int k = t->num_split - 1; k >= 0; --k) {
        int node = t->split[2 * k];
        ipcc_bvh_node *nd = &t->nodes[node];
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
static double area_ratio(const ipcc_bvh_sums *s) {
    if (s->item_area > 0) return s->node_area / s->item_area;
    return s->node_area == 0 ? 1.0 : INFINITY;
}

// Build tree t over primitives [0, n) of src from scratch (items in id order),
// then make its refit plan and record what the policy compares refits with.
// Outside any parallel region (it opens its own); t has room for n items.
// Returns 0, or -1 when the plan runs out of memory.
static int tree_build(const ipcc_bvh_source *src, ipcc_bvh *t, int n, uint64_t hash, long *counter) {
    uint64_t h = 0;
    static ipcc_region region2;
    ipcc_region_run region2_run = ipcc_region_begin(&region2, n);
#pragma omp parallel for num_threads(region2_run.threads) schedule(guided, 64) reduction(+ : h) default(none) \
    shared(src, t, n)
    for (int i = 0; i < n; ++i) {
        source_box(src, i, &t->items[i].box, &h);
        t->items[i].id = i;
    }
    ipcc_region_end(&region2_run);
    // Subtrees of TASK_MIN_ITEMS and more are built as tasks (a rebuild may
    // allocate task records in libgomp; a refit never does).
    static ipcc_region region_build;
    ipcc_region_run build_run = ipcc_region_begin(&region_build, n >= TASK_MIN_ITEMS ? n : 0);
#pragma omp parallel num_threads(build_run.threads) default(none) shared(t, n)
#pragma omp single
    build_node(t, 0, 0, n);
    ipcc_region_end(&build_run);
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
    ipcc_bvh_sums m;
    refit_tree(src, true, t, t->scale, &m);
    t->build_ratio = area_ratio(&m);
    t->fingerprint = src->boxes ? hash : h;
    t->valid = true;
    t->quality = 1;
    ++t->builds;
    return 0;
}

int ipcc_bvh_update(ipcc_bvh *t, const ipcc_bvh_source *src, int n, uint64_t hash, double limit,
                    long *counter) {
    IPCC_ASSERT(n > 0 && n == t->num_items);
    if (t->valid && limit > 0) {
        ipcc_bvh_sums s;
        refit_tree(src, false, t, t->scale, &s);
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

int ipcc_bvh_build_once(ipcc_bvh *t, const ipcc_bvh_source *src, int n, long *counter) {
    IPCC_ASSERT(n > 0 && !src->x1 && !src->boxes);
    t->valid = false; // no plan, no quality: the next update builds
    if (ipcc_bvh_reserve(t, n, false, counter) != 0) return -1;
    for (int e = 0; e < n; ++e) {
        ipcc_bvh_primitive_box(src->verts + src->nvp * (size_t)e, src->nvp, src->num_vertices, src->x0, NULL,
                               src->r, &t->items[e].box);
        t->items[e].id = e;
    }
    static ipcc_region region_build_static;
    ipcc_region_run build_run = ipcc_region_begin(&region_build_static, n >= TASK_MIN_ITEMS ? n : 0);
#pragma omp parallel num_threads(build_run.threads) default(none) shared(t)
#pragma omp single
    build_node(t, 0, 0, t->num_items);
    ipcc_region_end(&build_run);
    ++t->builds;
    return 0;
}
