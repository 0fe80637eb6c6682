// Scene keys for analytic obstacles (docs/scene-format.md, "Analytic
// shapes"): the "sphere", "box", "cylinder", "ellipsoid", "torus" and
// "height_field" entries (a height field's grid inline, from a CSV file or
// a raw array: height_field_io.c reads the files)
// of "obstacles", parsed in the second pass with the other obstacles
// (scene_obstacles.c dispatches on "type") into ipcc_shape_def, and added to
// the world by ipcc_scene_create_world() (scene.c). A moving half-space (a
// "half_space" entry with a velocity) is a plane shape here; its normal
// check, ipcc_scene_check_normal(), also serves scene_obstacles.c's static
// half-spaces.
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
#include "scene/scene_shapes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/height_field_io.h"
#include "base/rotation.h"
#include "shape/shape.h"

// The keys each type takes, in the order they are documented and written.
static const char *const sphere_keys[] = {
    "type", "name", "center", "radius", "velocity", "angular_velocity", "friction", NULL};
static const char *const box_keys[] = {
    "type", "name", "center", "half_extents", "rotation", "velocity", "angular_velocity", "friction", NULL};
static const char *const cylinder_keys[] = {
    "type",     "name",     "center",           "radius",   "half_length",  "axis",
    "rotation", "velocity", "angular_velocity", "friction", "face_samples", NULL};
static const char *const ellipsoid_keys[] = {"type",         "name",     "center",           "semi_axes",
                                             "rotation",     "velocity", "angular_velocity", "friction",
                                             "face_samples", NULL};
static const char *const torus_keys[] = {
    "type",     "name",     "center",           "major_radius", "minor_radius", "axis",
    "rotation", "velocity", "angular_velocity", "friction",     "face_samples", NULL};

// A moving half-space ("half_space" with a velocity or an angular velocity).
static const char *const plane_keys[] = {
    "type", "name", "point", "normal", "velocity", "angular_velocity", "friction", NULL};

// A terrain: one of "path" (CSV), "heights" (inline rows) or "raw".
static const char *const height_field_keys[] = {
    "type", "name",     "center",   "origin",           "spacing",  "path",         "heights",
    "raw",  "rotation", "velocity", "angular_velocity", "friction", "face_samples", NULL};
static const char *const raw_keys[] = {"path", "rows", "cols", "type", NULL};

static const char *const *const keys_of[] = {sphere_keys, box_keys,   cylinder_keys,    ellipsoid_keys,
                                             torus_keys,  plane_keys, height_field_keys};

void ipcc_scene_shape_rotation(const ipcc_scene_shape_source *src, double R[9]) {
    static const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    if (src->orientation == IPCC_SCENE_ORIENTATION_EULER)
        ipcc_rotation_euler_degrees(src->value, 1, R);
    else if (src->orientation == IPCC_SCENE_ORIENTATION_AXIS)
        ipcc_rotation_z_to_axis(src->value, R);
    else
        memcpy(R, identity, sizeof identity);
}

ipcc_status ipcc_scene_check_normal(const parser *p, const char *path, const double normal[3]) {
    if (normal[0] != 0 || normal[1] != 0 || normal[2] != 0) return IPCC_OK;
    char sub[PATH_LEN];
    ipcc_scene_key_path(sub, path, "normal");
    return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "must not be the zero vector");
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
    case IPCC_SHAPE_PLANE:
    case IPCC_SHAPE_HEIGHT_FIELD: return IPCC_OK; // no size
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

