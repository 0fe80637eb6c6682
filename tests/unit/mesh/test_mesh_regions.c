// Tests for mesh regions (src/mesh/mesh_regions.c and the region parts of
// src/mesh/mesh_gmsh.c and src/mesh/mesh_tetgen.c): Gmsh physical groups in 2.2 and
// 4.1, ASCII and binary, with their $PhysicalNames; TetGen region
// attributes; malformed region data named by file and line; the C API.
//
// The fixtures (tests/data/README.md) are two unit cubes side by side,
// x in [0, 1] (region 7, "soft") and [1, 2] (region 9, "stiff"): every
// tet's region must match the side its centroid is on, and each region's
// volume must be 1.
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipcc/mesh.h"

static ipcc_mesh *read_ok(const char *name) {
    ipcc_mesh *m = NULL;
    ipcc_status s = ipcc_mesh_read(ipcc_test_data_path(name), &m);
    if (s != IPCC_OK) fail_msg("%s: %s: %s", name, ipcc_status_name(s), ipcc_last_error());
    return m;
}

static double tet_volume(const ipcc_mesh *m, int t) {
    const double *x[4];
    for (int k = 0; k < 4; k++)
        x[k] = m->vertices + 3 * m->tets[4 * t + k];
    double a[3], b[3], c[3];
    for (int i = 0; i < 3; i++) {
        a[i] = x[1][i] - x[0][i];
        b[i] = x[2][i] - x[0][i];
        c[i] = x[3][i] - x[0][i];
    }
    return (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
            a[2] * (b[0] * c[1] - b[1] * c[0])) /
           6.0;
}

static double centroid_x(const ipcc_mesh *m, int t) {
    double s = 0;
    for (int k = 0; k < 4; k++)
        s += m->vertices[3 * m->tets[4 * t + k]] / 4.0;
    return s;
}

// Regions 7 (x < 1) and 9 (x > 1), each of volume 1.
static void assert_two_cubes(const ipcc_mesh *m, bool named) {
    assert_non_null(m->tet_regions);
    assert_int_equal(m->num_regions, 2);
    assert_int_equal(m->region_numbers[0], 7);
    assert_int_equal(m->region_numbers[1], 9);
    if (named) {
        assert_string_equal(m->region_names[0], "soft");
        assert_string_equal(m->region_names[1], "stiff");
    } else {
        assert_null(m->region_names[0]);
        assert_null(m->region_names[1]);
    }
    double volume[2] = {0, 0};
    for (int t = 0; t < m->num_tets; t++) {
        int want = centroid_x(m, t) < 1.0 ? 7 : 9;
        assert_int_equal(m->tet_regions[t], want);
        volume[want == 9] += tet_volume(m, t);
    }
    assert_near(volume[0], 1.0, 1e-12, 0.0);
    assert_near(volume[1], 1.0, 1e-12, 0.0);
    assert_int_equal(ipcc_mesh_find_region(m, "soft"), named ? 0 : -1);
    assert_int_equal(ipcc_mesh_find_region(m, "stiff"), named ? 1 : -1);
    assert_int_equal(ipcc_mesh_find_region(m, "7"), 0);
    assert_int_equal(ipcc_mesh_find_region(m, "9"), 1);
    assert_int_equal(ipcc_mesh_find_region(m, "8"), -1);
    assert_int_equal(ipcc_mesh_find_region(m, "0"), -1);
    assert_int_equal(ipcc_mesh_find_region(m, "7x"), -1);
    assert_int_equal(ipcc_mesh_find_region(m, ""), -1);
    assert_int_equal(ipcc_mesh_region_index(m, 9), 1);
    assert_int_equal(ipcc_mesh_region_index(m, 0), -1);
}

