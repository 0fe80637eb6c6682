// How many times each constraint counts: the point-surface barrier as an
// inclusion-exclusion over the surface's faces, edges and vertices, so that
// a surface's internal edges and vertices are not ridges.
//
// Standard IPC (Li et al. 2020, eq. 6) sums b over the closest features of
// every point-triangle pair, each feature once. A point p over triangle A
// near an edge e that A shares with B is at distance h from A and at
// sqrt(h^2 + s^2) from e (B's closest feature), so it feels
// b(h) + b(sqrt(h^2 + s^2)): twice the barrier over a strip ~2 d̂ wide along
// every edge, and more around every vertex. On a flat triangulated plane a
// sliding body meets those strips as ridges and loses speed (issue 8). The
// remedy is the "improved max approximator" of Li, Ferguson, Schneider,
// Langlois, Zorin, Panozzo, Jiang and Kaufman 2023 (Convergent Incremental
// Potential Contact, arXiv:2307.15908, Sec. 4): approximate
// b(distance from p to the surface) = max over the surface's points of b by
// inclusion-exclusion over the surface's cells,
//
//   P(p) = sum_f b(d(p, f)) + sum_e (1 - F(e)) b(d(p, e))
//          + sum_v (1 - E(v) + F(v)) b(d(p, v)),                        (1)
//
// over the faces f, edges e and vertices v of the other surface that do
// not contain p, with d the full (closest-point) distance to each cell,
// F(e) the number of faces at e, E(v) and F(v) the edges and faces at v
// (counting only cells without p). Every term is continuous in p, so P is.
// Where the surface near p is a disk, the cells' coefficients add up to its
// Euler characteristic, 1: over a flat mesh P(p) is exactly b(h), wherever p
// is; at a convex edge or vertex it is b of the distance to it; in a
// concave valley it is between the largest term and the sum.
//
// Each term of (1) is b of the distance to one closest feature, so (1) is a
// sum over the same keyed constraints as before (constraint_set.c) with integer
// MULTIPLICITIES, the number of terms of (1) that land on each key:
//
//   PT (p, f):  1;
//   PE (p, e):  n_f(p, e) + 1 - F(e), with n_f the faces at e whose closest
//               feature to p is e (it is 0 over a flat mesh: A gives PT,
//               B gives e once, and the edge term takes it back);
//   PP (u, v):  c_v(u) + c_u(v), both points being points of their own
//               surface, with c_v(u) = n_f(u, v) + sum over the edges at v
//               whose closest feature to u is v of (1 - F(e)) + 1 - E(v) + F(v)
//               (zero when v is an isolated point: a point set is met only as
//               points, against the other side's faces).
//
// Edges without faces (segment sets) get 1 - F(e) = 1: the point-edge
// barrier of IPC. A sphere's centre is such a point too (its keys ST, SE,
// and PS for the vertices, which also count 1 as points against it).
//
// Edge-edge terms (IPC eq. 6's edge pairs) are the same for the two
// 1-skeletons: the full segment-segment distance of every pair of edges a,
// b is continuous, but once keyed by closest features its term lands on a
// point-edge or point-point key when the closest point reaches an end, and
// that key may already stand for point-surface terms (IPC's implementation
// then counts it once: the energy jumps by b there, and Newton's line
// search stalls on soft, folding bodies). So the edges count by
// inclusion-exclusion over both 1-skeletons, with coefficient 1 per edge and
// 1 - E(v) per vertex:
//
//   Q = sum_{a, b} b(d(a, b)) + sum_{u, b} (1 - E(u)) b(d(u, b))
//       + sum_{a, w} (1 - E(w)) b(d(a, w)) + sum_{u, w} (1 - E(u)) (1 - E(w)) b(d(u, w)),   (2)
//
// u, a of one body, w, b of the other, edges sharing a vertex excluded, E
// counting the edges of the term: E(u) in the term of u and b counts u's
// edges that share no vertex with b (in self-contact u may be a neighbour
// of b's far end), the same whether the term lands on the key PE (u, b) or
// PP (u, w); were the count taken per key, the energy would jump by b
// where b's closest point to u passes w (a line-search stall on folding
// soft mats). Which key a term lands on comes from one classification of
// each pair, in a fixed order of its two edges (ipcc_edge_pair_type), so
// the constraint set and the multiplicities agree where parallel edges
// have no unique closest points. A nearly parallel pair (sin^2 of the angle
// below 1e-3) is keyed on its own (EP, parallel_edges.c) and lands on no
// key here: its term is C1 where its closest point jumps between ends. An
// edge-edge interior key counts 1, an EP key 1; a
// point-edge key (u, b) adds the edges at u whose closest points are u and
// b's interior, plus 1 - E(u) when b's closest point to u is inside it (so 1
// at a convex vertex u, whose edges all reach b at u); a point-point key
// (u, w) the products likewise (1 at two convex vertices). Vertices of
// point sets have no edges and no terms of (2). An EP term is never below
// the end barriers it no longer adds to (parallel_edges.c), so no term is
// left uncancelled (IPC's mollifier would leave -(1 - m) b,
// constraint_set.c). Half-spaces and
// analytic shapes count once. A key with multiplicity 0 is dropped; a
// negative one (a concave valley) is kept: its energy and gradient enter
// with their sign, its Hessian is projected to PSD after the sign is
// applied (so it contributes nothing where b is convex).
//
// Flat features of obstacles (collision_mesh.c): an obstacle's edges and
// vertices inside a planar region are not features: no terms of (2), and
// the vertices are no points of (1) (but still cells of the surface other
// points meet).
//
// Topology: per collision vertex its edges and faces, per edge its faces
// (the collision mesh's CSR adjacency).
#include "collision/contact_multiplicity.h"

