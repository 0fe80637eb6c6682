// ipcc convert SCENE -o OUT.json [--set K=V]... [--strict]: write a scene
// (native JSON, or an original IPC script) as native JSON, overrides
// applied (docs/cli.md). The scene must also make a valid world (materials,
// selections, transforms) before anything is written; the JSON is written
// by ipcc_scene_write_json, atomically.
#include "cli/convert.h"

#include <stdio.h>
#include <string.h>

#include "ipcc/ipcc.h"

#include "cli/common.h"

int ipcc_cli_convert(int argc, char **argv) {
    const char *scene_path = NULL, *out_path = NULL;
    ipcc_scene_options opt = {.strict = false};
    for (int i = 0; i < argc; ++i) {
        const char *a = argv[i];
        if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
            if (++i >= argc)
                return fprintf(stderr, "ipcc: error: %s needs a file name\n", a), IPCC_EXIT_USAGE;
            out_path = argv[i];
        } else if (ipcc_cli_take_common(argc, argv, &i, &opt, &scene_path) < 0) {
            return IPCC_EXIT_USAGE;
        }
    }
    if (!scene_path || !out_path) {
        fprintf(stderr, "ipcc: error: convert needs a scene and -o OUT.json\n");
        return IPCC_EXIT_USAGE;
    }
    // The scene must also make a valid world (materials, selections, transforms).
    ipcc_scene *scene;
    ipcc_world *world;
    if (ipcc_cli_load_world(scene_path, &opt, false, &scene, &world) != 0) return IPCC_EXIT_USAGE;
    ipcc_world_destroy(world);
    int code = 0;
    if (ipcc_scene_write_json(scene, out_path) != IPCC_OK)
        code = ipcc_cli_fail(IPCC_EXIT_USAGE, "cannot write the JSON scene");
    else if (ipcc_cli_verbosity >= 1)
        printf("ipcc: wrote %s (%d bodies, %d mesh obstacles, %d half-spaces, %d shapes)\n", out_path,
               scene->num_bodies, scene->num_obstacles, scene->num_half_spaces, scene->num_shapes);
    ipcc_scene_destroy(scene);
    return code;
}
