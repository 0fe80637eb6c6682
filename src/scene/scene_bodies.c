// Bodies of JSON scenes (docs/scene-format.md, `bodies`): each entry's
// name, "mesh" (a file or a generated box), "material" and "regions"
// (scene_materials.c, scene_regions.c), placement, velocities, friction,
// and its "dirichlet" and "neumann" conditions with their vertex
// selections and stops. Parsed in the second pass with the rest of the
// scene; the meshes are read or generated in the third
// (ipcc_scene_load_body_meshes()), once the whole scene is known to be
// valid. Indices that need the meshes (vertex lists, stops) are checked
// after that by scene_parse.c.
//
// Ownership: a body owns nothing until parse_body() sets it; names, vertex
// lists and condition arrays belong to the scene from the moment they are
// allocated, so ipcc_scene_destroy() releases a body parsed half-way.
//
// Failure modes: a bad key or value is IPCC_ERR_INVALID_ARGUMENT naming the
// key path (`bodies[1].dirichlet[0].end`); a mesh reader's status and
// message are passed on, prefixed with `bodies[i].mesh`; IPCC_ERR_NO_MEMORY.
#include "scene/scene_bodies.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/scene_materials.h"
#include "scene/scene_regions.h"

// Upper bound on the cells of a generated box mesh (6 tets per cell).
#define MAX_BOX_CELLS 10000000.0

// "mesh": a file path or {"box": {"size": [...], "cells": [...]}}.
static ipcc_status parse_mesh_spec(const parser *p, const cJSON *item, const char *sub, mesh_spec *spec) {
    if (cJSON_IsString(item)) {
        if (!item->valuestring[0])
            return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "must not be empty");
        spec->file = item->valuestring;
        return IPCC_OK;
    }
    if (!cJSON_IsObject(item))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub,
                                  "expected a file name or {\"box\": {...}} (got %s)",
                                  ipcc_scene_json_type_name(item));
    static const char *const keys[] = {"box", NULL};
    static const char *const box_keys[] = {"size", "cells", NULL};
    ipcc_status st = ipcc_scene_check_object(p, item, sub, keys);
    if (st != IPCC_OK) return st;
    const cJSON *box = ipcc_scene_get(item, "box");
    if (!box) return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "missing required key \"box\"");
    char box_path[PATH_LEN], leaf[PATH_LEN];
    ipcc_scene_key_path(box_path, sub, "box");
    if ((st = ipcc_scene_check_object(p, box, box_path, box_keys)) != IPCC_OK) return st;
    const cJSON *size = ipcc_scene_get(box, "size");
    if (!size)
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, box_path, "missing required key \"size\"");
    ipcc_scene_key_path(leaf, box_path, "size");
    if ((st = ipcc_scene_parse_vec3(p, size, leaf, POSITIVE, spec->size)) != IPCC_OK) return st;
    spec->cells[0] = spec->cells[1] = spec->cells[2] = 1;
    const cJSON *cells = ipcc_scene_get(box, "cells");
    if (cells) {
        ipcc_scene_key_path(leaf, box_path, "cells");
        int n = cJSON_GetArraySize(cells), i = 0;
        if (!cJSON_IsArray(cells) || n != 3)
            return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, leaf,
                                      "expected an array of 3 integers >= 1 (got %s)",
                                      ipcc_scene_json_type_name(cells));
        double total = 1;
        for (const cJSON *c = cells->child; c; c = c->next, i++) {
            if (!ipcc_scene_is_int_value(c, 1))
                return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, leaf,
                                          "expected an array of 3 integers >= 1 (item %d)", i);
            spec->cells[i] = (int)c->valuedouble;
            total *= c->valuedouble;
        }
        if (total > MAX_BOX_CELLS)
            return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, leaf, "too many cells (%g > %g)", total,
                                      MAX_BOX_CELLS);
    }
    return IPCC_OK;
}

