// Analytic obstacles in the world (world_shapes.c): ipcc_world_add_shape's
// validation (each refusal names the shape and the field, and leaves the
// world unchanged) and what it stores; the clock, whose length is the
// largest bounding-sphere displacement of a step, h (|v| + r |w|), present
// only when something moves; poses as state: after an unblocked step the
// pose is exactly ipcc_shape_moved(start, h v, h w, 1), over many steps the
// closed-form screw motion, and a blocked shape ends where Newton left its
// clock, the next step starting from there; a box's 12-edge obstacle whose
// vertices end every step on the box's corners; a cylinder's rim polygons
// (every point on the rim circle, chord sagitta <= 0.1 d̂ with the fewest
// segments that achieve it, at least 16); the coarse-body warning,
// l^2 / (8 rho) > d̂, logged exactly when it holds.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "world_checks.h"
#include "world/world.h"

static const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
static const double PI = 3.14159265358979323846;

// A world without gravity (a body far from every shape stays put) and the
// given d̂, holding a 0.1 m cube body named "cube" at `at`.
static ipcc_world *world_with_cube(double dhat, bool contact, const double at[3]) {
    ipcc_world_def def = ipcc_default_world_def();
    def.gravity[1] = 0;
    def.contact.dhat = dhat;
    def.contact.enabled = contact;
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&def, &w), IPCC_OK);
    ipcc_mesh *m = ipcc_test_box_mesh(1, 1, 1, 0.1, 0.1, 0.1);
    ipcc_body_def b = ipcc_default_body_def();
    b.mesh = m;
    b.name = "cube";
    if (at) memcpy(b.translation, at, sizeof b.translation);
    assert_int_equal(ipcc_world_add_body(w, &b, NULL), IPCC_OK);
    ipcc_mesh_destroy(m);
    return w;
}

static int add_shape_or_fail(ipcc_world *w, const ipcc_shape_def *d) {
    int i = -1;
    if (ipcc_world_add_shape(w, d, &i) != IPCC_OK) fail_msg("%s", ipcc_last_error());
    return i;
}

static void step_or_fail(ipcc_world *w) {
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    ipcc_status st = ipcc_world_step(w, NULL);
    if (st < 0) fail_msg("%s", ipcc_last_error());
}

// R = Rot(k, th) R0, column by column (the columns are the local axes).
static void quat_rotate_matrix(const double k[3], double th, const double R0[9], double R[9]) {
    for (int j = 0; j < 3; ++j) {
        double col[3] = {R0[j], R0[3 + j], R0[6 + j]}, out[3];
        ipcc_test_quat_rotate(k, th, col, out);
        for (int i = 0; i < 3; ++i)
            R[3 * i + j] = out[i];
    }
}

// The world point c + R q.
static void to_world(const double c[3], const double R[9], const double q[3], double x[3]) {
    for (int i = 0; i < 3; ++i)
        x[i] = c[i] + R[3 * i] * q[0] + R[3 * i + 1] * q[1] + R[3 * i + 2] * q[2];
}

// Local coordinates R^T (x - c).
static void to_local(const double c[3], const double R[9], const double x[3], double q[3]) {
    double d[3] = {x[0] - c[0], x[1] - c[1], x[2] - c[2]};
    for (int j = 0; j < 3; ++j)
        q[j] = R[j] * d[0] + R[3 + j] * d[1] + R[6 + j] * d[2];
}

// Two poses are the same, bit for bit (field by field: the struct has padding).
static void assert_same_pose(const ipcc_shape *a, const ipcc_shape *b) {
    assert_int_equal(a->kind, b->kind);
    assert_memory_equal(a->center, b->center, sizeof a->center);
    assert_memory_equal(a->rotation, b->rotation, sizeof a->rotation);
    assert_memory_equal(a->size, b->size, sizeof a->size);
}

static double norm3(const double *v) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

// --- Definitions -----------------------------------------------------------------

