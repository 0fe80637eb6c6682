/// What the world's analytic obstacles (world_shapes.c) tell the output
/// layer beyond the public API: a height field's grid, for drawing it.
#ifndef IPCC_WORLD_SHAPES_H
#define IPCC_WORLD_SHAPES_H

#include "shape/height_field.h"
#include "ipcc/world.h"

/// The grid of shape i if it is a height field (the world owns it; valid
/// until the world is destroyed), else NULL.
const ipcc_height_field *ipcc_world_shape_field(const ipcc_world *w, int i);

#endif
