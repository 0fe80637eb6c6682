// no_allocation: once a scene's sizes and contact pattern have been seen,
// a step allocates nothing: not in ipcc's Newton loop (grow-only buffers,
// preallocated triplet slots, the broad phase's stage), not in CHOLMOD
// (numeric factorization into the analysed factor, solves into persistent
// workspaces), not in OpenMP.
//
// How: this executable defines malloc, calloc, realloc, posix_memalign and
// aligned_alloc. They count the calls made while `counting` is set and
// forward to glibc's own entry points (__libc_malloc, ...). The dynamic
// linker binds every library's malloc (CHOLMOD, OpenBLAS, libgomp) to these
// definitions, because the executable comes first in the lookup order. So
// the count covers everything a step does. Built only without sanitizers
// (ASan replaces the allocator itself); registered in tests.cmake.
//
// The numeric factorization is ipcc's own (supernodal.c; CHOLMOD's kernel
// allocated its update workspace at every call), planned with every
// workspace at each analysis, so CHOLMOD allocates nothing either.
// Allocations are attributed to the library that calls malloc (dladdr on
// the return address), and the test asserts none anywhere; the run uses 2
// OpenMP threads (tests.cmake), so the factorization's parallel phases are
// counted too.
//
// Scenes: contact_cubes (two cubes at rest on a half-space and on each
// other: elasticity, barrier, CCD) and the same with friction; analytic
// shapes (a moving box platform and a torus; a cylinder and a torus, with
// friction) and a moving half-space. Each is run
// until it rests, then N more steps are counted; the test fails on any
// allocation, naming the step, and prints the size of the first.
#define _GNU_SOURCE // dladdr
#include <dlfcn.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "broad_phase/broad_phase.h"
#include "ipcc/ipcc.h"

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static atomic_int counting;
static atomic_long allocations, cholmod_allocations;
static atomic_size_t first_size;

// Is the caller CHOLMOD? Its allocations go through cholmod_malloc
// (libcholmod) and SuiteSparse_malloc (libsuitesparseconfig).
static bool from_cholmod(void *caller) {
    Dl_info info;
    return dladdr(caller, &info) && info.dli_fname &&
           (strstr(info.dli_fname, "libcholmod") || strstr(info.dli_fname, "libsuitesparseconfig"));
}

static void count(size_t size, void *caller) {
    if (!atomic_load_explicit(&counting, memory_order_relaxed)) return;
    if (from_cholmod(caller))
        atomic_fetch_add(&cholmod_allocations, 1);
    else if (atomic_fetch_add(&allocations, 1) == 0)
        atomic_store(&first_size, size);
}

void *malloc(size_t size) {
    count(size, __builtin_return_address(0));
    return __libc_malloc(size);
}

