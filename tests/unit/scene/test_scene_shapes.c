// Tests for src/scene/scene_shapes.c: the analytic obstacles of JSON scenes
// ("sphere", "box", "cylinder", "ellipsoid", "torus" entries of "obstacles",
// docs/scene-format.md "Analytic shapes"), the "axis" rotation
// (rotation.h, ipcc_rotation_z_to_axis()), output.contacts and --set on shape
// keys (the shapes reaching the world: test_scene.c).
//
// Scenes written inline use single quotes; scene_parse() turns them into
// double quotes before parsing.
#define _XOPEN_SOURCE 700 // mkdtemp
#include "support.h"
#include "world_checks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipcc/scene.h"
#include "ipcc/world.h"
#include "base/rotation.h"

#define BODY "{'mesh': {'box': {'size': [1, 1, 1]}}, 'material': {}, 'translation': [0, 10, 0]}"
#define SCENE(obstacles) "{'duration': 1, 'bodies': [" BODY "], 'obstacles': [" obstacles "]}"

static ipcc_status scene_parse(const char *quoted, ipcc_scene **out) {
    return ipcc_test_scene_parse_quoted(quoted, NULL, out);
}

static ipcc_scene *parse_or_fail(const char *quoted) {
    ipcc_scene *s = NULL;
    ipcc_status st = scene_parse(quoted, &s);
    if (st != IPCC_OK) fail_msg("%s: %s", ipcc_status_name(st), ipcc_last_error());
    return s;
}

static void assert_contains(const char *haystack, const char *needle) {
    if (!strstr(haystack, needle)) fail_msg("message \"%s\" lacks \"%s\"", haystack, needle);
}

static void assert_vec3(const double *v, double x, double y, double z) {
    assert_near(v[0], x, 0, 0);
    assert_near(v[1], y, 0, 0);
    assert_near(v[2], z, 0, 0);
}

static void assert_same_bits(const double *a, const double *b, int n, const char *what) {
    if (memcmp(a, b, (size_t)n * sizeof *a) != 0) fail_msg("%s differ", what);
}

// R is a rotation: R^T R = I and det R = +1, to `tol`.
static void assert_rotation(const double R[9], double tol) {
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double d = R[i] * R[j] + R[3 + i] * R[3 + j] + R[6 + i] * R[6 + j];
            assert_near(d, i == j ? 1.0 : 0.0, tol, 0);
        }
    double det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) +
                 R[2] * (R[3] * R[7] - R[4] * R[6]);
    assert_near(det, 1, tol, 0);
}

// ---------------------------------------------------------------------------
// Parsing

