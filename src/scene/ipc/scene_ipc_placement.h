/// The IPC script loader's state and the placement of its shapes
/// (scene_ipc_placement.c): the shapes as loaded with their affine
/// placement, the per-body condition lists, and the placed positions and
/// bounding boxes that scene_ipc.c and scene_ipc_presets.c both need.
/// Private to the library.
#ifndef IPCC_SCENE_IPC_PLACEMENT_H
#define IPCC_SCENE_IPC_PLACEMENT_H

#include <stdbool.h>

#include "ipcc/scene.h"
#include "scene/ipc/ipc_script.h"

/// pi, for IPC's degrees.
#define PI 3.14159265358979323846

/// A shape's kind by its file: codimension 0 to 3 (IPC's order: points, segments, triangles, tets).
enum { KIND_POINTS = 0, KIND_SEGMENTS = 1, KIND_TRIANGLES = 2, KIND_TETS = 3 };

/// One shape of the script, loaded and placed.
typedef struct shape {
    const ipcc_ipc_script_shape *txt;
    int kind;
    ipcc_mesh *tet;        // KIND_TETS (moved into the scene once built)
    const ipcc_mesh *mesh; // the tet mesh, wherever it is owned
    ipcc_trimesh *tri;     // the other kinds
    char *resolved;        // the file actually read
    int nv;                // vertices
    const double *raw;     // their file coordinates
    double A[9], b[3];     // placement: x = A p + b
    int global_first;      // first vertex in IPC's global order (shape order)
    int world_first;       // first vertex in the world (bodies first, then obstacles)
    int index;             // body or obstacle index in the scene
    bool moved;            // the script moves it (kinematic shapes)
} shape;

/// Growable per-body lists of conditions.
typedef struct body_conditions {
    int nd, capd;
    ipcc_dirichlet_def *d;
    int nn, capn;
    ipcc_neumann_def *nbc;
} body_conditions;

/// The loader's state over one script (scene_ipc.c makes and frees it).
typedef struct loader {
    const char *path; // the script
    char *dir;        // its folder ("." if none)
    ipcc_ipc_script *txt;
    int ns;
    shape *shapes;
    body_conditions *cond; // per body
    int num_kinematic;     // obstacles [0, num_kinematic) are kinematic shapes, the rest meshCOs
    ipcc_scene *scene;
} loader;

/// "<script>: out of memory".
ipcc_status ipcc_scene_ipc_oom(const loader *L);
/// (A, b) <- (M A, M b + c): apply x -> M x + c after the shape's placement.
void ipcc_scene_ipc_compose(shape *sh, const double M[9], const double c[3]);
/// Placed position of vertex i of a shape.
void ipcc_scene_ipc_placed(const shape *sh, int i, double x[3]);
/// Bounding box of the placed vertices of the shapes of kind >= min_kind.
void ipcc_scene_ipc_bbox(const loader *L, int min_kind, double lo[3], double hi[3]);
/// Centre of the placed bounding box of a shape's vertices: the n listed
/// (local indices), or all when list is NULL.
void ipcc_scene_ipc_shape_centre(const shape *sh, const int *list, int n, double c[3]);

#endif
