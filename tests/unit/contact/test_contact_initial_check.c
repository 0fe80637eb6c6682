// The initial-state check of barrier contact (contact_initial_check.c),
// through ipcc_world_start: one case per failure mode of its preamble, each
// refused with IPCC_ERR_INFEASIBLE and a message naming both bodies (or the
// body and the half-space or shape) and the primitive, and the primitive it
// names checked against the geometry (the vertex is behind the half-space,
// inside the shape; the triangle reaches the sphere; the edge crosses the
// triangle, exactly; the point lies in the tet). Self-intersection is
// refused only with self-collision on. The same scenes moved 1e-9 m apart
// start.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "geometry/distance.h"
#include "exact_intersection.h"
#include "support.h"
#include "base/vec3.h"
#include "world_checks.h"

static ipcc_world *new_world(bool self_collision) {
    ipcc_world_def def = ipcc_default_world_def();
    def.gravity[1] = 0;
    def.contact.self_collision = self_collision;
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&def, &w), IPCC_OK);
    return w;
}

// A one-cell box body of edge `size` (8 vertices, 6 tets) with its min corner at o.
static void add_cube(ipcc_world *w, const char *name, double size, double ox, double oy, double oz) {
    ipcc_mesh *m = ipcc_test_box_mesh(1, 1, 1, size, size, size);
    ipcc_body_def bd = ipcc_default_body_def();
    bd.mesh = m;
    bd.name = name;
    bd.translation[0] = ox;
    bd.translation[1] = oy;
    bd.translation[2] = oz;
    assert_int_equal(ipcc_world_add_body(w, &bd, NULL), IPCC_OK);
    ipcc_mesh_destroy(m);
}

static void add_box(ipcc_world *w, const char *name, double ox, double oy, double oz) {
    add_cube(w, name, 1, ox, oy, oz);
}

static void add_half_space(ipcc_world *w, double px, double py, double pz, double nx, double ny, double nz) {
    ipcc_half_space_def hs = ipcc_default_half_space_def();
    hs.point[0] = px;
    hs.point[1] = py;
    hs.point[2] = pz;
    hs.normal[0] = nx;
    hs.normal[1] = ny;
    hs.normal[2] = nz;
    assert_int_equal(ipcc_world_add_half_space(w, &hs, NULL), IPCC_OK);
}

static void add_shape(ipcc_world *w, const char *name, ipcc_shape_kind kind, double cx, double cy, double cz,
                      double size) {
    ipcc_shape_def sd = ipcc_default_shape_def();
    sd.name = name;
    sd.kind = kind;
    sd.center[0] = cx;
    sd.center[1] = cy;
    sd.center[2] = cz;
    sd.size[0] = sd.size[1] = sd.size[2] = size;
    assert_int_equal(ipcc_world_add_shape(w, &sd, NULL), IPCC_OK);
}

static void add_points(ipcc_world *w, const char *name, int n, const double *p) {
    ipcc_trimesh *m = NULL;
    assert_int_equal(ipcc_trimesh_create_segments(n, p, 0, NULL, name, &m), IPCC_OK);
    ipcc_obstacle_def od = ipcc_default_obstacle_def();
    od.name = name;
    od.mesh = m;
    assert_int_equal(ipcc_world_add_obstacle(w, &od, NULL), IPCC_OK);
    ipcc_trimesh_destroy(m);
}

// ipcc_world_start fails with IPCC_ERR_INFEASIBLE and a message holding
// every needle; the message is copied into msg (size 512).
static void expect_refused(ipcc_world *w, char *msg, const char *const *needles) {
    ipcc_status s = ipcc_world_start(w);
    if (s != IPCC_ERR_INFEASIBLE)
        fail_msg("expected IPCC_ERR_INFEASIBLE, got %s (%s)", ipcc_status_name(s),
                 s ? ipcc_last_error() : "");
    snprintf(msg, 512, "%s", ipcc_last_error());
    print_message("%s\n", msg);
    assert_non_null(strstr(msg, "initial state"));
    for (; *needles; ++needles)
        if (!strstr(msg, *needles)) fail_msg("'%s' not in '%s'", *needles, msg);
}

static void expect_start(ipcc_world *w) {
    ipcc_status s = ipcc_world_start(w);
    if (s != IPCC_OK) fail_msg("expected IPCC_OK, got %s: %s", ipcc_status_name(s), ipcc_last_error());
}

static int body_index(const ipcc_world *w, const char *name) {
    for (int b = 0; b < ipcc_world_num_bodies(w); ++b)
        if (strcmp(ipcc_world_body_name(w, b), name) == 0) return b;
    fail_msg("no body \"%s\"", name);
    return -1;
}