// "heights": [[h, ...], ...] into a malloc'ed row-major array.
static ipcc_status parse_inline_heights(const parser *p, const cJSON *rows, const char *path,
                                        ipcc_shape_def *d) {
    char sub[PATH_LEN], cell[PATH_LEN];
    ipcc_scene_key_path(sub, path, "heights");
    if (!cJSON_IsArray(rows))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "must be an array of rows (got %s)",
                                  ipcc_scene_json_type_name(rows));
    int nr = cJSON_GetArraySize(rows), nc = nr > 0 ? cJSON_GetArraySize(cJSON_GetArrayItem(rows, 0)) : 0;
    if (nr < 4 || nc < 4)
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub,
                                  "a height field needs at least 4 x 4 samples (got %d rows x %d columns)",
                                  nr, nc);
    double *h = malloc(sizeof(double) * (size_t)nr * (size_t)nc);
    if (!h) return ipcc_scene_fail_at(p, IPCC_ERR_NO_MEMORY, sub, "out of memory");
    d->heights = h, d->rows = nr, d->cols = nc; // owned by the scene from here on
    for (int r = 0; r < nr; ++r) {
        const cJSON *row = cJSON_GetArrayItem(rows, r);
        char rp[PATH_LEN];
        ipcc_scene_index_path(rp, sub, r);
        if (!cJSON_IsArray(row))
            return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, rp,
                                      "must be an array of heights (got %s)", ipcc_scene_json_type_name(row));
        if (cJSON_GetArraySize(row) != nc)
            return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, rp,
                                      "has %d values, row 0 has %d (ragged grid)", cJSON_GetArraySize(row),
                                      nc);
        for (int c = 0; c < nc; ++c) {
            const cJSON *v = cJSON_GetArrayItem(row, c);
            ipcc_scene_index_path(cell, rp, c);
            if (!cJSON_IsNumber(v))
                return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, cell, "must be a number (got %s)",
                                          ipcc_scene_json_type_name(v));
            ipcc_status st = ipcc_scene_check_finite(p, cell, v->valuedouble);
            if (st != IPCC_OK) return st;
            h[(size_t)r * nc + c] = v->valuedouble;
        }
    }
    return IPCC_OK;
}

// A file's grid ("path": CSV, or "raw"), the file relative to the scene.
static ipcc_status parse_height_file(const parser *p, const cJSON *obj, const char *path, ipcc_shape_def *d) {
    char sub[PATH_LEN];
    const cJSON *raw = ipcc_scene_get(obj, "raw");
    const char *file = NULL, *type = "float64";
    int rows = 0, cols = 0;
    ipcc_status st;
    if (raw) {
        ipcc_scene_key_path(sub, path, "raw");
        if ((st = ipcc_scene_check_object(p, raw, sub, raw_keys)) != IPCC_OK) return st;
        const char *what[] = {"path", "rows", "cols"};
        for (int k = 0; k < 3; ++k)
            if (!ipcc_scene_get(raw, what[k])) {
                char key[PATH_LEN];
                ipcc_scene_key_path(key, sub, what[k]);
                return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, key,
                                          "missing (a raw grid needs \"path\", \"rows\" and \"cols\")");
            }
        if ((st = ipcc_scene_get_string(p, raw, sub, "path", &file)) != IPCC_OK) return st;
        if ((st = ipcc_scene_get_int(p, raw, sub, "rows", 4, &rows)) != IPCC_OK) return st;
        if ((st = ipcc_scene_get_int(p, raw, sub, "cols", 4, &cols)) != IPCC_OK) return st;
        if ((st = ipcc_scene_get_string(p, raw, sub, "type", &type)) != IPCC_OK) return st;
        if (strcmp(type, "float64") != 0 && strcmp(type, "float32") != 0) {
            static const char *const types[] = {"float64", "float32", NULL};
            char key[PATH_LEN];
            ipcc_scene_key_path(key, sub, "type");
            return ipcc_scene_fail_choice(p, key, "raw type", type, types);
        }
    } else {
        ipcc_scene_key_path(sub, path, "path");
        if ((st = ipcc_scene_get_string(p, obj, path, "path", &file)) != IPCC_OK) return st;
    }
    char *full = NULL;
    const char *open = ipcc_scene_relative(p, file, &full);
    if (!open) return ipcc_scene_fail_at(p, IPCC_ERR_NO_MEMORY, sub, "out of memory");
    double *h = NULL;
    if (raw) {
        st = ipcc_height_field_read_raw(open, rows, cols, strcmp(type, "float32") == 0, &h);
    } else {
        st = ipcc_height_field_read_csv(open, &h, &rows, &cols);
    }
    free(full);
    if (st != IPCC_OK) {
        char reason[MESSAGE_LEN];
        snprintf(reason, sizeof reason, "%s", ipcc_last_error());
        return ipcc_scene_fail_at(p, st, sub, "%s", reason);
    }
    d->heights = h, d->rows = rows, d->cols = cols;
    return IPCC_OK;
}

