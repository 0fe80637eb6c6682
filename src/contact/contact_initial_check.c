// Barrier contact's initial-state check: a simulation may only start from a
// state that is intersection-free with every distance positive (the
// induction hypothesis of contact_ccd.c's argument).
//
// In order: (1) no vertex of a deformable body on or behind a half-space; (2) no edge crossing a
// triangle of another body (or of its own, with self-collision); (3) no
// constraint at zero distance (touching); (4) no collision vertex strictly
// inside another body's volume: this catches what (2) cannot, a point-set
// obstacle point (or a whole obstacle, or a whole body) lying inside a
// body. (4) asks the broad phase for the (point, tet) pairs whose tet box
// holds the point (a BVH over the tets, O((P + T) log T) for P points and T
// tets), keeps those whose barycentric coordinates are all >= -1e-12 (the
// closed tet, up to rounding, so a point on a face, edge or vertex shared by
// tets is never lost between them), and then drops the points within
// min(1e-9 L, d̂) of that body's boundary (found among (3)'s vertex-face
// candidates): a point in a closed tet of B and farther from B's boundary
// than its rounding distance to the tet is in B's interior. Points on the
// surface were refused by (3); points inside by less than min(1e-9 L, d̂)
// are not judged.
//
// Analytic shapes (world_shapes.c) add steps after (1): (1b) no vertex of a
// deformable body on or inside a shape (the exact distance), and no body
// triangle touching or crossing a sphere or a sampled curved shape
// (cylinder, ellipsoid, torus: exact too, shape_primitive.c); (1c) no
// shape inside or through a body: an inner point of the shape (its centre,
// a torus' core circle) and 257 points of its surface must not lie in a
// closed tet of a deformable body.
#include "contact/contact_initial_check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "contact/contact_state.h"
#include "collision/contact_samples.h"
#include "base/core.h"
#include "geometry/distance.h"
#include "shape/shape_primitive.h"
#include "base/vec3.h"

// The name of body b, and collision vertex v's index in its body (as text).
static const char *body_name(const ipcc_contact_setup *w, int b) { return w->mesh.bodies[b].name; }
static void describe_vertex(const ipcc_contact_setup *w, const ipcc_contact *c, int v, char *buf,
                            size_t size) {
    snprintf(buf, size, "%d", c->mesh.cvert[v] - w->mesh.bodies[c->mesh.group[v]].first_vertex);
}

// Segment-triangle crossing test for the initial check. The segment must
// cross the triangle's plane by more than `tol` on both sides (else it is
// coplanar or only touching: the zero-distance check decides those), then
// the three orientations of the segment against the triangle's edges must
// agree in sign (a zero: through an edge or a vertex, counts as crossing).
static double orient3(const double *a, const double *b, const double *cc, const double *d) {
    double u[3], v[3], t[3], vt[3];
    sub3(b, a, u);
    sub3(cc, a, v);
    sub3(d, a, t);
    cross3(v, t, vt);
    return dot3(u, vt);
}

static bool segment_crosses_triangle(const double *p, const double *q, const double *a, const double *b,
                                     const double *cc, double tol) {
    double u[3], v[3], n[3], ap[3], aq[3];
    sub3(b, a, u);
    sub3(cc, a, v);
    cross3(u, v, n);
    double nn = sqrt(dot3(n, n));
    if (!(nn > 0)) return false; // degenerate triangle: left to the distance check
    sub3(p, a, ap);
    sub3(q, a, aq);
    double dp = dot3(n, ap) / nn, dq = dot3(n, aq) / nn;
    if (!((dp > tol && dq < -tol) || (dp < -tol && dq > tol))) return false;
    double s0 = orient3(p, q, a, b), s1 = orient3(p, q, b, cc), s2 = orient3(p, q, cc, a);
    return (s0 >= 0 && s1 >= 0 && s2 >= 0) || (s0 <= 0 && s1 <= 0 && s2 <= 0);
}