// World position of vertex `local` of body `name`.
static const double *body_vertex(const ipcc_world *w, const char *name, int local) {
    int first, count;
    ipcc_world_body_vertices(w, body_index(w, name), &first, &count);
    assert_true(local >= 0 && local < count);
    return ipcc_world_positions(w) + 3 * (first + local);
}

// (1) A vertex on or behind a half-space: the half-space's index and the vertex.
static void test_vertex_behind_half_space(void **state) {
    (void)state;
    char msg[512];
    int v = -1;
    // Half-space 0 (y >= -1) is clear; half-space 1 (x <= 0.75) cuts the box.
    ipcc_world *w = new_world(true);
    add_box(w, "box", 0, 0, 0);
    add_half_space(w, 0, -1, 0, 0, 1, 0);
    add_half_space(w, 0.75, 0, 0, -1, 0, 0);
    expect_refused(w, msg, (const char *[]){"body \"box\" touches or crosses half-space 1 (vertex ", NULL});
    assert_int_equal(sscanf(strstr(msg, "(vertex ") + 8, "%d", &v), 1);
    assert_true(body_vertex(w, "box", v)[0] >= 0.75);
    ipcc_world_destroy(w);
    // Touching: the box's bottom on the plane y = 0.
    w = new_world(true);
    add_box(w, "box", 0, 0, 0);
    add_half_space(w, 0, 0, 0, 0, 1, 0);
    expect_refused(w, msg, (const char *[]){"body \"box\" touches or crosses half-space 0 (vertex ", NULL});
    assert_int_equal(sscanf(strstr(msg, "(vertex ") + 8, "%d", &v), 1);
    assert_true(body_vertex(w, "box", v)[1] == 0);
    ipcc_world_destroy(w);
}

// (1b) A vertex inside a shape: a box shape around the body's corner (1, 1, 1).
static void test_vertex_inside_shape(void **state) {
    (void)state;
    char msg[512];
    ipcc_world *w = new_world(true);
    add_box(w, "box", 0, 0, 0);
    add_shape(w, "crate", IPCC_SHAPE_BOX, 1.1, 1.1, 1.1, 0.2);
    expect_refused(w, msg,
                   (const char *[]){"body \"box\" touches or is inside box \"crate\" (vertex ", NULL});
    int v = -1;
    assert_int_equal(sscanf(strstr(msg, "(vertex ") + 8, "%d", &v), 1);
    const double *x = body_vertex(w, "box", v);
    assert_true(x[0] == 1 && x[1] == 1 && x[2] == 1);
    ipcc_world_destroy(w);
}

// (1b') A sphere through a face, every vertex outside it: the face's triangle.
static void test_triangle_crosses_sphere(void **state) {
    (void)state;
    char msg[512];
    ipcc_world *w = new_world(true);
    add_box(w, "box", 0, 0, 0);
    const double c[3] = {0.5, 1.05, 0.5}, r = 0.1;
    add_shape(w, "bead", IPCC_SHAPE_SPHERE, c[0], c[1], c[2], r);
    expect_refused(
        w, msg, (const char *[]){"of body \"box\" touches or crosses sphere \"bead\"", "triangle (", NULL});
    int t[3];
    assert_int_equal(sscanf(strstr(msg, "triangle (") + 10, "%d, %d, %d", &t[0], &t[1], &t[2]), 3);
    const double *p[3];
    for (int k = 0; k < 3; ++k) {
        p[k] = body_vertex(w, "box", t[k]);
        assert_true(p[k][1] == 1); // the top face
        double d[3];
        sub3(p[k], c, d);
        assert_true(norm3(d) > r); // no vertex inside: only the triangle reaches it
    }
    double d2 = ipcc_point_triangle_distance(c, p[0], p[1], p[2],
                                             ipcc_point_triangle_distance_type_of(c, p[0], p[1], p[2]));
    assert_true(sqrt(d2) <= r);
    ipcc_world_destroy(w);
}

// (1c) A shape wholly inside a body: no vertex and no triangle reaches it.
static void test_shape_inside_body(void **state) {
    (void)state;
    char msg[512];
    ipcc_world *w = new_world(true);
    add_box(w, "box", 0, 0, 0);
    add_shape(w, "pearl", IPCC_SHAPE_SPHERE, 0.5, 0.45, 0.55, 0.1);
    expect_refused(
        w, msg,
        (const char *[]){"sphere \"pearl\" is inside body \"box\" (a point of its ", " lies in tet ", NULL});
    int t = -1;
    assert_int_equal(sscanf(strstr(msg, " lies in tet ") + 13, "%d", &t), 1);
    assert_true(t >= 0 && t < ipcc_world_num_tets(w));
    ipcc_world_destroy(w);
}