// Every type with every key, interleaved with the other obstacle types.
static void test_every_type(void **state) {
    (void)state;
    ipcc_scene *s = parse_or_fail(SCENE(
        "{'type': 'sphere', 'name': 'ball', 'center': [1, 2, 3], 'radius': 0.5, 'velocity': [0, -1, 0],"
        " 'angular_velocity': [0, 0, 2], 'friction': 0.3},"
        "{'type': 'half_space'},"
        "{'type': 'box', 'center': [4, 0, 0], 'half_extents': [1, 0.5, 0.25], 'rotation': [10, 20, 30]},"
        "{'type': 'mesh', 'path': '" IPCC_TEST_DATA "/obj/cube.obj', 'translation': [0, -5, 0]},"
        "{'type': 'cylinder', 'name': 'roller', 'center': [0, 0, 4], 'axis': [1, 0, 0], 'radius': 0.1,"
        " 'half_length': 2, 'friction': 0, 'face_samples': false},"
        "{'type': 'ellipsoid', 'center': [-4, 0, 0], 'semi_axes': [0.3, 0.2, 0.1], 'rotation': [0, 0, 90],"
        " 'velocity': [1, 0, 0], 'face_samples': true},"
        "{'type': 'torus', 'center': [0, 0, -4], 'axis': [0, 2, 0], 'major_radius': 0.5,"
        " 'minor_radius': 0.125, 'angular_velocity': [0, 3, 0]},"
        "{'type': 'cylinder', 'center': [0, 0, 8], 'rotation': [90, 0, 0], 'radius': 1, 'half_length': 1},"
        "{'type': 'torus', 'center': [0, 0, 12], 'major_radius': 2, 'minor_radius': 1}"));
    assert_int_equal(s->num_shapes, 7);
    assert_int_equal(s->num_half_spaces, 1);
    assert_int_equal(s->num_obstacles, 1);
    assert_non_null(s->shape_sources);
    static const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    double R[9];

    const ipcc_shape_def *d = &s->shapes[0];
    assert_int_equal(d->kind, IPCC_SHAPE_SPHERE);
    assert_string_equal(d->name, "ball");
    assert_vec3(d->center, 1, 2, 3);
    assert_near(d->size[0], 0.5, 0, 0);
    assert_same_bits(d->rotation, identity, 9, "sphere rotation");
    assert_vec3(d->velocity, 0, -1, 0);
    assert_vec3(d->angular_velocity, 0, 0, 2);
    assert_near(d->friction, 0.3, 0, 0);
    assert_int_equal(s->shape_sources[0].entry, 0);
    assert_int_equal(s->shape_sources[0].orientation, IPCC_SCENE_ORIENTATION_NONE);

    // Box: "rotation" is rotation.h's Euler convention (x, then y, then z), bit for bit.
    d = &s->shapes[1];
    assert_int_equal(d->kind, IPCC_SHAPE_BOX);
    assert_null(d->name);
    assert_vec3(d->size, 1, 0.5, 0.25);
    ipcc_rotation_euler_degrees((const double[3]){10, 20, 30}, 1, R);
    assert_same_bits(d->rotation, R, 9, "box rotation");
    assert_vec3(d->velocity, 0, 0, 0);
    assert_vec3(d->angular_velocity, 0, 0, 0);
    assert_near(d->friction, -1, 0, 0); // not set
    assert_int_equal(s->shape_sources[1].entry, 2);
    assert_int_equal(s->shape_sources[1].orientation, IPCC_SCENE_ORIENTATION_EULER);
    assert_vec3(s->shape_sources[1].value, 10, 20, 30);

    // Cylinder along x: local z onto x is the quarter turn about y.
    d = &s->shapes[2];
    assert_int_equal(d->kind, IPCC_SHAPE_CYLINDER);
    assert_string_equal(d->name, "roller");
    assert_near(d->size[0], 0.1, 0, 0);
    assert_near(d->size[1], 2, 0, 0);
    const double quarter_y[9] = {0, 0, 1, 0, 1, 0, -1, 0, 0};
    for (int k = 0; k < 9; k++)
        assert_near(d->rotation[k], quarter_y[k], 0, 0);
    assert_near(d->friction, 0, 0, 0);
    assert_int_equal(d->face_samples, 0);
    assert_int_equal(s->shapes[3].face_samples, 1);
    assert_int_equal(s->shapes[4].face_samples, -1); // not given: the kind's default
    assert_int_equal(s->shapes[0].face_samples, -1);
    assert_int_equal(s->shape_sources[2].entry, 4);
    assert_int_equal(s->shape_sources[2].orientation, IPCC_SCENE_ORIENTATION_AXIS);
    assert_vec3(s->shape_sources[2].value, 1, 0, 0);

    d = &s->shapes[3];
    assert_int_equal(d->kind, IPCC_SHAPE_ELLIPSOID);
    assert_vec3(d->size, 0.3, 0.2, 0.1);
    ipcc_rotation_euler_degrees((const double[3]){0, 0, 90}, 1, R);
    assert_same_bits(d->rotation, R, 9, "ellipsoid rotation");
    assert_vec3(d->velocity, 1, 0, 0);

    // Torus with its axis along y (any length): the third column is the unit axis.
    d = &s->shapes[4];
    assert_int_equal(d->kind, IPCC_SHAPE_TORUS);
    assert_near(d->size[0], 0.5, 0, 0);
    assert_near(d->size[1], 0.125, 0, 0);
    assert_near(d->rotation[2], 0, 1e-16, 0);
    assert_near(d->rotation[5], 1, 1e-16, 0);
    assert_near(d->rotation[8], 0, 1e-16, 0);
    assert_rotation(d->rotation, 1e-15);
    assert_vec3(d->angular_velocity, 0, 3, 0);
    assert_int_equal(s->shape_sources[4].entry, 6);

    // A cylinder may take "rotation" instead of "axis"; a torus without either is upright.
    d = &s->shapes[5];
    ipcc_rotation_euler_degrees((const double[3]){90, 0, 0}, 1, R);
    assert_same_bits(d->rotation, R, 9, "cylinder rotation");
    assert_int_equal(s->shape_sources[5].orientation, IPCC_SCENE_ORIENTATION_EULER);
    assert_same_bits(s->shapes[6].rotation, identity, 9, "torus rotation");
    assert_int_equal(s->shape_sources[6].orientation, IPCC_SCENE_ORIENTATION_NONE);
    assert_int_equal(s->shape_sources[6].entry, 8);

    // A scene without shapes has none, and output.contacts defaults to false.
    assert_true(s->output_contacts == false);
    ipcc_scene_destroy(s);
    s = parse_or_fail(SCENE("{'type': 'half_space'}"));
    assert_int_equal(s->num_shapes, 0);
    assert_false(s->output_contacts);
    ipcc_scene_destroy(s);
    s = parse_or_fail("{'duration': 1, 'bodies': [" BODY "], 'output': {'contacts': true}}");
    assert_int_equal(s->num_shapes, 0);
    assert_null(s->shapes);
    assert_true(s->output_contacts);
    ipcc_scene_destroy(s);
}

