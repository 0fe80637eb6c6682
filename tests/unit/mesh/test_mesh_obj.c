// Tests for src/mesh/mesh_obj.c: triangle meshes from arrays and from Wavefront
// .obj files (tests/data/obj): counts, coordinates, fan triangulation, edge
// sets, every face-vertex form, relative indices, CRLF, and malformed files
// (the message must name the file and the line).
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exact_intersection.h"
#include "ipcc/mesh.h"

static ipcc_trimesh *read_ok(const char *name) {
    ipcc_trimesh *m = NULL;
    ipcc_status s = ipcc_trimesh_read_obj(ipcc_test_data_path(name), &m);
    if (s != IPCC_OK) fail_msg("%s: %s: %s", name, ipcc_status_name(s), ipcc_last_error());
    assert_non_null(m);
    return m;
}

// Six times the enclosed volume: sum over faces of p0 . (p1 x p2).
static double six_volume(const ipcc_trimesh *m) {
    double sum = 0;
    for (int f = 0; f < m->num_faces; f++) {
        const double *p = m->vertices + 3 * m->faces[3 * f], *q = m->vertices + 3 * m->faces[3 * f + 1],
                     *r = m->vertices + 3 * m->faces[3 * f + 2];
        sum += p[0] * (q[1] * r[2] - q[2] * r[1]) + p[1] * (q[2] * r[0] - q[0] * r[2]) +
               p[2] * (q[0] * r[1] - q[1] * r[0]);
    }
    return sum;
}

// Edges must be the unique sorted pairs of the face edges, each used by a face.
static void check_edges(const ipcc_trimesh *m) {
    for (int e = 0; e < m->num_edges; e++) {
        const int *p = m->edges + 2 * e;
        assert_true(p[0] < p[1]);
        assert_true(p[0] >= 0 && p[1] < m->num_vertices);
        if (e > 0) {
            const int *q = p - 2;
            assert_true(q[0] < p[0] || (q[0] == p[0] && q[1] < p[1]));
        }
        bool used = false;
        for (int f = 0; f < m->num_faces && !used; f++) {
            const int *t = m->faces + 3 * f;
            for (int i = 0; i < 3; i++) {
                int a = t[i], b = t[(i + 1) % 3];
                if ((a == p[0] && b == p[1]) || (a == p[1] && b == p[0])) used = true;
            }
        }
        assert_true(used);
    }
    for (int f = 0; f < m->num_faces; f++)
        for (int i = 0; i < 3; i++) {
            int a = m->faces[3 * f + i], b = m->faces[3 * f + (i + 1) % 3];
            bool found = false;
            for (int e = 0; e < m->num_edges && !found; e++)
                found = m->edges[2 * e] == (a < b ? a : b) && m->edges[2 * e + 1] == (a < b ? b : a);
            assert_true(found);
        }
}

