// Determinism: the same scene gives bit-identical states with 1, 2 and 3
// threads (every parallel loop writes pre-sized slots and reduces in a fixed
// order), and twice in a row in one process; and a golden hash of a contact
// and friction scene's final state, so any change of results is seen.
#include <cblas.h> // openblas_get_corename
#include <inttypes.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "world_checks.h"

// The final positions and velocities of w (malloc'ed, 6n doubles; n into
// *n_out); w and its mesh are destroyed.
static double *final_state(ipcc_world *w, ipcc_mesh *mesh, int *n_out) {
    int n = ipcc_world_num_vertices(w);
    double *state = malloc(sizeof(double) * 6 * (size_t)n);
    memcpy(state, ipcc_world_positions(w), sizeof(double) * 3 * (size_t)n);
    memcpy(state + 3 * n, ipcc_world_velocities(w), sizeof(double) * 3 * (size_t)n);
    *n_out = n;
    ipcc_world_destroy(w);
    ipcc_mesh_destroy(mesh);
    return state;
}

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
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    for (int s = 0; s < 15; ++s)
        assert_int_equal(ipcc_world_step(w, NULL), IPCC_OK);
    return final_state(w, mesh, n_out);
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

// A volumetric body: a 14 x 14 x 14-cell box (about 9,000 unknowns and
// 1.2e9 flops per factorization, measured on the same mesh: over
// supernodal.h's parallel threshold, with top separators of several
// hundred columns, so the factorization runs its tiled, team-parallel
// phase, supernodal.c) clamped at one end and turned at the other, 3 steps:
// bit-identical on 1, 2 and 3 threads.
static double *run_volume(int threads, int *n_out) {
    omp_set_num_threads(threads);
    ipcc_mesh *mesh = ipcc_test_box_mesh(14, 14, 14, 0.3, 0.3, 0.3);
    ipcc_dirichlet_def bc[2];
    ipcc_test_twist_ends(4.0, 1e30, bc);
    ipcc_world_def def = ipcc_default_world_def();
    def.time_step = 0.02;
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&def, &w), IPCC_OK);
    ipcc_body_def body = ipcc_default_body_def();
    body.mesh = mesh;
    body.num_dirichlet = 2;
    body.dirichlet = bc;
    assert_int_equal(ipcc_world_add_body(w, &body, NULL), IPCC_OK);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    for (int s = 0; s < 3; ++s)
        assert_int_equal(ipcc_world_step(w, NULL), IPCC_OK);
    return final_state(w, mesh, n_out);
}

