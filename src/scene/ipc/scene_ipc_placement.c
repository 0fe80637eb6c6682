// The IPC script loader's shapes and their placement (scene_ipc.c builds
// them, scene_ipc_presets.c selects and moves their vertices): each shape's
// placement is one affine map x = A p + b of its file coordinates p,
// composed step by step (the shape line's R (s ⊙ p) + t, then rotateModel,
// size and the script's shift; docs/ipc-script-format.md §3.2, §3.3,
// §6.2), and evaluated only when a placed position or bounding box is
// asked for, so no vertex is moved twice.
//
// Nothing here fails but ipcc_scene_ipc_oom(), which records the loader's
// one out-of-memory message.
#include "scene/ipc/scene_ipc_placement.h"

#include <math.h>
#include <string.h>

#include "base/core.h"

// (A, b) <- (M A, M b + c): apply x -> M x + c after the current placement.
void ipcc_scene_ipc_compose(shape *sh, const double M[9], const double c[3]) {
    double A[9], b[3];
    for (int i = 0; i < 3; ++i) {
        b[i] = c[i];
        for (int j = 0; j < 3; ++j) {
            A[3 * i + j] = 0;
            for (int k = 0; k < 3; ++k)
                A[3 * i + j] += M[3 * i + k] * sh->A[3 * k + j];
            b[i] += M[3 * i + j] * sh->b[j];
        }
    }
    memcpy(sh->A, A, sizeof A);
    memcpy(sh->b, b, sizeof b);
}

void ipcc_scene_ipc_placed(const shape *sh, int i, double x[3]) {
    const double *p = sh->raw + 3 * i;
    for (int k = 0; k < 3; ++k)
        x[k] = sh->A[3 * k] * p[0] + sh->A[3 * k + 1] * p[1] + sh->A[3 * k + 2] * p[2] + sh->b[k];
}

// Bounding box of the placed vertices of shapes whose kind is >= min_kind
// (KIND_POINTS: every shape). lo/hi stay +-inf when there is none.
void ipcc_scene_ipc_bbox(const loader *L, int min_kind, double lo[3], double hi[3]) {
    for (int k = 0; k < 3; ++k) {
        lo[k] = INFINITY;
        hi[k] = -INFINITY;
    }
    for (int s = 0; s < L->ns; ++s) {
        if (L->shapes[s].kind < min_kind) continue;
        for (int i = 0; i < L->shapes[s].nv; ++i) {
            double x[3];
            ipcc_scene_ipc_placed(&L->shapes[s], i, x);
            for (int k = 0; k < 3; ++k) {
                lo[k] = fmin(lo[k], x[k]);
                hi[k] = fmax(hi[k], x[k]);
            }
        }
    }
}

void ipcc_scene_ipc_shape_centre(const shape *sh, const int *list, int n, double c[3]) {
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    int count = list ? n : sh->nv;
    for (int j = 0; j < count; ++j) {
        double x[3];
        ipcc_scene_ipc_placed(sh, list ? list[j] : j, x);
        for (int k = 0; k < 3; ++k) {
            lo[k] = fmin(lo[k], x[k]);
            hi[k] = fmax(hi[k], x[k]);
        }
    }
    for (int k = 0; k < 3; ++k)
        c[k] = 0.5 * (lo[k] + hi[k]);
}

ipcc_status ipcc_scene_ipc_oom(const loader *L) {
    return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory", L->path);
}