// One Gmsh mesh in 2.2 and 4.1, ASCII and binary (tests/data/regions.geo).
static void test_gmsh_physical_groups_every_format(void **state) {
    (void)state;
    const char *names[] = {"regions22.msh", "regions22_bin.msh", "regions41.msh", "regions41_bin.msh"};
    ipcc_mesh *first = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        ipcc_mesh *m = read_ok(names[i]);
        assert_int_equal(m->num_tets, 200);
        assert_two_cubes(m, true);
        if (!first) {
            first = m;
            continue;
        }
        assert_int_equal(m->num_tets, first->num_tets);
        assert_memory_equal(m->tet_regions, first->tet_regions, sizeof(int) * (size_t)m->num_tets);
        ipcc_mesh_destroy(m);
    }
    ipcc_mesh_destroy(first);
}

// TetGen -A: the first .ele attribute is the region (no names).
static void test_tetgen_region_attributes(void **state) {
    (void)state;
    const char *names[] = {"regions_tetgen.ele", "regions_tetgen.node"};
    for (size_t i = 0; i < 2; i++) {
        ipcc_mesh *m = read_ok(names[i]);
        assert_int_equal(m->num_tets, 136);
        assert_two_cubes(m, false);
        ipcc_mesh_destroy(m);
    }
    // Attributes 1.0 and 2.0 (written as reals): regions 1 and 2.
    ipcc_mesh *m = read_ok("zero_based.ele");
    assert_int_equal(m->num_regions, 2);
    assert_int_equal(m->tet_regions[0], 1);
    assert_int_equal(m->tet_regions[1], 2);
    ipcc_mesh_destroy(m);
}

// Files without physical volumes or attributes have no regions; names of
// other dimensions are not regions; a volume name without tets is one.
static void test_meshes_without_regions(void **state) {
    (void)state;
    const char *none[] = {"cube_msh22.msh", "cube_msh41_bin.msh", "cube_tetgen.ele", "tet_ipc_surface.msh"};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        ipcc_mesh *m = read_ok(none[i]);
        assert_null(m->tet_regions);
        assert_int_equal(m->num_regions, 0);
        assert_int_equal(ipcc_mesh_find_region(m, "1"), -1);
        ipcc_mesh_destroy(m);
    }
    // mixed22.msh: "top" (dimension 2) is not kept, "body" (3, tag 6) is.
    ipcc_mesh *m = read_ok("mixed22.msh");
    assert_int_equal(m->num_regions, 1);
    assert_int_equal(m->region_numbers[0], 6);
    assert_string_equal(m->region_names[0], "body");
    assert_int_equal(ipcc_mesh_find_region(m, "top"), -1);
    for (int t = 0; t < m->num_tets; t++)
        assert_int_equal(m->tet_regions[t], 6);
    ipcc_mesh_destroy(m);
}

