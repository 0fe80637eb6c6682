/// Scene files (JSON): everything needed to build a world and write its output.
/// The format is specified in docs/scene-format.md.
#ifndef IPCC_SCENE_H
#define IPCC_SCENE_H

#include "ipcc/base.h"
#include "ipcc/world.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A parsed scene. Owns its meshes, names and Dirichlet arrays;
/// bodies[i].mesh points at a mesh the scene owns.
typedef struct ipcc_scene {
    char *path;            ///< the scene file as given ("<string>" when parsed from memory)
    ipcc_world_def world;  ///< world parameters
    double duration;       ///< simulated seconds to run (> 0)
    int num_bodies;        ///< number of bodies
    ipcc_body_def *bodies; ///< body defs, ready for ipcc_world_add_body()
    int num_obstacles;     ///< mesh obstacles
    ipcc_obstacle_def
        *obstacles;         ///< defs for ipcc_world_add_obstacle(); the scene owns their meshes and names
    int num_half_spaces;    ///< half-space obstacles
    double *half_spaces;    ///< 7 per half-space: point, normal, friction (for ipcc_world_add_half_space())
    char *output_directory; ///< "output.directory", relative to the working directory ("out")
    double output_fps;      ///< frames per simulated second; 0 = every step is a frame
} ipcc_scene;

/// Load a scene file. Mesh paths are relative to the scene file's folder.
/// `//` and `/* */` comments are allowed. Errors name the file, the line (for
/// syntax errors) or the key path (`bodies[1].material`).
IPCC_API ipcc_status ipcc_scene_load(const char *path, ipcc_scene **out);

/// Parse scene text. `name` is used in messages; mesh paths are relative to
/// `base_dir` (NULL = working directory).
IPCC_API ipcc_status ipcc_scene_parse(const char *text, const char *name, const char *base_dir,
                                      ipcc_scene **out);

/// Create a world holding every body and obstacle of the scene.
IPCC_API ipcc_status ipcc_scene_create_world(const ipcc_scene *scene, ipcc_world **out);

/// Free. NULL is fine.
IPCC_API void ipcc_scene_destroy(ipcc_scene *scene);

#ifdef __cplusplus
}
#endif
#endif
