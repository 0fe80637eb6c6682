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
// One allocation is CHOLMOD's own: cholmod_super_numeric, the supernodal
// kernel, allocates its update workspace (one dense block, freed before it
// returns) at every numeric factorization; nothing in its API lets a caller
// supply it. Allocations are therefore attributed to the library that calls
// malloc (dladdr on the return address), and the test asserts none outside
// CHOLMOD and at most 3 blocks (the workspace, grown in up to 2 steps) per
// factorization inside it.
//
// Scenes: contact_cubes (two cubes at rest on a half-space and on each
// other: elasticity, barrier, CCD) and the same with friction. Each is run
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
        long factorizations = st.newton_iterations + st.factorization_fallbacks;
        assert_true(nc <= 3 * factorizations);
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

static void test_friction_steps_allocate_nothing(void **state) {
    (void)state;
    assert_int_equal(allocations_after_warmup(IPCC_SOURCE_DIR "/examples/contact_cubes.json",
                                              "contact.friction=0.5", 60, 30),
                     0);
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
        cmocka_unit_test(test_contact_steps_allocate_nothing),
        cmocka_unit_test(test_friction_steps_allocate_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
