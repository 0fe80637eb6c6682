// Adding to the world: deformable bodies, kinematic mesh obstacles and
// half-spaces (analytic shapes: world_shapes.c).
//
// Placement. A mesh's vertices are placed once, at add time, into the
// world's rest positions x_rest: either scaled (per axis) then rotated
// (Euler degrees about x, then y, then z) about the bbox centre of the
// file's coordinates, then translated; or by one 3x4 affine map
// (use_transform, det > 0: no mirroring, which would turn tets inside out).
// A body's tets get their rest shapes (Dm^-1, volume) and lumped masses
// from the placed positions, so scaling changes the mass; a degenerate tet
// after scaling is an IPCC_ERR_MESH naming it.
//
// Materials. A body owns a run of the world's material slots: its default
// `material`, then `materials` (per-tet materials, e.g. one per mesh region,
// ipcc_body_def.tet_materials). Each tet records its slot (tet_material),
// which ipcc_world_tet_law() reads; a tet's lumped mass uses its own
// density. A body without per-tet materials gets one slot and the same
// masses (ipcc_lumped_mass()) as before slots existed.
//
// Order. Deformable bodies come first, then obstacles, so the deformable
// vertices are [0, n_deformable) (ipcc_world_num_deformable_vertices): a
// body added after an obstacle is refused. An obstacle is a body with no
// tets and zero mass whose vertices one rigid Dirichlet condition moves for
// ever (with its optional stop trigger). Nothing is added after the start.
//
// Failures. A def not started from its ipcc_default_*() function is a
// programmer error (IPCC_CHECK_DEF). Values are checked before anything is
// placed (IPCC_ERR_INVALID_ARGUMENT naming the body and the field); a later
// failure (a tet degenerate after scaling, a condition's vertex out of
// range, out of memory) may leave the world half-built: it can then only be
// destroyed.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/core.h"
#include "fem/inertia.h"
#include "base/rotation.h"
#include "base/vec3.h"
#include "world/world.h"
#include "world/boundary_conditions.h"

// Place: scale, then rotate, about the bbox centre of src; then translate.
static void place_vertices(int count, const double *src, const double scale[3], const double rotation[3],
                           const double translation[3], double *dst) {
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < count; ++i)
        for (int k = 0; k < 3; ++k) {
            lo[k] = fmin(lo[k], src[3 * i + k]);
            hi[k] = fmax(hi[k], src[3 * i + k]);
        }
    double c[3] = {0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1]), 0.5 * (lo[2] + hi[2])}, R[9];
    ipcc_rotation_euler_degrees(rotation, 1, R); // about x first, then y, then z
    for (int i = 0; i < count; ++i) {
        double r[3];
        for (int k = 0; k < 3; ++k)
            r[k] = scale[k] * (src[3 * i + k] - c[k]);
        for (int k = 0; k < 3; ++k)
            dst[3 * i + k] =
                c[k] + R[3 * k] * r[0] + R[3 * k + 1] * r[1] + R[3 * k + 2] * r[2] + translation[k];
    }
}

// Place with a 3x4 row-major affine map.
static void transform_vertices(int count, const double *src, const double T[12], double *dst) {
    for (int i = 0; i < count; ++i) {
        const double *p = src + 3 * i;
        for (int k = 0; k < 3; ++k)
            dst[3 * i + k] = T[4 * k] * p[0] + T[4 * k + 1] * p[1] + T[4 * k + 2] * p[2] + T[4 * k + 3];
    }
}

// NULL if the transform is usable (finite, det > 0), else the reason.
static const char *check_transform(const double T[12]) {
    for (int k = 0; k < 12; ++k)
        if (!isfinite(T[k])) return "transform has a non-finite entry";
    double det = T[0] * (T[5] * T[10] - T[6] * T[9]) - T[1] * (T[4] * T[10] - T[6] * T[8]) +
                 T[2] * (T[4] * T[9] - T[5] * T[8]);
    return det > 0 ? NULL
                   : "transform's 3x3 part must have a positive determinant (no mirroring or collapse)";
}

