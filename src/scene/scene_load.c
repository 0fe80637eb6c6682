// Scene files (ipcc_scene_load(), ipcc_scene_load_with_options()): the
// format follows the extension. `.txt` and `.ipc` (any case) are the
// original IPC's scripts, loaded by scene_ipc.c; anything else is JSON,
// read whole by the project's one file reader (base/read_file.h) and handed
// to the JSON parser (scene_parse.c) with the file's folder, against which
// its mesh paths resolve.
//
// Failure modes: `--set` overrides with an IPC script are
// IPCC_ERR_INVALID_ARGUMENT (they apply to JSON trees: convert the script
// first); the reader's messages for a file that cannot be read
// (IPCC_ERR_IO "PATH: cannot open: REASON", "PATH: read error: Is a
// directory") or holds a NUL byte (IPCC_ERR_PARSE); IPCC_ERR_NO_MEMORY;
// otherwise the parser's status and message.
#include "ipcc/scene.h"

#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "base/read_file.h"
#include "scene/ipc/scene_ipc.h"
#include "scene/scene_json.h"
#include "scene/scene_parse.h"

ipcc_status ipcc_scene_load(const char *path, ipcc_scene **out) {
    return ipcc_scene_load_with_options(path, NULL, out);
}

ipcc_status ipcc_scene_load_with_options(const char *path, const ipcc_scene_options *options,
                                         ipcc_scene **out) {
    IPCC_ASSERT(path && out);
    *out = NULL;
    if (ipcc_scene_has_extension(path, "txt") || ipcc_scene_has_extension(path, "ipc")) {
        if (options && options->num_overrides > 0)
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                             "%s: --set applies to JSON scenes; convert the script first (ipcc convert)",
                             path);
        return ipcc_scene_load_ipc(path, options && options->strict, out);
    }
    char *text = NULL;
    ipcc_status st = ipcc_read_file(path, true, &text, NULL);
    if (st != IPCC_OK) return st;

    // Mesh paths are relative to the scene's folder.
    char *base = ipcc_scene_copy_string(path);
    if (!base) {
        free(text);
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory", path);
    }
    char *slash = strrchr(base, '/');
    if (!slash)
        base[0] = '\0';
    else if (slash == base)
        base[1] = '\0';
    else
        *slash = '\0';
    st = ipcc_scene_parse_with_options(text, path, base[0] ? base : NULL, options, out);
    free(base);
    free(text);
    return st;
}
