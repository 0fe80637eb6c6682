/// Bodies of JSON scenes (scene_bodies.c): the "bodies" array into the
/// scene's body defs (second pass), and the bodies' meshes read or
/// generated (third pass). Private to the library.
#ifndef IPCC_SCENE_BODIES_H
#define IPCC_SCENE_BODIES_H

#include "scene/scene_json.h"

/// "bodies" of the top-level object `root`: allocates scene->bodies,
/// scene->body_sources and p->meshes (one per body) and parses each entry.
/// The scene owns what each body holds as soon as it is set.
ipcc_status ipcc_scene_parse_bodies(parser *p, const cJSON *root, ipcc_scene *scene);

/// Third pass: each body's mesh read from its file (relative to the
/// scene's folder) or generated as a box, into bodies[i].mesh and
/// body_sources[i]. A failure names `bodies[i].mesh`.
ipcc_status ipcc_scene_load_body_meshes(const parser *p, ipcc_scene *scene);

#endif
