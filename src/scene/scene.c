// JSON scene files: parse, validate, and turn into world and body defs.
//
// The format is specified in docs/scene-format.md; the key names there are a
// contract. Parsing runs in three passes so that cheap mistakes are reported
// before any slow work is done:
//
//   1. Text: `//` and `/* */` comments are blanked out with spaces (newlines
//      are kept, string literals are left alone), so that cJSON's error
//      pointer still maps onto the user's line and column.
//   2. Values: every object is checked for unknown keys (with a "did you
//      mean" suggestion when the edit distance is small) and duplicate keys
//      (cJSON keeps both silently), then every value for type and range.
//      Defaults come from ipcc_default_world_def() and friends, so the scene
//      format and the C API cannot drift apart.
//   3. Meshes: files are read (paths relative to the scene's folder) or box
//      meshes generated, only once the whole scene is known to be valid.
//
//      Indices that depend on the meshes (Dirichlet/Neumann vertex lists,
//      the world vertex ranges of scripted stops) are checked here too.
//
// Files: this one holds the passes, bodies, materials and the public API;
// scene_json.c the messages and typed getters; scene_regions.c a body's
// "regions" (materials per mesh region); scene_obstacles.c the
// "contact" and "obstacles" keys, scene_shapes.c the analytic obstacles
// among them (scene_parser.h is their shared state);
// scene_write.c writes a scene back as JSON. IPC `.txt` scripts are loaded
// by scene_ipc.c into the same ipcc_scene; ipcc_scene_load_with_options()
// picks the reader by extension.
//
// Ownership: the scene owns everything its defs point at (names, meshes,
// Dirichlet and Neumann arrays and their vertex lists, the tolerance
// schedule, body_sources, obstacle_paths, shapes and shape_sources);
// ipcc_scene_destroy() frees them all and accepts NULL in any of them, so
// scene_ipc.c builds scenes the same way.
//
// Failure modes: every problem is a negative status plus a message of the form
// `<scene>: <key path>: <what>` (or `<scene>:<line>:<column>: ...` for syntax
// errors). IPCC_ERR_PARSE is bad JSON, IPCC_ERR_INVALID_ARGUMENT a bad key or
// value, IPCC_ERR_IO an unreadable file; a mesh reader's status and message are
// passed on, prefixed with the key path. Nothing leaks on any error path: a
// partially built scene is released with ipcc_scene_destroy(), which accepts
// NULL fields.
#include "ipcc/scene.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/core.h"
#include "scene/ipc/scene_ipc.h"
#include "scene/scene_parser.h"

// ---------------------------------------------------------------------------
// Objects

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

static ipcc_status parse_materials(parser *p, const cJSON *obj) {
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

// "material": a name from "materials" or an inline object.
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

static ipcc_status parse_bodies(parser *p, const cJSON *root, ipcc_scene *scene) {
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

// "tolerance": a number, or a per-step schedule [t0, t1, ...] (step n uses
// item min(n, K - 1)); the scene owns the schedule, newton_tolerance = t0.
static ipcc_status parse_tolerance(const parser *p, const cJSON *obj, ipcc_world_def *w) {
    const cJSON *tol = ipcc_scene_get(obj, "tolerance");
    if (!cJSON_IsArray(tol))
        return ipcc_scene_get_number(p, obj, "newton", "tolerance", POSITIVE, &w->newton_tolerance);
    int n = cJSON_GetArraySize(tol), i = 0;
    if (n == 0)
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, "newton.tolerance",
                                  "must not be an empty array (give a number, or one tolerance per step)");
    for (const cJSON *c = tol->child; c; c = c->next, i++)
        if (!cJSON_IsNumber(c) || !isfinite(c->valuedouble) || !(c->valuedouble > 0))
            return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, "newton.tolerance",
                                      "item %d: expected a finite number > 0 (got %s)", i,
                                      cJSON_IsNumber(c) ? "a number out of range"
                                                        : ipcc_scene_json_type_name(c));
    double *t = malloc((size_t)n * sizeof *t);
    if (!t) return ipcc_scene_fail_at(p, IPCC_ERR_NO_MEMORY, "newton.tolerance", "out of memory");
    i = 0;
    for (const cJSON *c = tol->child; c; c = c->next, i++)
        t[i] = c->valuedouble;
    w->tolerances = t;
    w->num_tolerances = n;
    w->newton_tolerance = t[0];
    return IPCC_OK;
}

