// Body triangles against curved analytic shapes (issue 20, item 1): a
// cylinder (side and rim), an ellipsoid and a torus (outer tube, and its
// inner side through the hole) must keep whole body triangles out, not
// only body vertices (contact_samples.c: the barrier on vertices and sample
// points, the CCD on whole faces against the shape inset by 0.5 d̂). Bodies are coarse on purpose (surface
// edges of 4-7 cm, long enough for a surface of radius 4-8 cm to bulge between a triangle's vertices by
// millimetres: the sagitta l^2 / (8 rho) of test_shape_obstacles.c) and hit the shapes at 20 m/s, default
// settings, d̂ = 1e-3. After every step:
//   - every body surface triangle, sampled on a barycentric grid of
//     20 per edge (its vertices and edge points included), lies
//     outside the exact shape at its pose, or less than IPCC_SAMPLE_DEPTH d̂
//     = 0.5 mm inside it (the guarantee); a sphere is exact: strictly outside.
//     With vertices only (before issue 20) the deepest were 2.6 to 4.1 cm
//     inside;
//   - no shape surface point (a fixed cloud projected on the shape) lies
//     inside a body tet;
//   - no inverted tet, and the bodies are intersection-free (exact
//     predicates, world_checks.h).
// The deepest triangle sample inside each shape is printed (measured: at
// most 0.1 d̂, the samples' sag budget; contact_samples.c).
//
// Tunneling: a stiff plate much wider than the shape at 40 m/s (0.4 m per
// step, more than the shape is deep) aimed so every plate vertex passes
// beside the shape (a 5 x 5 cell plate, 1 m wide, whose vertices all miss
// the shape's outline): only a triangle-shape (or edge-shape) CCD can stop
// it. Its centroid must stay in front of the shape's centre after every
// step. (A plate only a few times wider than the shape, or soft, can get
// around it within one step: Newton's path from the step's start to the
// incremental potential's minimum is intersection-free at every iterate,
// but may slide the plate sideways around the shape and back, ending at
// the free-flight position; README, Limits. Such a plate tests the path,
// not the CCD.)

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collision/contact_samples.h"
#include "geometry/distance.h"
#include "shape/shape.h"
#include "shape_checks.h"
#include "support.h"
#include "world_checks.h"

#define SHAPE_SAMPLES 400
#define DHAT 1e-3
#define DEPTH (IPCC_SAMPLE_DEPTH * DHAT) // the guaranteed depth (contact_samples.h)

// Points of shape s's surface (a fixed cloud projected on it) inside a body
// tet: the depth of the deepest (its distance to the bodies' surface), or -1
// if there is none.
static double shape_points_in_tets(const ipcc_world *w, const ipcc_shape *s) {
    const double *x = ipcc_world_positions(w);
    const int *tets = ipcc_world_tets(w);
    int nt = ipcc_world_num_tets(w);
    double L = ipcc_shape_bounding_radius(s), deepest = -1;
    ipcc_test_seed(7);
    for (int k = 0; k < SHAPE_SAMPLES; ++k) {
        double q[3], y[3];
        for (int j = 0; j < 3; ++j)
            q[j] = s->center[j] + ipcc_test_random(-1.2, 1.2) * L;
        ipcc_shape_distance(s, q, y, NULL);
        for (int t = 0; t < nt; ++t)
            if (ipcc_test_strictly_inside_tet(x, tets + 4 * t, y)) {
                deepest = fmax(deepest, ipcc_test_surface_distance(w, y));
                break;
            }
    }
    return deepest;
}

static ipcc_world *new_world(void) {
    ipcc_world_def def = ipcc_default_world_def();
    def.gravity[1] = 0;
    def.contact.dhat = DHAT;
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&def, &w), IPCC_OK);
    return w;
}