// "axis" gives the minimal rotation taking local z onto the unit axis: its
// third column is the axis, it is a rotation, and it turns about z x a by
// the angle between z and a (so it fixes z x a).
static void test_axis_rotation(void **state) {
    (void)state;
    const double axes[][3] = {
        {0, 0, 1},       {0, 0, 7},          {0, 0, -1},     {1, 0, 0},         {0, 1, 0},
        {-1, 0, 0},      {1, 1, 0},          {1, 2, 3},      {-1, -2, -3},      {1e-12, 0, -1},
        {0, -1e-9, -1},  {3e-8, 1e-8, 1},    {1, 0, -1e-14}, {1e300, 1e300, 0}, {-1e-300, 0, 1e-300},
        {5e-324, 0, -1}, {0.3, -0.4, -1e-3},
    };
    for (size_t i = 0; i < sizeof axes / sizeof axes[0]; i++) {
        const double *a = axes[i];
        double R[9];
        ipcc_rotation_z_to_axis(a, R);
        double m = fmax(fabs(a[0]), fmax(fabs(a[1]), fabs(a[2])));
        double u[3] = {a[0] / m, a[1] / m, a[2] / m}, n = ipcc_test_norm(3, u);
        for (int k = 0; k < 3; k++)
            u[k] /= n;
        assert_rotation(R, 1e-15);
        for (int k = 0; k < 3; k++)
            if (fabs(R[3 * k + 2] - u[k]) > 2e-16) fail_msg("axis %zu: column 3 is not the unit axis", i);
        // Fixes w = z x a (when a is not along z).
        double w[3] = {-u[1], u[0], 0};
        double wn = ipcc_test_norm(3, w);
        if (wn > 1e-6) {
            for (int r = 0; r < 3; r++) {
                double Rw = R[3 * r] * w[0] + R[3 * r + 1] * w[1] + R[3 * r + 2] * w[2];
                if (fabs(Rw - w[r]) > 1e-15 * wn) fail_msg("axis %zu: z x a is not fixed", i);
            }
        }
        // The angle turned is the angle between z and a: trace = 1 + 2 cos(theta), cos(theta) = a_z.
        double trace = R[0] + R[4] + R[8];
        assert_near(trace, 1 + 2 * u[2], 1e-15, 0);
    }
    // Exact cases: +z is the identity, -z the half-turn about x.
    double R[9];
    ipcc_rotation_z_to_axis((const double[3]){0, 0, 1}, R);
    assert_same_bits(R, (const double[9]){1, 0, 0, 0, 1, 0, 0, 0, 1}, 9, "identity");
    ipcc_rotation_z_to_axis((const double[3]){0, 0, -2}, R);
    assert_same_bits(R, (const double[9]){1, 0, 0, 0, -1, 0, 0, 0, -1}, 9, "half-turn about x");
    // Random axes.
    ipcc_test_seed(8);
    for (int i = 0; i < 1000; i++) {
        double a[3] = {ipcc_test_random(-1, 1), ipcc_test_random(-1, 1), ipcc_test_random(-1, 1)};
        ipcc_rotation_z_to_axis(a, R);
        assert_rotation(R, 1e-15);
        double n = ipcc_test_norm(3, a);
        for (int k = 0; k < 3; k++)
            assert_near(R[3 * k + 2], a[k] / n, 1e-15, 0);
    }

    // Through the scene: the same matrix, bit for bit.
    ipcc_scene *s = parse_or_fail(SCENE("{'type': 'cylinder', 'center': [0, 0, 0], 'axis': [1, 2, 3], "
                                        "'radius': 1, 'half_length': 1}"));
    ipcc_rotation_z_to_axis((const double[3]){1, 2, 3}, R);
    assert_same_bits(s->shapes[0].rotation, R, 9, "scene axis rotation");
    ipcc_scene_destroy(s);
}