// A "height_field" entry's own keys: centre ("center" or "origin"), spacing, the grid, rotation.
static ipcc_status parse_height_field(const parser *p, const cJSON *obj, const char *path, ipcc_shape_def *d,
                                      ipcc_scene_shape_source *src) {
    char sub[PATH_LEN];
    ipcc_status st;
    memset(d->size, 0, sizeof d->size);
    memset(d->center, 0, sizeof d->center);
    if (ipcc_scene_get(obj, "center") && ipcc_scene_get(obj, "origin")) {
        ipcc_scene_key_path(sub, path, "origin");
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub,
                                  "cannot be combined with \"center\" (the same point: give one)");
    }
    const char *at = ipcc_scene_get(obj, "origin") ? "origin" : "center";
    if ((st = ipcc_scene_get_vec3(p, obj, path, at, d->center)) != IPCC_OK) return st;
    // "spacing": a number (both axes) or [dx, dy].
    if ((st = require(p, obj, path, "spacing", IPCC_SHAPE_HEIGHT_FIELD, "a \"spacing\" (m, or [dx, dy])")) !=
        IPCC_OK)
        return st;
    const cJSON *sp = ipcc_scene_get(obj, "spacing");
    ipcc_scene_key_path(sub, path, "spacing");
    if (cJSON_IsNumber(sp)) {
        if ((st = ipcc_scene_get_number(p, obj, path, "spacing", POSITIVE, &d->spacing[0])) != IPCC_OK)
            return st;
        d->spacing[1] = d->spacing[0];
    } else if (cJSON_IsArray(sp) && cJSON_GetArraySize(sp) == 2) {
        for (int k = 0; k < 2; ++k) {
            const cJSON *v = cJSON_GetArrayItem(sp, k);
            char item[PATH_LEN];
            ipcc_scene_index_path(item, sub, k);
            if (!cJSON_IsNumber(v))
                return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, item, "must be a number (got %s)",
                                          ipcc_scene_json_type_name(v));
            if (!(v->valuedouble > 0) || !isfinite(v->valuedouble))
                return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, item,
                                          "must be > 0 and finite (got %g)", v->valuedouble);
            d->spacing[k] = v->valuedouble;
        }
    } else {
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "must be a number or [dx, dy] (got %s)",
                                  ipcc_scene_json_type_name(sp));
    }
    int sources =
        !!ipcc_scene_get(obj, "path") + !!ipcc_scene_get(obj, "heights") + !!ipcc_scene_get(obj, "raw");
    if (sources != 1)
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, path,
                                  "a height_field needs exactly one of \"path\" (CSV), \"heights\" (inline "
                                  "rows) and \"raw\" (got %d)",
                                  sources);
    const cJSON *rows = ipcc_scene_get(obj, "heights");
    st = rows ? parse_inline_heights(p, rows, path, d) : parse_height_file(p, obj, path, d);
    if (st != IPCC_OK) return st;
    return parse_orientation(p, obj, path, src, d->rotation);
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
    } else if (kind == IPCC_SHAPE_HEIGHT_FIELD) {
        if ((st = parse_height_field(p, obj, path, d, src)) != IPCC_OK) return st;
    } else {
        if ((st = require(p, obj, path, "center", kind, "a \"center\" [x, y, z], m")) != IPCC_OK) return st;
        if ((st = ipcc_scene_get_vec3(p, obj, path, "center", d->center)) != IPCC_OK) return st;
        if ((st = parse_size(p, obj, path, kind, d->size)) != IPCC_OK) return st;
        if ((st = parse_orientation(p, obj, path, src, d->rotation)) != IPCC_OK) return st;
    }
    if ((st = ipcc_scene_get_vec3(p, obj, path, "velocity", d->velocity)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_vec3(p, obj, path, "angular_velocity", d->angular_velocity)) != IPCC_OK)
        return st;
    if (ipcc_scene_get(obj, "face_samples")) { // only the kinds whose keys list it reach here with it
        bool on = false;
        if ((st = ipcc_scene_get_bool(p, obj, path, "face_samples", &on)) != IPCC_OK) return st;
        d->face_samples = on;
    }
    return ipcc_scene_get_number(p, obj, path, "friction", NON_NEGATIVE, &d->friction);
}

bool ipcc_scene_shape_type(const char *type, ipcc_shape_kind *kind) {
    for (int k = IPCC_SHAPE_SPHERE; k <= IPCC_SHAPE_HEIGHT_FIELD; k++) {
        if (k == IPCC_SHAPE_PLANE) continue; // a "half_space" with a velocity (scene_obstacles.c)
        if (strcmp(type, ipcc_shape_kind_name((ipcc_shape_kind)k)) == 0) {
            *kind = (ipcc_shape_kind)k;
            return true;
        }
    }
    return false;
}
