// Scene keys "contact" and "obstacles" (docs/scene-format.md): the barrier
// and friction settings, half-spaces and kinematic obstacles: triangle
// meshes (OBJ), segment sets (IPC `.seg`, or an OBJ's triangle edges) and
// point sets (IPC `.pt` or an OBJ's vertices); scene_shapes.c parses the
// analytic shapes' entries. Parsed in the second pass with the rest of the
// scene (file extensions included); the files are read in the third, after
// the whole scene is known to be valid.
#include "scene/scene_obstacles.h"

#include <stdio.h>
#include <string.h>

#include "scene/scene_shapes.h"

ipcc_status ipcc_scene_parse_contact(const parser *p, const cJSON *obj, ipcc_contact_def *c) {
    static const char *const keys[] = {"enabled",
                                       "dhat",
                                       "kappa",
                                       "self_collision",
                                       "friction",
                                       "friction_epsv",
                                       "friction_iterations",
                                       "friction_smoothing_time",
                                       "friction_slip_test",
                                       NULL};
    ipcc_status st = ipcc_scene_check_object(p, obj, "contact", keys);
    if (st != IPCC_OK) return st;
    if ((st = ipcc_scene_get_bool(p, obj, "contact", "enabled", &c->enabled)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_number(p, obj, "contact", "dhat", POSITIVE, &c->dhat)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_number(p, obj, "contact", "kappa", POSITIVE, &c->kappa)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_bool(p, obj, "contact", "self_collision", &c->self_collision)) != IPCC_OK)
        return st;
    if ((st = ipcc_scene_get_number(p, obj, "contact", "friction", NON_NEGATIVE, &c->friction)) != IPCC_OK)
        return st;
    if ((st = ipcc_scene_get_number(p, obj, "contact", "friction_epsv", POSITIVE, &c->friction_epsv)) !=
        IPCC_OK)
        return st;
    if ((st = ipcc_scene_get_number(p, obj, "contact", "friction_smoothing_time", NON_NEGATIVE,
                                    &c->friction_smoothing_time)) != IPCC_OK)
        return st;
    // Replaced by newton.check_forces (docs/scene-format.md): still a bool,
    // but ignored, so scenes written before still run.
    bool slip_test = true;
    if ((st = ipcc_scene_get_bool(p, obj, "contact", "friction_slip_test", &slip_test)) != IPCC_OK) return st;
    if (ipcc_scene_get(obj, "friction_slip_test"))
        ipcc_log(IPCC_LOG_WARNING,
                 "%s: contact.friction_slip_test is ignored: newton.check_forces replaces it", p->name);
    const cJSON *iters = ipcc_scene_get(obj, "friction_iterations");
    if (iters && !(ipcc_scene_is_int_value(iters, -1) && iters->valuedouble != 0))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, "contact.friction_iterations",
                                  "expected an integer >= 1, or -1 for \"until converged\"");
    return ipcc_scene_get_int(p, obj, "contact", "friction_iterations", -1, &c->friction_iterations);
}

static ipcc_status parse_half_space(const parser *p, const cJSON *obj, const char *path,
                                    ipcc_half_space_def *h) {
    static const char *const keys[] = {"type", "name", "point", "normal", "friction", NULL};
    *h = ipcc_default_half_space_def(); // friction not set: contact.friction, or 0; no name
    ipcc_status st = ipcc_scene_check_object(p, obj, path, keys);
    if (st != IPCC_OK) return st;
    const char *name = NULL;
    if ((st = ipcc_scene_get_string(p, obj, path, "name", &name)) != IPCC_OK) return st;
    if (name && !(h->name = ipcc_scene_copy_string(name)))
        return ipcc_scene_fail_at(p, IPCC_ERR_NO_MEMORY, path, "out of memory");
    if ((st = ipcc_scene_get_vec3(p, obj, path, "point", h->point)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_vec3(p, obj, path, "normal", h->normal)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_number(p, obj, path, "friction", NON_NEGATIVE, &h->friction)) != IPCC_OK)
        return st;
    return ipcc_scene_check_normal(p, path, h->normal);
}