// (2) An edge of one body crossing a triangle of another: the upper box sunk
// 0.1 into the lower one, shifted so that their side faces do not meet
// edge-on. The named edge crosses the named triangle (exact test).
static void test_edge_crosses_triangle(void **state) {
    (void)state;
    char msg[512];
    ipcc_world *w = new_world(true);
    add_box(w, "lower", 0, 0, 0);
    add_box(w, "upper", 0.3, 0.9, 0.2);
    expect_refused(w, msg, (const char *[]){" intersect: edge (", " crosses triangle (", NULL});
    char na[64], nb[64], ea[64], tb[64];
    int e[2], t[3];
    const char *at = strstr(msg, "bodies \"");
    assert_non_null(at);
    int got = sscanf(at,
                     "bodies \"%63[^\"]\" and \"%63[^\"]\" intersect: edge (%d, %d) of \"%63[^\"]\" crosses "
                     "triangle (%d, %d, %d) of \"%63[^\"]\"",
                     na, nb, &e[0], &e[1], ea, &t[0], &t[1], &t[2], tb);
    assert_int_equal(got, 9);
    assert_string_equal(na, ea);
    assert_string_equal(nb, tb);
    assert_true((strcmp(na, "lower") == 0 && strcmp(nb, "upper") == 0) ||
                (strcmp(na, "upper") == 0 && strcmp(nb, "lower") == 0));
    assert_true(ipcc_test_segment_triangle_intersect(body_vertex(w, ea, e[0]), body_vertex(w, ea, e[1]),
                                                     body_vertex(w, tb, t[0]), body_vertex(w, tb, t[1]),
                                                     body_vertex(w, tb, t[2])));
    ipcc_world_destroy(w);
}

// (3) Two bodies touching at zero distance: a small box resting exactly on
// the lower one's top (y = 1), its footprint [0.55, 0.95] x [0.05, 0.45]
// clear of the top face's edges and diagonal (an edge of one body through
// the boundary of the other's triangle counts as crossing in (2), so
// "intersect" would be reported first); the named vertex is on that plane.
static void test_bodies_touch(void **state) {
    (void)state;
    char msg[512];
    ipcc_world *w = new_world(true);
    add_box(w, "lower", 0, 0, 0);
    add_cube(w, "upper", 0.4, 0.55, 1, 0.05);
    expect_refused(w, msg, (const char *[]){" touch (zero distance) at vertex ", NULL});
    char na[64], nb[64], nv[64];
    int v = -1;
    const char *at = strstr(msg, "bodies \"");
    assert_non_null(at);
    assert_int_equal(
        sscanf(at, "bodies \"%63[^\"]\" and \"%63[^\"]\" touch (zero distance) at vertex %d of \"%63[^\"]\"",
               na, nb, &v, nv),
        4);
    assert_string_equal(na, nv);
    assert_true((strcmp(na, "lower") == 0 && strcmp(nb, "upper") == 0) ||
                (strcmp(na, "upper") == 0 && strcmp(nb, "lower") == 0));
    assert_true(body_vertex(w, nv, v)[1] == 1);
    ipcc_world_destroy(w);
}

// (4) A point of a point set inside a body's volume (and not near its
// surface): the point's index and a tet that holds it.
static void test_point_inside_body(void **state) {
    (void)state;
    char msg[512];
    ipcc_world *w = new_world(true);
    ipcc_mesh *m = ipcc_test_box_mesh(2, 2, 2, 1, 1, 1); // an interior vertex: collision ids != world ids
    ipcc_body_def bd = ipcc_default_body_def();
    bd.mesh = m;
    bd.name = "box";
    assert_int_equal(ipcc_world_add_body(w, &bd, NULL), IPCC_OK);
    ipcc_mesh_destroy(m);
    const double pts[6] = {2, 2, 2, 0.4, 0.55, 0.35};
    add_points(w, "pins", 2, pts);
    expect_refused(w, msg,
                   (const char *[]){"obstacle \"pins\" point 1 lies inside body \"box\" (in its tet ", NULL});
    int t = -1;
    assert_int_equal(sscanf(strstr(msg, "(in its tet ") + 12, "%d", &t), 1);
    assert_true(t >= 0 && t < ipcc_world_num_tets(w));
    // The tet holds the point: all four barycentric coordinates >= 0 (signs exact).
    const int *T = ipcc_world_tets(w) + 4 * t;
    const double *x = ipcc_world_positions(w), *p = pts + 3;
    const double *v[4] = {x + 3 * T[0], x + 3 * T[1], x + 3 * T[2], x + 3 * T[3]};
    int s = ipcc_test_orient3d(v[0], v[1], v[2], v[3]);
    assert_true(s != 0);
    for (int k = 0; k < 4; ++k) {
        const double *u[4] = {v[0], v[1], v[2], v[3]};
        u[k] = p;
        assert_true(ipcc_test_orient3d(u[0], u[1], u[2], u[3]) * s >= 0);
    }
    ipcc_world_destroy(w);
}

