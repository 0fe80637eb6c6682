// Checkpoints (checkpoint.c): a world restored from a checkpoint taken after
// k steps, then stepped to N, ends bit-identical (positions, velocities,
// accelerations, forces, time, kappa) to one stepped straight to N, for
// several k, on scenes that exercise every piece of state: contact with
// adaptive kappa, friction, Newmark accelerations, kinematic obstacles,
// rotating Dirichlet conditions with pivots, a scripted stop, a Neumann load,
// damping and a tolerance schedule. The restored part runs with 2 threads,
// the reference with 1. Bad files are refused with a message and leave the
// world untouched.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ipcc/ipcc.h"
#include "support.h"
#include "world_checks.h"

#define CKPT_PATH "checkpoint_test.bin"

// Stateful features on small boxes: a Newmark block falls on a half-space
// with friction, pushed sideways by a Neumann load that ends; a second block
// is lifted by a rotating Dirichlet group about a pivot that stops (hold)
// when its top passes a height; damping and a tolerance schedule.
static const char *stateful_scene =
    "{\"time_step\": 0.01, \"steps\": 14, \"integrator\": \"newmark\", \"damping\": 0.002,\n"
    " \"newton\": {\"tolerance\": [1e-2, 1e-3, 1e-4]},\n"
    " \"contact\": {\"friction\": 0.4, \"friction_iterations\": 2},\n"
    " \"bodies\": [\n"
    "  {\"name\": \"falls\", \"mesh\": {\"box\": {\"size\": [0.2, 0.2, 0.2], \"cells\": [2, 2, 2]}},\n"
    "   \"material\": {\"density\": 1000, \"youngs_modulus\": 1e5}, \"translation\": [0, 0.101, 0],\n"
    "   \"velocity\": [0, -1, 0],\n"
    "   \"neumann\": [{\"min\": [0, 0.5, 0], \"max\": [1, 1, 1], \"acceleration\": [30, 0, 0], \"end\": "
    "0.05}]},\n"
    "  {\"name\": \"lifted\", \"mesh\": {\"box\": {\"size\": [0.2, 0.2, 0.2], \"cells\": [2, 2, 2]}},\n"
    "   \"material\": {\"density\": 1000, \"youngs_modulus\": 1e5}, \"translation\": [0.5, 0.3, 0],\n"
    "   \"dirichlet\": [{\"min\": [0, 0.9, 0], \"max\": [1, 1, 1], \"velocity\": [0, 1, 0],\n"
    "                  \"angular_velocity\": [0, 3, 0], \"pivot\": [0.5, 0.4, 0],\n"
    "                  \"stop\": {\"axis\": \"y\", \"measure\": \"max\", \"vertices\": [27, 27], \"above\": "
    "0.55, \"then\": \"hold\"}}]}\n"
    " ],\n"
    " \"obstacles\": [{\"type\": \"half_space\", \"point\": [0, 0, 0], \"normal\": [0, 1, 0], \"friction\": "
    "0.5}]\n"
    "}\n";

static ipcc_world *world_from_text(const char *text) {
    return ipcc_test_world_from_json(text, IPCC_SOURCE_DIR);
}

static ipcc_world *world_from_file(const char *name) {
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/%s", IPCC_SOURCE_DIR, name);
    ipcc_scene *scene = NULL;
    assert_int_equal(ipcc_scene_load(path, &scene), IPCC_OK);
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_scene_create_world(scene, &w), IPCC_OK);
    ipcc_scene_destroy(scene);
    return w;
}

typedef ipcc_world *make_world_fn(const char *arg);

static void step_n(ipcc_world *w, int n) {
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    for (int s = 0; s < n; s++)
        assert_true(ipcc_world_step(w, NULL) >= 0);
}

static void assert_same_bits(const double *a, const double *b, int n, const char *what, int k) {
    for (int i = 0; i < n; i++)
        if (memcmp(&a[i], &b[i], sizeof(double)) != 0)
            fail_msg("%s[%d] differs after resuming from step %d: %.17g vs %.17g", what, i, k, a[i], b[i]);
}

