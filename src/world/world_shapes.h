/// Analytic obstacles in the world (world_shapes.c): what the world's start
/// and step do with them (the sharp features of boxes and cylinders as
/// segment-set obstacles, the clock that moves them inside Newton, their
/// poses over a step) and what the output layer needs beyond the public
/// API (a height field's grid, for drawing it). Adding them and reading
/// their definitions and poses is public (ipcc/world.h).
#ifndef IPCC_WORLD_SHAPES_H
#define IPCC_WORLD_SHAPES_H

#include "ipcc/world.h"
#include "shape/height_field.h"

/// At the world's start: each box's edges and each cylinder's rims as a
/// segment-set obstacle, and the clock (its length; none when no shape moves).
ipcc_status ipcc_world_shapes_start(ipcc_world *w);
/// At a step's start (after the Dirichlet targets): the step's shape
/// motions from the current poses, the clock's reset and target, and the
/// feature obstacles' targets.
void ipcc_world_shapes_prepare_step(ipcc_world *w);
/// At a step's end: the poses at the progress reached.
void ipcc_world_shapes_end_step(ipcc_world *w);

/// The grid of shape i if it is a height field (the world owns it; valid
/// until the world is destroyed), else NULL.
const ipcc_height_field *ipcc_world_shape_field(const ipcc_world *w, int i);

#endif
