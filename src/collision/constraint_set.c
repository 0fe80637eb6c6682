// The constraint set of barrier contact (IPC, Li et al. 2020, Sec. 4.2,
// with the duplicate-free keying of its implementation).
//
// Candidates come from the broad phase (broad_phase.c): vertex-face and
// edge-edge pairs whose boxes come within d̂. Each active candidate (squared
// distance d < d̂², distance.c) becomes a constraint keyed by its CLOSEST
// FEATURES:
//   point-triangle interior  -> PT (v, t0, t1, t2)
//   point to an edge's inside -> PE (v, e_lo, e_hi)
//   point to a vertex         -> PP (v_lo, v_hi)
//   edge-edge interiors       -> EE (ea0, ea1, eb0, eb1)
// so a vertex near an edge shared by two triangles, reached from both
// triangles and from the edges around the vertex, is ONE PE constraint, not
// two or four. Keys are sorted and duplicates removed, which also makes the
// set independent of the candidates' order. Each key then gets its
// MULTIPLICITY, the number of terms of the inclusion-exclusion barrier of Li
// et al. 2023 it stands for (contact_multiplicity.c; keys of 0 are dropped,
// so a vertex over triangle A near the edge shared with B feels b once, and
// the energy is continuous across edges); the edges and vertices of an
// active face are keys too, for the terms that cancel or stand alone.
// Edges and vertices inside planar regions of obstacles (collision_mesh.c)
// give no edge-edge or point terms.
//
// Nearly parallel edge pairs (sin^2 of their angle below 1e-3) are keyed on
// their own, EP (ea0, ea1, eb0, eb1), and land on no point-edge or
// point-point key: where parallel edges overlap, the segment distance's
// closest point jumps from one end to the other and b of it kinks, which
// stalls Newton's line search. Their term (parallel_edges.c) is C1 there,
// equals b of the segment distance with its gradient where the band ends,
// and is never below the end barriers whose keys it no longer adds to, so
// the inclusion-exclusion (contact_multiplicity.c) keeps the energy
// bounded below (IPC's mollifier, Sec. 4.3, would leave -(1 - m) b
// uncancelled there: stacked boxes with aligned grids would attract without
// bound). The ill-conditioned line-line distance is never used for (nearly)
// parallel edges: ipcc_edge_edge_distance_type_of (distance.c) gives them an
// end type below sin^2 = IPCC_DISTANCE_DEGENERATE_SIN2.
//
// Obstacles that are no mesh. Half-spaces give PH (v, plane) with
// d = ((x - p) . n)^2. Analytic shapes (world_shapes.c, shape.c) give PS
// (v, shape) on the exact distance, d = phi^2, for every free vertex within
// d̂ of one; a sphere also gives ST (triangle interior) and SE (edge
// interior) constraints between its centre, thickened by its radius, and
// the bodies' triangles (sphere_pair; the distance is barrier_potential.c's
// sphere_distance), so it is exact against whole triangles. A cylinder,
// ellipsoid or torus gives QE and QT constraints too: the fixed sample
// points of body edges and faces within d̂ of it (contact_samples.c,
// sample_masks), keyed by their primitive and sample code.
//
// Determinism and memory: per-candidate work runs under OpenMP into slots,
// then the compaction, the extra keys and the sort are serial; the sort is
// an in-place heapsort (below). Every buffer is grow-only, so a step whose
// sizes were seen before allocates nothing.
#include "collision/constraint_set.h"
#include "base/parallel.h"

#include <math.h>

#include "collision/contact_multiplicity.h"
#include "collision/contact_samples.h"
#include "collision/edge_pair.h"
#include "base/core.h"
#include "broad_phase/bvh.h"
#include "geometry/distance.h"

// What the build reads: the mesh, the obstacles and d̂.
typedef struct set_input {
    const ipcc_collision_mesh *m;
    const ipcc_contact_obstacles *o;
    double dhat, dhat2;
} set_input;