// Malformed region data: IPCC_ERR_PARSE naming "file:line" and the fault.
static void test_malformed_regions_name_file_and_line(void **state) {
    (void)state;
    static const struct {
        const char *file, *where, *what;
    } cases[] = {
        {"bad_regions22_short_tags.msh", "bad_regions22_short_tags.msh:13:", "tag count"},
        {"bad_regions22_long_tags.msh", "bad_regions22_long_tags.msh:13:", "tag count 1 does not fit"},
        {"bad_names_unquoted.msh", "bad_names_unquoted.msh:6:", "double quotes"},
        {"bad_names_duplicate.msh", "bad_names_duplicate.msh:7:", "\"soft\" is given twice"},
        {"bad_regions41_entity.msh",
         "bad_regions41_entity.msh:7:", "volume entity 2 is in no physical group"},
        {"bad_regions_tetgen.ele", "bad_regions_tetgen.ele:3:", "region attribute"},
        {"bad_region_fraction.ele", "bad_region_fraction.ele:3:", "1.5 is not an integer"},
        {"bad_regions41_no_entity.msh",
         "bad_regions41_no_entity.msh:33:", "element 2: volume entity 5 is not in $Entities"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ipcc_mesh *m = (ipcc_mesh *)1;
        ipcc_status s = ipcc_mesh_read(ipcc_test_data_path(cases[i].file), &m);
        const char *msg = ipcc_last_error();
        if (s != IPCC_ERR_PARSE || !strstr(msg, cases[i].where) || !strstr(msg, cases[i].what))
            fail_msg("%s: status %s, message \"%s\"", cases[i].file, ipcc_status_name(s), msg);
        assert_null(m);
    }
}

// The C API: set, replace, find; a refused call leaves the mesh unchanged.
static void test_set_regions_api(void **state) {
    (void)state;
    ipcc_mesh *m = NULL;
    double size[3] = {2, 1, 1};
    assert_int_equal(ipcc_mesh_create_box(2, 1, 1, size, &m), IPCC_OK);
    assert_null(m->tet_regions);
    int *regions = calloc((size_t)m->num_tets, sizeof *regions);
    for (int t = 0; t < m->num_tets; t++)
        regions[t] = centroid_x(m, t) < 1.0 ? 3 : -4;
    const int numbers[] = {3, 5};
    const char *names[] = {"left", "unused"};
    assert_int_equal(ipcc_mesh_set_regions(m, regions, 2, numbers, names), IPCC_OK);
    assert_int_equal(m->num_regions, 3); // -4 (unnamed), 3 "left", 5 "unused" (no tets)
    assert_int_equal(m->region_numbers[0], -4);
    assert_null(m->region_names[0]);
    assert_string_equal(m->region_names[1], "left");
    assert_string_equal(m->region_names[2], "unused");
    assert_int_equal(ipcc_mesh_find_region(m, "-4"), 0);
    assert_int_equal(ipcc_mesh_find_region(m, "left"), 1);
    assert_int_equal(ipcc_mesh_find_region(m, "5"), 2);

    // Refused: a name for 0, two names for 3, one name for 3 and 5, an empty name.
    const int bad_numbers[][2] = {{0, 5}, {3, 3}, {3, 5}, {3, 5}};
    const char *bad_names[][2] = {{"a", "b"}, {"a", "b"}, {"a", "a"}, {"", "b"}};
    for (int k = 0; k < 4; k++) {
        assert_int_equal(ipcc_mesh_set_regions(m, NULL, 2, bad_numbers[k], bad_names[k]),
                         IPCC_ERR_INVALID_ARGUMENT);
        assert_int_equal(m->num_regions, 3);
        assert_int_equal(m->tet_regions[0], regions[0]);
    }
    // All zero and nothing named: no regions at all.
    assert_int_equal(ipcc_mesh_set_regions(m, NULL, 0, NULL, NULL), IPCC_OK);
    assert_null(m->tet_regions);
    assert_null(m->region_numbers);
    assert_int_equal(m->num_regions, 0);
    free(regions);
    ipcc_mesh_destroy(m);
}

// The committed example mesh (meshes/two_bar.geo): "soft" x < 0.5, "stiff" x > 0.5.
static void test_example_two_bar(void **state) {
    (void)state;
    ipcc_mesh *m = NULL;
    assert_int_equal(ipcc_mesh_read(IPCC_SOURCE_DIR "/meshes/two_bar.msh", &m), IPCC_OK);
    int soft = ipcc_mesh_find_region(m, "soft"), stiff = ipcc_mesh_find_region(m, "stiff");
    assert_true(soft >= 0 && stiff >= 0);
    double volume[2] = {0, 0};
    for (int t = 0; t < m->num_tets; t++) {
        int r = ipcc_mesh_region_index(m, m->tet_regions[t]);
        assert_int_equal(r, centroid_x(m, t) < 0.5 ? soft : stiff);
        volume[r == stiff] += tet_volume(m, t);
    }
    assert_near(volume[0], 0.005, 1e-12, 0.0);
    assert_near(volume[1], 0.005, 1e-12, 0.0);
    ipcc_mesh_destroy(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gmsh_physical_groups_every_format),
        cmocka_unit_test(test_tetgen_region_attributes),
        cmocka_unit_test(test_meshes_without_regions),
        cmocka_unit_test(test_malformed_regions_name_file_and_line),
        cmocka_unit_test(test_set_regions_api),
        cmocka_unit_test(test_example_two_bar),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
