// Tetrahedral mesh creation: validation, orientation, compaction and the
// boundary surface.
//
// Conventions. A tet (v0, v1, v2, v3) is positively oriented when
// det[x1-x0, x2-x0, x3-x0] > 0, i.e. v3 lies on the side of triangle
// (v0, v1, v2) that its counter-clockwise normal points to. For such a tet
// the four faces with outward normals (counter-clockwise seen from outside) are
//   (v0, v2, v1)  opposite v3,     (v0, v1, v3)  opposite v2,
//   (v0, v3, v2)  opposite v1,     (v1, v2, v3)  opposite v0.
// A negatively oriented tet is flipped by swapping v2 and v3.
//
// Validation, in this order for each tet: vertex index in range, four
// distinct vertices, finite coordinates, and a non-degenerate volume:
// |6V| > 1e-14 * L^3 with L the longest edge, a scale-free test that rejects
// slivers flatter than round-off can resolve. Every failure is IPCC_ERR_MESH
// with a message "<source>: element <id>: <what>", where <id> is the caller's
// tet_ids[t] (the file's element number) or the 0-based index.
//
// Boundary faces are found by sorting the 4*num_tets face keys (the three
// vertex indices in ascending order), O(n log n): a key that occurs once is
// a boundary face, twice an interior face, more often a non-manifold error.
// Two tets sharing a face must see it with opposite orientations; the same
// orientation means they overlap, which is reported too. Boundary edges are
// the unique sorted pairs of the boundary faces' edges.
//
// Vertices no tet references are dropped and the indices remapped, so that
// num_vertices counts only simulated vertices. Both the flip count and the
// drop count are logged once at IPCC_LOG_INFO.
#include "ipcc/mesh.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#include "base/core.h"

// One face occurrence: sorted key, owning tet and local face number.
typedef struct face_key {
    int v[3];
    int tet;
    int local;
} face_key;

typedef struct edge_key {
    int a, b;
} edge_key;

// Outward faces of a positively oriented tet, as local vertex numbers.
static const int tet_faces[4][3] = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};

static long tet_id(const long *tet_ids, int t) { return tet_ids ? tet_ids[t] : (long)t; }

static void sort3(int v[3]) {
    int t;
    if (v[0] > v[1]) t = v[0], v[0] = v[1], v[1] = t;
    if (v[1] > v[2]) t = v[1], v[1] = v[2], v[2] = t;
    if (v[0] > v[1]) t = v[0], v[0] = v[1], v[1] = t;
}

static int compare_face_keys(const void *pa, const void *pb) {
    const face_key *a = pa, *b = pb;
    for (int i = 0; i < 3; i++)
        if (a->v[i] != b->v[i]) return a->v[i] < b->v[i] ? -1 : 1;
    if (a->tet != b->tet) return a->tet < b->tet ? -1 : 1;
    return (a->local > b->local) - (a->local < b->local);
}

static int compare_edge_keys(const void *pa, const void *pb) {
    const edge_key *a = pa, *b = pb;
    if (a->a != b->a) return a->a < b->a ? -1 : 1;
    return (a->b > b->b) - (a->b < b->b);
}

// 6 * signed volume: det[x1-x0, x2-x0, x3-x0].
static double six_volume(const double *x, const int *t) {
    const double *p0 = x + 3 * t[0], *p1 = x + 3 * t[1], *p2 = x + 3 * t[2], *p3 = x + 3 * t[3];
    double a[3], b[3], c[3];
    for (int i = 0; i < 3; i++) {
        a[i] = p1[i] - p0[i];
        b[i] = p2[i] - p0[i];
        c[i] = p3[i] - p0[i];
    }
    // det = a . (b x c)
    return a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
           a[2] * (b[0] * c[1] - b[1] * c[0]);
}

static double longest_edge(const double *x, const int *t) {
    double best = 0.0;
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++) {
            const double *p = x + 3 * t[i], *q = x + 3 * t[j];
            double dx = p[0] - q[0], dy = p[1] - q[1], dz = p[2] - q[2];
            double l2 = dx * dx + dy * dy + dz * dz;
            if (l2 > best) best = l2;
        }
    return sqrt(best);
}

