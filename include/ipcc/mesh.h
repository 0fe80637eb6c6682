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
    int *tet_regions;         ///< num_tets region numbers (Gmsh physical group, TetGen region attribute),
                              ///< 0 = none; NULL when the mesh has no regions (docs/mesh-formats.md)
    int num_regions;          ///< distinct non-zero region numbers: the tets' and the named ones
    int *region_numbers;      ///< num_regions numbers, ascending
    char **region_names;      ///< num_regions names (Gmsh $PhysicalNames of dimension 3), NULL where unnamed
} ipcc_mesh;

/// Read a tet mesh, choosing the reader from the extension:
/// `.msh` (Gmsh 2.2 or 4.1, ASCII or binary; tets = element type 4, other
/// element types and a `$Surface` block are skipped) or `.node`/`.ele`
/// (TetGen; either file may be named, the other is found beside it).
/// Regions: a tet's Gmsh physical group (2.2: its first element tag; 4.1:
/// the physical tag of its volume entity in `$Entities`), named by the
/// dimension-3 `$PhysicalNames`, or its TetGen region attribute (the first
/// attribute column of the .ele); see ipcc_mesh.tet_regions.
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

/// Give a mesh regions (copied): `tet_regions` has num_tets numbers (0 =
/// none; NULL = all 0), and `names[i]` names region `name_numbers[i]`
/// (num_names entries; a name may be named without tets). Replaces any
/// regions the mesh had. Errors (IPCC_ERR_INVALID_ARGUMENT): a name of
/// region 0, an empty or NULL name, two names for one number, one name for
/// two numbers; the mesh is then unchanged.
IPCC_API ipcc_status ipcc_mesh_set_regions(ipcc_mesh *mesh, const int *tet_regions, int num_names,
                                           const int *name_numbers, const char *const *names);

/// The index (into region_numbers) of the region a key names: a region name,
/// else a decimal region number ("2"). -1 if the mesh has no such region.
IPCC_API int ipcc_mesh_find_region(const ipcc_mesh *mesh, const char *key);

/// The index (into region_numbers) of region `number`; -1 for 0 or a number
/// the mesh does not have.
IPCC_API int ipcc_mesh_region_index(const ipcc_mesh *mesh, int number);

/// Structured box mesh: nx*ny*nz cubes split into 6 tets each (conforming),
/// spanning [0,size[0]] x [0,size[1]] x [0,size[2]].
IPCC_API ipcc_status ipcc_mesh_create_box(int nx, int ny, int nz, const double size[3], ipcc_mesh **out);

/// Free a mesh. NULL is fine.
IPCC_API void ipcc_mesh_destroy(ipcc_mesh *mesh);

/// Quality of a tet mesh (ipcc_mesh_compute_quality()).
typedef struct ipcc_mesh_quality {
    double volume;             ///< total volume, m^3
    double min_volume;         ///< smallest tet volume, m^3
    double min_edge, max_edge; ///< shortest and longest edge, m
    double min_dihedral;       ///< smallest dihedral angle over all tets, degrees (regular tet: 70.53)
    double max_dihedral;       ///< largest, degrees
    double max_aspect;         ///< largest aspect ratio (1 = regular; see below)
    double mean_aspect;        ///< mean aspect ratio
    int worst_tet;             ///< index of the tet with the largest aspect ratio
    int num_bad;               ///< tets with a dihedral angle < 5 or > 170 degrees, or aspect > 10
    double bbox_min[3], bbox_max[3];
} ipcc_mesh_quality;

/// Quality of tet t: its smallest and largest dihedral angle (degrees) and
/// its aspect ratio, longest edge / (2 sqrt(6) inradius), which is 1 for the
/// regular tet and grows without bound as the tet flattens (inradius =
/// 3 V / total face area).
IPCC_API void ipcc_tet_quality(const double x[12], double *min_dihedral, double *max_dihedral,
                               double *aspect);

/// Quality over every tet of a mesh. `bad` (may be NULL) receives up to
/// `max_bad` indices of bad tets, worst aspect first.
IPCC_API void ipcc_mesh_compute_quality(const ipcc_mesh *mesh, ipcc_mesh_quality *q, int max_bad, int *bad);