// Barycentric coordinates of p in tet (a, b, cc, d) from signed volumes;
// false for a flat tet.
static bool tet_barycentric(const double *p, const double *a, const double *b, const double *cc,
                            const double *d, double l[4]) {
    double v = orient3(a, b, cc, d);
    if (!(v != 0)) return false;
    l[0] = orient3(p, b, cc, d) / v;
    l[1] = orient3(a, p, cc, d) / v;
    l[2] = orient3(a, b, p, d) / v;
    l[3] = orient3(a, b, cc, p) / v;
    return true;
}

// Some (vertex v, face) pair of the current vertex-face candidates has a
// face of body `body` within squared distance tol2 of v. The candidates are
// sorted by vertex.
static bool near_body_surface(const ipcc_contact *c, const double *xc, int v, int body, double tol2) {
    const int *vf = c->cand.vf;
    int lo = 0, hi = c->cand.num_vf;
    while (lo < hi) { // first pair with vertex >= v
        int mid = lo + (hi - lo) / 2;
        if (vf[2 * mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (int k = lo; k < c->cand.num_vf && vf[2 * k] == v; ++k) {
        const int *t = c->mesh.cfaces + 3 * vf[2 * k + 1];
        if (c->mesh.group[t[0]] != body) continue;
        const double *p = xc + 3 * v, *t0 = xc + 3 * t[0], *t1 = xc + 3 * t[1], *t2 = xc + 3 * t[2];
        if (ipcc_point_triangle_distance(p, t0, t1, t2,
                                         ipcc_point_triangle_distance_type_of(p, t0, t1, t2)) <= tol2)
            return true;
    }
    return false;
}

// Step (4) of the initial check (see the preamble). Needs the vertex-face
// candidates within d̂ at w->positions in c->cand.
static ipcc_status check_points_inside(ipcc_contact *c, const ipcc_contact_setup *w, const char *what) {
    if (w->num_tets == 0 || c->mesh.nc == 0) return IPCC_OK;
    int *pairs = NULL, np = 0, cap = 0;
    ipcc_status st =
        ipcc_broad_phase_point_tet_query(c->bp, w->mesh.num_vertices, w->positions, c->mesh.nc, c->mesh.cvert,
                                         c->mesh.group, w->num_tets, w->tets, w->tet_body, &pairs, &np, &cap);
    double tol = fmin(1e-9 * c->L, c->dhat);
    for (int k = 0; st == IPCC_OK && k < np; ++k) {
        int v = pairs[2 * k], t = pairs[2 * k + 1], body = w->tet_body[t];
        const int *T = w->tets + 4 * t;
        double l[4];
        if (!tet_barycentric(c->xc + 3 * v, w->positions + 3 * T[0], w->positions + 3 * T[1],
                             w->positions + 3 * T[2], w->positions + 3 * T[3], l) ||
            !(l[0] >= -1e-12 && l[1] >= -1e-12 && l[2] >= -1e-12 && l[3] >= -1e-12))
            continue;
        if (near_body_surface(c, c->xc, v, body, tol * tol)) continue;
        const ipcc_collision_body *pb = &w->mesh.bodies[c->mesh.group[v]];
        int index = c->mesh.cvert[v] - pb->first_vertex;
        st = ipcc_fail(IPCC_ERR_INFEASIBLE, "%s: %s \"%s\" %s %d lies inside body \"%s\" (in its tet %d)",
                       what, pb->kinematic ? "obstacle" : "body", pb->name,
                       c->mesh.point_set[c->mesh.group[v]] ? "point" : "vertex", index, body_name(w, body),
                       t - w->mesh.bodies[body].first_tet);
    }
    free(pairs);
    return st;
}

// Step (1c) of the initial check: an inner point of the shape (its centre,
// or for a torus a point of its core circle) and 257 points of its
// surface (the closest points to a Fibonacci sphere of directions around
// it, radius twice the bounding radius) must not lie in a closed tet of a
// deformable body. With (1b) this refuses a shape inside a body, or through
// it, unless it slips between all those points and every body vertex.
// Distance from p to the nearest surface triangle of body b (collision
// faces), for a shape point found inside one of b's tets between steps.
static double body_surface_distance(const ipcc_contact *c, int b, const double p[3]) {
    double best = INFINITY;
    for (int f = 0; f < c->mesh.nf; ++f) {
        const int *T = c->mesh.cfaces + 3 * f;
        if (c->mesh.group[T[0]] != b) continue;
        const double *t0 = c->xc + 3 * T[0], *t1 = c->xc + 3 * T[1], *t2 = c->xc + 3 * T[2];
        best = fmin(best, ipcc_point_triangle_distance(p, t0, t1, t2,
                                                       ipcc_point_triangle_distance_type_of(p, t0, t1, t2)));
    }
    return sqrt(best);
}

static ipcc_status check_shapes_inside(const ipcc_contact *c, const ipcc_contact_setup *w, const char *what,
                                       bool between_steps) {
    const int samples = 257;
    const double golden = 2.399963229728653; // pi (3 - sqrt 5)
    for (int i = 0; i < c->obstacles.num_shapes; ++i) {
        const ipcc_shape *s = &c->pose[i];
        // A plane's free side is a half-space, convex: with every vertex on
        // it (1b), every tet is too. A height field has no inner point
        // either (unbounded): a bump poking into a tet between its vertices
        // is not refused, as its barrier acts on vertices (README, Limits).
        if (s->kind == IPCC_SHAPE_PLANE || s->kind == IPCC_SHAPE_HEIGHT_FIELD) continue;
        const double budget = c->shape_sampled[i] ? ipcc_contact_sample_depth(s, c->dhat) : 0;
        double R = ipcc_shape_bounding_radius(s), lo[3], hi[3];
        for (int k = 0; k < 3; ++k) {
            lo[k] = s->center[k] - R;
            hi[k] = s->center[k] + R;
        }
        for (int t = 0; t < w->num_tets; ++t) {
            const int *T = w->tets + 4 * t;
            bool apart = false;
            for (int k = 0; k < 3 && !apart; ++k) {
                double a = w->positions[3 * T[0] + k], b = a;
                for (int j = 1; j < 4; ++j) {
                    a = fmin(a, w->positions[3 * T[j] + k]);
                    b = fmax(b, w->positions[3 * T[j] + k]);
                }
                apart = b < lo[k] || a > hi[k];
            }
            if (apart) continue;
            for (int j = 0; j <= samples; ++j) {
                double y[3];
                if (j == samples) { // an inner point: the centre (a torus: a point of its core circle)
                    double q[3] = {s->kind == IPCC_SHAPE_TORUS ? s->size[0] : 0, 0, 0};
                    ipcc_shape_to_world(s, q, y);
                } else {
                    double z = 1 - 2 * (j + 0.5) / samples, r = sqrt(1 - z * z), a = golden * j;
                    double q[3] = {s->center[0] + 2 * R * r * cos(a), s->center[1] + 2 * R * r * sin(a),
                                   s->center[2] + 2 * R * z};
                    ipcc_shape_distance(s, q, y, NULL);
                }
                double l[4];
                if (tet_barycentric(y, w->positions + 3 * T[0], w->positions + 3 * T[1],
                                    w->positions + 3 * T[2], w->positions + 3 * T[3], l) &&
                    l[0] >= 0 && l[1] >= 0 && l[2] >= 0 && l[3] >= 0) {
                    int b = w->tet_body[t];
                    // Between steps a sampled curved shape's surface may lie
                    // within the depth budget inside a body (1b').
                    if (between_steps && j < samples && budget > 0 &&
                        body_surface_distance(c, b, y) <= budget)
                        continue;
                    return ipcc_fail(IPCC_ERR_INFEASIBLE,
                                     "%s: %s \"%s\" is inside body \"%s\" (a point of its %s lies in tet %d)",
                                     what, ipcc_shape_kind_name(c->pose[i].kind), w->shape_defs[i].name,
                                     body_name(w, b), j == samples ? "inside" : "surface",
                                     t - w->mesh.bodies[b].first_tet);
                }
            }
        }
    }
    return IPCC_OK;
}

ipcc_status ipcc_contact_check_state(ipcc_contact *c, const ipcc_contact_setup *w, const char *what,
                                     bool between_steps) {
    for (int i = 0; i < c->obstacles.num_shapes; ++i)
        c->pose[i] = w->shape_poses[i];
    ipcc_collision_mesh_gather(&c->mesh, w->positions, c->xc);
    char va[32], vb[32], vc[32], vd[32];
    // 1. Vertices on or behind a half-space.
    for (int h = 0; h < c->obstacles.num_planes; ++h)
        for (int v = 0; v < c->mesh.nc; ++v)
            if (ipcc_collision_vertex_free(&c->mesh, v) &&
                !(ipcc_contact_plane_signed(c->planes + 6 * h, c->xc + 3 * v) > 0)) {
                describe_vertex(w, c, v, va, sizeof va);
                const char *name = w->half_space_names ? w->half_space_names[h] : NULL;
                if (name)
                    return ipcc_fail(IPCC_ERR_INFEASIBLE,
                                     "%s: body \"%s\" touches or crosses half-space \"%s\" (vertex %s)", what,
                                     body_name(w, c->mesh.group[v]), name, va);
                return ipcc_fail(IPCC_ERR_INFEASIBLE,
                                 "%s: body \"%s\" touches or crosses half-space %d (vertex %s)", what,
                                 body_name(w, c->mesh.group[v]), h, va);
            }
    // 1b. Vertices on or inside a shape.
    ipcc_status st0;
    for (int i = 0; i < c->obstacles.num_shapes; ++i)
        for (int v = 0; v < c->mesh.nc; ++v)
            if (ipcc_collision_vertex_free(&c->mesh, v) &&
                !(ipcc_shape_distance(&c->pose[i], c->xc + 3 * v, NULL, NULL) > 0)) {
                describe_vertex(w, c, v, va, sizeof va);
                return ipcc_fail(IPCC_ERR_INFEASIBLE,
                                 "%s: body \"%s\" touches or is inside %s \"%s\" (vertex %s)", what,
                                 body_name(w, c->mesh.group[v]), ipcc_shape_kind_name(c->pose[i].kind),
                                 w->shape_defs[i].name, va);
            }
    // 1b'. Spheres and sampled curved shapes are exact against whole
    // triangles (their CCD is, contact_ccd.c): none may touch or cross one
    // (the least distance over the triangle, shape_primitive.c, after the
    // bounding-sphere cull). Between steps a face may rest up to the CCD's
    // depth budget inside a sampled curved shape (contact_samples.h): it
    // must stay out of the inset shape, as every step keeps it.
    for (int i = 0; i < c->obstacles.num_shapes; ++i) {
        const ipcc_shape *s = &c->pose[i];
        if (s->kind != IPCC_SHAPE_SPHERE && !(ipcc_shape_bounds_faces(s->kind) && c->shape_sampled[i]))
            continue;
        const double *o = s->center;
        for (int f = 0; f < c->mesh.nf; ++f) {
            const int *T = c->mesh.cfaces + 3 * f;
            if (!ipcc_collision_vertex_free(&c->mesh, T[0])) continue;
            const double *t0 = c->xc + 3 * T[0], *t1 = c->xc + 3 * T[1], *t2 = c->xc + 3 * T[2];
            double d = ipcc_point_triangle_distance(o, t0, t1, t2,
                                                    ipcc_point_triangle_distance_type_of(o, t0, t1, t2));
            if (sqrt(d) > c->shape_radius[i]) continue;
            if (s->kind != IPCC_SHAPE_SPHERE) {
                double wt[3], phi;
                ipcc_shape inset = *s;
                if (between_steps) ipcc_shape_inset(&inset, ipcc_contact_sample_depth(s, c->dhat));
                ipcc_shape_triangle_closest(&inset, t0, t1, t2, wt, &phi);
                if (phi > 0) continue;
            }
            describe_vertex(w, c, T[0], va, sizeof va);
            describe_vertex(w, c, T[1], vb, sizeof vb);
            describe_vertex(w, c, T[2], vc, sizeof vc);
            return ipcc_fail(IPCC_ERR_INFEASIBLE,
                             "%s: triangle (%s, %s, %s) of body \"%s\" touches or crosses %s \"%s\"%s", what,
                             va, vb, vc, body_name(w, c->mesh.group[T[0]]), ipcc_shape_kind_name(s->kind),
                             w->shape_defs[i].name,
                             between_steps && s->kind != IPCC_SHAPE_SPHERE ? " deeper than 0.5 d̂" : "");
        }
    }
    // 1c. A shape inside or through a body without touching a vertex.
    st0 = check_shapes_inside(c, w, what, between_steps);
    if (st0 != IPCC_OK) return st0;
    // 2. Edges crossing triangles.
    ipcc_status st = ipcc_contact_query(c, c->xc, NULL, 0.0, IPCC_CANDIDATES_EF);
    if (st != IPCC_OK) return st;
    for (int k = 0; k < c->cand.num_ef; ++k) {
        int e = c->cand.ef[2 * k], f = c->cand.ef[2 * k + 1];
        const int *E = c->mesh.cedges + 2 * e, *F = c->mesh.cfaces + 3 * f;
        if (segment_crosses_triangle(c->xc + 3 * E[0], c->xc + 3 * E[1], c->xc + 3 * F[0], c->xc + 3 * F[1],
                                     c->xc + 3 * F[2], 1e-12 * c->L)) {
            describe_vertex(w, c, E[0], va, sizeof va);
            describe_vertex(w, c, E[1], vb, sizeof vb);
            describe_vertex(w, c, F[0], vc, sizeof vc);
            describe_vertex(w, c, F[1], vd, sizeof vd);
            char ve[32];
            describe_vertex(w, c, F[2], ve, sizeof ve);
            return ipcc_fail(IPCC_ERR_INFEASIBLE,
                             "%s: bodies \"%s\" and \"%s\" intersect: edge (%s, %s) of \"%s\" crosses "
                             "triangle (%s, %s, %s) of \"%s\"",
                             what, body_name(w, c->mesh.group[E[0]]), body_name(w, c->mesh.group[F[0]]), va,
                             vb, body_name(w, c->mesh.group[E[0]]), vc, vd, ve,
                             body_name(w, c->mesh.group[F[0]]));
        }
    }
    // 3. Touching pairs (zero distance).
    st = ipcc_contact_query(c, c->xc, NULL, c->dhat, IPCC_CANDIDATES_VF | IPCC_CANDIDATES_EE);
    if (st != IPCC_OK) return st;
    st = ipcc_contact_build_set(c, c->xc);
    if (st != IPCC_OK) return st;
    for (int k = 0; k < c->set.np; ++k) {
        const ipcc_contact_pair *p = &c->set.pairs[k];
        if (ipcc_contact_pair_distance(&c->obstacles, p, c->xc) > 0) continue;
        // Half-spaces and shapes (PH, PS, ST, SE) were refused by (1) and (1b).
        if (p->kind != IPCC_CONTACT_PP && p->kind != IPCC_CONTACT_PE && p->kind != IPCC_CONTACT_PT &&
            !ipcc_contact_kind_edge_edge(p->kind))
            continue;
        describe_vertex(w, c, p->v[0], va, sizeof va);
        int other =
            ipcc_contact_kind_edge_edge(p->kind) ? p->v[2] : p->v[1]; // the second primitive's first vertex
        return ipcc_fail(IPCC_ERR_INFEASIBLE,
                         "%s: bodies \"%s\" and \"%s\" touch (zero distance) at vertex %s of \"%s\"", what,
                         body_name(w, c->mesh.group[p->v[0]]), body_name(w, c->mesh.group[other]), va,
                         body_name(w, c->mesh.group[p->v[0]]));
    }
    // 4. Points inside a body (uses the vertex-face candidates of 3).
    return check_points_inside(c, w, what);
}

ipcc_status ipcc_contact_check(ipcc_contact *c, const ipcc_contact_setup *def, const char *what) {
    c->cand_valid = false; // the candidates are now those of the checked state
    return ipcc_contact_check_state(c, def, what, true);
}