// Checks one input tet; on success returns IPCC_OK.
static ipcc_status validate_tet(const double *x, int nv, const int *t, const char *src, long id) {
    for (int i = 0; i < 4; i++)
        if (t[i] < 0 || t[i] >= nv)
            return ipcc_fail(IPCC_ERR_MESH, "%s: element %ld: vertex index %d out of range [0, %d)", src, id,
                             t[i], nv);
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++)
            if (t[i] == t[j])
                return ipcc_fail(IPCC_ERR_MESH, "%s: element %ld: vertex index %d repeated", src, id, t[i]);
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 3; k++)
            if (!isfinite(x[3 * t[i] + k]))
                return ipcc_fail(IPCC_ERR_MESH,
                                 "%s: element %ld: vertex index %d has a non-finite coordinate", src, id,
                                 t[i]);
    double v6 = six_volume(x, t), l = longest_edge(x, t);
    if (!(fabs(v6) > 1e-14 * l * l * l))
        return ipcc_fail(IPCC_ERR_MESH, "%s: element %ld: zero-volume tetrahedron (6V = %g, longest edge %g)",
                         src, id, v6, l);
    return IPCC_OK;
}

// Fills faces, edges and surface vertices of m from its (valid, oriented) tets.
static ipcc_status extract_surface(ipcc_mesh *m, const char *src, const long *tet_ids) {
    size_t nk = 4 * (size_t)m->num_tets;
    face_key *keys = malloc(nk * sizeof *keys);
    if (!keys) return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory sorting %zu faces", src, nk);
    for (int t = 0; t < m->num_tets; t++)
        for (int f = 0; f < 4; f++) {
            face_key *k = &keys[4 * (size_t)t + f];
            for (int i = 0; i < 3; i++)
                k->v[i] = m->tets[4 * t + tet_faces[f][i]];
            sort3(k->v);
            k->tet = t;
            k->local = f;
        }
    qsort(keys, nk, sizeof *keys, compare_face_keys);

    // Pass 1: classify runs, compact boundary occurrences to the front of keys.
    size_t nb = 0;
    for (size_t i = 0; i < nk;) {
        size_t j = i + 1;
        while (j < nk && memcmp(keys[j].v, keys[i].v, sizeof keys[i].v) == 0)
            j++;
        if (j - i > 2) {
            ipcc_status s = ipcc_fail(
                IPCC_ERR_MESH, "%s: element %ld: non-manifold face (%d, %d, %d) shared by %zu tetrahedra",
                src, tet_id(tet_ids, keys[i + 2].tet), keys[i].v[0], keys[i].v[1], keys[i].v[2], j - i);
            free(keys);
            return s;
        }
        if (j - i == 2) {
            // Opposite orientations: the oriented triples are cyclic shifts of
            // each other exactly when the two tets lie on the same side.
            const int *a = m->tets + 4 * keys[i].tet, *b = m->tets + 4 * keys[i + 1].tet;
            const int *fa = tet_faces[keys[i].local], *fb = tet_faces[keys[i + 1].local];
            int same = 0;
            for (int r = 0; r < 3; r++)
                if (a[fa[0]] == b[fb[r]] && a[fa[1]] == b[fb[(r + 1) % 3]]) same = 1;
            if (same) {
                ipcc_status s =
                    ipcc_fail(IPCC_ERR_MESH, "%s: element %ld: overlaps element %ld across a shared face",
                              src, tet_id(tet_ids, keys[i + 1].tet), tet_id(tet_ids, keys[i].tet));
                free(keys);
                return s;
            }
        } else {
            keys[nb++] = keys[i];
        }
        i = j;
    }

    m->num_faces = (int)nb;
    m->faces = malloc((nb ? nb : 1) * 3 * sizeof *m->faces);
    edge_key *edges = malloc((nb ? nb : 1) * 3 * sizeof *edges);
    char *on_surface = calloc((size_t)m->num_vertices, 1);
    if (!m->faces || !edges || !on_surface) {
        free(keys);
        free(edges);
        free(on_surface);
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory building the surface", src);
    }
    for (size_t f = 0; f < nb; f++) {
        const int *t = m->tets + 4 * keys[f].tet;
        int *out = m->faces + 3 * f;
        for (int i = 0; i < 3; i++) {
            out[i] = t[tet_faces[keys[f].local][i]];
            on_surface[out[i]] = 1;
        }
        for (int i = 0; i < 3; i++) {
            int a = out[i], b = out[(i + 1) % 3];
            edges[3 * f + i] = (edge_key){a < b ? a : b, a < b ? b : a};
        }
    }
    free(keys);

    size_t ne = 3 * nb, nu = 0;
    qsort(edges, ne, sizeof *edges, compare_edge_keys);
    for (size_t i = 0; i < ne; i++)
        if (nu == 0 || compare_edge_keys(&edges[i], &edges[nu - 1]) != 0) edges[nu++] = edges[i];
    m->num_edges = (int)nu;
    m->edges = malloc((nu ? nu : 1) * 2 * sizeof *m->edges);
    int ns = 0;
    for (int v = 0; v < m->num_vertices; v++)
        ns += on_surface[v];
    m->num_surface_vertices = ns;
    m->surface_vertices = malloc((ns ? (size_t)ns : 1) * sizeof *m->surface_vertices);
    if (!m->edges || !m->surface_vertices) {
        free(edges);
        free(on_surface);
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory building the surface", src);
    }
    for (size_t i = 0; i < nu; i++) {
        m->edges[2 * i] = edges[i].a;
        m->edges[2 * i + 1] = edges[i].b;
    }
    for (int v = 0, k = 0; v < m->num_vertices; v++)
        if (on_surface[v]) m->surface_vertices[k++] = v;
    free(edges);
    free(on_surface);
    return IPCC_OK;
}

