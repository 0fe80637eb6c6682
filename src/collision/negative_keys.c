// Keys of negative multiplicity: their Hessians, folded into the keys that
// contain them before the PSD projection.
//
// The barrier is a sum over keys of n_k b(d_k) (contact_multiplicity.c),
// with n_k < 0 where the inclusion-exclusion takes terms back: the edge of
// a concave valley under a point (1 - F(e) = -1), or the point-edge and
// point-point keys that the edge-edge terms land on (1 - E(v) per vertex).
// Each key's Hessian block is projected to PSD on its own
// (barrier_potential.c), and n_k H_k with n_k < 0 is (nearly) negative
// semi-definite, so its projection is (nearly) 0: the assembled Hessian
// keeps the positive keys' curvature and drops what the negative keys take
// back. It overstates the curvature exactly where both signs meet, and
// Newton, taking whole steps that are too short, converges only linearly
// there: a contraction of about 0.9 per iteration on the sideways motion of
// a cube's vertices resting on another cube's vertices (grids lined up,
// examples/contact_cubes.json, with or without friction), on soft mats
// falling onto each other with aligned grids (2matsFall), and under a plate
// sagging over a sphere (README, Limits).
//
// A negative key's terms are taken back from terms of the same point and
// surface (or the same two edges) whose keys contain its vertices: a
// point-edge key (p, e) from the point-triangle keys (p, t) of the faces
// at e, a point-point key (u, v) from the point-edge, point-triangle or
// edge-edge keys holding u and v. So each key of negative multiplicity n_j
// (between body surfaces, or between a body and a sphere shape: the same
// kind family, and for a sphere the same shape) is split evenly among the
// c_j positive keys of its family whose vertices contain its own, and each
// of those projects
//   n_k H_k - sum_j (n_j / c_j) H_j
// (H_j embedded in k's vertices) instead of n_k H_k, while the folded key
// adds no block of its own. Before the projection the sum of the blocks is
// unchanged; the energy and the gradient are untouched, so only Newton's
// model changes (and every step is still filtered and line-searched). A
// negative key with no such partner keeps its own projected block, as
// before.
//
// Measured (bench/results/2026-11-29-issue33-part5.md): the stack of
// examples/contact_cubes.json at mu 0.5 takes 4.20 Newton iterations per
// step over its run instead of 5.18; without friction its landing steps
// take 23 and 17 instead of 84 and 34; 2matsFall's first 10 steps 44.4
// per step instead of 65.2.
#include "collision/negative_keys.h"

#include <stdlib.h>

#include "collision/contact_pair.h"

void ipcc_negative_keys_free(ipcc_negative_keys *nk) {
    IPCC_FREE(nk->partners);
    IPCC_FREE(nk->fold_start);
    IPCC_FREE(nk->fold_key);
    IPCC_FREE(nk->fold_mult);
    IPCC_FREE(nk->vertex_start);
    IPCC_FREE(nk->vertex_keys);
    IPCC_FREE(nk->cursor);
    nk->cap_keys = nk->cap_folds = nk->cap_vertices = nk->cap_entries = nk->cap_cursor = 0;
    nk->any = 0;
}

// The kind family of a key whose Hessian can be folded: 0 between body
// surfaces, 1 + the shape against a sphere shape (ST, SE); -1 for the rest.
static int family(const ipcc_contact_pair *p) {
    if (ipcc_contact_kind_mesh(p->kind)) return 0;
    if (p->kind == IPCC_CONTACT_ST || p->kind == IPCC_CONTACT_SE)
        return 1 + p->v[ipcc_contact_kind_vertices(p->kind)];
    return -1;
}

// Whether positive key p can take negative key q: the same family, more
// vertices, q's among them.
static bool contains(const ipcc_contact_pair *p, const ipcc_contact_pair *q) {
    int np = ipcc_contact_kind_vertices(p->kind), nq = ipcc_contact_kind_vertices(q->kind);
    if (p->mult <= 0 || np <= nq || family(p) != family(q)) return false;
    for (int a = 0; a < nq; ++a) {
        bool found = false;
        for (int b = 0; b < np && !found; ++b)
            found = p->v[b] == q->v[a];
        if (!found) return false;
    }
    return true;
}