static void place(const double *src, int count, bool use_transform, const double T[12], const double scale[3],
                  const double rotation[3], const double translation[3], double *dst) {
    if (use_transform)
        transform_vertices(count, src, T, dst);
    else
        place_vertices(count, src, scale, rotation, translation, dst);
}

static bool valid_trigger(const ipcc_stop_trigger *t) {
    return t->axis == -1 ||
           (t->axis >= 0 && t->axis <= 2 && t->first_vertex >= 0 && t->num_vertices >= 1 && !isnan(t->value));
}

// Append triangles and edges (local indices + offset) to the contact surfaces.
static int append_surface(ipcc_world *w, int offset, int nf, const int *faces, int ne, const int *edges) {
    if (ipcc_reserve((void **)&w->faces, &w->cap_faces, 3 * (w->num_faces + nf), sizeof(int)) != 0 ||
        ipcc_reserve((void **)&w->edges, &w->cap_edges, 2 * (w->num_edges + ne), sizeof(int)) != 0)
        return -1;
    for (int k = 0; k < 3 * nf; ++k)
        w->faces[3 * w->num_faces + k] = faces[k] + offset;
    for (int k = 0; k < 2 * ne; ++k)
        w->edges[2 * w->num_edges + k] = edges[k] + offset;
    w->num_faces += nf;
    w->num_edges += ne;
    return 0;
}

// Vertices [first, first + count) start at their rest positions with the
// rigid velocity v + omega x (x - centre), free, not yet in the dof map.
static void init_vertices(ipcc_world *w, int first, int count, const double centre[3], const double v[3],
                          const double om[3]) {
    for (int i = first; i < first + count; ++i) {
        double r[3] = {w->x_rest[3 * i] - centre[0], w->x_rest[3 * i + 1] - centre[1],
                       w->x_rest[3 * i + 2] - centre[2]};
        w->v[3 * i] = v[0] + om[1] * r[2] - om[2] * r[1];
        w->v[3 * i + 1] = v[1] + om[2] * r[0] - om[0] * r[2];
        w->v[3 * i + 2] = v[2] + om[0] * r[1] - om[1] * r[0];
        w->prescribed[i] = -1;
        for (int k = 0; k < 3; ++k)
            w->dof_map[3 * i + k] = -2; // "never mapped": forces a rebuild
    }
    memcpy(w->x + 3 * first, w->x_rest + 3 * first, sizeof(double) * 3 * (size_t)count);
    memset(w->contact_force + 3 * first, 0, sizeof(double) * 3 * (size_t)count);
    memset(w->friction_force + 3 * first, 0, sizeof(double) * 3 * (size_t)count);
}

// A new body record (capacity reserved by the caller) owning vertices
// [first, first + count) and the given surface (local indices); NULL when
// out of memory. The caller fills in tets and material.
static ipcc_body *append_body(ipcc_world *w, const char *name, int first, int count, int nf, const int *faces,
                              int ne, const int *edges) {
    int first_face = w->num_faces, first_edge = w->num_edges;
    if (append_surface(w, first, nf, faces, ne, edges) != 0) return NULL;
    ipcc_body *b = &w->bodies[w->num_bodies];
    memset(b, 0, sizeof *b);
    b->name = malloc(strlen(name) + 1);
    if (!b->name) return NULL;
    strcpy(b->name, name);
    b->first_vertex = first;
    b->num_vertices = count;
    b->first_face = first_face;
    b->num_faces = nf;
    b->first_edge = first_edge;
    b->num_edges = ne;
    b->shape = -1;
    return b;
}

// A condition's vertex list indexes the body's own vertices. Checked here,
// before the world changes, so a refused body leaves no trace (the selection
// in boundary_conditions.c checks it again, after the body is appended).
static ipcc_status check_vertex_list(const char *name, const char *what, int c, int count, const int *list,
                                     int num_vertices) {
    for (int j = 0; j < count; ++j)
        if (list[j] < 0 || list[j] >= num_vertices)
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                             "body \"%s\": %s[%d]: vertex %d is out of range (the body has %d)", name, what,
                             c, list[j], num_vertices);
    return IPCC_OK;
}

