// The collision mesh of barrier contact (IPC, Li et al. 2020, Sec. 4).
//
// Every body contributes its boundary triangles and edges (deformable bodies
// from their tet mesh, obstacles as read). Vertices on any of them are the
// "collision vertices" c = 0..nc-1; cvert[c] is the world vertex. Group =
// body. Pairs inside one body are kept only when self-collision is on;
// pairs between two obstacles never exist (the broad phase reads both rules
// from `topo`). Codimensional obstacles need nothing special: a segment
// set's edges are edges (edge-edge against bodies' edges, and their
// endpoints are points against bodies' triangles), and every vertex of a
// point set (an obstacle with no face and no edge) is a collision vertex,
// so it meets bodies' triangles as a point (PT, or PE / PP at their edges
// and corners).
//
// Adjacency. Per collision vertex its edges and faces, per edge its faces,
// as CSR arrays built once by counting sort: the inclusion-exclusion
// multiplicities (contact_multiplicity.c) read them.
//
// Flat features (edge_is_flat). An obstacle's edge with exactly two faces,
// in one plane, on opposite sides of it (at rest; obstacles move rigidly,
// so for ever) is no feature of the surface: an edge of another body cannot
// reach it without first coming within the same distance of its faces'
// plane, where that body's vertices and its own faces' points
// (point-triangle terms in both directions) already act, so it gets no
// edge-edge terms (constraint_set.c). A vertex all of whose edges are flat,
// with as many faces as edges (a closed fan: a planar disk around it), is
// no point either. This is the internal-edge rule of rigid-body engines for
// triangle meshes, which IPC lacks.
//
// Failure: only out of memory, reported as IPCC_ERR_NO_MEMORY.
#include "collision/collision_mesh.h"

#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "geometry/distance.h"
#include "base/vec3.h"

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

int ipcc_collision_mesh_find_edge(const ipcc_collision_mesh *m, int a, int b) {
    for (int k = m->vert_edge_start[a]; k < m->vert_edge_start[a + 1]; ++k) {
        int e = m->vert_edges[k];
        const int *ev = m->cedges + 2 * e;
        if ((ev[0] == a && ev[1] == b) || (ev[0] == b && ev[1] == a)) return e;
    }
    return -1;
}

// Edge e of an obstacle is inside a planar region (see the preamble).
static bool edge_is_flat(const ipcc_collision_mesh *m, int e) {
    const int *ed = m->cedges + 2 * e;
    if (!m->kinematic[m->group[ed[0]]]) return false;
    if (m->edge_face_start[e + 1] - m->edge_face_start[e] != 2) return false;
    const double *a = m->rest + 3 * ed[0], *b = m->rest + 3 * ed[1];
    double u[3], n[2][3], side[2][3];
    sub3(b, a, u);
    for (int k = 0; k < 2; ++k) {
        const int *t = m->cfaces + 3 * m->edge_faces[m->edge_face_start[e] + k];
        int o = t[0] != ed[0] && t[0] != ed[1] ? t[0] : t[1] != ed[0] && t[1] != ed[1] ? t[1] : t[2];
        double r[3];
        sub3(m->rest + 3 * o, a, r);
        cross3(u, r, n[k]);       // the face's normal, oriented by the edge
        cross3(n[k], u, side[k]); // towards the face's opposite vertex, in its plane
    }
    double c[3];
    cross3(n[0], n[1], c);
    double n0 = dot3(n[0], n[0]), n1 = dot3(n[1], n[1]);
    bool coplanar = dot3(c, c) <= IPCC_DISTANCE_DEGENERATE_SIN2 * n0 * n1;
    return n0 > 0 && n1 > 0 && coplanar && dot3(side[0], side[1]) < 0;
}

// The vertex-edge, vertex-face and edge-face adjacency, then the flat features.
static int build_adjacency(ipcc_collision_mesh *m) {
    int ne = m->ne, nf = m->nf, nc = m->nc;
    int count = 3 * nf > 2 * ne ? 3 * nf : 2 * ne;
    int *key = malloc(sizeof(int) * (size_t)(count + 1)), *value = malloc(sizeof(int) * (size_t)(count + 1));
    int rc = key && value ? 0 : -1;
    for (int k = 0; rc == 0 && k < 2 * ne; ++k) {
        key[k] = m->cedges[k];
        value[k] = k / 2;
    }
    if (rc == 0) rc = csr(nc, 2 * ne, key, value, &m->vert_edge_start, &m->vert_edges);
    for (int k = 0; rc == 0 && k < 3 * nf; ++k) {
        key[k] = m->cfaces[k];
        value[k] = k / 3;
    }
    if (rc == 0) rc = csr(nc, 3 * nf, key, value, &m->vert_face_start, &m->vert_faces);
    count = 0;
    for (int f = 0; rc == 0 && f < nf; ++f)
        for (int j = 0; j < 3; ++j) {
            int e = ipcc_collision_mesh_find_edge(m, m->cfaces[3 * f + j], m->cfaces[3 * f + (j + 1) % 3]);
            if (e < 0) continue; // every face edge is a collision edge (world_bodies.c); tolerate otherwise
            key[count] = e;
            value[count++] = f;
        }
    if (rc == 0) rc = csr(ne, count, key, value, &m->edge_face_start, &m->edge_faces);
    free(key);
    free(value);
    if (rc == 0) rc = (m->edge_flat = calloc((size_t)ne + 1, 1)) ? 0 : -1;
    for (int e = 0; rc == 0 && e < ne; ++e)
        m->edge_flat[e] = edge_is_flat(m, e);
    if (rc == 0) rc = (m->vert_flat = calloc((size_t)nc + 1, 1)) ? 0 : -1;
    for (int v = 0; rc == 0 && v < nc; ++v) {
        int ev = m->vert_edge_start[v + 1] - m->vert_edge_start[v];
        bool flat = ev >= 3 && ev == m->vert_face_start[v + 1] - m->vert_face_start[v];
        for (int k = m->vert_edge_start[v]; flat && k < m->vert_edge_start[v + 1]; ++k)
            flat = m->edge_flat[m->vert_edges[k]];
        m->vert_flat[v] = flat;
    }
    return rc;
}

