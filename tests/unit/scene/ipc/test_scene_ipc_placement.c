// Tests for src/scene/ipc/scene_ipc_placement.c: a shape's affine placement
// x = A p + b composed with later maps (applied after it, in order), placed
// vertices, the bounding box over the shapes of a kind and up, a shape's
// centre (all vertices or a list), and the loader's out-of-memory message.
#include "support.h"

#include <math.h>
#include <string.h>

#include "scene/ipc/scene_ipc_placement.h"

// Four raw vertices of a unit right tetrahedron corner.
static const double raw[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};

static shape identity_shape(int kind) {
    shape sh;
    memset(&sh, 0, sizeof sh);
    sh.kind = kind;
    sh.nv = 4;
    sh.raw = raw;
    const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    memcpy(sh.A, I, sizeof I);
    return sh;
}

static void assert_vec3(const double *v, double x, double y, double z) {
    assert_near(v[0], x, 0, 0);
    assert_near(v[1], y, 0, 0);
    assert_near(v[2], z, 0, 0);
}

static void test_compose_and_placed(void **state) {
    (void)state;
    shape sh = identity_shape(KIND_TETS);
    // Scale by 2 and move by (1, 0, 0), then turn 90 degrees about z and move by (0, 0, 3).
    const double S[9] = {2, 0, 0, 0, 2, 0, 0, 0, 2}, t[3] = {1, 0, 0};
    const double Rz[9] = {0, -1, 0, 1, 0, 0, 0, 0, 1}, u[3] = {0, 0, 3};
    ipcc_scene_ipc_compose(&sh, S, t);
    ipcc_scene_ipc_compose(&sh, Rz, u);
    double x[3];
    ipcc_scene_ipc_placed(&sh, 0, x); // Rz (2 * 0 + t) + u
    assert_vec3(x, 0, 1, 3);
    ipcc_scene_ipc_placed(&sh, 1, x); // p = (1, 0, 0): Rz (3, 0, 0) + u
    assert_vec3(x, 0, 3, 3);
    ipcc_scene_ipc_placed(&sh, 2, x); // p = (0, 1, 0): Rz (1, 2, 0) + u
    assert_vec3(x, -2, 1, 3);
    ipcc_scene_ipc_placed(&sh, 3, x); // p = (0, 0, 1): Rz (1, 0, 2) + u
    assert_vec3(x, 0, 1, 5);
    const double A[9] = {0, -2, 0, 2, 0, 0, 0, 0, 2};
    assert_memory_equal(sh.A, A, sizeof A);
    assert_vec3(sh.b, 0, 1, 3);
}

static void test_bbox_and_centre(void **state) {
    (void)state;
    shape shapes[2] = {identity_shape(KIND_TETS), identity_shape(KIND_TRIANGLES)};
    shapes[1].b[0] = 10; // the obstacle sits at x in [10, 11]
    loader L = {.path = "s.txt", .ns = 2, .shapes = shapes};
    double lo[3], hi[3];
    ipcc_scene_ipc_bbox(&L, KIND_TETS, lo, hi);
    assert_vec3(lo, 0, 0, 0);
    assert_vec3(hi, 1, 1, 1);
    ipcc_scene_ipc_bbox(&L, KIND_POINTS, lo, hi);
    assert_vec3(lo, 0, 0, 0);
    assert_vec3(hi, 11, 1, 1);
    L.ns = 0; // no shape: the box stays empty (+inf, -inf)
    ipcc_scene_ipc_bbox(&L, KIND_POINTS, lo, hi);
    assert_true(isinf(lo[0]) && lo[0] > 0 && isinf(hi[2]) && hi[2] < 0);

    double c[3];
    ipcc_scene_ipc_shape_centre(&shapes[1], NULL, 0, c);
    assert_vec3(c, 10.5, 0.5, 0.5);
    const int list[2] = {1, 3}; // (11, 0, 0) and (10, 0, 1)
    ipcc_scene_ipc_shape_centre(&shapes[1], list, 2, c);
    assert_vec3(c, 10.5, 0, 0.5);
}

static void test_oom(void **state) {
    (void)state;
    loader L = {.path = "dir/scene.txt"};
    assert_int_equal(ipcc_scene_ipc_oom(&L), IPCC_ERR_NO_MEMORY);
    assert_string_equal(ipcc_last_error(), "dir/scene.txt: out of memory");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compose_and_placed),
        cmocka_unit_test(test_bbox_and_centre),
        cmocka_unit_test(test_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
