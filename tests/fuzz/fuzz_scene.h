/// The scene round trip of the libFuzzer harnesses that load whole scenes
/// (tests/fuzz/fuzz_json.c, fuzz_ipc.c): a loaded scene is written with
/// ipcc_scene_write_json() and loaded back, which must succeed and give the
/// same scene, numbers bit for bit (scene_write.c's contract: "loading the
/// written file gives the same world"). A difference aborts, naming the
/// field, which libFuzzer reports as a crash.
#ifndef IPCC_FUZZ_SCENE_H
#define IPCC_FUZZ_SCENE_H

#include "fuzz_common.h"
#include "ipcc/scene.h"
#include "ipcc/world.h"

// Round trip: a difference aborts, naming the field.
static inline void fuzz_same(const char *what, const void *a, const void *b, size_t n) {
    if (n > 0 && memcmp(a, b, n) != 0) fuzz_fail("the written scene loads different", what);
}

static inline void fuzz_same_string(const char *what, const char *a, const char *b) {
    if ((a == NULL) != (b == NULL) || (a && strcmp(a, b) != 0))
        fuzz_fail("the written scene loads different", what);
}

#define FUZZ_SAME(what, a, b) fuzz_same(what, &(a), &(b), sizeof(a))

static inline void fuzz_same_stop(const ipcc_stop_trigger *a, const ipcc_stop_trigger *b) {
    FUZZ_SAME("stop.axis", a->axis, b->axis);
    if (a->axis < 0) return;
    FUZZ_SAME("stop.first_vertex", a->first_vertex, b->first_vertex);
    FUZZ_SAME("stop.num_vertices", a->num_vertices, b->num_vertices);
    FUZZ_SAME("stop.measure_max", a->measure_max, b->measure_max);
    FUZZ_SAME("stop.above", a->above, b->above);
    FUZZ_SAME("stop.value", a->value, b->value);
    FUZZ_SAME("stop.release", a->release, b->release);
}

static inline void fuzz_same_selection(const double *a_min, const double *a_max, int na,
                                       const int *a_vertices, const double *b_min, const double *b_max,
                                       int nb, const int *b_vertices) {
    fuzz_same("selection.num_vertices", &na, &nb, sizeof na);
    if (na > 0) {
        fuzz_same("selection.vertices", a_vertices, b_vertices, (size_t)na * sizeof *a_vertices);
        return;
    }
    fuzz_same("selection.min", a_min, b_min, 3 * sizeof *a_min);
    fuzz_same("selection.max", a_max, b_max, 3 * sizeof *a_max);
}

static inline void fuzz_same_placement(bool a_use, const double *a_transform, const double *a_t,
                                       const double *a_r, const double *a_s, bool b_use,
                                       const double *b_transform, const double *b_t, const double *b_r,
                                       const double *b_s) {
    fuzz_same("use_transform", &a_use, &b_use, sizeof a_use);
    if (a_use) {
        fuzz_same("transform", a_transform, b_transform, 12 * sizeof *a_transform);
        return;
    }
    fuzz_same("translation", a_t, b_t, 3 * sizeof *a_t);
    fuzz_same("rotation", a_r, b_r, 3 * sizeof *a_r);
    fuzz_same("scale", a_s, b_s, 3 * sizeof *a_s);
}

