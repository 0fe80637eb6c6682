// The original IPC simulator's scene scripts (`.txt`) read into an
// ipcc_ipc_script record: the entry points that tie the lexer
// (ipc_script_lexer.c) to the keyword reader (ipc_script_keywords.c), the
// file reader in front of them, and the record's release. The record is
// filled exactly as IPC reads the text (docs/ipc-script-format.md §2, §3);
// scene_ipc.c turns it into a scene.
//
// ipcc_ipc_script_parse() makes a record holding IPC's defaults, runs the
// keyword reader over the text and logs a one-line summary at debug level.
// ipcc_ipc_script_read() reads the whole file first, with the project's one
// file reader (base/read_file.h): one that cannot be opened or read (a
// folder: "read error: Is a directory") is IPCC_ERR_IO, one that holds a NUL
// byte (not a text file) IPCC_ERR_PARSE, each with the reader's message
// naming the file; the text is then parsed under the file's path. Every allocation of a partial record hangs
// off it, so ipcc_ipc_script_destroy() releases it on every error path.
#include "scene/ipc/ipc_script.h"

#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "base/read_file.h"
#include "scene/ipc/ipc_script_keywords.h"
#include "scene/ipc/ipc_script_lexer.h"

ipcc_status ipcc_ipc_script_parse(const char *text, const char *name, bool strict, ipcc_ipc_script **out) {
    IPCC_ASSERT(out != NULL);
    IPCC_ASSERT(text != NULL);
    *out = NULL;
    if (!name) name = "(IPC script)";
    ipcc_ipc_script *s = calloc(1, sizeof *s);
    if (!s) return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory", name);
    ipcc_ipc_script_set_defaults(s);
    s->path = strdup(name);
    if (!s->path) {
        free(s);
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory", name);
    }
    ipcc_ipc_lexer lx = {.text = text, .pos_line = 1, .name = s->path, .kw = ""};
    ipcc_status st = ipcc_ipc_script_read_keywords(&lx, strict, s);
    ipcc_ipc_lexer_free(&lx);
    if (st != IPCC_OK) {
        ipcc_ipc_script_destroy(s);
        return st;
    }
    ipcc_log(IPCC_LOG_DEBUG,
             "%s: %d shapes, %d half-spaces, %d meshCOs, script %s, %d ignored and %d unknown", s->path,
             s->num_shapes, s->num_half_spaces, s->num_mesh_cos, s->script, s->num_notes, s->num_unknown);
    *out = s;
    return IPCC_OK;
}

ipcc_status ipcc_ipc_script_read(const char *path, bool strict, ipcc_ipc_script **out) {
    IPCC_ASSERT(path != NULL && out != NULL);
    *out = NULL;
    char *text = NULL;
    ipcc_status st = ipcc_read_file(path, true, &text, NULL);
    if (st != IPCC_OK) return st;
    st = ipcc_ipc_script_parse(text, path, strict, out);
    free(text);
    return st;
}

void ipcc_ipc_script_destroy(ipcc_ipc_script *s) {
    if (!s) return;
    for (int i = 0; i < s->num_shapes; i++) {
        ipcc_ipc_script_shape *sh = &s->shapes[i];
        IPCC_FREE(sh->path);
        IPCC_FREE(sh->dbc);
        IPCC_FREE(sh->nbc);
        IPCC_FREE(sh->mesh_seq);
    }
    IPCC_FREE(s->shapes);
    IPCC_FREE(s->half_spaces);
    for (int i = 0; i < s->num_mesh_cos; i++)
        IPCC_FREE(s->mesh_cos[i].path);
    IPCC_FREE(s->mesh_cos);
    IPCC_FREE(s->tol);
    IPCC_FREE(s->script_folder);
    IPCC_FREE(s->restart);
    IPCC_FREE(s->notes);
    IPCC_FREE(s->unknown);
    IPCC_FREE(s->path);
    free(s);
}
