// A broad-phase query answered from an earlier, wider query's candidates
// while the vertices stay near where that one was made (candidate_cache.h):
// a Verlet list with a skin (Verlet 1967; molecular dynamics' neighbour
// lists), exact instead of approximate.
//
// Why. Newton's iterations query the broad phase once each (the step
// filter's sweep x -> x + p, contact_ccd.c), and in Newton's tail the
// directions are far below d-hat: the trees are refit and walked again for
// a list that barely changes. A superset taken once, at x_ref with the
// query's inflation widened by 2 s (s the skin), holds every pair any later
// query can report while each vertex of its x0 and x1 stays within s of
// x_ref on each axis: a primitive's box at x0 and x1, enlarged by r, lies
// inside its box at x_ref enlarged by r + s, so two boxes that overlap at
// the query overlap at x_ref too. Such a query only tests the superset's
// pairs with the query's own boxes.
//
// Exact. A pair is kept when the query's boxes of its two primitives
// overlap: the boxes (ipcc_bvh_primitive_box, the contract of
// broad_phase.h) and the test (ipcc_bvh_overlap) the tree walk uses on its
// leaves, so the kept pairs are the ones the walk would report, less the
// near-pair pruning below. The superset is filtered by the same
// vertex-sharing and group rules, sorted, so the list keeps the walk's
// order. A hit needs every vertex within s / 2 of x_ref, not s: the boxes'
// rounding margins (a few ulps of the coordinates) then fit many times over
// in the other half.
//
// Near pairs. Boxes are a coarse test: on a regular surface mesh every
// vertex's box overlaps the boxes of the faces around it, and every edge's
// those of its neighbours', pairs a cell apart that no query within the
// skin can bring within the inflation (mat40x40_twist, without a single
// contact in its first 10 steps, had 20,000 to 40,000 such pairs a query,
// each a distance for the constraint set and a CCD for the step filter).
// So the superset keeps only the pairs whose primitives are within
// inflation + 2 s of each other at x_ref (squared distances of
// geometry/distance.c, the constraint set's own). A query within s / 2 per
// axis of x_ref moves each vertex by at most (sqrt 3 / 2) s, so a pair
// dropped is farther apart than inflation + (2 - sqrt 3) s at every point
// of the query, swept or not: beyond the constraint set's d-hat and out of
// CCD's reach (no contact, no time of impact). Its downstream results
// (constraints, times of impact, energies) are therefore the walk's, bit
// for bit (tests/unit/broad_phase/test_candidate_cache.c checks the lists;
// the scenes' frames compare equal with --tol 0). Measured, one thread,
// medians of 3 interleaved runs (bench/results/2026-11-30-issue33-part9.md):
// mat40x40_twist (10 steps) 0.925 -> 0.889 s, 2_matKnives (5) 2.249 ->
// 2.124 s, the card house (6) 5.120 -> 4.646 s, shot_cube_mat (8)
// unchanged.
//
// When. A query whose x0 and x1 are within s / 2 of x_ref is a hit. Else
// the trees answer it; if its own motion x0 -> x1 is within s / 2 per
// vertex (Newton's tail, not an impact's first iteration), a new superset
// is taken at x0 with the widened inflation for the queries that follow,
// and the query is answered from it. The superset's query costs more than
// the plain one (more pairs), and each hit saves a refit and a walk. With a
// skin of d-hat (contact_state.c), one thread, medians of 3 interleaved runs
// (bench/results/2026-11-29-issue33-part8.md): mat40x40_twist's 10 steps
// answer 40 of 71 queries from a superset and take 1.41 s instead of 1.59
// (broad phase 0.225 s instead of 0.39), 2_matKnives' 5 steps 2.45 s
// instead of 2.56, the card house's 6 steps 10.34 s instead of 10.74 (53
// of 148); shot_cube_mat is unchanged. Skins from d-hat / 2 to 4 d-hat
// gave the twist the same time.
//
// Cost. A hit computes every needed primitive box once (O(n)) and tests
// each pair of the superset once (O(pairs)), serially: a few nanoseconds
// a pair against the walk's 130 (broad_phase.c). Memory: the superset, x_ref
// and one box per vertex, edge and face, all grow-only.
#include "broad_phase/candidate_cache.h"
#include "base/parallel.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "geometry/distance.h"

