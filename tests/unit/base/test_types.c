// The public defs and their defaults (src/base/types.c): every ipcc_default_*()
// function returns its documented defaults and the def cookie; every API
// function taking a def asserts the cookie, so a zeroed def or stack garbage
// is a programmer error caught at the call (IPCC_ASSERT, routed to cmocka by
// ipcc_test_catch_asserts), and a def started from its default passes.
#include <string.h>

#include "base/core.h"
#include "support.h"
#include "world_checks.h"

// expect_assert_failure(call), and the failed condition names `fn`.
#define expect_def_assert(call, fn)                                                                          \
    do {                                                                                                     \
        expect_assert_failure(call);                                                                         \
        assert_non_null(strstr(global_last_failed_assert, "initialise it with " fn));                        \
    } while (0)

static void test_defaults(void **state) {
    (void)state;
    ipcc_world_def wd = ipcc_default_world_def();
    assert_int_equal(wd.internal_value, IPCC_DEF_COOKIE);
    assert_true(wd.time_step == 0.01 && wd.gravity[1] == -9.81 && wd.contact.enabled);
    ipcc_body_def bd = ipcc_default_body_def();
    assert_int_equal(bd.internal_value, IPCC_DEF_COOKIE);
    assert_true(bd.scale[0] == 1 && bd.scale[1] == 1 && bd.scale[2] == 1 && bd.material.density == 1000);
    ipcc_dirichlet_def dd = ipcc_default_dirichlet_def();
    assert_int_equal(dd.internal_value, IPCC_DEF_COOKIE);
    assert_true(dd.end == 1e30 && dd.stop.axis == -1);
    ipcc_obstacle_def od = ipcc_default_obstacle_def();
    assert_int_equal(od.internal_value, IPCC_DEF_COOKIE);
    assert_true(od.scale[0] == 1 && od.stop.axis == -1);
    ipcc_shape_def sd = ipcc_default_shape_def();
    assert_int_equal(sd.internal_value, IPCC_DEF_COOKIE);
    assert_true(sd.rotation[0] == 1 && sd.rotation[4] == 1 && sd.rotation[8] == 1 && sd.friction == -1);

    // Neumann: the whole body, for ever (a zeroed one has end = 0 <= start).
    ipcc_neumann_def nd = ipcc_default_neumann_def();
    assert_int_equal(nd.internal_value, IPCC_DEF_COOKIE);
    for (int k = 0; k < 3; k++) {
        assert_true(nd.box_min[k] == 0 && nd.box_max[k] == 1 && nd.acceleration[k] == 0);
    }
    assert_true(nd.start == 0 && nd.end == 1e30 && nd.num_vertices == 0 && !nd.vertices);

    // Half-space: the plane y = 0 with free space above, friction not set.
    ipcc_half_space_def hd = ipcc_default_half_space_def();
    assert_int_equal(hd.internal_value, IPCC_DEF_COOKIE);
    assert_true(hd.point[0] == 0 && hd.point[1] == 0 && hd.point[2] == 0);
    assert_true(hd.normal[0] == 0 && hd.normal[1] == 1 && hd.normal[2] == 0);
    assert_true(hd.friction == -1);
}

// A zeroed def, or stack garbage, trips the assertion naming its default.
static void test_uninitialised_defs_assert(void **state) {
    (void)state;
    ipcc_test_catch_asserts();
    ipcc_world *w = NULL;
    ipcc_world_def wd;
    memset(&wd, 0, sizeof wd);
    expect_def_assert(ipcc_world_create(&wd, &w), "ipcc_default_world_def()");
    memset(&wd, 0xAB, sizeof wd); // garbage
    expect_def_assert(ipcc_world_create(&wd, &w), "ipcc_default_world_def()");
    assert_null(w);

    wd = ipcc_default_world_def();
    assert_int_equal(ipcc_world_create(&wd, &w), IPCC_OK);
    ipcc_mesh *mesh = ipcc_test_box_mesh(1, 1, 1, 0.1, 0.1, 0.1);
    ipcc_body_def bd;
    memset(&bd, 0, sizeof bd);
    bd.mesh = mesh;
    expect_def_assert(ipcc_world_add_body(w, &bd, NULL), "ipcc_default_body_def()");

    // A default body whose condition is zeroed.
    bd = ipcc_default_body_def();
    bd.mesh = mesh;
    ipcc_dirichlet_def dd[2] = {ipcc_default_dirichlet_def()};
    memset(&dd[1], 0, sizeof dd[1]);
    bd.num_dirichlet = 2;
    bd.dirichlet = dd;
    expect_def_assert(ipcc_world_add_body(w, &bd, NULL), "ipcc_default_dirichlet_def()");
    ipcc_neumann_def nd;
    memset(&nd, 0, sizeof nd);
    nd.acceleration[1] = 1; // but end = 0
    bd.num_dirichlet = 0;
    bd.dirichlet = NULL;
    bd.num_neumann = 1;
    bd.neumann = &nd;
    expect_def_assert(ipcc_world_add_body(w, &bd, NULL), "ipcc_default_neumann_def()");
    assert_int_equal(ipcc_world_num_bodies(w), 0); // nothing was added

    ipcc_obstacle_def od;
    memset(&od, 0, sizeof od);
    expect_def_assert(ipcc_world_add_obstacle(w, &od, NULL), "ipcc_default_obstacle_def()");
    ipcc_half_space_def hd;
    memset(&hd, 0, sizeof hd);
    expect_def_assert(ipcc_world_add_half_space(w, &hd, NULL), "ipcc_default_half_space_def()");
    ipcc_shape_def sd;
    memset(&sd, 0, sizeof sd);
    expect_def_assert(ipcc_world_add_shape(w, &sd, NULL), "ipcc_default_shape_def()");
    assert_int_equal(ipcc_world_num_half_spaces(w), 0);
    assert_int_equal(ipcc_world_num_shapes(w), 0);
    ipcc_world_destroy(w);
    ipcc_mesh_destroy(mesh);
    ipcc_set_assert(NULL);
}

