// Tet mesh reading: the dispatcher. ipcc_mesh_read() picks the reader by
// the file's extension (case-insensitive): Gmsh .msh 2.2 and 4.1
// (mesh_gmsh.c), TetGen .node/.ele (mesh_tetgen.c). Both readers stand on
// the toolkit in mesh_reader.c (file buffer, tokenizer, binary reads, raw
// tags to an ipcc_mesh); the format documentation is docs/mesh-formats.md.
#include "ipcc/mesh.h"

#include <ctype.h>
#include <string.h>

#include "base/core.h"
#include "mesh/mesh_gmsh.h"
#include "mesh/mesh_tetgen.h"

static int ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), k = strlen(suffix);
    if (n < k) return 0;
    for (size_t i = 0; i < k; i++)
        if (tolower((unsigned char)s[n - k + i]) != suffix[i]) return 0;
    return 1;
}

ipcc_status ipcc_mesh_read(const char *path, ipcc_mesh **out) {
    IPCC_ASSERT(out != NULL);
    *out = NULL;
    if (!path) return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "mesh path is NULL");
    if (ends_with(path, ".node")) return ipcc_tetgen_read(path, 5, 1, out);
    if (ends_with(path, ".ele")) return ipcc_tetgen_read(path, 4, 0, out);
    if (!ends_with(path, ".msh"))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s: unknown mesh format (expected .msh, .node or .ele)",
                         path);
    return ipcc_gmsh_read(path, out);
}