static void sort2(int *a, int *b) {
    if (*a > *b) {
        int t = *a;
        *a = *b;
        *b = t;
    }
}

static ipcc_contact_pair make_pp(int a, int b) {
    sort2(&a, &b);
    return (ipcc_contact_pair){.kind = IPCC_CONTACT_PP, .v = {a, b, -1, -1}};
}

static ipcc_contact_pair make_pe(int p, int e0, int e1) {
    sort2(&e0, &e1);
    return (ipcc_contact_pair){.kind = IPCC_CONTACT_PE, .v = {p, e0, e1, -1}};
}

// The box cull, which never changes the set: the broad phase's box test
// at xc (broad_phase.h's contract: each primitive's box enlarged by d̂ / 2
// and the rounding margin), which every pair that the distance functions
// put within d̂ passes, as the candidates themselves did. It spares the
// distance's type and value for the swept candidates (contact_ccd.c) that
// are not within d̂ at xc: all of them on a twisted mat without contact.
// One thread, medians of 4 interleaved runs: the set's build 0.201 -> 0.181 s
// over mat40x40_twist's 10 steps (whole run 1.650 -> 1.624 s), 0.396 ->
// 0.290 s over 2_matKnives' first 5 (2.721 -> 2.619 s), with a first
// version that bounded the distance itself; the broad phase's test here is
// 4 to 6 % faster again. Same sets, so the same frames bit for bit.
static bool boxes_apart(const set_input *c, const double *xc, const int *a, int na, const int *b, int nb) {
    ipcc_bvh_box ba, bb;
    ipcc_bvh_primitive_box(a, na, c->m->nc, xc, NULL, 0.5 * c->dhat, &ba);
    ipcc_bvh_primitive_box(b, nb, c->m->nc, xc, NULL, 0.5 * c->dhat, &bb);
    return !ipcc_bvh_overlap(&ba, &bb);
}

// The constraint a vertex-face candidate gives at positions xc (kind -1 if
// inactive).
static ipcc_contact_pair vf_pair(const set_input *c, const double *xc, int v, int f) {
    if (c->m->vert_flat[v]) return (ipcc_contact_pair){.kind = -1}; // not a feature (contact_multiplicity.c)
    const int *t = c->m->cfaces + 3 * f;
    const double *p = xc + 3 * v, *t0 = xc + 3 * t[0], *t1 = xc + 3 * t[1], *t2 = xc + 3 * t[2];
    ipcc_contact_pair none = {.kind = -1};
    if (boxes_apart(c, xc, &v, 1, t, 3)) return none;
    ipcc_point_triangle_distance_type type = ipcc_point_triangle_distance_type_of(p, t0, t1, t2);
    if (!(ipcc_point_triangle_distance(p, t0, t1, t2, type) < c->dhat2)) return none;
    switch (type) {
    case IPCC_PT_P_T0: return make_pp(v, t[0]);
    case IPCC_PT_P_T1: return make_pp(v, t[1]);
    case IPCC_PT_P_T2: return make_pp(v, t[2]);
    case IPCC_PT_P_E0: return make_pe(v, t[0], t[1]);
    case IPCC_PT_P_E1: return make_pe(v, t[1], t[2]);
    case IPCC_PT_P_E2: return make_pe(v, t[2], t[0]);
    case IPCC_PT_P_T: break;
    }
    return (ipcc_contact_pair){.kind = IPCC_CONTACT_PT, .v = {v, t[0], t[1], t[2]}};
}

// p's closest point on the segment [a, b] is inside it, closer than sqrt(r2).
static bool inside_within(const double *p, const double *a, const double *b, double r2) {
    return ipcc_point_edge_distance_type_of(p, a, b) == IPCC_PE_P_E && ipcc_point_line_distance(p, a, b) < r2;
}

static ipcc_contact_pair make_se(int e0, int e1, int sphere) {
    sort2(&e0, &e1);
    return (ipcc_contact_pair){.kind = IPCC_CONTACT_SE, .v = {e0, e1, sphere, -1}};
}

