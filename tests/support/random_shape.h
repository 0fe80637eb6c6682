/// Random analytic shapes for the shape tests (test_shape.c, test_shape_contact.c).
#ifndef IPCC_TEST_RANDOM_SHAPE_H
#define IPCC_TEST_RANDOM_SHAPE_H

#include "shape/shape.h"

/// A shape of `kind` with a random centre in [-1, 1]^3, a random rotation
/// and sizes in [0.3, 1.5] (a sphere's three sizes equal), drawn from the
/// support's generator (ipcc_test_seed); a torus' minor radius is
/// [torus_lo, torus_hi] times its major one.
ipcc_shape ipcc_test_random_shape(ipcc_shape_kind kind, double torus_lo, double torus_hi);

#endif