// A material's values; `what` is "" for the body's own, else "materials[k]: ".
static ipcc_status check_material(const ipcc_material *m, const char *name, const char *what) {
    if (m->model < IPCC_NEO_HOOKEAN || m->model > IPCC_LINEAR)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "body \"%s\": %sunknown material model %d", name, what,
                         (int)m->model);
    if (!(m->density > 0) || !isfinite(m->density))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "body \"%s\": %sdensity must be > 0 (got %g)", name, what,
                         m->density);
    if (!(m->youngs_modulus > 0) || !isfinite(m->youngs_modulus))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "body \"%s\": %syoungs_modulus must be > 0 (got %g)",
                         name, what, m->youngs_modulus);
    if (!(m->poisson_ratio >= 0 && m->poisson_ratio < 0.5))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                         "body \"%s\": %spoisson_ratio must be in [0, 0.5) (got %g)", name, what,
                         m->poisson_ratio);
    return IPCC_OK;
}

// Per-tet materials: every material valid, every index in [-1, num_materials).
static ipcc_status check_tet_materials(const ipcc_body_def *def, const char *name) {
    if (def->num_materials < 0 || (def->num_materials > 0 && !def->materials) ||
        (def->tet_materials && def->num_materials == 0))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "body \"%s\": bad materials array (%d entries)", name,
                         def->num_materials);
    for (int k = 0; k < def->num_materials; ++k) {
        char what[48];
        snprintf(what, sizeof what, "materials[%d]: ", k);
        ipcc_status st = check_material(&def->materials[k], name, what);
        if (st != IPCC_OK) return st;
    }
    for (int e = 0; def->tet_materials && e < def->mesh->num_tets; ++e)
        if (def->tet_materials[e] < -1 || def->tet_materials[e] >= def->num_materials)
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                             "body \"%s\": tet_materials[%d] = %d is out of range (-1 to %d)", name, e,
                             def->tet_materials[e], def->num_materials - 1);
    return IPCC_OK;
}

static ipcc_status check_body_def(const ipcc_body_def *def, const char *name) {
    if (!def->mesh || def->mesh->num_tets < 1)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "body \"%s\": no mesh (or a mesh without tets)", name);
    ipcc_status mst = check_material(&def->material, name, "");
    if (mst == IPCC_OK) mst = check_tet_materials(def, name);
    if (mst != IPCC_OK) return mst;
    if (!finite3(def->translation) || !finite3(def->rotation) || !finite3(def->velocity) ||
        !finite3(def->angular_velocity) || !finite3(def->scale))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "body \"%s\": non-finite transform or velocity", name);
    for (int k = 0; k < 3; ++k)
        if (!(def->scale[k] > 0))
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "body \"%s\": scale must be > 0 (got %g)", name,
                             def->scale[k]);
    if (!(def->friction >= 0) || !isfinite(def->friction))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "body \"%s\": friction must be >= 0 (got %g)", name,
                         def->friction);
    if (def->num_dirichlet < 0 || (def->num_dirichlet > 0 && !def->dirichlet))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "body \"%s\": bad dirichlet array", name);
    for (int c = 0; c < def->num_dirichlet; ++c) {
        const ipcc_dirichlet_def *d = &def->dirichlet[c];
        if (!finite3(d->box_min) || !finite3(d->box_max) || !finite3(d->velocity) ||
            !finite3(d->angular_velocity) || isnan(d->start) || isnan(d->end) || !(d->end > d->start) ||
            (d->has_pivot && !finite3(d->pivot)))
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                             "body \"%s\": dirichlet[%d]: non-finite values or end <= start", name, c);
        if (d->num_vertices < 0 || (d->num_vertices > 0 && !d->vertices))
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "body \"%s\": dirichlet[%d]: bad vertex list", name,
                             c);
        if (!valid_trigger(&d->stop))
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "body \"%s\": dirichlet[%d]: bad stop trigger", name,
                             c);
        ipcc_status st =
            check_vertex_list(name, "dirichlet", c, d->num_vertices, d->vertices, def->mesh->num_vertices);
        if (st != IPCC_OK) return st;
    }
    if (def->num_neumann < 0 || (def->num_neumann > 0 && !def->neumann))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "body \"%s\": bad neumann array", name);
    for (int c = 0; c < def->num_neumann; ++c) {
        const ipcc_neumann_def *d = &def->neumann[c];
        if (!finite3(d->box_min) || !finite3(d->box_max) || !finite3(d->acceleration) || isnan(d->start) ||
            isnan(d->end) || !(d->end > d->start) || d->num_vertices < 0 ||
            (d->num_vertices > 0 && !d->vertices))
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                             "body \"%s\": neumann[%d]: non-finite values, end <= start or a bad vertex list",
                             name, c);
        ipcc_status st =
            check_vertex_list(name, "neumann", c, d->num_vertices, d->vertices, def->mesh->num_vertices);
        if (st != IPCC_OK) return st;
    }
    if (def->use_transform) {
        const char *why = check_transform(def->transform);
        if (why) return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "body \"%s\": %s", name, why);
    }
    if (def->has_velocity_pivot && !finite3(def->velocity_pivot))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "body \"%s\": non-finite velocity pivot", name);
    return IPCC_OK;
}

