// The collision mesh (collision_mesh.c) built from a description assembled
// here by hand, as world.c would: two deformable bodies (a 2 x 2 x 2 tet
// box with one interior vertex, and a single tet), a flat obstacle floor (a
// rotated 3 x 3 grid of 8 triangles, plus a vertex no face uses), an
// obstacle of edge pairs (a ridge, two coplanar triangles folded onto one
// side, a slight bend, a bend within rounding of flat), a segment set with
// an isolated vertex and a point set. Checked: the collision vertices are
// exactly the surface vertices and every point-set vertex, in world order;
// groups, kinematic, self-collision and point-set flags per body; the
// renumbered edges and faces; the CSR adjacency against brute force;
// ipcc_collision_mesh_find_edge over all vertex pairs; the flat features;
// the gather.
#include <stdlib.h>
#include <string.h>

#include "collision/collision_mesh.h"
#include "support.h"
#include "base/vec3.h"
#include "world_checks.h"

enum { CUBE, TET, FLOOR, ROOF, RAKE, PINS, NUM_BODIES };

typedef struct scene {
    ipcc_mesh *cube, *tet;
    ipcc_trimesh *floor, *roof;
    int n;
    double *x;
    int nf, ne;
    int *faces, *edges;
    ipcc_collision_body bodies[NUM_BODIES];
    int floor_center; // world index of the floor grid's centre vertex
} scene;

// Append body b's vertices (3 nv coordinates) to the scene.
static void add_vertices(scene *s, int b, int nv, const double *v) {
    s->bodies[b].first_vertex = s->n;
    s->bodies[b].num_vertices = nv;
    s->x = realloc(s->x, sizeof(double) * 3 * (size_t)(s->n + nv));
    memcpy(s->x + 3 * s->n, v, sizeof(double) * 3 * (size_t)nv);
    s->n += nv;
}

static void add_faces(scene *s, int b, int nf, const int *f) {
    int o = s->bodies[b].first_vertex;
    s->bodies[b].num_faces = nf;
    s->faces = realloc(s->faces, sizeof(int) * 3 * (size_t)(s->nf + nf));
    for (int k = 0; k < 3 * nf; ++k)
        s->faces[3 * s->nf + k] = o + f[k];
    s->nf += nf;
}

static void add_edges(scene *s, int b, int ne, const int *e) {
    int o = s->bodies[b].first_vertex;
    s->edges = realloc(s->edges, sizeof(int) * 2 * (size_t)(s->ne + ne) + 1);
    for (int k = 0; k < 2 * ne; ++k)
        s->edges[2 * s->ne + k] = o + e[k];
    s->ne += ne;
}