// A refused def: the status, the exact message (or a part of it), and the
// world unchanged.
static void expect_refusal(ipcc_world *w, const ipcc_shape_def *d, const char *message, bool whole) {
    int before = ipcc_world_num_shapes(w), index = 12345;
    ipcc_clear_error();
    assert_int_equal(ipcc_world_add_shape(w, d, &index), IPCC_ERR_INVALID_ARGUMENT);
    if (whole ? strcmp(ipcc_last_error(), message) != 0 : strstr(ipcc_last_error(), message) == NULL)
        fail_msg("message \"%s\", expected %s\"%s\"", ipcc_last_error(), whole ? "" : "a part ", message);
    assert_int_equal(ipcc_world_num_shapes(w), before);
    assert_int_equal(index, 12345);
}

static void test_add_shape_refuses_bad_defs(void **state) {
    (void)state;
    ipcc_world *w = world_with_cube(0, true, NULL);
    ipcc_shape_def d = ipcc_default_shape_def();
    d.name = "a";
    d.center[0] = 10;

    d.rotation[0] = 1.1;
    expect_refusal(w, &d, "shape \"a\": rotation is not orthonormal", true);
    d.rotation[0] = 1 + 1e-8; // above the 1e-9 tolerance
    expect_refusal(w, &d, "shape \"a\": rotation is not orthonormal", true);
    d.rotation[0] = -1; // orthonormal, det -1
    expect_refusal(w, &d, "shape \"a\": rotation is a reflection (determinant -1)", true);
    memcpy(d.rotation, identity, sizeof d.rotation);

    d.size[0] = 0;
    expect_refusal(w, &d, "shape \"a\" (sphere): size[0] must be > 0 and finite (got 0)", true);
    d.size[0] = 1;
    d.kind = IPCC_SHAPE_BOX;
    d.size[2] = -1;
    expect_refusal(w, &d, "shape \"a\" (box): size[2] must be > 0 and finite (got -1)", true);
    d.size[2] = 1;
    d.kind = IPCC_SHAPE_CYLINDER;
    d.size[1] = INFINITY;
    expect_refusal(w, &d, "shape \"a\" (cylinder): size[1] must be > 0 and finite (got inf)", true);
    d.size[1] = 1;
    d.kind = IPCC_SHAPE_ELLIPSOID;
    d.size[1] = NAN;
    expect_refusal(w, &d, "shape \"a\" (ellipsoid): size[1] must be > 0 and finite", false);
    d.size[1] = 1;

    d.kind = IPCC_SHAPE_TORUS;
    d.size[0] = 1, d.size[1] = 1; // r = R
    expect_refusal(w, &d, "shape \"a\" (torus): the minor radius 1 must be below the major radius 1", true);
    d.size[1] = 2;
    expect_refusal(w, &d, "shape \"a\" (torus): the minor radius 2 must be below the major radius 1", true);
    d.size[1] = 0.5;

    d.friction = NAN;
    expect_refusal(w, &d, "shape \"a\": friction must be finite", false);
    d.friction = INFINITY;
    expect_refusal(w, &d, "shape \"a\": friction must be finite (got inf)", true);
    d.friction = -1;
    d.center[1] = NAN;
    expect_refusal(w, &d, "shape \"a\": non-finite centre, rotation or velocity", true);
    d.center[1] = 0;
    d.angular_velocity[2] = -INFINITY;
    expect_refusal(w, &d, "shape \"a\": non-finite centre, rotation or velocity", true);
    d.angular_velocity[2] = 0;
    d.face_samples = 2;
    expect_refusal(w, &d, "shape \"a\": face_samples must be -1, 0 or 1 (got 2)", true);
    d.face_samples = 1;
    d.kind = IPCC_SHAPE_BOX;
    expect_refusal(
        w, &d, "shape \"a\" (box): face_samples is for cylinders, ellipsoids, tori and height fields", false);
    d.face_samples = -1;
    d.kind = (ipcc_shape_kind)7;
    expect_refusal(w, &d, "shape \"a\": unknown kind 7", true);
    d.kind = IPCC_SHAPE_TORUS;

    // Unnamed: "shape <index it would get>".
    d.name = NULL;
    d.size[0] = -2;
    expect_refusal(w, &d, "shape 0 (torus): size[0] must be > 0 and finite (got -2)", true);
    d.size[0] = 1;
    assert_int_equal(add_shape_or_fail(w, &d), 0);
    d.size[1] = 3;
    expect_refusal(w, &d, "shape 1 (torus): the minor radius 3 must be below the major radius 1", true);

    // After the first step nothing more can be added.
    step_or_fail(w);
    d.size[1] = 0.5;
    d.name = "late";
    expect_refusal(w, &d, "shape \"late\": must be added before the first step", true);
    ipcc_world_destroy(w);
}

