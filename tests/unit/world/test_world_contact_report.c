// Contact reports (src/world/world_contact_report.c) against the world's own per-vertex
// forces:
// - a cube resting within d̂ of a half-space: every record is a
//   point-half-space contact of the cube's bottom vertices with that
//   half-space, its points on the vertex and on the plane, the position
//   between them, the normal the plane's; sum normal_force * normal equals
//   the cube's contact force (ipcc_world_contact_forces summed over its
//   vertices) to 1e-9, and the per-object forces are that force and its
//   opposite;
// - the same on a slope with friction: the records' friction forces sum to
//   the cube's friction force (ipcc_world_friction_forces), and the
//   per-object forces (barrier + friction) sum to zero;
// - a cube on a cube turned by 30 degrees about the vertical: point-triangle,
//   edge-edge, point-edge and point-point records between the two bodies;
//   the forces on each cube (records with it as first side, minus those with
//   it as second) equal its per-vertex sum, and every position lies in the
//   gap; the same with the cubes' grids aligned, edges exactly over parallel
//   edges (no edge-edge mollifier, whose force along the edges no record
//   would carry);
// - a cube on a static box shape: point-shape records naming the shape,
//   their second point on the shape's surface; the box's edges are no
//   object of their own;
// - a cube half over a box's edge: records of the box's faces and of its
//   edges both name the box, whose force is the cube's, reversed;
// - a cube thrown up off a rough floor: at the end of the step no
//   constraint is active, but the step's friction contacts are reported,
//   inactive, with normal force 0, their current distance, and the
//   friction forces the world reports;
// - names: objects and types; nothing before the world starts;
// - reading reports after every step leaves the simulation bit-identical.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ipcc/contact_report.h"
#include "ipcc/world.h"
#include "shape/shape.h"
#include "support.h"
#include "world_checks.h"

/// Sum of a per-vertex array over body b.
static void body_sum(const ipcc_world *w, int b, const double *f, double out[3]) {
    int first, count;
    ipcc_world_body_vertices(w, b, &first, &count);
    out[0] = out[1] = out[2] = 0;
    for (int i = first; i < first + count; i++)
        for (int k = 0; k < 3; k++)
            out[k] += f[3 * i + k];
}

static void assert_vec_near(const double a[3], const double b[3], double rtol) {
    double scale = fmax(ipcc_test_norm(3, a), ipcc_test_norm(3, b));
    for (int k = 0; k < 3; k++)
        if (!(fabs(a[k] - b[k]) <= rtol * scale))
            fail_msg("(%.17g, %.17g, %.17g) != (%.17g, %.17g, %.17g) (relative %g)", a[0], a[1], a[2], b[0],
                     b[1], b[2], rtol);
}

/// A world with a cube of side 0.1 (2 x 2 x 2 cells, rotated `angle` degrees
/// about y about its centre) whose bottom is `gap` above y = y0.
static ipcc_world *cube_world(const ipcc_world_def *wd, double y0, double gap, double angle, double mu,
                              const double velocity[3]) {
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(wd, &w), IPCC_OK);
    ipcc_mesh *mesh = ipcc_test_box_mesh(2, 2, 2, 0.1, 0.1, 0.1);
    ipcc_body_def bd = ipcc_default_body_def();
    bd.name = "cube";
    bd.mesh = mesh;
    bd.material.youngs_modulus = 1e6;
    bd.friction = mu;
    bd.rotation[1] = angle;
    bd.translation[0] = -0.05;
    bd.translation[1] = y0 + gap;
    bd.translation[2] = -0.05;
    if (velocity) memcpy(bd.velocity, velocity, sizeof bd.velocity);
    assert_int_equal(ipcc_world_add_body(w, &bd, NULL), IPCC_OK);
    ipcc_mesh_destroy(mesh);
    return w;
}

static const ipcc_contact_record *contacts(const ipcc_world *w, ipcc_contact_report *r, int *n) {
    const ipcc_contact_record *rec = NULL;
    *n = -1;
    assert_int_equal(ipcc_world_contacts(w, r, &rec, n), IPCC_OK);
    assert_true(*n >= 0);
    return rec;
}

