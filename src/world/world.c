// The world object: its creation and destruction, the storage every body
// shares, the contact layer's view of it, and the read-only views of its
// state. Building it up (world_bodies.c, world_shapes.c), starting it
// (world_start.c) and stepping it (world_step.c) happen in the files above
// this one; nothing here calls them.
//
// All bodies share flat arrays: positions x (3n), velocities, masses, tets
// with global vertex indices. A body is a contiguous vertex range and a
// contiguous tet range, placed there by world_bodies.c (bodies, mesh
// obstacles, half-spaces) and world_shapes.c (analytic shapes). Defs are
// copied; the world never keeps caller pointers. Their defaults live in
// base/types.c.
//
// Storage. Every per-vertex and per-tet array is listed once, in the tables
// below (VERTEX_ARRAYS, TET_ARRAYS): growing them (ipcc_world_reserve_state),
// the shapes' clock slot after the n vertices (ipcc_world_reserve_clock) and
// freeing them (ipcc_world_destroy) all run over the same table, so a new
// array cannot be grown but forgotten in the clock slot or leaked.
#include "world/world.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/core.h"
#include "base/vec3.h"
#include "contact/contact.h"
#include "contact/friction.h"
#include "shape/height_field.h"
#include "world/world_span.h"

// Every per-vertex array: X(field, element type, entries per vertex, its
// value in the shapes' clock slot). The clock slot (one more "vertex" after
// the n vertices, world_shapes.c) holds 0 in every 3-vector array and -1
// in the dof map (the clock is prescribed, until each step sets it); KEEP
// leaves the slot as it is (the arrays the clock never reads).
#define KEEP 1
#define VERTEX_ARRAYS(X)                                                                                     \
    X(x, double, 3, 0)                                                                                       \
    X(v, double, 3, 0)                                                                                       \
    X(a, double, 3, 0)                                                                                       \
    X(x_rest, double, 3, 0)                                                                                  \
    X(x_start, double, 3, 0)                                                                                 \
    X(x_hat, double, 3, 0)                                                                                   \
    X(x_target, double, 3, 0)                                                                                \
    X(warm, double, 3, 0)                                                                                    \
    X(x_pass, double, 3, 0)                                                                                  \
    X(contact_force, double, 3, 0)                                                                           \
    X(friction_force, double, 3, 0)                                                                          \
    X(load, double, 3, 0)                                                                                    \
    X(penalty_lambda, double, 3, KEEP)                                                                       \
    X(mass, double, 1, KEEP)                                                                                 \
    X(prescribed, int, 1, KEEP)                                                                              \
    X(dof_map, int, 3, -1)                                                                                   \
    X(penalty_saved_map, int, 3, KEEP)

// Every per-tet array: X(field, element type, entries per tet).
#define TET_ARRAYS(X)                                                                                        \
    X(tets, int, 4)                                                                                          \
    X(tet_body, int, 1)                                                                                      \
    X(tet_material, int, 1)                                                                                  \
    X(tet_region, int, 1)                                                                                    \
    X(Dm_inv, double, 9)                                                                                     \
    X(volume, double, 1)

