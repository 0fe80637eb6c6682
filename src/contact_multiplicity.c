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
// sum over the same keyed constraints as before (contact.c) with integer
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
// counting the edges of the term. An edge-edge interior key counts 1; a
// point-edge key (u, b) adds the edges at u whose closest points are u and
// b's interior, plus 1 - E(u) when b's closest point to u is inside it (so 1
// at a convex vertex u, whose edges all reach b at u); a point-point key
// (u, w) the products likewise (1 at two convex vertices). Vertices of
// point sets have no edges and no terms of (2). Nearly parallel pairs stay
// EE keys with IPC's mollifier, which meet their unmollified terms
// continuously, and are not counted again. Half-spaces and analytic shapes
// count once. A key with multiplicity 0 is
// dropped; a negative one (a concave valley) is kept: its energy and
// gradient enter with their sign, its Hessian is projected to PSD after the
// sign is applied (so it contributes nothing where b is convex).
//
// Flat features of obstacles (edge_is_flat): an obstacle's edges and
// vertices inside a planar region are not features: no terms of (2), and
// the vertices are no points of (1) (but still cells of the surface other
// points meet).
//
// Topology: per collision vertex its edges and faces, per edge its faces
// (CSR, built once by ipcc_contact_build_adjacency).
#include "contact_internal.h"

#include <stdlib.h>

#include "core.h"
#include "distance.h"
#include "vec3.h"

// Counting sort of (key, value) pairs into CSR start (n + 1) / items.
static int csr(int n, int count, const int *key, const int *value, int **start_out, int **items_out) {
    int *start = calloc((size_t)n + 2, sizeof(int)), *items = malloc(sizeof(int) * (size_t)(count + 1));
    if (!start || !items) {
        free(start);
        free(items);
        return -1;
    }
    for (int k = 0; k < count; ++k)
        start[key[k] + 2]++;
    for (int i = 0; i < n; ++i)
        start[i + 2] += start[i + 1];
    for (int k = 0; k < count; ++k)
        items[start[key[k] + 1]++] = value[k];
    *start_out = start;
    *items_out = items;
    return 0;
}

// The edge (a, b) in either order, or -1.
static int find_edge(const ipcc_contact *c, int a, int b) {
    for (int k = c->vert_edge_start[a]; k < c->vert_edge_start[a + 1]; ++k) {
        int e = c->vert_edges[k];
        const int *ev = c->cedges + 2 * e;
        if ((ev[0] == a && ev[1] == b) || (ev[0] == b && ev[1] == a)) return e;
    }
    return -1;
}

// Edge e of an obstacle is inside a planar region: exactly two faces, in
// one plane, on opposite sides of it (at rest; obstacles move rigidly, so
// for ever). Such an edge is no feature of the surface: an edge of another
// body cannot reach it without first coming within the same distance of
// its faces' plane, where that body's vertices and its own faces' points
// (point-triangle terms in both directions) already act, so it gets no
// edge-edge terms (contact.c, ee_pair). This is the internal-edge rule of
// rigid-body engines for triangle meshes, which IPC lacks.
static bool edge_is_flat(const ipcc_contact *c, int e) {
    const int *ed = c->cedges + 2 * e;
    if (!c->kinematic[c->group[ed[0]]]) return false;
    if (c->edge_face_start[e + 1] - c->edge_face_start[e] != 2) return false;
    const double *a = c->rest + 3 * ed[0], *b = c->rest + 3 * ed[1];
    double u[3], n[2][3], side[2][3];
    sub3(b, a, u);
    for (int k = 0; k < 2; ++k) {
        const int *t = c->cfaces + 3 * c->edge_faces[c->edge_face_start[e] + k];
        int o = t[0] != ed[0] && t[0] != ed[1] ? t[0] : t[1] != ed[0] && t[1] != ed[1] ? t[1] : t[2];
        double r[3];
        sub3(c->rest + 3 * o, a, r);
        cross3(u, r, n[k]);       // the face's normal, oriented by the edge
        cross3(n[k], u, side[k]); // towards the face's opposite vertex, in its plane
    }
    double m[3];
    cross3(n[0], n[1], m);
    double n0 = dot3(n[0], n[0]), n1 = dot3(n[1], n[1]);
    bool coplanar = dot3(m, m) <= IPCC_DISTANCE_DEGENERATE_SIN2 * n0 * n1;
    return n0 > 0 && n1 > 0 && coplanar && dot3(side[0], side[1]) < 0;
}

