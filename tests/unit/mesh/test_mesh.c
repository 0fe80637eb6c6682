// Tests for src/mesh/mesh.c and src/mesh/mesh_box.c: creation from arrays, validation
// messages, orientation, compaction and the boundary surface.
#include "support.h"
#include "world_checks.h"

#include <math.h>
#include <string.h>

#include "ipcc/mesh.h"

// Unit right tet, positively oriented, and a fifth vertex beyond face (1,2,3).
static const double five_vertices[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1};

// Area-weighted normal (half the cross product) of face f.
static void face_normal(const ipcc_mesh *m, int f, double n[3]) {
    const double *p = m->vertices + 3 * m->faces[3 * f], *q = m->vertices + 3 * m->faces[3 * f + 1],
                 *r = m->vertices + 3 * m->faces[3 * f + 2];
    double u[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]}, v[3] = {r[0] - p[0], r[1] - p[1], r[2] - p[2]};
    n[0] = 0.5 * (u[1] * v[2] - u[2] * v[1]);
    n[1] = 0.5 * (u[2] * v[0] - u[0] * v[2]);
    n[2] = 0.5 * (u[0] * v[1] - u[1] * v[0]);
}

static int tet_has_vertex(const int *t, int v) { return t[0] == v || t[1] == v || t[2] == v || t[3] == v; }

// Checks every surface invariant the header promises, by brute force.
static void check_surface(const ipcc_mesh *m) {
    double sum[3] = {0, 0, 0};
    for (int f = 0; f < m->num_faces; f++) {
        const int *fv = m->faces + 3 * f;
        int owner = -1, owners = 0;
        for (int t = 0; t < m->num_tets; t++)
            if (tet_has_vertex(m->tets + 4 * t, fv[0]) && tet_has_vertex(m->tets + 4 * t, fv[1]) &&
                tet_has_vertex(m->tets + 4 * t, fv[2]))
                owner = t, owners++;
        assert_int_equal(owners, 1);
        double n[3], d[3];
        face_normal(m, f, n);
        for (int k = 0; k < 3; k++) {
            double fc = 0, tc = 0;
            for (int i = 0; i < 3; i++)
                fc += m->vertices[3 * fv[i] + k] / 3.0;
            for (int i = 0; i < 4; i++)
                tc += m->vertices[3 * m->tets[4 * owner + i] + k] / 4.0;
            d[k] = fc - tc;
            sum[k] += n[k];
        }
        assert_true(n[0] * d[0] + n[1] * d[1] + n[2] * d[2] > 0.0);
    }
    for (int k = 0; k < 3; k++)
        assert_near(sum[k], 0.0, 1e-12, 0.0);
    for (int e = 0; e < m->num_edges; e++) {
        assert_true(m->edges[2 * e] < m->edges[2 * e + 1]);
        if (e > 0)
            assert_true(m->edges[2 * e - 2] < m->edges[2 * e] || (m->edges[2 * e - 2] == m->edges[2 * e] &&
                                                                  m->edges[2 * e - 1] < m->edges[2 * e + 1]));
    }
    for (int i = 1; i < m->num_surface_vertices; i++)
        assert_true(m->surface_vertices[i - 1] < m->surface_vertices[i]);
    // A closed surface of genus 0.
    assert_int_equal(m->num_surface_vertices - m->num_edges + m->num_faces, 2);
    assert_int_equal(2 * m->num_edges, 3 * m->num_faces);
    for (int t = 0; t < m->num_tets; t++)
        assert_true(ipcc_test_tet_volume(m, t) > 0.0);
}

static void test_single_tet(void **state) {
    (void)state;
    const int tet[] = {0, 1, 2, 3};
    ipcc_mesh *m = NULL;
    assert_int_equal(ipcc_mesh_create(five_vertices, 4, tet, 1, "single", NULL, &m), IPCC_OK);
    assert_int_equal(m->num_vertices, 4);
    assert_int_equal(m->num_tets, 1);
    assert_int_equal(m->num_faces, 4);
    assert_int_equal(m->num_edges, 6);
    assert_int_equal(m->num_surface_vertices, 4);
    assert_int_equal(m->num_reoriented, 0);
    assert_int_equal(m->num_unreferenced, 0);
    assert_memory_equal(m->tets, tet, sizeof tet);
    check_surface(m);
    assert_near(ipcc_test_tet_volume(m, 0), 1.0 / 6.0, 1e-15, 0.0);
    ipcc_mesh_destroy(m);
}

static void test_two_tets_share_a_face(void **state) {
    (void)state;
    const int tets[] = {0, 1, 2, 3, 1, 2, 3, 4};
    ipcc_mesh *m = NULL;
    assert_int_equal(ipcc_mesh_create(five_vertices, 5, tets, 2, "pair", NULL, &m), IPCC_OK);
    assert_int_equal(m->num_faces, 6);
    assert_int_equal(m->num_edges, 9);
    assert_int_equal(m->num_surface_vertices, 5);
    assert_int_equal(m->num_reoriented, 0); // both positively oriented
    check_surface(m);
    ipcc_mesh_destroy(m);
}

