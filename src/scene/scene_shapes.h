/// Analytic obstacles of JSON scenes (scene_shapes.c): the "sphere",
/// "box", "cylinder", "ellipsoid", "torus", "height_field" and moving
/// "half_space" entries of "obstacles", and the one formula for a shape's
/// rotation from its recorded orientation (the parser's and the writer's).
/// Private to the library.
#ifndef IPCC_SCENE_SHAPES_H
#define IPCC_SCENE_SHAPES_H

#include <stdbool.h>

#include "scene/scene_json.h"

/// R (row-major) from a recorded orientation: the parser's and the
/// writer's (scene_write.c) one formula, so a reload is bit for bit.
void ipcc_scene_shape_rotation(const ipcc_scene_shape_source *src, double R[9]);

/// A half-space's "normal" (at `path`.normal) must not be the zero vector
/// (static half-spaces and moving ones alike).
ipcc_status ipcc_scene_check_normal(const parser *p, const char *path, const double normal[3]);

/// One entry of "obstacles" (at `path`, index `entry`) of kind `kind`
/// parsed into scene->shapes[num_shapes++] and its source (the arrays are
/// allocated by ipcc_scene_parse_obstacles()); the scene owns its name and
/// grid as soon as they are set.
ipcc_status ipcc_scene_parse_shape(const parser *p, const cJSON *obj, const char *path, int entry,
                                   ipcc_shape_kind kind, ipcc_scene *scene);

/// The shape kind an obstacle "type" names into *kind (false if none; a
/// "half_space" is not one: a moving half-space is chosen by the caller).
bool ipcc_scene_shape_type(const char *type, ipcc_shape_kind *kind);

#endif