// The extra keys of an active vertex-face candidate (v, f): bit j (j < 3)
// for its edge (t_j, t_j+1) when v's closest point on it is inside and
// within d̂, bit 3 + j for its vertex t_j within d̂.
static unsigned vf_extra_keys(const set_input *c, const double *xc, int v, int f) {
    const int *t = c->m->cfaces + 3 * f;
    const double *p = xc + 3 * v;
    unsigned bits = 0;
    for (int j = 0; j < 3; ++j) {
        const double *a = xc + 3 * t[j], *b = xc + 3 * t[(j + 1) % 3];
        if (inside_within(p, a, b, c->dhat2)) bits |= 1u << j;
        if (ipcc_point_point_distance(p, a) < c->dhat2) bits |= 1u << (3 + j);
    }
    return bits;
}

// Appends the keys of bits (vf_extra_keys) to s at n; the new count.
static int vf_extra_write(const set_input *c, int v, int f, unsigned bits, ipcc_contact_pair *s, int n) {
    const int *t = c->m->cfaces + 3 * f;
    for (int j = 0; j < 3; ++j) {
        if (bits & (1u << j)) s[n++] = make_pe(v, t[j], t[(j + 1) % 3]);
        if (bits & (1u << (3 + j))) s[n++] = make_pp(v, t[j]);
    }
    return n;
}

// The extra keys of an active edge-edge candidate (ea, eb), for the
// vertex-edge and vertex-vertex terms of the 1-skeletons' inclusion-exclusion
// (contact_multiplicity.c): bit j < 4 for vertex j of [a0, a1, b0, b1]
// whose closest point on the other edge is inside it and within d̂ (one at
// an end is the vertex-vertex key), bit 4 + 2 i + j for vertices a_i, b_j
// within d̂.
static unsigned ee_extra_keys(const set_input *c, const double *xc, int ea, int eb) {
    const int *a = c->m->cedges + 2 * ea, *b = c->m->cedges + 2 * eb;
    const int v[4] = {a[0], a[1], b[0], b[1]};
    unsigned bits = 0;
    for (int j = 0; j < 4; ++j) {
        const int *e = j < 2 ? b : a;
        if (inside_within(xc + 3 * v[j], xc + 3 * e[0], xc + 3 * e[1], c->dhat2)) bits |= 1u << j;
    }
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            if (ipcc_point_point_distance(xc + 3 * a[i], xc + 3 * b[j]) < c->dhat2)
                bits |= 1u << (4 + 2 * i + j);
    return bits;
}

// Appends the keys of bits (ee_extra_keys) to s at n; the new count.
static int ee_extra_write(const set_input *c, int ea, int eb, unsigned bits, ipcc_contact_pair *s, int n) {
    const int *a = c->m->cedges + 2 * ea, *b = c->m->cedges + 2 * eb;
    const int v[4] = {a[0], a[1], b[0], b[1]};
    for (int j = 0; j < 4; ++j)
        if (bits & (1u << j)) s[n++] = j < 2 ? make_pe(v[j], b[0], b[1]) : make_pe(v[j], a[0], a[1]);
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            if (bits & (1u << (4 + 2 * i + j))) s[n++] = make_pp(a[i], b[j]);
    return n;
}