static int info_flips;
static void count_info(ipcc_log_level level, const char *message, void *user) {
    (void)user;
    if (level == IPCC_LOG_INFO && strstr(message, "flipped 2")) info_flips++;
}

static void test_orientation_fix_counted_and_logged(void **state) {
    (void)state;
    const int tets[] = {0, 2, 1, 3, 2, 1, 3, 4}; // both negative
    ipcc_mesh *m = NULL;
    info_flips = 0;
    ipcc_set_log(count_info, NULL);
    assert_int_equal(ipcc_mesh_create(five_vertices, 5, tets, 2, "flip", NULL, &m), IPCC_OK);
    ipcc_set_log(NULL, NULL);
    assert_int_equal(m->num_reoriented, 2);
    assert_int_equal(info_flips, 1);
    check_surface(m);
    ipcc_mesh_destroy(m);
}

static void test_unreferenced_vertex_dropped(void **state) {
    (void)state;
    // Vertex 0 is unused (and NaN, which must not matter); the tet uses 1..4.
    const double x[] = {NAN, 7, 7, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    const int tet[] = {1, 2, 3, 4};
    ipcc_mesh *m = NULL;
    assert_int_equal(ipcc_mesh_create(x, 5, tet, 1, NULL, NULL, &m), IPCC_OK);
    assert_int_equal(m->num_vertices, 4);
    assert_int_equal(m->num_unreferenced, 1);
    const int expect[] = {0, 1, 2, 3};
    assert_memory_equal(m->tets, expect, sizeof expect);
    assert_memory_equal(m->vertices, x + 3, 12 * sizeof(double));
    check_surface(m);
    ipcc_mesh_destroy(m);
}

typedef struct bad_case {
    const char *name;
    double x[12]; // vertices 4..7 of the mesh
    int tet[4];   // absolute vertex indices of the bad tet
    const char *needle;
} bad_case;

static void test_validation_errors_name_the_element(void **state) {
    (void)state;
    const bad_case cases[] = {
        {"index too large", {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}, {4, 5, 6, 8}, "out of range"},
        {"negative index", {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}, {4, -1, 6, 7}, "out of range"},
        {"repeated vertex", {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}, {4, 5, 6, 5}, "repeated"},
        {"NaN coordinate", {0, 0, 0, 1, NAN, 0, 0, 1, 0, 0, 0, 1}, {4, 5, 6, 7}, "non-finite"},
        {"infinite coordinate", {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, INFINITY}, {4, 5, 6, 7}, "non-finite"},
        {"flat tet", {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0}, {4, 5, 6, 7}, "zero-volume"},
        {"sliver below 1e-14", {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1e-15}, {4, 5, 6, 7}, "zero-volume"},
    };
    // Tet 0 (file id 17) is valid; tet 1 (file id 1234) is the bad one.
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const bad_case *c = &cases[i];
        double x[24] = {10, 10, 10, 11, 10, 10, 10, 11, 10, 10, 10, 11};
        memcpy(x + 12, c->x, sizeof c->x);
        const int tets[] = {0, 1, 2, 3, c->tet[0], c->tet[1], c->tet[2], c->tet[3]};
        const long ids[] = {17, 1234};
        ipcc_mesh *m = NULL;
        ipcc_status s = ipcc_mesh_create(x, 8, tets, 2, "beam.msh", ids, &m);
        if (s != IPCC_ERR_MESH) fail_msg("%s: status %s", c->name, ipcc_status_name(s));
        assert_null(m);
        const char *msg = ipcc_last_error();
        if (!strstr(msg, "beam.msh: element 1234: ") || !strstr(msg, c->needle))
            fail_msg("%s: message '%s'", c->name, msg);
    }
}

static void test_valid_tiny_tet_is_scale_free(void **state) {
    (void)state;
    const double x[] = {0, 0, 0, 1e-6, 0, 0, 0, 1e-6, 0, 0, 0, 1e-6};
    const int tet[] = {0, 1, 2, 3};
    ipcc_mesh *m = NULL;
    assert_int_equal(ipcc_mesh_create(x, 4, tet, 1, "tiny", NULL, &m), IPCC_OK);
    ipcc_mesh_destroy(m);
}