static void test_cube_on_half_space(void **state) {
    (void)state;
    ipcc_world_def wd = ipcc_default_world_def();
    wd.contact.dhat = 1e-3;
    ipcc_world *w = cube_world(&wd, 0, 5e-4, 0, 0, NULL);
    ipcc_half_space_def hs = ipcc_default_half_space_def(); // the plane y = 0
    hs.normal[1] = 2;                                       // non-unit normal
    hs.friction = 0;
    assert_int_equal(ipcc_world_add_half_space(w, &hs, NULL), IPCC_OK);
    ipcc_contact_report *r = NULL;
    assert_int_equal(ipcc_contact_report_create(&r), IPCC_OK);
    assert_non_null(r);
    int n;
    contacts(w, r, &n);
    assert_int_equal(n, 0); // not started: no contact state yet
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    for (int s = 0; s < 3; s++)
        assert_true(ipcc_world_step(w, NULL) >= 0);
    const ipcc_contact_record *rec = contacts(w, r, &n);
    assert_int_equal(n, 9); // the bottom face's 3 x 3 vertices
    double sum[3] = {0, 0, 0}, fc[3];
    const double *x = ipcc_world_positions(w);
    for (int k = 0; k < n; k++) {
        const ipcc_contact_record *c = &rec[k];
        assert_int_equal(c->type, IPCC_CONTACT_POINT_HALF_SPACE);
        assert_int_equal(c->object_a, 0);
        assert_int_equal(c->object_b, ipcc_world_num_bodies(w) + 0);
        assert_true(c->active);
        assert_true(c->vertices[0] >= 0 && c->vertices[1] == -1 && c->vertices[3] == -1);
        const double *v = x + 3 * c->vertices[0];
        assert_memory_equal(c->point_a, v, sizeof c->point_a);
        assert_near(c->point_b[1], 0, 1e-15, 0);
        assert_near(c->point_b[0], v[0], 1e-15, 0);
        assert_near(c->distance, v[1], 1e-15, 1e-12);
        assert_true(c->distance > 0 && c->distance < 1e-3);
        assert_near(c->position[1], 0.5 * v[1], 1e-15, 1e-12); // between the plane and the vertex
        assert_near(c->normal[1], 1, 0, 1e-15);
        assert_true(c->normal_force > 0);
        for (int d = 0; d < 3; d++) {
            sum[d] += c->normal_force * c->normal[d];
            assert_true(c->friction_force[d] == 0);
        }
    }
    body_sum(w, 0, ipcc_world_contact_forces(w), fc);
    assert_true(fc[1] > 0);
    assert_vec_near(sum, fc, 1e-9);
    // Per object: the cube gets fc (no friction), the half-space its opposite.
    double forces[6];
    assert_int_equal(ipcc_world_num_contact_objects(w), 2);
    ipcc_contact_report_object_forces(r, w, forces);
    assert_vec_near(forces, fc, 1e-12);
    const double minus[3] = {-fc[0], -fc[1], -fc[2]};
    assert_vec_near(forces + 3, minus, 1e-9);
    char name[32];
    assert_int_equal(ipcc_world_contact_object_name(w, 1, name, sizeof name), 12);
    assert_string_equal(name, "half-space 0");
    assert_int_equal(ipcc_world_contact_object_name(w, 0, name, 3), 4); // truncated like snprintf
    assert_string_equal(name, "cu");
    assert_string_equal(ipcc_contact_type_name(IPCC_CONTACT_POINT_HALF_SPACE), "point-half-space");
    assert_string_equal(ipcc_contact_type_name(IPCC_CONTACT_EDGE_EDGE), "edge-edge");
    assert_string_equal(ipcc_contact_type_name((ipcc_contact_type)17), "unknown");
    ipcc_contact_report_destroy(r);
    ipcc_world_destroy(w);
}