static ipcc_status parse_newton(const parser *p, const cJSON *obj, ipcc_world_def *w) {
    static const char *const keys[] = {"tolerance", "max_iterations", "project_hessian", "check_forces",
                                       NULL};
    ipcc_status st = ipcc_scene_check_object(p, obj, "newton", keys);
    if (st != IPCC_OK) return st;
    if ((st = parse_tolerance(p, obj, w)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_int(p, obj, "newton", "max_iterations", 1, &w->newton_max_iterations)) !=
        IPCC_OK)
        return st;
    if ((st = ipcc_scene_get_bool(p, obj, "newton", "check_forces", &w->newton_check_forces)) != IPCC_OK)
        return st;
    return ipcc_scene_get_bool(p, obj, "newton", "project_hessian", &w->project_hessian);
}

static ipcc_status parse_output(const parser *p, const cJSON *obj, ipcc_scene *scene) {
    static const char *const keys[] = {"directory", "fps", "checkpoint_every", "contacts", "compress", NULL};
    ipcc_status st = ipcc_scene_check_object(p, obj, "output", keys);
    if (st != IPCC_OK) return st;
    const char *dir = NULL;
    if ((st = ipcc_scene_get_string(p, obj, "output", "directory", &dir)) != IPCC_OK) return st;
    if (dir) {
        free(scene->output_directory);
        if (!(scene->output_directory = ipcc_scene_copy_string(dir)))
            return ipcc_scene_fail_at(p, IPCC_ERR_NO_MEMORY, "output.directory", "out of memory");
    }
    if ((st = ipcc_scene_get_int(p, obj, "output", "checkpoint_every", 0, &scene->checkpoint_every)) !=
        IPCC_OK)
        return st;
    if ((st = ipcc_scene_get_bool(p, obj, "output", "contacts", &scene->output_contacts)) != IPCC_OK)
        return st;
    bool compress = !scene->output_uncompressed;
    if ((st = ipcc_scene_get_bool(p, obj, "output", "compress", &compress)) != IPCC_OK) return st;
    scene->output_uncompressed = !compress;
    return ipcc_scene_get_number(p, obj, "output", "fps", NON_NEGATIVE, &scene->output_fps);
}

const char *const ipcc_scene_integrator_names[] = {"implicit_euler", "newmark", "static", NULL};
const ipcc_integrator ipcc_scene_integrator_values[] = {IPCC_IMPLICIT_EULER, IPCC_NEWMARK, IPCC_STATIC};

// "newmark": {"beta": (0, 0.5], "gamma": [0.5, 1]}.
static ipcc_status parse_newmark(const parser *p, const cJSON *obj, ipcc_world_def *w) {
    static const char *const keys[] = {"beta", "gamma", NULL};
    ipcc_status st = ipcc_scene_check_object(p, obj, "newmark", keys);
    if (st != IPCC_OK) return st;
    if ((st = ipcc_scene_get_number(p, obj, "newmark", "beta", ANY, &w->newmark_beta)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_number(p, obj, "newmark", "gamma", ANY, &w->newmark_gamma)) != IPCC_OK)
        return st;
    if (!(w->newmark_beta > 0 && w->newmark_beta <= 0.5))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, "newmark.beta",
                                  "must be in (0, 0.5] (got %g)", w->newmark_beta);
    if (!(w->newmark_gamma >= 0.5 && w->newmark_gamma <= 1))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, "newmark.gamma",
                                  "must be in [0.5, 1] (got %g)", w->newmark_gamma);
    return IPCC_OK;
}