// The file a segments or points obstacle reads must say how by its extension.
static ipcc_status check_obstacle_file(const parser *p, const char *path, obstacle_kind kind,
                                       const char *file) {
    char sub[PATH_LEN];
    ipcc_scene_key_path(sub, path, "path");
    if (kind == OBSTACLE_SEGMENTS && !ipcc_scene_has_extension(file, "seg") &&
        !ipcc_scene_has_extension(file, "obj"))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub,
                                  "a \"segments\" obstacle reads a .seg file or the edges of an .obj (got "
                                  "\"%s\")",
                                  file);
    if (kind == OBSTACLE_POINTS && !ipcc_scene_has_extension(file, "pt") &&
        !ipcc_scene_has_extension(file, "obj"))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub,
                                  "a \"points\" obstacle reads a .pt file or the vertices of an .obj (got "
                                  "\"%s\")",
                                  file);
    return IPCC_OK;
}

static ipcc_status parse_mesh_obstacle(parser *p, const cJSON *obj, const char *path, int json_index,
                                       obstacle_kind kind, ipcc_scene *scene) {
    static const char *const keys[] = {"type",  "name",      "path",     "translation",      "rotation",
                                       "scale", "transform", "velocity", "angular_velocity", "pivot",
                                       "stop",  "friction",  NULL};
    static const char *const needs[] = {"an .obj file", "a .seg or .obj file", "a .pt or .obj file"};
    ipcc_status st = ipcc_scene_check_object(p, obj, path, keys);
    if (st != IPCC_OK) return st;
    int index = scene->num_obstacles;
    ipcc_obstacle_def *o = &scene->obstacles[index];
    *o = ipcc_default_obstacle_def();
    o->stop.axis = -1;
    char sub[PATH_LEN];
    const char *name = NULL, *file = NULL;
    if ((st = ipcc_scene_get_string(p, obj, path, "name", &name)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_string(p, obj, path, "path", &file)) != IPCC_OK) return st;
    if (!file) {
        ipcc_scene_key_path(sub, path, "path");
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "missing (this obstacle needs %s)",
                                  needs[kind]);
    }
    if ((st = check_obstacle_file(p, path, kind, file)) != IPCC_OK) return st;
    p->obstacle_kind[index] = kind;
    p->obstacle_index[index] = json_index;
    scene->num_obstacles++; // owns its name and path from here on
    char *full = NULL;
    const char *resolved = ipcc_scene_relative(p, file, &full);
    if (resolved) scene->obstacle_paths[index] = full ? full : ipcc_scene_copy_string(resolved);
    if (!scene->obstacle_paths[index])
        return ipcc_scene_fail_at(p, IPCC_ERR_NO_MEMORY, path, "out of memory");
    if (name && !(o->name = ipcc_scene_copy_string(name)))
        return ipcc_scene_fail_at(p, IPCC_ERR_NO_MEMORY, path, "out of memory");
    if ((st = ipcc_scene_get_transform(p, obj, path, &o->use_transform, o->transform)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_point(p, obj, path, "pivot", &o->has_pivot, o->pivot)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_stop(p, obj, path, &o->stop)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_vec3(p, obj, path, "translation", o->translation)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_vec3(p, obj, path, "rotation", o->rotation)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_scale(p, obj, path, o->scale)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_vec3(p, obj, path, "velocity", o->velocity)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_number(p, obj, path, "friction", NON_NEGATIVE, &o->friction)) != IPCC_OK)
        return st;
    return ipcc_scene_get_vec3(p, obj, path, "angular_velocity", o->angular_velocity);
}

static const char *const obstacle_types[] = {"half_space", "mesh",     "segments",  "points", "sphere",
                                             "box",        "cylinder", "ellipsoid", "torus",  NULL};

