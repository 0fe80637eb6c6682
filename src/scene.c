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
// Files: this one holds the passes, bodies, materials and the public API;
// scene_json.c the messages and typed getters; scene_obstacles.c the
// "contact" and "obstacles" keys (scene_parser.h is their shared state).
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

#include "core.h"
#include "scene_parser.h"

// ---------------------------------------------------------------------------
// Objects

static const char *const model_names[] = {"neo_hookean", "fixed_corotated", "stvk", "linear", NULL};
static const ipcc_material_model model_values[] = {IPCC_NEO_HOOKEAN, IPCC_FIXED_COROTATED, IPCC_STVK,
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
        while (model_names[i] && strcmp(model_names[i], model) != 0)
            i++;
        ipcc_scene_key_path(sub, path, "model");
        if (!model_names[i]) return ipcc_scene_fail_choice(p, sub, "material model", model, model_names);
        m->model = model_values[i];
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
static ipcc_status parse_body_material(const parser *p, const cJSON *item, const char *sub,
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

static ipcc_status parse_dirichlet(const parser *p, const cJSON *obj, const char *path,
                                   ipcc_dirichlet_def *d) {
    static const char *const keys[] = {"min", "max", "velocity", "angular_velocity", "start", "end", NULL};
    ipcc_status st = ipcc_scene_check_object(p, obj, path, keys);
    if (st != IPCC_OK) return st;
    *d = ipcc_default_dirichlet_def();
    if ((st = ipcc_scene_get_vec3(p, obj, path, "min", d->box_min)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_vec3(p, obj, path, "max", d->box_max)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_vec3(p, obj, path, "velocity", d->velocity)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_vec3(p, obj, path, "angular_velocity", d->angular_velocity)) != IPCC_OK)
        return st;
    if ((st = ipcc_scene_get_number(p, obj, path, "start", ANY, &d->start)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_number(p, obj, path, "end", ANY, &d->end)) != IPCC_OK) return st;
    char sub[PATH_LEN];
    for (int k = 0; k < 3; k++) {
        if (d->box_min[k] > d->box_max[k]) {
            ipcc_scene_key_path(sub, path, "max");
            return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "item %d (%g) is below min's (%g)",
                                      k, d->box_max[k], d->box_min[k]);
        }
    }
    if (!(d->end >= d->start)) {
        ipcc_scene_key_path(sub, path, "end");
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "must be >= start (got %g < %g)", d->end,
                                  d->start);
    }
    return IPCC_OK;
}