ipcc_status ipcc_world_create(const ipcc_world_def *def, ipcc_world **out) {
    IPCC_ASSERT(def && out);
    IPCC_CHECK_DEF(def, "ipcc_world_def: initialise it with ipcc_default_world_def()");
    *out = NULL;
    if (!(def->time_step > 0) || !isfinite(def->time_step))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "time_step must be > 0 (got %g)", def->time_step);
    if (!finite3(def->gravity)) return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "gravity must be finite");
    if (def->integrator < IPCC_IMPLICIT_EULER || def->integrator > IPCC_STATIC)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "unknown integrator %d", (int)def->integrator);
    if (!(def->newton_tolerance > 0) || !isfinite(def->newton_tolerance))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "newton tolerance must be > 0 (got %g)",
                         def->newton_tolerance);
    if (def->newton_max_iterations < 1)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "newton max_iterations must be >= 1 (got %d)",
                         def->newton_max_iterations);
    if (def->newton_max_splits < 0 || def->newton_max_splits > IPCC_MAX_SPLITS)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "newton max_splits must be in [0, %d] (got %d)",
                         IPCC_MAX_SPLITS, def->newton_max_splits);
    if (!(def->contact.dhat >= 0) || !isfinite(def->contact.dhat))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "contact dhat must be >= 0 metres (got %g)",
                         def->contact.dhat);
    if (!isfinite(def->contact.friction))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "contact friction must be finite (got %g)",
                         def->contact.friction);
    if (!(def->contact.friction_epsv >= 0) || !isfinite(def->contact.friction_epsv))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "contact friction_epsv must be >= 0 m/s (got %g)",
                         def->contact.friction_epsv);
    if (def->contact.friction_iterations < 1 && def->contact.friction_iterations != -1)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "contact friction_iterations must be >= 1 or -1 (got %d)",
                         def->contact.friction_iterations);
    if (!(def->contact.kappa >= 0) || !isfinite(def->contact.kappa))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "contact kappa must be >= 0 (got %g)",
                         def->contact.kappa);
    if (!(def->contact.friction_smoothing_time >= 0) || !isfinite(def->contact.friction_smoothing_time))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "contact friction_smoothing_time must be >= 0 s (got %g)",
                         def->contact.friction_smoothing_time);
    if (!(def->length_scale >= 0) || !isfinite(def->length_scale))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "length_scale must be >= 0 metres (got %g)",
                         def->length_scale);
    if (!(def->damping >= 0) || !isfinite(def->damping))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "damping must be >= 0 s (got %g)", def->damping);
    if (!(def->newmark_beta > 0 && def->newmark_beta <= 0.5))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "newmark beta must be in (0, 0.5] (got %g)",
                         def->newmark_beta);
    if (!(def->newmark_gamma >= 0.5 && def->newmark_gamma <= 1))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "newmark gamma must be in [0.5, 1] (got %g)",
                         def->newmark_gamma);
    if (def->num_tolerances < 0 || (def->num_tolerances > 0 && !def->tolerances))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "bad tolerance schedule");
    for (int i = 0; i < def->num_tolerances; ++i)
        if (!(def->tolerances[i] > 0) || !isfinite(def->tolerances[i]))
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "newton tolerance %d must be > 0 (got %g)", i,
                             def->tolerances[i]);
    ipcc_world *w = calloc(1, sizeof *w);
    if (!w) return ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory creating the world");
    w->def = *def;
    w->h = def->time_step;
    if (def->num_tolerances > 0) {
        w->tolerances = malloc(sizeof(double) * (size_t)def->num_tolerances);
        if (!w->tolerances) {
            free(w);
            return ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory creating the world");
        }
        memcpy(w->tolerances, def->tolerances, sizeof(double) * (size_t)def->num_tolerances);
        w->def.tolerances = w->tolerances;
    }
    w->dof_version = 1; // the slot offsets (version 0) start stale
    w->newton = ipcc_newton_create();
    if (!w->newton) {
        free(w->tolerances);
        free(w);
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "could not start the linear solver (CHOLMOD)");
    }
    *out = w;
    return IPCC_OK;
}

void ipcc_world_destroy(ipcc_world *w) {
    if (!w) return;
#define FREE_VERTEX_ARRAY(field, type, per, clock) free(w->field);
#define FREE_TET_ARRAY(field, type, per) free(w->field);
    VERTEX_ARRAYS(FREE_VERTEX_ARRAY)
    TET_ARRAYS(FREE_TET_ARRAY)
    for (int b = 0; b < w->num_bodies; ++b)
        free(w->bodies[b].name);
    for (int c = 0; c < w->num_dirichlet; ++c)
        free(w->dirichlet[c].vertices);
    for (int c = 0; c < w->num_neumann; ++c)
        free(w->neumann[c].vertices);
    free(w->bodies);
    free(w->dirichlet);
    free(w->neumann);
    free(w->tolerances);
    free(w->damp_H);
    ipcc_world_span_free(w);
    free(w->materials);
    free(w->tet_energy);
    free(w->tet_grad);
    free(w->tet_slot);
    free(w->faces);
    free(w->edges);
    free(w->half_spaces);
    free(w->half_space_friction);
    for (int h = 0; h < w->num_half_spaces; h++)
        free(w->half_space_names[h]);
    free(w->half_space_names);
    for (int i = 0; i < w->num_shapes; ++i) {
        free((char *)w->shapes[i].name);
        ipcc_height_field_destroy((ipcc_height_field *)w->shape_pose[i].field); // the world owns the grids
    }
    free(w->shapes);
    free(w->shape_pose);
    free(w->shape_motion);
    free(w->shape_feature_body_of);
    ipcc_friction_destroy(w->friction);
    ipcc_contact_destroy(w->contact);
    ipcc_newton_destroy(w->newton);
    free(w);
}