#include <stdbool.h>

#include "collision/edge_pair.h"
#include "geometry/distance.h"

static bool face_has(const int *t, int v) { return t[0] == v || t[1] == v || t[2] == v; }

// The closest feature of face f to point p is the interior of its edge (a, b).
static bool face_closest_is_edge(const ipcc_collision_mesh *c, const double *xc, const double *p, int f,
                                 int a, int b) {
    const int *t = c->cfaces + 3 * f;
    ipcc_point_triangle_distance_type type =
        ipcc_point_triangle_distance_type_of(p, xc + 3 * t[0], xc + 3 * t[1], xc + 3 * t[2]);
    if (type < IPCC_PT_P_E0 || type > IPCC_PT_P_E2) return false;
    int j = type - IPCC_PT_P_E0, q0 = t[j], q1 = t[(j + 1) % 3];
    return (q0 == a && q1 == b) || (q0 == b && q1 == a);
}

// Faces at edge e without vertex u (F(e) of (1)).
static int edge_faces_without(const ipcc_collision_mesh *c, int e, int u) {
    int n = 0;
    for (int k = c->edge_face_start[e]; k < c->edge_face_start[e + 1]; ++k)
        n += !face_has(c->cfaces + 3 * c->edge_faces[k], u);
    return n;
}

// PE (u, a, b), e = (a, b): n_f(u, e) + 1 - F(e), for the point p at vertex
// u (or a sphere's centre p, u = -1).
static int edge_multiplicity(const ipcc_collision_mesh *c, const double *xc, const double *p, int u, int e,
                             int a, int b) {
    if (e < 0) return 1;
    int n = 1;
    for (int k = c->edge_face_start[e]; k < c->edge_face_start[e + 1]; ++k) {
        int f = c->edge_faces[k];
        if (face_has(c->cfaces + 3 * f, u)) continue;
        n += face_closest_is_edge(c, xc, p, f, a, b) - 1;
    }
    return n;
}

// c_v(u): the terms of (1) for the point p at vertex u (or a sphere's
// centre p, u = -1) that land on vertex v.
static int vertex_multiplicity(const ipcc_collision_mesh *c, const double *xc, const double *p, int u,
                               int v) {
    int ev = c->vert_edge_start[v + 1] - c->vert_edge_start[v];
    int fv = c->vert_face_start[v + 1] - c->vert_face_start[v];
    if (ev == 0 && fv == 0) return 0; // an isolated point: met as a point only
    int n = 1;
    for (int k = c->vert_face_start[v]; k < c->vert_face_start[v + 1]; ++k) {
        const int *t = c->cfaces + 3 * c->vert_faces[k];
        if (face_has(t, u)) continue;
        ipcc_point_triangle_distance_type type =
            ipcc_point_triangle_distance_type_of(p, xc + 3 * t[0], xc + 3 * t[1], xc + 3 * t[2]);
        n += 1 + (type <= IPCC_PT_P_T2 && t[type] == v); // F(v), and n_f(u, v)
    }
    for (int k = c->vert_edge_start[v]; k < c->vert_edge_start[v + 1]; ++k) {
        int e = c->vert_edges[k];
        const int *ed = c->cedges + 2 * e;
        if (ed[0] == u || ed[1] == u) continue;
        n -= 1; // E(v)
        ipcc_point_edge_distance_type type =
            ipcc_point_edge_distance_type_of(p, xc + 3 * ed[0], xc + 3 * ed[1]);
        bool at_v = (type == IPCC_PE_P_E0 && ed[0] == v) || (type == IPCC_PE_P_E1 && ed[1] == v);
        if (at_v) n += 1 - edge_faces_without(c, e, u);
    }
    return n;
}