// The constraint an edge-edge candidate gives at positions xc (kind -1 if
// inactive), keyed by its closest features (nearly parallel pairs too), in
// ipcc_edge_pair_type's order of the two edges, so a pair has one key.
static ipcc_contact_pair ee_pair(const set_input *c, const double *xc, int ea, int eb) {
    ipcc_contact_pair none = {.kind = -1};
    if (c->m->edge_flat[ea] || c->m->edge_flat[eb]) return none; // not a feature (contact_multiplicity.c)
    const int *ia = c->m->cedges + 2 * ea, *ib = c->m->cedges + 2 * eb;
    if (!ipcc_edge_pair_first(ia, ib)) {
        const int *t = ia;
        ia = ib;
        ib = t;
    }
    int a0 = ia[0], a1 = ia[1], b0 = ib[0], b1 = ib[1];
    const double *pa0 = xc + 3 * a0, *pa1 = xc + 3 * a1, *pb0 = xc + 3 * b0, *pb1 = xc + 3 * b1;
    if (boxes_apart(c, xc, ia, 2, ib, 2)) return none;
    ipcc_edge_edge_distance_type type = ipcc_edge_pair_type(xc, ia, ib);
    if (!(ipcc_edge_edge_distance(pa0, pa1, pb0, pb1, type) < c->dhat2)) return none;
    if (ipcc_edge_pair_parallel(xc, ia, ib)) // its own key (parallel_edges.c)
        return (ipcc_contact_pair){.kind = IPCC_CONTACT_EP, .v = {a0, a1, b0, b1}};
    switch (type) {
    case IPCC_EE_EA0_EB0: return make_pp(a0, b0);
    case IPCC_EE_EA0_EB1: return make_pp(a0, b1);
    case IPCC_EE_EA1_EB0: return make_pp(a1, b0);
    case IPCC_EE_EA1_EB1: return make_pp(a1, b1);
    case IPCC_EE_EA_EB0: return make_pe(b0, a0, a1);
    case IPCC_EE_EA_EB1: return make_pe(b1, a0, a1);
    case IPCC_EE_EA0_EB: return make_pe(a0, b0, b1);
    case IPCC_EE_EA1_EB: return make_pe(a1, b0, b1);
    case IPCC_EE_EA_EB: break;
    }
    return (ipcc_contact_pair){.kind = IPCC_CONTACT_EE, .v = {a0, a1, b0, b1}};
}

static int pair_cmp(const void *pa, const void *pb) {
    const ipcc_contact_pair *a = pa, *b = pb;
    if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
    for (int k = 0; k < 4; ++k)
        if (a->v[k] != b->v[k]) return a->v[k] < b->v[k] ? -1 : 1;
    if (a->sample != b->sample) return a->sample < b->sample ? -1 : 1;
    return 0;
}

// In-place heapsort by pair_cmp (Williams 1964). qsort is glibc's merge sort,
// which mallocs a buffer for every call above a few hundred bytes, and
// this runs at every energy evaluation: the Newton loop must not allocate.
// Equal keys are identical pairs (the key determines the rest), so the
// order is unique although heapsort is not stable.
static void sift_down(ipcc_contact_pair *a, int root, int n) {
    for (;;) {
        int child = 2 * root + 1;
        if (child >= n) return;
        if (child + 1 < n && pair_cmp(&a[child], &a[child + 1]) < 0) child++;
        if (pair_cmp(&a[root], &a[child]) >= 0) return;
        ipcc_contact_pair t = a[root];
        a[root] = a[child];
        a[child] = t;
        root = child;
    }
}

static void sort_pairs(ipcc_contact_pair *a, int n) {
    for (int k = n / 2 - 1; k >= 0; --k)
        sift_down(a, k, n);
    for (int end = n - 1; end > 0; --end) {
        ipcc_contact_pair t = a[0];
        a[0] = a[end];
        a[end] = t;
        sift_down(a, 0, end);
    }
}

