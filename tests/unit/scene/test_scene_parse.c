// Tests for src/scene/scene_parse.c: the JSON scene format (docs/scene-format.md),
// through ipcc_scene_parse() and ipcc_scene_load(): every key of the files
// below it (scene_bodies.c, scene_materials.c, scene_obstacles.c, ...) and
// their messages, the text pass (comments, syntax errors) and the
// third-pass index checks.
//
// Scenes written inline use single quotes for readability; scene_parse()
// turns them into double quotes before parsing (no case needs a literal ').
#define _XOPEN_SOURCE 700 // mkdtemp
#include "support.h"
#include "world_checks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipcc/scene.h"

#define BOX "{'box': {'size': [1, 1, 1]}}"
#define RUBBER "{'density': 1000, 'youngs_modulus': 1e5, 'poisson_ratio': 0.4}"
#define BODY "{'mesh': " BOX ", 'material': " RUBBER "}"

static ipcc_status scene_parse(const char *quoted, const char *base_dir, ipcc_scene **out) {
    return ipcc_test_scene_parse_quoted(quoted, base_dir, out);
}

static void assert_vec3(const double *v, double x, double y, double z) {
    assert_near(v[0], x, 0, 1e-15);
    assert_near(v[1], y, 0, 1e-15);
    assert_near(v[2], z, 0, 1e-15);
}

static void assert_contains(const char *haystack, const char *needle) {
    if (!strstr(haystack, needle)) fail_msg("message \"%s\" lacks \"%s\"", haystack, needle);
}

static void assert_material_equal(const ipcc_material *a, const ipcc_material *b) {
    assert_int_equal(a->model, b->model);
    assert_near(a->density, b->density, 0, 1e-15);
    assert_near(a->youngs_modulus, b->youngs_modulus, 0, 1e-15);
    assert_near(a->poisson_ratio, b->poisson_ratio, 0, 1e-15);
}

static void test_full_scene(void **state) {
    (void)state;
    ipcc_scene *s = NULL;
    ipcc_status st = ipcc_scene_load(ipcc_test_data_path("scenes/full.json"), &s);
    if (st != IPCC_OK) fail_msg("%s: %s", ipcc_status_name(st), ipcc_last_error());
    assert_string_equal(s->path, ipcc_test_data_path("scenes/full.json"));
    assert_near(s->world.time_step, 0.005, 0, 1e-15);
    assert_near(s->duration, 1.5, 0, 1e-15);
    assert_vec3(s->world.gravity, 0, 0, -9.8);
    assert_int_equal(s->world.integrator, IPCC_NEWMARK);
    assert_near(s->world.newton_tolerance, 1e-3, 0, 1e-15);
    assert_int_equal(s->world.newton_max_iterations, 50);
    assert_false(s->world.project_hessian);
    assert_string_equal(s->output_directory, "frames");
    assert_near(s->output_fps, 30, 0, 1e-15);
    assert_true(s->output_uncompressed); // "compress": false
    assert_int_equal(s->num_bodies, 2);

    const ipcc_body_def *b = &s->bodies[0];
    assert_string_equal(b->name, "cube");
    assert_non_null(b->mesh);
    assert_int_equal(b->mesh->num_vertices, 8);
    assert_int_equal(b->mesh->num_tets, 5);
    assert_int_equal(b->material.model, IPCC_NEO_HOOKEAN);
    assert_near(b->material.density, 1100, 0, 1e-15);
    assert_near(b->material.youngs_modulus, 2e5, 0, 1e-15);
    assert_near(b->material.poisson_ratio, 0.45, 0, 1e-15);
    assert_vec3(b->translation, 0, 1, 0);
    assert_vec3(b->rotation, 90, 0, 45);
    assert_vec3(b->scale, 1, 2, 3);
    assert_vec3(b->velocity, 1, 0, 0);
    assert_vec3(b->angular_velocity, 0, 0.5, 0);
    assert_int_equal(b->num_dirichlet, 2);
    const ipcc_dirichlet_def *d = &b->dirichlet[0];
    assert_vec3(d->box_min, -0.01, -0.01, -0.01);
    assert_vec3(d->box_max, 0.01, 1.01, 1.01);
    assert_vec3(d->velocity, 0, 0, 0.1);
    assert_vec3(d->angular_velocity, 0.2, 0, 0);
    assert_near(d->start, 0.5, 0, 1e-15);
    assert_near(d->end, 1.0, 0, 1e-15);
    ipcc_dirichlet_def dd = ipcc_default_dirichlet_def();
    d = &b->dirichlet[1];
    assert_vec3(d->box_min, 0.99, 0, 0);
    assert_vec3(d->box_max, 1.01, 1, 1);
    assert_vec3(d->velocity, dd.velocity[0], dd.velocity[1], dd.velocity[2]);
    assert_vec3(d->angular_velocity, dd.angular_velocity[0], dd.angular_velocity[1], dd.angular_velocity[2]);
    assert_near(d->start, dd.start, 0, 1e-15);
    assert_near(d->end, dd.end, 0, 1e-15);

    b = &s->bodies[1];
    ipcc_body_def db = ipcc_default_body_def();
    assert_string_equal(b->name, "slab");
    assert_int_equal(b->mesh->num_tets, 4 * 1 * 2 * 6);
    assert_int_equal(b->mesh->num_vertices, 5 * 2 * 3);
    assert_int_equal(b->material.model, IPCC_FIXED_COROTATED);
    assert_near(b->material.density, 500, 0, 1e-15);
    assert_near(b->material.youngs_modulus, 1e6, 0, 1e-15);
    assert_near(b->material.poisson_ratio, 0, 0, 0);
    assert_vec3(b->scale, 2, 2, 2);
    assert_vec3(b->translation, db.translation[0], db.translation[1], db.translation[2]);
    assert_int_equal(b->num_dirichlet, 0);
    assert_null(b->dirichlet);
    ipcc_scene_destroy(s);
}