static bool edge_has(const int *ed, int v) { return ed[0] == v || ed[1] == v; }

// Edge e counts in the 1-skeleton's terms of (2): not flat, and not at the
// other primitive's vertices x and y (y may be -1).
static bool skeleton_edge(const ipcc_collision_mesh *c, int e, int x, int y) {
    const int *ed = c->cedges + 2 * e;
    return !c->edge_flat[e] && !edge_has(ed, x) && (y < 0 || !edge_has(ed, y));
}

// The vertices of edges a and b (as stored) that the closest-feature type
// of their distance names (-1 for an interior; both -1 for a nearly
// parallel pair, whose term has its own key and lands on no other).
static void ee_ends(const double *xc, const int *a, const int *b, int *ta, int *tb) {
    if (ipcc_edge_pair_parallel(xc, a, b)) {
        *ta = *tb = -1;
        return;
    }
    ipcc_edge_edge_distance_type t = ipcc_edge_pair_type(xc, a, b);
    switch (t) {
    case IPCC_EE_EA0_EB0: *ta = a[0], *tb = b[0]; return;
    case IPCC_EE_EA0_EB1: *ta = a[0], *tb = b[1]; return;
    case IPCC_EE_EA1_EB0: *ta = a[1], *tb = b[0]; return;
    case IPCC_EE_EA1_EB1: *ta = a[1], *tb = b[1]; return;
    case IPCC_EE_EA_EB0: *ta = -1, *tb = b[0]; return;
    case IPCC_EE_EA_EB1: *ta = -1, *tb = b[1]; return;
    case IPCC_EE_EA0_EB: *ta = a[0], *tb = -1; return;
    case IPCC_EE_EA1_EB: *ta = a[1], *tb = -1; return;
    default: *ta = *tb = -1; return; // IPCC_EE_EA_EB
    }
}

// The vertex of edge e (as stored) closest to point p, or -1 for its interior.
static int pe_end(const double *xc, int p, const int *e) {
    ipcc_point_edge_distance_type t =
        ipcc_point_edge_distance_type_of(xc + 3 * p, xc + 3 * e[0], xc + 3 * e[1]);
    return t == IPCC_PE_P_E0 ? e[0] : t == IPCC_PE_P_E1 ? e[1] : -1;
}

// Edges of the 1-skeleton at vertex u that share no vertex with x and y
// (a vertex x, y = -1, or an edge [x, y]): E(u) of a term of (2) between u
// and that cell. Its value belongs to the term, not to the key the term
// lands on: the term of u and edge b counts 1 - E(u) with b's both ends
// excluded, whether u's closest point on b is inside it (key PE) or an end
// w (key PP), so the energy is continuous where it moves between the two.
static int edges_apart(const ipcc_collision_mesh *c, int u, int x, int y) {
    int n = 0;
    for (int k = c->vert_edge_start[u]; k < c->vert_edge_start[u + 1]; ++k)
        n += skeleton_edge(c, c->vert_edges[k], x, y);
    return n;
}

// Vertex u is on a 1-skeleton: some edge at it is not flat (a point set's
// vertex, or one inside a planar region of an obstacle, has no terms of (2)).
static bool on_skeleton(const ipcc_collision_mesh *c, int u) {
    for (int k = c->vert_edge_start[u]; k < c->vert_edge_start[u + 1]; ++k)
        if (!c->edge_flat[c->vert_edges[k]]) return true;
    return false;
}