static void test_friction_on_slope(void **state) {
    (void)state;
    ipcc_world_def wd = ipcc_default_world_def();
    wd.contact.dhat = 1e-3;
    wd.contact.friction_iterations = 2;
    // A slope of 26.6 degrees (normal (-1, 2, 0) / sqrt 5) through the origin, the
    // cube's bottom 0.5 mm above it (turned with it), mu 0.3 < tan: it slides.
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&wd, &w), IPCC_OK);
    ipcc_mesh *mesh = ipcc_test_box_mesh(2, 2, 2, 0.1, 0.1, 0.1);
    ipcc_body_def bd = ipcc_default_body_def();
    bd.name = "block";
    bd.mesh = mesh;
    bd.material.youngs_modulus = 1e7;
    bd.friction = 0.3;
    bd.rotation[2] = 26.565051177077990;
    const double n[3] = {-1 / sqrt(5.0), 2 / sqrt(5.0), 0};
    // The rotation is about the box centre (0.05, 0.05, 0.05); put that centre 0.05 + 0.5 mm above the plane.
    for (int k = 0; k < 3; k++)
        bd.translation[k] = (0.05 + 5e-4) * n[k] - 0.05;
    bd.translation[2] = -0.05;
    assert_int_equal(ipcc_world_add_body(w, &bd, NULL), IPCC_OK);
    ipcc_mesh_destroy(mesh);
    ipcc_half_space_def hs = ipcc_default_half_space_def(); // through the origin
    memcpy(hs.normal, n, sizeof hs.normal);
    hs.friction = 0.3;
    assert_int_equal(ipcc_world_add_half_space(w, &hs, NULL), IPCC_OK);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    ipcc_contact_report *r = NULL;
    assert_int_equal(ipcc_contact_report_create(&r), IPCC_OK);
    for (int s = 0; s < 3; s++)
        assert_true(ipcc_world_step(w, NULL) >= 0);
    int m;
    const ipcc_contact_record *rec = contacts(w, r, &m);
    assert_true(m >= 9);
    double nsum[3] = {0, 0, 0}, fsum[3] = {0, 0, 0}, fc[3], ff[3];
    for (int k = 0; k < m; k++) {
        assert_int_equal(rec[k].type, IPCC_CONTACT_POINT_HALF_SPACE);
        assert_true(rec[k].active);
        for (int d = 0; d < 3; d++) {
            nsum[d] += rec[k].normal_force * rec[k].normal[d];
            fsum[d] += rec[k].friction_force[d];
        }
        // Friction is tangential and opposes the slide (down the slope, -x).
        assert_near(rec[k].friction_force[0] * n[0] + rec[k].friction_force[1] * n[1], 0, 1e-9, 0);
    }
    body_sum(w, 0, ipcc_world_contact_forces(w), fc);
    body_sum(w, 0, ipcc_world_friction_forces(w), ff);
    assert_true(ipcc_test_norm(3, ff) > 0.1 * ipcc_test_norm(3, fc));
    assert_true(fsum[0] > 0); // up the slope
    assert_vec_near(nsum, fc, 1e-9);
    assert_vec_near(fsum, ff, 1e-9);
    double forces[6], total[3];
    ipcc_contact_report_object_forces(r, w, forces);
    for (int d = 0; d < 3; d++)
        total[d] = fc[d] + ff[d];
    assert_vec_near(forces, total, 1e-12);
    for (int d = 0; d < 3; d++)
        assert_near(forces[d] + forces[3 + d], 0, 1e-9 * ipcc_test_norm(3, total), 0);
    ipcc_contact_report_destroy(r);
    ipcc_world_destroy(w);
}