static void test_default_names_and_empty(void **state) {
    (void)state;
    const int tet[] = {0, 1, 2, 2};
    ipcc_mesh *m = NULL;
    assert_int_equal(ipcc_mesh_create(five_vertices, 4, tet, 1, NULL, NULL, &m), IPCC_ERR_MESH);
    assert_non_null(strstr(ipcc_last_error(), "mesh: element 0:"));
    assert_int_equal(ipcc_mesh_create(five_vertices, 4, tet, 0, "empty", NULL, &m), IPCC_ERR_MESH);
    assert_non_null(strstr(ipcc_last_error(), "empty: no tetrahedra"));
    assert_null(m);
    ipcc_mesh_destroy(NULL);
}

static void test_non_manifold_and_overlap(void **state) {
    (void)state;
    // Three tets on face (0,1,2): apexes 3, 4 = (0,0,-1) and 5 = (1,1,1).
    const double x[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, -1, 1, 1, 1};
    const int three[] = {0, 1, 2, 3, 0, 2, 1, 4, 0, 1, 2, 5};
    const long ids[] = {10, 11, 12};
    ipcc_mesh *m = NULL;
    assert_int_equal(ipcc_mesh_create(x, 6, three, 3, "nm.msh", ids, &m), IPCC_ERR_MESH);
    assert_non_null(strstr(ipcc_last_error(), "nm.msh: element 12: non-manifold"));
    // Two tets on the same side of a shared face overlap.
    const int same_side[] = {0, 1, 2, 3, 0, 1, 2, 5};
    assert_int_equal(ipcc_mesh_create(x, 6, same_side, 2, "ov.msh", ids, &m), IPCC_ERR_MESH);
    assert_non_null(strstr(ipcc_last_error(), "ov.msh: element 11: overlaps element 10"));
    assert_null(m);
}

static void test_box_mesh(void **state) {
    (void)state;
    const double size[3] = {1.0, 0.2, 0.3};
    const int n[3] = {4, 2, 3};
    ipcc_mesh *m = NULL;
    assert_int_equal(ipcc_mesh_create_box(n[0], n[1], n[2], size, &m), IPCC_OK);
    assert_int_equal(m->num_vertices, 5 * 3 * 4);
    assert_int_equal(m->num_tets, 6 * 4 * 2 * 3);
    assert_int_equal(m->num_faces, 4 * (4 * 2 + 2 * 3 + 4 * 3));
    assert_int_equal(m->num_reoriented, 0);
    double volume = 0.0;
    for (int t = 0; t < m->num_tets; t++)
        volume += ipcc_test_tet_volume(m, t);
    assert_near(volume, 1.0 * 0.2 * 0.3, 1e-14, 0.0);
    check_surface(m);
    // Surface = the 4*3*... grid points on the boundary.
    assert_int_equal(m->num_surface_vertices, 5 * 3 * 4 - 3 * 1 * 2);
    for (int v = 0; v < m->num_vertices; v++)
        for (int k = 0; k < 3; k++) {
            assert_true(m->vertices[3 * v + k] >= 0.0);
            assert_true(m->vertices[3 * v + k] <= size[k]);
        }
    ipcc_mesh_destroy(m);

    assert_int_equal(ipcc_mesh_create_box(1, 1, 1, size, &m), IPCC_OK);
    assert_int_equal(m->num_tets, 6);
    check_surface(m);
    ipcc_mesh_destroy(m);
}

static void test_box_mesh_bad_arguments(void **state) {
    (void)state;
    const double size[3] = {1, 1, 1}, zero[3] = {1, 0, 1}, nan_size[3] = {1, 1, NAN};
    ipcc_mesh *m = NULL;
    assert_int_equal(ipcc_mesh_create_box(0, 1, 1, size, &m), IPCC_ERR_INVALID_ARGUMENT);
    assert_int_equal(ipcc_mesh_create_box(1, -2, 1, size, &m), IPCC_ERR_INVALID_ARGUMENT);
    assert_int_equal(ipcc_mesh_create_box(1, 1, 1, zero, &m), IPCC_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ipcc_last_error(), "size[1]"));
    assert_int_equal(ipcc_mesh_create_box(1, 1, 1, nan_size, &m), IPCC_ERR_INVALID_ARGUMENT);
    assert_int_equal(ipcc_mesh_create_box(1, 1, 1, NULL, &m), IPCC_ERR_INVALID_ARGUMENT);
    assert_int_equal(ipcc_mesh_create_box(2000, 2000, 2000, size, &m), IPCC_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ipcc_last_error(), "too many"));
    assert_null(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_tet),
        cmocka_unit_test(test_two_tets_share_a_face),
        cmocka_unit_test(test_orientation_fix_counted_and_logged),
        cmocka_unit_test(test_unreferenced_vertex_dropped),
        cmocka_unit_test(test_validation_errors_name_the_element),
        cmocka_unit_test(test_valid_tiny_tet_is_scale_free),
        cmocka_unit_test(test_default_names_and_empty),
        cmocka_unit_test(test_non_manifold_and_overlap),
        cmocka_unit_test(test_box_mesh),
        cmocka_unit_test(test_box_mesh_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
