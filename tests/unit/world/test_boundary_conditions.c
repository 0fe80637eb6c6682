// Boundary conditions (boundary_conditions.c) on the world's state:
// selection by a box in the body's normalized rest bbox (inclusive bounds)
// or by a vertex list; the first active Dirichlet condition owning a shared
// vertex; the dof map (prescribed dofs -1, the others numbered in dof
// order) and its change flag; targets that are an exact rigid motion about
// the group's centre or a pivot (checked against a closed form built with
// quaternions, independent of the code's Rodrigues matrix); conditions
// ending and their vertices going free with their last velocity; stop
// triggers that fire once, hold or release, and never undo; the end-of-step
// kinematics against finite differences of the motion; Neumann loads only
// on free selected vertices and only while active.
//
// Most cases drive ipcc_dirichlet_prepare_step directly on a started world
// (contact off) and play Newton's part by copying the targets into x: the
// conditions are then tested alone, to rounding, step after step.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "world_checks.h"
#include "world/world.h"
#include "world/boundary_conditions.h"

// The grid body: 4 x 2 x 2 unit cubes, so every rest coordinate is an
// integer offset from the body's bbox minimum and a normalized coordinate
// u = (x - lo) / extent is exactly 0, 1/4, 1/2, 3/4 or 1 along x (0, 1/2, 1
// along y and z).
enum { GRID_NX = 4, GRID_NY = 2, GRID_NZ = 2, GRID_VERTICES = 5 * 3 * 3 };
static const double grid_translation[3] = {-3, 5, 0.5};

static ipcc_world_def unit_world_def(void) {
    ipcc_world_def def = ipcc_default_world_def();
    def.contact.enabled = false;
    def.gravity[1] = 0;
    return def;
}

// A world holding, optionally, a 1 x 1 x 1 cube far away (body 0), then the
// grid body with the given conditions. Not started.
static ipcc_world *grid_world(const ipcc_world_def *def, bool cube_first, int nd,
                              const ipcc_dirichlet_def *dirichlet, int nn, const ipcc_neumann_def *neumann) {
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(def, &w), IPCC_OK);
    if (cube_first) {
        ipcc_mesh *cube = ipcc_test_box_mesh(1, 1, 1, 1, 1, 1);
        ipcc_body_def b = ipcc_default_body_def();
        b.mesh = cube;
        b.name = "cube";
        b.translation[0] = 20;
        assert_int_equal(ipcc_world_add_body(w, &b, NULL), IPCC_OK);
        ipcc_mesh_destroy(cube);
    }
    ipcc_mesh *grid = ipcc_test_box_mesh(GRID_NX, GRID_NY, GRID_NZ, GRID_NX, GRID_NY, GRID_NZ);
    ipcc_body_def b = ipcc_default_body_def();
    b.mesh = grid;
    b.name = "grid";
    memcpy(b.translation, grid_translation, sizeof b.translation);
    b.num_dirichlet = nd;
    b.dirichlet = dirichlet;
    b.num_neumann = nn;
    b.neumann = neumann;
    if (ipcc_world_add_body(w, &b, NULL) != IPCC_OK) fail_msg("%s", ipcc_last_error());
    ipcc_mesh_destroy(grid);
    return w;
}

static void start_or_fail(ipcc_world *w) {
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("%s", ipcc_last_error());
}

// Integer layer of global vertex i of body `body` along axis k: its offset
// from the body's rest bbox minimum (the grid is made of unit cubes).
static int layer(const ipcc_world *w, int body, int i, int k) {
    const ipcc_body *b = &w->bodies[body];
    double lo = INFINITY;
    for (int j = b->first_vertex; j < b->first_vertex + b->num_vertices; ++j)
        lo = fmin(lo, w->x_rest[3 * j + k]);
    double u = w->x_rest[3 * i + k] - lo;
    assert_true(u == floor(u)); // the placement kept the grid exact
    return (int)u;
}

// Layers of the body's vertices (x, y, z) for the grid body.
static void layers(const ipcc_world *w, int body, int i, int out[3]) {
    for (int k = 0; k < 3; ++k)
        out[k] = layer(w, body, i, k);
}

// Playing Newton: prescribed vertices to their targets, then the clock.
static void advance(ipcc_world *w) {
    for (int i = 0; i < w->n; ++i)
        if (w->prescribed[i] >= 0) memcpy(w->x + 3 * i, w->x_target + 3 * i, 3 * sizeof(double));
    w->time += w->def.time_step;
}

static double dist3(const double *a, const double *b) {
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                (a[2] - b[2]) * (a[2] - b[2]));
}

// --- Selection --------------------------------------------------------------