/// A triangle surface mesh (kinematic obstacles), or a codimensional one: a
/// segment set (no faces, num_edges >= 1) or a point set (no faces, no
/// edges). All arrays are owned by the mesh and freed by
/// ipcc_trimesh_destroy(). Indices are 0-based. Vertices no face references
/// are kept (and logged), so indices match the source.
typedef struct ipcc_trimesh {
    int num_vertices; ///< number of vertices
    double *vertices; ///< 3 * num_vertices coordinates (metres), xyz interleaved
    int num_faces;    ///< number of triangles (0 for segment and point sets)
    int *faces;       ///< 3 * num_faces vertex indices, three distinct per face, orientation as given
    int num_edges;    ///< number of unique undirected edges of the faces
    int *edges;       ///< 2 * num_edges indices, edges[2i] < edges[2i+1], sorted by (edges[2i], edges[2i+1])
} ipcc_trimesh;

/// Read a Wavefront .obj triangle mesh. Reads `v x y z [w]` (trailing vertex
/// colours allowed) and `f` with `i`, `i/t`, `i//n` or `i/t/n` vertices,
/// 1-based or negative (relative: -1 is the last vertex so far); polygons are
/// fan-triangulated from their first vertex ((v0,v1,v2), (v0,v2,v3), ...).
/// `#` comments, blank lines, CRLF, and `vt`, `vn`, `vp`, `l`, `p`, `o`, `g`,
/// `s`, `usemtl`, `mtllib` are skipped; other statements are skipped with a
/// warning. Errors, named "file:line": IPCC_ERR_IO (cannot open or read),
/// IPCC_ERR_PARSE (bad number, NaN or inf, vertex index 0 or out of range, a
/// face with fewer than 3 vertices), IPCC_ERR_MESH (a face repeating a vertex,
/// no faces). Zero-area faces are accepted with a warning. On failure *out is
/// NULL and ipcc_last_error() has the message.
IPCC_API ipcc_status ipcc_trimesh_read_obj(const char *path, ipcc_trimesh **out);

/// Build a triangle mesh from arrays (copied) and compute its edges. `source`
/// names the data in messages (e.g. the file path; may be NULL). Errors
/// (IPCC_ERR_MESH, "<source>: face <f>: ..."): no faces, index out of range,
/// a repeated vertex in a face, non-finite coordinate; negative or too large
/// counts are IPCC_ERR_INVALID_ARGUMENT. Zero-area faces (twice the area
/// <= 1e-14 * (longest edge)^2) are logged as warnings, not errors.
IPCC_API ipcc_status ipcc_trimesh_create(int num_vertices, const double *vertices, int num_faces,
                                         const int *faces, const char *source, ipcc_trimesh **out);

/// Read an IPC `.seg` segment set: `v x y z` lines and `s i j` lines
/// (1-based vertex indices); `#` comments and blank lines are skipped.
/// Errors name "file:line" as ipcc_trimesh_read_obj(); no segment is an error.
IPCC_API ipcc_status ipcc_trimesh_read_seg(const char *path, ipcc_trimesh **out);

/// Read only the vertices of an OBJ file as a point set (IPC `.pt`): faces,
/// if any, are dropped. No vertex is an error.
IPCC_API ipcc_status ipcc_trimesh_read_points(const char *path, ipcc_trimesh **out);

/// Build a codimensional mesh from arrays (copied): segments (num_edges >= 1;
/// duplicates and reversed duplicates are merged, a repeated vertex is an
/// error) or points (num_edges = 0, edges may be NULL). Same errors as
/// ipcc_trimesh_create().
IPCC_API ipcc_status ipcc_trimesh_create_segments(int num_vertices, const double *vertices, int num_edges,
                                                  const int *edges, const char *source, ipcc_trimesh **out);

/// Free a triangle mesh. NULL is fine.
IPCC_API void ipcc_trimesh_destroy(ipcc_trimesh *m);

#ifdef __cplusplus
}
#endif
#endif
