// Scene keys for analytic obstacles (docs/scene-format.md, "Analytic
// shapes"): the "sphere", "box", "cylinder", "ellipsoid" and "torus" entries
// of "obstacles", parsed in the second pass with the other obstacles
// (scene_obstacles.c dispatches on "type") into ipcc_shape_def, and added to
// the world by ipcc_scene_create_world().
//
// Orientation. A shape's local axes are the columns of its rotation R. Two
// ways to give R, never both in one entry:
//   "rotation": Euler angles in degrees about x, then y, then z (R = Rz Ry Rx,
//               the convention of bodies' and mesh obstacles' "rotation");
//   "axis":     (cylinder and torus only) the direction the local z axis
//               (the symmetry axis) is turned onto, by the minimal rotation
//               (rotation.h, ipcc_rotation_z_to_axis()).
// Neither gives the identity. The scene records which key was used and its
// value (ipcc_scene_shape_source), so scene_write.c writes the same key
// back and a reload computes R bit for bit; ipcc_scene_shape_rotation() is
// the one place R is computed from a source, for both.
//
// Validation here is complete: everything ipcc_world_add_shape() checks
// (sizes > 0 and finite, a torus's minor radius below its major one, a
// non-zero axis, finite values, friction >= 0) is an error naming the key
// path, so the world's own check only fires for scenes built through the C
// API. Its message is then prefixed with the scene and the entry
// (`scene.json: obstacles[3]: shape "ring" (torus): ...`).
#include <stdio.h>
#include <string.h>

#include "rotation.h"
#include "scene_parser.h"
#include "shape.h"

// The keys each type takes, in the order they are documented and written.
static const char *const sphere_keys[] = {
    "type", "name", "center", "radius", "velocity", "angular_velocity", "friction", NULL};
static const char *const box_keys[] = {
    "type", "name", "center", "half_extents", "rotation", "velocity", "angular_velocity", "friction", NULL};
static const char *const cylinder_keys[] = {"type", "name",     "center",   "radius",           "half_length",
                                            "axis", "rotation", "velocity", "angular_velocity", "friction",
                                            NULL};
static const char *const ellipsoid_keys[] = {
    "type", "name", "center", "semi_axes", "rotation", "velocity", "angular_velocity", "friction", NULL};
static const char *const torus_keys[] = {"type", "name",     "center",   "major_radius",     "minor_radius",
                                         "axis", "rotation", "velocity", "angular_velocity", "friction",
                                         NULL};

// A moving half-space ("half_space" with a velocity or an angular velocity).
static const char *const plane_keys[] = {
    "type", "name", "point", "normal", "velocity", "angular_velocity", "friction", NULL};

static const char *const *const keys_of[] = {sphere_keys,    box_keys,   cylinder_keys,
                                             ellipsoid_keys, torus_keys, plane_keys};

void ipcc_scene_shape_rotation(const ipcc_scene_shape_source *src, double R[9]) {
    static const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    if (src->orientation == IPCC_SCENE_ORIENTATION_EULER)
        ipcc_rotation_euler_degrees(src->value, 1, R);
    else if (src->orientation == IPCC_SCENE_ORIENTATION_AXIS)
        ipcc_rotation_z_to_axis(src->value, R);
    else
        memcpy(R, identity, sizeof identity);
}

// A required key: absent is an error saying what it is.
static ipcc_status require(const parser *p, const cJSON *obj, const char *path, const char *key,
                           ipcc_shape_kind kind, const char *what) {
    if (ipcc_scene_get(obj, key)) return IPCC_OK;
    char sub[PATH_LEN];
    ipcc_scene_key_path(sub, path, key);
    return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "missing (a %s needs %s)",
                              ipcc_shape_kind_name(kind), what);
}

static ipcc_status get_length(const parser *p, const cJSON *obj, const char *path, const char *key,
                              ipcc_shape_kind kind, const char *what, double *out) {
    ipcc_status st = require(p, obj, path, key, kind, what);
    if (st != IPCC_OK) return st;
    return ipcc_scene_get_number(p, obj, path, key, POSITIVE, out);
}