int ipcc_contact_build_adjacency(ipcc_contact *c) {
    int ne = c->ne, nf = c->nf, nc = c->nc;
    int m = 3 * nf > 2 * ne ? 3 * nf : 2 * ne;
    int *key = malloc(sizeof(int) * (size_t)(m + 1)), *value = malloc(sizeof(int) * (size_t)(m + 1));
    int rc = key && value ? 0 : -1;
    for (int k = 0; rc == 0 && k < 2 * ne; ++k) {
        key[k] = c->cedges[k];
        value[k] = k / 2;
    }
    if (rc == 0) rc = csr(nc, 2 * ne, key, value, &c->vert_edge_start, &c->vert_edges);
    for (int k = 0; rc == 0 && k < 3 * nf; ++k) {
        key[k] = c->cfaces[k];
        value[k] = k / 3;
    }
    if (rc == 0) rc = csr(nc, 3 * nf, key, value, &c->vert_face_start, &c->vert_faces);
    int count = 0;
    for (int f = 0; rc == 0 && f < nf; ++f)
        for (int j = 0; j < 3; ++j) {
            int e = find_edge(c, c->cfaces[3 * f + j], c->cfaces[3 * f + (j + 1) % 3]);
            if (e < 0) continue; // every face edge is a collision edge (world.c); tolerate otherwise
            key[count] = e;
            value[count++] = f;
        }
    if (rc == 0) rc = csr(ne, count, key, value, &c->edge_face_start, &c->edge_faces);
    free(key);
    free(value);
    if (rc == 0) rc = (c->edge_flat = calloc((size_t)ne + 1, 1)) ? 0 : -1;
    for (int e = 0; rc == 0 && e < ne; ++e)
        c->edge_flat[e] = edge_is_flat(c, e);
    if (rc == 0) rc = (c->vert_flat = calloc((size_t)nc + 1, 1)) ? 0 : -1;
    for (int v = 0; rc == 0 && v < nc; ++v) {
        // Every edge at v flat, as many faces as edges (a closed fan): a planar disk around v.
        int ev = c->vert_edge_start[v + 1] - c->vert_edge_start[v];
        bool flat = ev >= 3 && ev == c->vert_face_start[v + 1] - c->vert_face_start[v];
        for (int k = c->vert_edge_start[v]; flat && k < c->vert_edge_start[v + 1]; ++k)
            flat = c->edge_flat[c->vert_edges[k]];
        c->vert_flat[v] = flat;
    }
    return rc;
}

void ipcc_contact_free_adjacency(ipcc_contact *c) {
    free(c->vert_edge_start);
    free(c->vert_edges);
    free(c->vert_face_start);
    free(c->vert_faces);
    free(c->edge_face_start);
    free(c->edge_faces);
    free(c->edge_flat);
    free(c->vert_flat);
}

static bool face_has(const int *t, int v) { return t[0] == v || t[1] == v || t[2] == v; }

// The closest feature of face f to point p is the interior of its edge (a, b).
static bool face_closest_is_edge(const ipcc_contact *c, const double *xc, const double *p, int f, int a,
                                 int b) {
    const int *t = c->cfaces + 3 * f;
    ipcc_point_triangle_distance_type type =
        ipcc_point_triangle_distance_type_of(p, xc + 3 * t[0], xc + 3 * t[1], xc + 3 * t[2]);
    if (type < IPCC_PT_P_E0 || type > IPCC_PT_P_E2) return false;
    int j = type - IPCC_PT_P_E0, q0 = t[j], q1 = t[(j + 1) % 3];
    return (q0 == a && q1 == b) || (q0 == b && q1 == a);
}