ipcc_status ipcc_world_add_body(ipcc_world *w, const ipcc_body_def *def, int *body_index) {
    IPCC_ASSERT(w && def);
    IPCC_CHECK_DEF(def, "ipcc_body_def: initialise it with ipcc_default_body_def()");
    for (int c = 0; def->dirichlet && c < def->num_dirichlet; ++c)
        IPCC_CHECK_DEF(&def->dirichlet[c],
                       "ipcc_dirichlet_def: initialise it with ipcc_default_dirichlet_def()");
    for (int c = 0; def->neumann && c < def->num_neumann; ++c)
        IPCC_CHECK_DEF(&def->neumann[c], "ipcc_neumann_def: initialise it with ipcc_default_neumann_def()");
    char fallback[32];
    snprintf(fallback, sizeof fallback, "body %d", w->num_bodies);
    const char *name = def->name ? def->name : fallback;
    if (w->started)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "body \"%s\": bodies must be added before the first step",
                         name);
    if (w->n > w->n_deformable)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                         "body \"%s\": deformable bodies must be added before obstacles", name);
    ipcc_status st = check_body_def(def, name);
    if (st != IPCC_OK) return st;
    const ipcc_mesh *mesh = def->mesh;
    int n0 = w->n, nt0 = w->nt;
    if (mesh->num_vertices > (1 << 28) - n0 || mesh->num_tets > (1 << 28) - nt0)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "body \"%s\": too many vertices or tets", name);
    if (ipcc_world_reserve_state(w, n0 + mesh->num_vertices, nt0 + mesh->num_tets) != 0 ||
        ipcc_reserve((void **)&w->bodies, &w->cap_bodies, w->num_bodies + 1, sizeof *w->bodies) != 0 ||
        ipcc_reserve((void **)&w->dirichlet, &w->cap_dirichlet, w->num_dirichlet + def->num_dirichlet,
                     sizeof *w->dirichlet) != 0 ||
        ipcc_reserve((void **)&w->neumann, &w->cap_neumann, w->num_neumann + def->num_neumann,
                     sizeof *w->neumann) != 0 ||
        ipcc_reserve((void **)&w->materials, &w->cap_materials, w->num_materials + 1 + def->num_materials,
                     sizeof *w->materials) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "body \"%s\": out of memory", name);
    // Material slots: the default, then def->materials in order.
    int m0 = w->num_materials;
    for (int k = 0; k <= def->num_materials; ++k) {
        ipcc_world_material *wm = &w->materials[m0 + k];
        wm->material = k == 0 ? def->material : def->materials[k - 1];
        ipcc_lame_parameters(wm->material.youngs_modulus, wm->material.poisson_ratio, &wm->mu, &wm->lambda);
    }

    place(mesh->vertices, mesh->num_vertices, def->use_transform, def->transform, def->scale, def->rotation,
          def->translation, w->x_rest + 3 * n0);
    // Tets, rest shapes and lumped masses.
    for (int e = 0; e < mesh->num_tets; ++e) {
        double X[12];
        for (int k = 0; k < 4; ++k) {
            int vi = n0 + mesh->tets[4 * e + k];
            w->tets[4 * (nt0 + e) + k] = vi;
            memcpy(X + 3 * k, w->x_rest + 3 * vi, 3 * sizeof(double));
        }
        w->tet_body[nt0 + e] = w->num_bodies;
        w->tet_material[nt0 + e] = m0 + (def->tet_materials ? 1 + def->tet_materials[e] : 0);
        w->tet_region[nt0 + e] = mesh->tet_regions ? mesh->tet_regions[e] : 0;
        if (ipcc_tet_rest_data(X, w->Dm_inv + 9 * (nt0 + e), &w->volume[nt0 + e]) != IPCC_OK)
            return ipcc_fail(IPCC_ERR_MESH, "body \"%s\": tet %d is degenerate after scaling", name, e);
    }
    memset(w->mass + n0, 0, sizeof(double) * (size_t)mesh->num_vertices);
    if (!def->tet_materials) {
        ipcc_lumped_mass(mesh, w->x_rest + 3 * n0, def->material.density, w->mass + n0);
    } else {
        // Each tet gives a quarter of its own density * V to each vertex (as inertia.c).
        for (int e = nt0; e < nt0 + mesh->num_tets; ++e) {
            double m4 = w->materials[w->tet_material[e]].material.density * w->volume[e] / 4.0;
            for (int k = 0; k < 4; ++k)
                w->mass[w->tets[4 * e + k]] += m4;
        }
    }

    // Initial velocity: v + omega x (x - centre of mass).
    double com[3] = {0, 0, 0}, mtot = 0;
    for (int i = 0; i < mesh->num_vertices; ++i) {
        mtot += w->mass[n0 + i];
        for (int k = 0; k < 3; ++k)
            com[k] += w->mass[n0 + i] * w->x_rest[3 * (n0 + i) + k];
    }
    for (int k = 0; k < 3; ++k)
        com[k] = def->has_velocity_pivot ? def->velocity_pivot[k] : com[k] / mtot;
    init_vertices(w, n0, mesh->num_vertices, com, def->velocity, def->angular_velocity);
    ipcc_body *b = append_body(w, name, n0, mesh->num_vertices, mesh->num_faces, mesh->faces, mesh->num_edges,
                               mesh->edges);
    if (!b) return ipcc_fail(IPCC_ERR_NO_MEMORY, "body \"%s\": out of memory", name);
    b->first_tet = nt0;
    b->num_tets = mesh->num_tets;
    b->friction = def->friction;
    b->material = def->material;
    b->mu = w->materials[m0].mu;
    b->lambda = w->materials[m0].lambda;
    b->first_material = m0;
    b->num_materials = 1 + def->num_materials;
    w->num_materials = m0 + b->num_materials;
    w->n = n0 + mesh->num_vertices;
    w->n_deformable = w->n;
    w->nt = nt0 + mesh->num_tets;
    w->num_bodies++;

    for (int k = 0; k < def->num_dirichlet; ++k) {
        ipcc_dirichlet *bc = &w->dirichlet[w->num_dirichlet];
        st = ipcc_dirichlet_select(w, w->num_bodies - 1, &def->dirichlet[k], bc);
        if (st != IPCC_OK) return ipcc_fail(st, "body \"%s\": dirichlet[%d]: %s", name, k, ipcc_last_error());
        w->num_dirichlet++;
        if (bc->num_vertices == 0)
            ipcc_log(IPCC_LOG_WARNING, "body \"%s\": dirichlet[%d] selects no vertex", name, k);
        else
            ipcc_log(IPCC_LOG_INFO, "body \"%s\": dirichlet[%d] selects %d vertices", name, k,
                     bc->num_vertices);
    }
    for (int k = 0; k < def->num_neumann; ++k) {
        ipcc_neumann *nc = &w->neumann[w->num_neumann];
        st = ipcc_neumann_select(w, w->num_bodies - 1, &def->neumann[k], nc);
        if (st != IPCC_OK) return ipcc_fail(st, "body \"%s\": neumann[%d]: %s", name, k, ipcc_last_error());
        w->num_neumann++;
        if (nc->num_vertices == 0)
            ipcc_log(IPCC_LOG_WARNING, "body \"%s\": neumann[%d] selects no vertex", name, k);
    }
    // L: bbox diagonal over all bodies at t = 0 (or the given length scale).
    double L[6] = {INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < w->n; ++i)
        for (int k = 0; k < 3; ++k) {
            L[k] = fmin(L[k], w->x_rest[3 * i + k]);
            L[3 + k] = fmax(L[3 + k], w->x_rest[3 * i + k]);
        }
    w->bbox_diagonal =
        sqrt((L[3] - L[0]) * (L[3] - L[0]) + (L[4] - L[1]) * (L[4] - L[1]) + (L[5] - L[2]) * (L[5] - L[2]));
    if (w->def.length_scale > 0) w->bbox_diagonal = w->def.length_scale;
    if (body_index) *body_index = w->num_bodies - 1;
    return IPCC_OK;
}