static void cube_on_cube(double angle) {
    ipcc_world_def wd = ipcc_default_world_def();
    wd.contact.dhat = 1e-3;
    wd.gravity[1] = 0; // no floor: the cubes meet by their velocities
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&wd, &w), IPCC_OK);
    for (int b = 0; b < 2; b++) {
        ipcc_mesh *mesh = ipcc_test_box_mesh(2, 2, 2, 0.1, 0.1, 0.1);
        ipcc_body_def bd = ipcc_default_body_def();
        bd.name = b ? "upper" : "lower";
        bd.mesh = mesh;
        bd.material.youngs_modulus = 1e6;
        bd.rotation[1] = b ? angle : 0;
        bd.translation[0] = bd.translation[2] = b && angle != 0 ? -0.02 : -0.05;
        bd.translation[1] = b ? 0.1 + 6e-4 : 0;
        bd.velocity[1] = b ? -0.02 : 0.02;
        assert_int_equal(ipcc_world_add_body(w, &bd, NULL), IPCC_OK);
        ipcc_mesh_destroy(mesh);
    }
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    ipcc_contact_report *r = NULL;
    assert_int_equal(ipcc_contact_report_create(&r), IPCC_OK);
    for (int s = 0; s < 2; s++)
        assert_true(ipcc_world_step(w, NULL) >= 0);
    int m;
    const ipcc_contact_record *rec = contacts(w, r, &m);
    assert_true(m > 0);
    int by_type[IPCC_CONTACT_TYPE_COUNT] = {0};
    double on[2][3] = {{0}}, fc[2][3];
    for (int k = 0; k < m; k++) {
        const ipcc_contact_record *c = &rec[k];
        assert_true(c->active);
        assert_true(c->type <= IPCC_CONTACT_POINT_POINT);
        by_type[c->type]++;
        assert_true((c->object_a == 0 && c->object_b == 1) || (c->object_a == 1 && c->object_b == 0));
        // The gap is between y = top of lower and the bottom of upper; the normal points from b to a.
        double top = 0.1;
        assert_true(c->position[1] > top - 1e-3 && c->position[1] < top + 2e-3);
        assert_near(c->normal[1], c->object_a == 1 ? 1 : -1, 1e-3, 0); // nearly vertical
        // The normal is the closest points' direction, but for nearly parallel
        // edges the direction of their force (contact_report.h), here within
        // the edges' angle of it.
        double along = c->type == IPCC_CONTACT_EDGE_EDGE ? 0.032 : 1e-9;
        for (int d = 0; d < 3; d++)
            assert_near(c->point_a[d] - c->point_b[d], c->normal[d] * c->distance,
                        1e-15 + along * c->distance, 0);
        for (int d = 0; d < 3; d++)
            assert_near(c->position[d], 0.5 * (c->point_a[d] + c->point_b[d]), 1e-15, 0);
        for (int d = 0; d < 3; d++) {
            on[c->object_a][d] += c->normal_force * c->normal[d];
            on[c->object_b][d] -= c->normal_force * c->normal[d];
        }
    }
    assert_true(by_type[IPCC_CONTACT_POINT_TRIANGLE] > 0);
    if (angle != 0) assert_true(by_type[IPCC_CONTACT_EDGE_EDGE] > 0);
    for (int b = 0; b < 2; b++) {
        body_sum(w, b, ipcc_world_contact_forces(w), fc[b]);
        assert_vec_near(on[b], fc[b], 1e-9);
    }
    assert_true(fc[1][1] > 0);
    ipcc_contact_report_destroy(r);
    ipcc_world_destroy(w);
}

static void test_cube_on_cube(void **state) {
    (void)state;
    cube_on_cube(30);
    cube_on_cube(0);
}

static void test_cube_on_shape(void **state) {
    (void)state;
    ipcc_world_def wd = ipcc_default_world_def();
    wd.contact.dhat = 1e-3;
    ipcc_world *w = cube_world(&wd, 0, 5e-4, 0, 0, NULL);
    ipcc_half_space_def hs = ipcc_default_half_space_def(); // normal +y
    hs.point[1] = -10;                                      // far away: an id to skip
    hs.friction = 0;
    assert_int_equal(ipcc_world_add_half_space(w, &hs, NULL), IPCC_OK);
    ipcc_shape_def sd = ipcc_default_shape_def();
    sd.name = "table";
    sd.kind = IPCC_SHAPE_BOX;
    sd.center[1] = -0.1;
    sd.size[0] = sd.size[2] = 1;
    sd.size[1] = 0.1; // top at y = 0
    assert_int_equal(ipcc_world_add_shape(w, &sd, NULL), IPCC_OK);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    ipcc_contact_report *r = NULL;
    assert_int_equal(ipcc_contact_report_create(&r), IPCC_OK);
    for (int s = 0; s < 2; s++)
        assert_true(ipcc_world_step(w, NULL) >= 0);
    // Bodies: the cube and the table's edges; objects: the cube, the
    // half-space, the table (its edges are part of it).
    const int nb = ipcc_world_num_bodies(w), shape_id = 2;
    assert_int_equal(nb, 2);
    assert_int_equal(ipcc_world_body_shape(w, 0), -1);
    assert_int_equal(ipcc_world_body_shape(w, 1), 0);
    assert_int_equal(ipcc_world_num_contact_objects(w), 3);
    assert_int_equal(ipcc_world_contact_object_of_body(w, 0), 0);
    assert_int_equal(ipcc_world_contact_object_of_body(w, 1), shape_id);
    assert_int_equal(ipcc_world_contact_object_of_half_space(w, 0), 1);
    assert_int_equal(ipcc_world_contact_object_of_shape(w, 0), shape_id);
    char name[32];
    ipcc_world_contact_object_name(w, shape_id, name, sizeof name);
    assert_string_equal(name, "table");
    ipcc_world_contact_object_name(w, 1, name, sizeof name);
    assert_string_equal(name, "half-space 0");
    int m;
    const ipcc_contact_record *rec = contacts(w, r, &m);
    assert_int_equal(m, 9);
    double sum[3] = {0, 0, 0}, fc[3];
    ipcc_shape pose = {.kind = IPCC_SHAPE_BOX};
    memcpy(pose.size, sd.size, sizeof pose.size);
    ipcc_world_shape_pose(w, 0, pose.center, pose.rotation);
    for (int k = 0; k < m; k++) {
        assert_int_equal(rec[k].type, IPCC_CONTACT_POINT_SHAPE);
        assert_int_equal(rec[k].object_a, 0);
        assert_int_equal(rec[k].object_b, shape_id);
        assert_near(ipcc_shape_distance(&pose, rec[k].point_b, NULL, NULL), 0, 1e-15, 0);
        assert_near(rec[k].distance, ipcc_shape_distance(&pose, rec[k].point_a, NULL, NULL), 1e-15, 1e-12);
        for (int d = 0; d < 3; d++)
            sum[d] += rec[k].normal_force * rec[k].normal[d];
    }
    body_sum(w, 0, ipcc_world_contact_forces(w), fc);
    assert_vec_near(sum, fc, 1e-9);
    double forces[9];
    ipcc_contact_report_object_forces(r, w, forces);
    const double minus[3] = {-fc[0], -fc[1], -fc[2]}, zero[3] = {0, 0, 0};
    assert_vec_near(forces + 3 * shape_id, minus, 1e-9);
    assert_memory_equal(forces + 3, zero, sizeof zero); // the far half-space: nothing
    ipcc_contact_report_destroy(r);
    ipcc_world_destroy(w);
}

