// Materials of JSON scenes (docs/scene-format.md, `materials`): the
// "materials" object of named materials, and a "material" value (a body's,
// or a region's in scene_regions.c), which is a name from "materials" or an
// inline object. An inline object and a named one are parsed alike: keys
// "model", "density", "youngs_modulus", "poisson_ratio", defaults from
// ipcc_default_material(). Also the table of model names, which the writer
// (scene_write.c) shares.
//
// Failure modes: an unknown key, a value of the wrong type or out of range
// (density and Young's modulus > 0, Poisson's ratio in [0, 0.5)), an empty
// material name, an unknown model or material name (with the known ones and
// a "did you mean"), all IPCC_ERR_INVALID_ARGUMENT naming the key path;
// IPCC_ERR_NO_MEMORY. The named materials live in the parse state
// (p->materials), which scene_parse.c frees.
#include "scene/scene_materials.h"

#include <stdlib.h>
#include <string.h>

const char *const ipcc_scene_model_names[] = {"neo_hookean", "fixed_corotated", "stvk", "linear", NULL};
const ipcc_material_model ipcc_scene_model_values[] = {IPCC_NEO_HOOKEAN, IPCC_FIXED_COROTATED, IPCC_STVK,
                                                       IPCC_LINEAR};

static ipcc_status parse_material(const parser *p, const cJSON *obj, const char *path, ipcc_material *m) {
    static const char *const keys[] = {"model", "density", "youngs_modulus", "poisson_ratio", NULL};
    ipcc_status st = ipcc_scene_check_object(p, obj, path, keys);
    if (st != IPCC_OK) return st;
    *m = ipcc_default_material();
    const char *model = NULL;
    char sub[PATH_LEN];
    if ((st = ipcc_scene_get_string(p, obj, path, "model", &model)) != IPCC_OK) return st;
    if (model) {
        int i = 0;
        while (ipcc_scene_model_names[i] && strcmp(ipcc_scene_model_names[i], model) != 0)
            i++;
        ipcc_scene_key_path(sub, path, "model");
        if (!ipcc_scene_model_names[i])
            return ipcc_scene_fail_choice(p, sub, "material model", model, ipcc_scene_model_names);
        m->model = ipcc_scene_model_values[i];
    }
    if ((st = ipcc_scene_get_number(p, obj, path, "density", POSITIVE, &m->density)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_number(p, obj, path, "youngs_modulus", POSITIVE, &m->youngs_modulus)) != IPCC_OK)
        return st;
    if ((st = ipcc_scene_get_number(p, obj, path, "poisson_ratio", ANY, &m->poisson_ratio)) != IPCC_OK)
        return st;
    if (!(m->poisson_ratio >= 0 && m->poisson_ratio < 0.5)) {
        ipcc_scene_key_path(sub, path, "poisson_ratio");
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "must be in [0, 0.5) (got %g)",
                                  m->poisson_ratio);
    }
    return IPCC_OK;
}

ipcc_status ipcc_scene_parse_materials(parser *p, const cJSON *obj) {
    ipcc_status st = ipcc_scene_check_object(p, obj, "materials", NULL);
    if (st != IPCC_OK) return st;
    int n = cJSON_GetArraySize(obj);
    if (n == 0) return IPCC_OK;
    p->materials = calloc((size_t)n, sizeof *p->materials);
    if (!p->materials) return ipcc_scene_fail_at(p, IPCC_ERR_NO_MEMORY, "materials", "out of memory");
    char sub[PATH_LEN];
    for (const cJSON *c = obj->child; c; c = c->next) {
        ipcc_scene_key_path(sub, "materials", c->string);
        if (!c->string[0])
            return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, "materials", "empty material name");
        named_material *nm = &p->materials[p->num_materials];
        nm->name = c->string;
        if ((st = parse_material(p, c, sub, &nm->material)) != IPCC_OK) return st;
        p->num_materials++;
    }
    return IPCC_OK;
}

ipcc_status ipcc_scene_parse_material_ref(const parser *p, const cJSON *item, const char *sub,
                                          ipcc_material *m) {
    if (cJSON_IsObject(item)) return parse_material(p, item, sub, m);
    if (!cJSON_IsString(item))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub,
                                  "expected a material name or object (got %s)",
                                  ipcc_scene_json_type_name(item));
    for (int i = 0; i < p->num_materials; i++) {
        if (strcmp(p->materials[i].name, item->valuestring) == 0) {
            *m = p->materials[i].material;
            return IPCC_OK;
        }
    }
    if (p->num_materials == 0)
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub,
                                  "unknown material \"%s\" (no \"materials\" are defined)",
                                  item->valuestring);
    const char *names[64 + 1];
    int n = p->num_materials < 64 ? p->num_materials : 64;
    for (int i = 0; i < n; i++)
        names[i] = p->materials[i].name;
    names[n] = NULL;
    char known[MESSAGE_LEN / 2];
    ipcc_scene_join_names(known, sizeof known, names);
    const char *guess = ipcc_scene_closest(item->valuestring, names);
    if (guess)
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub,
                                  "unknown material \"%s\" (known: %s); did you mean \"%s\"?",
                                  item->valuestring, known, guess);
    return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "unknown material \"%s\" (known: %s)",
                              item->valuestring, known);
}