// A box body of cells[] cells and size[] (m), rotated by rot (degrees about
// x, y, z around its centre) and then placed with its centre at `centre`.
static void add_box(ipcc_world *w, const int cells[3], const double size[3], const double centre[3],
                    const double rot[3], const double v[3], double youngs_modulus) {
    ipcc_mesh *m = ipcc_test_box_mesh(cells[0], cells[1], cells[2], size[0], size[1], size[2]);
    ipcc_body_def bd = ipcc_default_body_def();
    bd.mesh = m;
    bd.name = "body";
    bd.material.youngs_modulus = youngs_modulus;
    for (int k = 0; k < 3; ++k) {
        bd.translation[k] = centre[k] - 0.5 * size[k];
        bd.rotation[k] = rot[k];
        bd.velocity[k] = v[k];
    }
    assert_int_equal(ipcc_world_add_body(w, &bd, NULL), IPCC_OK);
    ipcc_mesh_destroy(m);
}

// A static shape centred at (0, cy, 0); R (row-major, columns the local
// axes) may be NULL.
static void add_shape(ipcc_world *w, ipcc_shape_kind kind, const char *name, double s0, double s1, double s2,
                      double cy, const double R[9]) {
    ipcc_shape_def s = ipcc_default_shape_def();
    s.kind = kind;
    s.name = name;
    s.center[1] = cy;
    s.size[0] = s0, s.size[1] = s1, s.size[2] = s2;
    if (R) memcpy(s.rotation, R, sizeof s.rotation);
    assert_int_equal(ipcc_world_add_shape(w, &s, NULL), IPCC_OK);
}

// Steps w `steps` times checking the invariants of the preamble after each;
// returns the smallest triangle sample distance to shape 0 over the run.
// Triangle samples on or inside the shape, or shape points inside a tet,
// fail the test at the end of the run, after the deepest sample is printed.
static double run(ipcc_world *w, int steps, const char *what, double allowed) {
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    double dmin = INFINITY;
    double in_tets = -1; // the deepest shape point inside a tet, -1: none
    int worst_step = 0;
    char label[96];
    for (int k = 1; k <= steps; ++k) {
        ipcc_step_stats st;
        if (ipcc_world_step(w, &st) < 0) fail_msg("%s: step %d: %s", what, k, ipcc_last_error());
        if (getenv("IPCC_TEST_VERBOSE"))
            print_message("%s, step %d: %d Newton iterations, %d line-search steps, %.3g s (CCD %.3g s, "
                          "constraints %.3g s, assembly %.3g s), converged %d\n",
                          what, k, st.newton_iterations, st.line_search_steps, st.time_total, st.time_ccd,
                          st.time_constraint_search, st.time_assembly, st.converged);
        snprintf(label, sizeof label, "%s, step %d", what, k);
        ipcc_test_assert_no_inversion(w);
        ipcc_test_assert_intersection_free(w, label);
        ipcc_shape s = ipcc_test_shape_now(w, 0);
        double d = ipcc_test_least_grid_distance(w, &s, 20);
        if (d < dmin) dmin = d, worst_step = k;
        in_tets = fmax(in_tets, shape_points_in_tets(w, &s));
    }
    print_message("%s: closest triangle sample %.3g m %s (step %d)\n", what, fabs(dmin),
                  dmin > 0 ? "outside" : "inside", worst_step);
    if (!(dmin > -allowed))
        fail_msg("%s: a body triangle sample is %.3g m inside the shape (step %d), more than %.3g m", what,
                 -dmin, worst_step, allowed);
    if (in_tets >= allowed)
        fail_msg("%s: a shape surface point is %.3g m inside a body tet, more than %.3g m", what, in_tets,
                 allowed);
    return dmin;
}

static const double axis_x[9] = {0, 0, 1, 0, 1, 0, -1, 0, 0}; // local z along world x

// A world with a tilted 0.1 m cube of 2 x 2 x 2 cells (surface edges 5 cm,
// diagonals 7 cm, turned by rot) at 20 m/s along +x, its centre starting
// 0.25 m before x = 0 at height y and depth z, and the shape `name` (kind,
// sizes s, centred at (0, cy, 0), rotation R or none).
static ipcc_world *cube_world(ipcc_shape_kind kind, const double s[3], double cy, const double *R, double y,
                              double z, const double rot[3], const char *name) {
    ipcc_world *w = new_world();
    int cells[3] = {2, 2, 2};
    double size[3] = {0.1, 0.1, 0.1}, at[3] = {-0.25, y, z}, v[3] = {20, 0, 0};
    add_box(w, cells, size, at, rot, v, 2e5);
    add_shape(w, kind, name, s[0], s[1], s[2], cy, R);
    return w;
}