// The constraint a sphere shape i and face f give at xc (kind -1 if none):
// the sphere is a point (its centre) with thickness r, so the closest
// feature of the face to the centre keys it as for a vertex (vf_pair): the
// interior gives ST, an edge SE; a face vertex is left to that vertex's PS
// constraint, which is the same distance. Faces of kinematic obstacles are
// skipped, and faces whose box is farther than r + d̂ from the centre.
static ipcc_contact_pair sphere_pair(const set_input *c, const double *xc, int i, int f) {
    ipcc_contact_pair none = {.kind = -1};
    const int *t = c->m->cfaces + 3 * f;
    if (!ipcc_collision_vertex_free(c->m, t[0])) return none;
    const double *o = c->o->pose[i].center;
    double r = c->o->pose[i].size[0], reach = r + c->dhat;
    const double *t0 = xc + 3 * t[0], *t1 = xc + 3 * t[1], *t2 = xc + 3 * t[2];
    for (int k = 0; k < 3; ++k)
        if (fmin(t0[k], fmin(t1[k], t2[k])) > o[k] + reach || fmax(t0[k], fmax(t1[k], t2[k])) < o[k] - reach)
            return none;
    ipcc_point_triangle_distance_type type = ipcc_point_triangle_distance_type_of(o, t0, t1, t2);
    double gap = sqrt(ipcc_point_triangle_distance(o, t0, t1, t2, type)) - r;
    if (!(gap < c->dhat)) return none;
    switch (type) {
    case IPCC_PT_P_T: return (ipcc_contact_pair){.kind = IPCC_CONTACT_ST, .v = {t[0], t[1], t[2], i}};
    case IPCC_PT_P_E0: return make_se(t[0], t[1], i);
    case IPCC_PT_P_E1: return make_se(t[1], t[2], i);
    case IPCC_PT_P_E2: return make_se(t[2], t[0], i);
    default: return none;
    }
}

// The sphere-edge keys of sphere i's edges of face f (bit j: edge t_j t_j+1)
// whose closest point to the centre is inside and within r + d̂, for the
// terms of the centre's inclusion-exclusion (contact_multiplicity.c) that
// no face's closest feature names.
static unsigned sphere_extra_keys(const set_input *c, const double *xc, int i, int f) {
    const int *t = c->m->cfaces + 3 * f;
    if (!ipcc_collision_vertex_free(c->m, t[0])) return 0;
    const double *o = c->o->pose[i].center;
    double reach = c->o->pose[i].size[0] + c->dhat;
    unsigned bits = 0;
    for (int j = 0; j < 3; ++j)
        if (inside_within(o, xc + 3 * t[j], xc + 3 * t[(j + 1) % 3], reach * reach)) bits |= 1u << j;
    return bits;
}

// Appends the keys of bits (sphere_extra_keys) to s at n; the new count.
static int sphere_extra_write(const set_input *c, int i, int f, unsigned bits, ipcc_contact_pair *s, int n) {
    const int *t = c->m->cfaces + 3 * f;
    for (int j = 0; j < 3; ++j)
        if (bits & (1u << j)) s[n++] = make_se(t[j], t[(j + 1) % 3], i);
    return n;
}

// Which sample points of each collision face and edge lie within d̂ of
// each sampled shape at xc (masks in set->face_samples, edge_samples), and
// their number. 0, or -1 when out of memory.
static int sample_masks(ipcc_constraint_set *set, const set_input *c, const double *xc, int *count) {
    const ipcc_collision_mesh *m = c->m;
    const ipcc_contact_obstacles *o = c->o;
    *count = 0;
    if (!o->face_divisions || !o->edge_divisions) return 0;
    int ns = o->num_shapes, nf = m->nf, ne = m->ne;
    if (ipcc_reserve((void **)&set->face_samples, &set->cap_face_samples, ns * nf + 1, sizeof(uint64_t)) !=
            0 ||
        ipcc_reserve((void **)&set->edge_samples, &set->cap_edge_samples, ns * ne + 1, sizeof(uint16_t)) != 0)
        return -1;
    int total = 0;
    for (int i = 0; i < ns; ++i) {
        const ipcc_shape *shape = &o->pose[i];
        const double R = o->radius[i], dhat = c->dhat;
        const unsigned char *fn = o->face_divisions + (size_t)i * nf,
                            *en = o->edge_divisions + (size_t)i * ne;
        uint64_t *fm = set->face_samples + (size_t)i * nf;
        uint16_t *em = set->edge_samples + (size_t)i * ne;
        static ipcc_region region1;
        ipcc_region_run region1_run = ipcc_region_begin(&region1, nf);
#pragma omp parallel for num_threads(region1_run.threads) schedule(dynamic, 256) reduction(+ : total)
        for (int f = 0; f < nf; ++f) {
            const int *t = m->cfaces + 3 * f;
            fm[f] = fn[f] >= 3 && ipcc_collision_vertex_free(m, t[0])
                        ? ipcc_face_samples_near(shape, R, fn[f], xc + 3 * t[0], xc + 3 * t[1], xc + 3 * t[2],
                                                 dhat)
                        : 0;
            total += __builtin_popcountll(fm[f]);
        }
        ipcc_region_end(&region1_run);
        static ipcc_region region2;
        ipcc_region_run region2_run = ipcc_region_begin(&region2, ne);
#pragma omp parallel for num_threads(region2_run.threads) schedule(dynamic, 256) reduction(+ : total)
        for (int e = 0; e < ne; ++e) {
            const int *v = m->cedges + 2 * e;
            em[e] = en[e] >= 2 && ipcc_collision_vertex_free(m, v[0])
                        ? ipcc_edge_samples_near(shape, R, en[e], xc + 3 * v[0], xc + 3 * v[1], dhat)
                        : 0;
            total += __builtin_popcount(em[e]);
        }
        ipcc_region_end(&region2_run);
    }
    *count = total;
    return 0;
}