// Defs started from their defaults pass, with every condition kind.
static void test_default_defs_pass(void **state) {
    (void)state;
    ipcc_test_catch_asserts(); // an assertion here fails the test
    ipcc_world_def wd = ipcc_default_world_def();
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&wd, &w), IPCC_OK);
    ipcc_mesh *mesh = ipcc_test_box_mesh(1, 1, 1, 0.1, 0.1, 0.1);
    ipcc_body_def bd = ipcc_default_body_def();
    bd.mesh = mesh;
    bd.translation[1] = 0.5;
    ipcc_dirichlet_def dd = ipcc_default_dirichlet_def();
    dd.box_max[1] = 0; // the bottom face
    ipcc_neumann_def nd = ipcc_default_neumann_def();
    nd.acceleration[0] = 1;
    bd.num_dirichlet = 1;
    bd.dirichlet = &dd;
    bd.num_neumann = 1;
    bd.neumann = &nd;
    int body = -1;
    assert_int_equal(ipcc_world_add_body(w, &bd, &body), IPCC_OK);
    assert_int_equal(body, 0);

    const double tri[9] = {2, 0, 0, 3, 0, 0, 2, 0, 1};
    const int face[3] = {0, 1, 2};
    ipcc_trimesh *plate = NULL;
    assert_int_equal(ipcc_trimesh_create(3, tri, 1, face, "plate", &plate), IPCC_OK);
    ipcc_obstacle_def od = ipcc_default_obstacle_def();
    od.mesh = plate;
    assert_int_equal(ipcc_world_add_obstacle(w, &od, &body), IPCC_OK);
    assert_int_equal(body, 1);
    ipcc_trimesh_destroy(plate);

    ipcc_half_space_def hd = ipcc_default_half_space_def();
    int index = -1;
    assert_int_equal(ipcc_world_add_half_space(w, &hd, &index), IPCC_OK);
    assert_int_equal(index, 0);
    double p[3], n[3];
    ipcc_world_half_space(w, 0, p, n);
    assert_true(p[1] == 0 && n[0] == 0 && n[1] == 1 && n[2] == 0);

    ipcc_shape_def sd = ipcc_default_shape_def();
    sd.center[0] = -3;
    assert_int_equal(ipcc_world_add_shape(w, &sd, &index), IPCC_OK);
    assert_int_equal(index, 0);
    assert_int_equal(ipcc_world_shape_def(w, 0)->internal_value, IPCC_DEF_COOKIE); // a copy, reusable

    // The Neumann load acts from t = 0: the free vertices accelerate along +x.
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    assert_int_equal(ipcc_world_step(w, NULL), IPCC_OK);
    const double *v = ipcc_world_velocities(w);
    int first, count;
    ipcc_world_body_vertices(w, 0, &first, &count);
    int moved = 0;
    for (int i = first; i < first + count; i++)
        moved += !ipcc_world_vertex_is_prescribed(w, i) && v[3 * i] > 0;
    assert_true(moved > 0);
    ipcc_world_destroy(w);
    ipcc_mesh_destroy(mesh);
    ipcc_set_assert(NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_uninitialised_defs_assert),
        cmocka_unit_test(test_default_defs_pass),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
