/// How many terms of the inclusion-exclusion barrier each key of the
/// constraint set stands for (contact_multiplicity.c; Li et al. 2023, the
/// improved max approximator): the set computes the multiplicities of its
/// pairs with it. Private to the library.
#ifndef IPCC_CONTACT_MULTIPLICITY_H
#define IPCC_CONTACT_MULTIPLICITY_H

#include "collision/collision_mesh.h"
#include "collision/contact_pair.h"
#include "shape/shape.h"

/// How many terms of the inclusion-exclusion barrier key p stands for at
/// collision positions xc (3 nc) of mesh m; 0 drops it, a negative count (a
/// concave valley) is kept. `pose` gives the spheres' centres (per shape,
/// at the state of xc).
int ipcc_contact_multiplicity(const ipcc_collision_mesh *m, const ipcc_shape *pose, const double *xc,
                              const ipcc_contact_pair *p);

#endif