static ipcc_status get_lengths3(const parser *p, const cJSON *obj, const char *path, const char *key,
                                ipcc_shape_kind kind, const char *what, double out[3]) {
    ipcc_status st = require(p, obj, path, key, kind, what);
    if (st != IPCC_OK) return st;
    char sub[PATH_LEN];
    ipcc_scene_key_path(sub, path, key);
    return ipcc_scene_parse_vec3(p, ipcc_scene_get(obj, key), sub, POSITIVE, out);
}

static ipcc_status parse_size(const parser *p, const cJSON *obj, const char *path, ipcc_shape_kind kind,
                              double size[3]) {
    ipcc_status st;
    size[0] = size[1] = size[2] = 0; // entries a kind does not use
    switch (kind) {
    case IPCC_SHAPE_SPHERE: return get_length(p, obj, path, "radius", kind, "a \"radius\", m", &size[0]);
    case IPCC_SHAPE_BOX:
        return get_lengths3(p, obj, path, "half_extents", kind, "\"half_extents\" [a, b, c], m", size);
    case IPCC_SHAPE_ELLIPSOID:
        return get_lengths3(p, obj, path, "semi_axes", kind, "\"semi_axes\" [a, b, c], m", size);
    case IPCC_SHAPE_CYLINDER:
        if ((st = get_length(p, obj, path, "radius", kind, "a \"radius\", m", &size[0])) != IPCC_OK)
            return st;
        return get_length(p, obj, path, "half_length", kind, "a \"half_length\" (half its height), m",
                          &size[1]);
    case IPCC_SHAPE_TORUS:
        if ((st = get_length(p, obj, path, "major_radius", kind, "a \"major_radius\", m", &size[0])) !=
            IPCC_OK)
            return st;
        if ((st = get_length(p, obj, path, "minor_radius", kind, "a \"minor_radius\", m", &size[1])) !=
            IPCC_OK)
            return st;
        if (!(size[1] < size[0])) {
            char sub[PATH_LEN];
            ipcc_scene_key_path(sub, path, "minor_radius");
            return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub,
                                      "must be below major_radius (got %g >= %g)", size[1], size[0]);
        }
        return IPCC_OK;
    case IPCC_SHAPE_PLANE: return IPCC_OK; // no size
    }
    return IPCC_OK;
}

// "rotation" or "axis" (never both) into the source record and R.
static ipcc_status parse_orientation(const parser *p, const cJSON *obj, const char *path,
                                     ipcc_scene_shape_source *src, double R[9]) {
    char sub[PATH_LEN];
    const cJSON *axis = ipcc_scene_get(obj, "axis"), *rotation = ipcc_scene_get(obj, "rotation");
    src->orientation = IPCC_SCENE_ORIENTATION_NONE;
    if (axis && rotation) {
        ipcc_scene_key_path(sub, path, "axis");
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub,
                                  "cannot be combined with \"rotation\" %s",
                                  "(give the axis direction or the Euler angles, not both)");
    }
    ipcc_status st;
    if (axis) {
        ipcc_scene_key_path(sub, path, "axis");
        if ((st = ipcc_scene_parse_vec3(p, axis, sub, ANY, src->value)) != IPCC_OK) return st;
        if (src->value[0] == 0 && src->value[1] == 0 && src->value[2] == 0)
            return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "must not be the zero vector");
        src->orientation = IPCC_SCENE_ORIENTATION_AXIS;
    } else if (rotation) {
        ipcc_scene_key_path(sub, path, "rotation");
        if ((st = ipcc_scene_parse_vec3(p, rotation, sub, ANY, src->value)) != IPCC_OK) return st;
        src->orientation = IPCC_SCENE_ORIENTATION_EULER;
    }
    ipcc_scene_shape_rotation(src, R);
    return IPCC_OK;
}