/// A cube half over the edge of a box table: the table's faces push the
/// cube's vertices (point-shape records) and its edge pushes the cube's
/// bottom edges and triangles (records against the edges' segment set).
/// Both name the table, one object: its force is the cube's, reversed (on
/// eaf50a8 the edges were an object "table (edges)" with a part of it).
static void test_cube_over_box_edge(void **state) {
    (void)state;
    ipcc_world_def wd = ipcc_default_world_def();
    wd.contact.dhat = 1e-3;
    ipcc_world *w = cube_world(&wd, 0, 5e-4, 0, 0, NULL); // x in [-0.05, 0.05]
    ipcc_shape_def sd = ipcc_default_shape_def();
    sd.name = "table";
    sd.kind = IPCC_SHAPE_BOX;
    sd.center[0] = -1.0025, sd.center[1] = -0.1; // top at y = 0, its edge at x = -0.0025, along z
    sd.size[0] = sd.size[2] = 1;
    sd.size[1] = 0.1;
    assert_int_equal(ipcc_world_add_shape(w, &sd, NULL), IPCC_OK);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    ipcc_contact_report *r = NULL;
    assert_int_equal(ipcc_contact_report_create(&r), IPCC_OK);
    assert_true(ipcc_world_step(w, NULL) >= 0);
    assert_int_equal(ipcc_world_num_bodies(w), 2); // the cube and the table's edges
    assert_int_equal(ipcc_world_num_contact_objects(w), 2);
    char name[32];
    for (int id = 0; id < 2; id++) {
        ipcc_world_contact_object_name(w, id, name, sizeof name);
        assert_string_equal(name, id == 0 ? "cube" : "table");
    }
    int m, on_face = 0, on_edge = 0;
    const ipcc_contact_record *rec = contacts(w, r, &m);
    for (int k = 0; k < m; k++) {
        const bool face = rec[k].type == IPCC_CONTACT_POINT_SHAPE;
        on_face += face;
        on_edge += !face;
        // The table's corners meet the cube's triangles as first side: a record names the table once.
        assert_true((rec[k].object_a == 0 && rec[k].object_b == 1) ||
                    (!face && rec[k].object_a == 1 && rec[k].object_b == 0));
    }
    assert_true(on_face > 0);
    assert_true(on_edge > 0);
    double forces[6], fc[3];
    ipcc_contact_report_object_forces(r, w, forces);
    body_sum(w, 0, ipcc_world_contact_forces(w), fc);
    assert_true(fc[1] > 0);
    assert_vec_near(forces, fc, 1e-12);
    const double minus[3] = {-fc[0], -fc[1], -fc[2]};
    assert_vec_near(forces + 3, minus, 1e-9); // faces and edges together
    ipcc_contact_report_destroy(r);
    ipcc_world_destroy(w);
}