// Reference N steps on 1 thread; for each k: k steps, checkpoint, a fresh
// world restored on 2 threads steps to N; everything must match bit for bit.
static void check_resume(make_world_fn *make, const char *arg, int steps, const int *ks, int nk) {
    omp_set_num_threads(1);
    ipcc_world *ref = make(arg);
    step_n(ref, steps);
    const int n = ipcc_world_num_vertices(ref);
    for (int j = 0; j < nk; j++) {
        int k = ks[j];
        omp_set_num_threads(1);
        ipcc_world *a = make(arg);
        assert_int_equal(ipcc_world_start(a), IPCC_OK);
        step_n(a, k);
        const char note[] = "run state";
        assert_int_equal(ipcc_checkpoint_write(CKPT_PATH, a, note, sizeof note), IPCC_OK);
        ipcc_world_destroy(a);

        omp_set_num_threads(2);
        ipcc_world *b = make(arg);
        void *user = NULL;
        size_t user_size = 0;
        assert_int_equal(ipcc_checkpoint_read(CKPT_PATH, b, &user, &user_size), IPCC_OK);
        assert_int_equal(user_size, sizeof note);
        assert_memory_equal(user, note, sizeof note);
        free(user);
        assert_int_equal(ipcc_world_step_count(b), k);
        step_n(b, steps - k);
        assert_int_equal(ipcc_world_step_count(b), steps);
        assert_true(memcmp(&(double){ipcc_world_time(b)}, &(double){ipcc_world_time(ref)}, sizeof(double)) ==
                    0);
        assert_true(ipcc_world_kappa(b) == ipcc_world_kappa(ref));
        assert_same_bits(ipcc_world_positions(b), ipcc_world_positions(ref), 3 * n, "x", k);
        assert_same_bits(ipcc_world_velocities(b), ipcc_world_velocities(ref), 3 * n, "v", k);
        assert_same_bits(ipcc_world_contact_forces(b), ipcc_world_contact_forces(ref), 3 * n, "contact force",
                         k);
        assert_same_bits(ipcc_world_friction_forces(b), ipcc_world_friction_forces(ref), 3 * n,
                         "friction force", k);
        ipcc_world_destroy(b);
    }
    ipcc_world_destroy(ref);
    remove(CKPT_PATH);
    omp_set_num_threads(1);
}

static void test_resume_stateful(void **state) {
    (void)state;
    const int ks[] = {0, 1, 4, 7, 13};
    check_resume(world_from_text, stateful_scene, 14, ks, 5);
}

static void test_resume_examples(void **state) {
    (void)state;
    // contact_cubes: contact and adaptive kappa; obstacle_push: a moving
    // mesh obstacle; twist: two rotating Dirichlet groups; incline: friction.
    const char *names[] = {"contact_cubes.json", "obstacle_push.json", "twist.json", "incline.json"};
    const int ks[] = {3, 9};
    for (int i = 0; i < 4; i++)
        check_resume(world_from_file, names[i], 12, ks, 2);
}

// The stop trigger must have fired before the checkpoint for this test to
// cover it: check that the lifted group is held by the end.
static void test_stateful_scene_fires_its_stop(void **state) {
    (void)state;
    ipcc_world *w = world_from_text(stateful_scene);
    step_n(w, 14);
    int first, count;
    ipcc_world_body_vertices(w, 1, &first, &count);
    double top = -1e30;
    for (int i = first; i < first + count; i++)
        if (ipcc_world_positions(w)[3 * i + 1] > top) top = ipcc_world_positions(w)[3 * i + 1];
    // The group starts with its top at 0.5 m; without the stop it would rise
    // 0.14 m to 0.64.
    assert_true(top > 0.55 && top < 0.6);
    ipcc_world_destroy(w);
}

static void write_bytes(const char *path, const void *data, size_t n) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    fclose(f);
}

