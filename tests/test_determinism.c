// Determinism: the same scene gives bit-identical states with 1, 2 and 3
// threads (every parallel loop writes pre-sized slots and reduces in a fixed
// order), and twice in a row in one process.
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "world_checks.h"

// A twisting bar under gravity with several materials, 15 steps; returns the
// final positions and velocities (malloc'ed, 6n doubles).
static double *run(int threads, int *n_out) {
    omp_set_num_threads(threads);
    ipcc_mesh *mesh = ipcc_test_box_mesh(12, 3, 3, 0.6, 0.15, 0.15);
    ipcc_dirichlet_def bc[2];
    ipcc_test_twist_ends(3.0, 1e30, bc);
    bc[1].velocity[1] = 0.2;
    ipcc_world_def def = ipcc_default_world_def();
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&def, &w), IPCC_OK);
    ipcc_material_model models[] = {IPCC_NEO_HOOKEAN, IPCC_FIXED_COROTATED};
    for (int b = 0; b < 2; ++b) {
        ipcc_body_def body = ipcc_default_body_def();
        body.mesh = mesh;
        body.material.model = models[b];
        body.translation[2] = 0.3 * b;
        body.num_dirichlet = 2;
        body.dirichlet = bc;
        assert_int_equal(ipcc_world_add_body(w, &body, NULL), IPCC_OK);
    }
    for (int s = 0; s < 15; ++s)
        assert_int_equal(ipcc_world_step(w, NULL), IPCC_OK);
    int n = ipcc_world_num_vertices(w);
    double *state = malloc(sizeof(double) * 6 * (size_t)n);
    memcpy(state, ipcc_world_positions(w), sizeof(double) * 3 * (size_t)n);
    memcpy(state + 3 * n, ipcc_world_velocities(w), sizeof(double) * 3 * (size_t)n);
    *n_out = n;
    ipcc_world_destroy(w);
    ipcc_mesh_destroy(mesh);
    return state;
}

static void test_bit_identical_across_threads(void **state) {
    (void)state;
    int n1, n2, n3, n4;
    double *a = run(1, &n1), *b = run(2, &n2), *c = run(3, &n3), *d = run(2, &n4);
    assert_int_equal(n1, n2);
    assert_int_equal(n1, n3);
    assert_memory_equal(a, b, sizeof(double) * 6 * (size_t)n1);
    assert_memory_equal(a, c, sizeof(double) * 6 * (size_t)n1);
    assert_memory_equal(b, d, sizeof(double) * 6 * (size_t)n1); // repeatable in one process
    free(a);
    free(b);
    free(c);
    free(d);
}

// With contact: examples/contact_cubes.json for 40 steps (both cubes land:
// ground, cube-on-cube, many constraints), without and with friction; final
// state and per-step contact counts bit-identical for 1, 2 and 3 threads.
static double *run_contact(int threads, double friction, int *n_out, int *contacts) {
    omp_set_num_threads(threads);
    ipcc_scene *scene = NULL;
    assert_int_equal(ipcc_scene_load(IPCC_SOURCE_DIR "/examples/contact_cubes.json", &scene), IPCC_OK);
    ipcc_world *w = NULL;
    scene->world.contact.friction = friction; // < 0: none (the scene gives no coefficients)
    scene->world.contact.friction_iterations = 2;
    assert_int_equal(ipcc_scene_create_world(scene, &w), IPCC_OK);
    ipcc_scene_destroy(scene);
    *contacts = 0;
    for (int s = 0; s < 40; ++s) {
        ipcc_step_stats st;
        assert_true(ipcc_world_step(w, &st) >= 0);
        *contacts = (int)(((unsigned)*contacts * 7u + (unsigned)st.num_contacts) & 0x3fffffffu); // digest
    }
    int n = ipcc_world_num_vertices(w);
    double *state = malloc(sizeof(double) * 3 * (size_t)n);
    memcpy(state, ipcc_world_positions(w), sizeof(double) * 3 * (size_t)n);
    *n_out = n;
    ipcc_world_destroy(w);
    return state;
}

static void test_bit_identical_with_contact(void **state) {
    (void)state;
    double frictions[2] = {-1, 0.5}; // without, and with friction (2 lagging passes)
    for (int f = 0; f < 2; ++f) {
        int n1, n2, n3, c1, c2, c3;
        double *a = run_contact(1, frictions[f], &n1, &c1), *b = run_contact(2, frictions[f], &n2, &c2),
               *c = run_contact(3, frictions[f], &n3, &c3);
        assert_true(c1 != 0);
        assert_int_equal(c1, c2);
        assert_int_equal(c1, c3);
        assert_memory_equal(a, b, sizeof(double) * 3 * (size_t)n1);
        assert_memory_equal(a, c, sizeof(double) * 3 * (size_t)n1);
        free(a);
        free(b);
        free(c);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_bit_identical_across_threads),
                                       cmocka_unit_test(test_bit_identical_with_contact)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
