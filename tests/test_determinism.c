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

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_bit_identical_across_threads)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
