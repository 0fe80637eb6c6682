// Scene-level invariants shared by the physics tests.
#include "world_checks.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "exact_intersection.h"
#include "fem/inversion_filter.h"

static double volume6(const double *x, const int *t) {
    double xe[12];
    for (int k = 0; k < 4; ++k)
        for (int i = 0; i < 3; ++i)
            xe[3 * k + i] = x[3 * t[k] + i];
    return ipcc_tet_signed_volume6(xe);
}

double ipcc_test_min_volume_ratio(const ipcc_world *w) {
    const double *x = ipcc_world_positions(w), *X = ipcc_world_rest_positions(w);
    const int *tets = ipcc_world_tets(w);
    double r = INFINITY;
    for (int e = 0; e < ipcc_world_num_tets(w); ++e)
        r = fmin(r, volume6(x, tets + 4 * e) / volume6(X, tets + 4 * e));
    return r;
}

void ipcc_test_assert_no_inversion(const ipcc_world *w) {
    double r = ipcc_test_min_volume_ratio(w);
    if (!(r > 0)) fail_msg("inverted tet at step %d: min volume ratio %g", ipcc_world_step_count(w), r);
}

void ipcc_test_momentum(const ipcc_world *w, double p[3]) {
    const double *v = ipcc_world_velocities(w), *m = ipcc_world_masses(w);
    p[0] = p[1] = p[2] = 0;
    for (int i = 0; i < ipcc_world_num_vertices(w); ++i)
        for (int k = 0; k < 3; ++k)
            p[k] += m[i] * v[3 * i + k];
}

void ipcc_test_mean_velocity(const ipcc_world *w, double v[3]) {
    double p[3], m = 0;
    ipcc_test_momentum(w, p);
    const double *mass = ipcc_world_masses(w);
    for (int i = 0; i < ipcc_world_num_vertices(w); ++i)
        m += mass[i];
    for (int k = 0; k < 3; ++k)
        v[k] = p[k] / m;
}

double ipcc_test_kinetic_energy(const ipcc_world *w) {
    const double *v = ipcc_world_velocities(w), *m = ipcc_world_masses(w);
    double e = 0;
    for (int i = 0; i < ipcc_world_num_vertices(w); ++i)
        e += 0.5 * m[i] * (v[3 * i] * v[3 * i] + v[3 * i + 1] * v[3 * i + 1] + v[3 * i + 2] * v[3 * i + 2]);
    return e;
}

ipcc_mesh *ipcc_test_box_mesh(int nx, int ny, int nz, double lx, double ly, double lz) {
    ipcc_mesh *m = NULL;
    double size[3] = {lx, ly, lz};
    assert_int_equal(ipcc_mesh_create_box(nx, ny, nz, size, &m), IPCC_OK);
    return m;
}

double ipcc_test_tet_volume(const ipcc_mesh *m, int t) { return volume6(m->vertices, m->tets + 4 * t) / 6.0; }

double ipcc_test_mesh_volume(const ipcc_mesh *m) {
    double volume = 0;
    for (int t = 0; t < m->num_tets; ++t) {
        double v = ipcc_test_tet_volume(m, t);
        assert_true(v > 0.0);
        volume += v;
    }
    return volume;
}

void ipcc_test_twist_ends(double omega, double end, ipcc_dirichlet_def bc[2]) {
    bc[0] = bc[1] = ipcc_default_dirichlet_def();
    bc[0].box_max[0] = 0.01;
    bc[0].angular_velocity[0] = omega;
    bc[0].end = end;
    bc[1].box_min[0] = 0.99;
    bc[1].angular_velocity[0] = -omega;
    bc[1].end = end;
}