void ipcc_candidate_cache_free(ipcc_candidate_cache *cc) {
    if (!cc) return;
    ipcc_candidates_free(&cc->superset);
    free(cc->x_ref);
    free(cc->box);
    free(cc->keep);
    memset(cc, 0, sizeof *cc);
}

// The largest per-axis distance between x and y (m doubles), or +inf when
// y is NULL.
static double largest_offset(const double *x, const double *y, int m) {
    if (!y) return INFINITY;
    double d = 0;
    for (int k = 0; k < m; ++k)
        d = fmax(d, fabs(x[k] - y[k]));
    return d;
}

// Whether the superset answers a query at (x0, x1).
static bool covers(const ipcc_candidate_cache *cc, const ipcc_collision_topology *topo, const double *x0,
                   const double *x1, double inflation, int kinds, double skin) {
    if (!cc->valid || cc->num_vertices != topo->num_vertices || cc->kinds != kinds ||
        cc->inflation != inflation || cc->skin != skin)
        return false;
    int m = 3 * topo->num_vertices;
    double half = 0.5 * skin;
    return largest_offset(x0, cc->x_ref, m) <= half && (!x1 || largest_offset(x1, cc->x_ref, m) <= half);
}

// Keep the pairs of `from` (n pairs of primitives whose boxes start at
// boxes a and b) whose boxes overlap, into *list (grow-only, *cap ints).
static ipcc_status keep_overlapping(const int *from, int n, const ipcc_bvh_box *a, const ipcc_bvh_box *b,
                                    int **list, int *count, int *cap) {
    if (ipcc_reserve((void **)list, cap, 2 * n, sizeof(int)) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "broad phase: out of memory for %d candidate pairs", n);
    int *dst = *list, k = 0;
    for (int i = 0; i < n; ++i) {
        int p = from[2 * i], q = from[2 * i + 1];
        if (!ipcc_bvh_overlap(&a[p], &b[q])) continue;
        dst[2 * k] = p;
        dst[2 * k + 1] = q;
        ++k;
    }
    *count = k;
    return IPCC_OK;
}

// The query from the superset: the needed boxes at (x0, x1), then the
// superset's pairs whose boxes overlap.
static ipcc_status filter(ipcc_candidate_cache *cc, const ipcc_collision_topology *topo, const double *x0,
                          const double *x1, double inflation, int kinds, ipcc_candidates *out) {
    int nv = topo->num_vertices, ne = topo->num_edges, nf = topo->num_faces;
    bool vf = kinds & IPCC_CANDIDATES_VF, ee = kinds & IPCC_CANDIDATES_EE, ef = kinds & IPCC_CANDIDATES_EF;
    if ((long)nv + ne + nf > INT_MAX ||
        ipcc_reserve((void **)&cc->box, &cc->cap_box, nv + ne + nf, sizeof(ipcc_bvh_box)) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "broad phase: out of memory for %d primitive boxes",
                         nv + ne + nf);
    ipcc_bvh_box *vbox = cc->box, *ebox = vbox + nv, *fbox = ebox + ne;
    double r = 0.5 * inflation;
    if (vf)
        for (int v = 0; v < nv; ++v)
            ipcc_bvh_primitive_box(&v, 1, nv, x0, x1, r, &vbox[v]);
    if (ee || ef)
        for (int e = 0; e < ne; ++e)
            ipcc_bvh_primitive_box(topo->edges + 2 * e, 2, nv, x0, x1, r, &ebox[e]);
    if (vf || ef)
        for (int f = 0; f < nf; ++f)
            ipcc_bvh_primitive_box(topo->faces + 3 * f, 3, nv, x0, x1, r, &fbox[f]);
    const ipcc_candidates *s = &cc->superset;
    ipcc_status st = IPCC_OK;
    if (vf) st = keep_overlapping(s->vf, s->num_vf, vbox, fbox, &out->vf, &out->num_vf, &out->cap_vf);
    if (st == IPCC_OK && ee)
        st = keep_overlapping(s->ee, s->num_ee, ebox, ebox, &out->ee, &out->num_ee, &out->cap_ee);
    if (st == IPCC_OK && ef)
        st = keep_overlapping(s->ef, s->num_ef, ebox, fbox, &out->ef, &out->num_ef, &out->cap_ef);
    if (st != IPCC_OK) out->num_vf = out->num_ee = out->num_ef = 0;
    return st;
}

