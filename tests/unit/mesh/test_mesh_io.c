// Tests for src/mesh/mesh_io.c (ipcc_mesh_read) and the readers it picks
// (mesh_gmsh.c, mesh_tetgen.c): every supported format, cross-format
// agreement, skipped sections and element types, and malformed input
// (messages must name the file and the line or byte; nothing may crash).
// The readers' toolkit on its own: test_mesh_reader.c.
#include "support.h"
#include "world_checks.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipcc/mesh.h"

static ipcc_mesh *read_ok(const char *name) {
    ipcc_mesh *m = NULL;
    ipcc_status s = ipcc_mesh_read(ipcc_test_data_path(name), &m);
    if (s != IPCC_OK) fail_msg("%s: %s: %s", name, ipcc_status_name(s), ipcc_last_error());
    return m;
}

static void assert_vertex(const ipcc_mesh *m, int v, double x, double y, double z) {
    assert_true(v < m->num_vertices);
    assert_near(m->vertices[3 * v], x, 1e-15, 0.0);
    assert_near(m->vertices[3 * v + 1], y, 1e-15, 0.0);
    assert_near(m->vertices[3 * v + 2], z, 1e-15, 0.0);
}

// The same TetGen mesh of the unit cube in five files (see tests/data/README.md).
static void test_cube_in_every_format(void **state) {
    (void)state;
    const char *names[] = {"cube_msh22.msh",     "cube_msh22_bin.msh", "cube_msh41.msh",
                           "cube_msh41_bin.msh", "cube_tetgen.node",   "cube_tetgen.ele"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        ipcc_mesh *m = read_ok(names[i]);
        assert_int_equal(m->num_vertices, 50);
        assert_int_equal(m->num_tets, 68);
        assert_int_equal(m->num_faces, 96);
        assert_int_equal(m->num_edges, 144);
        assert_int_equal(m->num_unreferenced, 0);
        assert_near(ipcc_test_mesh_volume(m), 1.0, 1e-12, 0.0);
        assert_vertex(m, 0, 0, 0, 0);
        assert_vertex(m, 1, 1, 0, 0);
        assert_vertex(m, 6, 1, 1, 1);
        ipcc_mesh_destroy(m);
    }
}

// Gmsh's own mesh with $PhysicalNames and $Entities, ASCII and binary.
static void test_gmsh_generated(void **state) {
    (void)state;
    ipcc_mesh *a = read_ok("cube_gmsh41.msh"), *b = read_ok("cube_gmsh41_bin.msh");
    assert_int_equal(a->num_tets, 101);
    assert_int_equal(b->num_tets, a->num_tets);
    assert_int_equal(b->num_vertices, a->num_vertices);
    assert_memory_equal(a->tets, b->tets, 4 * sizeof(int) * (size_t)a->num_tets);
    // ASCII prints 16 significant digits: equal to the binary up to round-off.
    for (int i = 0; i < 3 * a->num_vertices; i++)
        assert_near(a->vertices[i], b->vertices[i], 1e-15, 0.0);
    assert_near(ipcc_test_mesh_volume(a), 1.0, 1e-12, 0.0);
    ipcc_mesh_destroy(a);
    ipcc_mesh_destroy(b);
}

static void test_ipc_surface_block_skipped(void **state) {
    (void)state;
    ipcc_mesh *m = read_ok("tet_ipc_surface.msh");
    assert_int_equal(m->num_tets, 1);
    assert_int_equal(m->num_faces, 4);
    assert_int_equal(m->num_reoriented, 1);
    assert_near(ipcc_test_mesh_volume(m), 8.0 / 6.0, 1e-14, 0.0);
    ipcc_mesh_destroy(m);
}

static void test_sparse_tags_and_mixed_elements(void **state) {
    (void)state;
    ipcc_mesh *m = read_ok("sparse41.msh");
    assert_int_equal(m->num_vertices, 5);
    assert_int_equal(m->num_tets, 2);
    assert_int_equal(m->num_faces, 6);
    assert_vertex(m, 1, 1, 0, 0); // tag 1000000, parametric coordinates skipped
    assert_vertex(m, 2, 0, 1, 0);
    assert_vertex(m, 4, 1, 1, 1);
    assert_near(ipcc_test_mesh_volume(m), 0.5, 1e-15, 0.0);
    ipcc_mesh_destroy(m);

    m = read_ok("mixed22.msh");
    assert_int_equal(m->num_vertices, 5);
    assert_int_equal(m->num_unreferenced, 1);
    assert_int_equal(m->num_tets, 2);
    assert_vertex(m, 4, 1, 1, 1);
    ipcc_mesh_destroy(m);
}