static ipcc_status parse_root(parser *p, const cJSON *root, ipcc_scene *scene) {
    static const char *const keys[] = {"time_step", "duration",     "steps",     "gravity", "integrator",
                                       "newmark",   "length_scale", "damping",   "newton",  "contact",
                                       "materials", "bodies",       "obstacles", "output",  NULL};
    if (!cJSON_IsObject(root))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, NULL,
                                  "expected an object at the top level (got %s)",
                                  ipcc_scene_json_type_name(root));
    ipcc_status st = ipcc_scene_check_object(p, root, "", keys);
    if (st != IPCC_OK) return st;
    ipcc_world_def *w = &scene->world;
    if ((st = ipcc_scene_get_number(p, root, "", "time_step", POSITIVE, &w->time_step)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_vec3(p, root, "", "gravity", w->gravity)) != IPCC_OK) return st;
    const char *integrator = NULL;
    if ((st = ipcc_scene_get_string(p, root, "", "integrator", &integrator)) != IPCC_OK) return st;
    if (integrator) {
        int i = 0;
        while (ipcc_scene_integrator_names[i] && strcmp(ipcc_scene_integrator_names[i], integrator) != 0)
            i++;
        if (!ipcc_scene_integrator_names[i])
            return ipcc_scene_fail_choice(p, "integrator", "integrator", integrator,
                                          ipcc_scene_integrator_names);
        w->integrator = ipcc_scene_integrator_values[i];
    }
    if ((st = ipcc_scene_get_number(p, root, "", "length_scale", POSITIVE, &w->length_scale)) != IPCC_OK)
        return st;
    if ((st = ipcc_scene_get_number(p, root, "", "damping", NON_NEGATIVE, &w->damping)) != IPCC_OK) return st;
    const cJSON *newmark = ipcc_scene_get(root, "newmark");
    if (newmark && (st = parse_newmark(p, newmark, w)) != IPCC_OK) return st;
    scene->duration = 0;
    scene->num_steps = 0;
    if ((st = ipcc_scene_get_int(p, root, "", "steps", 1, &scene->num_steps)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_number(p, root, "", "duration", POSITIVE, &scene->duration)) != IPCC_OK)
        return st;
    if (!ipcc_scene_get(root, "duration")) {
        if (scene->num_steps > 0)
            scene->duration = scene->num_steps * w->time_step;
        else if (w->integrator == IPCC_STATIC)
            scene->duration = w->time_step;
        else
            return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, "duration",
                                      "missing (required unless \"steps\" is given or \"integrator\" is "
                                      "\"static\")");
    }
    if (scene->num_steps == 0 && !(scene->duration / w->time_step <= MAX_SCENE_STEPS))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, "duration",
                                  "%g s at a time_step of %g s is more than %g steps", scene->duration,
                                  w->time_step, MAX_SCENE_STEPS);
    const cJSON *newton = ipcc_scene_get(root, "newton");
    if (newton && (st = parse_newton(p, newton, w)) != IPCC_OK) return st;
    const cJSON *materials = ipcc_scene_get(root, "materials");
    if (materials && (st = parse_materials(p, materials)) != IPCC_OK) return st;
    if ((st = parse_bodies(p, root, scene)) != IPCC_OK) return st;
    const cJSON *contact = ipcc_scene_get(root, "contact");
    if (contact && (st = ipcc_scene_parse_contact(p, contact, &w->contact)) != IPCC_OK) return st;
    const cJSON *obstacles = ipcc_scene_get(root, "obstacles");
    if (obstacles && (st = ipcc_scene_parse_obstacles(p, obstacles, scene)) != IPCC_OK) return st;
    const cJSON *output = ipcc_scene_get(root, "output");
    if (output && (st = parse_output(p, output, scene)) != IPCC_OK) return st;
    return IPCC_OK;
}

// ---------------------------------------------------------------------------
// Meshes (third pass)

