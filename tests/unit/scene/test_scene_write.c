// Tests for src/scene/scene_write.c: ipcc_scene_write_json().
//
// The contract is "loading the written file gives the same world": every
// examples/*.json scene and a synthetic scene that uses every key are
// loaded, written, loaded again, and both the scenes (field by field) and
// the worlds built from them (vertex count, rest positions, masses,
// velocities: bit-identical) are compared. Then the file-system side:
// an unwritable path fails with a message naming it and leaves nothing
// behind, an existing file is replaced atomically (and kept when the write
// fails), and non-finite values are refused or mapped to "forever"; a shape
// rotation that cannot be written exactly is refused.
#define _XOPEN_SOURCE 700 // realpath
#include "support.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ipcc/scene.h"
#include "ipcc/world.h"

static void assert_contains(const char *haystack, const char *needle) {
    if (!strstr(haystack, needle)) fail_msg("\"%s\" lacks \"%s\"", haystack, needle);
}

// Number of entries of a folder (without . and ..); the names go to `first`.
static int count_entries(const char *dir, char *first, size_t len) {
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    if (first) first[0] = '\0';
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        if (first && n == 0) snprintf(first, len, "%s", e->d_name);
        n++;
    }
    closedir(d);
    return n;
}

static ipcc_scene *load_or_fail(const char *path) {
    ipcc_scene *s = NULL;
    ipcc_status st = ipcc_scene_load(path, &s);
    if (st != IPCC_OK) fail_msg("load %s: %s: %s", path, ipcc_status_name(st), ipcc_last_error());
    return s;
}

// ---------------------------------------------------------------------------
// Field-by-field comparison

#define SAME_BITS(a, b, what)                                                                                \
    do {                                                                                                     \
        if (memcmp(&(a), &(b), sizeof(a)) != 0) fail_msg("%s: %s differs", ctx, what);                       \
    } while (0)
#define SAME_ARRAY(a, b, n, what)                                                                            \
    do {                                                                                                     \
        if ((n) > 0 && memcmp((a), (b), (size_t)(n) * sizeof *(a)) != 0)                                     \
            fail_msg("%s: %s differ", ctx, what);                                                            \
    } while (0)

static void same_path(const char *ctx, const char *a, const char *b) {
    if (!a || !b) {
        if (a != b) fail_msg("%s: one path is NULL", ctx);
        return;
    }
    char *ra = realpath(a, NULL), *rb = realpath(b, NULL);
    if (!ra || !rb) fail_msg("%s: unresolvable path %s or %s", ctx, a, b);
    if (strcmp(ra, rb) != 0) fail_msg("%s: %s and %s are different files", ctx, ra, rb);
    free(ra);
    free(rb);
}

static void same_stop(const char *ctx, const ipcc_stop_trigger *a, const ipcc_stop_trigger *b) {
    assert_int_equal(a->axis, b->axis);
    if (a->axis < 0) return;
    assert_int_equal(a->first_vertex, b->first_vertex);
    assert_int_equal(a->num_vertices, b->num_vertices);
    assert_int_equal(a->measure_max, b->measure_max);
    assert_int_equal(a->above, b->above);
    assert_int_equal(a->release, b->release);
    SAME_BITS(a->value, b->value, "stop value");
}

// Times: a written infinity reads back as 1e30 ("forever" either way).
static void same_time(const char *ctx, double a, double b) {
    if (isinf(a) && fabs(b) == 1e30 && (a > 0) == (b > 0)) return;
    SAME_BITS(a, b, "time");
}

static void same_world_def(const char *ctx, const ipcc_world_def *a, const ipcc_world_def *b) {
    SAME_BITS(a->time_step, b->time_step, "time_step");
    SAME_BITS(a->gravity, b->gravity, "gravity");
    assert_int_equal(a->integrator, b->integrator);
    SAME_BITS(a->newton_tolerance, b->newton_tolerance, "newton_tolerance");
    assert_int_equal(a->newton_max_iterations, b->newton_max_iterations);
    assert_int_equal(a->newton_max_splits, b->newton_max_splits);
    assert_int_equal(a->project_hessian, b->project_hessian);
    assert_int_equal(a->num_tolerances, b->num_tolerances);
    SAME_ARRAY(a->tolerances, b->tolerances, a->num_tolerances, "tolerances");
    SAME_BITS(a->length_scale, b->length_scale, "length_scale");
    SAME_BITS(a->damping, b->damping, "damping");
    SAME_BITS(a->newmark_beta, b->newmark_beta, "newmark_beta");
    SAME_BITS(a->newmark_gamma, b->newmark_gamma, "newmark_gamma");
    const ipcc_contact_def *p = &a->contact, *q = &b->contact;
    assert_int_equal(p->enabled, q->enabled);
    SAME_BITS(p->dhat, q->dhat, "contact.dhat");
    SAME_BITS(p->kappa, q->kappa, "contact.kappa");
    assert_int_equal(p->self_collision, q->self_collision);
    SAME_BITS(p->friction, q->friction, "contact.friction");
    SAME_BITS(p->friction_epsv, q->friction_epsv, "contact.friction_epsv");
    assert_int_equal(p->friction_iterations, q->friction_iterations);
    SAME_BITS(p->friction_smoothing_time, q->friction_smoothing_time, "contact.friction_smoothing_time");
}