static void test_tetgen_zero_based(void **state) {
    (void)state;
    const char *names[] = {"zero_based.node", "zero_based.ele"};
    for (int i = 0; i < 2; i++) {
        ipcc_mesh *m = read_ok(names[i]);
        assert_int_equal(m->num_vertices, 5);
        assert_int_equal(m->num_tets, 2);
        assert_int_equal(m->num_reoriented, 1);
        assert_vertex(m, 4, 1, 1, 1);
        assert_near(ipcc_test_mesh_volume(m), 0.5, 1e-15, 0.0);
        ipcc_mesh_destroy(m);
    }
}

static void test_example_meshes(void **state) {
    (void)state;
    const struct {
        const char *path;
        double volume;
        int min_tets, max_tets;
    } meshes[] = {
        {IPCC_SOURCE_DIR "/meshes/beam.msh", 0.04, 1500, 3000},
        {IPCC_SOURCE_DIR "/meshes/beam_tetgen.node", 0.04, 1000, 3000},
        {IPCC_SOURCE_DIR "/meshes/bar.msh", 0.01, 2000, 4000},
    };
    for (size_t i = 0; i < sizeof meshes / sizeof meshes[0]; i++) {
        ipcc_mesh *m = NULL;
        if (ipcc_mesh_read(meshes[i].path, &m) != IPCC_OK) fail_msg("%s", ipcc_last_error());
        assert_in_range(m->num_tets, meshes[i].min_tets, meshes[i].max_tets);
        assert_near(ipcc_test_mesh_volume(m), meshes[i].volume, 1e-12, 0.0);
        assert_int_equal(m->num_surface_vertices - m->num_edges + m->num_faces, 2);
        ipcc_mesh_destroy(m);
    }
}

typedef struct bad_file {
    const char *name;
    ipcc_status status;
    const char *needle; // besides the file name
} bad_file;

static void test_malformed_files_rejected(void **state) {
    (void)state;
    const bad_file cases[] = {
        {"bad_truncated.msh", IPCC_ERR_PARSE, "bad_truncated.msh:9: unexpected end of file"},
        {"bad_number.msh", IPCC_ERR_PARSE, "bad_number.msh:8: bad number '1x'"},
        {"bad_undefined_node.msh", IPCC_ERR_PARSE, "bad_undefined_node.msh:14: element 2 references node 9"},
        {"bad_zero_volume.msh", IPCC_ERR_MESH, "bad_zero_volume.msh: element 7: zero-volume"},
        {"bad_repeated_vertex.msh", IPCC_ERR_MESH,
         "bad_repeated_vertex.msh: element 1: vertex index 2 repeated"},
        {"bad_version.msh", IPCC_ERR_PARSE, "bad_version.msh:2: unsupported msh version 3.0"},
        {"bad_no_end.msh", IPCC_ERR_PARSE,
         "bad_no_end.msh:14: unexpected end of file, expected $EndElements"},
        {"bad_negative_count.msh", IPCC_ERR_PARSE, "bad_negative_count.msh:5: negative node count"},
        {"bad_huge_count.msh", IPCC_ERR_PARSE, "bad_huge_count.msh:5: node count 999999999999 is larger"},
        {"bad_no_tets.msh", IPCC_ERR_MESH, "bad_no_tets.msh: no tetrahedra"},
        {"bad_unterminated_section.msh", IPCC_ERR_PARSE,
         "bad_unterminated_section.msh:11: section $Foo has no $EndFoo"},
        {"bad_binary_truncated.msh", IPCC_ERR_PARSE, "bad_binary_truncated.msh: $Nodes (binary, byte "},
        {"bad_binary22_truncated.msh", IPCC_ERR_PARSE,
         "bad_binary22_truncated.msh: $Elements (binary, byte "},
        {"bad_tetgen.ele", IPCC_ERR_PARSE, "bad_tetgen.ele:2: element 1 references node 7"},
        {"bad_tetgen.node", IPCC_ERR_PARSE, "bad_tetgen.node"},
        {"orphan.ele", IPCC_ERR_IO, "orphan.node: cannot open: "},
        {"missing.msh", IPCC_ERR_IO, "missing.msh: cannot open: No such file"},
        {"cube.geo", IPCC_ERR_INVALID_ARGUMENT, "cube.geo: unknown mesh format"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ipcc_mesh *m = NULL;
        ipcc_status s = ipcc_mesh_read(ipcc_test_data_path(cases[i].name), &m);
        assert_null(m);
        if (s != cases[i].status || !strstr(ipcc_last_error(), cases[i].needle))
            fail_msg("%s: %s: '%s'", cases[i].name, ipcc_status_name(s), ipcc_last_error());
    }
}

// ---------------------------------------------------------------------------
// Generated files: byte-swapped binary, and damaged copies of every fixture.

static char temp_path[256];

static const char *temp_file(const char *suffix) {
    snprintf(temp_path, sizeof temp_path, "/tmp/ipcc_test_mesh_io_%ld%s", (long)getpid(), suffix);
    return temp_path;
}

typedef struct byte_buf {
    unsigned char data[1024];
    size_t n;
    int swap;
} byte_buf;

static void put(byte_buf *b, const void *p, size_t n, int swappable) {
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++)
        b->data[b->n + i] = c[(b->swap && swappable) ? n - 1 - i : i];
    b->n += n;
}
static void put_text(byte_buf *b, const char *s) { put(b, s, strlen(s), 0); }
static void put_int(byte_buf *b, int32_t v) { put(b, &v, 4, 1); }
static void put_double(byte_buf *b, double v) { put(b, &v, 8, 1); }

