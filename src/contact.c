// Barrier contact (IPC, Li et al. 2020): the collision mesh, the constraint
// set, the barrier potential with its PSD-projected Hessian, adaptive
// stiffness, and the CCD bound that keeps every step intersection-free.
//
// Collision mesh. Every body contributes its boundary triangles and edges
// (deformable bodies from their tet mesh, obstacles as read). Vertices on
// any of them are the "collision vertices" c = 0..nc-1; cvert[c] is the
// world vertex. Group = body. Pairs inside one body are kept only when
// self-collision is on; pairs between two obstacles never exist. Static
// half-spaces act on every collision vertex of a deformable body.
// Codimensional obstacles need nothing special: a segment set's edges are
// edges (edge-edge against bodies' edges, and their endpoints are points
// against bodies' triangles), and every vertex of a point set (an obstacle
// with no face and no edge) is a collision vertex, so it meets bodies'
// triangles as a point (PT, or PE / PP at their edges and corners). The
// broad phase's vertex-face pass walks every collision vertex, and the CCD
// bound runs over every vertex-face and edge-edge candidate, so their
// motion is covered like any other primitive's.
//
// Initial state: contact_check.c (ipcc_contact_create calls it).
//
// Constraint set (IPC Sec. 4.2 with the duplicate-free keying of its
// implementation). Candidates come from the broad phase (broad_phase.c):
// vertex-face and edge-edge pairs whose boxes come within d̂. Each active
// candidate (squared distance d < d̂², distance.c) becomes a constraint keyed
// by its CLOSEST FEATURES:
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
// Edges and vertices inside planar regions of obstacles give no edge-edge
// or point terms. Nearly parallel edge pairs
// (|ea x eb|^2 < eps_x = 1e-3 |ea_rest|^2 |eb_rest|^2) stay EE with the
// mollifier m (IPC Sec. 4.3, eq. 19-20), whatever their closest features,
// and use the distance of those features. Half-spaces give PH (v, plane)
// with d = ((x - p) . n)^2. Analytic shapes (world_shapes.c, shape.c) give
// PS (v, shape) on the exact distance, d = phi^2, for every free vertex
// within d̂ of one; a sphere also gives ST (triangle interior) and SE (edge
// interior) constraints between its centre, thickened by its radius, and
// the bodies' triangles (sphere_pair, sphere_distance), so it is exact
// against whole triangles. Their CCD: shape_ccd.c for vertices, and
// point-triangle CCD with the radius as minimum separation for a sphere's
// centre against triangles (shapes_toi).
//
// Potential (IPC eq. 3-6). B(x) = kappa * sum_k n_k m_k b(d_k(x), d̂²), n_k the
// key's multiplicity (pair_barrier; a negative one's Hessian is projected
// after the sign), b from
// barrier.c on squared distances. Each constraint's gradient
// kappa (m b' grad d + b grad m) and Hessian
//   kappa [ m (b'' grad d grad d^T + b' H_d) + b' (grad m grad d^T + grad d grad m^T) + b H_m ]
// is assembled over its 6, 9 or 12 dofs after projection to PSD
// (ipcc_project_psd). The barrier enters the incremental potential without
// the h^2 factor (IPC eq. 3); the contact force on a vertex is therefore
// -kappa grad B / s, with s = h^2 (Euler), beta h^2 (Newmark) or 1 (static).
//
// Stiffness (IPC supplemental, "adaptive barrier stiffness"; the formulas
// are the paper's, the constants as in IPC's release):
//   kappa_min = 1e11 * m_avg / (4e-16 L^2 b''(1e-16 L^2, d̂²)),  kappa_max = 100 kappa_min,
// i.e. the barrier's stiffness at a distance of 1e-8 L matches 1e11 times an
// average vertex mass. At the start of each step with active constraints,
// kappa = max(kappa, clamp(-g_E . g_B / |g_B|^2, kappa_min, kappa_max)),
// with g_E the gradient of the rest of the potential and g_B that of the
// barrier sum (kappa = 1) over the unknowns, the least-squares balance of
// the two; with no constraint yet kappa = kappa_min. Within a step, when the
// smallest distance is below 1e-8 L and still decreasing between Newton
// iterations, kappa doubles (up to kappa_max). contact.kappa > 0 fixes it.
//
// Why an accepted step is intersection-free. The state at the start of a
// step is intersection-free with every distance > 0 (checked at t = 0 and
// then by induction). ipcc_contact_max_step takes the Newton direction p
// already limited to alpha_max by the inversion filter, builds the swept
// candidates of the motion x -> x + alpha_max p (a superset of every pair
// that can come within d̂ at any time of it: boxes over both endpoints, and
// linear motion stays inside them), and runs conservative CCD (ccd.c) on
// each: t_k <= the first time pair k touches. With t = min_k t_k, every
// point x + a p, a < t alpha_max, has every distance > 0, so no two
// surface triangles cross there (a crossing needs an edge-face pair at zero
// distance first, because the motion is continuous and starts separated).
// The step returned is 0.8 t alpha_max (IPC's safety factor), strictly
// inside; the line search only shrinks it, and the energy is +inf at any
// zero distance, so the accepted state is intersection-free with positive
// distances, which is the induction hypothesis for the next iterate.
//
// Candidates are searched once per Newton iteration: a swept query over the
// step's segment in max_step serves the line search's energies AND the next
// evaluation, because Newton only ever evaluates a point it accepted on
// that segment (or, at the start of a step, the step's first state, for
// which begin_step forces a static query). A pair the sweep could miss at
// the accepted point is one within rounding of d̂ itself, where the barrier
// and its derivatives vanish (it is C2 there).
//
// Determinism and memory: per-candidate and per-constraint work runs under
// OpenMP into slots; reductions are serial or order-free (min), so results
// do not depend on the thread count. All buffers are grow-only.
#include "contact_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "barrier.h"
#include "ccd.h"
#include "core.h"
#include "distance.h"
#include "vec3.h"
#include "world_internal.h"

// ---------------------------------------------------------------------------
// Collision mesh.

static int grow(void **buf, int *cap, int count, size_t size) { return ipcc_reserve(buf, cap, count, size); }

// The shapes' poses at state x (its clock, world_shapes.c).
void ipcc_contact_shapes_at(ipcc_contact *c, const double *x) {
    double s = ipcc_world_shape_progress(c->world, x);
    for (int i = 0; i < c->ns; ++i)
        ipcc_world_shape_at(c->world, i, s, &c->pose[i]);
}

void ipcc_contact_gather(ipcc_contact *c, const double *x, double *xc) {
    for (int i = 0; i < c->nc; ++i)
        memcpy(xc + 3 * i, x + 3 * c->cvert[i], 3 * sizeof(double));
    if (xc == c->xc) ipcc_contact_shapes_at(c, x);
}