void ipcc_test_assert_intersection_free(const ipcc_world *w, const char *label) {
    const double *x = ipcc_world_positions(w);
    int nb = ipcc_world_num_bodies(w), nv = ipcc_world_num_vertices(w);
    int total = 0;
    for (int b = 0; b < nb; ++b) {
        int nf;
        ipcc_world_body_surface(w, b, &nf, NULL);
        total += nf;
    }
    int *body_faces = malloc(sizeof(int) * 3 * (size_t)(total + 1));
    int *obstacle_faces = malloc(sizeof(int) * 3 * (size_t)(total + 1));
    assert_non_null(body_faces);
    assert_non_null(obstacle_faces);
    int nbf = 0, nof = 0;
    for (int b = 0; b < nb; ++b) {
        int nf;
        const int *f;
        ipcc_world_body_surface(w, b, &nf, &f);
        bool obstacle = ipcc_world_body_is_obstacle(w, b);
        memcpy((obstacle ? obstacle_faces + 3 * nof : body_faces + 3 * nbf), f, sizeof(int) * 3 * (size_t)nf);
        if (obstacle)
            nof += nf;
        else
            nbf += nf;
    }
    int fa = -1, fb = -1;
    int hits = ipcc_test_find_triangle_intersections(nv, x, nbf, body_faces, 1, &fa, &fb);
    if (hits > 0) fail_msg("%s: surface triangles %d and %d intersect", label, fa, fb);
    if (nof > 0) {
        hits = ipcc_test_find_triangle_intersections_between(nv, x, nbf, body_faces, nof, obstacle_faces, 1,
                                                             &fa, &fb);
        if (hits > 0) fail_msg("%s: body triangle %d intersects obstacle triangle %d", label, fa, fb);
    }
    for (int h = 0; h < ipcc_world_num_half_spaces(w); ++h) {
        double p[3], n[3];
        ipcc_world_half_space(w, h, p, n);
        for (int i = 0; i < ipcc_world_num_deformable_vertices(w); ++i)
            if (ipcc_test_halfspace_side(x + 3 * i, p, n) <= 0)
                fail_msg("%s: vertex %d is on or behind half-space %d", label, i, h);
    }
    free(body_faces);
    free(obstacle_faces);
}

ipcc_world *ipcc_test_world_from_json(const char *text, const char *base_dir) {
    ipcc_scene *scene = NULL;
    if (ipcc_scene_parse(text, "<test scene>", base_dir, &scene) != IPCC_OK)
        fail_msg("scene: %s", ipcc_last_error());
    ipcc_world *w = NULL;
    if (ipcc_scene_create_world(scene, &w) != IPCC_OK) fail_msg("world: %s", ipcc_last_error());
    ipcc_scene_destroy(scene);
    return w;
}

ipcc_status ipcc_test_scene_parse_quoted(const char *quoted, const char *base_dir, ipcc_scene **out) {
    char *text = malloc(strlen(quoted) + 1);
    assert_non_null(text);
    size_t i = 0;
    for (; quoted[i]; i++)
        text[i] = quoted[i] == '\'' ? '"' : quoted[i];
    text[i] = '\0';
    ipcc_status st = ipcc_scene_parse(text, "scene.json", base_dir, out);
    free(text);
    return st;
}

ipcc_world *ipcc_test_two_boxes(const ipcc_world_def *def, ipcc_mesh *a, ipcc_mesh *b, const double t[3],
                                double rotation_y) {
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(def, &w), IPCC_OK);
    ipcc_body_def bd = ipcc_default_body_def();
    bd.mesh = a;
    bd.name = "lower";
    assert_int_equal(ipcc_world_add_body(w, &bd, NULL), IPCC_OK);
    bd.mesh = b;
    bd.name = "upper";
    memcpy(bd.translation, t, sizeof bd.translation);
    bd.rotation[1] = rotation_y;
    assert_int_equal(ipcc_world_add_body(w, &bd, NULL), IPCC_OK);
    ipcc_mesh_destroy(a);
    ipcc_mesh_destroy(b);
    return w;
}

ipcc_world *ipcc_test_two_cubes(const ipcc_world_def *def, double gap) {
    const double t[3] = {0.031, 0.2 + gap, 0.017}; // grids offset
    return ipcc_test_two_boxes(def, ipcc_test_box_mesh(2, 2, 2, 0.2, 0.2, 0.2),
                               ipcc_test_box_mesh(2, 2, 2, 0.12, 0.12, 0.12), t, 20);
}
