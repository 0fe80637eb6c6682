/// Tetrahedral meshes: reading, validation, orientation and boundary surface.
#ifndef IPCC_MESH_H
#define IPCC_MESH_H

#include "ipcc/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A validated tetrahedral mesh. All arrays are owned by the mesh and freed by
/// ipcc_mesh_destroy(). Indices are 0-based. Every tet is positively oriented:
/// det[x1-x0, x2-x0, x3-x0] > 0.
typedef struct ipcc_mesh {
    int num_vertices;         ///< vertices referenced by at least one tet
    double *vertices;         ///< 3*num_vertices coordinates (metres), xyz interleaved
    int num_tets;             ///< number of tetrahedra
    int *tets;                ///< 4*num_tets vertex indices, positively oriented
    int num_faces;            ///< boundary triangles
    int *faces;               ///< 3*num_faces indices, counter-clockwise seen from outside
    int num_edges;            ///< boundary edges
    int *edges;               ///< 2*num_edges indices, each edge once, edges[2i] < edges[2i+1]
    int num_surface_vertices; ///< vertices on the boundary
    int *surface_vertices;    ///< ascending vertex indices
    int num_reoriented;       ///< tets whose orientation was flipped at creation
    int num_unreferenced;     ///< input vertices dropped because no tet used them
} ipcc_mesh;

/// Read a tet mesh, choosing the reader from the extension:
/// `.msh` (Gmsh 2.2 or 4.1, ASCII or binary; tets = element type 4, other
/// element types and a `$Surface` block are skipped) or `.node`/`.ele`
/// (TetGen; either file may be named, the other is found beside it).
/// Validates and orients as ipcc_mesh_create(). On failure *out is NULL and
/// ipcc_last_error() names the file, line or element.
IPCC_API ipcc_status ipcc_mesh_read(const char *path, ipcc_mesh **out);

/// Build a mesh from arrays (copied). `source` names the data in messages
/// (e.g. the file path; may be NULL). `tet_ids` (may be NULL) gives the id of
/// each tet as the file numbers it, for messages; NULL means 0-based index.
/// Errors: index out of range, repeated vertex in a tet, non-finite
/// coordinate, zero-volume tet (|6V| <= 1e-14 * (longest edge)^3).
/// Negatively oriented tets are flipped (logged, counted in num_reoriented).
/// Vertices no tet references are dropped (logged, num_unreferenced).
IPCC_API ipcc_status ipcc_mesh_create(const double *vertices, int num_vertices, const int *tets, int num_tets,
                                      const char *source, const long *tet_ids, ipcc_mesh **out);

/// Structured box mesh: nx*ny*nz cubes split into 6 tets each (conforming),
/// spanning [0,size[0]] x [0,size[1]] x [0,size[2]].
IPCC_API ipcc_status ipcc_mesh_create_box(int nx, int ny, int nz, const double size[3], ipcc_mesh **out);

/// Free a mesh. NULL is fine.
IPCC_API void ipcc_mesh_destroy(ipcc_mesh *mesh);

#ifdef __cplusplus
}
#endif
#endif