static void same_selection(const char *ctx, const double *amin, const double *amax, int an, const int *av,
                           const double *bmin, const double *bmax, int bn, const int *bv) {
    assert_int_equal(an, bn);
    SAME_ARRAY(av, bv, an, "vertices");
    if (an == 0) {
        SAME_ARRAY(amin, bmin, 3, "box_min");
        SAME_ARRAY(amax, bmax, 3, "box_max");
    }
}

static void same_body(const char *ctx, const ipcc_body_def *a, const ipcc_body_def *b) {
    if (a->name || b->name) {
        assert_non_null(a->name);
        assert_non_null(b->name);
        assert_string_equal(a->name, b->name);
    }
    assert_int_equal(a->mesh->num_vertices, b->mesh->num_vertices);
    assert_int_equal(a->mesh->num_tets, b->mesh->num_tets);
    SAME_ARRAY(a->mesh->vertices, b->mesh->vertices, 3 * a->mesh->num_vertices, "mesh vertices");
    SAME_ARRAY(a->mesh->tets, b->mesh->tets, 4 * a->mesh->num_tets, "mesh tets");
    assert_int_equal(a->material.model, b->material.model);
    SAME_BITS(a->material.density, b->material.density, "density");
    SAME_BITS(a->material.youngs_modulus, b->material.youngs_modulus, "youngs_modulus");
    SAME_BITS(a->material.poisson_ratio, b->material.poisson_ratio, "poisson_ratio");
    assert_int_equal(a->use_transform, b->use_transform);
    if (a->use_transform) {
        SAME_BITS(a->transform, b->transform, "transform");
    } else {
        SAME_BITS(a->translation, b->translation, "translation");
        SAME_BITS(a->rotation, b->rotation, "rotation");
        SAME_BITS(a->scale, b->scale, "scale");
    }
    SAME_BITS(a->velocity, b->velocity, "velocity");
    SAME_BITS(a->angular_velocity, b->angular_velocity, "angular_velocity");
    assert_int_equal(a->has_velocity_pivot, b->has_velocity_pivot);
    if (a->has_velocity_pivot) SAME_BITS(a->velocity_pivot, b->velocity_pivot, "velocity_pivot");
    SAME_BITS(a->friction, b->friction, "friction");
    assert_int_equal(a->num_dirichlet, b->num_dirichlet);
    for (int j = 0; j < a->num_dirichlet; j++) {
        const ipcc_dirichlet_def *p = &a->dirichlet[j], *q = &b->dirichlet[j];
        same_selection(ctx, p->box_min, p->box_max, p->num_vertices, p->vertices, q->box_min, q->box_max,
                       q->num_vertices, q->vertices);
        SAME_BITS(p->velocity, q->velocity, "dirichlet velocity");
        SAME_BITS(p->angular_velocity, q->angular_velocity, "dirichlet angular_velocity");
        assert_int_equal(p->has_pivot, q->has_pivot);
        if (p->has_pivot) SAME_BITS(p->pivot, q->pivot, "dirichlet pivot");
        same_time(ctx, p->start, q->start);
        same_time(ctx, p->end, q->end);
        same_stop(ctx, &p->stop, &q->stop);
    }
    assert_int_equal(a->num_neumann, b->num_neumann);
    for (int j = 0; j < a->num_neumann; j++) {
        const ipcc_neumann_def *p = &a->neumann[j], *q = &b->neumann[j];
        same_selection(ctx, p->box_min, p->box_max, p->num_vertices, p->vertices, q->box_min, q->box_max,
                       q->num_vertices, q->vertices);
        SAME_BITS(p->acceleration, q->acceleration, "neumann acceleration");
        same_time(ctx, p->start, q->start);
        same_time(ctx, p->end, q->end);
    }
}

static void same_obstacle(const char *ctx, const ipcc_obstacle_def *a, const ipcc_obstacle_def *b) {
    if (a->name || b->name) {
        assert_non_null(a->name);
        assert_non_null(b->name);
        assert_string_equal(a->name, b->name);
    }
    const ipcc_trimesh *m = a->mesh, *n = b->mesh;
    assert_int_equal(m->num_vertices, n->num_vertices);
    assert_int_equal(m->num_faces, n->num_faces);
    assert_int_equal(m->num_edges, n->num_edges);
    SAME_ARRAY(m->vertices, n->vertices, 3 * m->num_vertices, "obstacle vertices");
    SAME_ARRAY(m->faces, n->faces, 3 * m->num_faces, "obstacle faces");
    SAME_ARRAY(m->edges, n->edges, 2 * m->num_edges, "obstacle edges");
    assert_int_equal(a->use_transform, b->use_transform);
    if (a->use_transform) {
        SAME_BITS(a->transform, b->transform, "transform");
    } else {
        SAME_BITS(a->translation, b->translation, "translation");
        SAME_BITS(a->rotation, b->rotation, "rotation");
        SAME_BITS(a->scale, b->scale, "scale");
    }
    SAME_BITS(a->velocity, b->velocity, "velocity");
    SAME_BITS(a->angular_velocity, b->angular_velocity, "angular_velocity");
    assert_int_equal(a->has_pivot, b->has_pivot);
    if (a->has_pivot) SAME_BITS(a->pivot, b->pivot, "pivot");
    same_stop(ctx, &a->stop, &b->stop);
    SAME_BITS(a->friction, b->friction, "friction");
}

