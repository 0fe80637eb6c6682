// libFuzzer harness for the JSON scene parser (src/scene/scene_parse.c and the
// files below it): ipcc_scene_parse() on the input (a NUL-terminated
// copy; an embedded NUL ends the text), then, when the scene parses,
// ipcc_scene_create_world(), so the world's own validation of the defs is
// fuzzed too. Seeds: tests/fuzz/corpus/json.
//
// Mesh paths resolve in a scratch folder that holds one tiny file of each
// kind the scene format reads (MESH_FILES below; the seeds name them), and
// box meshes are generated. Two kinds of input are skipped, not failures, to
// keep every run fast and inside the scratch folder: a path value that is
// absolute or climbs out with "..", which could name a device or a huge file
// (/dev/zero), and box meshes with more than MAX_CELLS cells in all (the
// parser allows 10^7 per box). The harness finds them with its own cJSON
// parse of the text after blanking comments with the parser's own
// ipcc_scene_blank_comments(); text
// that this parse rejects is rejected by the parser before it opens a file.
//
// A scene that parses is also written back with ipcc_scene_write_json() and
// loaded again, which must succeed and give the same scene, numbers bit for
// bit (scene_write.c's contract: "loading the written file gives the same
// world"; fuzz_scene.h).
#include <cjson/cJSON.h>

#include "fuzz_common.h"
#include "fuzz_scene.h"
#include "scene/scene_parse.h"
#include "ipcc/scene.h"
#include "ipcc/world.h"

enum { MAX_CELLS = 2000 };

static const struct {
    const char *name, *text;
} MESH_FILES[] = {
    {"tet.msh", "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n"
                "$EndNodes\n$Elements\n1\n1 4 0 1 2 3 4\n$EndElements\n"},
    {"tet.node", "4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n"},
    {"tet.ele", "1 4 0\n1 1 2 3 4\n"},
    {"tri.obj", "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 2 3 4\n"},
    {"seg.seg", "v 0 0 0\nv 1 0 0\nv 1 1 0\ns 1 2\ns 2 3\n"},
    {"pts.pt", "v 0 0 0\nv 1 0 0\nv 0 1 0\n"},
};

// False if some string value could leave the scratch folder; adds every
// "cells" array's product to *cells.
static int walk(const cJSON *item, double *cells) {
    for (; item; item = item->next) {
        if (cJSON_IsString(item) && (item->valuestring[0] == '/' || strstr(item->valuestring, "..")))
            return 0;
        if (cJSON_IsArray(item) && item->string && strcmp(item->string, "cells") == 0) {
            double product = 1;
            for (const cJSON *c = item->child; c; c = c->next)
                if (cJSON_IsNumber(c) && c->valuedouble > 1) product *= c->valuedouble;
            *cells += product;
        }
        if (item->child && !walk(item->child, cells)) return 0;
    }
    return 1;
}

// True if the text is safe and cheap to load (see the preamble).
static int acceptable(const char *text) {
    if ((unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB && (unsigned char)text[2] == 0xBF)
        text += 3;
    char *copy = strdup(text);
    if (!copy) fuzz_fail("out of memory", "copying the input");
    size_t unterminated;
    (void)ipcc_scene_blank_comments(copy, &unterminated); // an open /* is left to the parser
    cJSON *root = cJSON_ParseWithOpts(copy, NULL, 1);
    double cells = 0;
    int ok = !root || (walk(root, &cells) && cells <= MAX_CELLS);
    cJSON_Delete(root);
    free(copy);
    return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const char *dir;
    static char written[FUZZ_PATH_LEN];
    fuzz_init();
    if (!dir) {
        dir = fuzz_scratch_dir("json");
        for (size_t i = 0; i < sizeof MESH_FILES / sizeof *MESH_FILES; i++)
            fuzz_scratch_in(MESH_FILES[i].name, MESH_FILES[i].text);
        snprintf(written, sizeof written, "%s", fuzz_scratch_in("written.json", NULL));
        fuzz_scratch_in("written.json.tmp", NULL);
    }
    char *text = malloc(size + 1);
    if (!text) fuzz_fail("out of memory", "copying the input");
    if (size) memcpy(text, data, size);
    text[size] = '\0';
    if (!acceptable(text)) {
        free(text);
        return 0;
    }
    ipcc_scene *scene = NULL;
    ipcc_clear_error();
    ipcc_status s = ipcc_scene_parse(text, "fuzz.json", dir, &scene);
    free(text);
    if (s != IPCC_OK) {
        fuzz_check_failure(s, scene, "fuzz.json");
        return 0;
    }
    if (scene->num_bodies < 1 || !(scene->duration > 0)) fuzz_fail("scene", "no bodies or no duration");
    for (int i = 0; i < scene->num_bodies; i++)
        fuzz_check_mesh(scene->bodies[i].mesh);
    for (int i = 0; i < scene->num_obstacles; i++)
        fuzz_check_trimesh(scene->obstacles[i].mesh);
    fuzz_round_trip(scene, written);
    ipcc_world *world = NULL;
    ipcc_clear_error();
    s = ipcc_scene_create_world(scene, &world);
    if (s < 0)
        fuzz_check_failure(s, world, "fuzz.json");
    else
        ipcc_world_destroy(world);
    ipcc_scene_destroy(scene);
    return 0;
}