// The vertex selection shared by "dirichlet" and "neumann" entries: a
// normalized box ("min", "max") or a list of body-local indices
// ("vertices"), never both; then the active time range [start, end).
static ipcc_status parse_selection(const parser *p, const cJSON *obj, const char *path, double box_min[3],
                                   double box_max[3], int *num_vertices, const int **vertices, double *start,
                                   double *end) {
    char sub[PATH_LEN];
    if (ipcc_scene_get(obj, "vertices")) {
        const char *box_key = ipcc_scene_get(obj, "min") ? "min" : ipcc_scene_get(obj, "max") ? "max" : NULL;
        if (box_key) {
            ipcc_scene_key_path(sub, path, "vertices");
            return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub,
                                      "cannot be combined with \"%s\" (select by box or by vertex list)",
                                      box_key);
        }
    }
    ipcc_status st;
    int n = 0, *list = NULL;
    if ((st = ipcc_scene_get_index_list(p, obj, path, "vertices", &n, &list)) != IPCC_OK) return st;
    *vertices = list; // owned by the scene from here on
    *num_vertices = n;
    if ((st = ipcc_scene_get_vec3(p, obj, path, "min", box_min)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_vec3(p, obj, path, "max", box_max)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_number(p, obj, path, "start", ANY, start)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_number(p, obj, path, "end", ANY, end)) != IPCC_OK) return st;
    for (int k = 0; k < 3; k++) {
        if (box_min[k] > box_max[k]) {
            ipcc_scene_key_path(sub, path, "max");
            return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "item %d (%g) is below min's (%g)",
                                      k, box_max[k], box_min[k]);
        }
    }
    if (!(*end >= *start)) {
        ipcc_scene_key_path(sub, path, "end");
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "must be >= start (got %g < %g)", *end,
                                  *start);
    }
    return IPCC_OK;
}

static ipcc_status parse_dirichlet(const parser *p, const cJSON *obj, const char *path,
                                   ipcc_dirichlet_def *d) {
    static const char *const keys[] = {"min",   "max",  "vertices", "velocity", "angular_velocity",
                                       "pivot", "stop", "start",    "end",      NULL};
    ipcc_status st = ipcc_scene_check_object(p, obj, path, keys);
    if (st != IPCC_OK) return st;
    *d = ipcc_default_dirichlet_def();
    d->num_vertices = 0;
    d->vertices = NULL;
    d->stop.axis = -1;
    if ((st = parse_selection(p, obj, path, d->box_min, d->box_max, &d->num_vertices, &d->vertices, &d->start,
                              &d->end)) != IPCC_OK)
        return st;
    if ((st = ipcc_scene_get_vec3(p, obj, path, "velocity", d->velocity)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_vec3(p, obj, path, "angular_velocity", d->angular_velocity)) != IPCC_OK)
        return st;
    if ((st = ipcc_scene_get_point(p, obj, path, "pivot", &d->has_pivot, d->pivot)) != IPCC_OK) return st;
    return ipcc_scene_get_stop(p, obj, path, &d->stop);
}

static ipcc_status parse_neumann(const parser *p, const cJSON *obj, const char *path, ipcc_neumann_def *n) {
    static const char *const keys[] = {"min", "max", "vertices", "acceleration", "start", "end", NULL};
    ipcc_status st = ipcc_scene_check_object(p, obj, path, keys);
    if (st != IPCC_OK) return st;
    *n = ipcc_default_neumann_def();
    if ((st = parse_selection(p, obj, path, n->box_min, n->box_max, &n->num_vertices, &n->vertices, &n->start,
                              &n->end)) != IPCC_OK)
        return st;
    if (!ipcc_scene_get(obj, "acceleration")) {
        char sub[PATH_LEN];
        ipcc_scene_key_path(sub, path, "acceleration");
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub,
                                  "missing (a Neumann condition needs an acceleration, m/s^2)");
    }
    return ipcc_scene_get_vec3(p, obj, path, "acceleration", n->acceleration);
}

// "dirichlet" or "neumann": an array of objects parsed by `parse_one` into
// calloc'ed defs of `size` bytes. *count is the full length as soon as the
// array exists (zeroed entries own nothing), so a failure half-way leaks
// nothing through ipcc_scene_destroy().
typedef ipcc_status parse_entry_fn(const parser *p, const cJSON *obj, const char *path, void *def);

static ipcc_status parse_dirichlet_entry(const parser *p, const cJSON *obj, const char *path, void *def) {
    return parse_dirichlet(p, obj, path, def);
}

static ipcc_status parse_neumann_entry(const parser *p, const cJSON *obj, const char *path, void *def) {
    return parse_neumann(p, obj, path, def);
}