static void same_shape(const char *ctx, const ipcc_shape_def *a, const ipcc_shape_def *b) {
    if (a->name || b->name) {
        assert_non_null(a->name);
        assert_non_null(b->name);
        assert_string_equal(a->name, b->name);
    }
    assert_int_equal(a->kind, b->kind);
    SAME_BITS(a->center, b->center, "center");
    SAME_BITS(a->rotation, b->rotation, "rotation");
    SAME_BITS(a->size, b->size, "size");
    SAME_BITS(a->velocity, b->velocity, "velocity");
    SAME_BITS(a->angular_velocity, b->angular_velocity, "angular_velocity");
    SAME_BITS(a->friction, b->friction, "friction");
}

static void same_scene(const char *name, const ipcc_scene *a, const ipcc_scene *b) {
    char ctx[512];
    snprintf(ctx, sizeof ctx, "%s", name);
    same_world_def(ctx, &a->world, &b->world);
    SAME_BITS(a->duration, b->duration, "duration");
    assert_int_equal(a->num_steps, b->num_steps);
    assert_string_equal(a->output_directory, b->output_directory);
    SAME_BITS(a->output_fps, b->output_fps, "output_fps");
    assert_int_equal(a->output_contacts, b->output_contacts);
    assert_int_equal(a->output_uncompressed, b->output_uncompressed);
    assert_string_equal(b->format, "json");
    assert_int_equal(a->num_bodies, b->num_bodies);
    for (int i = 0; i < a->num_bodies; i++) {
        snprintf(ctx, sizeof ctx, "%s: bodies[%d]", name, i);
        same_body(ctx, &a->bodies[i], &b->bodies[i]);
        const ipcc_scene_mesh_source *p = &a->body_sources[i], *q = &b->body_sources[i];
        same_path(ctx, p->path, q->path);
        if (!p->path) {
            SAME_BITS(p->cells, q->cells, "box cells");
            SAME_BITS(p->size, q->size, "box size");
        }
    }
    assert_int_equal(a->num_obstacles, b->num_obstacles);
    for (int i = 0; i < a->num_obstacles; i++) {
        snprintf(ctx, sizeof ctx, "%s: obstacle %d", name, i);
        same_obstacle(ctx, &a->obstacles[i], &b->obstacles[i]);
        same_path(ctx, a->obstacle_paths[i], b->obstacle_paths[i]);
    }
    assert_int_equal(a->num_shapes, b->num_shapes);
    for (int i = 0; i < a->num_shapes; i++) {
        snprintf(ctx, sizeof ctx, "%s: shape %d", name, i);
        same_shape(ctx, &a->shapes[i], &b->shapes[i]);
        // The orientation is written with the key it came with.
        assert_int_equal(a->shape_sources[i].orientation, b->shape_sources[i].orientation);
        SAME_BITS(a->shape_sources[i].value, b->shape_sources[i].value, "orientation value");
    }
    assert_int_equal(a->num_half_spaces, b->num_half_spaces);
    for (int i = 0; i < a->num_half_spaces; i++) {
        snprintf(ctx, sizeof ctx, "%s: half-space %d", name, i);
        SAME_BITS(a->half_spaces[i].point, b->half_spaces[i].point, "point");
        SAME_BITS(a->half_spaces[i].normal, b->half_spaces[i].normal, "normal");
        SAME_BITS(a->half_spaces[i].friction, b->half_spaces[i].friction, "friction");
    }
}