typedef struct bad_case {
    const char *text;
    const char *needle;
} bad_case;

#define SPHERE_AT "'center': [0, 0, 0], "
static const bad_case bad_cases[] = {
    // Unknown and misplaced keys.
    {SCENE("{'type': 'sphere', " SPHERE_AT "'radius': 1, 'colour': 'red'}"),
     "scene.json: obstacles[0].colour: unknown key (known: type, name, center, radius, velocity, "
     "angular_velocity, friction)"},
    {SCENE("{'type': 'sphere', " SPHERE_AT "'radius': 1, 'radiuss': 1}"),
     "obstacles[0].radiuss: unknown key; did you mean \"radius\"?"},
    {SCENE("{'type': 'sphere', " SPHERE_AT "'radius': 1, 'rotation': [0, 0, 0]}"),
     "obstacles[0].rotation: unknown key"},
    {SCENE("{'type': 'box', " SPHERE_AT "'half_extents': [1, 1, 1], 'axis': [0, 0, 1]}"),
     "obstacles[0].axis: unknown key"},
    {SCENE("{'type': 'ellipsoid', " SPHERE_AT "'semi_axes': [1, 1, 1], 'radius': 1}"),
     "obstacles[0].radius: unknown key"},
    {SCENE("{'type': 'sphere', 'center': [0, 0, 0], 'center': [1, 0, 0], 'radius': 1}"),
     "obstacles[0].center: duplicate key"},
    {SCENE("{'type': 'sphere', " SPHERE_AT "'radius': 1, 'pivot': [0, 0, 0]}"),
     "obstacles[0].pivot: unknown key"},
    {SCENE("{'type': 'sphere', " SPHERE_AT "'radius': 1, 'stop': {}}"), "obstacles[0].stop: unknown key"},
    {SCENE("{'type': 'box', " SPHERE_AT "'half_extents': [1, 1, 1], 'face_samples': true}"),
     "obstacles[0].face_samples: unknown key"},
    {SCENE("{'type': 'torus', " SPHERE_AT "'major_radius': 1, 'minor_radius': 0.5, 'face_samples': 1}"),
     "obstacles[0].face_samples: expected true or false"},
    {SCENE("{'type': 'spere', " SPHERE_AT "'radius': 1}"),
     "obstacles[0].type: unknown obstacle type \"spere\" (known: half_space, mesh, segments, points, sphere, "
     "box, "
     "cylinder, ellipsoid, torus); did you mean \"sphere\"?"},
    {SCENE("{" SPHERE_AT "'radius': 1}"), "obstacles[0].type: missing (one of half_space, mesh, segments"},
    // Missing required keys.
    {SCENE("{'type': 'half_space'}, {'type': 'sphere', 'radius': 1}"),
     "scene.json: obstacles[1].center: missing (a sphere needs a \"center\""},
    {SCENE("{'type': 'sphere', " SPHERE_AT "'name': 'ball'}"),
     "obstacles[0].radius: missing (a sphere needs"},
    {SCENE("{'type': 'box', " SPHERE_AT "'rotation': [0, 0, 0]}"), "obstacles[0].half_extents: missing"},
    {SCENE("{'type': 'cylinder', " SPHERE_AT "'radius': 1}"), "obstacles[0].half_length: missing"},
    {SCENE("{'type': 'cylinder', " SPHERE_AT "'half_length': 1}"), "obstacles[0].radius: missing"},
    {SCENE("{'type': 'ellipsoid', " SPHERE_AT "'velocity': [0, 0, 0]}"), "obstacles[0].semi_axes: missing"},
    {SCENE("{'type': 'torus', " SPHERE_AT "'minor_radius': 1}"), "obstacles[0].major_radius: missing"},
    {SCENE("{'type': 'torus', " SPHERE_AT "'major_radius': 1}"), "obstacles[0].minor_radius: missing"},
    // Wrong types.
    {SCENE("{'type': 'sphere', 'center': [0, 'a', 0], 'radius': 1}"),
     "obstacles[0].center: expected an array of 3 numbers (item 1 is a string)"},
    {SCENE("{'type': 'sphere', 'center': 0, 'radius': 1}"),
     "obstacles[0].center: expected an array of 3 numbers"},
    {SCENE("{'type': 'sphere', " SPHERE_AT "'radius': '1'}"),
     "obstacles[0].radius: expected a number (got a string)"},
    {SCENE("{'type': 'sphere', " SPHERE_AT "'radius': [1]}"),
     "obstacles[0].radius: expected a number (got an array)"},
    {SCENE("{'type': 'box', " SPHERE_AT "'half_extents': 1}"),
     "obstacles[0].half_extents: expected an array of 3"},
    {SCENE("{'type': 'box', " SPHERE_AT "'half_extents': [1, 1, 1], 'rotation': 90}"),
     "obstacles[0].rotation: expected an array of 3 numbers"},
    {SCENE("{'type': 'torus', " SPHERE_AT "'major_radius': 1, 'minor_radius': 0.5, 'axis': 'up'}"),
     "obstacles[0].axis: expected an array of 3 numbers (got a string)"},
    {SCENE("{'type': 'sphere', 'name': 3, " SPHERE_AT "'radius': 1}"),
     "obstacles[0].name: expected a string"},
    {SCENE("{'type': 'sphere', 'name': '', " SPHERE_AT "'radius': 1}"),
     "obstacles[0].name: must not be empty"},
    {SCENE("{'type': 'sphere', " SPHERE_AT "'radius': 1, 'velocity': [0, 0]}"),
     "obstacles[0].velocity: expected an array of 3 numbers"},
    {SCENE("{'type': 'sphere', " SPHERE_AT "'radius': 1, 'angular_velocity': [0, 0, 1e999]}"),
     "obstacles[0].angular_velocity: item 2 must be finite"},
    {SCENE("{'type': 'sphere', " SPHERE_AT "'radius': 1, 'friction': true}"),
     "obstacles[0].friction: expected a number"},
    {SCENE("{'type': 'sphere', 'center': [0, 0, 0], 'radius': 1}, 7"), "obstacles[1]: expected an object"},
    // Ranges.
    {SCENE("{'type': 'sphere', " SPHERE_AT "'radius': -0.5}"),
     "scene.json: obstacles[0].radius: must be > 0 (got -0.5)"},
    {SCENE("{'type': 'sphere', " SPHERE_AT "'radius': 0}"), "obstacles[0].radius: must be > 0 (got 0)"},
    {SCENE("{'type': 'sphere', " SPHERE_AT "'radius': 1e999}"), "obstacles[0].radius: must be finite"},
    {SCENE("{'type': 'box', " SPHERE_AT "'half_extents': [1, 0, 1]}"),
     "obstacles[0].half_extents: item 1 must be > 0"},
    {SCENE("{'type': 'ellipsoid', " SPHERE_AT "'semi_axes': [1, 1, -1]}"),
     "obstacles[0].semi_axes: item 2 must be > 0"},
    {SCENE("{'type': 'cylinder', " SPHERE_AT "'radius': 1, 'half_length': -1}"),
     "obstacles[0].half_length: must be > 0 (got -1)"},
    {SCENE("{'type': 'torus', " SPHERE_AT "'major_radius': 0.5, 'minor_radius': 0.5}"),
     "obstacles[0].minor_radius: must be below major_radius (got 0.5 >= 0.5)"},
    {SCENE("{'type': 'torus', " SPHERE_AT "'major_radius': 0.5, 'minor_radius': 2}"),
     "obstacles[0].minor_radius: must be below major_radius (got 2 >= 0.5)"},
    {SCENE("{'type': 'torus', " SPHERE_AT "'major_radius': -1, 'minor_radius': 0.5}"),
     "obstacles[0].major_radius: must be > 0"},
    {SCENE("{'type': 'sphere', " SPHERE_AT "'radius': 1, 'friction': -0.1}"),
     "obstacles[0].friction: must be >= 0 (got -0.1)"},
    // Orientation.
    {SCENE("{'type': 'cylinder', " SPHERE_AT "'radius': 1, 'half_length': 1, 'axis': [0, 0, 0]}"),
     "obstacles[0].axis: must not be the zero vector"},
    {SCENE("{'type': 'torus', " SPHERE_AT "'major_radius': 1, 'minor_radius': 0.5, 'axis': [-0.0, 0, 0]}"),
     "obstacles[0].axis: must not be the zero vector"},
    {SCENE("{'type': 'cylinder', " SPHERE_AT "'radius': 1, 'half_length': 1, 'axis': [0, 0, 1], "
           "'rotation': [0, 0, 0]}"),
     "obstacles[0].axis: cannot be combined with \"rotation\""},
    {SCENE("{'type': 'torus', " SPHERE_AT "'major_radius': 1, 'minor_radius': 0.5, 'rotation': [0, 0, 0], "
           "'axis': [0, 1, 0]}"),
     "obstacles[0].axis: cannot be combined with \"rotation\""},
    {SCENE("{'type': 'cylinder', " SPHERE_AT "'radius': 1, 'half_length': 1, 'axis': [0, 0, 1e999]}"),
     "obstacles[0].axis: item 2 must be finite"},
    // output.contacts
    {"{'duration': 1, 'bodies': [" BODY "], 'output': {'contacts': 1}}",
     "scene.json: output.contacts: expected true or false (got a number)"},
    {"{'duration': 1, 'bodies': [" BODY "], 'output': {'contact': true}}",
     "output.contact: unknown key; did you mean \"contacts\"?"},
};

