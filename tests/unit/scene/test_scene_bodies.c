// Tests for src/scene/scene_bodies.c: a JSON scene's "bodies": the mesh (a
// file relative to the scene's folder, or a generated box) and where it came
// from, and the Dirichlet and Neumann lists of each body. Every message of
// the bodies' keys is checked in test_scene_parse.c (bad_cases).
//
// Scenes written inline use single quotes; scene_parse() turns them into
// double quotes before parsing.
#include "support.h"
#include "world_checks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipcc/scene.h"

#define BOX "{'box': {'size': [1, 1, 1]}}"

static ipcc_status scene_parse(const char *quoted, const char *base_dir, ipcc_scene **out) {
    return ipcc_test_scene_parse_quoted(quoted, base_dir, out);
}

static void assert_vec3(const double *v, double x, double y, double z) {
    assert_near(v[0], x, 0, 1e-15);
    assert_near(v[1], y, 0, 1e-15);
    assert_near(v[2], z, 0, 1e-15);
}

static void test_box_mesh(void **state) {
    (void)state;
    ipcc_scene *s = NULL;
    ipcc_status st = scene_parse("{'duration': 1, 'bodies': [{'mesh': {'box': {'size': [2, 1, 3], "
                                 "'cells': [2, 1, 3]}}, 'material': {}}]}",
                                 NULL, &s);
    if (st != IPCC_OK) fail_msg("%s", ipcc_last_error());
    const ipcc_mesh *m = s->bodies[0].mesh;
    assert_int_equal(m->num_tets, 2 * 1 * 3 * 6);
    assert_int_equal(m->num_vertices, 3 * 2 * 4);
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < m->num_vertices; i++) {
        for (int k = 0; k < 3; k++) {
            lo[k] = fmin(lo[k], m->vertices[3 * i + k]);
            hi[k] = fmax(hi[k], m->vertices[3 * i + k]);
        }
    }
    assert_vec3(lo, 0, 0, 0);
    assert_vec3(hi, 2, 1, 3);
    ipcc_scene_destroy(s);
}

// body_sources records the file as resolved, or the box; each body keeps its own condition lists.
static void test_sources_and_conditions(void **state) {
    (void)state;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", ipcc_test_data_path("scenes"));
    ipcc_scene *s = NULL;
    ipcc_status st =
        scene_parse("{'duration': 1, 'bodies': [{'name': 'a', 'mesh': 'tet.node', 'material': {},"
                    "   'dirichlet': [{}, {'vertices': [1, 2], 'velocity': [0, 0, 1]}]},"
                    " {'mesh': {'box': {'size': [2, 1, 0.5], 'cells': [2, 1, 1]}}, 'material': {},"
                    "   'neumann': [{'acceleration': [0, -1, 0], 'start': 0.5}]}]}",
                    dir, &s);
    if (st != IPCC_OK) fail_msg("%s", ipcc_last_error());
    assert_int_equal(s->num_bodies, 2);
    char expect[4200];
    snprintf(expect, sizeof expect, "%s/tet.node", dir);
    assert_string_equal(s->body_sources[0].path, expect);
    assert_int_equal(s->bodies[0].mesh->num_tets, 5);
    assert_null(s->body_sources[1].path);
    assert_int_equal(s->body_sources[1].cells[0], 2);
    assert_int_equal(s->body_sources[1].cells[1], 1);
    assert_int_equal(s->body_sources[1].cells[2], 1);
    assert_vec3(s->body_sources[1].size, 2, 1, 0.5);
    assert_int_equal(s->bodies[1].mesh->num_tets, 2 * 6);

    const ipcc_body_def *a = &s->bodies[0], *b = &s->bodies[1];
    assert_string_equal(a->name, "a");
    assert_null(b->name);
    assert_int_equal(a->num_dirichlet, 2);
    assert_int_equal(a->dirichlet[0].num_vertices, 0);
    assert_int_equal(a->dirichlet[1].num_vertices, 2);
    assert_int_equal(a->dirichlet[1].vertices[1], 2);
    assert_vec3(a->dirichlet[1].velocity, 0, 0, 1);
    assert_int_equal(a->num_neumann, 0);
    assert_null(a->neumann);
    assert_int_equal(b->num_dirichlet, 0);
    assert_null(b->dirichlet);
    assert_int_equal(b->num_neumann, 1);
    assert_vec3(b->neumann[0].acceleration, 0, -1, 0);
    assert_near(b->neumann[0].start, 0.5, 0, 0);
    ipcc_scene_destroy(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_box_mesh),
        cmocka_unit_test(test_sources_and_conditions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