// The worlds built from both scenes.
static void same_world(const char *ctx, const ipcc_scene *a, const ipcc_scene *b) {
    ipcc_world *wa = NULL, *wb = NULL;
    ipcc_status st = ipcc_scene_create_world(a, &wa);
    if (st != IPCC_OK) fail_msg("%s: world from the original: %s", ctx, ipcc_last_error());
    st = ipcc_scene_create_world(b, &wb);
    if (st != IPCC_OK) fail_msg("%s: world from the written scene: %s", ctx, ipcc_last_error());
    int n = ipcc_world_num_vertices(wa);
    assert_int_equal(n, ipcc_world_num_vertices(wb));
    assert_int_equal(ipcc_world_num_bodies(wa), ipcc_world_num_bodies(wb));
    assert_int_equal(ipcc_world_num_tets(wa), ipcc_world_num_tets(wb));
    assert_int_equal(ipcc_world_num_deformable_vertices(wa), ipcc_world_num_deformable_vertices(wb));
    assert_int_equal(ipcc_world_num_half_spaces(wa), ipcc_world_num_half_spaces(wb));
    SAME_ARRAY(ipcc_world_rest_positions(wa), ipcc_world_rest_positions(wb), 3 * n, "rest positions");
    SAME_ARRAY(ipcc_world_positions(wa), ipcc_world_positions(wb), 3 * n, "positions");
    SAME_ARRAY(ipcc_world_masses(wa), ipcc_world_masses(wb), n, "masses");
    SAME_ARRAY(ipcc_world_velocities(wa), ipcc_world_velocities(wb), 3 * n, "velocities");
    SAME_ARRAY(ipcc_world_tets(wa), ipcc_world_tets(wb), 4 * ipcc_world_num_tets(wa), "tets");
    double ta = ipcc_world_time_step(wa), tb = ipcc_world_time_step(wb);
    SAME_BITS(ta, tb, "time step");
    for (int i = 0; i < ipcc_world_num_bodies(wa); i++) {
        const char *na = ipcc_world_body_name(wa, i), *nb = ipcc_world_body_name(wb, i);
        if (na && nb) assert_string_equal(na, nb);
        assert_int_equal(ipcc_world_body_is_obstacle(wa, i), ipcc_world_body_is_obstacle(wb, i));
    }
    for (int i = 0; i < ipcc_world_num_half_spaces(wa); i++) {
        double pa[3], na[3], pb[3], nb[3];
        ipcc_world_half_space(wa, i, pa, na);
        ipcc_world_half_space(wb, i, pb, nb);
        SAME_BITS(pa, pb, "half-space point");
        SAME_BITS(na, nb, "half-space normal");
    }
    assert_int_equal(ipcc_world_num_shapes(wa), a->num_shapes);
    assert_int_equal(ipcc_world_num_shapes(wb), b->num_shapes);
    for (int i = 0; i < ipcc_world_num_shapes(wa); i++) {
        same_shape(ctx, ipcc_world_shape_def(wa, i), ipcc_world_shape_def(wb, i));
        double ca[3], Ra[9], cb[3], Rb[9];
        ipcc_world_shape_pose(wa, i, ca, Ra);
        ipcc_world_shape_pose(wb, i, cb, Rb);
        SAME_BITS(ca, cb, "shape pose centre");
        SAME_BITS(Ra, Rb, "shape pose rotation");
    }
    ipcc_world_destroy(wa);
    ipcc_world_destroy(wb);
}

// Load `in`, write it to `out`, load that, compare. Returns the written text.
static char *round_trip(const char *in, const char *out) {
    ipcc_scene *a = load_or_fail(in);
    ipcc_status st = ipcc_scene_write_json(a, out);
    if (st != IPCC_OK) fail_msg("write %s: %s", out, ipcc_last_error());
    ipcc_scene *b = load_or_fail(out);
    same_scene(in, a, b);
    same_world(in, a, b);
    // Writing the reloaded scene gives the same text except the header line.
    char out2[4200];
    snprintf(out2, sizeof out2, "%s.again.json", out);
    st = ipcc_scene_write_json(b, out2);
    if (st != IPCC_OK) fail_msg("write %s: %s", out2, ipcc_last_error());
    char *t1 = ipcc_test_read_file(out, NULL), *t2 = ipcc_test_read_file(out2, NULL);
    const char *body1 = strchr(t1, '\n'), *body2 = strchr(t2, '\n');
    assert_non_null(body1);
    assert_non_null(body2);
    if (strcmp(body1, body2) != 0) fail_msg("%s: writing the written scene again changes it", in);
    free(t2);
    remove(out2);
    ipcc_scene_destroy(a);
    ipcc_scene_destroy(b);
    return t1;
}

// A fresh folder under the working directory (the test's build folder).
static void make_temp_dir(char *dir, size_t len, const char *pattern) {
    snprintf(dir, len, "%s", pattern);
    if (!mkdtemp(dir)) fail_msg("mkdtemp %s failed", pattern);
}

// ---------------------------------------------------------------------------
// Tests

static void test_examples_round_trip(void **state) {
    (void)state;
    char dir[256];
    make_temp_dir(dir, sizeof dir, "scene_write_examples_XXXXXX");
    DIR *d = opendir(IPCC_SOURCE_DIR "/examples");
    assert_non_null(d);
    struct dirent *e;
    int count = 0;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0) continue;
        char in[4096], out[4096];
        snprintf(in, sizeof in, "%s/examples/%s", IPCC_SOURCE_DIR, e->d_name);
        snprintf(out, sizeof out, "%s/%s", dir, e->d_name);
        char *text = round_trip(in, out);
        assert_contains(text, "// Written by ipcc ");
        assert_contains(text, e->d_name);
        // The temporary folder and the meshes share the repository: paths are relative.
        if (strstr(text, "\"mesh\": \"") || strstr(text, "\"path\": \"")) assert_contains(text, "\"../");
        free(text);
        count++;
    }
    closedir(d);
    assert_true(count >= 10);
    ipcc_test_remove_tree(dir);
}