// Appends the QT and QE keys of the masks (sample_masks) to s at n; the new count.
static int sample_write(const ipcc_constraint_set *set, const set_input *c, ipcc_contact_pair *s, int n) {
    const ipcc_collision_mesh *m = c->m;
    int ns = c->o->num_shapes, nf = m->nf, ne = m->ne;
    for (int i = 0; i < ns; ++i) {
        const unsigned char *fn = c->o->face_divisions + (size_t)i * nf,
                            *en = c->o->edge_divisions + (size_t)i * ne;
        const uint64_t *fm = set->face_samples + (size_t)i * nf;
        const uint16_t *em = set->edge_samples + (size_t)i * ne;
        for (int f = 0; f < nf; ++f) {
            if (!fm[f]) continue;
            const int *t = m->cfaces + 3 * f;
            for (int a = 1, k = 0; a < fn[f]; ++a)
                for (int b = 1; a + b < fn[f]; ++b, ++k)
                    if (fm[f] >> k & 1)
                        s[n++] = (ipcc_contact_pair){.kind = IPCC_CONTACT_QT,
                                                     .v = {t[0], t[1], t[2], i},
                                                     .sample = ipcc_sample_code(fn[f], a, b)};
        }
        for (int e = 0; e < ne; ++e) {
            if (!em[e]) continue;
            const int *v = m->cedges + 2 * e;
            for (int a = 1; a < en[e]; ++a)
                if (em[e] >> (a - 1) & 1)
                    s[n++] = (ipcc_contact_pair){.kind = IPCC_CONTACT_QE,
                                                 .v = {v[0], v[1], i, -1},
                                                 .sample = ipcc_sample_code(en[e], a, 0)};
        }
    }
    return n;
}