// A box in the grid body's normalized coordinates picks exactly the layers
// it spans, bounds included, normalized to that body's own bbox (a cube
// elsewhere in the world does not stretch it), in global indices.
static void test_select_by_box(void **state) {
    (void)state;
    ipcc_world_def def = unit_world_def();
    ipcc_world *w = grid_world(&def, true, 0, NULL, 0, NULL);
    const int body = 1, first = w->bodies[body].first_vertex;
    assert_int_equal(first, 8); // after the cube's 8 vertices
    struct {
        double lo[3], hi[3];
        int lx, hx, ly, hy, lz, hz; // expected inclusive layer ranges
    } cases[] = {
        {{0.25, 0, 0.5}, {0.5, 0.5, 1}, 1, 2, 0, 1, 1, 2},     // bounds on layers: both included
        {{0.25 + 1e-12, 0, 0}, {0.5, 1, 1}, 2, 2, 0, 2, 0, 2}, // just above a layer: excluded
        {{0.25, 0, 0}, {0.5 - 1e-12, 1, 1}, 1, 1, 0, 2, 0, 2}, // just below one: excluded
        {{-1, -1, -1}, {2, 2, 2}, 0, 4, 0, 2, 0, 2},           // beyond the bbox: all of it
        {{0.99, 0.99, 0.99}, {1, 1, 1}, 4, 4, 2, 2, 2, 2},     // one corner
        {{0.3, 0, 0}, {0.45, 1, 1}, 1, 0, 0, 2, 0, 2},         // between layers: none
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        int *sel = NULL, count = -1;
        assert_int_equal(ipcc_select_vertices(w, body, 0, NULL, cases[c].lo, cases[c].hi, &sel, &count),
                         IPCC_OK);
        int expected = 0;
        for (int i = first; i < first + GRID_VERTICES; ++i) {
            int L[3];
            layers(w, body, i, L);
            bool in = L[0] >= cases[c].lx && L[0] <= cases[c].hx && L[1] >= cases[c].ly &&
                      L[1] <= cases[c].hy && L[2] >= cases[c].lz && L[2] <= cases[c].hz;
            bool found = false;
            for (int j = 0; j < count; ++j)
                found |= sel[j] == i;
            if (in != found)
                fail_msg("case %zu: vertex %d (layers %d %d %d): selected %d", c, i, L[0], L[1], L[2], found);
            expected += in;
        }
        assert_int_equal(count, expected);
        for (int j = 1; j < count; ++j)
            assert_true(sel[j - 1] < sel[j]); // ascending, hence no repeats
        free(sel);
    }
    ipcc_world_destroy(w);
}