static void test_bad_checkpoints(void **state) {
    (void)state;
    ipcc_world *a = world_from_text(stateful_scene);
    step_n(a, 2);
    assert_int_equal(ipcc_checkpoint_write(CKPT_PATH, a, NULL, 0), IPCC_OK);
    size_t size;
    char *good = ipcc_test_read_file(CKPT_PATH, &size);
    assert_non_null(good);

    ipcc_world *b = world_from_text(stateful_scene);
    const double *x = ipcc_world_positions(b);
    double x0 = x[0];
    // Missing file.
    assert_int_equal(ipcc_checkpoint_read("no_such_checkpoint.bin", b, NULL, NULL), IPCC_ERR_IO);
    assert_string_equal(ipcc_last_error(),
                        "checkpoint: no_such_checkpoint.bin: cannot open: No such file or directory");
    // A folder.
    mkdir("ckpt_folder", 0755);
    assert_int_equal(ipcc_checkpoint_read("ckpt_folder", b, NULL, NULL), IPCC_ERR_IO);
    assert_string_equal(ipcc_last_error(), "checkpoint: ckpt_folder: read error: Is a directory");
    rmdir("ckpt_folder");
    // Truncated at several points.
    size_t cuts[] = {0, 7, 40, size / 2, size - 1};
    for (int i = 0; i < 5; i++) {
        write_bytes("cut.bin", good, cuts[i]);
        assert_int_equal(ipcc_checkpoint_read("cut.bin", b, NULL, NULL), IPCC_ERR_PARSE);
        assert_non_null(strstr(ipcc_last_error(), "cut.bin"));
    }
    // A flipped byte in the state.
    good[size / 2] ^= 0x10;
    write_bytes("cut.bin", good, size);
    assert_int_equal(ipcc_checkpoint_read("cut.bin", b, NULL, NULL), IPCC_ERR_PARSE);
    assert_non_null(strstr(ipcc_last_error(), "checksum"));
    good[size / 2] ^= 0x10;
    // Another format version.
    good[8] = 9;
    write_bytes("cut.bin", good, size);
    assert_int_equal(ipcc_checkpoint_read("cut.bin", b, NULL, NULL), IPCC_ERR_PARSE);
    assert_non_null(strstr(ipcc_last_error(), "version"));
    // Garbage.
    write_bytes("cut.bin", "{\"time_step\": 1}\n", 18);
    assert_int_equal(ipcc_checkpoint_read("cut.bin", b, NULL, NULL), IPCC_ERR_PARSE);
    assert_non_null(strstr(ipcc_last_error(), "not an ipcc checkpoint"));
    // Nothing was changed by the failures.
    assert_true(ipcc_world_positions(b)[0] == x0 && ipcc_world_step_count(b) == 0);
    ipcc_world_destroy(b);

    // Another scene: different vertex count, then same size but other material.
    ipcc_world *c = world_from_file("contact_cubes.json");
    assert_int_equal(ipcc_checkpoint_read(CKPT_PATH, c, NULL, NULL), IPCC_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ipcc_last_error(), "another scene"));
    ipcc_world_destroy(c);
    char *other = malloc(strlen(stateful_scene) + 1);
    strcpy(other, stateful_scene);
    char *e = strstr(other, "1e5");
    e[2] = '6'; // youngs_modulus 1e6 for the first body
    ipcc_world *d = world_from_text(other);
    assert_int_equal(ipcc_checkpoint_read(CKPT_PATH, d, NULL, NULL), IPCC_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ipcc_last_error(), "another scene"));
    ipcc_world_destroy(d);
    free(other);
    // A stepped world cannot take a checkpoint.
    assert_int_equal(ipcc_checkpoint_read(CKPT_PATH, a, NULL, NULL), IPCC_ERR_INVALID_ARGUMENT);
    ipcc_world_destroy(a);
    free(good);
    remove("cut.bin");
    remove(CKPT_PATH);
}

// A failed write (the target is a folder) keeps the old file.
static void test_write_failure_keeps_previous(void **state) {
    (void)state;
    ipcc_world *a = world_from_text(stateful_scene);
    assert_int_equal(ipcc_world_start(a), IPCC_OK);
    assert_int_equal(ipcc_checkpoint_write(CKPT_PATH, a, NULL, 0), IPCC_OK);
    size_t before_size;
    char *before = ipcc_test_read_file(CKPT_PATH, &before_size);
    ipcc_test_remove_tree(CKPT_PATH ".tmp");
    assert_int_equal(mkdir(CKPT_PATH ".tmp", 0777), 0);
    step_n(a, 1);
    assert_int_equal(ipcc_checkpoint_write(CKPT_PATH, a, NULL, 0), IPCC_ERR_IO);
    assert_non_null(strstr(ipcc_last_error(), CKPT_PATH));
    size_t after_size;
    char *after = ipcc_test_read_file(CKPT_PATH, &after_size);
    assert_int_equal(before_size, after_size);
    assert_memory_equal(before, after, before_size);
    free(before);
    free(after);
    ipcc_test_remove_tree(CKPT_PATH ".tmp");
    remove(CKPT_PATH);
    ipcc_world_destroy(a);
}

int main(void) {
    ipcc_set_log(NULL, NULL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stateful_scene_fires_its_stop),
        cmocka_unit_test(test_resume_stateful),
        cmocka_unit_test(test_resume_examples),
        cmocka_unit_test(test_bad_checkpoints),
        cmocka_unit_test(test_write_failure_keeps_previous),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