// What an accepted def leaves: the name copied (or "shape <i>"), unused
// sizes filled (a sphere's from its radius, 0 otherwise), a friction below
// zero as -1 ("not set"), the index, and the initial pose; a rotation off
// by less than the 1e-9 tolerance is accepted as given.
static void test_add_shape_stores_the_def(void **state) {
    (void)state;
    ipcc_world *w = world_with_cube(0, true, NULL);
    char name[16] = "ball";
    ipcc_shape_def d = ipcc_default_shape_def();
    d.name = name;
    d.center[0] = 5, d.center[1] = -1, d.center[2] = 2;
    d.size[0] = 0.5, d.size[1] = -7, d.size[2] = 0; // unused for a sphere
    d.friction = -3;
    assert_int_equal(add_shape_or_fail(w, &d), 0);
    strcpy(name, "changed");
    const ipcc_shape_def *s = ipcc_world_shape_def(w, 0);
    assert_string_equal(s->name, "ball");
    assert_true(s->name != name);
    assert_true(s->size[0] == 0.5 && s->size[1] == 0.5 && s->size[2] == 0.5);
    assert_true(s->friction == -1);
    double c[3], R[9];
    ipcc_world_shape_pose(w, 0, c, R);
    assert_memory_equal(c, d.center, sizeof c);
    assert_memory_equal(R, identity, sizeof R);
    assert_true(w->shape_pose[0].size[1] == 0.5);

    ipcc_shape_def t = ipcc_default_shape_def();
    t.kind = IPCC_SHAPE_TORUS;
    t.center[0] = -5;
    t.size[0] = 1, t.size[1] = 0.25, t.size[2] = 9;
    t.friction = 0.4;
    t.rotation[0] = 1 + 1e-11; // within the tolerance: kept as given
    int index = -1;
    assert_int_equal(ipcc_world_add_shape(w, &t, &index), IPCC_OK);
    assert_int_equal(index, 1);
    s = ipcc_world_shape_def(w, 1);
    assert_string_equal(s->name, "shape 1");
    assert_true(s->size[0] == 1 && s->size[1] == 0.25 && s->size[2] == 0);
    assert_true(s->friction == 0.4);
    ipcc_world_shape_pose(w, 1, c, R);
    assert_true(R[0] == 1 + 1e-11);
    assert_int_equal(ipcc_world_num_shapes(w), 2);
    ipcc_world_destroy(w);
}

// --- The clock -------------------------------------------------------------------

// D = max over moving shapes of h (|v| + r |w|), r the bounding radius:
// the box (r = 1.3, |v| = 3, |w| = 4) beats the torus (r = 2.5, |w| = 1)
// and the static sphere does not count. The clock is one more prescribed
// vertex slot, at 0 until a step sends it to D; without motion there is none.
static void test_clock(void **state) {
    (void)state;
    const double h = 0.01;
    ipcc_world *w = world_with_cube(0, true, NULL);
    ipcc_shape_def s = ipcc_default_shape_def();
    s.center[0] = 40, s.size[0] = 10; // static, the largest
    add_shape_or_fail(w, &s);
    ipcc_shape_def b = ipcc_default_shape_def();
    b.kind = IPCC_SHAPE_BOX;
    b.center[1] = 10;
    b.size[0] = 0.3, b.size[1] = 0.4, b.size[2] = 1.2;
    b.velocity[0] = 1, b.velocity[1] = 2, b.velocity[2] = 2;
    b.angular_velocity[2] = -4;
    add_shape_or_fail(w, &b);
    ipcc_shape_def t = ipcc_default_shape_def();
    t.kind = IPCC_SHAPE_TORUS;
    t.center[1] = -10;
    t.size[0] = 2, t.size[1] = 0.5;
    t.angular_velocity[1] = 1;
    add_shape_or_fail(w, &t);
    assert_int_equal(ipcc_world_start(w), IPCC_OK);
    assert_true(w->has_clock);
    assert_near(w->clock_length, h * (3 + 1.3 * 4), 1e-15, 0);
    int n = w->n;
    assert_int_equal(n, 8 + 8); // the cube, then the box's corners
    assert_int_equal(ipcc_world_num_dofs(w), 3 * n + 3);
    for (int k = 0; k < 3; ++k) {
        assert_int_equal(w->dof_map[3 * n + k], -1);
        assert_true(w->x[3 * n + k] == 0);
    }
    step_or_fail(w);
    assert_true(w->x_target[3 * n] == w->clock_length && w->x_target[3 * n + 1] == 0 &&
                w->x_target[3 * n + 2] == 0);
    assert_true(w->x[3 * n] == w->clock_length); // nothing blocked it: s = 1
    assert_true(w->x[3 * n + 1] == 0 && w->x[3 * n + 2] == 0);
    ipcc_world_destroy(w);

    w = world_with_cube(0, true, NULL); // only static shapes: no clock
    add_shape_or_fail(w, &s);
    b.velocity[0] = b.velocity[1] = b.velocity[2] = b.angular_velocity[2] = 0;
    add_shape_or_fail(w, &b);
    assert_int_equal(ipcc_world_start(w), IPCC_OK);
    assert_false(w->has_clock);
    assert_true(w->clock_length == 0);
    assert_int_equal(ipcc_world_num_dofs(w), 3 * w->n);
    ipcc_world_destroy(w);
}