static ipcc_status build_mesh(ipcc_contact *c, const ipcc_world *w) {
    int *map = malloc(sizeof(int) * (size_t)(w->n > 0 ? w->n : 1));
    if (!map) return ipcc_fail(IPCC_ERR_NO_MEMORY, "contact: out of memory");
    for (int i = 0; i < w->n; ++i)
        map[i] = -1;
    for (int k = 0; k < 3 * w->num_faces; ++k)
        map[w->faces[k]] = 1;
    for (int k = 0; k < 2 * w->num_edges; ++k)
        map[w->edges[k]] = 1;
    c->point_set = calloc((size_t)w->num_bodies + 1, 1);
    if (!c->point_set) {
        free(map);
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "contact: out of memory");
    }
    // Point-set obstacles: no face and no edge, so every vertex is a point.
    for (int b = 0; b < w->num_bodies; ++b) {
        const ipcc_body *body = &w->bodies[b];
        if (!body->kinematic || body->num_faces > 0) continue;
        bool on_edge = false;
        for (int i = body->first_vertex; i < body->first_vertex + body->num_vertices && !on_edge; ++i)
            on_edge = map[i] > 0;
        if (on_edge) continue;
        c->point_set[b] = 1;
        for (int i = body->first_vertex; i < body->first_vertex + body->num_vertices; ++i)
            map[i] = 1;
    }
    int nc = 0;
    for (int i = 0; i < w->n; ++i)
        if (map[i] > 0)
            map[i] = nc++;
        else
            map[i] = -1;
    c->nc = nc;
    c->ne = w->num_edges;
    c->nf = w->num_faces;
    c->cvert = malloc(sizeof(int) * (size_t)(nc + 1));
    c->group = malloc(sizeof(int) * (size_t)(nc + 1));
    c->cedges = malloc(sizeof(int) * (size_t)(2 * c->ne + 1));
    c->cfaces = malloc(sizeof(int) * (size_t)(3 * c->nf + 1));
    c->rest = malloc(sizeof(double) * (size_t)(3 * nc + 1));
    c->xc = malloc(sizeof(double) * (size_t)(3 * nc + 1));
    c->xc1 = malloc(sizeof(double) * (size_t)(3 * nc + 1));
    c->self_collision = malloc((size_t)w->num_bodies + 1);
    c->kinematic = malloc((size_t)w->num_bodies + 1);
    if (!c->cvert || !c->group || !c->cedges || !c->cfaces || !c->rest || !c->xc || !c->xc1 ||
        !c->self_collision || !c->kinematic) {
        free(map);
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "contact: out of memory");
    }
    for (int b = 0; b < w->num_bodies; ++b) {
        const ipcc_body *body = &w->bodies[b];
        c->kinematic[b] = body->kinematic;
        c->self_collision[b] = w->def.contact.self_collision && !body->kinematic;
        for (int i = body->first_vertex; i < body->first_vertex + body->num_vertices; ++i)
            if (map[i] >= 0) {
                c->cvert[map[i]] = i;
                c->group[map[i]] = b;
                memcpy(c->rest + 3 * map[i], w->x_rest + 3 * i, 3 * sizeof(double));
            }
    }
    for (int k = 0; k < 2 * c->ne; ++k)
        c->cedges[k] = map[w->edges[k]];
    for (int k = 0; k < 3 * c->nf; ++k)
        c->cfaces[k] = map[w->faces[k]];
    free(map);
    c->topo = (ipcc_collision_topology){.num_vertices = nc,
                                        .vertex_group = c->group,
                                        .num_edges = c->ne,
                                        .edges = c->cedges,
                                        .num_faces = c->nf,
                                        .faces = c->cfaces,
                                        .num_groups = w->num_bodies,
                                        .group_self_collision = c->self_collision,
                                        .group_kinematic = c->kinematic};
    c->nh = w->num_half_spaces;
    c->planes = w->half_spaces;
    c->world = w;
    c->ns = w->num_shapes;
    c->pose = malloc(sizeof *c->pose * (size_t)(c->ns + 1));
    c->shape_radius = malloc(sizeof(double) * (size_t)(c->ns + 1));
    if (!c->pose || !c->shape_radius) return ipcc_fail(IPCC_ERR_NO_MEMORY, "contact: out of memory");
    for (int i = 0; i < c->ns; ++i) {
        c->pose[i] = w->shape_pose[i];
        c->shape_radius[i] = ipcc_shape_bounding_radius(&c->pose[i]);
        c->nsph += c->pose[i].kind == IPCC_SHAPE_SPHERE;
    }
    return IPCC_OK;
}

// ---------------------------------------------------------------------------
// Constraint set.

static void sort2(int *a, int *b) {
    if (*a > *b) {
        int t = *a;
        *a = *b;
        *b = t;
    }
}

static contact_pair make_pp(int a, int b) {
    sort2(&a, &b);
    return (contact_pair){.kind = IPCC_CONTACT_PP, .v = {a, b, -1, -1}};
}

static contact_pair make_pe(int p, int e0, int e1) {
    sort2(&e0, &e1);
    return (contact_pair){.kind = IPCC_CONTACT_PE, .v = {p, e0, e1, -1}};
}

// The constraint a vertex-face candidate gives at positions xc (kind -1 if
// inactive).
static contact_pair vf_pair(const ipcc_contact *c, const double *xc, int v, int f) {
    if (c->vert_flat[v]) return (contact_pair){.kind = -1}; // not a feature (contact_multiplicity.c)
    const int *t = c->cfaces + 3 * f;
    const double *p = xc + 3 * v, *t0 = xc + 3 * t[0], *t1 = xc + 3 * t[1], *t2 = xc + 3 * t[2];
    ipcc_point_triangle_distance_type type = ipcc_point_triangle_distance_type_of(p, t0, t1, t2);
    contact_pair none = {.kind = -1};
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
    return (contact_pair){.kind = IPCC_CONTACT_PT, .v = {v, t[0], t[1], t[2]}};
}

// p's closest point on the segment [a, b] is inside it, closer than sqrt(r2).
static bool inside_within(const double *p, const double *a, const double *b, double r2) {
    return ipcc_point_edge_distance_type_of(p, a, b) == IPCC_PE_P_E && ipcc_point_line_distance(p, a, b) < r2;
}

static contact_pair make_se(int e0, int e1, int sphere) {
    sort2(&e0, &e1);
    return (contact_pair){.kind = IPCC_CONTACT_SE, .v = {e0, e1, sphere, -1}};
}