static void test_friction_contact_after_separation(void **state) {
    (void)state;
    ipcc_world_def wd = ipcc_default_world_def();
    wd.contact.dhat = 1e-3;
    wd.contact.friction_iterations =
        1;                         // friction frozen at the step's start, in contact (a re-lag would drop it)
    const double v[3] = {1, 3, 0}; // 3 cm up in the step: far beyond d̂
    ipcc_world *w = cube_world(&wd, 0, 5e-4, 0, 0.5, v);
    ipcc_half_space_def hs = ipcc_default_half_space_def(); // y = 0, normal +y
    hs.friction = 0.5;
    assert_int_equal(ipcc_world_add_half_space(w, &hs, NULL), IPCC_OK);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    ipcc_contact_report *r = NULL;
    assert_int_equal(ipcc_contact_report_create(&r), IPCC_OK);
    ipcc_step_stats st;
    assert_true(ipcc_world_step(w, &st) >= 0);
    assert_int_equal(st.num_contacts, 0);
    assert_true(st.friction_contacts > 0);
    int m;
    const ipcc_contact_record *rec = contacts(w, r, &m);
    assert_int_equal(m, st.friction_contacts);
    double fsum[3] = {0, 0, 0}, ff[3];
    const double *x = ipcc_world_positions(w);
    for (int k = 0; k < m; k++) {
        assert_false(rec[k].active);
        assert_int_equal(rec[k].type, IPCC_CONTACT_POINT_HALF_SPACE);
        assert_int_equal(rec[k].object_b, 1);
        assert_true(rec[k].normal_force == 0);
        assert_near(rec[k].distance, x[3 * rec[k].vertices[0] + 1], 1e-15, 1e-12);
        assert_true(rec[k].distance > 1e-2);
        for (int d = 0; d < 3; d++)
            fsum[d] += rec[k].friction_force[d];
    }
    body_sum(w, 0, ipcc_world_friction_forces(w), ff);
    assert_true(ff[0] < 0); // it slid to +x against the floor's friction
    assert_vec_near(fsum, ff, 1e-9);
    ipcc_contact_report_destroy(r);
    ipcc_world_destroy(w);
}

/// Reading the contacts changes nothing: a cube sliding on a rough slope,
/// stepped with a report after every step and without, ends bit-identical.
static void test_reports_change_nothing(void **state) {
    (void)state;
    ipcc_world_def wd = ipcc_default_world_def();
    wd.contact.dhat = 1e-3;
    const double v[3] = {0.3, 0, 0.1};
    ipcc_half_space_def hs = ipcc_default_half_space_def(); // through the origin
    hs.normal[0] = -0.2;
    hs.friction = 0.4;
    ipcc_world *w[2];
    ipcc_contact_report *r = NULL;
    assert_int_equal(ipcc_contact_report_create(&r), IPCC_OK);
    for (int k = 0; k < 2; k++) {
        w[k] = cube_world(&wd, 0.02, 5e-4, 10, 0.4, v);
        assert_int_equal(ipcc_world_add_half_space(w[k], &hs, NULL), IPCC_OK);
        if (ipcc_world_start(w[k]) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
        for (int s = 0; s < 8; s++) {
            assert_true(ipcc_world_step(w[k], NULL) >= 0);
            int m;
            if (k == 1) contacts(w[k], r, &m);
        }
    }
    const int n = ipcc_world_num_vertices(w[0]);
    int m;
    contacts(w[1], r, &m);
    assert_true(m > 0);
    assert_memory_equal(ipcc_world_positions(w[0]), ipcc_world_positions(w[1]),
                        3 * (size_t)n * sizeof(double));
    assert_memory_equal(ipcc_world_velocities(w[0]), ipcc_world_velocities(w[1]),
                        3 * (size_t)n * sizeof(double));
    ipcc_contact_report_destroy(r);
    ipcc_world_destroy(w[0]);
    ipcc_world_destroy(w[1]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cube_on_half_space),
        cmocka_unit_test(test_friction_on_slope),
        cmocka_unit_test(test_cube_on_cube),
        cmocka_unit_test(test_cube_on_shape),
        cmocka_unit_test(test_cube_over_box_edge),
        cmocka_unit_test(test_friction_contact_after_separation),
        cmocka_unit_test(test_reports_change_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
