/// Materials of JSON scenes (scene_materials.c): the "materials" object, a
/// "material" value (a name from it or an inline object), and the JSON names
/// of the material models, which the writer shares. Private to the library.
#ifndef IPCC_SCENE_MATERIALS_H
#define IPCC_SCENE_MATERIALS_H

#include "scene/scene_json.h"

/// The JSON names of the material models (NULL-terminated) and the models
/// they stand for, in the same order; the parser and the writer
/// (scene_write.c) share them.
extern const char *const ipcc_scene_model_names[];
extern const ipcc_material_model ipcc_scene_model_values[];

/// "materials" (the object `obj`): each entry into p->materials (malloc'ed;
/// the parse state owns it), in file order.
ipcc_status ipcc_scene_parse_materials(parser *p, const cJSON *obj);

/// "material" (`item`, at key path `sub`): a name from "materials" or an
/// inline object, into *m.
ipcc_status ipcc_scene_parse_material_ref(const parser *p, const cJSON *item, const char *sub,
                                          ipcc_material *m);

#endif
