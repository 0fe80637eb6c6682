// Inertia and gravity energies with a lumped (diagonal) mass matrix.
//
// The incremental potential of one backward-Euler step (IPC paper, Li et al.
// 2020, eq. 2) is E(x) = 1/2 |x - xhat|_M^2 + h^2 Psi(x); the caller scales
// the elastic and gravity terms by h^2. Here M is lumped: each tet gives a
// quarter of its mass density * V to each of its four vertices, which keeps
// M diagonal (so its Hessian is the vector `mass` repeated over x, y, z) and
// positive for any mesh whose every vertex belongs to a non-degenerate tet.
//
// Conventions: n is the number of vertices, position-like arrays are 3n long
// (xyz interleaved), `mass` is n long. Gradients are accumulated (+=) so the
// caller can sum terms into one vector. Nothing here allocates or fails; a
// degenerate tet simply contributes zero mass.
#include "fem/inertia.h"

#include <math.h>

#include "base/core.h"

void ipcc_lumped_mass(const ipcc_mesh *mesh, const double *x, double density, double *mass) {
    IPCC_ASSERT(mesh && x && mass);
    for (int t = 0; t < mesh->num_tets; ++t) {
        const int *v = mesh->tets + 4 * t;
        const double *x0 = x + 3 * v[0];
        double D[9];
        for (int k = 0; k < 3; ++k)
            for (int i = 0; i < 3; ++i)
                D[3 * i + k] = x[3 * v[k + 1] + i] - x0[i];
        // V = |det Ds| / 6, Ds = [x1 - x0, x2 - x0, x3 - x0]
        double det = D[0] * (D[4] * D[8] - D[5] * D[7]) - D[1] * (D[3] * D[8] - D[5] * D[6]) +
                     D[2] * (D[3] * D[7] - D[4] * D[6]);
        double m4 = density * fabs(det) / 24.0;
        for (int k = 0; k < 4; ++k)
            mass[v[k]] += m4;
    }
}

double ipcc_inertia_energy(int n, const double *mass, const double *x, const double *xhat) {
    // E = 1/2 sum_i m_i |x_i - xhat_i|^2
    double e = 0;
    for (int i = 0; i < n; ++i) {
        double d0 = x[3 * i] - xhat[3 * i], d1 = x[3 * i + 1] - xhat[3 * i + 1],
               d2 = x[3 * i + 2] - xhat[3 * i + 2];
        e += mass[i] * (d0 * d0 + d1 * d1 + d2 * d2);
    }
    return 0.5 * e;
}

void ipcc_inertia_gradient(int n, const double *mass, const double *x, const double *xhat, double *g) {
    // dE/dx_i = m_i (x_i - xhat_i)
    for (int i = 0; i < n; ++i)
        for (int c = 0; c < 3; ++c)
            g[3 * i + c] += mass[i] * (x[3 * i + c] - xhat[3 * i + c]);
}

double ipcc_gravity_energy(int n, const double *mass, const double gravity[3], const double *x,
                           const double *x0) {
    // E = - sum_i m_i g . (x_i - x0_i)
    double e = 0;
    for (int i = 0; i < n; ++i) {
        double d[3] = {x[3 * i], x[3 * i + 1], x[3 * i + 2]};
        if (x0)
            for (int k = 0; k < 3; ++k)
                d[k] -= x0[3 * i + k];
        e += mass[i] * (gravity[0] * d[0] + gravity[1] * d[1] + gravity[2] * d[2]);
    }
    return -e;
}

void ipcc_gravity_gradient(int n, const double *mass, const double gravity[3], double *g) {
    // dE/dx_i = - m_i g
    for (int i = 0; i < n; ++i)
        for (int c = 0; c < 3; ++c)
            g[3 * i + c] -= mass[i] * gravity[c];
}
