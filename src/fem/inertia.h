/// Inertia and gravity energies with lumped mass.
///
///   E_inertia(x) = 1/2 sum_i m_i |x_i - xhat_i|^2     (IPC paper eq. 2, lumped M)
///   E_gravity(x) = - sum_i m_i g . x_i
/// Arrays are 3 * n long. Gradients are accumulated (+=) into g.
#ifndef IPCC_INERTIA_H
#define IPCC_INERTIA_H

#include "ipcc/mesh.h"

/// Lumped mass: each tet gives density * volume / 4 to each of its vertices.
/// `x` are the rest positions (3 * mesh->num_vertices); `mass` is accumulated.
void ipcc_lumped_mass(const ipcc_mesh *mesh, const double *x, double density, double *mass);

double ipcc_inertia_energy(int n, const double *mass, const double *x, const double *xhat);
void ipcc_inertia_gradient(int n, const double *mass, const double *x, const double *xhat, double *g);
/// The Hessian is diag(m_i) on each of the 3 components of vertex i.

/// -sum_i m_i g . (x_i - x0_i): the potential of gravity relative to the
/// positions x0 (NULL: the origin). A potential is defined up to a
/// constant; measuring it from the step's start keeps it the size of the
/// step's work rather than of the scene's distance from the origin, so an
/// energy comparison in the line search is not lost in its rounding.
double ipcc_gravity_energy(int n, const double *mass, const double gravity[3], const double *x,
                           const double *x0);
void ipcc_gravity_gradient(int n, const double *mass, const double gravity[3], double *g);
/// The Hessian of gravity is zero.

#endif
