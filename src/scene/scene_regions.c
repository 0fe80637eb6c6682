// A body's "regions": materials per region of its mesh (docs/scene-format.md).
//
//   "regions": {"stiff": "steel", "7": {"youngs_modulus": 1e9}}
//
// Keys name a region of the body's mesh: a Gmsh physical volume name, else
// a region number (a Gmsh physical tag or a TetGen region attribute; see
// ipcc_mesh_find_region()). Values are materials as in "material": a name
// from "materials" or an inline object. Tets no key maps (and tets of no
// region, number 0) keep the body's "material", which stays required: it is
// the default.
//
// Two passes, as the rest of the scene: the values are checked with the
// other keys (second pass, before any mesh is read) and become
// bodies[i].materials in key order; the keys are resolved once the meshes
// are loaded (third pass) into bodies[i].tet_materials. A key the mesh does
// not have, a mesh without regions (a box, or a file without physical
// volumes or region attributes), and two keys for one region are errors
// naming the key path (`bodies[0].regions.steel`). A key whose region holds
// no tets (a named physical group without elements) gets a warning and no
// material slot, so the written scene (scene_write.c, which writes the keys
// back as region numbers) rebuilds the same slots.
#include "scene/scene_regions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/scene_materials.h"

ipcc_status ipcc_scene_parse_regions(parser *p, const cJSON *obj, const char *path, int index,
                                     ipcc_scene *scene) {
    const cJSON *regions = ipcc_scene_get(obj, "regions");
    if (!regions) return IPCC_OK;
    char sub[PATH_LEN], leaf[PATH_LEN];
    ipcc_scene_key_path(sub, path, "regions");
    if (!cJSON_IsObject(regions))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub,
                                  "expected an object mapping region names or numbers to materials (got %s)",
                                  ipcc_scene_json_type_name(regions));
    ipcc_status st = ipcc_scene_check_object(p, regions, sub, NULL);
    if (st != IPCC_OK) return st;
    int n = cJSON_GetArraySize(regions);
    if (n == 0) return IPCC_OK;
    ipcc_body_def *b = &scene->bodies[index];
    ipcc_material *materials = calloc((size_t)n, sizeof *materials);
    if (!materials) return ipcc_scene_fail_at(p, IPCC_ERR_NO_MEMORY, sub, "out of memory");
    b->materials = materials;
    int k = 0;
    for (const cJSON *c = regions->child; c; c = c->next, k++) {
        ipcc_scene_key_path(leaf, sub, c->string);
        if (!c->string[0]) return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "empty region name");
        if ((st = ipcc_scene_parse_material_ref(p, c, leaf, &materials[k])) != IPCC_OK) return st;
    }
    b->num_materials = n;
    p->meshes[index].regions = regions;
    return IPCC_OK;
}

// "7 \"soft\", 9 \"stiff\"" (truncated) for messages.
static void list_regions(const ipcc_mesh *m, char *out, size_t len) {
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < m->num_regions && used + 1 < len; i++) {
        int w = m->region_names[i]
                    ? snprintf(out + used, len - used, "%s%d \"%s\"", i ? ", " : "", m->region_numbers[i],
                               m->region_names[i])
                    : snprintf(out + used, len - used, "%s%d", i ? ", " : "", m->region_numbers[i]);
        if (w < 0) break;
        used += (size_t)w;
    }
    if (used >= len && len > 4) strcpy(out + len - 4, "...");
}

// Body i's keys against its mesh: tet_materials, and the slots of keys
// whose region has no tets dropped (materials compacted in key order).
static ipcc_status resolve_body(const parser *p, ipcc_scene *scene, int i) {
    ipcc_body_def *b = &scene->bodies[i];
    const cJSON *regions = p->meshes[i].regions;
    const ipcc_mesh *mesh = b->mesh;
    const char *file = scene->body_sources[i].path;
    char body[PATH_LEN], sub[PATH_LEN], leaf[PATH_LEN], who[PATH_LEN + 16];
    ipcc_scene_index_path(body, "bodies", i);
    snprintf(who, sizeof who, "body \"%s\"", b->name ? b->name : body);
    ipcc_scene_key_path(sub, body, "regions");
    if (mesh->num_regions == 0) {
        ipcc_scene_key_path(leaf, sub, regions->child->string);
        return ipcc_scene_fail_at(
            p, IPCC_ERR_INVALID_ARGUMENT, leaf,
            "%s: its mesh %s%s%s has no regions (Gmsh physical volumes or TetGen region "
            "attributes), so \"regions\" cannot apply",
            who, file ? "\"" : "(a box)", file ? file : "", file ? "\"" : "");
    }
    int *slot_of_region = malloc((size_t)mesh->num_regions * sizeof *slot_of_region);
    int *tet_materials = malloc((size_t)mesh->num_tets * sizeof *tet_materials);
    int *tets_in = calloc((size_t)mesh->num_regions, sizeof *tets_in);
    if (!slot_of_region || !tet_materials || !tets_in) {
        free(slot_of_region);
        free(tet_materials);
        free(tets_in);
        return ipcc_scene_fail_at(p, IPCC_ERR_NO_MEMORY, sub, "out of memory");
    }
    for (int r = 0; r < mesh->num_regions; r++)
        slot_of_region[r] = -1;
    for (int t = 0; t < mesh->num_tets; t++) {
        int r = ipcc_mesh_region_index(mesh, mesh->tet_regions[t]);
        if (r >= 0) tets_in[r]++;
    }
    ipcc_status st = IPCC_OK;
    int k = 0, kept = 0;
    ipcc_material *materials = (ipcc_material *)b->materials;
    for (const cJSON *c = regions->child; c && st == IPCC_OK; c = c->next, k++) {
        ipcc_scene_key_path(leaf, sub, c->string);
        int r = ipcc_mesh_find_region(mesh, c->string);
        if (r < 0) {
            char known[MESSAGE_LEN / 2];
            list_regions(mesh, known, sizeof known);
            st = ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, leaf,
                                    "%s: its mesh \"%s\" has no region \"%s\" (its regions: %s)", who,
                                    file ? file : "", c->string, known);
        } else if (slot_of_region[r] != -1) {
            st = ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, leaf,
                                    "%s: region %d is mapped twice (another key names it too)", who,
                                    mesh->region_numbers[r]);
        } else if (tets_in[r] == 0) {
            slot_of_region[r] = -2;
            ipcc_log(IPCC_LOG_WARNING, "%s: %s: region %d has no tetrahedra; the mapping changes nothing",
                     p->name, leaf, mesh->region_numbers[r]);
        } else {
            slot_of_region[r] = kept;
            materials[kept++] = materials[k];
        }
    }
    if (st == IPCC_OK) {
        for (int t = 0; t < mesh->num_tets; t++) {
            int r = ipcc_mesh_region_index(mesh, mesh->tet_regions[t]);
            tet_materials[t] = r >= 0 && slot_of_region[r] >= 0 ? slot_of_region[r] : -1;
        }
        b->num_materials = kept;
        if (kept > 0) {
            b->tet_materials = tet_materials;
            tet_materials = NULL;
        }
    }
    free(slot_of_region);
    free(tet_materials);
    free(tets_in);
    return st;
}

ipcc_status ipcc_scene_resolve_regions(const parser *p, ipcc_scene *scene) {
    for (int i = 0; i < scene->num_bodies; i++) {
        if (!p->meshes[i].regions) continue;
        ipcc_status st = resolve_body(p, scene, i);
        if (st != IPCC_OK) return st;
    }
    return IPCC_OK;
}
