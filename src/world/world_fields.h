/// Per-tet fields of the world's current state for output (world_fields.c):
/// what analysts look at in a frame. Not part of the public API.
#ifndef IPCC_WORLD_FIELDS_H
#define IPCC_WORLD_FIELDS_H

#include "ipcc/world.h"

/// Components of the Cauchy stress per tet: the full 3x3 tensor, row-major
/// (xx xy xz yx yy yz zx zy zz), VTK's order for a 9-component tensor.
#define IPCC_CAUCHY_COMPONENTS 9

/// Fill, for every tet e of `world` (ipcc_world_num_tets entries each):
///   J[e]               volume ratio det F (1 at rest; < 0 inverted);
///   cauchy[9e .. 9e+8] Cauchy stress sigma = P F^T / J, Pa;
///   von_mises[e]       sqrt(3/2 s:s), s the deviator of sigma's symmetric part, Pa;
///   energy[e]          elastic energy density Psi(F), J per m^3 of REST volume
///                      (the tet's energy is energy[e] * rest volume).
/// F and P come from the tet's material (ipcc_elastic_tet_stress). Pure
/// reads: no allocation, any thread count gives the same numbers.
void ipcc_world_tet_fields(const ipcc_world *world, double *J, double *cauchy, double *von_mises,
                           double *energy);

#endif