ipcc_status ipcc_world_add_obstacle(ipcc_world *w, const ipcc_obstacle_def *def, int *body_index) {
    IPCC_ASSERT(w && def);
    IPCC_CHECK_DEF(def, "ipcc_obstacle_def: initialise it with ipcc_default_obstacle_def()");
    char fallback[32];
    snprintf(fallback, sizeof fallback, "obstacle %d", w->num_bodies);
    const char *name = def->name ? def->name : fallback;
    if (w->started)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                         "obstacle \"%s\": obstacles must be added before the first step", name);
    const ipcc_trimesh *mesh = def->mesh;
    if (!mesh || mesh->num_vertices < 1)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "obstacle \"%s\": no mesh (or a mesh without vertices)",
                         name);
    if (!finite3(def->translation) || !finite3(def->rotation) || !finite3(def->velocity) ||
        !finite3(def->angular_velocity) || !finite3(def->scale) || (def->has_pivot && !finite3(def->pivot)))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "obstacle \"%s\": non-finite transform or velocity",
                         name);
    if (def->use_transform) {
        const char *why = check_transform(def->transform);
        if (why) return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "obstacle \"%s\": %s", name, why);
    }
    if (!valid_trigger(&def->stop))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "obstacle \"%s\": bad stop trigger", name);
    for (int k = 0; k < 3; ++k)
        if (!(def->scale[k] > 0))
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "obstacle \"%s\": scale must be > 0 (got %g)", name,
                             def->scale[k]);
    if (!(def->friction >= 0) || !isfinite(def->friction))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "obstacle \"%s\": friction must be >= 0 (got %g)", name,
                         def->friction);
    int n0 = w->n;
    if (mesh->num_vertices > (1 << 28) - n0)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "obstacle \"%s\": too many vertices", name);
    if (ipcc_world_reserve_state(w, n0 + mesh->num_vertices, w->nt) != 0 ||
        ipcc_reserve((void **)&w->bodies, &w->cap_bodies, w->num_bodies + 1, sizeof *w->bodies) != 0 ||
        ipcc_reserve((void **)&w->dirichlet, &w->cap_dirichlet, w->num_dirichlet + 1, sizeof *w->dirichlet) !=
            0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "obstacle \"%s\": out of memory", name);
    place(mesh->vertices, mesh->num_vertices, def->use_transform, def->transform, def->scale, def->rotation,
          def->translation, w->x_rest + 3 * n0);
    int nv = mesh->num_vertices;
    double centre[3] = {0, 0, 0};
    for (int i = n0; i < n0 + nv; ++i)
        for (int k = 0; k < 3; ++k)
            centre[k] += w->x_rest[3 * i + k] / nv;
    if (def->has_pivot) memcpy(centre, def->pivot, sizeof centre);
    for (int i = n0; i < n0 + nv; ++i)
        w->mass[i] = 0;
    init_vertices(w, n0, nv, centre, def->velocity, def->angular_velocity);
    ipcc_body *b = append_body(w, name, n0, nv, mesh->num_faces, mesh->faces, mesh->num_edges, mesh->edges);
    if (!b) return ipcc_fail(IPCC_ERR_NO_MEMORY, "obstacle \"%s\": out of memory", name);
    b->first_tet = w->nt;
    b->kinematic = true;
    b->friction = def->friction;
    b->material = ipcc_default_material();
    w->n = n0 + nv;
    w->num_bodies++;
    // Its motion: one rigid condition over all its vertices, forever.
    ipcc_dirichlet_def motion = ipcc_default_dirichlet_def();
    motion.start = -1e30;
    memcpy(motion.velocity, def->velocity, sizeof motion.velocity);
    memcpy(motion.angular_velocity, def->angular_velocity, sizeof motion.angular_velocity);
    motion.has_pivot = def->has_pivot;
    memcpy(motion.pivot, def->pivot, sizeof motion.pivot);
    motion.stop = def->stop;
    ipcc_dirichlet *bc = &w->dirichlet[w->num_dirichlet];
    ipcc_status st = ipcc_dirichlet_select(w, w->num_bodies - 1, &motion, bc);
    if (st != IPCC_OK) return st;
    w->num_dirichlet++;
    if (body_index) *body_index = w->num_bodies - 1;
    return IPCC_OK;
}

