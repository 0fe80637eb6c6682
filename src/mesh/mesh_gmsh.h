/// The Gmsh .msh reader (mesh_gmsh.c): versions 2.2 and 4.1, ASCII and
/// binary, 4-node tetrahedra and their physical groups as regions. Called by
/// the dispatcher ipcc_mesh_read() (mesh_io.c). Private to the library.
#ifndef IPCC_MESH_GMSH_H
#define IPCC_MESH_GMSH_H

#include "ipcc/mesh.h"

/// Reads the Gmsh file at `path` into a new mesh (*out, the caller destroys
/// it). On failure *out is NULL and the message names the file and the line
/// (or the section and byte of binary data); IPCC_ERR_IO for a file that can
/// not be read, IPCC_ERR_PARSE for bad syntax, IPCC_ERR_MESH for what
/// ipcc_mesh_create() refuses.
ipcc_status ipcc_gmsh_read(const char *path, ipcc_mesh **out);

#endif