static const double cube_vertices[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                           {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
// cube.obj's faces, 0-based.
static const int cube_faces[12][3] = {{0, 3, 2}, {0, 2, 1}, {4, 5, 6}, {4, 6, 7}, {0, 1, 5}, {0, 5, 4},
                                      {3, 7, 6}, {3, 6, 2}, {0, 4, 7}, {0, 7, 3}, {1, 2, 6}, {1, 6, 5}};

static void check_cube(const char *name) {
    ipcc_trimesh *m = read_ok(name);
    assert_int_equal(m->num_vertices, 8);
    assert_int_equal(m->num_faces, 12);
    assert_int_equal(m->num_edges, 18);
    assert_memory_equal(m->vertices, cube_vertices, sizeof cube_vertices);
    assert_memory_equal(m->faces, cube_faces, sizeof cube_faces);
    assert_true(six_volume(m) == 6.0); // closed and outward
    check_edges(m);
    assert_int_equal(ipcc_test_find_triangle_intersections(m->num_vertices, m->vertices, m->num_faces,
                                                           m->faces, 0, NULL, NULL),
                     0);
    ipcc_trimesh_destroy(m);
}

static void test_cube(void **state) {
    (void)state;
    check_cube("obj/cube.obj");
}

// i/t, i//n, i/t/n, w, colours, vt, vn, l and p give the same cube.
static void test_face_vertex_forms(void **state) {
    (void)state;
    check_cube("obj/cube_slashes.obj");
}

static void test_relative_indices(void **state) {
    (void)state;
    check_cube("obj/cube_negative.obj");
}

static void test_quads_fan_triangulated(void **state) {
    (void)state;
    ipcc_trimesh *m = read_ok("obj/quad_plane.obj");
    assert_int_equal(m->num_vertices, 16);
    assert_int_equal(m->num_faces, 18);
    assert_int_equal(m->num_edges, 24 + 9); // grid lines and one diagonal per quad
    // "f 1 2 6 5" -> (0, 1, 5), (0, 5, 4)
    const int first[6] = {0, 1, 5, 0, 5, 4};
    assert_memory_equal(m->faces, first, sizeof first);
    assert_true(m->vertices[3 * 15] == 3.0 && m->vertices[3 * 15 + 1] == 3.0 &&
                m->vertices[3 * 15 + 2] == 0.0);
    check_edges(m);
    ipcc_trimesh_destroy(m);

    m = read_ok("obj/hexagon.obj");
    assert_int_equal(m->num_faces, 4);
    assert_int_equal(m->num_edges, 9);
    const int fan[12] = {0, 1, 2, 0, 2, 3, 0, 3, 4, 0, 4, 5};
    assert_memory_equal(m->faces, fan, sizeof fan);
    assert_true(m->vertices[3 * 1 + 1] == 1.7320508075688772);
    check_edges(m);
    ipcc_trimesh_destroy(m);
}

static char temp_path[256];

static const char *write_temp(const char *text) {
    snprintf(temp_path, sizeof temp_path, "/tmp/ipcc_test_mesh_obj_%ld.obj", (long)getpid());
    FILE *f = fopen(temp_path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
    fclose(f);
    return temp_path;
}

// CRLF line ends, tabs, blank lines, comments, no final newline, forward references.
static void test_crlf_and_layout(void **state) {
    (void)state;
    const char *text = "# CRLF\r\n\r\nv\t0 0 0\r\n  v 1 0 0 \r\nf 1 2 3 # vertex 3 comes later\r\n"
                       "v 0 1 0\r\n\r\n#\r\nv 0 0 1\r\nf -4 -2 -1\r\nf 2//1 3//1 4//1";
    const char *path = write_temp(text);
    ipcc_trimesh *m = NULL;
    if (ipcc_trimesh_read_obj(path, &m) != IPCC_OK) fail_msg("%s", ipcc_last_error());
    assert_int_equal(m->num_vertices, 4);
    assert_int_equal(m->num_faces, 3);
    const int faces[9] = {0, 1, 2, 0, 2, 3, 1, 2, 3};
    assert_memory_equal(m->faces, faces, sizeof faces);
    assert_true(m->vertices[3 * 3 + 2] == 1.0);
    assert_int_equal(m->num_edges, 6);
    check_edges(m);
    ipcc_trimesh_destroy(m);
    remove(path);
}

static int warnings;
static char last_warning[1024];

static void capture(ipcc_log_level level, const char *message, void *user) {
    (void)user;
    if (level != IPCC_LOG_WARNING) return;
    warnings++;
    snprintf(last_warning, sizeof last_warning, "%s", message);
}

static void test_warnings(void **state) {
    (void)state;
    warnings = 0;
    ipcc_set_log(capture, NULL);
    ipcc_trimesh *m = read_ok("obj/zero_area.obj");
    assert_int_equal(m->num_faces, 2);
    assert_int_equal(warnings, 1);
    assert_non_null(strstr(last_warning, "zero_area.obj:7: zero-area face"));
    ipcc_trimesh_destroy(m);

    // An unsupported statement is skipped with one warning for all of them.
    warnings = 0;
    const char *path = write_temp("v 0 0 0\nv 1 0 0\nv 0 1 0\ncstype bspline\nf 1 2 3\ncurv 0 1 1 2\n");
    assert_int_equal(ipcc_trimesh_read_obj(path, &m), IPCC_OK);
    assert_int_equal(warnings, 1);
    assert_non_null(strstr(last_warning, ":4: skipped unsupported statement 'cstype' (2 such lines"));
    ipcc_trimesh_destroy(m);

    // Vertices in no face are kept, with a warning.
    warnings = 0;
    path = write_temp("v 0 0 0\nv 1 0 0\nv 5 5 5\nv 0 1 0\nf 1 2 4\n");
    assert_int_equal(ipcc_trimesh_read_obj(path, &m), IPCC_OK);
    assert_int_equal(m->num_vertices, 4);
    assert_int_equal(warnings, 1);
    assert_non_null(strstr(last_warning, "1 of 4 vertices are in no face"));
    ipcc_trimesh_destroy(m);
    ipcc_set_log(NULL, NULL);
    remove(path);
}

static ipcc_trimesh dummy; // a non-NULL *out that failures must reset

typedef struct bad_file {
    const char *name;
    ipcc_status status;
    const char *needle; // "<file>:<line>: <what>"
} bad_file;

static void test_malformed_files_rejected(void **state) {
    (void)state;
    const bad_file cases[] = {
        {"missing.obj", IPCC_ERR_IO, "obj/missing.obj: cannot open: No such file"},
        {"bad_number.obj", IPCC_ERR_PARSE, "bad_number.obj:5: bad number 'abc' in vertex 5"},
        {"bad_nan.obj", IPCC_ERR_PARSE, "bad_nan.obj:3: non-finite coordinate 'nan'"},
        {"bad_inf.obj", IPCC_ERR_PARSE, "bad_inf.obj:4: non-finite coordinate 'inf'"},
        {"bad_short_vertex.obj", IPCC_ERR_PARSE, "bad_short_vertex.obj:2: vertex with 2 coordinates"},
        {"bad_index_zero.obj", IPCC_ERR_PARSE, "bad_index_zero.obj:5: vertex index 0"},
        {"bad_index_range.obj", IPCC_ERR_PARSE, "bad_index_range.obj:6: vertex index 4 out of range"},
        {"bad_relative_range.obj", IPCC_ERR_PARSE,
         "bad_relative_range.obj:3: relative vertex index -3, but only 2 vertices"},
        {"bad_short_face.obj", IPCC_ERR_PARSE, "bad_short_face.obj:4: face with 2 vertices"},
        {"bad_face_vertex.obj", IPCC_ERR_PARSE, "bad_face_vertex.obj:4: bad face vertex '1/x'"},
        {"bad_repeated.obj", IPCC_ERR_MESH, "bad_repeated.obj:6: face repeats vertex 2"},
        {"bad_repeated_relative.obj", IPCC_ERR_MESH, "bad_repeated_relative.obj:4: face repeats vertex 3"},
        {"bad_no_faces.obj", IPCC_ERR_MESH, "bad_no_faces.obj:5: end of file, and no faces"},
    };
    char name[128];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(name, sizeof name, "obj/%s", cases[i].name);
        ipcc_trimesh *m = &dummy; // must be reset to NULL
        ipcc_status s = ipcc_trimesh_read_obj(ipcc_test_data_path(name), &m);
        assert_null(m);
        if (s != cases[i].status || !strstr(ipcc_last_error(), cases[i].needle))
            fail_msg("%s: %s: '%s'", cases[i].name, ipcc_status_name(s), ipcc_last_error());
    }
    // Generated variants: more values than x y z w r g b, NUL bytes, huge indices.
    const struct {
        const char *text, *needle;
    } generated[] = {
        {"v 0 0 0 1 1 1 1 1\n", ":1: vertex with more than 7 values"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 99999999999999999999\n", ":4: vertex index"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3/\n", ":4: bad face vertex '3/'"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3//\n", ":4: bad face vertex '3//'"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 +\n", ":4: bad face vertex '+'"},
        {"v 0 0 0\nv 1e999 0 0\n", ":2: non-finite coordinate '1e999'"},
        {"", ": the file is empty"},
    };
    for (size_t i = 0; i < sizeof generated / sizeof *generated; i++) {
        const char *path = write_temp(generated[i].text);
        ipcc_trimesh *m = NULL;
        assert_true(ipcc_trimesh_read_obj(path, &m) < 0);
        assert_null(m);
        if (!strstr(ipcc_last_error(), path) || !strstr(ipcc_last_error(), generated[i].needle))
            fail_msg("case %zu: '%s'", i, ipcc_last_error());
        remove(path);
    }
    const char nul[] = "v 0 0 0\nv 1\0 0 0\n";
    const char *path = write_temp("");
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fwrite(nul, 1, sizeof nul - 1, f);
    fclose(f);
    ipcc_trimesh *m = NULL;
    assert_int_equal(ipcc_trimesh_read_obj(path, &m), IPCC_ERR_PARSE);
    assert_non_null(strstr(ipcc_last_error(), ":2: NUL byte"));
    remove(path);
}

static void test_create_from_arrays(void **state) {
    (void)state;
    ipcc_trimesh *m = NULL;
    assert_int_equal(ipcc_trimesh_create(8, &cube_vertices[0][0], 12, &cube_faces[0][0], "cube", &m),
                     IPCC_OK);
    assert_int_equal(m->num_edges, 18);
    assert_true(six_volume(m) == 6.0);
    check_edges(m);
    ipcc_trimesh_destroy(m);
    ipcc_trimesh_destroy(NULL);

    const int bad_index[3] = {0, 1, 8}, repeated[3] = {2, 5, 2};
    const double nan_vertices[9] = {0, 0, 0, 1, 0, 0, 0, NAN, 0};
    const int tri[3] = {0, 1, 2};
    m = &dummy;
    assert_int_equal(ipcc_trimesh_create(8, &cube_vertices[0][0], 1, bad_index, "arr", &m), IPCC_ERR_MESH);
    assert_null(m);
    assert_non_null(strstr(ipcc_last_error(), "arr: face 0: vertex index 8 out of range"));
    assert_int_equal(ipcc_trimesh_create(8, &cube_vertices[0][0], 1, repeated, NULL, &m), IPCC_ERR_MESH);
    assert_non_null(strstr(ipcc_last_error(), "triangle mesh: face 0: vertex index 2 repeated"));
    assert_int_equal(ipcc_trimesh_create(3, nan_vertices, 1, tri, "arr", &m), IPCC_ERR_MESH);
    assert_non_null(strstr(ipcc_last_error(), "arr: vertex 2: non-finite"));
    assert_int_equal(ipcc_trimesh_create(3, nan_vertices, 0, tri, "arr", &m), IPCC_ERR_MESH);
    assert_non_null(strstr(ipcc_last_error(), "arr: no faces"));
    assert_int_equal(ipcc_trimesh_create(-1, nan_vertices, 1, tri, "arr", &m), IPCC_ERR_INVALID_ARGUMENT);
    assert_null(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cube),
        cmocka_unit_test(test_face_vertex_forms),
        cmocka_unit_test(test_relative_indices),
        cmocka_unit_test(test_quads_fan_triangulated),
        cmocka_unit_test(test_crlf_and_layout),
        cmocka_unit_test(test_warnings),
        cmocka_unit_test(test_malformed_files_rejected),
        cmocka_unit_test(test_create_from_arrays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
