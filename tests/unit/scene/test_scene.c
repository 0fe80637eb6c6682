// Tests for src/scene/scene.c: the scene object, ipcc_scene_create_world()
// (bodies, then mesh obstacles, half-spaces and analytic shapes, and the
// messages naming the entry the world rejects) and ipcc_scene_destroy()
// (NULL, and a scene a reader left half-built).
//
// Scenes written inline use single quotes; scene_parse() turns them into
// double quotes before parsing.
#include "support.h"
#include "world_checks.h"

#include <stdlib.h>
#include <string.h>

#include "ipcc/scene.h"
#include "ipcc/world.h"

#define BODY "{'mesh': {'box': {'size': [1, 1, 1]}}, 'material': {}, 'translation': [0, 10, 0]}"
#define SCENE(obstacles) "{'duration': 1, 'bodies': [" BODY "], 'obstacles': [" obstacles "]}"

static ipcc_scene *parse_or_fail(const char *quoted) {
    ipcc_scene *s = NULL;
    ipcc_status st = ipcc_test_scene_parse_quoted(quoted, NULL, &s);
    if (st != IPCC_OK) fail_msg("%s: %s", ipcc_status_name(st), ipcc_last_error());
    return s;
}

static void assert_contains(const char *haystack, const char *needle) {
    if (!strstr(haystack, needle)) fail_msg("message \"%s\" lacks \"%s\"", haystack, needle);
}

static void assert_same_bits(const double *a, const double *b, int n, const char *what) {
    if (memcmp(a, b, (size_t)n * sizeof *a) != 0) fail_msg("%s differ", what);
}

static void test_create_world(void **state) {
    (void)state;
    ipcc_scene *s = NULL;
    ipcc_status st = ipcc_scene_load(ipcc_test_data_path("scenes/full.json"), &s);
    if (st != IPCC_OK) fail_msg("%s", ipcc_last_error());
    ipcc_world *w = NULL;
    st = ipcc_scene_create_world(s, &w);
    if (st != IPCC_OK) fail_msg("%s", ipcc_last_error());
    assert_int_equal(ipcc_world_num_bodies(w), 2);
    assert_string_equal(ipcc_world_body_name(w, 0), "cube");
    assert_string_equal(ipcc_world_body_name(w, 1), "slab");
    assert_int_equal(ipcc_world_num_vertices(w),
                     s->bodies[0].mesh->num_vertices + s->bodies[1].mesh->num_vertices);
    assert_int_equal(ipcc_world_num_tets(w), 5 + 48);
    assert_near(ipcc_world_time_step(w), 0.005, 0, 1e-15);
    ipcc_world_destroy(w);

    // A body the world rejects: the message names it, and nothing is returned.
    s->bodies[1].scale[1] = -1;
    w = (ipcc_world *)s;
    st = ipcc_scene_create_world(s, &w);
    assert_true(st < 0);
    assert_null(w);
    assert_contains(ipcc_last_error(), "bodies[1] (\"slab\")");
    ipcc_scene_destroy(s);
}