int ipcc_world_reserve_state(ipcc_world *w, int n, int nt) {
#define GROW(field, type, per)                                                                               \
    {                                                                                                        \
        type *p = realloc(w->field, sizeof(type) * (per) * (size_t)cap);                                     \
        if (!p) return -1;                                                                                   \
        w->field = p;                                                                                        \
    }
#define GROW_VERTEX_ARRAY(field, type, per, clock) GROW(field, type, per)
    if (n > w->cap_n) {
        int cap = ipcc_grow_capacity(w->cap_n, 64, n);
        VERTEX_ARRAYS(GROW_VERTEX_ARRAY)
        w->cap_n = cap;
    }
    if (nt > w->cap_nt) {
        int cap = ipcc_grow_capacity(w->cap_nt, 64, nt);
        TET_ARRAYS(GROW)
        w->cap_nt = cap;
    }
    return 0;
}

int ipcc_world_reserve_clock(ipcc_world *w) {
    if (ipcc_world_reserve_state(w, w->n + 1, w->nt) != 0) return -1;
#define CLOCK_SLOT(field, type, per, clock)                                                                  \
    if ((clock) != KEEP)                                                                                     \
        for (int k = 0; k < (per); ++k)                                                                      \
            w->field[(per) * (size_t)w->n + k] = (type)(clock);
    VERTEX_ARRAYS(CLOCK_SLOT)
    return 0;
}

ipcc_contact_setup ipcc_world_contact_setup(const ipcc_world *w, ipcc_collision_body *bodies) {
    for (int b = 0; b < w->num_bodies; ++b) {
        const ipcc_body *body = &w->bodies[b];
        bodies[b] = (ipcc_collision_body){.name = body->name,
                                          .first_vertex = body->first_vertex,
                                          .num_vertices = body->num_vertices,
                                          .first_tet = body->first_tet,
                                          .num_faces = body->num_faces,
                                          .kinematic = body->kinematic};
    }
    return (ipcc_contact_setup){.mesh = {.num_vertices = w->n,
                                         .rest_positions = w->x_rest,
                                         .num_bodies = w->num_bodies,
                                         .bodies = bodies,
                                         .num_faces = w->num_faces,
                                         .faces = w->faces,
                                         .num_edges = w->num_edges,
                                         .edges = w->edges,
                                         .self_collision = w->def.contact.self_collision},
                                .positions = w->x,
                                .masses = w->mass,
                                .num_tets = w->nt,
                                .tets = w->tets,
                                .tet_body = w->tet_body,
                                .num_half_spaces = w->num_half_spaces,
                                .half_spaces = w->half_spaces,
                                .half_space_names = (const char *const *)w->half_space_names,
                                .num_shapes = w->num_shapes,
                                .shape_poses = w->shape_pose,
                                .shape_defs = w->shapes,
                                .bbox_diagonal = w->bbox_diagonal,
                                .dhat = w->def.contact.dhat,
                                .kappa = w->def.contact.kappa};
}

ipcc_status ipcc_world_create_contact(const ipcc_world *w, ipcc_contact **out) {
    ipcc_collision_body *bodies = malloc(sizeof *bodies * (size_t)(w->num_bodies + 1));
    if (!bodies) return ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory creating the contact state");
    ipcc_contact_setup def = ipcc_world_contact_setup(w, bodies);
    ipcc_status st = ipcc_contact_create(&def, out);
    free(bodies);
    return st;
}