// A msh 2.2 binary file with one tet, written in native or swapped byte order.
static void build_msh22_binary(byte_buf *b, int swap) {
    b->n = 0;
    b->swap = swap;
    put_text(b, "$MeshFormat\n2.2 1 8\n");
    put_int(b, 1);
    put_text(b, "\n$EndMeshFormat\n$Nodes\n4\n");
    const double x[4][3] = {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}, {0, 0, 2}};
    for (int i = 0; i < 4; i++) {
        put_int(b, 10 + i);
        for (int k = 0; k < 3; k++)
            put_double(b, x[i][k]);
    }
    put_text(b, "\n$EndNodes\n$Elements\n1\n");
    const int32_t header[3] = {4, 1, 2}, element[7] = {77, 0, 1, 10, 11, 12, 13};
    for (int i = 0; i < 3; i++)
        put_int(b, header[i]);
    for (int i = 0; i < 7; i++)
        put_int(b, element[i]);
    put_text(b, "\n$EndElements\n");
}

static void test_binary_byte_order(void **state) {
    (void)state;
    byte_buf b;
    for (int swap = 0; swap < 2; swap++) {
        build_msh22_binary(&b, swap);
        const char *path = temp_file(".msh");
        ipcc_test_write_file(path, b.data, b.n);
        ipcc_mesh *m = NULL;
        if (ipcc_mesh_read(path, &m) != IPCC_OK) fail_msg("swap %d: %s", swap, ipcc_last_error());
        assert_int_equal(m->num_tets, 1);
        assert_vertex(m, 1, 2, 0, 0);
        assert_near(ipcc_test_mesh_volume(m), 8.0 / 6.0, 1e-14, 0.0);
        ipcc_mesh_destroy(m);
        // A bad endianness word is rejected.
        b.data[strlen("$MeshFormat\n2.2 1 8\n")] = 7;
        ipcc_test_write_file(path, b.data, b.n);
        assert_int_equal(ipcc_mesh_read(path, &m), IPCC_ERR_PARSE);
        assert_non_null(strstr(ipcc_last_error(), "endianness"));
        remove(path);
    }
}

