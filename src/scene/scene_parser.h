/// The scene parser's shared pieces (scene.c, scene_json.c,
/// scene_obstacles.c, scene_shapes.c): the parser state, key-path messages
/// and typed JSON getters. scene_write.c is the inverse
/// (ipcc_scene_write_json()) and uses only the name tables and the shapes'
/// rotation formula. Private to the library.
#ifndef IPCC_SCENE_PARSER_H
#define IPCC_SCENE_PARSER_H

#include <stdbool.h>

#include <cjson/cJSON.h>

#include "base/core.h"
#include "ipcc/scene.h"

enum { PATH_LEN = 512, MESSAGE_LEN = 1024 };

// Upper bound on the cells of a generated box mesh (6 tets per cell).
#define MAX_BOX_CELLS 10000000.0

// Upper bound on ceil(duration / time_step) without "steps" (IPC scripts: the
// same bound), so the step count is a representable integer.
#define MAX_SCENE_STEPS 1e9

// A body's mesh as written in the scene, loaded in the third pass.
typedef struct mesh_spec {
    const cJSON
        *regions;     // the body's "regions" object (resolved against the mesh in the third pass), or NULL
    const char *file; // path as written (points into the cJSON tree); NULL for a box
    int cells[3];     // box resolution
    double size[3];   // box extent, metres
} mesh_spec;

// A named entry of the "materials" object.
typedef struct named_material {
    const char *name; // points into the cJSON tree
    ipcc_material material;
} named_material;

// What a mesh-like obstacle's file is read as ("type").
typedef enum obstacle_kind { OBSTACLE_MESH, OBSTACLE_SEGMENTS, OBSTACLE_POINTS } obstacle_kind;

typedef struct parser {
    const char *name;     // scene name used in messages
    const char *base_dir; // folder mesh paths are relative to (NULL = working directory)
    int num_materials;
    named_material *materials;
    mesh_spec *meshes;            // one per body
    obstacle_kind *obstacle_kind; // one per mesh obstacle
    int *obstacle_index;          // its index in "obstacles"
} parser;

/// Value ranges for ipcc_scene_get_number() and ipcc_scene_parse_vec3().
typedef enum range { ANY, POSITIVE, NON_NEGATIVE } range;

/// Record `status` with "<scene>: <path>: <message>" (scene_json.c).
ipcc_status ipcc_scene_fail_at(const parser *p, ipcc_status status, const char *path, const char *fmt, ...)
    IPCC_PRINTF(4, 5);
/// out = parent.key / parent[index], truncated with "..." when too long.
void ipcc_scene_key_path(char out[PATH_LEN], const char *parent, const char *key);
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
ipcc_status ipcc_scene_check_finite(const parser *p, const char *path, double v);
/// Typed getters: each leaves *out unchanged when the key is absent.
ipcc_status ipcc_scene_get_number(const parser *p, const cJSON *obj, const char *path, const char *key,
                                  range r, double *out);
bool ipcc_scene_is_int_value(const cJSON *item, int min);
ipcc_status ipcc_scene_get_int(const parser *p, const cJSON *obj, const char *path, const char *key, int min,
                               int *out);
ipcc_status ipcc_scene_get_bool(const parser *p, const cJSON *obj, const char *path, const char *key,
                                bool *out);
ipcc_status ipcc_scene_get_string(const parser *p, const cJSON *obj, const char *path, const char *key,
                                  const char **out);
ipcc_status ipcc_scene_parse_vec3(const parser *p, const cJSON *item, const char *sub, range r,
                                  double out[3]);
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
/// Blank out `//` and `/* */` comments of JSON text in place (outside strings),
/// keeping newlines so line and column numbers still match the file. False
/// if a `/*` is never closed; *unterminated_at is then its offset.
bool ipcc_scene_blank_comments(char *s, size_t *unterminated_at);
/// The folder of `path` (malloc'ed): "." when it has no '/', "/" for a file
/// in the root; NULL when out of memory.
char *ipcc_scene_folder_of(const char *path);
/// `file` relative to the scene's folder; *full (malloc'ed, may stay NULL) backs the result.
const char *ipcc_scene_relative(const parser *p, const char *file, char **full);

/// "material": a name from "materials" or an inline object (scene.c).
ipcc_status ipcc_scene_parse_material_ref(const parser *p, const cJSON *item, const char *sub,
                                          ipcc_material *m);
/// A body's "regions" (scene_regions.c): second pass, the materials into
/// bodies[index].materials; third pass, once the meshes are loaded, each key
/// against its body's mesh regions into bodies[i].tet_materials.
ipcc_status ipcc_scene_parse_regions(parser *p, const cJSON *obj, const char *path, int index,
                                     ipcc_scene *scene);
ipcc_status ipcc_scene_resolve_regions(const parser *p, ipcc_scene *scene);

/// "contact" and "obstacles" (scene_obstacles.c), and the obstacles' files.
ipcc_status ipcc_scene_parse_contact(const parser *p, const cJSON *obj, ipcc_contact_def *c);
ipcc_status ipcc_scene_parse_obstacles(parser *p, const cJSON *list, ipcc_scene *scene);
ipcc_status ipcc_scene_load_obstacle_meshes(const parser *p, ipcc_scene *scene);
/// A half-space's "normal" (at `path`.normal) must not be the zero vector
/// (static half-spaces and moving ones alike; scene_obstacles.c).
ipcc_status ipcc_scene_check_normal(const parser *p, const char *path, const double normal[3]);

/// Analytic obstacles (scene_shapes.c): the kind a "type" names (false if
/// none), its name, and one entry parsed into scene->shapes[num_shapes++]
/// and its source (the arrays are allocated by ipcc_scene_parse_obstacles()).
bool ipcc_scene_shape_type(const char *type, ipcc_shape_kind *kind);
ipcc_status ipcc_scene_parse_shape(const parser *p, const cJSON *obj, const char *path, int entry,
                                   ipcc_shape_kind kind, ipcc_scene *scene);
/// R from a recorded orientation (the parser's and the writer's one formula).
void ipcc_scene_shape_rotation(const ipcc_scene_shape_source *src, double R[9]);
/// ipcc_world_add_shape() for every shape, in order; a failure names the scene and `obstacles[i]`.
ipcc_status ipcc_scene_add_shapes(const ipcc_scene *scene, ipcc_world *world);
/// Free the shapes' names and arrays (ipcc_scene_destroy()).
void ipcc_scene_free_shapes(ipcc_scene *scene);

/// Apply "key.path=value" overrides to the parsed tree (scene_override.c).
ipcc_status ipcc_scene_apply_overrides(const char *name, cJSON *root, int count,
                                       const char *const *overrides);

/// The JSON names of material models and integrators (NULL-terminated) and
/// the values they stand for, in the same order (scene.c); the parser and
/// the writer (scene_write.c) share them.
extern const char *const ipcc_scene_model_names[];
extern const ipcc_material_model ipcc_scene_model_values[];
extern const char *const ipcc_scene_integrator_names[];
extern const ipcc_integrator ipcc_scene_integrator_values[];

#endif
