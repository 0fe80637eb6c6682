// The helpers every subcommand of the ipcc command shares (common.h): the
// error line ("ipcc: error: WHAT: <the library's message>"), whole-integer
// parsing, path joining, the options of the scene commands (run, convert,
// check) and loading a scene's world. They print their own errors to
// stderr and return an exit code or -1; the library's messages come from
// ipcc_last_error(). --set values are kept as pointers into argv (at most
// MAX_OVERRIDES), so they live as long as the process.
#include "cli/common.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ipcc_cli_verbosity = 1;

const char *ipcc_cli_command = "";

int ipcc_cli_fail(int code, const char *what) {
    fprintf(stderr, "ipcc: error: %s%s%s\n", what, *ipcc_last_error() ? ": " : "", ipcc_last_error());
    return code;
}

int ipcc_cli_parse_int(const char *s, long *out) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end) return -1;
    *out = v;
    return 0;
}

char *ipcc_cli_path_join(const char *dir, const char *name) {
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/%s", dir, name);
    return p;
}

enum { MAX_OVERRIDES = 256 };
static const char *overrides[MAX_OVERRIDES];

int ipcc_cli_take_common(int argc, char **argv, int *i, ipcc_scene_options *opt, const char **scene_path) {
    const char *a = argv[*i];
    if (!strcmp(a, "--set")) {
        if (++*i >= argc || !strchr(argv[*i], '='))
            return fprintf(stderr, "ipcc: error: --set needs key.path=value\n"), -1;
        if (opt->num_overrides >= MAX_OVERRIDES)
            return fprintf(stderr, "ipcc: error: too many --set (at most %d)\n", MAX_OVERRIDES), -1;
        overrides[opt->num_overrides++] = argv[*i];
        opt->overrides = overrides;
    } else if (!strcmp(a, "--strict")) {
        opt->strict = true;
    } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
        ipcc_cli_verbosity = 0;
    } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
        ipcc_cli_verbosity = 2;
    } else if (a[0] == '-' && a[1]) {
        return fprintf(stderr, "ipcc: error: unknown option '%s' (see ipcc %s --help)\n", a,
                       ipcc_cli_command),
               -1;
    } else if (!*scene_path) {
        *scene_path = a;
    } else {
        return fprintf(stderr, "ipcc: error: unexpected argument '%s'\n", a), -1;
    }
    return 1;
}

int ipcc_cli_load_world(const char *path, const ipcc_scene_options *opt, bool start, ipcc_scene **scene,
                        ipcc_world **world) {
    *scene = NULL;
    *world = NULL;
    if (ipcc_scene_load_with_options(path, opt, scene) != IPCC_OK)
        return ipcc_cli_fail(IPCC_EXIT_USAGE, "cannot load scene");
    if (ipcc_scene_create_world(*scene, world) != IPCC_OK) {
        ipcc_scene_destroy(*scene);
        *scene = NULL;
        return ipcc_cli_fail(IPCC_EXIT_USAGE, "invalid scene");
    }
    if (start && ipcc_world_start(*world) != IPCC_OK) {
        ipcc_world_destroy(*world);
        ipcc_scene_destroy(*scene);
        *world = NULL;
        *scene = NULL;
        return ipcc_cli_fail(IPCC_EXIT_USAGE, path);
    }
    return 0;
}