// Files of the synthetic scene, written into `dir`.
static void write_synthetic_files(const char *dir) {
    char p[4096];
    snprintf(p, sizeof p, "%s/wires.seg", dir);
    ipcc_test_write_text(p, "# two segments\nv 0 3 0\nv 1 3 0\nv 1 3 1\ns 1 2\ns 2 3\n");
    snprintf(p, sizeof p, "%s/dots.pt", dir);
    ipcc_test_write_text(p, "v 0 4 0\nv 0.5 4 0.5\nv 1 4 1\n");
    snprintf(p, sizeof p, "%s/in.json", dir);
    char text[40000];
    const char *tet = ipcc_test_data_path("scenes/tet.node");
    char tet_path[4096];
    snprintf(tet_path, sizeof tet_path, "%s", tet);
    const char *cube = ipcc_test_data_path("obj/cube.obj");
    char cube_path[4096];
    snprintf(cube_path, sizeof cube_path, "%s", cube);
    // World vertices: tet 8, box 4x4x4 = 64 (bodies), cube 8, wires 3,
    // cube edges 8, dots 3, cube points 8 (obstacles): 102.
    snprintf(
        text, sizeof text,
        "// every key of the format, the new ones included\n"
        "{\n"
        "  \"time_step\": 0.004, \"duration\": 0.1, \"steps\": 7, \"gravity\": [0, -9.8, 0.1],\n"
        "  \"integrator\": \"newmark\", \"newmark\": {\"beta\": 0.3, \"gamma\": 0.6},\n"
        "  \"length_scale\": 2.5, \"damping\": 0.01,\n"
        "  \"newton\": {\"tolerance\": [1e-2, 5e-3, 1e-3, 1e-3, 1e-3, 1e-3, 1e-3, 1e-3, 1e-4, 1e-5],\n"
        "             \"max_iterations\": 33, \"max_splits\": 5, \"project_hessian\": false},\n"
        "  \"contact\": {\"enabled\": true, \"dhat\": 1e-3, \"kappa\": 1e6, \"self_collision\": false,\n"
        "              \"friction\": 0.2, \"friction_epsv\": 1e-4, \"friction_iterations\": -1,\n"
        "              \"friction_smoothing_time\": 0.025},\n"
        "  \"materials\": {\"m\": {\"model\": \"stvk\", \"density\": 1234.5, \"youngs_modulus\": 3.3e5,\n"
        "                       \"poisson_ratio\": 0.3}},\n"
        "  \"bodies\": [\n"
        "    {\"name\": \"tet \\\"quoted\\\"\", \"mesh\": \"%s\", \"material\": \"m\",\n"
        "     \"transform\": [[0, -1, 0, 1], [1, 0, 0, 2], [0, 0, 2, 3]],\n"
        "     \"velocity\": [0.1, 0, 0], \"angular_velocity\": [0, 1, 0], \"angular_velocity_centre\": [1, "
        "2, 3],\n"
        "     \"friction\": 0.4,\n"
        "     \"dirichlet\": [{\"vertices\": [0, 1, 2], \"velocity\": [0, 0, 1], \"angular_velocity\": [0, "
        "0, 3],\n"
        "                    \"pivot\": [0.5, 0.5, 0.5], \"start\": 0.01, \"end\": 2,\n"
        "                    \"stop\": {\"axis\": \"y\", \"measure\": \"min\", \"vertices\": [0, 8],\n"
        "                             \"below\": -1, \"then\": \"release\"}}],\n"
        "     \"neumann\": [{\"min\": [0, 0.5, 0], \"max\": [1, 1, 1], \"acceleration\": [0, 2, 0],\n"
        "                  \"start\": 0.5, \"end\": 1},\n"
        "                 {\"vertices\": [3, 4], \"acceleration\": [1, 0, 0]}]},\n"
        "    {\"name\": \"box\", \"mesh\": {\"box\": {\"size\": [1, 0.5, 0.25], \"cells\": [3, 3, 3]}},\n"
        "     \"material\": {\"model\": \"linear\"}, \"translation\": [-0.0, 5, 0.1], \"rotation\": [10, 20, "
        "30],\n"
        "     \"scale\": 0.5,\n"
        "     \"dirichlet\": [{\"vertices\": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,\n"
        "                                 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33],\n"
        "                    \"stop\": {\"axis\": \"x\", \"measure\": \"max\", \"vertices\": [72, 8],\n"
        "                             \"above\": 2.5}},\n"
        "                   {\"min\": [0, 0, 0], \"max\": [0.1, 1, 1], \"velocity\": [1, 0, 0], \"end\": "
        "0.05}]}\n"
        "  ],\n"
        "  \"obstacles\": [\n"
        "    {\"type\": \"half_space\", \"point\": [0, -1, 0], \"normal\": [0, 1, 0]},\n"
        "    {\"type\": \"mesh\", \"name\": \"cube\", \"path\": \"%s\",\n"
        "     \"transform\": [[1, 0, 0, 5], [0, 1, 0, 0], [0, 0, 1, 0]], \"pivot\": [5.5, 0.5, 0.5],\n"
        "     \"angular_velocity\": [0, 1, 0], \"velocity\": [-1, 0, 0], \"friction\": 0.1,\n"
        "     \"stop\": {\"axis\": \"z\", \"measure\": \"min\", \"vertices\": [72, 8], \"below\": -3, "
        "\"then\": \"hold\"}},\n"
        "    {\"type\": \"segments\", \"name\": \"wires\", \"path\": \"wires.seg\", \"translation\": [8, 0, "
        "0]},\n"
        "    {\"type\": \"half_space\", \"point\": [0, 0, -9], \"normal\": [0, 0, 2], \"friction\": 0.5},\n"
        "    {\"type\": \"segments\", \"path\": \"%s\", \"translation\": [10, 0, 0], \"scale\": [1, 2, 3]},\n"
        "    {\"type\": \"points\", \"path\": \"dots.pt\", \"rotation\": [0, 45, 0], \"translation\": [12, "
        "0, "
        "0]},\n"
        "    {\"type\": \"sphere\", \"name\": \"ball\", \"center\": [0, -20, 0], \"radius\": 0.1,\n"
        "     \"velocity\": [0.5, 0, -0.0], \"angular_velocity\": [0, 0, 7], \"friction\": 0.25},\n"
        "    {\"type\": \"points\", \"name\": \"corners\", \"path\": \"%s\", \"translation\": [14, 0, 0]},\n"
        "    {\"type\": \"box\", \"center\": [20, 0, 0.1], \"half_extents\": [0.5, 0.25, 0.125],\n"
        "     \"rotation\": [12.5, -40, 0.1], \"angular_velocity\": [0.1, 0.2, 0.3], \"friction\": 0},\n"
        "    {\"type\": \"cylinder\", \"name\": \"roller\", \"center\": [22, 0, 0], \"axis\": [1, -2, -3],\n"
        "     \"radius\": 0.3, \"half_length\": 0.7, \"velocity\": [0, 0, 0.3]},\n"
        "    {\"type\": \"cylinder\", \"center\": [24, 0, 0], \"rotation\": [90, 0, 0], \"radius\": 0.1,\n"
        "     \"half_length\": 0.1},\n"
        "    {\"type\": \"ellipsoid\", \"center\": [26, 0, 0], \"semi_axes\": [0.3, 0.2, 0.1],\n"
        "     \"rotation\": [0, 0, 33.3], \"face_samples\": false},\n"
        "    {\"type\": \"torus\", \"name\": \"ring\", \"center\": [28, 0, 0], \"axis\": [0, 0, -1],\n"
        "     \"major_radius\": 0.5, \"minor_radius\": 0.1, \"angular_velocity\": [0, 0, -1], \"friction\": "
        "0.7},\n"
        "    {\"type\": \"torus\", \"center\": [30, 0, 0], \"major_radius\": 0.2, \"minor_radius\": 0.19}\n"
        "  ],\n"
        "  \"output\": {\"directory\": \"frames/synthetic\", \"fps\": 60, \"contacts\": true,\n"
        "             \"compress\": false}\n"
        "}\n",
        tet_path, cube_path, cube_path, cube_path);
    ipcc_test_write_text(p, text);
}

