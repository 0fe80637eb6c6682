// Tests for src/scene/scene_override.c: `--set key.path=value` overrides of
// JSON scene keys (ipcc_scene_load_with_options()), applied to the tree
// before validation.
#define _XOPEN_SOURCE 700 // mkdtemp
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipcc/scene.h"

static void assert_contains(const char *haystack, const char *needle) {
    if (!strstr(haystack, needle)) fail_msg("message \"%s\" lacks \"%s\"", haystack, needle);
}

// --set overrides: applied before validation, so a bad key or value gets the
// usual key-path message; a malformed path names the override.
static void test_overrides(void **state) {
    (void)state;
    char dir[64] = "scene_set_XXXXXX";
    if (!mkdtemp(dir)) fail_msg("mkdtemp failed");
    char path[256];
    snprintf(path, sizeof path, "%s/a.json", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\"duration\": 1, \"bodies\": [{\"mesh\": {\"box\": {\"size\": [1, 1, 1]}}, \"material\": {}}]}\n",
          f);
    fclose(f);
    const char *good[] = {"contact.friction=0.25", "bodies[0].friction=0.5"};
    ipcc_scene_options opt = {.num_overrides = 2, .overrides = good};
    ipcc_scene *s = NULL;
    if (ipcc_scene_load_with_options(path, &opt, &s) != IPCC_OK) fail_msg("%s", ipcc_last_error());
    assert_near(s->world.contact.friction, 0.25, 0, 0);
    assert_near(s->bodies[0].friction, 0.5, 0, 0);
    ipcc_scene_destroy(s);
    const struct {
        const char *set, *needle;
    } bad[] = {
        {"contact..friction=1", "--set contact..friction=1: empty key in the path"},
        {".contact.friction=1", "--set .contact.friction=1: empty key in the path"},
        {"contact.friction.=1", "--set contact.friction.=1: empty key in the path"},
        {"=1", "--set =1: expected key.path=value"},
        {"bodies[3].friction=1", "index out of range"},
        {"bodies[x].friction=1", "expected [index] with a non-negative integer"},
        {"duration.x=1", "the path goes through a value that is not an object"},
        {"contact.dhatt=1", "contact.dhatt: unknown key; did you mean \"dhat\"?"},
        {"time_step=fast", "time_step: expected a number (got a string)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        opt = (ipcc_scene_options){.num_overrides = 1, .overrides = &bad[i].set};
        s = NULL;
        assert_true(ipcc_scene_load_with_options(path, &opt, &s) < 0);
        assert_null(s);
        assert_contains(ipcc_last_error(), path);
        assert_contains(ipcc_last_error(), bad[i].needle);
    }
    ipcc_test_remove_tree(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_overrides),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