static ipcc_status parse_condition_list(const parser *p, const cJSON *obj, const char *path, const char *key,
                                        size_t size, parse_entry_fn *parse_one, void **defs, int *count) {
    const cJSON *list = ipcc_scene_get(obj, key);
    if (!list) return IPCC_OK;
    char sub[PATH_LEN], entry[PATH_LEN];
    ipcc_scene_key_path(sub, path, key);
    if (!cJSON_IsArray(list))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "expected an array of objects (got %s)",
                                  ipcc_scene_json_type_name(list));
    int n = cJSON_GetArraySize(list);
    if (n == 0) return IPCC_OK;
    char *d = calloc((size_t)n, size);
    if (!d) return ipcc_scene_fail_at(p, IPCC_ERR_NO_MEMORY, sub, "out of memory");
    *defs = d;
    *count = n;
    int i = 0;
    for (const cJSON *c = list->child; c; c = c->next, i++) {
        ipcc_scene_index_path(entry, sub, i);
        ipcc_status st = parse_one(p, c, entry, d + (size_t)i * size);
        if (st != IPCC_OK) return st;
    }
    return IPCC_OK;
}

static ipcc_status parse_body(parser *p, const cJSON *obj, const char *path, int index, ipcc_scene *scene) {
    static const char *const keys[] = {
        "name",      "mesh",      "material", "translation",      "rotation",
        "scale",     "transform", "velocity", "angular_velocity", "angular_velocity_centre",
        "dirichlet", "neumann",   "friction", "regions",          NULL};
    ipcc_status st = ipcc_scene_check_object(p, obj, path, keys);
    if (st != IPCC_OK) return st;
    ipcc_body_def *b = &scene->bodies[index];
    char sub[PATH_LEN];

    const char *name = NULL;
    if ((st = ipcc_scene_get_string(p, obj, path, "name", &name)) != IPCC_OK) return st;
    if (name) {
        for (int i = 0; i < index; i++) {
            if (scene->bodies[i].name && strcmp(scene->bodies[i].name, name) == 0) {
                ipcc_scene_key_path(sub, path, "name");
                return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub,
                                          "duplicate body name \"%s\" (also bodies[%d])", name, i);
            }
        }
        if (!(b->name = ipcc_scene_copy_string(name)))
            return ipcc_scene_fail_at(p, IPCC_ERR_NO_MEMORY, path, "out of memory");
    }

    const cJSON *mesh = ipcc_scene_get(obj, "mesh");
    ipcc_scene_key_path(sub, path, "mesh");
    if (!mesh)
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "missing (every body needs a mesh)");
    if ((st = parse_mesh_spec(p, mesh, sub, &p->meshes[index])) != IPCC_OK) return st;

    const cJSON *material = ipcc_scene_get(obj, "material");
    ipcc_scene_key_path(sub, path, "material");
    if (!material)
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "missing (every body needs a material)");
    if ((st = ipcc_scene_parse_material_ref(p, material, sub, &b->material)) != IPCC_OK) return st;
    if ((st = ipcc_scene_parse_regions(p, obj, path, index, scene)) != IPCC_OK) return st;

    if ((st = ipcc_scene_get_transform(p, obj, path, &b->use_transform, b->transform)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_vec3(p, obj, path, "translation", b->translation)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_vec3(p, obj, path, "rotation", b->rotation)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_scale(p, obj, path, b->scale)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_vec3(p, obj, path, "velocity", b->velocity)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_vec3(p, obj, path, "angular_velocity", b->angular_velocity)) != IPCC_OK)
        return st;
    if ((st = ipcc_scene_get_point(p, obj, path, "angular_velocity_centre", &b->has_velocity_pivot,
                                   b->velocity_pivot)) != IPCC_OK)
        return st;
    if ((st = ipcc_scene_get_number(p, obj, path, "friction", NON_NEGATIVE, &b->friction)) != IPCC_OK)
        return st;
    void *defs = NULL;
    st = parse_condition_list(p, obj, path, "dirichlet", sizeof(ipcc_dirichlet_def), parse_dirichlet_entry,
                              &defs, &b->num_dirichlet);
    b->dirichlet = defs;
    if (st != IPCC_OK) return st;
    defs = NULL;
    st = parse_condition_list(p, obj, path, "neumann", sizeof(ipcc_neumann_def), parse_neumann_entry, &defs,
                              &b->num_neumann);
    b->neumann = defs;
    return st;
}