static ipcc_status parse_body(parser *p, const cJSON *obj, const char *path, int index, ipcc_scene *scene) {
    static const char *const keys[] = {"name",      "mesh",     "material", "translation",
                                       "rotation",  "scale",    "velocity", "angular_velocity",
                                       "dirichlet", "friction", NULL};
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
    if ((st = parse_body_material(p, material, sub, &b->material)) != IPCC_OK) return st;

    if ((st = ipcc_scene_get_vec3(p, obj, path, "translation", b->translation)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_vec3(p, obj, path, "rotation", b->rotation)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_scale(p, obj, path, b->scale)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_vec3(p, obj, path, "velocity", b->velocity)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_vec3(p, obj, path, "angular_velocity", b->angular_velocity)) != IPCC_OK)
        return st;
    if ((st = ipcc_scene_get_number(p, obj, path, "friction", NON_NEGATIVE, &b->friction)) != IPCC_OK)
        return st;

    const cJSON *dirichlet = ipcc_scene_get(obj, "dirichlet");
    if (dirichlet) {
        ipcc_scene_key_path(sub, path, "dirichlet");
        if (!cJSON_IsArray(dirichlet))
            return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub,
                                      "expected an array of objects (got %s)",
                                      ipcc_scene_json_type_name(dirichlet));
        int n = cJSON_GetArraySize(dirichlet);
        if (n > 0) {
            ipcc_dirichlet_def *d = calloc((size_t)n, sizeof *d);
            if (!d) return ipcc_scene_fail_at(p, IPCC_ERR_NO_MEMORY, sub, "out of memory");
            b->dirichlet = d;
            int i = 0;
            char entry[PATH_LEN];
            for (const cJSON *c = dirichlet->child; c; c = c->next, i++) {
                ipcc_scene_index_path(entry, sub, i);
                if ((st = parse_dirichlet(p, c, entry, &d[i])) != IPCC_OK) return st;
                b->num_dirichlet = i + 1;
            }
        }
    }
    return IPCC_OK;
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
    p->meshes = calloc((size_t)n, sizeof *p->meshes);
    if (!scene->bodies || !p->meshes)
        return ipcc_scene_fail_at(p, IPCC_ERR_NO_MEMORY, "bodies", "out of memory");
    scene->num_bodies = n;
    for (int i = 0; i < n; i++) {
        // Until its mesh is loaded a body owns nothing; destroy frees only what parse_body set.
        scene->bodies[i] = ipcc_default_body_def();
        scene->bodies[i].name = NULL;
        scene->bodies[i].mesh = NULL;
        scene->bodies[i].dirichlet = NULL;
        scene->bodies[i].num_dirichlet = 0;
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

static ipcc_status parse_newton(const parser *p, const cJSON *obj, ipcc_world_def *w) {
    static const char *const keys[] = {"tolerance", "max_iterations", "project_hessian", NULL};
    ipcc_status st = ipcc_scene_check_object(p, obj, "newton", keys);
    if (st != IPCC_OK) return st;
    if ((st = ipcc_scene_get_number(p, obj, "newton", "tolerance", POSITIVE, &w->newton_tolerance)) !=
        IPCC_OK)
        return st;
    if ((st = ipcc_scene_get_int(p, obj, "newton", "max_iterations", 1, &w->newton_max_iterations)) !=
        IPCC_OK)
        return st;
    return ipcc_scene_get_bool(p, obj, "newton", "project_hessian", &w->project_hessian);
}

static ipcc_status parse_output(const parser *p, const cJSON *obj, ipcc_scene *scene) {
    static const char *const keys[] = {"directory", "fps", NULL};
    ipcc_status st = ipcc_scene_check_object(p, obj, "output", keys);
    if (st != IPCC_OK) return st;
    const char *dir = NULL;
    if ((st = ipcc_scene_get_string(p, obj, "output", "directory", &dir)) != IPCC_OK) return st;
    if (dir) {
        free(scene->output_directory);
        if (!(scene->output_directory = ipcc_scene_copy_string(dir)))
            return ipcc_scene_fail_at(p, IPCC_ERR_NO_MEMORY, "output.directory", "out of memory");
    }
    return ipcc_scene_get_number(p, obj, "output", "fps", NON_NEGATIVE, &scene->output_fps);
}

static const char *const integrator_names[] = {"implicit_euler", "newmark", "static", NULL};
static const ipcc_integrator integrator_values[] = {IPCC_IMPLICIT_EULER, IPCC_NEWMARK, IPCC_STATIC};

static ipcc_status parse_root(parser *p, const cJSON *root, ipcc_scene *scene) {
    static const char *const keys[] = {"time_step", "duration", "gravity",   "integrator",
                                       "newton",    "contact",  "materials", "bodies",
                                       "obstacles", "output",   NULL};
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
        while (integrator_names[i] && strcmp(integrator_names[i], integrator) != 0)
            i++;
        if (!integrator_names[i])
            return ipcc_scene_fail_choice(p, "integrator", "integrator", integrator, integrator_names);
        w->integrator = integrator_values[i];
    }
    scene->duration = 0;
    if ((st = ipcc_scene_get_number(p, root, "", "duration", POSITIVE, &scene->duration)) != IPCC_OK)
        return st;
    if (!ipcc_scene_get(root, "duration")) {
        if (w->integrator != IPCC_STATIC)
            return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, "duration",
                                      "missing (required unless \"integrator\" is \"static\")");
        scene->duration = w->time_step;
    }
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
        if (spec->file) {
            char *full = NULL;
            const char *file = ipcc_scene_relative(p, spec->file, &full);
            if (!file) return ipcc_scene_fail_at(p, IPCC_ERR_NO_MEMORY, sub, "out of memory");
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

// ---------------------------------------------------------------------------
// Text

// Blank out `//` and `/* */` comments in place (outside strings), keeping
// newlines so that line and column numbers still match the user's file.
static ipcc_status strip_comments(const parser *p, char *s) {
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
    if (state == BLOCK) {
        int line = 1, col = 1;
        for (size_t i = 0; i < block_start; i++) {
            if (s[i] == '\n')
                line++, col = 1;
            else
                col++;
        }
        return ipcc_fail(IPCC_ERR_PARSE, "%s:%d:%d: unterminated /* comment", p->name, line, col);
    }
    return IPCC_OK;
}

static ipcc_status syntax_error(const parser *p, const char *text, const char *where) {
    int line = 1, col = 1;
    for (const char *c = text; c < where && *c; c++) {
        if (*c == '\n')
            line++, col = 1;
        else
            col++;
    }
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

ipcc_status ipcc_scene_parse(const char *text, const char *name, const char *base_dir, ipcc_scene **out) {
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
    scene->world = ipcc_default_world_def();
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
    if ((st = parse_root(&p, root, scene)) != IPCC_OK) goto done;
    st = load_meshes(&p, scene);

done:
    cJSON_Delete(root);
    free(copy);
    free(p.materials);
    free(p.meshes);
    free(p.obstacle_paths);
    free(p.obstacle_index);
    if (st != IPCC_OK) {
        ipcc_scene_destroy(scene);
        return st;
    }
    *out = scene;
    return IPCC_OK;
}

ipcc_status ipcc_scene_load(const char *path, ipcc_scene **out) {
    IPCC_ASSERT(path && out);
    *out = NULL;
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
    int read_error = ferror(f);
    fclose(f);
    text[len] = '\0';
    if (read_error) {
        free(text);
        return ipcc_fail(IPCC_ERR_IO, "cannot read scene \"%s\": read error", path);
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
    ipcc_status st = ipcc_scene_parse(text, path, base[0] ? base : NULL, out);
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
        st = ipcc_world_add_half_space(world, scene->half_spaces + 7 * i, scene->half_spaces + 7 * i + 3,
                                       scene->half_spaces[7 * i + 6]);
        if (st < 0) {
            char reason[MESSAGE_LEN];
            snprintf(reason, sizeof reason, "%s", ipcc_last_error());
            ipcc_world_destroy(world);
            return ipcc_fail(st, "%s: obstacles: %s", scene->path, reason);
        }
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
        free((void *)b->dirichlet);
        ipcc_mesh_destroy((ipcc_mesh *)b->mesh);
    }
    free(scene->bodies);
    for (int i = 0; scene->obstacles && i < scene->num_obstacles; i++) {
        free((void *)scene->obstacles[i].name);
        ipcc_trimesh_destroy((ipcc_trimesh *)scene->obstacles[i].mesh);
    }
    free(scene->obstacles);
    free(scene->half_spaces);
    free(scene->path);
    free(scene->output_directory);
    free(scene);
}
