/// Scene keys "contact" and "obstacles" of JSON scenes (scene_obstacles.c):
/// the contact settings, half-spaces, mesh, segment and point obstacles
/// (analytic shapes are handed to scene_shapes.c), and the obstacles' files
/// read in the third pass. Private to the library.
#ifndef IPCC_SCENE_OBSTACLES_H
#define IPCC_SCENE_OBSTACLES_H

#include "scene/scene_json.h"

/// "contact" (the object `obj`) into *c, which holds the defaults.
ipcc_status ipcc_scene_parse_contact(const parser *p, const cJSON *obj, ipcc_contact_def *c);

/// "obstacles" (the array `list`): allocates the scene's obstacle, half-space
/// and shape arrays and p->obstacle_kind / p->obstacle_index, and parses each
/// entry by its "type". File obstacles only record their resolved path.
ipcc_status ipcc_scene_parse_obstacles(parser *p, const cJSON *list, ipcc_scene *scene);

/// Third pass: each mesh obstacle's file read as its kind says (an OBJ, or
/// the segments or points of a .seg, .pt or .obj). A failure names
/// `obstacles[i].path`.
ipcc_status ipcc_scene_load_obstacle_meshes(const parser *p, ipcc_scene *scene);

#endif