static void test_bad_shapes(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        ipcc_scene *s = (ipcc_scene *)&bad_cases; // must be reset to NULL on failure
        ipcc_clear_error();
        ipcc_status st = scene_parse(bad_cases[i].text, &s);
        if (st != IPCC_ERR_INVALID_ARGUMENT)
            fail_msg("case %zu: got %s (%s)", i, ipcc_status_name(st), ipcc_last_error());
        assert_null(s);
        if (!strstr(ipcc_last_error(), bad_cases[i].needle))
            fail_msg("case %zu: message \"%s\" lacks \"%s\"", i, ipcc_last_error(), bad_cases[i].needle);
    }
}

// --set reaches shape keys like any other (scene_override.c is generic).
static void test_overrides(void **state) {
    (void)state;
    char dir[64] = "scene_shapes_XXXXXX";
    if (!mkdtemp(dir)) fail_msg("mkdtemp failed");
    char path[256];
    snprintf(path, sizeof path, "%s/a.json", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\"duration\": 1, \"bodies\": [{\"mesh\": {\"box\": {\"size\": [1, 1, 1]}}, \"material\": {}}],\n"
          " \"obstacles\": [{\"type\": \"sphere\", \"center\": [0, -2, 0], \"radius\": 0.5},\n"
          "               {\"type\": \"cylinder\", \"center\": [0, 5, 0], \"radius\": 0.5, \"half_length\": "
          "1}]}\n",
          f);
    fclose(f);
    const char *good[] = {"obstacles[0].radius=0.3", "obstacles[1].axis=[1,0,0]", "obstacles[0].friction=0.2",
                          "obstacles[1].velocity=[0,-1,0]", "output.contacts=true"};
    ipcc_scene_options opt = {.num_overrides = 5, .overrides = good};
    ipcc_scene *s = NULL;
    if (ipcc_scene_load_with_options(path, &opt, &s) != IPCC_OK) fail_msg("%s", ipcc_last_error());
    assert_near(s->shapes[0].size[0], 0.3, 0, 0);
    assert_near(s->shapes[0].friction, 0.2, 0, 0);
    assert_near(s->shapes[1].rotation[2], 1, 0, 0); // local z onto x
    assert_int_equal(s->shape_sources[1].orientation, IPCC_SCENE_ORIENTATION_AXIS);
    assert_vec3(s->shapes[1].velocity, 0, -1, 0);
    assert_true(s->output_contacts);
    ipcc_scene_destroy(s);
    const struct {
        const char *set, *needle;
    } bad[] = {
        {"obstacles[0].radius=-1", "obstacles[0].radius: must be > 0 (got -1)"},
        {"obstacles[0].radus=1", "obstacles[0].radus: unknown key; did you mean \"radius\"?"},
        {"obstacles[1].rotation=[0,0,0]", "obstacles[1].axis: cannot be combined"},
        {"obstacles[2].radius=1", "index out of range"},
        {"obstacles[1].half_length=big", "obstacles[1].half_length: expected a number (got a string)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const char *sets[2] = {"obstacles[1].axis=[0,1,0]", bad[i].set};
        opt = (ipcc_scene_options){.num_overrides = 2, .overrides = sets};
        s = NULL;
        assert_true(ipcc_scene_load_with_options(path, &opt, &s) < 0);
        assert_null(s);
        assert_contains(ipcc_last_error(), path);
        assert_contains(ipcc_last_error(), bad[i].needle);
    }
    ipcc_test_remove_tree(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_type),
        cmocka_unit_test(test_axis_rotation),
        cmocka_unit_test(test_bad_shapes),
        cmocka_unit_test(test_overrides),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
