// The scene object: the world a scene describes (ipcc_scene_create_world())
// and its release (ipcc_scene_destroy()). Scenes are built by the readers
// (scene_parse.c for JSON, scene_ipc.c for IPC scripts; scene_load.c picks
// one by extension), which hand a scene that failed half-way to
// ipcc_scene_destroy().
//
// Ownership: the scene owns everything its defs point at (names, meshes,
// Dirichlet and Neumann arrays and their vertex lists, the tolerance
// schedule, body_sources, obstacle_paths, shapes, their grids and
// shape_sources); ipcc_scene_destroy() frees them all and accepts NULL in
// any of them.
//
// Failure modes: ipcc_scene_create_world() passes on the world's status for
// a def it rejects, with its message prefixed by the scene file and the
// entry (`bodies[1] ("slab")`, `obstacles`, `obstacles[3]`); the partial
// world is destroyed and *out stays NULL.
#include "ipcc/scene.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/core.h"

// The buffer a world's message is copied into before it is prefixed.
enum { MESSAGE_LEN = 1024 };

// ---------------------------------------------------------------------------
// Shapes

// Shape i's index in "obstacles" (from shape_sources, else after the other obstacles).
static int shape_entry(const ipcc_scene *scene, int i) {
    return scene->shape_sources ? scene->shape_sources[i].entry
                                : scene->num_half_spaces + scene->num_obstacles + i;
}

// ipcc_world_add_shape() for every shape, in order; a failure names the scene and `obstacles[i]`.
static ipcc_status add_shapes(const ipcc_scene *scene, ipcc_world *world) {
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

// The shapes' names and grids, and the arrays.
static void free_shapes(ipcc_scene *scene) {
    for (int i = 0; scene->shapes && i < scene->num_shapes; i++) {
        free((void *)scene->shapes[i].name);
        free((void *)scene->shapes[i].heights); // a height field's grid, owned by the scene
    }
    free(scene->shapes);
    free(scene->shape_sources);
    scene->shapes = NULL;
    scene->shape_sources = NULL;
    scene->num_shapes = 0;
}

// ---------------------------------------------------------------------------
// The object

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
    if ((st = add_shapes(scene, world)) < 0) {
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
    free_shapes(scene);
    free((void *)scene->world.tolerances);
    for (int i = 0; scene->half_spaces && i < scene->num_half_spaces; i++)
        free((void *)scene->half_spaces[i].name);
    free(scene->half_spaces);
    free(scene->path);
    free(scene->output_directory);
    free(scene);
}