// Room for np keys, nc vertices and `entries` vertex-key entries; 0, or -1
// when out of memory.
static int reserve(ipcc_negative_keys *nk, int np, int nc, int entries) {
    int keys = nk->cap_keys;
    if (ipcc_reserve((void **)&nk->partners, &keys, np + 1, sizeof(int)) != 0) return -1;
    keys = nk->cap_keys;
    if (ipcc_reserve((void **)&nk->fold_start, &keys, np + 1, sizeof(int)) != 0) return -1;
    nk->cap_keys = keys;
    if (ipcc_reserve((void **)&nk->vertex_start, &nk->cap_vertices, nc + 1, sizeof(int)) != 0 ||
        ipcc_reserve((void **)&nk->vertex_keys, &nk->cap_entries, entries, sizeof(int)) != 0 ||
        ipcc_reserve((void **)&nk->cursor, &nk->cap_cursor, (np > nc ? np : nc) + 1, sizeof(int)) != 0)
        return -1;
    return 0;
}

// The foldable keys at key j's first vertex (every partner of j holds it),
// in the keys' order: their count, and *at.
static int keys_at_first_vertex(const ipcc_negative_keys *nk, const ipcc_constraint_set *s, int j,
                                const int **at) {
    int v = s->pairs[j].v[0];
    *at = nk->vertex_keys + nk->vertex_start[v];
    return nk->vertex_start[v + 1] - nk->vertex_start[v];
}

ipcc_status ipcc_negative_keys_build(ipcc_negative_keys *nk, const ipcc_constraint_set *s,
                                     int num_collision_vertices) {
    int np = s->np, nc = num_collision_vertices, entries = 0;
    nk->any = 0;
    bool negative = false;
    for (int k = 0; k < np; ++k) {
        const ipcc_contact_pair *p = &s->pairs[k];
        if (family(p) < 0) continue;
        entries += ipcc_contact_kind_vertices(p->kind);
        negative |= p->mult < 0;
    }
    if (!negative) return IPCC_OK;
    if (reserve(nk, np, nc, entries) != 0) return ipcc_fail(IPCC_ERR_NO_MEMORY, "contact: out of memory");
    // The foldable keys at each collision vertex (CSR, in the keys' order).
    for (int i = 0; i <= nc; ++i)
        nk->vertex_start[i] = 0;
    for (int k = 0; k < np; ++k)
        if (family(&s->pairs[k]) >= 0)
            for (int a = 0; a < ipcc_contact_kind_vertices(s->pairs[k].kind); ++a)
                nk->vertex_start[s->pairs[k].v[a] + 1]++;
    for (int i = 0; i < nc; ++i)
        nk->vertex_start[i + 1] += nk->vertex_start[i];
    for (int i = 0; i < nc; ++i)
        nk->cursor[i] = nk->vertex_start[i];
    for (int k = 0; k < np; ++k)
        if (family(&s->pairs[k]) >= 0)
            for (int a = 0; a < ipcc_contact_kind_vertices(s->pairs[k].kind); ++a)
                nk->vertex_keys[nk->cursor[s->pairs[k].v[a]]++] = k;
    // Each negative key's partners; each positive key's folds (CSR).
    for (int k = 0; k <= np; ++k)
        nk->fold_start[k] = 0;
    for (int j = 0; j < np; ++j) {
        nk->partners[j] = 0;
        if (s->pairs[j].mult >= 0 || family(&s->pairs[j]) < 0) continue;
        const int *at;
        int n = keys_at_first_vertex(nk, s, j, &at);
        for (int t = 0; t < n; ++t)
            if (contains(&s->pairs[at[t]], &s->pairs[j])) {
                nk->partners[j]++;
                nk->fold_start[at[t] + 1]++;
            }
        nk->any += nk->partners[j] > 0;
    }
    if (!nk->any) return IPCC_OK;
    for (int k = 0; k < np; ++k)
        nk->fold_start[k + 1] += nk->fold_start[k];
    int folds = nk->fold_start[np];
    int cap = nk->cap_folds;
    if (ipcc_reserve((void **)&nk->fold_key, &cap, folds, sizeof(int)) != 0 ||
        ipcc_reserve((void **)&nk->fold_mult, &nk->cap_folds, folds, sizeof(double)) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "contact: out of memory");
    for (int k = 0; k < np; ++k)
        nk->cursor[k] = nk->fold_start[k];
    for (int j = 0; j < np; ++j) {
        if (nk->partners[j] == 0) continue;
        const int *at; // the same keys in the same order as when counting
        int n = keys_at_first_vertex(nk, s, j, &at);
        for (int t = 0; t < n; ++t)
            if (contains(&s->pairs[at[t]], &s->pairs[j])) {
                int k = at[t];
                nk->fold_key[nk->cursor[k]] = j;
                nk->fold_mult[nk->cursor[k]++] = (double)s->pairs[j].mult / nk->partners[j];
            }
    }
    return IPCC_OK;
}
