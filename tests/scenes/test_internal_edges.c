// Internal edges don't catch (issue 8): a soft ball sliding without friction
// at 1 m/s over a finely triangulated flat obstacle keeps its speed, as it
// does on an analytic half-space at the same height. The triangles' edges
// and vertices lie exactly in the plane; a contact formulation that lets
// them act as ridges would brake the ball (or deflect it) at every edge it
// crosses, as internal edges do in rigid-body engines.
//
// Setup. meshes/ball.msh (radius 0.1 m, 503 tets; E = 1e6 Pa, nu = 0.4,
// 1000 kg/m^3) starts 5 um above the plane y = 0 (inside d̂, near its
// resting height) moving at 1 m/s along x, under gravity, frictionless
// (contact.friction = 0). The plane, x in [-0.3, 1.3], z in [-0.2, 0.2], is
// written at run time as an OBJ of 123 x 31 cells of 1.30 x 1.29 cm, two
// triangles each (7626 triangles). Implicit Euler, h = 0.01 s, 100 steps
// (1 m of travel), Newton tolerance 1e-5 (at IPC's 1e-2 the momentum of the
// half-space run could drift by up to tol L / 1 s ~ 3.5e-3 m/s, close to
// the bound).
//
// - The cell size does not divide the distance per step (1 cm): with 1 cm
//   cells the ball's vertices met the edges at the same phase at every
//   step, and whatever force an edge gave added up coherently.
// - d̂ is the default, 1e-3 L = 3.4e-4 m. Two things make the mesh act as
//   its plane (src/collision/contact_multiplicity.c). The ball's vertices feel the
//   plane's triangles, edges and vertices through inclusion-exclusion
//   multiplicities, so a vertex over an internal edge or vertex feels b(h)
//   once, not two or three times. And the plane's internal edges and
//   vertices, which lie in a planar region of an obstacle, are no features:
//   they get no edge-edge terms and do not act as points against the
//   ball's faces.
// - Before that (IPC's duplicate-free keys, every key counted once) the
//   ball lost 2.8 % of its speed over the metre here at this d̂, in discrete
//   catches at the internal edges: ridges ~2 d̂ wide where a ball vertex
//   had a point-edge constraint besides its point-triangle one (without
//   edge-edge terms that alone lost 13 %), plus the edge-edge terms between
//   the ball's flattened bottom and the plane's edges, and the plane's
//   vertices entering the contact patch under the ball's front faces. That
//   test passed only at d̂ = 1e-5 m.
// - Observed with these settings: the mesh run's speed stays in
//   [0.99994, 1.00000] m/s, the half-space run's at 1.000000 m/s (d̂ = 1e-5,
//   1e-4 and 2e-4 m: within 0.006 % as well). The bounds: 0.5 % (the
//   issue's) for the speeds, 1 mm for the centres.
//
// Every step is checked for exact intersection-freedom (the ball against
// the obstacle's triangles, or strictly above the half-space) and no vertex
// may ever be below y = 0.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support.h"
#include "world_checks.h"

static const double gap = 5e-6, v0 = 1.0, h = 0.01;
enum { NUM_STEPS = 100 };

// The plane y = 0 over [x0, x1] x [z0, z1] in nx x nz cells, each split into
// two triangles along the same diagonal, counter-clockwise seen from +y.
static void write_plane(const char *path, double x0, double x1, double z0, double z1, int nx, int nz) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "# ipcc test_internal_edges: the plane y = 0, %d x %d cells\n", nx, nz);
    for (int j = 0; j <= nz; ++j)
        for (int i = 0; i <= nx; ++i)
            fprintf(f, "v %.17g 0 %.17g\n", x0 + (x1 - x0) * i / nx, z0 + (z1 - z0) * j / nz);
    for (int j = 0; j < nz; ++j)
        for (int i = 0; i < nx; ++i) {
            // 1-based indices of the corners (i, j), (i+1, j), (i, j+1), (i+1, j+1)
            int a = j * (nx + 1) + i + 1, b = a + 1, c = a + nx + 1, d = c + 1;
            fprintf(f, "f %d %d %d\nf %d %d %d\n", a, c, d, a, d, b);
        }
    assert_int_equal(fclose(f), 0);
}

typedef struct slide_run {
    double v_min, v_max; ///< centre-of-mass speed along x over the steps, m/s
    double c_end[3];     ///< centre of mass at the end, m
    double lowest;       ///< lowest ball vertex over all steps, m
    int min_contacts;    ///< fewest active contacts in a step
} slide_run;