// The extra keys of an active vertex-face candidate (v, f): bit j (j < 3)
// for its edge (t_j, t_j+1) when v's closest point on it is inside and
// within d̂, bit 3 + j for its vertex t_j within d̂.
static unsigned vf_extra_keys(const ipcc_contact *c, const double *xc, int v, int f) {
    const int *t = c->cfaces + 3 * f;
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
static int vf_extra_write(const ipcc_contact *c, int v, int f, unsigned bits, contact_pair *s, int n) {
    const int *t = c->cfaces + 3 * f;
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
static unsigned ee_extra_keys(const ipcc_contact *c, const double *xc, int ea, int eb) {
    const int *a = c->cedges + 2 * ea, *b = c->cedges + 2 * eb;
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
static int ee_extra_write(const ipcc_contact *c, int ea, int eb, unsigned bits, contact_pair *s, int n) {
    const int *a = c->cedges + 2 * ea, *b = c->cedges + 2 * eb;
    const int v[4] = {a[0], a[1], b[0], b[1]};
    for (int j = 0; j < 4; ++j)
        if (bits & (1u << j)) s[n++] = j < 2 ? make_pe(v[j], b[0], b[1]) : make_pe(v[j], a[0], a[1]);
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            if (bits & (1u << (4 + 2 * i + j))) s[n++] = make_pp(a[i], b[j]);
    return n;
}

// The constraint an edge-edge candidate gives at positions xc (kind -1 if
// inactive). Nearly parallel pairs stay EE, mollified.
static contact_pair ee_pair(const ipcc_contact *c, const double *xc, int ea, int eb) {
    contact_pair none = {.kind = -1};
    if (c->edge_flat[ea] || c->edge_flat[eb]) return none; // not a feature (contact_multiplicity.c)
    int a0 = c->cedges[2 * ea], a1 = c->cedges[2 * ea + 1], b0 = c->cedges[2 * eb],
        b1 = c->cedges[2 * eb + 1];
    const double *pa0 = xc + 3 * a0, *pa1 = xc + 3 * a1, *pb0 = xc + 3 * b0, *pb1 = xc + 3 * b1;
    ipcc_edge_edge_distance_type type = ipcc_edge_edge_distance_type_of(pa0, pa1, pb0, pb1);
    if (!(ipcc_edge_edge_distance(pa0, pa1, pb0, pb1, type) < c->dhat2)) return none;
    double eps_x = ipcc_edge_edge_mollifier_threshold(c->rest + 3 * a0, c->rest + 3 * a1, c->rest + 3 * b0,
                                                      c->rest + 3 * b1);
    if (ipcc_edge_edge_cross_squarednorm(pa0, pa1, pb0, pb1) < eps_x)
        return (contact_pair){.kind = IPCC_CONTACT_EE, .dtype = type, .v = {a0, a1, b0, b1}, .eps_x = eps_x};
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
    return (contact_pair){.kind = IPCC_CONTACT_EE, .dtype = IPCC_EE_EA_EB, .v = {a0, a1, b0, b1}, .eps_x = 0};
}

static int pair_cmp(const void *pa, const void *pb) {
    const contact_pair *a = pa, *b = pb;
    if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
    for (int k = 0; k < 4; ++k)
        if (a->v[k] != b->v[k]) return a->v[k] < b->v[k] ? -1 : 1;
    return 0;
}

// In-place heapsort by pair_cmp (Williams 1964). qsort is glibc's merge sort,
// which mallocs a buffer for every call above a few hundred bytes, and
// this runs at every energy evaluation: the Newton loop must not allocate.
// Equal keys are identical pairs (the key determines the rest), so the
// order is unique although heapsort is not stable.
static void sift_down(contact_pair *a, int root, int n) {
    for (;;) {
        int child = 2 * root + 1;
        if (child >= n) return;
        if (child + 1 < n && pair_cmp(&a[child], &a[child + 1]) < 0) child++;
        if (pair_cmp(&a[root], &a[child]) >= 0) return;
        contact_pair t = a[root];
        a[root] = a[child];
        a[child] = t;
        root = child;
    }
}

static void sort_pairs(contact_pair *a, int n) {
    for (int k = n / 2 - 1; k >= 0; --k)
        sift_down(a, k, n);
    for (int end = n - 1; end > 0; --end) {
        contact_pair t = a[0];
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
static contact_pair sphere_pair(const ipcc_contact *c, const double *xc, int i, int f) {
    contact_pair none = {.kind = -1};
    const int *t = c->cfaces + 3 * f;
    if (!ipcc_contact_vertex_free(c, t[0])) return none;
    const double *o = c->pose[i].center;
    double r = c->pose[i].size[0], reach = r + c->dhat;
    const double *t0 = xc + 3 * t[0], *t1 = xc + 3 * t[1], *t2 = xc + 3 * t[2];
    for (int k = 0; k < 3; ++k)
        if (fmin(t0[k], fmin(t1[k], t2[k])) > o[k] + reach || fmax(t0[k], fmax(t1[k], t2[k])) < o[k] - reach)
            return none;
    ipcc_point_triangle_distance_type type = ipcc_point_triangle_distance_type_of(o, t0, t1, t2);
    double gap = sqrt(ipcc_point_triangle_distance(o, t0, t1, t2, type)) - r;
    if (!(gap < c->dhat)) return none;
    switch (type) {
    case IPCC_PT_P_T: return (contact_pair){.kind = IPCC_CONTACT_ST, .v = {t[0], t[1], t[2], i}};
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
static unsigned sphere_extra_keys(const ipcc_contact *c, const double *xc, int i, int f) {
    const int *t = c->cfaces + 3 * f;
    if (!ipcc_contact_vertex_free(c, t[0])) return 0;
    const double *o = c->pose[i].center;
    double reach = c->pose[i].size[0] + c->dhat;
    unsigned bits = 0;
    for (int j = 0; j < 3; ++j)
        if (inside_within(o, xc + 3 * t[j], xc + 3 * t[(j + 1) % 3], reach * reach)) bits |= 1u << j;
    return bits;
}

// Appends the keys of bits (sphere_extra_keys) to s at n; the new count.
static int sphere_extra_write(const ipcc_contact *c, int i, int f, unsigned bits, contact_pair *s, int n) {
    const int *t = c->cfaces + 3 * f;
    for (int j = 0; j < 3; ++j)
        if (bits & (1u << j)) s[n++] = make_se(t[j], t[(j + 1) % 3], i);
    return n;
}

// The constraint set at gathered positions xc from the current candidates.
static int collect_pairs(ipcc_contact *c, const double *xc) {
    const ipcc_candidates *cd = &c->cand;
    int ncand = cd->num_vf + cd->num_ee + (c->nh + c->ns) * c->nc + c->nsph * c->nf;
    if (grow((void **)&c->scratch, &c->cap_scratch, ncand + 1, sizeof(contact_pair)) != 0) return -1;
    int nvf = cd->num_vf, nee = cd->num_ee;
    if (grow((void **)&c->vf_extra, &c->cap_vf_extra, nvf + 1, 1) != 0) return -1;
    contact_pair *s = c->scratch;
    unsigned char *extra = c->vf_extra;
#pragma omp parallel for schedule(static)
    for (int k = 0; k < nvf; ++k) {
        s[k] = vf_pair(c, xc, cd->vf[2 * k], cd->vf[2 * k + 1]);
        extra[k] = s[k].kind >= 0 ? vf_extra_keys(c, xc, cd->vf[2 * k], cd->vf[2 * k + 1]) : 0;
    }
    if (grow((void **)&c->ee_extra, &c->cap_ee_extra, nee + 1, 1) != 0) return -1;
    unsigned char *ee_extra = c->ee_extra;
#pragma omp parallel for schedule(static)
    for (int k = 0; k < nee; ++k) {
        s[nvf + k] = ee_pair(c, xc, cd->ee[2 * k], cd->ee[2 * k + 1]);
        ee_extra[k] = s[nvf + k].kind >= 0 ? ee_extra_keys(c, xc, cd->ee[2 * k], cd->ee[2 * k + 1]) : 0;
    }
    int m = nvf + nee;
    for (int h = 0; h < c->nh; ++h)
        for (int v = 0; v < c->nc; ++v) {
            double sd = ipcc_contact_plane_signed(c->planes + 6 * h, xc + 3 * v);
            s[m++] = ipcc_contact_vertex_free(c, v) && (sd <= 0 || sd * sd < c->dhat2)
                         ? (contact_pair){.kind = IPCC_CONTACT_PH, .v = {v, h, -1, -1}}
                         : (contact_pair){.kind = -1};
        }
    // Shapes: the exact distance, after a bounding-sphere cull.
    int nc = c->nc;
    for (int i = 0; i < c->ns; ++i) {
        contact_pair *si = s + m;
#pragma omp parallel for schedule(static)
        for (int v = 0; v < nc; ++v) {
            si[v] = (contact_pair){.kind = -1};
            if (!ipcc_contact_vertex_free(c, v)) continue;
            const double *x = xc + 3 * v, *o = c->pose[i].center;
            double r = sqrt((x[0] - o[0]) * (x[0] - o[0]) + (x[1] - o[1]) * (x[1] - o[1]) +
                            (x[2] - o[2]) * (x[2] - o[2]));
            if (r - c->shape_radius[i] >= c->dhat) continue;
            double phi = ipcc_shape_distance(&c->pose[i], x, NULL, NULL);
            if (phi <= 0 || phi * phi < c->dhat2)
                si[v] = (contact_pair){.kind = IPCC_CONTACT_PS, .v = {v, i, -1, -1}};
        }
        m += nc;
    }
    // Spheres, exactly: their centre against the bodies' triangles (sphere_pair).
    int nf = c->nf;
    if (grow((void **)&c->sphere_extra, &c->cap_sphere_extra, c->nsph * nf + 1, 1) != 0) return -1;
    unsigned char *sphere_extra = c->sphere_extra;
    for (int i = 0, slot = 0; i < c->ns; ++i) {
        if (c->pose[i].kind != IPCC_SHAPE_SPHERE) continue;
        contact_pair *si = s + m;
        unsigned char *xi = sphere_extra + (size_t)slot++ * nf;
#pragma omp parallel for schedule(static)
        for (int f = 0; f < nf; ++f) {
            si[f] = sphere_pair(c, xc, i, f);
            xi[f] = sphere_extra_keys(c, xc, i, f);
        }
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
    for (int k = 0; k < c->nsph * nf; ++k)
        nextra += __builtin_popcount(sphere_extra[k]);
    if (grow((void **)&c->scratch, &c->cap_scratch, ncand + nextra + 1, sizeof(contact_pair)) != 0) return -1;
    s = c->scratch;
    for (int k = 0; k < nvf; ++k)
        if (extra[k]) np = vf_extra_write(c, cd->vf[2 * k], cd->vf[2 * k + 1], extra[k], s, np);
    for (int k = 0; k < nee; ++k)
        if (ee_extra[k]) np = ee_extra_write(c, cd->ee[2 * k], cd->ee[2 * k + 1], ee_extra[k], s, np);
    for (int i = 0, slot = 0; i < c->ns; ++i) {
        if (c->pose[i].kind != IPCC_SHAPE_SPHERE) continue;
        const unsigned char *xi = sphere_extra + (size_t)slot++ * nf;
        for (int f = 0; f < nf; ++f)
            if (xi[f]) np = sphere_extra_write(c, i, f, xi[f], s, np);
    }
    // Sort by key, drop duplicates, then the keys' multiplicities; drop those of 0.
    sort_pairs(s, np);
    if (grow((void **)&c->pairs, &c->cap_pairs, np + 1, sizeof *c->pairs) != 0) return -1;
    int u = 0;
    for (int k = 0; k < np; ++k)
        if (u == 0 || pair_cmp(&s[k], &c->pairs[u - 1]) != 0) c->pairs[u++] = s[k];
    contact_pair *pairs = c->pairs;
#pragma omp parallel for schedule(static)
    for (int k = 0; k < u; ++k)
        pairs[k].mult = ipcc_contact_multiplicity(c, xc, &pairs[k]);
    int kept = 0;
    for (int k = 0; k < u; ++k)
        if (pairs[k].mult != 0) pairs[kept++] = pairs[k];
    c->np = kept;
    if (c->np + 1 > c->cap_slots) {
        int cap = ipcc_grow_capacity(c->cap_slots, 64, c->np + 1);
        double *e = realloc(c->pair_energy, sizeof(double) * (size_t)cap);
        if (!e) return -1;
        c->pair_energy = e;
        double *g = realloc(c->pair_grad, sizeof(double) * 12 * (size_t)cap);
        if (!g) return -1;
        c->pair_grad = g;
        int *sl = realloc(c->pair_slot, sizeof(int) * (size_t)(cap + 1));
        if (!sl) return -1;
        c->pair_slot = sl;
        c->cap_slots = cap;
    }
    return 0;
}

// collect_pairs, timed as the constraint search.
int ipcc_contact_build_pairs(ipcc_contact *c, const double *xc) {
    double t0 = ipcc_now();
    int rc = collect_pairs(c, xc);
    c->time_constraint_search += ipcc_now() - t0;
    return rc;
}

// ---------------------------------------------------------------------------
// One constraint: squared distance with derivatives, and the barrier.

int ipcc_contact_kind_vertices(ipcc_contact_kind kind) {
    switch (kind) {
    case IPCC_CONTACT_PP: return 2;
    case IPCC_CONTACT_PE: return 3;
    case IPCC_CONTACT_PH:
    case IPCC_CONTACT_PS: return 1;
    case IPCC_CONTACT_SE: return 2;
    case IPCC_CONTACT_ST: return 3;
    default: return 4;
    }
}

static int pair_num_vertices(const contact_pair *p) { return ipcc_contact_kind_vertices(p->kind); }

// ST and SE: a sphere of centre o and radius r is the point o thickened by
// r, so its distance to the triangle's plane (the edge's line) is s - r
// with s = sqrt(d), d the point-plane (point-line) squared distance of o
// (distance.c), and the constraint's squared distance is D = (s - r)^2:
//   grad D = (1 - r / s) grad d,
//   H D    = (1 - r / s) H d + r / (2 s^3) grad d grad d^T,
// over the primitive's vertices (o is not a dof: the rows of d's
// derivatives for o are dropped). At s <= r (touching or crossing) D = 0.
static double sphere_distance(ipcc_contact_kind kind, const double *x, const ipcc_shape *sphere, double *g,
                              double *H) {
    const double *o = sphere->center;
    double r = sphere->size[0];
    int n = kind == IPCC_CONTACT_ST ? 4 : 3, m = 3 * (n - 1); // o first, then the primitive's vertices
    double gd[12], Hd[144], d;
    if (kind == IPCC_CONTACT_ST) {
        d = ipcc_point_plane_distance(o, x, x + 3, x + 6);
        if (g || H) ipcc_point_plane_distance_gradient(o, x, x + 3, x + 6, gd);
        if (H) ipcc_point_plane_distance_hessian(o, x, x + 3, x + 6, Hd);
    } else {
        d = ipcc_point_line_distance(o, x, x + 3);
        if (g || H) ipcc_point_line_distance_gradient(o, x, x + 3, gd);
        if (H) ipcc_point_line_distance_hessian(o, x, x + 3, Hd);
    }
    double s = sqrt(d);
    bool apart = s > r;
    double f1 = apart ? 1 - r / s : 0, f2 = apart ? r / (2 * s * s * s) : 0;
    for (int i = 0; i < m && g; ++i)
        g[i] = f1 * gd[3 + i];
    for (int i = 0; i < m && H; ++i)
        for (int j = 0; j < m; ++j)
            H[m * i + j] = f1 * Hd[3 * n * (3 + i) + 3 + j] + f2 * gd[3 + i] * gd[3 + j];
    return apart ? (s - r) * (s - r) : 0.0;
}

double ipcc_contact_distance(ipcc_contact_kind kind, int ee_type, const double *x, const void *obstacle,
                             double *g, double *H) {
    const double *plane = obstacle;
    const double *a = x, *b = x + 3, *d2 = x + 6, *d3 = x + 9;
    switch (kind) {
    case IPCC_CONTACT_PP:
        if (g) ipcc_point_point_distance_gradient(a, b, g);
        if (H) ipcc_point_point_distance_hessian(a, b, H);
        return ipcc_point_point_distance(a, b);
    case IPCC_CONTACT_PE:
        if (g) ipcc_point_line_distance_gradient(a, b, d2, g);
        if (H) ipcc_point_line_distance_hessian(a, b, d2, H);
        return ipcc_point_line_distance(a, b, d2);
    case IPCC_CONTACT_PT:
        if (g) ipcc_point_plane_distance_gradient(a, b, d2, d3, g);
        if (H) ipcc_point_plane_distance_hessian(a, b, d2, d3, H);
        return ipcc_point_plane_distance(a, b, d2, d3);
    case IPCC_CONTACT_EE: {
        ipcc_edge_edge_distance_type t = (ipcc_edge_edge_distance_type)ee_type;
        if (g) ipcc_edge_edge_distance_gradient(a, b, d2, d3, t, g);
        if (H) ipcc_edge_edge_distance_hessian(a, b, d2, d3, t, H);
        return ipcc_edge_edge_distance(a, b, d2, d3, t);
    }
    case IPCC_CONTACT_PH: {
        // d = ((x - p) . n)^2, grad = 2 s n, H = 2 n n^T (n unit); a vertex on
        // or behind the plane is at distance 0 (infeasible), not mirrored.
        double s = fmax(ipcc_contact_plane_signed(plane, a), 0.0);
        for (int i = 0; i < 3; ++i) {
            if (g) g[i] = 2 * s * plane[3 + i];
            if (H)
                for (int j = 0; j < 3; ++j)
                    H[3 * i + j] = 2 * plane[3 + i] * plane[3 + j];
        }
        return s * s;
    }
    case IPCC_CONTACT_PS: {
        // d = max(phi, 0)^2 with phi the exact signed distance (shape.c):
        // grad = 2 phi n, H from the curvature at the closest point. Inside
        // or on the surface: 0 (infeasible), not mirrored.
        const ipcc_shape *shape = obstacle;
        double n[3], phi = fmax(ipcc_shape_distance(shape, a, NULL, n), 0.0);
        if (g)
            for (int i = 0; i < 3; ++i)
                g[i] = 2 * phi * n[i];
        if (H) ipcc_shape_distance2_hessian(shape, a, H);
        return phi * phi;
    }
    case IPCC_CONTACT_ST:
    case IPCC_CONTACT_SE: return sphere_distance(kind, x, obstacle, g, H);
    }
    return INFINITY;
}

double ipcc_contact_barrier(ipcc_contact_kind kind, int ee_type, double eps_x, const double *x,
                            const void *obstacle, double dhat2, double *g, double *H, bool project) {
    int n = 3 * ipcc_contact_kind_vertices(kind);
    double gd[12], Hd[144];
    double d = ipcc_contact_distance(kind, ee_type, x, obstacle, g ? gd : NULL, H ? Hd : NULL);
    double b = ipcc_barrier(d, dhat2);
    if (!isfinite(b)) return b;
    double m = 1, gm[12], Hm[144];
    bool mollified = kind == IPCC_CONTACT_EE && eps_x > 0;
    const double *a0 = x, *a1 = x + 3, *e0 = x + 6, *e1 = x + 9;
    if (mollified) m = ipcc_edge_edge_mollifier(a0, a1, e0, e1, eps_x);
    if (!g) return m * b;
    double b1 = ipcc_barrier_first_derivative(d, dhat2);
    double b2 = H ? ipcc_barrier_second_derivative(d, dhat2) : 0;
    if (mollified) {
        ipcc_edge_edge_mollifier_gradient(a0, a1, e0, e1, eps_x, gm);
        if (H) ipcc_edge_edge_mollifier_hessian(a0, a1, e0, e1, eps_x, Hm);
    }
    // grad (m b) = m b' grad d + b grad m
    for (int i = 0; i < n; ++i)
        g[i] = m * b1 * gd[i] + (mollified ? b * gm[i] : 0);
    if (!H) return m * b;
    // H = m (b'' gd gd^T + b' Hd) + b' (gm gd^T + gd gm^T) + b Hm
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            double v = m * (b2 * gd[i] * gd[j] + b1 * Hd[n * i + j]);
            if (mollified) v += b1 * (gm[i] * gd[j] + gd[i] * gm[j]) + b * Hm[n * i + j];
            H[n * i + j] = v;
        }
    if (project) ipcc_project_psd(n, H);
    return m * b;
}

// The pair's vertex positions, gathered (up to 12 doubles).
static void pair_positions(const contact_pair *p, const double *xc, double x[12]) {
    int nv = pair_num_vertices(p);
    for (int k = 0; k < nv; ++k)
        memcpy(x + 3 * k, xc + 3 * p->v[k], 3 * sizeof(double));
}

// The obstacle of a PH or PS pair (its plane, or its shape at the gathered pose).
static const void *pair_plane(const ipcc_contact *c, const contact_pair *p) {
    if (p->kind == IPCC_CONTACT_PH) return c->planes + 6 * p->v[1];
    if (p->kind == IPCC_CONTACT_PS) return &c->pose[p->v[1]];
    if (p->kind == IPCC_CONTACT_ST || p->kind == IPCC_CONTACT_SE) return &c->pose[p->v[pair_num_vertices(p)]];
    return NULL;
}

// Squared distance of pair p at xc.
double ipcc_contact_pair_distance(const ipcc_contact *c, const contact_pair *p, const double *xc) {
    double x[12];
    pair_positions(p, xc, x);
    return ipcc_contact_distance(p->kind, p->dtype, x, pair_plane(c, p), NULL, NULL);
}

// Barrier energy (kappa = 1) of pair p; with g, H also its gradient and
// PSD-projected Hessian (dimension 3 * pair_num_vertices).
static double pair_barrier(const ipcc_contact *c, const contact_pair *p, const double *xc, double *g,
                           double *H) {
    double x[12];
    pair_positions(p, xc, x);
    // The key stands for mult terms (contact_multiplicity.c): scale, then project.
    double e = ipcc_contact_barrier(p->kind, p->dtype, p->eps_x, x, pair_plane(c, p), c->dhat2, g, H, false);
    int n = 3 * pair_num_vertices(p);
    for (int i = 0; p->mult != 1 && g && i < n; ++i)
        g[i] *= p->mult;
    for (int i = 0; p->mult != 1 && H && i < n * n; ++i)
        H[i] *= p->mult;
    if (H) ipcc_project_psd(n, H);
    return p->mult * e;
}

// Unknown index of each of the pair's dofs (-1 when prescribed or kinematic).
static int pair_dofs(const ipcc_contact *c, const ipcc_world *w, const contact_pair *p, int dofs[12]) {
    int nv = pair_num_vertices(p);
    for (int k = 0; k < nv; ++k)
        for (int i = 0; i < 3; ++i)
            dofs[3 * k + i] = w->dof_map[3 * c->cvert[p->v[k]] + i];
    return 3 * nv;
}

// ---------------------------------------------------------------------------
// Lifecycle.

void ipcc_contact_destroy(ipcc_contact *c) {
    if (!c) return;
    free(c->cvert);
    free(c->group);
    free(c->cedges);
    free(c->cfaces);
    free(c->rest);
    ipcc_contact_free_adjacency(c);
    free(c->vf_extra);
    free(c->ee_extra);
    free(c->sphere_extra);
    free(c->xc);
    free(c->xc1);
    free(c->self_collision);
    free(c->kinematic);
    free(c->point_set);
    free(c->pose);
    free(c->shape_radius);
    ipcc_broad_phase_destroy(c->bp);
    ipcc_candidates_free(&c->cand);
    free(c->pairs);
    free(c->pair_energy);
    free(c->pair_grad);
    free(c->pair_slot);
    free(c->scratch);
    free(c->gb);
    free(c->toi);
    free(c->info);
    free(c);
}

ipcc_status ipcc_contact_query(ipcc_contact *c, const double *x0, const double *x1, double inflation,
                               int kinds) {
    double t0 = ipcc_now();
    ipcc_status st = ipcc_broad_phase_query(c->bp, &c->topo, x0, x1, inflation, kinds, &c->cand);
    c->time_broad_phase += ipcc_now() - t0;
    return st;
}

ipcc_status ipcc_contact_create(ipcc_world *w, ipcc_contact **out) {
    *out = NULL;
    ipcc_contact *c = calloc(1, sizeof *c);
    if (!c) return ipcc_fail(IPCC_ERR_NO_MEMORY, "contact: out of memory");
    c->bp = ipcc_broad_phase_create();
    ipcc_status st = c->bp ? build_mesh(c, w) : ipcc_fail(IPCC_ERR_NO_MEMORY, "contact: out of memory");
    if (st == IPCC_OK && ipcc_contact_build_adjacency(c) != 0)
        st = ipcc_fail(IPCC_ERR_NO_MEMORY, "contact: out of memory");
    if (st != IPCC_OK) {
        ipcc_contact_destroy(c);
        return st;
    }
    c->L = w->bbox_diagonal;
    c->dhat = w->def.contact.dhat > 0 ? w->def.contact.dhat : 1e-3 * w->bbox_diagonal;
    c->dhat2 = c->dhat * c->dhat;
    // kappa_min = 1e11 m_avg / (4 d0 b''(d0)), d0 = (1e-8 L)^2 (see the preamble).
    double msum = 0;
    int mcount = 0;
    for (int i = 0; i < w->n; ++i)
        if (w->mass[i] > 0) {
            msum += w->mass[i];
            mcount++;
        }
    double m_avg = mcount > 0 ? msum / mcount : 1.0;
    double d0 = 1e-16 * c->L * c->L;
    if (!(d0 < c->dhat2)) d0 = 0.5 * c->dhat2; // a d̂ below 1e-8 L
    c->kappa_min = 1e11 * m_avg / (4 * d0 * ipcc_barrier_second_derivative(d0, c->dhat2));
    c->kappa_max = 100 * c->kappa_min;
    c->kappa_fixed = w->def.contact.kappa > 0;
    c->kappa = c->kappa_fixed ? w->def.contact.kappa : 0;
    c->prev_min_d2 = INFINITY;
    st = ipcc_contact_check_initial_state(c, w);
    if (st != IPCC_OK) {
        ipcc_contact_destroy(c);
        return st;
    }
    *out = c;
    return IPCC_OK;
}

void ipcc_contact_begin_step(ipcc_contact *c) {
    c->cand_valid = false;
    c->rebalance = !c->kappa_fixed;
    c->prev_min_d2 = INFINITY;
    c->time_ccd = c->time_broad_phase = c->time_constraint_search = 0;
}

double ipcc_contact_dhat(const ipcc_contact *c) { return c->dhat; }
double ipcc_contact_kappa(const ipcc_contact *c) { return c->kappa; }
void ipcc_contact_set_kappa(ipcc_contact *c, double kappa) { c->kappa = kappa; }
void ipcc_contact_kappa_bounds(const ipcc_contact *c, double *kappa_min, double *kappa_max) {
    *kappa_min = c->kappa_fixed ? c->kappa : c->kappa_min;
    *kappa_max = c->kappa_fixed ? c->kappa : c->kappa_max;
}

// ---------------------------------------------------------------------------
// Energy, gradient, Hessian.

// Sum of pair energies (kappa = 1) into pair_energy; the serial sum.
static double barrier_sum(ipcc_contact *c, const double *xc) {
    int np = c->np;
#pragma omp parallel for schedule(static)
    for (int k = 0; k < np; ++k)
        c->pair_energy[k] = pair_barrier(c, &c->pairs[k], xc, NULL, NULL);
    double e = 0;
    for (int k = 0; k < np; ++k)
        e += c->pair_energy[k];
    return e;
}

double ipcc_contact_energy(ipcc_contact *c, const ipcc_world *w, const double *x) {
    ipcc_contact_gather(c, x, c->xc);
    if (ipcc_contact_build_pairs(c, c->xc) != 0) return NAN;
    (void)w;
    double e = barrier_sum(c, c->xc);
    return isfinite(e) ? c->kappa * e : INFINITY;
}

static double min_distance2(const ipcc_contact *c, const double *xc) {
    double m = INFINITY;
    for (int k = 0; k < c->np; ++k)
        m = fmin(m, ipcc_contact_pair_distance(c, &c->pairs[k], xc));
    return m;
}

// kappa at the start of a step (preamble: "Stiffness").
static void balance_kappa(ipcc_contact *c, ipcc_world *w, const double *g_rest) {
    c->rebalance = false;
    if (c->np == 0) {
        if (c->kappa == 0) c->kappa = c->kappa_min;
        return;
    }
    if (grow((void **)&c->gb, &c->cap_gb, 3 * w->n, sizeof(double)) != 0) return;
    memset(c->gb, 0, sizeof(double) * 3 * (size_t)w->n);
    for (int k = 0; k < c->np; ++k) {
        const contact_pair *p = &c->pairs[k];
        double g[12];
        pair_barrier(c, p, c->xc, g, NULL);
        int nv = pair_num_vertices(p);
        for (int a = 0; a < nv; ++a)
            for (int i = 0; i < 3; ++i)
                c->gb[3 * c->cvert[p->v[a]] + i] += g[3 * a + i];
    }
    double num = 0, den = 0;
    for (int d = 0; d < 3 * w->n; ++d)
        if (w->dof_map[d] >= 0) {
            num += g_rest[d] * c->gb[d];
            den += c->gb[d] * c->gb[d];
        }
    double k = den > 0 ? -num / den : c->kappa_min;
    k = fmin(fmax(k, c->kappa_min), c->kappa_max);
    c->kappa = fmax(c->kappa, k);
}

// A PS pair's part of the lift (newton.c, "Prescribed motion"): the
// distance depends on the vertex relative to the shape, so the shape's
// remaining motion enters as minus its material point's displacement at
// the closest point, to first order ds (vh + wh x (y - c)), ds the clock's
// remaining progress.
static void shape_lift(const ipcc_contact *c, const contact_pair *p, const double *lift, double *le, int nv) {
    const ipcc_world *w = c->world;
    if (!w->has_clock) return;
    int i = p->v[nv]; // PS: [v, shape]; ST, SE: a sphere, whose distance only its centre's motion changes
    const ipcc_shape *pose = &c->pose[i];
    double ds = lift[3 * w->n] / w->clock_length, y[3], v[3];
    if (p->kind == IPCC_CONTACT_PS)
        ipcc_shape_distance(pose, c->xc + 3 * p->v[0], y, NULL);
    else
        memcpy(y, pose->center, sizeof y);
    ipcc_world_shape_velocity(w, i, pose, y, v);
    for (int a = 0; a < nv; ++a)
        for (int k = 0; k < 3; ++k)
            le[3 * a + k] -= ds * w->def.time_step * v[k];
}

double ipcc_contact_evaluate(ipcc_contact *c, ipcc_world *w, const double *x, const double *lift, double *g,
                             ipcc_triplets *T) {
    ipcc_contact_gather(c, x, c->xc);
    if (!c->cand_valid) {
        if (ipcc_contact_query(c, c->xc, NULL, c->dhat, IPCC_CANDIDATES_VF | IPCC_CANDIDATES_EE) != IPCC_OK)
            return NAN;
        c->cand_valid = true;
    }
    if (ipcc_contact_build_pairs(c, c->xc) != 0) return NAN;
    // Stiffness: balance at the step start, double while contacts keep closing in.
    if (c->rebalance) balance_kappa(c, w, g);
    if (!c->kappa_fixed) {
        double dmin2 = min_distance2(c, c->xc), eps2 = 1e-16 * c->L * c->L;
        if (c->prev_min_d2 < eps2 && dmin2 < eps2 && dmin2 < c->prev_min_d2)
            c->kappa = fmin(c->kappa_max, 2 * c->kappa);
        c->prev_min_d2 = dmin2;
    }
    // Triplet offsets: pair k owns the (a, b) dof pairs with both unknown and dofs[b] >= dofs[a].
    int np = c->np;
    c->pair_slot[0] = 0;
    for (int k = 0; k < np; ++k) {
        int dofs[12], n = pair_dofs(c, w, &c->pairs[k], dofs);
        c->pair_slot[k + 1] = c->pair_slot[k] + ipcc_block_triplet_count(n, dofs);
    }
    if (ipcc_triplets_reserve(T, T->count + c->pair_slot[np]) != 0) return NAN;
    int base = T->count;
    int *rows = T->row + base, *cols = T->col + base;
    double *vals = T->val + base;
    double kappa = c->kappa;
#pragma omp parallel for schedule(dynamic, 64)
    for (int k = 0; k < np; ++k) {
        const contact_pair *p = &c->pairs[k];
        double H[144], *gk = c->pair_grad + 12 * k;
        int dofs[12], n = pair_dofs(c, w, p, dofs);
        c->pair_energy[k] = pair_barrier(c, p, c->xc, gk, H);
        if (!isfinite(c->pair_energy[k])) continue;
        if (lift) {
            double le[12];
            for (int a = 0; a < n; ++a)
                le[a] = lift[3 * c->cvert[p->v[a / 3]] + a % 3];
            if (p->kind == IPCC_CONTACT_PS || p->kind == IPCC_CONTACT_ST || p->kind == IPCC_CONTACT_SE)
                shape_lift(c, p, lift, le, n / 3);
            ipcc_block_add_product(n, H, le, gk);
        }
        int s = c->pair_slot[k];
        ipcc_block_triplets_write(n, dofs, H, kappa, rows + s, cols + s, vals + s);
    }
    T->count = base + c->pair_slot[np];
    double e = 0;
    for (int k = 0; k < np; ++k)
        e += c->pair_energy[k];
    if (!isfinite(e)) return INFINITY;
    for (int k = 0; k < np; ++k) {
        const contact_pair *p = &c->pairs[k];
        int nv = pair_num_vertices(p);
        for (int a = 0; a < nv; ++a)
            for (int i = 0; i < 3; ++i)
                g[3 * c->cvert[p->v[a]] + i] += kappa * c->pair_grad[12 * k + 3 * a + i];
    }
    return T->failed ? NAN : kappa * e;
}

// ---------------------------------------------------------------------------
// CCD step bound.

// Earliest conservative time of impact of vertex v against half-space h for
// the motion xc -> xc1 (1 if it does not reach the plane).
static double plane_toi(const ipcc_contact *c, int h, int v) {
    double s0 = ipcc_contact_plane_signed(c->planes + 6 * h, c->xc + 3 * v),
           s1 = ipcc_contact_plane_signed(c->planes + 6 * h, c->xc1 + 3 * v);
    if (!(s1 <= 0)) return 1.0;
    if (!(s0 > 0)) return 0.0;
    return s0 / (s0 - s1); // linear in t; the safety factor dwarfs rounding
}

// Earliest conservative time of impact of the free collision vertices
// against shape i over xc -> xc1, the shape going from progress s0 to s1
// (shape_ccd.c); vertices whose bounding-sphere gap exceeds their
// motion's reach are skipped.
static double shapes_toi(ipcc_contact *c, double s0, double s1) {
    const ipcc_world *w = c->world;
    double t = 1.0;
    int nc = c->nc;
    for (int i = 0; i < c->ns; ++i) {
        const ipcc_shape_def *d = &w->shapes[i];
        double vh[3], wh[3];
        ipcc_shape start;
        ipcc_world_shape_step(w, i, &start, vh, wh);
        ipcc_shape a; // the centre moves by at most |s1 - s0| |vh| (a rotation does not move it)
        ipcc_shape_moved(&start, vh, wh, s0, &a);
        double centre_motion = fabs(s1 - s0) * norm3(vh), ti = 1.0;
#pragma omp parallel for schedule(dynamic, 256) reduction(min : ti)
        for (int v = 0; v < nc; ++v) {
            if (!ipcc_contact_vertex_free(c, v)) continue;
            const double *x0 = c->xc + 3 * v, *x1 = c->xc1 + 3 * v;
            double m[3] = {x1[0] - x0[0], x1[1] - x0[1], x1[2] - x0[2]};
            double r[3] = {x0[0] - a.center[0], x0[1] - a.center[1], x0[2] - a.center[2]};
            if (norm3(r) - c->shape_radius[i] > norm3(m) + centre_motion) continue;
            ti = fmin(ti, ipcc_shape_ccd(&start, vh, wh, s0, s1, x0, x1));
        }
        // A sphere also against every face: its centre moves linearly (a
        // rotation does not move it), so this is point-triangle CCD with the
        // radius as the minimum separation (ccd.c), which covers the faces'
        // edges and vertices too.
        if (d->kind == IPCC_SHAPE_SPHERE) {
            ipcc_shape b;
            ipcc_shape_moved(&start, vh, wh, s1, &b);
            const double *o0 = a.center, *o1 = b.center, reach = d->size[0] + centre_motion;
            int nf = c->nf;
#pragma omp parallel for schedule(dynamic, 256) reduction(min : ti)
            for (int f = 0; f < nf; ++f) {
                const int *T = c->cfaces + 3 * f;
                if (!ipcc_contact_vertex_free(c, T[0])) continue;
                bool apart = false;
                for (int k = 0; k < 3 && !apart; ++k) {
                    double lo = INFINITY, hi = -INFINITY;
                    for (int j = 0; j < 3; ++j) {
                        lo = fmin(lo, fmin(c->xc[3 * T[j] + k], c->xc1[3 * T[j] + k]));
                        hi = fmax(hi, fmax(c->xc[3 * T[j] + k], c->xc1[3 * T[j] + k]));
                    }
                    apart = lo > o0[k] + reach || hi < o0[k] - reach;
                }
                if (apart) continue;
                double tf = 1.0;
                const double *x0 = c->xc, *x1 = c->xc1;
                if (ipcc_point_triangle_ccd(o0, x0 + 3 * T[0], x0 + 3 * T[1], x0 + 3 * T[2], o1,
                                            x1 + 3 * T[0], x1 + 3 * T[1], x1 + 3 * T[2], d->size[0], 1.0,
                                            &tf))
                    ti = fmin(ti, tf);
            }
        }
        t = fmin(t, ti);
    }
    return t;
}

double ipcc_contact_max_step(ipcc_contact *c, const ipcc_world *w, const double *x, const double *p,
                             double alpha_max) {
    for (int i = 0; i < c->nc; ++i)
        for (int k = 0; k < 3; ++k) {
            int d = 3 * c->cvert[i] + k;
            c->xc[3 * i + k] = x[d];
            c->xc1[3 * i + k] = x[d] + alpha_max * p[d];
        }
    ipcc_contact_shapes_at(c, x);
    // Swept candidates within d̂: the CCD pairs, and the line search's energy pairs.
    if (ipcc_contact_query(c, c->xc, c->xc1, c->dhat, IPCC_CANDIDATES_VF | IPCC_CANDIDATES_EE) != IPCC_OK) {
        c->cand_valid = false;
        return 0.0;
    }
    c->cand_valid = true;
    double t_ccd0 = ipcc_now();
    const ipcc_candidates *cd = &c->cand;
    int nvf = cd->num_vf, nee = cd->num_ee, n = nvf + nee;
    if (grow((void **)&c->toi, &c->cap_toi, n + 1, sizeof(double)) != 0) return 0.0;
    const double *x0 = c->xc, *x1 = c->xc1;
#pragma omp parallel for schedule(dynamic, 64)
    for (int k = 0; k < n; ++k) {
        double t = 1.0;
        bool hit;
        if (k < nvf) {
            int v = cd->vf[2 * k];
            const int *f = c->cfaces + 3 * cd->vf[2 * k + 1];
            hit = ipcc_point_triangle_ccd(x0 + 3 * v, x0 + 3 * f[0], x0 + 3 * f[1], x0 + 3 * f[2], x1 + 3 * v,
                                          x1 + 3 * f[0], x1 + 3 * f[1], x1 + 3 * f[2], 0.0, 1.0, &t);
        } else {
            const int *ea = c->cedges + 2 * cd->ee[2 * (k - nvf)],
                      *eb = c->cedges + 2 * cd->ee[2 * (k - nvf) + 1];
            hit = ipcc_edge_edge_ccd(x0 + 3 * ea[0], x0 + 3 * ea[1], x0 + 3 * eb[0], x0 + 3 * eb[1],
                                     x1 + 3 * ea[0], x1 + 3 * ea[1], x1 + 3 * eb[0], x1 + 3 * eb[1], 0.0, 1.0,
                                     &t);
        }
        c->toi[k] = hit ? t : 1.0;
    }
    double t = 1.0;
    for (int k = 0; k < n; ++k)
        t = fmin(t, c->toi[k]);
    for (int h = 0; h < c->nh; ++h)
        for (int v = 0; v < c->nc; ++v)
            if (ipcc_contact_vertex_free(c, v)) t = fmin(t, plane_toi(c, h, v));
    if (c->ns > 0) {
        double s0 = ipcc_world_shape_progress(w, x), s1 = s0;
        if (w->has_clock) {
            int k = 3 * w->n;
            s1 = fmin(1.0, fmax(0.0, (x[k] + alpha_max * p[k]) / w->clock_length));
        }
        t = fmin(t, shapes_toi(c, s0, s1));
    }
    double t_end = ipcc_now();
    c->time_ccd += t_end - t_ccd0;
    return t < 1.0 ? CCD_SAFETY * t * alpha_max : alpha_max;
}

void ipcc_contact_end_step(ipcc_contact *c, const ipcc_world *w, const double *x, double *force,
                           ipcc_step_stats *stats) {
    memset(force, 0, sizeof(double) * 3 * (size_t)w->n);
    ipcc_contact_gather(c, x, c->xc);
    bool ok = c->cand_valid ||
              ipcc_contact_query(c, c->xc, NULL, c->dhat, IPCC_CANDIDATES_VF | IPCC_CANDIDATES_EE) == IPCC_OK;
    ok = ok && ipcc_contact_build_pairs(c, c->xc) == 0;
    double s = ipcc_integrator_potential_scale(w), dmin2 = INFINITY;
    for (int k = 0; ok && k < c->np; ++k) {
        const contact_pair *p = &c->pairs[k];
        double g[12];
        pair_barrier(c, p, c->xc, g, NULL);
        dmin2 = fmin(dmin2, ipcc_contact_pair_distance(c, p, c->xc));
        int nv = pair_num_vertices(p);
        for (int a = 0; a < nv; ++a)
            for (int i = 0; i < 3; ++i)
                force[3 * c->cvert[p->v[a]] + i] -= c->kappa * g[3 * a + i] / s;
    }
    if (stats) {
        stats->num_contacts = ok ? c->np : 0;
        stats->min_distance = sqrt(dmin2);
        stats->kappa = c->kappa;
        stats->time_ccd = c->time_ccd;
        stats->time_broad_phase = c->time_broad_phase;
        stats->time_constraint_search = c->time_constraint_search;
    }
}

// ---------------------------------------------------------------------------
// Active constraints for friction.

// Closest-point weights of pair p at xc (see ipcc_contact_info).
// a such that e0 + a (e1 - e0) is the point of the line through e0, e1
// nearest p (0 for a degenerate edge).
static double line_parameter(const double *p, const double *e0, const double *e1) {
    double e[3], r[3];
    sub3(e1, e0, e);
    sub3(p, e0, r);
    double ee = dot3(e, e);
    return ee > 0 ? dot3(r, e) / ee : 0;
}

// (b1, b2) such that t0 + b1 (t1 - t0) + b2 (t2 - t0) is p's projection on
// the triangle's plane (0 for a degenerate triangle).
static void plane_coordinates(const double *p, const double *t0, const double *t1, const double *t2,
                              double b[2]) {
    double v0[3], v1[3], v2[3];
    sub3(t1, t0, v0);
    sub3(t2, t0, v1);
    sub3(p, t0, v2);
    double d00 = dot3(v0, v0), d01 = dot3(v0, v1), d11 = dot3(v1, v1), d20 = dot3(v2, v0), d21 = dot3(v2, v1);
    double den = d00 * d11 - d01 * d01;
    b[0] = den > 0 ? (d11 * d20 - d01 * d21) / den : 0;
    b[1] = den > 0 ? (d00 * d21 - d01 * d20) / den : 0;
}

static void pair_weights(const contact_pair *p, const double *xc, double w[4]) {
    const double *x0 = xc + 3 * p->v[0];
    switch (p->kind) {
    case IPCC_CONTACT_PP:
        w[0] = 1;
        w[1] = -1;
        return;
    case IPCC_CONTACT_PE: { // the line's closest point
        double a = line_parameter(x0, xc + 3 * p->v[1], xc + 3 * p->v[2]);
        w[0] = 1;
        w[1] = -(1 - a);
        w[2] = -a;
        return;
    }
    case IPCC_CONTACT_PT: { // barycentric coordinates of p's projection on the triangle's plane
        double b[2];
        plane_coordinates(x0, xc + 3 * p->v[1], xc + 3 * p->v[2], xc + 3 * p->v[3], b);
        w[0] = 1;
        w[1] = -(1 - b[0] - b[1]);
        w[2] = -b[0];
        w[3] = -b[1];
        return;
    }
    case IPCC_CONTACT_EE: {
        // pa = ea0 + s a, pb = eb0 + t b: closest points of the features the distance type names
        double a[3], b[3], r[3];
        sub3(xc + 3 * p->v[1], x0, a);
        sub3(xc + 3 * p->v[3], xc + 3 * p->v[2], b);
        sub3(x0, xc + 3 * p->v[2], r);
        double aa = dot3(a, a), bb = dot3(b, b), ab = dot3(a, b), ar = dot3(a, r), br = dot3(b, r);
        double s = 0, t = 0;
        switch ((ipcc_edge_edge_distance_type)p->dtype) {
        case IPCC_EE_EA0_EB0: break;
        case IPCC_EE_EA0_EB1: t = 1; break;
        case IPCC_EE_EA1_EB0: s = 1; break;
        case IPCC_EE_EA1_EB1: s = t = 1; break;
        case IPCC_EE_EA_EB0: s = aa > 0 ? -ar / aa : 0; break;
        case IPCC_EE_EA_EB1: s = aa > 0 ? (ab - ar) / aa : 0, t = 1; break;
        case IPCC_EE_EA0_EB: t = bb > 0 ? br / bb : 0; break;
        case IPCC_EE_EA1_EB: s = 1, t = bb > 0 ? (ab + br) / bb : 0; break;
        case IPCC_EE_EA_EB: {
            // s aa - t ab = -ar,  s ab - t bb = -br
            double den = aa * bb - ab * ab;
            if (den > 0) {
                s = (ab * br - bb * ar) / den;
                t = (aa * br - ab * ar) / den;
            }
            break;
        }
        }
        w[0] = 1 - s;
        w[1] = s;
        w[2] = -(1 - t);
        w[3] = -t;
        return;
    }
    case IPCC_CONTACT_PH:
    case IPCC_CONTACT_PS: w[0] = 1; return;
    }
}

// ST and SE as friction sees them: the face's (edge's) point nearest the
// sphere's centre o, q = sum_i w_i x_i (barycentric weights of o's
// projection, summing to 1: the body is the first primitive, the sphere the
// second), the normal from the sphere towards it, (q - o) / |q - o|, and
// the sphere's surface point o + r n.
static void sphere_info(const ipcc_contact *c, const contact_pair *p, ipcc_contact_info *in) {
    int nv = pair_num_vertices(p), i = p->v[nv];
    const double *o = c->pose[i].center, *x0 = c->xc + 3 * p->v[0], *x1 = c->xc + 3 * p->v[1];
    if (p->kind == IPCC_CONTACT_SE) {
        double a = line_parameter(o, x0, x1);
        in->weights[0] = 1 - a;
        in->weights[1] = a;
    } else {
        double b[2];
        plane_coordinates(o, x0, x1, c->xc + 3 * p->v[2], b);
        in->weights[0] = 1 - b[0] - b[1];
        in->weights[1] = b[0];
        in->weights[2] = b[1];
    }
    double q[3] = {0, 0, 0};
    for (int a = 0; a < nv; ++a)
        for (int k = 0; k < 3; ++k)
            q[k] += in->weights[a] * c->xc[3 * p->v[a] + k];
    double dq[3];
    sub3(q, o, dq);
    double len = sqrt(dot3(dq, dq));
    for (int k = 0; k < 3; ++k) {
        in->normal[k] = len > 0 ? dq[k] / len : (k == 1);
        in->point[k] = o[k] + c->pose[i].size[0] * in->normal[k];
    }
    in->body[1] = -1;
    in->obstacle = i;
}

int ipcc_contact_active(ipcc_contact *c, const ipcc_world *w, const double *x,
                        const ipcc_contact_info **out) {
    ipcc_contact_gather(c, x, c->xc);
    if (ipcc_contact_query(c, c->xc, NULL, c->dhat, IPCC_CANDIDATES_VF | IPCC_CANDIDATES_EE) != IPCC_OK)
        return -1;
    c->cand_valid = false; // evaluations at other states search afresh
    if (ipcc_contact_build_pairs(c, c->xc) != 0) return -1;
    if (grow((void **)&c->info, &c->cap_info, c->np + 1, sizeof *c->info) != 0) return -1;
    for (int k = 0; k < c->np; ++k) {
        const contact_pair *p = &c->pairs[k];
        ipcc_contact_info *in = &c->info[k];
        int nv = pair_num_vertices(p);
        in->kind = (ipcc_contact_kind)p->kind;
        for (int a = 0; a < nv; ++a)
            in->vertices[a] = c->cvert[p->v[a]];
        in->body[0] = c->group[p->v[0]];
        in->obstacle = -1;
        if (p->kind == IPCC_CONTACT_ST || p->kind == IPCC_CONTACT_SE) {
            sphere_info(c, p, in);
        } else if (p->kind == IPCC_CONTACT_PH) {
            pair_weights(p, c->xc, in->weights);
            in->body[1] = -1;
            in->obstacle = p->v[1];
            memcpy(in->normal, c->planes + 6 * p->v[1] + 3, 3 * sizeof(double));
            const double *xv = c->xc + 3 * p->v[0], *pl = c->planes + 6 * p->v[1];
            double sd = ipcc_contact_plane_signed(pl, xv);
            for (int k3 = 0; k3 < 3; ++k3)
                in->point[k3] = xv[k3] - sd * pl[3 + k3];
        } else if (p->kind == IPCC_CONTACT_PS) {
            pair_weights(p, c->xc, in->weights);
            in->body[1] = -1;
            in->obstacle = p->v[1];
            ipcc_shape_distance(&c->pose[p->v[1]], c->xc + 3 * p->v[0], in->point, in->normal);
        } else {
            pair_weights(p, c->xc, in->weights);
            in->body[1] = c->group[p->v[p->kind == IPCC_CONTACT_EE ? 2 : 1]];
            // normal = (difference of the closest points) / its length
            double dvec[3] = {0, 0, 0};
            for (int a = 0; a < nv; ++a)
                for (int k3 = 0; k3 < 3; ++k3)
                    dvec[k3] += in->weights[a] * c->xc[3 * p->v[a] + k3];
            double len = sqrt(dot3(dvec, dvec));
            for (int k3 = 0; k3 < 3; ++k3)
                in->normal[k3] = len > 0 ? dvec[k3] / len : (k3 == 1);
            // the second primitive's closest point: minus its weighted vertices
            int first = p->kind == IPCC_CONTACT_EE ? 2 : 1;
            memset(in->point, 0, sizeof in->point);
            for (int a = first; a < nv; ++a)
                for (int k3 = 0; k3 < 3; ++k3)
                    in->point[k3] -= in->weights[a] * c->xc[3 * p->v[a] + k3];
        }
        // lambda_hat = kappa m |b'(d)| |grad_x sqrt-distance|... in squared terms: |d/dr b(r^2)| = |b'| 2 r
        double xl[12];
        pair_positions(p, c->xc, xl);
        double d = ipcc_contact_distance(in->kind, p->dtype, xl, pair_plane(c, p), NULL, NULL);
        double m = in->kind == IPCC_CONTACT_EE && p->eps_x > 0
                       ? ipcc_edge_edge_mollifier(xl, xl + 3, xl + 6, xl + 9, p->eps_x)
                       : 1.0;
        in->normal_force =
            c->kappa * p->mult * m * fabs(ipcc_barrier_first_derivative(d, c->dhat2)) * 2 * sqrt(d);
        in->distance = sqrt(d);
    }
    *out = c->info;
    (void)w;
    return c->np;
}