static void test_defaults(void **state) {
    (void)state;
    ipcc_scene *s = NULL;
    ipcc_status st = scene_parse("{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, "
                                 "'dirichlet': [{}]}]}",
                                 NULL, &s);
    if (st != IPCC_OK) fail_msg("%s", ipcc_last_error());
    ipcc_world_def w = ipcc_default_world_def();
    assert_string_equal(s->path, "scene.json");
    assert_near(s->world.time_step, w.time_step, 0, 0);
    assert_vec3(s->world.gravity, w.gravity[0], w.gravity[1], w.gravity[2]);
    assert_int_equal(s->world.integrator, w.integrator);
    assert_near(s->world.newton_tolerance, w.newton_tolerance, 0, 0);
    assert_int_equal(s->world.newton_max_iterations, w.newton_max_iterations);
    assert_int_equal(s->world.project_hessian, w.project_hessian);
    assert_near(s->duration, 1, 0, 0);
    assert_string_equal(s->output_directory, "out");
    assert_near(s->output_fps, 0, 0, 0);
    assert_false(s->output_uncompressed); // frames are compressed unless output.compress is false
    assert_int_equal(s->num_bodies, 1);

    const ipcc_body_def *b = &s->bodies[0];
    ipcc_body_def db = ipcc_default_body_def();
    ipcc_material dm = ipcc_default_material();
    ipcc_dirichlet_def dd = ipcc_default_dirichlet_def();
    assert_null(b->name);
    assert_int_equal(b->mesh->num_tets, 6);
    assert_material_equal(&b->material, &dm);
    assert_vec3(b->translation, db.translation[0], db.translation[1], db.translation[2]);
    assert_vec3(b->rotation, db.rotation[0], db.rotation[1], db.rotation[2]);
    assert_vec3(b->scale, db.scale[0], db.scale[1], db.scale[2]);
    assert_vec3(b->velocity, db.velocity[0], db.velocity[1], db.velocity[2]);
    assert_vec3(b->angular_velocity, db.angular_velocity[0], db.angular_velocity[1], db.angular_velocity[2]);
    assert_int_equal(b->num_dirichlet, 1);
    assert_vec3(b->dirichlet[0].box_min, dd.box_min[0], dd.box_min[1], dd.box_min[2]);
    assert_vec3(b->dirichlet[0].box_max, dd.box_max[0], dd.box_max[1], dd.box_max[2]);
    assert_near(b->dirichlet[0].end, 1e30, 0, 1e-15);
    ipcc_scene_destroy(s);

    // A static scene needs no duration: it runs one step.
    st = scene_parse("{'time_step': 0.25, 'integrator': 'static', 'bodies': [" BODY "]}", NULL, &s);
    if (st != IPCC_OK) fail_msg("%s", ipcc_last_error());
    assert_int_equal(s->world.integrator, IPCC_STATIC);
    assert_near(s->duration, 0.25, 0, 0);
    ipcc_scene_destroy(s);

    // A named material, and implicit Euler by name.
    st = scene_parse(
        "{'duration': 1, 'integrator': 'implicit_euler', 'materials': {'soft': {'model': 'linear'}},"
        "'bodies': [{'mesh': " BOX ", 'material': 'soft'}]}",
        NULL, &s);
    if (st != IPCC_OK) fail_msg("%s", ipcc_last_error());
    assert_int_equal(s->world.integrator, IPCC_IMPLICIT_EULER);
    assert_int_equal(s->bodies[0].material.model, IPCC_LINEAR);
    assert_near(s->bodies[0].material.density, dm.density, 0, 0);
    ipcc_scene_destroy(s);
}

static void test_comments(void **state) {
    (void)state;
    ipcc_scene *s = NULL;
    const char *text = "// leading comment\n"
                       "{ /* block\n"
                       "    comment over lines */ 'duration': 2, // trailing\n"
                       "  'output': {'directory': 'a//b/*c*/', 'fps': 10}, /**/\n"
                       "  'bodies': [" BODY "] /* 'x' */ }\n"
                       "// final comment without newline";
    ipcc_status st = scene_parse(text, NULL, &s);
    if (st != IPCC_OK) fail_msg("%s", ipcc_last_error());
    assert_near(s->duration, 2, 0, 0);
    assert_string_equal(s->output_directory, "a//b/*c*/");
    assert_near(s->output_fps, 10, 0, 0);
    ipcc_scene_destroy(s);

    // An escaped quote does not end a string early (the quote trick turns \' into \").
    st = scene_parse("{'duration': 1, 'output': {'directory': 'q\\'//x'}, 'bodies': [" BODY "]}", NULL, &s);
    if (st != IPCC_OK) fail_msg("%s", ipcc_last_error());
    assert_string_equal(s->output_directory, "q\"//x");
    ipcc_scene_destroy(s);
}

typedef struct bad_case {
    const char *text;
    ipcc_status status;
    const char *needle;  // must appear in the message
    const char *needle2; // and this too (may be NULL)
} bad_case;

