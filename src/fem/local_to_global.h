/// Local blocks to global dofs: one home for the gather of a primitive's
/// (tet, contact pair, friction contact) dof indices and values, and the
/// scatter of its local gradient and Hessian into the global ones
/// (local_to_global.c). The anchor is ipc-toolkit's utils/local_to_global.
/// Private to the library.
#ifndef IPCC_LOCAL_TO_GLOBAL_H
#define IPCC_LOCAL_TO_GLOBAL_H

#include <string.h>

/// The unknown index of each of the 3 nv dofs of `vertices` (world vertex
/// indices): dofs[3 a + i] = dof_map[3 vertices[a] + i] (-1 = prescribed).
static inline void ipcc_local_dofs(const int *dof_map, int nv, const int *vertices, int *dofs) {
    for (int a = 0; a < nv; ++a)
        for (int i = 0; i < 3; ++i)
            dofs[3 * a + i] = dof_map[3 * vertices[a] + i];
}

/// The 3 nv values of a per-dof global vector v (positions, a lift) at
/// `vertices`: out[3 a + i] = v[3 vertices[a] + i].
static inline void ipcc_local_gather(const double *v, int nv, const int *vertices, double *out) {
    for (int a = 0; a < nv; ++a)
        memcpy(out + 3 * a, v + 3 * vertices[a], 3 * sizeof(double));
}

/// g[3 vertices[a] + i] += scale * local[3 a + i] over the block's dofs.
static inline void ipcc_local_scatter_add(double *g, int nv, const int *vertices, double scale,
                                          const double *local) {
    for (int a = 0; a < nv; ++a)
        for (int i = 0; i < 3; ++i)
            g[3 * vertices[a] + i] += scale * local[3 * a + i];
}

/// A dense local block (element, contact) over n dofs with unknown indices
/// dofs[a] (-1 = prescribed) contributes the entries (dofs[a], dofs[b]) with
/// both unknown and dofs[b] >= dofs[a]: the upper triangle, in row-major
/// local order. Their number, for pre-sizing per-block slots:
int ipcc_block_triplet_count(int n, const int *dofs);
/// Write those entries, scale * H[n a + b], into rows/cols/vals (slots sized
/// by ipcc_block_triplet_count); returns how many were written.
int ipcc_block_triplets_write(int n, const int *dofs, const double *H, double scale, int *rows, int *cols,
                              double *vals);
/// g += H v for a dense n x n block (skipped when v is all zero).
void ipcc_block_add_product(int n, const double *H, const double *v, double *g);

#endif
