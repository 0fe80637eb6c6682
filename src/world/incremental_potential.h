/// The incremental potential of a step as a Newton objective
/// (incremental_potential.c), and the element loops' totals that the
/// world's start, state and energies also read.
#ifndef IPCC_INCREMENTAL_POTENTIAL_H
#define IPCC_INCREMENTAL_POTENTIAL_H

#include "solver/newton.h"
#include "world/world.h"

/// Damping: the PSD elastic Hessians at x_start into damp_H (incremental_potential.c).
void ipcc_damping_prepare(ipcc_world *w);
/// Total elastic energy at x, +inf if a tet is inverted (incremental_potential.c).
double ipcc_elastic_energy_total(const ipcc_world *w, const double *x);
/// Accumulate the gradient of the total elastic energy into g (3n)
/// (incremental_potential.c).
void ipcc_elastic_gradient_total(const ipcc_world *w, const double *x, double *g);
/// The incremental potential as a Newton objective (incremental_potential.c).
ipcc_objective ipcc_incremental_potential(ipcc_world *w);

#endif