// A list selects exactly its (body-local) vertices, sorted, once each, as
// global indices; an index out of the body is refused with a message
// naming it.
static void test_select_by_list(void **state) {
    (void)state;
    ipcc_world_def def = unit_world_def();
    ipcc_world *w = grid_world(&def, true, 0, NULL, 0, NULL);
    const double box[3] = {0, 0, 0}; // ignored with a list
    const int list[] = {7, 3, 3, 44, 0, 7};
    int *sel = NULL, count = 0;
    assert_int_equal(ipcc_select_vertices(w, 1, 6, list, box, box, &sel, &count), IPCC_OK);
    assert_int_equal(count, 4);
    const int expect[] = {8 + 0, 8 + 3, 8 + 7, 8 + 44};
    assert_memory_equal(sel, expect, sizeof expect);
    free(sel);
    // The cube's vertex 3 is global vertex 3.
    const int one = 3;
    assert_int_equal(ipcc_select_vertices(w, 0, 1, &one, box, box, &sel, &count), IPCC_OK);
    assert_int_equal(count, 1);
    assert_int_equal(sel[0], 3);
    free(sel);
    const int bad[][2] = {{0, 45}, {-1, 2}};
    for (int c = 0; c < 2; ++c) {
        sel = NULL;
        assert_int_equal(ipcc_select_vertices(w, 1, 2, bad[c], box, box, &sel, &count),
                         IPCC_ERR_INVALID_ARGUMENT);
        assert_null(sel);
        const char *expect_msg = c == 0 ? "vertex 45 is out of range (the body has 45)"
                                        : "vertex -1 is out of range (the body has 45)";
        assert_string_equal(ipcc_last_error(), expect_msg);
    }
    // Through the body def, the message names the body and the condition.
    ipcc_dirichlet_def d = ipcc_default_dirichlet_def();
    const int out_of_range[] = {2, 45};
    d.num_vertices = 2;
    d.vertices = out_of_range;
    ipcc_world *w2 = NULL;
    assert_int_equal(ipcc_world_create(&def, &w2), IPCC_OK);
    ipcc_mesh *grid = ipcc_test_box_mesh(GRID_NX, GRID_NY, GRID_NZ, GRID_NX, GRID_NY, GRID_NZ);
    ipcc_body_def b = ipcc_default_body_def();
    b.mesh = grid;
    b.name = "grid";
    b.num_dirichlet = 1;
    b.dirichlet = &d;
    assert_int_equal(ipcc_world_add_body(w2, &b, NULL), IPCC_ERR_INVALID_ARGUMENT);
    assert_string_equal(ipcc_last_error(),
                        "body \"grid\": dirichlet[0]: vertex 45 is out of range (the body has 45)");
    ipcc_neumann_def nd = ipcc_default_neumann_def();
    nd.num_vertices = 2;
    nd.vertices = out_of_range;
    b.num_dirichlet = 0;
    b.num_neumann = 1;
    b.neumann = &nd;
    assert_int_equal(ipcc_world_add_body(w2, &b, NULL), IPCC_ERR_INVALID_ARGUMENT);
    assert_string_equal(ipcc_last_error(),
                        "body \"grid\": neumann[0]: vertex 45 is out of range (the body has 45)");
    // A refusal leaves the world as it was: no half-added body, and the
    // world goes on with a valid one.
    assert_int_equal(ipcc_world_num_bodies(w2), 0);
    assert_int_equal(ipcc_world_num_vertices(w2), 0);
    assert_int_equal(ipcc_world_num_tets(w2), 0);
    b.num_neumann = 0;
    assert_int_equal(ipcc_world_add_body(w2, &b, NULL), IPCC_OK);
    if (ipcc_world_start(w2) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    assert_int_equal(ipcc_world_num_vertices(w2), GRID_VERTICES);
    assert_int_equal(ipcc_world_step(w2, NULL), IPCC_OK);
    ipcc_mesh_destroy(grid);
    ipcc_world_destroy(w2);
    ipcc_world_destroy(w);
}

// An obstacle flat along an axis (zero extent there) is selected whole by
// its default condition: a zero extent normalizes to u = 0, not to 0 / 0.
static void test_select_flat_obstacle(void **state) {
    (void)state;
    ipcc_world_def def = unit_world_def();
    ipcc_world *w = grid_world(&def, false, 0, NULL, 0, NULL);
    const double quad[12] = {-1, -2, -1, 1, -2, -1, 1, -2, 1, -1, -2, 1};
    const int faces[6] = {0, 1, 2, 0, 2, 3};
    ipcc_trimesh *tm = NULL;
    assert_int_equal(ipcc_trimesh_create(4, quad, 2, faces, "quad", &tm), IPCC_OK);
    ipcc_obstacle_def od = ipcc_default_obstacle_def();
    od.mesh = tm;
    int ob = -1;
    assert_int_equal(ipcc_world_add_obstacle(w, &od, &ob), IPCC_OK);
    ipcc_trimesh_destroy(tm);
    const ipcc_dirichlet *bc = &w->dirichlet[w->num_dirichlet - 1];
    assert_int_equal(bc->body, ob);
    assert_int_equal(bc->num_vertices, 4);
    for (int j = 0; j < 4; ++j)
        assert_int_equal(bc->vertices[j], w->bodies[ob].first_vertex + j);
    start_or_fail(w);
    ipcc_dirichlet_prepare_step(w);
    for (int j = 0; j < 4; ++j)
        assert_true(ipcc_world_vertex_is_prescribed(w, w->bodies[ob].first_vertex + j));
    ipcc_world_destroy(w);
}

// --- Ownership and the dof map ------------------------------------------------

// Check the dof map against w->prescribed: -1 for prescribed vertices, the
// others numbered 0, 1, 2, ... in dof order; num_unknowns counts them.
static void assert_dof_map(const ipcc_world *w) {
    int u = 0;
    for (int i = 0; i < w->n; ++i)
        for (int k = 0; k < 3; ++k) {
            int expect = w->prescribed[i] >= 0 ? -1 : u++;
            if (w->dof_map[3 * i + k] != expect)
                fail_msg("dof %d: map %d, expected %d", 3 * i + k, w->dof_map[3 * i + k], expect);
        }
    assert_int_equal(w->num_unknowns, u);
}

// Condition 0 (the x layers 0..2) runs from t = 0.25 on; condition 1 (the
// x layers 2..4) until t = 0.75. Layer 2 belongs to whichever is active,
// to condition 0 while both are, and moves with its owner; the dof map
// follows, and the change flag and version report exactly the changes.
static void test_first_active_condition_and_dof_map(void **state) {
    (void)state;
    ipcc_dirichlet_def d[2] = {ipcc_default_dirichlet_def(), ipcc_default_dirichlet_def()};
    d[0].box_max[0] = 0.5;
    d[0].velocity[0] = 1;
    d[0].start = 0.25;
    d[1].box_min[0] = 0.5;
    d[1].velocity[1] = 2;
    d[1].end = 0.75;
    ipcc_world_def def = unit_world_def();
    def.time_step = 0.125;
    ipcc_world *w = grid_world(&def, false, 2, d, 0, NULL);
    start_or_fail(w);
    const double h = def.time_step;
    struct {
        double t;
        int owner[5]; // per x layer
        bool changed;
    } phases[] = {
        {0.0, {-1, -1, 1, 1, 1}, true}, // the first map (from "never mapped")
        {0.125, {-1, -1, 1, 1, 1}, false}, {0.25, {0, 0, 0, 1, 1}, true},   {0.5, {0, 0, 0, 1, 1}, false},
        {0.75, {0, 0, 0, -1, -1}, true},   {1.0, {0, 0, 0, -1, -1}, false},
    };
    for (size_t p = 0; p < sizeof phases / sizeof phases[0]; ++p) {
        w->time = phases[p].t;
        long version = w->dof_version;
        bool changed = ipcc_dirichlet_prepare_step(w);
        if (changed != phases[p].changed) fail_msg("t = %g: changed = %d", w->time, changed);
        assert_int_equal(w->dof_version, version + (changed ? 1 : 0));
        for (int i = 0; i < w->n; ++i) {
            int owner = phases[p].owner[layer(w, 0, i, 0)];
            if (w->prescribed[i] != owner)
                fail_msg("t = %g: vertex %d: owner %d, expected %d", w->time, i, w->prescribed[i], owner);
            assert_int_equal(ipcc_world_vertex_is_prescribed(w, i), owner >= 0);
            if (owner < 0) continue;
            // The owner's motion (a pure translation here): x + v h.
            const double *v = d[owner].velocity;
            for (int k = 0; k < 3; ++k)
                assert_near(w->x_target[3 * i + k], w->x[3 * i + k] + v[k] * h, 1e-14, 0);
        }
        assert_dof_map(w);
        advance(w);
    }
    ipcc_world_destroy(w);
}

// --- Rigid targets -------------------------------------------------------------

// One rigid condition over the x layers 2..4, turning at |w| = 2 rad/s about
// a skew axis and translating, about the group's centroid or a pivot off
// the body: every step's targets are c + v h + Rot(|w| h)(x - c) for the
// step's centre c; over 40 steps the group follows
// c0 + v t + Rot(|w| t)(X - c0) and keeps its pairwise distances to
// rounding; the pivot moves with v.
static void check_rigid_motion(bool pivot) {
    const double axis[3] = {1.0 / 3, 2.0 / 3, 2.0 / 3}, omega = 2.0, vel[3] = {0.3, -0.2, 0.1};
    ipcc_dirichlet_def d = ipcc_default_dirichlet_def();
    d.box_min[0] = 0.5;
    for (int k = 0; k < 3; ++k) {
        d.angular_velocity[k] = omega * axis[k];
        d.velocity[k] = vel[k];
    }
    const double p0[3] = {1, 2, 3};
    if (pivot) {
        d.has_pivot = true;
        memcpy(d.pivot, p0, sizeof d.pivot);
    }
    ipcc_world_def def = unit_world_def();
    def.time_step = 0.01;
    ipcc_world *w = grid_world(&def, false, 1, &d, 0, NULL);
    start_or_fail(w);
    const ipcc_dirichlet *bc = &w->dirichlet[0];
    assert_int_equal(bc->num_vertices, 27);
    double c0[3] = {0, 0, 0};
    if (pivot) {
        memcpy(c0, p0, sizeof c0);
    } else {
        for (int j = 0; j < bc->num_vertices; ++j)
            for (int k = 0; k < 3; ++k)
                c0[k] += w->x_rest[3 * bc->vertices[j] + k] / bc->num_vertices;
    }
    const double h = def.time_step;
    for (int n = 0; n < 40; ++n) {
        // The step's centre: the pivot carried by v, or the group's centroid now.
        double c[3] = {0, 0, 0};
        for (int k = 0; k < 3; ++k)
            c[k] = c0[k] + vel[k] * n * h;
        if (!pivot) {
            double m[3] = {0, 0, 0};
            for (int j = 0; j < bc->num_vertices; ++j)
                for (int k = 0; k < 3; ++k)
                    m[k] += w->x[3 * bc->vertices[j] + k] / bc->num_vertices;
            for (int k = 0; k < 3; ++k)
                assert_near(m[k], c[k], 1e-13, 0); // a rigid motion carries the centroid along
            memcpy(c, m, sizeof c);
        }
        ipcc_dirichlet_prepare_step(w);
        for (int k = 0; k < 3; ++k)
            assert_near(bc->centre_end[k], c[k] + vel[k] * h, 1e-13, 0);
        if (pivot)
            for (int k = 0; k < 3; ++k)
                assert_near(bc->pivot_now[k], c0[k] + vel[k] * (n + 1) * h, 1e-13, 0);
        for (int j = 0; j < bc->num_vertices; ++j) {
            int i = bc->vertices[j];
            assert_int_equal(w->prescribed[i], 0);
            double r[3] = {w->x[3 * i] - c[0], w->x[3 * i + 1] - c[1], w->x[3 * i + 2] - c[2]}, rr[3];
            ipcc_test_quat_rotate(axis, omega * h, r, rr);
            for (int k = 0; k < 3; ++k)
                assert_near(w->x_target[3 * i + k], c[k] + vel[k] * h + rr[k], 1e-13, 0);
        }
        advance(w);
        // The closed form of the whole motion at t = (n + 1) h.
        double t = (n + 1) * h;
        for (int j = 0; j < bc->num_vertices; ++j) {
            int i = bc->vertices[j];
            double R[3] = {w->x_rest[3 * i] - c0[0], w->x_rest[3 * i + 1] - c0[1],
                           w->x_rest[3 * i + 2] - c0[2]},
                   rr[3];
            ipcc_test_quat_rotate(axis, omega * t, R, rr);
            for (int k = 0; k < 3; ++k)
                assert_near(w->x[3 * i + k], c0[k] + vel[k] * t + rr[k], 1e-12, 0);
            for (int l = 0; l < j; ++l) {
                int m = bc->vertices[l];
                assert_near(dist3(w->x + 3 * i, w->x + 3 * m), dist3(w->x_rest + 3 * i, w->x_rest + 3 * m),
                            1e-13, 0);
            }
        }
    }
    // The free vertices never moved.
    for (int i = 0; i < w->n; ++i)
        if (w->prescribed[i] < 0) assert_memory_equal(w->x + 3 * i, w->x_rest + 3 * i, 3 * sizeof(double));
    ipcc_world_destroy(w);
}

static void test_rigid_motion_about_centroid(void **state) {
    (void)state;
    check_rigid_motion(false);
}

static void test_rigid_motion_about_pivot(void **state) {
    (void)state;
    check_rigid_motion(true);
}

// A condition without motion holds its vertices bitwise (c + (x - c) would
// move them by rounding: the grid sits off the origin).
static void test_still_condition_holds_exactly(void **state) {
    (void)state;
    ipcc_dirichlet_def d = ipcc_default_dirichlet_def();
    d.box_min[0] = 0.3;
    ipcc_world_def def = unit_world_def();
    ipcc_world *w = grid_world(&def, false, 1, &d, 0, NULL);
    start_or_fail(w);
    for (int i = 0; i < w->n; ++i) // off-grid values, whose differences round
        for (int k = 0; k < 3; ++k)
            w->x[3 * i + k] += 0.1 * (k + 1) / 3.0;
    ipcc_dirichlet_prepare_step(w);
    int held = 0;
    for (int i = 0; i < w->n; ++i)
        if (w->prescribed[i] == 0) {
            assert_memory_equal(w->x_target + 3 * i, w->x + 3 * i, 3 * sizeof(double));
            held++;
        }
    assert_int_equal(held, 27);
    ipcc_world_destroy(w);
}

// --- Ending and stop triggers -------------------------------------------------

// A body carried at v until `end`, then free (no gravity): while prescribed
// it moves by exactly v h per step, after `end` its vertices are free and,
// with the velocity the integrator left them (the secant for implicit
// Euler, the condition's exact kinematics for Newmark), coast at v.
static void test_end_frees_vertices_with_their_velocity(void **state) {
    (void)state;
    const double v[3] = {0.5, 0.25, 0}, h = 1.0 / 64;
    for (int pass = 0; pass < 2; ++pass) {
        ipcc_mesh *mesh = ipcc_test_box_mesh(2, 1, 1, 0.2, 0.1, 0.1);
        ipcc_dirichlet_def d = ipcc_default_dirichlet_def(); // every vertex
        memcpy(d.velocity, v, sizeof d.velocity);
        d.end = 4 * h; // a binary fraction: the clock hits it exactly
        ipcc_body_def body = ipcc_default_body_def();
        body.mesh = mesh;
        body.num_dirichlet = 1;
        body.dirichlet = &d;
        ipcc_world_def def = ipcc_default_world_def();
        def.gravity[1] = 0;
        def.time_step = h;
        def.newton_tolerance = 1e-9;
        def.integrator = pass == 0 ? IPCC_IMPLICIT_EULER : IPCC_NEWMARK;
        ipcc_world *w = NULL;
        assert_int_equal(ipcc_world_create(&def, &w), IPCC_OK);
        assert_int_equal(ipcc_world_add_body(w, &body, NULL), IPCC_OK);
        if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
        int n = ipcc_world_num_vertices(w);
        const double *X = ipcc_world_rest_positions(w);
        for (int s = 1; s <= 8; ++s) {
            assert_int_equal(ipcc_world_step(w, NULL), IPCC_OK);
            const double *x = ipcc_world_positions(w), *vel = ipcc_world_velocities(w);
            for (int i = 0; i < n; ++i) {
                assert_int_equal(ipcc_world_vertex_is_prescribed(w, i), s <= 4);
                for (int k = 0; k < 3; ++k) {
                    assert_near(x[3 * i + k], X[3 * i + k] + v[k] * s * h, 1e-12, 0);
                    assert_near(vel[3 * i + k], v[k], 1e-9, 0);
                }
            }
        }
        ipcc_world_destroy(w);
        ipcc_mesh_destroy(mesh);
    }
}

static int stop_logs;
static void count_stop_logs(ipcc_log_level level, const char *message, void *user) {
    (void)user;
    if (level == IPCC_LOG_INFO && strstr(message, "a prescribed motion of body \"grid\" stops")) stop_logs++;
}

// The +x face (x layer 4) moves at 1 m/s in x with a trigger on the grid's
// max x. The trigger fires at the first step start where the max passes
// lo + 4 + 0.045 (after 5 steps of 0.01), once (one log line), and holds
// for good: the face stays prescribed, its targets are where it is, even
// after the measure falls back below the value. With `release` the face
// goes free instead (the dof map changes) and stays free.
static void check_stop_trigger(bool release) {
    ipcc_dirichlet_def d = ipcc_default_dirichlet_def();
    d.box_min[0] = 1;
    d.velocity[0] = 1;
    ipcc_world_def def = unit_world_def();
    def.time_step = 0.01;
    ipcc_world *w = grid_world(&def, false, 0, NULL, 0, NULL);
    double max0 = -INFINITY;
    for (int i = 0; i < w->n; ++i)
        max0 = fmax(max0, w->x_rest[3 * i]);
    ipcc_world_destroy(w);
    d.stop = (ipcc_stop_trigger){.axis = 0,
                                 .first_vertex = 0,
                                 .num_vertices = GRID_VERTICES,
                                 .measure_max = true,
                                 .above = true,
                                 .value = max0 + 0.045,
                                 .release = release};
    w = grid_world(&def, false, 1, &d, 0, NULL);
    start_or_fail(w);
    stop_logs = 0;
    ipcc_set_log(count_stop_logs, NULL);
    const ipcc_dirichlet *bc = &w->dirichlet[0];
    assert_int_equal(bc->num_vertices, 9);
    int face = bc->vertices[0];
    for (int n = 0; n < 12; ++n) {
        if (n == 8) // the measure falls back below the value: nothing undoes the stop
            for (int j = 0; j < bc->num_vertices; ++j)
                w->x[3 * bc->vertices[j]] -= 1;
        double x_before = w->x[3 * face];
        bool changed = ipcc_dirichlet_prepare_step(w);
        bool fired = n >= 5;
        if (bc->stopped != fired) fail_msg("step %d: stopped = %d", n, bc->stopped);
        assert_int_equal(changed, n == 0 || (release && n == 5));
        for (int j = 0; j < bc->num_vertices; ++j) {
            int i = bc->vertices[j];
            bool prescribed = !(fired && release);
            assert_int_equal(w->prescribed[i] == 0, prescribed);
            if (!prescribed) continue;
            if (fired) // held where it is
                assert_memory_equal(w->x_target + 3 * i, w->x + 3 * i, 3 * sizeof(double));
            else
                assert_near(w->x_target[3 * i], w->x[3 * i] + 0.01, 1e-14, 0);
        }
        assert_dof_map(w);
        advance(w);
        if (n < 5) assert_near(w->x[3 * face], x_before + 0.01, 1e-14, 0);
    }
    assert_int_equal(stop_logs, 1);
    ipcc_set_log(NULL, NULL);
    ipcc_world_destroy(w);
}

static void test_stop_trigger_holds(void **state) {
    (void)state;
    check_stop_trigger(false);
}

static void test_stop_trigger_releases(void **state) {
    (void)state;
    check_stop_trigger(true);
}

// A trigger fires strictly past its value (a measure equal to it does
// not), by min or max as asked, and only while its condition is active.
static void test_stop_trigger_measure_and_range(void **state) {
    (void)state;
    ipcc_world_def def = unit_world_def();
    ipcc_world *w = grid_world(&def, false, 0, NULL, 0, NULL);
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < w->n; ++i) {
        lo = fmin(lo, w->x_rest[3 * i + 1]);
        hi = fmax(hi, w->x_rest[3 * i + 1]);
    }
    ipcc_world_destroy(w);
    const ipcc_stop_trigger base = {.axis = 1, .first_vertex = 0, .num_vertices = GRID_VERTICES};
    ipcc_dirichlet_def d[6];
    for (int c = 0; c < 6; ++c) {
        d[c] = ipcc_default_dirichlet_def();
        d[c].stop = base;
    }
    // 0: max y > hi: equal, no.      1: max y > hi - 0.5: yes.
    // 2: min y < lo: equal, no.      3: min y < lo + 0.5: yes.
    // 4: min y > lo - 1 (max would be the same): yes.
    // 5: as 1, but active from t = 0.5 only.
    d[0].stop.measure_max = true, d[0].stop.above = true, d[0].stop.value = hi;
    d[1].stop.measure_max = true, d[1].stop.above = true, d[1].stop.value = hi - 0.5;
    d[2].stop.value = lo;
    d[3].stop.value = lo + 0.5;
    d[4].stop.above = true, d[4].stop.value = lo - 1;
    d[5].stop = d[1].stop;
    d[5].start = 0.5;
    w = grid_world(&def, false, 6, d, 0, NULL);
    start_or_fail(w);
    const bool expect[6] = {false, true, false, true, true, false};
    ipcc_dirichlet_prepare_step(w);
    for (int c = 0; c < 6; ++c)
        if (w->dirichlet[c].stopped != expect[c])
            fail_msg("condition %d: stopped = %d", c, w->dirichlet[c].stopped);
    w->time = 0.5;
    ipcc_dirichlet_prepare_step(w);
    assert_true(w->dirichlet[5].stopped);
    ipcc_world_destroy(w);
}