ipcc_status ipcc_scene_parse_bodies(parser *p, const cJSON *root, ipcc_scene *scene) {
    const cJSON *bodies = ipcc_scene_get(root, "bodies");
    if (!bodies)
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, "bodies",
                                  "missing (a scene needs at least one body)");
    if (!cJSON_IsArray(bodies))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, "bodies",
                                  "expected an array of objects (got %s)", ipcc_scene_json_type_name(bodies));
    int n = cJSON_GetArraySize(bodies);
    if (n == 0) return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, "bodies", "must not be empty");
    scene->bodies = calloc((size_t)n, sizeof *scene->bodies);
    scene->body_sources = calloc((size_t)n, sizeof *scene->body_sources);
    p->meshes = calloc((size_t)n, sizeof *p->meshes);
    if (!scene->bodies || !scene->body_sources || !p->meshes)
        return ipcc_scene_fail_at(p, IPCC_ERR_NO_MEMORY, "bodies", "out of memory");
    scene->num_bodies = n;
    for (int i = 0; i < n; i++) {
        // Until its mesh is loaded a body owns nothing; destroy frees only what parse_body set.
        scene->bodies[i] = ipcc_default_body_def();
        scene->bodies[i].name = NULL;
        scene->bodies[i].mesh = NULL;
        scene->bodies[i].dirichlet = NULL;
        scene->bodies[i].num_dirichlet = 0;
        scene->bodies[i].neumann = NULL;
        scene->bodies[i].num_neumann = 0;
    }
    int i = 0;
    char sub[PATH_LEN];
    for (const cJSON *c = bodies->child; c; c = c->next, i++) {
        ipcc_scene_index_path(sub, "bodies", i);
        ipcc_status st = parse_body(p, c, sub, i, scene);
        if (st != IPCC_OK) return st;
    }
    return IPCC_OK;
}

// ---------------------------------------------------------------------------
// Meshes (third pass)

ipcc_status ipcc_scene_load_body_meshes(const parser *p, ipcc_scene *scene) {
    char sub[PATH_LEN];
    for (int i = 0; i < scene->num_bodies; i++) {
        const mesh_spec *spec = &p->meshes[i];
        snprintf(sub, sizeof sub, "bodies[%d].mesh", i);
        ipcc_mesh *mesh = NULL;
        ipcc_status st;
        ipcc_scene_mesh_source *source = &scene->body_sources[i];
        if (spec->file) {
            char *full = NULL;
            const char *file = ipcc_scene_relative(p, spec->file, &full);
            if (!file) return ipcc_scene_fail_at(p, IPCC_ERR_NO_MEMORY, sub, "out of memory");
            if (!(source->path = ipcc_scene_copy_string(file))) {
                free(full);
                return ipcc_scene_fail_at(p, IPCC_ERR_NO_MEMORY, sub, "out of memory");
            }
            ipcc_clear_error();
            st = ipcc_mesh_read(file, &mesh);
            if (st != IPCC_OK) {
                char reason[MESSAGE_LEN];
                snprintf(reason, sizeof reason, "%s", ipcc_last_error());
                st = reason[0] ? ipcc_scene_fail_at(p, st, sub, "%s", reason)
                               : ipcc_scene_fail_at(p, st, sub, "cannot read mesh \"%s\" (%s)", file,
                                                    ipcc_status_name(st));
            }
            free(full);
        } else {
            memcpy(source->cells, spec->cells, sizeof source->cells);
            memcpy(source->size, spec->size, sizeof source->size);
            ipcc_clear_error();
            st = ipcc_mesh_create_box(spec->cells[0], spec->cells[1], spec->cells[2], spec->size, &mesh);
            if (st != IPCC_OK) {
                char reason[MESSAGE_LEN];
                snprintf(reason, sizeof reason, "%s", ipcc_last_error());
                st = ipcc_scene_fail_at(p, st, sub, "cannot create box mesh: %s",
                                        reason[0] ? reason : ipcc_status_name(st));
            }
        }
        if (st != IPCC_OK) {
            ipcc_mesh_destroy(mesh);
            return st;
        }
        scene->bodies[i].mesh = mesh;
    }
    return IPCC_OK;
}