// Faces at edge e without vertex u (F(e) of (1)).
static int edge_faces_without(const ipcc_contact *c, int e, int u) {
    int n = 0;
    for (int k = c->edge_face_start[e]; k < c->edge_face_start[e + 1]; ++k)
        n += !face_has(c->cfaces + 3 * c->edge_faces[k], u);
    return n;
}

// PE (u, a, b), e = (a, b): n_f(u, e) + 1 - F(e), for the point p at vertex
// u (or a sphere's centre p, u = -1).
static int edge_multiplicity(const ipcc_contact *c, const double *xc, const double *p, int u, int e, int a,
                             int b) {
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
static int vertex_multiplicity(const ipcc_contact *c, const double *xc, const double *p, int u, int v) {
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
static bool skeleton_edge(const ipcc_contact *c, int e, int x, int y) {
    const int *ed = c->cedges + 2 * e;
    return !c->edge_flat[e] && !edge_has(ed, x) && (y < 0 || !edge_has(ed, y));
}

// Edges a, b are nearly parallel: their term is a mollified EE key of its
// own (contact.c, ee_pair), which meets the unmollified term continuously.
static bool mollified(const ipcc_contact *c, const double *xc, const int *a, const int *b) {
    double eps_x = ipcc_edge_edge_mollifier_threshold(c->rest + 3 * a[0], c->rest + 3 * a[1],
                                                      c->rest + 3 * b[0], c->rest + 3 * b[1]);
    return ipcc_edge_edge_cross_squarednorm(xc + 3 * a[0], xc + 3 * a[1], xc + 3 * b[0], xc + 3 * b[1]) <
           eps_x;
}

// The vertices of edges a and b (as stored) that the closest-feature type
// of their distance names (-1 for an interior).
static void ee_ends(const double *xc, const int *a, const int *b, int *ta, int *tb) {
    ipcc_edge_edge_distance_type t =
        ipcc_edge_edge_distance_type_of(xc + 3 * a[0], xc + 3 * a[1], xc + 3 * b[0], xc + 3 * b[1]);
    switch (t) {
    case IPCC_EE_EA0_EB0: *ta = a[0], *tb = b[0]; return;
    case IPCC_EE_EA0_EB1: *ta = a[0], *tb = b[1]; return;
    case IPCC_EE_EA1_EB0: *ta = a[1], *tb = b[0]; return;
    case IPCC_EE_EA1_EB1: *ta = a[1], *tb = b[1]; return;
    case IPCC_EE_EA_EB0: *ta = -1, *tb = b[0]; return;
    case IPCC_EE_EA_EB1: *ta = -1, *tb = b[1]; return;
    case IPCC_EE_EA0_EB: *ta = a[0], *tb = -1; return;
    case IPCC_EE_EA1_EB: *ta = a[1], *tb = -1; return;
    case IPCC_EE_EA_EB: *ta = *tb = -1; return;
    }
}

// The vertex of edge e (as stored) closest to point p, or -1 for its interior.
static int pe_end(const double *xc, int p, const int *e) {
    ipcc_point_edge_distance_type t =
        ipcc_point_edge_distance_type_of(xc + 3 * p, xc + 3 * e[0], xc + 3 * e[1]);
    return t == IPCC_PE_P_E0 ? e[0] : t == IPCC_PE_P_E1 ? e[1] : -1;
}

// The terms of (2) that land on PE (p, e0, e1): the edges a at p whose
// closest points to e are p and e's interior, and (1 - E(p)) once if e's
// closest point to p is inside it.
static int skeleton_pe(const ipcc_contact *c, const double *xc, int p, int e, int e0, int e1) {
    if (e < 0 || c->edge_flat[e]) return 0;
    const int *ed = c->cedges + 2 * e;
    int n = 0, ep = 0;
    for (int k = c->vert_edge_start[p]; k < c->vert_edge_start[p + 1]; ++k) {
        int a = c->vert_edges[k];
        if (!skeleton_edge(c, a, e0, e1)) continue;
        ep++;
        const int *ad = c->cedges + 2 * a;
        if (mollified(c, xc, ad, ed)) continue;
        int ta, tb;
        ee_ends(xc, ad, ed, &ta, &tb);
        n += ta == p && tb < 0;
    }
    if (ep == 0) return 0; // p is on no 1-skeleton (a point set's vertex, or a planar region's)
    return n + (pe_end(xc, p, ed) < 0 ? 1 - ep : 0);
}

// The terms of (2) that land on PP (u, w): edge pairs at u and w whose
// closest points are u and w, the edges at w whose closest point to u is w
// (times 1 - E(u)) and vice versa, and (1 - E(u)) (1 - E(w)).
static int skeleton_pp(const ipcc_contact *c, const double *xc, int u, int w) {
    int eu = 0, ew = 0, n = 0;
    for (int k = c->vert_edge_start[u]; k < c->vert_edge_start[u + 1]; ++k)
        eu += skeleton_edge(c, c->vert_edges[k], w, -1);
    for (int k = c->vert_edge_start[w]; k < c->vert_edge_start[w + 1]; ++k)
        ew += skeleton_edge(c, c->vert_edges[k], u, -1);
    if (eu == 0 || ew == 0) return 0;
    for (int i = c->vert_edge_start[u]; i < c->vert_edge_start[u + 1]; ++i) {
        int a = c->vert_edges[i];
        if (!skeleton_edge(c, a, w, -1)) continue;
        const int *ad = c->cedges + 2 * a;
        if (pe_end(xc, w, ad) == u) n += 1 - ew;
        for (int j = c->vert_edge_start[w]; j < c->vert_edge_start[w + 1]; ++j) {
            int b = c->vert_edges[j];
            const int *bd = c->cedges + 2 * b;
            if (!skeleton_edge(c, b, u, -1) || edge_has(bd, ad[0]) || edge_has(bd, ad[1])) continue;
            if (mollified(c, xc, ad, bd)) continue;
            int ta, tb;
            ee_ends(xc, ad, bd, &ta, &tb);
            n += ta == u && tb == w;
        }
    }
    for (int j = c->vert_edge_start[w]; j < c->vert_edge_start[w + 1]; ++j) {
        int b = c->vert_edges[j];
        if (skeleton_edge(c, b, u, -1) && pe_end(xc, u, c->cedges + 2 * b) == w) n += 1 - eu;
    }
    return n + (1 - eu) * (1 - ew);
}

int ipcc_contact_multiplicity(const ipcc_contact *c, const double *xc, const contact_pair *p) {
    const int *v = p->v;
    switch (p->kind) {
    case IPCC_CONTACT_PE: {
        int e = find_edge(c, v[1], v[2]);
        return (c->vert_flat[v[0]] ? 0 : edge_multiplicity(c, xc, xc + 3 * v[0], v[0], e, v[1], v[2])) +
               skeleton_pe(c, xc, v[0], e, v[1], v[2]);
    }
    case IPCC_CONTACT_PP:
        return (c->vert_flat[v[0]] ? 0 : vertex_multiplicity(c, xc, xc + 3 * v[0], v[0], v[1])) +
               (c->vert_flat[v[1]] ? 0 : vertex_multiplicity(c, xc, xc + 3 * v[1], v[1], v[0])) +
               skeleton_pp(c, xc, v[0], v[1]);
    // A sphere is its centre o thickened (contact.c, sphere_pair): o is a
    // point against the body's surface like a vertex, by (1); the body's
    // vertices are points against the sphere besides (PS, 1 each).
    case IPCC_CONTACT_SE:
        return edge_multiplicity(c, xc, c->pose[v[2]].center, -1, find_edge(c, v[0], v[1]), v[0], v[1]);
    case IPCC_CONTACT_PS:
        return 1 + (c->pose[v[1]].kind == IPCC_SHAPE_SPHERE
                        ? vertex_multiplicity(c, xc, c->pose[v[1]].center, -1, v[0])
                        : 0);
    default: return 1;
    }
}
