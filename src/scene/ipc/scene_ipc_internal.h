/// The IPC script loader's shared state (scene_ipc.c: paths, shapes,
/// placement and assembly; scene_ipc_presets.c: DBC/NBC groups and script
/// presets). Private to the library.
#ifndef IPCC_SCENE_IPC_INTERNAL_H
#define IPCC_SCENE_IPC_INTERNAL_H

#include <stdbool.h>

#include "scene/ipc/ipc_script.h"
#include "ipcc/scene.h"

#define PI 3.14159265358979323846

enum { KIND_POINTS = 0, KIND_SEGMENTS = 1, KIND_TRIANGLES = 2, KIND_TETS = 3 };

// One shape of the script, loaded and placed.
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

// Growable per-body lists of conditions.
typedef struct body_conditions {
    int nd, capd;
    ipcc_dirichlet_def *d;
    int nn, capn;
    ipcc_neumann_def *nbc;
} body_conditions;

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

/// +1/2 bbox diagonal in y for every shape (fall, dragright; F§6.2).
void ipcc_scene_ipc_shift_up(loader *L);
/// The script preset: prescribed motions, stops, initial velocities (F§6).
ipcc_status ipcc_scene_ipc_apply_script(loader *L);
/// NBC groups of the tet shapes (every script, F§3.2).
ipcc_status ipcc_scene_ipc_apply_nbc(loader *L);

#endif