ipcc_status ipcc_collision_mesh_build(ipcc_collision_mesh *m, const ipcc_collision_mesh_def *def) {
    memset(m, 0, sizeof *m);
    int n = def->num_vertices, nb = def->num_bodies;
    int *map = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    m->point_set = calloc((size_t)nb + 1, 1);
    if (!map || !m->point_set) {
        free(map);
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "contact: out of memory");
    }
    for (int i = 0; i < n; ++i)
        map[i] = -1;
    for (int k = 0; k < 3 * def->num_faces; ++k)
        map[def->faces[k]] = 1;
    for (int k = 0; k < 2 * def->num_edges; ++k)
        map[def->edges[k]] = 1;
    // Point-set obstacles: no face and no edge, so every vertex is a point.
    for (int b = 0; b < nb; ++b) {
        const ipcc_collision_body *body = &def->bodies[b];
        if (!body->kinematic || body->num_faces > 0) continue;
        bool on_edge = false;
        for (int i = body->first_vertex; i < body->first_vertex + body->num_vertices && !on_edge; ++i)
            on_edge = map[i] > 0;
        if (on_edge) continue;
        m->point_set[b] = 1;
        for (int i = body->first_vertex; i < body->first_vertex + body->num_vertices; ++i)
            map[i] = 1;
    }
    int nc = 0;
    for (int i = 0; i < n; ++i)
        if (map[i] > 0)
            map[i] = nc++;
        else
            map[i] = -1;
    m->nc = nc;
    m->ne = def->num_edges;
    m->nf = def->num_faces;
    m->cvert = malloc(sizeof(int) * (size_t)(nc + 1));
    m->group = malloc(sizeof(int) * (size_t)(nc + 1));
    m->cedges = malloc(sizeof(int) * (size_t)(2 * m->ne + 1));
    m->cfaces = malloc(sizeof(int) * (size_t)(3 * m->nf + 1));
    m->rest = malloc(sizeof(double) * (size_t)(3 * nc + 1));
    m->self_collision = malloc((size_t)nb + 1);
    m->kinematic = malloc((size_t)nb + 1);
    if (!m->cvert || !m->group || !m->cedges || !m->cfaces || !m->rest || !m->self_collision ||
        !m->kinematic) {
        free(map);
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "contact: out of memory");
    }
    for (int b = 0; b < nb; ++b) {
        const ipcc_collision_body *body = &def->bodies[b];
        m->kinematic[b] = body->kinematic;
        m->self_collision[b] = def->self_collision && !body->kinematic;
        for (int i = body->first_vertex; i < body->first_vertex + body->num_vertices; ++i)
            if (map[i] >= 0) {
                m->cvert[map[i]] = i;
                m->group[map[i]] = b;
                memcpy(m->rest + 3 * map[i], def->rest_positions + 3 * i, 3 * sizeof(double));
            }
    }
    for (int k = 0; k < 2 * m->ne; ++k)
        m->cedges[k] = map[def->edges[k]];
    for (int k = 0; k < 3 * m->nf; ++k)
        m->cfaces[k] = map[def->faces[k]];
    free(map);
    m->topo = (ipcc_collision_topology){.num_vertices = nc,
                                        .vertex_group = m->group,
                                        .num_edges = m->ne,
                                        .edges = m->cedges,
                                        .num_faces = m->nf,
                                        .faces = m->cfaces,
                                        .num_groups = nb,
                                        .group_self_collision = m->self_collision,
                                        .group_kinematic = m->kinematic};
    if (build_adjacency(m) != 0) return ipcc_fail(IPCC_ERR_NO_MEMORY, "contact: out of memory");
    return IPCC_OK;
}

void ipcc_collision_mesh_free(ipcc_collision_mesh *m) {
    IPCC_FREE(m->cvert);
    IPCC_FREE(m->group);
    IPCC_FREE(m->cedges);
    IPCC_FREE(m->cfaces);
    IPCC_FREE(m->self_collision);
    IPCC_FREE(m->kinematic);
    IPCC_FREE(m->point_set);
    IPCC_FREE(m->rest);
    IPCC_FREE(m->vert_edge_start);
    IPCC_FREE(m->vert_edges);
    IPCC_FREE(m->vert_face_start);
    IPCC_FREE(m->vert_faces);
    IPCC_FREE(m->edge_face_start);
    IPCC_FREE(m->edge_faces);
    IPCC_FREE(m->edge_flat);
    IPCC_FREE(m->vert_flat);
}

void ipcc_collision_mesh_gather(const ipcc_collision_mesh *m, const double *x, double *xc) {
    for (int i = 0; i < m->nc; ++i)
        memcpy(xc + 3 * i, x + 3 * m->cvert[i], 3 * sizeof(double));
}

void ipcc_collision_mesh_gather_moved(const ipcc_collision_mesh *m, const double *x, const double *p,
                                      double alpha, double *xc) {
    for (int i = 0; i < m->nc; ++i)
        for (int k = 0; k < 3; ++k) {
            int d = 3 * m->cvert[i] + k;
            xc[3 * i + k] = x[d] + alpha * p[d];
        }
}
