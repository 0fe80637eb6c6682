// Tests for src/scene/scene_regions.c: a body's "regions" maps the regions of its
// mesh (names or numbers) to materials; unmapped tets keep "material"; the
// mapping survives ipcc_scene_write_json() and "--set"; mistakes name the
// body and the key.
//
// Mesh: tests/data/regions41.msh, two unit cubes, region 7 "soft" (x < 1)
// and region 9 "stiff" (x > 1), 100 tets each.
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipcc/scene.h"

static const char *const HEAD =
    "{\"time_step\": 0.01, \"duration\": 0.01,"
    " \"materials\": {\"rubber\": {\"youngs_modulus\": 1e5, \"density\": 900},"
    "                 \"steel\": {\"youngs_modulus\": 2e8, \"density\": 7800}},"
    " \"bodies\": [{\"name\": \"bar\", \"mesh\": \"%s\", \"material\": \"rubber\"%s}]}";

static ipcc_status parse(const char *mesh, const char *extra, ipcc_scene **out) {
    char text[2048];
    snprintf(text, sizeof text, HEAD, mesh, extra);
    return ipcc_scene_parse(text, "regions.json", ipcc_test_data_path(""), out);
}

static double centroid_x(const ipcc_mesh *m, int t) {
    double s = 0;
    for (int k = 0; k < 4; k++)
        s += m->vertices[3 * m->tets[4 * t + k]] / 4.0;
    return s;
}

// Every tet of x > 1 ("stiff") on materials[slot], every other on -1.
static void assert_stiff_mapped(const ipcc_body_def *b, int slot) {
    assert_non_null(b->tet_materials);
    for (int t = 0; t < b->mesh->num_tets; t++)
        assert_int_equal(b->tet_materials[t], centroid_x(b->mesh, t) > 1 ? slot : -1);
}

static void test_map_by_name_and_number(void **state) {
    (void)state;
    ipcc_scene *s = NULL;
    assert_int_equal(parse("regions41.msh", ", \"regions\": {\"stiff\": \"steel\"}", &s), IPCC_OK);
    const ipcc_body_def *b = &s->bodies[0];
    assert_int_equal(b->num_materials, 1);
    assert_near(b->materials[0].youngs_modulus, 2e8, 0, 0);
    assert_near(b->material.youngs_modulus, 1e5, 0, 0); // the default for "soft"
    assert_stiff_mapped(b, 0);
    ipcc_scene_destroy(s);

    // By number, with an inline material; both regions mapped.
    assert_int_equal(
        parse("regions41.msh",
              ", \"regions\": {\"7\": \"steel\", \"9\": {\"youngs_modulus\": 3e6, \"density\": 10}}", &s),
        IPCC_OK);
    b = &s->bodies[0];
    assert_int_equal(b->num_materials, 2);
    assert_near(b->materials[1].youngs_modulus, 3e6, 0, 0);
    for (int t = 0; t < b->mesh->num_tets; t++)
        assert_int_equal(b->tet_materials[t], centroid_x(b->mesh, t) > 1 ? 1 : 0);
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_scene_create_world(s, &w), IPCC_OK);
    double total = 0;
    for (int i = 0; i < ipcc_world_num_vertices(w); i++)
        total += ipcc_world_masses(w)[i];
    assert_near(total, 7800 * 1.0 + 10 * 1.0, 0.0, 1e-12); // steel cube + the inline one
    ipcc_world_destroy(w);
    ipcc_scene_destroy(s);

    // TetGen regions have numbers only.
    assert_int_equal(parse("regions_tetgen.ele", ", \"regions\": {\"9\": \"steel\"}", &s), IPCC_OK);
    assert_stiff_mapped(&s->bodies[0], 0);
    ipcc_scene_destroy(s);
}

static void test_round_trip_and_override(void **state) {
    (void)state;
    ipcc_scene *a = NULL, *b = NULL;
    assert_int_equal(
        parse(ipcc_test_data_path("regions41_bin.msh"), ", \"regions\": {\"stiff\": \"steel\"}", &a),
        IPCC_OK);
    const char *path = "scene_regions_round_trip.json";
    assert_int_equal(ipcc_scene_write_json(a, path), IPCC_OK);
    if (ipcc_scene_load(path, &b) != IPCC_OK) fail_msg("%s", ipcc_last_error());
    assert_int_equal(b->bodies[0].num_materials, 1);
    const ipcc_material *ma = &a->bodies[0].materials[0], *mb = &b->bodies[0].materials[0];
    assert_int_equal(mb->model, ma->model);
    assert_true(mb->density == ma->density && mb->youngs_modulus == ma->youngs_modulus &&
                mb->poisson_ratio == ma->poisson_ratio);
    assert_memory_equal(b->bodies[0].tet_materials, a->bodies[0].tet_materials,
                        sizeof(int) * (size_t)a->bodies[0].mesh->num_tets);
    ipcc_scene_destroy(b);

    // --set adds a mapping to the file's (the written file has inline materials only).
    const char *ov[] = {"bodies[0].regions.soft={\"youngs_modulus\": 2e8}"};
    ipcc_scene_options opt = {.num_overrides = 1, .overrides = ov};
    if (ipcc_scene_load_with_options(path, &opt, &b) != IPCC_OK) fail_msg("%s", ipcc_last_error());
    assert_int_equal(b->bodies[0].num_materials, 2);
    for (int t = 0; t < b->bodies[0].mesh->num_tets; t++)
        assert_true(b->bodies[0].tet_materials[t] >= 0);
    ipcc_scene_destroy(b);
    ipcc_scene_destroy(a);
    unlink(path);
}