// --- Poses and box edges -------------------------------------------------------------

// A box turning at 2 rad/s about a skew axis and translating, from a tilted
// pose, nothing in its way: each step's motion starts from the pose the
// previous one ended at, each step ends exactly at
// ipcc_shape_moved(start, h v, h w, 1), and after n steps the pose is the
// screw motion c0 + n h v, Rot(n h |w|) R0 to rounding. The box's edge
// obstacle ends every step on the corners of that pose, its 12 segments
// joining corners that differ along one local axis.
static void test_box_screw_motion_and_edges(void **state) {
    (void)state;
    const double axis[3] = {1.0 / 3, 2.0 / 3, 2.0 / 3}, omega = 2.0, vel[3] = {0.5, -0.2, 0.1};
    const double tilt_axis[3] = {0, 0.6, 0.8}, half[3] = {0.3, 0.2, 0.1}, c0[3] = {2, 0, 0};
    ipcc_world *w = world_with_cube(0, true, NULL);
    ipcc_shape_def b = ipcc_default_shape_def();
    b.kind = IPCC_SHAPE_BOX;
    b.name = "crate";
    memcpy(b.center, c0, sizeof b.center);
    memcpy(b.size, half, sizeof b.size);
    quat_rotate_matrix(tilt_axis, 0.7, identity, b.rotation);
    double R0[9];
    memcpy(R0, b.rotation, sizeof R0);
    for (int k = 0; k < 3; ++k) {
        b.velocity[k] = vel[k];
        b.angular_velocity[k] = omega * axis[k];
    }
    int i = add_shape_or_fail(w, &b);
    assert_int_equal(ipcc_world_start(w), IPCC_OK);
    int body = w->shape_feature_body_of[i];
    assert_true(body >= 0);
    assert_true(ipcc_world_body_is_obstacle(w, body));
    assert_int_equal(w->bodies[body].shape, i);
    int first, count, ne;
    const int *edges;
    ipcc_world_body_vertices(w, body, &first, &count);
    ipcc_world_body_edges(w, body, &ne, &edges);
    assert_int_equal(count, 8);
    assert_int_equal(ne, 12);
    // The 12 edges: distinct corner pairs differing in exactly one bit, four per axis.
    int per_axis[3] = {0, 0, 0};
    for (int e = 0; e < ne; ++e) {
        int a = edges[2 * e] - first, c = edges[2 * e + 1] - first, x = a ^ c;
        assert_true(a >= 0 && a < 8 && c >= 0 && c < 8);
        assert_true(x == 1 || x == 2 || x == 4);
        per_axis[x >> 1]++;
        for (int f = 0; f < e; ++f) {
            int a2 = edges[2 * f] - first, c2 = edges[2 * f + 1] - first;
            assert_false((a == a2 && c == c2) || (a == c2 && c == a2));
        }
    }
    assert_true(per_axis[0] == 4 && per_axis[1] == 4 && per_axis[2] == 4);

    const double h = w->def.time_step;
    for (int n = 1; n <= 25; ++n) {
        ipcc_shape before = w->shape_pose[i];
        step_or_fail(w);
        // The step's motion started from the previous pose, with h v and h w.
        assert_same_pose(&w->shape_motion[i].start, &before);
        ipcc_shape expect;
        double vh[3] = {h * vel[0], h * vel[1], h * vel[2]},
               wh[3] = {h * omega * axis[0], h * omega * axis[1], h * omega * axis[2]};
        ipcc_shape_moved(&before, vh, wh, 1, &expect);
        assert_same_pose(&w->shape_pose[i], &expect);
        double c[3], R[9], Rc[9];
        ipcc_world_shape_pose(w, i, c, R);
        quat_rotate_matrix(axis, omega * n * h, R0, Rc);
        for (int k = 0; k < 3; ++k)
            assert_near(c[k], c0[k] + n * h * vel[k], 1e-13, 0);
        for (int k = 0; k < 9; ++k)
            assert_near(R[k], Rc[k], 1e-13, 0);
        // Corner j: local (+-a, +-b, +-c), bit k of j meaning minus along axis k.
        const double *x = ipcc_world_positions(w);
        for (int j = 0; j < 8; ++j) {
            double q[3], p[3];
            for (int k = 0; k < 3; ++k)
                q[k] = (j >> k & 1) ? -half[k] : half[k];
            to_world(c0, Rc, q, p); // closed-form pose: centre added below
            for (int k = 0; k < 3; ++k)
                assert_near(x[3 * (first + j) + k], p[k] + n * h * vel[k], 1e-12, 0);
        }
    }
    ipcc_world_destroy(w);
}