// The terms of (2) that land on PE (p, e0, e1): the edges a at p whose
// closest points to e are p and e's interior, and the term of p and e,
// 1 - E(p) (edges_apart), if e's closest point to p is inside it.
static int skeleton_pe(const ipcc_collision_mesh *c, const double *xc, int p, int e, int e0, int e1) {
    if (e < 0 || c->edge_flat[e] || !on_skeleton(c, p)) return 0;
    const int *ed = c->cedges + 2 * e;
    int n = 0;
    for (int k = c->vert_edge_start[p]; k < c->vert_edge_start[p + 1]; ++k) {
        int a = c->vert_edges[k];
        if (!skeleton_edge(c, a, e0, e1)) continue;
        int ta, tb;
        ee_ends(xc, c->cedges + 2 * a, ed, &ta, &tb);
        n += ta == p && tb < 0;
    }
    return n + (pe_end(xc, p, ed) < 0 ? 1 - edges_apart(c, p, e0, e1) : 0);
}

// The terms of (2) that land on PP (u, w): edge pairs at u and w whose
// closest points are u and w; each edge a at u whose closest point to w is
// u (the term of a and w, counting 1 - E(w) with E(w) apart from a), and
// vice versa; and (1 - E(u)) (1 - E(w)), E apart from the other vertex.
static int skeleton_pp(const ipcc_collision_mesh *c, const double *xc, int u, int w) {
    if (!on_skeleton(c, u) || !on_skeleton(c, w)) return 0;
    int n = 0;
    for (int i = c->vert_edge_start[u]; i < c->vert_edge_start[u + 1]; ++i) {
        int a = c->vert_edges[i];
        if (!skeleton_edge(c, a, w, -1)) continue;
        const int *ad = c->cedges + 2 * a;
        if (pe_end(xc, w, ad) == u) n += 1 - edges_apart(c, w, ad[0], ad[1]);
        for (int j = c->vert_edge_start[w]; j < c->vert_edge_start[w + 1]; ++j) {
            int b = c->vert_edges[j];
            const int *bd = c->cedges + 2 * b;
            if (!skeleton_edge(c, b, u, -1) || edge_has(bd, ad[0]) || edge_has(bd, ad[1])) continue;
            int ta, tb;
            ee_ends(xc, ad, bd, &ta, &tb);
            n += ta == u && tb == w;
        }
    }
    for (int j = c->vert_edge_start[w]; j < c->vert_edge_start[w + 1]; ++j) {
        int b = c->vert_edges[j];
        const int *bd = c->cedges + 2 * b;
        if (skeleton_edge(c, b, u, -1) && pe_end(xc, u, bd) == w) n += 1 - edges_apart(c, u, bd[0], bd[1]);
    }
    return n + (1 - edges_apart(c, u, w, -1)) * (1 - edges_apart(c, w, u, -1));
}

int ipcc_contact_multiplicity(const ipcc_collision_mesh *c, const ipcc_shape *pose, const double *xc,
                              const ipcc_contact_pair *p) {
    const int *v = p->v;
    switch (p->kind) {
    case IPCC_CONTACT_PE: {
        int e = ipcc_collision_mesh_find_edge(c, v[1], v[2]);
        return (c->vert_flat[v[0]] ? 0 : edge_multiplicity(c, xc, xc + 3 * v[0], v[0], e, v[1], v[2])) +
               skeleton_pe(c, xc, v[0], e, v[1], v[2]);
    }
    case IPCC_CONTACT_PP:
        return (c->vert_flat[v[0]] ? 0 : vertex_multiplicity(c, xc, xc + 3 * v[0], v[0], v[1])) +
               (c->vert_flat[v[1]] ? 0 : vertex_multiplicity(c, xc, xc + 3 * v[1], v[1], v[0])) +
               skeleton_pp(c, xc, v[0], v[1]);
    // A sphere is its centre o thickened (constraint_set.c, sphere_pair): o is a
    // point against the body's surface like a vertex, by (1); the body's
    // vertices are points against the sphere besides (PS, 1 each).
    case IPCC_CONTACT_SE:
        return edge_multiplicity(c, xc, pose[v[2]].center, -1, ipcc_collision_mesh_find_edge(c, v[0], v[1]),
                                 v[0], v[1]);
    case IPCC_CONTACT_PS:
        return 1 + (pose[v[1]].kind == IPCC_SHAPE_SPHERE
                        ? vertex_multiplicity(c, xc, pose[v[1]].center, -1, v[0])
                        : 0);
    default: return 1;
    }
}