static void test_bit_identical_volumetric(void **state) {
    (void)state;
    int n1, n2, n3;
    double *a = run_volume(1, &n1), *b = run_volume(2, &n2), *c = run_volume(3, &n3);
    assert_int_equal(n1, 3375);
    assert_memory_equal(a, b, sizeof(double) * 6 * (size_t)n1);
    assert_memory_equal(a, c, sizeof(double) * 6 * (size_t)n1);
    free(a);
    free(b);
    free(c);
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
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
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

// Golden hash: a cube sliding over the ground (friction 0.5, two lagging
// passes) while a smaller one lands on it and rides along; 30 steps. The
// hash is 64-bit FNV-1a over the bytes of the final positions then
// velocities (3n doubles each, as stored: little-endian IEEE 754).
static const char *golden_scene =
    "{\"time_step\": 0.01, \"duration\": 1, \"gravity\": [0, -9.81, 0],"
    " \"contact\": {\"friction\": 0.5, \"friction_iterations\": 2},"
    " \"materials\": {\"r\": {\"model\": \"neo_hookean\", \"density\": 1000,"
    "   \"youngs_modulus\": 1e5, \"poisson_ratio\": 0.4}},"
    " \"bodies\": ["
    "  {\"name\": \"lower\", \"material\": \"r\","
    "   \"mesh\": {\"box\": {\"size\": [0.2, 0.2, 0.2], \"cells\": [3, 3, 3]}},"
    "   \"translation\": [-0.1, 0.002, -0.1], \"velocity\": [1, 0, 0.3]},"
    "  {\"name\": \"upper\", \"material\": \"r\","
    "   \"mesh\": {\"box\": {\"size\": [0.1, 0.1, 0.1], \"cells\": [2, 2, 2]}},"
    "   \"translation\": [-0.07, 0.24, -0.03]}],"
    " \"obstacles\": [{\"type\": \"half_space\", \"point\": [0, 0, 0], \"normal\": [0, 1, 0]}]}";

// The expected hash of the golden scene's final state: the same for any
// thread count and for Release, RelWithDebInfo and ASan/UBSan builds (the
// build is ISO C11, so GCC contracts no a * b + c into an FMA, and CHOLMOD,
// OpenBLAS and libm are the same shared libraries in every build). OpenBLAS
// picks its kernels by CPU and each kernel rounds differently (the
// factorization's supernodes go through them, supernodal.c): the hash is
// for its generic x86-64
// "Prescott" kernels, which every x86-64 CPU runs, pinned by
// OPENBLAS_CORETYPE=Prescott in the test's environment (tests/tests.cmake).
// To update it after a deliberate change of results: run
//   cd build/test && IPCC_PRINT_GOLDEN_HASH=1 ctest -R '^determinism$' -V | grep 'golden hash'
// (or the binary itself with OPENBLAS_CORETYPE=Prescott), paste the value
// printed into GOLDEN_HASH, check that the sanitizer build agrees (make
// test-sanitize), and say in the commit which change moved the results and
// why. docs/testing.md, "Golden hash".
#define GOLDEN_HASH UINT64_C(0x6efd0c0fa3984303)

static uint64_t fnv1a(uint64_t h, const void *data, size_t size) {
    const unsigned char *p = data;
    for (size_t i = 0; i < size; ++i) {
        h ^= p[i];
        h *= UINT64_C(0x100000001b3); // FNV-1a 64-bit prime
    }
    return h;
}

static uint64_t golden_run(int threads) {
    omp_set_num_threads(threads);
    ipcc_world *w = ipcc_test_world_from_json(golden_scene, IPCC_SOURCE_DIR "/examples");
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    ipcc_step_stats st;
    int steps_with_friction = 0, max_contacts = 0;
    for (int s = 0; s < 30; ++s) {
        assert_int_equal(ipcc_world_step(w, &st), IPCC_OK);
        steps_with_friction += st.friction_contacts > 0 && st.friction_dissipation > 0;
        if (st.num_contacts > max_contacts) max_contacts = st.num_contacts;
    }
    // The scene exercises what it is meant to: contacts (ground and
    // cube-on-cube) and sliding friction.
    assert_true(max_contacts > 10 && steps_with_friction > 10);
    int n = ipcc_world_num_vertices(w);
    uint64_t h = UINT64_C(0xcbf29ce484222325); // FNV-1a 64-bit offset basis
    h = fnv1a(h, ipcc_world_positions(w), sizeof(double) * 3 * (size_t)n);
    h = fnv1a(h, ipcc_world_velocities(w), sizeof(double) * 3 * (size_t)n);
    ipcc_world_destroy(w);
    return h;
}

static void test_golden_hash(void **state) {
    (void)state;
#if !defined(__x86_64__)
    skip(); // GOLDEN_HASH is the result of OpenBLAS's generic x86-64 kernels
#endif
    const char *core = openblas_get_corename();
    if (strcmp(core, "Prescott") != 0)
        fail_msg(
            "OpenBLAS runs its %s kernels; GOLDEN_HASH is the result with its Prescott kernels: run with "
            "OPENBLAS_CORETYPE=Prescott (ctest sets it)",
            core);
    const char *print = getenv("IPCC_PRINT_GOLDEN_HASH");
    for (int threads = 1; threads <= 3; threads += 2) {
        uint64_t h = golden_run(threads);
        if (print && *print) print_message("golden hash: 0x%016" PRIx64 " (%d threads)\n", h, threads);
        if (h != GOLDEN_HASH)
            fail_msg("golden hash 0x%016" PRIx64 " with %d threads, expected 0x%016" PRIx64
                     ": the results changed (if on purpose, update GOLDEN_HASH as its comment says)",
                     h, threads, GOLDEN_HASH);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bit_identical_across_threads), cmocka_unit_test(test_bit_identical_volumetric),
        cmocka_unit_test(test_bit_identical_with_contact), cmocka_unit_test(test_golden_hash)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