ipcc_status ipcc_scene_parse_obstacles(parser *p, const cJSON *list, ipcc_scene *scene) {
    if (!cJSON_IsArray(list))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, "obstacles",
                                  "expected an array of objects (got %s)", ipcc_scene_json_type_name(list));
    int n = cJSON_GetArraySize(list);
    if (n == 0) return IPCC_OK;
    scene->obstacles = calloc((size_t)n, sizeof *scene->obstacles);
    scene->half_spaces = calloc((size_t)n, sizeof *scene->half_spaces);
    scene->obstacle_paths = calloc((size_t)n, sizeof *scene->obstacle_paths);
    scene->shapes = calloc((size_t)n, sizeof *scene->shapes);
    scene->shape_sources = calloc((size_t)n, sizeof *scene->shape_sources);
    p->obstacle_kind = calloc((size_t)n, sizeof *p->obstacle_kind);
    p->obstacle_index = calloc((size_t)n, sizeof *p->obstacle_index);
    if (!scene->obstacles || !scene->half_spaces || !scene->obstacle_paths || !scene->shapes ||
        !scene->shape_sources || !p->obstacle_kind || !p->obstacle_index)
        return ipcc_scene_fail_at(p, IPCC_ERR_NO_MEMORY, "obstacles", "out of memory");
    int i = 0;
    char sub[PATH_LEN], tsub[PATH_LEN];
    for (const cJSON *c = list->child; c; c = c->next, i++) {
        ipcc_scene_index_path(sub, "obstacles", i);
        if (!cJSON_IsObject(c))
            return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "expected an object (got %s)",
                                      ipcc_scene_json_type_name(c));
        const char *type = NULL;
        ipcc_status st = ipcc_scene_get_string(p, c, sub, "type", &type);
        if (st != IPCC_OK) return st;
        ipcc_scene_key_path(tsub, sub, "type");
        if (!type) {
            char known[MESSAGE_LEN / 2];
            ipcc_scene_join_names(known, sizeof known, obstacle_types);
            return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, tsub, "missing (one of %s)", known);
        }
        ipcc_shape_kind kind;
        if (ipcc_scene_shape_type(type, &kind))
            st = ipcc_scene_parse_shape(p, c, sub, i, kind, scene);
        else if (strcmp(type, "half_space") == 0 &&
                 (ipcc_scene_get(c, "velocity") || ipcc_scene_get(c, "angular_velocity")))
            st = ipcc_scene_parse_shape(p, c, sub, i, IPCC_SHAPE_PLANE, scene); // a moving half-space
        else if (strcmp(type, "half_space") == 0)
            st = parse_half_space(p, c, sub, &scene->half_spaces[scene->num_half_spaces++]);
        else if (strcmp(type, "mesh") == 0)
            st = parse_mesh_obstacle(p, c, sub, i, OBSTACLE_MESH, scene);
        else if (strcmp(type, "segments") == 0)
            st = parse_mesh_obstacle(p, c, sub, i, OBSTACLE_SEGMENTS, scene);
        else if (strcmp(type, "points") == 0)
            st = parse_mesh_obstacle(p, c, sub, i, OBSTACLE_POINTS, scene);
        else
            st = ipcc_scene_fail_choice(p, tsub, "obstacle type", type, obstacle_types);
        if (st != IPCC_OK) return st;
    }
    return IPCC_OK;
}

// A segment set from the unique edges of an OBJ's triangles.
static ipcc_status read_obj_edges(const char *file, ipcc_trimesh **out) {
    ipcc_trimesh *tri = NULL;
    ipcc_status st = ipcc_trimesh_read_obj(file, &tri);
    if (st != IPCC_OK) return st;
    const int nv = tri->num_vertices, ne = tri->num_edges;
    st = ipcc_trimesh_create_segments(nv, tri->vertices, ne, tri->edges, file, out);
    ipcc_trimesh_destroy(tri);
    return st;
}

ipcc_status ipcc_scene_load_obstacle_meshes(const parser *p, ipcc_scene *scene) {
    char sub[PATH_LEN];
    for (int i = 0; i < scene->num_obstacles; i++) {
        snprintf(sub, sizeof sub, "obstacles[%d].path", p->obstacle_index[i]);
        const char *file = scene->obstacle_paths[i];
        ipcc_trimesh *mesh = NULL;
        ipcc_clear_error();
        ipcc_status st;
        bool seg = ipcc_scene_has_extension(file, "seg");
        if (p->obstacle_kind[i] == OBSTACLE_SEGMENTS)
            st = seg ? ipcc_trimesh_read_seg(file, &mesh) : read_obj_edges(file, &mesh);
        else if (p->obstacle_kind[i] == OBSTACLE_POINTS)
            st = ipcc_trimesh_read_points(file, &mesh);
        else
            st = ipcc_trimesh_read_obj(file, &mesh);
        if (st != IPCC_OK) {
            char reason[MESSAGE_LEN];
            snprintf(reason, sizeof reason, "%s", ipcc_last_error());
            return ipcc_scene_fail_at(p, st, sub, "%s", reason[0] ? reason : ipcc_status_name(st));
        }
        scene->obstacles[i].mesh = mesh;
    }
    return IPCC_OK;
}