static void test_synthetic_round_trip(void **state) {
    (void)state;
    // Under /tmp: the meshes in the repository are written as absolute paths,
    // the files beside the scene as relative ones ("../wires.seg").
    char dir[256];
    snprintf(dir, sizeof dir, "%s", "/tmp/ipcc_scene_write_XXXXXX");
    if (!mkdtemp(dir)) fail_msg("mkdtemp failed");
    write_synthetic_files(dir);
    char in[512], sub[512], out[600];
    snprintf(in, sizeof in, "%s/in.json", dir);
    snprintf(sub, sizeof sub, "%s/written", dir);
    snprintf(out, sizeof out, "%s/out.json", sub);
    assert_int_equal(mkdir(sub, 0777), 0);

    ipcc_scene *s = load_or_fail(in);
    // Everything the file sets landed (spot checks; test_scene_parse.c checks each key).
    assert_int_equal(s->num_steps, 7);
    assert_int_equal(s->world.num_tolerances, 10);
    assert_int_equal(s->num_obstacles, 5);
    assert_int_equal(s->num_half_spaces, 2);
    assert_int_equal(s->obstacles[0].mesh->num_faces, 12);
    assert_int_equal(s->obstacles[1].mesh->num_faces, 0);
    assert_int_equal(s->obstacles[1].mesh->num_edges, 2);
    assert_int_equal(s->obstacles[2].mesh->num_edges, 18);
    assert_int_equal(s->obstacles[3].mesh->num_edges, 0);
    assert_int_equal(s->obstacles[4].mesh->num_vertices, 8);
    assert_int_equal(s->num_shapes, 7);
    assert_int_equal(s->shape_sources[0].entry, 6); // between the file obstacles
    assert_true(s->output_contacts);
    assert_true(s->output_uncompressed);
    ipcc_scene_destroy(s);

    char *text = round_trip(in, out);
    assert_contains(text, "\"type\": \"segments\"");
    assert_contains(text, "\"type\": \"points\"");
    assert_contains(text, "\"path\": \"../wires.seg\"");
    assert_contains(text, "\"path\": \"../dots.pt\"");
    // tet.node lies outside the output folder's tree: absolute, or relative
    // through a common ancestor when there is one below the root (/tmp/...).
    if (!strstr(text, "\"mesh\": \"/")) assert_contains(text, "tests/data/scenes/tet.node\"");
    assert_contains(text, "\"translation\": [-0, 5, 0.1]"); // -0 kept, shortest round-trip form
    assert_contains(text, "\"time_step\": 0.004,");         // shortest form
    assert_contains(text, "\"name\": \"tet \\\"quoted\\\"\"");
    assert_contains(text, "\"transform\": [\n");
    assert_contains(text, "\"stop\": {\"axis\": \"y\", \"measure\": \"min\", \"vertices\": [0, 8], "
                          "\"below\": -1, \"then\": \"release\"}");
    // A long vertex list is wrapped, 16 per line.
    assert_contains(text, "0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,\n");
    // Shapes after the file obstacles, orientations as given, friction only when set.
    assert_contains(text, "\"checkpoint_every\": 10, \"contacts\": true, \"compress\": false}");
    assert_contains(text, "\"axis\": [1, -2, -3]");
    assert_contains(text, "\"axis\": [0, 0, -1]");
    assert_contains(text, "\"rotation\": [0, 0, 33.3], \"face_samples\": false}");
    assert_contains(text, "\"rotation\": [12.5, -40, 0.1]");
    assert_contains(text, "\"velocity\": [0.5, 0, -0]");
    assert_contains(text, "{\"type\": \"torus\", \"center\": [30, 0, 0], \"major_radius\": 0.2, "
                          "\"minor_radius\": 0.19}");
    assert_true(strstr(text, "\"corners\"") < strstr(text, "\"ball\""));
    free(text);
    ipcc_test_remove_tree(dir);
}