static ipcc_status load_meshes(const parser *p, ipcc_scene *scene) {
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
    return ipcc_scene_load_obstacle_meshes(p, scene);
}

// A body-local vertex list against the body's mesh.
static ipcc_status check_vertex_list(const parser *p, int body, const char *key, int entry, int n,
                                     const int *vertices, int num_vertices) {
    for (int k = 0; k < n; k++) {
        if (vertices[k] >= num_vertices)
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                             "%s: bodies[%d].%s[%d].vertices: item %d (%d) is out of range (the mesh has %d "
                             "vertices)",
                             p->name, body, key, entry, k, vertices[k], num_vertices);
    }
    return IPCC_OK;
}

// A stop's world vertex range against the world's vertices (bodies first,
// then obstacles, in scene order).
static ipcc_status check_stop(const parser *p, const char *where, const ipcc_stop_trigger *s, int total) {
    if (s->axis < 0 || (long)s->first_vertex + s->num_vertices <= total) return IPCC_OK;
    return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                     "%s: %s.stop.vertices: [%d, %d] reaches past the last world vertex (%d vertices: the "
                     "bodies', then the obstacles')",
                     p->name, where, s->first_vertex, s->num_vertices, total);
}

// Third-pass checks of indices that need the meshes.
static ipcc_status check_indices(const parser *p, const ipcc_scene *scene) {
    int total = 0;
    for (int i = 0; i < scene->num_bodies; i++)
        total += scene->bodies[i].mesh->num_vertices;
    for (int i = 0; i < scene->num_obstacles; i++)
        total += scene->obstacles[i].mesh->num_vertices;
    char where[PATH_LEN];
    ipcc_status st;
    for (int i = 0; i < scene->num_bodies; i++) {
        const ipcc_body_def *b = &scene->bodies[i];
        int nv = b->mesh->num_vertices;
        for (int j = 0; j < b->num_dirichlet; j++) {
            const ipcc_dirichlet_def *d = &b->dirichlet[j];
            if ((st = check_vertex_list(p, i, "dirichlet", j, d->num_vertices, d->vertices, nv)) != IPCC_OK)
                return st;
            snprintf(where, sizeof where, "bodies[%d].dirichlet[%d]", i, j);
            if ((st = check_stop(p, where, &d->stop, total)) != IPCC_OK) return st;
        }
        for (int j = 0; j < b->num_neumann; j++) {
            const ipcc_neumann_def *n = &b->neumann[j];
            if ((st = check_vertex_list(p, i, "neumann", j, n->num_vertices, n->vertices, nv)) != IPCC_OK)
                return st;
        }
    }
    for (int i = 0; i < scene->num_obstacles; i++) {
        snprintf(where, sizeof where, "obstacles[%d]", p->obstacle_index[i]);
        if ((st = check_stop(p, where, &scene->obstacles[i].stop, total)) != IPCC_OK) return st;
    }
    return IPCC_OK;
}

// ---------------------------------------------------------------------------
// Text

bool ipcc_scene_blank_comments(char *s, size_t *unterminated_at) {
    enum { CODE, STRING, LINE, BLOCK } state = CODE;
    size_t block_start = 0;
    for (size_t i = 0; s[i]; i++) {
        switch (state) {
        case CODE:
            if (s[i] == '"') {
                state = STRING;
            } else if (s[i] == '/' && (s[i + 1] == '/' || s[i + 1] == '*')) {
                state = s[i + 1] == '/' ? LINE : BLOCK;
                block_start = i;
                s[i] = s[i + 1] = ' ';
                i++;
            }
            break;
        case STRING:
            if (s[i] == '\\' && s[i + 1])
                i++;
            else if (s[i] == '"')
                state = CODE;
            break;
        case LINE:
            if (s[i] == '\n')
                state = CODE;
            else
                s[i] = ' ';
            break;
        case BLOCK:
            if (s[i] == '*' && s[i + 1] == '/') {
                s[i] = s[i + 1] = ' ';
                i++;
                state = CODE;
            } else if (s[i] != '\n' && s[i] != '\r') {
                s[i] = ' ';
            }
            break;
        }
    }
    *unterminated_at = block_start;
    return state != BLOCK;
}

