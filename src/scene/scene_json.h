/// The JSON scene parser's toolkit (scene_json.c): the parse state every
/// file of the parser passes down, messages that name the scene and the key
/// path ("did you mean" suggestions included), typed getters that check type
/// and range, and the small string and path helpers. The files above it:
/// scene_parse.c (the passes), scene_bodies.c, scene_materials.c,
/// scene_regions.c, scene_obstacles.c, scene_shapes.c; scene_write.c uses
/// its path helper. Private to the library.
#ifndef IPCC_SCENE_JSON_H
#define IPCC_SCENE_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "base/core.h"
#include "ipcc/scene.h"

/// Bounds of a key path and of a message built from one (bytes, with the NUL).
enum { PATH_LEN = 512, MESSAGE_LEN = 1024 };

/// A body's mesh as written in the scene (scene_bodies.c), loaded in the third pass.
typedef struct mesh_spec {
    const cJSON
        *regions; ///< the body's "regions" object (scene_regions.c resolves it in the third pass), or NULL
    const char *file; ///< path as written (points into the cJSON tree); NULL for a box
    int cells[3];     ///< box resolution
    double size[3];   ///< box extent, metres
} mesh_spec;

/// A named entry of the "materials" object (scene_materials.c).
typedef struct named_material {
    const char *name; ///< points into the cJSON tree
    ipcc_material material;
} named_material;

/// What a mesh-like obstacle's file is read as ("type"; scene_obstacles.c).
typedef enum obstacle_kind { OBSTACLE_MESH, OBSTACLE_SEGMENTS, OBSTACLE_POINTS } obstacle_kind;

/// The parse state of one scene (scene_parse.c makes it and frees its arrays).
typedef struct parser {
    const char *name;     ///< scene name used in messages
    const char *base_dir; ///< folder mesh paths are relative to (NULL = working directory)
    int num_materials;
    named_material *materials;    ///< "materials" (scene_materials.c)
    mesh_spec *meshes;            ///< one per body (scene_bodies.c)
    obstacle_kind *obstacle_kind; ///< one per mesh obstacle (scene_obstacles.c)
    int *obstacle_index;          ///< its index in "obstacles"
} parser;

/// Value ranges for ipcc_scene_get_number() and ipcc_scene_parse_vec3().
typedef enum range { ANY, POSITIVE, NON_NEGATIVE } range;

/// Record `status` with "<scene>: <path>: <message>" ("<scene>: <message>"
/// when `path` is NULL or empty) and return it.
ipcc_status ipcc_scene_fail_at(const parser *p, ipcc_status status, const char *path, const char *fmt, ...)
    IPCC_PRINTF(4, 5);
/// out = parent.key (key alone when parent is ""), truncated with "..." when too long.
void ipcc_scene_key_path(char out[PATH_LEN], const char *parent, const char *key);
/// out = parent[index], truncated with "..." when too long.
void ipcc_scene_index_path(char out[PATH_LEN], const char *parent, int index);
/// "a number", "an object", ... for messages.
const char *ipcc_scene_json_type_name(const cJSON *item);
/// The closest of `choices` (NULL-terminated) to `word`, or NULL if none is close.
const char *ipcc_scene_closest(const char *word, const char *const *choices);
/// "a, b, c" into out (truncated to len).
void ipcc_scene_join_names(char *out, size_t len, const char *const *names);
/// Error for a string value that is not one of `choices` (with a suggestion).
ipcc_status ipcc_scene_fail_choice(const parser *p, const char *path, const char *what, const char *value,
                                   const char *const *choices);
/// Fail on an unknown or repeated key of the object at `path` (keys: NULL-terminated; NULL = any name).
ipcc_status ipcc_scene_check_object(const parser *p, const cJSON *item, const char *path,
                                    const char *const *keys);
/// The member `key` of obj, or NULL.
const cJSON *ipcc_scene_get(const cJSON *obj, const char *key);
/// Fail at `path` unless v is finite.
ipcc_status ipcc_scene_check_finite(const parser *p, const char *path, double v);
/// A finite number in range `r`. This and the typed getters below leave *out
/// unchanged when the key is absent.
ipcc_status ipcc_scene_get_number(const parser *p, const cJSON *obj, const char *path, const char *key,
                                  range r, double *out);
/// True if `item` is a number holding an integer in [min, INT_MAX].
bool ipcc_scene_is_int_value(const cJSON *item, int min);
/// An integer >= min.
ipcc_status ipcc_scene_get_int(const parser *p, const cJSON *obj, const char *path, const char *key, int min,
                               int *out);
/// true or false.
ipcc_status ipcc_scene_get_bool(const parser *p, const cJSON *obj, const char *path, const char *key,
                                bool *out);
/// A non-empty string; *out points into the cJSON tree.
ipcc_status ipcc_scene_get_string(const parser *p, const cJSON *obj, const char *path, const char *key,
                                  const char **out);
/// `item` (at key path `sub`) as an array of exactly 3 finite numbers, each in range `r`.
ipcc_status ipcc_scene_parse_vec3(const parser *p, const cJSON *item, const char *sub, range r,
                                  double out[3]);
/// An array of 3 finite numbers.
ipcc_status ipcc_scene_get_vec3(const parser *p, const cJSON *obj, const char *path, const char *key,
                                double out[3]);
/// "scale": a positive number (uniform) or an array of 3 positive numbers.
ipcc_status ipcc_scene_get_scale(const parser *p, const cJSON *obj, const char *path, double out[3]);
/// "transform": a 3x4 array of rows (row-major into t[12]); sets *use. It
/// excludes "translation", "rotation" and "scale" in the same object; its
/// 3x3 part must have det > 0.
ipcc_status ipcc_scene_get_transform(const parser *p, const cJSON *obj, const char *path, bool *use,
                                     double t[12]);
/// An optional vec3 `key`: sets *has and out.
ipcc_status ipcc_scene_get_point(const parser *p, const cJSON *obj, const char *path, const char *key,
                                 bool *has, double out[3]);
/// A non-empty array of integers >= 0 (malloc'ed into *out, *n items).
ipcc_status ipcc_scene_get_index_list(const parser *p, const cJSON *obj, const char *path, const char *key,
                                      int *n, int **out);
/// "stop" (ipcc_stop_trigger); s->axis = -1 when absent.
ipcc_status ipcc_scene_get_stop(const parser *p, const cJSON *obj, const char *path, ipcc_stop_trigger *s);
/// True if `path` ends in `.ext` (`ext` lower case; the path in any case).
bool ipcc_scene_has_extension(const char *path, const char *ext);
/// malloc'ed copy (NULL when out of memory).
char *ipcc_scene_copy_string(const char *s);
/// The folder of `path` (malloc'ed): "." when it has no '/', "/" for a file
/// in the root; NULL when out of memory.
char *ipcc_scene_folder_of(const char *path);
/// `file` relative to the scene's folder; *full (malloc'ed, may stay NULL) backs the result.
const char *ipcc_scene_relative(const parser *p, const char *file, char **full);

#endif
