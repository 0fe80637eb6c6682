// Structured box meshes.
//
// The box [0,sx] x [0,sy] x [0,sz] is cut into nx*ny*nz equal cells, and each
// cell into the 6 tets of the Kuhn (Freudenthal) split: with the cell's
// corners numbered by bits (bit 0 = +x, bit 1 = +y, bit 2 = +z), tet p for a
// permutation p of the axes is the path 0 -> e_p0 -> e_p0+e_p1 -> 7 along the
// cell's edges. Every cell is split along the same main diagonal 0-7, so the
// faces' diagonals match between neighbouring cells and the mesh is conforming.
// Odd permutations give negatively oriented paths; their last two vertices are
// swapped here so that ipcc_mesh_create() has nothing to flip.
//
// Vertex (i, j, k) has index i + (nx+1) * (j + (ny+1) * k). Arguments are
// validated (n >= 1, finite size > 0, counts that fit an int) with
// IPCC_ERR_INVALID_ARGUMENT.
#include "ipcc/mesh.h"

#include <limits.h>
#include <math.h>

#include "base/core.h"

// Corner paths of the six Kuhn tets, oriented positively (see preamble).
static const int kuhn_tets[6][4] = {
    {0, 1, 3, 7}, // x, y, z (even)
    {0, 1, 7, 5}, // x, z, y (odd, swapped)
    {0, 2, 7, 3}, // y, x, z (odd, swapped)
    {0, 2, 6, 7}, // y, z, x (even)
    {0, 4, 5, 7}, // z, x, y (even)
    {0, 4, 7, 6}, // z, y, x (odd, swapped)
};

ipcc_status ipcc_mesh_create_box(int nx, int ny, int nz, const double size[3], ipcc_mesh **out) {
    IPCC_ASSERT(out != NULL);
    *out = NULL;
    if (nx < 1 || ny < 1 || nz < 1)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "box mesh: cell counts must be >= 1 (got %d x %d x %d)",
                         nx, ny, nz);
    if (!size) return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "box mesh: size is NULL");
    for (int a = 0; a < 3; a++)
        if (!(isfinite(size[a]) && size[a] > 0.0))
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "box mesh: size[%d] = %g must be finite and > 0", a,
                             size[a]);
    double cells = (double)nx * ny * nz, verts = (double)(nx + 1.0) * (ny + 1.0) * (nz + 1.0);
    if (24.0 * cells > (double)INT_MAX || 3.0 * verts > (double)INT_MAX)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "box mesh: %d x %d x %d cells is too many", nx, ny, nz);

    int nv = (int)verts, nt = 6 * nx * ny * nz;
    double *x = malloc(3 * (size_t)nv * sizeof *x);
    int *tets = malloc(4 * (size_t)nt * sizeof *tets);
    if (!x || !tets) {
        free(x);
        free(tets);
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "box mesh: out of memory for %d tetrahedra", nt);
    }
    for (int k = 0, v = 0; k <= nz; k++)
        for (int j = 0; j <= ny; j++)
            for (int i = 0; i <= nx; i++, v++) {
                x[3 * v + 0] = size[0] * i / nx;
                x[3 * v + 1] = size[1] * j / ny;
                x[3 * v + 2] = size[2] * k / nz;
            }
    int sy = nx + 1, sz = (nx + 1) * (ny + 1);
    int *t = tets;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                int base = i + sy * j + sz * k, corner[8];
                for (int c = 0; c < 8; c++)
                    corner[c] = base + (c & 1) + sy * ((c >> 1) & 1) + sz * (c >> 2);
                for (int s = 0; s < 6; s++, t += 4)
                    for (int q = 0; q < 4; q++)
                        t[q] = corner[kuhn_tets[s][q]];
            }
    ipcc_status s = ipcc_mesh_create(x, nv, tets, nt, "box mesh", NULL, out);
    free(x);
    free(tets);
    return s;
}
