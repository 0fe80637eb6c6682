// Tests for src/scene.c: the JSON scene format (docs/scene-format.md).
//
// Scenes written inline use single quotes for readability; scene_parse()
// turns them into double quotes before parsing (no case needs a literal ').
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipcc/scene.h"

#define BOX "{'box': {'size': [1, 1, 1]}}"
#define RUBBER "{'density': 1000, 'youngs_modulus': 1e5, 'poisson_ratio': 0.4}"
#define BODY "{'mesh': " BOX ", 'material': " RUBBER "}"

static ipcc_status scene_parse(const char *quoted, const char *base_dir, ipcc_scene **out) {
    char *text = malloc(strlen(quoted) + 1);
    assert_non_null(text);
    size_t i = 0;
    for (; quoted[i]; i++)
        text[i] = quoted[i] == '\'' ? '"' : quoted[i];
    text[i] = '\0';
    ipcc_status st = ipcc_scene_parse(text, "scene.json", base_dir, out);
    free(text);
    return st;
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
    {"{'duration': 1, 'bodies': [" BODY "], 'output': {'dir': 'x'}}", IPCC_ERR_INVALID_ARGUMENT,
     "output.dir: unknown key", NULL},
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
    assert_contains(ipcc_last_error(), "scene.json:1:1:");

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

    const char *missing = ipcc_test_data_path("scenes/no_such_scene.json");
    assert_int_equal(ipcc_scene_load(missing, &s), IPCC_ERR_IO);
    assert_null(s);
    assert_contains(ipcc_last_error(), missing);
    assert_contains(ipcc_last_error(), "No such file");
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

    // ipcc_scene_load resolves against the scene file's folder, however it is reached.
    st = ipcc_scene_load(ipcc_test_data_path("scenes/../scenes/full.json"), &s);
    if (st != IPCC_OK) fail_msg("%s", ipcc_last_error());
    assert_int_equal(s->bodies[0].mesh->num_tets, 5);
    ipcc_scene_destroy(s);
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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full_scene),        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_comments),          cmocka_unit_test(test_bad_scenes),
        cmocka_unit_test(test_syntax_error_line), cmocka_unit_test(test_missing_files),
        cmocka_unit_test(test_box_mesh),          cmocka_unit_test(test_relative_paths),
        cmocka_unit_test(test_create_world),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