ipcc_status ipcc_mesh_create(const double *vertices, int num_vertices, const int *tets, int num_tets,
                             const char *source, const long *tet_ids, ipcc_mesh **out) {
    IPCC_ASSERT(out != NULL);
    *out = NULL;
    const char *src = source ? source : "mesh";
    if (num_vertices < 0 || num_tets < 0 || num_tets > INT_MAX / 4)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s: bad sizes (%d vertices, %d tetrahedra)", src,
                         num_vertices, num_tets);
    if (num_tets == 0) return ipcc_fail(IPCC_ERR_MESH, "%s: no tetrahedra", src);
    IPCC_ASSERT(vertices != NULL || num_vertices == 0);
    IPCC_ASSERT(tets != NULL);

    for (int t = 0; t < num_tets; t++) {
        ipcc_status s = validate_tet(vertices, num_vertices, tets + 4 * t, src, tet_id(tet_ids, t));
        if (s != IPCC_OK) return s;
    }

    ipcc_mesh *m = calloc(1, sizeof *m);
    int *remap = malloc((size_t)num_vertices * sizeof *remap);
    if (m) m->tets = malloc(4 * (size_t)num_tets * sizeof *m->tets);
    if (!m || !remap || !m->tets) {
        free(remap);
        ipcc_mesh_destroy(m);
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory for %d tetrahedra", src, num_tets);
    }

    // Compact: new index of each referenced vertex in input order, -1 otherwise.
    for (int v = 0; v < num_vertices; v++)
        remap[v] = -1;
    for (size_t i = 0; i < 4 * (size_t)num_tets; i++)
        remap[tets[i]] = 0;
    int nv = 0;
    for (int v = 0; v < num_vertices; v++)
        if (remap[v] == 0) remap[v] = nv++;
    m->num_vertices = nv;
    m->num_unreferenced = num_vertices - nv;
    m->num_tets = num_tets;
    m->vertices = malloc(3 * (size_t)nv * sizeof *m->vertices);
    if (!m->vertices) {
        free(remap);
        ipcc_mesh_destroy(m);
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory for %d vertices", src, nv);
    }
    for (int v = 0; v < num_vertices; v++)
        if (remap[v] >= 0) memcpy(m->vertices + 3 * remap[v], vertices + 3 * v, 3 * sizeof(double));

    // Copy and orient.
    for (int t = 0; t < num_tets; t++) {
        int *d = m->tets + 4 * t;
        for (int i = 0; i < 4; i++)
            d[i] = remap[tets[4 * t + i]];
        if (six_volume(m->vertices, d) < 0.0) {
            int tmp = d[2];
            d[2] = d[3];
            d[3] = tmp;
            m->num_reoriented++;
        }
    }
    free(remap);

    ipcc_status s = extract_surface(m, src, tet_ids);
    if (s != IPCC_OK) {
        ipcc_mesh_destroy(m);
        return s;
    }
    if (m->num_reoriented > 0)
        ipcc_log(IPCC_LOG_INFO, "%s: flipped %d negatively oriented tetrahedra of %d", src, m->num_reoriented,
                 num_tets);
    if (m->num_unreferenced > 0)
        ipcc_log(IPCC_LOG_INFO, "%s: dropped %d vertices no tetrahedron references", src,
                 m->num_unreferenced);
    ipcc_log(IPCC_LOG_DEBUG, "%s: %d vertices, %d tetrahedra, %d surface faces, %d surface edges", src, nv,
             num_tets, m->num_faces, m->num_edges);
    *out = m;
    return IPCC_OK;
}

void ipcc_mesh_destroy(ipcc_mesh *mesh) {
    if (!mesh) return;
    IPCC_FREE(mesh->vertices);
    IPCC_FREE(mesh->tets);
    IPCC_FREE(mesh->faces);
    IPCC_FREE(mesh->edges);
    IPCC_FREE(mesh->surface_vertices);
    IPCC_FREE(mesh->tet_regions);
    IPCC_FREE(mesh->region_numbers);
    for (int i = 0; mesh->region_names && i < mesh->num_regions; i++)
        free(mesh->region_names[i]);
    IPCC_FREE(mesh->region_names);
    free(mesh);
}