// (2) within one body: two overlapping tets of one mesh are refused with
// self-collision on, and start with it off.
static ipcc_world *twin_world(bool self_collision, double gap) {
    // The second tet is the first moved by (0.2, 0.2, 0.2) (overlapping) or,
    // for gap > 0, moved to the other side of the first's slanted face
    // x + y + z = 1, gap apart along its normal.
    const double s = gap > 0 ? 1 / sqrt(3.0) * gap : 0.2;
    const double o[3] = {gap > 0 ? 1.0 / 3 + s : s, gap > 0 ? 1.0 / 3 + s : s, gap > 0 ? 1.0 / 3 + s : s};
    double v[24] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    const double corner[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    for (int i = 0; i < 4; ++i)
        for (int k = 0; k < 3; ++k)
            v[12 + 3 * i + k] = corner[3 * i + k] + o[k];
    const int t[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    ipcc_mesh *m = NULL;
    assert_int_equal(ipcc_mesh_create(v, 8, t, 2, "twin", NULL, &m), IPCC_OK);
    ipcc_world *w = new_world(self_collision);
    ipcc_body_def bd = ipcc_default_body_def();
    bd.mesh = m;
    bd.name = "twin";
    assert_int_equal(ipcc_world_add_body(w, &bd, NULL), IPCC_OK);
    ipcc_mesh_destroy(m);
    return w;
}

static void test_self_intersection(void **state) {
    (void)state;
    char msg[512];
    ipcc_world *w = twin_world(true, 0);
    expect_refused(
        w, msg,
        (const char *[]){"bodies \"twin\" and \"twin\" intersect: edge (", "crosses triangle (", NULL});
    int e[2], t[3];
    assert_int_equal(sscanf(strstr(msg, "edge (") + 6, "%d, %d", &e[0], &e[1]), 2);
    assert_int_equal(sscanf(strstr(msg, "triangle (") + 10, "%d, %d, %d", &t[0], &t[1], &t[2]), 3);
    assert_true(ipcc_test_segment_triangle_intersect(
        body_vertex(w, "twin", e[0]), body_vertex(w, "twin", e[1]), body_vertex(w, "twin", t[0]),
        body_vertex(w, "twin", t[1]), body_vertex(w, "twin", t[2])));
    ipcc_world_destroy(w);
    w = twin_world(false, 0);
    expect_start(w);
    ipcc_world_destroy(w);
}

// Every scene above moved just clear (1e-9 m) starts.
static void test_clear_states_start(void **state) {
    (void)state;
    const double g = 1e-9;
    ipcc_world *w = new_world(true); // half-space 1e-9 below
    add_box(w, "box", 0, 0, 0);
    add_half_space(w, 0, -g, 0, 0, 1, 0);
    add_half_space(w, 1 + g, 0, 0, -1, 0, 0);
    expect_start(w);
    ipcc_world_destroy(w);
    w = new_world(true); // a box shape 1e-9 beside the corner
    add_box(w, "box", 0, 0, 0);
    add_shape(w, "crate", IPCC_SHAPE_BOX, 1.2 + g, 1.1, 1.1, 0.2);
    expect_start(w);
    ipcc_world_destroy(w);
    w = new_world(true); // a sphere 1e-9 above the top face
    add_box(w, "box", 0, 0, 0);
    add_shape(w, "bead", IPCC_SHAPE_SPHERE, 0.5, 1.1 + g, 0.5, 0.1);
    expect_start(w);
    ipcc_world_destroy(w);
    w = new_world(true); // boxes 1e-9 apart
    add_box(w, "lower", 0, 0, 0);
    add_box(w, "upper", 0.25, 1 + g, 0.25);
    expect_start(w);
    ipcc_world_destroy(w);
    w = new_world(true); // a point 1e-9 above the top face
    add_box(w, "box", 0, 0, 0);
    const double pts[6] = {2, 2, 2, 0.4, 1 + g, 0.35};
    add_points(w, "pins", 2, pts);
    expect_start(w);
    ipcc_world_destroy(w);
    w = twin_world(true, g); // one body's two tets 1e-9 apart, self-collision on
    expect_start(w);
    ipcc_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vertex_behind_half_space), cmocka_unit_test(test_vertex_inside_shape),
        cmocka_unit_test(test_triangle_crosses_sphere),  cmocka_unit_test(test_shape_inside_body),
        cmocka_unit_test(test_edge_crosses_triangle),    cmocka_unit_test(test_bodies_touch),
        cmocka_unit_test(test_point_inside_body),        cmocka_unit_test(test_self_intersection),
        cmocka_unit_test(test_clear_states_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
