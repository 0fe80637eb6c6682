// Tests for src/scene/scene_load.c: ipcc_scene_load() and
// ipcc_scene_load_with_options() pick the reader by the extension, read the
// file whole (messages naming the file when it cannot be read) and resolve
// mesh paths against its folder.
#define _XOPEN_SOURCE 700 // mkdtemp
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipcc/scene.h"

static void assert_contains(const char *haystack, const char *needle) {
    if (!strstr(haystack, needle)) fail_msg("message \"%s\" lacks \"%s\"", haystack, needle);
}

// The format follows the extension: .txt and .ipc (any case) go to the IPC
// script reader, everything else is JSON.
static void test_format_by_extension(void **state) {
    (void)state;
    char dir[64] = "scene_ext_XXXXXX";
    if (!mkdtemp(dir)) fail_msg("mkdtemp failed");
    const char *json = "{\"duration\": 1, \"bodies\": [{\"mesh\": {\"box\": {\"size\": [1, 1, 1]}}, "
                       "\"material\": {}}]}\n";
    const char *names[] = {"a.json", "a.scene", "a.txt", "a.TXT", "a.ipc", "a.Ipc"};
    const ipcc_scene_options strict = {.strict = true};
    for (int i = 0; i < 6; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs(json, f);
        fclose(f);
        ipcc_scene *s = NULL;
        ipcc_status st = ipcc_scene_load_with_options(path, &strict, &s);
        if (i < 2) {
            if (st != IPCC_OK) fail_msg("%s: %s", path, ipcc_last_error());
            assert_string_equal(s->format, "json");
            ipcc_scene_destroy(s);
            assert_int_equal(ipcc_scene_load(path, &s), IPCC_OK);
            ipcc_scene_destroy(s);
        } else {
            // JSON is not an IPC script: the IPC reader refuses it, naming the file.
            assert_true(st < 0);
            assert_null(s);
            assert_contains(ipcc_last_error(), names[i]);
        }
    }
    ipcc_test_remove_tree(dir);
}

// A file that cannot be read (missing, a folder) or not text (a NUL byte):
// the messages of base/read_file.c, the project's one file reader, naming the file.
static void test_unreadable(void **state) {
    (void)state;
    ipcc_scene *s = NULL;
    const char *missing = ipcc_test_data_path("scenes/no_such_scene.json");
    assert_int_equal(ipcc_scene_load(missing, &s), IPCC_ERR_IO);
    assert_null(s);
    char expect[4200];
    snprintf(expect, sizeof expect, "%s: cannot open: No such file or directory", missing);
    assert_string_equal(ipcc_last_error(), expect);

    char dir[64] = "scene_load_XXXXXX";
    if (!mkdtemp(dir)) fail_msg("mkdtemp failed");
    // A folder given as the scene: the reason, not just "read error".
    assert_int_equal(ipcc_scene_load(dir, &s), IPCC_ERR_IO);
    assert_null(s);
    assert_contains(ipcc_last_error(), "Is a directory");
    snprintf(expect, sizeof expect, "%s: read error: Is a directory", dir);
    assert_string_equal(ipcc_last_error(), expect);
    // A NUL byte: not a text file (IPCC_ERR_PARSE), at its offset.
    char nul[128];
    snprintf(nul, sizeof nul, "%s/nul.json", dir);
    ipcc_test_write_file(nul, "{\"duration\": 1,\0}", 17);
    assert_int_equal(ipcc_scene_load(nul, &s), IPCC_ERR_PARSE);
    assert_null(s);
    snprintf(expect, sizeof expect, "%s: NUL byte at offset 15 (not a text file?)", nul);
    assert_string_equal(ipcc_last_error(), expect);
    ipcc_test_remove_tree(dir);
}

// Mesh paths resolve against the scene file's folder, however it is reached.
static void test_relative_to_file(void **state) {
    (void)state;
    ipcc_scene *s = NULL;
    ipcc_status st = ipcc_scene_load(ipcc_test_data_path("scenes/../scenes/full.json"), &s);
    if (st != IPCC_OK) fail_msg("%s", ipcc_last_error());
    assert_int_equal(s->bodies[0].mesh->num_tets, 5);
    ipcc_scene_destroy(s);
}

// --set applies to JSON trees: with an IPC script it is refused before the file is read.
static void test_overrides_need_json(void **state) {
    (void)state;
    const char *set = "contact.dhat=1";
    const ipcc_scene_options opt = {.num_overrides = 1, .overrides = &set};
    ipcc_scene *s = (ipcc_scene *)&opt;
    assert_int_equal(ipcc_scene_load_with_options("no_such_script.txt", &opt, &s), IPCC_ERR_INVALID_ARGUMENT);
    assert_null(s);
    assert_string_equal(
        ipcc_last_error(),
        "no_such_script.txt: --set applies to JSON scenes; convert the script first (ipcc convert)");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_by_extension),
        cmocka_unit_test(test_unreadable),
        cmocka_unit_test(test_relative_to_file),
        cmocka_unit_test(test_overrides_need_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