void *calloc(size_t n, size_t size) {
    count(n * size, __builtin_return_address(0));
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size) {
    count(size, __builtin_return_address(0));
    return __libc_realloc(p, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    count(size, __builtin_return_address(0));
    void *p = __libc_memalign(alignment, size);
    if (!p) return 12; // ENOMEM
    *out = p;
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
    count(size, __builtin_return_address(0));
    return __libc_memalign(alignment, size);
}

/// Steps `warmup` steps, then `counted` steps with the counter on; returns the
/// allocations seen in the counted steps.
static long allocations_after_warmup(const char *scene_path, const char *set, int warmup, int counted) {
    ipcc_scene_options opts = {0};
    const char *sets[1] = {set};
    if (set) {
        opts.overrides = sets;
        opts.num_overrides = 1;
    }
    ipcc_scene *scene = NULL;
    ipcc_world *world = NULL;
    assert_int_equal(ipcc_scene_load_with_options(scene_path, &opts, &scene), IPCC_OK);
    assert_int_equal(ipcc_scene_create_world(scene, &world), IPCC_OK);
    if (ipcc_world_start(world) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    ipcc_step_stats st;
    int contacts = 0;
    for (int s = 0; s < warmup; ++s) {
        assert_true(ipcc_world_step(world, &st) >= 0);
        contacts = st.num_contacts;
    }
    assert_true(contacts > 0); // the counted steps do have contact work
    long total = 0;
    for (int s = 0; s < counted; ++s) {
        atomic_store(&allocations, 0);
        atomic_store(&cholmod_allocations, 0);
        atomic_store(&counting, 1);
        ipcc_status status = ipcc_world_step(world, &st);
        atomic_store(&counting, 0);
        assert_true(status >= 0);
        long n = atomic_load(&allocations), nc = atomic_load(&cholmod_allocations);
        if (nc > 0) fprintf(stderr, "%s: step %d: %ld allocation(s) in CHOLMOD\n", scene_path, st.step, nc);
        n += nc;
        if (n > 0)
            fprintf(stderr,
                    "%s: step %d (%d contacts, %d Newton iterations): %ld allocation(s), the first of %zu "
                    "bytes\n",
                    scene_path, st.step, st.num_contacts, st.newton_iterations, n, atomic_load(&first_size));
        total += n;
    }
    ipcc_world_destroy(world);
    ipcc_scene_destroy(scene);
    return total;
}

static void test_contact_steps_allocate_nothing(void **state) {
    (void)state;
    assert_int_equal(allocations_after_warmup(IPCC_SOURCE_DIR "/examples/contact_cubes.json", NULL, 120, 30),
                     0);
}

// Analytic shapes: a moving box platform (its clock, its edge obstacle and
// friction against its moving surface) and a fixed torus.
static void test_shape_steps_allocate_nothing(void **state) {
    (void)state;
    assert_int_equal(
        allocations_after_warmup(IPCC_SOURCE_DIR "/tests/data/shape_platform.json", NULL, 40, 20), 0);
}

// Curved shapes with friction (mu 0.5): a cube on a cylinder's side and one
// held in a torus's hole by the inner side of its tube, both in contact
// through the counted steps.
static void test_curved_shape_steps_allocate_nothing(void **state) {
    (void)state;
    assert_int_equal(allocations_after_warmup(IPCC_SOURCE_DIR "/tests/data/shape_curved.json", NULL, 40, 20),
                     0);
}

// A moving half-space (a belt carrying one block, sliding under another):
// the plane's clock, CCD and friction against its moving surface.
static void test_moving_half_space_steps_allocate_nothing(void **state) {
    (void)state;
    assert_int_equal(allocations_after_warmup(IPCC_SOURCE_DIR "/examples/belt.json", NULL, 40, 20), 0);
}

// Height-field terrain (a cube resting in a bowl, friction 0.5): the bounded
// and exact distance queries, the terrain's CCD and friction. (A rolling
// scene, examples/terrain.json, meets new sizes for a while: its CCD
// buffers grow at step 102, as grow-only buffers may.)
static void test_height_field_steps_allocate_nothing(void **state) {
    (void)state;
    assert_int_equal(
        allocations_after_warmup(IPCC_SOURCE_DIR "/tests/data/height_field_bowl.json", NULL, 40, 20), 0);
}

// The frictional stack (mu 0.5) at rest: steps 251 to 280 (past the
// scene's 2 s). Resting under friction netted by the multiplicities
// (friction.c), the stack's contact set still grows now and then until
// about step 225 (186 to 200 keys, gaps creeping across d̂), and each new
// size grows CHOLMOD's and the triplets' buffers once, as grow-only
// buffers may.
static void test_friction_steps_allocate_nothing(void **state) {
    (void)state;
    assert_int_equal(allocations_after_warmup(IPCC_SOURCE_DIR "/examples/contact_cubes.json",
                                              "contact.friction=0.5", 250, 30),
                     0);
}

// A large surface (two 80 x 80 grids of 12,800 triangles each, 0.3 cells
// apart): its trees are big enough for the refit plan to split them into
// parts refit in parallel, the path the small scenes above do not take.
// After the first query (the build), static and swept queries alternate,
// with the second grid moving and its inflation changing, and allocate
// nothing: no OpenMP task, no buffer growth.
static void test_broad_phase_refits_allocate_nothing(void **state) {
    (void)state;
    enum { N = 80, NV = 2 * (N + 1) * (N + 1), NF = 2 * 2 * N * N, NE = 2 * (3 * N * N + 2 * N) };
    double *x0 = malloc(sizeof(double) * 3 * NV), *x1 = malloc(sizeof(double) * 3 * NV);
    int *faces = malloc(sizeof(int) * 3 * NF), *edges = malloc(sizeof(int) * 2 * NE),
        *group = malloc(sizeof(int) * NV);
    assert_non_null(x0 && x1 && faces && edges && group);
    int nf = 0, ne = 0;
    for (int g = 0; g < 2; ++g) {
        int base = g * (N + 1) * (N + 1);
        for (int i = 0; i <= N; ++i)
            for (int j = 0; j <= N; ++j) {
                int v = base + i * (N + 1) + j;
                x0[3 * v] = i, x0[3 * v + 1] = j, x0[3 * v + 2] = 0.3 * g;
                group[v] = g;
                if (i < N) edges[2 * ne] = v, edges[2 * ne++ + 1] = v + N + 1;
                if (j < N) edges[2 * ne] = v, edges[2 * ne++ + 1] = v + 1;
                if (i < N && j < N) {
                    int a = v, b = v + N + 1, c = v + N + 2, d = v + 1;
                    edges[2 * ne] = a, edges[2 * ne++ + 1] = c;
                    faces[3 * nf] = a, faces[3 * nf + 1] = b, faces[3 * nf++ + 2] = c;
                    faces[3 * nf] = a, faces[3 * nf + 1] = c, faces[3 * nf++ + 2] = d;
                }
            }
    }
    assert_int_equal(nf, NF);
    assert_int_equal(ne, NE);
    ipcc_collision_topology topo = {.num_vertices = NV,
                                    .vertex_group = group,
                                    .num_edges = NE,
                                    .edges = edges,
                                    .num_faces = NF,
                                    .faces = faces,
                                    .num_groups = 2};
    ipcc_broad_phase *bp = ipcc_broad_phase_create();
    ipcc_candidates cand = {0};
    int kinds = IPCC_CANDIDATES_VF | IPCC_CANDIDATES_EE;
    // Warm-up: the build and one query of each kind size every buffer.
    assert_int_equal(ipcc_broad_phase_query(bp, &topo, x0, NULL, 0.5, kinds, &cand), IPCC_OK);
    for (int k = 0; k < 3 * NV; ++k)
        x1[k] = x0[k] + (k % 3 == 2 && k >= 3 * NV / 2 ? -0.05 : 0.0);
    assert_int_equal(ipcc_broad_phase_query(bp, &topo, x0, x1, 0.5, kinds, &cand), IPCC_OK);
    int expected = cand.num_vf + cand.num_ee;
    assert_true(expected > 0);
    long total = 0;
    for (int q = 0; q < 8; ++q) {
        atomic_store(&allocations, 0);
        atomic_store(&counting, 1);
        ipcc_status st = q % 2 ? ipcc_broad_phase_query(bp, &topo, x0, x1, 0.5, kinds, &cand)
                               : ipcc_broad_phase_query(bp, &topo, x1, NULL, 0.45, kinds, &cand);
        atomic_store(&counting, 0);
        assert_int_equal(st, IPCC_OK);
        total += atomic_load(&allocations);
    }
    ipcc_broad_phase_stats bs = ipcc_broad_phase_get_stats(bp);
    assert_true(bs.tree_refits >= 8); // the queries above were refits, not builds
    assert_int_equal(total, 0);
    ipcc_candidates_free(&cand);
    ipcc_broad_phase_destroy(bp);
    free(x0), free(x1), free(faces), free(edges), free(group);
}

// The counter itself works: a known allocation is seen.
static void test_counter_counts(void **state) {
    (void)state;
    atomic_store(&allocations, 0);
    atomic_store(&counting, 1);
    void *volatile p = malloc(100);
    atomic_store(&counting, 0);
    free(p);
    assert_int_equal(atomic_load(&allocations), 1);
    assert_int_equal(atomic_load(&cholmod_allocations), 0);
    assert_int_equal(atomic_load(&first_size), 100);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counter_counts),
        cmocka_unit_test(test_broad_phase_refits_allocate_nothing),
        cmocka_unit_test(test_contact_steps_allocate_nothing),
        cmocka_unit_test(test_friction_steps_allocate_nothing),
        cmocka_unit_test(test_shape_steps_allocate_nothing),
        cmocka_unit_test(test_curved_shape_steps_allocate_nothing),
        cmocka_unit_test(test_moving_half_space_steps_allocate_nothing),
        cmocka_unit_test(test_height_field_steps_allocate_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
