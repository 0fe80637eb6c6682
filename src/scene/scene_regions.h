/// A JSON scene body's "regions" (scene_regions.c): materials per region of
/// its mesh. Private to the library.
#ifndef IPCC_SCENE_REGIONS_H
#define IPCC_SCENE_REGIONS_H

#include "scene/scene_json.h"

/// Second pass: body `index`'s "regions" (in `obj`, at key path `path`),
/// the materials into bodies[index].materials in key order; the object is
/// kept in p->meshes[index].regions for the third pass.
ipcc_status ipcc_scene_parse_regions(parser *p, const cJSON *obj, const char *path, int index,
                                     ipcc_scene *scene);

/// Third pass, once the meshes are loaded: each body's keys against its
/// mesh's regions, into bodies[i].tet_materials.
ipcc_status ipcc_scene_resolve_regions(const parser *p, ipcc_scene *scene);

#endif
