// The output's shared helpers (src/output/output_state.c): a file's path in
// the output folder (trailing slashes of the folder dropped, the scratch
// buffer reused from call to call, the longest frame name fitting), and
// the contact objects' names gathered into the output's buffers, equal to
// ipcc_world_contact_object_name's, again after the world gains objects.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipcc/contact_report.h"
#include "ipcc/mesh.h"
#include "ipcc/output.h"
#include "ipcc/world.h"
#include "output/output_state.h"
#include "support.h"

static void test_path(void **state) {
    (void)state;
    char base[] = "/tmp/ipcc_test_output_state_XXXXXX", dir[128], want[192];
    assert_non_null(mkdtemp(base));
    snprintf(dir, sizeof dir, "%s/run//", base);
    ipcc_output *o = NULL;
    assert_int_equal(ipcc_output_create(dir, &o), IPCC_OK);
    const char *p = ipcc_output_path(o, OUTPUT_STATS);
    snprintf(want, sizeof want, "%s/run/stats.csv", base);
    assert_string_equal(p, want);
    char longest[OUTPUT_NAME_MAX];
    snprintf(longest, sizeof longest, "obstacles_%06d.vtp", -2147483647 - 1);
    assert_ptr_equal(ipcc_output_path(o, longest), p); // the same scratch buffer
    snprintf(want, sizeof want, "%s/run/%s", base, longest);
    assert_string_equal(p, want);
    ipcc_output_destroy(o);
    ipcc_test_remove_tree(base);
}

static void check_names(ipcc_output *o, const ipcc_world *w) {
    assert_int_equal(ipcc_output_object_names(o, w), 0);
    for (int i = 0; i < ipcc_world_num_contact_objects(w); i++) {
        char name[64];
        ipcc_world_contact_object_name(w, i, name, sizeof name);
        assert_string_equal(o->name_list[i], name);
    }
}

static void test_object_names(void **state) {
    (void)state;
    char base[] = "/tmp/ipcc_test_output_state_XXXXXX";
    assert_non_null(mkdtemp(base));
    ipcc_output *o = NULL;
    assert_int_equal(ipcc_output_create(base, &o), IPCC_OK);
    const double size[3] = {1.0, 0.5, 0.5};
    ipcc_mesh *mesh = NULL;
    assert_int_equal(ipcc_mesh_create_box(1, 1, 1, size, &mesh), IPCC_OK);
    ipcc_world_def wd = ipcc_default_world_def();
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&wd, &w), IPCC_OK);
    ipcc_body_def bd = ipcc_default_body_def();
    bd.name = "a box with a rather long name, longer than the first buffer";
    bd.mesh = mesh;
    bd.translation[1] = 1;
    assert_int_equal(ipcc_world_add_body(w, &bd, NULL), IPCC_OK);
    check_names(o, w);
    assert_string_equal(o->name_list[0], bd.name);

    // More objects: the buffers grow, every name is still right.
    ipcc_half_space_def ground = ipcc_default_half_space_def();
    assert_int_equal(ipcc_world_add_half_space(w, &ground, NULL), IPCC_OK);
    bd.name = "second";
    bd.translation[1] = 3;
    assert_int_equal(ipcc_world_add_body(w, &bd, NULL), IPCC_OK);
    assert_int_equal(ipcc_world_num_contact_objects(w), 3);
    check_names(o, w);
    assert_string_equal(o->name_list[1], "second");

    ipcc_mesh_destroy(mesh);
    ipcc_world_destroy(w);
    ipcc_output_destroy(o);
    ipcc_test_remove_tree(base);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_path),
        cmocka_unit_test(test_object_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