// --- End-of-step kinematics -----------------------------------------------------

// At a vertex's end-of-step target, v = v_c + w x r and a = w x (w x r) are
// the first and second time derivatives of the closed-form motion
// x(t) = c0 + v_c t + Rot(|w| t)(X - c0) (central differences); a stopped
// condition reports zeros.
static void check_kinematics(bool pivot) {
    const double axis[3] = {2.0 / 7, -3.0 / 7, 6.0 / 7}, omega = 3.0, vel[3] = {-0.4, 0.1, 0.7};
    ipcc_dirichlet_def d = ipcc_default_dirichlet_def();
    d.box_max[0] = 0.5;
    for (int k = 0; k < 3; ++k) {
        d.angular_velocity[k] = omega * axis[k];
        d.velocity[k] = vel[k];
    }
    const double p0[3] = {-2, 4, 1};
    if (pivot) {
        d.has_pivot = true;
        memcpy(d.pivot, p0, sizeof d.pivot);
    }
    ipcc_world_def def = unit_world_def();
    def.time_step = 0.02;
    ipcc_world *w = grid_world(&def, false, 1, &d, 0, NULL);
    start_or_fail(w);
    const ipcc_dirichlet *bc = &w->dirichlet[0];
    double c0[3] = {0, 0, 0};
    if (pivot) {
        memcpy(c0, p0, sizeof c0);
    } else {
        for (int j = 0; j < bc->num_vertices; ++j)
            for (int k = 0; k < 3; ++k)
                c0[k] += w->x_rest[3 * bc->vertices[j] + k] / bc->num_vertices;
    }
    for (int n = 0; n < 7; ++n) {
        ipcc_dirichlet_prepare_step(w);
        advance(w);
    }
    ipcc_dirichlet_prepare_step(w); // step 8: targets at t = 8 h
    const double t = 8 * def.time_step, dt = 1e-5, dt2 = 1e-4;
    for (int j = 0; j < bc->num_vertices; ++j) {
        int i = bc->vertices[j];
        double R[3] = {w->x_rest[3 * i] - c0[0], w->x_rest[3 * i + 1] - c0[1], w->x_rest[3 * i + 2] - c0[2]};
        double xp[3], xm[3], x0[3], xp2[3], xm2[3];
        ipcc_test_quat_rotate(axis, omega * (t + dt), R, xp);
        ipcc_test_quat_rotate(axis, omega * (t - dt), R, xm);
        ipcc_test_quat_rotate(axis, omega * t, R, x0);
        ipcc_test_quat_rotate(axis, omega * (t + dt2), R, xp2);
        ipcc_test_quat_rotate(axis, omega * (t - dt2), R, xm2);
        double v[3], a[3];
        ipcc_dirichlet_kinematics(w, 0, w->x_target + 3 * i, v, a);
        for (int k = 0; k < 3; ++k) {
            // The translation's part of x(t +- dt) cancels in a, adds v_c in v.
            double v_fd = vel[k] + (xp[k] - xm[k]) / (2 * dt);
            double a_fd = (xp2[k] - 2 * x0[k] + xm2[k]) / (dt2 * dt2);
            assert_near(v[k], v_fd, 1e-8, 0);
            assert_near(a[k], a_fd, 1e-5, 0);
        }
    }
    // Stopped: held in place, at rest.
    w->dirichlet[0].stopped = true;
    double v[3], a[3];
    ipcc_dirichlet_kinematics(w, 0, w->x_target + 3 * bc->vertices[0], v, a);
    for (int k = 0; k < 3; ++k)
        assert_true(v[k] == 0 && a[k] == 0);
    ipcc_world_destroy(w);
}