int ipcc_constraint_set_build(ipcc_constraint_set *set, const ipcc_collision_mesh *mesh,
                              const ipcc_contact_obstacles *obs, const ipcc_candidates *cd, const double *xc,
                              double dhat) {
    const set_input in = {.m = mesh, .o = obs, .dhat = dhat, .dhat2 = dhat * dhat}, *c = &in;
    int nc = mesh->nc, nf = mesh->nf, ns = obs->num_shapes, nsph = obs->num_spheres;
    int ncand = cd->num_vf + cd->num_ee + (obs->num_planes + ns) * nc + nsph * nf;
    if (ipcc_reserve((void **)&set->scratch, &set->cap_scratch, ncand + 1, sizeof(ipcc_contact_pair)) != 0)
        return -1;
    int nvf = cd->num_vf, nee = cd->num_ee;
    if (ipcc_reserve((void **)&set->vf_extra, &set->cap_vf_extra, nvf + 1, 1) != 0) return -1;
    ipcc_contact_pair *s = set->scratch;
    unsigned char *extra = set->vf_extra;
    static ipcc_region region3;
    ipcc_region_run region3_run = ipcc_region_begin(&region3, nvf);
#pragma omp parallel for num_threads(region3_run.threads) schedule(guided, 64)
    for (int k = 0; k < nvf; ++k) {
        s[k] = vf_pair(c, xc, cd->vf[2 * k], cd->vf[2 * k + 1]);
        extra[k] = s[k].kind >= 0 ? vf_extra_keys(c, xc, cd->vf[2 * k], cd->vf[2 * k + 1]) : 0;
    }
    ipcc_region_end(&region3_run);
    if (ipcc_reserve((void **)&set->ee_extra, &set->cap_ee_extra, nee + 1, 1) != 0) return -1;
    unsigned char *ee_extra = set->ee_extra;
    static ipcc_region region4;
    ipcc_region_run region4_run = ipcc_region_begin(&region4, nee);
#pragma omp parallel for num_threads(region4_run.threads) schedule(guided, 64)
    for (int k = 0; k < nee; ++k) {
        s[nvf + k] = ee_pair(c, xc, cd->ee[2 * k], cd->ee[2 * k + 1]);
        ee_extra[k] = s[nvf + k].kind >= 0 ? ee_extra_keys(c, xc, cd->ee[2 * k], cd->ee[2 * k + 1]) : 0;
    }
    ipcc_region_end(&region4_run);
    int m = nvf + nee;
    for (int h = 0; h < obs->num_planes; ++h)
        for (int v = 0; v < nc; ++v) {
            double sd = ipcc_contact_plane_signed(obs->planes + 6 * h, xc + 3 * v);
            s[m++] = ipcc_collision_vertex_free(mesh, v) && (sd <= 0 || sd * sd < in.dhat2)
                         ? (ipcc_contact_pair){.kind = IPCC_CONTACT_PH, .v = {v, h, -1, -1}}
                         : (ipcc_contact_pair){.kind = -1};
        }
    // Shapes: the exact distance, after a bounding-sphere cull.
    for (int i = 0; i < ns; ++i) {
        ipcc_contact_pair *si = s + m;
        static ipcc_region region5;
        ipcc_region_run region5_run = ipcc_region_begin(&region5, nc);
#pragma omp parallel for num_threads(region5_run.threads) schedule(guided, 64)
        for (int v = 0; v < nc; ++v) {
            si[v] = (ipcc_contact_pair){.kind = -1};
            if (!ipcc_collision_vertex_free(mesh, v)) continue;
            const double *x = xc + 3 * v, *o = obs->pose[i].center;
            double r = sqrt((x[0] - o[0]) * (x[0] - o[0]) + (x[1] - o[1]) * (x[1] - o[1]) +
                            (x[2] - o[2]) * (x[2] - o[2]));
            if (r - obs->radius[i] >= dhat) continue;
            double phi = ipcc_shape_distance_bounded(&obs->pose[i], x, dhat);
            if (phi <= 0 || phi * phi < in.dhat2)
                si[v] = (ipcc_contact_pair){.kind = IPCC_CONTACT_PS, .v = {v, i, -1, -1}};
        }
        ipcc_region_end(&region5_run);
        m += nc;
    }
    // Spheres, exactly: their centre against the bodies' triangles (sphere_pair).
    if (ipcc_reserve((void **)&set->sphere_extra, &set->cap_sphere_extra, nsph * nf + 1, 1) != 0) return -1;
    unsigned char *sphere_extra = set->sphere_extra;
    for (int i = 0, slot = 0; i < ns; ++i) {
        if (obs->pose[i].kind != IPCC_SHAPE_SPHERE) continue;
        ipcc_contact_pair *si = s + m;
        unsigned char *xi = sphere_extra + (size_t)slot++ * nf;
        static ipcc_region region6;
        ipcc_region_run region6_run = ipcc_region_begin(&region6, nf);
#pragma omp parallel for num_threads(region6_run.threads) schedule(guided, 64)
        for (int f = 0; f < nf; ++f) {
            si[f] = sphere_pair(c, xc, i, f);
            xi[f] = sphere_extra_keys(c, xc, i, f);
        }
        ipcc_region_end(&region6_run);
        m += nf;
    }
    // Compact; then the keys of the edges and vertices of the active faces
    // (contact_multiplicity.c: their terms may cancel, or be the only ones).
    int np = 0;
    for (int k = 0; k < m; ++k)
        if (s[k].kind >= 0) s[np++] = s[k];
    int nextra = 0;
    for (int k = 0; k < nvf; ++k)
        nextra += __builtin_popcount(extra[k]);
    for (int k = 0; k < nee; ++k)
        nextra += __builtin_popcount(ee_extra[k]);
    for (int k = 0; k < nsph * nf; ++k)
        nextra += __builtin_popcount(sphere_extra[k]);
    if (ipcc_reserve((void **)&set->scratch, &set->cap_scratch, ncand + nextra + 1,
                     sizeof(ipcc_contact_pair)) != 0)
        return -1;
    s = set->scratch;
    for (int k = 0; k < nvf; ++k)
        if (extra[k]) np = vf_extra_write(c, cd->vf[2 * k], cd->vf[2 * k + 1], extra[k], s, np);
    for (int k = 0; k < nee; ++k)
        if (ee_extra[k]) np = ee_extra_write(c, cd->ee[2 * k], cd->ee[2 * k + 1], ee_extra[k], s, np);
    for (int i = 0, slot = 0; i < ns; ++i) {
        if (obs->pose[i].kind != IPCC_SHAPE_SPHERE) continue;
        const unsigned char *xi = sphere_extra + (size_t)slot++ * nf;
        for (int f = 0; f < nf; ++f)
            if (xi[f]) np = sphere_extra_write(c, i, f, xi[f], s, np);
    }
    // The sample points of edges and faces near the curved shapes (contact_samples.c).
    int nsamples = 0;
    if (sample_masks(set, c, xc, &nsamples) != 0) return -1;
    if (nsamples > 0) {
        if (ipcc_reserve((void **)&set->scratch, &set->cap_scratch, ncand + nextra + nsamples + 1,
                         sizeof(ipcc_contact_pair)) != 0)
            return -1;
        s = set->scratch;
        np = sample_write(set, c, s, np);
    }
    // Sort by key, drop duplicates, then the keys' multiplicities; drop those of 0.
    sort_pairs(s, np);
    if (ipcc_reserve((void **)&set->pairs, &set->cap_pairs, np + 1, sizeof *set->pairs) != 0) return -1;
    int u = 0;
    for (int k = 0; k < np; ++k)
        if (u == 0 || pair_cmp(&s[k], &set->pairs[u - 1]) != 0) set->pairs[u++] = s[k];
    ipcc_contact_pair *pairs = set->pairs;
    static ipcc_region region_mult;
    ipcc_region_run run = ipcc_region_begin(&region_mult, u);
#pragma omp parallel for num_threads(run.threads) schedule(guided, 64)
    for (int k = 0; k < u; ++k)
        pairs[k].mult = ipcc_contact_multiplicity(mesh, obs->pose, xc, &pairs[k]);
    ipcc_region_end(&run);
    int kept = 0;
    for (int k = 0; k < u; ++k)
        if (pairs[k].mult != 0) pairs[kept++] = pairs[k];
    set->np = kept;
    return 0;
}

void ipcc_constraint_set_free(ipcc_constraint_set *s) {
    IPCC_FREE(s->pairs);
    IPCC_FREE(s->scratch);
    IPCC_FREE(s->vf_extra);
    IPCC_FREE(s->ee_extra);
    IPCC_FREE(s->face_samples);
    IPCC_FREE(s->edge_samples);
    IPCC_FREE(s->sphere_extra);
    s->np = s->cap_pairs = s->cap_scratch = s->cap_vf_extra = s->cap_ee_extra = s->cap_sphere_extra = 0;
}