static void test_infinite_and_nan(void **state) {
    (void)state;
    char dir[256];
    make_temp_dir(dir, sizeof dir, "scene_write_nan_XXXXXX");
    char path[512];
    snprintf(path, sizeof path, "%s/scene.json", dir);
    ipcc_scene *s = load_or_fail(IPCC_SOURCE_DIR "/examples/twist.json");
    assert_true(s->bodies[0].num_dirichlet > 0);
    ipcc_dirichlet_def *d = (ipcc_dirichlet_def *)&s->bodies[0].dirichlet[0];

    // "Forever" as infinity is written as 1e30 and reads back as forever.
    d->end = INFINITY;
    d->start = -INFINITY;
    assert_int_equal(ipcc_scene_write_json(s, path), IPCC_OK);
    ipcc_scene *t = load_or_fail(path);
    assert_true(t->bodies[0].dirichlet[0].end == 1e30);
    assert_true(t->bodies[0].dirichlet[0].start == -1e30);
    ipcc_scene_destroy(t);
    char *before = ipcc_test_read_file(path, NULL);

    // NaN is refused, naming the key path; the existing file stays as it was.
    d->velocity[1] = NAN;
    ipcc_clear_error();
    assert_int_equal(ipcc_scene_write_json(s, path), IPCC_ERR_INVALID_ARGUMENT);
    assert_contains(ipcc_last_error(), path);
    assert_contains(ipcc_last_error(), "bodies[0].dirichlet[0].velocity is NaN");
    d->velocity[1] = 0;
    s->world.gravity[2] = -INFINITY;
    assert_int_equal(ipcc_scene_write_json(s, path), IPCC_ERR_INVALID_ARGUMENT);
    assert_contains(ipcc_last_error(), "gravity is infinite");
    char *after = ipcc_test_read_file(path, NULL);
    assert_string_equal(before, after);
    char name[256];
    assert_int_equal(count_entries(dir, name, sizeof name), 1);
    assert_string_equal(name, "scene.json");
    free(before);
    free(after);
    ipcc_scene_destroy(s);
    ipcc_test_remove_tree(dir);
}

static void test_unwritable_path(void **state) {
    (void)state;
    char dir[256];
    make_temp_dir(dir, sizeof dir, "scene_write_bad_XXXXXX");
    ipcc_scene *s = load_or_fail(IPCC_SOURCE_DIR "/examples/beam.json");
    char path[512];

    // A folder that is a regular file.
    snprintf(path, sizeof path, "%s/afile", dir);
    ipcc_test_write_text(path, "x");
    snprintf(path, sizeof path, "%s/afile/scene.json", dir);
    ipcc_clear_error();
    assert_int_equal(ipcc_scene_write_json(s, path), IPCC_ERR_IO);
    assert_contains(ipcc_last_error(), path);
    // A missing folder.
    snprintf(path, sizeof path, "%s/missing/scene.json", dir);
    assert_int_equal(ipcc_scene_write_json(s, path), IPCC_ERR_IO);
    assert_contains(ipcc_last_error(), path);
    assert_contains(ipcc_last_error(), "No such file");
    // An existing folder as the target: the rename fails and the temporary goes.
    snprintf(path, sizeof path, "%s/folder", dir);
    assert_int_equal(mkdir(path, 0777), 0);
    assert_int_equal(ipcc_scene_write_json(s, path), IPCC_ERR_IO);
    assert_contains(ipcc_last_error(), path);
    assert_int_equal(count_entries(path, NULL, 0), 0);
    // Nothing was left behind: only what the test made.
    assert_int_equal(count_entries(dir, NULL, 0), 2);
    ipcc_scene_destroy(s);
    ipcc_test_remove_tree(dir);
}