// The parser's use: an unterminated comment is an error naming its line and column.
static ipcc_status strip_comments(const parser *p, char *s) {
    size_t block_start;
    if (ipcc_scene_blank_comments(s, &block_start)) return IPCC_OK;
    int line = 1, col = 1;
    for (size_t i = 0; i < block_start; i++) {
        if (s[i] == '\n')
            line++, col = 1;
        else
            col++;
    }
    return ipcc_fail(IPCC_ERR_PARSE, "%s:%d:%d: unterminated /* comment", p->name, line, col);
}

// Nesting depth of arrays and objects at `where` (brackets inside strings do
// not count), to tell cJSON's nesting limit from a plain syntax error.
static int json_depth(const char *text, const char *where) {
    int depth = 0, in_string = 0;
    for (const char *c = text; c < where && *c; c++) {
        if (in_string) {
            if (*c == '\\' && c + 1 < where && c[1])
                c++;
            else if (*c == '"')
                in_string = 0;
        } else if (*c == '"') {
            in_string = 1;
        } else if (*c == '[' || *c == '{') {
            depth++;
        } else if (*c == ']' || *c == '}') {
            depth--;
        }
    }
    return depth;
}

static ipcc_status syntax_error(const parser *p, const char *text, const char *where) {
    size_t blank = strspn(text, " \t\r\n");
    if (!text[blank])
        return ipcc_fail(IPCC_ERR_PARSE, "%s: no JSON value (the file is empty or holds only comments)",
                         p->name);
    int line = 1, col = 1;
    for (const char *c = text; c < where && *c; c++) {
        if (*c == '\n')
            line++, col = 1;
        else
            col++;
    }
    if ((*where == '[' || *where == '{') && json_depth(text, where) >= CJSON_NESTING_LIMIT)
        return ipcc_fail(IPCC_ERR_PARSE, "%s:%d:%d: arrays and objects nested deeper than %d levels", p->name,
                         line, col, CJSON_NESTING_LIMIT);
    char near[24];
    size_t n = 0;
    while (where[n] && where[n] != '\n' && where[n] != '\r' && n < sizeof near - 1)
        n++;
    memcpy(near, where, n);
    near[n] = '\0';
    while (n > 0 && (near[n - 1] == ' ' || near[n - 1] == '\t'))
        near[--n] = '\0';
    if (!where[0] || n == 0)
        return ipcc_fail(IPCC_ERR_PARSE, "%s:%d:%d: JSON syntax error (unexpected end of line or text)",
                         p->name, line, col);
    return ipcc_fail(IPCC_ERR_PARSE, "%s:%d:%d: JSON syntax error near '%s'", p->name, line, col, near);
}

// ---------------------------------------------------------------------------
// Public API