// cube_world's cube into its shape for 8 steps with run()'s checks: against
// a sphere nothing may enter, against the sampled shapes no more than DEPTH.
static void cube_into(ipcc_shape_kind kind, const double s[3], double cy, const double *R, double y, double z,
                      const double rot[3], const char *what) {
    ipcc_world *w = cube_world(kind, s, cy, R, y, z, rot, what);
    assert_true(run(w, 8, what, kind == IPCC_SHAPE_SPHERE ? 0 : DEPTH) < 1e-3);
    ipcc_world_destroy(w);
}

static const double cylinder[3] = {0.08, 0.1, 0}; // r, half-length; axis z

// The control: a sphere (r = 0.08) is exact against whole triangles
// (contact.c), so the same cube and checks pass against it with no depth.
static void test_cube_hits_sphere(void **state) {
    (void)state;
    const double rot[3] = {10, 35, 5}, s[3] = {0.08, 0, 0};
    cube_into(IPCC_SHAPE_SPHERE, s, 0, NULL, 0.012, 0.013, rot, "cube on sphere");
}

// The cylinder hit on its side by a cube leading with edges across the axis.
static void test_cube_hits_cylinder_side(void **state) {
    (void)state;
    const double rot[3] = {10, 35, 5};
    cube_into(IPCC_SHAPE_CYLINDER, cylinder, 0, NULL, 0.012, 0.013, rot, "cube on cylinder side");
}

// A flat plate (0.2 m square of 4 x 4 cells, 5 cm edges) at 20 m/s
// broadside onto the same cylinder's side, slightly tilted.
static ipcc_world *plate_onto_cylinder_side(void) {
    ipcc_world *w = new_world();
    int cells[3] = {1, 4, 4};
    double size[3] = {0.02, 0.2, 0.2}, at[3] = {-0.2, 0.013, 0.011}, rot[3] = {3, 0, 4}, v[3] = {20, 0, 0};
    add_box(w, cells, size, at, rot, v, 1e6);
    add_shape(w, IPCC_SHAPE_CYLINDER, "cylinder", cylinder[0], cylinder[1], 0, 0, NULL);
    return w;
}

static void test_plate_hits_cylinder_side(void **state) {
    (void)state;
    ipcc_world *w = plate_onto_cylinder_side();
    assert_true(run(w, 8, "plate on cylinder side", DEPTH) < 1e-3);
    ipcc_world_destroy(w);
}

