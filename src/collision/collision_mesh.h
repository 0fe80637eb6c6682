/// The collision mesh: every body's boundary triangles, edges and vertices
/// in the contact layer's own numbering, with their adjacency and the flat
/// features of obstacles (collision_mesh.c). Private to the library.
#ifndef IPCC_COLLISION_MESH_H
#define IPCC_COLLISION_MESH_H

#include <stdbool.h>

#include "broad_phase/broad_phase.h"
#include "ipcc/base.h"

/// One body as the contact layer sees it.
typedef struct ipcc_collision_body {
    const char *name;               ///< for messages (borrowed for the create call)
    int first_vertex, num_vertices; ///< its range of world vertices
    int first_tet;                  ///< its first tet in the world's list (messages number tets per body)
    int num_faces;                  ///< its boundary triangles (0: a segment set or a point set)
    bool kinematic;                 ///< an obstacle: prescribed motion, no mass
} ipcc_collision_body;

/// What the collision mesh is built from (borrowed for the build call).
typedef struct ipcc_collision_mesh_def {
    int num_vertices;             ///< n, world vertices
    const double *rest_positions; ///< 3n, at t = 0
    int num_bodies;               ///< bodies and obstacles; group = body
    const ipcc_collision_body *bodies;
    int num_faces;       ///< boundary triangles of every body, body by body
    const int *faces;    ///< 3 per face, world vertex indices
    int num_edges;       ///< boundary edges (and segments) of every body
    const int *edges;    ///< 2 per edge, world vertex indices
    bool self_collision; ///< pairs inside one deformable body are kept
} ipcc_collision_mesh_def;

typedef struct ipcc_collision_mesh {
    int nc;                                    ///< collision vertices
    int *cvert;                                ///< collision vertex -> world vertex
    int *group;                                ///< collision vertex -> body
    int ne, nf;                                ///< edges, faces
    int *cedges;                               ///< 2 per edge, collision ids
    int *cfaces;                               ///< 3 per face, collision ids
    unsigned char *self_collision, *kinematic; ///< per body
    unsigned char *point_set;                  ///< per body: an obstacle without faces and edges
    double *rest;                              ///< 3 nc, positions at t = 0
    ipcc_collision_topology topo;              ///< the broad phase's view of the above
    int *vert_edge_start, *vert_edges;         ///< CSR: each collision vertex's edges
    int *vert_face_start, *vert_faces;         ///< CSR: each collision vertex's faces
    int *edge_face_start, *edge_faces;         ///< CSR: each edge's faces
    unsigned char *edge_flat; ///< per edge: inside a planar region of an obstacle (no edge-edge term)
    unsigned char *vert_flat; ///< per collision vertex: inside a planar region of an obstacle (no point term)
} ipcc_collision_mesh;

/// Build the mesh of `def` into *m (zeroed first); IPCC_ERR_NO_MEMORY on
/// failure (what was built is freed by ipcc_collision_mesh_free).
ipcc_status ipcc_collision_mesh_build(ipcc_collision_mesh *m, const ipcc_collision_mesh_def *def);
/// Free its arrays (a zeroed or partly built mesh is fine).
void ipcc_collision_mesh_free(ipcc_collision_mesh *m);

/// Collision vertex v belongs to a deformable body (not a kinematic obstacle).
static inline bool ipcc_collision_vertex_free(const ipcc_collision_mesh *m, int v) {
    return !m->kinematic[m->group[v]];
}

/// The edge (a, b) in either order (collision ids), or -1.
int ipcc_collision_mesh_find_edge(const ipcc_collision_mesh *m, int a, int b);

/// The collision vertices' positions of the world state x (3n) into xc (3 nc).
void ipcc_collision_mesh_gather(const ipcc_collision_mesh *m, const double *x, double *xc);
/// The collision vertices' positions of x + alpha p (3n each) into xc (3 nc).
void ipcc_collision_mesh_gather_moved(const ipcc_collision_mesh *m, const double *x, const double *p,
                                      double alpha, double *xc);

#endif