// A box pushed at 10 m/s into a clamped cube 5 cm away cannot reach its
// target (0.1 m per step). With every body dof prescribed nothing answers
// the barrier: CCD alone stops the box's clock short, at a positive gap
// (about 2e-14 m here: each lift iteration takes a fraction of what is
// left). The pose is the motion at the progress s reached (0.3 < s < 1 in
// the first step), and the next step's motion starts from that blocked
// pose, not from where the box would have been.
static void test_blocked_shape_ends_at_its_progress(void **state) {
    (void)state;
    ipcc_world_def def = ipcc_default_world_def();
    def.gravity[1] = 0;
    def.contact.dhat = 1e-3;
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&def, &w), IPCC_OK);
    ipcc_mesh *m = ipcc_test_box_mesh(1, 1, 1, 0.1, 0.1, 0.1);
    ipcc_dirichlet_def clamp = ipcc_default_dirichlet_def(); // every vertex, still
    ipcc_body_def bd = ipcc_default_body_def();
    bd.mesh = m;
    bd.name = "cube";
    bd.num_dirichlet = 1;
    bd.dirichlet = &clamp;
    assert_int_equal(ipcc_world_add_body(w, &bd, NULL), IPCC_OK);
    ipcc_mesh_destroy(m);
    ipcc_shape_def b = ipcc_default_shape_def();
    b.kind = IPCC_SHAPE_BOX;
    b.size[0] = b.size[1] = b.size[2] = 0.05;
    b.center[0] = 0.05, b.center[1] = 0.2, b.center[2] = 0.05; // its face 5 cm above the cube's top
    b.velocity[1] = -10;
    int i = add_shape_or_fail(w, &b);
    assert_int_equal(ipcc_world_start(w), IPCC_OK);
    const double h = def.time_step;
    double y_prev = b.center[1];
    for (int n = 1; n <= 2; ++n) {
        ipcc_shape start = w->shape_pose[i];
        assert_true(ipcc_world_step(w, NULL) >= 0);
        assert_same_pose(&w->shape_motion[i].start, &start);
        double s = w->x[3 * w->n] / w->clock_length;
        assert_true(s < 1);
        if (n == 1) assert_true(s > 0.3); // it got most of the 5 cm
        ipcc_shape expect;
        ipcc_shape_motion_at(&w->shape_motion[i], s, &expect);
        assert_same_pose(&w->shape_pose[i], &expect);
        double c[3];
        ipcc_world_shape_pose(w, i, c, NULL);
        assert_near(c[1], y_prev - s * 10 * h, 1e-15, 0);
        double gap = c[1] - 0.05 - 0.1; // box bottom over the cube's top
        assert_true(gap > 0);
        assert_true(gap < 0.05);
        y_prev = c[1];
    }
    ipcc_world_destroy(w);
}

