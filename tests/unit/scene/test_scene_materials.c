// Tests for src/scene/scene_materials.c: a JSON scene's "materials" and a
// body's "material" (a name from them or an inline object), the model names
// the writer shares, and the messages for unknown names. The range checks
// of each key are in test_scene_parse.c (bad_cases).
//
// Scenes written inline use single quotes; scene_parse() turns them into
// double quotes before parsing.
#include "support.h"
#include "world_checks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipcc/scene.h"
#include "scene/scene_materials.h"

#define BOX "{'box': {'size': [1, 1, 1]}}"

static ipcc_status scene_parse(const char *quoted, const char *base_dir, ipcc_scene **out) {
    return ipcc_test_scene_parse_quoted(quoted, base_dir, out);
}

static void test_named_and_inline(void **state) {
    (void)state;
    ipcc_scene *s = NULL;
    ipcc_status st = scene_parse("{'duration': 1, 'materials': {'soft': {'model': 'stvk', 'density': 500}, "
                                 "'hard': {'youngs_modulus': 1e9}},"
                                 " 'bodies': [{'mesh': " BOX ", 'material': 'hard'},"
                                 "            {'mesh': " BOX
                                 ", 'material': {'model': 'fixed_corotated', 'poisson_ratio': 0.3}},"
                                 "            {'mesh': " BOX ", 'material': 'soft'}]}",
                                 NULL, &s);
    if (st != IPCC_OK) fail_msg("%s", ipcc_last_error());
    const ipcc_material d = ipcc_default_material();
    const ipcc_material *m = &s->bodies[0].material;
    assert_int_equal(m->model, d.model);
    assert_near(m->youngs_modulus, 1e9, 0, 0);
    assert_near(m->density, d.density, 0, 0);
    m = &s->bodies[1].material;
    assert_int_equal(m->model, IPCC_FIXED_COROTATED);
    assert_near(m->poisson_ratio, 0.3, 0, 0);
    assert_near(m->youngs_modulus, d.youngs_modulus, 0, 0);
    m = &s->bodies[2].material;
    assert_int_equal(m->model, IPCC_STVK);
    assert_near(m->density, 500, 0, 0);
    ipcc_scene_destroy(s);
}

// Every name of the shared table selects its model, and the models are distinct.
static void test_model_names(void **state) {
    (void)state;
    int n = 0;
    for (; ipcc_scene_model_names[n]; n++) {
        char text[512];
        snprintf(text, sizeof text,
                 "{'duration': 1, 'bodies': [{'mesh': " BOX ", 'material': {'model': '%s'}}]}",
                 ipcc_scene_model_names[n]);
        ipcc_scene *s = NULL;
        if (scene_parse(text, NULL, &s) != IPCC_OK) fail_msg("%s", ipcc_last_error());
        assert_int_equal(s->bodies[0].material.model, ipcc_scene_model_values[n]);
        ipcc_scene_destroy(s);
        for (int k = 0; k < n; k++)
            assert_int_not_equal(ipcc_scene_model_values[k], ipcc_scene_model_values[n]);
    }
    assert_int_equal(n, 4);
}

static void test_unknown_names(void **state) {
    (void)state;
    ipcc_scene *s = NULL;
    assert_int_equal(scene_parse("{'duration': 1, 'materials': {'soft': {}, 'hard': {}},"
                                 " 'bodies': [{'mesh': " BOX ", 'material': 'sotf'}]}",
                                 NULL, &s),
                     IPCC_ERR_INVALID_ARGUMENT);
    assert_null(s);
    assert_string_equal(ipcc_last_error(),
                        "scene.json: bodies[0].material: unknown material \"sotf\" (known: "
                        "soft, hard); did you mean \"soft\"?");
    assert_int_equal(scene_parse("{'duration': 1, 'materials': {'soft': {'model': 'neohookean'}},"
                                 " 'bodies': [{'mesh': " BOX ", 'material': 'soft'}]}",
                                 NULL, &s),
                     IPCC_ERR_INVALID_ARGUMENT);
    assert_string_equal(ipcc_last_error(),
                        "scene.json: materials.soft.model: unknown material model \"neohookean\" (known: "
                        "neo_hookean, fixed_corotated, stvk, linear); did you mean \"neo_hookean\"?");
    assert_int_equal(scene_parse("{'duration': 1, 'materials': {'': {}}, 'bodies': [{'mesh': " BOX
                                 ", 'material': {}}]}",
                                 NULL, &s),
                     IPCC_ERR_INVALID_ARGUMENT);
    assert_string_equal(ipcc_last_error(), "scene.json: materials: empty material name");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_named_and_inline),
        cmocka_unit_test(test_model_names),
        cmocka_unit_test(test_unknown_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