static ipcc_status parse_text(const char *text, const char *name, const char *base_dir,
                              const ipcc_scene_options *options, ipcc_scene **out) {
    IPCC_ASSERT(text && out);
    *out = NULL;
    parser p = {.name = name ? name : "<string>", .base_dir = base_dir};

    // Skip a UTF-8 byte order mark.
    if ((unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB && (unsigned char)text[2] == 0xBF)
        text += 3;
    char *copy = ipcc_scene_copy_string(text);
    ipcc_scene *scene = calloc(1, sizeof *scene);
    if (!copy || !scene) {
        free(copy);
        free(scene);
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory", p.name);
    }
    ipcc_status st = IPCC_OK;
    cJSON *root = NULL;
    scene->path = ipcc_scene_copy_string(p.name);
    scene->output_directory = ipcc_scene_copy_string("out");
    scene->checkpoint_every = 10;
    scene->format = "json";
    scene->world = ipcc_default_world_def();
    // Newmark's defaults, should the world's defaults predate them.
    if (scene->world.newmark_beta == 0) scene->world.newmark_beta = 0.25;
    if (scene->world.newmark_gamma == 0) scene->world.newmark_gamma = 0.5;
    if (!scene->path || !scene->output_directory) {
        st = ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory", p.name);
        goto done;
    }
    if ((st = strip_comments(&p, copy)) != IPCC_OK) goto done;
    const char *end = NULL;
    root = cJSON_ParseWithOpts(copy, &end, true);
    if (!root) {
        st = syntax_error(&p, copy, end ? end : copy);
        goto done;
    }
    if (options && options->num_overrides > 0 &&
        (st = ipcc_scene_apply_overrides(p.name, root, options->num_overrides, options->overrides)) !=
            IPCC_OK)
        goto done;
    if ((st = parse_root(&p, root, scene)) != IPCC_OK) goto done;
    if ((st = load_meshes(&p, scene)) != IPCC_OK) goto done;
    if ((st = ipcc_scene_resolve_regions(&p, scene)) != IPCC_OK) goto done;
    st = check_indices(&p, scene);

done:
    cJSON_Delete(root);
    free(copy);
    free(p.materials);
    free(p.meshes);
    free(p.obstacle_kind);
    free(p.obstacle_index);
    if (st != IPCC_OK) {
        ipcc_scene_destroy(scene);
        return st;
    }
    *out = scene;
    return IPCC_OK;
}

ipcc_status ipcc_scene_parse(const char *text, const char *name, const char *base_dir, ipcc_scene **out) {
    return parse_text(text, name, base_dir, NULL, out);
}

ipcc_status ipcc_scene_load(const char *path, ipcc_scene **out) {
    return ipcc_scene_load_with_options(path, NULL, out);
}

ipcc_status ipcc_scene_load_with_options(const char *path, const ipcc_scene_options *options,
                                         ipcc_scene **out) {
    IPCC_ASSERT(path && out);
    *out = NULL;
    if (ipcc_scene_has_extension(path, "txt") || ipcc_scene_has_extension(path, "ipc")) {
        if (options && options->num_overrides > 0)
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                             "%s: --set applies to JSON scenes; convert the script first (ipcc convert)",
                             path);
        return ipcc_scene_load_ipc(path, options && options->strict, out);
    }
    FILE *f = fopen(path, "rb");
    if (!f) return ipcc_fail(IPCC_ERR_IO, "cannot read scene \"%s\": %s", path, strerror(errno));
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (cap - len < 4096) {
            size_t ncap = cap ? 2 * cap : 16384;
            char *t = realloc(text, ncap + 1);
            if (!t) {
                free(text);
                fclose(f);
                return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory", path);
            }
            text = t;
            cap = ncap;
        }
        size_t got = fread(text + len, 1, cap - len, f);
        len += got;
        if (got == 0) break;
    }
    int read_error = ferror(f), read_errno = errno; // EISDIR: the scene is a folder
    fclose(f);
    text[len] = '\0';
    if (read_error) {
        free(text);
        return ipcc_fail(IPCC_ERR_IO, "cannot read scene \"%s\": %s", path,
                         read_errno ? strerror(read_errno) : "read error");
    }
    if (strlen(text) != len) {
        size_t at = strlen(text);
        free(text);
        return ipcc_fail(IPCC_ERR_PARSE, "%s: NUL byte at offset %zu (not a text file?)", path, at);
    }

    // Mesh paths are relative to the scene's folder.
    char *base = ipcc_scene_copy_string(path);
    if (!base) {
        free(text);
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory", path);
    }
    char *slash = strrchr(base, '/');
    if (!slash)
        base[0] = '\0';
    else if (slash == base)
        base[1] = '\0';
    else
        *slash = '\0';
    ipcc_status st = parse_text(text, path, base[0] ? base : NULL, options, out);
    free(base);
    free(text);
    return st;
}