static inline void fuzz_same_body(const ipcc_body_def *a, const ipcc_body_def *b) {
    fuzz_same_string("body name", a->name, b->name);
    FUZZ_SAME("body mesh vertices", a->mesh->num_vertices, b->mesh->num_vertices);
    FUZZ_SAME("body mesh tets", a->mesh->num_tets, b->mesh->num_tets);
    fuzz_same("body mesh coordinates", a->mesh->vertices, b->mesh->vertices,
              3 * (size_t)a->mesh->num_vertices * sizeof *a->mesh->vertices);
    FUZZ_SAME("material.model", a->material.model, b->material.model);
    FUZZ_SAME("material.density", a->material.density, b->material.density);
    FUZZ_SAME("material.youngs_modulus", a->material.youngs_modulus, b->material.youngs_modulus);
    FUZZ_SAME("material.poisson_ratio", a->material.poisson_ratio, b->material.poisson_ratio);
    FUZZ_SAME("num_materials (regions)", a->num_materials, b->num_materials);
    for (int k = 0; a->tet_materials && k < a->num_materials; k++) {
        FUZZ_SAME("regions material model", a->materials[k].model, b->materials[k].model);
        FUZZ_SAME("regions material density", a->materials[k].density, b->materials[k].density);
        FUZZ_SAME("regions material youngs_modulus", a->materials[k].youngs_modulus,
                  b->materials[k].youngs_modulus);
        FUZZ_SAME("regions material poisson_ratio", a->materials[k].poisson_ratio,
                  b->materials[k].poisson_ratio);
    }
    if ((a->tet_materials == NULL) != (b->tet_materials == NULL))
        fuzz_fail("the written scene loads different", "tet_materials");
    if (a->tet_materials)
        fuzz_same("tet_materials", a->tet_materials, b->tet_materials,
                  (size_t)a->mesh->num_tets * sizeof *a->tet_materials);
    fuzz_same_placement(a->use_transform, a->transform, a->translation, a->rotation, a->scale,
                        b->use_transform, b->transform, b->translation, b->rotation, b->scale);
    FUZZ_SAME("body velocity", a->velocity, b->velocity);
    FUZZ_SAME("body angular_velocity", a->angular_velocity, b->angular_velocity);
    FUZZ_SAME("body has_velocity_pivot", a->has_velocity_pivot, b->has_velocity_pivot);
    if (a->has_velocity_pivot) FUZZ_SAME("angular_velocity_centre", a->velocity_pivot, b->velocity_pivot);
    FUZZ_SAME("body friction", a->friction, b->friction);
    FUZZ_SAME("num_dirichlet", a->num_dirichlet, b->num_dirichlet);
    for (int j = 0; j < a->num_dirichlet; j++) {
        const ipcc_dirichlet_def *p = &a->dirichlet[j], *q = &b->dirichlet[j];
        fuzz_same_selection(p->box_min, p->box_max, p->num_vertices, p->vertices, q->box_min, q->box_max,
                            q->num_vertices, q->vertices);
        FUZZ_SAME("dirichlet velocity", p->velocity, q->velocity);
        FUZZ_SAME("dirichlet angular_velocity", p->angular_velocity, q->angular_velocity);
        FUZZ_SAME("dirichlet has_pivot", p->has_pivot, q->has_pivot);
        if (p->has_pivot) FUZZ_SAME("dirichlet pivot", p->pivot, q->pivot);
        FUZZ_SAME("dirichlet start", p->start, q->start);
        FUZZ_SAME("dirichlet end", p->end, q->end);
        fuzz_same_stop(&p->stop, &q->stop);
    }
    FUZZ_SAME("num_neumann", a->num_neumann, b->num_neumann);
    for (int j = 0; j < a->num_neumann; j++) {
        const ipcc_neumann_def *p = &a->neumann[j], *q = &b->neumann[j];
        fuzz_same_selection(p->box_min, p->box_max, p->num_vertices, p->vertices, q->box_min, q->box_max,
                            q->num_vertices, q->vertices);
        FUZZ_SAME("neumann acceleration", p->acceleration, q->acceleration);
        FUZZ_SAME("neumann start", p->start, q->start);
        FUZZ_SAME("neumann end", p->end, q->end);
    }
}

static inline void fuzz_same_obstacle(const ipcc_obstacle_def *a, const ipcc_obstacle_def *b) {
    fuzz_same_string("obstacle name", a->name, b->name);
    FUZZ_SAME("obstacle mesh vertices", a->mesh->num_vertices, b->mesh->num_vertices);
    FUZZ_SAME("obstacle mesh faces", a->mesh->num_faces, b->mesh->num_faces);
    FUZZ_SAME("obstacle mesh edges", a->mesh->num_edges, b->mesh->num_edges);
    fuzz_same_placement(a->use_transform, a->transform, a->translation, a->rotation, a->scale,
                        b->use_transform, b->transform, b->translation, b->rotation, b->scale);
    FUZZ_SAME("obstacle velocity", a->velocity, b->velocity);
    FUZZ_SAME("obstacle angular_velocity", a->angular_velocity, b->angular_velocity);
    FUZZ_SAME("obstacle has_pivot", a->has_pivot, b->has_pivot);
    if (a->has_pivot) FUZZ_SAME("obstacle pivot", a->pivot, b->pivot);
    fuzz_same_stop(&a->stop, &b->stop);
    FUZZ_SAME("obstacle friction", a->friction, b->friction);
}

static inline void fuzz_same_shape(const ipcc_shape_def *a, const ipcc_shape_def *b) {
    fuzz_same_string("shape name", a->name, b->name);
    FUZZ_SAME("shape kind", a->kind, b->kind);
    FUZZ_SAME("shape center", a->center, b->center);
    FUZZ_SAME("shape rotation", a->rotation, b->rotation);
    FUZZ_SAME("shape size", a->size, b->size);
    FUZZ_SAME("shape velocity", a->velocity, b->velocity);
    FUZZ_SAME("shape angular_velocity", a->angular_velocity, b->angular_velocity);
    FUZZ_SAME("shape friction", a->friction, b->friction);
}

