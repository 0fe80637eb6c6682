// Scene files (ipcc_scene_load(), ipcc_scene_load_with_options()): the
// format follows the extension. `.txt` and `.ipc` (any case) are the
// original IPC's scripts, loaded by scene_ipc.c; anything else is JSON,
// read whole and handed to the JSON parser (scene_parse.c) with the file's
// folder, against which its mesh paths resolve.
//
// Failure modes: `--set` overrides with an IPC script are
// IPCC_ERR_INVALID_ARGUMENT (they apply to JSON trees: convert the script
// first); a file that cannot be read is IPCC_ERR_IO, one holding a NUL byte
// IPCC_ERR_PARSE, both naming the file; IPCC_ERR_NO_MEMORY; otherwise the
// reader's status and message.
#include "ipcc/scene.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/core.h"
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
    FILE *f = fopen(path, "rb");
    if (!f) return ipcc_fail(IPCC_ERR_IO, "cannot read scene \"%s\": %s", path, strerror(errno));
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (cap - len < 4096) {
            size_t ncap = cap ? 2 * cap : 16384;
            char *t = realloc(text, ncap + 1);
            if (!t) {
                free(text);
                fclose(f);
                return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory", path);
            }
            text = t;
            cap = ncap;
        }
        size_t got = fread(text + len, 1, cap - len, f);
        len += got;
        if (got == 0) break;
    }
    int read_error = ferror(f), read_errno = errno; // EISDIR: the scene is a folder
    fclose(f);
    text[len] = '\0';
    if (read_error) {
        free(text);
        return ipcc_fail(IPCC_ERR_IO, "cannot read scene \"%s\": %s", path,
                         read_errno ? strerror(read_errno) : "read error");
    }
    if (strlen(text) != len) {
        size_t at = strlen(text);
        free(text);
        return ipcc_fail(IPCC_ERR_PARSE, "%s: NUL byte at offset %zu (not a text file?)", path, at);
    }

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
    ipcc_status st = ipcc_scene_parse_with_options(text, path, base[0] ? base : NULL, options, out);
    free(base);
    free(text);
    return st;
}