ipcc_status ipcc_scene_create_world(const ipcc_scene *scene, ipcc_world **out) {
    IPCC_ASSERT(scene && out);
    *out = NULL;
    ipcc_world *world = NULL;
    ipcc_status st = ipcc_world_create(&scene->world, &world);
    if (st < 0) {
        char reason[MESSAGE_LEN];
        snprintf(reason, sizeof reason, "%s", ipcc_last_error());
        return ipcc_fail(st, "%s: %s", scene->path, reason);
    }
    for (int i = 0; i < scene->num_bodies; i++) {
        st = ipcc_world_add_body(world, &scene->bodies[i], NULL);
        if (st < 0) {
            char reason[MESSAGE_LEN];
            snprintf(reason, sizeof reason, "%s", ipcc_last_error());
            ipcc_world_destroy(world);
            const char *name = scene->bodies[i].name;
            if (name) return ipcc_fail(st, "%s: bodies[%d] (\"%s\"): %s", scene->path, i, name, reason);
            return ipcc_fail(st, "%s: bodies[%d]: %s", scene->path, i, reason);
        }
    }
    for (int i = 0; i < scene->num_obstacles; i++) {
        st = ipcc_world_add_obstacle(world, &scene->obstacles[i], NULL);
        if (st < 0) {
            char reason[MESSAGE_LEN];
            snprintf(reason, sizeof reason, "%s", ipcc_last_error());
            ipcc_world_destroy(world);
            return ipcc_fail(st, "%s: obstacles: %s", scene->path, reason);
        }
    }
    for (int i = 0; i < scene->num_half_spaces; i++) {
        st = ipcc_world_add_half_space(world, &scene->half_spaces[i], NULL);
        if (st < 0) {
            char reason[MESSAGE_LEN];
            snprintf(reason, sizeof reason, "%s", ipcc_last_error());
            ipcc_world_destroy(world);
            return ipcc_fail(st, "%s: obstacles: %s", scene->path, reason);
        }
    }
    if ((st = ipcc_scene_add_shapes(scene, world)) < 0) {
        ipcc_world_destroy(world);
        return st;
    }
    *out = world;
    return IPCC_OK;
}

void ipcc_scene_destroy(ipcc_scene *scene) {
    if (!scene) return;
    for (int i = 0; scene->bodies && i < scene->num_bodies; i++) {
        ipcc_body_def *b = &scene->bodies[i];
        // The scene owns what its body defs point at (the defs are const for callers).
        free((void *)b->name);
        for (int j = 0; b->dirichlet && j < b->num_dirichlet; j++)
            free((void *)b->dirichlet[j].vertices);
        free((void *)b->dirichlet);
        for (int j = 0; b->neumann && j < b->num_neumann; j++)
            free((void *)b->neumann[j].vertices);
        free((void *)b->neumann);
        free((void *)b->materials);
        free((void *)b->tet_materials);
        ipcc_mesh_destroy((ipcc_mesh *)b->mesh);
    }
    free(scene->bodies);
    for (int i = 0; scene->body_sources && i < scene->num_bodies; i++)
        free(scene->body_sources[i].path);
    free(scene->body_sources);
    for (int i = 0; scene->obstacles && i < scene->num_obstacles; i++) {
        free((void *)scene->obstacles[i].name);
        ipcc_trimesh_destroy((ipcc_trimesh *)scene->obstacles[i].mesh);
    }
    free(scene->obstacles);
    for (int i = 0; scene->obstacle_paths && i < scene->num_obstacles; i++)
        free(scene->obstacle_paths[i]);
    free(scene->obstacle_paths);
    ipcc_scene_free_shapes(scene);
    free((void *)scene->world.tolerances);
    for (int i = 0; scene->half_spaces && i < scene->num_half_spaces; i++)
        free((void *)scene->half_spaces[i].name);
    free(scene->half_spaces);
    free(scene->path);
    free(scene->output_directory);
    free(scene);
}