ipcc_status ipcc_scene_parse_shape(const parser *p, const cJSON *obj, const char *path, int entry,
                                   ipcc_shape_kind kind, ipcc_scene *scene) {
    ipcc_status st = ipcc_scene_check_object(p, obj, path, keys_of[kind]);
    if (st != IPCC_OK) return st;
    int index = scene->num_shapes;
    ipcc_shape_def *d = &scene->shapes[index];
    ipcc_scene_shape_source *src = &scene->shape_sources[index];
    *d = ipcc_default_shape_def();
    d->kind = kind;
    d->name = NULL;
    *src = (ipcc_scene_shape_source){.entry = entry};
    scene->num_shapes++; // owns its name from here on
    const char *name = NULL;
    if ((st = ipcc_scene_get_string(p, obj, path, "name", &name)) != IPCC_OK) return st;
    if (name && !(d->name = ipcc_scene_copy_string(name)))
        return ipcc_scene_fail_at(p, IPCC_ERR_NO_MEMORY, path, "out of memory");
    if (kind == IPCC_SHAPE_PLANE) { // a half-space's keys: "point" and "normal" (local z)
        memset(d->size, 0, sizeof d->size);
        memset(d->center, 0, sizeof d->center);
        double normal[3] = {0, 1, 0};
        if ((st = ipcc_scene_get_vec3(p, obj, path, "point", d->center)) != IPCC_OK) return st;
        if ((st = ipcc_scene_get_vec3(p, obj, path, "normal", normal)) != IPCC_OK) return st;
        if ((st = ipcc_scene_check_normal(p, path, normal)) != IPCC_OK) return st;
        src->orientation = IPCC_SCENE_ORIENTATION_AXIS;
        memcpy(src->value, normal, sizeof normal);
        ipcc_scene_shape_rotation(src, d->rotation);
    } else {
        if ((st = require(p, obj, path, "center", kind, "a \"center\" [x, y, z], m")) != IPCC_OK) return st;
        if ((st = ipcc_scene_get_vec3(p, obj, path, "center", d->center)) != IPCC_OK) return st;
        if ((st = parse_size(p, obj, path, kind, d->size)) != IPCC_OK) return st;
        if ((st = parse_orientation(p, obj, path, src, d->rotation)) != IPCC_OK) return st;
    }
    if ((st = ipcc_scene_get_vec3(p, obj, path, "velocity", d->velocity)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_vec3(p, obj, path, "angular_velocity", d->angular_velocity)) != IPCC_OK)
        return st;
    return ipcc_scene_get_number(p, obj, path, "friction", NON_NEGATIVE, &d->friction);
}

bool ipcc_scene_shape_type(const char *type, ipcc_shape_kind *kind) {
    for (int k = IPCC_SHAPE_SPHERE; k <= IPCC_SHAPE_TORUS; k++) {
        if (strcmp(type, ipcc_shape_kind_name((ipcc_shape_kind)k)) == 0) {
            *kind = (ipcc_shape_kind)k;
            return true;
        }
    }
    return false;
}

// Shape i's index in "obstacles" (from shape_sources, else after the other obstacles).
static int shape_entry(const ipcc_scene *scene, int i) {
    return scene->shape_sources ? scene->shape_sources[i].entry
                                : scene->num_half_spaces + scene->num_obstacles + i;
}

ipcc_status ipcc_scene_add_shapes(const ipcc_scene *scene, ipcc_world *world) {
    for (int i = 0; i < scene->num_shapes; i++) {
        ipcc_clear_error();
        ipcc_status st = ipcc_world_add_shape(world, &scene->shapes[i], NULL);
        if (st < 0) {
            char reason[MESSAGE_LEN];
            snprintf(reason, sizeof reason, "%s", ipcc_last_error());
            return ipcc_fail(st, "%s: obstacles[%d]: %s", scene->path, shape_entry(scene, i),
                             reason[0] ? reason : ipcc_status_name(st));
        }
    }
    return IPCC_OK;
}

void ipcc_scene_free_shapes(ipcc_scene *scene) {
    for (int i = 0; scene->shapes && i < scene->num_shapes; i++)
        free((void *)scene->shapes[i].name);
    free(scene->shapes);
    free(scene->shape_sources);
    scene->shapes = NULL;
    scene->shape_sources = NULL;
    scene->num_shapes = 0;
}
