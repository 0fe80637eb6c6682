/// Scene files: everything needed to build a world and write its output.
/// Two formats, chosen by the file extension: native JSON (`.json`,
/// docs/scene-format.md) and the original IPC's scene scripts (`.txt` or
/// `.ipc`, docs/ipc-compatibility.md). Both load into the same ipcc_scene,
/// which ipcc_scene_write_json() writes back as native JSON.
#ifndef IPCC_SCENE_H
#define IPCC_SCENE_H

#include <stdbool.h>

#include "ipcc/base.h"
#include "ipcc/world.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Where a body's mesh came from (for ipcc_scene_write_json()).
typedef struct ipcc_scene_mesh_source {
    char *path;     ///< the mesh file as resolved (NULL for a generated box)
    int cells[3];   ///< box resolution
    double size[3]; ///< box extent, metres
} ipcc_scene_mesh_source;

/// How an analytic shape's orientation was written in the scene.
typedef enum ipcc_scene_orientation {
    IPCC_SCENE_ORIENTATION_NONE,  ///< neither key: the identity
    IPCC_SCENE_ORIENTATION_EULER, ///< "rotation": degrees about x, then y, then z
    IPCC_SCENE_ORIENTATION_AXIS,  ///< "axis": the direction local z is turned onto (docs/scene-format.md)
} ipcc_scene_orientation;

/// Where an analytic shape came from (for ipcc_scene_write_json() and
/// messages): its place in "obstacles" and its orientation as written, which
/// gives shapes[i].rotation bit for bit.
typedef struct ipcc_scene_shape_source {
    int entry;                          ///< its index in the scene's "obstacles" array
    ipcc_scene_orientation orientation; ///< which key gave the rotation
    double value[3];                    ///< the Euler angles (degrees) or the axis direction, as written
} ipcc_scene_shape_source;

/// A parsed scene. Owns its meshes, names and every array its defs point at
/// (Dirichlet and Neumann conditions and their vertex lists, tolerances);
/// bodies[i].mesh points at a mesh the scene owns. Everything it owns is
/// malloc'ed (meshes by their own create functions) and freed by
/// ipcc_scene_destroy(), which accepts NULL for any array or entry, so a
/// loader may fail half-way and hand the partial scene to it.
typedef struct ipcc_scene {
    char *path;            ///< the scene file as given ("<string>" when parsed from memory)
    ipcc_world_def world;  ///< world parameters
    double duration;       ///< simulated seconds to run (> 0)
    int num_bodies;        ///< number of bodies
    ipcc_body_def *bodies; ///< body defs, ready for ipcc_world_add_body()
    int num_obstacles;     ///< mesh obstacles
    ipcc_obstacle_def
        *obstacles;      ///< defs for ipcc_world_add_obstacle(); the scene owns their meshes and names
    int num_half_spaces; ///< half-space obstacles
    ipcc_half_space_def *half_spaces; ///< defs for ipcc_world_add_half_space()
    char *output_directory;           ///< "output.directory", relative to the working directory ("out")
    double output_fps;                ///< frames per simulated second; 0 = every step is a frame
    int num_steps; ///< > 0: run exactly this many steps (IPC scripts: ceil(T / h)); 0 = from duration
    ipcc_scene_mesh_source *body_sources; ///< one per body
    char **obstacle_paths;                ///< one per mesh obstacle: its file as resolved
    const char *format;                   ///< "json" or "ipc" (static string)
    int checkpoint_every;     ///< "output.checkpoint_every": steps between checkpoints; 0 = only at start and
                              ///< exit (10)
    bool output_contacts;     ///< "output.contacts": write the contact report (docs/output.md) (false)
    bool output_uncompressed; ///< "output.compress" false: raw, not zlib-compressed, frames (false:
                              ///< compressed; ipcc_output_set_compress)
    int num_shapes;           ///< analytic obstacles ("sphere", "box", ... entries of "obstacles")
    ipcc_shape_def *shapes;   ///< defs for ipcc_world_add_shape(), in "obstacles" order; names owned
    ipcc_scene_shape_source *shape_sources; ///< one per shape (NULL: entries after the half-spaces and mesh
                                            ///< obstacles, rotations that cannot be written back)
} ipcc_scene;

/// Loading options.
typedef struct ipcc_scene_options {
    bool strict;       ///< IPC scripts: an unknown keyword is an error (else a warning naming the line)
    int num_overrides; ///< JSON scenes: keys set before validation ("--set")
    const char *const *overrides; ///< "key.path=value" each (src/scene/scene_override.c for the syntax)
} ipcc_scene_options;

/// Load a scene file; the format follows the extension (`.txt`/`.ipc`: IPC
/// script, anything else: JSON). JSON mesh paths are relative to the scene
/// file's folder; `//` and `/* */` comments are allowed. Errors name the
/// file, the line (for syntax errors and IPC scripts) or the key path
/// (`bodies[1].material`).
IPCC_API ipcc_status ipcc_scene_load(const char *path, ipcc_scene **out);

/// ipcc_scene_load() with options (NULL = defaults).
IPCC_API ipcc_status ipcc_scene_load_with_options(const char *path, const ipcc_scene_options *options,
                                                  ipcc_scene **out);

/// Write the scene as native JSON (docs/scene-format.md) to `path`,
/// atomically (a temporary file renamed over it). Mesh paths are written
/// relative to the folder of `path` when possible. Loading the result gives
/// the same world.
IPCC_API ipcc_status ipcc_scene_write_json(const ipcc_scene *scene, const char *path);

/// Parse scene text. `name` is used in messages; mesh paths are relative to
/// `base_dir` (NULL = working directory).
IPCC_API ipcc_status ipcc_scene_parse(const char *text, const char *name, const char *base_dir,
                                      ipcc_scene **out);

/// Create a world holding every body and obstacle of the scene (bodies,
/// mesh obstacles, half-spaces, then analytic shapes). A def the world
/// rejects fails naming the scene file and the body entry, the obstacle's
/// name or the shape's key path (`obstacles[2]`).
IPCC_API ipcc_status ipcc_scene_create_world(const ipcc_scene *scene, ipcc_world **out);

/// Free. NULL is fine.
IPCC_API void ipcc_scene_destroy(ipcc_scene *scene);

#ifdef __cplusplus
}
#endif
#endif