static void build_scene(scene *s) {
    memset(s, 0, sizeof *s);
    s->cube = ipcc_test_box_mesh(2, 2, 2, 1, 1, 1); // 27 vertices, the centre one interior
    const double tv[12] = {2, 0, 0, 3, 0, 0, 2, 1, 0, 2, 0, 1};
    const int tt[4] = {0, 1, 2, 3};
    assert_int_equal(ipcc_mesh_create(tv, 4, tt, 1, "tet", NULL, &s->tet), IPCC_OK);
    // Floor: the grid (i, j) -> (i, 0, j) for i, j in {0, 1, 2}, every quad
    // cut along (i, j)-(i+1, j+1), rotated and moved; vertex 9 is used by no face.
    double R[9], fv[30];
    ipcc_test_seed(21);
    ipcc_test_random_rotation(R);
    for (int v = 0; v < 10; ++v) {
        double p[3] = {v % 3, 0, v / 3};
        if (v == 9) p[0] = p[1] = p[2] = 5;
        for (int r = 0; r < 3; ++r)
            fv[3 * v + r] =
                R[3 * r] * p[0] + R[3 * r + 1] * p[1] + R[3 * r + 2] * p[2] + (r == 1 ? -2.0 : 0.5);
    }
    int ff[24], nff = 0;
    for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 2; ++i) {
            int v00 = 3 * j + i, v10 = v00 + 1, v01 = v00 + 3, v11 = v00 + 4;
            int quad[6] = {v00, v10, v11, v00, v11, v01};
            memcpy(ff + 3 * nff, quad, sizeof quad);
            nff += 2;
        }
    assert_int_equal(ipcc_trimesh_create(10, fv, nff, ff, "floor", &s->floor), IPCC_OK);
    // Roof: four pairs of triangles sharing an edge along x.
    //  ridge (0-3): a roof top, the faces 90 degrees apart;
    //  fold (4-7): both faces in the plane y = 3 on the same side of the edge;
    //  bend (8-11): opposite sides, the planes 1e-4 rad apart (a feature);
    //  almost (12-15): opposite sides, 1e-8 rad apart (flat within tolerance).
    const double rv[48] = {0, 3, 0, 2, 3, 0, 1,   2, 1, 1,   2,        -1,  //
                           3, 3, 0, 4, 3, 0, 3.5, 3, 1, 3.2, 3,        0.5, //
                           5, 3, 0, 6, 3, 0, 5.5, 3, 1, 5.5, 3 + 1e-4, -1,  //
                           7, 3, 0, 8, 3, 0, 7.5, 3, 1, 7.5, 3 + 1e-8, -1}; //
    const int rf[24] = {0, 1, 2, 1, 0, 3, 4, 5, 6, 4, 5, 7, 8, 9, 10, 9, 8, 11, 12, 13, 14, 13, 12, 15};
    assert_int_equal(ipcc_trimesh_create(16, rv, 8, rf, "roof", &s->roof), IPCC_OK);
    // Rake: segments (0, 1) and (1, 2); vertex 3 is on none.
    const double kv[12] = {0, 5, 0, 1, 5, 0, 2, 5, 0, 3, 5, 0};
    const int ke[4] = {0, 1, 1, 2};
    // Pins: three points.
    const double pv[9] = {0, 6, 0, 1, 6, 0, 2, 6, 1};

    s->bodies[CUBE] = (ipcc_collision_body){.name = "cube"};
    s->bodies[TET] = (ipcc_collision_body){.name = "tet", .first_tet = s->cube->num_tets};
    s->bodies[FLOOR] = (ipcc_collision_body){.name = "floor", .kinematic = true};
    s->bodies[ROOF] = (ipcc_collision_body){.name = "roof", .kinematic = true};
    s->bodies[RAKE] = (ipcc_collision_body){.name = "rake", .kinematic = true};
    s->bodies[PINS] = (ipcc_collision_body){.name = "pins", .kinematic = true};
    for (int b = FLOOR; b < NUM_BODIES; ++b)
        s->bodies[b].first_tet = s->cube->num_tets + 1;
    add_vertices(s, CUBE, s->cube->num_vertices, s->cube->vertices);
    add_vertices(s, TET, 4, s->tet->vertices);
    add_vertices(s, FLOOR, 10, s->floor->vertices);
    add_vertices(s, ROOF, 16, s->roof->vertices);
    add_vertices(s, RAKE, 4, kv);
    add_vertices(s, PINS, 3, pv);
    s->floor_center = s->bodies[FLOOR].first_vertex + 4;
    add_faces(s, CUBE, s->cube->num_faces, s->cube->faces);
    add_faces(s, TET, s->tet->num_faces, s->tet->faces);
    add_faces(s, FLOOR, s->floor->num_faces, s->floor->faces);
    add_faces(s, ROOF, s->roof->num_faces, s->roof->faces);
    add_edges(s, CUBE, s->cube->num_edges, s->cube->edges);
    add_edges(s, TET, s->tet->num_edges, s->tet->edges);
    add_edges(s, FLOOR, s->floor->num_edges, s->floor->edges);
    add_edges(s, ROOF, s->roof->num_edges, s->roof->edges);
    add_edges(s, RAKE, 2, ke);
}

static void free_scene(scene *s) {
    ipcc_mesh_destroy(s->cube);
    ipcc_mesh_destroy(s->tet);
    ipcc_trimesh_destroy(s->floor);
    ipcc_trimesh_destroy(s->roof);
    free(s->x);
    free(s->faces);
    free(s->edges);
}

static ipcc_collision_mesh_def scene_def(const scene *s, bool self_collision) {
    return (ipcc_collision_mesh_def){.num_vertices = s->n,
                                     .rest_positions = s->x,
                                     .num_bodies = NUM_BODIES,
                                     .bodies = s->bodies,
                                     .num_faces = s->nf,
                                     .faces = s->faces,
                                     .num_edges = s->ne,
                                     .edges = s->edges,
                                     .self_collision = self_collision};
}