// A state set between steps (ipcc_world_set_state) is held to the bound a
// step keeps, not to the initial state's: the cube of
// test_cube_hits_cylinder_side pressed into the cylinder, moved 1e-7 m
// along the axis (its faces as deep as the step left them), is accepted;
// moved 2 d̂ further into it, refused. (The 20 m/s plate on the cylinder
// above no longer presses a face point in since the barrier stiffness's
// locking rule, barrier_stiffness.c.)
static void test_set_state_keeps_the_depth_budget(void **state) {
    (void)state;
    const double rot[3] = {10, 35, 5};
    ipcc_world *w = cube_world(IPCC_SHAPE_CYLINDER, cylinder, 0, NULL, 0.012, 0.013, rot, "cylinder");
    double depth = 0; // the deepest face point now: step until the impact presses faces in
    for (int k = 0; k < 8 && depth <= 0; ++k) {
        run(w, 1, "cube on cylinder side, then set", DEPTH);
        ipcc_shape s = ipcc_test_shape_now(w, 0);
        depth = -ipcc_test_least_grid_distance(w, &s, 20);
    }
    assert_true(depth > 0); // the case this test is about: faces inside, within the budget
    const int n = ipcc_world_num_vertices(w);
    double *x = malloc(sizeof(double) * 3 * (size_t)n);
    assert_non_null(x);
    memcpy(x, ipcc_world_positions(w), sizeof(double) * 3 * (size_t)n);
    const int nd = ipcc_world_num_deformable_vertices(w); // the rims' segment body comes after
    for (int i = 0; i < nd; ++i)
        x[3 * i + 2] += 1e-7;
    ipcc_status st = ipcc_world_set_state(w, x, NULL);
    print_message("faces %.3g m inside the cylinder: set_state along the axis gives %s\n", depth,
                  st == IPCC_OK ? "OK" : ipcc_last_error());
    assert_int_equal(st, IPCC_OK);
    for (int i = 0; i < nd; ++i)
        x[3 * i] += 2 * DHAT;
    assert_int_equal(ipcc_world_set_state(w, x, NULL), IPCC_ERR_INFEASIBLE);
    print_message("2 d̂ further in: %s\n", ipcc_last_error());
    assert_non_null(strstr(ipcc_last_error(), "cylinder \"cylinder\""));
    free(x);
    ipcc_world_destroy(w);
}

// The cylinder's rim: the cube aimed at the edge where its side meets its
// cap z = 0.1.
static void test_cube_hits_cylinder_rim(void **state) {
    (void)state;
    const double rot[3] = {25, 30, 15};
    cube_into(IPCC_SHAPE_CYLINDER, cylinder, 0, NULL, 0.011, 0.1, rot, "cube on cylinder rim");
}

// Ellipsoid (semi-axes 0.12, 0.07, 0.09; least radius of curvature 4 cm).
static void test_cube_hits_ellipsoid(void **state) {
    (void)state;
    const double rot[3] = {30, 40, 10}, s[3] = {0.12, 0.07, 0.09};
    cube_into(IPCC_SHAPE_ELLIPSOID, s, 0, NULL, 0.02, 0.01, rot, "cube on ellipsoid");
}

// Torus (R = 0.1, r = 0.04) with its axis along x, centred at y = 0.1: the
// cube hits the outer side of its tube near y = 0 (as in
// test_shape_obstacles.c).
static void test_cube_hits_torus_tube(void **state) {
    (void)state;
    const double rot[3] = {30, 40, 10}, s[3] = {0.1, 0.04, 0};
    cube_into(IPCC_SHAPE_TORUS, s, 0.1, axis_x, 0.02, 0.01, rot, "cube on torus tube");
}

// The same torus (centred at the origin, axis x, hole radius R - r = 0.06)
// met along its axis by a 0.15 m cube of 3 x 3 x 3 cells (5 cm edges)
// leading with a corner: the corner enters the hole and the cube's faces
// and edges land on the inner side of the tube.
static void test_cube_enters_torus_hole(void **state) {
    (void)state;
    ipcc_world *w = new_world();
    int cells[3] = {3, 3, 3};
    double size[3] = {0.15, 0.15, 0.15}, at[3] = {-0.3, 0.004, 0.003}, rot[3] = {45, 35.26, 0},
           v[3] = {20, 0, 0};
    add_box(w, cells, size, at, rot, v, 2e5);
    add_shape(w, IPCC_SHAPE_TORUS, "torus", 0.1, 0.04, 0, 0, axis_x);
    assert_true(run(w, 8, "cube into torus hole", DEPTH) < 1e-3);
    ipcc_world_destroy(w);
}