static void test_kinematics_about_centroid(void **state) {
    (void)state;
    check_kinematics(false);
}

static void test_kinematics_about_pivot(void **state) {
    (void)state;
    check_kinematics(true);
}

// --- Neumann ----------------------------------------------------------------

// Three loads on the grid, whose x layer 0 is clamped: A on the whole body
// during [0.25, 0.5), B on x layers 3..4 for ever, C on a list (one clamped
// vertex, one free) for ever. A vertex's load is the sum of the active
// conditions selecting it, zero if it is prescribed; has_load says whether
// any is non-zero.
static void test_neumann_loads(void **state) {
    (void)state;
    ipcc_world_def def = unit_world_def();
    ipcc_world *w = grid_world(&def, false, 0, NULL, 0, NULL);
    int clamped = -1, free_vertex = -1;
    for (int i = 0; i < w->n; ++i) {
        int L[3];
        layers(w, 0, i, L);
        if (L[0] == 0 && clamped < 0) clamped = i;
        if (L[0] == 1 && L[1] == 1 && L[2] == 1) free_vertex = i;
    }
    ipcc_world_destroy(w);
    assert_true(clamped >= 0 && free_vertex >= 0);
    ipcc_dirichlet_def clamp = ipcc_default_dirichlet_def();
    clamp.box_max[0] = 0;
    ipcc_neumann_def nd[3] = {ipcc_default_neumann_def(), ipcc_default_neumann_def(),
                              ipcc_default_neumann_def()};
    const double accel[3][3] = {{1, 2, 3}, {0, -10, 0}, {5, 0, 0.5}};
    for (int c = 0; c < 3; ++c)
        memcpy(nd[c].acceleration, accel[c], sizeof nd[c].acceleration);
    nd[0].start = 0.25;
    nd[0].end = 0.5;
    nd[1].box_min[0] = 0.75;
    const int list[2] = {clamped, free_vertex};
    nd[2].num_vertices = 2;
    nd[2].vertices = list;
    w = grid_world(&def, false, 1, &clamp, 3, nd);
    start_or_fail(w);
    const double times[] = {0, 0.25, 0.375, 0.5, 2};
    for (size_t p = 0; p < sizeof times / sizeof times[0]; ++p) {
        w->time = times[p];
        ipcc_dirichlet_prepare_step(w);
        bool a_on = w->time >= 0.25 && w->time < 0.5;
        for (int i = 0; i < w->n; ++i) {
            int L[3];
            layers(w, 0, i, L);
            assert_int_equal(w->prescribed[i] >= 0, L[0] == 0);
            double expect[3] = {0, 0, 0};
            if (L[0] != 0)
                for (int k = 0; k < 3; ++k)
                    expect[k] = (a_on ? accel[0][k] : 0) + (L[0] >= 3 ? accel[1][k] : 0) +
                                (i == free_vertex ? accel[2][k] : 0);
            for (int k = 0; k < 3; ++k)
                if (w->load[3 * i + k] != expect[k])
                    fail_msg("t = %g: vertex %d (layers %d %d %d): load[%d] = %g, expected %g", w->time, i,
                             L[0], L[1], L[2], k, w->load[3 * i + k], expect[k]);
        }
        assert_true(w->has_load);
    }
    ipcc_world_destroy(w);

    // Only a load that has not started: no load at all.
    ipcc_neumann_def later = ipcc_default_neumann_def();
    later.acceleration[2] = 4;
    later.start = 1;
    w = grid_world(&def, false, 0, NULL, 1, &later);
    start_or_fail(w);
    ipcc_dirichlet_prepare_step(w);
    assert_false(w->has_load);
    for (int d = 0; d < 3 * w->n; ++d)
        assert_true(w->load[d] == 0);
    w->time = 1;
    ipcc_dirichlet_prepare_step(w);
    assert_true(w->has_load);
    for (int i = 0; i < w->n; ++i)
        assert_true(w->load[3 * i + 2] == 4);
    ipcc_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_select_by_box),
        cmocka_unit_test(test_select_by_list),
        cmocka_unit_test(test_select_flat_obstacle),
        cmocka_unit_test(test_first_active_condition_and_dof_map),
        cmocka_unit_test(test_rigid_motion_about_centroid),
        cmocka_unit_test(test_rigid_motion_about_pivot),
        cmocka_unit_test(test_still_condition_holds_exactly),
        cmocka_unit_test(test_end_frees_vertices_with_their_velocity),
        cmocka_unit_test(test_stop_trigger_holds),
        cmocka_unit_test(test_stop_trigger_releases),
        cmocka_unit_test(test_stop_trigger_measure_and_range),
        cmocka_unit_test(test_kinematics_about_centroid),
        cmocka_unit_test(test_kinematics_about_pivot),
        cmocka_unit_test(test_neumann_loads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