// A non-finite coordinate in a text file is named with its line, in both
// formats, even on a node no tet uses.
static void test_non_finite_coordinate_names_line(void **state) {
    (void)state;
    const struct {
        const char *suffix, *text, *needle;
    } cases[] = {
        {".msh",
         "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n5\n1 0 0 0\n2 1 0 nan\n3 0 1 0\n4 0 0 1\n"
         "5 0 0 0\n$EndNodes\n$Elements\n1\n1 4 0 1 2 3 4\n$EndElements\n",
         ":7: non-finite node coordinate 'nan'"},
        {".msh",
         "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n5\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n"
         "5 -inf 0 0\n$EndNodes\n$Elements\n1\n1 4 0 1 2 3 4\n$EndElements\n",
         ":10: non-finite node coordinate '-inf'"},
        {".node", "4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1e999 0\n4 0 0 1\n",
         ":4: non-finite point coordinate '1e999'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *path = temp_file(cases[i].suffix);
        ipcc_test_write_file(path, cases[i].text, strlen(cases[i].text));
        char ele[300];
        snprintf(ele, sizeof ele, "%.*s.ele", (int)(strlen(path) - 5), path);
        if (!strcmp(cases[i].suffix, ".node")) ipcc_test_write_file(ele, "1 4 0\n1 1 2 3 4\n", 16);
        ipcc_mesh *m = NULL;
        assert_int_equal(ipcc_mesh_read(path, &m), IPCC_ERR_PARSE);
        assert_null(m);
        if (!strstr(ipcc_last_error(), path) || !strstr(ipcc_last_error(), cases[i].needle))
            fail_msg("case %zu: '%s' lacks '%s'", i, ipcc_last_error(), cases[i].needle);
        remove(path);
        if (!strcmp(cases[i].suffix, ".node")) remove(ele);
    }
}

// Every prefix (in steps) and many single-byte corruptions of each fixture
// must either read or fail with a message naming the file; never crash.
static void test_damaged_copies_never_crash(void **state) {
    (void)state;
    const char *names[] = {"cube_msh22.msh",     "cube_msh22_bin.msh",  "cube_msh41.msh",
                           "cube_msh41_bin.msh", "cube_gmsh41_bin.msh", "sparse41.msh",
                           "mixed22.msh",        "tet_ipc_surface.msh"};
    const char *path = temp_file(".msh");
    ipcc_test_seed(12345);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t n;
        unsigned char *orig = (unsigned char *)ipcc_test_read_file(ipcc_test_data_path(names[i]), &n);
        size_t step = n / 100 + 1;
        for (size_t cut = 0; cut < n; cut += step) {
            ipcc_test_write_file(path, orig, cut);
            ipcc_mesh *m = NULL;
            ipcc_status s = ipcc_mesh_read(path, &m);
            if (s == IPCC_OK)
                ipcc_mesh_destroy(m);
            else if (!strstr(ipcc_last_error(), path))
                fail_msg("%s cut at %zu: '%s'", names[i], cut, ipcc_last_error());
        }
        unsigned char *copy = malloc(n);
        assert_non_null(copy);
        const unsigned char junk[] = {'$', '-', '9', 'x', ' ', '\n', 0x00, 0xff, 0x7f};
        for (int trial = 0; trial < 100; trial++) {
            memcpy(copy, orig, n);
            size_t at = (size_t)ipcc_test_random(0.0, (double)n);
            copy[at < n ? at : n - 1] = junk[(int)ipcc_test_random(0.0, 9.0) % 9];
            ipcc_test_write_file(path, copy, n);
            ipcc_mesh *m = NULL;
            ipcc_status s = ipcc_mesh_read(path, &m);
            if (s == IPCC_OK)
                ipcc_mesh_destroy(m);
            else if (!strstr(ipcc_last_error(), path))
                fail_msg("%s corrupted at %zu: '%s'", names[i], at, ipcc_last_error());
        }
        free(copy);
        free(orig);
    }
    remove(path);
}

// The original IPC's own meshes (Gmsh 4.1 with a $Surface block) load with
// the expected counts, positive tets and a closed surface.
static void test_original_ipc_meshes(void **state) {
    (void)state;
    static const struct {
        const char *name;
        int vertices, tets;
        double volume;
    } meshes[] = {{"ipc/tet.msh", 4, 1, 1.0 / 6.0},
                  {"ipc/cube.msh", 8, 6, 1.0},
                  {"ipc/rod.msh", 630, 1722, 0.0012}}; // rod: 12-gon section, area 3 r^2, r = 0.02, L = 1
    for (size_t k = 0; k < sizeof meshes / sizeof *meshes; ++k) {
        ipcc_mesh *m = NULL;
        assert_int_equal(ipcc_mesh_read(ipcc_test_data_path(meshes[k].name), &m), IPCC_OK);
        assert_int_equal(m->num_vertices, meshes[k].vertices);
        assert_int_equal(m->num_tets, meshes[k].tets);
        assert_near(ipcc_test_mesh_volume(m), meshes[k].volume, 0, 1e-6);           // files store 7 digits
        assert_int_equal(m->num_surface_vertices - m->num_edges + m->num_faces, 2); // closed, genus 0
        ipcc_mesh_destroy(m);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cube_in_every_format),
        cmocka_unit_test(test_gmsh_generated),
        cmocka_unit_test(test_ipc_surface_block_skipped),
        cmocka_unit_test(test_sparse_tags_and_mixed_elements),
        cmocka_unit_test(test_tetgen_zero_based),
        cmocka_unit_test(test_example_meshes),
        cmocka_unit_test(test_malformed_files_rejected),
        cmocka_unit_test(test_binary_byte_order),
        cmocka_unit_test(test_non_finite_coordinate_names_line),
        cmocka_unit_test(test_damaged_copies_never_crash),
        cmocka_unit_test(test_original_ipc_meshes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