static const bad_case bad_cases[] = {
    {"{'duration': 1, 'bodies': [" BODY "]", IPCC_ERR_PARSE, "scene.json:1:", NULL},
    {"[1, 2]", IPCC_ERR_INVALID_ARGUMENT, "scene.json: expected an object", NULL},
    {"{'time_step': -0.01, 'duration': 1, 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "scene.json: time_step: must be > 0 (got -0.01)", NULL},
    {"{'time_step': '0.01', 'duration': 1, 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "time_step: expected a number", NULL},
    {"{'time_step': 1e999, 'duration': 1, 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "time_step: must be finite", NULL},
    {"{'time_step': 0.01, 'time_step': 0.02, 'duration': 1, 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "time_step: duplicate key", NULL},
    {"{'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT, "scene.json: duration: missing", NULL},
    {"{'duration': 0, 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT, "duration: must be > 0", NULL},
    // A step count that no integer holds (the CLI would cast it).
    {"{'duration': 1e300, 'time_step': 1e-300, 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "scene.json: duration: 1e+300 s at a time_step of 1e-300 s is more than 1e+09 steps", NULL},
    {"{'duration': 10.01, 'time_step': 1e-8, 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "duration: 10.01 s at a time_step of 1e-08 s is more than", NULL},
    {"{'duration': 1, 'gravity': [0, -9.81], 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "gravity: expected an array of 3 numbers", NULL},
    {"{'duration': 1, 'gravity': [0, 'down', 0], 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "gravity: expected an array of 3 numbers", NULL},
    {"{'duration': 1, 'integrator': 'newmrk', 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "integrator: unknown integrator \"newmrk\"", "did you mean \"newmark\""},
    {"{'duration': 1, 'newton': {'tolrance': 1e-3}, 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "scene.json: newton.tolrance: unknown key", "did you mean \"tolerance\""},
    {"{'duration': 1, 'newton': {'max_iterations': 2.5}, 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "newton.max_iterations: expected an integer", NULL},
    {"{'duration': 1, 'newton': {'max_iterations': 0}, 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "newton.max_iterations: expected an integer >= 1", NULL},
    {"{'duration': 1, 'newton': {'max_splits': -1}, 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "newton.max_splits: expected an integer >= 0", NULL},
    {"{'duration': 1, 'newton': {'max_splits': 11}, 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "scene.json: newton.max_splits: expected an integer in [0, 10]", NULL},
    {"{'duration': 1, 'newton': {'project_hessian': 1}, 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "newton.project_hessian: expected true or false", NULL},
    {"{'duration': 1, 'newton': [], 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "newton: expected an object", NULL},
    {"{'duration': 1, 'bodys': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT, "bodys: unknown key",
     "did you mean \"bodies\""},
    {"{'duration': 1, 'zzz': 1, 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "zzz: unknown key (known: ", NULL},
    {"{'duration': 1, 'materials': {'rubber': {'poisson_ratio': 0.5}}, 'bodies': [" BODY "]}",
     IPCC_ERR_INVALID_ARGUMENT, "materials.rubber.poisson_ratio: must be in [0, 0.5) (got 0.5)", NULL},
    {"{'duration': 1, 'materials': {'rubber': {'poisson_ratio': -0.1}}, 'bodies': [" BODY "]}",
     IPCC_ERR_INVALID_ARGUMENT, "materials.rubber.poisson_ratio", NULL},
    {"{'duration': 1, 'materials': {'rubber': {'density': 0}}, 'bodies': [" BODY "]}",
     IPCC_ERR_INVALID_ARGUMENT, "materials.rubber.density: must be > 0", NULL},
    {"{'duration': 1, 'materials': {'rubber': {'youngs_modulus': -1}}, 'bodies': [" BODY "]}",
     IPCC_ERR_INVALID_ARGUMENT, "materials.rubber.youngs_modulus: must be > 0", NULL},
    {"{'duration': 1, 'materials': {'rubber': {'model': 'neohookean'}}, 'bodies': [" BODY "]}",
     IPCC_ERR_INVALID_ARGUMENT, "materials.rubber.model: unknown material model", "neo_hookean"},
    {"{'duration': 1, 'materials': {'a': {}, 'a': {}}, 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "materials.a: duplicate key", NULL},
    {"{'duration': 1}", IPCC_ERR_INVALID_ARGUMENT, "scene.json: bodies: missing", NULL},
    {"{'duration': 1, 'bodies': []}", IPCC_ERR_INVALID_ARGUMENT, "bodies: must not be empty", NULL},
    {"{'duration': 1, 'bodies': {}}", IPCC_ERR_INVALID_ARGUMENT, "bodies: expected an array", NULL},
    {"{'duration': 1, 'bodies': [{'material': " RUBBER "}]}", IPCC_ERR_INVALID_ARGUMENT,
     "bodies[0].mesh: missing", NULL},
    {"{'duration': 1, 'bodies': [" BODY ", {'mesh': " BOX "}]}", IPCC_ERR_INVALID_ARGUMENT,
     "bodies[1].material: missing", NULL},
    {"{'duration': 1, 'materials': {'rubber': {}, 'steel': {}},"
     " 'bodies': [" BODY ", {'mesh': " BOX ", 'material': 'rubbr'}]}",
     IPCC_ERR_INVALID_ARGUMENT,
     "scene.json: bodies[1].material: unknown material \"rubbr\" (known: rubber, steel)",
     "did you mean \"rubber\"?"},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': 'rubber'}]}", IPCC_ERR_INVALID_ARGUMENT,
     "bodies[0].material: unknown material \"rubber\" (no \"materials\"", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {'densty': 3}}]}", IPCC_ERR_INVALID_ARGUMENT,
     "bodies[0].material.densty: unknown key", "\"density\""},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': 7}]}", IPCC_ERR_INVALID_ARGUMENT,
     "bodies[0].material: expected a material name or object", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': 5, 'material': {}}]}", IPCC_ERR_INVALID_ARGUMENT,
     "bodies[0].mesh: expected", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': {'box': {'size': [1, 1, 1], 'cells': [0, 1, 1]}}, 'material': "
     "{}}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].mesh.box.cells: expected an array of 3 integers >= 1", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': {'box': {'size': [1, 0, 1]}}, 'material': {}}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].mesh.box.size: item 1 must be > 0", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': {'box': {'cells': [1, 1, 1]}}, 'material': {}}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].mesh.box: missing required key \"size\"", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': {'cube': {}}, 'material': {}}]}", IPCC_ERR_INVALID_ARGUMENT,
     "bodies[0].mesh.cube: unknown key", NULL},
    {"{'duration': 1, 'bodies': [{'name': 'a', 'mesh': " BOX ", 'material': {}},"
     " {'name': 'a', 'mesh': " BOX ", 'material': {}}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[1].name: duplicate body name \"a\"", NULL},
    {"{'duration': 1, 'bodies': [{'name': '', 'mesh': " BOX ", 'material': {}}]}", IPCC_ERR_INVALID_ARGUMENT,
     "bodies[0].name: must not be empty", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'scale': 0}]}", IPCC_ERR_INVALID_ARGUMENT,
     "bodies[0].scale: must be > 0", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'scale': [1, -1, 1]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].scale: item 1 must be > 0", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'rotation': 90}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].rotation: expected an array of 3 numbers", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'velocity': [0, 0, 0, 0]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].velocity: expected an array of 3 numbers", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'dirichlet': [{'max': [0, 1]}]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "scene.json: bodies[0].dirichlet[0].max: expected an array of 3 numbers",
     NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'dirichlet': [{}, {'min': [0.5, 0, 0], "
     "'max': [0.4, 1, 1]}]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].dirichlet[1].max", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'dirichlet': [{'start': 2, 'end': 1}]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].dirichlet[0].end: must be >= start", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'dirichlet': [{'velocty': [0, 0, 0]}]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].dirichlet[0].velocty: unknown key", "\"velocity\""},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'dirichlet': {}}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].dirichlet: expected an array", NULL},
    {"{'duration': 1, 'bodies': [" BODY "], 'output': {'fps': -1}}", IPCC_ERR_INVALID_ARGUMENT,
     "output.fps: must be >= 0", NULL},
    {"{'duration': 1, 'bodies': [" BODY "], 'output': {'directory': ''}}", IPCC_ERR_INVALID_ARGUMENT,
     "output.directory: must not be empty", NULL},
    {"{'duration': 1, 'bodies': [" BODY "], 'output': {'compress': 1}}", IPCC_ERR_INVALID_ARGUMENT,
     "output.compress: expected true or false", NULL},
    {"{'duration': 1, 'bodies': [" BODY "], 'output': {'compresss': false}}", IPCC_ERR_INVALID_ARGUMENT,
     "output.compresss: unknown key", NULL},
    {"{'duration': 1, 'bodies': [" BODY "], 'output': {'dir': 'x'}}", IPCC_ERR_INVALID_ARGUMENT,
     "output.dir: unknown key",
     NULL}, // New keys: steps, length_scale, damping, newmark, tolerance schedules.
    {"{'steps': 0, 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "scene.json: steps: expected an integer >= 1", NULL},
    {"{'steps': 2.5, 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT, "steps: expected an integer >= 1",
     NULL},
    {"{'steps': '3', 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT, "steps: expected an integer", NULL},
    {"{'duration': 1, 'length_scale': 0, 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "length_scale: must be > 0", NULL},
    {"{'duration': 1, 'damping': -0.1, 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "scene.json: damping: must be >= 0 (got -0.1)", NULL},
    {"{'duration': 1, 'damping': [1], 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "damping: expected a number", NULL},
    {"{'duration': 1, 'newmark': {'beta': 0.6}, 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "scene.json: newmark.beta: must be in (0, 0.5] (got 0.6)", NULL},
    {"{'duration': 1, 'newmark': {'beta': 0}, 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "newmark.beta: must be in (0, 0.5]", NULL},
    {"{'duration': 1, 'newmark': {'gamma': 0.4}, 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "newmark.gamma: must be in [0.5, 1]", NULL},
    {"{'duration': 1, 'newmark': {'gama': 0.5}, 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "newmark.gama: unknown key", "did you mean \"gamma\""},
    {"{'duration': 1, 'newmark': 0.25, 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "newmark: expected an object", NULL},
    {"{'duration': 1, 'newton': {'tolerance': []}, 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "scene.json: newton.tolerance: must not be an empty array", NULL},
    {"{'duration': 1, 'newton': {'tolerance': [1e-2, -1]}, 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "newton.tolerance: item 1: expected a finite number > 0", NULL},
    {"{'duration': 1, 'newton': {'tolerance': [1e-2, 'x']}, 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "newton.tolerance: item 1: expected a finite number > 0 (got a string)", NULL},
    {"{'duration': 1, 'newton': {'tolerance': 'tight'}, 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "newton.tolerance: expected a number", NULL},
    {"{'duration': 1, 'contact': {'friction_smoothing_time': -1}, 'bodies': [" BODY "]}",
     IPCC_ERR_INVALID_ARGUMENT, "contact.friction_smoothing_time: must be >= 0", NULL},
    {"{'duration': 1, 'contact': {'friction_slip_test': 1}, 'bodies': [" BODY "]}", IPCC_ERR_INVALID_ARGUMENT,
     "contact.friction_slip_test", NULL},
    // Body transform and velocity centre.
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'transform': 5}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].transform: expected 3 rows of 4 numbers", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'transform': [[1, 0, 0, 0], [0, 1, 0], "
     "[0, 0, 1, 0]]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].transform: row 1: expected an array of 4 numbers", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX
     ", 'material': {}, 'transform': [[1, 0, 0, 0], [0, 1, 'a', 0], "
     "[0, 0, 1, 0]]}]}",
     IPCC_ERR_INVALID_ARGUMENT,
     "bodies[0].transform: row 1: expected an array of 4 numbers (item 2 is a string)", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'transform': [[1, 0, 0, 0], [0, 1, 0, 0], "
     "[0, 0, 0, 0]]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].transform: the 3x3 part must have a positive determinant (got 0)",
     NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX
     ", 'material': {}, 'transform': [[-1, 0, 0, 0], [0, 1, 0, 0], "
     "[0, 0, 1, 0]]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].transform: the 3x3 part must have a positive determinant (got -1)",
     NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'rotation': [0, 0, 90], 'transform': "
     "[[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].transform: cannot be combined with \"rotation\"", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'transform': [[1, 0, 0, 0], [0, 1, 0, 0], "
     "[0, 0, 1, 0]], 'scale': 2}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].transform: cannot be combined with \"scale\"", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'angular_velocity_centre': [1, 2]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].angular_velocity_centre: expected an array of 3 numbers", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'angular_velocity_center': [1, 2, 3]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].angular_velocity_center: unknown key",
     "did you mean \"angular_velocity_centre\""},
    // Dirichlet vertex lists, pivots and stops.
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'dirichlet': [{'vertices': [0], "
     "'min': [0, 0, 0]}]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].dirichlet[0].vertices: cannot be combined with \"min\"", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'dirichlet': [{'vertices': []}]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].dirichlet[0].vertices: must not be empty", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'dirichlet': [{'vertices': [0, -1]}]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].dirichlet[0].vertices: item 1: expected an integer >= 0", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'dirichlet': [{'vertices': [1.5]}]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].dirichlet[0].vertices: item 0: expected an integer >= 0", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'dirichlet': [{'vertices': 'all'}]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].dirichlet[0].vertices: expected an array of vertex indices", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX
     ", 'material': {}, 'dirichlet': [{}, {'vertices': [7, 8]}]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].dirichlet[1].vertices: item 1 (8) is out of range (the mesh has 8",
     NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'dirichlet': [{'pivot': 'centre'}]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].dirichlet[0].pivot: expected an array of 3 numbers", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'dirichlet': [{'stop': {'axis': 'y', "
     "'measure': 'min', 'vertices': [0, 8]}}]}]}",
     IPCC_ERR_INVALID_ARGUMENT,
     "bodies[0].dirichlet[0].stop: missing the threshold: give \"below\" or \"above\"", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'dirichlet': [{'stop': {'axis': 'y', "
     "'measure': 'min', 'vertices': [0, 8], 'below': 0, 'above': 1}}]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].dirichlet[0].stop: \"below\" and \"above\" cannot both be given",
     NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'dirichlet': [{'stop': {'axis': 'w', "
     "'measure': 'min', 'vertices': [0, 8], 'below': 0}}]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].dirichlet[0].stop.axis: unknown axis \"w\" (known: x, y, z)",
     NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'dirichlet': [{'stop': {'axis': 'x', "
     "'measure': 'mean', 'vertices': [0, 8], 'below': 0}}]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].dirichlet[0].stop.measure: unknown measure \"mean\"", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'dirichlet': [{'stop': {'axis': 'x', "
     "'measure': 'max', 'vertices': [0, 8], 'below': 0, 'then': 'relase'}}]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].dirichlet[0].stop.then: unknown action \"relase\"",
     "did you mean \"release\""},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'dirichlet': [{'stop': {'axis': 'x', "
     "'measure': 'max', 'below': 0}}]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].dirichlet[0].stop: missing required key \"vertices\"", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'dirichlet': [{'stop': {'axis': 'x', "
     "'measure': 'max', 'vertices': [0, 0], 'below': 0}}]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].dirichlet[0].stop.vertices: expected [first, count]", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'dirichlet': [{'stop': {'axis': 'x', "
     "'measure': 'max', 'vertices': [4, 5], 'below': 0}}]}]}",
     IPCC_ERR_INVALID_ARGUMENT,
     "bodies[0].dirichlet[0].stop.vertices: [4, 5] reaches past the last world vertex", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'dirichlet': [{'stop': {'axis': 'x', "
     "'measure': 'max', 'vertices': [0, 8], 'belw': 0}}]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].dirichlet[0].stop.belw: unknown key", "did you mean \"below\""},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'dirichlet': [{'stop': {'axis': 'x', "
     "'measure': 'max', 'vertices': [0, 8], 'above': '1'}}]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].dirichlet[0].stop.above: expected a number", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'dirichlet': [{'stop': 'soon'}]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].dirichlet[0].stop: expected an object", NULL},
    // Neumann conditions.
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'neumann': [{'max': [1, 1, 1]}]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].neumann[0].acceleration: missing", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'neumann': {'acceleration': [0, 1, 0]}}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].neumann: expected an array of objects", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'neumann': [{'acceleration': [0, 1]}]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].neumann[0].acceleration: expected an array of 3 numbers", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'neumann': [{'acceleration': [0, 1, 0], "
     "'vertices': [1], 'max': [1, 1, 1]}]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].neumann[0].vertices: cannot be combined with \"max\"", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'neumann': [{'acceleration': [0, 1, 0], "
     "'vertices': [100]}]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].neumann[0].vertices: item 0 (100) is out of range", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'neumann': [{'acceleration': [0, 1, 0], "
     "'start': 1, 'end': 0}]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].neumann[0].end: must be >= start", NULL},
    {"{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'neumann': [{'acceleration': [0, 1, 0], "
     "'velocity': [0, 0, 0]}]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "bodies[0].neumann[0].velocity: unknown key", NULL},
    // Obstacle types, transforms and stops.
    {"{'duration': 1, 'bodies': [" BODY "], 'obstacles': [{'type': 'segment', 'path': 'a.seg'}]}",
     IPCC_ERR_INVALID_ARGUMENT,
     "obstacles[0].type: unknown obstacle type \"segment\" (known: half_space, mesh, segments, points, "
     "sphere, "
     "box, cylinder, ellipsoid, torus)",
     "did you mean \"segments\"?"},
    {"{'duration': 1, 'bodies': [" BODY "], 'obstacles': [{'type': 'point', 'path': 'a.pt'}]}",
     IPCC_ERR_INVALID_ARGUMENT, "obstacles[0].type: unknown obstacle type \"point\"",
     "did you mean \"points\"?"},
    {"{'duration': 1, 'bodies': [" BODY "], 'obstacles': [{'type': 'segments', 'path': 'wire.stl'}]}",
     IPCC_ERR_INVALID_ARGUMENT, "obstacles[0].path: a \"segments\" obstacle reads a .seg file", "wire.stl"},
    {"{'duration': 1, 'bodies': [" BODY "], 'obstacles': [{'type': 'points', 'path': 'dots.seg'}]}",
     IPCC_ERR_INVALID_ARGUMENT, "obstacles[0].path: a \"points\" obstacle reads a .pt file", NULL},
    {"{'duration': 1, 'bodies': [" BODY "], 'obstacles': [{'type': 'half_space'}, {'type': 'segments'}]}",
     IPCC_ERR_INVALID_ARGUMENT, "obstacles[1].path: missing (this obstacle needs a .seg or .obj file)", NULL},
    {"{'duration': 1, 'bodies': [" BODY "], 'obstacles': [{'type': 'mesh', 'path': 'a.obj', 'scale': 2, "
     "'transform': [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "obstacles[0].transform: cannot be combined with \"scale\"", NULL},
    {"{'duration': 1, 'bodies': [" BODY "], 'obstacles': [{'type': 'mesh', 'path': 'a.obj', "
     "'transform': [[1, 0, 0, 0], [2, 0, 0, 0], [0, 0, 1, 0]]}]}",
     IPCC_ERR_INVALID_ARGUMENT,
     "obstacles[0].transform: the 3x3 part must have a positive determinant (got 0)", NULL},
    {"{'duration': 1, 'bodies': [" BODY "], 'obstacles': [{'type': 'points', 'path': 'a.obj', "
     "'transform': [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, -1, 0]]}]}",
     IPCC_ERR_INVALID_ARGUMENT,
     "obstacles[0].transform: the 3x3 part must have a positive determinant (got -1)", NULL},
    {"{'duration': 1, 'bodies': [" BODY "], 'obstacles': [{'type': 'mesh', 'path': 'a.obj', 'pivot': 0}]}",
     IPCC_ERR_INVALID_ARGUMENT, "obstacles[0].pivot: expected an array of 3 numbers", NULL},
    {"{'duration': 1, 'bodies': [" BODY
     "], 'obstacles': [{'type': 'half_space'}, {'type': 'mesh', 'path': '" IPCC_TEST_DATA
     "/obj/cube.obj', 'stop': {'axis': 'y', 'measure': 'min', 'vertices': [8, 9], 'below': 0}}]}",
     IPCC_ERR_INVALID_ARGUMENT, "obstacles[1].stop.vertices: [8, 9] reaches past the last world vertex (16",
     NULL},
    {"{'duration': 1, 'bodies': [" BODY "], 'obstacles': [{'type': 'half_space', 'pivot': [0, 0, 0]}]}",
     IPCC_ERR_INVALID_ARGUMENT, "obstacles[0].pivot: unknown key", NULL},
};

static void test_bad_scenes(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const bad_case *c = &bad_cases[i];
        ipcc_scene *s = (ipcc_scene *)&bad_cases; // must be reset to NULL on failure
        ipcc_clear_error();
        ipcc_status st = scene_parse(c->text, NULL, &s);
        if (st != c->status)
            fail_msg("case %zu: got %s, expected %s (%s)", i, ipcc_status_name(st),
                     ipcc_status_name(c->status), ipcc_last_error());
        assert_null(s);
        if (!strstr(ipcc_last_error(), c->needle) || (c->needle2 && !strstr(ipcc_last_error(), c->needle2)))
            fail_msg("case %zu: message \"%s\" lacks \"%s\"%s%s", i, ipcc_last_error(), c->needle,
                     c->needle2 ? " or " : "", c->needle2 ? c->needle2 : "");
    }
}

static void test_syntax_error_line(void **state) {
    (void)state;
    ipcc_scene *s = NULL;
    // Line 4 lacks the comma after 2; the error is where "bodies" starts.
    const char *text = "{\n"
                       "  // a comment: 'time_step': oops\n"
                       "  'duration': 2 /* another */\n"
                       "  'bodies': [" BODY "]\n"
                       "}\n";
    assert_int_equal(scene_parse(text, NULL, &s), IPCC_ERR_PARSE);
    assert_null(s);
    assert_contains(ipcc_last_error(), "scene.json:4:3:");

    assert_int_equal(scene_parse("{\n'duration': 1,\n'bodies': [1, 2,]\n}", NULL, &s), IPCC_ERR_PARSE);
    assert_contains(ipcc_last_error(), "scene.json:3:");

    assert_int_equal(scene_parse("{'duration': 1,\n  /* never closed\n}", NULL, &s), IPCC_ERR_PARSE);
    assert_contains(ipcc_last_error(), "scene.json:2:3: unterminated /* comment");

    assert_int_equal(scene_parse("", NULL, &s), IPCC_ERR_PARSE);
    assert_contains(ipcc_last_error(), "scene.json: no JSON value (the file is empty");
    assert_int_equal(scene_parse("  // nothing but a comment\n", NULL, &s), IPCC_ERR_PARSE);
    assert_contains(ipcc_last_error(), "scene.json: no JSON value");

    // cJSON's nesting limit is reported as such, with the place.
    enum { DEEP = 1200 };
    char deep[2 * DEEP + 16];
    size_t k = 0;
    k += (size_t)snprintf(deep, sizeof deep, "{'bodies': ");
    for (int i = 0; i < DEEP; i++)
        deep[k++] = '[';
    for (int i = 0; i < DEEP; i++)
        deep[k++] = ']';
    deep[k++] = '}';
    deep[k] = '\0';
    assert_int_equal(scene_parse(deep, NULL, &s), IPCC_ERR_PARSE);
    assert_null(s);
    assert_contains(ipcc_last_error(),
                    "scene.json:1:1011: arrays and objects nested deeper than 1000 levels");

    assert_int_equal(scene_parse("{'duration': 1, 'bodies': [" BODY "]} trailing", NULL, &s), IPCC_ERR_PARSE);
    assert_contains(ipcc_last_error(), "near 'trailing'");

    // From a file: the message names the file as given.
    const char *path = ipcc_test_data_path("scenes/syntax_error.json");
    assert_int_equal(ipcc_scene_load(path, &s), IPCC_ERR_PARSE);
    assert_null(s);
    char expect[4200];
    snprintf(expect, sizeof expect, "%s:4:3:", path);
    assert_contains(ipcc_last_error(), expect);
}

static void test_missing_files(void **state) {
    (void)state;
    ipcc_scene *s = NULL;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", ipcc_test_data_path("scenes"));
    ipcc_status st = scene_parse(
        "{'duration': 1, 'bodies': [" BODY ", {'mesh': 'meshes/nope.msh', 'material': {}}]}", dir, &s);
    assert_int_equal(st, IPCC_ERR_IO);
    assert_null(s);
    assert_contains(ipcc_last_error(), "scene.json: bodies[1].mesh: ");
    assert_contains(ipcc_last_error(), "meshes/nope.msh");
}

static void test_relative_paths(void **state) {
    (void)state;
    ipcc_scene *s = NULL;
    const char *text = "{'duration': 1, 'bodies': [{'mesh': 'tet.node', 'material': {}}]}";
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", ipcc_test_data_path("scenes"));
    ipcc_status st = scene_parse(text, dir, &s);
    if (st != IPCC_OK) fail_msg("%s", ipcc_last_error());
    assert_int_equal(s->bodies[0].mesh->num_vertices, 8);
    assert_int_equal(s->bodies[0].mesh->num_tets, 5);
    ipcc_scene_destroy(s);

    // The same text resolved against the working directory (the test's build dir) finds nothing.
    assert_true(scene_parse(text, NULL, &s) < 0);
    assert_null(s);
    assert_contains(ipcc_last_error(), "bodies[0].mesh");
}

// Every key added with the IPC features lands in the defs.
static void test_new_keys(void **state) {
    (void)state;
    char dir[64] = "scene_keys_XXXXXX";
    if (!mkdtemp(dir)) fail_msg("mkdtemp failed");
    char path[256];
    snprintf(path, sizeof path, "%s/wire.seg", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("v 0 2 0\nv 1 2 0\nv 2 2 0\ns 1 2\ns 2 3\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/dots.PT", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs("v 0 3 0\nv 1 3 0\n", f);
    fclose(f);

    ipcc_scene *s = NULL;
    ipcc_status st = scene_parse(
        "{'time_step': 0.02, 'steps': 5, 'length_scale': 2, 'damping': 0.1,"
        " 'newmark': {'beta': 0.3, 'gamma': 0.55},"
        " 'newton': {'tolerance': [1e-2, 1e-3, 1e-4], 'check_forces': false},"
        " 'contact': {'friction_smoothing_time': 0.025, 'friction_slip_test': false},"
        " 'bodies': [{'mesh': " BOX ", 'material': {},"
        "   'transform': [[2, 0, 0, 1], [0, 1, 0, 2], [0, 0, 1, 3]], 'angular_velocity_centre': [1, 2, 3],"
        "   'dirichlet': [{'vertices': [0, 3, 5], 'pivot': [0.5, 0.25, 0.125],"
        "                  'stop': {'axis': 'z', 'measure': 'max', 'vertices': [0, 8], 'above': 1.5,"
        "                           'then': 'release'}},"
        "                 {'max': [1, 0.1, 1], 'stop': {'axis': 'x', 'measure': 'min', 'vertices': [8, 8],"
        "                                               'below': -2}}],"
        "   'neumann': [{'acceleration': [0, 1, 0], 'start': 0.1, 'end': 0.2},"
        "               {'vertices': [1, 2], 'acceleration': [1, 2, 3]}]}],"
        " 'obstacles': [{'type': 'half_space'}, {'type': 'half_space', 'friction': 0.3},"
        "   {'type': 'mesh', 'name': 'cube', 'path': '" IPCC_TEST_DATA "/obj/cube.obj',"
        "    'transform': [[0, -1, 0, 5], [1, 0, 0, 0], [0, 0, 1, 0]], 'pivot': [5, 0, 0],"
        "    'stop': {'axis': 'y', 'measure': 'min', 'vertices': [8, 8], 'below': -1}},"
        "   {'type': 'segments', 'path': 'wire.seg'},"
        "   {'type': 'segments', 'path': '" IPCC_TEST_DATA "/obj/cube.obj'},"
        "   {'type': 'points', 'path': 'dots.PT'},"
        "   {'type': 'points', 'path': '" IPCC_TEST_DATA "/obj/cube.obj'}]}",
        dir, &s);
    if (st != IPCC_OK) fail_msg("%s", ipcc_last_error());
    assert_string_equal(s->format, "json");
    assert_int_equal(s->num_steps, 5);
    assert_near(s->duration, 5 * 0.02, 0, 1e-15); // from steps when "duration" is absent
    assert_near(s->world.length_scale, 2, 0, 0);
    assert_near(s->world.damping, 0.1, 0, 0);
    assert_near(s->world.newmark_beta, 0.3, 0, 0);
    assert_near(s->world.newmark_gamma, 0.55, 0, 0);
    assert_int_equal(s->world.num_tolerances, 3);
    assert_near(s->world.tolerances[2], 1e-4, 0, 0);
    assert_near(s->world.newton_tolerance, 1e-2, 0, 0);
    assert_near(s->world.contact.friction_smoothing_time, 0.025, 0, 0);
    assert_false(s->world.newton_check_forces); // (friction_slip_test is accepted and ignored)

    const ipcc_body_def *b = &s->bodies[0];
    assert_true(b->use_transform);
    const double t[12] = {2, 0, 0, 1, 0, 1, 0, 2, 0, 0, 1, 3};
    for (int k = 0; k < 12; k++)
        assert_near(b->transform[k], t[k], 0, 0);
    assert_true(b->has_velocity_pivot);
    assert_vec3(b->velocity_pivot, 1, 2, 3);
    assert_int_equal(b->num_dirichlet, 2);
    const ipcc_dirichlet_def *d = &b->dirichlet[0];
    assert_int_equal(d->num_vertices, 3);
    assert_int_equal(d->vertices[0], 0);
    assert_int_equal(d->vertices[1], 3);
    assert_int_equal(d->vertices[2], 5);
    assert_true(d->has_pivot);
    assert_vec3(d->pivot, 0.5, 0.25, 0.125);
    assert_int_equal(d->stop.axis, 2);
    assert_int_equal(d->stop.first_vertex, 0);
    assert_int_equal(d->stop.num_vertices, 8);
    assert_true(d->stop.measure_max);
    assert_true(d->stop.above);
    assert_near(d->stop.value, 1.5, 0, 0);
    assert_true(d->stop.release);
    d = &b->dirichlet[1];
    assert_int_equal(d->num_vertices, 0);
    assert_null(d->vertices);
    assert_false(d->has_pivot);
    assert_vec3(d->box_max, 1, 0.1, 1);
    assert_int_equal(d->stop.axis, 0);
    assert_int_equal(d->stop.first_vertex, 8);
    assert_false(d->stop.measure_max);
    assert_false(d->stop.above);
    assert_near(d->stop.value, -2, 0, 0);
    assert_false(d->stop.release); // "then" defaults to "hold"
    assert_int_equal(b->num_neumann, 2);
    const ipcc_neumann_def *n = &b->neumann[0];
    assert_int_equal(n->num_vertices, 0);
    assert_vec3(n->box_min, 0, 0, 0);
    assert_vec3(n->box_max, 1, 1, 1);
    assert_vec3(n->acceleration, 0, 1, 0);
    assert_near(n->start, 0.1, 0, 0);
    assert_near(n->end, 0.2, 0, 0);
    n = &b->neumann[1];
    assert_int_equal(n->num_vertices, 2);
    assert_int_equal(n->vertices[1], 2);
    assert_vec3(n->acceleration, 1, 2, 3);
    assert_near(n->start, 0, 0, 0);
    assert_near(n->end, 1e30, 0, 0);
    assert_null(s->body_sources[0].path);
    assert_int_equal(s->body_sources[0].cells[0], 1);
    assert_vec3(s->body_sources[0].size, 1, 1, 1);

    assert_int_equal(s->num_half_spaces, 2);
    assert_near(s->half_spaces[0].friction, -1, 0, 0); // friction not set
    assert_near(s->half_spaces[1].friction, 0.3, 0, 0);
    assert_int_equal(s->num_obstacles, 5);
    const ipcc_obstacle_def *o = &s->obstacles[0];
    assert_string_equal(o->name, "cube");
    assert_true(o->use_transform);
    assert_near(o->transform[1], -1, 0, 0);
    assert_near(o->transform[3], 5, 0, 0);
    assert_true(o->has_pivot);
    assert_vec3(o->pivot, 5, 0, 0);
    assert_int_equal(o->stop.axis, 1);
    assert_int_equal(o->stop.first_vertex, 8);
    assert_string_equal(s->obstacle_paths[0], IPCC_TEST_DATA "/obj/cube.obj");
    assert_int_equal(o->mesh->num_faces, 12);
    // Segments from a .seg file and from an OBJ's triangle edges.
    o = &s->obstacles[1];
    assert_int_equal(o->stop.axis, -1);
    assert_int_equal(o->mesh->num_faces, 0);
    assert_int_equal(o->mesh->num_edges, 2);
    assert_int_equal(o->mesh->num_vertices, 3);
    snprintf(path, sizeof path, "%s/wire.seg", dir);
    assert_string_equal(s->obstacle_paths[1], path);
    assert_int_equal(s->obstacles[2].mesh->num_faces, 0);
    assert_int_equal(s->obstacles[2].mesh->num_edges, 18);
    // Points from a .pt file (any case) and from an OBJ's vertices.
    assert_int_equal(s->obstacles[3].mesh->num_faces, 0);
    assert_int_equal(s->obstacles[3].mesh->num_edges, 0);
    assert_int_equal(s->obstacles[3].mesh->num_vertices, 2);
    assert_int_equal(s->obstacles[4].mesh->num_edges, 0);
    assert_int_equal(s->obstacles[4].mesh->num_vertices, 8);
    ipcc_scene_destroy(s);

    // Defaults of the new keys.
    st = scene_parse("{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {}, 'dirichlet': [{}]}],"
                     " 'obstacles': [{'type': 'mesh', 'path': '" IPCC_TEST_DATA "/obj/cube.obj',"
                     " 'translation': [3, 0, 0]}]}",
                     NULL, &s);
    if (st != IPCC_OK) fail_msg("%s", ipcc_last_error());
    assert_int_equal(s->num_steps, 0);
    assert_int_equal(s->world.num_tolerances, 0);
    assert_null(s->world.tolerances);
    assert_near(s->world.length_scale, 0, 0, 0);
    assert_near(s->world.damping, 0, 0, 0);
    assert_near(s->world.newmark_beta, 0.25, 0, 0);
    assert_near(s->world.newmark_gamma, 0.5, 0, 0);
    assert_near(s->world.contact.friction_smoothing_time, 0, 0, 0);
    assert_true(s->world.newton_check_forces);
    assert_false(s->bodies[0].use_transform);
    assert_false(s->bodies[0].has_velocity_pivot);
    assert_int_equal(s->bodies[0].num_neumann, 0);
    assert_int_equal(s->bodies[0].dirichlet[0].stop.axis, -1);
    assert_int_equal(s->bodies[0].dirichlet[0].num_vertices, 0);
    assert_false(s->obstacles[0].use_transform);
    assert_false(s->obstacles[0].has_pivot);
    assert_int_equal(s->obstacles[0].stop.axis, -1);
    ipcc_scene_destroy(s);

    // "steps" with "duration": both are kept (the run takes exactly `steps`).
    st = scene_parse("{'duration': 1, 'steps': 3, 'bodies': [" BODY "]}", NULL, &s);
    if (st != IPCC_OK) fail_msg("%s", ipcc_last_error());
    assert_int_equal(s->num_steps, 3);
    assert_near(s->duration, 1, 0, 0);
    ipcc_scene_destroy(s);
    ipcc_test_remove_tree(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full_scene),        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_comments),          cmocka_unit_test(test_bad_scenes),
        cmocka_unit_test(test_syntax_error_line), cmocka_unit_test(test_missing_files),
        cmocka_unit_test(test_relative_paths),    cmocka_unit_test(test_new_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