// Analytic shapes reach the world bit for bit, after the bodies, mesh
// obstacles and half-spaces.
static void test_create_world_shapes(void **state) {
    (void)state;
    ipcc_scene *s = parse_or_fail(
        SCENE("{'type': 'box', 'name': 'crate', 'center': [4, 0, 0], 'half_extents': [1, 0.5, 0.25],"
              " 'rotation': [0, 45, 0], 'velocity': [0, 0, 1], 'friction': 0.5},"
              "{'type': 'half_space', 'point': [0, -9, 0]},"
              "{'type': 'torus', 'center': [0, 0, -4], 'axis': [0, 1, 1], 'major_radius': 0.5,"
              " 'minor_radius': 0.125, 'angular_velocity': [0, 3, 0]},"
              "{'type': 'sphere', 'center': [-4, 0, 0], 'radius': 1}"));
    ipcc_world *w = NULL;
    ipcc_status st = ipcc_scene_create_world(s, &w);
    if (st != IPCC_OK) fail_msg("%s", ipcc_last_error());
    assert_int_equal(ipcc_world_num_shapes(w), 3);
    assert_int_equal(ipcc_world_num_half_spaces(w), 1);
    for (int i = 0; i < 3; i++) {
        const ipcc_shape_def *a = &s->shapes[i], *b = ipcc_world_shape_def(w, i);
        assert_int_equal(a->kind, b->kind);
        assert_same_bits(a->center, b->center, 3, "center");
        assert_same_bits(a->rotation, b->rotation, 9, "rotation");
        assert_same_bits(a->velocity, b->velocity, 3, "velocity");
        assert_same_bits(a->angular_velocity, b->angular_velocity, 3, "angular_velocity");
        assert_same_bits(&a->friction, &b->friction, 1, "friction");
        int used = a->kind == IPCC_SHAPE_SPHERE ? 1 : a->kind == IPCC_SHAPE_TORUS ? 2 : 3;
        assert_same_bits(a->size, b->size, used, "size");
        double c[3], R[9];
        ipcc_world_shape_pose(w, i, c, R);
        assert_same_bits(c, a->center, 3, "pose centre");
        assert_same_bits(R, a->rotation, 9, "pose rotation");
    }
    assert_string_equal(ipcc_world_shape_def(w, 0)->name, "crate");
    assert_string_equal(ipcc_world_shape_def(w, 2)->name, "shape 2"); // the world's default
    ipcc_world_destroy(w);

    // A def the world rejects (only a scene built in C can hold one): the
    // message names the scene and the entry in "obstacles", and no world is returned.
    s->shapes[1].size[1] = 0.75; // torus minor radius above its major radius
    w = (ipcc_world *)s;
    st = ipcc_scene_create_world(s, &w);
    assert_int_equal(st, IPCC_ERR_INVALID_ARGUMENT);
    assert_null(w);
    assert_contains(ipcc_last_error(), "scene.json: obstacles[2]: shape 1 (torus): the minor radius 0.75");
    s->shapes[1].size[1] = 0.125;
    s->shapes[0].rotation[0] = -1; // a reflection
    st = ipcc_scene_create_world(s, &w);
    assert_true(st < 0);
    assert_contains(ipcc_last_error(), "scene.json: obstacles[0]: shape \"crate\"");
    // Without shape_sources, the entries follow the other obstacles.
    free(s->shape_sources);
    s->shape_sources = NULL;
    st = ipcc_scene_create_world(s, &w);
    assert_true(st < 0);
    assert_contains(ipcc_last_error(), "scene.json: obstacles[1]: shape \"crate\"");
    ipcc_scene_destroy(s);
}

// ipcc_scene_destroy() accepts NULL, and a scene whose counts are set but
// whose arrays a failing reader never allocated (or left NULL entries in).
static void test_destroy_partial(void **state) {
    (void)state;
    ipcc_scene_destroy(NULL);
    ipcc_scene *s = calloc(1, sizeof *s);
    assert_non_null(s);
    s->num_bodies = 3;
    s->num_obstacles = 2;
    s->num_half_spaces = 1;
    s->num_shapes = 4;
    ipcc_scene_destroy(s);
    s = calloc(1, sizeof *s);
    assert_non_null(s);
    s->num_bodies = 2;
    s->bodies = calloc(2, sizeof *s->bodies); // zeroed defs: no name, mesh or conditions yet
    s->body_sources = calloc(2, sizeof *s->body_sources);
    s->num_shapes = 1;
    s->shapes = calloc(1, sizeof *s->shapes);
    assert_true(s->bodies && s->body_sources && s->shapes);
    ipcc_scene_destroy(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_world),
        cmocka_unit_test(test_create_world_shapes),
        cmocka_unit_test(test_destroy_partial),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
