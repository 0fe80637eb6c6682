/// The TetGen .node/.ele reader (mesh_tetgen.c): either file names the pair,
/// the first .ele attribute is the region. Called by the dispatcher
/// ipcc_mesh_read() (mesh_io.c). Private to the library.
#ifndef IPCC_MESH_TETGEN_H
#define IPCC_MESH_TETGEN_H

#include <stddef.h>

#include "ipcc/mesh.h"

/// Reads a TetGen mesh into a new mesh (*out, the caller destroys it).
/// `path` ends in the extension of `ext_len` bytes (".node" when
/// given_is_node, else ".ele"); the sibling with the other extension is read
/// too. On failure *out is NULL and the message names the file and line.
ipcc_status ipcc_tetgen_read(const char *path, size_t ext_len, int given_is_node, ipcc_mesh **out);

#endif