ipcc_status ipcc_world_add_half_space(ipcc_world *w, const ipcc_half_space_def *def, int *half_space_index) {
    IPCC_ASSERT(w && def);
    IPCC_CHECK_DEF(def, "ipcc_half_space_def: initialise it with ipcc_default_half_space_def()");
    char name[128]; // "half-space 2", or "half-space \"floor\"", in messages
    if (def->name)
        snprintf(name, sizeof name, "half-space \"%s\"", def->name);
    else
        snprintf(name, sizeof name, "half-space %d", w->num_half_spaces);
    if (w->started)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s: must be added before the first step", name);
    const double *point = def->point, *normal = def->normal;
    double friction = def->friction;
    double len = sqrt(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
    if (!finite3(point) || !finite3(normal) || !(len > 0) || !isfinite(len))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                         "%s: point and normal must be finite and the normal non-zero", name);
    if (isnan(friction) || !isfinite(friction))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s: friction must be finite (got %g)", name, friction);
    if (friction < 0) friction = -1; // not set
    char *copy = NULL;
    if (ipcc_reserve((void **)&w->half_spaces, &w->cap_half_spaces, 6 * (w->num_half_spaces + 1),
                     sizeof(double)) != 0 ||
        ipcc_reserve((void **)&w->half_space_friction, &w->cap_half_space_friction, w->num_half_spaces + 1,
                     sizeof(double)) != 0 ||
        ipcc_reserve((void **)&w->half_space_names, &w->cap_half_space_names, w->num_half_spaces + 1,
                     sizeof(char *)) != 0 ||
        (def->name && !(copy = malloc(strlen(def->name) + 1))))
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory");
    if (copy) strcpy(copy, def->name);
    w->half_space_names[w->num_half_spaces] = copy; // NULL: unnamed
    w->half_space_friction[w->num_half_spaces] = friction;
    if (half_space_index) *half_space_index = w->num_half_spaces;
    double *h = w->half_spaces + 6 * w->num_half_spaces++;
    for (int k = 0; k < 3; ++k) {
        h[k] = point[k];
        h[3 + k] = normal[k] / len;
    }
    return IPCC_OK;
}