// --- Cylinder rims ----------------------------------------------------------------

// Rim polygons of a cylinder of radius r: 2 n points, n per rim circle
// (z = +-half-length in the local frame), consecutive points joined in two
// closed loops; the chords' sagitta r (1 - cos(pi / n)) is at most 0.1 d̂
// and n is the least such count, unless that is below 16.
static void check_rims(const ipcc_world *w, int i, double dhat, const double c[3], const double R[9]) {
    const ipcc_shape_def *d = ipcc_world_shape_def(w, i);
    double r = d->size[0], hl = d->size[1];
    int body = w->shape_feature_body_of[i];
    assert_true(body >= 0);
    int first, count, ne;
    const int *edges;
    ipcc_world_body_vertices(w, body, &first, &count);
    ipcc_world_body_edges(w, body, &ne, &edges);
    assert_true(count % 2 == 0);
    int n = count / 2;
    assert_int_equal(ne, 2 * n);
    assert_true(n >= 16);
    assert_true(r * (1 - cos(PI / n)) <= 0.1 * dhat);
    if (n > 16) assert_true(r * (1 - cos(PI / (n - 1))) > 0.1 * dhat);
    const double *x = ipcc_world_positions(w);
    int top = 0;
    for (int j = 0; j < count; ++j) {
        double q[3];
        to_local(c, R, x + 3 * (first + j), q);
        assert_near(hypot(q[0], q[1]), r, 1e-12, 1e-12);
        assert_true(fabs(fabs(q[2]) - hl) < 1e-12);
        top += q[2] > 0;
    }
    assert_int_equal(top, n);
    // Every point has exactly two segments, to its neighbours on its own
    // rim, a chord of 2 r sin(pi / n).
    int *degree = calloc((size_t)count, sizeof(int));
    assert_non_null(degree);
    for (int e = 0; e < ne; ++e) {
        const double *a = x + 3 * edges[2 * e], *b = x + 3 * edges[2 * e + 1];
        double qa[3], qb[3], dvec[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
        to_local(c, R, a, qa);
        to_local(c, R, b, qb);
        assert_true((qa[2] > 0) == (qb[2] > 0));
        assert_near(norm3(dvec), 2 * r * sin(PI / n), 1e-12, 1e-9);
        degree[edges[2 * e] - first]++;
        degree[edges[2 * e + 1] - first]++;
    }
    for (int j = 0; j < count; ++j)
        assert_int_equal(degree[j], 2);
    free(degree);
}

// Two cylinders: a wide one whose rims need hundreds of segments for
// 0.1 d̂, and a thin one that the floor of 16 covers; the wide one turns
// about a skew axis, and its rims end each step on its new rim circles.
static void test_cylinder_rims(void **state) {
    (void)state;
    const double dhat = 1e-4, axis[3] = {0.6, 0, 0.8}, omega = 1.5;
    ipcc_world *w = world_with_cube(dhat, true, NULL);
    ipcc_shape_def wide = ipcc_default_shape_def();
    wide.kind = IPCC_SHAPE_CYLINDER;
    wide.center[0] = 3;
    wide.size[0] = 0.5, wide.size[1] = 0.2;
    for (int k = 0; k < 3; ++k)
        wide.angular_velocity[k] = omega * axis[k];
    wide.velocity[2] = 0.3;
    int iw = add_shape_or_fail(w, &wide);
    ipcc_shape_def thin = ipcc_default_shape_def();
    thin.kind = IPCC_SHAPE_CYLINDER;
    thin.center[0] = -3;
    thin.size[0] = 2e-4, thin.size[1] = 1e-3;
    quat_rotate_matrix(axis, 1.0, identity, thin.rotation);
    int it = add_shape_or_fail(w, &thin);
    assert_int_equal(ipcc_world_start(w), IPCC_OK);
    int first, count;
    ipcc_world_body_vertices(w, w->shape_feature_body_of[iw], &first, &count);
    assert_true(count / 2 > 400); // pi / acos(1 - 2e-5) = 496.7
    ipcc_world_body_vertices(w, w->shape_feature_body_of[it], &first, &count);
    assert_int_equal(count, 32); // pi / acos(0.95) = 9.9, raised to 16
    check_rims(w, iw, dhat, wide.center, wide.rotation);
    check_rims(w, it, dhat, thin.center, thin.rotation);
    for (int n = 1; n <= 3; ++n) {
        step_or_fail(w);
        double c[3], R[9];
        ipcc_world_shape_pose(w, iw, c, R);
        assert_near(c[2], 0.3 * n * w->def.time_step, 1e-15, 0);
        check_rims(w, iw, dhat, c, R);
        ipcc_world_shape_pose(w, it, c, R);
        check_rims(w, it, dhat, c, R);
    }
    ipcc_world_destroy(w);
}

// --- The coarse-body warning -------------------------------------------------------

static int coarse_warnings;
static char last_warning[1024];

static void capture(ipcc_log_level level, const char *message, void *user) {
    (void)user;
    if (level == IPCC_LOG_WARNING &&
        (strstr(message, "indent a face") || strstr(message, "sample subdivisions"))) {
        coarse_warnings++;
        strncpy(last_warning, message, sizeof last_warning - 1);
    }
}

// The cube's longest surface edge l (a face diagonal, 0.1 sqrt 2 m) and
// d̂ = 1e-3 m. With face samples (the default for cylinders, ellipsoids and
// tori) the warning comes when l needs more than 12 subdivisions, l > 12
// sqrt(6 rho 0.1 d̂), below rho = l^2 / (86.4 d̂) = 0.2315 m; without them
// when the sagitta l^2 / (8 rho) exceeds d̂, below rho = 2.5 m. A sphere or
// a box never (exact against triangles), nor anything with contact off.
static void test_coarse_body_warning(void **state) {
    (void)state;
    const double dhat = 1e-3;
    struct {
        ipcc_shape_kind kind;
        double size[3];
        bool contact;
        int face_samples;
        bool warn;
        const char *expect; // a part of the message
    } cases[] = {
        {IPCC_SHAPE_CYLINDER,
         {0.23, 1, 1},
         true,
         -1,
         true,
         "body \"cube\": its longest surface edge (0.141 m) needs more than 12 sample subdivisions against "
         "cylinder \"s\" (least radius of curvature 0.23 m): its faces may sag by up to 0.0001"},
        {IPCC_SHAPE_CYLINDER, {0.233, 1, 1}, true, -1, false, NULL},
        {IPCC_SHAPE_CYLINDER,
         {2.49, 1, 1},
         true,
         0,
         true,
         "body \"cube\": its longest surface edge (0.141 m) lets cylinder \"s\" (least radius of curvature "
         "2.49 m) indent a face by up to 0.001 m"},
        {IPCC_SHAPE_CYLINDER, {2.51, 1, 1}, true, 0, false, NULL},
        {IPCC_SHAPE_CYLINDER, {0.1, 1, 1}, false, -1, false, NULL}, // contact off
        {IPCC_SHAPE_TORUS, {5, 0.23, 0}, true, -1, true, "torus \"s\" (least radius of curvature 0.23 m)"},
        {IPCC_SHAPE_TORUS,
         {0.5, 0.1, 0},
         true,
         1,
         true,
         "may sag by up to 0.000231 m between them (the CCD keeps every face within 0.0005 m of the "
         "surface)"},
        {IPCC_SHAPE_TORUS, {8, 0.233, 0}, true, -1, false, NULL},
        // Ellipsoid: rho = (least semi-axis)^2 / (largest): 0.23 vs 0.233.
        {IPCC_SHAPE_ELLIPSOID,
         {0.92, 0.46, 0.6},
         true,
         -1,
         true,
         "ellipsoid \"s\" (least radius of curvature 0.23 m)"},
        {IPCC_SHAPE_ELLIPSOID, {0.6, 0.932, 0.466}, true, -1, false, NULL},
        {IPCC_SHAPE_SPHERE, {0.01, 0, 0}, true, -1, false, NULL},
        {IPCC_SHAPE_BOX, {0.01, 0.01, 0.01}, true, -1, false, NULL},
    };
    ipcc_set_log(capture, NULL);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        ipcc_world *w = world_with_cube(dhat, cases[c].contact, NULL);
        // The threshold, from the state itself: l^2 of the longest surface edge.
        int nf;
        const int *f;
        ipcc_world_body_surface(w, 0, &nf, &f);
        const double *x = ipcc_world_positions(w);
        double l2 = 0;
        for (int k = 0; k < 3 * nf; ++k) {
            const double *a = x + 3 * f[k], *e = x + 3 * f[k / 3 * 3 + (k + 1) % 3];
            double d[3] = {a[0] - e[0], a[1] - e[1], a[2] - e[2]};
            l2 = fmax(l2, d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        }
        assert_near(l2, 0.02, 1e-15, 0);
        ipcc_shape_def s = ipcc_default_shape_def();
        s.kind = cases[c].kind;
        s.name = "s";
        memcpy(s.size, cases[c].size, sizeof s.size);
        s.center[0] = 30; // far from the cube
        s.face_samples = cases[c].face_samples;
        add_shape_or_fail(w, &s);
        coarse_warnings = 0;
        last_warning[0] = '\0';
        assert_int_equal(ipcc_world_start(w), IPCC_OK);
        if (coarse_warnings != (cases[c].warn ? 1 : 0))
            fail_msg("case %zu: %d warnings (last: \"%s\")", c, coarse_warnings, last_warning);
        if (cases[c].expect && !strstr(last_warning, cases[c].expect))
            fail_msg("case %zu: \"%s\" lacks \"%s\"", c, last_warning, cases[c].expect);
        ipcc_world_destroy(w);
    }
    ipcc_set_log(NULL, NULL);
}

// A height field's least radius of curvature is estimated from its patches'
// Hessians (height_field.c): samples of cos bumps of amplitude a and wave
// number k curve at most a k^2 (rho = 1 m here), and their C^1 bicubic
// surface, whose curvature jumps at the samples, up to about twice that
// (0.51 m): below the 2.5 m threshold of the cube above, warned, naming
// the terrain; the same grid scaled to rho = 10 m, and a flat grid, are
// not; nor the first with "face_samples" (its threshold is 0.23 m).
static void test_coarse_body_warning_height_field(void **state) {
    (void)state;
    const double amplitude[3] = {0.01, 0.001, 0}, k = 10; // rho = 1 / (a k^2): 1 m, 10 m, flat (c = 3: 1 m)
    enum { ROWS = 4, COLS = 41 };
    static double heights[ROWS * COLS];
    ipcc_set_log(capture, NULL);
    for (int c = 0; c < 4; ++c) {
        ipcc_world *w = world_with_cube(1e-3, true, NULL);
        for (int r = 0; r < ROWS; ++r)
            for (int j = 0; j < COLS; ++j)
                heights[r * COLS + j] = amplitude[c % 3] * cos(k * (j - (COLS - 1) / 2.0) * 0.05);
        ipcc_shape_def s = ipcc_default_shape_def();
        s.kind = IPCC_SHAPE_HEIGHT_FIELD;
        s.name = "bumps";
        s.heights = heights, s.rows = ROWS, s.cols = COLS;
        s.spacing[0] = s.spacing[1] = 0.05;
        s.center[2] = -30; // far below the cube (heights along local z = world z)
        s.face_samples = c == 3 ? 1 : -1;
        add_shape_or_fail(w, &s);
        coarse_warnings = 0;
        last_warning[0] = '\0';
        assert_int_equal(ipcc_world_start(w), IPCC_OK);
        if (coarse_warnings != (c == 0))
            fail_msg("case %d: %d warnings (last: \"%s\")", c, coarse_warnings, last_warning);
        const char *at = strstr(last_warning, "height_field \"bumps\" (least radius of curvature ");
        double rho = at ? atof(at + strlen("height_field \"bumps\" (least radius of curvature ")) : 0;
        if (c == 0 && !(rho > 0.4 && rho <= 1.0))
            fail_msg("\"%s\": the terrain or its radius (0.4 to 1 m) missing", last_warning);
        ipcc_world_destroy(w);
    }
    ipcc_set_log(NULL, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_shape_refuses_bad_defs),
        cmocka_unit_test(test_add_shape_stores_the_def),
        cmocka_unit_test(test_clock),
        cmocka_unit_test(test_box_screw_motion_and_edges),
        cmocka_unit_test(test_blocked_shape_ends_at_its_progress),
        cmocka_unit_test(test_cylinder_rims),
        cmocka_unit_test(test_coarse_body_warning),
        cmocka_unit_test(test_coarse_body_warning_height_field),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