// Slide the ball over the OBJ plane at `obj`, or over the half-space y >= 0
// when obj is NULL.
static void slide(const char *obj, slide_run *r) {
    ipcc_mesh *ball = NULL;
    if (ipcc_mesh_read(IPCC_SOURCE_DIR "/meshes/ball.msh", &ball) != IPCC_OK)
        fail_msg("%s", ipcc_last_error());
    double bottom = INFINITY;
    for (int i = 0; i < ball->num_vertices; ++i)
        bottom = fmin(bottom, ball->vertices[3 * i + 1]);
    ipcc_world_def def = ipcc_default_world_def();
    def.time_step = h;
    def.gravity[0] = def.gravity[2] = 0;
    def.gravity[1] = -9.81;
    def.newton_tolerance = 1e-5;
    def.contact.friction = 0;
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&def, &w), IPCC_OK);
    ipcc_body_def bd = ipcc_default_body_def();
    bd.name = "ball";
    bd.mesh = ball;
    bd.material.youngs_modulus = 1e6;
    bd.material.poisson_ratio = 0.4;
    bd.translation[1] = gap - bottom;
    bd.velocity[0] = v0;
    assert_int_equal(ipcc_world_add_body(w, &bd, NULL), IPCC_OK);
    ipcc_trimesh *plane = NULL;
    if (obj) {
        if (ipcc_trimesh_read_obj(obj, &plane) != IPCC_OK) fail_msg("%s", ipcc_last_error());
        ipcc_obstacle_def od = ipcc_default_obstacle_def();
        od.name = "plane";
        od.mesh = plane;
        assert_int_equal(ipcc_world_add_obstacle(w, &od, NULL), IPCC_OK);
    } else {
        ipcc_half_space_def ground = ipcc_default_half_space_def(); // y = 0, normal +y
        ground.friction = 0;
        assert_int_equal(ipcc_world_add_half_space(w, &ground, NULL), IPCC_OK);
    }
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    int n = ipcc_world_num_deformable_vertices(w);
    const double *m = ipcc_world_masses(w);
    double mass = 0;
    for (int i = 0; i < n; ++i)
        mass += m[i];
    r->v_min = r->lowest = INFINITY;
    r->v_max = -INFINITY;
    r->min_contacts = 1 << 30;
    char label[48];
    for (int s = 1; s <= NUM_STEPS; ++s) {
        ipcc_step_stats st;
        ipcc_status status = ipcc_world_step(w, &st);
        if (status < 0) fail_msg("%s, step %d: %s", obj ? "mesh" : "half-space", s, ipcc_last_error());
        if (status != IPCC_OK) fail_msg("%s, step %d: did not converge", obj ? "mesh" : "half-space", s);
        snprintf(label, sizeof label, "%s step %d", obj ? "mesh" : "half-space", s);
        ipcc_test_assert_intersection_free(w, label);
        const double *x = ipcc_world_positions(w), *v = ipcc_world_velocities(w);
        double vx = 0;
        for (int k = 0; k < 3; ++k)
            r->c_end[k] = 0;
        for (int i = 0; i < n; ++i) {
            vx += m[i] * v[3 * i] / mass;
            for (int k = 0; k < 3; ++k)
                r->c_end[k] += m[i] * x[3 * i + k] / mass;
            r->lowest = fmin(r->lowest, x[3 * i + 1]);
        }
        r->v_min = fmin(r->v_min, vx);
        r->v_max = fmax(r->v_max, vx);
        if (st.num_contacts < r->min_contacts) r->min_contacts = st.num_contacts;
    }
    ipcc_world_destroy(w);
    ipcc_trimesh_destroy(plane);
    ipcc_mesh_destroy(ball);
}

static void test_ball_slides_over_internal_edges(void **state) {
    (void)state;
    char dir[] = "/tmp/ipcc_internal_edges_XXXXXX", path[64];
    if (!mkdtemp(dir)) fail_msg("mkdtemp failed");
    snprintf(path, sizeof path, "%s/plane.obj", dir);
    write_plane(path, -0.3, 1.3, -0.2, 0.2, 123, 31);
    slide_run mesh, half;
    slide(path, &mesh);
    slide(NULL, &half);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(rmdir(dir), 0);

    double dc = 0;
    for (int k = 0; k < 3; ++k)
        dc += (mesh.c_end[k] - half.c_end[k]) * (mesh.c_end[k] - half.c_end[k]);
    dc = sqrt(dc);
    print_message(
        "internal edges: mesh plane: speed in [%.6f, %.6f] m/s (%+.3f %%, %+.3f %%), end centre (%.6f, "
        "%.6f, %.6f) m, lowest vertex %.3g m, >= %d contacts\n",
        mesh.v_min, mesh.v_max, 100 * (mesh.v_min / v0 - 1), 100 * (mesh.v_max / v0 - 1), mesh.c_end[0],
        mesh.c_end[1], mesh.c_end[2], mesh.lowest, mesh.min_contacts);
    print_message(
        "internal edges: half-space: speed in [%.6f, %.6f] m/s (%+.3f %%, %+.3f %%), end centre (%.6f, "
        "%.6f, %.6f) m, lowest vertex %.3g m, >= %d contacts\n",
        half.v_min, half.v_max, 100 * (half.v_min / v0 - 1), 100 * (half.v_max / v0 - 1), half.c_end[0],
        half.c_end[1], half.c_end[2], half.lowest, half.min_contacts);
    print_message("internal edges: end centres differ by %.3g m\n", dc);

    const slide_run *runs[2] = {&mesh, &half};
    for (int k = 0; k < 2; ++k) {
        const slide_run *r = runs[k];
        // Resting on the plane all the way (else the test says nothing) ...
        assert_true(r->min_contacts > 0);
        // ... never below it ...
        assert_true(r->lowest > 0);
        // ... at the speed it started with: within 0.5 % at every step.
        assert_near(r->v_min, v0, 0, 0.005);
        assert_near(r->v_max, v0, 0, 0.005);
    }
    // The same motion on both: 1 m of travel, ends within 1 mm of each other.
    assert_near(mesh.c_end[0] - half.c_end[0], 0, 1e-3, 0);
    assert_true(dc < 1e-3);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ball_slides_over_internal_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