// Mistakes: the key path and what is wrong.
static void test_errors_name_body_and_key(void **state) {
    (void)state;
    static const struct {
        const char *mesh, *extra, *want;
    } cases[] = {
        {"regions41.msh", ", \"regions\": {\"steel\": \"steel\"}",
         "bodies[0].regions.steel: body \"bar\": its mesh"},
        {"regions41.msh", ", \"regions\": {\"steel\": \"steel\"}",
         "has no region \"steel\" (its regions: 7 \"soft\", 9 \"stiff\")"},
        {"regions41.msh", ", \"regions\": {\"stiff\": \"stone\"}",
         "bodies[0].regions.stiff: unknown material \"stone\""},
        {"regions41.msh", ", \"regions\": {\"stiff\": \"steel\", \"9\": \"rubber\"}",
         "bodies[0].regions.9: body \"bar\": region 9 is mapped twice"},
        {"regions41.msh", ", \"regions\": [\"stiff\"]", "bodies[0].regions: expected an object"},
        {"regions41.msh", ", \"regions\": {\"stiff\": 3}",
         "bodies[0].regions.stiff: expected a material name or object"},
        {"cube_msh22.msh", ", \"regions\": {\"1\": \"steel\"}",
         "bodies[0].regions.1: body \"bar\": its mesh"},
        {"cube_msh22.msh", ", \"regions\": {\"1\": \"steel\"}", "has no regions"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ipcc_scene *s = (ipcc_scene *)1;
        ipcc_status st = parse(cases[i].mesh, cases[i].extra, &s);
        if (st != IPCC_ERR_INVALID_ARGUMENT || !strstr(ipcc_last_error(), cases[i].want))
            fail_msg("case %zu: %s: \"%s\" (want \"%s\")", i, ipcc_status_name(st), ipcc_last_error(),
                     cases[i].want);
        assert_null(s);
    }
    // A box mesh has no regions either.
    ipcc_scene *s = NULL;
    const char *box =
        "{\"time_step\": 0.01, \"duration\": 0.01, \"bodies\": [{\"mesh\": {\"box\": {\"size\": [1, 1, "
        "1], \"cells\": [1, 1, 1]}}, \"material\": {}, \"regions\": {\"1\": {}}}]}";
    assert_int_equal(ipcc_scene_parse(box, "box.json", NULL, &s), IPCC_ERR_INVALID_ARGUMENT);
    assert_non_null(
        strstr(ipcc_last_error(),
               "box.json: bodies[0].regions.1: body \"bodies[0]\": its mesh (a box) has no regions"));
}

// Mean y displacement of the vertices within 0.03 m of the plane x = at.
static double sag_at(const ipcc_world *w, double at) {
    const double *x = ipcc_world_positions(w), *X = ipcc_world_rest_positions(w);
    double sum = 0;
    int n = 0;
    for (int i = 0; i < ipcc_world_num_vertices(w); i++)
        if (fabs(X[3 * i] - at) < 0.03) {
            sum += x[3 * i + 1] - X[3 * i + 1];
            n++;
        }
    assert_true(n > 0);
    return sum / n;
}

// examples/regions.json solved statically: the soft half sags several times
// as far as the stiff half; with both halves of one material the bar sags
// symmetrically, so the difference comes from the regions.
static void test_example_soft_half_sags_more(void **state) {
    (void)state;
    double ratio[2];
    for (int k = 0; k < 2; k++) {
        const char *ov[] = {"integrator=\"static\"", "time_step=1", "duration=1", "damping=0",
                            k ? "bodies[0].regions.stiff=rubber" : "bodies[0].name=bar"};
        ipcc_scene_options opt = {.num_overrides = 5, .overrides = ov};
        ipcc_scene *s = NULL;
        if (ipcc_scene_load_with_options(IPCC_SOURCE_DIR "/examples/regions.json", &opt, &s) != IPCC_OK)
            fail_msg("%s", ipcc_last_error());
        ipcc_world *w = NULL;
        assert_int_equal(ipcc_scene_create_world(s, &w), IPCC_OK);
        if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
        assert_int_equal(ipcc_world_step(w, NULL), IPCC_OK);
        double soft = sag_at(w, 0.25), stiff = sag_at(w, 0.75);
        assert_true(soft < 0 && stiff < 0);
        ratio[k] = soft / stiff;
        print_message("%s: sag at x = 0.25: %.4g m, at x = 0.75: %.4g m\n", k ? "one material" : "regions",
                      soft, stiff);
        ipcc_world_destroy(w);
        ipcc_scene_destroy(s);
    }
    assert_true(ratio[0] > 4.0);           // E differs 100 times: about 5.8
    assert_near(ratio[1], 1.0, 0.0, 0.05); // symmetric up to the unstructured mesh
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_map_by_name_and_number),
        cmocka_unit_test(test_round_trip_and_override),
        cmocka_unit_test(test_errors_name_body_and_key),
        cmocka_unit_test(test_example_soft_half_sags_more),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