// A 1 m plate of 5 x 5 x 1 cells (vertices 0.2 m apart, E = 1e9 Pa) at 40
// m/s along +z, centred on the axis of shape (kind, sizes s, rotation R or
// none): the shape (within |x|, |y| < 0.1 of the middle cell, or a bar
// along x longer than the plate) misses every plate vertex. Its front
// starts at z = -front - 0.05: one step carries it 0.4 m, past the shape.
static void plate_at_40(ipcc_shape_kind kind, const double s[3], const double *R, double front,
                        const char *what) {
    ipcc_world *w = new_world();
    add_shape(w, kind, what, s[0], s[1], s[2], 0, R);
    int cells[3] = {5, 5, 1};
    double size[3] = {1.0, 1.0, 0.02}, at[3] = {0, 0, -front - 0.06}, rot[3] = {0, 0, 0}, v[3] = {0, 0, 40};
    add_box(w, cells, size, at, rot, v, 1e9);
    for (int k = 1; k <= 3; ++k) {
        run(w, 1, what, kind == IPCC_SHAPE_SPHERE ? 0 : DEPTH);
        const double *x = ipcc_world_positions(w);
        int nd = ipcc_world_num_deformable_vertices(w);
        double zc = 0;
        for (int i = 0; i < nd; ++i)
            zc += x[3 * i + 2] / nd;
        print_message("%s: plate centroid z after step %d: %.4f (the shape spans z >= %.3f)\n", what, k, zc,
                      -front);
        if (!(zc < 0)) fail_msg("%s: the plate passed the shape's centre (centroid z %.4f)", what, zc);
    }
    ipcc_world_destroy(w);
}

// The sphere, for comparison (its centre against the plate's triangles,
// contact_ccd.c).
static void test_plate_does_not_tunnel_through_sphere(void **state) {
    (void)state;
    const double s[3] = {0.05, 0, 0};
    plate_at_40(IPCC_SHAPE_SPHERE, s, NULL, 0.05, "plate at 40 m/s, sphere");
}

// A bar across the plate (axis x, r = 0.04, half-length 0.6: its rims lie
// beyond the plate's sides), met side-on.
static void test_plate_does_not_tunnel_through_cylinder(void **state) {
    (void)state;
    const double s[3] = {0.04, 0.6, 0};
    plate_at_40(IPCC_SHAPE_CYLINDER, s, axis_x, 0.04, "plate at 40 m/s, cylinder");
}

static void test_plate_does_not_tunnel_through_ellipsoid(void **state) {
    (void)state;
    const double s[3] = {0.06, 0.05, 0.04};
    plate_at_40(IPCC_SHAPE_ELLIPSOID, s, NULL, 0.04, "plate at 40 m/s, ellipsoid");
}

// The torus's axis along x: the plate meets the outer side of its tube
// broadside at z = -(R + r).
static void test_plate_does_not_tunnel_through_torus(void **state) {
    (void)state;
    const double s[3] = {0.04, 0.02, 0};
    plate_at_40(IPCC_SHAPE_TORUS, s, axis_x, 0.06, "plate at 40 m/s, torus");
}