static void test_replace_existing(void **state) {
    (void)state;
    char dir[256];
    make_temp_dir(dir, sizeof dir, "scene_write_replace_XXXXXX");
    char path[512];
    snprintf(path, sizeof path, "%s/scene.json", dir);
    ipcc_test_write_text(path, "old contents\n");
    struct stat before;
    assert_int_equal(stat(path, &before), 0);
    ipcc_scene *s = load_or_fail(IPCC_SOURCE_DIR "/examples/contact_cubes.json");
    assert_int_equal(ipcc_scene_write_json(s, path), IPCC_OK);
    char *text = ipcc_test_read_file(path, NULL);
    assert_true(strncmp(text, "// Written by ipcc ", 19) == 0);
    free(text);
    // Replaced by rename: a new inode, and no temporary left.
    struct stat after;
    assert_int_equal(stat(path, &after), 0);
    assert_true(before.st_ino != after.st_ino);
    assert_int_equal(count_entries(dir, NULL, 0), 1);
    ipcc_scene *t = load_or_fail(path);
    same_scene(path, s, t);
    ipcc_scene_destroy(t);

    // A scene without a recorded mesh source cannot be written; the file stays.
    char *old = ipcc_test_read_file(path, NULL);
    free(s->body_sources[0].path);
    s->body_sources[0].path = NULL;
    memset(s->body_sources[0].cells, 0, sizeof s->body_sources[0].cells);
    assert_int_equal(ipcc_scene_write_json(s, path), IPCC_ERR_INVALID_ARGUMENT);
    assert_contains(ipcc_last_error(), "bodies[0].mesh");
    char *now = ipcc_test_read_file(path, NULL);
    assert_string_equal(old, now);
    free(old);
    free(now);
    ipcc_scene_destroy(s);
    ipcc_test_remove_tree(dir);
}

// A shape's rotation is written through the key it was read with; one that no
// recorded "rotation" or "axis" gives (a scene edited or built in C) is
// refused, naming the entry, and the file stays as it was.
static void test_shape_rotation_sources(void **state) {
    (void)state;
    char dir[256];
    make_temp_dir(dir, sizeof dir, "scene_write_shapes_XXXXXX");
    char in[512], path[512];
    snprintf(in, sizeof in, "%s/in.json", dir);
    snprintf(path, sizeof path, "%s/out.json", dir);
    ipcc_test_write_text(
        in, "{\"duration\": 1, \"bodies\": [{\"mesh\": {\"box\": {\"size\": [1, 1, 1]}}, "
            "\"material\": {}}],\n"
            " \"obstacles\": [{\"type\": \"sphere\", \"center\": [0, -2, 0], \"radius\": 0.5},\n"
            "  {\"type\": \"box\", \"name\": \"crate\", \"center\": [5, 0, 0], \"half_extents\": [1, "
            "1, 1], \"rotation\": [0, 0, 10]}]}\n");
    ipcc_scene *s = load_or_fail(in);
    assert_int_equal(ipcc_scene_write_json(s, path), IPCC_OK);
    char *before = ipcc_test_read_file(path, NULL);

    // The matrix no longer matches its source.
    s->shapes[1].rotation[0] = -s->shapes[1].rotation[0];
    ipcc_clear_error();
    assert_int_equal(ipcc_scene_write_json(s, path), IPCC_ERR_INVALID_ARGUMENT);
    assert_contains(ipcc_last_error(), path);
    assert_contains(ipcc_last_error(), "obstacles[1] (\"crate\").rotation: the matrix is not the one");
    s->shapes[1].rotation[0] = -s->shapes[1].rotation[0];
    assert_int_equal(ipcc_scene_write_json(s, path), IPCC_OK);

    // Without sources (a scene built in C): the identity needs none, any other rotation fails.
    free(s->shape_sources);
    s->shape_sources = NULL;
    assert_int_equal(ipcc_scene_write_json(s, path), IPCC_ERR_INVALID_ARGUMENT);
    assert_contains(ipcc_last_error(), "obstacles[1] (\"crate\").rotation");
    char *after = ipcc_test_read_file(path, NULL);
    assert_string_equal(before, after);
    s->num_shapes = 1; // the sphere alone
    assert_int_equal(ipcc_scene_write_json(s, path), IPCC_OK);
    ipcc_scene *t = load_or_fail(path);
    assert_int_equal(t->num_shapes, 1);
    assert_int_equal(t->shape_sources[0].orientation, IPCC_SCENE_ORIENTATION_NONE);
    assert_int_equal(memcmp(t->shapes[0].rotation, s->shapes[0].rotation, sizeof t->shapes[0].rotation), 0);
    s->num_shapes = 2; // so destroy frees the box's name
    ipcc_scene_destroy(t);
    free(before);
    free(after);
    ipcc_scene_destroy(s);
    ipcc_test_remove_tree(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_examples_round_trip), cmocka_unit_test(test_synthetic_round_trip),
        cmocka_unit_test(test_infinite_and_nan),    cmocka_unit_test(test_unwritable_path),
        cmocka_unit_test(test_replace_existing),    cmocka_unit_test(test_shape_rotation_sources),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