static int body_of(const scene *s, int i) {
    for (int b = 0; b < NUM_BODIES; ++b)
        if (i >= s->bodies[b].first_vertex && i < s->bodies[b].first_vertex + s->bodies[b].num_vertices)
            return b;
    fail_msg("vertex %d is in no body", i);
    return -1;
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

// The CSR slice items[start[i] .. start[i+1]) equals `expect` (n entries) as a set.
static void assert_slice(const int *start, const int *items, int i, const int *expect, int n) {
    int len = start[i + 1] - start[i];
    assert_int_equal(len, n);
    int *got = malloc(sizeof(int) * (size_t)(n + 1));
    memcpy(got, items + start[i], sizeof(int) * (size_t)n);
    qsort(got, (size_t)n, sizeof(int), cmp_int);
    for (int k = 0; k < n; ++k)
        assert_int_equal(got[k], expect[k]); // expect is ascending
    free(got);
}

static void test_vertices_and_bodies(void **state) {
    (void)state;
    scene s;
    build_scene(&s);
    for (int sc = 0; sc < 2; ++sc) {
        ipcc_collision_mesh_def def = scene_def(&s, sc == 1);
        ipcc_collision_mesh m;
        assert_int_equal(ipcc_collision_mesh_build(&m, &def), IPCC_OK);
        // The expected collision vertices, in world order: the cube's surface
        // vertices (the mesh's own list: all but the centre), the tet's four,
        // the floor's nine grid vertices (not vertex 9), the roof's sixteen,
        // the rake's three on segments (not vertex 3), the three pins.
        int expect[64], ne = 0;
        for (int k = 0; k < s.cube->num_surface_vertices; ++k)
            expect[ne++] = s.cube->surface_vertices[k];
        assert_int_equal(ne, 26);
        for (int b = TET; b < NUM_BODIES; ++b)
            for (int i = 0; i < s.bodies[b].num_vertices; ++i) {
                if ((b == FLOOR && i == 9) || (b == RAKE && i == 3)) continue;
                expect[ne++] = s.bodies[b].first_vertex + i;
            }
        assert_int_equal(ne, 26 + 4 + 9 + 16 + 3 + 3);
        assert_int_equal(m.nc, ne);
        for (int c = 0; c < m.nc; ++c) {
            assert_int_equal(m.cvert[c], expect[c]);
            int b = body_of(&s, m.cvert[c]);
            assert_int_equal(m.group[c], b);
            assert_memory_equal(m.rest + 3 * c, s.x + 3 * m.cvert[c], 3 * sizeof(double));
            assert_int_equal(ipcc_collision_vertex_free(&m, c), b == CUBE || b == TET);
        }
        for (int b = 0; b < NUM_BODIES; ++b) {
            bool deformable = b == CUBE || b == TET;
            assert_int_equal(m.kinematic[b], !deformable);
            assert_int_equal(m.self_collision[b], deformable && def.self_collision);
            assert_int_equal(m.point_set[b], b == PINS);
        }
        // Edges and faces keep their order, renumbered.
        assert_int_equal(m.ne, s.ne);
        assert_int_equal(m.nf, s.nf);
        for (int k = 0; k < 2 * s.ne; ++k)
            assert_int_equal(m.cvert[m.cedges[k]], s.edges[k]);
        for (int k = 0; k < 3 * s.nf; ++k)
            assert_int_equal(m.cvert[m.cfaces[k]], s.faces[k]);
        // The broad phase's view of the same.
        assert_int_equal(m.topo.num_vertices, m.nc);
        assert_ptr_equal(m.topo.vertex_group, m.group);
        assert_int_equal(m.topo.num_edges, m.ne);
        assert_ptr_equal(m.topo.edges, m.cedges);
        assert_int_equal(m.topo.num_faces, m.nf);
        assert_ptr_equal(m.topo.faces, m.cfaces);
        assert_int_equal(m.topo.num_groups, NUM_BODIES);
        assert_ptr_equal(m.topo.group_self_collision, m.self_collision);
        assert_ptr_equal(m.topo.group_kinematic, m.kinematic);
        ipcc_collision_mesh_free(&m);
        assert_null(m.cvert);
        assert_null(m.vert_flat);
    }
    free_scene(&s);
}

static void test_adjacency(void **state) {
    (void)state;
    scene s;
    build_scene(&s);
    ipcc_collision_mesh_def def = scene_def(&s, true);
    ipcc_collision_mesh m;
    assert_int_equal(ipcc_collision_mesh_build(&m, &def), IPCC_OK);
    int *expect = malloc(sizeof(int) * (size_t)(m.ne + m.nf + 1));
    for (int v = 0; v < m.nc; ++v) {
        int n = 0;
        for (int e = 0; e < m.ne; ++e)
            if (m.cedges[2 * e] == v || m.cedges[2 * e + 1] == v) expect[n++] = e;
        assert_slice(m.vert_edge_start, m.vert_edges, v, expect, n);
        n = 0;
        for (int f = 0; f < m.nf; ++f)
            if (m.cfaces[3 * f] == v || m.cfaces[3 * f + 1] == v || m.cfaces[3 * f + 2] == v) expect[n++] = f;
        assert_slice(m.vert_face_start, m.vert_faces, v, expect, n);
    }
    int with_two = 0;
    for (int e = 0; e < m.ne; ++e) {
        int a = m.cedges[2 * e], b = m.cedges[2 * e + 1], n = 0;
        for (int f = 0; f < m.nf; ++f) {
            const int *t = m.cfaces + 3 * f;
            bool ha = t[0] == a || t[1] == a || t[2] == a, hb = t[0] == b || t[1] == b || t[2] == b;
            if (ha && hb) expect[n++] = f;
        }
        assert_slice(m.edge_face_start, m.edge_faces, e, expect, n);
        // Closed surfaces: every edge of a deformable body has two faces;
        // the rake's segments have none.
        int g = m.group[a];
        if (g == CUBE || g == TET) assert_int_equal(n, 2);
        if (g == RAKE) assert_int_equal(n, 0);
        with_two += n == 2;
    }
    assert_true(with_two > 0);
    // find_edge: every pair of collision vertices, both orders.
    for (int a = 0; a < m.nc; ++a)
        for (int b = 0; b < m.nc; ++b) {
            int want = -1;
            for (int e = 0; e < m.ne && want < 0; ++e)
                if ((m.cedges[2 * e] == a && m.cedges[2 * e + 1] == b) ||
                    (m.cedges[2 * e] == b && m.cedges[2 * e + 1] == a))
                    want = e;
            assert_int_equal(ipcc_collision_mesh_find_edge(&m, a, b), want);
        }
    free(expect);
    ipcc_collision_mesh_free(&m);
    free_scene(&s);
}

// The collision id of world vertex i (-1 if none).
static int cid(const ipcc_collision_mesh *m, int i) {
    for (int c = 0; c < m->nc; ++c)
        if (m->cvert[c] == i) return c;
    return -1;
}

static void test_flat_features(void **state) {
    (void)state;
    scene s;
    build_scene(&s);
    ipcc_collision_mesh_def def = scene_def(&s, true);
    ipcc_collision_mesh m;
    assert_int_equal(ipcc_collision_mesh_build(&m, &def), IPCC_OK);
    int floor0 = s.bodies[FLOOR].first_vertex, roof0 = s.bodies[ROOF].first_vertex;
    int flat_edges = 0, coplanar_cube_edges = 0;
    for (int e = 0; e < m.ne; ++e) {
        int a = m.cvert[m.cedges[2 * e]], b = m.cvert[m.cedges[2 * e + 1]], g = m.group[m.cedges[2 * e]];
        bool expect = false;
        if (g == FLOOR) {
            // Grid coordinates (i, j) of both ends: an edge is on the grid's
            // boundary when both ends share a boundary row or column.
            int ia = (a - floor0) % 3, ja = (a - floor0) / 3, ib = (b - floor0) % 3, jb = (b - floor0) / 3;
            bool boundary = (ia == ib && (ia == 0 || ia == 2)) || (ja == jb && (ja == 0 || ja == 2));
            expect = !boundary;
        } else if (g == ROOF) {
            expect = (a == roof0 + 12 && b == roof0 + 13) || (a == roof0 + 13 && b == roof0 + 12);
        } else if (g == CUBE && m.edge_face_start[e + 1] - m.edge_face_start[e] == 2) {
            // A diagonal inside a cube face lies between two coplanar faces
            // (exactly: the grid is axis-aligned): a deformable body's edge is
            // never flat all the same.
            double n[2][3], c[3];
            for (int k = 0; k < 2; ++k) {
                const int *t = m.cfaces + 3 * m.edge_faces[m.edge_face_start[e] + k];
                double u[3], v[3];
                sub3(m.rest + 3 * t[1], m.rest + 3 * t[0], u);
                sub3(m.rest + 3 * t[2], m.rest + 3 * t[0], v);
                cross3(u, v, n[k]);
            }
            cross3(n[0], n[1], c);
            coplanar_cube_edges += c[0] == 0 && c[1] == 0 && c[2] == 0;
        }
        if (m.edge_flat[e] != expect)
            fail_msg("edge %d (world %d-%d, body %d): flat %d, expected %d", e, a, b, g, m.edge_flat[e],
                     expect);
        flat_edges += expect;
    }
    assert_int_equal(flat_edges, 8 + 1); // the floor's interior edges and the almost-flat one
    assert_true(coplanar_cube_edges > 0);
    // Only the floor's centre has a closed flat fan; its edge midpoints and
    // corners, the roof's vertices (3 edges, 2 faces) and every deformable,
    // segment and point vertex are not flat.
    for (int c = 0; c < m.nc; ++c)
        if (m.vert_flat[c] != (m.cvert[c] == s.floor_center))
            fail_msg("vertex %d (world %d, body %d): flat %d", c, m.cvert[c], m.group[c], m.vert_flat[c]);
    int centre = cid(&m, s.floor_center);
    assert_true(centre >= 0);
    assert_int_equal(m.vert_edge_start[centre + 1] - m.vert_edge_start[centre], 6);
    assert_int_equal(m.vert_face_start[centre + 1] - m.vert_face_start[centre], 6);
    ipcc_collision_mesh_free(&m);
    free_scene(&s);
}

// Only obstacles have flat features: the same floor given as a deformable
// body has none (and self-collides).
static void test_flat_needs_obstacle(void **state) {
    (void)state;
    scene s;
    build_scene(&s);
    s.bodies[FLOOR].kinematic = false;
    ipcc_collision_mesh_def def = scene_def(&s, true);
    ipcc_collision_mesh m;
    assert_int_equal(ipcc_collision_mesh_build(&m, &def), IPCC_OK);
    int flat = 0;
    for (int e = 0; e < m.ne; ++e)
        flat += m.edge_flat[e] && m.group[m.cedges[2 * e]] == FLOOR;
    assert_int_equal(flat, 0);
    assert_int_equal(m.vert_flat[cid(&m, s.floor_center)], 0);
    assert_int_equal(m.self_collision[FLOOR], 1);
    ipcc_collision_mesh_free(&m);
    free_scene(&s);
}

static void test_gather(void **state) {
    (void)state;
    scene s;
    build_scene(&s);
    ipcc_collision_mesh_def def = scene_def(&s, false);
    ipcc_collision_mesh m;
    assert_int_equal(ipcc_collision_mesh_build(&m, &def), IPCC_OK);
    double *x = malloc(sizeof(double) * 3 * (size_t)s.n), *xc = malloc(sizeof(double) * 3 * (size_t)m.nc);
    for (int k = 0; k < 3 * s.n; ++k)
        x[k] = 0.25 * k - 7;
    ipcc_collision_mesh_gather(&m, x, xc);
    for (int c = 0; c < m.nc; ++c)
        for (int k = 0; k < 3; ++k)
            assert_true(xc[3 * c + k] == 0.25 * (3 * m.cvert[c] + k) - 7);
    // The rest positions are the def's, not the gathered state.
    ipcc_collision_mesh_gather(&m, s.x, xc);
    assert_memory_equal(xc, m.rest, sizeof(double) * 3 * (size_t)m.nc);
    free(x);
    free(xc);
    ipcc_collision_mesh_free(&m);
    free_scene(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vertices_and_bodies),
        cmocka_unit_test(test_adjacency),
        cmocka_unit_test(test_flat_features),
        cmocka_unit_test(test_flat_needs_obstacle),
        cmocka_unit_test(test_gather),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