// Friction and contact reports at the samples: a plate of 4 x 5 cm cells
// centred across a horizontal cylinder's top line (axis z), its vertex
// rows 2 cm to either side, so only its sample points are within d̂ (the
// vertices are 2.9 mm off the surface; a plate rocking on a cylinder of
// radius above half its thickness is stable); gravity tilted 10 degrees
// down the axis. Without
// friction it slides at g sin 10 t (the top line is straight); with mu = 0.5
// > tan 10 it sticks. The records are edge-shape and triangle-shape ones
// naming the cylinder, and their normal forces add up to the plate's
// barrier force, which holds the weight's normal part.
static void plate_on_cylinder(double mu, double *speed, double *normal, double *weight_n) {
    ipcc_world_def def = ipcc_default_world_def();
    const double alpha = 10 * 3.141592653589793 / 180;
    def.gravity[1] = -9.81 * cos(alpha);
    def.gravity[2] = -9.81 * sin(alpha);
    def.contact.dhat = DHAT;
    def.contact.friction = mu;
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&def, &w), IPCC_OK);
    ipcc_mesh *m = ipcc_test_box_mesh(5, 1, 4, 0.2, 0.02, 0.2);
    ipcc_body_def bd = ipcc_default_body_def();
    bd.mesh = m;
    bd.name = "plate";
    bd.material.youngs_modulus = 1e7;
    bd.translation[0] = -0.1, bd.translation[1] = 0.0805, bd.translation[2] = -0.1;
    assert_int_equal(ipcc_world_add_body(w, &bd, NULL), IPCC_OK);
    ipcc_mesh_destroy(m);
    add_shape(w, IPCC_SHAPE_CYLINDER, "bar", 0.08, 0.4, 0, 0, NULL);
    run(w, 30, mu > 0 ? "plate on a cylinder, mu 0.5" : "plate on a cylinder, mu 0", DEPTH);
    const double *v = ipcc_world_velocities(w), *mass = ipcc_world_masses(w);
    const double *f = ipcc_world_contact_forces(w);
    int nd = ipcc_world_num_deformable_vertices(w);
    double vz = 0, m_total = 0, f_body[3] = {0, 0, 0};
    for (int i = 0; i < nd; ++i) {
        vz += mass[i] * v[3 * i + 2];
        m_total += mass[i];
        for (int j = 0; j < 3; ++j)
            f_body[j] += f[3 * i + j];
    }
    *speed = -vz / m_total;
    *weight_n = 9.81 * cos(alpha) * m_total;
    ipcc_contact_report *rep = NULL;
    assert_int_equal(ipcc_contact_report_create(&rep), IPCC_OK);
    assert_non_null(rep);
    const ipcc_contact_record *rec = NULL;
    int n = 0, samples = 0, points = 0;
    assert_int_equal(ipcc_world_contacts(w, rep, &rec, &n), IPCC_OK);
    double f_rec[3] = {0, 0, 0};
    for (int k = 0; k < n; ++k) {
        samples += rec[k].active &&
                   (rec[k].type == IPCC_CONTACT_TRIANGLE_SHAPE || rec[k].type == IPCC_CONTACT_EDGE_SHAPE);
        points += rec[k].active && rec[k].type == IPCC_CONTACT_POINT_SHAPE;
        for (int j = 0; j < 3; ++j)
            f_rec[j] += rec[k].normal_force * rec[k].normal[j];
    }
    for (int j = 0; j < 3; ++j)
        assert_near(f_rec[j], f_body[j], 1e-9 * *weight_n, 0);
    print_message("mu %.1f: speed down the axis %.4f m/s, %d sample records, %d vertex records, normal force "
                  "%.5g N (weight's normal part %.5g N)\n",
                  mu, *speed, samples, points, f_rec[1], *weight_n);
    assert_true(samples > 0 && points == 0);
    *normal = f_rec[1];
    ipcc_contact_report_destroy(rep);
    ipcc_world_destroy(w);
}

static void test_plate_slides_or_sticks_on_cylinder(void **state) {
    (void)state;
    double speed, normal, weight_n;
    plate_on_cylinder(0, &speed, &normal, &weight_n);
    double expected = 9.81 * sin(10 * 3.141592653589793 / 180) * 0.3;
    assert_near(speed, expected, 0.02 * expected, 0);
    assert_near(normal, weight_n, 0.02 * weight_n, 0);
    plate_on_cylinder(0.5, &speed, &normal, &weight_n);
    assert_true(fabs(speed) < 0.01 * expected);
    assert_near(normal, weight_n, 0.02 * weight_n, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plate_slides_or_sticks_on_cylinder),
        cmocka_unit_test(test_cube_hits_sphere),
        cmocka_unit_test(test_cube_hits_cylinder_side),
        cmocka_unit_test(test_plate_hits_cylinder_side),
        cmocka_unit_test(test_set_state_keeps_the_depth_budget),
        cmocka_unit_test(test_cube_hits_cylinder_rim),
        cmocka_unit_test(test_cube_hits_ellipsoid),
        cmocka_unit_test(test_cube_hits_torus_tube),
        cmocka_unit_test(test_cube_enters_torus_hole),
        cmocka_unit_test(test_plate_does_not_tunnel_through_sphere),
        cmocka_unit_test(test_plate_does_not_tunnel_through_cylinder),
        cmocka_unit_test(test_plate_does_not_tunnel_through_ellipsoid),
        cmocka_unit_test(test_plate_does_not_tunnel_through_torus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