int ipcc_world_num_vertices(const ipcc_world *w) { return w->n; }
int ipcc_world_num_tets(const ipcc_world *w) { return w->nt; }
int ipcc_world_num_bodies(const ipcc_world *w) { return w->num_bodies; }
const double *ipcc_world_positions(const ipcc_world *w) { return w->x; }
const double *ipcc_world_velocities(const ipcc_world *w) { return w->v; }
const double *ipcc_world_rest_positions(const ipcc_world *w) { return w->x_rest; }
const double *ipcc_world_masses(const ipcc_world *w) { return w->mass; }
const int *ipcc_world_tets(const ipcc_world *w) { return w->tets; }
const int *ipcc_world_tet_bodies(const ipcc_world *w) { return w->tet_body; }
const int *ipcc_world_tet_regions(const ipcc_world *w) { return w->tet_region; }
double ipcc_world_time(const ipcc_world *w) { return w->time; }
int ipcc_world_step_count(const ipcc_world *w) { return w->step; }
double ipcc_world_time_step(const ipcc_world *w) { return w->def.time_step; }
double ipcc_world_bbox_diagonal(const ipcc_world *w) { return w->bbox_diagonal; }

void ipcc_world_body_vertices(const ipcc_world *w, int body, int *first, int *count) {
    IPCC_ASSERT(body >= 0 && body < w->num_bodies);
    if (first) *first = w->bodies[body].first_vertex;
    if (count) *count = w->bodies[body].num_vertices;
}

const char *ipcc_world_body_name(const ipcc_world *w, int body) {
    IPCC_ASSERT(body >= 0 && body < w->num_bodies);
    return w->bodies[body].name;
}

bool ipcc_world_body_is_obstacle(const ipcc_world *w, int body) {
    IPCC_ASSERT(body >= 0 && body < w->num_bodies);
    return w->bodies[body].kinematic;
}
int ipcc_world_num_deformable_vertices(const ipcc_world *w) { return w->n_deformable; }
void ipcc_world_body_surface(const ipcc_world *w, int body, int *num_faces, const int **faces) {
    IPCC_ASSERT(body >= 0 && body < w->num_bodies);
    if (num_faces) *num_faces = w->bodies[body].num_faces;
    if (faces) *faces = w->faces + 3 * w->bodies[body].first_face;
}
void ipcc_world_body_edges(const ipcc_world *w, int body, int *num_edges, const int **edges) {
    IPCC_ASSERT(body >= 0 && body < w->num_bodies);
    if (num_edges) *num_edges = w->bodies[body].num_edges;
    if (edges) *edges = w->edges + 2 * w->bodies[body].first_edge;
}
int ipcc_world_num_half_spaces(const ipcc_world *w) { return w->num_half_spaces; }
void ipcc_world_half_space(const ipcc_world *w, int i, double point[3], double normal[3]) {
    IPCC_ASSERT(i >= 0 && i < w->num_half_spaces);
    memcpy(point, w->half_spaces + 6 * i, 3 * sizeof(double));
    memcpy(normal, w->half_spaces + 6 * i + 3, 3 * sizeof(double));
}
const double *ipcc_world_contact_forces(const ipcc_world *w) { return w->contact_force; }
const double *ipcc_world_friction_forces(const ipcc_world *w) { return w->friction_force; }
double ipcc_world_dhat(const ipcc_world *w) {
    if (w->contact) return w->dhat;
    return w->def.contact.dhat > 0 ? w->def.contact.dhat : 1e-3 * w->bbox_diagonal;
}
double ipcc_world_kappa(const ipcc_world *w) { return w->kappa; }
bool ipcc_world_kappa_bounds(const ipcc_world *w, double *kappa_min, double *kappa_max) {
    if (!w->contact) return false;
    ipcc_contact_kappa_bounds(w->contact, kappa_min, kappa_max);
    return true;
}

int ipcc_world_body_of_vertex(const ipcc_world *w, int v) {
    int lo = 0, hi = w->num_bodies - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (w->bodies[mid].first_vertex <= v)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

bool ipcc_world_vertex_is_prescribed(const ipcc_world *w, int vertex) {
    IPCC_ASSERT(vertex >= 0 && vertex < w->n);
    return w->prescribed[vertex] >= 0;
}