static inline void fuzz_same_half_space(const ipcc_half_space_def *a, const ipcc_half_space_def *b) {
    FUZZ_SAME("half-space point", a->point, b->point);
    FUZZ_SAME("half-space normal", a->normal, b->normal);
    FUZZ_SAME("half-space friction", a->friction, b->friction);
}

static inline void fuzz_same_scene(const ipcc_scene *a, const ipcc_scene *b) {
    const ipcc_world_def *p = &a->world, *q = &b->world;
    FUZZ_SAME("time_step", p->time_step, q->time_step);
    FUZZ_SAME("gravity", p->gravity, q->gravity);
    FUZZ_SAME("integrator", p->integrator, q->integrator);
    FUZZ_SAME("newton.tolerance", p->newton_tolerance, q->newton_tolerance);
    FUZZ_SAME("newton.max_iterations", p->newton_max_iterations, q->newton_max_iterations);
    FUZZ_SAME("newton.max_splits", p->newton_max_splits, q->newton_max_splits);
    FUZZ_SAME("newton.project_hessian", p->project_hessian, q->project_hessian);
    FUZZ_SAME("newton.check_forces", p->newton_check_forces, q->newton_check_forces);
    FUZZ_SAME("num_tolerances", p->num_tolerances, q->num_tolerances);
    if (p->num_tolerances > 0)
        fuzz_same("tolerances", p->tolerances, q->tolerances,
                  (size_t)p->num_tolerances * sizeof *p->tolerances);
    FUZZ_SAME("contact.enabled", p->contact.enabled, q->contact.enabled);
    FUZZ_SAME("contact.dhat", p->contact.dhat, q->contact.dhat);
    FUZZ_SAME("contact.kappa", p->contact.kappa, q->contact.kappa);
    FUZZ_SAME("contact.self_collision", p->contact.self_collision, q->contact.self_collision);
    FUZZ_SAME("contact.friction", p->contact.friction, q->contact.friction);
    FUZZ_SAME("contact.friction_epsv", p->contact.friction_epsv, q->contact.friction_epsv);
    FUZZ_SAME("contact.friction_iterations", p->contact.friction_iterations, q->contact.friction_iterations);
    FUZZ_SAME("contact.friction_smoothing_time", p->contact.friction_smoothing_time,
              q->contact.friction_smoothing_time);
    FUZZ_SAME("length_scale", p->length_scale, q->length_scale);
    FUZZ_SAME("damping", p->damping, q->damping);
    if (p->integrator == IPCC_NEWMARK) {
        FUZZ_SAME("newmark.beta", p->newmark_beta, q->newmark_beta);
        FUZZ_SAME("newmark.gamma", p->newmark_gamma, q->newmark_gamma);
    }
    FUZZ_SAME("duration", a->duration, b->duration);
    FUZZ_SAME("steps", a->num_steps, b->num_steps);
    FUZZ_SAME("output.fps", a->output_fps, b->output_fps);
    FUZZ_SAME("output.checkpoint_every", a->checkpoint_every, b->checkpoint_every);
    FUZZ_SAME("output.contacts", a->output_contacts, b->output_contacts);
    FUZZ_SAME("output.compress", a->output_uncompressed, b->output_uncompressed);
    fuzz_same_string("output.directory", a->output_directory, b->output_directory);
    FUZZ_SAME("num_bodies", a->num_bodies, b->num_bodies);
    for (int i = 0; i < a->num_bodies; i++)
        fuzz_same_body(&a->bodies[i], &b->bodies[i]);
    FUZZ_SAME("num_obstacles", a->num_obstacles, b->num_obstacles);
    for (int i = 0; i < a->num_obstacles; i++)
        fuzz_same_obstacle(&a->obstacles[i], &b->obstacles[i]);
    FUZZ_SAME("num_half_spaces", a->num_half_spaces, b->num_half_spaces);
    for (int i = 0; i < a->num_half_spaces; i++)
        fuzz_same_half_space(&a->half_spaces[i], &b->half_spaces[i]);
    FUZZ_SAME("num_shapes", a->num_shapes, b->num_shapes);
    for (int i = 0; i < a->num_shapes; i++)
        fuzz_same_shape(&a->shapes[i], &b->shapes[i]);
}

// Writes the scene to `written` and loads it back: it must give the same scene.
static inline void fuzz_round_trip(const ipcc_scene *scene, const char *written) {
    ipcc_clear_error();
    ipcc_status s = ipcc_scene_write_json(scene, written);
    if (s != IPCC_OK) fuzz_fail("a parsed scene does not write", ipcc_last_error());
    ipcc_scene *again = NULL;
    s = ipcc_scene_load(written, &again);
    if (s != IPCC_OK) fuzz_fail("the written scene does not load", ipcc_last_error());
    fuzz_same_scene(scene, again);
    ipcc_scene_destroy(again);
}

#endif