// Whether the primitives of pair (a, b) (a vertex and a face, or two
// edges) lie within `reach` of each other at x: their squared distance
// (geometry/distance.c, the constraint set's own functions) against reach^2.
static bool within_reach(const ipcc_collision_topology *topo, const double *x, bool vf, int a, int b,
                         double reach) {
    double d2;
    if (vf) {
        const double *p = x + 3 * a;
        const int *f = topo->faces + 3 * b;
        const double *t0 = x + 3 * f[0], *t1 = x + 3 * f[1], *t2 = x + 3 * f[2];
        d2 = ipcc_point_triangle_distance(p, t0, t1, t2, ipcc_point_triangle_distance_type_of(p, t0, t1, t2));
    } else {
        const int *ea = topo->edges + 2 * a, *eb = topo->edges + 2 * b;
        const double *a0 = x + 3 * ea[0], *a1 = x + 3 * ea[1], *b0 = x + 3 * eb[0], *b1 = x + 3 * eb[1];
        d2 = ipcc_edge_edge_distance(a0, a1, b0, b1, ipcc_edge_edge_distance_type_of(a0, a1, b0, b1));
    }
    return !(d2 > reach * reach); // NaN keeps the pair
}

// Drop the pairs of a list (n pairs, in place) whose primitives are farther
// apart than `reach` at x ("Near pairs" above); the order is kept. The
// test runs in parallel into cc->keep, the compaction serially.
static ipcc_status prune(ipcc_candidate_cache *cc, const ipcc_collision_topology *topo, const double *x,
                         bool vf, int *list, int *n, double reach) {
    int count = *n;
    if (ipcc_reserve((void **)&cc->keep, &cc->cap_keep, count, 1) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "broad phase: out of memory for %d candidate pairs", count);
    unsigned char *keep = cc->keep;
    static ipcc_region region_prune;
    ipcc_region_run run = ipcc_region_begin(&region_prune, count);
#pragma omp parallel for num_threads(run.threads) schedule(guided, 256)
    for (int i = 0; i < count; ++i)
        keep[i] = within_reach(topo, x, vf, list[2 * i], list[2 * i + 1], reach);
    ipcc_region_end(&run);
    int k = 0;
    for (int i = 0; i < count; ++i)
        if (keep[i]) {
            list[2 * k] = list[2 * i];
            list[2 * k + 1] = list[2 * i + 1];
            ++k;
        }
    *n = k;
    return IPCC_OK;
}

ipcc_status ipcc_candidate_cache_query(ipcc_candidate_cache *cc, ipcc_broad_phase *bp,
                                       const ipcc_collision_topology *topo, const double *x0,
                                       const double *x1, double inflation, int kinds, double skin,
                                       ipcc_candidates *out) {
    IPCC_ASSERT(cc && bp && topo && out && skin > 0 && isfinite(skin));
    out->num_vf = out->num_ee = out->num_ef = 0;
    if (covers(cc, topo, x0, x1, inflation, kinds, skin)) {
        cc->hits++;
        return filter(cc, topo, x0, x1, inflation, kinds, out);
    }
    cc->misses++;
    int m = 3 * topo->num_vertices;
    if (x1 && largest_offset(x0, x1, m) > 0.5 * skin)
        return ipcc_broad_phase_query(bp, topo, x0, x1, inflation, kinds, out);
    // A new superset at x0, then this query from it.
    cc->valid = false;
    if (ipcc_reserve((void **)&cc->x_ref, &cc->cap_x, m, sizeof(double)) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "broad phase: out of memory for %d positions", m / 3);
    ipcc_status st = ipcc_broad_phase_query(bp, topo, x0, NULL, inflation + 2 * skin, kinds, &cc->superset);
    if (st != IPCC_OK) return st;
    ipcc_candidates *sup = &cc->superset;
    if (kinds & IPCC_CANDIDATES_VF)
        st = prune(cc, topo, x0, true, sup->vf, &sup->num_vf, inflation + 2 * skin);
    if (st == IPCC_OK && (kinds & IPCC_CANDIDATES_EE))
        st = prune(cc, topo, x0, false, sup->ee, &sup->num_ee, inflation + 2 * skin);
    if (st != IPCC_OK) return st;
    if (m > 0) memcpy(cc->x_ref, x0, sizeof(double) * (size_t)m);
    cc->num_vertices = topo->num_vertices;
    cc->kinds = kinds;
    cc->inflation = inflation;
    cc->skin = skin;
    cc->valid = true;
    return filter(cc, topo, x0, x1, inflation, kinds, out);
}
